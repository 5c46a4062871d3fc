// gpu.wgmma_rs: wgmma.mma_async m64n128k16 with A from registers (the RS form,
// wgmma_rs.tpy): C = A * B^T, BFloat16 in, Float32 out, on 128 x 256 x 320
// (2 x 2 CTAs, 5 k-tiles) and 64 x 128 x 64. Random inputs in [-1, 1) rounded
// to BFloat16; every entry is checked against the float64 reference with the
// tensor-core GEMM tolerance of the samples (sample_util.h); C starts
// NaN-poisoned with a guard after it. Exit 77 without a compute capability 9.0 GPU.
#include "sample_util.h"
#include "wgmma_rs.h"

namespace {

bool run(int64_t M, int64_t N, int64_t K, sample::Rng& rng, cudaStream_t stream) {
  const auto A = sample::Bf16Matrix::random(M, K, -1.0f, 1.0f, rng);
  const auto B = sample::Bf16Matrix::random(N, K, -1.0f, 1.0f, rng);
  auto C = sample::DeviceMatrix::poisoned(sample::Matrix2D::row_major(M, N), 64);
  CHECK_OK(wgmma_rs(A.view(), B.view(), C.view(), stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();
  auto ref = [&](int64_t m, int64_t n) { return sample::reference_abt(A, B, m, n); };
  return sample::check_gemm("wgmma_rs", M, N, K, 0, C, ref, sample::tensor_core_tolerance(K));
}

}  // namespace

int main() {
  sample::require_device_or_skip("wgmma_rs");
  sample::require_compute_capability_or_skip("wgmma_rs", 9, "sm_90a: wgmma");
  return sample::run_sample("wgmma_rs", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = run(128, 256, 320, rng, stream);
    ok &= run(64, 128, 64, rng, stream);
    return ok;
  });
}
