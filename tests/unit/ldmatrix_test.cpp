// End-to-end checks of ldmatrix copies into tiled-MMA fragments
// (compiler/sema/ldmatrix_ops.cpp), without a GPU: a kernel that loads A and
// B tiles from shared memory with make_tiled_copy_A/B + retile and runs
// cute.gemm is analyzed to IR; the IR is interpreted for every thread (its
// integer statements, the row addresses of each ldmatrix and the fragment
// offsets of each mma.sync); each warp's ldmatrix is simulated as the PTX ISA
// defines it ("Warp-level matrix load instruction: ldmatrix"); and every
// mma.sync must then find in its A and B registers exactly the elements the
// PTX ISA's m16n8k16 fragment layouts name ("Matrix Fragments for mma.m16n8k16
// with floating point type"), with the warps' (m, n, k) atoms covering the
// tile once. The shared-memory layouts (swizzled, padded, M/N-major for
// .trans) are inverted independently of tileslc. Shared-memory bank conflicts
// of the ldmatrix reads and cp.async writes are counted: none for the sample.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "diag/diag.h"
#include "ir/ir.h"
#include "sema/sema.h"
#include "source/source.h"

namespace tileslc {
namespace {

struct Config {
  int bm = 64, bn = 64, bk = 32, wm = 2, wn = 2;
  int a_matrices = 4, b_matrices = 4;
  bool a_trans = false, b_trans = false;  // .trans: the operand is stored M- (N-) major
  bool permute_n = true;                  // permutation_mnk widens each warp's N tile to 16
  int swizzle_bits = 2;                   // Swizzle<bits, 3, 3> on K-major tiles; 0: rows padded by 8; -1: neither
  bool expect_conflict_free = true;       // ldmatrix reads of one matrix hit 8 distinct 16-byte bank groups
};

/// The shared-memory layout expression of a (rows, BK) operand tile and the
/// same map in C++: (row, k) -> element offset.
struct SmemTile {
  std::string tpy;
  std::function<int64_t(int64_t, int64_t)> offset;
};

SmemTile smem_tile(const Config& c, int rows, bool mn_major) {
  if (mn_major) {
    return {"cute.make_layout((" + std::to_string(rows) + ", " + std::to_string(c.bk) + "), stride=(1, " + std::to_string(rows) + "))",
            [rows](int64_t r, int64_t k) { return r + k * rows; }};
  }
  if (c.swizzle_bits <= 0) {
    int pitch = c.swizzle_bits == 0 ? c.bk + 8 : c.bk;
    return {"cute.make_layout((" + std::to_string(rows) + ", " + std::to_string(c.bk) + "), stride=(" + std::to_string(pitch) + ", 1))",
            [pitch](int64_t r, int64_t k) { return r * pitch + k; }};
  }
  int b = c.swizzle_bits, bk = c.bk;
  return {"cute.make_composed_layout(cute.make_swizzle(" + std::to_string(b) + ", 3, 3), 0, cute.make_layout((" + std::to_string(rows) + ", " +
              std::to_string(bk) + "), stride=(" + std::to_string(bk) + ", 1)))",
          [b, bk](int64_t r, int64_t k) {
            int64_t o = r * bk + k;
            return o ^ ((o & (((int64_t(1) << b) - 1) << 6)) >> 3);
          }};
}

std::string program(const Config& c, const SmemTile& a, const SmemTile& b) {
  auto s = [](auto v) { return std::to_string(v); };
  std::string perm = c.permute_n ? ", permutation_mnk=(" + s(16 * c.wm) + ", " + s(16 * c.wn) + ", 16)" : "";
  auto tf = [](bool t) { return t ? "True" : "False"; };
  return "import tileslc as cutlass\n"
         "import tileslc.cute as cute\n"
         "@cute.kernel\n"
         "def k(mC: cute.Tensor):\n"
         "    tidx, _, _ = cute.arch.thread_idx()\n"
         "    smem = cutlass.utils.SmemAllocator()\n"
         "    sA = smem.allocate_tensor(cutlass.BFloat16, " + a.tpy + ", 1024)\n"
         "    sB = smem.allocate_tensor(cutlass.BFloat16, " + b.tpy + ", 1024)\n"
         "    mma = cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (16, 8, 16)), (" +
         s(c.wm) + ", " + s(c.wn) + ", 1)" + perm + ")\n"
         "    thr_mma = mma.get_slice(tidx)\n"
         "    tCrA = mma.make_fragment_A(thr_mma.partition_A(sA))\n"
         "    tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))\n"
         "    cA = cute.make_tiled_copy_A(cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(" + tf(c.a_trans) + ", " +
         s(c.a_matrices) + "), cutlass.BFloat16), mma).get_slice(tidx)\n"
         "    cB = cute.make_tiled_copy_B(cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=" + s(c.b_matrices) +
         ", transpose=" + tf(c.b_trans) + "), cutlass.BFloat16), mma).get_slice(tidx)\n"
         "    tAsA = cA.partition_S(sA)\n"
         "    tArA = cA.retile(tCrA)\n"
         "    tBsB = cB.partition_S(sB)\n"
         "    tBrB = cB.retile(tCrB)\n"
         "    acc = mma.make_fragment_C(thr_mma.partition_C(mC))\n"
         "    acc.fill(0.0)\n"
         "    for kb in cutlass.range_constexpr(" + s(c.bk / 16) + "):\n"
         "        cute.copy(cA, tAsA[None, None, kb], tArA[None, None, kb])\n"
         "        cute.copy(cB, tBsB[None, None, kb], tBrB[None, None, kb])\n"
         "        cute.gemm(mma, acc, tCrA[None, None, kb], tCrB[None, None, kb], acc)\n"
         "    cute.copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), acc, thr_mma.partition_C(mC))\n"
         "@cute.jit\n"
         "def run(mC: cute.Tensor[cutlass.Float32, (" + s(c.bm) + ", " + s(c.bn) + "), (" + s(c.bn) + ", 1), 16]):\n"
         "    k(mC).launch(grid=(1, 1, 1), block=(" + s(32 * c.wm * c.wn) + ", 1, 1))\n";
}

using Elem = std::pair<std::string, int64_t>;  // (array, element offset)

/// Runs a kernel's IR for all threads of one block in lockstep (its control
/// flow must be the same for every thread): integer statements per thread;
/// cp.async element by element, landing at the cp.async.wait_group that
/// completes its group; ldmatrix per warp as the PTX ISA defines it; and for
/// each mma.sync, a callback with its lanes' A and B registers' contents. A
/// shared-memory element holds where it came from (a global element), or
/// itself until written. Reading an element before its cp.async landed, or
/// without a barrier after another thread's landed, fails; so does a cp.async
/// to an element another thread read since the last barrier.
class Machine {
 public:
  using MmaCheck = std::function<void(int warp, const std::vector<std::vector<Elem>>& a, const std::vector<std::vector<Elem>>& b,
                                      const Elem& d, const Elem& c)>;
  Machine(int threads, std::map<std::string, int64_t> params, MmaCheck on_mma)
      : threads_(threads), params_(std::move(params)), vars_(threads), regs_(threads), pending_(threads), on_mma_(std::move(on_mma)) {}

  void run(const ir::Block& body) {
    for (const auto& s : body) {
      if (::testing::Test::HasFatalFailure()) return;
      if (const auto* a = s->get_if<ir::Assign>()) {
        for (int t = 0; t < threads_; ++t) vars_[t][a->var] = eval(a->value, t);
      } else if (const auto* i = s->get_if<ir::If>()) {
        if (uniform(i->cond)) run(i->then_body);
        else run(i->else_body);
      } else if (const auto* f = s->get_if<ir::For>()) {
        const int64_t end = uniform(f->end), step = uniform(f->step);
        ASSERT_GT(step, 0);
        for (int64_t i = uniform(f->begin); i < end; i += step) {
          for (int t = 0; t < threads_; ++t) vars_[t][f->var] = i;
          run(f->body);
        }
      } else if (s->is<ir::Sync>()) {
        ++epoch_;
      } else if (const auto* e = s->get_if<ir::Eval>()) {
        ASSERT_TRUE(e->expr->is<ir::IntrinsicCall>());
        call(e->expr->as<ir::IntrinsicCall>());
      } else if (!s->is<ir::Store>() && !s->is<ir::VecCopy>()) {  // accumulator fills and the epilogue
        FAIL() << "unexpected statement kind " << static_cast<int>(s->kind());
      }
    }
  }

  int ldsm_count = 0, mma_count = 0;
  /// Shared-memory bank conflicts: extra passes beyond one per 128 bytes, counting a
  /// 16-byte access's bank group ((byte address / 16) % 8) per phase: an ldmatrix phase is
  /// one 8x8 matrix (its 8 rows), a 16-byte cp.async phase 8 consecutive lanes.
  int ldsm_conflicts = 0, cp_async_conflicts = 0;
  /// Byte offsets of the shared-memory buffers in the kernel's shared memory (ir::SmemBuffer).
  std::map<std::string, int64_t> smem_base;

 private:
  struct Cell {
    std::optional<Elem> value;
    int pending = 0, writer = -1, landed = -1, read_epoch = -1;
    std::set<int> readers;  // at read_epoch
  };
  struct Write { Elem at, value; };

  int64_t uniform(const ir::ExprRef& e) {
    int64_t v = eval(e, 0);
    for (int t = 1; t < threads_; ++t) EXPECT_EQ(eval(e, t), v) << "control flow differs between threads";
    return v;
  }

  Elem address(const ir::ExprRef& e, int t) {
    const auto* a = e->get_if<ir::AddressOf>();
    EXPECT_TRUE(a && a->offset);
    return a && a->offset ? Elem{a->ptr, eval(a->offset, t)} : Elem{};
  }

  Elem read(const Elem& at, int t) {
    Cell& c = smem_[at];
    EXPECT_EQ(c.pending, 0) << at.first << "[" << at.second << "] read before its cp.async landed (cp.async.wait_group)";
    if (c.value && c.writer != t) EXPECT_LT(c.landed, epoch_) << at.first << "[" << at.second << "] read without a barrier after it landed";
    if (c.read_epoch != epoch_) c.readers.clear();
    c.read_epoch = epoch_;
    c.readers.insert(t);
    return c.value ? *c.value : at;
  }

  void call(const ir::IntrinsicCall& e) {
    using I = ir::Intrinsic;
    const I fn = e.id;
    if (fn == I::CpAsync) {
      const int64_t elems = std::stoll(e.imms.at(0)) / 2;  // bytes of 16-bit elements
      if (elems == 8)
        for (int p = 0; p < threads_ / 8; ++p) {
          std::vector<Elem> lanes;
          for (int l = 0; l < 8; ++l) lanes.push_back(address(e.operands[0], 8 * p + l));
          cp_async_conflicts += conflicts(lanes);
        }
      for (int t = 0; t < threads_; ++t) {
        Elem dst = address(e.operands[0], t), src = address(e.operands[1], t);
        for (int64_t q = 0; q < elems; ++q) {
          Cell& c = smem_[{dst.first, dst.second + q}];
          bool others_read = c.read_epoch == epoch_ && (c.readers.size() > 1 || !c.readers.count(t));
          EXPECT_FALSE(others_read) << "cp.async overwrites " << dst.first << "[" << dst.second + q << "] that another thread read since the last barrier";
          ++c.pending;
          pending_[t].open.push_back({{dst.first, dst.second + q}, {src.first, src.second + q}});
        }
      }
    } else if (fn == I::CpAsyncCommitGroup) {
      for (auto& p : pending_) p.groups.push_back(std::move(p.open)), p.open.clear();
    } else if (fn == I::CpAsyncWaitGroup) {
      const size_t keep = std::stoul(e.imms.at(0));
      for (int t = 0; t < threads_; ++t) {
        auto& groups = pending_[t].groups;
        while (groups.size() > keep) {
          for (const Write& w : groups.front()) {
            Cell& c = smem_[w.at];
            --c.pending;
            c.value = w.value, c.writer = t, c.landed = epoch_;
          }
          groups.erase(groups.begin());
        }
      }
    } else if (fn == I::Ldsm || fn == I::LdsmTrans) {
      // PTX: lane i gives the row address of row i % 8 of matrix i / 8; lane t receives, per
      // matrix, (row t / 4, columns 2 (t % 4) + {0, 1}), or with .trans (rows 2 (t % 4) + {0, 1}, column t / 4).
      ++ldsm_count;
      const bool trans = fn == I::LdsmTrans;
      const int matrices = static_cast<int>(e.operands.size()) - 1;
      for (int w = 0; w < threads_ / 32; ++w) {
        std::vector<Elem> rows(32);
        for (int l = 0; l < 32; ++l) rows[l] = address(e.operands[0], 32 * w + l);
        for (int j = 0; j < matrices; ++j) ldsm_conflicts += conflicts({rows.begin() + 8 * j, rows.begin() + 8 * j + 8});
        for (int l = 0; l < 32; ++l) {
          for (int j = 0; j < matrices; ++j) {
            Elem dst = address(e.operands[1 + j], 32 * w + l);
            for (int v = 0; v < 2; ++v) {
              const Elem& row = rows[8 * j + (trans ? 2 * (l % 4) + v : l / 4)];
              regs_[32 * w + l][{dst.first, dst.second + v}] = read({row.first, row.second + (trans ? l / 4 : 2 * (l % 4) + v)}, 32 * w + l);
            }
          }
        }
      }
    } else if (fn == I::MmaM16n8k16) {
      ++mma_count;
      for (int w = 0; w < threads_ / 32; ++w) {
        std::vector<std::vector<Elem>> a(32), b(32);
        for (int l = 0; l < 32; ++l) {
          const int t = 32 * w + l;
          Elem pa = address(e.operands[1], t), pb = address(e.operands[2], t);
          for (int v = 0; v < 8; ++v) a[l].push_back(reg(t, {pa.first, pa.second + v}));
          for (int v = 0; v < 4; ++v) b[l].push_back(reg(t, {pb.first, pb.second + v}));
        }
        on_mma_(w, a, b, address(e.operands[0], 32 * w), address(e.operands[3], 32 * w));
      }
    } else {
      ASSERT_NE(ir::intrinsic_info(fn).space, ir::IntrinsicSpace::Math)
          << "unexpected call " << ir::intrinsic_info(fn).name;
    }
  }

  /// Extra passes 8 16-byte accesses of 16-bit elements need: the most that share a bank group, minus one.
  int conflicts(const std::vector<Elem>& at) {
    std::map<int64_t, int> per_group;
    int most = 0;
    for (const Elem& e : at) most = std::max(most, ++per_group[(smem_base.at(e.first) + 2 * e.second) / 16 % 8]);
    return most - 1;
  }

  Elem reg(int t, const Elem& at) {
    auto it = regs_[t].find(at);
    EXPECT_NE(it, regs_[t].end()) << "thread " << t << " reads " << at.first << "[" << at.second << "], which no ldmatrix wrote";
    return it == regs_[t].end() ? Elem{} : it->second;
  }

  int64_t eval(const ir::ExprRef& e, int t) {
    if (auto c = ir::as_int_const(e)) return *c;
    if (const auto* v = e->get_if<ir::Var>()) return vars_[t].at(v->name);
    if (const auto* p = e->get_if<ir::Param>()) return params_.at(p->name);
    if (const auto* b = e->get_if<ir::Builtin>()) return b->name == "threadIdx.x" ? t : 0;  // block (0, 0, 0)
    if (const auto* c = e->get_if<ir::Cast>()) return eval(c->value, t);
    if (const auto* c = e->get_if<ir::Call>()) {
      if (c->fn == "tileslc::dev::mod") return eval(c->args[0], t) % eval(c->args[1], t);  // never negative here
      if (c->fn == "tileslc::dev::floordiv") return eval(c->args[0], t) / eval(c->args[1], t);
      ADD_FAILURE() << "call " << c->fn;
      return 0;
    }
    const auto* bin = e->get_if<ir::Binary>();
    if (!bin) {
      ADD_FAILURE() << "expression kind " << static_cast<int>(e->kind());
      return 0;
    }
    const int64_t a = eval(bin->lhs, t), b = eval(bin->rhs, t);
    switch (bin->op) {
      case ir::Op::Add: return a + b;
      case ir::Op::Sub: return a - b;
      case ir::Op::Mul: return a * b;
      case ir::Op::Div: case ir::Op::FloorDiv: case ir::Op::TruncDiv: return a / b;
      case ir::Op::Mod: case ir::Op::TruncMod: return a % b;
      case ir::Op::Shl: return a << b;
      case ir::Op::Shr: return a >> b;
      case ir::Op::BitAnd: return a & b;
      case ir::Op::BitOr: return a | b;
      case ir::Op::BitXor: return a ^ b;
      case ir::Op::Min: return std::min(a, b);
      case ir::Op::Max: return std::max(a, b);
      case ir::Op::Lt: return a < b;
      case ir::Op::Le: return a <= b;
      case ir::Op::Gt: return a > b;
      case ir::Op::Ge: return a >= b;
      case ir::Op::Eq: return a == b;
      case ir::Op::Ne: return a != b;
      default: ADD_FAILURE() << "binary op " << static_cast<int>(bin->op); return 0;
    }
  }

  struct Pending { std::vector<Write> open; std::vector<std::vector<Write>> groups; };
  int threads_;
  std::map<std::string, int64_t> params_;
  std::vector<std::map<std::string, int64_t>> vars_;
  std::vector<std::map<Elem, Elem>> regs_;
  std::vector<Pending> pending_;
  std::map<Elem, Cell> smem_;
  int epoch_ = 0;
  MmaCheck on_mma_;
};

/// Checks each mma.sync's registers against the PTX ISA's m16n8k16 fragments and records the
/// (m, n, k) atoms computed: A value i at (g + 8 ((i / 2) % 2), 2 t + i % 2 + 8 (i / 4)), B value i
/// at (n g, k 2 t + i % 2 + 8 (i / 2)), g = lane / 4, t = lane % 4, relative to the atom's origin.
/// `a_at` / `b_at` give an element's (row, k) in A / B.
struct AtomChecker {
  std::function<std::optional<std::pair<int, int>>(const Elem&)> a_at, b_at;
  std::set<std::tuple<int, int, int>> atoms;                  // (m0, n0, k0), all warps
  std::map<std::pair<int, Elem>, std::pair<int, int>> acc_of;  // (warp, accumulator) -> the (m0, n0) it sums

  void operator()(int w, const std::vector<std::vector<Elem>>& a, const std::vector<std::vector<Elem>>& b, const Elem& d, const Elem& c) {
    auto at = [](const auto& f, const Elem& e) {
      auto p = f(e);
      EXPECT_TRUE(p.has_value()) << "a register holds " << e.first << "[" << e.second << "], not an element of this operand";
      return p.value_or(std::pair<int, int>{-1, -1});
    };
    auto [m0, ka] = at(a_at, a[0][0]);
    auto [n0, kb] = at(b_at, b[0][0]);
    ASSERT_EQ(ka, kb) << "A and B of one mma.sync from different k-blocks";
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      for (int v = 0; v < 8; ++v)
        ASSERT_EQ(at(a_at, a[lane][v]), std::make_pair(m0 + g + 8 * ((v / 2) % 2), ka + 2 * t + v % 2 + 8 * (v / 4)))
            << "A value " << v << " of lane " << lane << " in warp " << w;
      for (int v = 0; v < 4; ++v)
        ASSERT_EQ(at(b_at, b[lane][v]), std::make_pair(n0 + g, kb + 2 * t + v % 2 + 8 * (v / 2)))
            << "B value " << v << " of lane " << lane << " in warp " << w;
    }
    ASSERT_EQ(d, c) << "d and c of one mma.sync differ";
    EXPECT_TRUE(atoms.insert({m0, n0, ka}).second) << "atom (" << m0 << ", " << n0 << ", " << ka << ") computed twice";
    auto [it, fresh] = acc_of.insert({{w, d}, {m0, n0}});
    EXPECT_TRUE(fresh || it->second == std::make_pair(m0, n0)) << "an accumulator sums two output atoms";
  }
};

/// Analyzes `src` (one kernel) with -D `defines`, or fails the test.
std::optional<ir::Program> analyze(const std::string& name, const std::string& src, const std::map<std::string, std::string>& defines = {}) {
  source::SourceManager sm;
  source::FileId f = sm.add_buffer(name, src);
  diag::DiagnosticEngine diags(sm);
  sema::Options opts;
  opts.arch = "sm_90a";
  opts.stdlib_dir = TILESLC_SOURCE_DIR "/stdlib";
  opts.defines = defines;
  std::vector<std::string> deps;
  auto prog = sema::analyze(sm, f, opts, diags, &deps);
  EXPECT_TRUE(prog.has_value()) << (diags.diagnostics().empty() ? "" : diags.diagnostics()[0].message);
  return prog;
}

/// Analyzes the program for `c`, simulates it and checks every mma.sync's operands.
void check(const Config& c) {
  SmemTile a = smem_tile(c, c.bm, c.a_trans), b = smem_tile(c, c.bn, c.b_trans);
  auto prog = analyze("ldsm.tpy", program(c, a, b));
  ASSERT_TRUE(prog.has_value()) << program(c, a, b);
  ASSERT_EQ(prog->kernels.size(), 1u);
  const ir::Kernel& kernel = prog->kernels[0];
  const std::string sA = kernel.smem.at(0).name, sB = kernel.smem.at(1).name;
  // Element offset in sA / sB -> (row, k), inverted from the layouts above.
  std::map<Elem, std::pair<int, int>> where;
  for (int r = 0; r < c.bm; ++r)
    for (int k = 0; k < c.bk; ++k) where[{sA, a.offset(r, k)}] = {r, k};
  for (int r = 0; r < c.bn; ++r)
    for (int k = 0; k < c.bk; ++k) where[{sB, b.offset(r, k)}] = {r, k};
  auto in = [&](const std::string& buf) {
    return [&, buf](const Elem& e) -> std::optional<std::pair<int, int>> {
      auto it = where.find(e);
      if (e.first != buf || it == where.end()) return std::nullopt;
      return it->second;
    };
  };
  AtomChecker atoms{in(sA), in(sB), {}, {}};
  Machine m(32 * c.wm * c.wn, {}, std::ref(atoms));
  for (const auto& buf : kernel.smem) m.smem_base[buf.name] = buf.byte_offset;
  m.run(kernel.body);
  if (c.expect_conflict_free) EXPECT_EQ(m.ldsm_conflicts, 0);
  else EXPECT_GT(m.ldsm_conflicts, 0);
  EXPECT_EQ(atoms.atoms.size(), size_t(c.bm / 16) * (c.bn / 8) * (c.bk / 16));
  EXPECT_EQ(m.mma_count, (c.bm / 16) * (c.bn / 8) * (c.bk / 16) / (c.wm * c.wn));
  EXPECT_GT(m.ldsm_count, 0);
}

/// The gemm_sm80 sample itself: its whole mainloop (prologue, cp.async ring,
/// ldmatrix double buffering) run for block (0, 0) on an M x N x K problem;
/// every (m, n, k) atom of the block's tile over all of K once. The host
/// function specializes gemm_kernel twice: the BM-row tile it launches where
/// the tiles fill the GPU, then the BM / 2-row one; the kernel whose tile is
/// bm rows tall is run.
void check_sample(int64_t M, int64_t N, int64_t K, const std::map<std::string, std::string>& defines, int bm, int bn, int threads) {
  std::ifstream in(TILESLC_SOURCE_DIR "/samples/gemm_sm80/gemm_sm80.tpy");
  std::stringstream text;
  text << in.rdbuf();
  auto prog = analyze("gemm_sm80.tpy", text.str(), defines);
  ASSERT_TRUE(prog.has_value());
  ASSERT_EQ(prog->kernels.size(), 2u);
  const ir::Kernel* kernel = nullptr;
  for (const auto& k : prog->kernels)
    if (k.specialization.find("BM: " + std::to_string(bm) + ",") != std::string::npos) kernel = &k;
  ASSERT_NE(kernel, nullptr) << "no gemm_kernel with BM " << bm;
  ASSERT_EQ(kernel->static_threads, threads);
  auto global = [K](const std::string& ptr, int rows) {
    return [ptr, rows, K](const Elem& e) -> std::optional<std::pair<int, int>> {
      if (e.first != ptr || e.second < 0 || e.second >= rows * K) return std::nullopt;
      return std::pair<int, int>(static_cast<int>(e.second / K), static_cast<int>(e.second % K));
    };
  };
  AtomChecker atoms{global("mA", bm), global("mB", bn), {}, {}};
  Machine m(threads, {{"M", M}, {"N", N}, {"K", K}}, std::ref(atoms));
  for (const auto& buf : kernel->smem) m.smem_base[buf.name] = buf.byte_offset;
  m.run(kernel->body);
  EXPECT_EQ(m.ldsm_conflicts, 0) << "ldmatrix reads of the swizzled stages conflict";
  EXPECT_EQ(m.cp_async_conflicts, 0) << "cp.async writes of the swizzled stages conflict";
  EXPECT_EQ(atoms.atoms.size(), size_t(bm / 16) * (bn / 8) * (K / 16));
}

TEST(Ldmatrix, X4SwizzledKMajorWithPermutedN) { check(Config{}); }

TEST(Ldmatrix, X4Swizzle333On64ElementRows) {
  Config c;
  c.bm = 128, c.bn = 128, c.bk = 64, c.swizzle_bits = 3;
  check(c);
}

TEST(Ldmatrix, X2OnBWithoutPermutation) {
  Config c;
  c.permute_n = false, c.b_matrices = 2;
  check(c);
}

TEST(Ldmatrix, X1OnBAndPaddedRows) {
  Config c;
  c.permute_n = false, c.b_matrices = 1, c.swizzle_bits = 0, c.wm = 4, c.wn = 1, c.bm = 64, c.bn = 32;
  check(c);
}

TEST(Ldmatrix, TransposedMNMajorOperands) {
  Config c;
  c.a_trans = true, c.b_trans = true;
  c.expect_conflict_free = false;  // plain M- and N-major tiles, 64-element (128-byte) rows
  check(c);
}

TEST(Ldmatrix, PlainRowMajorTilesConflict) {  // 64-byte rows, neither swizzled nor padded: the check sees it
  Config c;
  c.swizzle_bits = -1, c.expect_conflict_free = false;
  check(c);
}

TEST(Ldmatrix, EightWarpsWideN) {
  Config c;
  c.bm = 64, c.bn = 128, c.bk = 32, c.wm = 2, c.wn = 4;
  check(c);
}

TEST(Ldmatrix, GemmSm80SampleDefaults) { check_sample(256, 128, 320, {}, 256, 128, 256); }  // 5 k-tiles: the 3-stage ring wraps

TEST(Ldmatrix, GemmSm80SampleHalfHeightTile) { check_sample(128, 128, 320, {}, 128, 128, 128); }  // the 4-warp fallback

TEST(Ldmatrix, GemmSm80SampleOneKTile) { check_sample(128, 128, 64, {}, 128, 128, 128); }  // fewer k-tiles than stages

TEST(Ldmatrix, GemmSm80Sample4StagesBK32) { check_sample(128, 128, 256, {{"STAGES", "4"}, {"BK", "32"}}, 128, 128, 128); }

TEST(Ldmatrix, GemmSm80SampleOneKBlockPerTile) { check_sample(128, 128, 96, {{"STAGES", "2"}, {"BK", "16"}}, 128, 128, 128); }

TEST(Ldmatrix, GemmSm80Sample8Warps128x256) {
  check_sample(128, 256, 192, {{"BN", "256"}, {"WN", "4"}}, 128, 256, 256);
}

}  // namespace
}  // namespace tileslc
