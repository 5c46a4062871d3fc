// Driver of tma_multicast.tpy (test emu.tma_multicast): A is 64 x 256 BFloat16 of small integers
// (exact); each of the 2 CTAs of the cluster must hold the whole multicast tile, half of it
// loaded by its peer: out[64 cta + r] = sum_c (c + 1) * A[r, 64 + c], exact (tolerance 0).
// Prints "tma_multicast: all checks passed".
#include <string>
#include <vector>

#include "sample_util.h"
#include "tma_multicast.h"

int main() {
  return sample::run_sample("tma_multicast", [](sample::Rng&, cudaStream_t) {
    constexpr int64_t kM = 64, kK = 256, kCtas = 2;
    std::vector<uint16_t> a(kM * kK);
    std::vector<double> want(kCtas * kM, 0.0);
    for (int64_t r = 0; r < kM; ++r)
      for (int64_t k = 0; k < kK; ++k) {
        const float v = static_cast<float>((r * 5 + k * 3) % 17) - 8.0f;
        a[r * kK + k] = sample::float_to_bf16(v);  // exact: small integers
        if (k >= 64 && k < 128)
          for (int64_t cta = 0; cta < kCtas; ++cta) want[cta * kM + r] += static_cast<double>(v) * static_cast<double>(k - 64 + 1);
      }
    tileslc::DeviceBuffer da, dout;
    CHECK_OK(da.allocate(a.size() * 2));
    CHECK_OK(da.copy_from_host(a.data(), a.size() * 2));
    CHECK_OK(dout.allocate(kCtas * kM * sizeof(float)));
    CHECK_OK(load(tileslc::make_tensor_view(da.data(), tileslc::DType::BFloat16, {kM, kK}, {kK, 1}),
                  tileslc::make_tensor_view(dout.data(), tileslc::DType::Float32, {kCtas * kM}, {1})));
    std::vector<float> out(kCtas * kM);
    CHECK_OK(dout.copy_to_host(out.data(), out.size() * sizeof(float)));
    sample::ErrorStats e;
    for (int64_t i = 0; i < kCtas * kM; ++i) e.add(out[i], want[i]);
    return sample::report("tma_multicast", "2 CTAs x 64 rows of the shared tile", e, 0.0);
  });
}
