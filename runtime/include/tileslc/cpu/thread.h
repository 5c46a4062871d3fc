// The CPU emulation target's model of a running CUDA thread. Each thread of a
// CTA is a cooperative fiber (Boost.Context) with a ThreadCtx: its indices,
// its CTA's shared memory and its cp.async groups. Fibers switch only where a
// thread must wait for others (barriers, warp-collective operations), in a
// deterministic round-robin order; CTAs of a grid run one after another
// (runtime/src/cpu/grid.cpp). The CTAs of a thread-block cluster run
// together: all their threads are fibers of one schedule, each CTA with its
// own shared memory, which the others reach through the cluster's table. Generated code reads threadIdx & co. through the
// macros below, which name the fiber running now.
//
// Errors found while a kernel runs (out-of-bounds accesses, barrier and warp
// deadlocks) are reported through fail(): the .tpy file:line (generated code
// carries #line directives, and std::source_location honors them), the
// message, the thread and block coordinates; then the process exits with
// status 1.
#ifndef TILESLC_CPU_THREAD_H
#define TILESLC_CPU_THREAD_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tileslc/cpu/cuda_runtime_api.h"
#include "tileslc/cpu/types.h"

namespace tileslc::cpu {

using SrcLoc = std::source_location;

/// One cp.async copy, issued but not performed yet.
struct AsyncCopy {
  void* dst;
  const void* src;
  int bytes;
};

/// What a running thread knows about itself (CUDA's special registers).
struct ThreadCtx {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  int32_t linear = 0;                 ///< index within the CTA: x fastest, then y, then z
  unsigned char* smem = nullptr;      ///< the CTA's dynamic shared memory (aligned to 1024)
  size_t smem_bytes = 0;
  std::vector<AsyncCopy> cp_async_open;                ///< issued since the last commit_group
  std::deque<std::vector<AsyncCopy>> cp_async_groups;  ///< committed, oldest first
  /// TMA stores and reduce-adds (cp.async.bulk.tensor shared -> global),
  /// performed at the cp.async.bulk.wait_group.read that covers them, or when
  /// the thread exits (tileslc/cpu/sm90.h).
  std::vector<std::function<void()>> bulk_open;
  std::deque<std::vector<std::function<void()>>> bulk_groups;
  // The thread-block cluster (PTX ISA, "Special Registers"); a launch
  // without clusters runs every CTA as its own 1x1x1 cluster.
  uint3 cluster_idx{0, 0, 0};        ///< %clusterid: the cluster's index in the grid of clusters
  uint3 cluster_grid{1, 1, 1};       ///< %nclusterid: the grid, in clusters
  uint3 block_in_cluster{0, 0, 0};   ///< %cluster_ctaid
  dim3 cluster_dim{1, 1, 1};         ///< %cluster_nctaid: the cluster's shape, in CTAs
  int32_t cluster_rank = 0;          ///< %cluster_ctarank: x fastest, then y, then z
  int32_t cluster_ctas = 1;          ///< %cluster_nctarank
  /// The shared memory of each CTA of the cluster, by rank (cluster_ctas
  /// entries, each smem_bytes long); entry cluster_rank is `smem`.
  unsigned char* const* cluster_smem = nullptr;
};

/// Per-warp scratch that warp-collective operations exchange values through:
/// each lane writes its row, all lanes meet at warp_sync, each reads.
struct WarpExchange {
  uint64_t slot[32][8];
};

/// Per-warpgroup scratch for warpgroup-collective operations (wgmma): each of
/// the 128 threads writes its row before warpgroup_sync.
struct WarpgroupExchange {
  uint64_t slot[128][4];
};

/// The thread (fiber) running now on this host thread; null outside kernels.
extern thread_local ThreadCtx* t_thread;
inline ThreadCtx& this_thread() { return *t_thread; }
/// The exchange area of the calling thread's warp.
WarpExchange& this_warp_exchange();
/// The exchange area of the calling thread's warpgroup (128 threads).
WarpgroupExchange& this_warpgroup_exchange();

/// Reports `message` at `loc` with the calling thread's coordinates, e.g.
/// "x.tpy:27: error: out-of-bounds global access: ... (thread (5,0,0) block
/// (3,0,0))", and exits the process with status 1.
[[noreturn]] void fail(const SrcLoc& loc, const std::string& message);

/// bar.sync `id`, `count` (PTX ISA, "bar, barrier"): waits until `count`
/// threads (0: every thread of the CTA) have arrived at barrier `id`.
/// `syncthreads` marks __syncthreads(), which every thread must reach at the
/// same statement; threads that wait at two different __syncthreads() are
/// reported as divergent.
void barrier_sync(int id, int count, bool syncthreads, const SrcLoc& loc);

/// bar.arrive `id`, `count` (PTX ISA, "bar, barrier"): the calling thread
/// arrives on barrier `id` and goes on; when the arrival is the count-th of
/// the phase it releases the threads waiting there at bar.sync. `count` is
/// required (a multiple of 32, 1 to the block's threads) and must match the
/// count of the phase's other participants. A thread arriving twice in one
/// phase is reported (it would count twice: a protocol error). Race checking:
/// the arrival releases what the thread did before it to the waiters
/// (bar.arrive's release semantics in the PTX memory model); the arriving
/// thread acquires nothing.
void barrier_arrive(int id, int count, const SrcLoc& loc);

/// Waits until every lane in `mask` (lanes that exist in this warp) has
/// reached a warp-collective operation named `what`. A lane in the mask that
/// exited, or waits at another collective, is reported.
void warp_sync(uint32_t mask, const char* what, const SrcLoc& loc);

/// Suspends the calling thread until `ready(arg)` holds; the scheduler asks
/// again each time it comes round. The hook for waits that are not barriers
/// (mbarrier phases, TMA transaction bytes for sm_90 atoms). When every
/// thread waits or has exited and no wait can end, the CTA is reported as
/// deadlocked at `loc`, naming `what`.
/// `describe(arg)`, when given, says what is missing; the deadlock report
/// adds it after `what`.
void wait_until(bool (*ready)(void*), void* arg, const char* what, const SrcLoc& loc,
                std::string (*describe)(void*) = nullptr);

/// Waits until the 128 threads of the calling thread's warpgroup (threads
/// 128w .. 128w + 127 of the CTA, which must all exist) have reached the
/// warpgroup-collective operation `what` (wgmma.mma_async: ".sync.aligned").
/// Returns true in exactly one thread, the last to arrive: it runs before any
/// other of the warpgroup resumes, so it can act for all of them on what they
/// wrote to this_warpgroup_exchange(). Divergence and deadlocks are reported
/// like warp_sync's.
bool warpgroup_sync(const char* what, const SrcLoc& loc);

/// barrier.cluster.arrive (PTX ISA, "barrier.cluster"): the calling thread
/// arrives on its cluster's barrier; `release` (.release, the default form)
/// orders its earlier shared-memory accesses before the waits of the phase,
/// .relaxed orders nothing. A second arrive before barrier.cluster.wait is
/// reported.
void cluster_arrive(bool release, const SrcLoc& loc);
/// barrier.cluster.wait: suspends the calling thread until every thread of
/// every CTA of the cluster has arrived in the phase of its own last arrive
/// (a wait with no arrive before it is reported). Threads that exit or wait
/// elsewhere while the phase can never complete are a reported deadlock,
/// as for __syncthreads().
void cluster_wait(const SrcLoc& loc);
/// Whether every thread of the CTA of rank `rank` in the calling thread's
/// cluster has exited (its shared memory is gone on the GPU).
bool cluster_cta_exited(int32_t rank);

/// A kernel's CPU entry: calls the kernel with `args` (one pointer per
/// parameter). tileslc --target=cpu passes kernel_entry<&kernel> to
/// cudaLaunchKernel.
using KernelEntry = void (*)(void** args);

/// Runs every CTA of `grid` on the calling host thread, each thread of a CTA
/// a fiber, in thread-block clusters of `cluster` CTAs (each grid dimension
/// a multiple of the cluster's; 1x1x1: no cluster): the CTAs of one cluster
/// run together in one schedule, clusters one after another (or on
/// TILESLC_CPU_THREADS host threads). Returns cudaSuccess, or an error for a
/// configuration the emulator cannot run; errors inside the kernel exit the
/// process (fail()).
cudaError_t run_grid(KernelEntry entry, void** args, dim3 grid, dim3 block, size_t smem_bytes,
                     dim3 cluster = dim3(1, 1, 1));

namespace detail {
template <class... P>
constexpr size_t arity(void (*)(P...)) { return sizeof...(P); }
template <class... P, size_t... I>
void call_with(void (*kernel)(P...), void** args, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_cv_t<std::remove_reference_t<P>>*>(args[I])...);
}
}  // namespace detail

/// The CPU entry of `Kernel`: unpacks cudaLaunchKernel's argument array.
template <auto Kernel>
void kernel_entry(void** args) {
  detail::call_with(Kernel, args, std::make_index_sequence<detail::arity(Kernel)>{});
}

}  // namespace tileslc::cpu

// CUDA's special registers, for the fiber running now.
#define threadIdx (::tileslc::cpu::this_thread().thread_idx)
#define blockIdx (::tileslc::cpu::this_thread().block_idx)
#define blockDim (::tileslc::cpu::this_thread().block_dim)
#define gridDim (::tileslc::cpu::this_thread().grid_dim)

#endif  // TILESLC_CPU_THREAD_H
