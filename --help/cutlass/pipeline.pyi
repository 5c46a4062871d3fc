from tileslc.pipeline import *
from tileslc.pipeline import __all__ as __all__
