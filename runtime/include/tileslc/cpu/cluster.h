// The thread-block cluster device functions of tileslc/device/sm90.h for the
// CPU emulation target (PTX ISA 8.x: "Special Registers", "barrier.cluster",
// "mapa", "mbarrier.arrive", "cp.async.bulk.tensor" .multicast::cluster).
// The scheduler (runtime/src/cpu/grid.cpp) runs the CTAs of a cluster
// together, each with its own shared memory; a thread reaches a peer CTA's
// shared memory at the same byte offset as its own (what mapa computes), so
//   - the special registers read the calling thread's ThreadCtx (a launch
//     without clusters runs every CTA as its own 1x1x1 cluster, as the GPU);
//   - barrier.cluster.arrive / wait is a barrier of every thread of the
//     cluster (tileslc::cpu::cluster_arrive, cluster_wait);
//   - mbarrier_arrive_cluster arrives on the peer CTA's barrier at the
//     calling thread's barrier's offset;
//   - st_async_cluster writes 4 bytes at the destination's offset in the
//     peer CTA and completes them on the peer's barrier at the barrier's offset;
//   - tma_load_2d_multicast copies the box into each CTA of the mask and
//     completes its bytes on the barrier at the same offset in each.
// A peer rank or mask bit outside the cluster, a peer CTA that has already
// exited, and st.async in a cluster of one block (an illegal instruction on
// the GPU) are reported at the .tpy line with fail().
#ifndef TILESLC_CPU_CLUSTER_H
#define TILESLC_CPU_CLUSTER_H

#include <cstdint>
#include <string>

#include "tileslc/cpu/sm90.h"
#include "tileslc/cpu/thread.h"

namespace tileslc::cpu {

/// mapa.shared::cluster (PTX ISA, "mapa"): the address in the shared memory
/// of the CTA of rank `rank` of the calling thread's cluster at the offset
/// that `p` has in the caller's own; `bytes` from `p` must lie in the
/// caller's shared memory. Reported: a rank outside 0 .. cluster size - 1,
/// a peer CTA whose threads have all exited. `what` names the operation.
unsigned char* peer_shared(const void* p, int64_t bytes, int32_t rank, const char* what, const SrcLoc& loc);

/// Checks a multicast CTA mask (bit r: the CTA of rank r): not 0, no bit at
/// or past the cluster's size. `what` names the operation.
void check_cta_mask(uint32_t mask, const char* what, const SrcLoc& loc);

/// mbarrier.arrive.shared::cluster on the barrier at `bar`'s offset in the
/// CTA of rank `rank` (one arrival, no transaction bytes).
void mbarrier_arrive_cluster(uint64_t* bar, int32_t rank, const std::string& name, const SrcLoc& loc);

/// st.async.shared::cluster.mbarrier::complete_tx::bytes.b32: the 4 bytes at
/// `value` land at `dst`'s offset in the CTA of rank `rank`, then complete 4
/// transaction bytes on the mbarrier at `bar`'s offset there. Reported, as
/// well as peer_shared's cases: a cluster of one block (the GPU faults).
void st_async_cluster(void* dst, const void* value, uint64_t* bar, int32_t rank, const std::string& dst_name,
                      const std::string& bar_name, const SrcLoc& loc);

/// cp.async.bulk.tensor.{2,3}d...multicast::cluster: the box of tma_load,
/// read once, lands at `smem`'s offset in every CTA whose bit is set in
/// `mask`, and completes its bytes on the mbarrier at `bar`'s offset in each
/// of them.
void tma_load_multicast(void* smem, const void* desc, uint64_t* bar, int rank, const TmaCoords& c, uint32_t mask,
                        const std::string& dst_name, const std::string& bar_name, const SrcLoc& loc);

}  // namespace tileslc::cpu

namespace tileslc {
namespace dev {

// ---- special registers (PTX ISA, "Special Registers")
inline int32_t cluster_idx_x() { return static_cast<int32_t>(cpu::this_thread().cluster_idx.x); }  // %clusterid
inline int32_t cluster_idx_y() { return static_cast<int32_t>(cpu::this_thread().cluster_idx.y); }
inline int32_t cluster_idx_z() { return static_cast<int32_t>(cpu::this_thread().cluster_idx.z); }
inline int32_t cluster_dim_x() { return static_cast<int32_t>(cpu::this_thread().cluster_grid.x); }  // %nclusterid
inline int32_t cluster_dim_y() { return static_cast<int32_t>(cpu::this_thread().cluster_grid.y); }
inline int32_t cluster_dim_z() { return static_cast<int32_t>(cpu::this_thread().cluster_grid.z); }
inline int32_t block_in_cluster_idx_x() { return static_cast<int32_t>(cpu::this_thread().block_in_cluster.x); }  // %cluster_ctaid
inline int32_t block_in_cluster_idx_y() { return static_cast<int32_t>(cpu::this_thread().block_in_cluster.y); }
inline int32_t block_in_cluster_idx_z() { return static_cast<int32_t>(cpu::this_thread().block_in_cluster.z); }
inline int32_t block_in_cluster_dim_x() { return static_cast<int32_t>(cpu::this_thread().cluster_dim.x); }  // %cluster_nctaid
inline int32_t block_in_cluster_dim_y() { return static_cast<int32_t>(cpu::this_thread().cluster_dim.y); }
inline int32_t block_in_cluster_dim_z() { return static_cast<int32_t>(cpu::this_thread().cluster_dim.z); }
inline int32_t block_idx_in_cluster() { return cpu::this_thread().cluster_rank; }  // %cluster_ctarank

// ---- barrier.cluster
inline int32_t cluster_arrive(const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::cluster_arrive(true, loc);
  return 0;
}
inline int32_t cluster_arrive_relaxed(const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::cluster_arrive(false, loc);
  return 0;
}
inline int32_t cluster_wait(const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::cluster_wait(loc);
  return 0;
}

// ---- a peer CTA's mbarrier, TMA multicast
template <class P>
int32_t mbarrier_arrive_cluster(P bar, int32_t cta, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::mbarrier_arrive_cluster(cpu::mbarrier_word(bar, "mbarrier.arrive.shared::cluster"), cta, cpu::operand_name(bar), loc);
  return 0;
}
template <class D, class T, class B>
int32_t st_async_cluster(D dst, T value, B bar, int32_t cta, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  static_assert(sizeof(T) == 4, "st.async stores one 32-bit value");
  cpu::st_async_cluster(cpu::raw_pointer(dst), &value, cpu::mbarrier_word(bar, "st.async's mbarrier"), cta, cpu::operand_name(dst),
                        cpu::operand_name(bar), loc);
  return 0;
}
template <class S, class B>
int32_t tma_load_2d_multicast(S smem, const void* desc, B bar, int32_t c0, int32_t c1, uint16_t mask,
                              const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_load_multicast(cpu::raw_pointer(smem), desc, cpu::mbarrier_word(bar, "TMA multicast load's mbarrier"), 2, {c0, c1},
                          mask, cpu::operand_name(smem), cpu::operand_name(bar), loc);
  return 0;
}
template <class S, class B>
int32_t tma_load_3d_multicast(S smem, const void* desc, B bar, int32_t c0, int32_t c1, int32_t c2, uint16_t mask,
                              const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_load_multicast(cpu::raw_pointer(smem), desc, cpu::mbarrier_word(bar, "TMA multicast load's mbarrier"), 3, {c0, c1, c2},
                          mask, cpu::operand_name(smem), cpu::operand_name(bar), loc);
  return 0;
}

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_CPU_CLUSTER_H
