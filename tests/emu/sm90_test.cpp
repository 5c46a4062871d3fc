// Unit tests of the CPU emulator's sm_90 atoms (runtime/include/tileslc/cpu/sm90.h):
// mbarrier phases and transaction counts, the emulated cuTensorMapEncodeTiled's
// argument checks, TMA loads (128-byte swizzle, zero fill outside the tensor,
// also past a ragged inner extent inside a 16-byte chunk, never from the padding),
// TMA stores and reduce-adds (skipping what lies outside, performed at their
// bulk wait), wgmma m64n64k16 against a scalar GEMM, and the reports of
// invalid uses.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda.h"
#include "cudaTypedefs.h"
#include "emu_test_util.h"
#include "tileslc/cpu/prelude.h"
#include "tileslc/cpu/tensor_map.h"

namespace {

namespace cpu = tileslc::cpu;
namespace dev = tileslc::dev;

using emu_test::launch;
using emu_test::tid;

// ---- mbarrier

// A barrier for 2 arrivals: its phase 0 completes only after both arrivals
// and the 100 expected bytes; then phase 1 is the one in progress.
void phases_kernel(int* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem);
  const auto loc = cpu::SrcLoc::current();
  auto done = [&](int parity) { return cpu::mbarrier_test_wait(bar, parity, "bar", loc) ? 1 : 0; };
  dev::mbarrier_init(bar, 2);
  out[0] = done(1);  // the phase before the first counts as complete
  out[1] = done(0);
  dev::mbarrier_arrive_expect_tx(bar, 100);
  out[2] = done(0);
  dev::mbarrier_arrive(bar);
  out[3] = done(0);  // both arrived, 100 bytes missing
  cpu::mbarrier_complete_tx(bar, 60, "bar", loc);
  out[4] = done(0);
  cpu::mbarrier_complete_tx(bar, 40, "bar", loc);
  out[5] = done(0);
  out[6] = done(1);
  dev::mbarrier_arrive(bar);
  dev::mbarrier_arrive(bar);  // phase 1 needs no bytes
  out[7] = done(1);
}

TEST(CpuSm90, MbarrierPhaseNeedsArrivalsAndTransactionBytes) {
  int out[8];
  ASSERT_EQ(launch<&phases_kernel>(dim3(1), dim3(1), 8, static_cast<int*>(out)), cudaSuccess);
  const int want[8] = {1, 0, 0, 0, 0, 1, 0, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

void never_complete_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem);
  if (tid() == 0) dev::mbarrier_init(bar, 1);
  TILESLC_SYNCTHREADS();
  if (tid() == 0) dev::mbarrier_arrive_expect_tx(bar, 256);
  dev::mbarrier_wait(bar, 0);
}

TEST(CpuSm90DeathTest, MbarrierMissingBytesDeadlocks) {
  int out[1];
  EXPECT_EXIT(launch<&never_complete_kernel>(dim3(1), dim3(32), 8, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: deadlock: mbarrier.try_wait.parity never completes \\(mbarrier the operand, phase 0: 1 of 1 "
              "arrivals, 256 transaction bytes still expected\\): every thread of the block waits or has exited");
}

void uninitialized_kernel(int*) {
  TILESLC_DYNAMIC_SMEM(smem);
  dev::mbarrier_arrive(reinterpret_cast<uint64_t*>(smem));
}

TEST(CpuSm90DeathTest, MbarrierBeforeInitIsReported) {
  int out[1];
  EXPECT_EXIT(launch<&uninitialized_kernel>(dim3(1), dim3(1), 8, static_cast<int*>(out)), testing::ExitedWithCode(1),
              "error: mbarrier.arrive on the operand, an mbarrier that mbarrier.init has not initialized");
}

// ---- tensor maps

constexpr int kRows = 100, kCols = 72;  // a 100 x 72 BFloat16 tensor (144-byte rows)

PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q), cudaSuccess);
  EXPECT_EQ(q, cudaDriverEntryPointSuccess);
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
}

CUresult encode(CUtensorMap* map, void* data, cuuint64_t stride, cuuint32_t box0, cuuint32_t box1, CUtensorMapSwizzle sw) {
  cuuint64_t dims[2] = {kCols, kRows}, strides[1] = {stride};
  cuuint32_t box[2] = {box0, box1}, es[2] = {1, 1};
  return encoder()(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, data, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                   CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(CpuSm90, EncodeChecksTheDriversRequirements) {
  alignas(64) CUtensorMap map;
  alignas(16) static uint16_t data[kRows * kCols + 8];
  EXPECT_EQ(encode(&map, data, kCols * 2, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_SUCCESS);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "");
  EXPECT_EQ(encode(&map, data + 1, kCols * 2, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "globalAddress must be 16-byte aligned");
  EXPECT_EQ(encode(&map, data, 140, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "globalStrides[0] = 140 bytes: expected a multiple of 16 below 2^40");
  EXPECT_EQ(encode(&map, data, kCols * 2, 64, 300, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "boxDim[1] = 300: expected 1 to 256");
  EXPECT_EQ(encode(&map, data, kCols * 2, 64, 64, CU_TENSOR_MAP_SWIZZLE_64B), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "the inner box dimension is 128 bytes, more than the 64-byte swizzle span");
  EXPECT_EQ(encode(&map, data, kCols * 2, 4, 64, CU_TENSOR_MAP_SWIZZLE_NONE), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(),
               "the inner box dimension is 8 bytes (boxDim[0] * element size): expected a multiple of 16");
  EXPECT_EQ(encode(reinterpret_cast<CUtensorMap*>(reinterpret_cast<char*>(&map) + 0), data, kCols * 2, 64, 64,
                   static_cast<CUtensorMapSwizzle>(7)),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileslc_cpu_tensor_map_error(), "unknown swizzle 7");
}

TEST(CpuSm90, MakeTmaDescriptorSaysWhyTheEncodeFailed) {
  alignas(16) static uint16_t data[kRows * kCols];
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kCols}, {kCols, 1});
  tileslc::Status s = tileslc::make_tma_descriptor(&desc, t, "f", "mA", 1, 64, 512, 128);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("boxDim[1] = 512: expected 1 to 256"), std::string::npos) << s.message();
}

// ---- TMA loads and stores

uint16_t value_at(int r, int c) { return static_cast<uint16_t>(1 + r * 1000 + c); }

// Thread 0 loads the 64 x 64 box at (column c0, row c1) into 128-byte
// swizzled shared memory; every thread waits, then copies the shared bytes out.
void tma_load_kernel(const tileslc::TmaDescriptor map, int32_t c0, int32_t c1, uint16_t* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* bar = reinterpret_cast<uint64_t*>(smem + 8192);
  if (tid() == 0) dev::mbarrier_init(bar, 1);
  TILESLC_SYNCTHREADS();
  if (tid() == 0) {
    dev::mbarrier_arrive_expect_tx(bar, 8192);
    dev::tma_load_2d(smem, &map, bar, c0, c1);
  }
  dev::mbarrier_wait(bar, 0);
  for (int i = tid(); i < 4096; i += 32) std::memcpy(out + i, smem + 2 * i, 2);
}

TEST(CpuSm90, TmaLoadSwizzlesAndFillsZerosOutsideTheTensor) {
  alignas(16) static uint16_t data[kRows * kCols];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) data[r * kCols + c] = value_at(r, c);
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kCols}, {kCols, 1});
  ASSERT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mA", 1, 64, 64, 128).ok());
  std::vector<uint16_t> out(4096, 0xDEAD);
  ASSERT_EQ(launch<&tma_load_kernel>(dim3(1), dim3(32), 8192 + 8, desc, int32_t{32}, int32_t{64}, out.data()), cudaSuccess);
  int wrong = 0;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) {
      // Swizzle<3,4,3>: the 16-byte chunk index (bits 4-6) ^= the row within 8 (bits 7-9).
      const uint32_t lin = static_cast<uint32_t>(r * 128 + c * 2), phys = lin ^ (((lin >> 7) & 7) << 4);
      const int gr = 64 + r, gc = 32 + c;
      const uint16_t want = gr < kRows && gc < kCols ? value_at(gr, gc) : 0;
      wrong += out[phys / 2] != want;
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(out[(5 * 128 + ((1 ^ 5) << 4) + 2 * 2) / 2], value_at(69, 42));  // row 5, column 10 (chunk 1)
}

// A ragged K (gemm_sm90 on K = 101): the 64 x 64 box at column 64 of a
// 100 x 101 tensor stored in rows of 104 elements. The 16-byte chunk of
// columns 96 to 103 straddles the edge: columns 96 to 100 come from memory,
// 101 to 127 read as zeros although the row's padding (101 to 103) holds
// data, and rows 100 and up are zeros too.
TEST(CpuSm90, TmaLoadZeroFillsPastARaggedInnerExtentNotThePadding) {
  constexpr int kK = 101, kLd = 104;
  alignas(16) static uint16_t data[kRows * kLd];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kLd; ++c) data[r * kLd + c] = c < kK ? value_at(r, c) : 0x7FC0;  // padding: NaN
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kK}, {kLd, 1});
  ASSERT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mA", 1, 64, 64, 128).ok());
  std::vector<uint16_t> out(4096, 0xDEAD);
  ASSERT_EQ(launch<&tma_load_kernel>(dim3(1), dim3(32), 8192 + 8, desc, int32_t{64}, int32_t{64}, out.data()), cudaSuccess);
  int wrong = 0, from_memory = 0;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) {
      const uint32_t lin = static_cast<uint32_t>(r * 128 + c * 2), phys = lin ^ (((lin >> 7) & 7) << 4);
      const int gr = 64 + r, gc = 64 + c;
      const bool in = gr < kRows && gc < kK;
      from_memory += in;
      wrong += out[phys / 2] != (in ? value_at(gr, gc) : 0);
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(from_memory, 36 * 37);  // rows 64..99, columns 64..100
}

// Thread 0 fills shared memory (swizzled as the map says) with `v`, stores or
// adds it at (c0, c1), then overwrites shared memory before waiting: the
// store reads shared memory at its wait, so the second value lands.
void tma_store_kernel(const tileslc::TmaDescriptor map, int32_t c0, int32_t c1, int reduce) {
  TILESLC_DYNAMIC_SMEM(smem);
  auto* s = reinterpret_cast<__nv_bfloat16*>(smem);
  if (tid() != 0) return;
  for (int i = 0; i < 4096; ++i) s[i] = __nv_bfloat16(1.0f);
  if (reduce) dev::tma_reduce_add_2d(&map, smem, c0, c1);
  else dev::tma_store_2d(&map, smem, c0, c1);
  dev::bulk_commit_group();
  for (int i = 0; i < 4096; ++i) s[i] = __nv_bfloat16(2.0f);
  dev::bulk_wait_group_read_0();
  for (int i = 0; i < 4096; ++i) s[i] = __nv_bfloat16(3.0f);  // too late: the store has read
}

TEST(CpuSm90, TmaStoreAndReduceAddSkipWhatLiesOutside) {
  alignas(16) static __nv_bfloat16 data[kRows * kCols];
  for (auto& x : data) x = __nv_bfloat16(0.5f);
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kCols}, {kCols, 1});
  ASSERT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mC", 1, 64, 64, 128).ok());
  ASSERT_EQ(launch<&tma_store_kernel>(dim3(1), dim3(32), 8192, desc, int32_t{32}, int32_t{64}, 0), cudaSuccess);
  ASSERT_EQ(launch<&tma_store_kernel>(dim3(1), dim3(32), 8192, desc, int32_t{-16}, int32_t{-8}, 1), cudaSuccess);
  int wrong = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const bool stored = r >= 64 && c >= 32, added = r < 56 && c < 48;
      const float want = (stored ? 2.0f : 0.5f) + (added ? 2.0f : 0.0f);
      wrong += static_cast<float>(data[r * kCols + c]) != want;
    }
  EXPECT_EQ(wrong, 0);
}

void tma_outside_kernel(const tileslc::TmaDescriptor map) {
  TILESLC_DYNAMIC_SMEM(smem);
  dev::tma_store_2d(&map, smem, 0, 100);
}

TEST(CpuSm90DeathTest, TmaBoxEntirelyOutsideIsReported) {
  alignas(16) static uint16_t data[kRows * kCols];
  tileslc::TmaDescriptor desc;
  auto t = tileslc::make_tensor_view(data, tileslc::DType::BFloat16, {kRows, kCols}, {kCols, 1});
  ASSERT_TRUE(tileslc::make_tma_descriptor(&desc, t, "f", "mC", 1, 64, 64, 128).ok());
  EXPECT_EXIT(launch<&tma_outside_kernel>(dim3(1), dim3(1), 8192, desc), testing::ExitedWithCode(1),
              "error: TMA store \\(cp.async.bulk.tensor.2d\\): the 64 x 64 box at row 100, column 0 of the 100 x 72 "
              "tensor lies entirely outside it");
}

void tma_garbage_kernel(const tileslc::TmaDescriptor map) {
  TILESLC_DYNAMIC_SMEM(smem);
  dev::tma_store_2d(&map, smem, 0, 0);
}

TEST(CpuSm90DeathTest, TmaWithAMapNeverEncodedIsReported) {
  tileslc::TmaDescriptor desc;
  std::memset(&desc, 0, sizeof desc);
  EXPECT_EXIT(launch<&tma_garbage_kernel>(dim3(1), dim3(1), 8192, desc), testing::ExitedWithCode(1),
              "the tensor map was not made by cuTensorMapEncodeTiled");
}

// ---- wgmma

// This thread's 32 accumulators of a 64 x 64 wgmma into the row-major d_out,
// at their places in the ISA's m64nNk16 D fragment.
void store_accumulators(const float* d, float* d_out) {
  const int t = tid(), lane = t % 32, warp = t / 32;
  for (int i = 0; i < 32; ++i)
    d_out[(16 * warp + lane / 4 + 8 * ((i / 2) % 2)) * 64 + 8 * (i / 4) + 2 * (lane % 4) + i % 2] = d[i];
}

// Runs `Kernel(a, b, d)` for one warpgroup on A and B of 64 x K, K-major,
// small integers (exact in BFloat16, E4M3, E5M2 and in float sums), and
// returns how many entries of the 64 x 64 D differ from A * B^T.
template <auto Kernel>
int wgmma_wrong_entries(int K, size_t smem_bytes) {
  std::vector<float> a(64 * K), b(64 * K), d(4096, -1.0f);
  for (int i = 0; i < 64 * K; ++i) {
    a[i] = static_cast<float>((i * 7) % 5 - 2);
    b[i] = static_cast<float>((i * 3) % 7 - 3);
  }
  EXPECT_EQ(launch<Kernel>(dim3(1), dim3(128), smem_bytes, static_cast<const float*>(a.data()), static_cast<const float*>(b.data()),
                           d.data()),
            cudaSuccess);
  int wrong = 0;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      float want = 0;
      for (int k = 0; k < K; ++k) want += a[m * K + k] * b[n * K + k];
      wrong += d[m * 64 + n] != want;
    }
  return wrong;
}

// A (64 x 64) and B (64 x 64), both K-major BFloat16 under the 128-byte
// swizzle, as TMA leaves them; four k16 steps accumulate D = A * B^T.
void wgmma_kernel(const float* a, const float* b, float* d_out) {
  TILESLC_DYNAMIC_SMEM(smem);
  for (int i = tid(); i < 2 * 4096; i += 128) {
    const int which = i / 4096, r = (i % 4096) / 64, k = i % 64;
    const uint32_t lin = static_cast<uint32_t>(which * 8192 + r * 128 + 2 * k);
    const __nv_bfloat16 v((which ? b : a)[r * 64 + k]);
    std::memcpy(smem + (lin ^ (((lin >> 7) & 7) << 4)), &v, 2);
  }
  TILESLC_SYNCTHREADS();
  float d[32];
  for (float& x : d) x = __int_as_float(0x7fc00000);  // scale-d 0 ignores it
  dev::wgmma_fence();
  for (int ks = 0; ks < 4; ++ks)
    dev::wgmma_m64n64k16_f32_bf16_ss(d, dev::wgmma_desc(smem + 32 * ks, 16, 1024, 1),
                                     dev::wgmma_desc(smem + 8192 + 32 * ks, 16, 1024, 1), ks > 0 ? 1 : 0);
  dev::wgmma_commit_group();
  dev::wgmma_wait_group_0();
  store_accumulators(d, d_out);
}

TEST(CpuSm90, WgmmaMatchesScalarGemm) { EXPECT_EQ(wgmma_wrong_entries<&wgmma_kernel>(64, 16384), 0); }

// B MN-major (the _tb forms, imm-trans-b = 1): B^T stored as 64 rows along K of
// 64 N-contiguous BFloat16 (128 bytes) under the 128-byte swizzle, as a TMA box
// of attention's (keys, head_dim) V leaves it; A K-major. Each k16 step starts
// 16 rows (2048 bytes) further; SBO 1024 steps between 8-row groups along K.
void wgmma_mn_major_b_kernel(const float* a, const float* b, float* d_out) {
  TILESLC_DYNAMIC_SMEM(smem);
  for (int i = tid(); i < 2 * 4096; i += 128) {
    const int which = i / 4096, r = (i % 4096) / 64, c = i % 64;  // A (m = r, k = c); B^T (k = r, n = c)
    const uint32_t lin = static_cast<uint32_t>(which * 8192 + r * 128 + 2 * c);
    const __nv_bfloat16 v(which ? b[c * 64 + r] : a[r * 64 + c]);
    std::memcpy(smem + (lin ^ (((lin >> 7) & 7) << 4)), &v, 2);
  }
  TILESLC_SYNCTHREADS();
  float d[32];
  dev::wgmma_fence();
  for (int ks = 0; ks < 4; ++ks)
    dev::wgmma_m64n64k16_f32_bf16_ss_tb(d, dev::wgmma_desc(smem + 32 * ks, 16, 1024, 1),
                                        dev::wgmma_desc(smem + 8192 + 2048 * ks, 8192, 1024, 1), ks > 0 ? 1 : 0);
  dev::wgmma_commit_group();
  dev::wgmma_wait_group_0();
  store_accumulators(d, d_out);
}

TEST(CpuSm90, WgmmaWithBMnMajorMatchesScalarGemm) { EXPECT_EQ(wgmma_wrong_entries<&wgmma_mn_major_b_kernel>(64, 16384), 0); }

// Float8 with A from registers (RS): A (64 x 128) E4M3, each thread's 16
// values per k32 step placed by the PTX ISA's 8-bit A fragment (value v of
// thread t: row 16 (t / 32) + (t % 32) / 4 + 8 ((v / 4) % 2), column
// 4 (t % 4) + v % 4 + 16 (v / 8)); B (64 x 128) E5M2, K-major under the
// 128-byte swizzle. Four k32 steps accumulate D = A * B^T.
void wgmma_fp8_rs_kernel(const float* a, const float* b, float* d_out) {
  TILESLC_DYNAMIC_SMEM(smem);
  for (int i = tid(); i < 8192; i += 128) {
    const uint32_t lin = static_cast<uint32_t>(i);  // row i / 128, element i % 128
    smem[lin ^ (((lin >> 7) & 7) << 4)] = __nv_fp8_e5m2(b[i]).__x;
  }
  TILESLC_SYNCTHREADS();
  const int t = tid(), lane = t % 32, warp = t / 32;
  float d[32];
  dev::wgmma_fence();
  for (int ks = 0; ks < 4; ++ks) {
    __nv_fp8_e4m3 frag[16];
    for (int v = 0; v < 16; ++v) {
      const int row = 16 * warp + lane / 4 + 8 * ((v / 4) % 2), col = 32 * ks + 4 * (lane % 4) + v % 4 + 16 * (v / 8);
      frag[v] = __nv_fp8_e4m3(a[row * 128 + col]);
    }
    dev::wgmma_m64n64k32_f32_e4m3_e5m2_rs(d, frag, dev::wgmma_desc(smem + 32 * ks, 16, 1024, 1), ks > 0 ? 1 : 0);
  }
  dev::wgmma_commit_group();
  dev::wgmma_wait_group_0();
  store_accumulators(d, d_out);
}

TEST(CpuSm90, WgmmaFloat8WithARegistersMatchesScalarGemm) { EXPECT_EQ(wgmma_wrong_entries<&wgmma_fp8_rs_kernel>(128, 8192), 0); }

void wgmma_misaligned_kernel(float*) {
  TILESLC_DYNAMIC_SMEM(smem);
  float d[32];
  dev::wgmma_m64n64k16_f32_bf16_ss(d, dev::wgmma_desc(smem + 128, 16, 1024, 1), dev::wgmma_desc(smem + 8192, 16, 1024, 1), 0);
}

TEST(CpuSm90DeathTest, WgmmaDescriptorOffItsSwizzlePatternIsReported) {
  float out[1];
  EXPECT_EXIT(launch<&wgmma_misaligned_kernel>(dim3(1), dim3(128), 16384, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "wgmma.mma_async.m64n64k16.f32.bf16: the descriptor of A \\(0x4000004000010008\\) starts at shared "
              "address 128, row 1 of its 128-byte swizzle pattern");
}

void wgmma_partial_kernel(float*) {
  TILESLC_DYNAMIC_SMEM(smem);
  float d[32];
  if (tid() < 64)
    dev::wgmma_m64n64k16_f32_bf16_ss(d, dev::wgmma_desc(smem, 16, 1024, 1), dev::wgmma_desc(smem + 8192, 16, 1024, 1), 0);
}

TEST(CpuSm90DeathTest, WgmmaWithHalfAWarpgroupDeadlocks) {
  float out[1];
  EXPECT_EXIT(launch<&wgmma_partial_kernel>(dim3(1), dim3(128), 16384, static_cast<float*>(out)),
              testing::ExitedWithCode(1),
              "warpgroup deadlock: wgmma.mma_async.m64n64k16.f32.bf16 waits for the 128 threads of warpgroup 0 but only "
              "64 arrived; 64 exited without reaching it");
}

// ---- elect.sync, warp-uniform values

void elect_kernel(int* out) {
  out[tid()] = dev::elect_one() ? 1 : 0;
  out[64 + tid()] = dev::warp_uniform(tid() * 3);
}

TEST(CpuSm90, ElectOnePicksTheLowestLaneAndWarpUniformBroadcastsLaneZero) {
  std::vector<int> out(128, -1);
  ASSERT_EQ(launch<&elect_kernel>(dim3(1), dim3(64), 0, out.data()), cudaSuccess);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t % 32 == 0 ? 1 : 0) << t;
    EXPECT_EQ(out[64 + t], (t / 32) * 32 * 3) << t;
  }
}

}  // namespace
