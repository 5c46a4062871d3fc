// gemm_bench.cpp: runs the GEMM entries and cuBLAS on the same inputs, checks
// them (small shapes against a float64 reference on the host, large shapes
// against cuBLAS on the device, cuBLAS itself on sampled entries against
// float64) and times them with cudaEvents.
#include "gemm_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>

#include "bench_data.h"
#include "sample_util.h"

namespace bench {
namespace {

using tileslc::DType;

#define CHECK_CUBLAS(call)                                                                        \
  do {                                                                                            \
    cublasStatus_t check_cublas_ = (call);                                                        \
    if (check_cublas_ != CUBLAS_STATUS_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                   cublasGetStatusString(check_cublas_));                                         \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int64_t kSampledEntries = 256;  // entries of cuBLAS's C checked against float64 per large shape
// M != N, so a swapped mapping fails. Every entry accepts the first two: M, N
// multiples of 128, K of 64 (sgemm needs K % 8 == 0, gemm_sm80 K % 32 == 0).
// K = 1088 = 17 * 64 is 34 k-tiles of 32, not a multiple of gemm_sm80's 3
// stages, and 136 of sgemm's 8. The third is ragged (rows padded to 104
// elements), for the entries that take any shape.
const Shape kSmallShapes[] = {{256, 512, 192}, {384, 256, 1088}, {100, 99, 101}};

cudaDataType cuda_type(DType d) {
  switch (d) {
    case DType::Float32: return CUDA_R_32F;
    case DType::BFloat16: return CUDA_R_16BF;
    case DType::Float8E4M3FN: return CUDA_R_8F_E4M3;
    case DType::Float8E5M2: return CUDA_R_8F_E5M2;
    default:
      std::fprintf(stderr, "tileslc_bench: no cuBLAS type for %s\n", tileslc::dtype_name(d));
      std::exit(1);
  }
}

size_t element_size(DType d) { return tileslc::dtype_size(d); }

// "BFloat16", or "Float8E4M3FNxFloat8E5M2" where B's type differs from A's.
std::string inputs_text(Precision p) {
  std::string t = tileslc::dtype_name(p.ab);
  return p.b() == p.ab ? t : t + "x" + tileslc::dtype_name(p.b());
}

// The distinct precisions of the built entries, in order; Float32 when none is built.
std::vector<Precision> precisions_of(const std::vector<GemmEntry>& entries) {
  std::vector<Precision> out;
  for (const GemmEntry& e : entries) {
    const Precision p = precision_of(e);
    if (e.fn && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  if (out.empty()) out.push_back({DType::Float32, DType::Float32});
  return out;
}

// A, B (filled from two seeds), C_ref (cuBLAS's result) and C (the entry's)
// of one shape in one precision, in device memory.
struct Operands {
  Shape s;
  Precision p;
  uint64_t seed_a, seed_b;
  tileslc::DeviceBuffer A, B, C_ref, C;

  // Rows of A and B are s.ld_ab() elements apart, C's s.ld_c() (the padding holds stream values
  // too, which no correct GEMM reads: TMA and cuBLAS stop at K).
  Operands(const Shape& shape, Precision prec, uint64_t seed, cudaStream_t stream)
      : s(shape), p(prec), seed_a(2 * seed + 1), seed_b(2 * seed + 2) {
    CHECK_OK(A.allocate(s.M * s.ld_ab() * element_size(p.ab)));
    CHECK_OK(B.allocate(s.N * s.ld_ab() * element_size(p.b())));
    CHECK_OK(C_ref.allocate(s.M * s.ld_c() * element_size(p.c)));
    CHECK_OK(C.allocate(s.M * s.ld_c() * element_size(p.c)));
    fill_uniform(A.data(), p.ab, s.M * s.ld_ab(), seed_a, stream);
    fill_uniform(B.data(), p.b(), s.N * s.ld_ab(), seed_b, stream);
    CHECK(cudaStreamSynchronize(stream));
  }
  tileslc::TensorView view_a() const { return tileslc::make_tensor_view(A.data(), p.ab, {s.M, s.K}, {s.ld_ab(), 1}); }
  tileslc::TensorView view_b() const { return tileslc::make_tensor_view(B.data(), p.b(), {s.N, s.K}, {s.ld_ab(), 1}); }
  tileslc::TensorView view_c() const { return tileslc::make_tensor_view(C.data(), p.c, {s.M, s.N}, {s.ld_c(), 1}); }
  // out vs ref over the (M, N) entries (not the padding).
  DiffStats compare(const void* out, const void* ref, cudaStream_t stream) const {
    return compare_on_device(out, p.c, ref, p.c, s.M, s.N, s.ld_c(), stream);
  }
};

// Rows `first` .. `first + rows - 1` of the input stream `seed` (K values of rows `ld` apart), as floats.
std::vector<float> host_rows(DType dtype, uint64_t seed, int64_t first, int64_t rows, int64_t K, int64_t ld) {
  std::vector<float> v(rows * K);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < K; ++k) v[r * K + k] = stored_value(dtype, seed, (first + r) * ld + k);
  return v;
}

double dot(const float* a, const float* b, int64_t K) {
  double sum = 0.0;
  for (int64_t k = 0; k < K; ++k) sum += static_cast<double>(a[k]) * b[k];
  return sum;
}

// All of a device array (Float32 or BFloat16) as doubles.
std::vector<double> download(const void* data, DType dtype, int64_t n) {
  std::vector<double> out(n);
  if (dtype == DType::BFloat16) {
    std::vector<uint16_t> h(n);
    CHECK(cudaMemcpy(h.data(), data, n * sizeof(uint16_t), cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < n; ++i) out[i] = sample::bf16_to_float(h[i]);
  } else {
    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), data, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < n; ++i) out[i] = h[i];
  }
  return out;
}

sample::ErrorStats against(const std::vector<double>& out, const std::vector<double>& ref) {
  sample::ErrorStats e;
  for (size_t i = 0; i < out.size(); ++i) e.add(out[i], ref[i]);
  return e;
}

// Fills the check fields of `row` from `e` and the tolerance.
void set_check(Row& row, const sample::ErrorStats& e, double tol, const std::string& against_what) {
  row.rel_err = e.relative_error();
  row.max_abs_ref = e.max_abs_ref;
  row.tolerance = tol;
  row.checked_against = against_what;
  row.ok = e.passed(tol) && e.max_abs_ref > 0.0;
  if (e.unwritten) {
    row.note = std::to_string(e.unwritten) + " of " + std::to_string(e.count) + " outputs never written (NaN)";
  } else if (e.max_abs_ref == 0.0) {
    row.note = "the reference is all zeros: the comparison saw no data";
  } else if (!row.ok) {
    row.note = "relative error above tolerance";
  }
}

Row rejected_row(const Shape& s, const GemmEntry& e, const tileslc::Status& status) {
  Row row{s, e.name, false};
  row.ok = false;
  row.note = "rejected by the host function: " + status.message();
  return row;
}

// Prints one line of the small-shape proof.
void print_small(const Row& r, Precision p) {
  std::printf("tileslc_bench: check %-16s %-9s %-20s %s  rel_err %.3e (tol %.1e)%s%s\n", r.shape.text().c_str(),
              inputs_text(p).c_str(), r.impl.c_str(), r.ok ? "PASS" : "FAIL", r.rel_err, r.tolerance,
              r.note.empty() ? "" : ": ", r.note.c_str());
}

// Each of `fs`'s median time in milliseconds, taken as `timing` says.
std::vector<double> median_times(const std::vector<std::function<void()>>& fs, const Timing& timing, cudaStream_t stream) {
  if (timing.interleaved) return sample::interleaved_median_ms(fs, stream, timing.warmup, timing.reps * timing.rounds);
  return sample::block_median_ms(fs, stream, timing.settle_ms, timing.reps, timing.rounds);
}

}  // namespace

std::string Shape::text() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }

// cuBLASLt's workspace: 32 MiB, what NVIDIA recommends for Hopper.
constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;

Cublas::Cublas(cudaStream_t stream) : stream_(stream) {
  CHECK_CUBLAS(cublasCreate(&handle_));
  CHECK_CUBLAS(cublasSetStream(handle_, stream));
  CHECK_CUBLAS(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
  CHECK_CUBLAS(cublasLtCreate(&lt_));
  CHECK_OK(lt_workspace_.allocate(kLtWorkspaceBytes));
}

Cublas::~Cublas() {
  cublasLtDestroy(lt_);
  cublasDestroy(handle_);
}

Cublas::LtDescs::~LtDescs() {
  if (c) cublasLtMatrixLayoutDestroy(c);
  if (b) cublasLtMatrixLayoutDestroy(b);
  if (a) cublasLtMatrixLayoutDestroy(a);
  if (op) cublasLtMatmulDescDestroy(op);
}

// The GemmEx call's mapping (see Cublas::gemm) for cublasLtMatmul: its A is our B^T
// (K x N column-major, ld ld_ab, transposed), its B our A^T (K x M, ld ld_ab), C our C^T (N x M, ld ld_c).
void Cublas::make_lt_descs(Precision p, const Shape& s, LtDescs& d) const {
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&d.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t trans_a = CUBLAS_OP_T, trans_b = CUBLAS_OP_N;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b));
  // FP8 (TN, as here): per-tensor scales of 1, the scales our FP8 kernels run with, are cuBLASLt's
  // default, so the A/B scale pointers stay unset. Setting them (device pointers to 1.0f) made
  // cuBLASLt 13.1 refuse every algorithm its heuristic proposed on an H100 ("the requested
  // functionality is not supported", 8 of 8, for E4M3 and E4M3xE5M2, BF16/F16/F32 out), while the
  // same descriptors without them ran all 8 (a probe of 2026-12-05; docs/gemm.md).
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&d.a, cuda_type(p.b()), s.K, s.N, s.ld_ab()));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&d.b, cuda_type(p.ab), s.K, s.M, s.ld_ab()));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&d.c, cuda_type(p.c), s.N, s.M, s.ld_c()));
}

std::vector<cublasLtMatmulHeuristicResult_t> Cublas::lt_algorithms(Precision p, const Shape& s, int count) const {
  LtDescs d;
  make_lt_descs(p, s, d);
  cublasLtMatmulPreference_t pref = nullptr;
  CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  const size_t bytes = kLtWorkspaceBytes;
  CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof bytes));
  std::vector<cublasLtMatmulHeuristicResult_t> found(count);
  int returned = 0;
  const cublasStatus_t st =
      cublasLtMatmulAlgoGetHeuristic(lt_, d.op, d.a, d.b, d.c, d.c, pref, count, found.data(), &returned);
  cublasLtMatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS) returned = 0;  // no algorithm for this precision: GemmEx alone
  found.resize(returned);
  return found;
}

cublasStatus_t Cublas::try_gemm_lt(Precision p, const Shape& s, const cublasLtMatmulHeuristicResult_t& algo,
                                   const void* A, const void* B, void* C) const {
  LtDescs d;
  make_lt_descs(p, s, d);
  const float alpha = 1.0f, beta = 0.0f;
  return cublasLtMatmul(lt_, d.op, &alpha, B, d.a, A, d.b, &beta, C, d.c, C, d.c, &algo.algo, lt_workspace_.data(),
                        kLtWorkspaceBytes, stream_);
}

void Cublas::gemm_lt(Precision p, const Shape& s, const cublasLtMatmulHeuristicResult_t& algo, const void* A,
                     const void* B, void* C) const {
  CHECK_CUBLAS(try_gemm_lt(p, s, algo, A, B, C));
}

bool Cublas::has(Precision p, const Shape& s) const {
  return p.ab != DType::Float8E4M3FN || !lt_algorithms(p, s, 1).empty();
}

bool Cublas::gemm(Precision p, const Shape& s, const void* A, const void* B, void* C) const {
  const float alpha = 1.0f, beta = 0.0f;
  const int m = static_cast<int>(s.N), n = static_cast<int>(s.M), k = static_cast<int>(s.K);
  const int ld_ab = static_cast<int>(s.ld_ab()), ld_c = static_cast<int>(s.ld_c());
  if (p.ab == DType::Float8E4M3FN) {  // no GemmEx for FP8: the first cuBLASLt algorithm that runs, found once per shape
    const std::string key = name(p) + " " + s.text();
    auto found = fp8_algo_.find(key);
    if (found != fp8_algo_.end()) {
      gemm_lt(p, s, found->second, A, B, C);
      return true;
    }
    const std::vector<cublasLtMatmulHeuristicResult_t> algos = lt_algorithms(p, s, kLtAlgorithms);
    std::string refused;
    for (size_t i = 0; i < algos.size(); ++i) {
      const cublasStatus_t st = try_gemm_lt(p, s, algos[i], A, B, C);
      if (st == CUBLAS_STATUS_SUCCESS) {
        fp8_algo_.emplace(key, algos[i]);
        return true;
      }
      refused += (refused.empty() ? "" : ", ") + std::string("#") + std::to_string(i + 1) + " " + cublasGetStatusString(st);
    }
    std::printf("tileslc_bench: %s %s skipped: cuBLASLt proposes %zu algorithm(s) and runs none (%s)\n", key.c_str(),
                inputs_text(p).c_str(), algos.size(), refused.empty() ? "none proposed" : refused.c_str());
    return false;
  } else if (p.ab == DType::Float32 && p.c == DType::Float32) {
    CHECK_CUBLAS(cublasSgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, static_cast<const float*>(B), ld_ab,
                             static_cast<const float*>(A), ld_ab, &beta, static_cast<float*>(C), ld_c));
  } else if (p.ab == DType::BFloat16) {
    CHECK_CUBLAS(cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, B, cuda_type(p.ab), ld_ab, A,
                              cuda_type(p.ab), ld_ab, &beta, C, cuda_type(p.c), ld_c, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
  } else {
    std::fprintf(stderr, "tileslc_bench: no cuBLAS reference for A, B %s and C %s\n", tileslc::dtype_name(p.ab),
                 tileslc::dtype_name(p.c));
    std::exit(1);
  }  return true;
}

std::string Cublas::name(Precision p) {
  if (p.ab == DType::Float32 && p.c == DType::Float32) return "cuBLAS Sgemm";
  if (p.ab == DType::Float8E4M3FN) return p.b() == DType::Float8E5M2 ? "cuBLASLt E4M3xE5M2->BF16" : "cuBLASLt E4M3->BF16";
  return std::string("cuBLAS GemmEx ") + (p.ab == DType::BFloat16 ? "BF16" : tileslc::dtype_name(p.ab)) +
         (p.c == DType::BFloat16 ? "->BF16" : "");
}

std::string Cublas::math_note() const {
  cublasMath_t mode{};
  CHECK_CUBLAS(cublasGetMathMode(handle_, &mode));
  int version = 0;
  CHECK_CUBLAS(cublasGetVersion(handle_, &version));
  return "cuBLAS " + std::to_string(version) + ", math mode " +
         (mode == CUBLAS_DEFAULT_MATH ? std::string("CUBLAS_DEFAULT_MATH") : std::to_string(mode)) +
         ": Float32 through cublasSgemm runs FP32 FMAs on CUDA cores, no TF32 tensor cores; "
         "BF16 through cublasGemmEx accumulates in FP32";
}

double tolerance(Precision p, int64_t K, bool both_rounded) {
  const double sides = both_rounded ? 2.0 : 1.0;
  double t = sides * 1e-5 * std::sqrt(static_cast<double>(K));
  if (p.c == DType::BFloat16) t += sides * 0.00390625;  // 2^-8
  // FP8 wgmma keeps about 14 bits of its running sum between promotions to Float32 (every 512
  // products in gemm_fp8_sm90; samples/gemm_fp8_sm90/main.cu): 2^-13 per k32 instruction.
  if (p.ab == DType::Float8E4M3FN) t += sides * static_cast<double>(std::min<int64_t>(K, 512)) / 32.0 * std::ldexp(1.0, -13);
  return t;
}

std::vector<Row> check_small_shapes(const std::vector<GemmEntry>& entries, const Cublas& cublas,
                                    cudaStream_t stream) {
  // Float32 and BF16 cuBLAS are always proven (the BF16 path serves the BF16
  // samples when they are built), plus every precision an entry uses.
  std::vector<Precision> precisions = {{DType::Float32, DType::Float32}, {DType::BFloat16, DType::Float32}};
  for (const Precision& p : precisions_of(entries)) {
    if (std::find(precisions.begin(), precisions.end(), p) == precisions.end()) precisions.push_back(p);
  }
  std::vector<Row> rows;
  uint64_t seed = 100;
  for (const Shape& s : kSmallShapes) {
    for (const Precision& p : precisions) {
      if (!cublas.has(p, s)) {
        std::printf("tileslc_bench: check %-16s %-9s skipped: cuBLASLt has no algorithm for it\n", s.text().c_str(),
                    inputs_text(p).c_str());
        continue;
      }
      Operands op(s, p, seed++, stream);
      const std::vector<float> a = host_rows(p.ab, op.seed_a, 0, s.M, s.K, s.ld_ab());
      const std::vector<float> b = host_rows(p.b(), op.seed_b, 0, s.N, s.K, s.ld_ab());
      std::vector<double> ref(s.M * s.N);
      for (int64_t m = 0; m < s.M; ++m) {
        for (int64_t n = 0; n < s.N; ++n) ref[m * s.N + n] = dot(&a[m * s.K], &b[n * s.K], s.K);
      }
      const double tol = tolerance(p, s.K, false);
      // C's (M, N) entries (its rows are s.ld_c() apart).
      auto entries_of = [&](const void* c) {
        const std::vector<double> all = download(c, p.c, s.M * s.ld_c());
        std::vector<double> out(s.M * s.N);
        for (int64_t m = 0; m < s.M; ++m)
          for (int64_t n = 0; n < s.N; ++n) out[m * s.N + n] = all[m * s.ld_c() + n];
        return out;
      };

      sample::poison(op.C_ref.data(), op.C_ref.size());
      if (!cublas.gemm(p, s, op.A.data(), op.B.data(), op.C_ref.data())) continue;  // printed why
      CHECK(cudaStreamSynchronize(stream));
      Row row{s, Cublas::name(p), true};
      set_check(row, against(entries_of(op.C_ref.data()), ref), tol, "float64, every entry");
      print_small(row, p);
      rows.push_back(row);

      for (const GemmEntry& e : entries) {
        if (!e.fn || !(precision_of(e) == p) || !s.accepted_by(e)) continue;
        sample::poison(op.C.data(), op.C.size());
        tileslc::Status status = e.fn(op.view_a(), op.view_b(), op.view_c(), stream);
        Row r = status.ok() ? Row{s, e.name, false} : rejected_row(s, e, status);
        if (status.ok()) {
          CHECK(cudaStreamSynchronize(stream));
          set_check(r, against(entries_of(op.C.data()), ref), tol, "float64, every entry");
        }
        print_small(r, p);
        rows.push_back(r);
      }
    }
  }
  return rows;
}

namespace {

// The checks of an output against GemmEx's C_ref, as ErrorStats.
sample::ErrorStats diff_stats(const DiffStats& d, const Shape& s) {
  sample::ErrorStats e;
  e.max_abs_err = d.max_abs_diff;
  e.max_abs_ref = d.max_abs_ref;
  e.unwritten = d.nan_out;
  e.count = s.M * s.N;
  return e;
}

// One timed call: its row (checked already) and the call.
struct Timed {
  Row row;
  std::function<void()> call;
};

}  // namespace

std::vector<Row> run_shape(const Shape& s, const std::vector<GemmEntry>& entries, const Cublas& cublas,
                           const Timing& timing, cudaStream_t stream) {
  std::vector<Row> rows;
  uint64_t seed = 1000 + static_cast<uint64_t>(s.M * 3 + s.N * 5 + s.K * 7);
  for (const Precision& p : precisions_of(entries)) {
    if (!cublas.has(p, s)) {
      std::printf("tileslc_bench: %s %s skipped: cuBLASLt has no algorithm for it\n", s.text().c_str(), inputs_text(p).c_str());
      continue;
    }
    Operands op(s, p, seed++, stream);

    // The reference call (GemmEx; cuBLASLt for FP8): its C, checked on sampled entries against float64.
    sample::poison(op.C_ref.data(), op.C_ref.size());
    if (!cublas.gemm(p, s, op.A.data(), op.B.data(), op.C_ref.data())) continue;  // printed why
    CHECK(cudaStreamSynchronize(stream));
    sample::ErrorStats e;
    std::mt19937_64 pick(seed);
    for (int64_t i = 0; i < kSampledEntries; ++i) {
      const int64_t m = static_cast<int64_t>(pick() % s.M), n = static_cast<int64_t>(pick() % s.N);
      const std::vector<float> a = host_rows(p.ab, op.seed_a, m, 1, s.K, s.ld_ab());
      const std::vector<float> b = host_rows(p.b(), op.seed_b, n, 1, s.K, s.ld_ab());
      e.add(read_element(op.C_ref.data(), p.c, m * s.ld_c() + n), dot(a.data(), b.data(), s.K));
    }
    // The sample sees few entries: count NaN (poison left) over all of cuBLAS's C.
    e.unwritten = op.compare(op.C_ref.data(), op.C_ref.data(), stream).nan_out;
    e.count = s.M * s.N;
    std::vector<Timed> timed;
    Row gemm_ex{s, Cublas::name(p), true};
    set_check(gemm_ex, e, tolerance(p, s.K, false), "float64, " + std::to_string(kSampledEntries) + " sampled entries");
    // Timed into C, so C_ref keeps the checked result.
    timed.push_back({gemm_ex, [&] { (void)cublas.gemm(p, s, op.A.data(), op.B.data(), op.C.data()); }});

    // cuBLASLt: the heuristic's first kLtAlgorithms algorithms, each checked against the reference call.
    const std::vector<cublasLtMatmulHeuristicResult_t> algos = cublas.lt_algorithms(p, s, kLtAlgorithms);
    for (size_t i = 0; i < algos.size(); ++i) {
      const cublasLtMatmulHeuristicResult_t& algo = algos[i];
      sample::poison(op.C.data(), op.C.size());
      Row r{s, "cuBLASLt heuristic #" + std::to_string(i + 1), true};
      if (const cublasStatus_t st = cublas.try_gemm_lt(p, s, algo, op.A.data(), op.B.data(), op.C.data());
          st != CUBLAS_STATUS_SUCCESS) {  // proposed, then refused at the call: shown, not timed
        r.note = std::string("cublasLtMatmul: ") + cublasGetStatusString(st) + ": not timed";
        rows.push_back(r);
        continue;
      }
      set_check(r, diff_stats(op.compare(op.C.data(), op.C_ref.data(), stream), s), tolerance(p, s.K, true),
                Cublas::name(p) + ", every entry");
      if (!r.ok) {  // cuBLAS's own disagreement: shown, not timed, not a failure of ours
        r.note = "disagrees with GemmEx (" + r.note + "): not timed";
        r.ok = true;
        rows.push_back(r);
        continue;
      }
      timed.push_back({r, [&, algo] { cublas.gemm_lt(p, s, algo, op.A.data(), op.B.data(), op.C.data()); }});
    }
    const size_t n_cublas = timed.size();

    for (const GemmEntry& entry : entries) {
      if (!entry.fn || !(precision_of(entry) == p)) continue;
      if (!s.accepted_by(entry)) {
        std::printf("tileslc_bench: %s skipped on %s: it needs M, N, K multiples of %lld, %lld, %lld\n", entry.name,
                    s.text().c_str(), (long long)entry.m_multiple, (long long)entry.n_multiple, (long long)entry.k_multiple);
        continue;
      }
      const tileslc::TensorView mA = op.view_a(), mB = op.view_b(), mC = op.view_c();
      sample::poison(op.C.data(), op.C.size());
      tileslc::Status status = entry.fn(mA, mB, mC, stream);
      if (!status.ok()) {
        rows.push_back(rejected_row(s, entry, status));
        continue;
      }
      Row row{s, entry.name, false};
      set_check(row, diff_stats(op.compare(op.C.data(), op.C_ref.data(), stream), s), tolerance(p, s.K, true),
                Cublas::name(p) + ", every entry");
      const GemmFn fn = entry.fn;
      timed.push_back({row, [fn, mA, mB, mC, stream] { CHECK_OK(fn(mA, mB, mC, stream)); }});
    }

    // All timed together (blocks or single calls in turn, see Timing), so that drift over a long
    // run (the GPU slows as it heats) weighs on all alike.
    std::vector<std::function<void()>> calls;
    for (const Timed& t : timed) calls.push_back(t.call);
    const std::vector<double> ms = median_times(calls, timing, stream);
    const double best_cublas = *std::min_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(n_cublas));
    size_t fastest = 0;  // the fastest passing entry's index in `timed`, 0 when none passed
    for (size_t i = n_cublas; i < timed.size(); ++i) {
      if (timed[i].row.ok && (fastest == 0 || ms[i] < ms[fastest])) fastest = i;
    }
    for (size_t i = 0; i < timed.size(); ++i) {
      Row r = timed[i].row;
      r.ms = ms[i];
      r.tflops = s.flop() / (r.ms * 1e-3) / 1e12;
      r.ratio = best_cublas / r.ms;
      r.fastest_entry = fastest != 0 && i == fastest;
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace bench
