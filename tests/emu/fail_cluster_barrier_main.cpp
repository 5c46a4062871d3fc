// Driver of the planted bug in fail_cluster_barrier.tpy: runs it once on 128 floats, one 2x1 cluster of 64-thread blocks. Under
// the CPU emulator the run never returns here; it exits with the report.
#include <cstdio>

#include <cuda_runtime.h>

#include "fail_cluster_barrier.h"

int main() {
  const int64_t n = 128;
  void* c = nullptr;
  if (cudaMalloc(&c, n * sizeof(float)) != cudaSuccess) return 2;
  auto mC = tileslc::make_tensor_view(c, tileslc::DType::Float32, {n});
  tileslc::Status s = planted(mC);
  std::printf("fail_cluster_barrier: returned %s\n", s.ok() ? "ok" : s.message().c_str());
  cudaFree(c);
  return 0;
}
