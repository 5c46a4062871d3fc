"""tileslc.cute.nvgpu.cpasync: asynchronous copies into shared memory (CuTe DSL's cute.nvgpu.cpasync).

cute.make_copy_atom(CopyG2SOp(), dtype, num_bits_per_copy=128) copies 4, 8 or 16 bytes per
access with cp.async (sm_80 and later); complete them with cute.arch.cp_async_commit_group()
and cute.arch.cp_async_wait_group(n), then a barrier.

TMA (sm_90): in a @cute.jit function,
    tma_a, mA_tma = make_tiled_tma_atom(CopyBulkTensorTileG2SOp(), mA, smem_layout, (BM, BK))
builds the tensor map of mA for (BM, BK) tiles stored as smem_layout (a layout or a swizzled
composed layout); pass both to the kernel, tile mA_tma like mA (cute.local_tile), and load a
tile with cute.copy(tma_a, gA[None, None, k], sA[None, None, stage], tma_bar_ptr=(bars, stage)).
CopyBulkTensorTileS2GOp() (store) and CopyReduceBulkTensorTileS2GOp() (add into global memory)
go the other way: cute.copy(tma_c, sC, gC_tile) after cute.arch.fence_proxy_async() and a barrier,
then cute.arch.cp_async_bulk_commit_group() and cp_async_bulk_wait_group(0) before reusing sC.

Multicast (sm_90a, a kernel launched with cluster=): an atom made with
CopyBulkTensorTileG2SMulticastOp() loads with cute.copy(tma, gB_tile, sB_tile, tma_bar_ptr=(bars, stage),
mcast_mask=mask): one read of global memory lands at the same shared-memory offset in every block
of the cluster whose bit (cute.arch.block_idx_in_cluster()) is set in mask, completing on each
block's own barrier at that offset.
"""

from typing import Any

from tileslc._builtins import CopyG2SOp as CopyG2SOp
from tileslc._builtins import CopyBulkTensorTileG2SOp as CopyBulkTensorTileG2SOp
from tileslc._builtins import make_tiled_tma_atom as make_tiled_tma_atom
from tileslc._builtins import CopyBulkTensorTileS2GOp as CopyBulkTensorTileS2GOp
from tileslc._builtins import CopyReduceBulkTensorTileS2GOp as CopyReduceBulkTensorTileS2GOp
from tileslc._builtins import prefetch_descriptor as prefetch_descriptor
from tileslc._builtins import CopyBulkTensorTileG2SMulticastOp as CopyBulkTensorTileG2SMulticastOp

__all__ = ["CopyG2SOp", "CopyBulkTensorTileG2SOp", "make_tiled_tma_atom", "CopyBulkTensorTileS2GOp", "CopyReduceBulkTensorTileS2GOp", "prefetch_descriptor", "CopyBulkTensorTileG2SMulticastOp"]
