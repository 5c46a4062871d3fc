// cross_entropy driver: runs the tileslc-generated cross-entropy forward (loss
// and logsumexp per row) and backward (the gradient of the logits) in Float32
// and BFloat16, rows from 256 to 262144 columns (every plan of
// tileslc.utils.row_tiling, with and without guarded vectors), against a
// float64 reference. Logits have |x| in [0.25, 8) with random signs plus rows
// that stress the reduction: row 0 all equal (loss = log(COLS)), row 1 with
// ignore_index (loss 0, zero gradient), row 2 with one large logit at its target
// (loss near 0), row 3 with a target past the row (a NaN loss). Outputs are
// poisoned with NaN, with guard elements after each that must stay untouched.
// Without --small it also times 16384x8192, 8192x131072 and 512x262144 against
// a device-to-device copy moving the same bytes.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cross_entropy.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"

namespace {

const char* kName = "cross_entropy";
constexpr int64_t kGuard = 64;  // poisoned elements after each output that must stay untouched
constexpr int32_t kIgnoreIndex = -100;  // PyTorch's default
// The loss and logsumexp are Float32 sums over the row whatever the logits' type: the error
// relative to the run's largest loss grows like sqrt(COLS) * 2^-24 (a few 1e-7 at 262144).
constexpr double kLossTolerance = 2e-5;

using View = tileslc::TensorView;
using ForwardFn = tileslc::Status (*)(View, View, View, View, int32_t, cudaStream_t);
using BackwardFn = tileslc::Status (*)(View, View, View, View, View, int32_t, cudaStream_t);

// One (type, COLS) instance: its forward and backward host functions.
struct Instance {
  ForwardFn forward;
  BackwardFn backward;
};

// Int32 targets of the rows, on the device and on the host.
struct Targets {
  std::vector<int32_t> host;
  tileslc::DeviceBuffer device;
  Targets(sample::Rng& rng, int64_t rows, int64_t cols) : host(rows) {
    for (int64_t r = 0; r < rows; ++r) host[r] = static_cast<int32_t>(rng.uniform(0.0f, 1.0f) * cols) % cols;
    if (rows > 1) host[1] = kIgnoreIndex;
    if (rows > 3) host[3] = static_cast<int32_t>(cols);  // past the row: a NaN loss
    CHECK_OK(device.allocate(rows * sizeof(int32_t)));
    CHECK_OK(device.copy_from_host(host.data(), rows * sizeof(int32_t)));
  }
  View view() const { return tileslc::make_tensor_view(device.data(), tileslc::DType::Int32, {int64_t(host.size())}); }
};

// Whether `t` is a target the loss is defined for.
bool in_row(int32_t t, int64_t cols) { return t >= 0 && t < cols; }

// Checks the loss and logsumexp of every row (NaN where the target lies past the row, 0 where it
// is ignore_index) against float64, relative to the largest reference value of the run.
bool check_forward(const sample::RowType& type, const sample::RowTensor& x, const Targets& t,
                   sample::RowTensor& loss, sample::RowTensor& lse) {
  loss.download();
  lse.download();
  sample::ErrorStats e_loss, e_lse;
  int64_t wrong_nan = 0;
  for (int64_t r = 0; r < x.rows(); ++r) {
    const double ref_lse = sample::logsumexp_row_ref(x.row(r), x.cols());
    e_lse.add(lse.at(0, r), ref_lse);
    const int32_t target = t.host[r];
    if (target == kIgnoreIndex) {
      e_loss.add(loss.at(0, r), 0.0);
    } else if (!in_row(target, x.cols())) {
      wrong_nan += std::isnan(loss.at(0, r)) ? 0 : 1;
    } else {
      e_loss.add(loss.at(0, r), ref_lse - x.at(r, target));
    }
  }
  const std::string what = sample::row_case_name(x.rows(), x.cols(), type);
  bool ok = sample::report(kName, what + " loss", e_loss, kLossTolerance);
  ok &= sample::report(kName, what + " logsumexp", e_lse, kLossTolerance);
  if (wrong_nan) {
    std::printf("%s: %s FAIL: %lld losses of a target past the row are not NaN\n", kName, what.c_str(),
                (long long)wrong_nan);
    ok = false;
  }
  for (sample::RowTensor* out : {&loss, &lse}) {
    if (int64_t stray = out->written_past_end()) {
      std::printf("%s: %s FAIL: %lld bytes written past the end of loss or lse\n", kName, what.c_str(), (long long)stray);
      ok = false;
    }
  }
  return ok;
}

bool run_case(const Instance& f, const sample::RowType& type, int64_t rows, int64_t cols, bool bandwidth,
              sample::Rng& rng, cudaStream_t stream) {
  sample::RowTensor x(type, rows, cols), dx(type, rows, cols, kGuard);
  sample::RowTensor loss(sample::kRowFp32, 1, rows, kGuard), lse(sample::kRowFp32, 1, rows, kGuard);
  sample::RowTensor dloss(sample::kRowFp32, 1, rows);
  Targets t(rng, rows, cols);
  x.fill_nonzero(rng, 0.25f, 8.0f);
  for (int64_t c = 0; c < cols; ++c) x.set(c, 3.25f);  // row 0: all equal, loss log(cols)
  if (rows > 2) x.set(2 * cols + t.host[2], 80.0f);   // row 2: the target takes almost all the mass
  x.upload();
  dloss.fill_nonzero(rng, 0.5f, 2.0f);
  loss.poison_all();
  lse.poison_all();
  dx.poison_all();
  auto forward = [&] { CHECK_OK(f.forward(x.view(), t.view(), loss.vector_view(), lse.vector_view(), kIgnoreIndex, stream)); };
  auto backward = [&] {
    CHECK_OK(f.backward(x.view(), t.view(), dloss.vector_view(), lse.vector_view(), dx.view(), kIgnoreIndex, stream));
  };
  forward();
  CHECK(cudaStreamSynchronize(stream));
  bool ok = check_forward(type, x, t, loss, lse);
  backward();
  CHECK(cudaStreamSynchronize(stream));
  // The gradient's error is relative to the row's dloss at least: softmax - 1 at a target holding
  // almost all the mass (row 2) cancels to far below Float32's rounding of 1 (2^-24 * dloss), in
  // PyTorch as here. Ignored rows must be exactly 0.
  auto ignored = [&](int64_t r) { return t.host[r] == kIgnoreIndex; };
  ok &= sample::check_rows_scaled(
      kName, type, dx,
      [&](int64_t r, double* out) {
        sample::cross_entropy_grad_row_ref(x.row(r), cols, ignored(r) ? -1 : t.host[r], ignored(r) ? 0.0 : dloss.at(0, r),
                                           out);
      },
      [&](int64_t r) { return ignored(r) ? 0.0 : std::fabs(dloss.at(0, r)); });
  if (bandwidth) {
    const std::string what = sample::row_case_name(rows, cols, type);
    // Bytes read + written: the forward reads x (and 4-byte target, loss, lse per row); the
    // backward reads x and writes dx (and reads target, dloss, lse per row).
    sample::bandwidth_table(kName, what + " forward", x.bytes() + 12 * rows, forward, stream);
    sample::bandwidth_table(kName, what + " backward", 2 * x.bytes() + 12 * rows, backward, stream);
  }
  return ok;
}

// A host function must refuse a tensor whose column count or type is not its instance's.
bool run_validation(cudaStream_t stream) {
  sample::RowTensor x(sample::kRowFp32, 4, 1000), v(sample::kRowFp32, 1, 4);
  sample::Rng rng(7);
  Targets t(rng, 4, 1000);
  bool ok = sample::expect_rejected(kName, "1000 columns to fwd_fp32_256",
                                    cross_entropy_fwd_fp32_256(x.view(), t.view(), v.vector_view(), v.vector_view(),
                                                               kIgnoreIndex, stream),
                                    "mX");
  ok &= sample::expect_rejected(kName, "Float32 targets to fwd_fp32_1000",
                                cross_entropy_fwd_fp32_1000(x.view(), v.vector_view(), v.vector_view(), v.vector_view(),
                                                            kIgnoreIndex, stream),
                                "mTarget");
  CHECK(cudaStreamSynchronize(stream));
  return ok;
}

// The sample's instances for (type, cols); forward nullptr where it has none.
Instance instance(const sample::RowType& type, int64_t cols) {
  const bool fp32 = type.bytes == 4;
#define TILESLC_CE(t, n) \
  if (cols == n) return {cross_entropy_fwd_##t##_##n, cross_entropy_bwd_##t##_##n};
  if (fp32) {
    TILESLC_CE(fp32, 256) TILESLC_CE(fp32, 1000) TILESLC_CE(fp32, 3000) TILESLC_CE(fp32, 8192)
    TILESLC_CE(fp32, 20000) TILESLC_CE(fp32, 262144)
  } else {
    TILESLC_CE(bf16, 1000) TILESLC_CE(bf16, 3000) TILESLC_CE(bf16, 8192) TILESLC_CE(bf16, 131072)
    TILESLC_CE(bf16, 262144)
  }
#undef TILESLC_CE
  return {nullptr, nullptr};
}

// Every plan in both types (a warp per row at 256 and 1000 columns, guarded at 1000; a CTA per
// row at 3000 (guarded) and 8192; rows over chunks at 20000 (guarded), 131072 and 262144), each
// with 5 or more rows so that the special rows 0 to 3 leave a random one; without --small also
// 100000x256 and the timed shapes of issue 17.
std::vector<sample::RowCase> cases(bool small) {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  std::vector<sample::RowCase> c = {
      {f32, 37, 256, false}, {f32, 9, 1000, false},  {f32, 5, 3000, false},    {f32, 6, 8192, false},
      {f32, 5, 20000, false}, {f32, 5, 262144, false}, {bf16, 11, 1000, false}, {bf16, 5, 3000, false},
      {bf16, 5, 8192, false}, {bf16, 5, 131072, false}, {bf16, 5, 262144, false},
  };
  if (!small) {
    const std::vector<sample::RowCase> large = {
        {f32, 100000, 256, false},  {f32, 16384, 8192, true},  {bf16, 16384, 8192, true},
        {bf16, 8192, 131072, true}, {f32, 512, 262144, true},  {bf16, 512, 262144, true},
    };
    c.insert(c.end(), large.begin(), large.end());
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the large cases and their bandwidth tables");
  return sample::run_sample(kName, [&](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    for (const sample::RowCase& c : cases(small)) {
      const Instance f = instance(*c.type, c.cols);
      if (f.forward) ok &= run_case(f, *c.type, c.rows, c.cols, c.timed, rng, stream);
    }
    ok &= run_validation(stream);
    return ok;
  });
}
