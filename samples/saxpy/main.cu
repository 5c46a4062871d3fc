// saxpy driver: runs the tileslc-generated saxpy (Y = alpha * X + Y in place,
// Float32, 1-D) on several sizes against a float64 reference, shows run-time
// argument validation, and compares its bandwidth with a device-to-device copy.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cstdio>
#include <string>
#include <vector>

#include "sample_util.h"
#include "saxpy.h"

namespace {

const char* kName = "saxpy";
constexpr int64_t kGuard = 64;  // poisoned floats after Y that must stay untouched
constexpr double kTolerance = 1e-5;
constexpr float kAlpha = 1.5f;

bool run_size(int64_t n, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  std::vector<float> x(n), y0(n), y(n + kGuard);
  rng.fill(x, 0.5f, 2.0f);
  rng.fill(y0, -4.0f, -0.5f);  // alpha * X + Y spans both signs and is never Y itself
  tileslc::DeviceBuffer dX, dY;
  CHECK_OK(dX.allocate(n * sizeof(float)));
  CHECK_OK(dY.allocate((n + kGuard) * sizeof(float)));
  CHECK_OK(dX.copy_from_host(x.data(), n * sizeof(float)));
  sample::poison(dY.data(), dY.size());  // Y is read, so only the guard stays poisoned
  CHECK_OK(dY.copy_from_host(y0.data(), n * sizeof(float)));

  auto mX = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {n});
  auto mY = tileslc::make_tensor_view(dY.data(), tileslc::DType::Float32, {n});
  CHECK_OK(saxpy(kAlpha, mX, mY, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dY.copy_to_host(y.data(), dY.size()));

  sample::ErrorStats e;
  for (int64_t i = 0; i < n; ++i) {
    e.add(y[i], static_cast<double>(kAlpha) * static_cast<double>(x[i]) + static_cast<double>(y0[i]));
  }
  bool ok = sample::report(kName, "N = " + std::to_string(n), e, kTolerance);
  if (int64_t stray = sample::count_unpoisoned(y.data() + n, kGuard)) {
    std::printf("%s: N = %lld FAIL: %lld elements written past the end of Y\n", kName, (long long)n,
                (long long)stray);
    ok = false;
  }
  if (bandwidth) {  // reads X and Y, writes Y; Y keeps growing by alpha * X, harmlessly
    sample::bandwidth_table(kName, "N = " + std::to_string(n), 3 * n * sizeof(float),
                            [&] { CHECK_OK(saxpy(kAlpha, mX, mY, stream)); }, stream);
  }
  return ok;
}

// The host function must reject bad arguments before launching, naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t n = 1000;
  tileslc::DeviceBuffer dX, dY;
  CHECK_OK(dX.allocate((n + 1) * sizeof(double)));
  CHECK_OK(dY.allocate((n + 1) * sizeof(double)));
  auto mX = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {n});
  auto mY = tileslc::make_tensor_view(dY.data(), tileslc::DType::Float32, {n});
  bool ok = true;

  auto mX_double = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float64, {n});
  ok &= sample::expect_rejected(kName, "wrong dtype (C++ API)", saxpy(kAlpha, mX_double, mY, stream), "mX");

  auto mY_long = tileslc::make_tensor_view(dY.data(), tileslc::DType::Float32, {n + 1});
  ok &= sample::expect_rejected(kName, "mismatched extents (C++ API)", saxpy(kAlpha, mX, mY_long, stream), "mY");

  tileslc_tensor_view cX = sample::to_c_view(mX), cY = sample::to_c_view(mY_long);
  const int rc = tileslc_saxpy(kAlpha, &cX, &cY, stream);
  tileslc::Status s = sample::c_abi_status(rc);
  ok &= sample::expect_rejected(kName, "mismatched extents (C ABI)", s, "mY");
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
