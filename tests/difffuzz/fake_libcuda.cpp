// A stand-in libcuda.so.1 for fuzz.difffuzz.gpu_driver_abi: the CUDA driver calls that
// tools/difffuzz_cuda.py makes, over host memory, so that its ctypes signatures (argument types,
// the kernelParams array, the copies) are checked on a machine without a GPU. cuLaunchKernel runs
// nothing: it appends to $FAKE_CUDA_LOG one line per launch,
//   L <symbol> <grid xyz> <block xyz> <shared bytes> P<offset>:<first 8 bytes, hex> | V<value> ...
// each parameter as an offset into the latest allocation (with the bytes it points at) or as a
// value; the number of parameters is read from the mangled name (pointers and builtin types,
// which is all difffuzz's kernels take). The launch of a kernel whose name contains $FAKE_FAULT
// makes the next cuCtxSynchronize fail with 700 (an illegal address), and a context reset logs RESET.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
using CUdeviceptr = unsigned long long;
void* const kContext = reinterpret_cast<void*>(16);
void* const kModule = reinterpret_cast<void*>(32);
uintptr_t last_base = 0;
size_t last_size = 0;
bool fault_next = false;

FILE* log_file() {
  static FILE* f = std::fopen(std::getenv("FAKE_CUDA_LOG") ? std::getenv("FAKE_CUDA_LOG") : "/dev/null", "w");
  return f;
}

// One parameter type of an Itanium mangled name: a pointer's pointee follows P (and K), a class
// name is <length><name>, a substitution S..._ , anything else one builtin letter.
const char* skip_type(const char* p) {
  if (*p == 'P') ++p;
  if (*p == 'K') ++p;
  if (*p >= '0' && *p <= '9') {
    char* end = nullptr;
    long n = std::strtol(p, &end, 10);
    return end + n;
  }
  if (*p == 'S') return std::strchr(p, '_') + 1;
  return p + 1;
}

int parameter_count(const char* mangled) {
  const char* p = mangled + 3;  // _ZN
  while (*p != 'E') {
    char* end = nullptr;
    long n = std::strtol(p, &end, 10);
    p = end + n;
  }
  int count = 0;
  for (++p; *p; ++count) p = skip_type(p);
  return count;
}
}  // namespace

extern "C" {
int cuInit(unsigned) { return 0; }
int cuDeviceGetCount(int* count) { *count = 1; return 0; }
int cuDeviceGet(int* device, int) { *device = 0; return 0; }
int cuDeviceGetName(char* name, int size, int) { std::snprintf(name, size, "fake device"); return 0; }
int cuDevicePrimaryCtxRetain(void** context, int) { *context = kContext; return 0; }
int cuDevicePrimaryCtxReset_v2(int) { std::fprintf(log_file(), "RESET\n"); return 0; }
int cuCtxSetCurrent(void* context) { return context == kContext ? 0 : 201; }
int cuCtxSynchronize() {
  int rc = fault_next ? 700 : 0;
  fault_next = false;
  return rc;
}
int cuModuleLoadData(void** module, const void* image) {
  if (std::memcmp(image, "\x7f" "ELF", 4) != 0) return 200;  // CUDA_ERROR_INVALID_IMAGE
  *module = kModule;
  return 0;
}
int cuModuleUnload(void* module) { return module == kModule ? 0 : 400; }
int cuModuleGetFunction(void** function, void* module, const char* name) {
  if (module != kModule || std::strncmp(name, "_ZN", 3) != 0) return 500;  // CUDA_ERROR_NOT_FOUND
  *function = strdup(name);
  return 0;
}
int cuMemAlloc_v2(CUdeviceptr* ptr, size_t size) {
  void* p = std::malloc(size);
  last_base = reinterpret_cast<uintptr_t>(p);
  last_size = size;
  *ptr = last_base;
  return 0;
}
int cuMemFree_v2(CUdeviceptr ptr) { std::free(reinterpret_cast<void*>(ptr)); return 0; }
int cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) { std::memcpy(reinterpret_cast<void*>(dst), src, n); return 0; }
int cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) { std::memcpy(dst, reinterpret_cast<void*>(src), n); return 0; }
int cuGetErrorName(int, const char** name) { *name = "FAKE_ERROR"; return 0; }
int cuLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared_bytes, void*, void** params, void**) {
  const char* name = static_cast<const char*>(function);
  const char* fault = std::getenv("FAKE_FAULT");
  if (fault && *fault && std::strstr(name, fault)) fault_next = true;
  FILE* log = log_file();
  std::fprintf(log, "L %s %u %u %u %u %u %u %u", name, gx, gy, gz, bx, by, bz, shared_bytes);
  for (int i = 0, n = parameter_count(name); i < n; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, params[i], 8);
    if (v >= last_base && v + 8 <= last_base + last_size) {
      uint64_t word = 0;
      std::memcpy(&word, reinterpret_cast<void*>(v), 8);
      std::fprintf(log, " P%llu:%016llx", static_cast<unsigned long long>(v - last_base), static_cast<unsigned long long>(word));
    } else {
      std::fprintf(log, " V%lld", static_cast<long long>(v));
    }
  }
  std::fprintf(log, "\n");
  std::fflush(log);
  return 0;
}
}
