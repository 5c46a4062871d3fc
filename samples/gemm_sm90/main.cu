// gemm_sm90 driver: runs the tileslc-generated gemm_sm90 (C = A * B^T with TMA
// and wgmma: A (M, K) and B (N, K) BFloat16 row-major, C (M, N) BFloat16
// row-major; any M, N, K, row strides multiples of 8 elements; its epilogue
// goes through shared memory) on several shapes, the same kernel in 2x1
// thread-block clusters multicasting B (gemm_sm90_cluster: odd tile counts
// along M, 128 and 384, leave the last cluster's second block without a tile
// of its own), storing straight from the accumulators
// (gemm_sm90_direct_epilogue), and split-K through a Float32 workspace
// (gemm_sm90_splitk, which picks the slices by shape, and
// gemm_sm90_splitk_with_splits), split-K with the slices added in the GEMM
// kernel by each tile's last slice (gemm_sm90_splitk_fused, _fused_with_splits,
// _fused_bn128, _fused_bm64 on 64-row tiles: the same bits as
// gemm_sm90_splitk's reduce_kernel, checked bit for bit, and its arrival counts
// back at zero after every call) and the skinny-shape tiles 128 x 128, 128 x 64
// and 64 x 64 without split (gemm_sm90_bn128, gemm_sm90_bn64,
// gemm_sm90_bm64_bn64) and stream-K (gemm_sm90_streamk, _streamk_bm64 on 64-row
// tiles: every SM an equal share of the skinny shapes' k-tiles, pieces added by
// each tile's last). Ragged shapes (M, N, K not multiples of the
// 128 x 256 x 64 tile, K = 1001 in rows padded to 1008) and skinny ones
// (M = 16 to 256, N = K = 8192, split-K, with a sweep of forced slice counts
// 1, 2, 4, 8 timed next to the automatic choice) included. Inputs are random in
// [-1, 1), rounded to BFloat16 on the host; the float64 reference is computed
// from those BFloat16 values. C, its rows' padding and a guard after it are
// poisoned with NaN before each call (and the inputs' padding too, so a read
// of it would show). Small shapes are checked element by element, large ones
// on a random sample of entries plus a scan for entries never written; the
// padding and guard must stay untouched; split-K runs twice and must give the
// same bits (a fixed-order reduction). It times 4096^3, 8192^3 and the skinny
// shapes (TFLOP/s) and shows run-time argument validation.
//
// Usage: gemm_sm90 [--small]
//   --small  only the small shapes (every entry checked) and the validation
//            demos: no large case, no timing (for compute-sanitizer runs and
//            the CPU emulator, emu.gemm_sm90).
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device
// or not a compute capability 9.0 device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gemm_sm90.h"
#include "sample_util.h"

namespace {

using sample::Bf16Matrix;

const char* kName = "gemm_sm90";
constexpr int64_t kGuard = 64;             // poisoned BFloat16 after C that must stay untouched
constexpr int64_t kSampledEntries = 4096;  // entries of C checked on large shapes
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// Tolerance on max |C - ref| / max |ref|. The Float32 accumulation on the
// tensor cores contributes at most sample::tensor_core_tolerance(K) =
// 1e-5 * sqrt(K) (sample_util.h derives it); here C is also rounded to BFloat16, whose 8-bit significand
// puts a rounded value within 2^-8 of |C| <= max |ref| (cuBLAS's BF16 output
// shows 2.1e-3 to 2.8e-3 on the same inputs). So 2^-8 + 1e-5 * sqrt(K)
// (4.5e-3 at K = 4096). A real bug is far above: one k-tile of 64 dropped or
// added twice moves entries by about sqrt(64 / K) of max |ref| (0.125 at
// K = 4096, 0.088 at 8192); a misplaced element by order 1.
double tolerance(int64_t K) { return std::ldexp(1.0, -8) + sample::tensor_core_tolerance(K); }

// The host functions as (mA, mB, mC, stream): the default, 2x1 clusters multicasting B, the
// direct-store epilogue, and split-K (its workspace bound in, see Workspace).
using GemmFn = std::function<tileslc::Status(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, cudaStream_t)>;
struct Variant {
  std::string name;
  GemmFn fn;
  bool deterministic_check;  // run twice, same bits expected (split-K's fixed-order reduction)
};

// gemm_sm90_splitk's Float32 workspace: 2 x SMs x 128 x 256 (every split the
// heuristic picks fits, and gemm_sm90_streamk's SMs + tiles pieces), or enough
// for `splits` slices of the shape's tiles.
struct Workspace {
  tileslc::DeviceBuffer buffer;
  int64_t floats = 0;
  Workspace(int64_t M, int64_t N, int splits) {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int64_t tile = 128 * 256, tiles = ((M + 127) / 128) * ((N + 255) / 256);
    floats = splits > 0 ? splits * tiles * tile : 2 * std::max<int64_t>(sms, 1) * tile;
    CHECK_OK(buffer.allocate(floats * 4));
    // NaN: a partial the reduction reads but no slice wrote shows in C.
    sample::poison(buffer.data(), floats * 4);
  }
  tileslc::TensorView view() const { return tileslc::make_tensor_view(buffer.data(), tileslc::DType::Float32, {floats}, {1}); }
};

// The fused split-K's arrival counts: 2 x SMs Int32s (one per tile of every split the rule
// picks, on 128 x 256 or 128 x 128 tiles), zeroed once; each call must leave them zero.
struct Semaphores {
  tileslc::DeviceBuffer buffer;
  int64_t count = 0;
  Semaphores() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    count = 2 * int64_t{std::max(sms, 1)};
    CHECK_OK(buffer.allocate(count * 4));
    CHECK(cudaMemset(buffer.data(), 0, count * 4));
  }
  tileslc::TensorView view() const { return tileslc::make_tensor_view(buffer.data(), tileslc::DType::Int32, {count}, {1}); }
  // Whether every count is back at zero (after a call has finished).
  bool all_zero() const {
    std::vector<int32_t> host(count);
    CHECK(cudaMemcpy(host.data(), buffer.data(), count * 4, cudaMemcpyDeviceToHost));
    return std::all_of(host.begin(), host.end(), [](int32_t v) { return v == 0; });
  }
};

bool is_fused(const std::string& name) {
  return name.find("_fused") != std::string::npos || name.rfind("gemm_sm90_streamk", 0) == 0;
}

// The variants for one shape: the three plain ones, gemm_sm90_splitk (auto) and, with
// `splits` > 1, gemm_sm90_splitk_with_splits forcing that many slices; then the fused
// split-K (auto, the forced count, 128 x 128 tiles) and the skinny tiles without split.
std::vector<Variant> variants(const Workspace& auto_ws, const Workspace* forced_ws, int splits, const Semaphores& sem) {
  std::vector<Variant> v = {{"gemm_sm90", &gemm_sm90, false},
                            {"gemm_sm90_cluster", &gemm_sm90_cluster, false},
                            {"gemm_sm90_direct_epilogue", &gemm_sm90_direct_epilogue, false}};
  const tileslc::TensorView ws = auto_ws.view(), sv = sem.view();
  v.push_back({"gemm_sm90_splitk", [ws](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_splitk(a, b, c, ws, s); }, true});
  if (forced_ws) {
    const tileslc::TensorView fws = forced_ws->view();
    v.push_back({"gemm_sm90_splitk_with_splits(" + std::to_string(splits) + ")",
                 [fws, splits](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_splitk_with_splits(a, b, c, fws, splits, s); },
                 true});
  }
  v.push_back({"gemm_sm90_splitk_fused",
               [ws, sv](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_splitk_fused(a, b, c, ws, sv, s); }, true});
  if (forced_ws) {
    const tileslc::TensorView fws = forced_ws->view();
    v.push_back({"gemm_sm90_splitk_fused_with_splits(" + std::to_string(splits) + ")",
                 [fws, sv, splits](auto a, auto b, auto c, cudaStream_t s) {
                   return gemm_sm90_splitk_fused_with_splits(a, b, c, fws, sv, splits, s);
                 },
                 true});
  }
  v.push_back({"gemm_sm90_splitk_fused_bn128",
               [ws, sv](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_splitk_fused_bn128(a, b, c, ws, sv, s); }, true});
  v.push_back({"gemm_sm90_splitk_fused_bm64",
               [ws, sv](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_splitk_fused_bm64(a, b, c, ws, sv, s); }, true});
  v.push_back({"gemm_sm90_streamk",
               [ws, sv](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_streamk(a, b, c, ws, sv, s); }, true});
  v.push_back({"gemm_sm90_streamk_bm64",
               [ws, sv](auto a, auto b, auto c, cudaStream_t s) { return gemm_sm90_streamk_bm64(a, b, c, ws, sv, s); }, true});
  v.push_back({"gemm_sm90_bn128", &gemm_sm90_bn128, false});
  v.push_back({"gemm_sm90_bn64", &gemm_sm90_bn64, false});
  v.push_back({"gemm_sm90_bm64_bn64", &gemm_sm90_bm64_bn64, false});
  v.push_back({"gemm_sm90_auto", &gemm_sm90_auto, false});
  return v;
}

// gemm_sm90_cluster against gemm_sm90 (no cluster), interleaved: kRounds rounds of
// kReps timed calls of each in turn, so that clock and thermal drift hit both
// alike; prints the median of the per-round time ratios (above 1: the cluster
// kernel is faster) with its spread.
void compare_cluster(int64_t M, int64_t N, int64_t K, const Bf16Matrix& A, const Bf16Matrix& B, cudaStream_t stream) {
  constexpr int kRounds = 9;
  Bf16Matrix C = Bf16Matrix::poisoned(M, N, kGuard);
  const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
  std::vector<double> ratios;
  for (int r = 0; r < kRounds; ++r) {
    const double cluster = sample::median_ms([&] { CHECK_OK(gemm_sm90_cluster(mA, mB, mC, stream)); }, stream, 2, kReps);
    const double plain = sample::median_ms([&] { CHECK_OK(gemm_sm90(mA, mB, mC, stream)); }, stream, 2, kReps);
    ratios.push_back(plain / cluster);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("%s: %s: cluster vs no cluster, interleaved: median speedup %.3fx (min %.3f, max %.3f over %d rounds of %d reps)\n", kName,
              sample::gemm_shape_text(M, N, K).c_str(), ratios[ratios.size() / 2], ratios.front(), ratios.back(), kRounds, kReps);
}

// After gemm_sm90_splitk splits a skinny shape (M < 128: one tile row) on a poisoned workspace: slice 0's partial
// of tile (0, 0) holds C's M rows and leaves the tile's other rows untouched (store_partial
// writes only what lies inside C, so the reduction has no more to read).
bool check_partial_rows(const Workspace& ws, int64_t M, int64_t N, int64_t K) {
  const int64_t cols = std::min<int64_t>(N, 256);
  std::vector<uint32_t> tile(128 * 256);
  CHECK(cudaMemcpy(tile.data(), ws.buffer.data(), tile.size() * 4, cudaMemcpyDeviceToHost));
  int64_t written_inside = 0, written_outside = 0;
  for (int64_t r = 0; r < 128; ++r)
    for (int64_t c = 0; c < 256; ++c) {
      const bool written = tile[r * 256 + c] != 0xFFFFFFFFu;
      (r < M && c < cols ? written_inside : written_outside) += written;
    }
  const bool ok = written_inside == M * cols && written_outside == 0;
  std::printf("gemm_sm90_splitk: %s: partial tile 0 has %lld of %lld entries inside C written, %lld outside %s\n",
              sample::gemm_shape_text(M, N, K).c_str(), (long long)written_inside, (long long)(M * cols),
              (long long)written_outside, ok ? "PASS" : "FAIL");
  return ok;
}

// Skinny shapes: gemm_sm90_splitk_with_splits and gemm_sm90_splitk_fused_with_splits at 1 (no
// split), 2, 3, 4, 6 and 8 slices, each checked on sampled entries and timed, next to the slices
// gemm_sm90_splitk picks itself (SMs // tiles: 4 at M <= 128, 2 at M = 256 on 132 SMs), so that
// one run on a GPU shows whether the rule picks the fastest count, with and without reduce_kernel.
template <class Ref>
bool sweep_splits(int64_t M, int64_t N, int64_t K, const Bf16Matrix& A, const Bf16Matrix& B, Ref&& ref, cudaStream_t stream) {
  bool ok = true;
  const Semaphores sem;
  for (int splits : {1, 2, 3, 4, 6, 8}) {
    const Workspace ws(M, N, splits);
    const tileslc::TensorView mW = ws.view(), mSem = sem.view();
    for (bool fused : {false, true}) {
      Bf16Matrix C = Bf16Matrix::poisoned(M, N, kGuard);
      const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
      auto call = [&] {
        CHECK_OK(fused ? gemm_sm90_splitk_fused_with_splits(mA, mB, mC, mW, mSem, splits, stream)
                       : gemm_sm90_splitk_with_splits(mA, mB, mC, mW, splits, stream));
      };
      call();
      CHECK(cudaStreamSynchronize(stream));
      C.download();
      const std::string name =
          std::string(fused ? "gemm_sm90_splitk_fused_with_splits(" : "gemm_sm90_splitk_with_splits(") + std::to_string(splits) + ")";
      ok &= sample::check_gemm(name.c_str(), M, N, K, kSampledEntries, C, ref, tolerance(K));
      sample::gemm_timing(name.c_str(), M, N, K, (M * K + N * K + M * N) * int64_t{2}, call, stream, kWarmup, kReps);
    }
  }
  return ok;
}

// One shape. `ld` > 0 pads the rows of A and B to ld elements (K not a
// multiple of 8 needs it: TMA's 16-byte strides); C's rows are padded to
// round_up(N, 8) elements likewise.
struct Case {
  int64_t M, N, K;
  int64_t sampled = 0;  // 0: check every entry; else that many random entries and a scan for NaN
  int splits = 0;       // > 1: also gemm_sm90_splitk_with_splits(splits)
  int64_t ld = 0;
  bool timed = false;
  bool only_splitk = false;  // skinny shapes: every variant but gemm_sm90_cluster and _direct_epilogue
};

// One call of each variant on random A, B and a NaN-poisoned C (twice for
// split-K, which must repeat its bits); with `timed` it then prints the median
// time and TFLOP/s.
bool run_case(const Case& c, sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = c.M, N = c.N, K = c.K;
  const int64_t ldc = (N + 7) / 8 * 8;  // rows 16 bytes apart
  const Bf16Matrix A = Bf16Matrix::random(M, K, -1.0f, 1.0f, rng, c.ld);
  const Bf16Matrix B = Bf16Matrix::random(N, K, -1.0f, 1.0f, rng, c.ld);
  auto ref = [&](int64_t m, int64_t n) { return sample::reference_abt(A, B, m, n); };
  const Workspace auto_ws(M, N, 0);
  std::unique_ptr<Workspace> forced_ws;
  if (c.splits > 1) forced_ws = std::make_unique<Workspace>(M, N, c.splits);
  const Semaphores sem;
  bool ok = true;
  std::vector<uint16_t> splitk_bits, forced_bits;  // gemm_sm90_splitk's C (and with_splits'): the fused ones must match
  for (const Variant& v : variants(auto_ws, forced_ws.get(), c.splits, sem)) {
    if (c.only_splitk && (v.name == "gemm_sm90_cluster" || v.name == "gemm_sm90_direct_epilogue")) continue;
    Bf16Matrix C = Bf16Matrix::poisoned(M, N, kGuard, ldc);
    const tileslc::TensorView mA = A.view(), mB = B.view(), mC = C.view();
    if (v.deterministic_check) {
      // NaN workspaces: a partial read that this call did not write (an earlier variant's) shows in C.
      sample::poison(auto_ws.buffer.data(), auto_ws.floats * 4);
      if (forced_ws) sample::poison(forced_ws->buffer.data(), forced_ws->floats * 4);
    }
    CHECK_OK(v.fn(mA, mB, mC, stream));
    CHECK(cudaStreamSynchronize(stream));
    C.download();
    ok &= sample::check_gemm(v.name.c_str(), M, N, K, c.sampled, C, ref, tolerance(K));
    if (v.name == "gemm_sm90_splitk" && c.only_splitk && M < 128) ok &= check_partial_rows(auto_ws, M, N, K);
    if (v.name == "gemm_sm90_splitk") splitk_bits = C.bits();
    if (v.name.rfind("gemm_sm90_splitk_with_splits", 0) == 0) forced_bits = C.bits();
    if (is_fused(v.name)) {
      const bool zero = sem.all_zero();
      std::printf("%s: %s: arrival counts back at zero %s\n", v.name.c_str(), sample::gemm_shape_text(M, N, K).c_str(),
                  zero ? "PASS" : "FAIL");
      ok &= zero;
      // The same sums in the same order as reduce_kernel's: the same bits as the unfused call
      // on the same tiles (the 128 x 128 and 64 x 256 tiles of _bn128 and _bm64 have no unfused twin here).
      const bool forced = v.name.rfind("gemm_sm90_splitk_fused_with_splits", 0) == 0;
      if (v.name == "gemm_sm90_splitk_fused" || forced) {
        const bool same = C.bits() == (forced ? forced_bits : splitk_bits);
        std::printf("%s: %s: the same bits as the unfused split-K %s\n", v.name.c_str(), sample::gemm_shape_text(M, N, K).c_str(),
                    same ? "PASS" : "FAIL");
        ok &= same;
      }
    }
    if (v.deterministic_check) {
      const std::vector<uint16_t> first = C.bits();
      sample::poison(mC.data, C.bits().size() * 2);
      CHECK_OK(v.fn(mA, mB, mC, stream));
      CHECK(cudaStreamSynchronize(stream));
      C.download();
      const bool same = C.bits() == first;
      std::printf("%s: %s: second run %s\n", v.name.c_str(), sample::gemm_shape_text(M, N, K).c_str(),
                  same ? "bit-identical PASS" : "differs FAIL");
      ok &= same;
    }
    if (c.timed) {
      const int64_t operand_bytes = (M * K + N * K + M * N) * int64_t{2};  // all BFloat16
      sample::gemm_timing(v.name.c_str(), M, N, K, operand_bytes, [&] { CHECK_OK(v.fn(mA, mB, mC, stream)); }, stream, kWarmup, kReps);
    }
  }
  if (c.timed && !c.only_splitk) compare_cluster(M, N, K, A, B, stream);
  if (c.timed && c.only_splitk) ok &= sweep_splits(M, N, K, A, B, ref, stream);
  return ok;
}

// gemm_sm90 must reject what its kernel cannot serve before launching, with a
// message naming the parameter: rows not 16 bytes apart (TMA), a wrong dtype,
// a misaligned C, a workspace that is not whole (128, 256) tiles.
bool run_validation(cudaStream_t stream) {
  const int64_t M = 128, N = 256, K = 64;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(M * K * 2));
  CHECK_OK(dB.allocate(N * K * 4));  // room for the Float32 B below too
  CHECK_OK(dC.allocate((M * N + 8) * 2));
  const auto bf16 = tileslc::DType::BFloat16, f32 = tileslc::DType::Float32;
  auto mA = tileslc::make_tensor_view(dA.data(), bf16, {M, K}, {K, 1});
  auto mB = tileslc::make_tensor_view(dB.data(), bf16, {N, K}, {K, 1});
  auto mC = tileslc::make_tensor_view(dC.data(), bf16, {M, N}, {N, 1});
  bool ok = true;
  auto mA_1001 = tileslc::make_tensor_view(dA.data(), bf16, {M, 63}, {63, 1});  // K = 63 compact: rows 126 bytes apart
  auto mB_1001 = tileslc::make_tensor_view(dB.data(), bf16, {N, 63}, {63, 1});
  ok &= sample::expect_rejected(kName, "K = 63 compact (LDA 63)", gemm_sm90(mA_1001, mB_1001, mC, stream), "LDA");
  auto mB_f32 = tileslc::make_tensor_view(dB.data(), f32, {N, K}, {K, 1});
  ok &= sample::expect_rejected(kName, "B Float32, not BFloat16", gemm_sm90(mA, mB_f32, mC, stream), "mB");
  auto mC_odd = tileslc::make_tensor_view(static_cast<uint16_t*>(dC.data()) + 1, bf16, {M, N}, {N, 1});
  ok &= sample::expect_rejected(kName, "C not 16-byte aligned", gemm_sm90(mA, mB, mC_odd, stream), "mC");
  auto mA_k0 = tileslc::make_tensor_view(dA.data(), bf16, {M, 0}, {8, 1});
  auto mB_k0 = tileslc::make_tensor_view(dB.data(), bf16, {N, 0}, {8, 1});
  // K = 0: TMA cannot describe an empty tensor (what a BLAS would answer, C = 0, is not done).
  ok &= sample::expect_rejected(kName, "K = 0", gemm_sm90(mA_k0, mB_k0, mC, stream), "mA");
  auto mW_odd = tileslc::make_tensor_view(dB.data(), f32, {1000}, {1});
  ok &= sample::expect_rejected(kName, "workspace of 1000 Float32s", gemm_sm90_splitk(mA, mB, mC, mW_odd, stream), "mW");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes and the validation demos");
  sample::require_device_or_skip(kName);
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major != 9) {
    std::printf("%s: skipped: needs a compute capability 9.0 GPU (sm_90a: TMA and wgmma), found %d.x\n", kName, major);
    return sample::kSkipExitCode;
  }
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case({128, 256, 64}, rng, stream);               // one tile, one k-tile
    ok &= run_case({384, 256, 1024, 0, 3}, rng, stream);       // 16 k-tiles: the ring wraps; 3 slices of 6, 6, 4
    ok &= run_case({200, 300, 136, 0, 2}, rng, stream);        // ragged M, N and K (3 k-tiles, the last 8 wide)
    ok &= run_case({100, 99, 101, 0, 2, 104}, rng, stream);    // K = 101, N = 99 in rows padded to 104
    // Stream-K's pieces across tiles: 4 tiles x 18 k-tiles on the emulator's 16 SMs, 4 or 5 a CTA.
    ok &= run_case({136, 264, 1104, 0, 3}, rng, stream);
    // Skinny stand-ins at emulator size: 4 tiles of 128 x 256, 16 k-tiles; on 16 SMs split-K picks
    // 4 slices of 4 (as 32 tiles x 4 slices of 32 on 132 SMs at M x 8192 x 8192); M < 128 stores
    // and reduces only C's rows of each partial tile.
    for (int64_t m : {16, 64, 128})
      ok &= run_case({m, 1024, 1024, 0, 0, 0, false, true}, rng, stream);
    if (!small) {
      ok &= run_case({256, 512, 192}, rng, stream);            // 3 k-tiles, fewer than the 4 stages
      ok &= run_case({2048, 4096, 128, 1 << 16}, rng, stream);  // 256 tiles: more than one per CTA
      ok &= run_case({1000, 999, 1001, 1 << 16, 4, 1008}, rng, stream);  // the bench's ragged shape
      for (int64_t m : {16, 64, 128, 256})                     // skinny: split-K
        ok &= run_case({m, 8192, 8192, kSampledEntries, 0, 0, true, true}, rng, stream);
      ok &= run_case({4096, 4096, 4096, kSampledEntries, 0, 0, true}, rng, stream);
      ok &= run_case({8192, 8192, 8192, kSampledEntries, 0, 0, true}, rng, stream);
    }
    ok &= run_validation(stream);
    return ok;
  });
}
