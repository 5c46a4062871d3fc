from tileslc.cute import *
from tileslc.cute import __all__ as __all__
