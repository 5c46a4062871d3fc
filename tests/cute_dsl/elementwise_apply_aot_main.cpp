// Driver of tests/cute_dsl/elementwise_apply_aot.tpy: C = A * B + A on row-major Float32 (M, N),
// checked in float64.
#include "compat_driver.h"
#include "elementwise_apply_aot.h"

int main() {
  return sample::run_sample("elementwise_apply", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    // Whole (64, 256) tiles (the example does not predicate its stores), more tile rows than
    // tile columns and the reverse, so the (RestN, RestM) remapping of the grid is exercised.
    for (auto [M, N] : {std::pair<int64_t, int64_t>{256, 512}, {64, 1280}, {448, 256}}) {
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng), b = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng);
      auto c = compat::poisoned(f32, {M, N}, {N, 1});
      CHECK_OK(apply(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("elementwise_apply", std::to_string(M) + "x" + std::to_string(N), c, M, N, 1e-6,
                             [&](int64_t m, int64_t n, int64_t) { return a({m, n}) * b({m, n}) + a({m, n}); });
    }
    {  // A ragged shape is refused by the host function's divisibility check, not run out of bounds.
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {100, 300}, {300, 1}, -1, 1, rng), c = compat::poisoned(f32, {100, 300}, {300, 1});
      tileslc::Status s = apply(a.view(), a.view(), c.view(), stream);
      if (s.ok()) {
        std::printf("FAIL elementwise_apply: a 100x300 call was accepted\n");
        ok = false;
      } else {
        std::printf("elementwise_apply 100x300 refused: %s\n", s.message().c_str());
      }
    }
    return ok;
  });
}
