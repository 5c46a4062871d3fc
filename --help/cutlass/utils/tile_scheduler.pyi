from tileslc.utils.tile_scheduler import *
from tileslc.utils.tile_scheduler import __all__ as __all__
