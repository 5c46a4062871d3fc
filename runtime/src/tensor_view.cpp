// Tensor views: dtype names and sizes, make_tensor_view (contiguous row-major
// strides by default), and element counts.
#include <initializer_list>

#include "tileslc/runtime.h"

namespace tileslc {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Boolean: return "Boolean";
    case DType::Int8: return "Int8";
    case DType::Int16: return "Int16";
    case DType::Int32: return "Int32";
    case DType::Int64: return "Int64";
    case DType::Uint8: return "Uint8";
    case DType::Uint16: return "Uint16";
    case DType::Uint32: return "Uint32";
    case DType::Uint64: return "Uint64";
    case DType::Float16: return "Float16";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float32";
    case DType::Float64: return "Float64";
    case DType::TFloat32: return "TFloat32";
    case DType::Float8E4M3FN: return "Float8E4M3FN";
    case DType::Float8E5M2: return "Float8E5M2";
  }
  return "unknown";
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::Boolean:
    case DType::Int8:
    case DType::Uint8:
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return 1;
    case DType::Int16:
    case DType::Uint16:
    case DType::Float16:
    case DType::BFloat16: return 2;
    case DType::Int32:
    case DType::Uint32:
    case DType::Float32:
    case DType::TFloat32: return 4;
    case DType::Int64:
    case DType::Uint64:
    case DType::Float64: return 8;
  }
  return 0;
}

TensorView make_tensor_view(void* data, DType dtype, std::initializer_list<int64_t> shape,
                            std::initializer_list<int64_t> stride, int32_t device) {
  TensorView t{};
  t.data = data;
  t.dtype = dtype;
  t.device = device;
  const size_t rank = shape.size();
  if (rank > static_cast<size_t>(kMaxRank) || (stride.size() != 0 && stride.size() != rank)) {
    t.rank = -1;
    return t;
  }
  t.rank = static_cast<int32_t>(rank);
  int i = 0;
  for (int64_t e : shape) t.shape[i++] = e;
  if (stride.size() != 0) {
    i = 0;
    for (int64_t s : stride) t.stride[i++] = s;
  } else {
    // Unsigned arithmetic: extents whose product overflows give meaningless
    // strides but no undefined behaviour; check_tensor rejects such views.
    uint64_t step = 1;
    for (int m = t.rank - 1; m >= 0; --m) {
      t.stride[m] = static_cast<int64_t>(step);
      step *= t.shape[m] > 1 ? static_cast<uint64_t>(t.shape[m]) : 1u;
    }
  }
  return t;
}

int64_t num_elements(const TensorView& t) {
  if (t.rank < 0 || t.rank > kMaxRank) return -1;
  for (int m = 0; m < t.rank; ++m) {
    if (t.shape[m] < 0) return -1;
  }
  for (int m = 0; m < t.rank; ++m) {
    if (t.shape[m] == 0) return 0;  // before any overflow check: (2^40, 2^40, 0) is empty
  }
  int64_t n = 1;
  for (int m = 0; m < t.rank; ++m) {
    if (__builtin_mul_overflow(n, t.shape[m], &n)) return -1;
  }
  return n;
}

}  // namespace tileslc
