// gemm_bench.h: GEMM benchmarking against cuBLAS. Every implementation
// computes C = A * B^T with A (M, K), B (N, K) and C (M, N) all row-major
// (CuTe's "TN" GEMM). The GEMM samples' generated host functions are the
// entries (gemm_entries.cpp); cuBLAS runs the same product on the same inputs
// and is both the speed reference and, per shape, the correctness reference.
#ifndef TILESLC_TOOLS_BENCH_GEMM_BENCH_H
#define TILESLC_TOOLS_BENCH_GEMM_BENCH_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tileslc/runtime.h"

namespace bench {

// A generated host function: (mA, mB, mC, stream).
using GemmFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, cudaStream_t);

// One GEMM sample. `fn` is null when the sample is not part of this build
// (its .tpy, hence its header, does not exist): the bench then says so and
// skips it.
struct GemmEntry {
  const char* name;         // the sample and its host function, e.g. "sgemm"
  const char* description;  // one line for the legend
  tileslc::DType ab_dtype;  // element type of A and B
  tileslc::DType c_dtype;   // element type of C
  GemmFn fn;
  // The shapes the host function accepts: M, N, K multiples of these (1: any).
  // On other shapes the bench says it skipped the entry (not a failure).
  int64_t m_multiple = 1, n_multiple = 1, k_multiple = 1;
  // B's element type where it is not A's (E4M3 x E5M2).
  std::optional<tileslc::DType> b_dtype = std::nullopt;
};

// The GEMM samples the bench knows (gemm_entries.cpp), built or not.
std::vector<GemmEntry> gemm_entries();

struct Shape {
  int64_t M, N, K;
  // "4096x4096x4096" (M x N x K)
  std::string text() const;
  double flop() const { return 2.0 * M * N * K; }
  // Row strides in elements: A's and B's rows padded to a multiple of 16
  // elements (16 bytes of FP8), C's to a multiple of 8 (TMA needs 16-byte
  // strides: K = 1001 is stored in rows of 1008); compact when K is a
  // multiple of 16 and N of 8. cuBLAS gets the same leading dimensions.
  int64_t ld_ab() const { return (K + 15) / 16 * 16; }
  int64_t ld_c() const { return (N + 7) / 8 * 8; }
  bool accepted_by(const GemmEntry& e) const {
    return M % e.m_multiple == 0 && N % e.n_multiple == 0 && K % e.k_multiple == 0;
  }
};

// The element types of one cuBLAS reference: A (and B, unless b_only says otherwise), C.
struct Precision {
  tileslc::DType ab, c;
  std::optional<tileslc::DType> b_only = std::nullopt;
  tileslc::DType b() const { return b_only.value_or(ab); }
  bool operator==(const Precision& o) const { return ab == o.ab && c == o.c && b() == o.b(); }
};

// The precision of entry `e`.
inline Precision precision_of(const GemmEntry& e) { return {e.ab_dtype, e.c_dtype, e.b_dtype}; }

// cuBLAS on `stream`: FP32 through cublasSgemm with CUBLAS_DEFAULT_MATH (FP32
// FMAs on CUDA cores, no TF32 tensor cores); BF16 A and B through
// cublasGemmEx with FP32 accumulation (CUBLAS_COMPUTE_32F); and the same
// product through cuBLASLt (cublasLtMatmul, CUBLAS_COMPUTE_32F) with any of
// the algorithms its heuristic proposes for the shape
// (cublasLtMatmulAlgoGetHeuristic, a 32 MiB workspace), so that the bench can
// time several and compare against the fastest cuBLAS call, not one fixed call.
// E4M3 A and E4M3 or E5M2 B (BF16 C) have no GemmEx: their reference call is
// cuBLASLt's heuristic's first algorithm, with both scales 1 (A_SCALE_POINTER
// and B_SCALE_POINTER; the FP8 entries are called with scales 1 as well).
class Cublas {
 public:
  explicit Cublas(cudaStream_t stream);
  ~Cublas();
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  // Row-major C = A * B^T (A (M, K), B (N, K), C (M, N)) on column-major
  // cuBLAS: the same memory read column-major holds A^T (K x M, ld K), B^T
  // (K x N, ld K) and C^T (N x M, ld N), and C^T = B * A^T, so the call is
  // gemm(op(B^T) = T, op(A^T) = N, m = N, n = M, k = K, B, ld K, A, ld K, C, ld N).
  // For FP8 (no GemmEx) the first of cuBLASLt's heuristic algorithms that runs (p, s) is found
  // on the first call and kept. Returns false, having printed why, when none runs: cuBLASLt may
  // propose an algorithm and then answer CUBLAS_STATUS_NOT_SUPPORTED at the call (the H200 run
  // of 2026-12-05 ended the whole bench there); the caller skips that precision and shape.
  bool gemm(Precision p, const Shape& s, const void* A, const void* B, void* C) const;
  // Whether gemm() may run (p, s): false only for E4M3 where cuBLASLt proposes no algorithm.
  bool has(Precision p, const Shape& s) const;
  // Up to `count` cuBLASLt algorithms for (p, s), the heuristic's best first
  // (fewer when it proposes fewer; none when it has none for the precision).
  std::vector<cublasLtMatmulHeuristicResult_t> lt_algorithms(Precision p, const Shape& s, int count) const;
  // C = A * B^T through cublasLtMatmul with `algo` (from lt_algorithms).
  void gemm_lt(Precision p, const Shape& s, const cublasLtMatmulHeuristicResult_t& algo, const void* A, const void* B,
               void* C) const;
  // gemm_lt's call, its status returned instead of ending the program on an error.
  cublasStatus_t try_gemm_lt(Precision p, const Shape& s, const cublasLtMatmulHeuristicResult_t& algo, const void* A,
                             const void* B, void* C) const;
  // "cuBLAS Sgemm" / "cuBLAS GemmEx BF16".
  static std::string name(Precision p);
  // One line on the math mode, for the output.
  std::string math_note() const;

 private:
  // The matmul descriptor and the B^T, A^T and C^T layouts of cuBLASLt's column-major view.
  struct LtDescs {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    ~LtDescs();
  };
  void make_lt_descs(Precision p, const Shape& s, LtDescs& d) const;

  cudaStream_t stream_ = nullptr;
  mutable std::map<std::string, cublasLtMatmulHeuristicResult_t> fp8_algo_;  // gemm()'s FP8 algorithm per shape
  cublasHandle_t handle_ = nullptr;
  cublasLtHandle_t lt_ = nullptr;
  tileslc::DeviceBuffer lt_workspace_;
};

// How each timing is taken. Blocks (the default): each implementation and
// cuBLAS in turn, `rounds` times, run back to back for `settle_ms` and then
// `reps` times between cudaEvents (sample::block_median_ms): each at the clock
// it sustains alone under the board's power limit. Interleaved: `warmup`
// calls, then `reps * rounds` calls alternating with cuBLAS's call by call
// (sample::interleaved_median_ms): both at the clock their mix gets.
struct Timing {
  bool interleaved = false;
  int warmup = 3;
  int reps = 7;
  int rounds = 3;
  int settle_ms = 300;
};

// One line of the results table.
struct Row {
  Row(const Shape& s, std::string implementation, bool reference)
      : shape(s), impl(std::move(implementation)), is_reference(reference) {}

  Shape shape;
  std::string impl;      // "cuBLAS Sgemm", "sgemm", ...
  bool is_reference;     // a cuBLAS row
  double ms = 0.0;       // median time
  double tflops = 0.0;
  double ratio = 0.0;    // cuBLAS time / this time (1 for cuBLAS; > 1 is faster)
  double rel_err = 0.0;  // max |C - ref| / max |ref|
  double max_abs_ref = 0.0;  // max |ref|: never 0 on these inputs, so a comparison that saw no data fails
  double tolerance = 0.0;
  std::string checked_against;  // "cuBLAS" or "float64, 256 sampled entries"
  bool ok = false;
  std::string note;  // why it failed, when it did
  // The fastest passing entry (not cuBLAS) of its precision on its shape (run_shape sets it):
  // of gemm_fp8_sm90 and gemm_fp8_sm90_cluster, the one to hold against cuBLASLt.
  bool fastest_entry = false;
};

// Tolerance on max |C - ref| / max |ref| for K-term dot products accumulated
// in FP32 on inputs in [-1, 1): 1e-5 * sqrt(K) (samples/sgemm/main.cu derives
// it), plus 2^-8 when C is BFloat16 (its own rounding). `both_rounded`: both
// sides carry their own accumulation error (an entry against cuBLAS): twice.
double tolerance(Precision p, int64_t K, bool both_rounded);

// Proves the cuBLAS mapping and each built entry on small shapes, every entry
// of C against a float64 reference computed on the host; prints one line per
// check and returns the results as rows (ms = 0).
std::vector<Row> check_small_shapes(const std::vector<GemmEntry>& entries, const Cublas& cublas,
                                    cudaStream_t stream);

// Runs one shape: per precision of the built entries, cuBLAS GemmEx (checked
// on sampled entries against float64) and up to kLtAlgorithms cuBLASLt
// algorithms from its heuristic (each checked against GemmEx's C), then each
// entry that accepts the shape (checked against GemmEx's C); all of them
// timed together. Every row's ratio is the fastest cuBLAS call's time over its
// own, so an entry's ratio is against the best of GemmEx and the timed
// cuBLASLt algorithms on this shape; the fastest passing entry of each
// precision is marked (Row::fastest_entry).
constexpr int kLtAlgorithms = 4;
std::vector<Row> run_shape(const Shape& shape, const std::vector<GemmEntry>& entries, const Cublas& cublas,
                           const Timing& timing, cudaStream_t stream);

}  // namespace bench

#endif  // TILESLC_TOOLS_BENCH_GEMM_BENCH_H
