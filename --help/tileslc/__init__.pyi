"""tileslc: scalar types and compile-time control, CuTe DSL's `cutlass` module.

Use it as `import tileslc as cutlass`, so CuTe DSL kernels port by changing imports.
"""

from typing import Any

from tileslc._builtins import range_constexpr as range_constexpr
from tileslc._builtins import const_expr as const_expr
from tileslc._builtins import Constexpr as Constexpr
from tileslc._builtins import tune as tune
from tileslc._builtins import dsl_user_op as dsl_user_op
from tileslc._builtins import Numeric as Numeric
from tileslc._builtins import cutlass_range as range
from tileslc._builtins import cutlass_min as min
from tileslc._builtins import cutlass_max as max
from tileslc._builtins import Float as Float
from tileslc._builtins import Integer as Integer
from tileslc._builtins import Boolean
from tileslc._builtins import Int8
from tileslc._builtins import Int16
from tileslc._builtins import Int32
from tileslc._builtins import Int64
from tileslc._builtins import Uint8
from tileslc._builtins import Uint16
from tileslc._builtins import Uint32
from tileslc._builtins import Uint64
from tileslc._builtins import Float16
from tileslc._builtins import BFloat16
from tileslc._builtins import Float32
from tileslc._builtins import Float64
from tileslc._builtins import TFloat32
from tileslc._builtins import Float8E4M3FN
from tileslc._builtins import Float8E5M2
from tileslc import utils as utils

__all__ = ["range_constexpr", "const_expr", "Constexpr", "tune", "dsl_user_op", "Numeric", "range", "min", "max", "Float", "Integer", "Boolean", "Int8", "Int16", "Int32", "Int64", "Uint8", "Uint16", "Uint32", "Uint64", "Float16", "BFloat16", "Float32", "Float64", "TFloat32", "Float8E4M3FN", "Float8E5M2", "utils"]
