// Driver of the planted bug in fail_race.tpy: runs it once on 64 floats. With
// TILESLC_CPU_RACECHECK=1 the run never returns here; it exits with the report.
#include <cstdio>

#include <cuda_runtime.h>

#include "fail_race.h"

int main() {
  const int64_t n = 64;
  void* c = nullptr;
  if (cudaMalloc(&c, n * sizeof(float)) != cudaSuccess) return 2;
  auto mC = tileslc::make_tensor_view(c, tileslc::DType::Float32, {n});
  tileslc::Status s = planted(mC);
  std::printf("fail_race: returned %s\n", s.ok() ? "ok" : s.message().c_str());
  cudaFree(c);
  return 0;
}
