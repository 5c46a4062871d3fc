"""warpgroup.OperandSource (CuTe DSL's cute.nvgpu.warpgroup.OperandSource): where wgmma reads A.

SMEM: a shared-memory descriptor (the default); RMEM: registers, the RS form of wgmma.mma_async.
Pass as MmaF16BF16Op(..., a_src=warpgroup.OperandSource.RMEM).
"""

from typing import Any

SMEM: int
RMEM: int

__all__ = ["SMEM", "RMEM"]
