// bench_data.h: the bench's operands and the checks on its outputs. An input
// element is a pure function of (seed, index), computed by a kernel on the
// device and by the same inline function on the host, so the host can compute
// a float64 reference for any entry of C without copying inputs back. Outputs
// of two implementations are compared on the device (max |diff|, max |ref|,
// NaN count), so large matrices never travel to the host.
#ifndef TILESLC_TOOLS_BENCH_BENCH_DATA_H
#define TILESLC_TOOLS_BENCH_BENCH_DATA_H

#include <cuda_runtime.h>

#include <cstdint>

#include "tileslc/runtime.h"

#if defined(__CUDACC__)
#define TILESLC_BENCH_HD __host__ __device__
#else
#define TILESLC_BENCH_HD
#endif

namespace bench {

// Element `i` of the input stream `seed`: uniform in [-1, 1) on a grid of
// 2^-23 (so exact in Float32, never all zero), from splitmix64's mixer.
TILESLC_BENCH_HD inline float uniform_at(uint64_t seed, int64_t i) {
  uint64_t z = (static_cast<uint64_t>(i) + 1u) * 0x9E3779B97F4A7C15ull ^ (seed * 0xD1B54A32D192ED03ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<int64_t>(z >> 40)) * (1.0f / 8388608.0f) - 1.0f;
}

// The value fill_uniform stores at index `i` for `dtype` (Float32, or
// BFloat16, Float8E4M3FN or Float8E5M2 rounded to nearest even), as a float.
float stored_value(tileslc::DType dtype, uint64_t seed, int64_t i);

// Writes stored_value(dtype, seed, i) for i in [0, n) to `data` (Float32,
// BFloat16, Float8E4M3FN or Float8E5M2), enqueued on `stream`.
void fill_uniform(void* data, tileslc::DType dtype, int64_t n, uint64_t seed, cudaStream_t stream);

// max |out - ref| and max |ref| over the (rows, cols) matrices of two device
// arrays (each Float32 or BFloat16, row-major with rows `ld` >= cols elements
// apart: the padding is not looked at), and how many entries of `out` (never
// written: NaN poison) or of `ref` are NaN. Synchronizes `stream`.
struct DiffStats {
  double max_abs_diff = 0.0;
  double max_abs_ref = 0.0;
  int64_t nan_out = 0;
  int64_t nan_ref = 0;
};
DiffStats compare_on_device(const void* out, tileslc::DType out_dtype, const void* ref, tileslc::DType ref_dtype,
                            int64_t rows, int64_t cols, int64_t ld, cudaStream_t stream);

// One element of a device array (Float32 or BFloat16) as a double; synchronous.
double read_element(const void* data, tileslc::DType dtype, int64_t i);

}  // namespace bench

#endif  // TILESLC_TOOLS_BENCH_BENCH_DATA_H
