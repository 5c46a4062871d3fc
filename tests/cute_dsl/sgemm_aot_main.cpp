// Driver of tests/cute_dsl/sgemm_aot.tpy: C = A * B^T in Float32, checked against a float64 GEMM.
#include "compat_driver.h"
#include "sgemm_aot.h"

int main() {
  return sample::run_sample("sgemm", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{128, 128, 8}, {256, 384, 64}}) {
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, K}, {K, 1}, -1, 1, rng), b = compat::make(f32, {N, K}, {K, 1}, -1, 1, rng);
      auto c = compat::make(f32, {M, N}, {N, 1}, 0, 0, rng);
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("sgemm", sample::gemm_shape_text(M, N, K), c, M, N, 1e-5 * K, [&](int64_t m, int64_t n, int64_t) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += a({m, k}) * b({n, k});
        return s;
      });
    }
    return ok;
  });
}
