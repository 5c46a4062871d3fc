// Driver of the planted bug in fail_oob.tpy: runs it once on 1000 floats. Under
// the CPU emulator the run never returns here; it exits with the report.
#include <cstdio>

#include <cuda_runtime.h>

#include "fail_oob.h"

int main() {
  const int64_t n = 1000;
  void* c = nullptr;
  if (cudaMalloc(&c, n * sizeof(float)) != cudaSuccess) return 2;
  auto mC = tileslc::make_tensor_view(c, tileslc::DType::Float32, {n});
  tileslc::Status s = fill(mC, 1.0f);
  std::printf("fail_oob: returned %s\n", s.ok() ? "ok" : s.message().c_str());
  cudaFree(c);
  return 0;
}
