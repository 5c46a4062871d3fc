// Tiny __global__ kernels for the runtime tests, exposed through plain
// functions so runtime_test.cpp compiles with the host compiler.
#include <cstdint>

namespace {

__global__ void fill_kernel(float* out, int64_t n, float value) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// Uses dynamic shared memory so launching it with more than 48 KiB needs the raised limit.
__global__ void smem_kernel(float* out, int64_t n) {
  extern __shared__ float smem[];
  smem[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x < n) out[threadIdx.x] = smem[threadIdx.x];
}

}  // namespace

const void* runtime_test_fill_kernel() { return reinterpret_cast<const void*>(&fill_kernel); }
const void* runtime_test_smem_kernel() { return reinterpret_cast<const void*>(&smem_kernel); }
