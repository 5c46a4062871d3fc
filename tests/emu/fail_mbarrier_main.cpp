// Driver of the planted bug in fail_mbarrier.tpy: runs it once on a 64 x 64
// BFloat16 tensor. Under the CPU emulator the run never returns here; it
// exits with the report.
#include <cstdio>

#include <cuda_runtime.h>

#include "fail_mbarrier.h"

int main() {
  const int64_t m = 64, n = 64;
  void* a = nullptr;
  if (cudaMalloc(&a, m * n * 2) != cudaSuccess) return 2;
  cudaMemset(a, 0, m * n * 2);
  auto mA = tileslc::make_tensor_view(a, tileslc::DType::BFloat16, {m, n}, {n, 1});
  tileslc::Status s = planted(mA);
  std::printf("fail_mbarrier: returned %s\n", s.ok() ? "ok" : s.message().c_str());
  cudaFree(a);
  return 0;
}
