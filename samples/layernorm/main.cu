// layernorm driver: runs the tileslc-generated LayerNorm forward (Float32 and
// BFloat16, rows from 256 to 262144 columns: the warp-per-row, CTA-per-row
// and chunked plans) on several row counts against a float64 reference.
// Inputs are random and never zero (|x| in [0.25, 4) with random signs, plus
// a row offset by +100 that a one-pass sum of squares would lose precision on;
// w and b in [0.5, 1.5) with random signs), outputs poisoned with NaN before
// each run and guard elements after y that must stay untouched; the error is
// max |y - ref| over max |ref| of the whole run. Without --small it also times
// 16384x8192 and 512x262144 against a device-to-device copy of the same bytes.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "layernorm.h"
#include "layernorm_variants.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"

namespace {

const char* kName = "layernorm";
constexpr int64_t kGuard = 64;  // poisoned elements after y that must stay untouched
constexpr float kEps = 1e-5f;

using LayernormFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView,
                                        tileslc::TensorView, float, cudaStream_t);

bool run_case(LayernormFn layernorm, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  sample::RowTensor x(type, rows, cols), w(type, 1, cols), b(type, 1, cols), y(type, rows, cols, kGuard);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  if (rows > 1) {  // row 1: a large common offset (mean about 100, spread 4)
    for (int64_t c = 0; c < cols; ++c) x.set(cols + c, 100.0f + x.at(1, c));
    x.upload();
  }
  w.fill_nonzero(rng, 0.5f, 1.5f);
  b.fill_nonzero(rng, 0.5f, 1.5f);
  y.poison_all();
  auto call = [&] { CHECK_OK(layernorm(x.view(), w.vector_view(), b.vector_view(), y.view(), kEps, stream)); };
  call();
  CHECK(cudaStreamSynchronize(stream));
  auto ref = [&](int64_t r, double* out) { sample::layernorm_row_ref(x.row(r), w.row(0), b.row(0), cols, kEps, out); };
  bool ok = sample::check_rows(kName, type, y, ref);
  // The launch variants of these rows (layernorm_variants.h), each checked as the default; on the
  // small row counts only (tileslc_membound --variants times them).
  for (const sample::LayernormVariant& v : bandwidth ? std::vector<sample::LayernormVariant>{} : sample::layernorm_variants(type.bytes, cols)) {
    y.poison_all();
    CHECK_OK(v.fn(x.view(), w.vector_view(), b.vector_view(), y.view(), kEps, stream));
    CHECK(cudaStreamSynchronize(stream));
    ok &= sample::check_rows((std::string(kName) + " " + v.name).c_str(), type, y, ref);
  }
  if (bandwidth) sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type), 2 * x.bytes() + 2 * w.bytes(), call, stream);
  return ok;
}

// A host function must refuse a tensor whose column count or type is not its instance's.
bool run_validation(cudaStream_t stream) {
  sample::RowTensor x(sample::kRowFp32, 4, 1000), w(sample::kRowFp32, 1, 1000), wb(sample::kRowBf16, 1, 1000);
  bool ok = sample::expect_rejected(kName, "1000 columns to fp32_256",
                                    layernorm_fp32_256(x.view(), w.vector_view(), w.vector_view(), x.view(), kEps, stream), "mX");
  ok &= sample::expect_rejected(kName, "a bf16 bias to fp32_1000",
                                layernorm_fp32_1000(x.view(), w.vector_view(), wb.vector_view(), x.view(), kEps, stream), "mB");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

// The sample's instance for (type, cols), or nullptr where it has none.
LayernormFn instance(const sample::RowType& type, int64_t cols) {
  const bool fp32 = type.bytes == 4;
  if (fp32 && cols == 256) return layernorm_fp32_256;
  if (fp32 && cols == 1000) return layernorm_fp32_1000;
  if (fp32 && cols == 8192) return layernorm_fp32_8192;
  if (fp32 && cols == 20000) return layernorm_fp32_20000;
  if (fp32 && cols == 262144) return layernorm_fp32_262144;
  if (!fp32 && cols == 1000) return layernorm_bf16_1000;
  if (!fp32 && cols == 8192) return layernorm_bf16_8192;
  if (!fp32 && cols == 262144) return layernorm_bf16_262144;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  return sample::row_sample_main(kName, argc, argv, instance, run_case, run_validation);
}
