// Driver of the planted bug in fail_stack_overflow.tpy: runs it once on 32 floats.
// Under the CPU emulator the run never returns here; it exits with the report.
#include <cstdio>

#include <cuda_runtime.h>

#include "fail_stack_overflow.h"

int main() {
  const int64_t n = 32;
  void* a = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess) return 2;
  tileslc::Status s = f(tileslc::make_tensor_view(a, tileslc::DType::Float32, {n}));
  std::printf("fail_stack_overflow: returned %s\n", s.ok() ? "ok" : s.message().c_str());
  cudaFree(a);
  return 0;
}
