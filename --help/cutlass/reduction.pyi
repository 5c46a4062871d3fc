from tileslc.reduction import *
from tileslc.reduction import __all__ as __all__
