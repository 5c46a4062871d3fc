// Driver of pipeline_classes.tpy (test emu.pipeline_classes): A is 64 x 256 BFloat16 of small
// integers (exact), four k-tiles through a 2-stage ring; out[r] = sum_k A[r, 64 k], compared
// exactly. Prints "pipeline classes: all checks passed".
#include <cstdio>
#include <cstring>
#include <vector>

#include "pipeline_classes.h"
#include "sample_util.h"

int main() {
  constexpr int64_t kM = 64, kK = 256;
  std::vector<uint16_t> a(kM * kK);
  std::vector<double> want(kM, 0.0);
  for (int64_t r = 0; r < kM; ++r)
    for (int64_t k = 0; k < kK; ++k) {
      const float v = static_cast<float>((r * 5 + k * 3) % 17) - 8.0f;
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      a[r * kK + k] = static_cast<uint16_t>(bits >> 16);  // exact: small integers
      if (k % 64 == 0) want[r] += v;
    }
  tileslc::DeviceBuffer da, dout;
  CHECK_OK(da.allocate(a.size() * 2));
  CHECK_OK(da.copy_from_host(a.data(), a.size() * 2));
  CHECK_OK(dout.allocate(kM * sizeof(float)));
  CHECK_OK(ring(tileslc::make_tensor_view(da.data(), tileslc::DType::BFloat16, {kM, kK}, {kK, 1}),
                tileslc::make_tensor_view(dout.data(), tileslc::DType::Float32, {kM}, {1})));
  std::vector<float> out(kM);
  CHECK_OK(dout.copy_to_host(out.data(), out.size() * sizeof(float)));
  int wrong = 0;
  for (int64_t r = 0; r < kM; ++r)
    if (out[r] != want[r] && ++wrong <= 5) std::printf("  out[%lld] = %g, expected %g\n", static_cast<long long>(r), out[r], want[r]);
  if (wrong) {
    std::printf("pipeline classes: %d wrong rows\n", wrong);
    return 1;
  }
  std::printf("pipeline classes: all checks passed\n");
  return 0;
}
