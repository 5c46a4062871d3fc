// gpu.mma_sm80_ext: the TF32 (m16n8k8) and 8-bit integer (m16n8k32) mma.sync
// atoms (mma_sm80_ext.tpy): D = A * B^T + C over a 32 x 16 tile on four warps,
// random A, B and C, D poisoned first (with a guard after it that must stay
// poisoned). References in float64 (TF32: inputs rounded as cvt.rna.tf32.f32
// does, so every product is exact and the bound is Float32 accumulation of
// K + 1 terms, each step off by at most 2^-23 of the sum of magnitudes even
// if the tensor cores truncate: (K + 1) 2^-22 of it, twice that; unrounded
// inputs would be off by about 2^-12 per product) and in int64 (exact).
// Exit 77 without a GPU.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mma_sm80_ext.h"
#include "sample_util.h"

namespace {

constexpr int64_t kM = 32, kN = 16, kGuard = 64;

/// A host array and its device copy (with `guard` extra elements).
template <class T>
struct Buffer {
  std::vector<T> host;
  tileslc::DeviceBuffer dev;
  Buffer(int64_t n, int64_t guard) : host(static_cast<size_t>(n + guard)) { CHECK_OK(dev.allocate(host.size() * sizeof(T))); }
  void upload() { CHECK_OK(dev.copy_from_host(host.data(), host.size() * sizeof(T))); }
  void download() { CHECK_OK(dev.copy_to_host(host.data(), host.size() * sizeof(T))); }
  tileslc::TensorView view(tileslc::DType dt, int64_t rows, int64_t cols) const {
    return tileslc::make_tensor_view(dev.data(), dt, {rows, cols}, {cols, 1});
  }
};

/// x rounded to TF32 as cvt.rna.tf32.f32: ties away from zero, 10 mantissa bits.
float tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  std::memcpy(&x, &u, 4);
  return x;
}

/// Counts guard bytes after the D view that are no longer all-ones (the poison).
template <class T>
int64_t stray_writes(const Buffer<T>& d) {
  int64_t n = 0;
  for (int64_t i = kM * kN; i < static_cast<int64_t>(d.host.size()); ++i) {
    T poison;
    std::memset(&poison, 0xFF, sizeof poison);
    n += std::memcmp(&d.host[i], &poison, sizeof(T)) != 0;
  }
  return n;
}

bool run_tf32(sample::Rng& rng, cudaStream_t stream) {
  constexpr int64_t K = 64;
  Buffer<float> A(kM * K, 0), B(kN * K, 0), C(kM * kN, 0), D(kM * kN, kGuard);
  for (auto* b : {&A, &B, &C}) rng.fill(b->host, -1.0f, 1.0f);
  A.upload();
  B.upload();
  C.upload();
  sample::poison(D.dev.data(), D.host.size() * sizeof(float));
  CHECK_OK(mma_tf32(A.view(tileslc::DType::Float32, kM, K), B.view(tileslc::DType::Float32, kN, K), C.view(tileslc::DType::Float32, kM, kN),
                    D.view(tileslc::DType::Float32, kM, kN), stream));
  CHECK(cudaStreamSynchronize(stream));
  D.download();
  int64_t wrong = 0;
  double worst = 0;
  for (int64_t m = 0; m < kM; ++m)
    for (int64_t n = 0; n < kN; ++n) {
      double ref = C.host[m * kN + n], mag = std::fabs(ref);
      for (int64_t k = 0; k < K; ++k) {
        const double p = static_cast<double>(tf32(A.host[m * K + k])) * tf32(B.host[n * K + k]);
        ref += p;
        mag += std::fabs(p);
      }
      const double err = std::fabs(D.host[m * kN + n] - ref);
      worst = std::fmax(worst, err / mag);
      wrong += !(err <= std::ldexp(mag * (K + 1), -22));
    }
  const int64_t stray = stray_writes(D);
  const bool ok = wrong == 0 && stray == 0;
  std::printf("mma_sm80_ext: tf32 m16n8k8 (32x16x%lld): %lld wrong, worst error %.3g of the magnitude, %lld stray writes  %s\n",
              (long long)K, (long long)wrong, worst, (long long)stray, ok ? "PASS" : "FAIL");
  return ok;
}

template <class X, class F>
bool run_int8(const char* name, tileslc::DType dt, int lo, int hi, F&& launch, sample::Rng& rng) {
  constexpr int64_t K = 128;
  Buffer<X> A(kM * K, 0), B(kN * K, 0);
  Buffer<int32_t> C(kM * kN, 0), D(kM * kN, kGuard);
  for (auto* b : {&A, &B})
    for (X& x : b->host) {
      const int v = static_cast<int>(std::floor(rng.uniform(static_cast<float>(lo), static_cast<float>(hi) + 1.0f)));
      x = static_cast<X>(v < lo ? lo : v > hi ? hi : v);
    }
  for (int32_t& c : C.host) c = static_cast<int32_t>(rng.uniform(-1048576.0f, 1048576.0f));
  A.upload();
  B.upload();
  C.upload();
  sample::poison(D.dev.data(), D.host.size() * sizeof(int32_t));
  CHECK_OK(launch(A.view(dt, kM, K), B.view(dt, kN, K), C.view(tileslc::DType::Int32, kM, kN), D.view(tileslc::DType::Int32, kM, kN)));
  CHECK(cudaDeviceSynchronize());
  D.download();
  int64_t wrong = 0;
  for (int64_t m = 0; m < kM; ++m)
    for (int64_t n = 0; n < kN; ++n) {
      int64_t ref = C.host[m * kN + n];
      for (int64_t k = 0; k < K; ++k) ref += static_cast<int64_t>(A.host[m * K + k]) * static_cast<int64_t>(B.host[n * K + k]);
      wrong += D.host[m * kN + n] != static_cast<int32_t>(ref);
    }
  const int64_t stray = stray_writes(D);
  const bool ok = wrong == 0 && stray == 0;
  std::printf("mma_sm80_ext: %s m16n8k32 (32x16x%lld): %lld wrong, %lld stray writes  %s\n", name, (long long)K, (long long)wrong,
              (long long)stray, ok ? "PASS" : "FAIL");
  return ok;
}

}  // namespace

int main() {
  return sample::run_sample("mma_sm80_ext", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = run_tf32(rng, stream);
    ok &= run_int8<int8_t>(
        "s8", tileslc::DType::Int8, -128, 127,
        [&](auto a, auto b, auto c, auto d) { return mma_s8(a, b, c, d, stream); }, rng);
    ok &= run_int8<uint8_t>(
        "u8", tileslc::DType::Uint8, 0, 255,
        [&](auto a, auto b, auto c, auto d) { return mma_u8(a, b, c, d, stream); }, rng);
    return ok;
  });
}
