// Hopper (sm_90 / sm_90a) device functions that generated kernels call:
// mbarriers (also a peer block's, in a cluster), TMA tile loads (and their
// cluster multicast), cluster indices and barrier.cluster, wgmma fences/commits/waits and shared-memory
// matrix descriptors, setmaxnreg, elect.sync and the async-proxy fence.
// Included by prelude.h; every function is inline, so a kernel that uses
// none of them compiles for sm_80 too. Semantics: PTX ISA 8.x, sections named
// at each function.
#ifndef TILESLC_DEVICE_SM90_H
#define TILESLC_DEVICE_SM90_H

#include <cstdint>

namespace tileslc {

namespace dev {

TILESLC_DEVICE uint32_t smem_u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// ---- mbarrier (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier"). A barrier is one 64-bit word in shared memory.

/// mbarrier.init: the barrier completes a phase after `count` arrivals (and
/// its expected transaction bytes).
TILESLC_DEVICE int32_t mbarrier_init(void* bar, int32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
  return 0;
}
/// Makes initialized barriers visible to the async proxy (TMA) and other threads.
TILESLC_DEVICE int32_t mbarrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  return 0;
}
TILESLC_DEVICE int32_t mbarrier_arrive(void* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
  return 0;
}
/// One arrival on the barrier at the same shared-memory offset in the block
/// of rank `cta` of this cluster (mapa.shared::cluster then
/// mbarrier.arrive.shared::cluster; PTX ISA, "mapa", "mbarrier.arrive"): a
/// consumer releasing a stage that a peer block's multicast writes into.
TILESLC_DEVICE int32_t mbarrier_arrive_cluster(void* bar, int32_t cta) {
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_u32(bar)),
      "r"(cta)
      : "memory");
  return 0;
}
/// st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 (PTX ISA, "st.async", "mapa"):
/// stores the 32-bit `value` at `dst`'s shared-memory offset in the block of rank `cta` of
/// this cluster, and completes 4 transaction bytes on the mbarrier at `bar`'s offset in that
/// block once the value has landed there (the peer waits on its own barrier, no fence needed).
template <class T>
TILESLC_DEVICE int32_t st_async_cluster(T* dst, T value, void* bar, int32_t cta) {
  static_assert(sizeof(T) == 4, "st.async stores one 32-bit value");
  uint32_t bits;
  __builtin_memcpy(&bits, &value, 4);
  asm volatile(
      "{\n.reg .b32 rdst, rbar;\n"
      "mapa.shared::cluster.u32 rdst, %0, %3;\n"
      "mapa.shared::cluster.u32 rbar, %2, %3;\n"
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [rdst], %1, [rbar];\n}\n" ::"r"(smem_u32(dst)),
      "r"(bits), "r"(smem_u32(bar)), "r"(cta)
      : "memory");
  return 0;
}
/// One arrival that also expects `bytes` more of transactions (TMA copies
/// completing on this barrier) before the phase can complete.
TILESLC_DEVICE int32_t mbarrier_arrive_expect_tx(void* bar, int32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
  return 0;
}
/// Waits until the phase with the given parity (0 or 1) has completed.
TILESLC_DEVICE int32_t mbarrier_wait(void* bar, int32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_u32(bar)), "r"(parity)
        : "memory");
  } while (!done);
  return 0;
}

// ---- TMA (PTX ISA, "cp.async.bulk.tensor"): a 2-D tile from global memory
// into shared memory, completing `bytes` of transactions on an mbarrier.
// c0 is the coordinate along the tensor map's innermost dimension.
TILESLC_DEVICE int32_t tma_load_2d(void* smem, const void* desc, void* bar, int32_t c0, int32_t c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(smem_u32(bar))
      : "memory");
  return 0;
}

/// The multicast form: one load from global memory whose tile lands at the
/// same shared-memory offset `smem` in every block of the cluster whose bit
/// is set in `mask` (bit i: the block of %cluster_ctarank i), each completing
/// its bytes on the mbarrier at offset `bar` of its own shared memory (PTX
/// ISA, "cp.async.bulk.tensor", .multicast::cluster; sm_90a).
TILESLC_DEVICE int32_t tma_load_2d_multicast(void* smem, const void* desc, void* bar, int32_t c0, int32_t c1, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(smem_u32(bar)), "h"(mask)
      : "memory");
  return 0;
}

// The 3-D forms, for a batched tensor's map (c2: the batch): a box of depth 1
// along the third dimension is one (c0, c1) tile of batch c2.
TILESLC_DEVICE int32_t tma_load_3d(void* smem, const void* desc, void* bar, int32_t c0, int32_t c1, int32_t c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(c2), "r"(smem_u32(bar))
      : "memory");
  return 0;
}
// The 4-D form, for a tensor with two batch modes (attention's (seqlen, head_dim, heads,
// batch)): a box of extent 1 along the third and fourth dimensions.
TILESLC_DEVICE int32_t tma_load_4d(void* smem, const void* desc, void* bar, int32_t c0, int32_t c1, int32_t c2, int32_t c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(smem_u32(bar))
      : "memory");
  return 0;
}
TILESLC_DEVICE int32_t tma_load_3d_multicast(void* smem, const void* desc, void* bar, int32_t c0, int32_t c1, int32_t c2, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(c2), "r"(smem_u32(bar)), "h"(mask)
      : "memory");
  return 0;
}

// A 2-D tile from shared memory to global memory (or added into it, .reduce.add),
// completed through bulk async-groups (PTX ISA, "cp.async.bulk.tensor",
// "cp.reduce.async.bulk.tensor", "cp.async.bulk.commit_group/wait_group").
TILESLC_DEVICE int32_t tma_store_2d(const void* desc, const void* smem, int32_t c0, int32_t c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(reinterpret_cast<uint64_t>(desc)),
               "r"(smem_u32(smem)), "r"(c0), "r"(c1)
               : "memory");
  return 0;
}
TILESLC_DEVICE int32_t tma_reduce_add_2d(const void* desc, const void* smem, int32_t c0, int32_t c1) {
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(desc)),
               "r"(smem_u32(smem)), "r"(c0), "r"(c1)
               : "memory");
  return 0;
}
TILESLC_DEVICE int32_t tma_store_3d(const void* desc, const void* smem, int32_t c0, int32_t c1, int32_t c2) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(reinterpret_cast<uint64_t>(desc)),
               "r"(smem_u32(smem)), "r"(c0), "r"(c1), "r"(c2)
               : "memory");
  return 0;
}
TILESLC_DEVICE int32_t tma_reduce_add_3d(const void* desc, const void* smem, int32_t c0, int32_t c1, int32_t c2) {
  asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(desc)),
               "r"(smem_u32(smem)), "r"(c0), "r"(c1), "r"(c2)
               : "memory");
  return 0;
}
TILESLC_DEVICE int32_t bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  return 0;
}
TILESLC_WAIT_GROUPS(bulk_wait_group_read, "cp.async.bulk.wait_group.read")

/// prefetch.tensormap (PTX ISA, "prefetch, prefetchu"): brings a TMA tensor map (a
/// __grid_constant__ kernel parameter) into the cache before its first cp.async.bulk.tensor.
TILESLC_DEVICE int32_t prefetch_tensormap(const void* desc) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(desc)) : "memory");
  return 0;
}

/// fence.proxy.async.shared::cta: orders this thread's generic-proxy shared
/// memory writes before later async-proxy (TMA, wgmma) accesses.
TILESLC_DEVICE int32_t fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  return 0;
}

// ---- warpgroup MMA (PTX ISA, "Asynchronous Warpgroup Level Matrix
// Multiply-Accumulate Instructions: wgmma").

/// The shared-memory matrix descriptor ("Matrix Descriptor Format"): start
/// address, leading and stride byte offsets (all >> 4) and the swizzle mode
/// (1: 128-byte, 2: 64-byte, 3: 32-byte, 0: none) in bits 62-63.
TILESLC_DEVICE uint64_t wgmma_desc(const void* smem, int32_t lbo_bytes, int32_t sbo_bytes, int32_t swizzle_mode) {
  uint64_t d = (smem_u32(smem) & 0x3FFFFu) >> 4;
  d |= static_cast<uint64_t>((lbo_bytes >> 4) & 0x3FFF) << 16;
  d |= static_cast<uint64_t>((sbo_bytes >> 4) & 0x3FFF) << 32;
  d |= static_cast<uint64_t>(swizzle_mode & 3) << 62;
  return d;
}
TILESLC_DEVICE int32_t wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  return 0;
}
TILESLC_DEVICE int32_t wgmma_commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  return 0;
}
TILESLC_WAIT_GROUPS(wgmma_wait_group, "wgmma.wait_group.sync.aligned")
/// Keeps the compiler from moving accesses to accumulator registers across a
/// wgmma fence or wait (the registers are being written asynchronously).
TILESLC_DEVICE int32_t wgmma_fence_operands(float* d, int32_t n) {
#pragma unroll
  for (int32_t i = 0; i < n; ++i) asm volatile("" : "+f"(d[i])::"memory");
  return 0;
}

// ---- thread-block clusters (PTX ISA, "Special Registers": %clusterid,
// %nclusterid, %cluster_ctaid, %cluster_nctaid, %cluster_ctarank; and
// "barrier.cluster"). Without a cluster launch every block is its own 1x1x1
// cluster, so these still read well-defined values.
#define TILESLC_CLUSTER_SREG(NAME, REG) \
  TILESLC_DEVICE int32_t NAME() {       \
    uint32_t v;                         \
    asm("mov.u32 %0, " REG ";\n" : "=r"(v)); \
    return static_cast<int32_t>(v);     \
  }
TILESLC_CLUSTER_SREG(cluster_idx_x, "%clusterid.x")
TILESLC_CLUSTER_SREG(cluster_idx_y, "%clusterid.y")
TILESLC_CLUSTER_SREG(cluster_idx_z, "%clusterid.z")
TILESLC_CLUSTER_SREG(cluster_dim_x, "%nclusterid.x")
TILESLC_CLUSTER_SREG(cluster_dim_y, "%nclusterid.y")
TILESLC_CLUSTER_SREG(cluster_dim_z, "%nclusterid.z")
TILESLC_CLUSTER_SREG(block_in_cluster_idx_x, "%cluster_ctaid.x")
TILESLC_CLUSTER_SREG(block_in_cluster_idx_y, "%cluster_ctaid.y")
TILESLC_CLUSTER_SREG(block_in_cluster_idx_z, "%cluster_ctaid.z")
TILESLC_CLUSTER_SREG(block_in_cluster_dim_x, "%cluster_nctaid.x")
TILESLC_CLUSTER_SREG(block_in_cluster_dim_y, "%cluster_nctaid.y")
TILESLC_CLUSTER_SREG(block_in_cluster_dim_z, "%cluster_nctaid.z")
TILESLC_CLUSTER_SREG(block_idx_in_cluster, "%cluster_ctarank")
#undef TILESLC_CLUSTER_SREG

// barrier.cluster: every thread of every block of the cluster arrives once
// per phase, then waits. cluster_arrive has release semantics (this thread's
// earlier memory accesses are visible to the cluster's threads after their
// wait); cluster_arrive_relaxed orders nothing (for a barrier that only says
// "this block has started", after a release fence); cluster_wait acquires.
#define TILESLC_CLUSTER_BARRIER(NAME, PTX) \
  TILESLC_DEVICE int32_t NAME() {          \
    asm volatile(PTX ";\n" ::: "memory");  \
    return 0;                              \
  }
TILESLC_CLUSTER_BARRIER(cluster_arrive, "barrier.cluster.arrive")
TILESLC_CLUSTER_BARRIER(cluster_arrive_relaxed, "barrier.cluster.arrive.relaxed")
TILESLC_CLUSTER_BARRIER(cluster_wait, "barrier.cluster.wait")
#undef TILESLC_CLUSTER_BARRIER

/// The value of lane 0 in every lane: tells the compiler a value is warp-uniform.
TILESLC_DEVICE int32_t warp_uniform(int32_t x) { return __shfl_sync(0xffffffffu, x, 0); }

// ---- registers and election
/// setmaxnreg (PTX ISA, "setmaxnreg"): a warpgroup raises or lowers its
/// per-thread register budget; needs a register cap at kernel entry.
#define TILESLC_SETMAXNREG(DIR, N) \
  TILESLC_DEVICE int32_t setmaxnreg_##DIR##_##N() { asm volatile("setmaxnreg." #DIR ".sync.aligned.u32 " #N ";\n"); return 0; }
// Every count the ISA allows: a multiple of 8 from 24 to 256, either direction.
TILESLC_SETMAXNREG(inc, 24)
TILESLC_SETMAXNREG(inc, 32)
TILESLC_SETMAXNREG(inc, 40)
TILESLC_SETMAXNREG(inc, 48)
TILESLC_SETMAXNREG(inc, 56)
TILESLC_SETMAXNREG(inc, 64)
TILESLC_SETMAXNREG(inc, 72)
TILESLC_SETMAXNREG(inc, 80)
TILESLC_SETMAXNREG(inc, 88)
TILESLC_SETMAXNREG(inc, 96)
TILESLC_SETMAXNREG(inc, 104)
TILESLC_SETMAXNREG(inc, 112)
TILESLC_SETMAXNREG(inc, 120)
TILESLC_SETMAXNREG(inc, 128)
TILESLC_SETMAXNREG(inc, 136)
TILESLC_SETMAXNREG(inc, 144)
TILESLC_SETMAXNREG(inc, 152)
TILESLC_SETMAXNREG(inc, 160)
TILESLC_SETMAXNREG(inc, 168)
TILESLC_SETMAXNREG(inc, 176)
TILESLC_SETMAXNREG(inc, 184)
TILESLC_SETMAXNREG(inc, 192)
TILESLC_SETMAXNREG(inc, 200)
TILESLC_SETMAXNREG(inc, 208)
TILESLC_SETMAXNREG(inc, 216)
TILESLC_SETMAXNREG(inc, 224)
TILESLC_SETMAXNREG(inc, 232)
TILESLC_SETMAXNREG(inc, 240)
TILESLC_SETMAXNREG(inc, 248)
TILESLC_SETMAXNREG(inc, 256)
TILESLC_SETMAXNREG(dec, 24)
TILESLC_SETMAXNREG(dec, 32)
TILESLC_SETMAXNREG(dec, 40)
TILESLC_SETMAXNREG(dec, 48)
TILESLC_SETMAXNREG(dec, 56)
TILESLC_SETMAXNREG(dec, 64)
TILESLC_SETMAXNREG(dec, 72)
TILESLC_SETMAXNREG(dec, 80)
TILESLC_SETMAXNREG(dec, 88)
TILESLC_SETMAXNREG(dec, 96)
TILESLC_SETMAXNREG(dec, 104)
TILESLC_SETMAXNREG(dec, 112)
TILESLC_SETMAXNREG(dec, 120)
TILESLC_SETMAXNREG(dec, 128)
TILESLC_SETMAXNREG(dec, 136)
TILESLC_SETMAXNREG(dec, 144)
TILESLC_SETMAXNREG(dec, 152)
TILESLC_SETMAXNREG(dec, 160)
TILESLC_SETMAXNREG(dec, 168)
TILESLC_SETMAXNREG(dec, 176)
TILESLC_SETMAXNREG(dec, 184)
TILESLC_SETMAXNREG(dec, 192)
TILESLC_SETMAXNREG(dec, 200)
TILESLC_SETMAXNREG(dec, 208)
TILESLC_SETMAXNREG(dec, 216)
TILESLC_SETMAXNREG(dec, 224)
TILESLC_SETMAXNREG(dec, 232)
TILESLC_SETMAXNREG(dec, 240)
TILESLC_SETMAXNREG(dec, 248)
TILESLC_SETMAXNREG(dec, 256)
#undef TILESLC_SETMAXNREG

/// elect.sync (PTX ISA, "elect.sync"): true in exactly one active lane of the warp.
TILESLC_DEVICE bool elect_one() {
  uint32_t pred = 0;
  asm volatile(
      "{\n.reg .b32 r;\n.reg .pred p;\n"
      "elect.sync r|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(pred));
  return pred != 0;
}

}  // namespace dev
}  // namespace tileslc

#include "tileslc/device/sm90_wgmma.h"

#endif  // TILESLC_DEVICE_SM90_H
