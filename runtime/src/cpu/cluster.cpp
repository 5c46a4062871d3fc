// Thread-block clusters for the CPU emulation target (see
// tileslc/cpu/cluster.h): mapa (a peer CTA's shared memory at the same
// offset, PTX ISA "mapa"), the checks of peer ranks and multicast masks, and
// an arrive on a peer CTA's mbarrier (PTX ISA, "mbarrier.arrive",
// .shared::cluster). The cluster barrier lives with the scheduler
// (grid.cpp); TMA multicast with the other TMA copies (tma_copy.cpp).
#include <cstdio>
#include <cstring>
#include <string>

#include "tileslc/cpu/cluster.h"

namespace tileslc::cpu {

namespace {

// "the cluster's 2 blocks (ranks 0 to 1)"
std::string cluster_text(const ThreadCtx& t) {
  return "the cluster's " + std::to_string(t.cluster_ctas) + " block" + (t.cluster_ctas > 1 ? "s" : "") + " (rank" +
         (t.cluster_ctas > 1 ? "s 0 to " + std::to_string(t.cluster_ctas - 1) : " 0") + ")";
}

}  // namespace

unsigned char* peer_shared(const void* p, int64_t bytes, int32_t rank, const char* what, const SrcLoc& loc) {
  const ThreadCtx& t = this_thread();
  const uint32_t offset = shared_address(p, bytes, what, loc);
  if (rank < 0 || rank >= t.cluster_ctas)
    fail(loc, std::string(what) + " names block rank " + std::to_string(rank) + " of the cluster, outside " + cluster_text(t));
  // On the GPU a CTA's shared memory goes away when its threads have exited.
  if (rank != t.cluster_rank && cluster_cta_exited(rank))
    fail(loc, std::string(what) + " reaches the shared memory of block rank " + std::to_string(rank) +
                  " of the cluster, whose threads have all exited");
  return t.cluster_smem[rank] + offset;
}

void check_cta_mask(uint32_t mask, const char* what, const SrcLoc& loc) {
  const ThreadCtx& t = this_thread();
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", mask);
  if (mask == 0) fail(loc, std::string(what) + " with mask " + hex + ", which names no block");
  const uint32_t all = (1u << t.cluster_ctas) - 1u;
  if (mask & ~all) {
    const int bit = __builtin_ctz(mask & ~all);
    fail(loc, std::string(what) + " with mask " + hex + ", which names block rank " + std::to_string(bit) + ", outside " +
                  cluster_text(t));
  }
}

void mbarrier_arrive_cluster(uint64_t* bar, int32_t rank, const std::string& name, const SrcLoc& loc) {
  const char* op = "mbarrier.arrive.shared::cluster (mapa)";
  auto* peer = reinterpret_cast<uint64_t*>(peer_shared(bar, 8, rank, op, loc));
  mbarrier_arrive_at(peer, 0, op, name + " of block rank " + std::to_string(rank), loc);
}

void st_async_cluster(void* dst, const void* value, uint64_t* bar, int32_t rank, const std::string& dst_name,
                      const std::string& bar_name, const SrcLoc& loc) {
  const char* op = "st.async.shared::cluster (mapa)";
  // The GPU raises an illegal instruction for st.async in a cluster of one block, a launch
  // without clusters included (compute-sanitizer: "Cluster needs to have at least 2 blocks";
  // H100, 2026-12-06), so the emulator refuses it too.
  if (this_thread().cluster_ctas < 2)
    fail(loc, std::string(op) + " in a cluster of " + std::to_string(this_thread().cluster_ctas) +
                  " block: the GPU needs a cluster of at least 2 blocks for it");
  unsigned char* peer_dst = peer_shared(dst, 4, rank, op, loc);
  auto* peer_bar = reinterpret_cast<uint64_t*>(peer_shared(bar, 8, rank, op, loc));
  std::memcpy(peer_dst, value, 4);
  mbarrier_complete_tx(peer_bar, 4, bar_name + " of block rank " + std::to_string(rank) + " (st.async into " + dst_name + ")", loc);
}

}  // namespace tileslc::cpu
