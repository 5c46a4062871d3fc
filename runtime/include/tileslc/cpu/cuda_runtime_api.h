// The part of the CUDA runtime API that tileslc's runtime library and the
// sample drivers call, for the CPU emulation target: one emulated device
// whose "device memory" is host memory. cudaMalloc is aligned host memory,
// copies and memsets are memcpy and memset, streams and events are
// synchronous (an event records the host clock), and cudaLaunchKernel runs
// the grid on the CPU right away (see tileslc/cpu/thread.h). Errors follow
// CUDA's rules: functions return a cudaError_t, the last error sticks until
// cudaGetLastError reads it. Reached through the forwarding header
// tileslc/cpu/cuda/cuda_runtime.h, so unchanged driver code that includes
// <cuda_runtime.h> compiles with the host compiler.
#ifndef TILESLC_CPU_CUDA_RUNTIME_API_H
#define TILESLC_CPU_CUDA_RUNTIME_API_H
// Code that differs on the emulated device tests this (the DLPack import takes
// host tensors as device memory).
#define TILESLC_CPU_EMULATION 1

#include <cstddef>

#include "tileslc/cpu/types.h"

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotSupported = 801,
  cudaErrorInvalidClusterSize = 912,
};
typedef cudaError_t cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,             // not emulated (cudaErrorInvalidValue): metrics' peak is unknown
  cudaDevAttrMemoryClockRate = 36,       // likewise
  cudaDevAttrGlobalMemoryBusWidth = 37,  // likewise
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
};

/// cudaLaunchKernelExC's launch attributes: the emulator knows the cluster
/// shape (CUDA's other attributes are refused with cudaErrorNotSupported).
enum cudaLaunchAttributeID {
  cudaLaunchAttributeClusterDimension = 4,
};
union cudaLaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x, y, z;
  } clusterDim;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  struct CUstream_st* stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
};

enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0,
  cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2,
};
#define cudaEnableDefault 0x0

// CUDA's own tag (driver_types.h): the C ABI's tileslc_stream (tileslc/c_api.h) is
// cudaStream_t on both targets.
typedef struct CUstream_st* cudaStream_t;
typedef struct tileslc_cpu_event* cudaEvent_t;

const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
/// Returns the last error and resets it to cudaSuccess.
cudaError_t cudaGetLastError();
/// Returns the last error without resetting it.
cudaError_t cudaPeekAtLastError();

/// One device, "tileslc CPU emulation", compute capability 9.0 (the sm_90
/// atoms are emulated: tileslc/cpu/sm90.h), 16 multiprocessors: as many as
/// the largest cluster has blocks, so that a persistent grid sized by the
/// multiprocessor count holds at least one cluster of any shape.
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();

/// cudaMallocManaged's flags.
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

/// "Device", pinned host and managed memory are all host memory aligned to 256
/// bytes (as cudaMalloc's), each allocation remembered with its kind so that
/// the frees check what CUDA checks: cudaFree takes cudaMalloc's and
/// cudaMallocManaged's pointers, cudaFreeHost cudaMallocHost's; anything else
/// (a pointer freed twice, one from another allocator) is
/// cudaErrorInvalidValue. A null pointer frees nothing. A null `ptr` is
/// cudaErrorInvalidValue; 0 bytes gives nullptr (cudaMallocManaged:
/// cudaErrorInvalidValue, as CUDA's).
cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMallocHost(void** ptr, size_t bytes);
cudaError_t cudaFreeHost(void* ptr);
/// `flags` is cudaMemAttachGlobal or cudaMemAttachHost, else cudaErrorInvalidValue.
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal);
/// The device's memory: *total is cudaDeviceProp::totalGlobalMem, *free that
/// less what cudaMalloc and cudaMallocManaged hold now (0 when they hold more:
/// host memory is the limit, not the figure).
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t stream = nullptr);

/// Streams exist for the API's sake: work runs when it is enqueued.
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

/// An event records the host's steady clock when recorded.
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

/// Accepts a dynamic shared memory limit up to 227 KiB (an H100/H200 CTA's).
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
/// Runs the grid on the CPU before returning. `func` must be the address of a
/// kernel's CPU entry (void(void** args)) that tileslc --target=cpu emits;
/// `args` holds one pointer per kernel parameter.
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem_bytes,
                             cudaStream_t stream);

/// cudaLaunchKernel with attributes: a cluster dimension (each of x, y, z at
/// least 1, at most 16 blocks in all, dividing the grid's, else
/// cudaErrorInvalidClusterSize) runs the grid in thread-block clusters, the
/// CTAs of one cluster together (tileslc::cpu::run_grid). Any other
/// attribute: cudaErrorNotSupported.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);

/// The driver entry points the emulator has: "cuTensorMapEncodeTiled" (the
/// emulator's, declared in tileslc/cpu/cuda/cuda.h) for cudaVersion >= 12000.
/// Any other symbol: a null *funcPtr, *driverStatus =
/// cudaDriverEntryPointSymbolNotFound, and cudaErrorInvalidValue.
cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags,
                                             cudaDriverEntryPointQueryResult* driverStatus = nullptr);

// The typed overloads CUDA's cuda_runtime.h adds, so that `cudaMalloc(&float_ptr, n)` compiles.
template <class T>
cudaError_t cudaMalloc(T** ptr, size_t bytes) {
  return ::cudaMalloc(static_cast<void**>(static_cast<void*>(ptr)), bytes);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t bytes, unsigned int flags = 0) {
  // CUDA's forwards to cudaHostAlloc, whose flags only matter to a GPU.
  (void)flags;
  return ::cudaMallocHost(static_cast<void**>(static_cast<void*>(ptr)), bytes);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged(static_cast<void**>(static_cast<void*>(ptr)), bytes, flags);
}
// CUDA's takes `const T*`, from which g++ cannot deduce a function type.
template <class T>
cudaError_t cudaLaunchKernel(T* func, dim3 grid, dim3 block, void** args, size_t smem_bytes = 0,
                             cudaStream_t stream = nullptr) {
  return ::cudaLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, smem_bytes, stream);
}
template <class T>
cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}

#endif  // TILESLC_CPU_CUDA_RUNTIME_API_H
