// Shared by the drivers of tests/cute_dsl/: tensors of any element type kept on the host as
// float64 (the values the device sees, after rounding to the element type) and on the device,
// and a float64 comparison. tools/cute_dsl_compat.sh builds each driver with the output of its
// wrapper under the CPU emulator; the same source builds with nvcc for a GPU.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "sample_util.h"

namespace compat {

/// A strided tensor: `values` holds every storage element as float64 (exactly what the device holds).
struct Tensor {
  tileslc::DType dtype;
  std::vector<int64_t> shape, stride;
  std::vector<double> values;
  tileslc::DeviceBuffer device;

  int64_t span() const {
    int64_t s = 1;
    for (size_t i = 0; i < shape.size(); ++i) s += (shape[i] - 1) * stride[i];
    return s;
  }
  int bytes() const { return dtype == tileslc::DType::Float32 ? 4 : 2; }
  /// The storage index of a coordinate.
  int64_t at(std::initializer_list<int64_t> coord) const {
    int64_t off = 0, i = 0;
    for (int64_t c : coord) off += c * stride[i++];
    return off;
  }
  double operator()(std::initializer_list<int64_t> coord) const { return values[at(coord)]; }

  /// Rounds to the element type, uploads.
  void upload() {
    std::vector<uint8_t> raw(values.size() * bytes());
    for (size_t i = 0; i < values.size(); ++i) {
      if (dtype == tileslc::DType::Float32) {
        float f = static_cast<float>(values[i]);
        std::memcpy(&raw[i * 4], &f, 4);
        values[i] = f;
      } else if (dtype == tileslc::DType::Float16) {
        __half h = __float2half(static_cast<float>(values[i]));
        std::memcpy(&raw[i * 2], &h, 2);
        values[i] = __half2float(h);
      } else {
        uint16_t b = sample::float_to_bf16(static_cast<float>(values[i]));
        std::memcpy(&raw[i * 2], &b, 2);
        values[i] = sample::bf16_to_float(b);
      }
    }
    CHECK_OK(device.allocate(raw.size()));
    CHECK_OK(device.copy_from_host(raw.data(), raw.size()));
  }
  void download() {
    std::vector<uint8_t> raw(values.size() * bytes());
    CHECK_OK(device.copy_to_host(raw.data(), raw.size()));
    for (size_t i = 0; i < values.size(); ++i) {
      if (dtype == tileslc::DType::Float32) {
        float f;
        std::memcpy(&f, &raw[i * 4], 4);
        values[i] = f;
      } else if (dtype == tileslc::DType::Float16) {
        __half h;
        std::memcpy(&h, &raw[i * 2], 2);
        values[i] = __half2float(h);
      } else {
        uint16_t b;
        std::memcpy(&b, &raw[i * 2], 2);
        values[i] = sample::bf16_to_float(b);
      }
    }
  }
  tileslc::TensorView view() {
    tileslc::TensorView t = tileslc::make_tensor_view(device.data(), dtype, {1});
    t.rank = static_cast<int32_t>(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) {
      t.shape[i] = shape[i];
      t.stride[i] = stride[i];
    }
    return t;
  }
};

/// A tensor with the given extents and strides, uniform random in [lo, hi) (0 for lo == hi), uploaded.
inline Tensor make(tileslc::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> stride, float lo, float hi,
                   sample::Rng& rng) {
  Tensor t{dtype, std::move(shape), std::move(stride), {}, {}};
  std::vector<float> f(t.span());
  if (lo == hi) std::fill(f.begin(), f.end(), lo);
  else rng.fill(f, lo, hi);
  t.values.assign(f.begin(), f.end());
  t.upload();
  return t;
}

/// An output tensor: every element NaN (the poison), uploaded, so an element the kernel never
/// writes is counted as unwritten by the check instead of passing as a stale value.
inline Tensor poisoned(tileslc::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> stride) {
  Tensor t{dtype, std::move(shape), std::move(stride), {}, {}};
  t.values.assign(t.span(), std::numeric_limits<double>::quiet_NaN());
  t.upload();
  return t;
}

/// Compares every element of `out` (downloaded) with `ref(coord...)`; prints and returns the verdict.
template <class F>
bool check_2d(const char* name, const std::string& what, Tensor& out, int64_t rows, int64_t cols, double tol, F&& ref,
              int64_t batch = 1) {
  out.download();
  sample::ErrorStats e;
  for (int64_t l = 0; l < batch; ++l)
    for (int64_t m = 0; m < rows; ++m)
      for (int64_t n = 0; n < cols; ++n)
        e.add(out.values[out.shape.size() == 3 ? out.at({m, n, l}) : out.at({m, n})], ref(m, n, l));
  return sample::report(name, what, e, tol);
}

/// Checks C (M x N) = A (M x K) * B (N x K)^T, all row-major, against a float64 GEMM with a relative
/// tolerance of 1e-5 * K (float32 accumulation of K products of values in [-1, 1]).
inline bool check_gemm_nt(const char* name, Tensor& c, const Tensor& a, const Tensor& b, int64_t M, int64_t N,
                          int64_t K) {
  return check_2d(name, sample::gemm_shape_text(M, N, K), c, M, N, 1e-5 * K, [&](int64_t m, int64_t n, int64_t) {
    double s = 0;
    for (int64_t k = 0; k < K; ++k) s += a({m, k}) * b({n, k});
    return s;
  });
}

}  // namespace compat
