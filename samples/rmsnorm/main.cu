// rmsnorm driver: runs the tileslc-generated RMSNorm forward and backward (dx
// and dw; Float32 and BFloat16, rows from 256 to 262144 columns: the
// warp-per-row, CTA-per-row and chunked plans) on several row counts against
// a float64 reference.
// Inputs are random and never zero (|x| in [0.25, 4), random signs; w in
// [0.5, 1.5) with random signs), outputs poisoned with NaN before each run and
// guard elements after y that must stay untouched; the error is max |y - ref|
// over max |ref| of the whole run. Without --small it also times 16384x8192
// and 512x262144 against a device-to-device copy moving the same bytes.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rmsnorm.h"
#include "rmsnorm_variants.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"

namespace {

const char* kName = "rmsnorm";
constexpr int64_t kGuard = 64;  // poisoned elements after y that must stay untouched
constexpr float kEps = 1e-5f;

using View = tileslc::TensorView;
using RmsnormFn = tileslc::Status (*)(View, View, View, float, cudaStream_t);
using RmsnormBwdFn = tileslc::Status (*)(View x, View w, View dy, View dx, View dw_partial, View dw, float, cudaStream_t);

// One (type, COLS) instance: the forward and the backward (nullptr where the sample has none).
struct Instance {
  RmsnormFn forward = nullptr;
  RmsnormBwdFn backward = nullptr;
  explicit operator bool() const { return forward != nullptr; }
};

// Row slots of the backward (rows of its dw partials): a third of the rows for the small cases
// (so that slots take 1 to 3 rows, the first stored, the next added), else up to 1024 (about the
// rows an H100 or H200 runs at once; 100x256: 100 slots, so that the column sum's 32 groups of
// slots take 3 or 4 each).
int64_t backward_slots(int64_t rows) { return rows <= 64 ? (rows + 2) / 3 : std::min<int64_t>(rows, 1024); }

// The backward on the forward's x and w with a random dy: dx row by row, and dw (summed over the
// rows in Float32 through the partials) against float64 relative to max |dw|.
bool run_backward(RmsnormBwdFn rmsnorm_bwd, const sample::RowType& type, const sample::RowTensor& x,
                  const sample::RowTensor& w, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  const int64_t rows = x.rows(), cols = x.cols(), slots = backward_slots(rows);
  sample::RowTensor dy(type, rows, cols), dx(type, rows, cols, kGuard), dw(type, 1, cols, kGuard);
  sample::RowTensor partial(sample::kRowFp32, slots, cols);
  dy.fill_nonzero(rng, 0.25f, 2.0f);
  std::vector<double> dw_ref(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) sample::rmsnorm_dw_accumulate(x.row(r), dy.row(r), cols, kEps, dw_ref.data());
  // One backward (the default or a variant) on poisoned outputs, dx and dw checked.
  auto run_and_check = [&](RmsnormBwdFn fn, const std::string& what) {
    dx.poison_all();
    dw.poison_all();
    partial.poison_all();
    CHECK_OK(fn(x.view(), w.vector_view(), dy.view(), dx.view(), partial.view(), dw.vector_view(), kEps, stream));
    CHECK(cudaStreamSynchronize(stream));
    bool ok = sample::check_rows(what.c_str(), type, dx, [&](int64_t r, double* out) {
      sample::rmsnorm_bwd_row_ref(x.row(r), w.row(0), dy.row(r), cols, kEps, out);
    });
    return ok & sample::check_rows((what + " dw").c_str(), type, dw, [&](int64_t, double* out) {
      std::copy(dw_ref.begin(), dw_ref.end(), out);
    });
  };
  bool ok = run_and_check(rmsnorm_bwd, "rmsnorm backward");
  if (!bandwidth) {  // more slots than rows: the slots past the last row add 0 (not the poison)
    sample::RowTensor over(sample::kRowFp32, rows + 2, cols);
    over.poison_all();
    dx.poison_all();
    dw.poison_all();
    CHECK_OK(rmsnorm_bwd(x.view(), w.vector_view(), dy.view(), dx.view(), over.view(), dw.vector_view(), kEps, stream));
    CHECK(cudaStreamSynchronize(stream));
    ok &= sample::check_rows("rmsnorm backward S > rows dw", type, dw, [&](int64_t, double* out) {
      std::copy(dw_ref.begin(), dw_ref.end(), out);
    });
  }
  // The backward's launch variants (rmsnorm_variants.h), checked as the default on small row counts.
  for (const sample::RmsnormBwdVariant& v : bandwidth ? std::vector<sample::RmsnormBwdVariant>{} : sample::rmsnorm_bwd_variants(type.bytes, cols))
    ok &= run_and_check(v.fn, std::string("rmsnorm backward ") + v.name);
  auto call = [&] {
    CHECK_OK(rmsnorm_bwd(x.view(), w.vector_view(), dy.view(), dx.view(), partial.view(), dw.vector_view(), kEps, stream));
  };
  if (bandwidth) {
    sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type) + " backward",
                            3 * x.bytes() + 2 * w.bytes() + 2 * partial.bytes(), call, stream);
  }
  return ok;
}

bool run_case(const Instance& f, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  const RmsnormFn rmsnorm = f.forward;
  sample::RowTensor x(type, rows, cols), w(type, 1, cols), y(type, rows, cols, kGuard);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  w.fill_nonzero(rng, 0.5f, 1.5f);
  y.poison_all();
  CHECK_OK(rmsnorm(x.view(), w.vector_view(), y.view(), kEps, stream));
  CHECK(cudaStreamSynchronize(stream));
  auto ref = [&](int64_t r, double* out) { sample::rmsnorm_row_ref(x.row(r), w.row(0), cols, kEps, out); };
  bool ok = sample::check_rows(kName, type, y, ref);
  // The launch variants of these rows (rmsnorm_variants.h), each checked as the default; on the
  // small row counts only (tileslc_membound --variants times them).
  for (const sample::RmsnormVariant& v : bandwidth ? std::vector<sample::RmsnormVariant>{} : sample::rmsnorm_variants(type.bytes, cols)) {
    y.poison_all();
    CHECK_OK(v.fn(x.view(), w.vector_view(), y.view(), kEps, stream));
    CHECK(cudaStreamSynchronize(stream));
    ok &= sample::check_rows((std::string(kName) + " " + v.name).c_str(), type, y, ref);
  }
  if (bandwidth) {
    sample::bandwidth_table(kName, sample::row_case_name(rows, cols, type), 2 * x.bytes() + w.bytes(),
                            [&] { CHECK_OK(rmsnorm(x.view(), w.vector_view(), y.view(), kEps, stream)); }, stream);
  }
  if (f.backward) ok &= run_backward(f.backward, type, x, w, bandwidth, rng, stream);
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

// The sample's instances for (type, cols); forward nullptr where it has none.
Instance instance(const sample::RowType& type, int64_t cols) {
#define TILESLC_RMS(t, n) \
  if (cols == n) return {rmsnorm_##t##_##n, rmsnorm_bwd_##t##_##n};
  if (type.bytes == 4) {
    TILESLC_RMS(fp32, 256) TILESLC_RMS(fp32, 1000) TILESLC_RMS(fp32, 3000) TILESLC_RMS(fp32, 8192)
    TILESLC_RMS(fp32, 16384) TILESLC_RMS(fp32, 20000) TILESLC_RMS(fp32, 262144)
  } else {
    TILESLC_RMS(bf16, 1000) TILESLC_RMS(bf16, 8192) TILESLC_RMS(bf16, 16384) TILESLC_RMS(bf16, 262144)
  }
#undef TILESLC_RMS
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  return sample::row_sample_main(kName, argc, argv, instance, run_case, run_validation);
}
