// gemm_sm90 driver: runs the tileslc-generated gemm_sm90 (C = A * B^T with TMA
// and wgmma: A (M, K) and B (N, K) BFloat16 row-major, C (M, N) BFloat16
// row-major; M a multiple of 128, N of 256, K of 64; its epilogue goes
// through shared memory) on several shapes, the same kernel in 2x1
// thread-block clusters multicasting B (gemm_sm90_cluster: odd tile counts
// along M, 128 and 384, leave the last cluster's second block without a tile
// of its own) and storing straight from the accumulators
// (gemm_sm90_direct_epilogue). Inputs
// are random in [-1, 1), rounded to BFloat16 on the host; the float64
// reference is computed from those BFloat16 values. Small shapes are checked
// element by element, large ones on a random sample of entries plus a scan for
// entries never written; a poisoned guard after C must stay untouched. It
// times 4096^3 and 8192^3 (TFLOP/s) and shows run-time argument validation.
//
// Usage: gemm_sm90 [--small]
//   --small  only the small shapes (every entry checked) and the validation
//            demos: no large case, no timing (for compute-sanitizer runs).
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// or not a compute capability 9.0 device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gemm_sm90.h"
#include "sample_util.h"

namespace {

using sample::Bf16Matrix;

const char* kName = "gemm_sm90";
constexpr int64_t kGuard = 64;             // poisoned BFloat16 after C that must stay untouched
constexpr int64_t kSampledEntries = 4096;  // entries of C checked on large shapes
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// Tolerance on max |C - ref| / max |ref|. The Float32 accumulation on the
// tensor cores contributes at most sample::tensor_core_tolerance(K) =
// 1e-5 * sqrt(K) (sample_util.h derives it); here C is also rounded to BFloat16, whose 8-bit significand
// puts a rounded value within 2^-8 of |C| <= max |ref| (cuBLAS's BF16 output
// shows 2.1e-3 to 2.8e-3 on the same inputs). So 2^-8 + 1e-5 * sqrt(K)
// (4.5e-3 at K = 4096). A real bug is far above: one k-tile of 64 dropped or
// added twice moves entries by about sqrt(64 / K) of max |ref| (0.125 at
// K = 4096, 0.088 at 8192); a misplaced element by order 1.
double tolerance(int64_t K) { return std::ldexp(1.0, -8) + sample::tensor_core_tolerance(K); }

// The host functions: the default, 2x1 clusters multicasting B, and the direct-store epilogue.
using GemmFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, cudaStream_t);
struct Variant {
  const char* name;
  GemmFn fn;
};
const Variant kVariants[] = {{"gemm_sm90", &gemm_sm90},
                             {"gemm_sm90_cluster", &gemm_sm90_cluster},
                             {"gemm_sm90_direct_epilogue", &gemm_sm90_direct_epilogue}};

// gemm_sm90_cluster against gemm_sm90 (no cluster), interleaved: kRounds rounds of
// kReps timed calls of each in turn, so that clock and thermal drift hit both
// alike; prints the median of the per-round time ratios (above 1: the cluster
// kernel is faster) with its spread.
void compare_cluster(int64_t M, int64_t N, int64_t K, const Bf16Matrix& A, const Bf16Matrix& B, cudaStream_t stream) {
  constexpr int kRounds = 9;
  Bf16Matrix C = Bf16Matrix::poisoned(M, N, kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  std::vector<double> ratios;
  for (int r = 0; r < kRounds; ++r) {
    const double cluster = sample::median_ms([&] { CHECK_OK(gemm_sm90_cluster(mA, mB, mC, stream)); }, stream, 2, kReps);
    const double plain = sample::median_ms([&] { CHECK_OK(gemm_sm90(mA, mB, mC, stream)); }, stream, 2, kReps);
    ratios.push_back(plain / cluster);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("%s: %s: cluster vs no cluster, interleaved: median speedup %.3fx (min %.3f, max %.3f over %d rounds of %d reps)\n", kName,
              sample::gemm_shape_text(M, N, K).c_str(), ratios[ratios.size() / 2], ratios.front(), ratios.back(), kRounds, kReps);
}

// One call of each variant on random A, B and a NaN-poisoned C. `sampled` ==
// 0 checks every entry; otherwise `sampled` random entries (and that no entry
// of C is left NaN). With `timed` it then prints the median time and TFLOP/s.
bool run_case(int64_t M, int64_t N, int64_t K, int64_t sampled, bool timed, sample::Rng& rng, cudaStream_t stream) {
  const Bf16Matrix A = Bf16Matrix::random(M, K, -1.0f, 1.0f, rng);
  const Bf16Matrix B = Bf16Matrix::random(N, K, -1.0f, 1.0f, rng);
  auto ref = [&](int64_t m, int64_t n) { return sample::reference_abt(A, B, m, n); };
  bool ok = true;
  for (const Variant& v : kVariants) {
    Bf16Matrix C = Bf16Matrix::poisoned(M, N, kGuard);
    const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
    CHECK_OK(v.fn(mA, mB, mC, stream));
    CHECK(cudaStreamSynchronize(stream));
    C.download();
    ok &= sample::check_gemm(v.name, M, N, K, sampled, C, ref, tolerance(K));
    if (timed) {
      const int64_t operand_bytes = (M * K + N * K + M * N) * int64_t{2};  // all BFloat16
      sample::gemm_timing(v.name, M, N, K, operand_bytes, [&] { CHECK_OK(v.fn(mA, mB, mC, stream)); }, stream, kWarmup, kReps);
    }
  }
  if (timed) compare_cluster(M, N, K, A, B, stream);
  return ok;
}

// gemm_sm90 must reject what its kernel cannot serve before launching, with a
// message naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 128, N = 256, K = 64;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(M * K * 2));
  CHECK_OK(dB.allocate(N * K * 4));  // room for the Float32 B below too
  CHECK_OK(dC.allocate((M * N + 8) * 2));
  const auto bf16 = tileslc::DType::BFloat16, f32 = tileslc::DType::Float32;
  auto mA = tileslc::make_tensor_view(dA.data(), bf16, {M, K}, {K, 1});
  auto mB = tileslc::make_tensor_view(dB.data(), bf16, {N, K}, {K, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), bf16, {M, N}, {N, 1});
  bool ok = true;
  auto mB_128 = tileslc::make_tensor_view(dB.data(), bf16, {128, K}, {K, 1});
  auto mC_128 = tileslc::make_tensor_view(dC.data(), bf16, {M, 128}, {128, 1});
  ok &= sample::expect_rejected(kName, "N = 128, not a multiple of 256", gemm_sm90(mA, mB_128, mC_128, stream), "mB");
  auto mB_f32 = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {K, 1});
  ok &= sample::expect_rejected(kName, "B Float32, not BFloat16", gemm_sm90(mA, mB_f32, mC, stream), "mB");
  auto mC_odd = tileslc::make_tensor_view(static_cast<uint16_t*>(dC.data()) + 1, bf16, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", gemm_sm90(mA, mB, mC_odd, stream), "mC");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes and the validation demos");
  sample::require_device_or_skip(kName);
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major != 9) {
    std::printf("%s: skipped: needs a compute capability 9.0 GPU (sm_90a: TMA and wgmma), found %d.x\n", kName, major);
    return sample::kSkipExitCode;
  }
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(128, 256, 64, 0, false, rng, stream);     // one tile, one k-tile
    ok &= run_case(256, 512, 192, 0, false, rng, stream);    // 3 k-tiles, fewer than the 4 stages
    ok &= run_case(384, 256, 1024, 0, false, rng, stream);   // 16 k-tiles: the ring wraps around
    ok &= run_case(2048, 4096, 128, 1 << 16, false, rng, stream);  // 256 tiles: more than one per CTA
    if (!small) {
      ok &= run_case(4096, 4096, 4096, kSampledEntries, true, rng, stream);
      ok &= run_case(8192, 8192, 8192, kSampledEntries, true, rng, stream);
    }
    ok &= run_validation(stream);
    return ok;
  });
}
