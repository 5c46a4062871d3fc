// row_tensor.h: Float32 or BFloat16 row-major tensors for the drivers of the
// row kernels (rmsnorm, layernorm): device storage plus a host copy of the
// values as the device holds them (rounded to the element type), random
// non-zero fills, NaN poisoning with guard elements after the tensor, and
// the bytes a run moves. Header-only, on top of sample_util.h.
#ifndef TILESLC_SAMPLES_ROW_TENSOR_H
#define TILESLC_SAMPLES_ROW_TENSOR_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "sample_util.h"

namespace sample {

// The element types of the row kernels: Float32 or BFloat16 (bf16 stored as its 16 bits).
struct RowType {
  tileslc::DType dtype;
  size_t bytes;
  const char* name;  // "fp32" or "bf16", as the host functions are named
};
inline constexpr RowType kRowFp32{tileslc::DType::Float32, 4, "fp32"};
inline constexpr RowType kRowBf16{tileslc::DType::BFloat16, 2, "bf16"};

// A row-major (rows, cols) tensor of `type` on the device, `guard` more
// elements after it, and the host copy of the values (decoded to float).
class RowTensor {
 public:
  RowTensor(const RowType& type, int64_t rows, int64_t cols, int64_t guard = 0)
      : type_(type), rows_(rows), cols_(cols), guard_(guard), values_((rows * cols + guard)) {
    CHECK_OK(buffer_.allocate((rows * cols + guard) * type.bytes));
  }

  // Every element random with |v| in [lo, hi) (lo > 0: never zero) and a random sign,
  // rounded to the element type, then uploaded; the guard is poisoned. Blocks of kFillBlock
  // elements each draw from their own generator, seeded by one draw of `rng` and the block's
  // index: the same values on any number of threads (parallel_ranges).
  void fill_nonzero(Rng& rng, float lo, float hi) {
    const uint32_t seed = rng.next();
    const int64_t n = rows_ * cols_;
    parallel_ranges((n + kFillBlock - 1) / kFillBlock, kParallelBlocks, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        Rng block(seed, static_cast<uint64_t>(b));
        for (int64_t i = b * kFillBlock; i < std::min(n, (b + 1) * kFillBlock); ++i) {
          const float v = block.uniform(lo, hi);
          values_[i] = round(block.uniform(0.0f, 1.0f) < 0.5f ? -v : v);
        }
      }
    });
    upload();
    if (guard_) poison_range(rows_ * cols_, guard_);
  }
  // Sets element i (host copy only, rounded to the type); call upload() after.
  void set(int64_t i, float v) { values_[i] = round(v); }
  void upload() {
    std::vector<uint8_t> bytes = encode();
    CHECK_OK(buffer_.copy_from_host(bytes.data(), rows_ * cols_ * type_.bytes));
  }
  // Every element and the guard NaN (0xFF bytes are NaN in both types).
  void poison_all() { poison(buffer_.data(), buffer_.size()); }
  // Copies the device storage back (guard included) into the host copy.
  void download() {
    raw_.resize(buffer_.size());
    CHECK_OK(buffer_.copy_to_host(raw_.data(), raw_.size()));
    parallel_ranges(static_cast<int64_t>(values_.size()), kParallelElements, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) values_[i] = decode(raw_.data() + i * type_.bytes);
    });
  }
  // Guard elements no longer holding the poison (after download()): writes past the end.
  int64_t written_past_end() const {
    int64_t n = 0;
    for (int64_t i = rows_ * cols_; i < rows_ * cols_ + guard_; ++i) {
      for (size_t b = 0; b < type_.bytes; ++b) n += raw_[i * type_.bytes + b] != 0xFF ? 1 : 0;
    }
    return n;
  }

  float at(int64_t r, int64_t c) const { return values_[r * cols_ + c]; }
  const float* row(int64_t r) const { return values_.data() + r * cols_; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  size_t bytes() const { return static_cast<size_t>(rows_ * cols_) * type_.bytes; }
  // (rows, cols), or (cols,) for a 1-row tensor viewed as a vector.
  tileslc::TensorView view() const { return tileslc::make_tensor_view(buffer_.data(), type_.dtype, {rows_, cols_}); }
  tileslc::TensorView vector_view() const { return tileslc::make_tensor_view(buffer_.data(), type_.dtype, {cols_}); }

 private:
  static constexpr int64_t kFillBlock = 1 << 16;            // elements per generator of fill_nonzero
  static constexpr int64_t kParallelBlocks = 16;            // fill blocks from which threads pay off
  static constexpr int64_t kParallelElements = int64_t{1} << 20;  // elements, likewise
  float round(float v) const { return type_.bytes == 2 ? bf16_to_float(float_to_bf16(v)) : v; }
  float decode(const uint8_t* p) const {
    if (type_.bytes == 2) {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return bf16_to_float(b);
    }
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  std::vector<uint8_t> encode() const {
    std::vector<uint8_t> bytes(rows_ * cols_ * type_.bytes);
    parallel_ranges(rows_ * cols_, kParallelElements, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        if (type_.bytes == 2) {
          const uint16_t b = float_to_bf16(values_[i]);
          std::memcpy(&bytes[i * 2], &b, 2);
        } else {
          std::memcpy(&bytes[i * 4], &values_[i], 4);
        }
      }
    });
    return bytes;
  }
  void poison_range(int64_t first, int64_t count) {
    CHECK(cudaMemset(static_cast<uint8_t*>(buffer_.data()) + first * type_.bytes, 0xFF, count * type_.bytes));
  }

  RowType type_;
  int64_t rows_, cols_, guard_;
  std::vector<float> values_;
  std::vector<uint8_t> raw_;
  tileslc::DeviceBuffer buffer_;
};

// "16384x8192 bf16"
inline std::string row_case_name(int64_t rows, int64_t cols, const RowType& type) {
  return std::to_string(rows) + "x" + std::to_string(cols) + " " + type.name;
}

// One shape a row-kernel driver runs: its type, rows and columns, and whether it is timed.
struct RowCase {
  const RowType* type;
  int64_t rows, cols;
  bool timed;
};

// The shapes the row-kernel drivers (softmax, rmsnorm, layernorm) run, each where the sample has
// an instance for (type, cols): one row alone (1x4096), every plan of tileslc.utils.row_tiling in
// both types (a warp per row with a partial CTA, 37x256, and with guarded vectors, COLS 1000; a
// CTA per row, 3000 (guarded), 4096 and 8192; 16384 (softmax's BFloat16 two-block staged cluster,
// the RMSNorm backward's two- and four-block clusters with stage_dw); rows walked in chunks, with guarded vectors at 20000 and without at
// 262144), with 3 or more rows so that a driver's special rows 0 and 1 leave random ones; 100x256
// (the RMSNorm backward's 100 row slots: more than its column sum's 32 groups); without
// --small (small = false) also 100000x256 and the timed shapes of issue 17's table, 16384x8192
// and 512x262144 (and 16384x4096).
inline std::vector<RowCase> row_cases(bool small) {
  std::vector<RowCase> cases = {
      {&kRowFp32, 1, 4096, false},  {&kRowFp32, 37, 256, false},    {&kRowFp32, 9, 1000, false},
      {&kRowFp32, 5, 3000, false},    {&kRowFp32, 100, 256, false},
      {&kRowFp32, 3, 4096, false},  {&kRowFp32, 5, 8192, false},    {&kRowFp32, 3, 20000, false},
      {&kRowFp32, 3, 16384, false},  {&kRowBf16, 3, 16384, false},
      {&kRowFp32, 3, 262144, false}, {&kRowBf16, 11, 1000, false},  {&kRowBf16, 3, 8192, false},
      {&kRowBf16, 3, 262144, false},
  };
  if (!small) {
    const std::vector<RowCase> large = {
        {&kRowFp32, 100000, 256, false}, {&kRowFp32, 16384, 4096, true}, {&kRowFp32, 16384, 8192, true},
        {&kRowBf16, 16384, 8192, true},  {&kRowFp32, 512, 262144, true}, {&kRowBf16, 512, 262144, true},
    };
    cases.insert(cases.end(), large.begin(), large.end());
  }
  return cases;
}

// The main() of a row-kernel driver: parses --small, then (with a device) runs
// run_case(f, type, rows, cols, timed, rng, stream) for each of row_cases(small)
// that the sample has an instance f for (instance(type, cols) not nullptr),
// then validate(stream); prints "NAME: all checks passed" or "NAME: FAILED"
// and returns the exit status (0, 1, or 77 without a device).
template <class Fn, class Run, class Validate>
int row_sample_main(const char* sample_name, int argc, char** argv, Fn (*instance)(const RowType&, int64_t),
                    Run&& run_case, Validate&& validate) {
  const bool small = parse_small_flag(argc, argv, "skip the large cases and their bandwidth tables");
  return run_sample(sample_name, [&](Rng& rng, cudaStream_t stream) {
    bool ok = true;
    for (const RowCase& c : row_cases(small)) {
      if (Fn f = instance(*c.type, c.cols)) ok &= run_case(f, *c.type, c.rows, c.cols, c.timed, rng, stream);
    }
    ok &= validate(stream);
    return ok;
  });
}

// Tolerance on max |y - ref| / max |ref| of a row kernel: Float32 arithmetic
// over a row of up to 262144 values is within a few 1e-6 (the reduction's
// rounding grows like sqrt(COLS) * 2^-24 with random signs); a BFloat16 output
// is rounded to 8 significant bits: half a unit in the last place of the
// largest output is up to 2^-8 (3.9e-3) of max |ref| when max |ref| lies just
// above a power of two, and a wrong value (a missed weight, a wrong mean) is
// far above 6e-3.
inline double row_tolerance(const RowType& type) { return type.bytes == 2 ? 6e-3 : 2e-5; }

// Downloads y (a poisoned output with a guard) and compares it with a float64
// reference: ref(r, out) writes row r's cols expected values into out. Each
// row's error is max |y - ref| / max(max |ref|, scale(r)) over that row (so a
// row of large values does not loosen the check of the others; scale(r) is the
// size of row r's values where the reference alone understates it, e.g. a
// gradient that cancels to near 0); prints one PASS/FAIL line with the worst
// row against row_tolerance, and fails on any unwritten output and any write
// past the end of y.
template <class Ref, class Scale>
bool check_rows_scaled(const char* sample_name, const RowType& type, RowTensor& y, Ref&& ref, Scale&& scale) {
  y.download();
  // Rows in blocks of about 2^20 elements, on several threads when there are several blocks (ref
  // and scale only read); each block's worst row (the first of the largest error), then the
  // blocks' in order: the result of one pass over the rows.
  struct Worst {
    ErrorStats e;
    int64_t unwritten = 0;
  };
  const int64_t block_rows = std::max<int64_t>(1, (int64_t{1} << 20) / std::max<int64_t>(1, y.cols()));
  std::vector<Worst> worst((y.rows() + block_rows - 1) / block_rows);
  parallel_ranges(static_cast<int64_t>(worst.size()), 2, [&](int64_t first, int64_t last) {
    std::vector<double> expected(y.cols());
    for (int64_t b = first; b < last; ++b) {
      for (int64_t r = b * block_rows; r < std::min(y.rows(), (b + 1) * block_rows); ++r) {
        ref(r, expected.data());
        ErrorStats row;
        for (int64_t c = 0; c < y.cols(); ++c) row.add(y.at(r, c), expected[c]);
        row.max_abs_ref = std::max(row.max_abs_ref, static_cast<double>(scale(r)));
        worst[b].unwritten += row.unwritten;
        if (r == b * block_rows || row.relative_error() > worst[b].e.relative_error()) worst[b].e = row;
      }
    }
  });
  ErrorStats e;
  int64_t unwritten = 0;
  for (size_t b = 0; b < worst.size(); ++b) {
    unwritten += worst[b].unwritten;
    if (b == 0 || worst[b].e.relative_error() > e.relative_error()) e = worst[b].e;
  }
  e.unwritten = unwritten;
  const std::string what = row_case_name(y.rows(), y.cols(), type);
  bool ok = report(sample_name, what, e, row_tolerance(type));
  if (int64_t stray = y.written_past_end()) {
    std::printf("%s: %s FAIL: %lld bytes written past the end of y\n", sample_name, what.c_str(), (long long)stray);
    ok = false;
  }
  return ok;
}

// check_rows_scaled with each row's error relative to its own largest reference value.
template <class Ref>
bool check_rows(const char* sample_name, const RowType& type, RowTensor& y, Ref&& ref) {
  return check_rows_scaled(sample_name, type, y, ref, [](int64_t) { return 0.0; });
}

}  // namespace sample

#endif  // TILESLC_SAMPLES_ROW_TENSOR_H
