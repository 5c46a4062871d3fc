// gpu.wgmma_fp8: wgmma.mma_async m64n128k32 with Float8 inputs (wgmma_fp8.tpy),
// C = A * B^T for E4M3 x E4M3 and E4M3 x E5M2 on 128 x 256 x 384 (2 x 2 CTAs,
// 3 k-tiles), with A read from shared memory (SS) and from registers (RS: each
// thread's 16 values per instruction copied out of the tile; a fragment in the
// wrong order multiplies the wrong elements and gives errors of order 1).
// Inputs are random non-zero fp8 values in [-2, 2); the reference is the
// float64 sum of the products of the decoded fp8 values. Every product of two
// fp8 values is exact in Float32, so the error is the accumulation's: the
// tensor cores keep about 14 bits of the running sum in fp8 wgmma (DeepSeek-V3
// report, section 3.3.2), so each of the K / 32 instructions may lose 2^-13 of
// it: tolerance (K / 32) * 2^-13 relative to max |C|. Layout or descriptor
// mistakes give errors of order 1. C starts NaN-poisoned with a guard after
// it. Exit 77 without a compute capability 9.0 GPU.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_fp8.h>

#include "sample_util.h"
#include "wgmma_fp8.h"

namespace {

constexpr int64_t kGuard = 64;

// A row-major (rows, cols) fp8 matrix on the device with its decoded values on the host.
template <class Fp8>
struct Fp8Matrix {
  int64_t rows, cols;
  std::vector<Fp8> bits;
  std::vector<double> value;
  tileslc::DeviceBuffer buffer;

  Fp8Matrix(int64_t r, int64_t c, tileslc::DType dtype, sample::Rng& rng) : rows(r), cols(c), bits(r * c), value(r * c), dtype_(dtype) {
    for (int64_t i = 0; i < r * c; ++i) {
      do {  // non-zero, so that every element of A and B counts in C
        bits[i] = Fp8(rng.uniform(-2.0f, 2.0f));
        value[i] = static_cast<double>(static_cast<float>(bits[i]));
      } while (value[i] == 0.0);
    }
    CHECK_OK(buffer.allocate(bits.size()));
    CHECK_OK(buffer.copy_from_host(bits.data(), bits.size()));
  }
  tileslc::TensorView view() const { return tileslc::make_tensor_view(buffer.data(), dtype_, {rows, cols}, {cols, 1}); }

 private:
  tileslc::DType dtype_;
};

template <class FpB, class Fn>
bool run(const char* what, tileslc::DType b_dtype, Fn gemm, sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = 128, N = 256, K = 384;
  Fp8Matrix<__nv_fp8_e4m3> A(M, K, tileslc::DType::Float8E4M3FN, rng);
  Fp8Matrix<FpB> B(N, K, b_dtype, rng);
  auto C = sample::DeviceMatrix::poisoned(sample::Matrix2D::row_major(M, N), kGuard);
  CHECK_OK(gemm(A.view(), B.view(), C.view(), stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();
  auto ref = [&](int64_t m, int64_t n) {
    double sum = 0;
    for (int64_t k = 0; k < K; ++k) sum += A.value[m * K + k] * B.value[n * K + k];
    return sum;
  };
  // Every entry against float64 (NaN counts as never written), and nothing past C.
  const std::string name = std::string("wgmma_fp8: ") + what;
  return sample::check_gemm(name.c_str(), M, N, K, 0, C, ref, static_cast<double>(K / 32) * std::ldexp(1.0, -13));
}

}  // namespace

int main() {
  sample::require_device_or_skip("wgmma_fp8");
  sample::require_compute_capability_or_skip("wgmma_fp8", 9, "sm_90a: wgmma");
  return sample::run_sample("wgmma_fp8", [](sample::Rng& rng, cudaStream_t stream) {
    bool ok = run<__nv_fp8_e4m3>("E4M3 x E4M3", tileslc::DType::Float8E4M3FN,
                                 [](auto a, auto b, auto c, cudaStream_t s) { return wgmma_e4m3(a, b, c, s); }, rng, stream);
    ok &= run<__nv_fp8_e5m2>("E4M3 x E5M2", tileslc::DType::Float8E5M2,
                             [](auto a, auto b, auto c, cudaStream_t s) { return wgmma_e4m3_e5m2(a, b, c, s); }, rng, stream);
    ok &= run<__nv_fp8_e4m3>("E4M3 x E4M3, A in registers", tileslc::DType::Float8E4M3FN,
                             [](auto a, auto b, auto c, cudaStream_t s) { return wgmma_e4m3_rs(a, b, c, s); }, rng, stream);
    ok &= run<__nv_fp8_e5m2>("E4M3 x E5M2, A in registers", tileslc::DType::Float8E5M2,
                             [](auto a, auto b, auto c, cudaStream_t s) { return wgmma_e4m3_e5m2_rs(a, b, c, s); }, rng, stream);
    return ok;
  });
}
