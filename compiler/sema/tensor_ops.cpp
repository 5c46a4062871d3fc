// Tensor-level CuTe operations in .tpy code: divides and local_tile /
// local_partition on tensors, identity (coordinate) tensors, swizzles and
// composed layouts, register fragments and their whole-tensor values
// (.load()/.store(), TensorSSA), shared-memory allocation, copy atoms,
// make_tiled_copy_tv with get_slice and partition_S/partition_D, and
// cute.copy, which vectorizes up to the atom's width where the layouts prove
// contiguity and alignment. The handlers (tensor_*) of builtins.def's
// "tensors, copies and shared memory" rows and of the Tensor, TensorSSA,
// TiledCopy, TiledMma.get_slice and SmemAllocator methods live here; the
// registry has bound their arguments to CuTe DSL's parameters before they run.
//
// Semantics follow CuTe (02_layout_algebra.md for the divides, 0x_tensor.md
// for slicing and partitioning, CuTe DSL's API for names and arguments).
#include <functional>
#include <numeric>

#include "layout/swizzle_rule.h"
#include "sema/evaluator.h"
#include "sema/registry.h"
#include "sema/statement_names.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

constexpr int64_t kMaxFragmentElements = 1024;  // more would spill registers
constexpr int64_t kMaxUnrolledElements = 8192;  // a copy, load or store is unrolled element by element

int64_t static_size(const layout::IntTuple& shape) {
  auto s = layout::size(shape);
  return s.is_static() ? s.value() : -1;
}

}  // namespace

std::pair<ir::ExprRef, int64_t> split_constant(const ir::ExprRef& e) {
  int64_t c = 0;
  ir::ExprRef rest;
  std::function<void(const ir::ExprRef&)> walk = [&](const ir::ExprRef& x) {
    if (const auto* b = x->get_if<ir::Binary>(); b && b->op == ir::Op::Add && x->type == ScalarType::Int64) {
      walk(b->lhs);
      walk(b->rhs);
    } else if (auto k = ir::as_int_const(x)) {
      c += *k;
    } else {
      auto term = ir::cast(x, ScalarType::Int64);
      rest = rest ? ir::binary(ir::Op::Add, rest, term, ScalarType::Int64) : term;
    }
  };
  walk(e);
  return {rest, c};
}

SwizzleSplit Evaluator::split_at_swizzle_span(const layout::Swizzle& sw, const ir::ExprRef& off) {
  // The swizzle reads and writes only the bits of the offset below `span`; a term that is a
  // multiple of span changes none of them.
  const int64_t span = sw.span();
  SwizzleSplit out;
  int64_t inside_c = 0, outside_c = 0;
  auto add = [](ir::ExprRef& sum, ir::ExprRef term) {
    sum = sum ? ir::binary(ir::Op::Add, sum, std::move(term), ScalarType::Int64) : std::move(term);
  };
  std::function<void(const ir::ExprRef&)> walk = [&](const ir::ExprRef& e) {
    if (const auto* b = e->get_if<ir::Binary>(); b && b->op == ir::Op::Add) {
      walk(b->lhs);
      walk(b->rhs);
    } else if (auto c = ir::as_int_const(e)) {
      const int64_t lo = ((*c % span) + span) % span;
      outside_c += *c - lo;
      inside_c += lo;
    } else {
      add(known_divisor(e) % span == 0 ? out.outside : out.inside, ir::cast(e, ScalarType::Int64));
    }
  };
  walk(off);
  // Constants last, folded: `x + 16`, `(x ^ ...) + 2048`.
  if (inside_c != 0) add(out.inside, ir::int_const(inside_c, ScalarType::Int64));
  if (outside_c != 0) add(out.outside, ir::int_const(outside_c, ScalarType::Int64));
  return out;
}

Value Evaluator::swizzled(const TensorValue& t, const Value& off, source::SourceRange r) {
  if (!t.swizzle || t.swizzle->bits == 0) return off;
  const layout::Swizzle& sw = *t.swizzle;
  if (off.kind() == Value::Kind::Int) return Value::integer(sw(off.i()));
  // swizzle(x + y) = swizzle(x) + y when y is a multiple of the swizzle's span: such terms (a
  // stage's offset, a constant step between the accesses of one copy) go outside, where an
  // address carries them as an immediate or a plain add, and the accesses of one base share
  // one XOR, which the compiler can hoist out of the mainloop.
  SwizzleSplit parts = split_at_swizzle_span(sw, to_expr_as(off, ScalarType::Int64, r));
  ir::ExprRef result;
  if (parts.inside) {
    // offset ^ ((offset & yyy) >> shift): CuTe's Swizzle<B, M, S> on the element offset.
    int64_t yyy = ((int64_t(1) << sw.bits) - 1) << (sw.base + std::max(0, sw.shift));
    const ir::ExprRef& e = parts.inside;
    auto picked = ir::binary(ir::Op::BitAnd, e, ir::int_const(yyy, ScalarType::Int64), ScalarType::Int64);
    auto moved = sw.shift >= 0 ? ir::binary(ir::Op::Shr, picked, ir::int_const(sw.shift, ScalarType::Int64), ScalarType::Int64)
                               : ir::binary(ir::Op::Shl, picked, ir::int_const(-sw.shift, ScalarType::Int64), ScalarType::Int64);
    result = ir::binary(ir::Op::BitXor, e, moved, ScalarType::Int64);
  }
  if (parts.outside) result = result ? ir::binary(ir::Op::Add, result, parts.outside, ScalarType::Int64) : parts.outside;
  return result ? Value::dyn(result, r) : Value::integer(0);
}

Value Evaluator::materialize_offset(const TensorValue& t, const Value& off, source::SourceRange r) {
  if (off.kind() != Value::Kind::Dyn) return off;
  if (!t.swizzle || t.swizzle->bits == 0) return materialize(off, "offset", r);
  // Swizzled shared-memory views (the operands of wgmma and TMA) keep their offset's constant (a
  // k-block's step: `x + 16` inside a swizzle row, `y + 8192` past it) as an addend, not folded
  // into a new local: views that differ only by constants keep one run-time base, which a wgmma
  // descriptor encodes once (Evaluator::wgmma_gemm adds the constant to the encoding). Elsewhere
  // the constant folds into the local, which the C++ compiler allocates better (a layernorm
  // cluster kernel at its 64-register bound spilled 8 bytes with the constants kept apart).
  const ir::ExprRef whole = to_expr_as(off, ScalarType::Int64, r);
  auto [rest, c] = t.space == MemSpace::Smem ? split_constant(whole) : std::pair<ir::ExprRef, int64_t>{nullptr, 0};
  if (c == 0) rest = whole;  // as written: no constant to keep apart
  auto plus_c = [&](ir::ExprRef e) {
    if (c == 0) return Value::dyn(e, r);
    auto k = ir::int_const(c, ScalarType::Int64);
    return Value::dyn(e ? ir::binary(ir::Op::Add, e, k, ScalarType::Int64) : k, r);
  };
  if (!rest) return plus_c(nullptr);
  // Two locals, the part inside the swizzle and the multiple of its span, so that swizzled()
  // still tells them apart when the tensor is indexed (the second keeps its known divisor).
  SwizzleSplit parts = split_at_swizzle_span(*t.swizzle, rest);
  if (!parts.inside || !parts.outside) return plus_c(materialize(Value::dyn(rest, r), "offset", r).expr());
  Value inside = materialize(Value::dyn(parts.inside, r), "offset", r);
  Value outside = materialize(Value::dyn(parts.outside, r), "offset", r);
  return plus_c(ir::binary(ir::Op::Add, inside.expr(), outside.expr(), ScalarType::Int64));
}

void Evaluator::unroll_limit(int64_t n, const std::string& what, source::SourceRange r) {
  if (n <= kMaxUnrolledElements) return;
  auto& d = error(diag::Kind::EvaluationTooLarge, r,
                  what + " of " + std::to_string(n) + " elements would unroll into as many instructions (the limit is " +
                      std::to_string(kMaxUnrolledElements) + ")");
  d.help("partition the tensor among threads first (local_partition, a tiled copy's partition_S/D) and copy each thread's part");
  abort_entry();
}

namespace {

/// The lowest element offset a layout reaches (0 unless a static stride is negative): below 0,
/// an allocation's elements would lie before its first one.
int64_t lowest_offset(const layout::Layout& l) {
  int64_t lowest = 0;
  auto shapes = layout::flatten_leaves(l.shape), strides = layout::flatten_leaves(l.stride);
  for (size_t i = 0; i < shapes.size() && i < strides.size(); ++i)
    if (shapes[i].is_static() && strides[i].is_static() && strides[i].value() < 0) lowest += (shapes[i].value() - 1) * strides[i].value();
  return lowest;
}

}  // namespace

Value Evaluator::make_rmem(const layout::Layout& l, ScalarType t, source::SourceRange r) {
  if (!fn_ || !fn_->is_kernel)
    fail(diag::Kind::UnsupportedOperation, r, "register tensors can only be made inside a @cute.kernel");
  int64_t n = -1;
  try {
    auto c = layout::cosize(l);
    if (c.is_static() && layout::size(l).is_static()) n = c.value();
  } catch (const layout::LayoutError&) {
  }
  if (n < 0) {
    auto& d = error(diag::Kind::FragmentNotStatic, r, "a register tensor needs a static layout, found " + l.to_string());
    d.note("registers are allocated while compiling; their number cannot depend on run-time extents");
    d.help("partition with static tiles first (local_tile, partition_S) so the per-thread shape is static");
    abort_entry();
  }
  // A negative stride reaches below the array's first element: frg[-1] has no defined meaning in C++.
  if (int64_t lowest = lowest_offset(l); lowest < 0) {
    auto& d = error(diag::Kind::BadLayoutArgument, r,
                    "a register tensor's layout " + l.to_string() + " reaches element " + std::to_string(lowest) +
                        ": its elements would lie before the array");
    d.help("use non-negative strides for register tensors; walk one backwards by indexing instead");
    abort_entry();
  }
  if (n > kMaxFragmentElements) {
    auto& d = error(diag::Kind::FragmentNotStatic, r,
                    "a register tensor of " + std::to_string(n) + " elements is over the limit of " +
                        std::to_string(kMaxFragmentElements));
    d.note("a thread has at most 255 registers; larger fragments spill to local memory");
    abort_entry();
  }
  TensorValue tv;
  tv.dtype = t;
  tv.space = MemSpace::Rmem;
  tv.layout = l;
  tv.ptr = unique_name("frg");
  tv.align_bytes = 16;
  fn_->kernel->arrays.push_back({tv.ptr, t, std::max<int64_t>(n, 1), {}});
  return tensor_value(std::move(tv));
}

Value Evaluator::ssa_load(const Value& tv, source::SourceRange r) {
  const auto& t = *tv.tensor();
  if (t.space == MemSpace::Coord) fail(diag::Kind::UnsupportedOperation, r, "a coordinate tensor has no .load(); index it instead");
  int64_t n = static_size(t.layout.shape);
  if (n < 0) fail(diag::Kind::FragmentNotStatic, r, ".load() needs a tensor of static shape, found " + shape_text(t.layout.shape));
  unroll_limit(n, ".load()", r);
  std::vector<Value> xs;
  // A snapshot: each element moves into a local now, so later stores to the
  // tensor do not change the value (CuTe DSL's TensorSSA is a value).
  for (int64_t i = 0; i < n; ++i) xs.push_back(materialize(tensor_load(tv, Value::integer(i), r), "v", r));
  return payload::TensorSSA{std::make_shared<const std::vector<Value>>(std::move(xs)),
                            std::make_shared<const layout::Layout>(layout::make_layout(t.layout.shape)), t.dtype};
}

void Evaluator::ssa_store(const Value& tv, const Value& v, source::SourceRange r) {
  const auto& t = *tv.tensor();
  int64_t n = static_size(t.layout.shape);
  if (n < 0) fail(diag::Kind::FragmentNotStatic, r, ".store() needs a tensor of static shape, found " + shape_text(t.layout.shape));
  unroll_limit(n, ".store()", r);
  if (v.kind() == Value::Kind::TensorSSA) {
    if (static_cast<int64_t>(v.elts().size()) != n) {
      auto& d = error(diag::Kind::TensorShapeMismatch, r,
                      "cannot store a value of shape " + shape_text(v.layout().shape) + " into a tensor of shape " +
                          shape_text(t.layout.shape));
      d.note("the two must have the same number of elements (" + std::to_string(v.elts().size()) + " vs " + std::to_string(n) + ")");
      abort_entry();
    }
    for (int64_t i = 0; i < n; ++i) tensor_store(tv, Value::integer(i), v.elts()[i], r);
    return;
  }
  for (int64_t i = 0; i < n; ++i) tensor_store(tv, Value::integer(i), v, r);
}

Value Evaluator::ssa_map(const Value& a, const Value* b, const std::function<Value(const Value&, const Value*)>& f,
                         source::SourceRange r) {
  const Value* shape_of = a.kind() == Value::Kind::TensorSSA ? &a : b;
  size_t n = shape_of->elts().size();
  if (a.kind() == Value::Kind::TensorSSA && b && b->kind() == Value::Kind::TensorSSA && b->elts().size() != n) {
    auto& d = error(diag::Kind::TensorShapeMismatch, r,
                    "element-wise operation on values of shapes " + shape_text(a.layout().shape) + " and " +
                        shape_text(b->layout().shape));
    d.note("both operands must have the same number of elements");
    abort_entry();
  }
  std::vector<Value> xs;
  for (size_t i = 0; i < n; ++i) {
    const Value& ai = a.kind() == Value::Kind::TensorSSA ? a.elts()[i] : a;
    Value bi;
    if (b) bi = b->kind() == Value::Kind::TensorSSA ? b->elts()[i] : *b;
    xs.push_back(f(ai, b ? &bi : nullptr));
  }
  const ir::ScalarType type = xs.empty() || xs[0].kind() != Value::Kind::Dyn ? shape_of->type() : xs[0].type();
  return payload::TensorSSA{std::make_shared<const std::vector<Value>>(std::move(xs)),
                            shape_of->get<payload::TensorSSA>().shape, type};
}

Value Evaluator::thread_partition(const Value& tv, const layout::IntTuple& tile_shape, const layout::Layout& tv_layout,
                                  const Value& thread, int64_t atom_v, const std::string& what, source::SourceRange r) {
  // CuTe's tidfrg_S/D and ThrMMA::partition_A/B/C: tile the tensor by
  // `tile_shape`, compose the tile with the (thread, value) layout, keep this
  // thread's values and flatten the tiles' modes: (V, REST_M, REST_N, ...).
  // With atom_v > 0 (a tiled copy) V splits into the atom's values and the
  // rest, as ThrCopy::partition_S does: ((ATOM_V, REST_V), REST_M, REST_N, ...),
  // so cute.copy issues one access per atom.
  const auto& t = *tv.tensor();
  if (t.layout.rank() < tile_shape.rank()) {
    auto& d = error(diag::Kind::RankMismatch, r,
                    "a rank-" + std::to_string(t.layout.rank()) + " tensor cannot be partitioned by " + what + " over " +
                        shape_text(tile_shape) + " tiles");
    d.note("the tensor's layout is " + t.layout.to_string());
    abort_entry();
  }
  for (size_t m = 0; m < tile_shape.rank(); ++m) {
    auto ext = layout::size(t.layout.shape[m]);
    auto tsz = layout::size(tile_shape[m]);
    if (ext.is_static() && tsz.is_static() && tsz.value() > 0 && ext.value() % tsz.value() != 0) {
      auto& d = error(diag::Kind::TilerNotDividing, r,
                      what + "'s tile extent " + std::to_string(tsz.value()) + " does not divide mode " + std::to_string(m) +
                          " of the tensor, of static extent " + std::to_string(ext.value()));
      d.note("the tensor's layout is " + t.layout.to_string() + "; the tile is " + shape_text(tile_shape));
      d.help("partition a tensor whose extents the tile divides, e.g. a local_tile of the tile's shape");
      abort_entry();
    }
  }
  try {
    std::vector<layout::Tiler> modes;
    for (const auto& e : tile_shape.elems()) modes.push_back(layout::Tiler(layout::make_layout(e)));
    layout::Layout z = layout::zipped_divide(t.layout, layout::Tiler::tuple(std::move(modes)));
    layout::Layout tile = layout::get(z, 0), rest = layout::get(z, 1);
    layout::Layout c = layout::composition(tile, layout::Tiler(tv_layout));
    layout::Layout thr = layout::get(c, 0), val = layout::get(c, 1);
    if (atom_v > 1) {
      layout::Layout vd = layout::zipped_divide(val, layout::Tiler(layout::make_layout(layout::IntTuple(atom_v))));
      val = layout::make_layout(std::vector<layout::Layout>{layout::get(vd, 0), layout::get(vd, 1)});
    } else if (atom_v == 1) {
      val = layout::make_layout(std::vector<layout::Layout>{layout::make_layout(layout::IntTuple(1), layout::IntTuple(0)), val});
    }
    std::vector<layout::Layout> out_modes{val};
    for (size_t m = 0; m < rest.rank(); ++m) out_modes.push_back(layout::get(rest, m));
    TensorValue out = t;
    out.layout = layout::make_layout(out_modes);
    if (t.space == MemSpace::Coord) {
      auto sliced = std::make_shared<TensorValue>(t);
      sliced->layout = layout::make_layout(std::vector<layout::Layout>{thr});
      Value c0 = coord_element(*sliced, Value::tuple({thread}), r);
      std::vector<Value> xs = c0.kind() == Value::Kind::Tuple ? c0.elts() : std::vector<Value>{c0};
      for (size_t k = 0; k < xs.size(); ++k) out.coord_offset[k] = to_expr_as(materialize(xs[k], "crd", r), ScalarType::Int64, r);
      return tensor_value(std::move(out));
    }
    Value off = layout_offset(layout::make_layout(std::vector<layout::Layout>{thr}), Value::tuple({thread}), r);
    if (t.offset) off = eval_binop(ast::BinOpKind::Add, Value::dyn(t.offset, r), off, r, r);
    off = materialize_offset(t, off, r);
    out.offset = to_expr_as(off, ScalarType::Int64, r);
    return tensor_value(std::move(out));
  } catch (const layout::LayoutError& e) {
    auto& d = error(diag::Kind::LayoutAlgebraError, r, std::string("cannot partition the tensor: ") + e.what());
    d.note("the tensor's layout is " + t.layout.to_string() + "; " + what + "'s tile is " + shape_text(tile_shape) +
           " with thread-value layout " + tv_layout.to_string());
    abort_entry();
  }
}

Value Evaluator::partition(const TiledCopy& tc, const Value& tv, source::SourceRange r) {
  const TensorValue& t = *tv.tensor();
  if (t.space != MemSpace::Coord && ir::bit_width(t.dtype) != ir::bit_width(tc.atom.dtype)) {
    auto& d = error(diag::Kind::BadCopyAtom, r,
                    std::string("a tiled copy made for ") + ir::type_name(tc.atom.dtype) + " partitions a " + ir::type_name(t.dtype) +
                        " tensor");
    d.note("its thread-value layout counts " + std::string(ir::type_name(tc.atom.dtype)) + " elements; the tensor's are " +
           std::to_string(ir::bit_width(t.dtype)) + "-bit");
    d.help(std::string("make the copy atom with the tensor's type: cute.make_copy_atom(op, cutlass.") + ir::type_name(t.dtype) + ", ...)");
    abort_entry();
  }
  // Values per atom come from the atom's type: a coordinate tensor is partitioned like the data.
  int64_t atom_v = std::max<int64_t>(1, tc.atom.bits / ir::bit_width(tc.atom.dtype));
  return thread_partition(tv, tc.tiler, tc.tv, *tc.thread, atom_v, "a tiled copy", r);
}

namespace {

/// cute.copy's tensors: both static, as many elements, (ATOM, REST...) modes alike, one
/// element type, neither a coordinate tensor. Returns the number of elements.
int64_t check_copy_operands(Evaluator& ev, const TensorValue& src, const TensorValue& dst, source::SourceRange r) {
  if (dst.space == MemSpace::Coord) ev.fail(diag::Kind::StoreToNonTensor, r, "cute.copy cannot write a coordinate (identity) tensor");
  if (src.space == MemSpace::Coord) ev.fail(diag::Kind::UnsupportedOperation, r, "cute.copy cannot read a coordinate tensor; index it");
  int64_t n = static_size(src.layout.shape), nd = static_size(dst.layout.shape);
  auto shape_error = [&](const std::string& why) {
    auto& d = ev.error(diag::Kind::TensorShapeMismatch, r,
                       "cute.copy between tensors of shapes " + ev.shape_text(src.layout.shape) + " and " + ev.shape_text(dst.layout.shape));
    d.note(why);
    d.note("source layout " + src.layout.to_string() + ", destination layout " + dst.layout.to_string());
    ev.abort_entry();
  };
  if (n < 0 || nd < 0) {
    auto& d = ev.error(diag::Kind::FragmentNotStatic, r, "cute.copy needs tensors of static shape, found " +
                                                             ev.shape_text(src.layout.shape) + " and " + ev.shape_text(dst.layout.shape));
    d.help("partition the tensors first (partition_S / partition_D) so that each thread's part is static");
    ev.abort_entry();
  }
  if (n != nd) shape_error("they have " + std::to_string(n) + " and " + std::to_string(nd) + " elements");
  ev.unroll_limit(n, "cute.copy", r);
  int64_t s0 = static_size(layout::get(src.layout, 0).shape);
  if (src.layout.rank() != dst.layout.rank() || s0 != static_size(layout::get(dst.layout, 0).shape))
    shape_error("their modes differ; both must be (ATOM, REST...) with the same extents");
  if (src.dtype != dst.dtype) {
    auto& d = ev.error(diag::Kind::TensorDtypeMismatch, r,
                       std::string("cute.copy from a ") + ir::type_name(src.dtype) + " tensor to a " + ir::type_name(dst.dtype) +
                           " tensor");
    d.help("copies move bits; convert through registers: frg.store(src_frg.load().to(cutlass." + std::string(ir::type_name(dst.dtype)) + "))");
    ev.abort_entry();
  }
  return n;
}

/// The offset of element `linear` (a linear index) of a copy's tensor, swizzled or not.
ir::ExprRef copy_offset(Evaluator& ev, const TensorValue& t, int64_t linear, bool swizzle, source::SourceRange r) {
  Value off = ev.layout_offset(t.layout, Value::integer(linear), r);
  if (t.offset) off = ev.eval_binop(ast::BinOpKind::Add, Value::dyn(t.offset, r), off, r, r);
  return ev.to_expr_as(swizzle ? ev.swizzled(t, off, r) : off, ScalarType::Int64, r);
}

/// The widest access (in elements) both sides allow: chunks of `width` elements of mode 0
/// contiguous (M0(q) == M0(q - q % width) + q % width), every chunk's offset a multiple of
/// the width, the base pointers aligned to it, at most the atom's bits and 128.
int64_t copy_width(Evaluator& ev, const CopyAtom& atom, const TensorValue& src, const TensorValue& dst, int64_t n,
                   source::SourceRange r) {
  const int elem_bits = ir::bit_width(src.dtype);
  const int64_t elem_bytes = std::max(1, elem_bits / 8);
  const int64_t s0 = static_size(layout::get(src.layout, 0).shape);
  auto contiguous = [&](const TensorValue& t, int64_t w) {
    // Chunks start at multiples of w, so it is enough that the first mode of
    // mode 0, coalesced, has stride 1 and an extent that w divides.
    layout::Layout c = layout::coalesce(layout::get(t.layout, 0));
    auto shapes = layout::flatten_leaves(c.shape), strides = layout::flatten_leaves(c.stride);
    return !shapes.empty() && shapes[0].is_static() && strides[0].is_static() && strides[0].value() == 1 &&
           shapes[0].value() % w == 0;
  };
  int64_t width = std::max<int64_t>(1, atom.bits / elem_bits);
  while (width > 1 && (s0 % width != 0 || !contiguous(src, width) || !contiguous(dst, width))) width /= 2;
  // A swizzle keeps runs of 2^base elements together (it moves higher bits only).
  for (const TensorValue* t : {&src, &dst})
    if (t->swizzle) width = std::min<int64_t>(width, int64_t(1) << t->swizzle->base);
  const int64_t rest = n / std::max<int64_t>(s0, 1);
  auto aligned = [&](int64_t w) {
    int64_t bytes = w * elem_bytes;
    if (src.align_bytes % bytes != 0 || dst.align_bytes % bytes != 0) return false;
    for (int64_t j = 0; j < rest; ++j)
      for (int64_t e = 0; e < s0; e += w)
        for (const TensorValue* t : {&src, &dst})
          // Before the swizzle: it leaves the low 2^base elements, and so this alignment, alone.
          if ((ev.known_divisor(copy_offset(ev, *t, j * s0 + e, false, r)) * elem_bytes) % bytes != 0) return false;
    return true;
  };
  while (width > 1 && !aligned(width)) width /= 2;
  while (width > 1 && width * elem_bits > 128) width /= 2;
  return width;
}

/// The alignment in bytes that every access of `w` elements of copy operand `t` is known to
/// have: its pointer's, and that of each access's offset (what the offset is known to be
/// divisible by), whichever is smaller.
int64_t known_access_alignment(Evaluator& ev, const TensorValue& t, int64_t n, int64_t w, source::SourceRange r) {
  const int64_t elem_bytes = std::max(1, ir::bit_width(t.dtype) / 8);
  const int64_t s0 = static_size(layout::get(t.layout, 0).shape);
  int64_t align = std::max<int64_t>(t.align_bytes, 1);
  for (int64_t j = 0; j < n / std::max<int64_t>(s0, 1); ++j)
    for (int64_t e = 0; e < s0; e += w)
      align = std::gcd(align, std::min<int64_t>(ev.known_divisor(copy_offset(ev, t, j * s0 + e, false, r)), 1 << 20) * elem_bytes);
  return align;
}

/// cp.async moves 4, 8 or 16 bytes from global to shared memory (PTX ISA, "cp.async"): E0708
/// when the copy cannot be issued as the atom's accesses of `width` elements. When alignment is
/// what stops it, the operand is named with the alignment it is known to have and how to
/// declare more.
void check_cp_async(Evaluator& ev, const CopyAtom& atom, const TensorValue& src, const TensorValue& dst, int64_t width,
                    int64_t n, source::SourceRange r) {
  const int elem_bits = ir::bit_width(src.dtype);
  std::string why;
  if (src.space != MemSpace::Gmem || dst.space != MemSpace::Smem) why = "it copies from global to shared memory only";
  else if (width * elem_bits != atom.bits) why = "only " + std::to_string(width * elem_bits) + "-bit accesses can be proved contiguous and aligned here";
  else if (atom.bits < 32) why = "it moves 32, 64 or 128 bits per copy";
  if (why.empty()) return;
  const int64_t need = atom.bits / 8, atom_elems = std::max<int64_t>(1, atom.bits / elem_bits);
  const TensorValue* misaligned = nullptr;
  int64_t known = 0;
  if (width * elem_bits != atom.bits && atom.bits >= 32 && src.space == MemSpace::Gmem && dst.space == MemSpace::Smem &&
      static_size(layout::get(src.layout, 0).shape) % atom_elems == 0)
    for (const TensorValue* t : {&src, &dst})
      if (int64_t a = known_access_alignment(ev, *t, n, atom_elems, r); a % need != 0 && !misaligned) misaligned = t, known = a;
  if (misaligned) {
    const char* side = misaligned == &src ? "source" : "destination";
    why = "its " + std::string(side) + " '" + misaligned->ptr + "' is known to be " + std::to_string(known) +
          "-byte aligned, and " + std::to_string(need) + "-byte accesses need " + std::to_string(need);
  }
  auto& d = ev.error(diag::Kind::BadCopyAtom, r, "this cp.async copy of " + std::to_string(atom.bits) + " bits cannot be issued: " + why);
  d.note("source layout " + src.layout.to_string() + ", destination layout " + dst.layout.to_string());
  if (misaligned && misaligned->space == MemSpace::Gmem) {
    d.note("a global tensor's alignment is its pointer's (the host parameter's annotation, 16 bytes unless it says less) and "
           "what its run-time extents and strides are known to be divisible by");
    d.help("declare more where it holds: the alignment in the host function's annotation (cute.Tensor[dtype, (M, N), " +
           std::to_string(need) + "]) and the divisibility of the extents and strides that offset each access "
           "(cute.sym_int(\"N\", divisibility=" + std::to_string(atom_elems) + ")); the host function checks both at run time");
  } else if (misaligned) {
    d.help("allocate it with byte_alignment=" + std::to_string(need) + " and keep each access's offset a multiple of " +
           std::to_string(need) + " bytes");
  }
  ev.abort_entry();
}

/// cute.copy's pred=: a Boolean tensor of one flag per element (n), per atom (n / atom_n) or
/// per mode-0 slice (n / s0, CuTe's copy_if). Returns the elements each flag guards.
int64_t copy_pred_group(Evaluator& ev, const Value& pred, const TensorValue& src, int64_t n, int64_t atom_n, int64_t s0,
                        source::SourceRange r) {
  if (pred.kind() != Value::Kind::Tensor || pred.tensor()->dtype != ScalarType::Boolean || pred.tensor()->space == MemSpace::Coord)
    ev.fail(diag::Kind::TypeMismatch, r, "cute.copy's pred= must be a tensor of Booleans, found " + describe(pred));
  int64_t size = static_size(pred.tensor()->layout.shape);
  for (int64_t g : {int64_t(1), atom_n, s0})
    if (g > 0 && size * g == n) return g;
  auto& d = ev.error(diag::Kind::TensorShapeMismatch, r,
                     "cute.copy's predicate has " + std::to_string(size) + " elements; expected " + std::to_string(n) +
                         " (one per element)" + (s0 != atom_n ? ", " : " or ") + std::to_string(n / atom_n) + " (one per atom)" +
                         (s0 != atom_n ? " or " + std::to_string(n / s0) + " (one per mode-0 slice)" : std::string()));
  d.note("the predicate's shape is " + ev.shape_text(pred.tensor()->layout.shape) + ", the source's " + ev.shape_text(src.layout.shape));
  ev.abort_entry();
}

/// One access of a copy: `w` elements from element `e` (a linear index) on, a cp.async, a
/// vector copy or a scalar store.
void emit_copy_access(Evaluator& ev, const CopyAtom& atom, const TensorValue& src, const TensorValue& dst, int64_t e, int64_t w,
                      source::SourceRange loc, source::SourceRange r) {
  const int elem_bits = ir::bit_width(src.dtype);
  auto so = copy_offset(ev, src, e, true, r), dof = copy_offset(ev, dst, e, true, r);
  ev.fn_->stored_ptrs[dst.ptr] += 1;
  if (atom.cp_async) {
    ev.emit(ir::eval(loc, ir::intrinsic(ir::Intrinsic::CpAsync, {w * elem_bits / 8},
                                        {ir::address_of(dst.ptr, dof, dst.dtype), ir::address_of(src.ptr, so, src.dtype)},
                                        ScalarType::Int32)));
    return;
  }
  if (w > 1)
    ev.emit(ir::vec_copy(loc, dst.ptr, dof, src.ptr, so, static_cast<int>(w * elem_bits), dst.space == MemSpace::Gmem));
  else
    ev.emit(ir::store(loc, dst.ptr, dof, ir::load(src.ptr, so, src.dtype)));
}

}  // namespace

void Evaluator::copy(const CopyAtom& atom, const Value& src_v, const Value& dst_v, const std::optional<Value>& pred,
                     source::SourceRange r) {
  if (atom.ldsm_matrices) return ldmatrix_copy(atom, src_v, dst_v, pred, r);
  const auto& src = *src_v.tensor();
  const auto& dst = *dst_v.tensor();
  const int64_t n = check_copy_operands(*this, src, dst, r);
  const int64_t s0 = static_size(layout::get(src.layout, 0).shape);
  // A partition's mode 0 is (ATOM_V, REST_V) (CuTe's ThrCopy::partition_S): its first mode is one atom.
  const layout::Layout mode0 = layout::get(src.layout, 0);
  const int64_t atom_n = mode0.rank() > 1 ? static_size(layout::get(mode0, 0).shape) : s0;
  int64_t width = copy_width(*this, atom, src, dst, n, r);
  int64_t group = 0;  // the elements one predicate flag guards
  if (pred) group = copy_pred_group(*this, *pred, src, n, atom_n, s0, r);
  while (group > 1 && group % width != 0) width /= 2;
  if (atom.cp_async) check_cp_async(*this, atom, src, dst, width, n, r);

  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  auto access = [&](int64_t e, int64_t w) { emit_copy_access(*this, atom, src, dst, e, w, loc, r); };
  // Runs `body` under `cond` (static conditions fold).
  auto guarded = [&](const Value& cond, const std::function<void()>& body, const std::function<void()>& otherwise) {
    if (cond.is_static()) {
      if (truthy_static(cond, r)) body();
      else if (otherwise) otherwise();
      return;
    }
    auto g = ir::if_(loc, to_expr_as(cond, ScalarType::Boolean, r));
    fn_->blocks.push_back(&g->as<ir::If>().then_body);
    body();
    fn_->blocks.pop_back();
    if (otherwise) {
      fn_->blocks.push_back(&g->as<ir::If>().else_body);
      otherwise();
      fn_->blocks.pop_back();
    }
    emit(std::move(g));
  };
  auto pred_at = [&](int64_t i) { return tensor_load(*pred, Value::integer(i), r); };
  auto both = [&](const Value& a, const Value& b) -> Value {
    if (a.is_static()) return truthy_static(a, r) ? b : Value::boolean(false);
    if (b.is_static()) return truthy_static(b, r) ? a : Value::boolean(false);
    return Value::dyn(ir::binary(ir::Op::LogicalAnd, to_expr_as(a, ScalarType::Boolean, r), to_expr_as(b, ScalarType::Boolean, r),
                                 ScalarType::Boolean), r);
  };
  if (group > 1) {
    // One predicate per atom or per mode-0 slice (CuTe's copy_if): it guards that group's accesses.
    for (int64_t j = 0; j < n / group; ++j)
      guarded(pred_at(j), [&] { for (int64_t e = 0; e < group; e += width) access(j * group + e, width); }, nullptr);
    return;
  }
  const int64_t rest = n / std::max<int64_t>(s0, 1);
  for (int64_t j = 0; j < rest; ++j) {
    for (int64_t e = 0; e < s0; e += width) {
      int64_t first = j * s0 + e;
      if (!pred) {
        access(first, width);
      } else if (width == 1) {
        guarded(pred_at(first), [&] { access(first, 1); }, nullptr);
      } else {
        // One predicate per element: the vector access when the whole chunk
        // is in, element by element otherwise (a ragged edge).
        Value all = pred_at(first);
        for (int64_t q = 1; q < width; ++q) all = both(all, pred_at(first + q));
        if (atom.cp_async) {  // cp.async has no access narrower than 4 bytes: whole atoms only
          guarded(all, [&] { access(first, width); }, nullptr);
          continue;
        }
        guarded(all, [&] { access(first, width); }, [&] {
          for (int64_t q = 0; q < width; ++q) guarded(pred_at(first + q), [&] { access(first + q, 1); }, nullptr);
        });
      }
    }
  }
}


// ---- builtins.def's handlers: "tensors, copies and shared memory" and the
// methods of Tensor, TensorSSA, TiledCopy, TiledMma (get_slice) and SmemAllocator.

namespace {

/// Runs a tensor builtin; a failed layout precondition (layout::LayoutError)
/// is E0601 at the call, with each layout and tensor argument labelled.
template <class F>
Value tensor_algebra(Evaluator& ev, BuiltinCall& c, F&& f) {
  try {
    return f();
  } catch (const layout::LayoutError& e) {
    auto& d = ev.error(diag::Kind::LayoutAlgebraError, c.site.range, e.what());
    for (size_t i = 0; i < c.slots.size(); ++i) {
      if (!c.given(i)) continue;
      if (c[i].kind() == Value::Kind::Layout) d.label(c.range(i), "this is " + c[i].layout().to_string());
      if (c[i].kind() == Value::Kind::Tensor) d.label(c.range(i), "this tensor's layout is " + c[i].tensor()->layout.to_string());
    }
    ev.abort_entry();
  }
}

const TensorValue& tensor_arg(Evaluator& ev, BuiltinCall& c, size_t i) {
  if (c[i].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() needs a tensor here, found " + describe(c[i]));
  return *c[i].tensor();
}

ScalarType dtype_arg(Evaluator& ev, BuiltinCall& c, size_t i) {
  if (c[i].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(i), "expected an element type such as cutlass.Float32, found " + describe(c[i]));
  return c[i].type();
}

std::optional<Value> optional_arg(BuiltinCall& c, size_t i) { return c.has(i) ? std::optional<Value>(c[i]) : std::nullopt; }

/// A tile that does not divide a static extent leaves a partial tile that
/// nothing can predicate away at compile time (E0604); one that may not divide
/// a run-time extent is recorded for the ragged-tile warning.
void check_tiles_divide(Evaluator& ev, const TensorValue& t, const layout::Tiler& tiler, source::SourceRange t_at,
                        source::SourceRange tiler_at, const std::string& divide) {
  // A single layout tiles the tensor as a whole (mode 0 of a rank-1 tensor); a tuple tiles by mode.
  std::vector<layout::Tiler> by_mode = tiler.is_tuple() ? tiler.modes : std::vector<layout::Tiler>{};
  if (tiler.is_layout() && t.layout.rank() == 1) by_mode = {tiler};
  for (size_t m = 0; m < by_mode.size() && m < t.layout.rank(); ++m) {
    const auto& tm = by_mode[m];
    if (!tm.is_layout()) continue;
    auto ext = layout::size(t.layout.shape[m]);
    auto tsz = layout::size(tm.layout);
    if (!ext.is_static() && tsz.is_static() && tsz.value() > 1 && t.space != MemSpace::Coord &&
        ev.known_divisor(ext) % tsz.value() != 0) {
      std::vector<std::string> leaves;
      ev.collect_leaves(layout::IntTuple(ext), leaves);
      ev.fn_->ragged_tiles.push_back({leaves.empty() ? "" : leaves[0], ext.to_string(), tsz.value(), tiler_at, ext, divide});
    }
    if (ext.is_static() && tsz.is_static() && tsz.value() > 0 && ext.value() % tsz.value() != 0) {
      auto& d = ev.error(diag::Kind::TilerNotDividing, tiler_at,
                         "tile extent " + std::to_string(tsz.value()) + " does not divide mode " + std::to_string(m) +
                             " of the tensor, of static extent " + std::to_string(ext.value()));
      d.label(t_at, "this tensor has shape " + ev.shape_text(t.layout.shape));
      d.note(std::to_string(ext.value()) + " = " + std::to_string(ext.value() / tsz.value()) + " * " + std::to_string(tsz.value()) +
             " + " + std::to_string(ext.value() % tsz.value()) + ": the last tile would be partial");
      d.help("choose a tile extent that divides " + std::to_string(ext.value()) +
             ", or make the extent a run-time value and predicate the edge with an identity tensor");
      ev.abort_entry();
    }
  }
}

/// E0603 for a proj= argument (slot `p`) of neither form `forms` names.
[[noreturn]] void bad_projection(Evaluator& ev, BuiltinCall& c, size_t p, const char* forms) {
  ev.fail(diag::Kind::BadLayoutArgument, c.range(p), c.name() + "()'s proj= takes " + forms + ", found " + repr(c[p]));
}

/// CuTe's dice by a flat projection (slot `p`, a tuple of 1 and None): the
/// positions of the modes it keeps, out of `rank`. With `keep_trailing`, modes past the
/// projection's rank are kept (local_tile's coordinate: CuTe DSL's dense_gemm tiles (M, K, L)
/// by an (M, N, K) tiler at (m, n, None, l) with proj=(1, None, 1), keeping the batch l).
std::vector<size_t> diced_modes(Evaluator& ev, BuiltinCall& c, size_t p, size_t rank, const std::string& what,
                                bool keep_trailing = false) {
  const Value& proj = c[p];
  if (proj.kind() != Value::Kind::Tuple) bad_projection(ev, c, p, "None or a tuple of 1 and None");
  if (proj.elts().size() != rank && !(keep_trailing && proj.elts().size() < rank))
    ev.fail(diag::Kind::RankMismatch, c.range(p),
            "proj= " + repr(proj) + " has " + std::to_string(proj.elts().size()) + " modes, but " + what + " has " + std::to_string(rank));
  std::vector<size_t> keep;
  for (size_t k = 0; k < std::min(rank, proj.elts().size()); ++k) {
    const Value& e = proj.elts()[k];
    if (e.kind() == Value::Kind::Int) keep.push_back(k);
    else if (e.kind() != Value::Kind::None) bad_projection(ev, c, p, "a tuple of 1 and None");
  }
  for (size_t k = proj.elts().size(); k < rank; ++k) keep.push_back(k);
  return keep;
}

/// The modes of a tuple argument (slot `i`) that the projection in slot `p` keeps.
Value diced(Evaluator& ev, BuiltinCall& c, size_t i, size_t p, const std::string& what, bool keep_trailing = false) {
  std::vector<Value> all = c[i].kind() == Value::Kind::Tuple ? c[i].elts() : std::vector<Value>{c[i]};
  std::vector<Value> kept;
  for (size_t k : diced_modes(ev, c, p, all.size(), what + " " + repr(c[i]), keep_trailing)) kept.push_back(all[k]);
  return Value::tuple(std::move(kept));
}

layout::Layout divide(BuiltinId id, const layout::Layout& l, const layout::Tiler& t) {
  switch (id) {
    case BuiltinId::LogicalDivide: return layout::logical_divide(l, t);
    case BuiltinId::TiledDivide: return layout::tiled_divide(l, t);
    case BuiltinId::FlatDivide: return layout::flat_divide(l, t);
    default: return layout::zipped_divide(l, t);
  }
}

/// get_slice's thr_idx: a static or run-time integer.
Value thread_index_arg(Evaluator& ev, BuiltinCall& c) {
  if (!c[0].is_integer()) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a thread index, found " + describe(c[0]));
  return c[0];
}

/// Threads per block of the kernel being compiled, when its launch fixes them.
std::optional<int64_t> static_block_threads(const Evaluator& ev) {
  const FnCtx* fn = ev.fn_;
  if (!fn || !fn->is_kernel || fn->static_block[0] <= 0) return std::nullopt;
  return fn->static_block[0] * fn->static_block[1] * fn->static_block[2];
}

/// Whether `v` is the raw thread index threadIdx.x (through conversions): then its values run
/// over the whole block.
bool is_raw_thread_index(const Value& v) {
  if (v.kind() != Value::Kind::Dyn) return false;
  ir::ExprRef e = v.expr();
  while (const auto* c = e->get_if<ir::Cast>()) e = c->value;
  const auto* b = e->get_if<ir::Builtin>();
  return b && b->name == "threadIdx.x";
}

/// Whether code is being compiled inside run-time control flow, in this frame or a caller's
/// (then extra threads may never reach it).
bool in_runtime_branch(const Evaluator& ev) {
  for (auto it = ev.frames_.rbegin(); it != ev.frames_.rend(); ++it) {
    if ((*it)->dyn_depth > 0) return true;
    if ((*it)->is_entry) break;
  }
  return false;
}

/// E0707: the tiled copy or MMA (`what`) is made for `threads`, the launch gives `block`.
diag::Diagnostic& thread_count_error(Evaluator& ev, BuiltinCall& c, const std::string& what, int64_t threads, int64_t block) {
  return ev.error(diag::Kind::ThreadCountMismatch, c.site.range,
                  "the " + what + " is made for " + std::to_string(threads) + " threads, but the kernel is launched with " +
                      std::to_string(block) + " threads per block");
}

}  // namespace

Value Evaluator::tensor_by_tiler(BuiltinCall& c) {
  return tensor_algebra(*this, c, [&] {
    TensorValue out = tensor_arg(*this, c, 0);
    layout::Tiler tiler = to_tiler(c[1], c.range(1), "the tiler");
    if (c.id() == BuiltinId::Composition) {
      // The same origin viewed through t.layout o tiler (e.g. a mode permutation).
      out.layout = layout::composition(out.layout, tiler);
    } else {
      check_tiles_divide(*this, out, tiler, c.range(0), c.range(1), c.name());
      out.layout = divide(c.id(), out.layout, tiler);
    }
    return tensor_value(std::move(out));
  });
}

Value tensor_local_tile(Evaluator& ev, BuiltinCall& c) {
  // local_tile(input, tiler, coord, proj): the tile at `coord` of zipped_divide(input, tiler)
  // (CuTe's inner_partition); proj drops the tiler's and the coordinate's modes it marks None.
  return tensor_algebra(ev, c, [&] {
    const TensorValue& t = tensor_arg(ev, c, 0);
    Value tiler_v = c.has(3) ? diced(ev, c, 1, 3, "the tiler") : c[1];
    Value coord = c.has(3) ? diced(ev, c, 2, 3, "the coordinate", true) : c[2];
    layout::Tiler tiler = ev.to_tiler(tiler_v, c.range(1), "the tiler");
    check_tiles_divide(ev, t, tiler, c.range(0), c.range(1), c.name());
    TensorValue out = t;
    out.layout = layout::zipped_divide(t.layout, tiler);
    std::vector<Value> keep(layout::get(out.layout, 0).rank(), Value::none());
    Value tile_modes = keep.size() == 1 ? Value::none() : Value::tuple(keep);
    return ev.tensor_slice(ev.tensor_value(std::move(out)), Value::tuple({tile_modes, coord}), c.site.range);
  });
}

namespace {

/// E0707 for local_partition: an index at or past the thread layout's size wraps around (the
/// coordinate is taken modulo each mode), so two threads share one partition. Reported for a
/// static index past the size, and for the raw thread index of a static block with more threads
/// than the layout, unless the call is under a run-time branch that may guard the extra threads.
void check_partition_covers_threads(Evaluator& ev, BuiltinCall& c, const layout::Layout& thr, const Value& idx) {
  const layout::Int size = layout::size(thr.shape);
  if (!size.has_value()) return;
  const int64_t threads = size.value();
  if (idx.kind() == Value::Kind::Int && (idx.i() >= threads || idx.i() < 0)) {
    auto& d = ev.error(diag::Kind::ThreadCountMismatch, c.range(2),
                       "local_partition's index " + std::to_string(idx.i()) + " is outside its thread layout " + thr.to_string() +
                           " of " + std::to_string(threads) + " threads");
    d.note("the index would wrap around to thread " + std::to_string(((idx.i() % threads) + threads) % threads) + "'s partition");
    ev.abort_entry();
  }
  const std::optional<int64_t> block = static_block_threads(ev);
  if (!block || *block <= threads || !is_raw_thread_index(idx) || in_runtime_branch(ev)) return;
  auto& d = thread_count_error(ev, c, "local_partition's thread layout " + thr.to_string(), threads, *block);
  d.note("threads " + std::to_string(threads) + " to " + std::to_string(*block - 1) + " would wrap around to the partitions of threads 0 to " +
         std::to_string(threads - 1) + " (the index is taken modulo " + std::to_string(threads) + ") and repeat their work");
  d.help("make the thread layout " + std::to_string(*block) + " threads, guard the extra threads (if tidx < " + std::to_string(threads) +
         ":), or pass the index within a group of " + std::to_string(threads) + " (tidx % " + std::to_string(threads) +
         ") where the repetition is meant");
  ev.abort_entry();
}

}  // namespace

Value tensor_local_partition(Evaluator& ev, BuiltinCall& c) {
  // local_partition(target, tiler, index, proj): thread `index`'s elements when the threads of
  // the thread layout tile the tensor (CuTe's outer_partition); proj drops thread-layout modes.
  return tensor_algebra(ev, c, [&] {
    const source::SourceRange at = c.site.range;
    const TensorValue& t = tensor_arg(ev, c, 0);
    layout::Layout thr = ev.to_layout(c[1], c.range(1), "the thread layout");
    if (c[3].kind() == Value::Kind::Tuple) thr = layout::select(thr, diced_modes(ev, c, 3, thr.rank(), "the thread layout " + thr.to_string()));
    else if (c[3].kind() != Value::Kind::Int) bad_projection(ev, c, 3, "1 or a tuple of 1 and None");
    std::vector<layout::Tiler> modes;
    for (size_t m = 0; m < thr.rank(); ++m) modes.push_back(layout::Tiler(layout::make_layout(layout::IntTuple(layout::size(thr.shape[m])))));
    TensorValue out = t;
    out.layout = layout::zipped_divide(t.layout, layout::Tiler::tuple(std::move(modes)));
    // Thread index -> coordinate in the thread layout: (index / stride_k) % shape_k.
    layout::Layout flat = layout::flatten(thr);
    std::vector<Value> crd;
    const Value& idx = c[2];
    for (size_t k = 0; k < flat.rank(); ++k) {
      // Shape-1 and stride-0 modes hold coordinate 0 (CuTe skips the stride-0 division).
      if (flat.shape[k].value().is_constant(1) || flat.stride[k].value().is_constant(0)) {
        crd.push_back(Value::integer(0));
        continue;
      }
      Value q = ev.eval_binop(ast::BinOpKind::FloorDiv, idx, ev.int_value(flat.stride[k].value(), at), at, at);
      crd.push_back(ev.eval_binop(ast::BinOpKind::Mod, q, ev.int_value(flat.shape[k].value(), at), at, at));
    }
    check_partition_covers_threads(ev, c, thr, idx);
    Value thread_crd = crd.size() == 1 ? crd[0] : Value::tuple(crd);
    std::vector<Value> rest(layout::get(out.layout, 1).rank(), Value::none());
    Value rest_modes = rest.size() == 1 ? Value::none() : Value::tuple(rest);
    // zipped_divide's mode 0 was made from the thread layout's flat modes, so the coordinate is flat too.
    return ev.tensor_slice(ev.tensor_value(std::move(out)), Value::tuple({thread_crd, rest_modes}), at);
  });
}

Value tensor_make_identity(Evaluator& ev, BuiltinCall& c) {
  // An identity (coordinate) tensor, or with make_identity_layout CuTe's identity layout:
  // coordinate -> itself, strides the basis E<k> (printed 1@k).
  return tensor_algebra(ev, c, [&] {
    Value sv = c[0].kind() == Value::Kind::Tuple ? c[0] : Value::tuple({c[0]});
    std::vector<layout::IntTuple> shape, stride;
    TensorValue tv;
    tv.space = MemSpace::Coord;
    tv.dtype = ScalarType::Int64;
    for (size_t k = 0; k < sv.elts().size(); ++k) {
      const Value& e = sv.elts()[k];
      if (e.kind() == Value::Kind::Tuple)
        ev.fail(diag::Kind::BadLayoutArgument, c.range(0), c.name() + "() supports flat shapes only, found " + repr(c[0]));
      shape.push_back(ev.symbol_for(e, c.range(0)));
      stride.push_back(layout::Int::basis(static_cast<int>(k)));
      std::vector<std::string> leaves;  // these extents are predicated: no W0601 for them
      ev.collect_leaves(layout::IntTuple(shape.back().value()), leaves);
      // Outside a function (module level: print(cute.make_identity_tensor(...))) there is no
      // function whose W0601 to silence, and fn_ is null.
      if (ev.fn_) ev.fn_->predicated_leaves.insert(leaves.begin(), leaves.end());
      tv.coord_offset.push_back(ir::int_const(0, ScalarType::Int64));
    }
    tv.layout = layout::make_layout(layout::IntTuple::tuple(shape), layout::IntTuple::tuple(stride));
    if (c.id() == BuiltinId::MakeIdentityTensor) return ev.tensor_value(std::move(tv));
    return Value::of(tv.layout);
  });
}

Value tensor_make_swizzle(Evaluator& ev, BuiltinCall& c) {
  // CuTe's Swizzle<B, M, S>: offset ^ ((offset & (((1 << B) - 1) << (M + S))) >> S).
  layout::ComposedLayout sw;
  sw.swizzle.bits = static_cast<int>(ev.require_static_int(c[0], c.range(0), "the swizzle's bits"));
  sw.swizzle.base = static_cast<int>(ev.require_static_int(c[1], c.range(1), "the swizzle's base"));
  sw.swizzle.shift = static_cast<int>(ev.require_static_int(c[2], c.range(2), "the swizzle's shift"));
  if (auto why = layout::swizzle_violation(sw.swizzle))
    ev.fail(diag::Kind::BadLayoutArgument, c.site.range, c.name() + "(bits, base, shift): " + *why);
  sw.layout = layout::make_layout(layout::IntTuple(0));  // no layout: a bare swizzle
  return Value::of(sw);
}

Value tensor_make_composed_layout(Evaluator& ev, BuiltinCall& c) {
  // CuTe DSL: make_composed_layout(inner, offset, outer) = inner o offset o outer.
  if (c[0].kind() != Value::Kind::ComposedLayout)
    ev.fail(diag::Kind::BadLayoutArgument, c.range(0),
            c.name() + "() takes a swizzle first (cute.make_swizzle(b, m, s)), found " + describe(c[0]));
  layout::ComposedLayout composed = c[0].composed();
  composed.offset = layout::Int(ev.require_static_int(c[1], c.range(1), "the offset"));
  composed.layout = ev.to_layout(c[2], c.range(2), "the outer layout");
  return Value::of(composed);
}

Value tensor_elem_less(Evaluator& ev, BuiltinCall& c) {
  const source::SourceRange at = c.site.range;
  std::function<Value(const Value&, const Value&)> less = [&](const Value& a0, const Value& b0) -> Value {
    // A rank-1 coordinate is a number or a 1-tuple; compare them alike.
    auto unwrap = [](const Value& v) { return v.kind() == Value::Kind::Tuple && v.elts().size() == 1 ? v.elts()[0] : v; };
    Value a = unwrap(a0), b = unwrap(b0);
    if (a.kind() != Value::Kind::Tuple && b.kind() != Value::Kind::Tuple)
      return ev.eval_compare(ast::CmpOpKind::Lt, a, b, at);
    if (a.kind() != Value::Kind::Tuple || b.kind() != Value::Kind::Tuple || a.elts().size() != b.elts().size())
      ev.fail(diag::Kind::RankMismatch, at, c.name() + "() compares coordinates of the same rank, found " + repr(a) + " and " + repr(b));
    Value acc = Value::boolean(true);
    for (size_t i = 0; i < a.elts().size(); ++i) {
      Value ci = less(a.elts()[i], b.elts()[i]);
      if (acc.kind() == Value::Kind::Bool && acc.i()) acc = ci;
      else if (ci.kind() == Value::Kind::Bool) acc = ci.i() ? acc : ci;
      else acc = Value::dyn(ir::binary(ir::Op::LogicalAnd, ev.to_expr_as(acc, ScalarType::Boolean, at),
                                       ev.to_expr_as(ci, ScalarType::Boolean, at), ScalarType::Boolean), at);
    }
    return acc;
  };
  return tensor_algebra(ev, c, [&] { return less(c[0], c[1]); });
}

Value tensor_make_rmem_tensor(Evaluator& ev, BuiltinCall& c) {
  return tensor_algebra(ev, c, [&] {
    ScalarType t = dtype_arg(ev, c, 1);
    layout::Layout l = c[0].kind() == Value::Kind::Layout ? c[0].layout() : layout::make_layout(ev.to_int_tuple(c[0], c.range(0), "the shape"));
    return ev.make_rmem(l, t, c.site.range);
  });
}

Value tensor_make_fragment_like(Evaluator& ev, BuiltinCall& c) {
  // A compact column-major layout of the source's shape: mode 0 (a copy's atom) stays
  // contiguous, so copies into the fragment vectorize.
  return tensor_algebra(ev, c, [&] {
    if (c[0].kind() == Value::Kind::Layout)
      return ev.make_rmem(layout::make_layout(c[0].layout().shape), c.has(1) ? dtype_arg(ev, c, 1) : ScalarType::Float32, c.site.range);
    const TensorValue& t = tensor_arg(ev, c, 0);
    ScalarType et = c.has(1) ? dtype_arg(ev, c, 1) : (t.space == MemSpace::Coord ? ScalarType::Int32 : t.dtype);
    return ev.make_rmem(layout::make_layout(t.layout.shape), et, c.site.range);
  });
}

Value tensor_copy_universal_op(Evaluator&, BuiltinCall& c) { return Value::op_marker(c.id(), c.info.export_name); }

Value tensor_make_copy_atom(Evaluator& ev, BuiltinCall& c) {
  const Value& op = c[0];
  if (op.is_op(BuiltinId::LdMatrix8x8x16bOp) || op.is_op(BuiltinId::StMatrix8x8x16bOp)) {
    return ev.make_ldmatrix_atom(c);
  }
  if (!op.is_op(BuiltinId::CopyUniversalOp) && !op.is_op(BuiltinId::CopyG2SOp)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(0),
                       c.name() + "() takes a copy operation: cute.nvgpu.CopyUniversalOp(), "
                                  "cute.nvgpu.cpasync.CopyG2SOp() or cute.nvgpu.warp.LdMatrix8x8x16bOp(...), found " + describe(op));
    if (op.kind() == Value::Kind::Builtin) d.help("call the operation: CopyUniversalOp() with parentheses");
    ev.abort_entry();
  }
  auto atom = std::make_shared<CopyAtom>();
  atom->cp_async = op.is_op(BuiltinId::CopyG2SOp);
  atom->dtype = dtype_arg(ev, c, 1);
  const int elem_bits = ir::bit_width(atom->dtype);
  atom->bits = c.has(2) ? ev.require_static_int(c[2], c.range(2), "num_bits_per_copy") : elem_bits;
  if (atom->bits < elem_bits || atom->bits > 128 || atom->bits % elem_bits != 0 || (atom->bits & (atom->bits - 1))) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.site.range,
                       "a universal copy of " + std::string(ir::type_name(atom->dtype)) + " cannot move " + std::to_string(atom->bits) +
                           " bits per copy");
    d.note("num_bits_per_copy must be " + std::to_string(elem_bits) + " (one element) times a power of two, at most 128");
    ev.abort_entry();
  }
  return Value::of(atom);
}

Value tensor_make_tiled_copy_tv(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::CopyAtom)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), c.name() + "() needs a copy atom first, found " + describe(c[0]));
  return tensor_algebra(ev, c, [&] {
    layout::Layout thr = ev.to_layout(c[1], c.range(1), "the thread layout");
    layout::Layout val = ev.to_layout(c[2], c.range(2), "the value layout");
    auto tc = std::make_shared<TiledCopy>();
    tc->atom = *c[0].atom();
    std::tie(tc->tiler, tc->tv) = layout::make_layout_tv(thr, val);
    int64_t atom_v = tc->atom.bits / ir::bit_width(tc->atom.dtype);
    int64_t vals = layout::size(val).require_value("value layout size");
    if (vals % atom_v != 0) {
      auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(2),
                         "each thread holds " + std::to_string(vals) + " values, not a multiple of the atom's " +
                             std::to_string(atom_v) + " values per copy");
      d.help("make the value layout's size a multiple of " + std::to_string(atom_v) + ", or copy fewer bits per atom");
      ev.abort_entry();
    }
    return Value::of(tc);
  });
}

Value tensor_copy(Evaluator& ev, BuiltinCall& c) {
  // Slots: atom, src, dst, then the keywords pred, tma_bar_ptr, mcast_mask.
  return tensor_algebra(ev, c, [&] {
    if (c[0].kind() == Value::Kind::TmaAtom) {
      tensor_arg(ev, c, 1);
      tensor_arg(ev, c, 2);
      ev.tma_copy(*c[0].tma(), c[1], c[2], optional_arg(c, 4), c.site.range, optional_arg(c, 5), c.range(5));
      return Value::none();
    }
    CopyAtom atom;
    if (c[0].kind() == Value::Kind::CopyAtom) atom = *c[0].atom();
    else if (c[0].kind() == Value::Kind::TiledCopy) atom = c[0].tiled_copy()->atom;
    else ev.fail(diag::Kind::BadCopyAtom, c.range(0), c.name() + "() needs a copy atom or tiled copy first, found " + describe(c[0]));
    tensor_arg(ev, c, 1);
    tensor_arg(ev, c, 2);
    ev.copy(atom, c[1], c[2], optional_arg(c, 3), c.site.range);
    return Value::none();
  });
}

Value tensor_smem_allocator(Evaluator&, BuiltinCall&) { return payload::SmemAllocator{}; }

// ---- methods

Value tensor_method_load(Evaluator& ev, BuiltinCall& c) { return ev.ssa_load(c.self(), c.site.range); }

Value tensor_method_store(Evaluator& ev, BuiltinCall& c) {
  // Tensor.store(data) and Tensor.fill(value): every element.
  Value v = c[0];
  if (c.id() == BuiltinId::MethodFill && v.kind() == Value::Kind::TensorSSA)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a scalar; use .store() for a whole value");
  ev.ssa_store(c.self(), v, c.site.range);
  return Value::none();
}

Value tensor_ssa_to(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes an element type, found " + describe(c[0]));
  const ScalarType t = c[0].type();
  const source::SourceRange at = c.site.range;
  return ev.ssa_map(c.self(), nullptr, [&](const Value& x, const Value*) { return Value::dyn(ir::cast(ev.to_expr(x, at), t), at); }, at);
}

Value tensor_copy_get_slice(Evaluator& ev, BuiltinCall& c) {
  auto tc = std::make_shared<TiledCopy>(*c.self().tiled_copy());
  Value thr = thread_index_arg(ev, c);
  int64_t threads = layout::size(layout::get(tc->tv, 0)).require_value("thread count");
  if (auto known = static_block_threads(ev)) {
    const int64_t block = *known;
    // Fewer threads leave parts of every tile uncopied. More are fine when
    // the extra ones cannot reach the copy: get_slice under a run-time
    // branch, or with an index other than the raw thread index.
    bool unguarded_extra = block > threads && !in_runtime_branch(ev) && is_raw_thread_index(thr);
    if (block < threads || unguarded_extra) {
      auto& d = thread_count_error(ev, c, "tiled copy", threads, block);
      if (unguarded_extra)
        d.note("threads " + std::to_string(threads) + " to " + std::to_string(block - 1) +
               " would partition outside the tile; guard them (if tidx < " + std::to_string(threads) + ":) or launch fewer");
      d.note("its thread-value layout is " + tc->tv.to_string() + " over a " + ev.shape_text(tc->tiler) + " tile");
      d.help("launch with block=(" + std::to_string(threads) + ", 1, 1), or change the thread layout to match the block");
      ev.abort_entry();
    }
  }
  tc->thread = std::make_shared<Value>(thr);
  return Value::of(tc);
}

Value tensor_mma_get_slice(Evaluator& ev, BuiltinCall& c) {
  auto tm = std::make_shared<TiledMma>(*c.self().tiled_mma());
  Value thr = thread_index_arg(ev, c);
  int64_t threads = tm->atom.threads * tm->am * tm->an;
  if (auto block = static_block_threads(ev); block && *block < threads) {
    auto& d = thread_count_error(ev, c, "tiled MMA", threads, *block);
    d.note("its atoms are laid out (" + std::to_string(tm->am) + ", " + std::to_string(tm->an) + ") with " +
           std::to_string(tm->atom.threads) + " threads each");
    ev.abort_entry();
  }
  tm->thread = std::make_shared<Value>(thr);
  return Value::of(tm);
}

Value tensor_partition(Evaluator& ev, BuiltinCall& c) {
  // TiledCopy.partition_S(src) / partition_D(dst) of one thread's slice.
  const TiledCopy& tc = *c.self().tiled_copy();
  if (c[0].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() needs a tensor, found " + describe(c[0]));
  if (!tc.thread) {
    const std::string attr(c.info.attribute());
    ev.fail(diag::Kind::UnsupportedOperation, c.site.range,
            c.name() + "() needs one thread's slice: tiled_copy.get_slice(tidx)." + attr + "(t)");
  }
  if (tc.operand >= 0) return ev.ldmatrix_partition(tc, c[0], c.id() == BuiltinId::MethodPartitionS, c.site.range);
  return ev.partition(tc, c[0], c.site.range);
}

namespace {

/// allocate_tensor's layout: a plain layout, or a composed one (swizzle o offset o layout),
/// with the swizzle= argument overriding the composed layout's.
struct SmemLayout {
  layout::Layout layout;
  std::optional<layout::Swizzle> swizzle;
  int64_t offset = 0;
};

SmemLayout smem_layout_arg(Evaluator& ev, BuiltinCall& c) {
  SmemLayout out;
  const Value& l = c[1];
  if (l.kind() == Value::Kind::ComposedLayout) {
    out.swizzle = l.composed().swizzle;
    out.offset = l.composed().offset.require_value("offset");
    out.layout = l.composed().layout;
    if (out.offset < 0) {
      auto& d = ev.error(diag::Kind::BadLayoutArgument, c.range(1),
                         "a shared-memory tensor's composed layout has offset " + std::to_string(out.offset) +
                             ": its elements would lie before the allocation");
      d.help("use an offset of 0 or more (cute.make_composed_layout(swizzle, 0, layout))");
      ev.abort_entry();
    }
  } else {
    out.layout = ev.to_layout(l, c.range(1), "the layout");
  }
  if (c.has(3)) {
    if (c[3].kind() != Value::Kind::ComposedLayout)
      ev.fail(diag::Kind::BadLayoutArgument, c.range(3), "swizzle= takes cute.make_swizzle(b, m, s), found " + describe(c[3]));
    out.swizzle = c[3].composed().swizzle;
  }
  return out;
}

/// E0605 for a shared-memory layout with run-time extents or strides, naming the run-time
/// values the layout argument reads (the names bound to run-time values where it is written).
[[noreturn]] void runtime_smem_layout_error(Evaluator& ev, BuiltinCall& c, const layout::Layout& l) {
  std::vector<std::string> names;
  const ast::Expr* arg = nullptr;
  for (const auto& a : c.site.args)
    if (a->range.begin == c.range(1).begin && a->range.end == c.range(1).end) arg = a.get();
  for (const auto& k : c.site.keywords)
    if (k.value->range.begin == c.range(1).begin && k.value->range.end == c.range(1).end) arg = k.value.get();
  if (arg)
    for (const ast::Name* n : names_read(*arg)) {
      auto it = ev.scope().find(n->id);
      if (it != ev.scope().end() && !it->second.value.is_static() &&
          std::find(names.begin(), names.end(), n->id) == names.end())
        names.push_back(n->id);
    }
  std::string which;
  for (size_t i = 0; i < names.size(); ++i) which += (i ? (i + 1 == names.size() ? " and '" : ", '") : "'") + names[i] + "'";
  auto& d = ev.error(diag::Kind::FragmentNotStatic, c.range(1),
                     names.empty() ? "shared memory tensors need a static layout, found " + l.to_string()
                                   : "a shared-memory tensor's layout must be static, but it uses the run-time value" +
                                         std::string(names.size() > 1 ? "s " : " ") + which);
  if (!names.empty()) d.note("the layout is " + l.to_string());
  d.note("shared memory is laid out while compiling: every allocation's size and offset are fixed in the kernel");
  d.help(names.empty() ? std::string("build the layout from static extents (literals, module constants, cutlass.Constexpr parameters)")
                       : "make " + which + " static (a cutlass.Constexpr parameter, set by the caller or -D, or a module constant), "
                         "or allocate the largest size statically and use only the first elements at run time");
  ev.abort_entry();
}

/// The elements the layout reaches, counted from element 0; E0605 unless static, E0603 when
/// negative strides (or the offset) reach below element 0, where the allocation starts.
int64_t smem_cosize(Evaluator& ev, BuiltinCall& c, const SmemLayout& s) {
  const layout::Layout& l = s.layout;
  int64_t cos = 0;
  try {
    auto n = layout::cosize(l);
    if (!n.is_static()) throw layout::LayoutError("");
    cos = n.value();
  } catch (const layout::LayoutError&) {
    runtime_smem_layout_error(ev, c, l);
  }
  if (int64_t lowest = s.offset + lowest_offset(l); lowest < 0) {
    auto& d = ev.error(diag::Kind::BadLayoutArgument, c.range(1),
                       "a shared-memory tensor's layout " + l.to_string() + " reaches element " + std::to_string(lowest) +
                           ": its elements would lie before the allocation");
    d.help("use non-negative strides (and offset) for shared memory; walk it backwards by indexing instead");
    ev.abort_entry();
  }
  return cos;
}

}  // namespace

Value tensor_allocate_tensor(Evaluator& ev, BuiltinCall& c) {
  // SmemAllocator.allocate_tensor(element_type, layout, byte_alignment, swizzle): the next
  // aligned block of the kernel's static shared memory.
  if (c[0].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes the element type first, found " + describe(c[0]));
  const ScalarType dtype = c[0].type();
  SmemLayout s = smem_layout_arg(ev, c);
  int64_t align = ev.require_static_int(c[2], c.range(2), "byte_alignment");
  if (align <= 0 || (align & (align - 1)) || align > 1024)
    ev.fail(diag::Kind::BadLayoutArgument, c.range(2), "byte_alignment must be a power of two up to 1024, found " + std::to_string(align));
  int64_t cos = smem_cosize(ev, c, s);
  FnCtx& fn = *ev.fn_;
  const int64_t elem_bytes = std::max(1, ir::bit_width(dtype) / 8);
  align = std::max(align, elem_bytes);
  if (s.swizzle) {  // swizzled offsets stay inside their 2^(base+bits+shift)-element block: allocate whole blocks
    const int64_t block = s.swizzle->span();
    cos = (cos + s.offset + block - 1) / block * block;
  }
  int64_t offset = (fn.smem_bytes + align - 1) / align * align;
  const int64_t bytes = cos * elem_bytes;
  TensorValue tv;
  tv.dtype = dtype;
  tv.space = MemSpace::Smem;
  tv.layout = s.layout;
  tv.ptr = ev.unique_name("smem");
  tv.align_bytes = offset == 0 ? 1024 : std::min<int64_t>(1024, offset & -offset);
  tv.swizzle = s.swizzle;
  if (s.offset) tv.offset = ir::int_const(s.offset, ScalarType::Int64);
  if (s.swizzle && tv.align_bytes / elem_bytes < s.swizzle->span()) {
    // The swizzle permutes offset bits (below base + bits + |shift|, for either sign of the
    // shift) of offsets from the buffer's start, so any start is correct; one where those bits
    // are zero keeps the bank pattern the swizzle was chosen for (and serves TMA and wgmma, which
    // swizzle addresses). Past 1024 bytes (Sw<3,3,4> over 16-bit elements: 2048) the bank
    // pattern repeats every 128 bytes, so the base's 1024-byte alignment does.
    const int64_t need = std::min<int64_t>(1024, s.swizzle->span() * elem_bytes);
    offset = (fn.smem_bytes + need - 1) / need * need;
    tv.align_bytes = offset == 0 ? 1024 : std::min<int64_t>(1024, offset & -offset);
  }
  fn.kernel->smem.push_back({tv.ptr, tv.dtype, offset, bytes, {}});
  const int64_t limit = ev.smem_limit_bytes();
  if (fn.smem_bytes <= limit && offset + bytes > limit) fn.smem_peak_at = c.site.range;  // the one that crossed it
  fn.smem_bytes = offset + bytes;
  return ev.tensor_value(std::move(tv));
}

}  // namespace tileslc::sema
