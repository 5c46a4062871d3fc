// gpu.cute_dsl_tile_remap: C = A + 2 B through cute_dsl_tile_remap.tpy (a list of tensors as one
// kernel argument, tiles remapped by a composition with run-time extents) on 48x96 and 16x224
// random inputs in [-1, 1]: every element within 1e-6 of the float64 value (float32 rounding). C starts poisoned,
// so an element no block writes fails. The CPU emulator runs it too.
#include <cmath>
#include <cstdio>
#include <vector>

#include "cute_dsl_tile_remap.h"
#include "sample_util.h"

int main() {
  return sample::run_sample("cute_dsl_tile_remap", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const int64_t shapes[2][2] = {{48, 96}, {16, 224}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1];
      std::vector<float> a(M * N), b(M * N), c(M * N);
      for (auto& x : a) x = rng.uniform(-1.0f, 1.0f);
      for (auto& x : b) x = rng.uniform(-1.0f, 1.0f);
      tileslc::DeviceBuffer da, db, dc;
      CHECK_OK(da.allocate(a.size() * sizeof(float)));
      CHECK_OK(db.allocate(b.size() * sizeof(float)));
      CHECK_OK(dc.allocate(c.size() * sizeof(float)));
      CHECK_OK(da.copy_from_host(a.data(), a.size() * sizeof(float)));
      CHECK_OK(db.copy_from_host(b.data(), b.size() * sizeof(float)));
      sample::poison(dc.data(), c.size() * sizeof(float));
      using tileslc::DType;
      CHECK_OK(cute_dsl_tile_remap(tileslc::make_tensor_view(da.data(), DType::Float32, {M, N}, {N, 1}),
                                   tileslc::make_tensor_view(db.data(), DType::Float32, {M, N}, {N, 1}),
                                   tileslc::make_tensor_view(dc.data(), DType::Float32, {M, N}, {N, 1}), stream));
      CHECK(cudaStreamSynchronize(stream));
      CHECK_OK(dc.copy_to_host(c.data(), c.size() * sizeof(float)));
      int64_t wrong = 0;
      for (size_t i = 0; i < c.size(); ++i) wrong += !(std::fabs(double(c[i]) - (double(a[i]) + 2.0 * double(b[i]))) <= 1e-6);
      std::printf("cute_dsl_tile_remap: %lldx%lld: %lld of %lld wrong  %s\n", (long long)M, (long long)N, (long long)wrong,
                  (long long)(M * N), wrong == 0 ? "PASS" : "FAIL");
      ok &= wrong == 0;
    }
    return ok;
  });
}
