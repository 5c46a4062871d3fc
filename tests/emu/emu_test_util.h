// What the emulator's unit tests share: launching a hand-written kernel
// through the CUDA runtime shim as generated host code does (in clusters
// too), and the calling thread's linear index.
#ifndef TILESLC_TESTS_EMU_TEST_UTIL_H
#define TILESLC_TESTS_EMU_TEST_UTIL_H

#include "tileslc/cpu/prelude.h"
#include "tileslc/runtime.h"

namespace emu_test {

/// Launches kernel K on the emulator with the given arguments (exactly K's
/// parameter types).
template <auto K, class... A>
cudaError_t launch(dim3 grid, dim3 block, size_t smem, A... a) {
  void* args[] = {&a..., nullptr};
  return cudaLaunchKernel(reinterpret_cast<const void*>(&tileslc::cpu::kernel_entry<K>), grid, block, args, smem, nullptr);
}

/// Launches kernel K in thread-block clusters of `cluster` CTAs as generated
/// host code does (tileslc::launch_kernel_cluster, then the shim's
/// cudaLaunchKernelExC); the kernel is named "k" in errors.
template <auto K, class... A>
tileslc::Status launch_cluster(dim3 grid, dim3 block, dim3 cluster, size_t smem, A... a) {
  void* args[] = {&a..., nullptr};
  return tileslc::launch_kernel_cluster(reinterpret_cast<const void*>(&tileslc::cpu::kernel_entry<K>), "k", grid, block, cluster,
                                        smem, nullptr, args);
}

/// The calling thread's index in its CTA (x fastest).
inline int tid() { return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)); }

}  // namespace emu_test

#endif  // TILESLC_TESTS_EMU_TEST_UTIL_H
