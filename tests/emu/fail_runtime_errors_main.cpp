// Driver of the planted run-time errors in fail_runtime_errors.tpy; the
// argument picks one (under the CPU emulator the run never returns here, it
// exits with the report):
//   div_zero      a // 0 in thread 3
//   mod_zero      a % 0 in thread 3
//   div_overflow  INT32_MIN // -1 in thread 3
//   step_zero     range(0, 10, 0) in a kernel
//   host_step_zero  range(0, 4, 0) in a host function, which returns the
//                 error (printed to stderr, exit status 1)
//   grid_y        a run-time grid y of 70000 (over CUDA's 65535)
//   smem_over     300000 bytes of dynamic shared memory (over the device's
//                 opt-in limit per block)
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "fail_runtime_errors.h"

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  std::vector<int32_t> a(32, 7);
  if (what == "div_overflow") a[3] = INT32_MIN;
  void* p = nullptr;
  if (cudaMalloc(&p, a.size() * sizeof(int32_t)) != cudaSuccess) return 2;
  if (cudaMemcpy(p, a.data(), a.size() * sizeof(int32_t), cudaMemcpyHostToDevice) != cudaSuccess) return 2;
  auto mA = tileslc::make_tensor_view(p, tileslc::DType::Int32, {32});
  tileslc::Status s;
  if (what == "div_zero")
    s = divide(mA, 0, 0);
  else if (what == "mod_zero")
    s = divide(mA, 0, 1);
  else if (what == "div_overflow")
    s = divide(mA, -1, 0);
  else if (what == "step_zero")
    s = range_step(mA, 0);
  else if (what == "host_step_zero")
    s = host_range_step(mA, 0);
  else if (what == "grid_y")
    s = launch_config(mA, 70000, 0);
  else if (what == "smem_over")
    s = launch_config(mA, 1, 300000);
  else
    return 2;
  if (s.ok()) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) s = tileslc::Status::error(cudaGetErrorString(e));
  }
  cudaFree(p);
  if (!s.ok()) {
    std::fprintf(stderr, "fail_runtime_errors %s: %s\n", what.c_str(), s.message().c_str());
    return 1;
  }
  std::printf("fail_runtime_errors %s: returned ok\n", what.c_str());
  return 0;
}
