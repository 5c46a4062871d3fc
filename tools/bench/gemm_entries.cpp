// gemm_entries.cpp: the GEMM samples the bench runs, one entry each, built or
// not. tools/bench/CMakeLists.txt links <name>_kernels and defines
// TILESLC_BENCH_HAVE_<NAME> for each name in TILESLC_BENCH_GEMM_SAMPLES whose
// sample is part of the build; an entry whose sample is not built gets a null
// host function, and the bench prints that it was skipped.
//
// To add a GEMM sample: put its name in TILESLC_BENCH_GEMM_SAMPLES, add an
// #if block below and a line in gemm_entries(). Its host function must have
// the signature (mA, mB, mC, stream) and compute C = A * B^T with A (M, K),
// B (N, K) and C (M, N) row-major; the bench checks its C against cuBLAS on
// the same inputs (B's element type is A's unless GemmEntry::b_dtype says
// otherwise). An entry says which multiples of M, N and K it accepts
// (GemmEntry::m_multiple ...); the bench skips it on the other shapes
// (kSmallShapes in gemm_bench.cpp, the timed shapes in bench_main.cpp).
#include "gemm_bench.h"

#if TILESLC_BENCH_HAVE_SGEMM
#include "sgemm.h"
#define TILESLC_BENCH_SGEMM &sgemm
#else
#define TILESLC_BENCH_SGEMM nullptr
#endif

#if TILESLC_BENCH_HAVE_GEMM_SM80
#include "gemm_sm80.h"
#define TILESLC_BENCH_GEMM_SM80 &gemm_sm80
#else
#define TILESLC_BENCH_GEMM_SM80 nullptr
#endif

#if TILESLC_BENCH_HAVE_SPLITK
#include "splitk.h"
#define TILESLC_BENCH_SPLITK &splitk_gemm
#else
#define TILESLC_BENCH_SPLITK nullptr
#endif

#if TILESLC_BENCH_HAVE_GEMM_SM90
#include "gemm_sm90.h"
#define TILESLC_BENCH_GEMM_SM90 &gemm_sm90
#define TILESLC_BENCH_GEMM_SM90_CLUSTER &gemm_sm90_cluster
#define TILESLC_BENCH_GEMM_SM90_SPLITK &gemm_sm90_splitk_entry
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED &fused_entry<&gemm_sm90_splitk_fused>
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BN128 &fused_entry<&gemm_sm90_splitk_fused_bn128>
#define TILESLC_BENCH_GEMM_SM90_BN128 &gemm_sm90_bn128
#define TILESLC_BENCH_GEMM_SM90_BN64 &gemm_sm90_bn64
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BM64 &fused_entry<&gemm_sm90_splitk_fused_bm64>
#define TILESLC_BENCH_GEMM_SM90_BM64_BN64 &gemm_sm90_bm64_bn64
#define TILESLC_BENCH_GEMM_SM90_AUTO &gemm_sm90_auto
#define TILESLC_BENCH_GEMM_SM90_STREAMK &fused_entry<&gemm_sm90_streamk>
#define TILESLC_BENCH_GEMM_SM90_STREAMK_BM64 &fused_entry<&gemm_sm90_streamk_bm64>
#else
#define TILESLC_BENCH_GEMM_SM90 nullptr
#define TILESLC_BENCH_GEMM_SM90_CLUSTER nullptr
#define TILESLC_BENCH_GEMM_SM90_SPLITK nullptr
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED nullptr
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BN128 nullptr
#define TILESLC_BENCH_GEMM_SM90_BN128 nullptr
#define TILESLC_BENCH_GEMM_SM90_BN64 nullptr
#define TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BM64 nullptr
#define TILESLC_BENCH_GEMM_SM90_BM64_BN64 nullptr
#define TILESLC_BENCH_GEMM_SM90_AUTO nullptr
#define TILESLC_BENCH_GEMM_SM90_STREAMK nullptr
#define TILESLC_BENCH_GEMM_SM90_STREAMK_BM64 nullptr
#endif

#if TILESLC_BENCH_HAVE_GEMM_FP8_SM90
#include "gemm_fp8_sm90.h"
#define TILESLC_BENCH_GEMM_FP8_SM90 &unit_scales<&gemm_fp8_sm90>
#define TILESLC_BENCH_GEMM_FP8_SM90_CLUSTER &unit_scales<&gemm_fp8_sm90_cluster>
#define TILESLC_BENCH_GEMM_FP8_E5M2 &unit_scales<&gemm_fp8_e4m3_e5m2_sm90>
#define TILESLC_BENCH_GEMM_FP8_E5M2_CLUSTER &unit_scales<&gemm_fp8_e4m3_e5m2_sm90_cluster>
#define TILESLC_BENCH_GEMM_FP8_SM90_AUTO &unit_scales<&gemm_fp8_sm90_auto>
#define TILESLC_BENCH_GEMM_FP8_E5M2_AUTO &unit_scales<&gemm_fp8_e4m3_e5m2_sm90_auto>
#else
#define TILESLC_BENCH_GEMM_FP8_SM90 nullptr
#define TILESLC_BENCH_GEMM_FP8_SM90_CLUSTER nullptr
#define TILESLC_BENCH_GEMM_FP8_E5M2 nullptr
#define TILESLC_BENCH_GEMM_FP8_E5M2_CLUSTER nullptr
#define TILESLC_BENCH_GEMM_FP8_SM90_AUTO nullptr
#define TILESLC_BENCH_GEMM_FP8_E5M2_AUTO nullptr
#endif

namespace bench {

#if TILESLC_BENCH_HAVE_GEMM_FP8_SM90
namespace {
// An FP8 host function (mA, mB, mC, scale_a, scale_b, stream) as (mA, mB, mC, stream), with the
// scales cuBLASLt gets too: 1 and 1.
using Fp8Fn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, float, float, cudaStream_t);
template <Fp8Fn F>
tileslc::Status unit_scales(tileslc::TensorView mA, tileslc::TensorView mB, tileslc::TensorView mC, cudaStream_t stream) {
  return F(mA, mB, mC, 1.0f, 1.0f, stream);
}
}  // namespace
#endif

#if TILESLC_BENCH_HAVE_GEMM_SM90
namespace {
// The split-K host functions' buffers, allocated on the first call and kept for the process
// (never freed: a static DeviceBuffer would free them after the CUDA runtime has shut down): a
// Float32 workspace of 2 x SMs x 128 x 256 (every split the rule picks fits, and stream-K's
// SMs + tiles pieces) and 2 x SMs Int32
// arrival counts for the fused split-K (one per tile of every split it picks on 128 x 256 or
// 128 x 128 tiles), zeroed once (each call leaves them zero). Calls share them: one stream.
struct SplitBuffers {
  tileslc::TensorView workspace, semaphores;
  tileslc::Status status;
};
const SplitBuffers& split_buffers() {
  static const SplitBuffers buffers = [] {
    SplitBuffers b;
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) {
      b.status = tileslc::Status::error("gemm_sm90_splitk: cannot read the multiprocessor count");
      return b;
    }
    const int64_t floats = 2 * int64_t{sms} * 128 * 256, counts = 2 * int64_t{sms};
    void* workspace = nullptr;
    void* semaphores = nullptr;
    if (cudaMalloc(&workspace, floats * sizeof(float)) != cudaSuccess || cudaMalloc(&semaphores, counts * 4) != cudaSuccess ||
        cudaMemset(semaphores, 0, counts * 4) != cudaSuccess) {
      b.status = tileslc::Status::error("gemm_sm90_splitk: cannot allocate its workspace");
      return b;
    }
    b.workspace = tileslc::make_tensor_view(workspace, tileslc::DType::Float32, {floats}, {1});
    b.semaphores = tileslc::make_tensor_view(semaphores, tileslc::DType::Int32, {counts}, {1});
    return b;
  }();
  return buffers;
}

// gemm_sm90_splitk as (mA, mB, mC, stream), with split_buffers()'s workspace.
tileslc::Status gemm_sm90_splitk_entry(tileslc::TensorView mA, tileslc::TensorView mB, tileslc::TensorView mC,
                                       cudaStream_t stream) {
  const SplitBuffers& b = split_buffers();
  if (!b.status.ok()) return b.status;
  return gemm_sm90_splitk(mA, mB, mC, b.workspace, stream);
}

// A fused split-K host function (mA, mB, mC, mW, mSem, stream) as (mA, mB, mC, stream).
using FusedFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, tileslc::TensorView,
                                    tileslc::TensorView, cudaStream_t);
template <FusedFn F>
tileslc::Status fused_entry(tileslc::TensorView mA, tileslc::TensorView mB, tileslc::TensorView mC, cudaStream_t stream) {
  const SplitBuffers& b = split_buffers();
  if (!b.status.ok()) return b.status;
  return F(mA, mB, mC, b.workspace, b.semaphores, stream);
}
}  // namespace
#endif

std::vector<GemmEntry> gemm_entries() {
  using tileslc::DType;
  // gemm_sm80 and splitk: BFloat16 A and B, Float32 C (samples/gemm_sm80,
  // samples/splitk), against cuBLAS GemmEx BF16 -> F32; gemm_sm90: BFloat16
  // C, against cuBLAS GemmEx BF16 -> BF16 (Float32 accumulation in both).
  // sgemm, gemm_sm80 and splitk take M, N multiples of 128 (256 for N, the
  // bench's shapes) and K of 64; the gemm_sm90 family any shape with rows
  // padded to 8 elements (Shape::ld_ab, ld_c).
  return {
      {"sgemm", "Float32 FFMA on CUDA cores, 128x128x8 tiles, 8x8 per thread; K split over grid z (Float32 atomics) when the tiles do not fill the SMs", DType::Float32, DType::Float32,
       TILESLC_BENCH_SGEMM, 128, 256, 64},
      {"gemm_sm80", "BF16 -> F32, cp.async 3 stages + ldmatrix + mma.sync m16n8k16 tensor cores (sm_80), 256x128x64 tiles of 8 warps (128x128 of 4 where those do not fill the SMs)",
       DType::BFloat16, DType::Float32, TILESLC_BENCH_GEMM_SM80, 128, 256, 64},
      {"splitk", "BF16 -> F32, gemm_sm80's CTA with K split over grid z (one wave of 2 CTAs per SM), Float32 atomics",
       DType::BFloat16, DType::Float32, TILESLC_BENCH_SPLITK, 128, 256, 64},
      {"gemm_sm90", "BF16 -> BF16, TMA 4 stages + wgmma m64n256k16 (sm_90a), 128x256x64 tiles, warp-specialized, persistent; any M, N, K",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90},
      {"gemm_sm90_cluster", "gemm_sm90 in 2x1 thread-block clusters, each CTA loading half of the shared B tile and multicasting it",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_CLUSTER},
      {"gemm_sm90_splitk", "the BF16 dispatcher: gemm_sm90, with split-K when the 128x256 tiles are fewer than the SMs (SMs // tiles slices of at least 4 k-tiles, Float32 partials of C's entries in a workspace, added in slice order: deterministic)",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_SPLITK},
      {"gemm_sm90_splitk_fused", "gemm_sm90_splitk (same rule, same bits) with each tile's slices added by its last slice in the GEMM kernel: no reduce_kernel launch",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED},
      {"gemm_sm90_splitk_fused_bn128", "gemm_sm90_splitk_fused on 128x128 tiles, 6 stages: twice the tiles, half the slices",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BN128},
      {"gemm_sm90_splitk_fused_bm64", "gemm_sm90_splitk_fused on 64x256 tiles (one consumer warpgroup), 5 stages: no zero rows for M <= 64",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_SPLITK_FUSED_BM64},
      {"gemm_sm90_streamk", "stream-K where the 128x256 tiles are fewer than the SMs: every SM 1/SMs of all k-tiles, pieces added by each tile's last (no idle SM, one kernel); else gemm_sm90_splitk_fused",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_STREAMK},
      {"gemm_sm90_streamk_bm64", "gemm_sm90_streamk on 64x256 tiles (one consumer warpgroup), 5 stages; else gemm_sm90_splitk_fused_bm64",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_STREAMK_BM64},
      {"gemm_sm90_bn128", "gemm_sm90 on 128x128 tiles, 6 stages, no split (256x8192x8192: 128 tiles)",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_BN128},
      {"gemm_sm90_bn64", "gemm_sm90 on 128x64 tiles, 8 stages, no split (M <= 128 x 8192x8192: 128 tiles)",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_BN64},
      {"gemm_sm90_bm64_bn64", "gemm_sm90 on 64x64 tiles (one consumer warpgroup), 12 stages, no split (M <= 64 x 8192x8192: 128 tiles)",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_BM64_BN64},
      {"gemm_sm90_auto", "one entry point, tiles chosen by M at run time: bm64_bn64 (M <= 64), bn64 (<= 128), bn128 (<= 256), else gemm_sm90's 128x256",
       DType::BFloat16, DType::BFloat16, TILESLC_BENCH_GEMM_SM90_AUTO},
      {"gemm_fp8_sm90", "E4M3 x E4M3 -> BF16 (scales 1), gemm_sm90's kernel on 8-bit operands: 128x128x128 tiles, 6 stages, wgmma m64n128k32, Float32 promotion every 4 k-tiles (the two consumer warpgroups staggered)",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_SM90},
      {"gemm_fp8_sm90_cluster", "gemm_fp8_sm90 in 2x1 thread-block clusters, each CTA loading half of the shared B tile and multicasting it",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_SM90_CLUSTER},
      {"gemm_fp8_e4m3_e5m2_sm90", "E4M3 x E5M2 -> BF16 (scales 1), gemm_fp8_sm90's kernel with an E5M2 B, against cuBLASLt E4M3 x E5M2",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_E5M2, 1, 1, 1, DType::Float8E5M2},
      {"gemm_fp8_e4m3_e5m2_sm90_cluster", "gemm_fp8_e4m3_e5m2_sm90 in 2x1 thread-block clusters multicasting B",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_E5M2_CLUSTER, 1, 1, 1, DType::Float8E5M2},
      {"gemm_fp8_sm90_auto", "gemm_fp8_sm90 with tiles chosen by shape: 128x192 in 2x1 clusters, 5 stages, where those tiles make >= 8 waves (8192^3), else 128x128, 6 stages",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_SM90_AUTO},
      {"gemm_fp8_e4m3_e5m2_sm90_auto", "gemm_fp8_e4m3_e5m2_sm90 with tiles chosen by shape (gemm_fp8_sm90_auto's rule)",
       DType::Float8E4M3FN, DType::BFloat16, TILESLC_BENCH_GEMM_FP8_E5M2_AUTO, 1, 1, 1, DType::Float8E5M2},
  };
}

}  // namespace bench
