// Driver of tests/cute_dsl/tensorop_gemm_aot.tpy: batched C = A * B^T, Float16 in and out, checked
// against a float64 GEMM of the rounded inputs. The tolerance, 1e-3 of the largest |C|, is twice
// Float16's rounding of C (2^-11 relative) with room for the Float32 accumulation. The shapes
// cover whole tiles and ragged M, N and K (K runs its partial k-tile first, as the example does).
#include <array>

#include "compat_driver.h"
#include "tensorop_gemm_aot.h"

int main() {
  return sample::run_sample("tensorop_gemm", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    // (A braced list of std::tuple does not deduce: "too many initializers"; sgemm's driver had it too.)
    const std::array<std::array<int64_t, 4>, 4> shapes{{{128, 128, 32, 1}, {256, 256, 128, 2}, {200, 136, 72, 1}, {72, 40, 8, 3}}};
    for (auto [M, N, K, L] : shapes) {
      auto f16 = tileslc::DType::Float16;
      auto a = compat::make(f16, {M, K, L}, {K, 1, M * K}, -1, 1, rng);
      auto b = compat::make(f16, {N, K, L}, {K, 1, N * K}, -1, 1, rng);
      auto c = compat::make(f16, {M, N, L}, {N, 1, M * N}, 0, 0, rng);
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("tensorop_gemm", sample::gemm_shape_text(M, N, K) + " L=" + std::to_string(L), c, M, N,
                             1e-3, [&](int64_t m, int64_t n, int64_t l) {
                               double s = 0;
                               for (int64_t k = 0; k < K; ++k) s += a({m, k, l}) * b({n, k, l});
                               return s;
                             }, L);
    }
    return ok;
  });
}
