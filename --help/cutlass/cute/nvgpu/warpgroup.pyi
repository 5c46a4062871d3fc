from tileslc.cute.nvgpu.warpgroup import *
from tileslc.cute.nvgpu.warpgroup import __all__ as __all__
