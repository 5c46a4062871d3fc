// The program tests/gdb/cuda_gdb_vector_add.sh debugs in cuda-gdb: samples/vector_add
// on the GPU with the inputs of the emulator's gdb.vector_add test (N = 2000,
// A[i] = i / 2, B[i] = i / 4, two blocks of 256 threads, each thread 4 elements),
// so the values cuda-gdb prints are the ones that test checks: thread (5,0,0) of
// block (1,0,0) has base = i = 1029, gA[i] = 514.5, then i = 1285.
// Prints PASS and exits 0 when C = 3i / 4; 77 without a CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "tileslc/runtime.h"
#include "vector_add.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  const int64_t n = 2000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 0.25f * static_cast<float>(i);
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto mA = tileslc::make_tensor_view(da, tileslc::DType::Float32, {n});
  auto mB = tileslc::make_tensor_view(db, tileslc::DType::Float32, {n});
  auto mC = tileslc::make_tensor_view(dc, tileslc::DType::Float32, {n});
  if (tileslc::Status s = vector_add(mA, mB, mC); !s) {
    std::printf("vector_add: %s\n", s.message().c_str());
    return 1;
  }
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int64_t i = 0; i < n; ++i)
    if (c[i] != 0.75f * static_cast<float>(i)) {
      std::printf("FAIL: C[%lld] = %g, expected %g\n", static_cast<long long>(i), c[i], 0.75 * static_cast<double>(i));
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
