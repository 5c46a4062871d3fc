from tileslc.cute.arch import *
from tileslc.cute.arch import __all__ as __all__
