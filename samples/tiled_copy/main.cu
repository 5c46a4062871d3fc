// tiled_copy driver: runs the two tileslc-generated host functions of
// tiled_copy.tpy, C = A + B on Float32 (M, N) matrices in CuTe DSL's
// elementwise-add pattern (TV layouts, zipped_divide, identity-tensor
// predication): elementwise_add (row-major compact, N % 4 == 0, 128-bit vector
// copies) and elementwise_add_any (any M, N and strides, 32-bit copies). Each
// case is checked against a float64 reference, padding and a guard after C
// must stay untouched, argument validation is shown, and the large cases are
// timed against a device-to-device copy.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "tiled_copy.h"

namespace {

using sample::Matrix2D;

const char* kName = "tiled_copy";
constexpr int64_t kGuard = 64;      // poisoned floats after C's view that must stay untouched
constexpr double kTolerance = 1e-6;  // one float32 add: at most 2^-24 relative

// One of the two generated host functions, with its name for the output.
struct AddFunction {
  const char* name;
  tileslc::Status (*fn)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, cudaStream_t);
};
const AddFunction kVectorized{"elementwise_add", elementwise_add};
const AddFunction kAny{"elementwise_add_any", elementwise_add_any};

// " B stride (1, 5)" for a view that is not compact row-major, else "".
std::string layout_note(const char* tensor, const Matrix2D& l) {
  return l.compact_row_major() ? "" : std::string(" ") + tensor + " " + l.strides();
}

bool run_case(const AddFunction& f, const Matrix2D& la, const Matrix2D& lb, const Matrix2D& lc, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = lc.M, N = lc.N;
  auto A = sample::DeviceMatrix::random(la, 0.5f, 2.0f, rng);
  auto B = sample::DeviceMatrix::random(lb, -2.0f, -0.5f, rng);  // never zero; A + B spans both signs
  auto C = sample::DeviceMatrix::poisoned(lc, kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  CHECK_OK(f.fn(mA, mB, mC, stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();

  sample::ErrorStats e;
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) e.add(C.at(m, n), static_cast<double>(A.at(m, n)) + B.at(m, n));
  }
  const std::string what = std::string(f.name) + " " + lc.shape() + layout_note("A", la) + layout_note("B", lb) +
                           layout_note("C", lc);
  bool ok = sample::report(kName, what, e, kTolerance);
  if (int64_t stray = C.written_outside_view()) {
    std::printf("%s: %s FAIL: %lld elements outside C's view (padding, guard) were written\n", kName, what.c_str(),
                (long long)stray);
    ok = false;
  }
  if (bandwidth) {  // reads A and B, writes C: 12 bytes per element
    sample::bandwidth_table(kName, std::string(f.name) + " " + lc.shape(), 3 * M * N * sizeof(float),
                            [&] { CHECK_OK(f.fn(mA, mB, mC, stream)); }, stream);
  }
  return ok;
}

// Runs `f` with A, B and C all compact row-major (M, N).
bool run_compact(const AddFunction& f, int64_t M, int64_t N, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  const Matrix2D l = Matrix2D::row_major(M, N);
  return run_case(f, l, l, l, bandwidth, rng, stream);
}

// elementwise_add must reject what its vectorized copies cannot serve before
// launching, with a message naming the parameter.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 4, N = 8;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate((M * N + 4) * sizeof(float)));
  CHECK_OK(dB.allocate((M * N + 4) * sizeof(float)));
  CHECK_OK(dC.allocate((M * N + 4) * sizeof(float)));
  auto view = [](const tileslc::DeviceBuffer& d, tileslc::DType dtype, int64_t rows, int64_t cols) {
    return tileslc::make_tensor_view(d.data(), dtype, {rows, cols}, {cols, 1});
  };
  const auto f32 = tileslc::DType::Float32;
  auto mA = view(dA, f32, M, N), mB = view(dB, f32, M, N), mC = view(dC, f32, M, N);
  bool ok = true;

  ok &= sample::expect_rejected(kName, "N = 6, not a multiple of 4",
                                elementwise_add(view(dA, f32, M, 6), view(dB, f32, M, 6), view(dC, f32, M, 6), stream),
                                "mA");
  ok &= sample::expect_rejected(kName, "wrong dtype",
                                elementwise_add(mA, view(dB, tileslc::DType::Float16, M, N), mC, stream), "mB");
  auto mA_col = tileslc::make_tensor_view(dA.data(), f32, {M, N}, {1, M});
  ok &= sample::expect_rejected(kName, "column-major A", elementwise_add(mA_col, mB, mC, stream), "mA");
  auto mC_odd = tileslc::make_tensor_view(static_cast<float*>(dC.data()) + 1, f32, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", elementwise_add(mA, mB, mC_odd, stream), "mC");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the 8192 x 8192 cases and their bandwidth tables");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    // Vectorized: compact row-major, N a multiple of 4; M ragged against the tile.
    ok &= run_compact(kVectorized, 1, 4, false, rng, stream);
    ok &= run_compact(kVectorized, 37, 1000, false, rng, stream);
    ok &= run_compact(kVectorized, 1000, 36, false, rng, stream);
    ok &= run_compact(kVectorized, 129, 260, false, rng, stream);
    if (!small) ok &= run_compact(kVectorized, 8192, 8192, true, rng, stream);
    // Any shape and strides.
    ok &= run_compact(kAny, 1, 1, false, rng, stream);
    // C's rows padded to 1024 floats; A's rows padded to 1001.
    ok &= run_case(kAny, Matrix2D::row_major(37, 999, 1001), Matrix2D::row_major(37, 999),
                   Matrix2D::row_major(37, 999, 1024), false, rng, stream);
    // A and C rows padded to 40 floats.
    ok &= run_case(kAny, Matrix2D::row_major(1001, 37, 40), Matrix2D::row_major(1001, 37),
                   Matrix2D::row_major(1001, 37, 40), false, rng, stream);
    // B is a transposed (column-major) view.
    ok &= run_case(kAny, Matrix2D::row_major(5, 7), Matrix2D::col_major(5, 7), Matrix2D::row_major(5, 7), false,
                   rng, stream);
    if (!small) ok &= run_compact(kAny, 8192, 8191, true, rng, stream);
    ok &= run_validation(stream);
    return ok;
  });
}
