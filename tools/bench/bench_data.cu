// bench_data.cu: the kernels behind bench_data.h: filling inputs from the
// (seed, index) stream and reducing the difference of two outputs.
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench_data.h"
#include "sample_util.h"

namespace bench {
namespace {

constexpr int kThreads = 256;

bool supported(tileslc::DType dtype) {
  return dtype == tileslc::DType::Float32 || dtype == tileslc::DType::BFloat16;
}

// Inputs may also be E4M3 or E5M2 (the FP8 GEMMs); outputs are Float32 or BFloat16.
void require_input(tileslc::DType dtype, const char* what) {
  if (!supported(dtype) && dtype != tileslc::DType::Float8E4M3FN && dtype != tileslc::DType::Float8E5M2) {
    std::fprintf(stderr, "tileslc_bench: %s: element type %s is not supported, expected Float32, BFloat16, Float8E4M3FN or Float8E5M2\n",
                 what, tileslc::dtype_name(dtype));
    std::exit(1);
  }
}

// 0: Float32, 1: BFloat16, 2: E4M3, 3: E5M2.
int input_kind(tileslc::DType dtype) {
  switch (dtype) {
    case tileslc::DType::BFloat16: return 1;
    case tileslc::DType::Float8E4M3FN: return 2;
    case tileslc::DType::Float8E5M2: return 3;
    default: return 0;
  }
}

void require_supported(tileslc::DType dtype, const char* what) {
  if (!supported(dtype)) {
    std::fprintf(stderr, "tileslc_bench: %s: element type %s is not supported, expected Float32 or BFloat16\n",
                 what, tileslc::dtype_name(dtype));
    std::exit(1);
  }
}

// Enough blocks to fill the GPU for a grid-stride loop over n elements.
unsigned grid_for(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

__device__ double load(const void* p, bool bf16, int64_t i) {
  return bf16 ? static_cast<double>(__bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]))
              : static_cast<double>(static_cast<const float*>(p)[i]);
}

__global__ void fill_kernel(void* data, int kind, int64_t n, uint64_t seed) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float v = uniform_at(seed, i);
    if (kind == 1) {
      static_cast<__nv_bfloat16*>(data)[i] = __float2bfloat16_rn(v);
    } else if (kind == 2) {
      static_cast<__nv_fp8_e4m3*>(data)[i] = __nv_fp8_e4m3(v);  // round to nearest even, saturating
    } else if (kind == 3) {
      static_cast<__nv_fp8_e5m2*>(data)[i] = __nv_fp8_e5m2(v);
    } else {
      static_cast<float*>(data)[i] = v;
    }
  }
}

// result: {max |diff| bits, max |ref| bits} as non-negative doubles (whose bit
// patterns order like the values), then the two NaN counts.
struct DeviceDiff {
  unsigned long long max_abs_diff_bits;
  unsigned long long max_abs_ref_bits;
  unsigned long long nan_out;
  unsigned long long nan_ref;
};

__device__ double warp_max(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void diff_kernel(const void* out, bool out_bf16, const void* ref, bool ref_bf16, int64_t n, int64_t cols,
                            int64_t ld, DeviceDiff* result) {
  double max_diff = 0.0, max_ref = 0.0;
  unsigned long long nan_out = 0, nan_ref = 0;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int64_t at = i / cols * ld + i % cols;  // element i of the (rows, cols) matrix
    const double o = load(out, out_bf16, at), r = load(ref, ref_bf16, at);
    nan_out += isnan(o);
    nan_ref += isnan(r);
    if (!isnan(o) && !isnan(r)) {
      max_diff = fmax(max_diff, fabs(o - r));
      max_ref = fmax(max_ref, fabs(r));
    }
  }
  max_diff = warp_max(max_diff);
  max_ref = warp_max(max_ref);
  nan_out = warp_sum(nan_out);
  nan_ref = warp_sum(nan_ref);
  if (threadIdx.x % 32 == 0) {
    atomicMax(&result->max_abs_diff_bits, static_cast<unsigned long long>(__double_as_longlong(max_diff)));
    atomicMax(&result->max_abs_ref_bits, static_cast<unsigned long long>(__double_as_longlong(max_ref)));
    atomicAdd(&result->nan_out, nan_out);
    atomicAdd(&result->nan_ref, nan_ref);
  }
}

double bits_to_double(unsigned long long bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

float stored_value(tileslc::DType dtype, uint64_t seed, int64_t i) {
  require_input(dtype, "stored_value");
  const float v = uniform_at(seed, i);
  if (dtype == tileslc::DType::Float8E4M3FN) return static_cast<float>(__nv_fp8_e4m3(v));
  if (dtype == tileslc::DType::Float8E5M2) return static_cast<float>(__nv_fp8_e5m2(v));
  return dtype == tileslc::DType::BFloat16 ? sample::bf16_to_float(sample::float_to_bf16(v)) : v;
}

void fill_uniform(void* data, tileslc::DType dtype, int64_t n, uint64_t seed, cudaStream_t stream) {
  require_input(dtype, "fill_uniform");
  fill_kernel<<<grid_for(n), kThreads, 0, stream>>>(data, input_kind(dtype), n, seed);
  CHECK(cudaGetLastError());
}

DiffStats compare_on_device(const void* out, tileslc::DType out_dtype, const void* ref, tileslc::DType ref_dtype,
                            int64_t rows, int64_t cols, int64_t ld, cudaStream_t stream) {
  require_supported(out_dtype, "compare_on_device");
  const int64_t n = rows * cols;
  require_supported(ref_dtype, "compare_on_device");
  tileslc::DeviceBuffer result;
  CHECK_OK(result.allocate(sizeof(DeviceDiff)));
  CHECK(cudaMemsetAsync(result.data(), 0, sizeof(DeviceDiff), stream));
  diff_kernel<<<grid_for(n), kThreads, 0, stream>>>(out, out_dtype == tileslc::DType::BFloat16, ref,
                                                    ref_dtype == tileslc::DType::BFloat16, n, cols, ld,
                                                    static_cast<DeviceDiff*>(result.data()));
  CHECK(cudaGetLastError());
  DeviceDiff d{};
  CHECK(cudaMemcpyAsync(&d, result.data(), sizeof d, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  DiffStats s;
  s.max_abs_diff = bits_to_double(d.max_abs_diff_bits);
  s.max_abs_ref = bits_to_double(d.max_abs_ref_bits);
  s.nan_out = static_cast<int64_t>(d.nan_out);
  s.nan_ref = static_cast<int64_t>(d.nan_ref);
  return s;
}

double read_element(const void* data, tileslc::DType dtype, int64_t i) {
  require_supported(dtype, "read_element");
  if (dtype == tileslc::DType::BFloat16) {
    uint16_t b = 0;
    CHECK(cudaMemcpy(&b, static_cast<const uint16_t*>(data) + i, sizeof b, cudaMemcpyDeviceToHost));
    return sample::bf16_to_float(b);
  }
  float f = 0.0f;
  CHECK(cudaMemcpy(&f, static_cast<const float*>(data) + i, sizeof f, cudaMemcpyDeviceToHost));
  return f;
}

}  // namespace bench
