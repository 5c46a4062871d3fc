// sgemm driver: runs the tileslc-generated sgemm (C = A * B^T, Float32; A
// (M, K) and B (N, K) row-major, C (M, N) row-major; M, N multiples of 128, K
// of 8) on several shapes. Small shapes are checked element by element against
// a float64 reference, 4096^3 on a random sample of entries; a guard after C
// must stay untouched. It times 4096^3 (TFLOP/s) and shows run-time argument
// validation.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "sample_util.h"
#include "sgemm.h"

namespace {

using sample::DeviceMatrix;
using sample::Matrix2D;

const char* kName = "sgemm";
constexpr int64_t kGuard = 64;           // poisoned floats after C that must stay untouched
constexpr int64_t kSampledEntries = 4096;  // entries of C checked on large shapes
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// Tolerance on max |C - ref| / max |ref| for K-term Float32 dot products
// (u = 2^-24, inputs uniform in [-1, 1), so max |ref| is about 1.5 * sqrt(K)):
// - expected: each fused multiply-add rounds its running sum, whose size
//   grows like sqrt(k) / 3; those errors have random signs and add up to about
//   u * K / 15 per entry, i.e. a ratio of about 0.2 * u * sqrt(K) for the
//   largest entry of C (1e-6 at K = 4096);
// - worst case (Higham, every rounding the same sign): K * u * sum |a b|
//   = u * K^2 / 4, a ratio of about 0.17 * u * K^1.5 (2.6e-3 at K = 4096).
// 1e-5 * sqrt(K) (6.4e-4 at K = 4096) is hundreds of times the expected
// error, and above even the worst case for K up to about 1000. A real bug is
// far above it: one k-tile of 8 dropped or added twice moves entries by about
// sqrt(8) / 3, a ratio near 2 / sqrt(K) (3e-2 at K = 4096).
double tolerance(int64_t K) { return 1e-5 * std::sqrt(static_cast<double>(K)); }

// sum_k A[m, k] * B[n, k] in float64, from the host copies.
double reference(const DeviceMatrix& A, const DeviceMatrix& B, int64_t m, int64_t n) {
  const int64_t K = A.layout().N;
  double sum = 0.0;
  for (int64_t k = 0; k < K; ++k) sum += static_cast<double>(A.at(m, k)) * B.at(n, k);
  return sum;
}

// "4096x4096x4096" (M x N x K).
// One call of sgemm on random A, B and a NaN-poisoned C. `sampled` == 0
// checks every entry; otherwise `sampled` random entries (and that no entry of
// C is left NaN). With `timed` it then prints the median time and TFLOP/s.
bool run_case(int64_t M, int64_t N, int64_t K, int64_t sampled, bool timed, sample::Rng& rng, cudaStream_t stream) {
  auto A = DeviceMatrix::random(Matrix2D::row_major(M, K), -1.0f, 1.0f, rng);
  auto B = DeviceMatrix::random(Matrix2D::row_major(N, K), -1.0f, 1.0f, rng);
  auto C = DeviceMatrix::poisoned(Matrix2D::row_major(M, N), kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  CHECK_OK(sgemm(mA, mB, mC, stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();

  auto ref = [&](int64_t m, int64_t n) { return reference(A, B, m, n); };
  bool ok = sample::check_gemm(kName, M, N, K, sampled, C, ref, tolerance(K));
  if (timed) {
    const int64_t operand_bytes = (M * K + N * K + M * N) * static_cast<int64_t>(sizeof(float));
    sample::gemm_timing(kName, M, N, K, operand_bytes, [&] { CHECK_OK(sgemm(mA, mB, mC, stream)); }, stream, kWarmup, kReps);
  }
  return ok;
}

// sgemm must reject what its kernel cannot serve before launching, with a
// message naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 128, N = 128, K = 8;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(M * K * sizeof(float)));
  CHECK_OK(dB.allocate(N * K * sizeof(float)));
  CHECK_OK(dC.allocate((M * N + 4) * sizeof(float)));
  const auto f32 = tileslc::DType::Float32;
  auto mA = tileslc::make_tensor_view(dA.data(), f32, {M, K}, {K, 1});
  auto mB = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {K, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), f32, {M, N}, {N, 1});
  bool ok = true;

  auto mA_100 = tileslc::make_tensor_view(dA.data(), f32, {100, K}, {K, 1});
  auto mC_100 = tileslc::make_tensor_view(dC.data(), f32, {100, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "M = 100, not a multiple of 128", sgemm(mA_100, mB, mC_100, stream), "mA");
  // B stored column-major (the (N, K) view of a (K, N) row-major matrix).
  auto mB_col = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {1, N});
  ok &= sample::expect_rejected(kName, "B with strides (1, N)", sgemm(mA, mB_col, mC, stream), "mB");
  auto mC_odd = tileslc::make_tensor_view(static_cast<float*>(dC.data()) + 1, f32, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", sgemm(mA, mB, mC_odd, stream), "mC");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 4096^3 case and its timing");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(128, 128, 8, 0, false, rng, stream);     // one block, one k-tile
    ok &= run_case(256, 384, 40, 0, false, rng, stream);    // M != N, five k-tiles
    ok &= run_case(512, 128, 1000, 0, false, rng, stream);  // 125 k-tiles (4 tiles: K split in 7 slices)
    ok &= run_case(128, 256, 2048, 0, false, rng, stream);  // skinny: 2 tiles, K split in 16 slices
    if (!small) ok &= run_case(4096, 4096, 4096, kSampledEntries, true, rng, stream);
    ok &= run_validation(stream);
    return ok;
  });
}
