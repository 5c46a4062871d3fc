// Per-thread checks of the TF32 (m16n8k8) and 8-bit integer (m16n8k32)
// mma.sync atoms and of stmatrix (compiler/sema/mma_ops.cpp,
// ldmatrix_ops.cpp), without a GPU: a kernel is analyzed to IR and the IR run
// for every thread of the block (its integer statements, the global element
// each register fragment element was loaded from, each stmatrix as the PTX
// ISA defines it). Every mma.sync must find in each lane's A and B registers
// exactly the elements the ISA's fragment figures name ("Matrix Fragments for
// mma.m16n8k8" with .tf32, "for mma.m16n8k32" with .s8/.u8) and C/D at the
// m16n8 accumulator places, the warps' atoms covering the tile once; after
// stmatrix ("Warp-level matrix store instruction: stmatrix"), every element
// of the shared-memory tile must hold the global element of its coordinate.
// wgmma with A from registers (the RS form): each thread's A fragment must
// hold, per instruction, the elements of the ISA's A fragment figures ("Register
// Fragments and Shared Memory Matrix Layouts", matrix A of m64nNk16 and, for
// .e4m3/.e5m2, of m64nNk32).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "diag/diag.h"
#include "ir/ir.h"
#include "sema/sema.h"
#include "source/source.h"

namespace tileslc {
namespace {

using Elem = std::pair<std::string, int64_t>;  // (array, element offset)
using Lanes = std::vector<std::vector<Elem>>;  // [lane][value]: where the register's value came from

/// Runs a kernel body for `threads` threads of block 0 in lockstep: integer
/// assignments, register loads from global memory, and the warp calls.
class Sim {
 public:
  /// (warp, function, per operand: each lane's elements) for every mma.sync; for
  /// every wgmma RS, (warpgroup, function, {each thread's A elements}).
  using OnMma = std::function<void(int warp, const std::string& fn, const std::vector<Lanes>& operands)>;
  Sim(int threads, OnMma on_mma) : threads_(threads), vars_(threads), regs_(threads), on_mma_(std::move(on_mma)) {}

  void run(const ir::Block& body) {
    for (const auto& s : body) {
      if (const auto* a = s->get_if<ir::Assign>()) {
        // A wgmma's shared-memory descriptor, encoded once into a local: not an element this
        // simulation follows (it checks register A fragments), so any value does.
        const auto* call = a->value->get_if<ir::IntrinsicCall>();
        const bool descriptor = call && call->id == ir::Intrinsic::WgmmaDesc;
        for (int t = 0; t < threads_; ++t) vars_[t][a->var] = descriptor ? 0 : eval(a->value, t);
      } else if (const auto* st = s->get_if<ir::Store>()) {
        // A fragment element loaded from memory: remember where from.
        const auto* l = st->value->get_if<ir::Load>();
        if (!l) continue;
        for (int t = 0; t < threads_; ++t) regs_[t][{st->ptr, eval(st->offset, t)}] = {l->ptr, eval(l->offset, t)};
      } else if (const auto* e = s->get_if<ir::Eval>(); e && e->expr->is<ir::IntrinsicCall>()) {
        call(e->expr->as<ir::IntrinsicCall>());
      } else if (!s->is<ir::Sync>() && !s->is<ir::For>()) {
        ADD_FAILURE() << "unexpected statement kind " << static_cast<int>(s->kind());
      }
    }
  }

  std::map<Elem, Elem> smem;  ///< stmatrix destinations: element -> the global element it holds
  int mma_count = 0, stsm_count = 0, wgmma_count = 0;

 private:
  Elem address(const ir::ExprRef& e, int t) {
    const auto* a = e->get_if<ir::AddressOf>();
    EXPECT_TRUE(a && a->offset);
    return a && a->offset ? Elem{a->ptr, eval(a->offset, t)} : Elem{};
  }
  Elem reg(int t, const Elem& at) {
    auto it = regs_[t].find(at);
    EXPECT_NE(it, regs_[t].end()) << "thread " << t << " reads " << at.first << "[" << at.second << "], never loaded";
    return it == regs_[t].end() ? Elem{} : it->second;
  }

  void call(const ir::IntrinsicCall& e) {
    using I = ir::Intrinsic;
    const std::string fn = ir::intrinsic_spelling(e.id, e.imms);  // for messages
    if (e.id == I::MmaM16n8k16 || e.id == I::MmaM16n8k8Tf32 || e.id == I::MmaM16n8k32) {
      // d, a, b, c: the values of each operand the atom reads, from each lane.
      ++mma_count;
      const bool tf32 = e.id == I::MmaM16n8k8Tf32;
      const int count[4] = {4, tf32 ? 4 : 16, tf32 ? 2 : 8, 4};
      for (int w = 0; w < threads_ / 32; ++w) {
        std::vector<Lanes> ops(4, Lanes(32));
        for (int l = 0; l < 32; ++l)
          for (int o = 1; o < 4; ++o) {
            const Elem p = address(e.operands.at(o), 32 * w + l);
            for (int v = 0; v < count[o]; ++v) ops[o][l].push_back(reg(32 * w + l, {p.first, p.second + v}));
          }
        for (int l = 0; l < 32; ++l) {  // d: where the results go (the registers c came from)
          const Elem p = address(e.operands.at(0), 32 * w + l);
          for (int v = 0; v < 4; ++v) ops[0][l].push_back(reg(32 * w + l, {p.first, p.second + v}));
        }
        on_mma_(w, fn, ops);
      }
    } else if (e.id == I::WgmmaRS || e.id == I::WgmmaF8RS) {
      // d, a (this thread's four 32-bit registers of A), b's descriptor, scale-d.
      ++wgmma_count;
      const int values = e.id == I::WgmmaF8RS ? 16 : 8;  // k32: 8-bit A
      for (int g = 0; g < threads_ / 128; ++g) {
        Lanes a(128);
        for (int t = 0; t < 128; ++t) {
          const Elem p = address(e.operands.at(1), 128 * g + t);
          for (int v = 0; v < values; ++v) a[t].push_back(reg(128 * g + t, {p.first, p.second + v}));
        }
        on_mma_(g, fn, {a});
      }
    } else if (e.id == I::Stsm || e.id == I::StsmTrans) {
      // PTX: lane i gives the address of row i % 8 of matrix i / 8; lane t's register j holds
      // matrix j's (row t / 4, columns 2 (t % 4) + {0, 1}), .trans (rows 2 (t % 4) + {0, 1}, column t / 4).
      ++stsm_count;
      const bool trans = e.id == I::StsmTrans;
      const int matrices = static_cast<int>(e.operands.size()) - 1;
      for (int w = 0; w < threads_ / 32; ++w)
        for (int j = 0; j < matrices; ++j)
          for (int r = 0; r < 8; ++r) {
            const Elem row = address(e.operands.at(0), 32 * w + 8 * j + r);
            for (int c = 0; c < 8; ++c) {
              const int lane = trans ? 4 * c + r / 2 : 4 * r + c / 2, half = trans ? r % 2 : c % 2;
              const Elem src = address(e.operands.at(1 + j), 32 * w + lane);
              EXPECT_TRUE(smem.insert({{row.first, row.second + c}, reg(32 * w + lane, {src.first, src.second + half})}).second)
                  << row.first << "[" << row.second + c << "] written twice";
            }
          }
    }
  }

  int64_t eval(const ir::ExprRef& e, int t) {
    if (auto c = ir::as_int_const(e)) return *c;
    if (const auto* v = e->get_if<ir::Var>()) return vars_[t].at(v->name);
    if (const auto* b = e->get_if<ir::Builtin>()) return b->name == "threadIdx.x" ? t : 0;
    if (const auto* c = e->get_if<ir::Cast>()) return eval(c->value, t);
    if (const auto* c = e->get_if<ir::Call>(); c && c->fn == "tileslc::dev::mod")
      return eval(c->args[0], t) % eval(c->args[1], t);
    const auto* bin = e->get_if<ir::Binary>();
    if (!bin) {
      ADD_FAILURE() << "expression kind " << static_cast<int>(e->kind());
      return 0;
    }
    static const std::map<ir::Op, std::function<int64_t(int64_t, int64_t)>> kOps = {
        {ir::Op::Add, std::plus<>()},          {ir::Op::Sub, std::minus<>()},          {ir::Op::Mul, std::multiplies<>()},
        {ir::Op::FloorDiv, std::divides<>()},  {ir::Op::TruncDiv, std::divides<>()},   {ir::Op::Div, std::divides<>()},
        {ir::Op::Mod, std::modulus<>()},       {ir::Op::TruncMod, std::modulus<>()},   {ir::Op::BitAnd, std::bit_and<>()},
        {ir::Op::BitOr, std::bit_or<>()},      {ir::Op::BitXor, std::bit_xor<>()},
        {ir::Op::Shl, [](int64_t a, int64_t b) { return a << b; }}, {ir::Op::Shr, [](int64_t a, int64_t b) { return a >> b; }}};
    auto it = kOps.find(bin->op);
    if (it == kOps.end()) {
      ADD_FAILURE() << "binary op " << static_cast<int>(bin->op);
      return 0;
    }
    return it->second(eval(bin->lhs, t), eval(bin->rhs, t));
  }

  int threads_;
  std::vector<std::map<std::string, int64_t>> vars_;
  std::vector<std::map<Elem, Elem>> regs_;
  OnMma on_mma_;
};

std::optional<ir::Program> analyze(const std::string& src) {
  source::SourceManager sm;
  source::FileId f = sm.add_buffer("atoms.tpy", src);
  diag::DiagnosticEngine diags(sm);
  sema::Options opts;
  opts.arch = "sm_90a";
  opts.stdlib_dir = TILESLC_SOURCE_DIR "/stdlib";
  std::vector<std::string> deps;
  auto prog = sema::analyze(sm, f, opts, diags, &deps);
  EXPECT_TRUE(prog.has_value()) << (diags.diagnostics().empty() ? "" : diags.diagnostics()[0].message);
  return prog;
}

/// A (WM, WN)-warp tiled MMA of `op` over a (BM, K) x (BN, K) problem in row-major global
/// memory, fragments loaded element by element, then cute.gemm over every k-block.
std::string gemm_program(const std::string& op, const std::string& ab, const std::string& acc, int wm, int wn, int bm, int bn, int k) {
  auto s = [](int v) { return std::to_string(v); };
  return "import tileslc as cutlass\n"
         "import tileslc.cute as cute\n"
         "@cute.kernel\n"
         "def k(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):\n"
         "    tidx, _, _ = cute.arch.thread_idx()\n"
         "    mma = cute.make_tiled_mma(" + op + ", (" + s(wm) + ", " + s(wn) + ", 1))\n"
         "    thr = mma.get_slice(tidx)\n"
         "    tA = thr.partition_A(mA)\n"
         "    tB = thr.partition_B(mB)\n"
         "    tC = thr.partition_C(mC)\n"
         "    rA = mma.make_fragment_A(tA)\n"
         "    rB = mma.make_fragment_B(tB)\n"
         "    rC = mma.make_fragment_C(tC)\n"
         "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass." + ab + "), tA, rA)\n"
         "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass." + ab + "), tB, rB)\n"
         "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass." + acc + "), tC, rC)\n"
         "    cute.gemm(mma, rC, rA, rB, rC)\n"
         "@cute.jit\n"
         "def run(mA: cute.Tensor[cutlass." + ab + ", (" + s(bm) + ", " + s(k) + "), (" + s(k) + ", 1), 16], "
         "mB: cute.Tensor[cutlass." + ab + ", (" + s(bn) + ", " + s(k) + "), (" + s(k) + ", 1), 16], "
         "mC: cute.Tensor[cutlass." + acc + ", (" + s(bm) + ", " + s(bn) + "), (" + s(bn) + ", 1), 16]):\n"
         "    k(mA, mB, mC).launch(grid=(1, 1, 1), block=(" + s(32 * wm * wn) + ", 1, 1))\n";
}

/// The PTX ISA's fragment of one m16n8kK atom: value v of `lane` in A as (row, k), in B as (n, k).
struct Fragments {
  int k;
  std::function<std::pair<int, int>(int lane, int v)> a, b;
};

// mma.m16n8k8 .tf32: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4); b0 (k t, n g), b1 (k t + 4).
const Fragments kTf32{8, [](int l, int v) { return std::pair<int, int>(l / 4 + 8 * (v % 2), l % 4 + 4 * (v / 2)); },
                      [](int l, int v) { return std::pair<int, int>(l / 4, l % 4 + 4 * v); }};
// mma.m16n8k32 .s8/.u8: a_v (g + 8 ((v / 4) % 2), 4 t + v % 4 + 16 (v / 8)); b_v (n g, k 4 t + v % 4 + 16 (v / 4)).
const Fragments kInt8{32, [](int l, int v) { return std::pair<int, int>(l / 4 + 8 * ((v / 4) % 2), 4 * (l % 4) + v % 4 + 16 * (v / 8)); },
                      [](int l, int v) { return std::pair<int, int>(l / 4, 4 * (l % 4) + v % 4 + 16 * (v / 4)); }};

void check_gemm(const std::string& op, const std::string& ab, const std::string& acc, const Fragments& f, int wm, int wn, int bm, int bn,
                int k) {
  auto prog = analyze(gemm_program(op, ab, acc, wm, wn, bm, bn, k));
  ASSERT_TRUE(prog.has_value());
  std::set<std::tuple<int, int, int>> atoms;
  auto pos = [&](const Elem& e, const char* want, int cols) { EXPECT_EQ(e.first, want); return std::pair<int, int>(e.second / cols, e.second % cols); };
  Sim sim(32 * wm * wn, [&](int w, const std::string&, const std::vector<Lanes>& ops) {
    const auto [m0, k0] = pos(ops[1][0][0], "mA", k);
    const auto [n0, kb] = pos(ops[2][0][0], "mB", k);
    ASSERT_EQ(k0, kb) << "A and B of one mma.sync from different k-blocks";
    for (int l = 0; l < 32; ++l) {
      for (size_t v = 0; v < ops[1][l].size(); ++v) {
        auto [r, c] = f.a(l, static_cast<int>(v));
        ASSERT_EQ(pos(ops[1][l][v], "mA", k), std::make_pair(m0 + r, k0 + c)) << "A value " << v << " of lane " << l << " in warp " << w;
      }
      for (size_t v = 0; v < ops[2][l].size(); ++v) {
        auto [n, c] = f.b(l, static_cast<int>(v));
        ASSERT_EQ(pos(ops[2][l][v], "mB", k), std::make_pair(n0 + n, k0 + c)) << "B value " << v << " of lane " << l << " in warp " << w;
      }
      for (int v = 0; v < 4; ++v) {  // C and D: (g + 8 (v / 2), 2 t + v % 2) of the atom's (m0, n0)
        const auto want = std::make_pair(m0 + l / 4 + 8 * (v / 2), n0 + 2 * (l % 4) + v % 2);
        ASSERT_EQ(pos(ops[3][l][v], "mC", bn), want) << "C value " << v << " of lane " << l;
        ASSERT_EQ(pos(ops[0][l][v], "mC", bn), want) << "D value " << v << " of lane " << l;
      }
    }
    EXPECT_TRUE(atoms.insert({m0, n0, k0}).second) << "atom (" << m0 << ", " << n0 << ", " << k0 << ") computed twice";
  });
  sim.run(prog->kernels.at(0).body);
  EXPECT_EQ(atoms.size(), size_t(bm / 16) * (bn / 8) * (k / f.k));
  EXPECT_EQ(sim.mma_count * wm * wn, (bm / 16) * (bn / 8) * (k / f.k));
}

TEST(MmaExt, Tf32OneWarpOneAtom) { check_gemm("cute.nvgpu.warp.MmaTF32Op((16, 8, 8))", "Float32", "Float32", kTf32, 1, 1, 16, 8, 8); }
TEST(MmaExt, Tf32FourWarpsSeveralAtoms) {
  check_gemm("cute.nvgpu.warp.MmaTF32Op((16, 8, 8))", "Float32", "Float32", kTf32, 2, 2, 64, 32, 32);
}
TEST(MmaExt, Int8OneWarpOneAtom) {
  check_gemm("cute.nvgpu.warp.MmaI8Op(cutlass.Int8, cutlass.Int32, (16, 8, 32))", "Int8", "Int32", kInt8, 1, 1, 16, 8, 32);
}
TEST(MmaExt, Uint8FourWarpsSeveralAtoms) {
  check_gemm("cute.nvgpu.warp.MmaI8Op(cutlass.Uint8, cutlass.Int32, (16, 8, 32))", "Uint8", "Int32", kInt8, 2, 2, 32, 32, 64);
}

/// wgmma RS with `wg` warpgroups over a (64 wg, K) A tile of `ab` in row-major global memory, copied
/// element by element into each thread's fragment, and a K-major 128-byte-swizzled (64, K) B tile
/// (K: 128 bytes). Every instruction of every warpgroup must find in thread t's registers value v of
/// the ISA's A fragment, with w = t / 32, g = (t % 32) / 4 and q = t % 4, at (row, col) of the
/// instruction's 64 x k_atom block:
///   16-bit, k_atom 16, 8 values:  (16 w + g + 8 ((v / 2) % 2), 2 q + v % 2 + 8 (v / 4));
///   8-bit, k_atom 32, 16 values:  (16 w + g + 8 ((v / 4) % 2), 4 q + v % 4 + 16 (v / 8)).
void check_wgmma_rs(const std::string& op, const std::string& ab, int k_atom, int wg) {
  auto s = [](int v) { return std::to_string(v); };
  const int elem = k_atom == 32 ? 1 : 2, k = 128 / elem, values = 4 * 4 / elem;
  const std::string src =
      "import tileslc as cutlass\n"
      "import tileslc.cute as cute\n"
      "@cute.kernel\n"
      "def k(mA: cute.Tensor, mC: cute.Tensor):\n"
      "    tidx, _, _ = cute.arch.thread_idx()\n"
      "    smem = cutlass.utils.SmemAllocator()\n"
      "    sB = smem.allocate_tensor(cutlass." + ab + ", cute.make_composed_layout(cute.make_swizzle(3, " + s(elem == 1 ? 4 : 3) +
      ", 3), 0, cute.make_layout((64, " + s(k) + "), stride=(" + s(k) + ", 1))), 1024)\n"
      "    mma = cute.make_tiled_mma(" + op + ", (" + s(wg) + ", 1, 1))\n"
      "    thr = mma.get_slice(tidx)\n"
      "    tA = thr.partition_A(mA)\n"
      "    rA = mma.make_fragment_A(tA)\n"
      "    acc = mma.make_fragment_C(thr.partition_C(mC))\n"
      "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass." + ab + "), tA, rA)\n"
      "    cute.gemm(mma, acc, rA, thr.partition_B(sB), acc)\n"
      "@cute.jit\n"
      "def run(mA: cute.Tensor[cutlass." + ab + ", (" + s(64 * wg) + ", " + s(k) + "), (" + s(k) + ", 1), 16], "
      "mC: cute.Tensor[cutlass.Float32, (" + s(64 * wg) + ", 64), (64, 1), 16]):\n"
      "    k(mA, mC).launch(grid=(1, 1, 1), block=(" + s(128 * wg) + ", 1, 1))\n";
  auto prog = analyze(src);
  ASSERT_TRUE(prog.has_value()) << src;
  std::set<std::pair<int, int>> blocks;
  Sim sim(128 * wg, [&](int g, const std::string& fn, const std::vector<Lanes>& ops) {
    ASSERT_EQ(ops.size(), 1u);
    const Lanes& a = ops[0];
    ASSERT_EQ(a[0].size(), size_t(values)) << fn;
    ASSERT_EQ(a[0][0].first, "mA");
    const int m0 = static_cast<int>(a[0][0].second / k), k0 = static_cast<int>(a[0][0].second % k);
    const int per_reg = 4 / elem;
    for (int t = 0; t < 128; ++t)
      for (int v = 0; v < values; ++v) {
        const int row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((v / per_reg) % 2), col = per_reg * (t % 4) + v % per_reg + (k_atom / 2) * (v / (2 * per_reg));
        ASSERT_EQ(a[t][v], Elem("mA", int64_t{m0 + row} * k + k0 + col)) << fn << ": value " << v << " of thread " << t << " of warpgroup " << g;
      }
    EXPECT_EQ(m0, 64 * g) << "warpgroup " << g << " multiplies rows of another";
    EXPECT_EQ(k0 % k_atom, 0);
    EXPECT_TRUE(blocks.insert({m0, k0}).second) << "A block (" << m0 << ", " << k0 << ") read twice";
  });
  sim.run(prog->kernels.at(0).body);
  EXPECT_EQ(blocks.size(), size_t(wg) * (k / k_atom));
  EXPECT_EQ(sim.wgmma_count, k / k_atom);
}

TEST(WgmmaRs, Float8AFragmentOneWarpgroup) {
  check_wgmma_rs("cute.nvgpu.warpgroup.MmaF8Op(cutlass.Float8E4M3FN, cutlass.Float8E4M3FN, cutlass.Float32, (64, 64, 32), "
                 "a_src=cute.nvgpu.warpgroup.OperandSource.RMEM)",
                 "Float8E4M3FN", 32, 1);
}
TEST(WgmmaRs, Float8AFragmentTwoWarpgroups) {
  check_wgmma_rs("cute.nvgpu.warpgroup.MmaF8Op(cutlass.Float8E5M2, cutlass.Float8E5M2, cutlass.Float32, (64, 64, 32), "
                 "a_src=cute.nvgpu.warpgroup.OperandSource.RMEM)",
                 "Float8E5M2", 32, 2);
}
TEST(WgmmaRs, BFloat16AFragment) {
  check_wgmma_rs("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (64, 64, 16), "
                 "a_src=cute.nvgpu.warpgroup.OperandSource.RMEM)",
                 "BFloat16", 16, 2);
}

/// stmatrix of a (BM, BN) BFloat16 tile from C fragments (loaded from mC) into row-major
/// (column-major with .trans) shared memory; every element must land at its coordinate.
void check_stmatrix(bool trans, int matrices, int wm, int wn, int bm, int bn) {
  auto s = [](int v) { return std::to_string(v); };
  const std::string smem_layout = trans ? "(" + s(bm) + ", " + s(bn) + "), stride=(1, " + s(bm) + ")" : "(" + s(bm) + ", " + s(bn) + "), stride=(" + s(bn) + ", 1)";
  const std::string src =
      "import tileslc as cutlass\n"
      "import tileslc.cute as cute\n"
      "@cute.kernel\n"
      "def k(mC: cute.Tensor):\n"
      "    tidx, _, _ = cute.arch.thread_idx()\n"
      "    mma = cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (16, 8, 16)), (" + s(wm) + ", " + s(wn) +
      ", 1), permutation_mnk=(" + s(bm) + ", " + s(bn) + ", 16))\n"
      "    tC = mma.get_slice(tidx).partition_C(mC)\n"
      "    frag = cute.make_fragment_like(tC)\n"
      "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.BFloat16), tC, frag)\n"
      "    smem = cutlass.utils.SmemAllocator()\n"
      "    sC = smem.allocate_tensor(cutlass.BFloat16, cute.make_layout(" + smem_layout + "), 128)\n"
      "    r2s = cute.make_tiled_copy_C(cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(" + (trans ? "True" : "False") + ", " + s(matrices) +
      "), cutlass.BFloat16), mma)\n"
      "    thr = r2s.get_slice(tidx)\n"
      "    cute.copy(r2s, thr.retile(frag), thr.partition_D(sC))\n"
      "@cute.jit\n"
      "def run(mC: cute.Tensor[cutlass.BFloat16, (" + s(bm) + ", " + s(bn) + "), (" + s(bn) + ", 1), 16]):\n"
      "    k(mC).launch(grid=(1, 1, 1), block=(" + s(32 * wm * wn) + ", 1, 1))\n";
  auto prog = analyze(src);
  ASSERT_TRUE(prog.has_value()) << src;
  const ir::Kernel& kernel = prog->kernels.at(0);
  Sim sim(32 * wm * wn, [](int, const std::string&, const std::vector<Lanes>&) { ADD_FAILURE() << "no mma.sync here"; });
  sim.run(kernel.body);
  ASSERT_EQ(sim.smem.size(), size_t(bm) * bn) << "stmatrix must write every element of the tile once";
  const std::string sC = kernel.smem.at(0).name;
  for (int m = 0; m < bm; ++m)
    for (int n = 0; n < bn; ++n) {
      const int64_t at = trans ? m + int64_t{bm} * n : int64_t{m} * bn + n;
      auto it = sim.smem.find({sC, at});
      ASSERT_NE(it, sim.smem.end()) << "sC(" << m << ", " << n << ") not written";
      EXPECT_EQ(it->second, Elem("mC", int64_t{m} * bn + n)) << "sC(" << m << ", " << n << ")";
    }
  EXPECT_EQ(sim.stsm_count * 64 * matrices * wm * wn, bm * bn);  // each warp stores `matrices` 8x8 matrices per instruction
}

TEST(Stmatrix, X1) { check_stmatrix(false, 1, 2, 2, 32, 16); }
TEST(Stmatrix, X2) { check_stmatrix(false, 2, 2, 2, 32, 16); }
TEST(Stmatrix, X4WideN) { check_stmatrix(false, 4, 2, 2, 32, 32); }
TEST(Stmatrix, X2Trans) { check_stmatrix(true, 2, 2, 2, 32, 16); }
TEST(Stmatrix, X4TransOneWarp) { check_stmatrix(true, 4, 1, 1, 16, 16); }
TEST(Stmatrix, X4EightWarps) { check_stmatrix(false, 4, 4, 2, 64, 32); }

}  // namespace
}  // namespace tileslc
