// Driver of tests/cute_dsl/dense_gemm_aot.tpy: batched C = A * B^T, BFloat16 in and out, checked
// against a float64 GEMM of the rounded inputs. The shapes keep what the unchanged example does
// well defined under the emulator, which stops where the GPU goes on with an unspecified value:
// - M >= 1024: its CTA swizzle groups 8 clusters along M, `cluster_id % num_reg_cids` with
//   num_reg_cids = 8 * (clusters along M // 8) * clusters along N, a modulo by zero for fewer than
//   8 clusters along M (PTX leaves the result unspecified; the example's tail branch then
//   overwrites it; the emulator reports "integer modulo by zero");
// - a ragged N leaves less than 32 columns of the last 256-column tile unused: the example
//   TMA-stores every 32-column epilogue subtile of a tile, and the emulator reports a store box
//   entirely outside C (the GPU writes nothing);
// - K and N multiples of 8: TMA descriptors need 16-byte row strides.
// 1100 x 488 x 104 covers ragged M (a tail cluster row), N and K.
#include <array>
#include <cmath>

#include "compat_driver.h"
#include "dense_gemm_aot.h"

int main() {
  return sample::run_sample("dense_gemm", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const std::array<std::array<int64_t, 4>, 3> shapes{{{1024, 256, 64, 1}, {1152, 512, 192, 2}, {1100, 488, 104, 1}}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1], K = shape[2], L = shape[3];  // named, not bound: the lambda captures K (C++17)
      auto bf16 = tileslc::DType::BFloat16;
      auto a = compat::make(bf16, {M, K, L}, {K, 1, M * K}, -1, 1, rng);
      auto b = compat::make(bf16, {N, K, L}, {K, 1, N * K}, -1, 1, rng);
      auto c = compat::make(bf16, {M, N, L}, {N, 1, M * N}, 0, 0, rng);
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d("dense_gemm", sample::gemm_shape_text(M, N, K) + " L=" + std::to_string(L), c, M, N,
                             1e-2 * std::sqrt(static_cast<double>(K)), [&](int64_t m, int64_t n, int64_t l) {
                               double s = 0;
                               for (int64_t k = 0; k < K; ++k) s += a({m, k, l}) * b({n, k, l});
                               return s;
                             }, L);
    }
    return ok;
  });
}
