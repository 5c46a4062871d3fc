from tileslc.cute.math import *
from tileslc.cute.math import __all__ as __all__
