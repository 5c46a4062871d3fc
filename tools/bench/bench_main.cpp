// tileslc_bench: one process that benchmarks the GEMM samples' generated host
// functions against the fastest cuBLAS call (GemmEx or one of cuBLASLt's
// heuristic's first 4 algorithms) at 4096^3, 8192^3, the skinny M = 16, 64,
// 128, 256 with N = K = 8192 and the ragged 1000x999x1001 (table on stdout,
// JSON file), checking every result, and measures the host
// overhead of a generated host function per launch against cudaLaunchKernel.
// Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, 77 no CUDA
// device (built, not run).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemm_bench.h"
#include "launch_overhead.h"
#include "sample_util.h"

namespace {

using nlohmann::ordered_json;

const char* kName = "tileslc_bench";
const bench::Shape kShapes[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {16, 8192, 8192},  {64, 8192, 8192},
                                {128, 8192, 8192},   {256, 8192, 8192},   {1000, 999, 1001}};

struct Options {
  std::string json_path = "bench.json";
  bench::Timing timing;
  int launch_calls = 10000;
  int launch_rounds = 5;
  std::vector<std::string> only;  // --entries: the entries to run (empty: all)
};

void usage(FILE* to) {
  std::fprintf(to,
               "usage: %s [--json PATH] [--timing blocks|interleaved] [--settle-ms N] [--rounds N] [--reps N]\n"
               "          [--warmup N] [--launch-calls N] [--entries NAME,...]   (or --option=VALUE)\n"
               "  --json PATH        where to write the results as JSON (default bench.json)\n"
               "  --timing MODE      blocks (default): each implementation and cuBLAS in turn, --rounds times,\n"
               "                     run back to back for --settle-ms, then --reps timed calls, so that each\n"
               "                     runs at the clock it sustains alone under the power limit; interleaved:\n"
               "                     --warmup calls, then rounds * reps calls alternating call by call\n"
               "  --settle-ms N      untimed back-to-back calls before each block (default 300)\n"
               "  --rounds N         blocks per implementation (default 3)\n"
               "  --warmup N         untimed calls before an interleaved timing (default 3)\n"
               "  --reps N           timed calls per block; the median of all is reported (default 7)\n"
               "  --launch-calls N   back-to-back launches per launch-overhead batch (default 10000)\n"
               "  --entries NAME,... only these entries (and cuBLAS in their precisions), e.g. the BF16 skinny-shape\n"
               "                     variants: gemm_sm90,gemm_sm90_splitk,gemm_sm90_splitk_fused (default: all)\n",
               kName);
}

// Reports a command-line error and exits with 2.
[[noreturn]] void bad_arguments(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", kName, message.c_str());
  usage(stderr);
  std::exit(2);
}

// `value` of option `name` as a whole number from `lo` to 1000000.
int whole_number(const std::string& name, const std::string& value, long lo) {
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  // Digits only: strtol alone would also take " 5" and "+5".
  const bool digits = !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '-');
  if (!digits || *end != '\0' || n < lo || n > 1000000)
    bad_arguments(name + " is `" + value + "`, expected a whole number from " + std::to_string(lo) + " to 1000000");
  return static_cast<int>(n);
}

// Parses argv into `o`; exits with 2 (or 0 for --help) when it cannot. Each
// option takes its value as the next argument or after `=` (--reps=9).
Options parse(int argc, char** argv) {
  Options o;
  static const char* const kOptions[] = {"--json",   "--timing", "--settle-ms",   "--rounds",
                                         "--warmup", "--reps",   "--launch-calls", "--entries"};
  for (int i = 1; i < argc; ++i) {
    std::string name = argv[i];
    if (name == "-h" || name == "--help") {
      usage(stdout);
      std::exit(0);
    }
    std::string value;
    const size_t eq = name.find('=');
    const bool inline_value = name.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (name.rfind("-", 0) != 0) bad_arguments("unexpected argument `" + name + "`");
    if (std::find_if(std::begin(kOptions), std::end(kOptions), [&](const char* k) { return name == k; }) ==
        std::end(kOptions))
      bad_arguments("unknown option " + name);
    if (!inline_value) {
      if (i + 1 >= argc) bad_arguments(name + " needs a value");
      value = argv[++i];
    }
    if (name == "--json") {
      if (value.empty()) bad_arguments("--json needs a file path, not an empty one");
      if (value == "-") bad_arguments("--json - : give a file path (the table goes to standard output)");
      o.json_path = value;
    } else if (name == "--timing") {
      if (value != "blocks" && value != "interleaved")
        bad_arguments("--timing is `" + value + "`, expected blocks or interleaved");
      o.timing.interleaved = value == "interleaved";
    } else if (name == "--warmup") {
      o.timing.warmup = whole_number(name, value, 0);
    } else if (name == "--settle-ms") {
      o.timing.settle_ms = whole_number(name, value, 0);
    } else if (name == "--reps") {
      o.timing.reps = whole_number(name, value, 1);
    } else if (name == "--rounds") {
      o.timing.rounds = whole_number(name, value, 1);
    } else if (name == "--entries") {
      o.only.clear();
      for (size_t begin = 0; begin <= value.size();) {
        const size_t comma = std::min(value.find(',', begin), value.size());
        if (comma == begin) bad_arguments("--entries `" + value + "` has an empty name");
        o.only.push_back(value.substr(begin, comma - begin));
        begin = comma + 1;
      }
      const std::vector<bench::GemmEntry> known = bench::gemm_entries();
      for (const std::string& entry : o.only) {
        if (std::none_of(known.begin(), known.end(), [&](const bench::GemmEntry& e) { return entry == e.name; })) {
          std::string names;  // the entries this build has, on a line of their own (a typo's fix)
          for (const bench::GemmEntry& e : known) names += (names.empty() ? "" : ", ") + std::string(e.name);
          bad_arguments("--entries: no entry named `" + entry + "`\n" + kName + ": the entries of this build: " + names);
        }
      }
    } else {
      o.launch_calls = whole_number(name, value, 1);
    }
  }
  return o;
}

// Bytes of A, B and C for `s` in the precision of `e`.
double operand_bytes(const bench::Shape& s, const bench::GemmEntry& e) {
  return static_cast<double>(s.M * s.K + s.N * s.K) * tileslc::dtype_size(e.ab_dtype) +
         static_cast<double>(s.M * s.N) * tileslc::dtype_size(e.c_dtype);
}

std::string check_text(const bench::Row& r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s  rel_err %.2e vs %s (tol %.1e)", r.ok ? "PASS" : "FAIL", r.rel_err,
                r.checked_against.c_str(), r.tolerance);
  return r.note.empty() ? buf : std::string(buf) + ": " + r.note;
}

void print_row(const bench::Row& r) {
  if (r.ms > 0.0) {
    std::printf("  %-16s %-24s %10.3f %10.2f %10.3f  %s\n", r.shape.text().c_str(), r.impl.c_str(), r.ms,
                r.tflops, r.ratio, check_text(r).c_str());
  } else {
    std::printf("  %-16s %-24s %10s %10s %10s  FAIL: %s\n", r.shape.text().c_str(), r.impl.c_str(), "-", "-", "-",
                r.note.c_str());
  }
}

ordered_json row_json(const bench::Row& r) {
  ordered_json j;
  j["shape"] = {{"M", r.shape.M}, {"N", r.shape.N}, {"K", r.shape.K}};
  j["impl"] = r.impl;
  j["reference"] = r.is_reference;
  if (r.ms > 0.0) {
    j["time_ms"] = r.ms;
    j["tflops"] = r.tflops;
    j["ratio_to_cublas"] = r.ratio;
  }
  j["rel_err"] = r.rel_err;
  j["max_abs_ref"] = r.max_abs_ref;
  j["tolerance"] = r.tolerance;
  j["checked_against"] = r.checked_against;
  j["status"] = r.ok ? "PASS" : "FAIL";
  if (!r.note.empty()) j["note"] = r.note;
  if (r.fastest_entry) j["fastest_entry"] = true;
  return j;
}

// Prints the launch-overhead table and verdict; returns them as JSON.
ordered_json report_launch_overhead(const bench::LaunchOverhead& lo) {
  std::printf("%s: launch overhead, %d back-to-back launches on N = 1, median of %d batches (after a warm-up batch)\n",
              kName, lo.calls, lo.rounds);
  std::printf("  %-44s %20s %20s\n", "", "enqueue (us/launch)", "with sync (us/launch)");
  std::printf("  %-44s %20.3f %20.3f\n", "vector_add(mA, mB, mC, stream) (generated)", lo.generated.enqueue_us,
              lo.generated.total_us);
  std::printf("  %-44s %20.3f %20.3f\n", "cudaLaunchKernel(add_kernel, ...) (raw)", lo.raw.enqueue_us,
              lo.raw.total_us);
  std::printf("  %-44s %20.3f %20.3f\n", "ratio generated / raw", lo.generated.enqueue_us / lo.raw.enqueue_us,
              lo.generated.total_us / lo.raw.total_us);
  std::printf("  %-44s %20.3f\n", "GPU time per kernel, replayed from a CUDA graph", lo.graph_us);
  // When the GPU alone runs a kernel faster than the loop enqueues one, the
  // launch queue never fills and the loop's time is the host's.
  const bool host_bound = lo.graph_us < 0.9 * lo.raw.enqueue_us;
  std::printf("%s: launch overhead: the generated host function adds %.3f us per launch to cudaLaunchKernel; %s\n",
              kName, lo.generated.enqueue_us - lo.raw.enqueue_us,
              host_bound ? "the GPU runs these kernels faster than the host enqueues them, so the enqueue times "
                           "are host costs"
                         : "the GPU is not faster than the enqueue loop, so the enqueue times may include waits on "
                           "a full launch queue");
  std::printf("%s: launch overhead: both variants computed C = A + B: %s\n", kName, lo.ok ? "PASS" : "FAIL");
  return {{"calls", lo.calls},
          {"rounds", lo.rounds},
          {"problem", "vector_add on N = 1 (1 block of 256 threads)"},
          {"generated",
           {{"enqueue_us_per_launch", lo.generated.enqueue_us}, {"total_us_per_launch", lo.generated.total_us}}},
          {"raw", {{"enqueue_us_per_launch", lo.raw.enqueue_us}, {"total_us_per_launch", lo.raw.total_us}}},
          {"ratio_enqueue", lo.generated.enqueue_us / lo.raw.enqueue_us},
          {"ratio_total", lo.generated.total_us / lo.raw.total_us},
          {"added_us_per_launch", lo.generated.enqueue_us - lo.raw.enqueue_us},
          {"graph_replay_us_per_kernel", lo.graph_us},
          {"host_bound", host_bound},
          {"status", lo.ok ? "PASS" : "FAIL"}};
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  sample::require_device_or_skip(kName);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int runtime_version = 0, driver_version = 0;
  CHECK(cudaRuntimeGetVersion(&runtime_version));
  CHECK(cudaDriverGetVersion(&driver_version));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  bool ok = true;

  ordered_json out;
  out["tool"] = kName;
  out["device"] = {{"name", prop.name},
                   {"sm", "sm_" + std::to_string(prop.major) + std::to_string(prop.minor)},
                   {"multiprocessors", prop.multiProcessorCount},
                   {"l2_bytes", prop.l2CacheSize},
                   {"cuda_runtime", runtime_version},
                   {"cuda_driver", driver_version}};

  const bench::Cublas cublas(stream);
  std::printf("%s: %s\n", kName, cublas.math_note().c_str());
  out["cublas"] = cublas.math_note();

  std::vector<bench::GemmEntry> entries = bench::gemm_entries();
  if (!opt.only.empty()) {
    std::erase_if(entries, [&](const bench::GemmEntry& e) {
      return std::find(opt.only.begin(), opt.only.end(), e.name) == opt.only.end();
    });
  }
  ordered_json skipped = ordered_json::array();
  for (const bench::GemmEntry& e : entries) {
    if (e.fn) {
      std::printf("%s: %s: %s\n", kName, e.name, e.description);
    } else {
      const std::string why = std::string("not built: samples/") + e.name + "/" + e.name + ".tpy does not exist, so " +
                              e.name + ".h was not generated";
      std::printf("%s: %s skipped (%s)\n", kName, e.name, why.c_str());
      skipped.push_back({{"impl", e.name}, {"reason", why}});
    }
  }
  out["skipped"] = skipped;

  // The row-major-on-column-major mapping and every entry, on small shapes
  // against float64.
  ordered_json checks = ordered_json::array();
  for (const bench::Row& r : bench::check_small_shapes(entries, cublas, stream)) {
    ok &= r.ok;
    checks.push_back(row_json(r));
  }
  out["small_shape_checks"] = checks;

  // The timed shapes. All operands are far larger than the L2, so a rep
  // cannot find them cached from the previous one; no flush is needed.
  double smallest_operands = 1e30;
  for (const bench::Shape& s : kShapes) {
    for (const bench::GemmEntry& e : entries) {
      if (e.fn && s.accepted_by(e)) smallest_operands = std::min(smallest_operands, operand_bytes(s, e));
    }
  }
  const bool fits_l2 = smallest_operands <= prop.l2CacheSize;
  const std::string l2_note =
      "L2 is " + std::to_string(prop.l2CacheSize >> 20) + " MiB; A + B + C of the smallest shape take " +
      std::to_string(static_cast<long long>(smallest_operands / (1 << 20))) + " MiB, " +
      (fits_l2 ? "which FITS: times include warm-cache effects" : "so no cache flush is needed between reps");
  const std::string timing_note =
      opt.timing.interleaved
          ? "median of " + std::to_string(opt.timing.reps * opt.timing.rounds) + " reps after " + std::to_string(opt.timing.warmup) +
                " warm-ups, alternating with cuBLAS call by call (both at the clock their mix gets)"
          : "median of " + std::to_string(opt.timing.rounds) + " blocks of " + std::to_string(opt.timing.reps) +
                " reps, each block after " + std::to_string(opt.timing.settle_ms) +
                " ms of untimed back-to-back calls, alternating with cuBLAS's blocks (each at the clock it sustains alone)";
  std::printf("%s: GEMM C = A * B^T, A (M, K), B (N, K), C (M, N) row-major; %s; cudaEvent timing; %s\n", kName,
              timing_note.c_str(), l2_note.c_str());
  std::printf("%s: vs cuBLAS = the fastest cuBLAS call's time / time (above 1: faster than every cuBLAS call timed: "
              "GemmEx and up to %d cuBLASLt algorithms from cublasLtMatmulAlgoGetHeuristic), all medians taken the same way\n",
              kName, bench::kLtAlgorithms);
  std::printf("  %-16s %-24s %10s %10s %10s  %s\n", "shape (MxNxK)", "implementation", "time (ms)", "TFLOP/s",
              "vs cuBLAS", "check");
  ordered_json gemm = ordered_json::array();
  for (const bench::Shape& s : kShapes) {
    const std::vector<bench::Row> rows = bench::run_shape(s, entries, cublas, opt.timing, stream);
    for (const bench::Row& r : rows) {
      print_row(r);
      ok &= r.ok;
      gemm.push_back(row_json(r));
    }
    // Per precision, the entry to hold against cuBLAS (FP8: gemm_fp8_sm90 or its cluster variant).
    for (const bench::Row& r : rows) {
      if (r.fastest_entry)
        std::printf("  %-16s fastest tileslc: %s at %.3fx the fastest cuBLAS call\n", s.text().c_str(), r.impl.c_str(), r.ratio);
    }
    std::fflush(stdout);
  }
  out["timing"] = {{"mode", opt.timing.interleaved ? "interleaved" : "blocks"},
                   {"settle_ms", opt.timing.settle_ms},
                   {"rounds", opt.timing.rounds},
                   {"warmup", opt.timing.warmup},
                   {"reps", opt.timing.reps},
                   {"statistic", "median of cudaEvent times"},
                   {"l2", l2_note}};
  out["gemm"] = gemm;

  // Host cost per launch.
  const bench::LaunchOverhead lo = bench::measure_launch_overhead(opt.launch_calls, opt.launch_rounds, stream);
  out["launch_overhead"] = report_launch_overhead(lo);
  ok &= lo.ok;

  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  out["ok"] = ok;
  std::ofstream file(opt.json_path);
  file << out.dump(2) << "\n";
  if (!file) {
    std::fprintf(stderr, "%s: cannot write %s\n", kName, opt.json_path.c_str());
    return 1;
  }
  std::printf("%s: wrote %s\n", kName, opt.json_path.c_str());
  std::printf("%s: %s\n", kName, ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}
