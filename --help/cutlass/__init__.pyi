from tileslc import *
from tileslc import __all__ as __all__
