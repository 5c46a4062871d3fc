// gpu.tma_roundtrip: TMA load (on an mbarrier), TMA store and TMA reduce-add
// of 64 x 64 BFloat16 tiles through 128-byte-swizzled shared memory
// (tma_roundtrip.tpy). B starts poisoned and must equal A exactly; C starts
// random and must equal C0 + A rounded to BFloat16 (within one rounding,
// 2^-8 relative). Shapes 128 x 192 (2 x 3 tiles) and 64 x 64. Exit 77 without
// a compute capability 9.0 GPU.
#include <cmath>
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "tma_roundtrip.h"

namespace {

bool run(int64_t M, int64_t N, sample::Rng& rng, cudaStream_t stream) {
  using sample::Bf16Matrix;
  const Bf16Matrix A = Bf16Matrix::random(M, N, -1.0f, 1.0f, rng);
  Bf16Matrix B = Bf16Matrix::poisoned(M, N, 64);
  Bf16Matrix C = Bf16Matrix::random(M, N, -1.0f, 1.0f, rng);
  std::vector<float> c0(static_cast<size_t>(M * N));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) c0[m * N + n] = C.at(m, n);
  CHECK_OK(roundtrip(A.view(), B.view(), C.view(), stream));
  CHECK(cudaStreamSynchronize(stream));
  const std::string shape = std::to_string(M) + "x" + std::to_string(N);
  bool ok = sample::check_exact("tma_roundtrip", shape + " store", B, M, N, [&](int64_t m, int64_t n) { return B.at(m, n) != A.at(m, n); });
  ok &= sample::check_exact("tma_roundtrip", shape + " reduce-add", C, M, N, [&](int64_t m, int64_t n) {
    const double want = static_cast<double>(c0[m * N + n]) + A.at(m, n);
    return !(std::fabs(C.at(m, n) - want) <= std::ldexp(std::fabs(want), -8) + 1e-30);
  });
  return ok;
}

}  // namespace

int main() {
  sample::require_device_or_skip("tma_roundtrip");
  sample::require_compute_capability_or_skip("tma_roundtrip", 9, "sm_90a: TMA");
  return sample::run_sample("tma_roundtrip", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = run(128, 192, rng, stream);
    ok &= run(64, 64, rng, stream);
    return ok;
  });
}
