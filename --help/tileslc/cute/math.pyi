"""tileslc.cute.math: elementwise math on Float32, Float16, BFloat16 and Float64 values.

Narrow floats (Float16, BFloat16) compute in Float32 and round back once.
"""

from typing import Any

from tileslc._builtins import exp as exp
from tileslc._builtins import exp2 as exp2
from tileslc._builtins import log as log
from tileslc._builtins import log2 as log2
from tileslc._builtins import sqrt as sqrt
from tileslc._builtins import rsqrt as rsqrt
from tileslc._builtins import sin as sin
from tileslc._builtins import cos as cos
from tileslc._builtins import tanh as tanh
from tileslc._builtins import erf as erf
from tileslc._builtins import floor as floor
from tileslc._builtins import ceil as ceil
from tileslc._builtins import fabs as fabs
from tileslc._builtins import fma as fma

__all__ = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "erf", "floor", "ceil", "fabs", "fma"]
