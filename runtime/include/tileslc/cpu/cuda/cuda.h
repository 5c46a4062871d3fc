// <cuda.h> for the CPU emulation target: the part of the CUDA driver API that
// libtileslc_rt's tensor-map code (runtime/src/tma.cpp) uses, declared for the
// host compiler. Its one function, cuTensorMapEncodeTiled, is reached as on
// CUDA through cudaGetDriverEntryPointByVersion; the emulator's version
// validates its arguments as the driver documents and stores them in the
// 128-byte map in the emulator's own format (tileslc/cpu/tensor_map.h).
#pragma once
#include <cstdint>

#include "tileslc/cpu/cuda_runtime_api.h"

typedef uint64_t cuuint64_t;
typedef uint32_t cuuint32_t;

enum CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
};

/// The opaque 128-byte tensor map (CUDA's CUtensorMap: 64-byte aligned).
struct alignas(64) CUtensorMap {
  cuuint64_t opaque[16];
};

enum CUtensorMapDataType {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32,
  CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
};

enum CUtensorMapInterleave {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B,
  CU_TENSOR_MAP_INTERLEAVE_32B,
};

enum CUtensorMapSwizzle {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B,
  CU_TENSOR_MAP_SWIZZLE_128B,
};

enum CUtensorMapL2promotion {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
};

enum CUtensorMapFloatOOBfill {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
};

/// cuTensorMapEncodeTiled (CUDA Driver API, "Tensor Map Object Management").
CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                const cuuint32_t* boxDim, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill);

/// Why the calling host thread's last cuTensorMapEncodeTiled failed (empty
/// after a success). The emulator's addition: the driver only returns
/// CUDA_ERROR_INVALID_VALUE; tma.cpp appends this to its message.
const char* tileslc_cpu_tensor_map_error();
#define TILESLC_CPU_TENSOR_MAP_ERROR() tileslc_cpu_tensor_map_error()
