// MMA atoms and tiled MMAs (CuTe's MMA_Atom / TiledMMA, CuTe DSL's
// make_mma_atom and make_tiled_mma), the thread slice's partition_A/B/C and
// make_fragment_A/B/C, cute.gemm, and cp.async with its commit/wait groups.
//
// An atom is one instruction with a (thread, value) layout per operand; the
// atoms' facts (shape, threads, layouts, element types, device function) are
// rows of atom_traits.cpp, which the operation builtins here look up.
// make_tiled_mma lays atoms out (AM, AN) over warps; partition_A/B/C give a
// thread's (V, REST_M|N, REST_K|N) values, and cute.gemm issues one
// instruction per (m, n, k) of the register fragments.
#include <algorithm>

#include "sema/atom_traits.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// An atom stride s (column-major over an atom tile of `rows` rows) as a
/// stride of the tiled tile with `tiled_rows` rows.
layout::IntTuple widen(const layout::IntTuple& stride, int64_t rows, int64_t tiled_rows) {
  if (stride.is_leaf()) {
    int64_t s = stride.value().value();
    return layout::IntTuple(layout::Int(s % rows + (s / rows) * tiled_rows));
  }
  std::vector<layout::IntTuple> xs;
  for (const auto& e : stride.elems()) xs.push_back(widen(e, rows, tiled_rows));
  return layout::IntTuple::tuple(std::move(xs));
}

/// The tiled TV layout: thread = (atom thread, warp_m, warp_n), value = the atom's.
layout::Layout tiled_tv(const layout::Layout& atom_tv, int64_t rows, int64_t tiled_rows, const layout::Layout& warp_m,
                        const layout::Layout& warp_n) {
  layout::Layout thr = layout::get(atom_tv, 0), val = layout::get(atom_tv, 1);
  layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, rows, tiled_rows));
  layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, rows, tiled_rows));
  return layout::make_layout(std::vector<layout::Layout>{layout::make_layout(std::vector<layout::Layout>{thr_w, warp_m, warp_n}), val_w});
}

}  // namespace

layout::Layout mma_tv_over_tile(const TiledMma& tm, int operand, int64_t rows, int64_t cols) {
  // CuTe's TiledMMA::get_layoutA_TV / get_layoutB_TV / get_layoutC_TV over a
  // (rows, cols) tile of the operand (operand 0: A, 1: B, 2: C): thread (atom thread, warp_m, warp_n), value (atom
  // value, rest_rows, rest_cols), where the atom tiles beyond one per warp
  // repeat every m*AM (n*AN) rows and every k columns.
  const MmaAtom& a = tm.atom;
  auto L = [](int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); };
  if (operand == 2) {
    // C over a (rows, cols) tile: atoms repeat every m*AM rows and n*AN columns.
    layout::Layout thr = layout::get(a.c_tv, 0), val = layout::get(a.c_tv, 1);
    layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, a.m, rows));
    layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, a.m, rows));
    layout::Layout rest_rows = L(rows / (a.m * tm.am), a.m * tm.am), rest_cols = L(cols / (a.n * tm.an), a.n * tm.an * rows);
    return layout::make_layout(std::vector<layout::Layout>{
        layout::make_layout(std::vector<layout::Layout>{thr_w, L(tm.am, a.m), L(tm.an, a.n * rows)}),
        layout::make_layout(std::vector<layout::Layout>{val_w, rest_rows, rest_cols})});
  }
  const bool is_a = operand == 0;
  const int64_t atom_rows = is_a ? a.m : a.n, warps = is_a ? tm.am : tm.an;
  const layout::Layout& atom_tv = is_a ? a.a_tv : a.b_tv;
  layout::Layout thr = layout::get(atom_tv, 0), val = layout::get(atom_tv, 1);
  layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, atom_rows, rows));
  layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, atom_rows, rows));
  layout::Layout warp_m = is_a ? L(tm.am, a.m) : L(tm.am, 0), warp_n = is_a ? L(tm.an, 0) : L(tm.an, a.n);
  layout::Layout rest_rows = L(rows / (atom_rows * warps), atom_rows * warps), rest_cols = L(cols / a.k, a.k * rows);
  return layout::make_layout(std::vector<layout::Layout>{layout::make_layout(std::vector<layout::Layout>{thr_w, warp_m, warp_n}),
                                                         layout::make_layout(std::vector<layout::Layout>{val_w, rest_rows, rest_cols})});
}

namespace {

Value mma_value(MmaAtom a) {
  return Value::of(std::make_shared<MmaAtom>(std::move(a)));
}

/// Argument i as an element type (cutlass.Float32, ...).
ScalarType element_type(Evaluator& ev, BuiltinCall& c, size_t i) {
  if (c[i].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(i), "expected an element type such as cutlass.Float32, found " + describe(c[i]));
  return c[i].type();
}

std::string mnk_text(const MmaTraits& t) {
  return "(" + std::to_string(t.m) + ", " + std::to_string(t.n) + ", " + std::to_string(t.k) + ")";
}

/// The rows of `rows` whose Shape_MNK is argument `at`; E0708 naming the shapes there are otherwise.
std::vector<const MmaTraits*> rows_of_shape(Evaluator& ev, BuiltinCall& c, const std::vector<const MmaTraits*>& rows, size_t at) {
  std::vector<const MmaTraits*> out;
  std::vector<std::string> shapes;
  for (const MmaTraits* r : rows) {
    if (std::find(shapes.begin(), shapes.end(), mnk_text(*r)) == shapes.end()) shapes.push_back(mnk_text(*r));
    if (ev.static_equal(c[at], Value::tuple({Value::integer(r->m), Value::integer(r->n), Value::integer(r->k)}))) out.push_back(r);
  }
  if (out.empty()) {
    const std::string supported = shapes.size() == 1 ? "the " + shapes[0] + " shape" : "the shapes " + list_text(shapes);
    ev.fail(diag::Kind::BadCopyAtom, c.range(at), std::string(rows.front()->name) + " supports " + supported + ", found " + repr(c[at]));
  }
  return out;
}

/// Operand (0: A, 1: B, 2: C) of the TiledMma methods.
enum Operand : int { OperandA = 0, OperandB = 1, OperandC = 2 };

const TensorValue& tensor_arg(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a tensor, found " + describe(c[0]));
  return *c[0].tensor();
}

/// thr_mma.partition_A/B/C(t): this thread's (V, REST_M|N, REST_K|N) values of t.
Value partition_operand(Evaluator& ev, BuiltinCall& c, Operand op) {
  tensor_arg(ev, c);
  const TiledMma& tm = *c.self().tiled_mma();
  const MmaAtom& a = tm.atom;
  const std::string method = std::string(c.info.attribute());
  if (!tm.thread)
    ev.fail(diag::Kind::UnsupportedOperation, c.site.range,
            "." + method + "() needs one thread's slice: tiled_mma.get_slice(tidx)." + method + "(t)");
  layout::IntTuple tile = op == OperandA   ? layout::IntTuple::tuple({layout::Int(a.m * tm.am), layout::Int(a.k)})
                          : op == OperandB ? layout::IntTuple::tuple({layout::Int(a.n * tm.an), layout::Int(a.k)})
                                           : layout::IntTuple::tuple({layout::Int(a.m * tm.am), layout::Int(a.n * tm.an)});
  const layout::Layout& tv = op == OperandA ? tm.a_tv : op == OperandB ? tm.b_tv : tm.c_tv;
  // permutation_mnk layouts re-index the operand's (rows, cols) first (CuTe's thrfrg_A/B/C).
  const int rows = op == OperandB ? 1 : 0, cols = op == OperandC ? 1 : 2;
  if (tm.perm[rows] || tm.perm[cols]) {
    auto mode = [](const std::optional<layout::Layout>& p) { return p ? layout::Tiler(*p) : layout::Tiler::underscore(); };
    auto permuted = std::make_shared<TensorValue>(*c[0].tensor());
    try {
      permuted->layout = layout::logical_divide(permuted->layout, layout::Tiler::tuple({mode(tm.perm[rows]), mode(tm.perm[cols])}));
    } catch (const layout::LayoutError& e) {
      ev.fail(diag::Kind::LayoutAlgebraError, c.range(0), std::string("permutation_mnk: ") + e.what());
    }
    return ev.thread_partition(Value::of(permuted), tile, tv, *tm.thread, 0, "a tiled MMA", c.site.range);
  }
  return ev.thread_partition(c[0], tile, tv, *tm.thread, 0, "a tiled MMA", c.site.range);
}

/// tiled_mma.make_fragment_A/B/C(t): a compact register tensor of t's shape in the operand's type.
Value make_fragment(Evaluator& ev, BuiltinCall& c, Operand op) {
  const TensorValue& t = tensor_arg(ev, c);
  const MmaAtom& a = c.self().tiled_mma()->atom;
  // wgmma reads B, and A unless it comes from registers (RS), through descriptors of the shared-memory tile itself.
  if (a.wgmma && (op == OperandB || (op == OperandA && !a.a_rmem))) return c[0];
  Value frag = ev.make_rmem(layout::make_layout(t.layout.shape), op == OperandC ? a.acc : a.ab, c.site.range);
  if (a.wgmma && op == OperandC) {
    int64_t count = layout::size(frag.tensor()->layout).require_value("accumulators");
    ev.fn_->wgmma_accumulators.emplace_back(frag.tensor()->ptr, count);
  }
  return frag;
}

/// make_tiled_mma's atom_layout_mnk: (AM, AN) or (AM, AN, 1), a tuple or a layout's shape.
std::pair<int64_t, int64_t> atom_layout(Evaluator& ev, BuiltinCall& c, size_t at) {
  if (!c.has(at)) return {1, 1};
  const source::SourceRange r = c.range(at);
  Value v = c[at];
  if (v.kind() == Value::Kind::Layout) v = ev.from_int_tuple(v.layout().shape, r);
  std::vector<Value> xs = v.kind() == Value::Kind::Tuple ? v.elts() : std::vector<Value>{v};
  if (xs.size() < 2 || xs.size() > 3)
    ev.fail(diag::Kind::BadLayoutArgument, r, "atom_layout_mnk must be (AM, AN) or (AM, AN, 1), found " + repr(v));
  int64_t am = ev.require_static_int(xs[0], r, "atom_layout_mnk");
  int64_t an = ev.require_static_int(xs[1], r, "atom_layout_mnk");
  if (xs.size() == 3 && ev.require_static_int(xs[2], r, "atom_layout_mnk") != 1)
    ev.fail(diag::Kind::BadLayoutArgument, r, "atoms along K (atom_layout_mnk[2] > 1) are not supported");
  if (am < 1 || an < 1) ev.fail(diag::Kind::BadLayoutArgument, r, "atom_layout_mnk must be positive");
  return {am, an};
}

}  // namespace

// ---- the atoms: rows of atom_traits.cpp

Value mma_universal_op(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: MmaUniversalOp(abacc_dtype); tileslc defaults it to Float32.
  ScalarType t = c.has(0) ? element_type(ev, c, 0) : ScalarType::Float32;
  if (!ir::is_float(t) && !ir::is_integer(t))
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), std::string("MmaUniversalOp accumulates in a number type, found ") + ir::type_name(t));
  return mma_value(mma_atom(*mma_traits_of(c.id()).front(), t));
}

Value mma_warp_op(Evaluator& ev, BuiltinCall& c) {
  // MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk), MmaI8Op(ab_dtype, acc_dtype, shape_mnk) (tileslc's
  // name: CuTe DSL has no warp-level integer op) and MmaTF32Op(shape_mnk), whose rows fix the types.
  const bool typed = c.id() != BuiltinId::MmaTF32Op;
  std::optional<ScalarType> ab, acc;
  if (typed) {
    ab = element_type(ev, c, 0);
    acc = element_type(ev, c, 1);
  }
  const std::vector<const MmaTraits*> rows = rows_of_shape(ev, c, mma_traits_of(c.id()), typed ? 2 : 0);
  for (const MmaTraits* r : rows)
    if (!typed || (r->a == *ab && r->acc == *acc)) return mma_value(mma_atom(*r));
  const MmaTraits& s = *rows.front();
  std::vector<std::string> inputs, accumulators;
  for (const MmaTraits* r : rows) {
    inputs.emplace_back(ir::type_name(r->a));
    accumulators.emplace_back(ir::type_name(r->acc));
  }
  auto& d = ev.error(diag::Kind::BadCopyAtom, c.site.range,
                     "mma.sync m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k) + " has no " + ir::type_name(*ab) +
                         " x " + ir::type_name(*ab) + " -> " + ir::type_name(*acc) + " form");
  d.note("supported here: " + list_text(inputs) + " inputs accumulating in " + list_text(accumulators));
  ev.abort_entry();
}

Value mma_make_mma_atom(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::MmaAtom)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), "cute.make_mma_atom() takes an MMA operation such as cute.nvgpu.warp.MmaF16BF16Op(...)");
  return c[0];
}

namespace {

/// The warps' part of a tiled TV layout's thread mode when atom_layout_mnk is a layout whose
/// strides are not the compact column-major ones: warp index w -> the offset of atom (wm, wn) with
/// (wm, wn) = atom_layout^-1(w) (CuTe: thr_layout_vmnk's flat coordinate of the thread index), so
/// sgemm's (16, 16, 1):(16, 1, 0) puts consecutive warps (here threads) along N. nullopt for a
/// tuple or a compact layout, whose warps run column-major over (AM, AN) already.
std::optional<layout::Layout> strided_warps(const Value& atom_layout, int64_t am, int64_t an, int64_t stride_m, int64_t stride_n) {
  if (atom_layout.kind() != Value::Kind::Layout) return std::nullopt;
  layout::Layout w = atom_layout.layout();
  if (w.rank() == 3) w = layout::select(w, {0, 1});
  if (w.rank() != 2 || !w.is_static()) return std::nullopt;
  if (w.identical(layout::make_layout(w.shape))) return std::nullopt;
  auto L = [](int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); };
  layout::Layout offsets = layout::make_layout(std::vector<layout::Layout>{L(am, stride_m), L(an, stride_n)});
  return layout::composition(offsets, layout::right_inverse(w));
}

/// tiled_tv with the warps laid out by `warps` (strided_warps) instead of (warp_m, warp_n).
layout::Layout tiled_tv_warps(const layout::Layout& atom_tv, int64_t rows, int64_t tiled_rows, const layout::Layout& warps) {
  layout::Layout thr = layout::get(atom_tv, 0), val = layout::get(atom_tv, 1);
  layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, rows, tiled_rows));
  layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, rows, tiled_rows));
  return layout::make_layout(std::vector<layout::Layout>{layout::make_layout(std::vector<layout::Layout>{thr_w, warps}), val_w});
}

}  // namespace

Value mma_make_tiled_mma(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: make_tiled_mma(op_or_atom, atom_layout_mnk=(1, 1, 1), permutation_mnk=None).
  if (c[0].kind() != Value::Kind::MmaAtom)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), "cute.make_tiled_mma() takes an MMA atom or operation first");
  auto [am, an] = atom_layout(ev, c, 1);
  auto tm = std::make_shared<TiledMma>();
  tm->atom = *c[0].mma();
  tm->am = am;
  tm->an = an;
  if (c.has(2)) ev.set_permutation(*tm, c[2], c.range(2));
  const MmaAtom& a = tm->atom;
  try {
    auto L = [](int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); };
    tm->a_tv = tiled_tv(a.a_tv, a.m, a.m * am, L(am, a.m), L(an, 0));
    tm->b_tv = tiled_tv(a.b_tv, a.n, a.n * an, L(am, 0), L(an, a.n));
    tm->c_tv = tiled_tv(a.c_tv, a.m, a.m * am, L(am, a.m), L(an, a.m * am * a.n));
    if (c.has(1)) {
      if (auto w = strided_warps(c[1], am, an, a.m, 0)) tm->a_tv = tiled_tv_warps(a.a_tv, a.m, a.m * am, *w);
      if (auto w = strided_warps(c[1], am, an, 0, a.n)) tm->b_tv = tiled_tv_warps(a.b_tv, a.n, a.n * an, *w);
      if (auto w = strided_warps(c[1], am, an, a.m, a.m * am * a.n)) tm->c_tv = tiled_tv_warps(a.c_tv, a.m, a.m * am, *w);
    }
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, e.what());
  }
  return Value::of(tm);
}

Value mma_gemm(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: gemm(atom, d, a, b, c), D = A * B + C; the atom may be a tiled MMA.
  TiledMma tm;
  if (c[0].kind() == Value::Kind::TiledMma) tm = *c[0].tiled_mma();
  else if (c[0].kind() == Value::Kind::MmaAtom) tm.atom = *c[0].mma();
  else ev.fail(diag::Kind::BadCopyAtom, c.range(0), "cute.gemm() needs a tiled MMA or MMA atom first, found " + describe(c[0]));
  for (size_t i = 1; i < 5; ++i)
    if (c[i].kind() != Value::Kind::Tensor)
      ev.fail(diag::Kind::TypeMismatch, c.range(i), "cute.gemm() needs register tensors for d, a, b and c, found " + describe(c[i]));
  if (tm.atom.wgmma) {
    ir::ExprRef scale_d;
    if (c[0].kind() == Value::Kind::TiledMma)
      if (auto it = ev.fn_->mma_accumulate.find(c[0].tiled_mma().get()); it != ev.fn_->mma_accumulate.end())
        scale_d = ir::var_ref(it->second, ir::ScalarType::Int32);
    ev.wgmma_gemm(tm, c[1], c[2], c[3], c[4], c.site.range, scale_d);
  }
  else ev.gemm(tm, c[1], c[2], c[3], c[4], c.site.range);
  return Value::none();
}

// ---- the thread slice's partitions and fragments (CuTe DSL's ThrMma.partition_*, TiledMma.make_fragment_*)

Value mma_partition_A(Evaluator& ev, BuiltinCall& c) { return partition_operand(ev, c, OperandA); }
Value mma_partition_B(Evaluator& ev, BuiltinCall& c) { return partition_operand(ev, c, OperandB); }
Value mma_partition_C(Evaluator& ev, BuiltinCall& c) { return partition_operand(ev, c, OperandC); }
Value mma_make_fragment_A(Evaluator& ev, BuiltinCall& c) { return make_fragment(ev, c, OperandA); }
Value mma_make_fragment_B(Evaluator& ev, BuiltinCall& c) { return make_fragment(ev, c, OperandB); }
Value mma_make_fragment_C(Evaluator& ev, BuiltinCall& c) { return make_fragment(ev, c, OperandC); }

// ---- cp.async (PTX ISA, "cp.async", "cp.async.commit_group", "cp.async.wait_group")

Value mma_copy_g2s_op(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: cpasync.CopyG2SOp(cache_mode=LoadCacheMode.ALWAYS). tileslc picks the mode by the
  // copy's width (16 bytes: .cg, GLOBAL; 4 and 8: .ca, ALWAYS, the only one PTX allows), so
  // those two are accepted as what they ask for; the others are not here.
  const bool width_picked = c[0].kind() == Value::Kind::Marker && c[0].builtin() == BuiltinId::LoadCacheMode &&
                            (c[0].s() == "LoadCacheMode.GLOBAL" || c[0].s() == "LoadCacheMode.ALWAYS");
  if (c.has(0) && !width_picked) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "() takes cache_mode=LoadCacheMode.GLOBAL or ALWAYS here, found cache_mode=" + repr(c[0]));
    d.note("cp.async caches 16-byte copies in L2 only (.cg) and smaller ones in L1 too (.ca): the copy's width picks the mode");
    d.help("leave cache_mode out");
    ev.abort_entry();
  }
  return Value::op_marker(c.id(), c.info.export_name);
}

Value mma_cp_async_commit_group(Evaluator& ev, BuiltinCall& c) {
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::CpAsyncCommitGroup, {}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

Value mma_cp_async_wait_group(Evaluator& ev, BuiltinCall& c) {
  int64_t n = ev.require_static_int(c[0], c.range(0), "the number of pending groups");
  if (n < 0 || n > 7) ev.fail(diag::Kind::BadLaunch, c.range(0), "cp.async.wait_group takes 0 to 7 pending groups, found " + std::to_string(n));
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::CpAsyncWaitGroup, {n}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

namespace {

/// (M, N, K) in atoms of cute.gemm's operands.
struct GemmBlocks {
  int64_t m, n, k;
};

/// cute.gemm's operands: register fragments of the atom's types, A (V, M, K), B (V, N, K),
/// C and D (V, M, N) with the atom's values per thread and equal M, N and K.
GemmBlocks check_gemm_operands(Evaluator& ev, const MmaAtom& atom, const TensorValue& d, const TensorValue& a, const TensorValue& b,
                               const TensorValue& c, source::SourceRange r) {
  for (const TensorValue* t : {&d, &a, &b, &c}) {
    if (t->space != MemSpace::Rmem) {
      auto& e = ev.error(diag::Kind::BadCopyAtom, r, "cute.gemm() reads and writes register fragments; one operand is a " +
                                                         std::string(t->space == MemSpace::Smem ? "shared-memory" : t->space == MemSpace::Gmem ? "global-memory" : "coordinate") + " tensor");
      e.help("copy it into a fragment first: tCrA = tiled_mma.make_fragment_A(tCsA); cute.copy(atom, tCsA, tCrA)");
      ev.abort_entry();
    }
  }
  auto want_type = [&](const TensorValue& t, ScalarType want, const char* which) {
    if (t.dtype != want) {
      auto& e = ev.error(diag::Kind::TensorDtypeMismatch, r, std::string("cute.gemm()'s ") + which + " is " + ir::type_name(t.dtype) +
                                                                 ", the MMA atom takes " + ir::type_name(want));
      e.note("the atom is " + atom.name + " with " + ir::type_name(atom.ab) + " inputs and " + ir::type_name(atom.acc) + " accumulators");
      ev.abort_entry();
    }
  };
  // The TF32 atom reads Float32 storage; fragments declared TFloat32 hold the same 32 bits.
  auto input_type = [&](const TensorValue& t) { return atom.name == "MmaTF32Op" && t.dtype == ScalarType::TFloat32 ? atom.ab : t.dtype; };
  TensorValue a_in = a, b_in = b;
  a_in.dtype = input_type(a);
  b_in.dtype = input_type(b);
  want_type(a_in, atom.ab, "A");
  want_type(b_in, atom.ab, "B");
  want_type(c, atom.acc, "C");
  want_type(d, atom.acc, "D");
  auto modes = [&](const TensorValue& t, const char* which, int64_t values) {
    // (V, X, Y) with V this atom's values per thread, contiguous in the register array;
    // a (V, X) slice (one k-block) counts as (V, X, 1), as in CuTe.
    if (t.layout.rank() != 3 && t.layout.rank() != 2) {
      ev.fail(diag::Kind::TensorShapeMismatch, r,
              std::string("cute.gemm()'s ") + which + " must be (V, M, K)-shaped as partition_* makes it, found " + ev.shape_text(t.layout.shape));
    }
    int64_t v = layout::size(layout::get(t.layout, 0)).require_value("values");
    if (v != values) {
      auto& e = ev.error(diag::Kind::TensorShapeMismatch, r,
                         std::string("cute.gemm()'s ") + which + " holds " + std::to_string(v) + " values per thread per atom, the atom " + std::to_string(values));
      e.note("the fragment's shape is " + ev.shape_text(t.layout.shape));
      ev.abort_entry();
    }
    return std::pair<int64_t, int64_t>{layout::size(layout::get(t.layout, 1)).require_value("mode 1"),
                                       t.layout.rank() == 2 ? 1 : layout::size(layout::get(t.layout, 2)).require_value("mode 2")};
  };
  int64_t va = layout::size(layout::get(atom.a_tv, 1)).require_value("A values");
  int64_t vb = layout::size(layout::get(atom.b_tv, 1)).require_value("B values");
  int64_t vc = layout::size(layout::get(atom.c_tv, 1)).require_value("C values");
  auto [am, ak] = modes(a, "A", va);
  auto [bn, bk] = modes(b, "B", vb);
  auto [cm, cn] = modes(c, "C", vc);
  auto [dm, dn] = modes(d, "D", vc);
  if (am != cm || bn != cn || ak != bk || dm != cm || dn != cn) {
    auto& e = ev.error(diag::Kind::TensorShapeMismatch, r,
                       "cute.gemm() operands do not agree: A " + ev.shape_text(a.layout.shape) + ", B " + ev.shape_text(b.layout.shape) + ", C " +
                           ev.shape_text(c.layout.shape) + ", D " + ev.shape_text(d.layout.shape));
    e.note("A is (V, M, K), B (V, N, K), C and D (V, M, N) with equal M, N and K");
    ev.abort_entry();
  }
  return {am, bn, ak};
}

}  // namespace

void Evaluator::gemm(const TiledMma& tm, const Value& dv, const Value& av, const Value& bv, const Value& cv, source::SourceRange r) {
  const MmaAtom& atom = tm.atom;
  const TensorValue &d = *dv.tensor(), &a = *av.tensor(), &b = *bv.tensor(), &c = *cv.tensor();
  const auto [am, bn, ak] = check_gemm_operands(*this, atom, d, a, b, c, r);
  auto off = [&](const TensorValue& t, int64_t x, int64_t y) {
    Value o = t.layout.rank() == 2 ? layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x)}), r)
                                   : layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x), Value::integer(y)}), r);
    // A slice of a fragment (tCrA[None, None, k]) keeps its origin in t.offset, static for registers.
    std::optional<int64_t> base = t.offset ? ir::as_int_const(t.offset) : std::optional<int64_t>(0);
    if (!base) fail(diag::Kind::FragmentNotStatic, r, "cute.gemm() needs register fragments at static offsets");
    return ir::int_const(*base + o.i(), ScalarType::Int64);
  };
  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  for (int64_t k = 0; k < ak; ++k) {
    for (int64_t m = 0; m < am; ++m) {
      for (int64_t nn = 0; nn < bn; ++nn) {
        int64_t n = (m % 2) ? bn - 1 - nn : nn;  // serpentine, as CuTe: B fragments stay in registers longer
        if (!atom.device) {
          // Universal FMA: d = a * b + c on one value.
          auto prod = ir::binary(ir::Op::Mul, ir::load(a.ptr, off(a, m, k), a.dtype), ir::load(b.ptr, off(b, n, k), b.dtype), atom.acc);
          emit(ir::store(loc, d.ptr, off(d, m, n), ir::binary(ir::Op::Add, prod, ir::load(c.ptr, off(c, m, n), c.dtype), atom.acc)));
          continue;
        }
        emit(ir::eval(loc, ir::intrinsic(*atom.device,
                                         {ir::address_of(d.ptr, off(d, m, n), d.dtype), ir::address_of(a.ptr, off(a, m, k), a.dtype),
                                          ir::address_of(b.ptr, off(b, n, k), b.dtype), ir::address_of(c.ptr, off(c, m, n), c.dtype)},
                                         ScalarType::Int32)));
      }
    }
  }
}

}  // namespace tileslc::sema
