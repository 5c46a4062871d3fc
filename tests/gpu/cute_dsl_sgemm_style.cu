// gpu.cute_dsl_sgemm_style: the sgemm-style Float32 GEMM of cute_dsl_sgemm_style.tpy (permutation
// layouts, a strided atom layout, views rebound in the k loop, a NamedBarrier) on 128x192x40 and
// 64x64x8 random inputs in [-1, 1], against a float64 reference (1e-5 * K). The CPU emulator runs
// it too.
#include "../cute_dsl/compat_driver.h"
#include "cute_dsl_sgemm_style.h"

int main() {
  return sample::run_sample("cute_dsl_sgemm_style", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const int64_t shapes[2][3] = {{128, 192, 40}, {64, 64, 8}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1], K = shape[2];
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, K}, {K, 1}, -1, 1, rng), b = compat::make(f32, {N, K}, {K, 1}, -1, 1, rng);
      auto c = compat::poisoned(f32, {M, N}, {N, 1});
      CHECK_OK(cute_dsl_sgemm_style(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_gemm_nt("cute_dsl_sgemm_style", c, a, b, M, N, K);
    }
    return ok;
  });
}
