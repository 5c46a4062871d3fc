// gemm_fp8_sm90 driver: runs the tileslc-generated FP8 GEMMs (C = scale_a *
// scale_b * A * B^T, A (M, K) E4M3 and B (N, K) E4M3 or E5M2 row-major, C
// (M, N) BFloat16 row-major; Float32 accumulation promoted every 4 k-tiles of
// 128), without clusters, in 2x1 clusters multicasting B (_cluster) and with
// the tiles chosen by shape (_auto), on ragged and square shapes. Inputs are random fp8 values (non-zero,
// in [-2, 2)) with rows padded where K is not a multiple of 16 (the padding
// holds NaN: a read of it shows); the reference is the float64 sum of the
// products of the decoded values times the scales. C, its padding and a guard
// after it are NaN-poisoned before each call. Small shapes are checked on
// every entry, large ones on sampled entries plus a scan for NaN, then timed.
//
// Tolerance on max |C - ref| / max |ref|: every product of two fp8 values is
// exact in Float32; FP8 wgmma keeps about 14 bits of its running sum (see
// tests/gpu/wgmma_fp8.cu), so each k32 instruction may lose 2^-13 of it, but
// only over one promotion interval (4 k-tiles: 16 instructions) before the sum
// moves to a Float32 register: min(K, 512) / 32 * 2^-13; plus 2^-8 for the
// BFloat16 output. Without promotion the first term would grow with K (0.03
// at K = 8192); a layout or scale mistake gives errors of order 1.
//
// Usage: gemm_fp8_sm90 [--small]   (--small: the small shapes and the
// validation only, for the CPU emulator and compute-sanitizer)
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// or not a compute capability 9.0 device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_fp8.h>

#include "gemm_fp8_sm90.h"
#include "sample_util.h"

namespace {

const char* kName = "gemm_fp8_sm90";
constexpr int64_t kGuard = 64;
constexpr int64_t kPromoteProducts = 4 * 128;  // the kernel's PROMOTE k-tiles of BK

double tolerance(int64_t K) {
  return std::ldexp(1.0, -8) + static_cast<double>(std::min(K, kPromoteProducts)) / 32.0 * std::ldexp(1.0, -13);
}

// A row-major (rows, cols) fp8 matrix in device memory, rows `ld` elements
// apart (padding NaN: 0x7F in E4M3, 0x7F is NaN in E5M2 too), with its decoded values on the host.
template <class Fp8>
struct Fp8Matrix {
  int64_t rows, cols, ld;
  std::vector<unsigned char> bits;
  std::vector<double> value;  // rows x cols, compact
  tileslc::DeviceBuffer buffer;
  tileslc::DType dtype;

  Fp8Matrix(int64_t r, int64_t c, int64_t row_stride, tileslc::DType dt, sample::Rng& rng)
      : rows(r), cols(c), ld(row_stride), bits(r * row_stride, 0x7F), value(r * c), dtype(dt) {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < c; ++j) {
        Fp8 f;
        do {  // non-zero, so that every element counts in C
          f = Fp8(rng.uniform(-2.0f, 2.0f));
        } while (static_cast<float>(f) == 0.0f);
        std::memcpy(&bits[i * ld + j], &f, 1);
        value[i * c + j] = static_cast<double>(static_cast<float>(f));
      }
    CHECK_OK(buffer.allocate(bits.size()));
    CHECK_OK(buffer.copy_from_host(bits.data(), bits.size()));
  }
  tileslc::TensorView view() const { return tileslc::make_tensor_view(buffer.data(), dtype, {rows, cols}, {ld, 1}); }
};

struct Case {
  int64_t M, N, K;
  int64_t sampled = 0;  // 0: every entry; else that many random entries and a scan for NaN
  bool timed = false;
};

// One call of `gemm` (an E4M3 x FpB entry point) on random inputs with scales 0.5 and 3.
template <class FpB, class Fn>
bool run_case(const char* what, tileslc::DType b_dtype, Fn gemm, const Case& c, sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = c.M, N = c.N, K = c.K, ld = (K + 15) / 16 * 16, ldc = (N + 7) / 8 * 8;
  const float scale_a = 0.5f, scale_b = 3.0f;
  Fp8Matrix<__nv_fp8_e4m3> A(M, K, ld, tileslc::DType::Float8E4M3FN, rng);
  Fp8Matrix<FpB> B(N, K, ld, b_dtype, rng);
  sample::Bf16Matrix C = sample::Bf16Matrix::poisoned(M, N, kGuard, ldc);
  CHECK_OK(gemm(A.view(), B.view(), C.view(), scale_a, scale_b, stream));
  CHECK(cudaStreamSynchronize(stream));
  C.download();
  auto ref = [&](int64_t m, int64_t n) {
    double sum = 0.0;
    for (int64_t k = 0; k < K; ++k) sum += A.value[m * K + k] * B.value[n * K + k];
    return sum * scale_a * scale_b;
  };
  bool ok = sample::check_gemm(what, M, N, K, c.sampled, C, ref, tolerance(K));
  if (c.timed) {
    const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
    const int64_t operand_bytes = M * K + N * K + M * N * 2;
    sample::gemm_timing(what, M, N, K, operand_bytes, [&] { CHECK_OK(gemm(mA, mB, mC, scale_a, scale_b, stream)); }, stream, 3, 20);
  }
  return ok;
}

// Every FP8 entry point, in the order the driver runs them: the cluster ones in 2x1 clusters
// multicasting B, where an odd tile count along M (128, 100 rows: one tile) leaves the cluster's
// second CTA without a tile of its own (it still loads and multicasts its half of B); the _auto ones
// choose their tiles by shape (128 x 192 in 2x1 clusters where those make >= 8 waves, else 128 x 128).
struct Entry {
  const char* what;
  bool e5m2;  // B is E5M2 (else E4M3)
  tileslc::Status (*fn)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, float, float, cudaStream_t);
};
const Entry kEntries[] = {
    {"gemm_fp8_sm90 (E4M3 x E4M3)", false, gemm_fp8_sm90},
    {"gemm_fp8_e4m3_e5m2_sm90", true, gemm_fp8_e4m3_e5m2_sm90},
    {"gemm_fp8_sm90_cluster (E4M3 x E4M3)", false, gemm_fp8_sm90_cluster},
    {"gemm_fp8_e4m3_e5m2_sm90_cluster", true, gemm_fp8_e4m3_e5m2_sm90_cluster},
    {"gemm_fp8_sm90_auto (E4M3 x E4M3)", false, gemm_fp8_sm90_auto},
    {"gemm_fp8_e4m3_e5m2_sm90_auto", true, gemm_fp8_e4m3_e5m2_sm90_auto},
};

bool run_all(const Case& c, sample::Rng& rng, cudaStream_t stream) {
  bool ok = true;
  for (const Entry& e : kEntries)
    ok &= e.e5m2 ? run_case<__nv_fp8_e5m2>(e.what, tileslc::DType::Float8E5M2, e.fn, c, rng, stream)
                 : run_case<__nv_fp8_e4m3>(e.what, tileslc::DType::Float8E4M3FN, e.fn, c, rng, stream);
  return ok;
}

// Rows not 16 bytes apart are refused before any launch, naming the stride.
bool run_validation(cudaStream_t stream) {
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(128 * 200));
  CHECK_OK(dB.allocate(128 * 200));
  CHECK_OK(dC.allocate(128 * 128 * 2));
  const auto e4m3 = tileslc::DType::Float8E4M3FN;
  auto mA = tileslc::make_tensor_view(dA.data(), e4m3, {128, 100}, {100, 1});  // K = 100 compact: 100-byte rows
  auto mB = tileslc::make_tensor_view(dB.data(), e4m3, {128, 100}, {112, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), tileslc::DType::BFloat16, {128, 128}, {128, 1});
  return sample::expect_rejected(kName, "K = 100 compact (LDA 100)", gemm_fp8_sm90(mA, mB, mC, 1.0f, 1.0f, stream), "LDA");
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes and the validation demo");
  sample::require_device_or_skip(kName);
  sample::require_compute_capability_or_skip(kName, 9, "sm_90a: TMA and FP8 wgmma");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_all({128, 128, 128}, rng, stream);    // one tile, one k-tile
    ok &= run_all({200, 300, 1024}, rng, stream);   // ragged M and N, 8 k-tiles: two promotions
    ok &= run_all({100, 99, 1000}, rng, stream);    // K = 1000 in rows of 1008: a ragged last k-tile
    ok &= run_all({384, 256, 512}, rng, stream);    // 3 tiles along M: one whole cluster, one half-idle
    if (!small) {
      ok &= run_all({4096, 4096, 4096, 4096, true}, rng, stream);
      ok &= run_all({8192, 8192, 8192, 4096, true}, rng, stream);
    }
    ok &= run_validation(stream);
    return ok;
  });
}
