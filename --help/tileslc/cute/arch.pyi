"""tileslc.cute.arch: thread, block and grid indices and barriers (CuTe DSL's cute.arch).

thread_idx(), block_idx(), block_dim() and grid_dim() return (x, y, z) tuples of Int32;
block_dim() is static when the launch's block size is.

Atomics take a tensor and a coordinate (Python has no address-of): atomic_add(t, coord, value)
returns the old value of t[coord]; t must be in global or shared memory. shuffle_sync* and
vote_*_sync are the warp collectives (mask defaults to all 32 lanes); warp_redux_sync(value,
kind, mask) is redux.sync on Int32/Uint32 (kind "add", "min", "max", "umin", "umax", "and", "or",
"xor"); atomic_add(t, coord, (a, b)) adds a Float16 or BFloat16 pair to t[coord] and the element
after it in memory (red.add.noftz.f16x2/.bf16x2, 4-byte aligned); barrier(barrier_id=,
number_of_threads=) is a named barrier (bar.sync), plain barrier() is __syncthreads().

sm_90: mbarriers live in shared memory as Int64 elements and are named like atomics,
(tensor, coordinate), so CuTe DSL's mbar_ptr is two parameters: mbarrier_init(mbar_ptr, index,
cnt), mbarrier_init_fence(), mbarrier_arrive(mbar_ptr, index), mbarrier_arrive_and_expect_tx(mbar_ptr,
index, bytes), mbarrier_wait(mbar_ptr, index, phase). fence_proxy_async() orders shared-memory writes
before TMA/wgmma reads; warpgroup_reg_alloc(reg_count) / warpgroup_reg_dealloc(reg_count) are
setmaxnreg (sm_90a); elect_one() is true in one lane of the warp; make_warp_uniform(value)
broadcasts lane 0.

Thread-block clusters (sm_90; launch with .launch(..., cluster=(x, y, z))): cluster_idx() and
cluster_dim() are the cluster's index in the grid and the grid's extent in clusters;
block_in_cluster_idx() and block_in_cluster_dim() the block's (x, y, z) in its cluster and the
cluster's shape (static); block_idx_in_cluster() the block's linear rank in the cluster (the bit
of a TMA mcast_mask). cluster_arrive() / cluster_arrive_relaxed() and cluster_wait() are
barrier.cluster. mbarrier_arrive(bars, i, peer_cta_rank_in_cluster=r) arrives on the barrier at
the same offset in block r of the cluster.
"""

from typing import Any

from tileslc._builtins import thread_idx as thread_idx
from tileslc._builtins import block_idx as block_idx
from tileslc._builtins import block_dim as block_dim
from tileslc._builtins import grid_dim as grid_dim
from tileslc._builtins import sync_threads as sync_threads
from tileslc._builtins import lane_idx as lane_idx
from tileslc._builtins import warp_idx as warp_idx
from tileslc._builtins import atomic_add as atomic_add
from tileslc._builtins import atomic_min as atomic_min
from tileslc._builtins import atomic_max as atomic_max
from tileslc._builtins import atomic_and as atomic_and
from tileslc._builtins import atomic_or as atomic_or
from tileslc._builtins import atomic_xor as atomic_xor
from tileslc._builtins import atomic_exch as atomic_exch
from tileslc._builtins import atomic_cas as atomic_cas
from tileslc._builtins import shuffle_sync as shuffle_sync
from tileslc._builtins import shuffle_sync_up as shuffle_sync_up
from tileslc._builtins import shuffle_sync_down as shuffle_sync_down
from tileslc._builtins import shuffle_sync_bfly as shuffle_sync_bfly
from tileslc._builtins import vote_ballot_sync as vote_ballot_sync
from tileslc._builtins import vote_any_sync as vote_any_sync
from tileslc._builtins import vote_all_sync as vote_all_sync
from tileslc._builtins import warp_redux_sync as warp_redux_sync
from tileslc._builtins import barrier as barrier
from tileslc._builtins import fence_acq_rel_cta as fence_acq_rel_cta
from tileslc._builtins import fence_acq_rel_gpu as fence_acq_rel_gpu
from tileslc._builtins import fence_acq_rel_sys as fence_acq_rel_sys
from tileslc._builtins import cp_async_commit_group as cp_async_commit_group
from tileslc._builtins import cp_async_wait_group as cp_async_wait_group
from tileslc._builtins import mbarrier_init as mbarrier_init
from tileslc._builtins import mbarrier_init_fence as mbarrier_init_fence
from tileslc._builtins import mbarrier_arrive as mbarrier_arrive
from tileslc._builtins import mbarrier_arrive_and_expect_tx as mbarrier_arrive_and_expect_tx
from tileslc._builtins import mbarrier_wait as mbarrier_wait
from tileslc._builtins import fence_proxy_async as fence_proxy_async
from tileslc._builtins import warpgroup_reg_alloc as warpgroup_reg_alloc
from tileslc._builtins import warpgroup_reg_dealloc as warpgroup_reg_dealloc
from tileslc._builtins import elect_one as elect_one
from tileslc._builtins import make_warp_uniform as make_warp_uniform
from tileslc._builtins import cp_async_bulk_commit_group as cp_async_bulk_commit_group
from tileslc._builtins import cp_async_bulk_wait_group as cp_async_bulk_wait_group
from tileslc._builtins import cluster_idx as cluster_idx
from tileslc._builtins import cluster_dim as cluster_dim
from tileslc._builtins import block_in_cluster_idx as block_in_cluster_idx
from tileslc._builtins import block_in_cluster_dim as block_in_cluster_dim
from tileslc._builtins import block_idx_in_cluster as block_idx_in_cluster
from tileslc._builtins import cluster_arrive as cluster_arrive
from tileslc._builtins import cluster_arrive_relaxed as cluster_arrive_relaxed
from tileslc._builtins import cluster_wait as cluster_wait
from tileslc._builtins import fence_proxy as fence_proxy

__all__ = ["thread_idx", "block_idx", "block_dim", "grid_dim", "sync_threads", "lane_idx", "warp_idx", "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor", "atomic_exch", "atomic_cas", "shuffle_sync", "shuffle_sync_up", "shuffle_sync_down", "shuffle_sync_bfly", "vote_ballot_sync", "vote_any_sync", "vote_all_sync", "warp_redux_sync", "barrier", "fence_acq_rel_cta", "fence_acq_rel_gpu", "fence_acq_rel_sys", "cp_async_commit_group", "cp_async_wait_group", "mbarrier_init", "mbarrier_init_fence", "mbarrier_arrive", "mbarrier_arrive_and_expect_tx", "mbarrier_wait", "fence_proxy_async", "warpgroup_reg_alloc", "warpgroup_reg_dealloc", "elect_one", "make_warp_uniform", "cp_async_bulk_commit_group", "cp_async_bulk_wait_group", "cluster_idx", "cluster_dim", "block_in_cluster_idx", "block_in_cluster_dim", "block_idx_in_cluster", "cluster_arrive", "cluster_arrive_relaxed", "cluster_wait", "fence_proxy"]
