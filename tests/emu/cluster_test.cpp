// Unit tests of the CPU emulator's thread-block clusters
// (runtime/include/tileslc/cpu/cluster.h, the scheduler in
// runtime/src/cpu/grid.cpp): the cluster special registers, barrier.cluster
// across CTAs, an arrive on a peer CTA's mbarrier, st.async into a peer CTA's
// shared memory, TMA multicast (the box in
// every CTA of the mask, its bytes completed on each one's barrier), the
// launch's checks, and the reports of invalid uses.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "emu_test_util.h"
#include "tileslc/cpu/prelude.h"

namespace {

namespace cpu = tileslc::cpu;
namespace dev = tileslc::dev;

using emu_test::launch_cluster;
using emu_test::tid;

// ---- special registers

// Thread 0 of each block writes its 8 cluster values at out[8 * linear block index].
void indices_kernel(int* out) {
  if (tid() != 0) return;
  int* o = out + 8 * (blockIdx.x + gridDim.x * blockIdx.y);
  o[0] = dev::cluster_idx_x();
  o[1] = dev::cluster_idx_y();
  o[2] = dev::cluster_dim_x();
  o[3] = dev::cluster_dim_y();
  o[4] = dev::block_in_cluster_idx_x();
  o[5] = dev::block_in_cluster_idx_y();
  o[6] = dev::block_idx_in_cluster();
  o[7] = dev::block_in_cluster_dim_x() * 10 + dev::block_in_cluster_dim_y();
}

TEST(CpuCluster, SpecialRegistersOfA2x2ClusterGrid) {
  // A 4 x 4 grid in 2 x 2 clusters: a 2 x 2 grid of clusters.
  std::vector<int> out(8 * 16, -1);
  ASSERT_EQ(launch_cluster<&indices_kernel>(dim3(4, 4), dim3(32), dim3(2, 2), 0, out.data()).message(), "");
  for (int by = 0; by < 4; ++by)
    for (int bx = 0; bx < 4; ++bx) {
      const int* o = out.data() + 8 * (bx + 4 * by);
      EXPECT_EQ(o[0], bx / 2) << bx << "," << by;
      EXPECT_EQ(o[1], by / 2) << bx << "," << by;
      EXPECT_EQ(o[2], 2);
      EXPECT_EQ(o[3], 2);
      EXPECT_EQ(o[4], bx % 2) << bx << "," << by;
      EXPECT_EQ(o[5], by % 2) << bx << "," << by;
      EXPECT_EQ(o[6], bx % 2 + 2 * (by % 2)) << bx << "," << by;  // %cluster_ctarank: x fastest
      EXPECT_EQ(o[7], 22);
    }
}

TEST(CpuCluster, MaxActiveClustersDividesTheSixteenEmulatedSms) {
  EXPECT_EQ(tileslc::device_multiprocessor_count(), 16);
  EXPECT_EQ(tileslc::max_active_clusters(1), 16);
  EXPECT_EQ(tileslc::max_active_clusters(2), 8);
  EXPECT_EQ(tileslc::max_active_clusters(3), 5);
  EXPECT_EQ(tileslc::max_active_clusters(16), 1);
  EXPECT_EQ(tileslc::max_active_clusters(0), 0);
  EXPECT_EQ(tileslc::max_active_clusters(17), 0);  // no clusters of more than 16 blocks
}

TEST(CpuCluster, PlainLaunchRunsEveryBlockAsItsOwnCluster) {
  std::vector<int> out(8 * 3, -1);
  ASSERT_EQ(emu_test::launch<&indices_kernel>(dim3(3), dim3(32), 0, out.data()), cudaSuccess);
  for (int b = 0; b < 3; ++b) {
    const int want[8] = {b, 0, 3, 1, 0, 0, 0, 11};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out[8 * b + i], want[i]) << b << " " << i;
  }
}

TEST(CpuCluster, LaunchRefusesClustersThatDoNotTileTheGrid) {
  std::vector<int> out(8 * 32, -1);
  EXPECT_EQ(launch_cluster<&indices_kernel>(dim3(3), dim3(32), dim3(2), 0, out.data()).message(),
            "k: grid (3, 1, 1) is not divisible by cluster (2, 1, 1) along x (3 % 2 = 1)");
  EXPECT_EQ(launch_cluster<&indices_kernel>(dim3(32), dim3(32), dim3(32), 0, out.data()).message(),
            "k: cluster dimension x is 32, expected at most 16");
  EXPECT_EQ(out[0], -1);  // nothing ran
}

// ---- barrier.cluster

// Every thread of both CTAs counts itself in before the barrier, twice (two
// phases); after each wait every thread must see the whole cluster counted.
void barrier_kernel(int* counter, int* seen) {
  const int me = dev::block_idx_in_cluster() * 64 + tid();
  for (int phase = 0; phase < 2; ++phase) {
    ++counter[phase];  // fibers of one host thread: no atomics needed
    if (phase == 0) dev::cluster_arrive();
    else dev::cluster_arrive_relaxed();
    dev::cluster_wait();
    seen[2 * me + phase] = counter[phase];
  }
}

TEST(CpuCluster, BarrierClusterWaitsForEveryThreadOfEveryBlock) {
  int counter[2] = {0, 0};
  std::vector<int> seen(2 * 128, -1);
  ASSERT_EQ(launch_cluster<&barrier_kernel>(dim3(2), dim3(64), dim3(2), 0, static_cast<int*>(counter), seen.data()).message(), "");
  for (int i = 0; i < 256; ++i) EXPECT_EQ(seen[i], 128) << i;
}

void partial_barrier_kernel(int*) {
  if (dev::block_idx_in_cluster() == 1) return;  // block 1 never arrives
  dev::cluster_arrive();
  dev::cluster_wait();
}

TEST(CpuClusterDeathTest, BarrierClusterThatPartOfTheClusterSkipsDeadlocks) {
  int out[1];
  EXPECT_EXIT(launch_cluster<&partial_barrier_kernel>(dim3(2), dim3(64), dim3(2), 0, static_cast<int*>(out)),
              testing::ExitedWithCode(1),
              "error: cluster barrier deadlock: barrier.cluster.wait waits for the 128 threads of the cluster's 2 blocks but "
              "only 64 arrived; 64 exited without reaching it \\(first: thread \\(0,0,0\\) of block \\(1,0,0\\)\\) "
              "\\(thread \\(0,0,0\\) block \\(0,0,0\\)\\)");
}

void double_arrive_kernel(int*) {
  dev::cluster_arrive();
  dev::cluster_arrive();
}

TEST(CpuClusterDeathTest, SecondArriveBeforeTheWaitIsReported) {
  int out[1];
  EXPECT_EXIT(launch_cluster<&double_arrive_kernel>(dim3(2), dim3(32), dim3(2), 0, static_cast<int*>(out)),
              testing::ExitedWithCode(1), "error: barrier.cluster.arrive twice without a barrier.cluster.wait in between");
}

// ---- a peer CTA's mbarrier

// Each CTA's barrier expects one arrival, which the other CTA makes
// (mapa + mbarrier.arrive.shared::cluster); each records whether its own
// phase 0 had completed before its own arrive, and after its wait.
void remote_arrive_kernel(int* done) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 64);
  const int rank = dev::block_idx_in_cluster();
  if (tid() == 0) dev::mbarrier_init(bar, 1);
  dev::cluster_arrive();
  dev::cluster_wait();  // both barriers exist before either CTA arrives on the other's
  const auto loc = cpu::SrcLoc::current();
  if (tid() == 0) {
    done[2 * rank] = cpu::mbarrier_test_wait(bar, 0, "bar", loc) ? 1 : 0;  // nobody arrived yet
    dev::mbarrier_arrive_cluster(bar, 1 - rank);
  }
  dev::mbarrier_wait(bar, 0);
  if (tid() == 0) done[2 * rank + 1] = cpu::mbarrier_test_wait(bar, 0, "bar", loc) ? 1 : 0;
}

TEST(CpuCluster, ArriveOnAPeerBlocksBarrier) {
  int done[4] = {-1, -1, -1, -1};
  ASSERT_EQ(launch_cluster<&remote_arrive_kernel>(dim3(2), dim3(32), dim3(2), 128, static_cast<int*>(done)).message(), "");
  EXPECT_EQ(done[0], 0);  // block 0 looks first (round-robin order): nobody arrived on its barrier yet
  EXPECT_EQ(done[1], 1);  // block 1's arrive completed its phase
  EXPECT_EQ(done[2], 1);  // block 0's arrive reached block 1's barrier before block 1 looked
  EXPECT_EQ(done[3], 1);
}

void remote_arrive_outside_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem);
  dev::mbarrier_init(bar, 1);
  if (dev::block_idx_in_cluster() == 1) dev::mbarrier_arrive_cluster(bar, 2);
}

TEST(CpuClusterDeathTest, PeerRankOutsideTheClusterIsReported) {
  int out[1];
  EXPECT_EXIT(launch_cluster<&remote_arrive_outside_kernel>(dim3(4), dim3(1), dim3(2), 8, static_cast<int*>(out)),
              testing::ExitedWithCode(1),
              "error: mbarrier.arrive.shared::cluster \\(mapa\\) names block rank 2 of the cluster, outside the cluster's 2 "
              "blocks \\(ranks 0 to 1\\) \\(thread \\(0,0,0\\) block \\(1,0,0\\)\\)");
}

void remote_arrive_exited_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem);
  dev::mbarrier_init(bar, 1);
  dev::cluster_arrive();
  dev::cluster_wait();
  if (dev::block_idx_in_cluster() == 0) return;
  cpu::wait_until([](void*) { return cpu::cluster_cta_exited(0); }, nullptr, "block 0's exit", cpu::SrcLoc::current());
  dev::mbarrier_arrive_cluster(bar, 0);
}

TEST(CpuClusterDeathTest, ArriveOnABlockThatExitedIsReported) {
  int out[1];
  EXPECT_EXIT(launch_cluster<&remote_arrive_exited_kernel>(dim3(2), dim3(1), dim3(2), 8, static_cast<int*>(out)),
              testing::ExitedWithCode(1),
              "error: mbarrier.arrive.shared::cluster \\(mapa\\) reaches the shared memory of block rank 0 of the cluster, "
              "whose threads have all exited");
}

// ---- st.async into a peer block's shared memory

// Each of the 4 blocks of a cluster sends (rank + 1) * 10 + t to slot (rank, t) of every block
// (threads 0..3 each to one peer, two values each), completing 8 bytes per sender on the
// receiver's barrier; block 3 expects its 32 bytes only after its peers' stores have landed (the
// transaction count goes below 0 first, as on the GPU). Thread 0 of each block then copies what
// it received to out[16 * rank ...].
void st_async_kernel(float* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* slots = reinterpret_cast<float*>(smem);          // (4 senders, 2 values)
  auto* bar = reinterpret_cast<uint64_t*>(smem + 64);
  const int rank = dev::block_idx_in_cluster();
  if (tid() == 0) dev::mbarrier_init(bar, 1);
  dev::cluster_arrive();
  dev::cluster_wait();
  if (tid() < 4) {
    for (int k = 0; k < 2; ++k) dev::st_async_cluster(&slots[2 * rank + k], float((rank + 1) * 10 + k), bar, tid());
  }
  if (tid() == 0) {
    if (rank == 3) {
      cpu::wait_until([](void* b) { return (*static_cast<uint64_t*>(b) >> 40) != 0; }, bar, "peers' stores",
                      cpu::SrcLoc::current());
    }
    dev::mbarrier_arrive_expect_tx(bar, 4 * 2 * 4);
  }
  dev::mbarrier_wait(bar, 0);
  if (tid() == 0) std::memcpy(out + 8 * rank, slots, 8 * sizeof(float));
}

TEST(CpuCluster, StAsyncLandsInEveryPeerAndCompletesItsBarrier) {
  std::vector<float> out(32, -1.0f);
  ASSERT_EQ(launch_cluster<&st_async_kernel>(dim3(4), dim3(32), dim3(4), 128, out.data()).message(), "");
  for (int r = 0; r < 4; ++r)
    for (int s = 0; s < 4; ++s)
      for (int k = 0; k < 2; ++k) EXPECT_EQ(out[8 * r + 2 * s + k], float((s + 1) * 10 + k)) << "block " << r << " slot " << s;
}

void st_async_outside_kernel(float*) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 8);
  dev::mbarrier_init(bar, 1);
  if (dev::block_idx_in_cluster() == 1) dev::st_async_cluster(reinterpret_cast<float*>(smem), 1.0f, bar, 2);
}

TEST(CpuClusterDeathTest, StAsyncToARankOutsideTheClusterIsReported) {
  float out[1];
  EXPECT_EXIT(launch_cluster<&st_async_outside_kernel>(dim3(2), dim3(1), dim3(2), 16, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "error: st.async.shared::cluster \\(mapa\\) names block rank 2 of the cluster, outside the cluster's 2 "
              "blocks \\(ranks 0 to 1\\)");
}

void st_async_alone_kernel(float*) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 8);
  dev::mbarrier_init(bar, 1);
  dev::st_async_cluster(reinterpret_cast<float*>(smem), 1.0f, bar, 0);
}

// Rank 0 is the block itself, but the GPU faults on st.async in a cluster of one block (the
// RMSNorm backward's 16384-column BFloat16 launch did, 2026-12-06; the emulator had run it).
TEST(CpuClusterDeathTest, StAsyncInAClusterOfOneBlockIsReported) {
  float out[1];
  EXPECT_EXIT(launch_cluster<&st_async_alone_kernel>(dim3(2), dim3(1), dim3(1), 16, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "error: st.async.shared::cluster \\(mapa\\) in a cluster of 1 block: the GPU needs a cluster of at "
              "least 2 blocks for it");
}

// ---- TMA multicast

constexpr int kRows = 64, kCols = 64;  // a 64 x 64 BFloat16 tensor, no swizzle

uint16_t value_at(int r, int c) { return static_cast<uint16_t>(r * 131 + c * 7 + 1); }

// Block `issuer` loads the 32 x 64 box at row 32 with multicast `mask` into
// offset 0 of the CTAs in the mask; each of them expects the box's 4096 bytes
// on its own barrier, waits, and copies its shared memory to out[rank].
void multicast_kernel(const tileslc::TmaDescriptor map, int32_t issuer, int32_t mask, uint16_t* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 4096);
  const int rank = dev::block_idx_in_cluster();
  const bool receives = (mask >> rank) & 1;
  if (tid() == 0) {
    dev::mbarrier_init(bar, 1);
    if (receives) dev::mbarrier_arrive_expect_tx(bar, 4096);
  }
  dev::cluster_arrive();
  dev::cluster_wait();  // every barrier is armed before the copy
  if (tid() == 0 && rank == issuer) dev::tma_load_2d_multicast(smem, &map, bar, 0, 32, static_cast<uint16_t>(mask));
  if (!receives) return;
  dev::mbarrier_wait(bar, 0);
  for (int i = tid(); i < 2048; i += 32) std::memcpy(out + rank * 2048 + i, smem + 2 * i, 2);
}

tileslc::TmaDescriptor make_map(uint16_t* data, int box_rows) {
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) data[r * kCols + c] = value_at(r, c);
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kCols}, {kCols, 1});
  EXPECT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mA", 1, 64, box_rows, 0).ok());
  return desc;
}

TEST(CpuCluster, MulticastLandsInEveryBlockOfTheMaskAndCompletesEachBarrier) {
  alignas(16) static uint16_t data[kRows * kCols];
  const tileslc::TmaDescriptor desc = make_map(data, 32);
  // A cluster of 4; block 2 multicasts to blocks 0, 1 and 3 (not itself).
  std::vector<uint16_t> out(4 * 2048, 0xDEAD);
  ASSERT_EQ(launch_cluster<&multicast_kernel>(dim3(4), dim3(32), dim3(4), 4096 + 8, desc, int32_t{2}, int32_t{0b1011}, out.data()).message(),
            "");
  for (int rank : {0, 1, 3}) {
    int wrong = 0;
    for (int r = 0; r < 32; ++r)
      for (int c = 0; c < 64; ++c) wrong += out[rank * 2048 + r * 64 + c] != value_at(32 + r, c);
    EXPECT_EQ(wrong, 0) << rank;
  }
  EXPECT_EQ(out[2 * 2048], 0xDEAD);  // block 2 was not in the mask
  EXPECT_EQ(out[3 * 2048 + 5 * 64 + 9], value_at(37, 9));
}

TEST(CpuClusterDeathTest, MulticastMaskPastTheClusterIsReported) {
  alignas(16) static uint16_t data[kRows * kCols];
  const tileslc::TmaDescriptor desc = make_map(data, 32);
  std::vector<uint16_t> out(2 * 2048);
  EXPECT_EXIT(launch_cluster<&multicast_kernel>(dim3(2), dim3(32), dim3(2), 4096 + 8, desc, int32_t{1}, int32_t{0b110}, out.data()),
              testing::ExitedWithCode(1),
              "error: TMA multicast load \\(cp.async.bulk.tensor.2d.multicast::cluster\\) with mask 0x0006, which names block "
              "rank 2, outside the cluster's 2 blocks \\(ranks 0 to 1\\) \\(thread \\(0,0,0\\) block \\(1,0,0\\)\\)");
}

}  // namespace
