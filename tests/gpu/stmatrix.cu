// gpu.stmatrix: stmatrix .x1, .x2, .x4 and .x2/.x4 .trans (stmatrix.tpy): a
// random 32 x 32 BFloat16 tile goes through MMA C fragments, stmatrix into
// shared memory and back out; each output starts poisoned (with a guard after
// it) and must equal the input bit for bit. Exit 77 without a compute
// capability 9.0 GPU (stmatrix is sm_90); the CPU emulator runs it too.
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "stmatrix.h"

int main() {
  sample::require_device_or_skip("stmatrix");
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
#ifdef TILESLC_CPU_CUDA_RUNTIME_API_H
  major = 9;  // built for the CPU emulator (emu.gpu.stmatrix), which runs stmatrix whatever it reports
#endif
  if (major != 9) {
    std::printf("stmatrix: skipped: needs a compute capability 9.0 GPU, found %d.x\n", major);
    return sample::kSkipExitCode;
  }
  return sample::run_sample("stmatrix", [](sample::Rng& rng, cudaStream_t stream) {
    using sample::Bf16Matrix;
    const Bf16Matrix C = Bf16Matrix::random(32, 32, -4.0f, 4.0f, rng);
    Bf16Matrix outs[5] = {Bf16Matrix::poisoned(32, 32, 64), Bf16Matrix::poisoned(32, 32, 64), Bf16Matrix::poisoned(32, 32, 64),
                          Bf16Matrix::poisoned(32, 32, 64), Bf16Matrix::poisoned(32, 32, 64)};
    CHECK_OK(stsm(C.view(), outs[0].view(), outs[1].view(), outs[2].view(), outs[3].view(), outs[4].view(), stream));
    CHECK(cudaStreamSynchronize(stream));
    const char* names[5] = {"x1", "x2", "x4", "x2.trans", "x4.trans"};
    bool ok = true;
    for (int v = 0; v < 5; ++v) {
      Bf16Matrix& out = outs[v];
      ok &= sample::check_exact("stmatrix", std::string(names[v]) + " 32x32", out, 32, 32,
                                [&](int64_t m, int64_t n) { return out.at(m, n) != C.at(m, n); });
    }
    return ok;
  });
}
