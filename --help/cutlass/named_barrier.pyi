from tileslc.named_barrier import *
from tileslc.named_barrier import __all__ as __all__
