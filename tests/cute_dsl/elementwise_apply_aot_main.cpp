// Driver of tests/cute_dsl/elementwise_apply_aot.tpy: C = A * B + A on row-major Float32 (M, N),
// checked in float64.
#include "compat_driver.h"
#include "elementwise_apply_aot.h"

int main() {
  return sample::run_sample("elementwise_apply", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    for (auto [M, N] : {std::pair<int64_t, int64_t>{256, 512}, {100, 300}}) {
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng), b = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng);
      auto c = compat::make(f32, {M, N}, {N, 1}, 0, 0, rng);
      CHECK_OK(apply(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("elementwise_apply", std::to_string(M) + "x" + std::to_string(N), c, M, N, 1e-6,
                             [&](int64_t m, int64_t n, int64_t) { return a({m, n}) * b({m, n}) + a({m, n}); });
    }
    return ok;
  });
}
