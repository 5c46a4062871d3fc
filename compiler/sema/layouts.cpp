// Layout values in .tpy code: CuTe's layout algebra (compiler/layout/) as
// cute.* builtins evaluated while compiling, conversions between static
// tuples and IntTuples, and layout evaluation L(coord), which folds for static
// coordinates and becomes index arithmetic (with the layout's static shape and
// strides folded in) for run-time ones. Algebra preconditions that fail are
// E0601 with the layouts involved; layouts with run-time extents are E0602
// until symbolic layouts reach sema.
#include "sema/evaluator.h"

#include <functional>

namespace tileslc::sema {

namespace {

Value layout_value(layout::Layout l) {
  Value v;
  v.kind = Value::Kind::Layout;
  v.layout = std::make_shared<const layout::Layout>(std::move(l));
  return v;
}

}  // namespace

layout::IntTuple Evaluator::to_int_tuple(const Value& v, source::SourceRange r, const std::string& what) {
  switch (v.kind) {
    case Value::Kind::Int: return layout::IntTuple(layout::Int(v.i));
    case Value::Kind::None: return layout::IntTuple::underscore();
    case Value::Kind::Tuple: {
      std::vector<layout::IntTuple> xs;
      for (const auto& e : *v.elts) xs.push_back(to_int_tuple(e, r, what));
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
  if (v.kind == Value::Kind::Layout) return *v.layout;
  if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Tuple) return layout::make_layout(to_int_tuple(v, r, what));
  fail(diag::Kind::BadLayoutArgument, r, what + " must be a layout, found " + describe(v));
}

layout::Tiler Evaluator::to_tiler(const Value& v, source::SourceRange r, const std::string& what) {
  switch (v.kind) {
    case Value::Kind::Layout: return layout::Tiler(*v.layout);
    case Value::Kind::None: return layout::Tiler::underscore();
    case Value::Kind::Int: return layout::Tiler(layout::make_layout(layout::IntTuple(layout::Int(v.i))));
    case Value::Kind::Tuple: {
      std::vector<layout::Tiler> modes;
      for (const auto& e : *v.elts) modes.push_back(to_tiler(e, r, what));
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
    if (v.kind == Value::Kind::Tuple) for (const auto& e : *v.elts) scan(e);
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
      return eval_binop(ast::BinOpKind::Mul, resolve_symbol(c, r), s, r, r);
    }
    std::vector<Value> parts;
    if (c.kind == Value::Kind::Tuple) {
      if (c.elts->size() != shape.rank())
        fail(diag::Kind::RankMismatch, r, "coordinate " + repr(c) + " does not match the layout's shape " + shape.to_string());
      parts = *c.elts;
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
  if (coord.kind != Value::Kind::Tuple && l.shape.is_tuple() && l.shape.rank() == 1)
    return dot(coord, l.shape[0], l.stride[0]);
  return dot(coord, l.shape, l.stride);
}

Value Evaluator::call_layout_builtin(BuiltinId id, std::vector<Value>& args,
                                     std::vector<std::pair<std::string, Value>>& kwargs, const ast::Call& site) {
  auto arg_range = [&](size_t i) { return arg_range_of(site, i); };
  auto kwarg = [&](const std::string& name) { return kwarg_of(kwargs, name); };
  auto check_kwargs = [&](const char* name, std::initializer_list<const char*> allowed) {
    check_keywords(kwargs, std::string("cute.") + name, allowed, site.range);
  };
  auto arity = [&](size_t lo, size_t hi, const char* name) { check_arity(args.size(), lo, hi, std::string("cute.") + name, site.range); };
  auto L = [&](size_t i) { return to_layout(args[i], arg_range(i), "argument " + std::to_string(i + 1)); };
  auto T = [&](size_t i) { return to_tiler(args[i], arg_range(i), "the tiler"); };
  auto modes_of = [&](const Value& v) {
    std::vector<size_t> out;
    std::vector<Value> xs = v.kind == Value::Kind::Tuple ? *v.elts : std::vector<Value>{v};
    for (const auto& x : xs) out.push_back(static_cast<size_t>(require_static_int(x, site.range, "a mode index")));
    return out;
  };
  try {
    switch (id) {
      case BuiltinId::MakeLayout: {
        check_kwargs("make_layout", {"stride"});
        arity(1, 1, "make_layout");
        auto shape = to_int_tuple(args[0], arg_range(0), "the shape");
        // A layout's extents count elements: a static negative one has no meaning.
        std::function<void(const layout::IntTuple&)> check_extents = [&](const layout::IntTuple& t) {
          if (t.is_tuple()) {
            for (const auto& x : t.elems()) check_extents(x);
          } else if (t.is_leaf() && t.value().has_value() && t.value().value() < 0) {
            fail(diag::Kind::BadLayoutArgument, arg_range(0), "the shape's extents must not be negative, found " + std::to_string(t.value().value()) +
                                                                   " in " + shape.to_string());
          }
        };
        check_extents(shape);
        if (auto st = kwarg("stride")) return layout_value(layout::make_layout(shape, to_int_tuple(*st, site.range, "the stride")));
        return layout_value(layout::make_layout(shape));
      }
      case BuiltinId::MakeOrderedLayout: {
        check_kwargs("make_ordered_layout", {"order"});
        arity(1, 2, "make_ordered_layout");
        Value order = args.size() == 2 ? args[1] : kwarg("order").value_or(Value::none());
        return layout_value(layout::make_ordered_layout(to_int_tuple(args[0], arg_range(0), "the shape"),
                                                        to_int_tuple(order, site.range, "the order")));
      }
      case BuiltinId::Cosize: arity(1, 1, "cosize"); return int_value(layout::cosize(L(0)), site.range);
      case BuiltinId::Rank: {
        arity(1, 1, "rank");
        if (args[0].kind == Value::Kind::Layout) return Value::integer(static_cast<int64_t>(args[0].layout->rank()));
        if (args[0].kind == Value::Kind::Tensor) return Value::integer(static_cast<int64_t>(args[0].tensor->layout.rank()));
        return Value::integer(static_cast<int64_t>(layout::rank(to_int_tuple(args[0], arg_range(0), "the argument"))));
      }
      case BuiltinId::Depth: {
        arity(1, 1, "depth");
        if (args[0].kind == Value::Kind::Layout) return Value::integer(static_cast<int64_t>(layout::depth(*args[0].layout)));
        return Value::integer(static_cast<int64_t>(layout::depth(to_int_tuple(args[0], arg_range(0), "the argument"))));
      }
      case BuiltinId::Coalesce: {
        check_kwargs("coalesce", {"target_profile"});
        arity(1, 2, "coalesce");
        std::optional<Value> profile = args.size() == 2 ? std::optional<Value>(args[1]) : kwarg("target_profile");
        if (profile) return layout_value(layout::coalesce(L(0), to_int_tuple(*profile, site.range, "the target profile")));
        return layout_value(layout::coalesce(L(0)));
      }
      case BuiltinId::Filter: arity(1, 1, "filter"); return layout_value(layout::filter(L(0)));
      case BuiltinId::Composition: arity(2, 2, "composition"); return layout_value(layout::composition(L(0), T(1)));
      case BuiltinId::Complement: {
        arity(1, 2, "complement");
        if (args.size() == 1) return layout_value(layout::complement(L(0)));
        auto cot = to_int_tuple(args[1], arg_range(1), "the cotarget");
        return layout_value(layout::complement(L(0), layout::size(cot)));
      }
      case BuiltinId::RightInverse: arity(1, 1, "right_inverse"); return layout_value(layout::right_inverse(L(0)));
      case BuiltinId::LeftInverse: arity(1, 1, "left_inverse"); return layout_value(layout::left_inverse(L(0)));
      case BuiltinId::LogicalDivide: arity(2, 2, "logical_divide"); return layout_value(layout::logical_divide(L(0), T(1)));
      case BuiltinId::ZippedDivide: arity(2, 2, "zipped_divide"); return layout_value(layout::zipped_divide(L(0), T(1)));
      case BuiltinId::TiledDivide: arity(2, 2, "tiled_divide"); return layout_value(layout::tiled_divide(L(0), T(1)));
      case BuiltinId::FlatDivide: arity(2, 2, "flat_divide"); return layout_value(layout::flat_divide(L(0), T(1)));
      case BuiltinId::LogicalProduct: arity(2, 2, "logical_product"); return layout_value(layout::logical_product(L(0), T(1)));
      case BuiltinId::ZippedProduct: arity(2, 2, "zipped_product"); return layout_value(layout::zipped_product(L(0), T(1)));
      case BuiltinId::TiledProduct: arity(2, 2, "tiled_product"); return layout_value(layout::tiled_product(L(0), T(1)));
      case BuiltinId::FlatProduct: arity(2, 2, "flat_product"); return layout_value(layout::flat_product(L(0), T(1)));
      case BuiltinId::BlockedProduct: arity(2, 2, "blocked_product"); return layout_value(layout::blocked_product(L(0), L(1)));
      case BuiltinId::RakedProduct: arity(2, 2, "raked_product"); return layout_value(layout::raked_product(L(0), L(1)));
      case BuiltinId::TileToShape: {
        check_kwargs("tile_to_shape", {"order"});
        arity(2, 3, "tile_to_shape");
        std::optional<Value> order = args.size() == 3 ? std::optional<Value>(args[2]) : kwarg("order");
        std::optional<layout::IntTuple> ord;
        if (order) ord = to_int_tuple(*order, site.range, "the order");
        return layout_value(layout::tile_to_shape(L(0), to_int_tuple(args[1], arg_range(1), "the target shape"), ord));
      }
      case BuiltinId::MakeLayoutTv: {
        arity(2, 2, "make_layout_tv");
        auto [tiler, tv] = layout::make_layout_tv(L(0), L(1));
        return Value::tuple({from_int_tuple(tiler, site.range), layout_value(tv)});
      }
      case BuiltinId::MaxCommonVector:
        arity(2, 2, "max_common_vector");
        return Value::integer(layout::max_common_vector(L(0), L(1)).require_value("max_common_vector"));
      case BuiltinId::RecastLayout: {
        // CuTe DSL: recast_layout(new_type_bits, old_type_bits, src_layout)
        arity(3, 3, "recast_layout");
        int64_t new_bits = require_static_int(args[0], arg_range(0), "new_type_bits");
        int64_t old_bits = require_static_int(args[1], arg_range(1), "old_type_bits");
        return layout_value(layout::recast_layout(static_cast<int>(old_bits), static_cast<int>(new_bits), L(2)));
      }
      case BuiltinId::Crd2Idx: {
        arity(2, 2, "crd2idx");
        return evaluate_layout(L(1), args[0], site.range);
      }
      case BuiltinId::Idx2Crd: {
        arity(2, 2, "idx2crd");
        return from_int_tuple(layout::idx2crd(to_int_tuple(args[0], arg_range(0), "the index"),
                                              to_int_tuple(args[1], arg_range(1), "the shape")),
                              site.range);
      }
      case BuiltinId::FlattenLayout: {
        arity(1, 1, "flatten");
        if (args[0].kind == Value::Kind::Layout) return layout_value(layout::flatten(*args[0].layout));
        return from_int_tuple(layout::flatten(to_int_tuple(args[0], arg_range(0), "the argument")), site.range);
      }
      case BuiltinId::SelectModes: {
        check_kwargs("select", {"mode"});
        arity(1, 2, "select");
        Value mode = args.size() == 2 ? args[1] : kwarg("mode").value_or(Value::none());
        return layout_value(layout::select(L(0), modes_of(mode)));
      }
      case BuiltinId::GroupModes: {
        arity(3, 3, "group_modes");
        return layout_value(layout::group_modes(L(0), static_cast<size_t>(require_static_int(args[1], arg_range(1), "begin")),
                                                static_cast<size_t>(require_static_int(args[2], arg_range(2), "end"))));
      }
      case BuiltinId::GetMode: {
        check_kwargs("get", {"mode"});
        arity(1, 2, "get");
        Value mode = args.size() == 2 ? args[1] : kwarg("mode").value_or(Value::none());
        layout::Layout l = L(0);
        for (size_t m : modes_of(mode)) {
          if (m >= l.rank())
            fail(diag::Kind::IndexOutOfRange, site.range, "mode " + std::to_string(m) + " is out of range for " + l.to_string());
          l = layout::get(l, m);
        }
        return layout_value(l);
      }
      default: break;
    }
  } catch (const layout::LayoutError& e) {
    auto& d = error(diag::Kind::LayoutAlgebraError, site.range, e.what());
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind == Value::Kind::Layout) d.label(arg_range(i), "this is " + args[i].layout->to_string());
    abort_entry();
  }
  fail(diag::Kind::NotCallable, site.range, "unknown layout builtin");
}

}  // namespace tileslc::sema
