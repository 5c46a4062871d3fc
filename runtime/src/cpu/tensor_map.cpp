// cuTensorMapEncodeTiled for the CPU emulation target, reached as on CUDA
// through cudaGetDriverEntryPointByVersion (runtime/src/tma.cpp does). It
// checks its arguments against the requirements the CUDA Driver API documents
// for cuTensorMapEncodeTiled ("Tensor Map Object Management") and returns
// CUDA_ERROR_INVALID_VALUE when one fails, with the reason kept for
// tileslc_cpu_tensor_map_error(); otherwise it stores the arguments in the
// map in the emulator's format (tileslc/cpu/tensor_map.h). Interleaved
// layouts and element strides other than 1 pass the driver's checks but are
// not emulated: they are refused here, saying so.
#include <cstring>
#include <string>

#include "cuda.h"
#include "tileslc/cpu/tensor_map.h"

namespace {

thread_local std::string t_error;

CUresult invalid(std::string why) {
  t_error = std::move(why);
  return CUDA_ERROR_INVALID_VALUE;
}

// Bytes per element of a CUtensorMapDataType; 0 for a value outside the enum.
int element_bytes(CUtensorMapDataType t) {
  switch (t) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
  }
  return 0;
}

bool is_float(CUtensorMapDataType t) {
  return t == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 || t == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 || t == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 ||
         t == CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ || t == CU_TENSOR_MAP_DATA_TYPE_FLOAT64 ||
         t == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 || t == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

std::string at(const char* what, cuuint32_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

}  // namespace

const char* tileslc_cpu_tensor_map_error() { return t_error.c_str(); }

CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                const cuuint32_t* boxDim, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill) {
  t_error.clear();
  if (!tensorMap || reinterpret_cast<uintptr_t>(tensorMap) % 64 != 0) return invalid("the tensor map must be 64-byte aligned");
  const int elem = element_bytes(tensorDataType);
  if (elem == 0) return invalid("unknown tensorDataType " + std::to_string(static_cast<int>(tensorDataType)));
  if (tensorRank < 1 || tensorRank > 5) return invalid("tensorRank " + std::to_string(tensorRank) + ": expected 1 to 5");
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) return invalid("interleaved layouts are not emulated");
  if (!globalAddress || reinterpret_cast<uintptr_t>(globalAddress) % 16 != 0)
    return invalid("globalAddress must be 16-byte aligned");
  if (!globalDim || !boxDim || !elementStrides || (tensorRank > 1 && !globalStrides))
    return invalid("globalDim, globalStrides, boxDim and elementStrides are required");
  for (cuuint32_t i = 0; i < tensorRank; ++i) {
    if (globalDim[i] == 0 || globalDim[i] > (cuuint64_t{1} << 32))
      return invalid(at("globalDim", i) + " = " + std::to_string(globalDim[i]) + ": expected 1 to 2^32");
    if (boxDim[i] == 0 || boxDim[i] > 256)
      return invalid(at("boxDim", i) + " = " + std::to_string(boxDim[i]) + ": expected 1 to 256");
    if (elementStrides[i] == 0 || elementStrides[i] > 8)
      return invalid(at("elementStrides", i) + " = " + std::to_string(elementStrides[i]) + ": expected 1 to 8");
    if (elementStrides[i] != 1) return invalid("element strides other than 1 are not emulated");
  }
  for (cuuint32_t i = 0; i + 1 < tensorRank; ++i)
    if (globalStrides[i] % 16 != 0 || globalStrides[i] >= (cuuint64_t{1} << 40))
      return invalid(at("globalStrides", i) + " = " + std::to_string(globalStrides[i]) +
                     " bytes: expected a multiple of 16 below 2^40");
  const uint64_t inner_bytes = uint64_t{boxDim[0]} * elem;
  if (inner_bytes % 16 != 0)
    return invalid("the inner box dimension is " + std::to_string(inner_bytes) + " bytes (boxDim[0] * element size): "
                   "expected a multiple of 16");
  int swizzle_bytes = 0;
  switch (swizzle) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: break;
    case CU_TENSOR_MAP_SWIZZLE_32B: swizzle_bytes = 32; break;
    case CU_TENSOR_MAP_SWIZZLE_64B: swizzle_bytes = 64; break;
    case CU_TENSOR_MAP_SWIZZLE_128B: swizzle_bytes = 128; break;
    default: return invalid("unknown swizzle " + std::to_string(static_cast<int>(swizzle)));
  }
  if (swizzle_bytes && inner_bytes > static_cast<uint64_t>(swizzle_bytes))
    return invalid("the inner box dimension is " + std::to_string(inner_bytes) + " bytes, more than the " +
                   std::to_string(swizzle_bytes) + "-byte swizzle span");
  if (l2Promotion < CU_TENSOR_MAP_L2_PROMOTION_NONE || l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
    return invalid("unknown l2Promotion " + std::to_string(static_cast<int>(l2Promotion)));
  if (oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE && oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return invalid("unknown oobFill " + std::to_string(static_cast<int>(oobFill)));
  if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !is_float(tensorDataType))
    return invalid("a NaN out-of-bounds fill needs a floating-point tensorDataType");

  tileslc::cpu::TensorMap m{};
  m.magic = tileslc::cpu::TensorMap::kMagic;
  m.base = static_cast<const unsigned char*>(globalAddress);
  for (cuuint32_t i = 0; i < tensorRank; ++i) {
    m.dim[i] = globalDim[i];
    m.box[i] = boxDim[i];
    m.elem_strides[i] = static_cast<uint8_t>(elementStrides[i]);
    if (i + 1 < tensorRank) m.stride[i] = globalStrides[i];
  }
  m.rank = static_cast<uint8_t>(tensorRank);
  m.elem_bytes = static_cast<uint8_t>(elem);
  m.data_type = static_cast<uint8_t>(tensorDataType);
  m.float_type = is_float(tensorDataType);
  m.nan_fill = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  m.swizzle_bytes = static_cast<uint16_t>(swizzle_bytes);
  std::memset(tensorMap, 0, sizeof *tensorMap);
  std::memcpy(tensorMap, &m, sizeof m);
  return CUDA_SUCCESS;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int cudaVersion,
                                             unsigned long long, cudaDriverEntryPointQueryResult* driverStatus) {
  if (!symbol || !funcPtr) return cudaErrorInvalidValue;
  *funcPtr = nullptr;
  if (std::strcmp(symbol, "cuTensorMapEncodeTiled") != 0 || cudaVersion < 12000) {
    if (driverStatus)
      *driverStatus = cudaVersion < 12000 ? cudaDriverEntryPointVersionNotSufficent : cudaDriverEntryPointSymbolNotFound;
    return cudaErrorInvalidValue;
  }
  *funcPtr = reinterpret_cast<void*>(&cuTensorMapEncodeTiled);
  if (driverStatus) *driverStatus = cudaDriverEntryPointSuccess;
  return cudaSuccess;
}
