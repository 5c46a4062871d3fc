// softmax driver: runs the tileslc-generated row softmax (Float32, 4096 and
// 8192 columns) on several row counts against a float64 reference, with
// inputs spread over [-8, 8) plus rows that stress the maximum (a row of equal
// values, a row with one large outlier), and compares its bandwidth with a
// device-to-device copy moving the same bytes (read x, write y).
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sample_util.h"
#include "softmax.h"

namespace {

const char* kName = "softmax";
constexpr int64_t kGuard = 64;     // poisoned floats after Y that must stay untouched
constexpr double kTolerance = 1e-5;  // relative to the largest probability of the run

using SoftmaxFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, cudaStream_t);

bool run_rows(SoftmaxFn softmax, int64_t rows, int64_t cols, bool bandwidth, sample::Rng& rng,
              cudaStream_t stream) {
  const int64_t n = rows * cols;
  std::vector<float> x(n), y(n + kGuard);
  rng.fill(x, -8.0f, 8.0f);
  for (int64_t c = 0; c < cols; ++c) x[c] = 3.25f;  // row 0: all equal, each 1 / cols
  if (rows > 1) x[cols + cols / 3] = 80.0f;         // row 1: one outlier takes almost all
  tileslc::DeviceBuffer dX, dY;
  CHECK_OK(dX.allocate(n * sizeof(float)));
  CHECK_OK(dY.allocate((n + kGuard) * sizeof(float)));
  CHECK_OK(dX.copy_from_host(x.data(), n * sizeof(float)));
  sample::poison(dY.data(), dY.size());

  auto mX = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {rows, cols});
  auto mY = tileslc::make_tensor_view(dY.data(), tileslc::DType::Float32, {rows, cols});
  CHECK_OK(softmax(mX, mY, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dY.copy_to_host(y.data(), dY.size()));

  // Row by row (each relative to its own largest probability, so the outlier row's
  // near-1 value does not loosen the check of the others); the worst row is reported.
  sample::ErrorStats e;
  int64_t unwritten = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x.data() + r * cols;
    double mx = xr[0];
    for (int64_t c = 1; c < cols; ++c) mx = std::max(mx, static_cast<double>(xr[c]));
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(static_cast<double>(xr[c]) - mx);
    sample::ErrorStats row;
    for (int64_t c = 0; c < cols; ++c) row.add(y[r * cols + c], std::exp(static_cast<double>(xr[c]) - mx) / sum);
    unwritten += row.unwritten;
    if (r == 0 || row.relative_error() > e.relative_error()) e = row;
  }
  e.unwritten = unwritten;
  const std::string what = std::to_string(rows) + "x" + std::to_string(cols);
  bool ok = sample::report(kName, what, e, kTolerance);
  if (int64_t stray = sample::count_unpoisoned(y.data() + n, kGuard)) {
    std::printf("%s: %s FAIL: %lld elements written past the end of Y\n", kName, what.c_str(), (long long)stray);
    ok = false;
  }
  if (bandwidth) {
    sample::bandwidth_table(kName, what, 2 * n * sizeof(float), [&] { CHECK_OK(softmax(mX, mY, stream)); }, stream);
  }
  return ok;
}

// The host function must refuse a tensor whose column count is not its instance's.
bool run_validation(cudaStream_t stream) {
  tileslc::DeviceBuffer dX;
  CHECK_OK(dX.allocate(8 * 8192 * sizeof(float)));
  auto wrong = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {8, 8192});
  bool ok = sample::expect_rejected(kName, "8192 columns to softmax_4096", softmax_4096(wrong, wrong, stream), "mX");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 16384-row cases and their bandwidth tables");
  sample::require_device_or_skip(kName);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  sample::Rng rng;
  bool ok = true;
  ok &= run_rows(softmax_4096, 1, 4096, false, rng, stream);
  ok &= run_rows(softmax_4096, 37, 4096, false, rng, stream);
  ok &= run_rows(softmax_8192, 5, 8192, false, rng, stream);
  if (!small) {
    ok &= run_rows(softmax_4096, 16384, 4096, true, rng, stream);
    ok &= run_rows(softmax_8192, 16384, 8192, true, rng, stream);
  }
  ok &= run_validation(stream);
  CHECK(cudaStreamDestroy(stream));
  std::printf("%s: %s\n", kName, ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}
