// Tiled copies of matrix atoms derived from other layouts, as a pipelined epilogue builds
// them (CuTe DSL's cute.make_tiled_copy_C_atom and cute.make_tiled_copy_S/D; CuTe's
// copy_atom.hpp functions of the same names):
//
//   tiled_copy_C_atom = cute.make_tiled_copy_C_atom(stmatrix_atom, tiled_mma)
//   r2s = cute.make_tiled_copy_S(stmatrix_atom, tiled_copy_C_atom)
//   r2s.retile(accumulators); r2s.get_slice(tidx).partition_D(sC_subtile)
//
// make_tiled_copy_C_atom keeps, of the tiled MMA's C (thread, value) layout, only the first
// values each thread gives one atom (CuTe truncates the V mode to the atom's NumValSrc), and
// tiles the smallest (M, N) block those values cover: a Hopper 128 x 256 accumulator tile and
// stmatrix .x4 give a 128 x 16 copy tile, which the epilogue steps along N through its
// shared-memory subtiles. make_tiled_copy_S/D lay a new atom over the source (destination)
// (thread, value) layout of a tiled copy, over the same tile.
//
// tileslc's tiled copies tile plain (M, N) blocks (TiledCopy::tiler). CuTe's tiler here is a
// layout per mode that picks the covered rows and columns of the MMA tile in (thread, value)
// order; where they form the block [0, M) x [0, N) (every MMA's C layout tileslc has), that
// tiler is a permutation of the block, and the copy is the same as the block's with the
// (thread, value) layout mapping straight to block offsets, which is what is built here.
// Covered rows or columns that leave gaps are E0601.
#include <algorithm>

#include "sema/atom_traits.h"
#include "sema/evaluator.h"
#include "sema/matrix_copy.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

layout::Layout mode_layout(int64_t n) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(1)); }

int64_t mode_size(const layout::Layout& l, size_t m) { return layout::size(layout::get(l, m)).require_value("mode"); }

/// Argument 0: a matrix copy atom (ldmatrix or stmatrix); else E0708.
const CopyAtom& matrix_atom_arg(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::CopyAtom || !c[0].atom()->ldsm_matrices) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0), c.name() + "() takes an stmatrix or ldmatrix copy atom here, found " + describe(c[0]));
    d.note("tileslc derives tiled copies of the matrix atoms only (CuTe DSL also takes universal copies)");
    d.help("cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(False, 4), cutlass.BFloat16)");
    ev.abort_entry();
  }
  return *c[0].atom();
}

/// A tiled copy of `atom` whose registers follow `regs_tv` ((thread, value) -> offset in
/// `tiler`), its rows derived from them; the MMA and operand that retile() needs come along.
Value matrix_tiled_copy(Evaluator& ev, BuiltinCall& c, const CopyAtom& atom, const layout::Layout& regs_tv, int64_t rows, int64_t cols,
                        std::shared_ptr<const TiledMma> mma, int operand) {
  const CopyTraits& ct = copy_traits_of(atom);
  const int64_t threads = mode_size(regs_tv, 0), vals = mode_size(regs_tv, 1);
  if (threads % ct.threads != 0 || vals % ct.values_per_thread() != 0) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0),
                       std::string(ct.instr) + " .x" + std::to_string(ct.matrices) + " gives each of " + std::to_string(ct.threads) + " lanes " +
                           std::to_string(ct.values_per_thread()) + " values; the layout it is laid over has " + std::to_string(threads) +
                           " threads of " + std::to_string(vals) + " values");
    d.help("use an atom of fewer matrices (num_matrices=" + std::to_string(std::max<int64_t>(1, vals / 2)) + ")");
    ev.abort_entry();
  }
  auto tc = std::make_shared<TiledCopy>();
  tc->atom = atom;
  tc->tiler = layout::IntTuple::tuple({rows, cols});
  tc->dst_tv = regs_tv;
  tc->tv = rows_tv(ct, regs_tv);
  tc->mma = std::move(mma);
  tc->operand = operand;
  return Value::of(tc);
}

}  // namespace

Value tiled_copy_make_c_atom(Evaluator& ev, BuiltinCall& c) {
  // CuTe: layout_TV = layoutC_TV o (threads, NumValSrc), the tiler the block its values cover,
  // the copy's (thread, value) layout those values' block offsets.
  const CopyAtom& atom = matrix_atom_arg(ev, c);
  if (c[1].kind() != Value::Kind::TiledMma || c[1].tiled_mma()->thread)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes a tiled MMA (cute.make_tiled_mma) second, found " + describe(c[1]));
  auto tm = std::make_shared<const TiledMma>(*c[1].tiled_mma());
  const CopyTraits& ct = copy_traits_of(atom);
  auto [rows, cols] = operand_tile(*tm, 2);
  try {
    const layout::Layout c_tv = mma_tv_over_tile(*tm, 2, rows, cols);
    const int64_t threads = mode_size(c_tv, 0), vals = mode_size(c_tv, 1), copy_v = ct.values_per_thread();
    if (copy_v > vals || vals % copy_v != 0) {
      auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0),
                         std::string(ct.instr) + " .x" + std::to_string(ct.matrices) + " gives each thread " + std::to_string(copy_v) +
                             " values; the tiled MMA's C fragment holds " + std::to_string(vals) + " per thread");
      d.help("use an atom of fewer matrices (num_matrices=" + std::to_string(std::max<int64_t>(1, vals / 2)) + ")");
      ev.abort_entry();
    }
    const layout::Layout tv = layout::composition(c_tv, layout::Tiler::tuple({layout::Tiler(mode_layout(threads)), layout::Tiler(mode_layout(copy_v))}));
    const int64_t n = threads * copy_v;
    std::vector<int64_t> m_of(n), n_of(n);
    int64_t block_m = 0, block_n = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t off = tv(i).require_value("offset");
      m_of[i] = off % rows;
      n_of[i] = off / rows;
      block_m = std::max(block_m, m_of[i] + 1);
      block_n = std::max(block_n, n_of[i] + 1);
    }
    std::vector<char> seen(static_cast<size_t>(block_m * block_n), 0);
    std::vector<int64_t> want(n);
    for (int64_t i = 0; i < n; ++i) {
      want[i] = m_of[i] + block_m * n_of[i];
      seen[static_cast<size_t>(want[i])] = 1;
    }
    std::optional<layout::Layout> regs;
    if (block_m * block_n == n && std::all_of(seen.begin(), seen.end(), [](char s) { return s != 0; }) && want[0] == 0)
      regs = layout_through(tv.shape, want);
    if (!regs) {
      auto& d = ev.error(diag::Kind::LayoutAlgebraError, c.site.range,
                         c.name() + "(): the first " + std::to_string(copy_v) + " C values of each thread do not fill a block of the tiled MMA's " +
                             std::to_string(rows) + " x " + std::to_string(cols) + " tile from its origin");
      d.note("the values cover rows [0, " + std::to_string(block_m) + ") and columns [0, " + std::to_string(block_n) + ") with gaps; tileslc tiles plain blocks");
      d.help("use cute.make_tiled_copy_C(atom, tiled_mma), which tiles the whole C tile");
      ev.abort_entry();
    }
    return matrix_tiled_copy(ev, c, atom, *regs, block_m, block_n, tm, 2);
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, c.name() + "(): " + e.what());
  }
}

Value tiled_copy_make_like(Evaluator& ev, BuiltinCall& c) {
  // CuTe: make_tiled_copy_impl(atom, tiled_copy.get_layoutS_TV() (or _D), its tiler). A matrix
  // atom's tiled copy is kept by its register side, so the side taken must be the registers:
  // the source of an stmatrix copy, the destination of an ldmatrix one.
  const CopyAtom& atom = matrix_atom_arg(ev, c);
  if (c[1].kind() != Value::Kind::TiledCopy || c[1].tiled_copy()->thread)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes a tiled copy (not a thread's slice) second, found " + describe(c[1]));
  const TiledCopy& from = *c[1].tiled_copy();
  const bool source = c.id() == BuiltinId::MakeTiledCopyS;
  if (from.operand < 0 || from.atom.stsm != source) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(1),
                       c.name() + "() lays the atom over the tiled copy's " + (source ? "source" : "destination") +
                           " layout; tileslc does this where that side is the registers of a matrix tiled copy");
    d.note(from.operand < 0 ? "this tiled copy is not made of ldmatrix or stmatrix atoms"
                            : std::string("this tiled copy's ") + (source ? "source" : "destination") + " is its shared-memory rows");
    d.help(source ? "derive from an stmatrix tiled copy (cute.make_tiled_copy_C or make_tiled_copy_C_atom)"
                  : "derive from an ldmatrix tiled copy (cute.make_tiled_copy_A/B)");
    ev.abort_entry();
  }
  try {
    const auto& tile = from.tiler.elems();
    return matrix_tiled_copy(ev, c, atom, from.dst_tv, tile[0].value().value(), tile[1].value().value(), from.mma, from.operand);
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, c.name() + "(): " + e.what());
  }
}

}  // namespace tileslc::sema
