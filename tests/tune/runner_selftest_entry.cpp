// The host function tests/tune/runner_selftest.py links the tuner's runner with: copies tensor 0
// into tensor 1, then overwrites tensor 1's first K elements (K: the Int32 scalar, argument 2)
// with 0xFF bytes: NaN in every float type, -1 or the largest value in the integer types, so
// values the runner's fill never makes and its check must count.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "tileslc/c_api.h"

namespace {
size_t element_bytes(int32_t dtype) {
  switch (dtype) {
    case TILESLC_INT16: case TILESLC_UINT16: case TILESLC_FLOAT16: case TILESLC_BFLOAT16: return 2;
    case TILESLC_INT32: case TILESLC_UINT32: case TILESLC_FLOAT32: case TILESLC_TFLOAT32: return 4;
    case TILESLC_INT64: case TILESLC_UINT64: case TILESLC_FLOAT64: return 8;
    default: return 1;
  }
}
}  // namespace

extern "C" int runner_selftest_entry(void* const* args, tileslc_stream) {
  const auto* in = static_cast<const tileslc_tensor_view*>(args[0]);
  const auto* out = static_cast<const tileslc_tensor_view*>(args[1]);
  const int32_t k = *static_cast<const int32_t*>(args[2]);
  size_t n = 1;
  for (int32_t d = 0; d < in->rank; ++d) n *= static_cast<size_t>(in->shape[d]);
  const size_t size = element_bytes(in->dtype);
  if (cudaMemcpy(out->data, in->data, n * size, cudaMemcpyDeviceToDevice) != cudaSuccess) return 1;
  if (k > 0 && cudaMemset(out->data, 0xFF, static_cast<size_t>(k) * size) != cudaSuccess) return 1;
  return 0;
}
