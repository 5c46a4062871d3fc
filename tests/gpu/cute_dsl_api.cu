// gpu.cute_dsl_api: CuTe DSL's autovec_copy, where, domain_offset and cutlass.range with unroll
// hints (cute_dsl_api.tpy) on 64 rows of 32 random Float32 in [-1, 1]: b must be a where a > 0
// and a / 2 elsewhere, exactly; s the per-thread sums of 8 and of the 4 even columns against a
// float64 reference (1e-5). Outputs start poisoned. The CPU emulator runs it too.
#include <cmath>
#include <cstdio>
#include <vector>

#include "cute_dsl_api.h"
#include "sample_util.h"

int main() {
  return sample::run_sample("cute_dsl_api", [](sample::Rng& rng, cudaStream_t stream) {
    const int64_t rows = 64;
    std::vector<float> a(rows * 32), b(rows * 32), s(rows * 8);
    for (auto& x : a) x = rng.uniform(-1.0f, 1.0f);
    tileslc::DeviceBuffer da, db, ds;
    CHECK_OK(da.allocate(a.size() * sizeof(float)));
    CHECK_OK(db.allocate(b.size() * sizeof(float)));
    CHECK_OK(ds.allocate(s.size() * sizeof(float)));
    CHECK_OK(da.copy_from_host(a.data(), a.size() * sizeof(float)));
    sample::poison(db.data(), b.size() * sizeof(float));
    sample::poison(ds.data(), s.size() * sizeof(float));
    using tileslc::DType;
    CHECK_OK(cute_dsl_api(tileslc::make_tensor_view(da.data(), DType::Float32, {rows, 32}, {32, 1}),
                          tileslc::make_tensor_view(db.data(), DType::Float32, {rows, 32}, {32, 1}),
                          tileslc::make_tensor_view(ds.data(), DType::Float32, {rows, 8}, {8, 1}), stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK_OK(db.copy_to_host(b.data(), b.size() * sizeof(float)));
    CHECK_OK(ds.copy_to_host(s.data(), s.size() * sizeof(float)));
    int64_t wrong_b = 0, wrong_s = 0;
    for (size_t i = 0; i < a.size(); ++i) wrong_b += b[i] != (a[i] > 0.0f ? a[i] : a[i] * 0.5f);
    for (int64_t r = 0; r < rows; ++r)
      for (int t = 0; t < 4; ++t) {
        double total = 0, even = 0;
        for (int j = 0; j < 8; ++j) {
          total += a[r * 32 + t * 8 + j];
          if (j % 2 == 0) even += a[r * 32 + t * 8 + j];
        }
        wrong_s += std::fabs(s[r * 8 + t] - total) > 1e-5 || std::isnan(s[r * 8 + t]);
        wrong_s += std::fabs(s[r * 8 + 4 + t] - even) > 1e-5 || std::isnan(s[r * 8 + 4 + t]);
      }
    const bool ok = wrong_b == 0 && wrong_s == 0;
    std::printf("cute_dsl_api: autovec_copy + where on %lld elements: %lld wrong; cutlass.range sums over domain_offset views: "
                "%lld wrong  %s\n",
                (long long)a.size(), (long long)wrong_b, (long long)wrong_s, ok ? "PASS" : "FAIL");
    return ok;
  });
}
