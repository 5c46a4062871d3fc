// Unit tests of the CPU emulator's warp atoms beyond m16n8k16 and ldmatrix
// (runtime/include/tileslc/cpu/warp_mma_ext.h, warp_stmatrix.h): one warp
// per test, each lane's fragments placed by the PTX ISA's figures written out
// here ("Matrix Fragments for mma.m16n8k8" with .tf32, "for mma.m16n8k32"
// with 8-bit integers; "stmatrix"), checked against a scalar reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tileslc/cpu/prelude.h"

namespace {

namespace cpu = tileslc::cpu;

template <auto K, class... A>
cudaError_t launch(dim3 grid, dim3 block, size_t smem, A... a) {
  void* args[] = {&a..., nullptr};
  return cudaLaunchKernel(reinterpret_cast<const void*>(&cpu::kernel_entry<K>), grid, block, args, smem, nullptr);
}

int lane() { return static_cast<int>(threadIdx.x) % 32; }

// C/D of every m16n8 shape: c0, c1 in row groupID, c2, c3 eight rows down.
int c_row(int l, int i) { return l / 4 + (i >= 2 ? 8 : 0); }
int c_col(int l, int i) { return l % 4 * 2 + (i & 1); }

// ---- mma.m16n8k8 .tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); b0 (t, g), b1 (t+4, g).
int tf32_a_row(int l, int i) { return l / 4 + (i % 2) * 8; }
int tf32_a_col(int l, int i) { return l % 4 + (i / 2) * 4; }
int tf32_b_row(int l, int i) { return l % 4 + i * 4; }

void tf32_kernel(const float* A, const float* B, const float* C, float* D) {
  const int l = lane();
  alignas(16) float a[4], b[2], c[4], d[4];
  for (int i = 0; i < 4; ++i) a[i] = A[tf32_a_row(l, i) * 8 + tf32_a_col(l, i)];
  for (int i = 0; i < 2; ++i) b[i] = B[tf32_b_row(l, i) * 8 + l / 4];
  for (int i = 0; i < 4; ++i) c[i] = C[c_row(l, i) * 8 + c_col(l, i)];
  tileslc::dev::mma_m16n8k8_f32_tf32(d, a, b, c);
  for (int i = 0; i < 4; ++i) D[c_row(l, i) * 8 + c_col(l, i)] = d[i];
}

TEST(CpuWarpExt, MmaM16n8k8Tf32MatchesScalarGemm) {
  // Small integers, exact in TF32 and in every sum: D must equal the reference exactly.
  std::vector<float> A(16 * 8), B(8 * 8), C(16 * 8), D(16 * 8, -1.0f);
  for (int i = 0; i < 16 * 8; ++i) A[i] = static_cast<float>((i * 7) % 13 - 6);
  for (int i = 0; i < 8 * 8; ++i) B[i] = static_cast<float>((i * 5) % 11 - 5);
  for (int i = 0; i < 16 * 8; ++i) C[i] = static_cast<float>(i % 9);
  ASSERT_EQ(launch<&tf32_kernel>(dim3(1), dim3(32), 0, static_cast<const float*>(A.data()), static_cast<const float*>(B.data()),
                                 static_cast<const float*>(C.data()), D.data()),
            cudaSuccess);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      float ref = C[m * 8 + n];
      for (int k = 0; k < 8; ++k) ref += A[m * 8 + k] * B[k * 8 + n];
      EXPECT_EQ(D[m * 8 + n], ref) << "D[" << m << "][" << n << "]";
    }
}

TEST(CpuWarpExt, Tf32InputsAreRoundedToNearestTiesAway) {
  // cvt.rna.tf32.f32 keeps 10 mantissa bits: 1 + 2^-11 is a tie (rounds away, up to 1 + 2^-10),
  // 1 + 2^-12 rounds down to 1, -(1 + 2^-11) to -(1 + 2^-10).
  EXPECT_EQ(cpu::round_to_tf32(1.0f + 0x1p-11f), 1.0f + 0x1p-10f);
  EXPECT_EQ(cpu::round_to_tf32(1.0f + 0x1p-12f), 1.0f);
  EXPECT_EQ(cpu::round_to_tf32(-(1.0f + 0x1p-11f)), -(1.0f + 0x1p-10f));
  // Through the instruction: A = 1 + 2^-12 everywhere, B = identity, C = 0: D = 1 exactly.
  std::vector<float> A(16 * 8, 1.0f + 0x1p-12f), B(8 * 8, 0.0f), C(16 * 8, 0.0f), D(16 * 8, -1.0f);
  for (int k = 0; k < 8; ++k) B[k * 8 + k] = 1.0f;
  ASSERT_EQ(launch<&tf32_kernel>(dim3(1), dim3(32), 0, static_cast<const float*>(A.data()), static_cast<const float*>(B.data()),
                                 static_cast<const float*>(C.data()), D.data()),
            cudaSuccess);
  for (float d : D) EXPECT_EQ(d, 1.0f);
}

// ---- mma.m16n8k32 .s8/.u8: a_i (g + 8 ((i / 4) % 2), 4t + i % 4 + 16 (i / 8)); b_i (4t + i % 4 + 16 (i / 4), g).
int i8_a_row(int l, int i) { return l / 4 + ((i / 4) % 2) * 8; }
int i8_a_col(int l, int i) { return l % 4 * 4 + i % 4 + (i / 8) * 16; }
int i8_b_row(int l, int i) { return l % 4 * 4 + i % 4 + (i / 4) * 16; }

template <class X>
void int8_kernel(const X* A, const X* B, const int32_t* C, int32_t* D) {
  const int l = lane();
  alignas(16) X a[16], b[8];
  alignas(16) int32_t c[4], d[4];
  for (int i = 0; i < 16; ++i) a[i] = A[i8_a_row(l, i) * 32 + i8_a_col(l, i)];
  for (int i = 0; i < 8; ++i) b[i] = B[i8_b_row(l, i) * 8 + l / 4];
  for (int i = 0; i < 4; ++i) c[i] = C[c_row(l, i) * 8 + c_col(l, i)];
  if constexpr (std::is_signed_v<X>) tileslc::dev::mma_m16n8k32_s32_s8(d, a, b, c);
  else tileslc::dev::mma_m16n8k32_s32_u8(d, a, b, c);
  for (int i = 0; i < 4; ++i) D[c_row(l, i) * 8 + c_col(l, i)] = d[i];
}

template <class X>
void check_int8(int lo, int span) {
  std::vector<X> A(16 * 32), B(32 * 8);
  std::vector<int32_t> C(16 * 8), D(16 * 8, -1);
  for (int i = 0; i < 16 * 32; ++i) A[i] = static_cast<X>(lo + (i * 37) % span);
  for (int i = 0; i < 32 * 8; ++i) B[i] = static_cast<X>(lo + (i * 53) % span);
  for (int i = 0; i < 16 * 8; ++i) C[i] = (i * 7919) % 100003 - 50000;
  ASSERT_EQ(launch<&int8_kernel<X>>(dim3(1), dim3(32), 0, static_cast<const X*>(A.data()), static_cast<const X*>(B.data()),
                                    static_cast<const int32_t*>(C.data()), D.data()),
            cudaSuccess);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      int64_t ref = C[m * 8 + n];
      for (int k = 0; k < 32; ++k) ref += int64_t{A[m * 32 + k]} * int64_t{B[k * 8 + n]};
      EXPECT_EQ(D[m * 8 + n], ref) << "D[" << m << "][" << n << "]";
    }
}

TEST(CpuWarpExt, MmaM16n8k32S8MatchesScalarGemm) { check_int8<int8_t>(-128, 256); }
TEST(CpuWarpExt, MmaM16n8k32U8MatchesScalarGemm) { check_int8<uint8_t>(0, 256); }

TEST(CpuWarpExt, Int8FragmentSpotChecks) {
  // Lane 5 (groupID 1, threadID_in_group 1) in the PTX ISA's m16n8k32 figures.
  EXPECT_EQ(i8_a_row(5, 0), 1);
  EXPECT_EQ(i8_a_col(5, 0), 4);
  EXPECT_EQ(i8_a_row(5, 7), 9);
  EXPECT_EQ(i8_a_col(5, 7), 7);
  EXPECT_EQ(i8_a_row(5, 15), 9);
  EXPECT_EQ(i8_a_col(5, 15), 23);
  EXPECT_EQ(i8_b_row(5, 7), 23);
}

// ---- stmatrix: lane t's register i holds matrix i's (t / 4, 2 (t % 4) + j) (.trans: (2 (t % 4) + j, t / 4)).
template <int N, bool Trans>
void stmatrix_kernel(uint16_t* out) {
  TILESLC_DYNAMIC_SMEM(smem);
  uint16_t* s = reinterpret_cast<uint16_t*>(smem);
  const int l = lane();
  alignas(16) uint16_t regs[8];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < 2; ++j) {
      const int r = Trans ? 2 * (l % 4) + j : l / 4, c = Trans ? l / 4 : 2 * (l % 4) + j;
      regs[2 * i + j] = static_cast<uint16_t>(1000 * i + 10 * r + c);  // matrix i, row r, column c
    }
  // Lane 8i + r addresses row r of matrix i; matrix i's rows are 24 elements apart (padded), matrices 256 apart.
  uint16_t* row = s + 256 * (l / 8 % N) + 24 * (l % 8);
  if constexpr (N == 1) tileslc::dev::stsm(Trans, "stmatrix", cpu::SrcLoc::current(), row, &regs[0]);
  if constexpr (N == 2) tileslc::dev::stsm(Trans, "stmatrix", cpu::SrcLoc::current(), row, &regs[0], &regs[2]);
  if constexpr (N == 4) tileslc::dev::stsm(Trans, "stmatrix", cpu::SrcLoc::current(), row, &regs[0], &regs[2], &regs[4], &regs[6]);
  __syncwarp();
  for (int e = l; e < 1024; e += 32) out[e] = s[e];
}

template <int N, bool Trans>
void check_stmatrix() {
  std::vector<uint16_t> out(1024, 0xFFFF);
  const cudaError_t rc = launch<&stmatrix_kernel<N, Trans>>(dim3(1), dim3(32), 2048, out.data());
  ASSERT_EQ(rc, cudaSuccess);
  for (int i = 0; i < N; ++i)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        // Only the rows stmatrix wrote are compared (shared memory starts as the emulator leaves it).
        EXPECT_EQ(out[256 * i + 24 * r + c], 1000 * i + 10 * r + c) << "matrix " << i << " row " << r << " col " << c;
      }
}

TEST(CpuWarpExt, StmatrixX1) { check_stmatrix<1, false>(); }
TEST(CpuWarpExt, StmatrixX2) { check_stmatrix<2, false>(); }
TEST(CpuWarpExt, StmatrixX4) { check_stmatrix<4, false>(); }
TEST(CpuWarpExt, StmatrixX2Trans) { check_stmatrix<2, true>(); }
TEST(CpuWarpExt, StmatrixX4Trans) { check_stmatrix<4, true>(); }

}  // namespace
