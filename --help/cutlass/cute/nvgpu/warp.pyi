from tileslc.cute.nvgpu.warp import *
from tileslc.cute.nvgpu.warp import __all__ as __all__
