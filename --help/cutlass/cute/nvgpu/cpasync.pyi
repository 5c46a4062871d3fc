from tileslc.cute.nvgpu.cpasync import *
from tileslc.cute.nvgpu.cpasync import __all__ as __all__
