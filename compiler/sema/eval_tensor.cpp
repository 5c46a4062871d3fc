// Tensor element access and slicing. A tensor is an origin plus a CuTe layout
// (value.h); an element's offset is the layout applied to its coordinate
// (CuTe's crd2idx: hierarchical, colexicographic for integers given to tuple
// modes). Static coordinates fold; run-time ones become index arithmetic with
// the static part of every stride folded in. Global-memory offsets are Int64,
// so tensors over 2^31 elements never wrap. A coordinate with None modes
// slices (CuTe's slice): the result keeps the None modes and moves the origin.
#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

bool has_none(const Value& v) {
  if (v.kind() == Value::Kind::None) return true;
  if (v.kind() == Value::Kind::Tuple)
    for (const auto& e : v.elts())
      if (has_none(e)) return true;
  return false;
}

/// The coordinate's structure for layout::slice: None -> `_`, anything else 0.
layout::IntTuple slice_pattern(const Value& v) {
  if (v.kind() == Value::Kind::None) return layout::IntTuple::underscore();
  if (v.kind() == Value::Kind::Tuple) {
    std::vector<layout::IntTuple> xs;
    for (const auto& e : v.elts()) xs.push_back(slice_pattern(e));
    return layout::IntTuple::tuple(std::move(xs));
  }
  return layout::IntTuple(0);
}

/// The coefficient of basis E<k> in a coordinate tensor's stride.
layout::Int project(const layout::Int& s, size_t k) {
  if (s.has_value()) {
    if (s.value() != 0) throw layout::LayoutError("a coordinate tensor's stride " + s.to_string() + " has no basis");
    return layout::Int(0);
  }
  if (s.symbolic_op() == 0) {
    if (!s.is_basis()) throw layout::LayoutError("a coordinate tensor's stride " + s.symbol_name() + " has no basis");
    return layout::Int(static_cast<size_t>(s.basis_mode()) == k ? 1 : 0);
  }
  switch (s.symbolic_op()) {
    case '+': return project(s.lhs(), k) + project(s.rhs(), k);
    case '-': return project(s.lhs(), k) - project(s.rhs(), k);
    case '*': return s.lhs().has_basis() ? project(s.lhs(), k) * s.rhs() : s.lhs() * project(s.rhs(), k);
    default: throw layout::LayoutError("a coordinate tensor's stride " + s.to_string() + " is not a scaled basis");
  }
}

layout::IntTuple project(const layout::IntTuple& t, size_t k) {
  if (t.is_leaf()) return layout::IntTuple(project(t.value(), k));
  std::vector<layout::IntTuple> xs;
  for (const auto& e : t.elems()) xs.push_back(project(e, k));
  return layout::IntTuple::tuple(std::move(xs));
}

}  // namespace

Value Evaluator::tensor_value(TensorValue t) {
  return Value::of(std::make_shared<TensorValue>(std::move(t)));
}

std::string Evaluator::shape_text(const layout::IntTuple& shape) {
  // Flat shapes print as Python tuples ("(M, N)"), nested ones in CuTe notation.
  if (shape.is_leaf()) return "(" + shape.to_string() + ",)";
  bool flat = true;
  for (const auto& e : shape.elems()) flat = flat && e.is_leaf();
  if (!flat) return shape.to_string();
  std::string s = "(";
  for (size_t i = 0; i < shape.elems().size(); ++i) s += (i ? ", " : "") + shape.elems()[i].to_string();
  return s + (shape.elems().size() == 1 ? ",)" : ")");
}

Value Evaluator::tensor_size(const TensorValue& t, source::SourceRange r) {
  return int_value(layout::size(t.layout), r);
}

Value Evaluator::tensor_attribute(const Value& tv, const std::string& attr, source::SourceRange r) {
  const auto& t = *tv.tensor();
  if (attr == "shape") return from_int_tuple(t.layout.shape, r);
  if (attr == "stride") {
    if (t.space == MemSpace::Coord) fail(diag::Kind::UnsupportedOperation, r, "a coordinate tensor's strides are basis elements, not integers");
    return from_int_tuple(t.layout.stride, r);
  }
  if (attr == "layout") {
    return Value::of(t.layout);
  }
  if (attr == "element_type" || attr == "dtype") return Value::scalar_type(t.dtype);
  if (attr == "rank") return Value::integer(static_cast<int64_t>(t.layout.rank()));
  if (auto v = compat_tensor_attribute(tv, attr)) return *v;  // .type, .memspace
  if (const BuiltinInfo* m = find_method(Value::Kind::Tensor, attr)) {
    return Value::method(m->id, tv);
  }
  std::string available = "shape, stride, layout, element_type, rank, type, memspace";
  for (const auto& m : method_names(Value::Kind::Tensor)) available += ", " + m;  // builtins.def's Tensor rows
  fail(diag::Kind::NoSuchAttribute, r, "tensor has no attribute '" + attr + "' (available: " + available + ")");
}

Value Evaluator::layout_offset(const layout::Layout& l, const Value& coord, source::SourceRange r) {
  // Coordinates, extents and strides are Values: static parts fold, run-time
  // parts become Int64 arithmetic.
  auto is_int = [](const Value& v, int64_t x) { return v.kind() == Value::Kind::Int && v.i() == x; };
  auto mul = [&](const Value& a, const Value& b) {
    if (is_int(a, 0) || is_int(b, 0)) return Value::integer(0);
    if (is_int(a, 1)) return b;
    if (is_int(b, 1)) return a;
    return eval_binop(ast::BinOpKind::Mul, a, b, r, r);
  };
  auto add = [&](const Value& a, const Value& b) {
    if (is_int(a, 0)) return b;
    if (is_int(b, 0)) return a;
    return eval_binop(ast::BinOpKind::Add, a, b, r, r);
  };
  auto wide = [&](const Value& c) {
    if (c.kind() == Value::Kind::Dyn) {
      if (!c.is_dyn_integer() && c.type() != ScalarType::Boolean)
        fail(diag::Kind::TypeMismatch, r, "tensor coordinates must be integers, found " + describe(c));
      return Value::dyn(ir::cast(c.expr(), ScalarType::Int64), c.origin());
    }
    if (!c.is_static_int())
      fail(diag::Kind::TypeMismatch, r, "tensor coordinates must be integers, found " + describe(c));
    return Value::integer(c.i());
  };
  std::function<Value(const Value&, const layout::IntTuple&, const layout::IntTuple&)> dot =
      [&](const Value& c, const layout::IntTuple& shape, const layout::IntTuple& stride) -> Value {
    if (c.kind() == Value::Kind::None) return Value::integer(0);
    if (shape.is_leaf()) {
      if (c.kind() == Value::Kind::Tuple) {
        if (c.elts().size() == 1) return dot(c.elts()[0], shape, stride);
        fail(diag::Kind::RankMismatch, r, "coordinate " + repr(c) + " has more modes than the extent " + shape.to_string());
      }
      Value ci = wide(c);
      if (ci.kind() == Value::Kind::Int && shape.value().has_value() && (ci.i() < 0 || ci.i() >= shape.value().value())) {
        auto& d = error(diag::Kind::IndexOutOfRange, r,
                        "coordinate " + std::to_string(ci.i()) + " is out of range for a mode of extent " + shape.value().to_string());
        d.note("the tensor's layout is " + l.to_string());
        abort_entry();
      }
      return mul(ci, int_value(stride.value(), r));
    }
    std::vector<Value> parts;
    if (c.kind() == Value::Kind::Tuple) {
      if (c.elts().size() != shape.rank()) {
        auto& d = error(diag::Kind::RankMismatch, r,
                        "coordinate " + repr(c) + " has " + std::to_string(c.elts().size()) + " modes, the shape " +
                            shape.to_string() + " has " + std::to_string(shape.rank()));
        d.note("the tensor's layout is " + l.to_string());
        abort_entry();
      }
      parts = c.elts();
    } else {
      // An integer into a tuple mode: colexicographic split (CuTe's idx2crd).
      Value rest = wide(c);
      if (rest.kind() == Value::Kind::Int) {
        auto total = layout::size(shape);
        if (total.has_value() && (rest.i() < 0 || rest.i() >= total.value())) {
          auto& d = error(diag::Kind::IndexOutOfRange, r,
                          "index " + std::to_string(rest.i()) + " is out of range for " + total.to_string() + " elements");
          d.note("the tensor's layout is " + l.to_string());
          abort_entry();
        }
      }
      for (size_t k = 0; k < shape.rank(); ++k) {
        if (k + 1 == shape.rank()) {
          parts.push_back(rest);
          break;
        }
        Value extent = int_value(layout::size(shape[k]), r);
        if ((rest.kind() == Value::Kind::Int && rest.i() == 0) || (extent.kind() == Value::Kind::Int && extent.i() == 1)) {
          parts.push_back(Value::integer(0));
        } else if (rest.kind() == Value::Kind::Dyn && extent.kind() == Value::Kind::Dyn) {
          // Valid coordinates are non-negative: C's truncating / and % are
          // CuTe's idx2crd here, and cheaper than Python's floor forms.
          auto re = to_expr_as(rest, ScalarType::Int64, r), ee = to_expr_as(extent, ScalarType::Int64, r);
          parts.push_back(Value::dyn(ir::binary(ir::Op::TruncMod, re, ee, ScalarType::Int64), r));
          rest = Value::dyn(ir::binary(ir::Op::TruncDiv, re, ee, ScalarType::Int64), r);
        } else {
          parts.push_back(eval_binop(ast::BinOpKind::Mod, rest, extent, r, r));
          rest = eval_binop(ast::BinOpKind::FloorDiv, rest, extent, r, r);
        }
      }
    }
    Value acc = Value::integer(0);
    for (size_t k = 0; k < shape.rank(); ++k) acc = add(acc, dot(parts[k], shape[k], stride[k]));
    return acc;
  };
  return dot(coord, l.shape, l.stride);
}

Value Evaluator::coord_element(const TensorValue& t, const Value& coord, source::SourceRange r) {
  std::vector<Value> xs;
  for (size_t k = 0; k < t.coord_offset.size(); ++k) {
    layout::Layout pk;
    try {
      pk = layout::make_layout(t.layout.shape, project(t.layout.stride, k));
    } catch (const layout::LayoutError& e) {
      fail(diag::Kind::LayoutAlgebraError, r, e.what());
    }
    Value off = layout_offset(pk, coord, r);
    Value base = t.coord_offset[k] ? Value::dyn(t.coord_offset[k], r) : Value::integer(0);
    if (auto c = t.coord_offset[k] ? ir::as_int_const(t.coord_offset[k]) : std::optional<int64_t>(0)) base = Value::integer(*c);
    xs.push_back(eval_binop(ast::BinOpKind::Add, base, off, r, r));
  }
  return xs.size() == 1 ? xs[0] : Value::tuple(std::move(xs));
}

ir::ExprRef Evaluator::tensor_offset(const TensorValue& t, const Value& index, source::SourceRange r) {
  if (!fn_ || !fn_->is_kernel)
    fail(diag::Kind::UnsupportedOperation, r, "tensor elements can only be read or written inside a @cute.kernel");
  if (index.kind() == Value::Kind::Tuple && index.elts().size() != t.layout.rank()) {
    auto& d = error(diag::Kind::RankMismatch, r,
                    "tensor of rank " + std::to_string(t.layout.rank()) + " indexed with " + std::to_string(index.elts().size()) +
                        " coordinates");
    d.note("the tensor's shape is " + shape_text(t.layout.shape));
    abort_entry();
  }
  // One element's address: a None (a kept mode of a slice) would silently stand for coordinate 0
  // (atomics, mbarriers and async copies name their element this way).
  if (has_none(index))
    fail(diag::Kind::UnsupportedOperation, r, "an element's coordinate cannot hold None, found " + repr(index) + "; give every mode an index");
  Value off = layout_offset(t.layout, index, r);
  if (t.offset) off = eval_binop(ast::BinOpKind::Add, Value::dyn(t.offset, r), off, r, r);
  ir::ExprRef e = to_expr_as(swizzled(t, off, r), ScalarType::Int64, r);
  if (t.space == MemSpace::Rmem && !ir::as_int_const(e)) {
    // A register array indexed at run time would live in local memory:
    // the loops around this access are unrolled so the index becomes static.
    for (auto* loop : fn_->open_loops)
      if (auto* counted = loop->get_if<ir::For>()) counted->unroll = true;
  }
  return e;
}

Value Evaluator::tensor_slice(const Value& tv, const Value& coord, source::SourceRange r) {
  const auto& t = *tv.tensor();
  TensorValue out = t;
  try {
    out.layout = layout::slice(slice_pattern(coord), t.layout);
  } catch (const layout::LayoutError& e) {
    auto& d = error(diag::Kind::RankMismatch, r, std::string("cannot slice the tensor with ") + repr(coord) + ": " + e.what());
    d.note("the tensor's layout is " + t.layout.to_string());
    abort_entry();
  }
  if (t.space == MemSpace::Coord) {
    Value c = coord_element(t, coord, r);
    std::vector<Value> xs = c.kind() == Value::Kind::Tuple ? c.elts() : std::vector<Value>{c};
    for (size_t k = 0; k < xs.size(); ++k) out.coord_offset[k] = to_expr_as(xs[k], ScalarType::Int64, r);
    return tensor_value(std::move(out));
  }
  Value off = layout_offset(t.layout, coord, r);
  if (t.offset) off = eval_binop(ast::BinOpKind::Add, Value::dyn(t.offset, r), off, r, r);
  off = materialize_offset(t, off, r);
  out.offset = to_expr_as(off, ScalarType::Int64, r);
  return tensor_value(std::move(out));
}

Value Evaluator::tensor_load(const Value& tv, const Value& index, source::SourceRange r) {
  if (has_none(index)) return tensor_slice(tv, index, r);
  const auto& t = *tv.tensor();
  if (t.space == MemSpace::Coord) return coord_element(t, index, r);
  auto off = tensor_offset(t, index, r);
  return Value::dyn(ir::load(t.ptr, off, t.dtype), r);
}

void Evaluator::tensor_store(const Value& tv, const Value& index, const Value& v, source::SourceRange r) {
  const auto& t = *tv.tensor();
  if (t.space == MemSpace::Coord) fail(diag::Kind::StoreToNonTensor, r, "a coordinate (identity) tensor cannot be written");
  if (has_none(index)) {
    // CuTe DSL's Tensor.__setitem__ with a slice (tensor.py): t[crd].store(value), of a TensorSSA only.
    if (v.kind() != Value::Kind::TensorSSA) {
      auto& d = error(diag::Kind::TypeMismatch, r, "assigning to a slice takes a tensor value (TensorSSA), found " + describe(v));
      d.help("fill the slice with t[...].fill(value), or store a loaded value: t[None] = other.load()");
      abort_entry();
    }
    ssa_store(tensor_slice(tv, index, r), v, r);
    return;
  }
  auto off = tensor_offset(t, index, r);
  const Value& val = v;
  if (!val.is_scalar()) {
    auto& d = error(diag::Kind::TypeMismatch, r,
                    std::string("cannot store ") + describe(val) + " into an element of a " + ir::type_name(t.dtype) + " tensor");
    if (val.kind() == Value::Kind::Tensor) d.help("index the source tensor too, e.g. gB[i] = gA[i]");
    abort_entry();
  }
  if (val.is_floating() && !ir::is_float(t.dtype)) {
    auto& d = error(diag::Kind::LossyConversion, r,
                    std::string("storing a ") + (val.kind() == Value::Kind::Float ? std::string("float") : ir::type_name(val.type())) +
                        " value into a " + ir::type_name(t.dtype) + " tensor would drop its fraction");
    d.help(std::string("convert explicitly: cutlass.") + ir::type_name(t.dtype) + "(value)");
    abort_entry();
  }
  auto s = ir::store(stmt_loc_.valid() ? stmt_loc_ : r, t.ptr, off, to_expr_as(val, t.dtype, r));
  fn_->stored_ptrs[t.ptr] += 1;
  emit(std::move(s));
}

}  // namespace tileslc::sema
