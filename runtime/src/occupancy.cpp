// Cluster occupancy for persistent grids: how many thread-block clusters of a
// given size the current GPU runs at once when each block fills an SM. GPCs
// hold SM counts that a cluster size need not divide, so this can be fewer
// than the SM count over the cluster size (CUDA programming guide, "Thread
// Block Clusters"; cudaOccupancyMaxActiveClusters). CuTe DSL's
// HardwareInfo.get_max_active_clusters answers the same question the same way:
// a probe kernel with all of a block's opt-in shared memory.
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <utility>

#include "tileslc/runtime.h"

namespace tileslc {

namespace {

// An empty kernel, loaded once per device from PTX (JIT-compiled by the driver).
const char kProbePtx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry tileslc_cluster_probe()\n"
    "{\n"
    "  ret;\n"
    "}\n";

// The probe's answer for `cluster_size` on `dev`, or -1 when the runtime cannot give one
// (a GPU without clusters, an old driver): every error is cleared.
int64_t probe(int dev, int64_t cluster_size) {
  static std::map<int, cudaKernel_t> kernels;  // guarded by the caller's lock
  auto fail = [] {
    (void)cudaGetLastError();
    return int64_t{-1};
  };
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess || major < 9) return fail();
  auto it = kernels.find(dev);
  if (it == kernels.end()) {
    cudaLibrary_t lib = nullptr;
    cudaKernel_t k = nullptr;
    if (cudaLibraryLoadData(&lib, kProbePtx, nullptr, nullptr, 0, nullptr, nullptr, 0) != cudaSuccess ||
        cudaLibraryGetKernel(&k, lib, "tileslc_cluster_probe") != cudaSuccess)
      return fail();
    it = kernels.emplace(dev, k).first;
  }
  const void* fn = reinterpret_cast<const void*>(it->second);
  int smem = 0;
  if (cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
      cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) != cudaSuccess)
    return fail();
  if (cluster_size > 8 && cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess)
    return fail();
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster_size);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(cluster_size), 1, 1);
  config.blockDim = dim3(128, 1, 1);
  config.dynamicSmemBytes = static_cast<size_t>(smem);
  config.attrs = &attr;
  config.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, fn, &config) != cudaSuccess) return fail();
  return clusters;
}

}  // namespace

int64_t max_active_clusters(int64_t cluster_size) {
  if (cluster_size < 1 || cluster_size > 16) return 0;  // no clusters of that size exist
  const int64_t fallback = device_multiprocessor_count() / cluster_size;
  if (cluster_size == 1) return fallback;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return fallback;
  }
  static std::mutex mu;
  static std::map<std::pair<int, int64_t>, int64_t> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(dev, cluster_size);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const int64_t n = probe(dev, cluster_size);
  return cache[key] = n > 0 ? n : fallback;
}

}  // namespace tileslc
