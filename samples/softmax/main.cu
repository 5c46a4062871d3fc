// softmax driver: runs the tileslc-generated row softmax, forward and backward
// (Float32 and BFloat16, rows from 1000 to 262144 columns: the warp-per-row,
// CTA-per-row and chunked plans) on several row counts against a float64
// reference (the backward from the forward's output y and a random dy), with
// inputs spread over [-8, 8) (never zero: |x| >= 0.25) plus rows that stress
// the maximum (a row of equal values, a row with one large outlier), outputs
// poisoned with NaN and guard elements after y that must stay untouched.
// Without --small it also times 16384x4096, 16384x8192 and 512x262144 against a
// device-to-device copy moving the same bytes (read x, write y).
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"
#include "softmax.h"
#include "softmax_variants.h"

namespace {

const char* kName = "softmax";
constexpr int64_t kGuard = 64;  // poisoned elements after y that must stay untouched

using SoftmaxFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, cudaStream_t);
using SoftmaxBwdFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, cudaStream_t);

// One (type, COLS) instance: the forward and the backward (nullptr where the sample has none).
struct Instance {
  SoftmaxFn forward = nullptr;
  SoftmaxBwdFn backward = nullptr;
  explicit operator bool() const { return forward != nullptr; }
};

// The backward from the forward's output y: dx = y * (dy - sum(dy * y)) against float64, each row
// relative to max |y| * max |dy| of the row at least (the row with one outlier has y near 1 there
// and dy - sum(dy * y) cancels to near 0; the Float32 sum is rounded at the scale of dy).
bool run_backward(SoftmaxBwdFn softmax_bwd, const sample::RowType& type, const sample::RowTensor& y, bool bandwidth,
                  sample::Rng& rng, cudaStream_t stream) {
  const int64_t rows = y.rows(), cols = y.cols();
  sample::RowTensor dy(type, rows, cols), dx(type, rows, cols, kGuard);
  dy.fill_nonzero(rng, 0.25f, 2.0f);
  dx.poison_all();
  auto call = [&] { CHECK_OK(softmax_bwd(y.view(), dy.view(), dx.view(), stream)); };
  call();
  CHECK(cudaStreamSynchronize(stream));
  auto row_max = [&](const sample::RowTensor& t, int64_t r) {
    double m = 0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, std::fabs(static_cast<double>(t.at(r, c))));
    return m;
  };
  bool ok = sample::check_rows_scaled(
      "softmax backward", type, dx, [&](int64_t r, double* out) { sample::softmax_bwd_row_ref(y.row(r), dy.row(r), cols, out); },
      [&](int64_t r) { return row_max(y, r) * row_max(dy, r); });
  if (bandwidth) {
    sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type) + " backward", 3 * y.bytes(), call, stream);
  }
  // The backward's launch variants (softmax_variants.h), checked as the default on small row counts.
  for (const sample::SoftmaxBwdVariant& v : bandwidth ? std::vector<sample::SoftmaxBwdVariant>{} : sample::softmax_bwd_variants(type.bytes, cols)) {
    dx.poison_all();
    CHECK_OK(v.fn(y.view(), dy.view(), dx.view(), stream));
    CHECK(cudaStreamSynchronize(stream));
    ok &= sample::check_rows_scaled(
        (std::string("softmax backward ") + v.name).c_str(), type, dx,
        [&](int64_t r, double* out) { sample::softmax_bwd_row_ref(y.row(r), dy.row(r), cols, out); },
        [&](int64_t r) { return row_max(y, r) * row_max(dy, r); });
  }
  return ok;
}

bool run_case(const Instance& f, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  const SoftmaxFn softmax = f.forward;
  sample::RowTensor x(type, rows, cols), y(type, rows, cols, kGuard);
  x.fill_nonzero(rng, 0.25f, 8.0f);
  for (int64_t c = 0; c < cols; ++c) x.set(c, 3.25f);  // row 0: all equal, each 1 / cols
  if (rows > 1) x.set(cols + cols / 3, 80.0f);         // row 1: one outlier takes almost all
  x.upload();
  y.poison_all();
  auto call = [&] { CHECK_OK(softmax(x.view(), y.view(), stream)); };
  call();
  CHECK(cudaStreamSynchronize(stream));
  // The error is relative to the largest probability of the whole run (the outlier's near 1 in
  // row 1, else about exp(16) / cols of a row), as the probabilities are what matter at their scale.
  auto ref = [&](int64_t r, double* out) { sample::softmax_row_ref(x.row(r), cols, out); };
  bool ok = sample::check_rows(kName, type, y, ref);
  if (bandwidth) sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type), 2 * x.bytes(), call, stream);
  // The launch variants of these rows (softmax_variants.h), each checked as the default; on the
  // small row counts only (tileslc_membound --variants times them).
  for (const sample::SoftmaxVariant& v : bandwidth ? std::vector<sample::SoftmaxVariant>{} : sample::softmax_variants(type.bytes, cols)) {
    y.poison_all();
    CHECK_OK(v.fn(x.view(), y.view(), stream));
    CHECK(cudaStreamSynchronize(stream));
    ok &= sample::check_rows((std::string(kName) + " " + v.name).c_str(), type, y, ref);
  }
  if (f.backward) ok &= run_backward(f.backward, type, y, bandwidth, rng, stream);
  return ok;
}

// The host function must refuse a tensor whose column count is not its instance's.
bool run_validation(cudaStream_t stream) {
  sample::RowTensor x(sample::kRowFp32, 8, 8192);
  bool ok = sample::expect_rejected(kName, "8192 columns to softmax_4096", softmax_4096(x.view(), x.view(), stream), "mX");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

// The sample's instances for (type, cols); forward nullptr where it has none.
Instance instance(const sample::RowType& type, int64_t cols) {
  const bool fp32 = type.bytes == 4;
  if (fp32 && cols == 1000) return {softmax_fp32_1000, softmax_bwd_fp32_1000};
  if (fp32 && cols == 3000) return {softmax_fp32_3000, softmax_bwd_fp32_3000};
  if (fp32 && cols == 4096) return {softmax_4096, softmax_bwd_fp32_4096};
  if (fp32 && cols == 8192) return {softmax_8192, softmax_bwd_fp32_8192};
  if (fp32 && cols == 20000) return {softmax_fp32_20000, softmax_bwd_fp32_20000};
  if (fp32 && cols == 262144) return {softmax_fp32_262144, softmax_bwd_fp32_262144};
  if (!fp32 && cols == 8192) return {softmax_bf16_8192, softmax_bwd_bf16_8192};
  if (!fp32 && cols == 16384) return {softmax_bf16_16384, nullptr};
  if (!fp32 && cols == 262144) return {softmax_bf16_262144, softmax_bwd_bf16_262144};
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  return sample::row_sample_main(kName, argc, argv, instance, run_case, run_validation);
}
