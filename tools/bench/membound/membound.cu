// tileslc_membound: the memory-bound row kernels (samples softmax, rmsnorm,
// layernorm, cross_entropy; the backwards of softmax, rmsnorm and
// cross-entropy; Float32 and BFloat16) at
// 16384x8192 and 512x262144 (cross-entropy also BFloat16 8192x131072), each checked
// against a float64 reference (every row), then timed against a
// device-to-device cudaMemcpyAsync moving the same bytes in the same process.
// Prints one table (TB/s counted as bytes read + written: x, y, and the
// weight and bias once) and writes the rows as JSON (issue 17).
// --variants also checks and times each launch variant of the 262144-column
// forwards and the softmax and RMSNorm backwards (samples/*/<op>_variants.h: cluster size, threads, blocks per SM)
// on the same input as the default, each against the copy in the same run;
// --ops softmax,rmsnorm,... and --cols N keep only those operations and column
// counts (xent for both cross-entropy rows), to fit one short device call;
// --slots S sets the RMSNorm backward's dw partial rows (min(rows, S); default
// default_slots(rows, cols));
// --sweep runs instead softmax, RMSNorm and LayerNorm (and the softmax and
// RMSNorm backwards) at N = 256, 1024, 4096, 16384 and 65536 columns, each with
// about 1 GiB of input (membound_sweep.tpy instantiates them).
// Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, 77 no CUDA
// device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cross_entropy.h"
#include "layernorm.h"
#include "layernorm/layernorm_variants.h"
#include "membound_sweep.h"
#include "rmsnorm.h"
#include "rmsnorm/rmsnorm_variants.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"
#include "softmax.h"
#include "softmax/softmax_variants.h"

namespace {

const char* kName = "tileslc_membound";
constexpr float kEps = 1e-5f;
using View = tileslc::TensorView;

using ForwardCall = std::function<tileslc::Status(View x, View w, View b, View y, cudaStream_t)>;

// What to run: --ops (empty: all), --cols (0: all), --variants, --slots (the RMSNorm backward's
// dw partial rows S: min(rows, slots); 0: default_slots()).
struct Selection {
  std::vector<std::string> ops;
  int64_t cols = 0;
  bool variants = false;
  int64_t slots = 0;
  bool sweep = false;
  bool wants(const std::string& op, int64_t c) const {
    return (ops.empty() || std::find(ops.begin(), ops.end(), op) != ops.end()) && (cols == 0 || cols == c);
  }
};

// One kernel instance: which operation, its element type and shape, and how to call it.
struct Case {
  const char* op;  // "softmax", "rmsnorm" or "layernorm"
  const sample::RowType* type;
  int64_t rows, cols;
  ForwardCall call;
};

// The launch variants of a forward case (the samples' <op>_variants.h), named as called.
std::vector<std::pair<std::string, ForwardCall>> variants(const Case& k) {
  std::vector<std::pair<std::string, ForwardCall>> out;
  const std::string op = k.op;
  if (op == "softmax")
    for (const auto& v : sample::softmax_variants(k.type->bytes, k.cols))
      out.push_back({v.name, [fn = v.fn](View x, View, View, View y, cudaStream_t s) { return fn(x, y, s); }});
  if (op == "rmsnorm")
    for (const auto& v : sample::rmsnorm_variants(k.type->bytes, k.cols))
      out.push_back({v.name, [fn = v.fn](View x, View w, View, View y, cudaStream_t s) { return fn(x, w, y, kEps, s); }});
  if (op == "layernorm")
    for (const auto& v : sample::layernorm_variants(k.type->bytes, k.cols))
      out.push_back({v.name, [fn = v.fn](View x, View w, View b, View y, cudaStream_t s) { return fn(x, w, b, y, kEps, s); }});
  return out;
}

// The samples' host functions as ForwardCall: softmax (x, y), RMSNorm (x, w, y, eps), LayerNorm (x, w, b, y, eps).
template <class Fn>
ForwardCall sm(Fn fn) {
  return [fn](View x, View, View, View y, cudaStream_t s) { return fn(x, y, s); };
}
template <class Fn>
ForwardCall rms(Fn fn) {
  return [fn](View x, View w, View, View y, cudaStream_t s) { return fn(x, w, y, kEps, s); };
}
template <class Fn>
ForwardCall ln(Fn fn) {
  return [fn](View x, View w, View b, View y, cudaStream_t s) { return fn(x, w, b, y, kEps, s); };
}

std::vector<Case> cases() {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  return {
      {"softmax", f32, 16384, 8192, sm(softmax_8192)},
      {"softmax", bf16, 16384, 8192, sm(softmax_bf16_8192)},
      {"softmax", f32, 512, 262144, sm(softmax_fp32_262144)},
      {"softmax", bf16, 512, 262144, sm(softmax_bf16_262144)},
      {"rmsnorm", f32, 16384, 8192, rms(rmsnorm_fp32_8192)},
      {"rmsnorm", bf16, 16384, 8192, rms(rmsnorm_bf16_8192)},
      {"rmsnorm", f32, 512, 262144, rms(rmsnorm_fp32_262144)},
      {"rmsnorm", bf16, 512, 262144, rms(rmsnorm_bf16_262144)},
      {"layernorm", f32, 16384, 8192, ln(layernorm_fp32_8192)},
      {"layernorm", bf16, 16384, 8192, ln(layernorm_bf16_8192)},
      {"layernorm", f32, 512, 262144, ln(layernorm_fp32_262144)},
      {"layernorm", bf16, 512, 262144, ln(layernorm_bf16_262144)},
  };
}

// The column counts --sweep runs (membound_sweep.tpy has an instance of each): X(n) for each.
#define TILESLC_SWEEP_COLUMNS(X) X(256) X(1024) X(4096) X(16384) X(65536)

// Rows of about 1 GiB of input at `cols` columns of `bytes`-byte elements (--sweep).
int64_t sweep_rows(int64_t cols, int64_t bytes) { return (int64_t{1} << 30) / (cols * bytes); }

// --sweep's forwards: membound_sweep.tpy's instances at each N, Float32 and BFloat16.
std::vector<Case> sweep_cases() {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  std::vector<Case> out;
#define TILESLC_SWEEP(n)                                                                                         \
  out.push_back({"softmax", f32, sweep_rows(n, 4), n, sm(softmax_sweep_fp32_##n)});                             \
  out.push_back({"softmax", bf16, sweep_rows(n, 2), n, sm(softmax_sweep_bf16_##n)});                            \
  out.push_back({"rmsnorm", f32, sweep_rows(n, 4), n, rms(rmsnorm_sweep_fp32_##n)});                            \
  out.push_back({"rmsnorm", bf16, sweep_rows(n, 2), n, rms(rmsnorm_sweep_bf16_##n)});                           \
  out.push_back({"layernorm", f32, sweep_rows(n, 4), n, ln(layernorm_sweep_fp32_##n)});                         \
  out.push_back({"layernorm", bf16, sweep_rows(n, 2), n, ln(layernorm_sweep_bf16_##n)});
  TILESLC_SWEEP_COLUMNS(TILESLC_SWEEP)
#undef TILESLC_SWEEP
  return out;
}

// Times `call` (moving `bytes` read + written) against a device-to-device copy of as many bytes,
// prints one table row and appends it to `out`; returns `ok` (the caller's correctness check).
bool time_and_print(const std::string& op, const sample::RowType& type, int64_t rows, int64_t cols, size_t bytes,
                    const std::function<void()>& call, bool ok, cudaStream_t stream, nlohmann::ordered_json& out,
                    const std::string& variant = "") {
  tileslc::DeviceBuffer src, dst;  // the copy moves as many bytes: bytes / 2 read, bytes / 2 written
  CHECK_OK(src.allocate(bytes / 2));
  CHECK_OK(dst.allocate(bytes / 2));
  CHECK(cudaMemset(src.data(), 0, bytes / 2));
  auto copy = [&] { CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes / 2, cudaMemcpyDeviceToDevice, stream)); };
  const std::vector<double> ms =
      sample::block_median_ms(std::vector<std::function<void()>>{call, copy}, stream, 200.0, 10, 3);
  const double tbs = bytes / (ms[0] * 1e-3) / 1e12, copy_tbs = bytes / (ms[1] * 1e-3) / 1e12;
  const std::string label = variant.empty() ? op : op + ":" + variant;
  std::printf("%-22s %-5s %6lldx%-7lld %10.1f %9.3f %9.3f %7.3f  %s\n", label.c_str(), type.name, (long long)rows,
              (long long)cols, ms[0] * 1e3, tbs, copy_tbs, tbs / copy_tbs, ok ? "ok" : "WRONG");
  std::fflush(stdout);
  out.push_back({{"op", op}, {"variant", variant.empty() ? "default" : variant}, {"dtype", type.name}, {"rows", rows},
                 {"cols", cols}, {"bytes", bytes},
                 {"tileslc_us", ms[0] * 1e3}, {"tileslc_tbs", tbs}, {"copy_us", ms[1] * 1e3}, {"copy_tbs", copy_tbs},
                 {"ratio_to_copy", tbs / copy_tbs}, {"correct", ok}});
  return ok;
}

// Runs one case: checks it, then times it and a device-to-device copy of the same bytes; with
// `with_variants`, then each launch variant of it (variants()) on the same input.
bool run(const Case& k, bool with_variants, sample::Rng& rng, cudaStream_t stream, nlohmann::ordered_json& out) {
  const std::string op = k.op;
  sample::RowTensor x(*k.type, k.rows, k.cols), w(*k.type, 1, k.cols), b(*k.type, 1, k.cols);
  sample::RowTensor y(*k.type, k.rows, k.cols, 64);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  w.fill_nonzero(rng, 0.5f, 1.5f);
  b.fill_nonzero(rng, 0.5f, 1.5f);
  // Row r's float64 reference (check_rows calls it from several threads at once).
  auto ref = [&](int64_t r, double* row) {
    if (op == "softmax") sample::softmax_row_ref(x.row(r), k.cols, row);
    if (op == "rmsnorm") sample::rmsnorm_row_ref(x.row(r), w.row(0), k.cols, kEps, row);
    if (op == "layernorm") sample::layernorm_row_ref(x.row(r), w.row(0), b.row(0), k.cols, kEps, row);
  };
  const size_t params = op == "softmax" ? 0 : op == "rmsnorm" ? w.bytes() : 2 * w.bytes();
  bool all_ok = true;
  auto check_and_time = [&](const ForwardCall& fn, const std::string& variant) {
    y.poison_all();
    auto call = [&] { CHECK_OK(fn(x.view(), w.vector_view(), b.vector_view(), y.view(), stream)); };
    call();
    CHECK(cudaStreamSynchronize(stream));
    const bool ok = sample::check_rows(kName, *k.type, y, ref);
    all_ok &= time_and_print(op, *k.type, k.rows, k.cols, 2 * x.bytes() + params, call, ok, stream, out, variant);
  };
  check_and_time(k.call, "");
  if (with_variants)
    for (const auto& [name, fn] : variants(k)) check_and_time(fn, name);
  return all_ok;
}

// A backward of the softmax or RMSNorm samples at one (type, shape).
struct BackwardCase {
  const char* op;  // "softmax_bwd" or "rmsnorm_bwd"
  const sample::RowType* type;
  int64_t rows, cols;
  tileslc::Status (*softmax_fwd)(View x, View y, cudaStream_t);  // makes y for softmax_bwd
  tileslc::Status (*softmax_bwd)(View y, View dy, View dx, cudaStream_t);
  tileslc::Status (*rmsnorm_bwd)(View x, View w, View dy, View dx, View dw_partial, View dw, float eps, cudaStream_t);
};

std::vector<BackwardCase> backward_cases() {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  return {
      {"softmax_bwd", f32, 16384, 8192, softmax_8192, softmax_bwd_fp32_8192, nullptr},
      {"softmax_bwd", bf16, 16384, 8192, softmax_bf16_8192, softmax_bwd_bf16_8192, nullptr},
      {"softmax_bwd", f32, 512, 262144, softmax_fp32_262144, softmax_bwd_fp32_262144, nullptr},
      {"softmax_bwd", bf16, 512, 262144, softmax_bf16_262144, softmax_bwd_bf16_262144, nullptr},
      {"rmsnorm_bwd", f32, 16384, 8192, nullptr, nullptr, rmsnorm_bwd_fp32_8192},
      {"rmsnorm_bwd", bf16, 16384, 8192, nullptr, nullptr, rmsnorm_bwd_bf16_8192},
      {"rmsnorm_bwd", f32, 512, 262144, nullptr, nullptr, rmsnorm_bwd_fp32_262144},
      {"rmsnorm_bwd", bf16, 512, 262144, nullptr, nullptr, rmsnorm_bwd_bf16_262144},
  };
}

// --sweep's backwards (softmax's y from the sweep's forward), as sweep_cases().
std::vector<BackwardCase> sweep_backward_cases() {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  std::vector<BackwardCase> out;
#define TILESLC_SWEEP(n)                                                                                         \
  out.push_back({"softmax_bwd", f32, sweep_rows(n, 4), n, softmax_sweep_fp32_##n, softmax_bwd_sweep_fp32_##n,     \
                 nullptr});                                                                                      \
  out.push_back({"softmax_bwd", bf16, sweep_rows(n, 2), n, softmax_sweep_bf16_##n, softmax_bwd_sweep_bf16_##n,    \
                 nullptr});                                                                                      \
  out.push_back({"rmsnorm_bwd", f32, sweep_rows(n, 4), n, nullptr, nullptr, rmsnorm_bwd_sweep_fp32_##n});         \
  out.push_back({"rmsnorm_bwd", bf16, sweep_rows(n, 2), n, nullptr, nullptr, rmsnorm_bwd_sweep_bf16_##n});
  TILESLC_SWEEP_COLUMNS(TILESLC_SWEEP)
#undef TILESLC_SWEEP
  return out;
}

// The RMSNorm backward's dw partial rows S for (rows, cols): min(rows, max(1024, 2^21 / cols)), so
// that the warp-per-row kernel of short rows runs enough warps (256 columns: 8192 slots, 8 MB of
// partials: 0.969 and 0.957 of a copy against 0.848 and 0.620 at 1024 slots; 1024 columns: 2048;
// H100, 2026-12-06, --sweep --slots) while the slots past 1024 add at most 8 MB of partials;
// torch_membound.py's too.
int64_t default_slots(int64_t rows, int64_t cols) {
  return std::min(rows, std::max<int64_t>(1024, (int64_t{1} << 21) / cols));
}

// Checks one backward against float64 (dx row by row; RMSNorm's dw too), then times it. Bytes:
// softmax y, dy read and dx written; RMSNorm x, dy read, dx written, w read and dw written once,
// and the Float32 dw partials (S rows: min(rows, slots), or default_slots() for slots 0)
// written and read once.
bool run_backward(const BackwardCase& k, bool with_variants, int64_t slots, sample::Rng& rng, cudaStream_t stream,
                  nlohmann::ordered_json& out) {
  const bool softmax = k.softmax_bwd != nullptr;
  sample::RowTensor x(*k.type, k.rows, k.cols), w(*k.type, 1, k.cols), dy(*k.type, k.rows, k.cols);
  sample::RowTensor dx(*k.type, k.rows, k.cols, 64), dw(*k.type, 1, k.cols, 64);
  const int64_t s = slots > 0 ? std::min(k.rows, slots) : default_slots(k.rows, k.cols);
  sample::RowTensor partial(sample::kRowFp32, softmax ? 1 : s, k.cols);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  w.fill_nonzero(rng, 0.5f, 1.5f);
  dy.fill_nonzero(rng, 0.25f, 2.0f);
  sample::RowTensor y(*k.type, softmax ? k.rows : 1, k.cols);  // softmax_bwd's input: softmax(x)
  if (softmax) {
    CHECK_OK(k.softmax_fwd(x.view(), y.view(), stream));
    CHECK(cudaStreamSynchronize(stream));
    y.download();
  }
  const sample::RowTensor& in = softmax ? y : x;  // y (softmax) or x (RMSNorm)
  // The default, then with --variants each launch variant (samples/*/<op>_variants.h), as calls.
  std::vector<std::pair<std::string, std::function<void()>>> calls;
  calls.push_back({"", [&] {
                     if (softmax) CHECK_OK(k.softmax_bwd(in.view(), dy.view(), dx.view(), stream));
                     else CHECK_OK(k.rmsnorm_bwd(x.view(), w.vector_view(), dy.view(), dx.view(), partial.view(),
                                                 dw.vector_view(), kEps, stream));
                   }});
  if (with_variants && softmax)
    for (const auto& v : sample::softmax_bwd_variants(k.type->bytes, k.cols))
      calls.push_back({v.name, [&, fn = v.fn] { CHECK_OK(fn(in.view(), dy.view(), dx.view(), stream)); }});
  if (with_variants && !softmax)
    for (const auto& v : sample::rmsnorm_bwd_variants(k.type->bytes, k.cols))
      calls.push_back({v.name, [&, fn = v.fn] {
                         CHECK_OK(fn(x.view(), w.vector_view(), dy.view(), dx.view(), partial.view(), dw.vector_view(), kEps, stream));
                       }});
  auto row_max = [&](const sample::RowTensor& t, int64_t r) {
    double m = 0;
    for (int64_t c = 0; c < k.cols; ++c) m = std::max(m, std::fabs(static_cast<double>(t.at(r, c))));
    return m;
  };
  std::vector<double> dw_ref;
  if (!softmax) {
    // Over kDwGroups groups of rows on several threads, the groups' sums then added in order (the
    // same float64 result on any number of threads).
    constexpr int64_t kDwGroups = 64;
    std::vector<double> group_dw(kDwGroups * k.cols, 0.0);
    sample::parallel_ranges(kDwGroups, 2, [&](int64_t first, int64_t last) {
      for (int64_t g = first; g < last; ++g)
        for (int64_t r = k.rows * g / kDwGroups; r < k.rows * (g + 1) / kDwGroups; ++r)
          sample::rmsnorm_dw_accumulate(x.row(r), dy.row(r), k.cols, kEps, group_dw.data() + g * k.cols);
    });
    dw_ref.assign(k.cols, 0.0);
    for (int64_t g = 0; g < kDwGroups; ++g)
      for (int64_t c = 0; c < k.cols; ++c) dw_ref[c] += group_dw[g * k.cols + c];
  }
  size_t bytes = 3 * x.bytes() + (softmax ? 0 : 2 * w.bytes() + 2 * partial.bytes());
  bool all_ok = true;
  for (const auto& [variant, call] : calls) {
    dx.poison_all();
    dw.poison_all();
    call();
    CHECK(cudaStreamSynchronize(stream));
    bool ok = sample::check_rows_scaled(
        kName, *k.type, dx,
        [&](int64_t r, double* ref) {
          if (softmax) sample::softmax_bwd_row_ref(in.row(r), dy.row(r), k.cols, ref);
          else sample::rmsnorm_bwd_row_ref(x.row(r), w.row(0), dy.row(r), k.cols, kEps, ref);
        },
        [&](int64_t r) { return softmax ? row_max(in, r) * row_max(dy, r) : 0.0; });
    if (!softmax)
      ok &= sample::check_rows(kName, *k.type, dw, [&](int64_t, double* ref) { std::copy(dw_ref.begin(), dw_ref.end(), ref); });
    all_ok &= time_and_print(k.op, *k.type, k.rows, k.cols, bytes, call, ok, stream, out, variant);
  }
  return all_ok;
}

// Cross-entropy with ignore_index -100 (the rows r with r % 17 == 1), random targets and dloss:
// the forward (loss and logsumexp) and the backward (dx) of one (type, COLS) instance.
struct CrossEntropyCase {
  const sample::RowType* type;
  int64_t rows, cols;
  tileslc::Status (*forward)(View x, View target, View loss, View lse, int32_t ignore_index, cudaStream_t);
  tileslc::Status (*backward)(View x, View target, View dloss, View lse, View dx, int32_t ignore_index, cudaStream_t);
};

std::vector<CrossEntropyCase> cross_entropy_cases() {
  return {
      {&sample::kRowFp32, 16384, 8192, cross_entropy_fwd_fp32_8192, cross_entropy_bwd_fp32_8192},
      {&sample::kRowBf16, 16384, 8192, cross_entropy_fwd_bf16_8192, cross_entropy_bwd_bf16_8192},
      {&sample::kRowBf16, 8192, 131072, cross_entropy_fwd_bf16_131072, cross_entropy_bwd_bf16_131072},
      {&sample::kRowFp32, 512, 262144, cross_entropy_fwd_fp32_262144, cross_entropy_bwd_fp32_262144},
      {&sample::kRowBf16, 512, 262144, cross_entropy_fwd_bf16_262144, cross_entropy_bwd_bf16_262144},
  };
}

// Checks one cross-entropy instance (loss against float64 relative to the largest loss, 2e-5; dx
// row by row as the sample's driver does), then times the forward and the backward.
bool run_cross_entropy(const CrossEntropyCase& k, sample::Rng& rng, cudaStream_t stream, nlohmann::ordered_json& out) {
  constexpr int32_t kIgnore = -100;
  sample::RowTensor x(*k.type, k.rows, k.cols), dx(*k.type, k.rows, k.cols, 64);
  sample::RowTensor loss(sample::kRowFp32, 1, k.rows), lse(sample::kRowFp32, 1, k.rows), dloss(sample::kRowFp32, 1, k.rows);
  x.fill_nonzero(rng, 0.25f, 8.0f);
  dloss.fill_nonzero(rng, 0.5f, 2.0f);
  std::vector<int32_t> target(k.rows);
  for (int64_t r = 0; r < k.rows; ++r) target[r] = r % 17 == 1 ? kIgnore : static_cast<int32_t>(rng.uniform(0.0f, 1.0f) * k.cols) % k.cols;
  tileslc::DeviceBuffer target_buf;
  CHECK_OK(target_buf.allocate(k.rows * sizeof(int32_t)));
  CHECK_OK(target_buf.copy_from_host(target.data(), k.rows * sizeof(int32_t)));
  const View t = tileslc::make_tensor_view(target_buf.data(), tileslc::DType::Int32, {k.rows});
  loss.poison_all();
  dx.poison_all();
  auto forward = [&] { CHECK_OK(k.forward(x.view(), t, loss.vector_view(), lse.vector_view(), kIgnore, stream)); };
  auto backward = [&] { CHECK_OK(k.backward(x.view(), t, dloss.vector_view(), lse.vector_view(), dx.view(), kIgnore, stream)); };
  forward();
  backward();
  CHECK(cudaStreamSynchronize(stream));
  loss.download();
  sample::ErrorStats e;
  for (int64_t r = 0; r < k.rows; ++r) {
    e.add(loss.at(0, r), target[r] == kIgnore ? 0.0 : sample::logsumexp_row_ref(x.row(r), k.cols) - x.at(r, target[r]));
  }
  const bool fwd_ok = sample::report(kName, sample::row_case_name(k.rows, k.cols, *k.type) + " loss", e, 2e-5);
  auto ignored = [&](int64_t r) { return target[r] == kIgnore; };
  const bool bwd_ok = sample::check_rows_scaled(
      kName, *k.type, dx,
      [&](int64_t r, double* ref) {
        sample::cross_entropy_grad_row_ref(x.row(r), k.cols, ignored(r) ? -1 : target[r], ignored(r) ? 0.0 : dloss.at(0, r), ref);
      },
      [&](int64_t r) { return ignored(r) ? 0.0 : std::fabs(dloss.at(0, r)); });
  // Bytes read + written: x (and 12 bytes per row: target, loss, lse) forward; x, dx (and target, dloss, lse) backward.
  bool ok = time_and_print("xent_fwd", *k.type, k.rows, k.cols, x.bytes() + 12 * k.rows, forward, fwd_ok, stream, out);
  ok &= time_and_print("xent_bwd", *k.type, k.rows, k.cols, 2 * x.bytes() + 12 * k.rows, backward, bwd_ok, stream, out);
  return ok;
}

// Splits "a,b,c" at the commas.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1) out.push_back(text.substr(start, comma - start));
  out.push_back(text.substr(start));
  return out;
}


// How many cases the selection runs (0: a typo in --ops or a --cols no case has, refused before
// any GPU work so that a misspelt operation cannot pass as an empty table).
size_t selected_cases(const Selection& sel) {
  size_t n = 0;
  for (const Case& k : sel.sweep ? sweep_cases() : cases()) n += sel.wants(k.op, k.cols);
  for (const BackwardCase& k : sel.sweep ? sweep_backward_cases() : backward_cases()) n += sel.wants(k.op, k.cols);
  if (!sel.sweep)
    for (const CrossEntropyCase& k : cross_entropy_cases()) n += sel.wants("xent", k.cols);
  return n;
}

// The operations the case tables hold, in table order: what --ops accepts.
std::vector<std::string> operation_names() {
  std::vector<std::string> ops;
  auto add = [&ops](const std::string& op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const Case& k : cases()) add(k.op);
  for (const BackwardCase& k : backward_cases()) add(k.op);
  if (!cross_entropy_cases().empty()) add("xent");
  return ops;
}

// The column counts --sweep runs, in table order.
std::vector<std::string> sweep_columns() {
  std::vector<std::string> out;
  for (const Case& k : sweep_cases())
    if (std::find(out.begin(), out.end(), std::to_string(k.cols)) == out.end()) out.push_back(std::to_string(k.cols));
  return out;
}

// The column counts of the default table's cases of the selected operations, in table order.
std::vector<std::string> table_columns(const Selection& sel) {
  std::vector<std::string> out;
  auto add = [&](const std::string& op, int64_t cols) {
    const bool wanted = sel.ops.empty() || std::find(sel.ops.begin(), sel.ops.end(), op) != sel.ops.end();
    if (wanted && std::find(out.begin(), out.end(), std::to_string(cols)) == out.end()) out.push_back(std::to_string(cols));
  };
  for (const Case& k : cases()) add(k.op, k.cols);
  for (const BackwardCase& k : backward_cases()) add(k.op, k.cols);
  for (const CrossEntropyCase& k : cross_entropy_cases()) add("xent", k.cols);
  return out;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

int usage(const char* argv0, const std::string& why) {
  if (!why.empty()) std::fprintf(stderr, "%s: %s\n", kName, why.c_str());
  std::fprintf(why.empty() ? stdout : stderr,
               "usage: %s [--json PATH] [--ops %s] [--cols N] [--variants] [--slots S] [--sweep]\n"
               "  (default: every operation and shape to membound.json; --variants also times the launch variants of\n"
               "  the 262144-column forwards and the backwards; --slots: the RMSNorm backward's dw partial rows, default min(rows, max(1024, 2^21 / N)); --sweep: N = 256 to 65536 at\n"
               "  about 1 GiB of input instead of the table's shapes)\n",
               argv0, join(operation_names(), ",").c_str());
  return why.empty() ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path = "membound.json";
  Selection sel;
  const std::vector<std::string> known_ops = operation_names();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      return usage(argv[0], "");
    } else if (arg == "--json" && has_value) {
      json_path = argv[++i];
      // `--json --sweep` would write the table to a file named --sweep and skip the sweep.
      if (json_path.empty() || json_path.rfind("--", 0) == 0)
        return usage(argv[0], "--json needs a file path, found `" + json_path + "`");
      // Refused now, not after minutes of GPU work: a file in a folder that does not exist.
      const std::filesystem::path dir = std::filesystem::path(json_path).parent_path();
      std::error_code ec;
      if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
        return usage(argv[0], "--json: no folder `" + dir.string() + "` to write " + json_path + " in");
      if (std::filesystem::is_directory(json_path, ec))
        return usage(argv[0], "--json: `" + json_path + "` is a folder, not a file path");
    } else if (arg == "--ops" && has_value) {
      sel.ops = split_list(argv[++i]);
      for (const std::string& op : sel.ops)
        if (std::find(known_ops.begin(), known_ops.end(), op) == known_ops.end())
          return usage(argv[0], "--ops: no operation named `" + op + "` (" + join(known_ops, ", ") + ")");
    } else if ((arg == "--cols" || arg == "--slots") && has_value) {
      const std::string text = argv[++i];
      char* end = nullptr;
      errno = 0;
      const long long c = std::strtoll(text.c_str(), &end, 10);
      if (errno == ERANGE) return usage(argv[0], arg + ": `" + text + "` is out of range");
      if (text.empty() || *end != '\0' || c <= 0)
        return usage(argv[0], arg + (arg == "--cols" ? ": expected a positive column count" : ": expected a positive slot count") +
                                  ", found `" + text + "`");
      (arg == "--cols" ? sel.cols : sel.slots) = c;
    } else if (arg == "--variants") {
      sel.variants = true;
    } else if (arg == "--sweep") {
      sel.sweep = true;
    } else {
      const bool takes_value = arg == "--json" || arg == "--ops" || arg == "--cols" || arg == "--slots";
      return usage(argv[0], takes_value ? "`" + arg + "` needs a value" : "unknown argument `" + arg + "`");
    }
  }
  if (sel.sweep && std::find(sel.ops.begin(), sel.ops.end(), "xent") != sel.ops.end())
    return usage(argv[0], "--sweep has no xent");
  if (sel.sweep && sel.variants) return usage(argv[0], "--sweep has no launch variants (--variants: the table's shapes)");
  if (selected_cases(sel) == 0)
    return usage(argv[0], "no case has the columns " + std::to_string(sel.cols) + " for the operations selected" +
                              (sel.sweep ? " (--sweep: " + join(sweep_columns(), ", ") + ")"
                                         : " (" + join(table_columns(sel), ", ") + "; --sweep: " + join(sweep_columns(), ", ") + ")"));
  return sample::run_sample(kName, [&](sample::Rng& rng, cudaStream_t stream) {
    std::printf("%-22s %-5s %14s %10s %9s %9s %7s\n", "kernel", "dtype", "shape", "time (us)", "TB/s", "copy TB/s",
                "ratio");
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    bool ok = true;
    for (const Case& k : sel.sweep ? sweep_cases() : cases())
      if (sel.wants(k.op, k.cols)) ok &= run(k, sel.variants, rng, stream, rows);
    for (const BackwardCase& k : sel.sweep ? sweep_backward_cases() : backward_cases())
      if (sel.wants(k.op, k.cols)) ok &= run_backward(k, sel.variants, sel.slots, rng, stream, rows);
    if (!sel.sweep)
      for (const CrossEntropyCase& k : cross_entropy_cases())
        if (sel.wants("xent", k.cols)) ok &= run_cross_entropy(k, rng, stream, rows);
    std::ofstream json(json_path);
    json << nlohmann::ordered_json{{"benchmark", "membound"}, {"rows", rows}}.dump(2) << "\n";
    json.close();
    if (!json) {
      std::fprintf(stderr, "%s: cannot write %s\n", kName, json_path.c_str());
      return false;
    }
    std::printf("%s: wrote %s\n", kName, json_path.c_str());
    return ok;
  });
}
