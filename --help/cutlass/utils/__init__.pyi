from tileslc.utils import *
from tileslc.utils import __all__ as __all__
