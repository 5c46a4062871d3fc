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
// `--bench` (GPU only) also times 8192 x 8192 x 8192 (L = 1) as samples/gemm_sm90 times it
// (sample::gemm_timing, same warm-ups and reps), checking 256 sampled entries: the issue's
// "dense_gemm through tileslc at >= 0.95x gemm_sm90" comparison.
//
// The cluster variants (dense_gemm_c21_aot.tpy ...) include this file after their own header
// with DENSE_GEMM_CLUSTER_M/N defined: every shape scales so that the example's requirements
// above hold per cluster (M >= 1024 x cluster M: 8 clusters along M; whole clusters of tiles
// along M and N, as the example launches whole clusters and a CTA past C would store boxes
// entirely outside it), the (1, 1) shapes being the case cluster = (1, 1).
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "compat_driver.h"
#ifndef DENSE_GEMM_CLUSTER_M
#include "dense_gemm_aot.h"
#define DENSE_GEMM_CLUSTER_M 1
#define DENSE_GEMM_CLUSTER_N 1
#endif

namespace {

constexpr int64_t kClusterM = DENSE_GEMM_CLUSTER_M, kClusterN = DENSE_GEMM_CLUSTER_N;

/// "dense_gemm", or "dense_gemm cluster (2,1)" for a variant.
std::string sample_name() {
  if (kClusterM == 1 && kClusterN == 1) return "dense_gemm";
  return "dense_gemm cluster (" + std::to_string(kClusterM) + "," + std::to_string(kClusterN) + ")";
}

/// 8192^3 timed, 256 entries checked against float64.
bool bench(sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = 8192, N = 8192, K = 8192;
  const int kWarmup = 3, kReps = 20;  // samples/gemm_sm90/main.cu's
  auto bf16 = tileslc::DType::BFloat16;
  auto a = compat::make(bf16, {M, K, 1}, {K, 1, M * K}, -1, 1, rng);
  auto b = compat::make(bf16, {N, K, 1}, {K, 1, N * K}, -1, 1, rng);
  auto c = compat::make(bf16, {M, N, 1}, {N, 1, M * N}, 0, 0, rng);
  sample::gemm_timing(sample_name().c_str(), M, N, K, (M * K + N * K + M * N) * 2, [&] { CHECK_OK(gemm(a.view(), b.view(), c.view(), stream)); },
                      stream, kWarmup, kReps);
  CHECK(cudaStreamSynchronize(stream));
  c.download();
  sample::ErrorStats e;
  std::mt19937_64 pick(20261205);
  for (int i = 0; i < 256; ++i) {
    const int64_t m = static_cast<int64_t>(pick() % M), n = static_cast<int64_t>(pick() % N);
    double s = 0;
    for (int64_t k = 0; k < K; ++k) s += a({m, k, 0}) * b({n, k, 0});
    e.add(c({m, n, 0}), s);
  }
  return sample::report(sample_name().c_str(), "8192x8192x8192, 256 sampled entries", e, 1e-2 * std::sqrt(static_cast<double>(K)));
}

}  // namespace

int main(int argc, char** argv) {
  const bool timed = argc > 1 && std::strcmp(argv[1], "--bench") == 0;
  const std::string name = sample_name();
  return sample::run_sample(name.c_str(), [timed, &name](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    const int64_t cm = kClusterM, cn = kClusterN;  // tiles are 128 x 256
    const std::array<std::array<int64_t, 4>, 3> shapes{
        {{1024 * cm, 256 * cn, 64, 1}, {1152 * cm, 512 * cn, 192, 2}, {1152 * cm - 52, 512 * cn - 24, 104, 1}}};
    for (const auto& shape : shapes) {
      const int64_t M = shape[0], N = shape[1], K = shape[2], L = shape[3];  // named, not bound: the lambda captures K (C++17)
      auto bf16 = tileslc::DType::BFloat16;
      auto a = compat::make(bf16, {M, K, L}, {K, 1, M * K}, -1, 1, rng);
      auto b = compat::make(bf16, {N, K, L}, {K, 1, N * K}, -1, 1, rng);
      auto c = compat::make(bf16, {M, N, L}, {N, 1, M * N}, 0, 0, rng);
      CHECK_OK(gemm(a.view(), b.view(), c.view(), stream));
      CHECK(cudaStreamSynchronize(stream));
      ok &= compat::check_2d(name.c_str(), sample::gemm_shape_text(M, N, K) + " L=" + std::to_string(L), c, M, N,
                             1e-2 * std::sqrt(static_cast<double>(K)), [&](int64_t m, int64_t n, int64_t l) {
                               double s = 0;
                               for (int64_t k = 0; k < K; ++k) s += a({m, k, l}) * b({n, k, l});
                               return s;
                             }, L);
    }
    if (timed) ok &= bench(rng, stream);
    return ok;
  });
}
