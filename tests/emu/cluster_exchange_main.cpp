// Driver of cluster_exchange.tpy (test emu.cluster_exchange): clusters of 2, 4 and 16 blocks
// making 7 exchanges each (both buffers and barriers reused three times), every block's threads 0
// and 63 checked against the closed-form sums, exact; the output poisoned with NaN first.
// Prints "cluster_exchange: all checks passed".
#include <cmath>
#include <string>
#include <vector>

#include "cluster_exchange.h"
#include "sample_util.h"

int main() {
  return sample::run_sample("cluster_exchange", [](sample::Rng&, cudaStream_t stream) {
    constexpr int64_t kClusters = 3, kRounds = 7;
    using Fn = tileslc::Status (*)(tileslc::TensorView, int32_t, int32_t, cudaStream_t);
    const std::vector<std::pair<int64_t, Fn>> cases = {{2, exchange_c2}, {4, exchange_c4}, {16, exchange_c16}};
    bool ok = true;
    for (const auto& [ctas, fn] : cases) {
      const int64_t n = kClusters * ctas * kRounds * 2 * 2;
      std::vector<float> out(n, std::nanf(""));
      tileslc::DeviceBuffer dout;
      CHECK_OK(dout.allocate(n * sizeof(float)));
      CHECK_OK(dout.copy_from_host(out.data(), n * sizeof(float)));
      CHECK_OK(fn(tileslc::make_tensor_view(dout.data(), tileslc::DType::Float32, {n}, {1}), kClusters, kRounds, stream));
      CHECK(cudaStreamSynchronize(stream));
      CHECK_OK(dout.copy_to_host(out.data(), n * sizeof(float)));
      sample::ErrorStats e;
      for (int64_t block = 0; block < kClusters * ctas; ++block)
        for (int64_t i = 0; i < kRounds; ++i)
          for (int64_t t = 0; t < 2; ++t) {
            const int64_t base = ((block * kRounds + i) * 2 + t) * 2;
            e.add(out[base], static_cast<double>((i + 1) * ctas * (ctas + 1) / 2));
            e.add(out[base + 1], static_cast<double>(i * ctas * ctas - ctas * (ctas - 1) / 2));
          }
      ok &= sample::report("cluster_exchange", std::to_string(ctas) + " blocks x 7 exchanges", e, 0.0);
    }
    return ok;
  });
}
