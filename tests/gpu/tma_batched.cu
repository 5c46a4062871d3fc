// gpu.tma_batched: TMA atoms built from slices mA[None, None, l] and mC[None, None, l] of
// batched (M, N, L) BFloat16 tensors (tma_batched.tpy). B must equal slice l of A exactly;
// slice l of C too, and C's other slices (and everything past B and C) keep their poison.
// Shapes 128 x 192 x 3 (slice 2) and 64 x 64 x 2 (slice 0). batch_copy's rank-3 atoms of the
// whole tensors: C must equal A in every batch, D its old values plus A's (each sum rounded to
// BFloat16; within one BFloat16 ulp, as the reduction may round once or twice); 128 x 192 x 3
// and 64 x 128 x 1. Exit 77 without a compute capability 9.0 GPU.
#include <cmath>
#include <cstdio>
#include <vector>

#include "sample_util.h"
#include "tma_batched.h"

namespace {

/// The (M, N, L) view of a (L * M, N) matrix: slice l is rows l * M ... l * M + M - 1.
tileslc::TensorView batched(const sample::Bf16Matrix& x, int64_t M, int64_t N, int64_t L) {
  tileslc::TensorView v = x.view();
  v.rank = 3;
  v.shape[0] = M, v.shape[1] = N, v.shape[2] = L;
  v.stride[0] = N, v.stride[1] = 1, v.stride[2] = M * N;
  return v;
}

bool run(int64_t M, int64_t N, int64_t L, int32_t l, sample::Rng& rng, cudaStream_t stream) {
  using sample::Bf16Matrix;
  const Bf16Matrix A = Bf16Matrix::random(L * M, N, -1.0f, 1.0f, rng);
  Bf16Matrix B = Bf16Matrix::poisoned(M, N, 64);
  Bf16Matrix C = Bf16Matrix::poisoned(L * M, N, 64);
  CHECK_OK(slice_copy(batched(A, M, N, L), B.view(), batched(C, M, N, L), l, stream));
  CHECK(cudaStreamSynchronize(stream));
  B.download();
  C.download();
  int64_t b_wrong = 0, c_wrong = 0, c_stray = 0;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) b_wrong += B.at(m, n) != A.at(l * M + m, n);
  for (int64_t r = 0; r < L * M; ++r)
    for (int64_t n = 0; n < N; ++n) {
      if (r / M == l) c_wrong += C.at(r, n) != A.at(r, n);
      else c_stray += !std::isnan(C.at(r, n));  // the poison is NaN
    }
  const bool ok = b_wrong == 0 && c_wrong == 0 && c_stray == 0 && B.written_outside_view() == 0 && C.written_outside_view() == 0;
  std::printf("tma_batched: %lldx%lldx%lld slice %d: B %lld wrong, C slice %lld wrong, other slices %lld written  %s\n",
              (long long)M, (long long)N, (long long)L, l, (long long)b_wrong, (long long)c_wrong, (long long)c_stray,
              ok ? "PASS" : "FAIL");
  return ok;
}

// batch_copy: rank-3 tensor maps of the whole (M, N, L) tensors.
bool run_batches(int64_t M, int64_t N, int64_t L, sample::Rng& rng, cudaStream_t stream) {
  using sample::Bf16Matrix;
  const Bf16Matrix A = Bf16Matrix::random(L * M, N, -1.0f, 1.0f, rng);
  Bf16Matrix C = Bf16Matrix::poisoned(L * M, N, 64);
  Bf16Matrix D = Bf16Matrix::random(L * M, N, -1.0f, 1.0f, rng);
  std::vector<float> d0(static_cast<size_t>(L * M * N));  // D's values before the reduction
  for (int64_t r = 0; r < L * M; ++r)
    for (int64_t n = 0; n < N; ++n) d0[static_cast<size_t>(r * N + n)] = D.at(r, n);
  CHECK_OK(batch_copy(batched(A, M, N, L), batched(C, M, N, L), batched(D, M, N, L), stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();
  D.download();
  int64_t c_wrong = 0, d_wrong = 0;
  for (int64_t r = 0; r < L * M; ++r)
    for (int64_t n = 0; n < N; ++n) {
      c_wrong += C.at(r, n) != A.at(r, n);
      const double want = static_cast<double>(d0[static_cast<size_t>(r * N + n)]) + A.at(r, n);
      d_wrong += !(std::fabs(D.at(r, n) - want) <= std::fabs(want) * 0x1p-7 + 0x1p-133);
    }
  const bool ok = c_wrong == 0 && d_wrong == 0 && C.written_outside_view() == 0;
  std::printf("tma_batched: %lldx%lldx%lld rank-3 maps: C %lld wrong, D %lld wrong  %s\n", (long long)M, (long long)N,
              (long long)L, (long long)c_wrong, (long long)d_wrong, ok ? "PASS" : "FAIL");
  return ok;
}

}  // namespace

int main() {
  sample::require_device_or_skip("tma_batched");
  sample::require_compute_capability_or_skip("tma_batched", 9, "sm_90a: TMA");
  return sample::run_sample("tma_batched", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = run(128, 192, 3, 2, rng, stream);
    ok &= run(64, 64, 2, 0, rng, stream);
    ok &= run_batches(128, 192, 3, rng, stream);
    ok &= run_batches(64, 128, 1, rng, stream);
    return ok;
  });
}
