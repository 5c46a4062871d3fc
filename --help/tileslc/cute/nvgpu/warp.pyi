"""tileslc.cute.nvgpu.warp: warp-level MMA and matrix loads (CuTe DSL's cute.nvgpu.warp).

MmaF16BF16Op(ab_dtype, acc_dtype, (16, 8, 16)) is mma.sync.aligned.m16n8k16 with Float16 or
BFloat16 inputs and Float32 accumulators (sm_80 and later); use it with cute.make_tiled_mma.
MmaTF32Op((16, 8, 8)) is mma.sync m16n8k8 .tf32 (Float32 fragments, rounded to TF32 by the
instruction's wrapper); MmaI8Op(Int8 or Uint8, Int32, (16, 8, 32)) is mma.sync m16n8k32 .s8/.u8.

LdMatrix8x8x16bOp(transpose=False, num_matrices=1) is ldmatrix.sync.aligned.m8n8.x{1,2,4}
(.trans): a warp loads 8x8 matrices of 16-bit elements from shared memory straight into MMA
fragments. cute.make_copy_atom(LdMatrix8x8x16bOp(False, 4), cutlass.BFloat16), then
cute.make_tiled_copy_A/B(atom, tiled_mma), thr_copy.partition_S(sA) and thr_copy.retile(tCrA).

StMatrix8x8x16bOp(transpose=False, num_matrices=1) is stmatrix.sync.aligned.m8n8.x{1,2,4}
(.trans), sm_90 and later: the same exchange the other way, registers to shared memory.
cute.make_tiled_copy_C(atom, tiled_mma), thr_copy.retile(tCrC) and thr_copy.partition_D(sC).
"""

from typing import Any

from tileslc._builtins import MmaF16BF16Op as MmaF16BF16Op
from tileslc._builtins import MmaTF32Op as MmaTF32Op
from tileslc._builtins import MmaI8Op as MmaI8Op
from tileslc._builtins import LdMatrix8x8x16bOp as LdMatrix8x8x16bOp
from tileslc._builtins import StMatrix8x8x16bOp as StMatrix8x8x16bOp

__all__ = ["MmaF16BF16Op", "MmaTF32Op", "MmaI8Op", "LdMatrix8x8x16bOp", "StMatrix8x8x16bOp"]
