from tileslc.cute.nvgpu.operand_source import *
from tileslc.cute.nvgpu.operand_source import __all__ as __all__
