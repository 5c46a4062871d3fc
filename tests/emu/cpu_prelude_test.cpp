// Unit tests of the CPU emulator (runtime/include/tileslc/cpu): hand-written
// kernels, launched through the CUDA runtime shim as generated host code
// launches them, check barriers, named barriers, shuffles, votes, atomics,
// the mma.sync m16n8k16 fragment layouts against a scalar GEMM, cp.async
// group semantics, and that deadlocks and bad accesses stop the run with a
// report.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "emu_test_util.h"
#include "tileslc/cpu/prelude.h"

namespace {

namespace cpu = tileslc::cpu;

using emu_test::launch;
using emu_test::tid;

// ---- barriers

// Each thread writes its slot, then reads its neighbour's: only correct if
// every write happened before any read.
void rotate_kernel(int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  int* s = reinterpret_cast<int*>(smem);
  const int t = tid(), n = static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
  s[t] = t * 10 + static_cast<int>(blockIdx.x);
  TILESLC_SYNCTHREADS();
  out[blockIdx.x * n + t] = s[(t + 1) % n];
}

TEST(CpuPrelude, SyncthreadsOrdersSharedMemory) {
  std::vector<int> out(3 * 96, -1);
  ASSERT_EQ(launch<&rotate_kernel>(dim3(3), dim3(32, 3), 96 * sizeof(int), out.data()), cudaSuccess);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 96; ++t) EXPECT_EQ(out[b * 96 + t], (t + 1) % 96 * 10 + b) << "block " << b << " thread " << t;
}

// Warps 0-1 meet at barrier 1 and warps 2-3 at barrier 2 (64 threads each);
// each group exchanges values through shared memory.
void named_barrier_kernel(int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  int* s = reinterpret_cast<int*>(smem);
  const int t = tid(), group = t / 64, base = group * 64;
  s[t] = 1000 + t;
  tileslc::dev::named_barrier_sync(1 + group, 64);
  out[t] = s[base + (t - base + 63) % 64];
}

TEST(CpuPrelude, NamedBarriersCountTheirOwnThreads) {
  std::vector<int> out(128, -1);
  ASSERT_EQ(launch<&named_barrier_kernel>(dim3(1), dim3(128), 128 * sizeof(int), out.data()), cudaSuccess);
  for (int t = 0; t < 128; ++t) {
    const int base = t / 64 * 64;
    EXPECT_EQ(out[t], 1000 + base + (t - base + 63) % 64) << t;
  }
}

// Producer/consumer through named barriers, as FlashAttention-3's tile
// scheduler does: warp 0 fills slot[0..31] and arrives on FULL (1); warps 1-3
// wait at FULL (bar.sync, 128 = 96 waiting + 32 arriving), copy the slot out
// and arrive on EMPTY (2); warp 0 waits at EMPTY before refilling. Three rounds.
void handoff_kernel(int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  int* slot = reinterpret_cast<int*>(smem);
  const int t = tid();
  for (int round = 0; round < 3; ++round) {
    if (t < 32) {
      if (round > 0) tileslc::dev::named_barrier_sync(2, 128);
      slot[t] = 100 * round + t;
      tileslc::dev::named_barrier_arrive(1, 128);
    } else {
      tileslc::dev::named_barrier_sync(1, 128);
      out[round * 96 + t - 32] = slot[(t - 32) % 32];
      if (round < 2) tileslc::dev::named_barrier_cta_arrive(2, 128);
    }
  }
}

TEST(CpuPrelude, BarArriveHandsOffWithoutWaiting) {
  std::vector<int> out(3 * 96, -1);
  ASSERT_EQ(launch<&handoff_kernel>(dim3(1), dim3(128), 32 * sizeof(int), out.data()), cudaSuccess);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 96; ++i) EXPECT_EQ(out[r * 96 + i], 100 * r + i % 32) << "round " << r << " consumer " << i;
}

// ---- warp-collective operations

void shuffle_kernel(int* out) {
  const int t = tid(), lane = t % 32;
  const int v = 100 * (t / 32) + lane;
  out[4 * t + 0] = __shfl_sync(0xffffffffu, v, 31 - lane);
  out[4 * t + 1] = __shfl_up_sync(0xffffffffu, v, 3);
  out[4 * t + 2] = __shfl_down_sync(0xffffffffu, v, 5);
  out[4 * t + 3] = __shfl_xor_sync(0xffffffffu, v, 6);
}

TEST(CpuPrelude, ShufflesFollowCudaSemantics) {
  std::vector<int> out(4 * 64, -1);
  ASSERT_EQ(launch<&shuffle_kernel>(dim3(1), dim3(64), 0, out.data()), cudaSuccess);
  for (int t = 0; t < 64; ++t) {
    const int w = 100 * (t / 32), lane = t % 32;
    EXPECT_EQ(out[4 * t + 0], w + 31 - lane) << t;
    EXPECT_EQ(out[4 * t + 1], w + (lane >= 3 ? lane - 3 : lane)) << t;  // below delta: own value
    EXPECT_EQ(out[4 * t + 2], w + (lane + 5 < 32 ? lane + 5 : lane)) << t;
    EXPECT_EQ(out[4 * t + 3], w + (lane ^ 6)) << t;
  }
}

void shuffle_double_kernel(double* out) {
  const int lane = tid() % 32;
  out[lane] = __shfl_xor_sync(0xffffffffu, 0.5 + lane, 1);
}

TEST(CpuPrelude, ShufflesMove64BitValues) {
  std::vector<double> out(32, 0.0);
  ASSERT_EQ(launch<&shuffle_double_kernel>(dim3(1), dim3(32), 0, out.data()), cudaSuccess);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(out[l], 0.5 + (l ^ 1));
}

void vote_kernel(unsigned* out) {
  const int t = tid(), lane = t % 32;
  out[3 * t + 0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
  out[3 * t + 1] = __any_sync(0xffffffffu, t == 40);
  out[3 * t + 2] = __all_sync(0xffffffffu, t < 32);
}

TEST(CpuPrelude, VotesCombineTheWarp) {
  std::vector<unsigned> out(3 * 64, 7);
  ASSERT_EQ(launch<&vote_kernel>(dim3(1), dim3(64), 0, out.data()), cudaSuccess);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out[3 * t + 0], 0x49249249u) << t;     // lanes 0, 3, 6, ..., 30
    EXPECT_EQ(out[3 * t + 1], t >= 32 ? 1u : 0u) << t;  // thread 40 is in warp 1
    EXPECT_EQ(out[3 * t + 2], t < 32 ? 1u : 0u) << t;
  }
}

// ---- atomics

void atomic_kernel(int* counter, float* sum, uint32_t* maximum, int* cas_winner) {
  const int t = tid() + static_cast<int>(blockIdx.x * blockDim.x);
  tileslc::dev::atomic_add(counter, 1);
  tileslc::dev::atomic_add(sum, 0.5f);
  tileslc::dev::atomic_max(maximum, static_cast<uint32_t>((t * 37) % 1000));
  tileslc::dev::atomic_cas(cas_winner, -1, t);  // only the first thread's CAS succeeds
}

TEST(CpuPrelude, AtomicsSeeEveryUpdate) {
  int counter = 0, winner = -1;
  float sum = 0.0f;
  uint32_t maximum = 0;
  ASSERT_EQ(launch<&atomic_kernel>(dim3(4), dim3(128), 0, &counter, &sum, &maximum, &winner), cudaSuccess);
  EXPECT_EQ(counter, 512);
  EXPECT_EQ(sum, 256.0f);
  uint32_t expected_max = 0;
  for (int t = 0; t < 512; ++t) expected_max = std::max<uint32_t>(expected_max, (t * 37) % 1000);
  EXPECT_EQ(maximum, expected_max);
  EXPECT_EQ(winner, 0);  // deterministic schedule: block 0, thread 0 runs first
}

void bf16_atomic_kernel(__nv_bfloat16* x) { tileslc::dev::atomic_add(x, __float2bfloat16_rn(1.0f)); }

TEST(CpuPrelude, SixteenBitFloatAtomics) {
  __nv_bfloat16 x = __float2bfloat16_rn(0.0f);
  ASSERT_EQ(launch<&bf16_atomic_kernel>(dim3(1), dim3(100), 0, &x), cudaSuccess);
  EXPECT_EQ(__bfloat162float(x), 100.0f);  // integers up to 256 are exact in bf16
}

// ---- mma.sync m16n8k16

// The PTX ISA's fragment layouts for mma.m16n8k16 with .bf16 inputs and .f32
// accumulators, written from its figures: groupID = lane / 4,
// threadID_in_group = lane % 4.
int a_row(int lane, int i) { return lane / 4 + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0); }
int a_col(int lane, int i) { return lane % 4 * 2 + (i & 1) + (i >= 4 ? 8 : 0); }
int b_row(int lane, int i) { return lane % 4 * 2 + (i & 1) + (i >= 2 ? 8 : 0); }
int b_col(int lane, int) { return lane / 4; }
int c_row(int lane, int i) { return lane / 4 + (i >= 2 ? 8 : 0); }
int c_col(int lane, int i) { return lane % 4 * 2 + (i & 1); }

void mma_kernel(const float* A, const float* B, const float* C, float* D) {
  const int lane = tid() % 32;
  alignas(16) __nv_bfloat16 a[8];
  alignas(16) __nv_bfloat16 b[4];
  alignas(16) float c[4];
  alignas(16) float d[4];
  for (int i = 0; i < 8; ++i) a[i] = __float2bfloat16_rn(A[a_row(lane, i) * 16 + a_col(lane, i)]);
  for (int i = 0; i < 4; ++i) b[i] = __float2bfloat16_rn(B[b_row(lane, i) * 8 + b_col(lane, i)]);
  for (int i = 0; i < 4; ++i) c[i] = C[c_row(lane, i) * 8 + c_col(lane, i)];
  tileslc::dev::mma_m16n8k16_f32_bf16(d, a, b, c);
  for (int i = 0; i < 4; ++i) D[c_row(lane, i) * 8 + c_col(lane, i)] = d[i];
}

TEST(CpuPrelude, MmaM16n8k16MatchesScalarGemm) {
  // Small integers: every product and sum is exact, so D must equal the
  // reference exactly; a misplaced fragment element changes some entry.
  std::vector<float> A(16 * 16), B(16 * 8), C(16 * 8), D(16 * 8, -1.0f);
  for (int i = 0; i < 16 * 16; ++i) A[i] = static_cast<float>((i * 7) % 13 - 6);
  for (int i = 0; i < 16 * 8; ++i) B[i] = static_cast<float>((i * 5) % 11 - 5);
  for (int i = 0; i < 16 * 8; ++i) C[i] = static_cast<float>(i % 9);
  ASSERT_EQ(launch<&mma_kernel>(dim3(1), dim3(32), 0, static_cast<const float*>(A.data()),
                                static_cast<const float*>(B.data()), static_cast<const float*>(C.data()), D.data()),
            cudaSuccess);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      float ref = C[m * 8 + n];
      for (int k = 0; k < 16; ++k) ref += A[m * 16 + k] * B[k * 8 + n];
      EXPECT_EQ(D[m * 8 + n], ref) << "D[" << m << "][" << n << "]";
    }
}

TEST(CpuPrelude, MmaFragmentLayoutSpotChecks) {
  // Entries read off the PTX ISA's figures for lane 5 (groupID 1, thread 1).
  EXPECT_EQ(a_row(5, 0), 1);
  EXPECT_EQ(a_col(5, 0), 2);
  EXPECT_EQ(a_row(5, 7), 9);
  EXPECT_EQ(a_col(5, 7), 11);
  EXPECT_EQ(b_row(5, 3), 11);
  EXPECT_EQ(b_col(5, 3), 1);
  EXPECT_EQ(c_row(5, 2), 9);
  EXPECT_EQ(c_col(5, 2), 2);
}

// ---- cp.async

// Two groups of one 16-byte copy each; results sampled after wait_group 1
// (the older group only) and wait_group 0 (both).
void cp_async_kernel(const int* src, int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  int* s = reinterpret_cast<int*>(smem);
  tileslc::dev::cp_async_16(s, src);
  tileslc::dev::cp_async_commit_group();
  tileslc::dev::cp_async_16(s + 4, src + 4);
  tileslc::dev::cp_async_commit_group();
  out[0] = s[0];
  tileslc::dev::cp_async_wait_group_1();
  out[1] = s[0];
  out[2] = s[4];
  tileslc::dev::cp_async_wait_group_0();
  out[3] = s[4];
}

TEST(CpuPrelude, CpAsyncLandsAtItsWaitGroup) {
  alignas(16) int src[8] = {11, 12, 13, 14, 15, 16, 17, 18};
  int out[4] = {0, 0, 0, 0};
  ASSERT_EQ(launch<&cp_async_kernel>(dim3(1), dim3(1), 64, static_cast<const int*>(src), static_cast<int*>(out)),
            cudaSuccess);
  EXPECT_EQ(out[0], -1);  // not copied yet: shared memory starts as 0xFF bytes
  EXPECT_EQ(out[1], 11);
  EXPECT_EQ(out[2], -1);  // the newer group may still be in flight
  EXPECT_EQ(out[3], 15);
}

// ---- wait_until, the hook for waits that are not barriers

bool flag_set(void* p) { return *static_cast<volatile int*>(p) != 0; }

// Thread 0 waits for a flag that the last thread sets after writing data.
void flag_kernel(int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  int* s = reinterpret_cast<int*>(smem);
  if (tid() == 0) s[0] = 0;
  TILESLC_SYNCTHREADS();
  if (tid() == 0) {
    cpu::wait_until(&flag_set, s, "flag", cpu::SrcLoc::current());
    out[0] = s[1];
  } else if (tid() == 63) {
    s[1] = 42;
    s[0] = 1;
  }
}

TEST(CpuPrelude, WaitUntilResumesWhenTheConditionHolds) {
  int out[1] = {0};
  ASSERT_EQ(launch<&flag_kernel>(dim3(1), dim3(64), 8, static_cast<int*>(out)), cudaSuccess);
  EXPECT_EQ(out[0], 42);
}

void never_set_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  int zero = 0;
  if (tid() == 0) cpu::wait_until(&flag_set, &zero, "mbarrier.try_wait", cpu::SrcLoc::current());
  (void)smem;
}

TEST(CpuPreludeDeathTest, WaitUntilThatNeverEndsDeadlocks) {
  int out[1];
  EXPECT_EXIT(launch<&never_set_kernel>(dim3(1), dim3(64), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: deadlock: mbarrier.try_wait never completes: every thread of the block waits or has exited; 63 "
              "exited \\(first: thread \\(1,0,0\\)\\)");
}

// ---- what stops a run

void half_warp_shuffle_kernel(int* out) {
  const int lane = tid() % 32;
  if (lane < 16) out[lane] = __shfl_sync(0xffffffffu, lane, 0);
}

TEST(CpuPreludeDeathTest, ShuffleWithExitedLanesDeadlocks) {
  int out[32];
  EXPECT_EXIT(launch<&half_warp_shuffle_kernel>(dim3(1), dim3(32), 0, static_cast<int*>(out)),
              testing::ExitedWithCode(1),
              "error: warp deadlock: __shfl_sync waits for 32 lanes of warp 0 but only 16 arrived; 16 exited without "
              "reaching it \\(first: thread \\(16,0,0\\)\\) \\(thread \\(0,0,0\\) block \\(0,0,0\\)\\)");
}

void other_barrier_kernel(int*) {
  if (tid() < 32) tileslc::dev::named_barrier_sync(1, 64);
  else tileslc::dev::named_barrier_sync(2, 64);
}

TEST(CpuPreludeDeathTest, ThreadsAtDifferentBarriersDeadlock) {
  int out[1];
  EXPECT_EXIT(launch<&other_barrier_kernel>(dim3(1), dim3(64), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "barrier deadlock: bar.sync waits for 64 threads but only 32 arrived; 32 wait at bar.sync at .*"
              "cpu_prelude_test.cpp:[0-9]+ \\(first: thread \\(32,0,0\\)\\)");
}

// Warp 0 arrives on barrier 1 (64 threads) and exits; warp 1 never comes:
// warp 2 waits forever. The report counts the arrival and does not list
// warp 0 among the missing.
void arrive_then_exit_kernel(int*) {
  if (tid() < 32) tileslc::dev::named_barrier_arrive(1, 96);
  else if (tid() >= 64) tileslc::dev::named_barrier_sync(1, 96);
}

TEST(CpuPreludeDeathTest, BarArriveCountsTowardTheDeadlockReport) {
  int out[1];
  EXPECT_EXIT(launch<&arrive_then_exit_kernel>(dim3(1), dim3(96), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "barrier deadlock: bar.sync waits for 96 threads but only 64 arrived \\(32 by bar.arrive\\); 32 exited "
              "without reaching it \\(first: thread \\(32,0,0\\)\\) \\(thread \\(64,0,0\\)");
}

void arrive_count_mismatch_kernel(int*) {
  if (tid() < 32) tileslc::dev::named_barrier_arrive(3, 64);
  else tileslc::dev::named_barrier_sync(3, 96);
}

TEST(CpuPreludeDeathTest, BarArriveAndBarSyncCountsMustAgree) {
  int out[1];
  EXPECT_EXIT(launch<&arrive_count_mismatch_kernel>(dim3(1), dim3(96), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "cpu_prelude_test.cpp:[0-9]+: error: bar.sync on barrier 3 expects 96 threads, but thread \\(0,0,0\\) "
              "arrived there for 64 at .*cpu_prelude_test.cpp:[0-9]+ \\(thread \\(32,0,0\\)");
}

void arrive_twice_kernel(int*) {
  tileslc::dev::named_barrier_arrive(4, 64);
  tileslc::dev::named_barrier_arrive(4, 64);
}

TEST(CpuPreludeDeathTest, BarArriveTwiceInOnePhaseIsReported) {
  int out[1];
  EXPECT_EXIT(launch<&arrive_twice_kernel>(dim3(1), dim3(64), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: bar.arrive on barrier 4 twice in one phase \\(the barrier has 1 of its 64 threads\\): this "
              "thread would count twice \\(thread \\(0,0,0\\)");
}

void arrive_bad_kernel(int* mode) {
  if (*mode == 0) tileslc::dev::named_barrier_arrive(16, 32);
  else if (*mode == 1) tileslc::dev::named_barrier_arrive(1, 0);
  else tileslc::dev::named_barrier_arrive(1, 48);
}

TEST(CpuPreludeDeathTest, BarArriveChecksItsOperands) {
  int mode = 0;
  EXPECT_EXIT(launch<&arrive_bad_kernel>(dim3(1), dim3(32), 0, &mode), testing::ExitedWithCode(1),
              "error: bar.arrive 16: barrier ids are 0 to 15");
  mode = 1;
  EXPECT_EXIT(launch<&arrive_bad_kernel>(dim3(1), dim3(32), 0, &mode), testing::ExitedWithCode(1),
              "error: bar.arrive 1, 0: bar.arrive needs a thread count");
  mode = 2;
  EXPECT_EXIT(launch<&arrive_bad_kernel>(dim3(1), dim3(32), 0, &mode), testing::ExitedWithCode(1),
              "error: bar.arrive 1, 48: the thread count must be a multiple of 32 up to the 32 threads of the block");
}

void oob_kernel(cpu::Span<float> t) { TILESLC_AT(t, static_cast<int64_t>(threadIdx.x) - 1) = 1.0f; }

TEST(CpuPreludeDeathTest, OutOfBoundsAccessNamesTheElement) {
  float data[4];
  auto view = tileslc::make_tensor_view(data, tileslc::DType::Float32, {4});
  EXPECT_EXIT(launch<&oob_kernel>(dim3(1), dim3(4), 0, cpu::global_span<float>(view, "mX")),
              testing::ExitedWithCode(1),
              "cpu_prelude_test.cpp:[0-9]+: error: out-of-bounds global access: t\\[-1\\] but the tensor mX has 4 "
              "elements \\(thread \\(0,0,0\\) block \\(0,0,0\\)\\)");
}

void divergent_sync_kernel(int*) {
  if (tid() < 32) {
    TILESLC_SYNCTHREADS();
  } else {
    TILESLC_SYNCTHREADS();
  }
}

TEST(CpuPreludeDeathTest, SyncthreadsAtTwoStatementsIsDivergent) {
  int out[1];
  EXPECT_EXIT(launch<&divergent_sync_kernel>(dim3(1), dim3(64), 0, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: divergent __syncthreads\\(\\): this thread reached it here while thread \\(0,0,0\\) waits at "
              ".*cpu_prelude_test.cpp:[0-9]+ \\(thread \\(32,0,0\\) block \\(0,0,0\\)\\)");
}

// Shared tensors are checked against their allocation, and a 128-bit copy
// against its whole width and alignment.
void shared_oob_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  const cpu::Span<float> s = cpu::shared_span<float>(smem, 0, 64 * sizeof(float), "sA");
  TILESLC_AT(s, static_cast<int64_t>(threadIdx.x) * 2) = 0.0f;
}

TEST(CpuPreludeDeathTest, SharedTensorAccessPastItsAllocation) {
  int out[1];
  EXPECT_EXIT(launch<&shared_oob_kernel>(dim3(1), dim3(64), 256, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: out-of-bounds shared access: s\\[64\\] but the shared tensor sA has 64 elements "
              "\\(thread \\(32,0,0\\) block \\(0,0,0\\)\\)");
}

void vector_copy_kernel(cpu::Span<const float> g) {
  alignas(16) float frg[4];
  TILESLC_VEC_COPY(128, TILESLC_ADDR(frg, 0), TILESLC_ADDR(g, static_cast<int64_t>(threadIdx.x) * 4));
}
void misaligned_copy_kernel(cpu::Span<const float> g) {
  alignas(16) float frg[4];
  TILESLC_VEC_COPY(128, TILESLC_ADDR(frg, 0), TILESLC_ADDR(g, 2));
}

TEST(CpuPreludeDeathTest, VectorCopyChecksWidthAndAlignment) {
  alignas(16) float data[6] = {};
  auto view = tileslc::make_tensor_view(data, tileslc::DType::Float32, {6});
  EXPECT_EXIT(launch<&misaligned_copy_kernel>(dim3(1), dim3(1), 0, cpu::global_span<const float>(view, "mG")),
              testing::ExitedWithCode(1),
              "error: misaligned global access: vector load of 16 bytes at g\\[2\\] needs 16-byte alignment");
  // Thread 0 copies elements 0..3; thread 1's 4..7 run past the 6 elements.
  EXPECT_EXIT(launch<&vector_copy_kernel>(dim3(1), dim3(2), 0, cpu::global_span<const float>(view, "mG")),
              testing::ExitedWithCode(1),
              "error: out-of-bounds global access: vector load of 16 bytes at g\\[4\\] runs 8 bytes past the end of g "
              "\\(thread \\(1,0,0\\) block \\(0,0,0\\)\\)");
}

TEST(CpuPrelude, GlobalSpanCoversStridedViews) {
  float data[64];
  // A transposed 3 x 5 view with strides (1, 3) and a reversed one.
  auto t = cpu::global_span<float>(tileslc::make_tensor_view(data, tileslc::DType::Float32, {3, 5}, {1, 3}), "t");
  EXPECT_EQ(t.lo, 0);
  EXPECT_EQ(t.hi, 15);
  auto r = cpu::global_span<float>(tileslc::make_tensor_view(data + 20, tileslc::DType::Float32, {4}, {-2}), "r");
  EXPECT_EQ(r.lo, -6);
  EXPECT_EQ(r.hi, 1);
}

TEST(CpuPrelude, NarrowFloatConversionsRoundToNearestEven) {
  EXPECT_EQ(__bfloat162float(__float2bfloat16_rn(1.00390625f)), 1.0f);        // halfway: to even
  EXPECT_EQ(__bfloat162float(__float2bfloat16_rn(1.01171875f)), 1.015625f);   // halfway: to even (up)
  EXPECT_EQ(__half2float(__float2half_rn(1.0f + 1.0f / 2048)), 1.0f);         // halfway: to even
  EXPECT_EQ(__half2float(__float2half_rn(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(__half2float(__float2half_rn(70000.0f))));
  EXPECT_EQ(__half2float(__float2half_rn(5.960464477539063e-08f)), 5.960464477539063e-08f);  // smallest subnormal
  EXPECT_EQ(static_cast<float>(__nv_fp8_e4m3(500.0f)), 448.0f);  // saturates to the largest finite
  EXPECT_EQ(static_cast<float>(__nv_fp8_e4m3(1.0625f)), 1.0f);   // halfway between 1 and 1.125: to even
  EXPECT_EQ(static_cast<float>(__nv_fp8_e5m2(3.0f)), 3.0f);
  // E5M2 saturates to +-57344 (0x7b): far beyond it and infinity included (the
  // nearest-value search once picked 0x7a = 49152 there).
  EXPECT_EQ(static_cast<float>(__nv_fp8_e5m2(1e12f)), 57344.0f);
  EXPECT_EQ(static_cast<float>(__nv_fp8_e5m2(INFINITY)), 57344.0f);
  EXPECT_EQ(static_cast<float>(__nv_fp8_e5m2(-3e38f)), -57344.0f);
  EXPECT_EQ(static_cast<float>(__nv_fp8_e5m2(60000.0f)), 57344.0f);
  EXPECT_EQ(static_cast<float>(__nv_fp8_e4m3(-INFINITY)), -448.0f);
  // Float to integer as the GPU's cvt.rzi: toward zero, clamped, NaN to 0.
  EXPECT_EQ(tileslc::dev::cvt_rzi<int32_t>(-2.7f), -2);
  EXPECT_EQ(tileslc::dev::cvt_rzi<int32_t>(1e20f), 2147483647);
  EXPECT_EQ(tileslc::dev::cvt_rzi<int32_t>(2.5e9f), 2147483647);
  EXPECT_EQ(tileslc::dev::cvt_rzi<int32_t>(-1e20f), -2147483647 - 1);
  EXPECT_EQ(tileslc::dev::cvt_rzi<int32_t>(NAN), 0);
  EXPECT_EQ(tileslc::dev::cvt_rzi<uint8_t>(300.0f), 255);
  EXPECT_EQ(tileslc::dev::cvt_rzi<uint8_t>(-5.0f), 0);
  EXPECT_EQ(tileslc::dev::cvt_rzi<int64_t>(1e300), INT64_MAX);
}

}  // namespace

// cute.math's fastmath=True (ex2 / lg2.approx.ftz.f32): subnormal inputs count as zero and
// subnormal results become +0, as on the GPU; normal values are exact here.
TEST(CpuPrelude, ApproxFtzExp2AndLog2FlushSubnormals) {
  EXPECT_EQ(tileslc::dev::exp2_approx_ftz(3.0f), 8.0f);
  EXPECT_EQ(tileslc::dev::exp2_approx_ftz(-126.0f), 1.1754943508222875e-38f);  // the smallest normal stays
  EXPECT_EQ(tileslc::dev::exp2_approx_ftz(-130.0f), 0.0f);                     // 2^-130 is subnormal: +0
  EXPECT_FALSE(std::signbit(tileslc::dev::exp2_approx_ftz(-130.0f)));
  EXPECT_EQ(tileslc::dev::exp2_approx_ftz(-INFINITY), 0.0f);
  EXPECT_EQ(tileslc::dev::exp2_approx_ftz(1e-40f), 1.0f);  // a subnormal input is 0
  EXPECT_EQ(tileslc::dev::log2_approx_ftz(0.25f), -2.0f);
  EXPECT_EQ(tileslc::dev::log2_approx_ftz(1e-40f), -INFINITY);  // a subnormal input is 0
  EXPECT_TRUE(std::isnan(tileslc::dev::log2_approx_ftz(-1.0f)));
}
