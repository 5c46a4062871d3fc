// transpose driver: runs the tileslc-generated transpose (out = in^T, Float32;
// in (M, N) and out (N, M), both row-major compact, M and N multiples of 4,
// 64x64 tiles staged through padded shared memory) on several shapes, checks
// every element for exact equality and that a guard after out stays
// untouched, shows run-time argument validation, and compares its bandwidth
// with a device-to-device copy.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "transpose.h"

namespace {

using sample::Matrix2D;

const char* kName = "transpose";
constexpr int64_t kGuard = 64;      // poisoned floats after Out that must stay untouched
constexpr double kTolerance = 0.0;  // a transpose moves values: out must equal in exactly

bool run_case(int64_t M, int64_t N, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  auto In = sample::DeviceMatrix::random(Matrix2D::row_major(M, N), -1.0f, 1.0f, rng);
  auto Out = sample::DeviceMatrix::poisoned(Matrix2D::row_major(N, M), kGuard);
  const tileslc::TensorView mIn = In.view(), mOut = Out.view();
  CHECK_OK(transpose(mIn, mOut, stream));
  CHECK(cudaStreamSynchronize(stream));
  Out.download();

  sample::ErrorStats e;  // out[n * M + m] against in[m * N + n]
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) e.add(Out.at(n, m), In.at(m, n));
  }
  const std::string what = In.layout().shape() + " -> " + Out.layout().shape();
  bool ok = sample::report(kName, what, e, kTolerance);
  if (int64_t stray = Out.written_outside_view()) {
    std::printf("%s: %s FAIL: %lld elements written past the end of Out\n", kName, what.c_str(), (long long)stray);
    ok = false;
  }
  if (bandwidth) {  // reads In, writes Out: 8 bytes per element
    sample::bandwidth_table(kName, what, 2 * M * N * sizeof(float),
                            [&] { CHECK_OK(transpose(mIn, mOut, stream)); }, stream);
  }
  return ok;
}

// The host function must reject bad arguments before launching, naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 4, N = 8;
  tileslc::DeviceBuffer dIn, dOut;
  CHECK_OK(dIn.allocate(M * N * sizeof(float)));
  CHECK_OK(dOut.allocate(M * N * sizeof(float)));
  auto view = [](const tileslc::DeviceBuffer& d, int64_t rows, int64_t cols) {
    return tileslc::make_tensor_view(d.data(), tileslc::DType::Float32, {rows, cols}, {cols, 1});
  };
  bool ok = true;
  ok &= sample::expect_rejected(kName, "N = 6, not a multiple of 4",
                                transpose(view(dIn, M, 6), view(dOut, 6, M), stream), "mIn");
  ok &= sample::expect_rejected(kName, "Out (M, N) instead of (N, M)",
                                transpose(view(dIn, M, N), view(dOut, M, N), stream), "mOut");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 8192 x 8192 case and its bandwidth table");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(4, 4, false, rng, stream);
    ok &= run_case(64, 64, false, rng, stream);     // exactly one tile
    ok &= run_case(100, 36, false, rng, stream);    // partial tiles in both modes
    ok &= run_case(36, 260, false, rng, stream);
    ok &= run_case(1000, 1028, false, rng, stream);
    if (!small) ok &= run_case(8192, 8192, true, rng, stream);
    ok &= run_validation(stream);
    return ok;
  });
}
