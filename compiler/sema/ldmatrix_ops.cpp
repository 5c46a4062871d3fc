// ldmatrix as a CuTe copy atom and the tiled copies that feed a tiled MMA:
// CuTe DSL's cute.nvgpu.warp.LdMatrix8x8x16bOp, cute.make_tiled_copy_A/B,
// thr_copy.partition_S(smem) and thr_copy.retile(fragment), cute.copy through
// them (one ldmatrix per atom), and make_tiled_mma's permutation_mnk, which
// widens the tile those copies cover.
//
// The atom (PTX ISA, "Warp-level matrix load instruction: ldmatrix") follows
// CuTe's SM75_U32x{1,2,4}_LDSM_N and SM75_U16x{2,4,8}_LDSM_T traits, in 16-bit
// elements of the num_matrices 8x8 matrices stacked 64 elements apart: the
// source layout gives lane i the row address of row i % 8 of matrix i / 8 (a
// row: 8 contiguous elements); the destination layout gives lane t the pair
// (row t / 4, columns 2 * (t % 4) + {0, 1}) of each matrix, or with .trans
// (rows 2 * (t % 4) + {0, 1}, column t / 4). make_tiled_copy_A/B lay the
// destination over the tiled MMA's fragment layout, and derive the source
// side as CuTe's tile2thrfrg does: the MMA's (thread, value) layout divided
// into (32 lanes, atom values) blocks, composed with right_inverse(dst) o src.
// retile maps the copy's destination values onto a make_fragment_A/B
// fragment by the tile coordinate each holds.
//
// stmatrix (sm_90, PTX "Warp-level matrix store instruction: stmatrix",
// CuTe DSL's StMatrix8x8x16bOp, CuTe's SM90_U32x{1,2,4}_STSM_N / _U16x{2,4,8}
// _STSM_T) is the same exchange the other way: the registers (the same
// per-lane pairs) are the source, the shared-memory rows (the same per-lane
// row addresses) the destination. make_tiled_copy_C lays it over the tiled
// MMA's C fragment; partition_D gives the row addresses, retile the
// registers, and cute.copy(tiled, regs, rows) issues one stmatrix per atom.
#include <unordered_map>

#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

constexpr int64_t kRowElems = 8;  // one ldmatrix row: 8 16-bit elements, 16 bytes

/// The atom's source layout: (lane, element of its row) -> element of the stacked matrices.
layout::Layout ldsm_src(int matrices) {
  if (matrices == 1) return layout::parse_layout("((8,4),8):((8,0),1)");  // lanes 8-31 repeat 0-7 (unused)
  if (matrices == 2) return layout::parse_layout("((16,2),8):((8,0),1)");
  return layout::parse_layout("(32,8):(8,1)");
}

/// The atom's destination layout: (lane, value) -> element of the stacked matrices.
layout::Layout ldsm_dst(int matrices, bool trans) {
  std::string n = std::to_string(matrices);
  return layout::parse_layout(trans ? "((4,8),(2," + n + ")):((16,1),(8,64))" : "(32,(2," + n + ")):(2,(1,64))");
}

layout::Layout mode_layout(int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); }

const char* space_name(MemSpace s) {
  return s == MemSpace::Smem ? "shared-memory" : s == MemSpace::Gmem ? "global-memory" : s == MemSpace::Rmem ? "register" : "coordinate";
}

/// Rows and columns of the tile make_tiled_copy_A/B/C cover: permutation_mnk's, else the atoms'.
std::pair<int64_t, int64_t> operand_tile(const TiledMma& tm, int operand) {
  const MmaAtom& a = tm.atom;
  if (operand == 2) return {tm.tile_m ? tm.tile_m : a.m * tm.am, tm.tile_n ? tm.tile_n : a.n * tm.an};
  int64_t rows = operand == 0 ? (tm.tile_m ? tm.tile_m : a.m * tm.am) : (tm.tile_n ? tm.tile_n : a.n * tm.an);
  return {rows, tm.tile_k ? tm.tile_k : a.k};
}

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

void Evaluator::set_permutation(TiledMma& tm, const Value& perm, source::SourceRange r) {
  // CuTe DSL: make_tiled_mma(op, atom_layout_mnk, permutation_mnk=(M, N, K)). tileslc takes
  // integer tiles (CuTe's identity permutations): partition_A/B/C are unchanged and the tiled
  // copies of make_tiled_copy_A/B cover (M, K) and (N, K).
  if (perm.kind != Value::Kind::Tuple || perm.elts->size() != 3)
    fail(diag::Kind::BadLayoutArgument, r, "permutation_mnk must be a tuple (M, N, K) of tile extents, found " + repr(perm));
  const MmaAtom& a = tm.atom;
  const int64_t least[3] = {a.m * tm.am, a.n * tm.an, a.k};
  int64_t* out[3] = {&tm.tile_m, &tm.tile_n, &tm.tile_k};
  for (size_t i = 0; i < 3; ++i) {
    const Value& e = (*perm.elts)[i];
    if (e.kind == Value::Kind::None) continue;
    if (e.kind != Value::Kind::Int) {
      auto& d = error(diag::Kind::BadLayoutArgument, r, "permutation_mnk[" + std::to_string(i) + "] must be an integer tile extent, found " + describe(e));
      d.note("tileslc supports CuTe's identity permutations only: a tile extent per mode");
      abort_entry();
    }
    if (e.i < least[i] || e.i % least[i] != 0) {
      auto& d = error(diag::Kind::BadLayoutArgument, r,
                      "permutation_mnk[" + std::to_string(i) + "] = " + std::to_string(e.i) + " is not a multiple of the atoms' extent " +
                          std::to_string(least[i]));
      d.note("the tiled MMA's atoms cover " + std::to_string(least[0]) + " x " + std::to_string(least[1]) + " x " + std::to_string(least[2]));
      abort_entry();
    }
    *out[i] = e.i;
  }
}

Value Evaluator::make_ldmatrix_atom(std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site) {
  // cute.make_copy_atom(LdMatrix8x8x16bOp(transpose, num_matrices), dtype)
  check_keywords(kwargs, "cute.make_copy_atom", {"num_bits_per_copy"}, site.range);
  const Value& op = args[0];
  auto atom = std::make_shared<CopyAtom>();
  atom->ldsm_trans = (*op.elts)[0].i != 0;
  atom->ldsm_matrices = static_cast<int>((*op.elts)[1].i);
  atom->stsm = op.s == "StMatrix8x8x16bOp";
  const char* instr = atom->stsm ? "stmatrix" : "ldmatrix";
  if (args[1].kind != Value::Kind::Type)
    fail(diag::Kind::TypeMismatch, arg_range_of(site, 1), "expected an element type such as cutlass.BFloat16, found " + describe(args[1]));
  atom->dtype = args[1].type;
  if (ir::bit_width(atom->dtype) != 16) {
    auto& d = error(diag::Kind::BadCopyAtom, arg_range_of(site, 1),
                    std::string(instr) + " moves 16-bit elements (.b16), found " + ir::type_name(atom->dtype));
    d.note(std::string(atom->stsm ? "StMatrix8x8x16bOp stores" : "LdMatrix8x8x16bOp loads") + " 8x8 matrices of Float16, BFloat16 or other 16-bit values");
    abort_entry();
  }
  atom->bits = 32 * atom->ldsm_matrices;  // each lane receives one 32-bit register per matrix
  if (auto b = kwarg_of(kwargs, "num_bits_per_copy"); b && require_static_int(*b, site.range, "num_bits_per_copy") != atom->bits)
    fail(diag::Kind::BadCopyAtom, site.range, std::string("a") + (atom->stsm ? " stmatrix" : "n ldmatrix") + " atom of " + std::to_string(atom->ldsm_matrices) + " matrices gives each thread " +
                                                  std::to_string(atom->bits) + " bits; leave num_bits_per_copy out");
  Value v;
  v.kind = Value::Kind::CopyAtom;
  v.atom = atom;
  return v;
}

Value Evaluator::call_ldmatrix_builtin(BuiltinId id, std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site) {
  if (id == BuiltinId::LdMatrix8x8x16bOp || id == BuiltinId::StMatrix8x8x16bOp) {
    // CuTe DSL: cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=1), and
    // StMatrix8x8x16bOp with the same arguments (stmatrix: sm_90 and later, else E0709).
    const bool store = id == BuiltinId::StMatrix8x8x16bOp;
    const char* name = store ? "cute.nvgpu.warp.StMatrix8x8x16bOp" : "cute.nvgpu.warp.LdMatrix8x8x16bOp";
    if (store) require_arch("stmatrix", false, site.range);
    check_keywords(kwargs, name, {"transpose", "num_matrices"}, site.range);
    check_arity(args.size(), 0, 2, name, site.range);
    std::optional<Value> tr = !args.empty() ? std::optional<Value>(args[0]) : kwarg_of(kwargs, "transpose");
    std::optional<Value> nm = args.size() >= 2 ? std::optional<Value>(args[1]) : kwarg_of(kwargs, "num_matrices");
    bool trans = false;
    if (tr) {
      if (tr->kind != Value::Kind::Bool) fail(diag::Kind::TypeMismatch, site.range, "transpose= takes True or False, found " + describe(*tr));
      trans = tr->i != 0;
    }
    int64_t n = nm ? require_static_int(*nm, site.range, "num_matrices") : 1;
    if (n != 1 && n != 2 && n != 4) {
      auto& d = error(diag::Kind::BadCopyAtom, site.range, std::string(store ? "stmatrix stores" : "ldmatrix loads") +
                                                               " 1, 2 or 4 matrices, found num_matrices=" + std::to_string(n));
      d.note(std::string("PTX has ") + (store ? "stmatrix" : "ldmatrix") + " .x1, .x2 and .x4");
      abort_entry();
    }
    Value v;
    v.kind = Value::Kind::Marker;
    v.s = store ? "StMatrix8x8x16bOp" : "LdMatrix8x8x16bOp";
    v.elts = std::make_shared<std::vector<Value>>(std::vector<Value>{Value::boolean(trans), Value::integer(n)});
    return v;
  }
  // cute.make_tiled_copy_A(atom, tiled_mma) / make_tiled_copy_B (ldmatrix) / make_tiled_copy_C (stmatrix)
  const int operand = id == BuiltinId::MakeTiledCopyA ? 0 : id == BuiltinId::MakeTiledCopyB ? 1 : 2;
  const std::string name = operand == 0 ? "cute.make_tiled_copy_A" : operand == 1 ? "cute.make_tiled_copy_B" : "cute.make_tiled_copy_C";
  check_keywords(kwargs, name, {}, site.range);
  check_arity(args.size(), 2, 2, name, site.range);
  const bool store = operand == 2;
  if (args[0].kind != Value::Kind::CopyAtom || !args[0].atom->ldsm_matrices || args[0].atom->stsm != store) {
    auto& d = error(diag::Kind::BadCopyAtom, arg_range_of(site, 0),
                    name + "() takes " + (store ? "a stmatrix" : "an ldmatrix") + " copy atom, found " + describe(args[0]));
    d.help(store ? "cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(False, 2), cutlass.BFloat16)"
                 : "cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 4), cutlass.BFloat16)");
    abort_entry();
  }
  if (args[1].kind != Value::Kind::TiledMma || args[1].tiled_mma->thread)
    fail(diag::Kind::TypeMismatch, arg_range_of(site, 1), name + "() takes a tiled MMA (cute.make_tiled_mma) second, found " + describe(args[1]));
  const CopyAtom& atom = *args[0].atom;
  const TiledMma& tm = *args[1].tiled_mma;
  if (tm.atom.device_fn.empty() || tm.atom.threads != 32) {
    auto& d = error(diag::Kind::BadCopyAtom, arg_range_of(site, 1), std::string(store ? "stmatrix stores" : "ldmatrix feeds") +
                                                                        " a warp-level MMA's fragments (mma.sync); this tiled MMA is made of " + tm.atom.name);
    d.help("use cute.nvgpu.warp.MmaF16BF16Op(...) atoms");
    abort_entry();
  }
  if (!store && ir::bit_width(atom.dtype) != ir::bit_width(tm.atom.ab)) {
    auto& d = error(diag::Kind::BadCopyAtom, site.range,
                    std::string("the copy atom moves ") + ir::type_name(atom.dtype) + ", the tiled MMA's operands are " + ir::type_name(tm.atom.ab));
    d.help(std::string("make the copy atom with cutlass.") + ir::type_name(tm.atom.ab));
    abort_entry();
  }
  auto [rows, cols] = operand_tile(tm, operand);
  auto tc = std::make_shared<TiledCopy>();
  tc->atom = atom;
  tc->tiler = layout::IntTuple::tuple({rows, cols});
  tc->operand = operand;
  auto mma = std::make_shared<TiledMma>(tm);
  tc->mma = mma;
  try {
    tc->dst_tv = mma_tv_over_tile(tm, operand, rows, cols);
    const int64_t atom_v = 2 * atom.ldsm_matrices;
    const int64_t vals = layout::size(layout::get(tc->dst_tv, 1)).require_value("values");
    if (vals % atom_v != 0) {
      auto& d = error(diag::Kind::BadCopyAtom, arg_range_of(site, 0),
                      std::string(store ? "stmatrix .x" : "ldmatrix .x") + std::to_string(atom.ldsm_matrices) + " gives each thread " + std::to_string(atom_v) + " values, but the tiled MMA's " +
                          (operand == 0 ? "A" : operand == 1 ? "B" : "C") + " fragment holds " + std::to_string(vals) + " per thread in its " + std::to_string(rows) + " x " +
                          std::to_string(cols) + " tile");
      d.note(store ? "one stmatrix must read whole registers of one thread's fragment" : "one ldmatrix must fill whole registers of one thread's fragment");
      if (store)
        d.help("store fewer matrices (num_matrices=" + std::to_string(vals / 2) + "), or widen the tiled MMA's N tile: make_tiled_mma(op, (" +
               std::to_string(tm.am) + ", " + std::to_string(tm.an) + ", 1), permutation_mnk=(" + std::to_string(tm.atom.m * tm.am) + ", " +
               std::to_string(2 * tm.atom.n * tm.an) + ", " + std::to_string(tm.atom.k) + "))");
      else if (operand == 1)
        d.help("load fewer matrices (num_matrices=" + std::to_string(vals / 2) + "), or widen the tiled MMA's N tile: make_tiled_mma(op, (" +
               std::to_string(tm.am) + ", " + std::to_string(tm.an) + ", 1), permutation_mnk=(" + std::to_string(tm.atom.m * tm.am) + ", " +
               std::to_string(2 * tm.atom.n * tm.an) + ", " + std::to_string(tm.atom.k) + "))");
      else
        d.help("load fewer matrices (num_matrices=" + std::to_string(vals / 2) + ")");
      abort_entry();
    }
    // CuTe's tile2thrfrg: ((lanes, atom values), (rest threads, rest values)) -> tile offset, with
    // the atom block re-expressed from destination (reference) to source lanes and values.
    layout::Layout z = layout::zipped_divide(
        tc->dst_tv, layout::Tiler::tuple({layout::Tiler(mode_layout(32, 1)), layout::Tiler(mode_layout(atom_v, 1))}));
    layout::Layout ref2src = layout::composition(layout::right_inverse(ldsm_dst(atom.ldsm_matrices, atom.ldsm_trans)),
                                                 layout::Tiler(ldsm_src(atom.ldsm_matrices)));
    layout::Layout src = layout::composition(layout::get(z, 0), layout::Tiler(ref2src));
    layout::Layout rest = layout::get(z, 1);
    tc->tv = layout::make_layout(std::vector<layout::Layout>{
        layout::make_layout(std::vector<layout::Layout>{layout::get(src, 0), layout::get(rest, 0)}),
        layout::make_layout(std::vector<layout::Layout>{layout::get(src, 1), layout::get(rest, 1)})});
  } catch (const layout::LayoutError& e) {
    fail(diag::Kind::LayoutAlgebraError, site.range, name + "(): " + e.what());
  }
  Value v;
  v.kind = Value::Kind::TiledCopy;
  v.tiled_copy = tc;
  return v;
}

Value Evaluator::ldmatrix_partition(const TiledCopy& tc, const Value& tv, bool source, source::SourceRange r) {
  const TensorValue& t = *tv.tensor;
  const bool store = tc.atom.stsm;  // stmatrix: the rows are the destination
  const char* instr = store ? "stmatrix" : "ldmatrix";
  if (source == store) {
    auto& d = error(diag::Kind::BadCopyAtom, r, store ? "a stmatrix tiled copy reads registers; it has no partition_S"
                                                      : "an ldmatrix tiled copy writes registers; it has no partition_D");
    d.help(store ? "view the fragment through the copy: thr_copy.retile(tCrC), a C-shaped fragment of 16-bit values"
                 : "view the MMA's fragment through the copy: thr_copy.retile(tiled_mma.make_fragment_A(...))");
    abort_entry();
  }
  if (t.space != MemSpace::Smem) {
    auto& d = error(diag::Kind::BadCopyAtom, r, std::string(instr) + (store ? " writes shared memory; partition_D got a " : " reads shared memory; partition_S got a ") +
                                                    space_name(t.space) + " tensor");
    d.help(store ? "store into a shared-memory tile, then copy that on (a universal copy or a TMA store)"
                 : "stage the tile in shared memory first (cp.async or a universal copy), then partition that");
    abort_entry();
  }
  if (ir::bit_width(t.dtype) != 16)
    fail(diag::Kind::BadCopyAtom, r, std::string(instr) + " moves 16-bit elements, the tensor holds " + ir::type_name(t.dtype));
  // (V, REST_M, REST_K, ...) -> ((8, V / 8), REST_M, REST_K, ...): CuTe's (CPY, CPY_M, CPY_K).
  Value p = thread_partition(tv, tc.tiler, tc.tv, *tc.thread, 0, store ? "a stmatrix tiled copy" : "an ldmatrix tiled copy", r);
  auto out = std::make_shared<TensorValue>(*p.tensor);
  try {
    out->layout = split_values(out->layout, kRowElems);
  } catch (const layout::LayoutError& e) {
    fail(diag::Kind::LayoutAlgebraError, r, std::string("cannot partition the tensor: ") + e.what());
  }
  return tensor_value(std::move(*out));
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
  const TensorValue& t = *tv.tensor;
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
  const int64_t atom_v = 2 * tc.atom.ldsm_matrices;
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
    // The layout of copy_vals' shape that gives those offsets: a stride per leaf, checked at every point.
    std::vector<layout::Int> strides;
    int64_t unit = 1;
    for (const auto& leaf : layout::flatten_leaves(copy_vals.shape)) {
      int64_t s = leaf.value();
      strides.push_back(layout::Int(s > 1 ? want[unit] - want[0] : 0));
      unit *= s;
    }
    layout::Layout view = layout::make_layout(copy_vals.shape, layout::unflatten(strides, copy_vals.shape));
    for (int64_t c = 0; c < n; ++c) {
      if (static_at(view, c) != want[c] - want[0]) {
        auto& d = error(diag::Kind::TensorShapeMismatch, r, "retile(): the copy's values do not follow a layout over this fragment");
        d.note("the fragment's layout is " + t.layout.to_string());
        abort_entry();
      }
    }
    TensorValue out = t;
    out.layout = view;
    if (want[0] != 0) {
      int64_t base = t.offset ? ir::as_int_const(t.offset).value_or(0) : 0;
      out.offset = ir::int_const(base + want[0], ScalarType::Int64);
    }
    return tensor_value(std::move(out));
  } catch (const layout::LayoutError& e) {
    fail(diag::Kind::LayoutAlgebraError, r, std::string("retile(): ") + e.what());
  }
}

void Evaluator::ldmatrix_copy(const CopyAtom& atom, const Value& src_v, const Value& dst_v, const std::optional<Value>& pred,
                              source::SourceRange r) {
  // ldmatrix: shared-memory rows to registers; stmatrix (atom.stsm): registers to the rows.
  const bool store = atom.stsm;
  const TensorValue& src = *(store ? dst_v : src_v).tensor;  // below, src is the rows' side
  const TensorValue& dst = *(store ? src_v : dst_v).tensor;  // and dst the registers'
  const int n = atom.ldsm_matrices;
  const int64_t atom_v = 2 * n;
  const std::string what = std::string(store ? "stmatrix .x" : "ldmatrix .x") + std::to_string(n) + (atom.ldsm_trans ? ".trans" : "");
  if (pred) fail(diag::Kind::UnsupportedOperation, r, std::string(store ? "a " : "an ") + what + " copy cannot be predicated: the warp " +
                                                          (store ? "stores" : "loads") + " whole matrices");
  if (src.space != MemSpace::Smem || dst.space != MemSpace::Rmem) {
    const TensorValue& from = *src_v.tensor;
    const TensorValue& to = *dst_v.tensor;
    auto& d = error(diag::Kind::BadCopyAtom, r, what + (store ? " copies registers to shared memory" : " copies shared memory to registers") +
                                                    "; this copy is from a " + space_name(from.space) + " tensor to a " + space_name(to.space) + " tensor");
    d.help(store ? "source: thr_copy.retile(fragment); destination: thr_copy.partition_D(smem tile)"
                 : "source: thr_copy.partition_S(smem tile); destination: thr_copy.retile(fragment)");
    abort_entry();
  }
  if (src.dtype != dst.dtype || ir::bit_width(src.dtype) != 16) {
    fail(diag::Kind::TensorDtypeMismatch, r, std::string(store ? "a stmatrix" : "an ldmatrix") + " copy moves 16-bit elements between tensors of one type, found " +
                                                 ir::type_name(src.dtype) + " and " + ir::type_name(dst.dtype));
  }
  // Both sides ((ATOM_V, REST_V), REST...): 8 source values (a row) and 2 * n destination values per atom.
  auto mode_size = [](const layout::Layout& l, size_t m) { return layout::size(layout::get(l, m)).require_value("mode"); };
  const int64_t s0 = mode_size(src.layout, 0), d0 = mode_size(dst.layout, 0);
  bool ok = src.layout.rank() == dst.layout.rank() && s0 % kRowElems == 0 && d0 % atom_v == 0 && s0 / kRowElems == d0 / atom_v;
  for (size_t m = 1; ok && m < src.layout.rank(); ++m) ok = mode_size(src.layout, m) == mode_size(dst.layout, m);
  if (!ok) {
    auto& d = error(diag::Kind::TensorShapeMismatch, r, "cute.copy through " + what + " between tensors of shapes " + shape_text(src_v.tensor->layout.shape) +
                                                            " and " + shape_text(dst_v.tensor->layout.shape));
    if (store) {
      d.note("each atom reads " + std::to_string(atom_v) + " register values per thread and writes 8 elements (one row); mode 0 holds the atoms, the other modes must agree");
      d.help("copy thr_copy.retile(frag)[..., n] into thr_copy.partition_D(sC)[..., n]");
    } else {
      d.note("each atom reads 8 elements per thread (one row) and writes " + std::to_string(atom_v) + "; mode 0 holds the atoms, the other modes must agree");
      d.help("copy thr_copy.partition_S(sA)[..., k] into thr_copy.retile(frag)[..., k]");
    }
    abort_entry();
  }
  if (src.swizzle && src.swizzle->bits > 0 && (int64_t(1) << src.swizzle->base) < kRowElems) {
    auto& d = error(diag::Kind::BadCopyAtom, r, std::string(store ? "stmatrix" : "ldmatrix") + " rows are 8 contiguous elements, but the swizzle " + src.swizzle->to_string() +
                                                    " moves runs of " + std::to_string(int64_t(1) << src.swizzle->base));
    d.help("use a swizzle with base 3 or more for 16-bit elements, e.g. cute.make_swizzle(3, 3, 3)");
    abort_entry();
  }
  const int64_t atoms = s0 / kRowElems, rest = layout::size(src.layout).require_value("size") / s0;
  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  auto static_offset = [&](const TensorValue& t, int64_t linear) { return layout_offset(t.layout, Value::integer(linear), r); };
  for (int64_t j = 0; j < rest; ++j) {
    for (int64_t x = 0; x < atoms; ++x) {
      const int64_t ls = j * s0 + x * kRowElems, ld = j * d0 + x * atom_v;
      // The source row: 8 contiguous elements at a 16-byte-aligned address.
      Value first = static_offset(src, ls);
      for (int64_t q = 1; q < kRowElems; ++q) {
        Value o = static_offset(src, ls + q);
        if (first.kind != Value::Kind::Int || o.kind != Value::Kind::Int || o.i != first.i + q) {
          auto& d = error(diag::Kind::BadCopyAtom, r, std::string("each thread's ") + (store ? "stmatrix" : "ldmatrix") +
                                                          " row must be 8 contiguous elements of shared memory; this one is not");
          d.note(std::string(store ? "the destination's" : "the source's") + " layout is " + src.layout.to_string());
          // Offer the other transpose only to an atom that does not use it already.
          const std::string other = atom.ldsm_trans ? "" : ", or use transpose=True";
          if (store) d.help("keep the tile's contiguous mode the one stmatrix rows run along (N for a row-major C tile)" + other);
          else d.help("keep the tile's contiguous mode the one ldmatrix rows run along (K for A and B in K-major layouts)" + other);
          abort_entry();
        }
      }
      Value off = first;
      if (src.offset) off = eval_binop(ast::BinOpKind::Add, Value::dyn(src.offset, r), off, r, r);
      ir::ExprRef pre = to_expr_as(off, ScalarType::Int64, r);
      if (src.align_bytes % 16 != 0 || (known_divisor(pre) * 2) % 16 != 0) {
        auto& d = error(diag::Kind::BadCopyAtom, r, std::string(store ? "stmatrix" : "ldmatrix") +
                                                        " row addresses must be 16-byte aligned; a row here starts at an element offset known only to be a multiple of " +
                                                        std::to_string(known_divisor(pre)));
        d.note(std::string(store ? "the destination's" : "the source's") + " layout is " + src.layout.to_string() + " (" + std::to_string(src.align_bytes) + "-byte aligned base)");
        d.help("make rows start every 8 elements: pad or size the shared-memory rows to a multiple of 8 elements");
        abort_entry();
      }
      std::vector<ir::ExprRef> call_args{ir::address_of(src.ptr, to_expr_as(swizzled(src, off, r), ScalarType::Int64, r), src.dtype)};
      // One register per matrix: a pair of adjacent, 4-byte-aligned fragment elements.
      for (int64_t k = 0; k < n; ++k) {
        Value lo = static_offset(dst, ld + 2 * k), hi = static_offset(dst, ld + 2 * k + 1);
        std::optional<int64_t> base = dst.offset ? ir::as_int_const(dst.offset) : std::optional<int64_t>(0);
        if (!base || lo.kind != Value::Kind::Int || hi.kind != Value::Kind::Int || hi.i != lo.i + 1 || (*base + lo.i) % 2 != 0) {
          auto& d = error(diag::Kind::BadCopyAtom, r, store ? "stmatrix reads 32-bit registers: each pair of source values must be adjacent fragment elements at an even offset"
                                                            : "ldmatrix fills 32-bit registers: each pair of destination values must be adjacent fragment elements at an even offset");
          d.note(std::string(store ? "the source's" : "the destination's") + " layout is " + dst.layout.to_string());
          d.help(store ? "copy from thr_copy.retile(fragment), a compact C-shaped fragment" : "copy into thr_copy.retile(tiled_mma.make_fragment_A/B(...)), a compact fragment");
          abort_entry();
        }
        call_args.push_back(ir::address_of(dst.ptr, ir::int_const(*base + lo.i, ScalarType::Int64), dst.dtype));
      }
      fn_->stored_ptrs[store ? src.ptr : dst.ptr] += 1;
      auto s = ir::make_stmt(ir::StmtKind::Eval, loc);
      s->a = ir::call(std::string(store ? "tileslc::dev::stsm_x" : "tileslc::dev::ldsm_x") + std::to_string(n) + (atom.ldsm_trans ? "_trans" : ""), std::move(call_args), ScalarType::Int32);
      emit(std::move(s));
    }
  }
}

}  // namespace tileslc::sema
