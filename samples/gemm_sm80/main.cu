// gemm_sm80 driver: runs the tileslc-generated gemm_sm80 (C = A * B^T on
// tensor cores: A (M, K) and B (N, K) BFloat16 row-major, C (M, N) Float32
// row-major; M, N multiples of 128, K of 64) on several shapes. Inputs are
// random in [-1, 1), rounded to BFloat16 on the host; the float64 reference is
// computed from those BFloat16 values. Small shapes are checked element by
// element, 4096^3 on a random sample of entries; a guard after C must stay
// untouched. It times 4096^3 (TFLOP/s) and shows run-time argument validation.
//
// Usage: gemm_sm80 [--small]
//   --small  only the small shapes (every entry checked) and the validation
//            demos: no 4096^3 case, no timing (for compute-sanitizer runs).
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// (built, not run).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gemm_sm80.h"
#include "sample_util.h"

namespace {

using sample::DeviceMatrix;
using sample::Matrix2D;

const char* kName = "gemm_sm80";
constexpr int64_t kGuard = 64;             // poisoned floats after C that must stay untouched
constexpr int64_t kSampledEntries = 4096;  // entries of C checked on large shapes
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// Tolerance: sample::tensor_core_tolerance (sample_util.h derives it).
double tolerance(int64_t K) { return sample::tensor_core_tolerance(K); }

using sample::Bf16Matrix;

// "4096x4096x4096" (M x N x K).
// One call of gemm_sm80 on random A, B and a NaN-poisoned C. `sampled` == 0
// checks every entry; otherwise `sampled` random entries (and that no entry of
// C is left NaN). With `timed` it then prints the median time and TFLOP/s.
bool run_case(int64_t M, int64_t N, int64_t K, int64_t sampled, bool timed, sample::Rng& rng, cudaStream_t stream) {
  const Bf16Matrix A = Bf16Matrix::random(M, K, -1.0f, 1.0f, rng);
  const Bf16Matrix B = Bf16Matrix::random(N, K, -1.0f, 1.0f, rng);
  auto C = DeviceMatrix::poisoned(Matrix2D::row_major(M, N), kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  CHECK_OK(gemm_sm80(mA, mB, mC, stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();

  auto ref = [&](int64_t m, int64_t n) { return sample::reference_abt(A, B, m, n); };
  bool ok = sample::check_gemm(kName, M, N, K, sampled, C, ref, tolerance(K));
  if (timed) {
  // BF16 A and B, Float32 C
    const int64_t operand_bytes = (M * K + N * K) * int64_t{2} + M * N * int64_t{4};
    sample::gemm_timing(kName, M, N, K, operand_bytes, [&] { CHECK_OK(gemm_sm80(mA, mB, mC, stream)); }, stream, kWarmup, kReps);
  }
  return ok;
}

// Like sample::expect_rejected, but the message may name either parameter
// (a K that breaks divisibility is an extent of both mA and mB).
bool expect_rejected_naming_either(const char* what, const tileslc::Status& s, const char* p1, const char* p2) {
  const bool ok = !s.ok() && (s.message().find(p1) != std::string::npos || s.message().find(p2) != std::string::npos);
  std::printf("%s: validation, %-28s %s  \"%s\"\n", kName, what, ok ? "PASS" : "FAIL",
              s.ok() ? "(accepted: expected an error)" : s.message().c_str());
  return ok;
}

// gemm_sm80 must reject what its kernel cannot serve before launching, with a
// message naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 128, N = 128, K = 64;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(M * K * sizeof(float)));  // room for the Float32 B below too
  CHECK_OK(dB.allocate(N * K * sizeof(float)));
  CHECK_OK(dC.allocate((M * N + 4) * sizeof(float)));
  const auto bf16 = tileslc::DType::BFloat16, f32 = tileslc::DType::Float32;
  auto mA = tileslc::make_tensor_view(dA.data(), bf16, {M, K}, {K, 1});
  auto mB = tileslc::make_tensor_view(dB.data(), bf16, {N, K}, {K, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), f32, {M, N}, {N, 1});
  bool ok = true;

  auto mA_100 = tileslc::make_tensor_view(dA.data(), bf16, {100, K}, {K, 1});
  auto mC_100 = tileslc::make_tensor_view(dC.data(), f32, {100, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "M = 100, not a multiple of 128", gemm_sm80(mA_100, mB, mC_100, stream),
                                "mA");
  auto mA_40 = tileslc::make_tensor_view(dA.data(), bf16, {M, 40}, {40, 1});
  auto mB_40 = tileslc::make_tensor_view(dB.data(), bf16, {N, 40}, {40, 1});
  ok &= expect_rejected_naming_either("K = 40, not a multiple of 64", gemm_sm80(mA_40, mB_40, mC, stream), "mA",
                                      "mB");
  auto mB_f32 = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {K, 1});
  ok &= sample::expect_rejected(kName, "B Float32, not BFloat16", gemm_sm80(mA, mB_f32, mC, stream), "mB");
  auto mC_odd = tileslc::make_tensor_view(static_cast<float*>(dC.data()) + 1, f32, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", gemm_sm80(mA, mB, mC_odd, stream), "mC");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes and the validation demos");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(128, 128, 64, 0, false, rng, stream);     // one block, one k-tile
    ok &= run_case(256, 384, 128, 0, false, rng, stream);    // M != N, two k-tiles (fewer than the 3 stages)
    ok &= run_case(512, 128, 1024, 0, false, rng, stream);   // 16 k-tiles: the 3-stage ring wraps around
    // One row of 132 tiles of 256 x 128: the 8-warp kernel, which gemm_sm80 picks when the tiles fill the
    // GPU (132 SMs on an H200, 16 under emulation; the shapes above take the 4-warp one).
    ok &= run_case(256, 132 * 128, 64, 0, false, rng, stream);
    if (!small) ok &= run_case(4096, 4096, 4096, kSampledEntries, true, rng, stream);
    ok &= run_validation(stream);
    return ok;
  });
}
