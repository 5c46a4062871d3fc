// gpu.cute_dsl_tile_remap: C = A + 2 B through cute_dsl_tile_remap.tpy (a list of tensors as one
// kernel argument, tiles remapped by a composition with run-time extents) on 48x96 and 16x224
// random inputs in [-1, 1], against float64 (1e-6: float32 rounding). The CPU emulator runs it too.
#include <string>

#include "../cute_dsl/compat_driver.h"
#include "cute_dsl_tile_remap.h"

int main() {
  return sample::run_sample("cute_dsl_tile_remap", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const int64_t shapes[2][2] = {{48, 96}, {16, 224}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1];
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng), b = compat::make(f32, {M, N}, {N, 1}, -1, 1, rng);
      auto c = compat::poisoned(f32, {M, N}, {N, 1});
      CHECK_OK(cute_dsl_tile_remap(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("cute_dsl_tile_remap", std::to_string(M) + "x" + std::to_string(N), c, M, N, 1e-6,
                             [&](int64_t m, int64_t n, int64_t) { return a({m, n}) + 2.0 * b({m, n}); });
    }
    return ok;
  });
}
