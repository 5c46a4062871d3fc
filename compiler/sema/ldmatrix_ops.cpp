// ldmatrix and stmatrix as CuTe copy atoms and the tiled copies that feed a
// tiled MMA: CuTe DSL's cute.nvgpu.warp.LdMatrix8x8x16bOp and
// StMatrix8x8x16bOp, cute.make_tiled_copy_A/B/C, thr_copy.partition_S/D and
// thr_copy.retile(fragment), cute.copy through them (one instruction per
// atom), and make_tiled_mma's permutation_mnk, which widens the tile those
// copies cover.
//
// Each atom is a row of atom_traits.cpp (CuTe's SM75_*_LDSM_* and
// SM90_*_STSM_* Copy_Traits): its shared-memory side gives lane i the address
// of one 8-element row, its register side gives each lane two elements of
// every matrix. make_tiled_copy_A/B/C lay the register side over the tiled
// MMA's fragment layout and derive the shared-memory side as CuTe's
// tile2thrfrg does: the MMA's (thread, value) layout divided into (32 lanes,
// atom values) blocks, composed with right_inverse(registers) o rows. retile
// maps the copy's register values onto a make_fragment_A/B/C fragment by the
// tile coordinate each holds. ldmatrix moves the rows into the registers;
// stmatrix (sm_90) the registers into the rows: make_tiled_copy_C lays it
// over the C fragment, partition_D gives the row addresses, retile the
// registers.
#include <unordered_map>

#include "sema/atom_traits.h"
#include "sema/evaluator.h"
#include "sema/matrix_copy.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

layout::Layout mode_layout(int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); }

const char* space_name(MemSpace s) {
  return s == MemSpace::Smem ? "shared-memory" : s == MemSpace::Gmem ? "global-memory" : s == MemSpace::Rmem ? "register" : "coordinate";
}

}  // namespace

std::pair<int64_t, int64_t> operand_tile(const TiledMma& tm, int operand) {
  const MmaAtom& a = tm.atom;
  if (operand == 2) return {tm.tile_m ? tm.tile_m : a.m * tm.am, tm.tile_n ? tm.tile_n : a.n * tm.an};
  int64_t rows = operand == 0 ? (tm.tile_m ? tm.tile_m : a.m * tm.am) : (tm.tile_n ? tm.tile_n : a.n * tm.an);
  return {rows, tm.tile_k ? tm.tile_k : a.k};
}

namespace {

/// `l` regrouped as ((ATOM_V, REST_V), modes 1...): mode 0 split into atoms of `atom_v` values.
layout::Layout split_values(const layout::Layout& l, int64_t atom_v) {
  std::vector<layout::Layout> modes{layout::zipped_divide(layout::get(l, 0), layout::Tiler(layout::make_layout(layout::IntTuple(atom_v))))};
  for (size_t m = 1; m < l.rank(); ++m) modes.push_back(layout::get(l, m));
  return layout::make_layout(modes);
}

/// A (rows, cols) column-major tile partitioned by `tv` over `tile`, for thread 0:
/// (values, rest_rows, rest_cols) -> offset in the tile.
layout::Layout values_of(int64_t rows, int64_t cols, const layout::IntTuple& tile, const layout::Layout& tv) {
  std::vector<layout::Tiler> by_mode;
  for (const auto& e : tile.elems()) by_mode.push_back(layout::Tiler(layout::make_layout(e)));
  layout::Layout z = layout::zipped_divide(layout::make_layout(layout::IntTuple::tuple({rows, cols})), layout::Tiler::tuple(by_mode));
  layout::Layout c = layout::composition(layout::get(z, 0), layout::Tiler(tv));
  layout::Layout rest = layout::get(z, 1);
  return layout::make_layout(std::vector<layout::Layout>{layout::get(c, 1), layout::get(rest, 0), layout::get(rest, 1)});
}

int64_t static_at(const layout::Layout& l, int64_t i) { return l(i).require_value("offset"); }

}  // namespace

std::optional<layout::Layout> layout_through(const layout::IntTuple& shape, const std::vector<int64_t>& want) {
  std::vector<layout::Int> strides;
  int64_t unit = 1;
  for (const auto& leaf : layout::flatten_leaves(shape)) {
    int64_t s = leaf.value();
    strides.push_back(layout::Int(s > 1 ? want[unit] - want[0] : 0));
    unit *= s;
  }
  layout::Layout view = layout::make_layout(shape, layout::unflatten(strides, shape));
  for (size_t c = 0; c < want.size(); ++c)
    if (static_at(view, static_cast<int64_t>(c)) != want[c] - want[0]) return std::nullopt;
  return view;
}

namespace {

std::string numbers_text(const std::vector<int>& xs, const char* prefix, const char* last) {
  std::vector<std::string> out;
  for (int x : xs) out.push_back(prefix + std::to_string(x));
  return list_text(out, last);
}

/// make_tiled_copy_A/B/C's arguments: a matrix copy atom of the right direction and a
/// warp-level tiled MMA (not a thread's slice) whose operands it can move.
std::pair<const CopyAtom*, const TiledMma*> tiled_copy_args(Evaluator& ev, BuiltinCall& c, bool store) {
  const std::string name = c.name();
  if (c[0].kind() != Value::Kind::CopyAtom || !c[0].atom()->ldsm_matrices || c[0].atom()->stsm != store) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0),
                       name + "() takes " + (store ? "a stmatrix" : "an ldmatrix") + " copy atom, found " + describe(c[0]));
    d.help(store ? "cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(False, 2), cutlass.BFloat16)"
                 : "cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 4), cutlass.BFloat16)");
    ev.abort_entry();
  }
  if (c[1].kind() != Value::Kind::TiledMma || c[1].tiled_mma()->thread)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), name + "() takes a tiled MMA (cute.make_tiled_mma) second, found " + describe(c[1]));
  const CopyAtom& atom = *c[0].atom();
  const TiledMma& tm = *c[1].tiled_mma();
  // stmatrix also stores a warpgroup MMA's C fragments (their warps hold 8-row slabs as mma.sync's do).
  if (!tm.atom.device || (tm.atom.threads != 32 && !(store && tm.atom.wgmma))) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(1),
                       std::string(store ? "stmatrix stores the C fragments of an MMA instruction (mma.sync or wgmma)"
                                         : "ldmatrix feeds a warp-level MMA's fragments (mma.sync)") +
                           "; this tiled MMA is made of " + tm.atom.name);
    d.help(store ? "use cute.nvgpu.warp.MmaF16BF16Op(...) or cute.nvgpu.warpgroup.MmaF16BF16Op(...) atoms" : "use cute.nvgpu.warp.MmaF16BF16Op(...) atoms");
    ev.abort_entry();
  }
  if (!store && ir::bit_width(atom.dtype) != ir::bit_width(tm.atom.ab)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.site.range,
                       std::string("the copy atom moves ") + ir::type_name(atom.dtype) + ", the tiled MMA's operands are " + ir::type_name(tm.atom.ab));
    d.help(std::string("make the copy atom with cutlass.") + ir::type_name(tm.atom.ab));
    ev.abort_entry();
  }
  return {&atom, &tm};
}

/// E0708: the tiled MMA's fragment holds `vals` values per thread, not a multiple of the atom's.
[[noreturn]] void values_not_multiple(Evaluator& ev, BuiltinCall& c, const CopyTraits& ct, const TiledMma& tm, int operand, int64_t vals,
                                      int64_t rows, int64_t cols) {
  const bool store = ct.store;
  auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0),
                     std::string(ct.instr) + " .x" + std::to_string(ct.matrices) + " gives each thread " + std::to_string(ct.values_per_thread()) +
                         " values, but the tiled MMA's " + (operand == 0 ? "A" : operand == 1 ? "B" : "C") + " fragment holds " + std::to_string(vals) +
                         " per thread in its " + std::to_string(rows) + " x " + std::to_string(cols) + " tile");
  d.note(store ? "one stmatrix must read whole registers of one thread's fragment" : "one ldmatrix must fill whole registers of one thread's fragment");
  const std::string fewer = std::string(store ? "store" : "load") + " fewer matrices (num_matrices=" + std::to_string(vals / 2) + ")";
  if (operand == 0)
    d.help(fewer);
  else
    d.help(fewer + ", or widen the tiled MMA's N tile: make_tiled_mma(op, (" + std::to_string(tm.am) + ", " + std::to_string(tm.an) +
           ", 1), permutation_mnk=(" + std::to_string(tm.atom.m * tm.am) + ", " + std::to_string(2 * tm.atom.n * tm.an) + ", " +
           std::to_string(tm.atom.k) + "))");
  ev.abort_entry();
}

}  // namespace

layout::Layout rows_tv(const CopyTraits& ct, const layout::Layout& regs_tv) {
  layout::Layout z = layout::zipped_divide(
      regs_tv, layout::Tiler::tuple({layout::Tiler(mode_layout(ct.threads, 1)), layout::Tiler(mode_layout(ct.values_per_thread(), 1))}));
  layout::Layout ref2rows = layout::composition(layout::right_inverse(ct.regs()), layout::Tiler(ct.rows()));
  layout::Layout rows = layout::composition(layout::get(z, 0), layout::Tiler(ref2rows));
  layout::Layout rest = layout::get(z, 1);
  return layout::make_layout(std::vector<layout::Layout>{
      layout::make_layout(std::vector<layout::Layout>{layout::get(rows, 0), layout::get(rest, 0)}),
      layout::make_layout(std::vector<layout::Layout>{layout::get(rows, 1), layout::get(rest, 1)})});
}

namespace {

/// cute.make_tiled_copy_A(atom, tiled_mma) / _B (ldmatrix) / _C (stmatrix).
Value make_tiled_copy(Evaluator& ev, BuiltinCall& c, int operand) {
  const bool store = operand == 2;
  auto [atom, tm] = tiled_copy_args(ev, c, store);
  const CopyTraits& ct = copy_traits_of(*atom);
  auto [rows, cols] = operand_tile(*tm, operand);
  auto tc = std::make_shared<TiledCopy>();
  tc->atom = *atom;
  tc->tiler = layout::IntTuple::tuple({rows, cols});
  tc->operand = operand;
  tc->mma = std::make_shared<TiledMma>(*tm);
  try {
    tc->dst_tv = mma_tv_over_tile(*tm, operand, rows, cols);
    const int64_t vals = layout::size(layout::get(tc->dst_tv, 1)).require_value("values");
    if (vals % ct.values_per_thread() != 0) values_not_multiple(ev, c, ct, *tm, operand, vals, rows, cols);
    tc->tv = rows_tv(ct, tc->dst_tv);
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, c.name() + "(): " + e.what());
  }
  return Value::of(tc);
}

}  // namespace

void Evaluator::set_permutation(TiledMma& tm, const Value& perm, source::SourceRange r) {
  // CuTe DSL: make_tiled_mma(op, atom_layout_mnk, permutation_mnk=(M, N, K)). tileslc takes
  // integer tiles (CuTe's identity permutations): partition_A/B/C are unchanged and the tiled
  // copies of make_tiled_copy_A/B cover (M, K) and (N, K).
  if (perm.kind() != Value::Kind::Tuple || perm.elts().size() != 3)
    fail(diag::Kind::BadLayoutArgument, r, "permutation_mnk must be a tuple (M, N, K) of tile extents, found " + repr(perm));
  const MmaAtom& a = tm.atom;
  const int64_t least[3] = {a.m * tm.am, a.n * tm.an, a.k};
  int64_t* out[3] = {&tm.tile_m, &tm.tile_n, &tm.tile_k};
  for (size_t i = 0; i < 3; ++i) {
    const Value& e = perm.elts()[i];
    if (e.kind() == Value::Kind::None) continue;
    int64_t extent = e.kind() == Value::Kind::Int ? e.i() : 0;
    if (e.kind() == Value::Kind::Layout) {
      // A permutation layout (sgemm: (16, 4):(4, 1) gives each thread 4 consecutive rows): its
      // size is the tile extent; it must be a static bijection onto [0, size).
      const layout::Layout& pl = e.layout();
      const layout::Int sz = layout::size(pl.shape), cosz = layout::cosize(pl);
      if (!pl.is_static() || !sz.has_value() || !cosz.has_value() || sz.value() != cosz.value()) {
        auto& d = error(diag::Kind::BadLayoutArgument, r,
                        "permutation_mnk[" + std::to_string(i) + "] must be a static permutation of its size, found " + pl.to_string());
        d.note("its size and its cosize must be equal (a bijection of [0, size))");
        abort_entry();
      }
      tm.perm[i] = pl;
      extent = sz.value();
    } else if (e.kind() != Value::Kind::Int) {
      auto& d = error(diag::Kind::BadLayoutArgument, r, "permutation_mnk[" + std::to_string(i) + "] must be an integer tile extent, found " + describe(e));
      d.note("a mode of permutation_mnk is None, a tile extent or a permutation layout");
      abort_entry();
    }
    if (extent < least[i] || extent % least[i] != 0) {
      auto& d = error(diag::Kind::BadLayoutArgument, r,
                      "permutation_mnk[" + std::to_string(i) + "] = " + std::to_string(extent) + " is not a multiple of the atoms' extent " +
                          std::to_string(least[i]));
      d.note("the tiled MMA's atoms cover " + std::to_string(least[0]) + " x " + std::to_string(least[1]) + " x " + std::to_string(least[2]));
      abort_entry();
    }
    *out[i] = extent;
  }
}

Value Evaluator::make_ldmatrix_atom(BuiltinCall& c) {
  // cute.make_copy_atom(LdMatrix8x8x16bOp(transpose, num_matrices), dtype): the op's row of the table.
  const Value& op = c[0];
  const BuiltinId maker = op.is_op(BuiltinId::StMatrix8x8x16bOp) ? BuiltinId::StMatrix8x8x16bOp : BuiltinId::LdMatrix8x8x16bOp;
  const CopyTraits& ct = *find_copy_traits(maker, static_cast<int>(op.elts()[1].i()), op.elts()[0].i() != 0);
  auto atom = std::make_shared<CopyAtom>();
  atom->ldsm_trans = ct.trans;
  atom->ldsm_matrices = ct.matrices;
  atom->stsm = ct.store;
  if (c[1].kind() != Value::Kind::Type)
    fail(diag::Kind::TypeMismatch, c.range(1), "expected an element type such as cutlass.BFloat16, found " + describe(c[1]));
  atom->dtype = c[1].type();
  if (ir::bit_width(atom->dtype) != ct.elem_bits) {
    auto& d = error(diag::Kind::BadCopyAtom, c.range(1),
                    std::string(ct.instr) + " moves " + std::to_string(ct.elem_bits) + "-bit elements (.b" + std::to_string(ct.elem_bits) + "), found " +
                        ir::type_name(atom->dtype));
    d.note(std::string(ct.store ? "StMatrix8x8x16bOp stores" : "LdMatrix8x8x16bOp loads") + " 8x8 matrices of Float16, BFloat16 or other 16-bit values");
    abort_entry();
  }
  atom->bits = ct.bits_per_thread();
  if (c.has(2) && require_static_int(c[2], c.range(2), "num_bits_per_copy") != atom->bits)
    fail(diag::Kind::BadCopyAtom, c.range(2), std::string("a") + (ct.store ? " " : "n ") + std::string(ct.instr) + " atom of " + std::to_string(ct.matrices) +
                                                  " matrices gives each thread " + std::to_string(atom->bits) + " bits; leave num_bits_per_copy out");
  return Value::of(atom);
}

Value ldmatrix_op(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=1, unpack_bits=None),
  // and StMatrix8x8x16bOp with the same parameters (sm_90: the row's Arch). The pair selects a row
  // of the copy table when cute.make_copy_atom gives the element type.
  if (c[0].kind() != Value::Kind::Bool)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), "transpose= takes True or False, found " + describe(c[0]));
  const bool trans = c[0].i() != 0;
  const int64_t n = ev.require_static_int(c[1], c.range(1), "num_matrices");
  const std::vector<int> counts = copy_matrix_counts(c.id());
  const std::string_view instr = find_copy_traits(c.id(), counts.front(), false)->instr;
  if (!find_copy_traits(c.id(), static_cast<int>(n), trans)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(1), std::string(instr) + (instr == "stmatrix" ? " stores " : " loads ") +
                                                                numbers_text(counts, "", " or ") + " matrices, found num_matrices=" + std::to_string(n));
    d.note("PTX has " + std::string(instr) + " " + numbers_text(counts, ".x", " and "));
    ev.abort_entry();
  }
  if (c.has(2)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(2), c.name() + "() moves 16-bit elements as they are, found unpack_bits=" + repr(c[2]));
    d.help("leave unpack_bits out");
    ev.abort_entry();
  }
  return Value::op_marker(c.id(), c.info.export_name, {Value::boolean(trans), Value::integer(n)});
}

Value ldmatrix_make_tiled_copy_A(Evaluator& ev, BuiltinCall& c) { return make_tiled_copy(ev, c, 0); }
Value ldmatrix_make_tiled_copy_B(Evaluator& ev, BuiltinCall& c) { return make_tiled_copy(ev, c, 1); }
Value ldmatrix_make_tiled_copy_C(Evaluator& ev, BuiltinCall& c) { return make_tiled_copy(ev, c, 2); }

Value ldmatrix_retile(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a tensor, found " + describe(c[0]));
  return ev.retile(*c.self().tiled_copy(), c[0], c.site.range);
}

Value Evaluator::ldmatrix_partition(const TiledCopy& tc, const Value& tv, bool source, source::SourceRange r) {
  const TensorValue& t = *tv.tensor();
  const CopyTraits& ct = copy_traits_of(tc.atom);
  const bool store = ct.store;  // stmatrix: the rows are the destination
  const std::string instr(ct.instr);
  if (source == store) {
    // The register side (CuTe's partition_S of a stmatrix copy, partition_D of an ldmatrix one):
    // any tensor, laid out as the registers are, ((ATOM_V, REST_V), REST_M, REST_N, ...). CuTe DSL
    // code takes the shape of a register fragment from it (dense_gemm: partition_S(sC)).
    return thread_partition(tv, tc.tiler, tc.dst_tv, *tc.thread, ct.values_per_thread(),
                            std::string(store ? "a " : "an ") + instr + " tiled copy's registers", r);
  }
  if (t.space != MemSpace::Smem) {
    auto& d = error(diag::Kind::BadCopyAtom, r, instr + (store ? " writes shared memory; partition_D got a " : " reads shared memory; partition_S got a ") +
                                                    space_name(t.space) + " tensor");
    d.help(store ? "store into a shared-memory tile, then copy that on (a universal copy or a TMA store)"
                 : "stage the tile in shared memory first (cp.async or a universal copy), then partition that");
    abort_entry();
  }
  if (ir::bit_width(t.dtype) != ct.elem_bits)
    fail(diag::Kind::BadCopyAtom, r, instr + " moves " + std::to_string(ct.elem_bits) + "-bit elements, the tensor holds " + ir::type_name(t.dtype));
  // ((8, V / 8), REST_M, REST_K, ...): CuTe's (CPY, CPY_M, CPY_K), one row of 8 elements an atom.
  return thread_partition(tv, tc.tiler, tc.tv, *tc.thread, ct.row_elems, (store ? "a " : "an ") + instr + " tiled copy", r);
}

Value Evaluator::retile(const TiledCopy& tc, const Value& tv, source::SourceRange r) {
  // CuTe's retile_D: the fragment a tiled MMA made, viewed as the copy's
  // ((ATOM_V, REST_V), CPY_M, CPY_K) destination. Each value is matched by the
  // tile coordinate it holds (the same for every thread: both layouts share
  // the MMA's thread mode), so the view is exact or the call fails.
  if (tc.operand < 0) {
    auto& d = error(diag::Kind::UnsupportedOperation, r, "retile() is defined for the tiled copies of make_tiled_copy_A/B");
    d.help("partition the destination with partition_D instead");
    abort_entry();
  }
  const TensorValue& t = *tv.tensor();
  if (t.space != MemSpace::Rmem)
    fail(diag::Kind::BadCopyAtom, r, std::string("retile() views a register fragment, found a ") + space_name(t.space) + " tensor");
  const TiledMma& tm = *tc.mma;
  const MmaAtom& a = tm.atom;
  const bool is_a = tc.operand == 0, is_c = tc.operand == 2;
  const char* which = is_a ? "A" : is_c ? "C" : "B";
  const layout::Layout& mma_tv = is_a ? tm.a_tv : is_c ? tm.c_tv : tm.b_tv;
  const int64_t atom_rows = is_a || is_c ? a.m * tm.am : a.n * tm.an;
  const int64_t atom_cols = is_c ? a.n * tm.an : a.k;
  const int64_t mma_v = layout::size(layout::get(mma_tv, 1)).require_value("values");
  const int64_t atom_v = copy_traits_of(tc.atom).values_per_thread();
  const std::string frag = std::string("make_fragment_") + which;
  if (t.layout.rank() != 2 && t.layout.rank() != 3) {
    fail(diag::Kind::TensorShapeMismatch, r, "retile() takes a " + std::string(is_a ? "(V, M, K)" : is_c ? "(V, M, N)" : "(V, N, K)") +
                                                 " fragment from tiled_mma." + frag + ", found shape " + shape_text(t.layout.shape));
  }
  const int64_t v = layout::size(layout::get(t.layout, 0)).require_value("values");
  const int64_t n1 = layout::size(layout::get(t.layout, 1)).require_value("mode 1");
  const int64_t n2 = t.layout.rank() == 3 ? layout::size(layout::get(t.layout, 2)).require_value("mode 2") : 1;
  const auto& tiler = tc.tiler.elems();
  const int64_t rows = n1 * atom_rows, cols = n2 * atom_cols;
  const int64_t tile_rows = tiler[0].value().value(), tile_cols = tiler[1].value().value();
  if (v != mma_v || rows % tile_rows != 0 || cols % tile_cols != 0) {
    auto& d = error(diag::Kind::TensorShapeMismatch, r, "retile() cannot view a fragment of shape " + shape_text(t.layout.shape) + " through this tiled copy");
    if (v != mma_v) d.note("the tiled MMA's " + std::string(which) + " fragment holds " + std::to_string(mma_v) + " values per thread per atom");
    else d.note("it covers a " + std::to_string(rows) + " x " + std::to_string(cols) + " tile, which the copy's " + std::to_string(tile_rows) + " x " +
                std::to_string(tile_cols) + " tiles do not divide");
    d.help("make the fragment with tiled_mma." + frag + "(thr_mma.partition_" + which + "(tile))");
    abort_entry();
  }
  try {
    layout::Layout frag_vals = values_of(rows, cols, layout::IntTuple::tuple({atom_rows, atom_cols}), mma_tv);
    layout::Layout copy_vals = split_values(values_of(rows, cols, tc.tiler, tc.dst_tv), atom_v);
    if (t.layout.rank() == 2) copy_vals = layout::make_layout(std::vector<layout::Layout>{layout::get(copy_vals, 0), layout::get(copy_vals, 1)});
    std::unordered_map<int64_t, int64_t> reg_of;  // tile offset -> fragment offset
    const int64_t n = layout::size(frag_vals).require_value("size");
    for (int64_t i = 0; i < n; ++i) reg_of[static_at(frag_vals, i)] = static_at(t.layout, i);
    std::vector<int64_t> want(n);
    for (int64_t c = 0; c < n; ++c) {
      auto it = reg_of.find(static_at(copy_vals, c));
      if (it == reg_of.end()) throw layout::LayoutError("the copy reaches a value outside the fragment");
      want[c] = it->second;
    }
    std::optional<layout::Layout> view = layout_through(copy_vals.shape, want);
    if (!view) {
      auto& d = error(diag::Kind::TensorShapeMismatch, r, "retile(): the copy's values do not follow a layout over this fragment");
      d.note("the fragment's layout is " + t.layout.to_string());
      abort_entry();
    }
    TensorValue out = t;
    out.layout = *view;
    if (want[0] != 0) {
      int64_t base = t.offset ? ir::as_int_const(t.offset).value_or(0) : 0;
      out.offset = ir::int_const(base + want[0], ScalarType::Int64);
    }
    return tensor_value(std::move(out));
  } catch (const layout::LayoutError& e) {
    fail(diag::Kind::LayoutAlgebraError, r, std::string("retile(): ") + e.what());
  }
}

namespace {

/// cute.copy through a matrix atom: the rows in shared memory, the registers in a fragment, of
/// one 16-bit type, both ((ATOM_V, REST_V), REST...) with the atoms in mode 0; else E0708/E0418.
void check_matrix_copy(Evaluator& ev, const CopyTraits& ct, const std::string& what, const Value& src_v, const Value& dst_v,
                       const TensorValue& rows, const TensorValue& regs, source::SourceRange r) {
  const bool store = ct.store;
  if (rows.space != MemSpace::Smem || regs.space != MemSpace::Rmem) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, r, what + (store ? " copies registers to shared memory" : " copies shared memory to registers") +
                                                       "; this copy is from a " + space_name(src_v.tensor()->space) + " tensor to a " +
                                                       space_name(dst_v.tensor()->space) + " tensor");
    d.help(store ? "source: thr_copy.retile(fragment); destination: thr_copy.partition_D(smem tile)"
                 : "source: thr_copy.partition_S(smem tile); destination: thr_copy.retile(fragment)");
    ev.abort_entry();
  }
  if (rows.dtype != regs.dtype || ir::bit_width(rows.dtype) != ct.elem_bits) {
    ev.fail(diag::Kind::TensorDtypeMismatch, r, std::string(store ? "a " : "an ") + std::string(ct.instr) + " copy moves " + std::to_string(ct.elem_bits) +
                                                    "-bit elements between tensors of one type, found " + ir::type_name(rows.dtype) + " and " +
                                                    ir::type_name(regs.dtype));
  }
  auto mode_size = [](const layout::Layout& l, size_t m) { return layout::size(layout::get(l, m)).require_value("mode"); };
  const int64_t s0 = mode_size(rows.layout, 0), d0 = mode_size(regs.layout, 0), atom_v = ct.values_per_thread();
  bool ok = rows.layout.rank() == regs.layout.rank() && s0 % ct.row_elems == 0 && d0 % atom_v == 0 && s0 / ct.row_elems == d0 / atom_v;
  for (size_t m = 1; ok && m < rows.layout.rank(); ++m) ok = mode_size(rows.layout, m) == mode_size(regs.layout, m);
  if (!ok) {
    auto& d = ev.error(diag::Kind::TensorShapeMismatch, r, "cute.copy through " + what + " between tensors of shapes " +
                                                               ev.shape_text(src_v.tensor()->layout.shape) + " and " + ev.shape_text(dst_v.tensor()->layout.shape));
    const std::string values = std::to_string(atom_v) + " register values per thread", row = std::to_string(ct.row_elems) + " elements (one row)";
    if (store) {
      d.note("each atom reads " + values + " and writes " + row + "; mode 0 holds the atoms, the other modes must agree");
      d.help("copy thr_copy.retile(frag)[..., n] into thr_copy.partition_D(sC)[..., n]");
    } else {
      d.note("each atom reads " + std::to_string(ct.row_elems) + " elements per thread (one row) and writes " + std::to_string(atom_v) +
             "; mode 0 holds the atoms, the other modes must agree");
      d.help("copy thr_copy.partition_S(sA)[..., k] into thr_copy.retile(frag)[..., k]");
    }
    ev.abort_entry();
  }
  if (rows.swizzle && rows.swizzle->bits > 0 && (int64_t(1) << rows.swizzle->base) < ct.row_elems) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, r, std::string(ct.instr) + " rows are " + std::to_string(ct.row_elems) +
                                                       " contiguous elements, but the swizzle " + rows.swizzle->to_string() + " moves runs of " +
                                                       std::to_string(int64_t(1) << rows.swizzle->base));
    d.help("use a swizzle with base 3 or more for 16-bit elements, e.g. cute.make_swizzle(3, 3, 3)");
    ev.abort_entry();
  }
}

/// The address of the row that starts at linear index `at` of `rows`: row_elems contiguous
/// elements at a 16-byte-aligned address, else E0708.
ir::ExprRef row_address(Evaluator& ev, const CopyTraits& ct, const TensorValue& rows, int64_t at, source::SourceRange r) {
  const char* side = ct.store ? "the destination's" : "the source's";
  Value first = ev.layout_offset(rows.layout, Value::integer(at), r);
  for (int64_t q = 1; q < ct.row_elems; ++q) {
    Value o = ev.layout_offset(rows.layout, Value::integer(at + q), r);
    if (first.kind() != Value::Kind::Int || o.kind() != Value::Kind::Int || o.i() != first.i() + q) {
      auto& d = ev.error(diag::Kind::BadCopyAtom, r, "each thread's " + std::string(ct.instr) + " row must be " + std::to_string(ct.row_elems) +
                                                         " contiguous elements of shared memory; this one is not");
      d.note(std::string(side) + " layout is " + rows.layout.to_string());
      // Offer the other transpose only to an atom that does not use it already.
      const std::string other = ct.trans ? "" : ", or use transpose=True";
      if (ct.store) d.help("keep the tile's contiguous mode the one stmatrix rows run along (N for a row-major C tile)" + other);
      else d.help("keep the tile's contiguous mode the one ldmatrix rows run along (K for A and B in K-major layouts)" + other);
      ev.abort_entry();
    }
  }
  Value off = first;
  if (rows.offset) off = ev.eval_binop(ast::BinOpKind::Add, Value::dyn(rows.offset, r), off, r, r);
  ir::ExprRef pre = ev.to_expr_as(off, ScalarType::Int64, r);
  const int64_t row_bytes = ct.row_elems * ct.elem_bits / 8;
  if (rows.align_bytes % row_bytes != 0 || (ev.known_divisor(pre) * ct.elem_bits / 8) % row_bytes != 0) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, r, std::string(ct.instr) + " row addresses must be " + std::to_string(row_bytes) +
                                                       "-byte aligned; a row here starts at an element offset known only to be a multiple of " +
                                                       std::to_string(ev.known_divisor(pre)));
    d.note(std::string(side) + " layout is " + rows.layout.to_string() + " (" + std::to_string(rows.align_bytes) + "-byte aligned base)");
    d.help("make rows start every " + std::to_string(ct.row_elems) + " elements: pad or size the shared-memory rows to a multiple of " +
           std::to_string(ct.row_elems) + " elements");
    ev.abort_entry();
  }
  return ir::address_of(rows.ptr, ev.to_expr_as(ev.swizzled(rows, off, r), ScalarType::Int64, r), rows.dtype);
}

/// The atom's registers from linear index `at` of `regs`: one per matrix, each a pair of
/// adjacent fragment elements at an even offset, else E0708.
void register_addresses(Evaluator& ev, const CopyTraits& ct, const TensorValue& regs, int64_t at, source::SourceRange r,
                        std::vector<ir::ExprRef>& out) {
  std::optional<int64_t> base = regs.offset ? ir::as_int_const(regs.offset) : std::optional<int64_t>(0);
  for (int64_t k = 0; k < ct.matrices; ++k) {
    Value lo = ev.layout_offset(regs.layout, Value::integer(at + 2 * k), r), hi = ev.layout_offset(regs.layout, Value::integer(at + 2 * k + 1), r);
    if (!base || lo.kind() != Value::Kind::Int || hi.kind() != Value::Kind::Int || hi.i() != lo.i() + 1 || (*base + lo.i()) % 2 != 0) {
      auto& d = ev.error(diag::Kind::BadCopyAtom, r,
                         ct.store ? "stmatrix reads 32-bit registers: each pair of source values must be adjacent fragment elements at an even offset"
                                  : "ldmatrix fills 32-bit registers: each pair of destination values must be adjacent fragment elements at an even offset");
      d.note(std::string(ct.store ? "the source's" : "the destination's") + " layout is " + regs.layout.to_string());
      d.help(ct.store ? "copy from thr_copy.retile(fragment), a compact C-shaped fragment"
                      : "copy into thr_copy.retile(tiled_mma.make_fragment_A/B(...)), a compact fragment");
      ev.abort_entry();
    }
    out.push_back(ir::address_of(regs.ptr, ir::int_const(*base + lo.i(), ScalarType::Int64), regs.dtype));
  }
}

}  // namespace

void Evaluator::ldmatrix_copy(const CopyAtom& atom, const Value& src_v, const Value& dst_v, const std::optional<Value>& pred,
                              source::SourceRange r) {
  // ldmatrix: shared-memory rows to registers; stmatrix: registers to the rows.
  const CopyTraits& ct = copy_traits_of(atom);
  const TensorValue& rows = *(ct.store ? dst_v : src_v).tensor();
  const TensorValue& regs = *(ct.store ? src_v : dst_v).tensor();
  const std::string what = std::string(ct.instr) + " .x" + std::to_string(ct.matrices) + (ct.trans ? ".trans" : "");
  if (pred) fail(diag::Kind::UnsupportedOperation, r, std::string(ct.store ? "a " : "an ") + what + " copy cannot be predicated: the warp " +
                                                          (ct.store ? "stores" : "loads") + " whole matrices");
  check_matrix_copy(*this, ct, what, src_v, dst_v, rows, regs, r);
  const int64_t s0 = layout::size(layout::get(rows.layout, 0)).require_value("mode");
  const int64_t d0 = layout::size(layout::get(regs.layout, 0)).require_value("mode");
  const int64_t atoms = s0 / ct.row_elems, rest = layout::size(rows.layout).require_value("size") / s0;
  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  for (int64_t j = 0; j < rest; ++j) {
    for (int64_t x = 0; x < atoms; ++x) {
      std::vector<ir::ExprRef> call_args{row_address(*this, ct, rows, j * s0 + x * ct.row_elems, r)};
      register_addresses(*this, ct, regs, j * d0 + x * ct.values_per_thread(), r, call_args);
      fn_->stored_ptrs[ct.store ? rows.ptr : regs.ptr] += 1;
      emit(ir::eval(loc, ir::intrinsic(ct.device, std::move(call_args), ScalarType::Int32)));
    }
  }
}

}  // namespace tileslc::sema
