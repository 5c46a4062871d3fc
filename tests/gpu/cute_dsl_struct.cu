// gpu.cute_dsl_struct: CuTe DSL's @cute.struct in shared memory and Numeric.to (cute_dsl_struct.tpy)
// on 4 tiles of 32x32 random Float32 in [-1, 1]: y[32b + r, c] must be x[32b + c, r] + c exactly
// (the tile written and read back through the struct's swizzled view, the offsets converted from
// Int32). The output starts poisoned. The CPU emulator runs it too.
#include <cmath>
#include <cstdio>
#include <vector>

#include "cute_dsl_struct.h"
#include "sample_util.h"

int main() {
  return sample::run_sample("cute_dsl_struct", [](sample::Rng& rng, cudaStream_t stream) {
    const int64_t rows = 128;
    std::vector<float> x(rows * 32), y(rows * 32);
    for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
    tileslc::DeviceBuffer dx, dy;
    CHECK_OK(dx.allocate(x.size() * sizeof(float)));
    CHECK_OK(dy.allocate(y.size() * sizeof(float)));
    CHECK_OK(dx.copy_from_host(x.data(), x.size() * sizeof(float)));
    sample::poison(dy.data(), y.size() * sizeof(float));
    using tileslc::DType;
    CHECK_OK(cute_dsl_struct(tileslc::make_tensor_view(dx.data(), DType::Float32, {rows, 32}, {32, 1}),
                             tileslc::make_tensor_view(dy.data(), DType::Float32, {rows, 32}, {32, 1}), stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK_OK(dy.copy_to_host(y.data(), y.size() * sizeof(float)));
    int64_t wrong = 0;
    for (int64_t b = 0; b < rows / 32; ++b)
      for (int64_t r = 0; r < 32; ++r)
        for (int64_t c = 0; c < 32; ++c) wrong += y[(b * 32 + r) * 32 + c] != x[(b * 32 + c) * 32 + r] + static_cast<float>(c);
    const bool ok = wrong == 0;
    std::printf("cute_dsl_struct: %lld elements through a @cute.struct's swizzled tile: %lld wrong  %s\n", (long long)y.size(),
                (long long)wrong, ok ? "PASS" : "FAIL");
    return ok;
  });
}
