// Cluster launches (sm_90 thread-block clusters): the cluster checks, then
// cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension. Built into
// libtileslc_rt and into the CPU emulation runtime, whose CUDA shim's
// cudaLaunchKernelExC runs the CTAs of each cluster together
// (tileslc/cpu/cuda_runtime_api.h).
#include <string>

#include "tileslc/runtime.h"

namespace tileslc {
namespace {

constexpr unsigned kMaxClusterPortable = 8u;      // blocks per cluster every sm_90 GPU schedules
constexpr unsigned kMaxClusterNonPortable = 16u;  // with cudaFuncAttributeNonPortableClusterSizeAllowed (H100/H200)

std::string name_of(const char* kernel_name) { return kernel_name ? kernel_name : "kernel"; }

std::string dim_text(dim3 d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

Status check_dim(const char* kernel, const char* axis, unsigned value) {
  if (value == 0) return Status::error(name_of(kernel) + ": cluster dimension " + axis + " is 0, expected a positive value");
  if (value > kMaxClusterNonPortable) {
    return Status::error(name_of(kernel) + ": cluster dimension " + axis + " is " + std::to_string(value) + ", expected at most " +
                         std::to_string(kMaxClusterNonPortable));
  }
  return Status();
}

Status launch_cluster_unrecorded(const void* kernel, const char* kernel_name, dim3 grid, dim3 block, dim3 cluster,
                                 size_t smem_bytes, cudaStream_t stream, void** args);

}  // namespace

Status launch_kernel_cluster(const void* kernel, const char* kernel_name, dim3 grid, dim3 block, dim3 cluster,
                             size_t smem_bytes, cudaStream_t stream, void** args) {
  if (!metrics::enabled()) return launch_cluster_unrecorded(kernel, kernel_name, grid, block, cluster, smem_bytes, stream, args);
  struct Call {
    const void* kernel;
    const char* name;
    dim3 grid, block, cluster;
    size_t smem;
    cudaStream_t stream;
    void** args;
  } call{kernel, kernel_name, grid, block, cluster, smem_bytes, stream, args};
  return metrics::recorded_launch(kernel_name, grid, block, smem_bytes, stream, [](void* c) {
    const Call& k = *static_cast<const Call*>(c);
    return launch_cluster_unrecorded(k.kernel, k.name, k.grid, k.block, k.cluster, k.smem, k.stream, k.args);
  }, &call);
}

namespace {

Status launch_cluster_unrecorded(const void* kernel, const char* kernel_name, dim3 grid, dim3 block, dim3 cluster,
                                 size_t smem_bytes, cudaStream_t stream, void** args) {
  const char* name = kernel_name;
  if (Status s = check_dim(name, "x", cluster.x); !s) return s;
  if (Status s = check_dim(name, "y", cluster.y); !s) return s;
  if (Status s = check_dim(name, "z", cluster.z); !s) return s;
  const unsigned ctas = cluster.x * cluster.y * cluster.z;
  if (ctas > kMaxClusterNonPortable) {
    return Status::error(name_of(name) + ": cluster " + dim_text(cluster) + " has " + std::to_string(ctas) +
                         " blocks, expected at most " + std::to_string(kMaxClusterNonPortable) + " (8 portable)");
  }
  // A cluster tiles the grid: each grid dimension must be a multiple of the cluster's.
  const unsigned g[3] = {grid.x, grid.y, grid.z}, c[3] = {cluster.x, cluster.y, cluster.z};
  for (int d = 0; d < 3; ++d) {
    if (g[d] % c[d] != 0) {
      static const char* const kAxes[] = {"x", "y", "z"};
      return Status::error(name_of(name) + ": grid " + dim_text(grid) + " is not divisible by cluster " + dim_text(cluster) +
                           " along " + kAxes[d] + " (" + std::to_string(g[d]) + " % " + std::to_string(c[d]) + " = " +
                           std::to_string(g[d] % c[d]) + ")");
    }
  }
  if (Status s = launch_prepare(kernel, name, grid, block, smem_bytes); !s) return s;
  if (ctas > kMaxClusterPortable) {
    // Clusters of 9 to 16 blocks are opt-in per kernel (CUDA C++ Programming Guide, "Thread Block Clusters").
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      return Status::error(name_of(name) + ": cannot allow the non-portable cluster size " + std::to_string(ctas) + ": " +
                           cudaGetErrorString(err));
    }
  }
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster.x;
  attr[0].val.clusterDim.y = cluster.y;
  attr[0].val.clusterDim.z = cluster.z;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  config.attrs = attr;
  config.numAttrs = 1;
  cudaError_t err = cudaLaunchKernelExC(&config, kernel, args);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return Status::error(name_of(name) + ": launch failed: " + cudaGetErrorString(err) + " (grid " + dim_text(grid) + ", block " + dim_text(block) +
                         ", cluster " + dim_text(cluster) + ", " + std::to_string(smem_bytes) + " bytes of dynamic shared memory)");
  }
  return Status();
}

}  // namespace

}  // namespace tileslc
