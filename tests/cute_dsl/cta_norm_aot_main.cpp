// Driver of tests/cute_dsl/cta_norm_aot.tpy: y = (x - mean) / sqrt(var + eps) * w + b per row,
// Float16 in and out, checked against float64.
#include <cmath>

#include "compat_driver.h"
#include "cta_norm_aot.h"

int main() {
  return sample::run_sample("cta_norm", [](sample::Rng& rng, cudaStream_t stream) {
    const int64_t N = 4096;
    const double eps = 1e-6;
    bool ok = true;
    for (int64_t M : {1, 37}) {
      auto f16 = tileslc::DType::Float16;
      auto x = compat::make(f16, {M, N}, {N, 1}, -2, 2, rng), y = compat::poisoned(f16, {M, N}, {N, 1});
      auto w = compat::make(f16, {N}, {1}, 0.5f, 1.5f, rng), b = compat::make(f16, {N}, {1}, -0.5f, 0.5f, rng);
      CHECK_OK(layer_norm(y.view(), x.view(), w.view(), b.view(), static_cast<float>(eps), stream));
      CHECK(cudaStreamSynchronize(stream));
      std::vector<double> mean(M), rstd(M);
      for (int64_t m = 0; m < M; ++m) {
        double s = 0, s2 = 0;
        for (int64_t n = 0; n < N; ++n) s += x({m, n});
        mean[m] = s / N;
        for (int64_t n = 0; n < N; ++n) s2 += (x({m, n}) - mean[m]) * (x({m, n}) - mean[m]);
        rstd[m] = 1.0 / std::sqrt(s2 / N + eps);
      }
      ok &= compat::check_2d("cta_norm", std::to_string(M) + "x4096", y, M, N, 1e-2, [&](int64_t m, int64_t n, int64_t) {
        return (x({m, n}) - mean[m]) * rstd[m] * w({n}) + b({n});
      });
    }
    return ok;
  });
}
