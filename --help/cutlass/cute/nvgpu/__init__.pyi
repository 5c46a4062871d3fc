from tileslc.cute.nvgpu import *
from tileslc.cute.nvgpu import __all__ as __all__
