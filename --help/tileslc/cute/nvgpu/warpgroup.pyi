"""tileslc.cute.nvgpu.warpgroup: warpgroup MMA, wgmma (CuTe DSL's cute.nvgpu.warpgroup; sm_90a).

MmaF16BF16Op(ab_dtype, Float32, (64, N, 16)) and MmaF8Op(a_dtype, b_dtype, Float32, (64, N, 32))
(Float8E4M3FN / Float8E5M2 inputs, any pair) are wgmma.mma_async with A and B read from
shared memory through descriptors (K-major, swizzled tiles); N is 64, 128, 192 or 256.
MmaF16BF16Op(..., a_src=OperandSource.RMEM) reads A from a register fragment instead (the RS
form: make_fragment_A(thr_mma.partition_A(sA)) and a copy into it).
Issue a k-tile as: fence(); cute.gemm(tiled_mma, acc, tCsA, tCsB, acc) ...; commit_group();
wait_group(n) before reusing the shared memory or reading the accumulators.
"""

from typing import Any

from tileslc._builtins import WarpgroupMmaF16BF16Op as MmaF16BF16Op
from tileslc._builtins import WarpgroupMmaF8Op as MmaF8Op
from tileslc._builtins import warpgroup_fence as fence
from tileslc._builtins import warpgroup_commit_group as commit_group
from tileslc._builtins import warpgroup_wait_group as wait_group
from tileslc._builtins import OperandMajorMode as OperandMajorMode
from tileslc._builtins import SmemLayoutAtomKind as SmemLayoutAtomKind
from tileslc._builtins import make_smem_layout_atom as make_smem_layout_atom
from tileslc.cute.nvgpu import operand_source as OperandSource

__all__ = ["MmaF16BF16Op", "MmaF8Op", "fence", "commit_group", "wait_group", "OperandMajorMode", "SmemLayoutAtomKind", "make_smem_layout_atom", "OperandSource"]
