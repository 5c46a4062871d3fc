// sample_util.h: the small toolbox the sample drivers share: CHECK for CUDA
// calls, the "no GPU: skip with 77" rule, a fixed-seed RNG, host-side bf16
// conversion, relative error against a float64 reference, NaN poisoning,
// cudaEvent timing (median of many reps) next to a device-to-device copy of
// the same traffic, and strided Float32 matrices in device memory kept with a
// host copy (for drivers whose views have padding or a guard to check).
// Header-only, light includes.
#ifndef TILESLC_SAMPLES_SAMPLE_UTIL_H
#define TILESLC_SAMPLES_SAMPLE_UTIL_H

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "tileslc/runtime.h"

namespace sample {

// Exit code for "built, but could not run" (ctest SKIP_RETURN_CODE).
inline constexpr int kSkipExitCode = 77;

// Aborts with file:line and the CUDA error string when a CUDA call fails.
#define CHECK(call)                                                                             \
  do {                                                                                          \
    cudaError_t check_err_ = (call);                                                            \
    if (check_err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                 \
                   cudaGetErrorString(check_err_));                                             \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// Aborts with file:line and the message when a tileslc::Status is an error.
#define CHECK_OK(expr)                                                                          \
  do {                                                                                          \
    ::tileslc::Status check_status_ = (expr);                                                   \
    if (!check_status_.ok()) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,                 \
                   check_status_.message().c_str());                                            \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// Exits with kSkipExitCode, printing why, when no CUDA device can be used.
inline void require_device_or_skip(const char* sample_name) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("%s: built, but no CUDA device is present: not run (%s)\n", sample_name,
                err != cudaSuccess ? cudaGetErrorString(err) : "cudaGetDeviceCount returned 0");
    std::exit(kSkipExitCode);
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s: device 0: %s (sm_%d%d)\n", sample_name, prop.name, prop.major, prop.minor);
}

// Exits with kSkipExitCode, printing why, unless device 0 has compute
// capability `major`.x (arch-specific code such as sm_90a runs on that major
// version only). Call after require_device_or_skip.
inline void require_compute_capability_or_skip(const char* name, int major, const char* what) {
  int found = 0;
  CHECK(cudaDeviceGetAttribute(&found, cudaDevAttrComputeCapabilityMajor, 0));
  if (found != major) {
    std::printf("%s: skipped: needs a compute capability %d.0 GPU (%s), found %d.x\n", name, major, what, found);
    std::exit(kSkipExitCode);
  }
}

// Calls fn(begin, end) on contiguous ranges that cover [0, n) once: in the caller when n <
// min_parallel, else on up to std::thread::hardware_concurrency() threads at once, one range
// each. fn must not write what another range reads. For the host side of the 1 GiB bench
// tensors (random fills, float64 references, checks), which one core takes tens of seconds for.
template <class F>
void parallel_ranges(int64_t n, int64_t min_parallel, F&& fn) {
  const int64_t threads = std::min<int64_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  if (n < min_parallel || threads <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  for (int64_t i = 0; i < threads; ++i) pool.emplace_back([&, i] { fn(n * i / threads, n * (i + 1) / threads); });
  for (std::thread& t : pool) t.join();
}

// Fixed-seed uniform floats; the same sequence on every run.
class Rng {
 public:
  explicit Rng(uint32_t seed = 20240611u) : gen_(seed) {}
  // The generator of block `block` of a stream seeded by `seed`: independent of the other blocks,
  // so that blocks are filled in any order, on any thread, with the same values.
  Rng(uint32_t seed, uint64_t block) {
    std::seed_seq seq{seed, static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32)};
    gen_.seed(seq);
  }
  // The next 32 random bits (a seed for Rng(seed, block)).
  uint32_t next() { return gen_(); }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  // Fills `v` with uniform values in [lo, hi).
  void fill(std::vector<float>& v, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    for (float& x : v) x = dist(gen_);
  }

 private:
  std::mt19937 gen_;
};

// float -> bfloat16 bits, round to nearest even (NaN stays NaN).
inline uint16_t float_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

// bfloat16 bits -> float (exact).
inline float bf16_to_float(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Accumulates max |out - ref| and max |ref| over the elements of one run, and
// counts outputs still NaN (never written, since outputs are NaN-poisoned).
struct ErrorStats {
  double max_abs_err = 0.0;
  double max_abs_ref = 0.0;
  int64_t unwritten = 0;
  int64_t count = 0;

  void add(double out, double ref) {
    ++count;
    if (std::isnan(out)) {
      ++unwritten;
      return;
    }
    max_abs_err = std::max(max_abs_err, std::fabs(out - ref));
    max_abs_ref = std::max(max_abs_ref, std::fabs(ref));
  }
  // max |out - ref| / max(max |ref|, tiny).
  double relative_error() const { return max_abs_err / std::max(max_abs_ref, 1e-30); }
  bool passed(double tolerance) const { return unwritten == 0 && relative_error() <= tolerance; }
};

// Prints one PASS/FAIL line for a run and returns whether it passed.
inline bool report(const char* sample_name, const std::string& what, const ErrorStats& e, double tolerance) {
  const bool ok = e.passed(tolerance);
  std::printf("%s: %-40s %s  rel_err %.3e (tol %.0e)", sample_name, what.c_str(), ok ? "PASS" : "FAIL",
              e.relative_error(), tolerance);
  if (e.unwritten) std::printf(", %lld of %lld outputs never written", (long long)e.unwritten, (long long)e.count);
  std::printf("\n");
  return ok;
}

// Fills `bytes` bytes of device memory with 0xFF (NaN for every float type).
inline void poison(void* p, size_t bytes) { CHECK(cudaMemset(p, 0xFF, bytes)); }

// cudaEvent times of calls, collected per function: record() times one call
// of `f`, medians() gives each function's median in milliseconds.
class EventTimes {
 public:
  explicit EventTimes(size_t functions) : times_(functions) {
    CHECK(cudaEventCreate(&start_));
    CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimes() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimes(const EventTimes&) = delete;
  EventTimes& operator=(const EventTimes&) = delete;

  template <class F>
  void record(size_t j, const F& f, cudaStream_t stream) {
    CHECK(cudaEventRecord(start_, stream));
    f();
    CHECK(cudaEventRecord(stop_, stream));
    CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    times_[j].push_back(ms);
  }
  std::vector<double> medians() {
    std::vector<double> out;
    for (auto& t : times_) {
      std::sort(t.begin(), t.end());
      out.push_back(t[t.size() / 2]);
    }
    return out;
  }

 private:
  cudaEvent_t start_, stop_;
  std::vector<std::vector<float>> times_;
};

// Times each of `fs` (each enqueues work on `stream`) in its own steady state:
// `rounds` rounds, in each of which every f in turn first runs back to back,
// untimed, for at least `settle_ms` of wall time, then `reps` times between
// cudaEvents; returns each one's median over its rounds * reps times, in
// milliseconds. A GPU at its board power limit sets its clock from the power
// of the work it runs, within about 100 ms: settling first measures each f at
// the clock it gets when it runs alone, as it would in a program that calls it
// many times, and alternating the blocks lets drift (heat) weigh on all alike.
// (interleaved_median_ms, by contrast, measures every f at the clock the mix of
// all of them gets.)
template <class F>
std::vector<double> block_median_ms(const std::vector<F>& fs, cudaStream_t stream, double settle_ms, int reps, int rounds) {
  EventTimes times(fs.size());
  for (int round = 0; round < rounds; ++round) {
    for (size_t j = 0; j < fs.size(); ++j) {
      const auto t0 = std::chrono::steady_clock::now();
      do {
        for (int i = 0; i < 4; ++i) fs[j]();
        CHECK(cudaStreamSynchronize(stream));
      } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < settle_ms);
      for (int i = 0; i < reps; ++i) times.record(j, fs[j], stream);
    }
  }
  return times.medians();
}

// Runs each of `fs` (each enqueues work on `stream`) `warmup` times, then
// `reps` rounds in which each runs once between cudaEvents, in turn; returns
// each one's median time in milliseconds. Alternating rep by rep lets clock
// and power drift during the run weigh on all of them alike, so the ratio of
// two medians compares like with like.
template <class F>
std::vector<double> interleaved_median_ms(const std::vector<F>& fs, cudaStream_t stream, int warmup, int reps) {
  EventTimes times(fs.size());
  for (int i = 0; i < warmup; ++i)
    for (const F& f : fs) f();
  CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < reps; ++i)
    for (size_t j = 0; j < fs.size(); ++j) times.record(j, fs[j], stream);
  return times.medians();
}

// Runs `f` (which enqueues work on `stream`) `warmup` times, then `reps` times
// between cudaEvents; returns the median time in milliseconds.
template <class F>
double median_ms(F&& f, cudaStream_t stream, int warmup = 3, int reps = 25) {
  return interleaved_median_ms(std::vector<std::decay_t<F>>{f}, stream, warmup, reps)[0];
}

// Times the kernel launched by `f`, which reads plus writes `bytes_moved`
// bytes, against cudaMemcpyAsync device-to-device copies moving the same
// number of bytes (bytes_moved / 2 read plus bytes_moved / 2 written), and
// prints a table. Returns the kernel/copy bandwidth ratio.
template <class F>
double bandwidth_table(const char* sample_name, const std::string& what, size_t bytes_moved, F&& f,
                       cudaStream_t stream) {
  const size_t copy_bytes = bytes_moved / 2;
  tileslc::DeviceBuffer src, dst;
  CHECK_OK(src.allocate(copy_bytes));
  CHECK_OK(dst.allocate(copy_bytes));
  CHECK(cudaMemset(src.data(), 0, copy_bytes));
  const double kernel_ms = median_ms(f, stream);
  const double copy_ms = median_ms(
      [&] { CHECK(cudaMemcpyAsync(dst.data(), src.data(), copy_bytes, cudaMemcpyDeviceToDevice, stream)); }, stream);
  const double kernel_gbs = bytes_moved / (kernel_ms * 1e-3) / 1e9;
  const double copy_gbs = 2.0 * copy_bytes / (copy_ms * 1e-3) / 1e9;
  const double ratio = kernel_gbs / copy_gbs;
  std::printf("%s: bandwidth, %s, %.1f MB moved (read + written), median of 25 reps\n", sample_name, what.c_str(),
              bytes_moved / 1e6);
  std::printf("  %-28s %10s %10s\n", "", "time (us)", "GB/s");
  std::printf("  %-28s %10.1f %10.1f\n", "kernel", kernel_ms * 1e3, kernel_gbs);
  std::printf("  %-28s %10.1f %10.1f\n", "cudaMemcpyAsync D2D", copy_ms * 1e3, copy_gbs);
  std::printf("  %-28s %21.3f\n", "ratio kernel / copy", ratio);
  return ratio;
}

// Number of floats in [p, p + n) that no longer hold the poison bit pattern
// 0xFFFFFFFF, i.e. were written although they lie outside the output view.
inline int64_t count_unpoisoned(const float* p, int64_t n) {
  int64_t changed = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, p + i, 4);
    changed += u != 0xFFFFFFFFu;
  }
  return changed;
}

// An (M, N) view of a buffer: element (m, n) lives at m * s0 + n * s1
// (strides in elements, non-negative).
struct Matrix2D {
  int64_t M, N, s0, s1;

  // Row-major with a row pitch of `ld` elements (N when 0).
  static Matrix2D row_major(int64_t M, int64_t N, int64_t ld = 0) { return {M, N, ld ? ld : N, 1}; }
  // Column-major and compact: the transposed view of an (N, M) row-major matrix.
  static Matrix2D col_major(int64_t M, int64_t N) { return {M, N, 1, M}; }

  // Storage elements from (0, 0) to (M - 1, N - 1) inclusive; 0 for an empty view.
  int64_t span() const { return (M == 0 || N == 0) ? 0 : (M - 1) * s0 + (N - 1) * s1 + 1; }
  int64_t at(int64_t m, int64_t n) const { return m * s0 + n * s1; }
  bool compact_row_major() const { return s0 == N && s1 == 1; }
  // "37x1000"
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N); }
  // "stride (1000, 1)"
  std::string strides() const { return "stride (" + std::to_string(s0) + ", " + std::to_string(s1) + ")"; }
};

// A Float32 matrix in device memory together with a host copy of all of its
// storage: the view's span plus `guard` elements after it. Storage outside the
// view (row padding, the guard) is there to catch stray writes.
class DeviceMatrix {
 public:
  // Every storage element (padding included) uniform in [lo, hi), uploaded.
  static DeviceMatrix random(const Matrix2D& layout, float lo, float hi, Rng& rng) {
    DeviceMatrix d(layout, 0);
    rng.fill(d.host_, lo, hi);
    CHECK_OK(d.buffer_.copy_from_host(d.host_.data(), d.buffer_.size()));
    return d;
  }
  // An output: storage plus `guard` elements, all poisoned with NaN.
  static DeviceMatrix poisoned(const Matrix2D& layout, int64_t guard) {
    DeviceMatrix d(layout, guard);
    poison(d.buffer_.data(), d.buffer_.size());
    return d;
  }

  const Matrix2D& layout() const { return layout_; }
  tileslc::TensorView view() const {
    return tileslc::make_tensor_view(buffer_.data(), tileslc::DType::Float32, {layout_.M, layout_.N},
                                     {layout_.s0, layout_.s1});
  }
  // Element (m, n) of the host copy.
  float at(int64_t m, int64_t n) const { return host_[layout_.at(m, n)]; }
  // Copies the device storage (guard included) back into the host copy.
  void download() { CHECK_OK(buffer_.copy_to_host(host_.data(), buffer_.size())); }
  // Storage elements outside the view that no longer hold the poison (call
  // after download() on a poisoned() matrix): writes that missed the view.
  int64_t written_outside_view() const {
    std::vector<char> in_view(host_.size(), 0);
    for (int64_t m = 0; m < layout_.M; ++m) {
      for (int64_t n = 0; n < layout_.N; ++n) in_view[layout_.at(m, n)] = 1;
    }
    int64_t stray = 0;
    for (size_t i = 0; i < host_.size(); ++i) {
      if (!in_view[i]) stray += count_unpoisoned(&host_[i], 1);
    }
    return stray;
  }

 private:
  DeviceMatrix(const Matrix2D& layout, int64_t guard) : layout_(layout), host_(layout.span() + guard) {
    CHECK_OK(buffer_.allocate(host_.size() * sizeof(float)));
  }

  Matrix2D layout_;
  std::vector<float> host_;
  tileslc::DeviceBuffer buffer_;
};

// The body of a sample's main(): exits with kSkipExitCode without a device,
// else runs `cases(rng, stream)` (which returns whether all checks passed) on
// a fresh stream with a fixed-seed Rng, synchronizes it, prints "NAME: all checks passed" or
// "NAME: FAILED", and returns the exit status (0 or 1).
template <class F>
int run_sample(const char* sample_name, F&& cases) {
  require_device_or_skip(sample_name);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  Rng rng;
  const bool ok = cases(rng, stream);
  CHECK(cudaStreamSynchronize(stream));  // a late error of anything the cases enqueued
  CHECK(cudaStreamDestroy(stream));
  std::printf("%s: %s\n", sample_name, ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}

// The C-ABI twin of a view (same layout; see tileslc/runtime.h).
inline tileslc_tensor_view to_c_view(const tileslc::TensorView& t) {
  tileslc_tensor_view c;
  std::memcpy(&c, &t, sizeof c);
  return c;
}

// The Status behind a C ABI return code: ok for 0, else tileslc_last_error()'s message.
inline tileslc::Status c_abi_status(int rc) {
  return rc == 0 ? tileslc::Status() : tileslc::Status::error(tileslc_last_error());
}

// Checks that a host call rejected bad arguments with a message naming `param`.
inline bool expect_rejected(const char* sample_name, const char* what, const tileslc::Status& s, const char* param) {
  const bool ok = !s.ok() && s.message().find(param) != std::string::npos;
  std::printf("%s: validation, %-28s %s  \"%s\"\n", sample_name, what, ok ? "PASS" : "FAIL",
              s.ok() ? "(accepted: expected an error)" : s.message().c_str());
  return ok;
}

// Tolerance on max |C - ref| / max |ref| for BFloat16 inputs accumulated in
// Float32 on tensor cores (gemm_sm80, splitk, gemm_sm90), the reference
// computed in float64 from the BFloat16 inputs (so rounding the inputs to
// BFloat16 is no error):
// - a BFloat16 has an 8-bit significand, so each product a * b has at most 16
//   significant bits and is exact in Float32: as in sgemm, the only error is
//   the Float32 accumulation of K terms per entry (u = 2^-24, inputs in
//   [-1, 1), max |ref| about 1.5 * sqrt(K));
// - mma.sync m16n8k16 adds 16 products and the accumulator per instruction;
//   how the tensor core aligns and rounds that sum is not IEEE round-to-nearest
//   (published measurements of Volta to Ampere tensor cores report
//   truncation), so count a whole unit 2^-23 of the running sum lost per
//   instruction, always with the same sign: K / 16 * 2^-23, a ratio of 3e-5
//   at K = 4096 (random signs give far less).
// 1e-5 * sqrt(K) (6.4e-4 at K = 4096, 8e-5 at K = 64) is 20 times that
// coherent worst case at K = 4096 and more below it. A real bug is far above:
// one k-tile of 64 dropped or added twice moves entries by a 64-term sum, a
// ratio near sqrt(64 / K) (0.125 at K = 4096); a misplaced fragment element
// gives errors of order 1.
inline double tensor_core_tolerance(int64_t K) { return 1e-5 * std::sqrt(static_cast<double>(K)); }

// ---- BFloat16 matrices (gemm_sm80, gemm_sm90)

// A row-major (rows, cols) BFloat16 matrix in device memory, rows `ld` >=
// cols elements apart (compact when ld == cols), with the values kept on the
// host as floats (each exactly a BFloat16), and `guard` elements after it.
// The padding of each row (columns cols to ld - 1) and the guard hold NaN
// (0xFFFF): an input's padding must never be read (a GEMM that reads it
// turns entries into NaN), an output's must stay untouched.
class Bf16Matrix {
 public:
  // Uniform in [lo, hi), rounded to nearest-even BFloat16, uploaded.
  static Bf16Matrix random(int64_t rows, int64_t cols, float lo, float hi, Rng& rng, int64_t ld = 0) {
    Bf16Matrix m(rows, cols, 0, ld);
    std::vector<float> raw(rows * cols);
    rng.fill(raw, lo, hi);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const size_t i = static_cast<size_t>(r * m.ld_ + c);
        m.bits_[i] = float_to_bf16(raw[r * cols + c]);
        m.values_[i] = bf16_to_float(m.bits_[i]);
      }
    CHECK_OK(m.buffer_.copy_from_host(m.bits_.data(), m.buffer_.size()));
    return m;
  }
  // An output: every element, the padding and the guard poisoned (0xFFFF, a BFloat16 NaN).
  static Bf16Matrix poisoned(int64_t rows, int64_t cols, int64_t guard, int64_t ld = 0) {
    Bf16Matrix m(rows, cols, guard, ld);
    poison(m.buffer_.data(), m.buffer_.size());
    return m;
  }

  tileslc::TensorView view() const {
    return tileslc::make_tensor_view(buffer_.data(), tileslc::DType::BFloat16, {rows_, cols_}, {ld_, 1});
  }
  int64_t cols() const { return cols_; }
  // Row r as floats (cols() of them).
  const float* row(int64_t r) const { return &values_[r * ld_]; }
  float at(int64_t m, int64_t n) const { return values_[m * ld_ + n]; }
  // The device storage's bits (padding and guard included), after download().
  const std::vector<uint16_t>& bits() const { return bits_; }
  // Copies the device storage (padding and guard included) back into the host copy.
  void download() {
    CHECK_OK(buffer_.copy_to_host(bits_.data(), buffer_.size()));
    for (size_t i = 0; i < bits_.size(); ++i) values_[i] = bf16_to_float(bits_[i]);
  }
  // Padding and guard elements that no longer hold the poison (after download()).
  int64_t written_outside_view() const {
    int64_t stray = 0;
    for (size_t i = 0; i < bits_.size(); ++i) {
      const int64_t r = static_cast<int64_t>(i) / ld_, c = static_cast<int64_t>(i) % ld_;
      const bool inside = r < rows_ && c < cols_;
      stray += !inside && bits_[i] != 0xFFFFu;
    }
    return stray;
  }

 private:
  Bf16Matrix(int64_t rows, int64_t cols, int64_t guard, int64_t ld)
      : rows_(rows), cols_(cols), ld_(ld > 0 ? ld : cols), bits_(rows * ld_ + guard, 0xFFFFu), values_(bits_.size()) {
    CHECK_OK(buffer_.allocate(bits_.size() * sizeof(uint16_t)));
  }

  int64_t rows_ = 0, cols_ = 0, ld_ = 0;
  std::vector<uint16_t> bits_;
  std::vector<float> values_;
  tileslc::DeviceBuffer buffer_;
};

// sum_k A[m, k] * B[n, k] in float64 (each product of BFloat16 values is exact).
inline double reference_abt(const Bf16Matrix& A, const Bf16Matrix& B, int64_t m, int64_t n) {
  const int64_t K = A.cols();
  const float* a = A.row(m);
  const float* b = B.row(n);
  double sum = 0.0;
  for (int64_t k = 0; k < K; ++k) sum += static_cast<double>(a[k]) * b[k];
  return sum;
}

// ---- GEMM drivers (sgemm, gemm_sm80) and the --small option

inline std::string gemm_shape_text(int64_t M, int64_t N, int64_t K) {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

// Checks a GEMM's (M, N) output C against ref(m, n) (float64): every entry when
// `sampled` is 0, else `sampled` random entries plus a scan of all of C for
// entries never written (still NaN); and that nothing past C's view changed.
// C is a DeviceMatrix or a Bf16Matrix (anything with at(m, n) as float and
// written_outside_view()).
template <class CMatrix, class Ref>
bool check_gemm(const char* sample_name, int64_t M, int64_t N, int64_t K, int64_t sampled, const CMatrix& C,
                Ref&& ref, double tolerance) {
  ErrorStats e;
  std::string what = gemm_shape_text(M, N, K);
  bool ok = true;
  if (sampled == 0) {
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) e.add(C.at(m, n), ref(m, n));
    }
  } else {
    what += ", " + std::to_string(sampled) + " sampled entries";
    std::mt19937_64 pick(M * 31 + N * 7 + K);
    for (int64_t i = 0; i < sampled; ++i) {
      const int64_t m = static_cast<int64_t>(pick() % M), n = static_cast<int64_t>(pick() % N);
      e.add(C.at(m, n), ref(m, n));
    }
    int64_t unwritten = 0;  // the sample sees few entries: look for NaN in all of them
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) unwritten += std::isnan(C.at(m, n));
    }
    if (unwritten) {
      std::printf("%s: %s FAIL: %lld of %lld entries of C never written\n", sample_name, what.c_str(),
                  (long long)unwritten, (long long)(M * N));
      ok = false;
    }
  }
  ok &= report(sample_name, what, e, tolerance);
  if (int64_t stray = C.written_outside_view()) {
    std::printf("%s: %s FAIL: %lld elements written past the end of C\n", sample_name, what.c_str(), (long long)stray);
    ok = false;
  }
  return ok;
}

// The GPU test drivers' exact check (tests/gpu: stmatrix, wgmma_epilogue, tma_roundtrip): downloads
// `out` (a DeviceMatrix or Bf16Matrix, poisoned before the launch), counts its entries (m, n)
// within rows x cols where differs(m, n) is true (a wrong value, bits, or poison left) and its
// elements written past the view, prints "<test>: <what>: W wrong, S stray writes  PASS|FAIL" and
// returns whether both counts are 0. differs(m, n) may read out.at(m, n) and out.bits().
template <class Out, class Differs>
bool check_exact(const char* test, const std::string& what, Out& out, int64_t rows, int64_t cols, Differs&& differs) {
  out.download();
  int64_t wrong = 0;
  for (int64_t m = 0; m < rows; ++m)
    for (int64_t n = 0; n < cols; ++n) wrong += differs(m, n) ? 1 : 0;
  const int64_t stray = out.written_outside_view();
  const bool pass = wrong == 0 && stray == 0;
  std::printf("%s: %s: %lld wrong, %lld stray writes  %s\n", test, what.c_str(), (long long)wrong, (long long)stray,
              pass ? "PASS" : "FAIL");
  return pass;
}

// Times the GEMM launched by `f` (median of `reps` after `warmup`) and prints
// time and TFLOP/s, and whether A + B + C (`operand_bytes`) fit in L2.
template <class F>
void gemm_timing(const char* sample_name, int64_t M, int64_t N, int64_t K, int64_t operand_bytes, F&& f,
                 cudaStream_t stream, int warmup, int reps) {
  const double ms = median_ms(f, stream, warmup, reps);
  const double tflops = 2.0 * M * N * K / (ms * 1e-3) / 1e12;
  int l2_bytes = 0;
  CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
  std::printf("%s: %s: %.3f ms, %.2f TFLOP/s (median of %d reps after %d warm-ups; A + B + C = %lld MiB, L2 = "
              "%d MiB: %s)\n",
              sample_name, gemm_shape_text(M, N, K).c_str(), ms, tflops, reps, warmup, (long long)(operand_bytes >> 20),
              l2_bytes >> 20, operand_bytes > l2_bytes ? "no cache flush needed between reps" : "operands fit, warm-cache timing");
}

// The drivers' one option: --small (which skips what `skipped` says). Exits 2
// with a usage line on anything else.
inline bool parse_small_flag(int argc, char** argv, const char* skipped) {
  bool small = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      small = true;
    } else {
      std::fprintf(stderr, "usage: %s [--small]\n  --small  %s\n", argv[0], skipped);
      std::exit(2);
    }
  }
  return small;
}

}  // namespace sample

#endif  // TILESLC_SAMPLES_SAMPLE_UTIL_H
