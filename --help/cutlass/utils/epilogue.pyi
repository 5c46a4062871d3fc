from tileslc.utils.epilogue import *
from tileslc.utils.epilogue import __all__ as __all__
