// Layout values in .tpy code: CuTe's layout algebra (compiler/layout/) as
// cute.* builtins evaluated while compiling, conversions between static
// tuples and IntTuples, and layout evaluation L(coord), which folds for static
// coordinates and becomes index arithmetic (with the layout's static shape and
// strides folded in) for run-time ones. Algebra preconditions that fail are
// E0601 with the layouts involved; layouts with run-time extents are E0602
// until symbolic layouts reach sema.
#include "sema/composed_layout_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

#include <functional>

namespace tileslc::sema {

namespace {

Value layout_value(layout::Layout l) {
  return Value::of(std::move(l));
}

}  // namespace

layout::IntTuple Evaluator::to_int_tuple(const Value& v, source::SourceRange r, const std::string& what) {
  switch (v.kind()) {
    case Value::Kind::Int: return layout::IntTuple(layout::Int(v.i()));
    case Value::Kind::None: return layout::IntTuple::underscore();
    case Value::Kind::Tuple: {
      std::vector<layout::IntTuple> xs;
      for (const auto& e : v.elts()) xs.push_back(to_int_tuple(e, r, what));
      return layout::IntTuple::tuple(std::move(xs));
    }
    case Value::Kind::Dyn: case Value::Kind::SymDim: {
      if (!fn_) {
        auto& d = error(diag::Kind::DynamicLayout, r, what + " must be static here, found " + describe(v));
        d.note("outside functions, layouts are built while compiling and need static extents");
        abort_entry();
      }
      return layout::IntTuple(symbol_for(v, r));
    }
    default:
      fail(diag::Kind::BadLayoutArgument, r, what + " must be an integer or a tuple of integers, found " + describe(v));
  }
}

Value Evaluator::from_int_tuple(const layout::IntTuple& t, source::SourceRange r) {
  if (t.is_underscore()) return Value::none();
  if (t.is_leaf()) return int_value(t.value(), r);
  std::vector<Value> xs;
  for (const auto& e : t.elems()) xs.push_back(from_int_tuple(e, r));
  return Value::tuple(std::move(xs));
}

layout::Layout Evaluator::to_layout(const Value& v, source::SourceRange r, const std::string& what) {
  if (v.kind() == Value::Kind::Layout) return v.layout();
  if (v.kind() == Value::Kind::Int || v.kind() == Value::Kind::Tuple) return layout::make_layout(to_int_tuple(v, r, what));
  fail(diag::Kind::BadLayoutArgument, r, what + " must be a layout, found " + describe(v));
}

layout::Tiler Evaluator::to_tiler(const Value& v, source::SourceRange r, const std::string& what) {
  switch (v.kind()) {
    case Value::Kind::Layout: return layout::Tiler(v.layout());
    case Value::Kind::None: return layout::Tiler::underscore();
    case Value::Kind::Int: return layout::Tiler(layout::make_layout(layout::IntTuple(layout::Int(v.i()))));
    case Value::Kind::Tuple: {
      std::vector<layout::Tiler> modes;
      for (const auto& e : v.elts()) modes.push_back(to_tiler(e, r, what));
      return layout::Tiler::tuple(std::move(modes));
    }
    default:
      fail(diag::Kind::BadLayoutArgument, r, what + " must be a layout, a shape or a tuple of layouts, found " + describe(v));
  }
}

Value Evaluator::evaluate_layout(const layout::Layout& l, const Value& coord, source::SourceRange r) {
  // Static coordinates fold through the library; run-time ones are split
  // against the static shape (colexicographic idx2crd) and dotted with the
  // static strides, so only the run-time parts become arithmetic.
  bool all_static = true;
  std::function<void(const Value&)> scan = [&](const Value& v) {
    if (v.kind() == Value::Kind::Tuple) for (const auto& e : v.elts()) scan(e);
    else if (!v.is_number()) all_static = false;
  };
  scan(coord);
  bool layout_static = true;
  std::function<void(const layout::IntTuple&)> scan_l = [&](const layout::IntTuple& t) {
    if (t.is_leaf()) layout_static = layout_static && t.value().has_value();
    else if (t.is_tuple()) for (const auto& e : t.elems()) scan_l(e);
  };
  scan_l(l.shape);
  scan_l(l.stride);
  if (!layout_static) return layout_offset(l, coord, r);
  if (all_static) {
    auto idx = l(to_int_tuple(coord, r, "the coordinate"));
    return Value::integer(idx.require_value("layout evaluation"));
  }
  std::function<Value(const Value&, const layout::IntTuple&, const layout::IntTuple&)> dot =
      [&](const Value& c, const layout::IntTuple& shape, const layout::IntTuple& stride) -> Value {
    if (shape.is_leaf()) {
      Value s = from_int_tuple(stride, r);
      return eval_binop(ast::BinOpKind::Mul, c, s, r, r);
    }
    std::vector<Value> parts;
    if (c.kind() == Value::Kind::Tuple) {
      if (c.elts().size() != shape.rank())
        fail(diag::Kind::RankMismatch, r, "coordinate " + repr(c) + " does not match the layout's shape " + shape.to_string());
      parts = c.elts();
    } else {
      // An integer into a tuple mode: colexicographic split (CuTe's idx2crd).
      Value rest = c;
      for (size_t k = 0; k < shape.rank(); ++k) {
        Value extent = Value::integer(layout::size(shape[k]).require_value("idx2crd"));
        if (k + 1 == shape.rank()) {
          parts.push_back(rest);
        } else {
          parts.push_back(eval_binop(ast::BinOpKind::Mod, rest, extent, r, r));
          rest = eval_binop(ast::BinOpKind::FloorDiv, rest, extent, r, r);
        }
      }
    }
    Value acc = Value::integer(0);
    for (size_t k = 0; k < shape.rank(); ++k)
      acc = eval_binop(ast::BinOpKind::Add, acc, dot(parts[k], shape[k], stride[k]), r, r);
    return acc;
  };
  if (coord.kind() != Value::Kind::Tuple && l.shape.is_tuple() && l.shape.rank() == 1)
    return dot(coord, l.shape[0], l.stride[0]);
  return dot(coord, l.shape, l.stride);
}

namespace {

/// Runs a layout-algebra builtin; a failed precondition (layout::LayoutError)
/// is E0601 at the call, with each layout argument labelled.
template <class F>
Value algebra(Evaluator& ev, BuiltinCall& c, F&& f) {
  try {
    return f();
  } catch (const layout::LayoutError& e) {
    auto& d = ev.error(diag::Kind::LayoutAlgebraError, c.site.range, e.what());
    for (size_t i = 0; i < c.slots.size(); ++i)
      if (c.given(i) && c[i].kind() == Value::Kind::Layout) d.label(c.range(i), "this is " + c[i].layout().to_string());
    ev.abort_entry();
  }
}

layout::Layout layout_arg(Evaluator& ev, BuiltinCall& c, size_t i) {
  return ev.to_layout(c[i], c.range(i), "argument " + std::to_string(i + 1));
}

layout::Tiler tiler_arg(Evaluator& ev, BuiltinCall& c, size_t i) { return ev.to_tiler(c[i], c.range(i), "the tiler"); }

/// A mode index or a list of them: mode=[i, j] is mode j of mode i (CuTe's get<i, j>).
std::vector<size_t> modes_arg(Evaluator& ev, BuiltinCall& c, size_t i) {
  std::vector<size_t> out;
  const Value& v = c[i];
  std::vector<Value> xs = v.kind() == Value::Kind::Tuple ? v.elts() : std::vector<Value>{v};
  for (const auto& x : xs) {
    int64_t m = ev.require_static_int(x, c.range(i), "a mode index");
    if (m < 0) ev.fail(diag::Kind::IndexOutOfRange, c.range(i), "a mode index must not be negative, found " + std::to_string(m));
    out.push_back(static_cast<size_t>(m));
  }
  return out;
}

/// The layout builtins of one layout and a tiler: divides and products
/// (CuTe's 02_layout_algebra.md). Divides and composition of a tensor go to
/// the tensor family.
using LayoutTilerOp = layout::Layout (*)(const layout::Layout&, const layout::Tiler&);

LayoutTilerOp layout_tiler_op(BuiltinId id) {
  switch (id) {
    case BuiltinId::Composition: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::composition(l, t); };
    case BuiltinId::LogicalDivide: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::logical_divide(l, t); };
    case BuiltinId::ZippedDivide: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::zipped_divide(l, t); };
    case BuiltinId::TiledDivide: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::tiled_divide(l, t); };
    case BuiltinId::FlatDivide: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::flat_divide(l, t); };
    case BuiltinId::LogicalProduct: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::logical_product(l, t); };
    case BuiltinId::ZippedProduct: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::zipped_product(l, t); };
    case BuiltinId::TiledProduct: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::tiled_product(l, t); };
    case BuiltinId::FlatProduct: return [](const layout::Layout& l, const layout::Tiler& t) { return layout::flat_product(l, t); };
    default: return nullptr;
  }
}

}  // namespace

Value layout_make_layout(Evaluator& ev, BuiltinCall& c) {
  auto shape = ev.to_int_tuple(c[0], c.range(0), "the shape");
  // A layout's extents count elements: a static negative one has no meaning. None (CuTe's `_`,
  // a kept mode of a slice) is no extent or stride at all.
  std::function<void(const layout::IntTuple&, const layout::IntTuple&, size_t, const char*)> check =
      [&](const layout::IntTuple& t, const layout::IntTuple& whole, size_t slot, const char* what) {
        if (t.is_tuple()) {
          for (const auto& x : t.elems()) check(x, whole, slot, what);
        } else if (t.is_underscore()) {
          ev.fail(diag::Kind::BadLayoutArgument, c.range(slot),
                  std::string("the ") + what + " must be integers, found None in " + whole.to_string());
        } else if (slot == 0 && t.is_leaf() && t.value().has_value() && t.value().value() < 0) {
          ev.fail(diag::Kind::BadLayoutArgument, c.range(0),
                  "the shape's extents must not be negative, found " + std::to_string(t.value().value()) + " in " + whole.to_string());
        }
      };
  check(shape, shape, 0, "shape's extents");
  std::optional<layout::IntTuple> stride;
  if (c.has(1)) {
    stride = ev.to_int_tuple(c[1], c.range(1), "the stride");
    check(*stride, *stride, 1, "strides");
  }
  return algebra(ev, c, [&] { return layout_value(stride ? layout::make_layout(shape, *stride) : layout::make_layout(shape)); });
}

Value layout_make_ordered_layout(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    return layout_value(layout::make_ordered_layout(ev.to_int_tuple(c[0], c.range(0), "the shape"),
                                                    ev.to_int_tuple(c[1], c.range(1), "the order")));
  });
}

/// mode=[i, j]: mode j of mode i of a layout (CuTe DSL's `mode=` of rank, cosize, size).
layout::Layout layout_mode(Evaluator& ev, BuiltinCall& c, layout::Layout l, size_t mode_slot) {
  for (size_t m : modes_arg(ev, c, mode_slot)) {
    if (m >= l.rank())
      ev.fail(diag::Kind::IndexOutOfRange, c.range(mode_slot), "mode " + std::to_string(m) + " is out of range for " + l.to_string());
    l = layout::get(l, m);
  }
  return l;
}

Value layout_cosize(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() == Value::Kind::ComposedLayout) return composed_cosize(ev, c);
  return algebra(ev, c, [&] { return ev.int_value(layout::cosize(layout_mode(ev, c, layout_arg(ev, c, 0), 1)), c.site.range); });
}

Value layout_rank(Evaluator& ev, BuiltinCall& c) {
  const Value& a = c[0];
  if (a.kind() == Value::Kind::Layout || a.kind() == Value::Kind::Tensor) {
    const layout::Layout& l = a.kind() == Value::Kind::Layout ? a.layout() : a.tensor()->layout;
    return Value::integer(static_cast<int64_t>(layout_mode(ev, c, l, 1).rank()));
  }
  layout::IntTuple t = ev.to_int_tuple(a, c.range(0), "the argument");
  for (size_t m : modes_arg(ev, c, 1)) {
    if (!t.is_tuple() || m >= t.rank())
      ev.fail(diag::Kind::IndexOutOfRange, c.range(1), "mode " + std::to_string(m) + " is out of range for " + t.to_string());
    t = t[m];
  }
  return Value::integer(static_cast<int64_t>(layout::rank(t)));
}

Value layout_depth(Evaluator& ev, BuiltinCall& c) {
  const Value& a = c[0];
  if (a.kind() == Value::Kind::Layout) return Value::integer(static_cast<int64_t>(layout::depth(a.layout())));
  return Value::integer(static_cast<int64_t>(layout::depth(ev.to_int_tuple(a, c.range(0), "the argument"))));
}

Value layout_coalesce(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    if (c.has(1)) return layout_value(layout::coalesce(layout_arg(ev, c, 0), ev.to_int_tuple(c[1], c.range(1), "the target profile")));
    return layout_value(layout::coalesce(layout_arg(ev, c, 0)));
  });
}

Value layout_filter(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] { return layout_value(layout::filter(layout_arg(ev, c, 0))); });
}

Value layout_complement(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    if (!c.has(1)) return layout_value(layout::complement(layout_arg(ev, c, 0)));
    auto cot = ev.to_int_tuple(c[1], c.range(1), "the cotarget");
    return layout_value(layout::complement(layout_arg(ev, c, 0), layout::size(cot)));
  });
}

Value layout_inverse(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    layout::Layout l = layout_arg(ev, c, 0);
    return layout_value(c.id() == BuiltinId::RightInverse ? layout::right_inverse(l) : layout::left_inverse(l));
  });
}

Value layout_by_tiler(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() == Value::Kind::Tensor) {
    // Divides and composition of a tensor: the tensor family (tensor_ops.cpp).
    return ev.tensor_by_tiler(c);
  }
  return algebra(ev, c, [&] { return layout_value(layout_tiler_op(c.id())(layout_arg(ev, c, 0), tiler_arg(ev, c, 1))); });
}

Value layout_block_product(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    layout::Layout a = layout_arg(ev, c, 0), b = layout_arg(ev, c, 1);
    return layout_value(c.id() == BuiltinId::BlockedProduct ? layout::blocked_product(a, b) : layout::raked_product(a, b));
  });
}

Value layout_tile_to_shape(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() == Value::Kind::ComposedLayout) return composed_tile_to_shape(ev, c);
  return algebra(ev, c, [&] {
    std::optional<layout::IntTuple> ord;
    if (c.has(2)) ord = ev.to_int_tuple(c[2], c.range(2), "the order");
    return layout_value(layout::tile_to_shape(layout_arg(ev, c, 0), ev.to_int_tuple(c[1], c.range(1), "the target shape"), ord));
  });
}

Value layout_make_layout_tv(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    auto [tiler, tv] = layout::make_layout_tv(layout_arg(ev, c, 0), layout_arg(ev, c, 1));
    return Value::tuple({ev.from_int_tuple(tiler, c.site.range), layout_value(tv)});
  });
}

Value layout_max_common_vector(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    return Value::integer(layout::max_common_vector(layout_arg(ev, c, 0), layout_arg(ev, c, 1)).require_value("max_common_vector"));
  });
}

Value layout_recast_layout(Evaluator& ev, BuiltinCall& c) {
  int64_t new_bits = ev.require_static_int(c[0], c.range(0), "new_type_bits");
  int64_t old_bits = ev.require_static_int(c[1], c.range(1), "old_type_bits");
  return algebra(ev, c, [&] {
    return layout_value(layout::recast_layout(static_cast<int>(old_bits), static_cast<int>(new_bits), layout_arg(ev, c, 2)));
  });
}

Value layout_crd2idx(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] { return ev.evaluate_layout(layout_arg(ev, c, 1), c[0], c.site.range); });
}

Value layout_idx2crd(Evaluator& ev, BuiltinCall& c) {
  return algebra(ev, c, [&] {
    return ev.from_int_tuple(layout::idx2crd(ev.to_int_tuple(c[0], c.range(0), "the index"),
                                             ev.to_int_tuple(c[1], c.range(1), "the shape")),
                             c.site.range);
  });
}

Value layout_flatten(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() == Value::Kind::Layout) return layout_value(layout::flatten(c[0].layout()));
  return ev.from_int_tuple(layout::flatten(ev.to_int_tuple(c[0], c.range(0), "the argument")), c.site.range);
}

namespace {

/// True for the IntTuple forms CuTe DSL's get/select/group_modes take besides layouts: a tuple or
/// a single integer (static or run-time). They return a tuple then, not a layout.
bool is_int_tuple_value(const Value& v) {
  return v.kind() == Value::Kind::Tuple || v.kind() == Value::Kind::Int || v.kind() == Value::Kind::Dyn ||
         v.kind() == Value::Kind::SymDim;
}

/// The modes of a tuple value (an integer is a rank-1 tuple).
std::vector<Value> modes_of(const Value& v) { return v.kind() == Value::Kind::Tuple ? v.elts() : std::vector<Value>{v}; }

/// Mode `m` of a tuple value, or E0409 naming the tuple.
Value tuple_mode(Evaluator& ev, BuiltinCall& c, const Value& t, size_t m, size_t mode_slot) {
  std::vector<Value> xs = modes_of(t);
  if (m >= xs.size())
    ev.fail(diag::Kind::IndexOutOfRange, c.range(mode_slot), "mode " + std::to_string(m) + " is out of range for " + repr(t));
  return xs[m];
}

/// A group_modes bound: static, and negative ones count from the end as in Python (CuTe DSL).
size_t mode_bound(Evaluator& ev, BuiltinCall& c, size_t slot, size_t rank, const char* what) {
  int64_t b = ev.require_static_int(c[slot], c.range(slot), what);
  if (b < 0) b += static_cast<int64_t>(rank);
  if (b < 0 || b > static_cast<int64_t>(rank))
    ev.fail(diag::Kind::IndexOutOfRange, c.range(slot),
            std::string(what) + " " + std::to_string(ev.require_static_int(c[slot], c.range(slot), what)) + " is out of range for " +
                std::to_string(rank) + " modes");
  return static_cast<size_t>(b);
}

}  // namespace

Value layout_select(Evaluator& ev, BuiltinCall& c) {
  if (is_int_tuple_value(c[0])) {
    std::vector<Value> out;
    for (size_t m : modes_arg(ev, c, 1)) out.push_back(tuple_mode(ev, c, c[0], m, 1));
    return Value::tuple(std::move(out));
  }
  return algebra(ev, c, [&] { return layout_value(layout::select(layout_arg(ev, c, 0), modes_arg(ev, c, 1))); });
}

Value layout_group_modes(Evaluator& ev, BuiltinCall& c) {
  if (is_int_tuple_value(c[0])) {
    std::vector<Value> xs = modes_of(c[0]);
    size_t begin = mode_bound(ev, c, 1, xs.size(), "begin");
    size_t end = c.has(2) ? mode_bound(ev, c, 2, xs.size(), "end") : xs.size();  // end=None: through the last mode
    if (begin > end) ev.fail(diag::Kind::IndexOutOfRange, c.range(1), "begin must not be after end");
    std::vector<Value> out(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(begin));
    out.push_back(Value::tuple(std::vector<Value>(xs.begin() + static_cast<std::ptrdiff_t>(begin), xs.begin() + static_cast<std::ptrdiff_t>(end))));
    out.insert(out.end(), xs.begin() + static_cast<std::ptrdiff_t>(end), xs.end());
    return Value::tuple(std::move(out));
  }
  if (c[0].kind() == Value::Kind::Tensor) {
    // A tensor's modes regrouped (CuTe DSL core.py group_modes of a Tensor): the same origin
    // and swizzle, its layout's modes [begin, end) made one mode.
    TensorValue t = *c[0].tensor();
    size_t begin = mode_bound(ev, c, 1, t.layout.rank(), "begin");
    size_t end = c.has(2) ? mode_bound(ev, c, 2, t.layout.rank(), "end") : t.layout.rank();
    return algebra(ev, c, [&] {
      t.layout = layout::group_modes(t.layout, begin, end);
      return ev.tensor_value(std::move(t));
    });
  }
  layout::Layout l = layout_arg(ev, c, 0);
  size_t begin = mode_bound(ev, c, 1, l.rank(), "begin");
  size_t end = c.has(2) ? mode_bound(ev, c, 2, l.rank(), "end") : l.rank();  // CuTe DSL: end=None groups through the last mode
  return algebra(ev, c, [&] { return layout_value(layout::group_modes(l, begin, end)); });
}

/// cute.size_in_bytes(dtype, layout): the bytes the layout's codomain spans in elements of
/// dtype (CuTe DSL; cosize, so a strided layout counts its holes; a swizzled layout counts its
/// outer layout; None is 0). Every tileslc element type is a whole number of bytes.
Value layout_size_in_bytes(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes an element type first, found " + describe(c[0]));
  const int64_t bytes = ir::bit_width(c[0].type()) / 8;
  if (c[1].kind() == Value::Kind::None) return Value::integer(0);
  const layout::Layout& l = c[1].kind() == Value::Kind::ComposedLayout ? c[1].composed().layout : layout_arg(ev, c, 1);
  Value elems = algebra(ev, c, [&] { return ev.int_value(layout::cosize(l), c.site.range); });
  return ev.eval_binop(ast::BinOpKind::Mul, elems, Value::integer(bytes), c.site.range, c.site.range);
}

Value layout_get(Evaluator& ev, BuiltinCall& c) {
  if (is_int_tuple_value(c[0])) {  // get(((1, 2), 3), mode=[0, 1]) is 2
    Value v = c[0];
    for (size_t m : modes_arg(ev, c, 1)) v = tuple_mode(ev, c, v, m, 1);
    return v;
  }
  return layout_value(layout_mode(ev, c, layout_arg(ev, c, 0), 1));
}

}  // namespace tileslc::sema
