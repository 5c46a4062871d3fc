// tileslc_membound: the memory-bound row kernels (samples softmax, rmsnorm,
// layernorm; Float32 and BFloat16) at 16384x8192 and 512x262144, each checked
// against a float64 reference (every row), then timed against a
// device-to-device cudaMemcpyAsync moving the same bytes in the same process.
// Prints one table (TB/s counted as bytes read + written: x, y, and the
// weight and bias once) and writes the rows as JSON (issue 17).
// Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, 77 no CUDA
// device (built, not run).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "layernorm.h"
#include "rmsnorm.h"
#include "row_refs.h"
#include "row_tensor.h"
#include "sample_util.h"
#include "softmax.h"

namespace {

const char* kName = "tileslc_membound";
constexpr float kEps = 1e-5f;
using View = tileslc::TensorView;

// One kernel instance: which operation, its element type and shape, and how to call it.
struct Case {
  const char* op;  // "softmax", "rmsnorm" or "layernorm"
  const sample::RowType* type;
  int64_t rows, cols;
  std::function<tileslc::Status(View x, View w, View b, View y, cudaStream_t)> call;
};

std::vector<Case> cases() {
  const auto* f32 = &sample::kRowFp32;
  const auto* bf16 = &sample::kRowBf16;
  auto sm = [](auto fn) { return [fn](View x, View, View, View y, cudaStream_t s) { return fn(x, y, s); }; };
  auto rms = [](auto fn) { return [fn](View x, View w, View, View y, cudaStream_t s) { return fn(x, w, y, kEps, s); }; };
  auto ln = [](auto fn) { return [fn](View x, View w, View b, View y, cudaStream_t s) { return fn(x, w, b, y, kEps, s); }; };
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

// Runs one case: checks it, then times it and a device-to-device copy of the same bytes.
bool run(const Case& k, sample::Rng& rng, cudaStream_t stream, nlohmann::ordered_json& out) {
  const std::string op = k.op;
  sample::RowTensor x(*k.type, k.rows, k.cols), w(*k.type, 1, k.cols), b(*k.type, 1, k.cols);
  sample::RowTensor y(*k.type, k.rows, k.cols, 64);
  x.fill_nonzero(rng, 0.25f, 4.0f);
  w.fill_nonzero(rng, 0.5f, 1.5f);
  b.fill_nonzero(rng, 0.5f, 1.5f);
  y.poison_all();
  auto call = [&] { CHECK_OK(k.call(x.view(), w.vector_view(), b.vector_view(), y.view(), stream)); };
  call();
  CHECK(cudaStreamSynchronize(stream));
  const bool ok = sample::check_rows(kName, *k.type, y, [&](int64_t r, double* ref) {
    if (op == "softmax") sample::softmax_row_ref(x.row(r), k.cols, ref);
    if (op == "rmsnorm") sample::rmsnorm_row_ref(x.row(r), w.row(0), k.cols, kEps, ref);
    if (op == "layernorm") sample::layernorm_row_ref(x.row(r), w.row(0), b.row(0), k.cols, kEps, ref);
  });
  const size_t params = op == "softmax" ? 0 : op == "rmsnorm" ? w.bytes() : 2 * w.bytes();
  const size_t bytes = 2 * x.bytes() + params;
  tileslc::DeviceBuffer src, dst;  // the copy moves as many bytes: bytes / 2 read, bytes / 2 written
  CHECK_OK(src.allocate(bytes / 2));
  CHECK_OK(dst.allocate(bytes / 2));
  CHECK(cudaMemset(src.data(), 0, bytes / 2));
  auto copy = [&] { CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes / 2, cudaMemcpyDeviceToDevice, stream)); };
  const std::vector<double> ms =
      sample::block_median_ms(std::vector<std::function<void()>>{call, copy}, stream, 200.0, 10, 3);
  const double tbs = bytes / (ms[0] * 1e-3) / 1e12, copy_tbs = bytes / (ms[1] * 1e-3) / 1e12;
  std::printf("%-10s %-5s %6lldx%-7lld %10.1f %9.3f %9.3f %7.3f  %s\n", k.op, k.type->name, (long long)k.rows,
              (long long)k.cols, ms[0] * 1e3, tbs, copy_tbs, tbs / copy_tbs, ok ? "ok" : "WRONG");
  std::fflush(stdout);
  out.push_back({{"op", k.op}, {"dtype", k.type->name}, {"rows", k.rows}, {"cols", k.cols}, {"bytes", bytes},
                 {"tileslc_us", ms[0] * 1e3}, {"tileslc_tbs", tbs}, {"copy_us", ms[1] * 1e3}, {"copy_tbs", copy_tbs},
                 {"ratio_to_copy", tbs / copy_tbs}, {"correct", ok}});
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path = "membound.json";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--json PATH]   (default membound.json)\n", argv[0]);
      return 2;
    }
  }
  return sample::run_sample(kName, [&](sample::Rng& rng, cudaStream_t stream) {
    std::printf("%-10s %-5s %14s %10s %9s %9s %7s\n", "kernel", "dtype", "shape", "time (us)", "TB/s", "copy TB/s",
                "ratio");
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    bool ok = true;
    for (const Case& k : cases()) ok &= run(k, rng, stream, rows);
    std::ofstream(json_path) << nlohmann::ordered_json{{"benchmark", "membound"}, {"rows", rows}}.dump(2) << "\n";
    std::printf("%s: wrote %s\n", kName, json_path.c_str());
    return ok;
  });
}
