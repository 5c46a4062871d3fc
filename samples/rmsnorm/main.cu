// rmsnorm driver: runs the tileslc-generated RMSNorm forward (Float32 and
// BFloat16, rows from 256 to 262144 columns: the warp-per-row, CTA-per-row
// and chunked plans) on several row counts against a float64 reference.
// Inputs are random and never zero (|x| in [0.25, 4), random signs; w in
// [0.5, 1.5) with random signs), outputs poisoned with NaN before each run and
// guard elements after y that must stay untouched; the error is max |y - ref|
// over max |ref| of the whole run. Without --small it also times 16384x8192
// and 512x262144 against a device-to-device copy moving the same bytes.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rmsnorm.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"

namespace {

const char* kName = "rmsnorm";
constexpr int64_t kGuard = 64;  // poisoned elements after y that must stay untouched
constexpr float kEps = 1e-5f;

using RmsnormFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, float, cudaStream_t);

bool run_case(RmsnormFn rmsnorm, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  sample::RowTensor x(type, rows, cols), w(type, 1, cols), y(type, rows, cols, kGuard);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  w.fill_nonzero(rng, 0.5f, 1.5f);
  y.poison_all();
  CHECK_OK(rmsnorm(x.view(), w.vector_view(), y.view(), kEps, stream));
  CHECK(cudaStreamSynchronize(stream));
  bool ok = sample::check_rows(kName, type, y,
                               [&](int64_t r, double* out) { sample::rmsnorm_row_ref(x.row(r), w.row(0), cols, kEps, out); });
  if (bandwidth) {
    sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type), 2 * x.bytes() + w.bytes(),
                            [&] { CHECK_OK(rmsnorm(x.view(), w.vector_view(), y.view(), kEps, stream)); }, stream);
  }
  return ok;
}

// A host function must refuse a tensor whose column count or type is not its instance's.
bool run_validation(cudaStream_t stream) {
  sample::RowTensor x(sample::kRowFp32, 4, 1000), w(sample::kRowFp32, 1, 1000), wb(sample::kRowBf16, 1, 1000);
  bool ok = sample::expect_rejected(kName, "1000 columns to fp32_256",
                                    rmsnorm_fp32_256(x.view(), w.vector_view(), x.view(), kEps, stream), "mX");
  ok &= sample::expect_rejected(kName, "a bf16 weight to fp32_1000",
                                rmsnorm_fp32_1000(x.view(), wb.vector_view(), x.view(), kEps, stream), "mW");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

// The sample's instance for (type, cols), or nullptr where it has none.
RmsnormFn instance(const sample::RowType& type, int64_t cols) {
  const bool fp32 = type.bytes == 4;
  if (fp32 && cols == 256) return rmsnorm_fp32_256;
  if (fp32 && cols == 1000) return rmsnorm_fp32_1000;
  if (fp32 && cols == 8192) return rmsnorm_fp32_8192;
  if (fp32 && cols == 20000) return rmsnorm_fp32_20000;
  if (fp32 && cols == 262144) return rmsnorm_fp32_262144;
  if (!fp32 && cols == 1000) return rmsnorm_bf16_1000;
  if (!fp32 && cols == 8192) return rmsnorm_bf16_8192;
  if (!fp32 && cols == 262144) return rmsnorm_bf16_262144;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  return sample::row_sample_main(kName, argc, argv, instance, run_case, run_validation);
}
