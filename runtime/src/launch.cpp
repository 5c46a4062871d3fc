// Kernel launch: the single path from host code (generated or hand-written)
// to a __global__ function. Validates the launch configuration on the host,
// raises the dynamic shared memory limit when needed, launches through
// cudaLaunchKernel and turns CUDA errors into Status messages naming the kernel.
#include <cstdint>
#include <string>

#include "tileslc/runtime.h"

namespace tileslc {
namespace {

constexpr unsigned kMaxGridX = 2147483647u;  // 2^31 - 1
constexpr unsigned kMaxGridYZ = 65535u;
constexpr unsigned kMaxBlockXY = 1024u;
constexpr unsigned kMaxBlockZ = 64u;
constexpr unsigned long long kMaxThreadsPerBlock = 1024ull;
constexpr size_t kDefaultSmemLimit = 48u * 1024u;

std::string name_of(const char* kernel_name) { return kernel_name ? kernel_name : "kernel"; }

std::string dim_text(dim3 d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

std::string config_text(dim3 grid, dim3 block, size_t smem_bytes) {
  return "grid " + dim_text(grid) + ", block " + dim_text(block) + ", " + std::to_string(smem_bytes) +
         " bytes of dynamic shared memory";
}

// Builds strings only on failure: the success path of a launch allocates nothing.
Status check_dim(const char* kernel, const char* what, const char* axis, unsigned value, unsigned max) {
  if (value == 0) {
    return Status::error(name_of(kernel) + ": " + what + " dimension " + axis + " is 0, expected a positive value");
  }
  if (value > max) {
    return Status::error(name_of(kernel) + ": " + what + " dimension " + axis + " is " + std::to_string(value) +
                         ", expected at most " + std::to_string(max));
  }
  return Status();
}

}  // namespace

Status check_launch_config(const char* function, const char* kernel_name, int64_t grid_x, int64_t grid_y,
                           int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z, int64_t smem_bytes) {
  const std::string where = std::string(function) + ": cannot launch " + name_of(kernel_name) + ": ";
  struct Dim {
    const char* name;
    int64_t value, min, max;
    const char* limit;
  };
  const Dim dims[] = {
      {"grid x", grid_x, 0, kMaxGridX, "2147483647 (2^31 - 1) for grid x"},
      {"grid y", grid_y, 0, kMaxGridYZ, "65535 for grid y and z"},
      {"grid z", grid_z, 0, kMaxGridYZ, "65535 for grid y and z"},
      {"block x", block_x, 1, kMaxBlockXY, "1024 for block x and y"},
      {"block y", block_y, 1, kMaxBlockXY, "1024 for block x and y"},
      {"block z", block_z, 1, kMaxBlockZ, "64 for block z"},
  };
  for (const Dim& d : dims) {
    if (d.value < d.min)
      return Status::error(where + d.name + " is " + std::to_string(d.value) + ", expected " + (d.min ? "at least 1" : "at least 0"));
    if (d.value > d.max)
      return Status::error(where + d.name + " is " + std::to_string(d.value) + ", over the limit of " + d.limit);
  }
  if (block_x * block_y * block_z > static_cast<int64_t>(kMaxThreadsPerBlock))
    return Status::error(where + "block (" + std::to_string(block_x) + ", " + std::to_string(block_y) + ", " + std::to_string(block_z) +
                         ") is " + std::to_string(block_x * block_y * block_z) + " threads, over the limit of " +
                         std::to_string(kMaxThreadsPerBlock) + " threads per block");
  if (smem_bytes < 0) return Status::error(where + "dynamic shared memory is " + std::to_string(smem_bytes) + " bytes, expected at least 0");
  return Status();
}

// The checks and the shared-memory attribute every launch path shares.
Status launch_prepare(const void* kernel, const char* name, dim3 grid, dim3 block, size_t smem_bytes) {
  if (kernel == nullptr) return Status::error(name_of(name) + ": null kernel address, expected a __global__ function");
  if (Status s = check_dim(name, "grid", "x", grid.x, kMaxGridX); !s) return s;
  if (Status s = check_dim(name, "grid", "y", grid.y, kMaxGridYZ); !s) return s;
  if (Status s = check_dim(name, "grid", "z", grid.z, kMaxGridYZ); !s) return s;
  if (Status s = check_dim(name, "block", "x", block.x, kMaxBlockXY); !s) return s;
  if (Status s = check_dim(name, "block", "y", block.y, kMaxBlockXY); !s) return s;
  if (Status s = check_dim(name, "block", "z", block.z, kMaxBlockZ); !s) return s;
  const unsigned long long threads =
      static_cast<unsigned long long>(block.x) * block.y * block.z;
  if (threads > kMaxThreadsPerBlock) {
    return Status::error(name_of(name) + ": block " + dim_text(block) + " has " + std::to_string(threads) +
                         " threads, expected at most " + std::to_string(kMaxThreadsPerBlock));
  }
  if (smem_bytes > kDefaultSmemLimit) {
    cudaError_t err =
        smem_bytes > static_cast<size_t>(INT32_MAX)
            ? cudaErrorInvalidValue
            : cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes));
    if (err != cudaSuccess) {
      (void)cudaGetLastError();  // clear the non-sticky error so it is not reported twice
      // The usual cause: more than the device lets a block opt in to. Name that limit.
      int device = 0, optin = 0;
      if (cudaGetDevice(&device) == cudaSuccess &&
          cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess && optin > 0 &&
          smem_bytes > static_cast<size_t>(optin)) {
        (void)cudaGetLastError();
        return Status::error(name_of(name) + ": " + std::to_string(smem_bytes) +
                             " bytes of dynamic shared memory is over this GPU's limit of " + std::to_string(optin) +
                             " bytes per block (cudaDevAttrMaxSharedMemoryPerBlockOptin)");
      }
      (void)cudaGetLastError();
      return Status::error(name_of(name) + ": cannot raise the dynamic shared memory limit to " + std::to_string(smem_bytes) +
                           " bytes: " + cudaGetErrorString(err));
    }
  }
  return Status();
}

Status launch_kernel_full(const void* kernel, const char* kernel_name, dim3 grid, dim3 block, size_t smem_bytes,
                     cudaStream_t stream, void** args) {
  if (Status s = launch_prepare(kernel, kernel_name, grid, block, smem_bytes); !s) return s;
  // cudaLaunchKernel reports this launch's errors itself; asking cudaGetLastError
  // as well would cost a second runtime call per launch (launch overhead) and
  // could report an earlier, unrelated asynchronous error as this launch's.
  cudaError_t err = cudaLaunchKernel(kernel, grid, block, args, smem_bytes, stream);
  if (err != cudaSuccess) return launch_failed(err, kernel_name, grid, block, smem_bytes);
  return Status();
}

Status launch_failed(cudaError_t err, const char* kernel_name, dim3 grid, dim3 block, size_t smem_bytes) {
  (void)cudaGetLastError();  // clear the non-sticky error so it is not reported twice
  return Status::error(name_of(kernel_name) + ": launch failed: " + cudaGetErrorString(err) + " (" +
                       config_text(grid, block, smem_bytes) + ")");
}

}  // namespace tileslc
