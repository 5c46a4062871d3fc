// splitk driver: runs the tileslc-generated split-K GEMM (C = A * B^T on
// tensor cores, the K dimension split over grid z and the partial sums added
// into C with Float32 atomics: A (M, K) and B (N, K) BFloat16 row-major, C
// (M, N) Float32 row-major; M, N multiples of 128, K of 64). Inputs are random
// in [-1, 1), rounded to BFloat16 on the host; the float64 reference is
// computed from those BFloat16 values. C is poisoned with NaN before every
// call, so an entry that the host function's zeroing pass missed stays NaN
// and fails the check. Small shapes are checked element by element, large
// ones on a random sample of entries plus a scan for NaN; a guard after C must
// stay untouched. It times the skinny M = 128, N = K = 8192 (the shape split-K
// is for) and 4096^3, and shows run-time argument validation.
//
// Usage: splitk [--small]
//   --small  only the small shapes (every entry checked) and the validation
//            demos: no large case, no timing (for compute-sanitizer runs).
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// (built, not run).
#include <cmath>
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "splitk.h"

namespace {

using sample::Bf16Matrix;
using sample::DeviceMatrix;
using sample::Matrix2D;

const char* kName = "splitk";
constexpr int64_t kGuard = 64;             // poisoned floats after C that must stay untouched
constexpr int64_t kSampledEntries = 4096;  // entries of C checked on large shapes
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// Tolerance on max |C - ref| / max |ref|: sample::tensor_core_tolerance (the
// Float32 accumulation on the tensor cores, 1e-5 * sqrt(K); sample_util.h). Splitting K only
// regroups the same sum: each slice accumulates fewer terms, and adding the
// S slice sums in Float32 (in any order: atomics) rounds at most S - 1 more
// times, 2^-24 of |C| each, far below that bound for S <= 2 * SMs. A real bug
// is far above: a slice dropped or added twice moves entries by about
// sqrt(1 / S) of max |ref|; C not zeroed first leaves NaN.
double tolerance(int64_t K) { return sample::tensor_core_tolerance(K); }

// One call on random A, B and a NaN-poisoned C: splitk_gemm (automatic split
// count) when `splits` is 0, else splitk_gemm_with_splits. `sampled` == 0
// checks every entry; otherwise `sampled` random entries (and that no entry
// of C is left NaN). With `timed` it then prints the median time and TFLOP/s.
bool run_case(int64_t M, int64_t N, int64_t K, int32_t splits, int64_t sampled, bool timed, sample::Rng& rng,
              cudaStream_t stream) {
  const Bf16Matrix A = Bf16Matrix::random(M, K, -1.0f, 1.0f, rng);
  const Bf16Matrix B = Bf16Matrix::random(N, K, -1.0f, 1.0f, rng);
  auto C = DeviceMatrix::poisoned(Matrix2D::row_major(M, N), kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  auto call = [&] {
    return splits == 0 ? splitk_gemm(mA, mB, mC, stream) : splitk_gemm_with_splits(mA, mB, mC, splits, stream);
  };
  CHECK_OK(call());
  CHECK(cudaStreamSynchronize(stream));
  C.download();

  const std::string label = splits == 0 ? std::string("auto splits") : std::to_string(splits) + " splits";
  std::printf("%s: %s, %s\n", kName, sample::gemm_shape_text(M, N, K).c_str(), label.c_str());
  auto ref = [&](int64_t m, int64_t n) { return sample::reference_abt(A, B, m, n); };
  bool ok = sample::check_gemm(kName, M, N, K, sampled, C, ref, tolerance(K));
  if (timed) {
    // BF16 A and B, Float32 C (written once by the zeroing pass, then added to by every slice)
    const int64_t operand_bytes = (M * K + N * K) * int64_t{2} + M * N * int64_t{4};
    sample::gemm_timing(kName, M, N, K, operand_bytes, [&] { CHECK_OK(call()); }, stream, kWarmup, kReps);
  }
  return ok;
}

// The host functions must reject what the kernels cannot serve before
// launching (in particular before zeroing C), with a message naming the
// parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 128, N = 128, K = 64;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(M * K * 2));
  CHECK_OK(dB.allocate(N * K * 4));  // room for the Float32 B below too
  CHECK_OK(dC.allocate((M * N + 4) * sizeof(float)));
  const auto bf16 = tileslc::DType::BFloat16, f32 = tileslc::DType::Float32;
  auto mA = tileslc::make_tensor_view(dA.data(), bf16, {M, K}, {K, 1});
  auto mB = tileslc::make_tensor_view(dB.data(), bf16, {N, K}, {K, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), f32, {M, N}, {N, 1});
  bool ok = true;
  auto mB_64 = tileslc::make_tensor_view(dB.data(), bf16, {64, K}, {K, 1});
  auto mC_64 = tileslc::make_tensor_view(dC.data(), f32, {M, 64}, {64, 1});
  ok &= sample::expect_rejected(kName, "N = 64, not a multiple of 128", splitk_gemm(mA, mB_64, mC_64, stream), "mB");
  auto mB_f32 = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {K, 1});
  ok &= sample::expect_rejected(kName, "B Float32, not BFloat16", splitk_gemm(mA, mB_f32, mC, stream), "mB");
  auto mC_odd = tileslc::make_tensor_view(static_cast<float*>(dC.data()) + 1, f32, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", splitk_gemm_with_splits(mA, mB, mC_odd, 2, stream),
                                "mC");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes and the validation demos");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(128, 128, 64, 0, 0, false, rng, stream);      // one tile, one k-tile: one slice
    ok &= run_case(128, 256, 1024, 1, 0, false, rng, stream);    // no split: 16 k-tiles in one slice, the ring wraps
    ok &= run_case(128, 256, 1024, 3, 0, false, rng, stream);    // 16 k-tiles in slices of 6, 6 and 4
    ok &= run_case(256, 128, 640, 4, 0, false, rng, stream);     // 10 k-tiles in slices of 3, 3, 3, 1
    ok &= run_case(128, 128, 512, 100, 0, false, rng, stream);   // more splits than k-tiles: one k-tile per slice
    ok &= run_case(128, 512, 2048, 0, 0, false, rng, stream);    // automatic split count
    if (!small) {
      ok &= run_case(128, 8192, 8192, 0, kSampledEntries, true, rng, stream);  // the skinny showcase
      ok &= run_case(128, 8192, 8192, 1, kSampledEntries, true, rng, stream);  // the same without split-K
      ok &= run_case(4096, 4096, 4096, 0, kSampledEntries, true, rng, stream);
    }
    ok &= run_validation(stream);
    return ok;
  });
}
