// TMA tensor maps (cuTensorMapEncodeTiled) and device facts host functions
// need (the multiprocessor count for persistent grids). The driver entry point
// is looked up through the CUDA runtime, so libtileslc_rt still links against
// cudart only.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <mutex>
#include <string>

#include "tileslc/runtime.h"

namespace tileslc {

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_fn(std::string* error) {
  static std::once_flag once;
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (err != cudaSuccess || q != cudaDriverEntryPointSuccess || p == nullptr) {
      failure = std::string("the driver has no cuTensorMapEncodeTiled (") + cudaGetErrorString(err) + ")";
      (void)cudaGetLastError();
      return;
    }
    fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  });
  if (!fn) *error = failure;
  return fn;
}

bool tma_dtype(DType d, CUtensorMapDataType* out) {
  switch (d) {
    case DType::BFloat16: *out = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; return true;
    case DType::Float16: *out = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; return true;
    case DType::Float32: *out = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; return true;
    case DType::Int32: *out = CU_TENSOR_MAP_DATA_TYPE_INT32; return true;
    // TMA moves bytes: 8-bit floats travel as UINT8 (CUTLASS does the same; no
    // out-of-bounds fill value other than zero is used here).
    case DType::Uint8: case DType::Int8: case DType::Float8E4M3FN: case DType::Float8E5M2:
      *out = CU_TENSOR_MAP_DATA_TYPE_UINT8;
      return true;
    default: return false;
  }
}

}  // namespace

Status make_tma_descriptor(TmaDescriptor* out, const TensorView& t, const char* function, const char* param,
                           int32_t inner_mode, int32_t box_inner, int32_t box_outer, int32_t swizzle_bytes) {
  auto fail = [&](const std::string& why) {
    return Status::error(std::string(function) + ": cannot build the TMA descriptor of " + param + ": " + why);
  };
  static_assert(sizeof(TmaDescriptor) == sizeof(CUtensorMap), "TmaDescriptor must match CUtensorMap");
  if (t.rank < 2 || t.rank > 5 || (inner_mode != 0 && inner_mode != 1))
    return fail("TMA descriptors here are of rank-2 to rank-5 tensors with the contiguous mode among the first two");
  CUtensorMapDataType dt;
  if (!tma_dtype(t.dtype, &dt)) return fail(std::string("no TMA element type for ") + dtype_name(t.dtype));
  const int outer_mode = 1 - inner_mode;
  const size_t elem = dtype_size(t.dtype);
  if (t.stride[inner_mode] != 1) return fail("mode " + std::to_string(inner_mode) + " must have stride 1, found " + std::to_string(t.stride[inner_mode]));
  // The map's dimensions: the contiguous mode, the other tiled mode, then the batch modes
  // (box extent 1: one tile of one batch per copy).
  const int rank = t.rank;
  int order[5] = {inner_mode, outer_mode, 2, 3, 4};
  cuuint64_t dims[5];
  cuuint64_t strides[4];
  cuuint32_t box[5] = {static_cast<cuuint32_t>(box_inner), static_cast<cuuint32_t>(box_outer), 1, 1, 1};
  cuuint32_t elem_strides[5] = {1, 1, 1, 1, 1};
  // The driver's limit on the tensor's extents ("Tensor Map Object Management": globalDim in
  // [1, 2^32]), checked here so that a run-time shape is named before any driver call: an empty
  // tensor (K = 0) used to reach cuTensorMapEncodeTiled, which compute-sanitizer then reported as
  // an API error of a program that only validated its input (H200 run of 2026-12-05). The box is
  // fixed when the kernel is compiled, so its limits stay the driver's (and the emulator's) to say.
  for (int i = 0; i < rank; ++i) {
    const int m = order[i];
    if (t.shape[m] < 1 || static_cast<uint64_t>(t.shape[m]) > (uint64_t{1} << 32))
      return fail("mode " + std::to_string(m) + " has extent " + std::to_string(t.shape[m]) +
                  "; TMA needs 1 to 2^32 (an empty tensor has no tensor map)");
    dims[i] = static_cast<cuuint64_t>(t.shape[m]);
    if (i == 0) continue;
    const uint64_t bytes = static_cast<uint64_t>(t.stride[m]) * elem;
    if (t.stride[m] < 0 || bytes % 16 != 0)
      return fail("the stride of mode " + std::to_string(m) + " is " + std::to_string(bytes) + " bytes, not a multiple of 16");
    strides[i - 1] = bytes;
  }
  if (reinterpret_cast<uintptr_t>(t.data) % 16 != 0) return fail("the data pointer is not 16-byte aligned");
  CUtensorMapSwizzle swizzle;
  switch (swizzle_bytes) {
    case 0: swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; break;
    case 32: swizzle = CU_TENSOR_MAP_SWIZZLE_32B; break;
    case 64: swizzle = CU_TENSOR_MAP_SWIZZLE_64B; break;
    case 128: swizzle = CU_TENSOR_MAP_SWIZZLE_128B; break;
    default: return fail("swizzle of " + std::to_string(swizzle_bytes) + " bytes; expected 0, 32, 64 or 128");
  }
  std::string error;
  auto encode = encode_fn(&error);
  if (!encode) return fail(error);
  CUresult r = encode(reinterpret_cast<CUtensorMap*>(out), dt, static_cast<cuuint32_t>(rank), t.data, dims, strides, box, elem_strides,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::string why;
#ifdef TILESLC_CPU_TENSOR_MAP_ERROR  // the CPU emulator says which requirement failed
    why = std::string(": ") + TILESLC_CPU_TENSOR_MAP_ERROR();
#endif
    std::string shape = std::to_string(t.shape[0]);
    for (int m = 1; m < rank; ++m) shape += " x " + std::to_string(t.shape[m]);
    return fail("cuTensorMapEncodeTiled returned " + std::to_string(static_cast<int>(r)) + " (shape " + shape + ", box " +
                std::to_string(box_outer) + " x " + std::to_string(box_inner) + ")" + why);
  }
  return Status();
}

int64_t device_multiprocessor_count() {
  static std::mutex mu;
  static int cached_device = -1;
  static int64_t cached = 0;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  std::lock_guard<std::mutex> lock(mu);
  if (dev != cached_device) {
    int n = 0;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    cached_device = dev;
    cached = n;
  }
  return cached;
}

}  // namespace tileslc
