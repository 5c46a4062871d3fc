"""tileslc.utils.epilogue: GEMM epilogues that store accumulators through shared memory.

store_via_smem converts a thread's Float32 accumulators to the output type and writes the
output tile CHUNK columns at a time: registers -> a (rows, CHUNK) shared-memory buffer
(pairs of adjacent columns, one 32-bit store for 16-bit outputs), a named barrier, then
coalesced 128-bit loads and global stores by rows (a warp writes whole 128-byte lines),
and a second named barrier before the buffer is reused. Only the threads of one group
(e.g. a consumer warpgroup: barrier_id 1 + its index, 128 threads) synchronize, so groups
run their epilogues independently. Pad the buffer's rows (e.g. CHUNK + 8 elements for
16-bit outputs) so that the accumulator stores hit distinct banks.

Argument contract (checked while compiling where it can be):
- acc: the thread's accumulator fragment of the whole (rows, N) tile, from a tiled MMA whose
  per-thread values are ordered column chunk by column chunk: mma.sync tiled MMAs (their
  MMA_N mode is the outermost one) and wgmma m64nN fragments (8-column blocks outermost);
- thr_mma_chunk: the thread's slice of the same MMA tiled for CHUNK columns (e.g. wgmma
  (64, CHUNK, 16) instead of (64, N, 16)): its partition_C of sC is where the thread's
  values of one chunk go, in the same order as CHUNK / N of acc;
- sC: the (rows, CHUNK) shared-memory buffer of all groups; sC_group and gC_group: the rows
  this thread's group owns, of sC (R, CHUNK) and of the global output tile (R, N); the group
  must own exactly the rows its accumulators cover;
- tid: the thread's index in its group of num_threads threads.
A TMA store (cp.async.bulk) would also need cute.arch.fence_proxy_async() after the shared
-memory writes; the plain loads and stores here only need the barrier.
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute

def store_via_smem(acc, thr_mma_chunk, sC, sC_group, gC_group, tid, num_threads, barrier_id, dtype) -> Any:
    """Stores acc (converted to dtype) to gC_group through sC, CHUNK = size(sC, mode=[1]) columns at a time;
    barrier_id (static or run-time, 1 to 15) names the group's barrier."""


__all__ = ["cutlass", "cute", "store_via_smem"]
