// vector_add driver: runs the tileslc-generated vector_add (C = A + B, Float32,
// 1-D) on several sizes against a float64 reference, shows run-time argument
// validation, and compares its bandwidth with a device-to-device copy.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cstdio>
#include <string>
#include <vector>

#include "sample_util.h"
#include "vector_add.h"

namespace {

const char* kName = "vector_add";
constexpr int64_t kGuard = 64;  // poisoned floats after C that must stay untouched
constexpr double kTolerance = 1e-5;

bool run_size(int64_t n, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  std::vector<float> a(n), b(n), c(n + kGuard);
  rng.fill(a, 0.5f, 2.0f);
  rng.fill(b, -2.0f, -0.5f);  // never zero; A + B spans both signs
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(n * sizeof(float)));
  CHECK_OK(dB.allocate(n * sizeof(float)));
  CHECK_OK(dC.allocate((n + kGuard) * sizeof(float)));
  CHECK_OK(dA.copy_from_host(a.data(), n * sizeof(float)));
  CHECK_OK(dB.copy_from_host(b.data(), n * sizeof(float)));
  sample::poison(dC.data(), dC.size());

  auto mA = tileslc::make_tensor_view(dA.data(), tileslc::DType::Float32, {n});
  auto mB = tileslc::make_tensor_view(dB.data(), tileslc::DType::Float32, {n});
  auto mC = tileslc::make_tensor_view(dC.data(), tileslc::DType::Float32, {n});
  CHECK_OK(vector_add(mA, mB, mC, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dC.copy_to_host(c.data(), dC.size()));

  sample::ErrorStats e;
  for (int64_t i = 0; i < n; ++i) e.add(c[i], static_cast<double>(a[i]) + static_cast<double>(b[i]));
  bool ok = sample::report(kName, "N = " + std::to_string(n), e, kTolerance);
  if (int64_t stray = sample::count_unpoisoned(c.data() + n, kGuard)) {
    std::printf("%s: N = %lld FAIL: %lld elements written past the end of C\n", kName, (long long)n,
                (long long)stray);
    ok = false;
  }
  if (bandwidth) {
    sample::bandwidth_table(kName, "N = " + std::to_string(n), 3 * n * sizeof(float),
                            [&] { CHECK_OK(vector_add(mA, mB, mC, stream)); }, stream);
  }
  return ok;
}

// The host function must reject bad arguments before launching, naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t n = 1000;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate((n + 1) * sizeof(float)));
  CHECK_OK(dB.allocate((n + 1) * sizeof(float)));
  CHECK_OK(dC.allocate((n + 1) * sizeof(float)));
  auto mA = tileslc::make_tensor_view(dA.data(), tileslc::DType::Float32, {n});
  auto mC = tileslc::make_tensor_view(dC.data(), tileslc::DType::Float32, {n});
  bool ok = true;

  auto mB_half = tileslc::make_tensor_view(dB.data(), tileslc::DType::Float16, {n});
  ok &= sample::expect_rejected(kName, "wrong dtype (C++ API)", vector_add(mA, mB_half, mC, stream), "mB");

  // Through the C ABI twin: returns 1 and leaves the message in tileslc_last_error().
  auto mB_long = tileslc::make_tensor_view(dB.data(), tileslc::DType::Float32, {n + 1});
  tileslc_tensor_view cA = sample::to_c_view(mA), cB = sample::to_c_view(mB_long), cC = sample::to_c_view(mC);
  const int rc = tileslc_vector_add(&cA, &cB, &cC, stream);
  tileslc::Status s = sample::c_abi_status(rc);
  ok &= sample::expect_rejected(kName, "mismatched extents (C ABI)", s, "mB");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 2^28-element case and its bandwidth table");
  sample::require_device_or_skip(kName);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  sample::Rng rng;
  bool ok = true;
  ok &= run_size(1, false, rng, stream);
  ok &= run_size(1000, false, rng, stream);
  ok &= run_size(257 * 1024 + 3, false, rng, stream);
  if (!small) ok &= run_size(int64_t(1) << 28, true, rng, stream);
  ok &= run_validation(stream);
  CHECK(cudaStreamDestroy(stream));
  std::printf("%s: %s\n", kName, ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}
