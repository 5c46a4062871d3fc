// Driver of tests/cute_dsl/dense_gemm_aot.tpy: batched C = A * B^T, BFloat16 in and out, checked
// against a float64 GEMM of the rounded inputs.
#include <array>
#include <cmath>

#include "compat_driver.h"
#include "dense_gemm_aot.h"

int main() {
  return sample::run_sample("dense_gemm", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const std::array<std::array<int64_t, 4>, 2> shapes{{{128, 256, 64, 1}, {256, 512, 192, 2}}};
    for (auto [M, N, K, L] : shapes) {
      auto bf16 = tileslc::DType::BFloat16;
      auto a = compat::make(bf16, {M, K, L}, {K, 1, M * K}, -1, 1, rng);
      auto b = compat::make(bf16, {N, K, L}, {K, 1, N * K}, -1, 1, rng);
      auto c = compat::make(bf16, {M, N, L}, {N, 1, M * N}, 0, 0, rng);
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("dense_gemm", sample::gemm_shape_text(M, N, K) + " L=" + std::to_string(L), c, M, N,
                             1e-2 * std::sqrt(static_cast<double>(K)), [&](int64_t m, int64_t n, int64_t l) {
                               double s = 0;
                               for (int64_t k = 0; k < K; ++k) s += a({m, k, l}) * b({n, k, l});
                               return s;
                             }, L);
    }
    return ok;
  });
}
