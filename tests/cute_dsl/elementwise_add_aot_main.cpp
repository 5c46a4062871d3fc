// Driver of tests/cute_dsl/elementwise_add_aot.tpy: C = A + B on row-major Float32 (M, N), checked
// in float64, for a tile-multiple and a ragged shape.
#include "compat_driver.h"
#include "elementwise_add_aot.h"

int main() {
  return sample::run_sample("elementwise_add", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    for (auto [M, N] : {std::pair<int64_t, int64_t>{256, 512}, {100, 300}}) {
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng), b = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng);
      auto c = compat::poisoned(f32, {M, N}, {N, 1});
      CHECK_OK(add(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("elementwise_add", std::to_string(M) + "x" + std::to_string(N), c, M, N, 1e-6,
                             [&](int64_t m, int64_t n, int64_t) { return a({m, n}) + b({m, n}); });
    }
    return ok;
  });
}
