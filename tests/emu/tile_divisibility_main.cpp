// Driver of tile_divisibility.tpy: scale() tiles a run-time extent M (declared a multiple of 4) by 64 with no
// predicate, so its host function must refuse an M that is not a multiple of 64. The argument picks:
//   multiple     M = 192: runs, and every B[i] must be 2 * A[i] (prints "... all checks passed")
//   not_multiple M = 100: must be refused before launching (the error printed to stderr, exit status 1);
//                the emulator would otherwise report the kernel reading A[100], past the tensor
//   both         both of the above in one process, each as expected (the GPU test gpu.tile_divisibility,
//                tests/gpu/tile_divisibility.cu; exit 77 when no CUDA device is present)
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "tile_divisibility.h"

namespace {

// One run: 0 when M = 192 passes its checks, 1 when the launch was refused or a value is wrong
// (the refusal's message in `refusal`), 2 on a failed CUDA call.
int run(const std::string& what, std::string& refusal) {
  const int m = what == "multiple" ? 192 : 100;
  std::vector<float> a(m), b(m, -1.0f);
  for (int i = 0; i < m; ++i) a[i] = static_cast<float>(i) - 7.5f;
  void *pa = nullptr, *pb = nullptr;
  if (cudaMalloc(&pa, m * sizeof(float)) != cudaSuccess || cudaMalloc(&pb, m * sizeof(float)) != cudaSuccess) return 2;
  if (cudaMemcpy(pa, a.data(), m * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) return 2;
  if (cudaMemcpy(pb, b.data(), m * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) return 2;
  auto mA = tileslc::make_tensor_view(pa, tileslc::DType::Float32, {m});
  auto mB = tileslc::make_tensor_view(pb, tileslc::DType::Float32, {m});
  const tileslc::Status launched = scale(mA, mB, (m + 63) / 64);
  const cudaError_t e = launched.ok() ? cudaDeviceSynchronize() : cudaSuccess;
  // (Status is [[nodiscard]]: nvcc warns of an assignment's discarded result, so no assignment.)
  const tileslc::Status s = e == cudaSuccess ? launched : tileslc::Status::error(cudaGetErrorString(e));
  if (s.ok() && cudaMemcpy(b.data(), pb, m * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  cudaFree(pa);
  cudaFree(pb);
  if (!s.ok()) {
    refusal = s.message();
    std::fprintf(stderr, "tile_divisibility %s: %s\n", what.c_str(), refusal.c_str());
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    if (b[i] != 2.0f * a[i]) ++wrong;
  if (wrong) {
    std::printf("tile_divisibility %s: %d of %d values wrong\n", what.c_str(), wrong, m);
    return 1;
  }
  std::printf("tile_divisibility %s: all checks passed (%d values)\n", what.c_str(), m);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  std::string refusal;
  if (what == "multiple" || what == "not_multiple") return run(what, refusal);
  if (what != "both") return 2;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("tile_divisibility: built, but no CUDA device is present: not run\n");
    return 77;
  }
  if (run("multiple", refusal) != 0) return 1;
  refusal.clear();
  const int rc = run("not_multiple", refusal);
  const std::string expected = "M (extent 0 of mA) must be a multiple of 64";
  if (rc != 1 || refusal.find(expected) == std::string::npos) {
    std::printf("tile_divisibility both: M = 100 was not refused with \"%s\" (exit %d)\n", expected.c_str(), rc);
    return 1;
  }
  std::printf("tile_divisibility both: M = 192 ran and checked, M = 100 refused before launching\n");
  return 0;
}
