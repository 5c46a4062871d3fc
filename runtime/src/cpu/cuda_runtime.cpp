// The CUDA runtime API on the host, for the CPU emulation target (see
// tileslc/cpu/cuda_runtime_api.h): "device" memory is aligned host memory,
// streams and events are synchronous, kernel launches run the grid at once.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "tileslc/cpu/cuda_runtime_api.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/runtime.h"

// Host code: cudaLaunchConfig_t has members named gridDim and blockDim, which
// thread.h's kernel-side macros would replace.
#undef gridDim
#undef blockDim

struct CUstream_st {};
struct tileslc_cpu_event {
  std::chrono::steady_clock::time_point when;
};

namespace {

thread_local cudaError_t t_last_error = cudaSuccess;

// Records a failure as the last error, and returns it.
cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

constexpr size_t kMaxDynamicSmem = 227 * 1024;
constexpr size_t kTotalGlobalMem = size_t{1} << 34;

// What allocated a pointer: the free that takes it back must match.
enum class Memory : uint8_t { Device, Host, Managed };

struct Allocation {
  Memory kind;
  size_t bytes;
};

// Every live allocation of the cudaMalloc family, and the bytes the device ones
// (cudaMalloc, cudaMallocManaged) hold, for cudaMemGetInfo.
struct Allocations {
  std::mutex m;
  std::unordered_map<void*, Allocation> live;
  size_t device_bytes = 0;
};

Allocations& allocations() {
  static Allocations* a = new Allocations;  // never destroyed: frees may run from static destructors
  return *a;
}

cudaError_t allocate(void** ptr, size_t bytes, Memory kind) {
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  if (bytes > SIZE_MAX - 255) return record(cudaErrorMemoryAllocation);
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p) return record(cudaErrorMemoryAllocation);
  Allocations& a = allocations();
  std::lock_guard<std::mutex> lock(a.m);
  a.live.emplace(p, Allocation{kind, bytes});
  if (kind != Memory::Host) a.device_bytes += bytes;
  *ptr = p;
  return cudaSuccess;
}

// Frees `ptr` if one of `kinds` allocated it.
cudaError_t release(void* ptr, std::initializer_list<Memory> kinds) {
  if (!ptr) return cudaSuccess;
  Allocations& a = allocations();
  {
    std::lock_guard<std::mutex> lock(a.m);
    auto it = a.live.find(ptr);
    if (it == a.live.end() || std::find(kinds.begin(), kinds.end(), it->second.kind) == kinds.end())
      return record(cudaErrorInvalidValue);
    if (it->second.kind != Memory::Host) a.device_bytes -= it->second.bytes;
    a.live.erase(it);
  }
  std::free(ptr);
  return cudaSuccess;
}

}  // namespace

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidClusterSize: return "invalid cluster size";
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorInvalidClusterSize: return "cudaErrorInvalidClusterSize";
  }
  return "cudaErrorUnknown";
}

cudaError_t cudaGetLastError() {
  cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError() { return t_last_error; }

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return record(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (!device) return record(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : record(cudaErrorInvalidValue); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop || device != 0) return record(cudaErrorInvalidValue);
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "tileslc CPU emulation");
  prop->totalGlobalMem = kTotalGlobalMem;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = 16;  // see cudaGetDeviceProperties in tileslc/cpu/cuda_runtime_api.h
  prop->l2CacheSize = 50 << 20;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (!value || cudaGetDeviceProperties(&p, device) != cudaSuccess) return record(cudaErrorInvalidValue);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(kMaxDynamicSmem); break;
    default: return record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

cudaError_t cudaMalloc(void** ptr, size_t bytes) { return allocate(ptr, bytes, Memory::Device); }

cudaError_t cudaFree(void* ptr) { return release(ptr, {Memory::Device, Memory::Managed}); }

cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return allocate(ptr, bytes, Memory::Host); }

cudaError_t cudaFreeHost(void* ptr) { return release(ptr, {Memory::Host}); }

cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned int flags) {
  if (bytes == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)) {
    if (ptr) *ptr = nullptr;
    return record(cudaErrorInvalidValue);
  }
  return allocate(ptr, bytes, Memory::Managed);
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (!free || !total) return record(cudaErrorInvalidValue);
  Allocations& a = allocations();
  std::lock_guard<std::mutex> lock(a.m);
  *total = kTotalGlobalMem;
  *free = a.device_bytes < kTotalGlobalMem ? kTotalGlobalMem - a.device_bytes : 0;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  if (bytes && (!dst || !src)) return record(cudaErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* ptr, int value, size_t bytes) {
  if (bytes && !ptr) return record(cudaErrorInvalidValue);
  if (bytes) std::memset(ptr, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t) { return cudaMemset(ptr, value, bytes); }

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (!stream) return record(cudaErrorInvalidValue);
  *stream = new CUstream_st;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return record(cudaErrorInvalidValue);
  *event = new tileslc_cpu_event{std::chrono::steady_clock::now()};
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return record(cudaErrorInvalidResourceHandle);
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return record(cudaErrorInvalidValue);
  if (!start || !end) return record(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!func) return record(cudaErrorInvalidValue);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && (value < 0 || static_cast<size_t>(value) > kMaxDynamicSmem))
    return record(cudaErrorInvalidValue);
  if (attr == cudaFuncAttributeNonPortableClusterSizeAllowed && value != 0 && value != 1) return record(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem_bytes, cudaStream_t) {
  if (!func) return record(cudaErrorInvalidValue);
  if (smem_bytes > kMaxDynamicSmem) return record(cudaErrorInvalidValue);
  auto entry = reinterpret_cast<tileslc::cpu::KernelEntry>(const_cast<void*>(func));
  return record(tileslc::cpu::run_grid(entry, args, grid, block, smem_bytes));
}


cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (!config || !func || (config->numAttrs && !config->attrs)) return record(cudaErrorInvalidValue);
  if (config->dynamicSmemBytes > kMaxDynamicSmem) return record(cudaErrorInvalidValue);
  dim3 cluster(1, 1, 1);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id != cudaLaunchAttributeClusterDimension) return record(cudaErrorNotSupported);
    cluster = dim3(a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
  }
  const dim3 g = config->gridDim;
  // The limits of an H100/H200 with the non-portable size allowed (CUDA C++ Programming Guide, "Thread Block Clusters").
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || uint64_t{cluster.x} * cluster.y * cluster.z > 16 ||
      g.x % cluster.x || g.y % cluster.y || g.z % cluster.z)
    return record(cudaErrorInvalidClusterSize);
  auto entry = reinterpret_cast<tileslc::cpu::KernelEntry>(const_cast<void*>(func));
  return record(tileslc::cpu::run_grid(entry, args, g, config->blockDim, config->dynamicSmemBytes, cluster));
}
