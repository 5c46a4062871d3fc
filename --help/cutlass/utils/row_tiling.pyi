from tileslc.utils.row_tiling import *
from tileslc.utils.row_tiling import __all__ as __all__
