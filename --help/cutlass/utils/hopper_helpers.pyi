from tileslc.utils.hopper_helpers import *
from tileslc.utils.hopper_helpers import __all__ as __all__
