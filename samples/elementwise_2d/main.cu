// elementwise_2d driver: runs the tileslc-generated elementwise_2d
// (out[m, n] = exp(float(x[m, n])) * float(y[m, n]); X, Y BFloat16, Out Float32,
// all (M, N) with arbitrary element strides) on several shapes and layouts
// (a transposed X, a transposed Y, a padded Out row stride) against a float64
// reference, shows run-time argument validation, and compares its bandwidth
// with a device-to-device copy.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "elementwise_2d.h"
#include "sample_util.h"

namespace {

const char* kName = "elementwise_2d";
constexpr double kTolerance = 1e-5;  // inputs are exact bf16 values; only exp and one multiply round

// An (M, N) view into a buffer: element (m, n) lives at m * s0 + n * s1.
struct Layout2D {
  int64_t M, N, s0, s1;
  int64_t span() const { return (M == 0 || N == 0) ? 0 : (M - 1) * s0 + (N - 1) * s1 + 1; }
  int64_t at(int64_t m, int64_t n) const { return m * s0 + n * s1; }
  std::string text() const {
    return "stride (" + std::to_string(s0) + ", " + std::to_string(s1) + ")";
  }
};
Layout2D row_major(int64_t M, int64_t N, int64_t ld) { return {M, N, ld, 1}; }
Layout2D col_major(int64_t M, int64_t N) { return {M, N, 1, M}; }

tileslc::TensorView view(void* data, tileslc::DType dtype, const Layout2D& l) {
  return tileslc::make_tensor_view(data, dtype, {l.M, l.N}, {l.s0, l.s1});
}

std::vector<uint16_t> random_bf16(int64_t count, float lo, float hi, sample::Rng& rng) {
  std::vector<float> f(count);
  rng.fill(f, lo, hi);
  std::vector<uint16_t> b(count);
  for (int64_t i = 0; i < count; ++i) b[i] = sample::float_to_bf16(f[i]);
  return b;
}

bool run_case(const Layout2D& lx, const Layout2D& ly, const Layout2D& lo, bool bandwidth, sample::Rng& rng,
              cudaStream_t stream) {
  const int64_t M = lo.M, N = lo.N;
  // Every storage element gets a value, even those outside a (padded) view.
  std::vector<uint16_t> x = random_bf16(lx.span(), -1.0f, 1.0f, rng);
  std::vector<uint16_t> y = random_bf16(ly.span(), 0.5f, 2.0f, rng);
  std::vector<float> out(lo.span());
  tileslc::DeviceBuffer dX, dY, dOut;
  CHECK_OK(dX.allocate(x.size() * sizeof(uint16_t)));
  CHECK_OK(dY.allocate(y.size() * sizeof(uint16_t)));
  CHECK_OK(dOut.allocate(out.size() * sizeof(float)));
  CHECK_OK(dX.copy_from_host(x.data(), dX.size()));
  CHECK_OK(dY.copy_from_host(y.data(), dY.size()));
  sample::poison(dOut.data(), dOut.size());

  auto mX = view(dX.data(), tileslc::DType::BFloat16, lx);
  auto mY = view(dY.data(), tileslc::DType::BFloat16, ly);
  auto mOut = view(dOut.data(), tileslc::DType::Float32, lo);
  CHECK_OK(elementwise_2d(mX, mY, mOut, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dOut.copy_to_host(out.data(), dOut.size()));

  sample::ErrorStats e;
  std::vector<char> in_view(out.size(), 0);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      const double xv = sample::bf16_to_float(x[lx.at(m, n)]);
      const double yv = sample::bf16_to_float(y[ly.at(m, n)]);
      e.add(out[lo.at(m, n)], std::exp(xv) * yv);
      in_view[lo.at(m, n)] = 1;
    }
  }
  const std::string what = std::to_string(M) + "x" + std::to_string(N) + " X " + lx.text() + " Y " + ly.text() +
                           " Out " + lo.text();
  bool ok = sample::report(kName, what, e, kTolerance);
  int64_t stray = 0;  // padding between Out's rows must stay poisoned
  for (size_t i = 0; i < out.size(); ++i) {
    if (!in_view[i]) stray += sample::count_unpoisoned(&out[i], 1);
  }
  if (stray) {
    std::printf("%s: %s FAIL: %lld padding elements of Out were written\n", kName, what.c_str(), (long long)stray);
    ok = false;
  }
  if (bandwidth) {  // reads 2 + 2 bytes, writes 4 bytes per element
    sample::bandwidth_table(kName, std::to_string(M) + "x" + std::to_string(N), M * N * (2 + 2 + 4),
                            [&] { CHECK_OK(elementwise_2d(mX, mY, mOut, stream)); }, stream);
  }
  return ok;
}

// The host function must reject bad arguments before launching, naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 4, N = 8;
  tileslc::DeviceBuffer dX, dY, dOut;
  CHECK_OK(dX.allocate(M * (N + 1) * sizeof(float)));
  CHECK_OK(dY.allocate(M * (N + 1) * sizeof(float)));
  CHECK_OK(dOut.allocate(M * (N + 1) * sizeof(float)));
  auto mX = tileslc::make_tensor_view(dX.data(), tileslc::DType::BFloat16, {M, N});
  auto mY = tileslc::make_tensor_view(dY.data(), tileslc::DType::BFloat16, {M, N});
  auto mOut = tileslc::make_tensor_view(dOut.data(), tileslc::DType::Float32, {M, N});
  bool ok = true;

  auto mX_float = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {M, N});
  ok &= sample::expect_rejected(kName, "wrong dtype", elementwise_2d(mX_float, mY, mOut, stream), "mX");

  auto mY_wide = tileslc::make_tensor_view(dY.data(), tileslc::DType::BFloat16, {M, N + 1});
  ok &= sample::expect_rejected(kName, "mismatched extents", elementwise_2d(mX, mY_wide, mOut, stream), "mY");

  auto mOut_1d = tileslc::make_tensor_view(dOut.data(), tileslc::DType::Float32, {M * N});
  ok &= sample::expect_rejected(kName, "wrong rank", elementwise_2d(mX, mY, mOut_1d, stream), "mOut");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 8192 x 8192 case and its bandwidth table");
  sample::require_device_or_skip(kName);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  sample::Rng rng;
  bool ok = true;
  ok &= run_case(row_major(1, 1, 1), row_major(1, 1, 1), row_major(1, 1, 1), false, rng, stream);
  // X is a transposed view (column-major) and Out has a padded row stride.
  ok &= run_case(col_major(37, 1000), row_major(37, 1000, 1000), row_major(37, 1000, 1024), false, rng, stream);
  // Y is a transposed view; Out's rows padded to 40 floats.
  ok &= run_case(row_major(1000, 37, 37), col_major(1000, 37), row_major(1000, 37, 40), false, rng, stream);
  // Bandwidth: contiguous, 8192 x 8192.
  const int64_t big = 8192;
  if (!small) ok &= run_case(row_major(big, big, big), row_major(big, big, big), row_major(big, big, big), true, rng, stream);
  ok &= run_validation(stream);
  CHECK(cudaStreamDestroy(stream));
  std::printf("%s: %s\n", kName, ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}
