// softmax driver: runs the tileslc-generated row softmax (Float32 and
// BFloat16, rows from 1000 to 262144 columns: the warp-per-row, CTA-per-row
// and chunked plans) on several row counts against a float64 reference, with
// inputs spread over [-8, 8) (never zero: |x| >= 0.25) plus rows that stress
// the maximum (a row of equal values, a row with one large outlier), outputs
// poisoned with NaN and guard elements after y that must stay untouched.
// Without --small it also times 16384x8192 and 512x262144 against a
// device-to-device copy moving the same bytes (read x, write y).
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"
#include "softmax.h"

namespace {

const char* kName = "softmax";
constexpr int64_t kGuard = 64;  // poisoned elements after y that must stay untouched

using SoftmaxFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, cudaStream_t);

bool run_case(SoftmaxFn softmax, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
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
  bool ok = sample::check_rows(kName, type, y, [&](int64_t r, double* out) { sample::softmax_row_ref(x.row(r), cols, out); });
  if (bandwidth) sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type), 2 * x.bytes(), call, stream);
  return ok;
}

// The host function must refuse a tensor whose column count is not its instance's.
bool run_validation(cudaStream_t stream) {
  sample::RowTensor x(sample::kRowFp32, 8, 8192);
  bool ok = sample::expect_rejected(kName, "8192 columns to softmax_4096", softmax_4096(x.view(), x.view(), stream), "mX");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

// The sample's instance for (type, cols), or nullptr where it has none.
SoftmaxFn instance(const sample::RowType& type, int64_t cols) {
  const bool fp32 = type.bytes == 4;
  if (fp32 && cols == 1000) return softmax_fp32_1000;
  if (fp32 && cols == 4096) return softmax_4096;
  if (fp32 && cols == 8192) return softmax_8192;
  if (fp32 && cols == 20000) return softmax_fp32_20000;
  if (fp32 && cols == 262144) return softmax_fp32_262144;
  if (!fp32 && cols == 8192) return softmax_bf16_8192;
  if (!fp32 && cols == 262144) return softmax_bf16_262144;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  return sample::row_sample_main(kName, argc, argv, instance, run_case, run_validation);
}
