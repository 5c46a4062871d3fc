// Driver of tests/cute_dsl/sgemm_aot.tpy: C = A * B^T in Float32, checked against a float64 GEMM.
#include <array>

#include "compat_driver.h"
#include "sgemm_aot.h"

int main() {
  return sample::run_sample("sgemm", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    // One tile; several tiles with a K loop longer than the 3-stage pipeline; ragged M and N (the
    // example predicates its copies and its stores). K is a multiple of the 8-wide k-tile: with a
    // ragged K the example's first k-tile multiplies shared-memory elements its predicated-off
    // copies never wrote (the emulator poisons them; docs/cute_dsl_compat.md).
    const std::array<std::array<int64_t, 3>, 3> shapes{{{128, 128, 8}, {256, 384, 64}, {200, 136, 32}}};
    for (auto [M, N, K] : shapes) {
      auto f32 = tileslc::DType::Float32;
      auto a = compat::make(f32, {M, K}, {K, 1}, -1, 1, rng), b = compat::make(f32, {N, K}, {K, 1}, -1, 1, rng);
      auto c = compat::poisoned(f32, {M, N}, {N, 1});
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_gemm_nt("sgemm", c, a, b, M, N, K);
    }
    return ok;
  });
}
