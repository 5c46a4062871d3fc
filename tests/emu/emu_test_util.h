// What the emulator's unit tests share: launching a hand-written kernel
// through the CUDA runtime shim as generated host code does, and the calling
// thread's linear index.
#ifndef TILESLC_TESTS_EMU_TEST_UTIL_H
#define TILESLC_TESTS_EMU_TEST_UTIL_H

#include "tileslc/cpu/prelude.h"

namespace emu_test {

/// Launches kernel K on the emulator with the given arguments (exactly K's
/// parameter types).
template <auto K, class... A>
cudaError_t launch(dim3 grid, dim3 block, size_t smem, A... a) {
  void* args[] = {&a..., nullptr};
  return cudaLaunchKernel(reinterpret_cast<const void*>(&tileslc::cpu::kernel_entry<K>), grid, block, args, smem, nullptr);
}

/// The calling thread's index in its CTA (x fastest).
inline int tid() { return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)); }

}  // namespace emu_test

#endif  // TILESLC_TESTS_EMU_TEST_UTIL_H
