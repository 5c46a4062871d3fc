"""tileslc.utils: kernel utilities (CuTe DSL's cutlass.utils).

SmemAllocator() hands out shared memory inside a kernel:
    smem = cutlass.utils.SmemAllocator()
    sA = smem.allocate_tensor(cutlass.Float32, cute.make_layout((64, 65)), 16)
Offsets are computed while compiling; the launch reserves the total as dynamic shared
memory (and opts in above 48 KB); over the target's limit is error E0706.

get_device_multiprocessor_count() (host functions) is the GPU's SM count, e.g. for a
persistent grid; get_max_active_clusters(n) (host functions) how many clusters of n blocks
that each fill an SM the GPU runs at once (CuTe DSL's HardwareInfo().get_max_active_clusters),
for a persistent grid of clusters.

Kernel building blocks, as .tpy modules (see each module's docstring; import them by name,
e.g. `from tileslc.utils import tile_scheduler`, so programs that do not use them do not load them):
- tileslc.utils.tile_scheduler: a persistent tile scheduler with grouped rasterization
  (CuTe DSL's StaticPersistentTileScheduler, as functions);
- tileslc.utils.epilogue: accumulators -> shared memory -> coalesced 128-bit global stores;
- tileslc.utils.row_tiling: rows in 128-bit vectors for memory-bound row kernels (a warp or the
  CTA per row, chosen from the column count), with tileslc.reduction's warp and block reductions.
The pipelines (TMA on mbarriers, cp.async multistage) are in tileslc.pipeline.
"""

from typing import Any

from tileslc._builtins import SmemAllocator as SmemAllocator
from tileslc._builtins import get_device_multiprocessor_count as get_device_multiprocessor_count
from tileslc._builtins import get_max_active_clusters as get_max_active_clusters
from tileslc._builtins import LayoutEnum as LayoutEnum
from tileslc._builtins import get_smem_capacity_in_bytes as get_smem_capacity_in_bytes

__all__ = ["SmemAllocator", "get_device_multiprocessor_count", "get_max_active_clusters", "LayoutEnum", "get_smem_capacity_in_bytes"]
