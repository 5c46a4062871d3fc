"""tileslc.cute.nvgpu: copy and MMA operations (CuTe DSL's cute.nvgpu).

CopyUniversalOp() is the universal copy: cute.make_copy_atom(CopyUniversalOp(), dtype,
num_bits_per_copy=128) moves up to 128 bits per access, vectorized where the layouts
prove the elements contiguous and aligned. MmaUniversalOp(acc_dtype) is one thread's
fused multiply-add. warp.MmaF16BF16Op is mma.sync (sm_80+); cpasync.CopyG2SOp is cp.async.
"""

from typing import Any

from tileslc._builtins import CopyUniversalOp as CopyUniversalOp
from tileslc._builtins import MmaUniversalOp as MmaUniversalOp
from tileslc._builtins import LoadCacheMode as LoadCacheMode
from tileslc.cute.nvgpu import warp as warp
from tileslc.cute.nvgpu import cpasync as cpasync
from tileslc.cute.nvgpu import warpgroup as warpgroup

__all__ = ["CopyUniversalOp", "MmaUniversalOp", "LoadCacheMode", "warp", "cpasync", "warpgroup"]
