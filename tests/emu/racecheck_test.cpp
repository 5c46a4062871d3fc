// Unit tests of the CPU emulator's shared-memory race checker
// (tileslc/cpu/racecheck.h), run with TILESLC_CPU_RACECHECK=1: what barriers,
// warp collectives and mbarriers order is not reported; a read that no
// synchronization orders after another thread's write (or a TMA load's) is;
// a named barrier's bar.arrive orders what the arriving
// thread did before it for the threads waiting at bar.sync;
// in a cluster, barrier.cluster orders the CTAs' accesses and a write into a
// peer CTA's shared memory is checked against that CTA's.
#include <gtest/gtest.h>

#include <cstring>

#include "emu_test_util.h"
#include "tileslc/cpu/prelude.h"

namespace {

namespace cpu = tileslc::cpu;
namespace dev = tileslc::dev;

using emu_test::launch;
using emu_test::launch_cluster;
using emu_test::tid;

// The shared buffer as a checked span, as generated code sees it.
cpu::Span<float> buffer(unsigned char* smem) { return cpu::shared_span<float>(smem, 0, 512, "sbuf"); }

TEST(CpuRacecheck, IsOn) { ASSERT_TRUE(cpu::g_racecheck) << "run with TILESLC_CPU_RACECHECK=1"; }

// Writes, then reads of other threads' slots after a __syncthreads(), a
// warp shuffle (same warp) and an mbarrier phase (thread 0 to the rest).
void ordered_kernel(float* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  const auto s = buffer(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 512);
  const int t = tid();
  TILESLC_SET(s, t, 1.0f * t);
  if (t == 0) dev::mbarrier_init(bar, 1);
  TILESLC_SYNCTHREADS();
  out[t] = TILESLC_AT(s, (t + 1) % 64);
  TILESLC_SYNCTHREADS();
  TILESLC_SET(s, t, 2.0f * t);
  (void)__shfl_sync(0xffffffffu, 0, 0);
  out[t] += TILESLC_AT(s, (t & ~31) + (t + 1) % 32);
  if (t == 0) {
    TILESLC_SET(s, 100, 7.0f);
    dev::mbarrier_arrive(bar);
  } else {
    dev::mbarrier_wait(bar, 0);
    out[t] += TILESLC_AT(s, 100);
  }
}

TEST(CpuRacecheck, SynchronizedAccessesAreNotReported) {
  float out[64];
  ASSERT_EQ(launch<&ordered_kernel>(dim3(1), dim3(64), 520, static_cast<float*>(out)), cudaSuccess);
  EXPECT_EQ(out[5], 6.0f + 12.0f + 7.0f);
}

// Warp 0 writes slots 0-31 and arrives on named barrier 1 (bar.arrive, no
// wait); warp 1 waits there (bar.sync, 64 threads) and reads them: ordered.
// With `late`, warp 0 writes its slot again after arriving: that write is
// not ordered before warp 1's read (bar.arrive releases what came before it):
// thread 63, the last to arrive, runs on first and reads slot 31.
void arrive_kernel(int late, float* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  const auto s = buffer(smem);
  const int t = tid();
  if (t < 32) {
    TILESLC_SET(s, t, 3.0f * t);
    dev::named_barrier_arrive(1, 64);
    if (late) TILESLC_SET(s, t, 4.0f * t);
  } else {
    dev::named_barrier_sync(1, 64);
    out[t - 32] = TILESLC_AT(s, t - 32);
  }
}

TEST(CpuRacecheck, BarArriveOrdersWhatCameBeforeIt) {
  float out[32];
  ASSERT_EQ(launch<&arrive_kernel>(dim3(1), dim3(64), 512, 0, static_cast<float*>(out)), cudaSuccess);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], 3.0f * i) << i;
}

TEST(CpuRacecheckDeathTest, WriteAfterBarArriveIsReported) {
  float out[32];
  EXPECT_EXIT(launch<&arrive_kernel>(dim3(1), dim3(64), 512, 1, static_cast<float*>(out)), testing::ExitedWithCode(1),
              "error: shared-memory race: this thread reads shared byte 124 \\(s\\), which thread \\(31,0,0\\) wrote "
              "\\(s\\) at .*racecheck_test.cpp:[0-9]+ with no barrier in between \\(thread \\(63,0,0\\) block "
              "\\(0,0,0\\)\\)");
}

// The consumers read the TMA's destination without waiting on its mbarrier:
// thread 31, the last at __syncthreads(), runs on first and reads slot 31
// (bytes 124-127) before thread 0's TMA load writes it.
void unwaited_tma_kernel(const tileslc::TmaDescriptor map, float* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 8192);
  if (tid() == 0) dev::mbarrier_init(bar, 1);
  TILESLC_SYNCTHREADS();
  if (tid() == 0) {
    dev::mbarrier_arrive_expect_tx(bar, 8192);
    dev::tma_load_2d(smem, &map, bar, 0, 0);
  }
  const auto s = buffer(smem);
  out[tid()] = TILESLC_AT(s, tid());  // the bug: no mbarrier_wait before
  dev::mbarrier_wait(bar, 0);
}

TEST(CpuRacecheckDeathTest, ReadingATmaDestinationBeforeItsMbarrierIsReported) {
  alignas(16) static uint16_t data[64 * 64];
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {64, 64}, {64, 1});
  ASSERT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mA", 1, 64, 64, 128).ok());
  float out[32];
  EXPECT_EXIT(launch<&unwaited_tma_kernel>(dim3(1), dim3(32), 8200, desc, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "error: shared-memory race: this thread writes shared byte 124 \\(a TMA load\\), which thread "
              "\\(31,0,0\\) read \\(s\\) at .*racecheck_test.cpp:[0-9]+ with no barrier in between \\(thread "
              "\\(0,0,0\\)");
}

// ---- clusters

// Each thread of both CTAs writes its slot of its own buffer; after
// barrier.cluster (.release, or .relaxed with `relaxed`), thread 0 of block 1
// writes slot 5 of block 0's buffer (as a TMA multicast from block 1 would:
// an access through mapa's address), and thread 5 of block 0 reads it after
// a second barrier.cluster.
void cluster_kernel(int relaxed, float* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  const auto s = buffer(smem);
  const int t = tid(), rank = dev::block_idx_in_cluster();
  TILESLC_SET(s, t, 1.0f * t);
  if (relaxed) dev::cluster_arrive_relaxed();
  else dev::cluster_arrive();
  dev::cluster_wait();
  const auto loc = cpu::SrcLoc::current();
  if (rank == 1 && t == 0) {
    auto* peer = reinterpret_cast<float*>(cpu::peer_shared(smem + 20, 4, 0, "a remote write", loc));
    cpu::race_access(peer, 4, true, "a remote write", loc);
    *peer = 50.0f;
  }
  dev::cluster_arrive();
  dev::cluster_wait();
  if (rank == 0) out[t] = TILESLC_AT(s, t);
}

TEST(CpuRacecheck, BarrierClusterOrdersAWriteIntoAPeerBlock) {
  float out[32];
  ASSERT_EQ(launch_cluster<&cluster_kernel>(dim3(2), dim3(32), dim3(2), 520, 0, static_cast<float*>(out)).message(), "");
  EXPECT_EQ(out[4], 4.0f);
  EXPECT_EQ(out[5], 50.0f);
}

TEST(CpuRacecheckDeathTest, WriteIntoAPeerBlockAfterARelaxedArriveIsReported) {
  float out[32];
  EXPECT_EXIT(launch_cluster<&cluster_kernel>(dim3(2), dim3(32), dim3(2), 520, 1, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "error: shared-memory race: this thread writes shared byte 20 of block \\(0,0,0\\) \\(a remote write\\), which "
              "thread \\(5,0,0\\) of block \\(0,0,0\\) wrote \\(s\\) at .*racecheck_test.cpp:[0-9]+ with no barrier in "
              "between \\(thread \\(0,0,0\\) block \\(1,0,0\\)\\)");
}

}  // namespace
