// <cudaTypedefs.h> for the CPU emulation target: the function-pointer type of
// the one driver entry point libtileslc_rt looks up (see cuda.h here).
#pragma once
#include "cuda.h"

typedef CUresult (*PFN_cuTensorMapEncodeTiled_v12000)(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                                       cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
                                                       const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
                                                       const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                                       CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                                       CUtensorMapFloatOOBfill oobFill);
