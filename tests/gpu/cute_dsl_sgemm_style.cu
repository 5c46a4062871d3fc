// gpu.cute_dsl_sgemm_style: the sgemm-style Float32 GEMM of cute_dsl_sgemm_style.tpy (permutation
// layouts, a strided atom layout, views rebound in the k loop, a NamedBarrier) on 128x192x40 and
// 64x64x8 random inputs in [-1, 1], against a float64 reference (1e-5 * K). C starts poisoned, so
// an element no thread writes fails. The CPU emulator runs it too.
#include <cmath>
#include <cstdio>
#include <vector>

#include "cute_dsl_sgemm_style.h"
#include "sample_util.h"

int main() {
  return sample::run_sample("cute_dsl_sgemm_style", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const int64_t shapes[2][3] = {{128, 192, 40}, {64, 64, 8}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1], K = shape[2];
      std::vector<float> a(M * K), b(N * K), c(M * N);
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
      CHECK_OK(cute_dsl_sgemm_style(tileslc::make_tensor_view(da.data(), DType::Float32, {M, K}, {K, 1}),
                                    tileslc::make_tensor_view(db.data(), DType::Float32, {N, K}, {K, 1}),
                                    tileslc::make_tensor_view(dc.data(), DType::Float32, {M, N}, {N, 1}), stream));
      CHECK(cudaStreamSynchronize(stream));
      CHECK_OK(dc.copy_to_host(c.data(), c.size() * sizeof(float)));
      int64_t wrong = 0;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double ref = 0;
          for (int64_t k = 0; k < K; ++k) ref += double(a[m * K + k]) * double(b[n * K + k]);
          const float got = c[m * N + n];
          wrong += std::isnan(got) || std::fabs(got - ref) > 1e-5 * double(K);
        }
      std::printf("cute_dsl_sgemm_style: %lldx%lldx%lld: %lld of %lld wrong  %s\n", (long long)M, (long long)N, (long long)K,
                  (long long)wrong, (long long)(M * N), wrong == 0 ? "PASS" : "FAIL");
      ok &= wrong == 0;
    }
    return ok;
  });
}
