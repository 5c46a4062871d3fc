// histogram driver: runs the tileslc-generated histogram (256 bins of Uint8
// data, shared-memory atomics per block, then global atomics) on several
// sizes and distributions against a host count (exact), shows run-time
// argument validation, and compares its bandwidth with a device-to-device
// copy of the input.
//
// Usage: histogram [--small]
//   --small  skip the 2^28-byte case and its bandwidth table (for
//            compute-sanitizer runs); the other cases and validation run.
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// (built, not run).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "histogram.h"
#include "sample_util.h"

namespace {

const char* kName = "histogram";
constexpr int64_t kBins = 256;

// `skew` piles a fraction of the data into one bin, the contended case for atomics.
bool run_case(int64_t n, float skew, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  std::vector<uint8_t> data(n);
  for (auto& b : data) {
    b = rng.uniform(0.0f, 1.0f) < skew ? uint8_t{7} : static_cast<uint8_t>(rng.uniform(0.0f, 256.0f));
  }
  std::vector<uint32_t> want(kBins, 0), got(kBins, 0);
  for (uint8_t b : data) ++want[b];

  tileslc::DeviceBuffer dData, dHist;
  CHECK_OK(dData.allocate(std::max<int64_t>(n, 1)));
  CHECK_OK(dHist.allocate(kBins * sizeof(uint32_t)));
  if (n > 0) CHECK_OK(dData.copy_from_host(data.data(), n));
  sample::poison(dHist.data(), dHist.size());  // the host function must zero it itself
  auto mData = tileslc::make_tensor_view(dData.data(), tileslc::DType::Uint8, {n});
  auto mHist = tileslc::make_tensor_view(dHist.data(), tileslc::DType::Uint32, {kBins});
  CHECK_OK(histogram(mData, mHist, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dHist.copy_to_host(got.data(), dHist.size()));

  int64_t wrong = 0, total = 0;
  for (int64_t b = 0; b < kBins; ++b) {
    wrong += got[b] != want[b];
    total += got[b];
  }
  char what[96];
  std::snprintf(what, sizeof what, "N=%lld skew %.2f", (long long)n, skew);
  bool ok = wrong == 0 && total == n;
  std::printf("%s: %-40s %s  %lld of %lld bins wrong, %lld counted\n", kName, what, ok ? "PASS" : "FAIL",
              (long long)wrong, (long long)kBins, (long long)total);
  if (bandwidth) {  // reads one byte per element; the histogram itself is negligible
    sample::bandwidth_table(kName, what, n, [&] { CHECK_OK(histogram(mData, mHist, stream)); }, stream);
  }
  return ok;
}

bool run_validation(cudaStream_t stream) {
  tileslc::DeviceBuffer dData, dHist;
  CHECK_OK(dData.allocate(1024));
  CHECK_OK(dHist.allocate(kBins * sizeof(uint32_t)));
  auto mData = tileslc::make_tensor_view(dData.data(), tileslc::DType::Uint8, {1024});
  bool ok = true;
  ok &= sample::expect_rejected(kName, "128 bins instead of 256",
                                histogram(mData, tileslc::make_tensor_view(dHist.data(), tileslc::DType::Uint32, {128}), stream),
                                "mHist");
  ok &= sample::expect_rejected(kName, "Int32 data",
                                histogram(tileslc::make_tensor_view(dData.data(), tileslc::DType::Int32, {256}),
                                          tileslc::make_tensor_view(dHist.data(), tileslc::DType::Uint32, {kBins}), stream),
                                "mData");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 2^28-byte case and its bandwidth table");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(0, 0.0f, false, rng, stream);  // empty input: all bins zero
    ok &= run_case(1, 0.0f, false, rng, stream);
    ok &= run_case(4097, 0.0f, false, rng, stream);
    ok &= run_case(1000003, 0.9f, false, rng, stream);  // 90% of the data in one bin
    if (!small) ok &= run_case(int64_t{1} << 28, 0.0f, true, rng, stream);
    ok &= run_validation(stream);
    return ok;
  });
}
