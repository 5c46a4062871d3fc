// TensorSSA.reduce(op, init_val, reduction_profile) (CuTe DSL, cute/tensor.py): the reduction of a
// register value's elements with a cute.ReductionOp (ADD, MUL, MAX, MIN). reduction_profile says
// which modes go: None returns the value unchanged; a leaf (0, as CuTe DSL's examples write it)
// reduces every element to one scalar; a tuple with one entry per top-level mode reduces the modes
// marked with an integer and keeps those marked None ((None, 0) of a (4, 8) value gives a (4,)
// value of row results). Nested profiles (None, (None, 0)) are not supported yet (an error).
// init_val converts to the element type (as CuTe DSL's as_numeric(init_val).to(elem_type)), and
// the arithmetic is the element type's (Float32 for a narrow float, rounded back after each step).
//
// Each result folds its elements as a balanced tree and combines init_val last, which CuTe leaves
// unspecified: the tree keeps the chain of dependent instructions at log2(n) instead of n.
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// The ir operation of c[0], a cute.ReductionOp member; a TypeMismatch error for anything else.
ir::Op reduction_op(Evaluator& ev, BuiltinCall& c) {
  const Value& op = c[0];
  if (op.kind() == Value::Kind::Marker && op.builtin() == BuiltinId::ReductionOp) {
    if (op.s() == "ReductionOp.ADD") return ir::Op::Add;
    if (op.s() == "ReductionOp.MUL") return ir::Op::Mul;
    if (op.s() == "ReductionOp.MAX") return ir::Op::Max;
    if (op.s() == "ReductionOp.MIN") return ir::Op::Min;
  }
  ev.fail(diag::Kind::TypeMismatch, c.range(0),
          c.name() + "() takes a cute.ReductionOp (ADD, MUL, MAX or MIN) first, found " + describe(op));
}

/// a `op` b in the element type t: computed in Float32 for a narrow float, then rounded to t.
Value combine(Evaluator& ev, ir::Op op, const Value& a, const Value& b, ScalarType t, source::SourceRange r) {
  const ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
  auto e = ir::binary(op, ev.to_expr_as(a, compute, r), ev.to_expr_as(b, compute, r), compute);
  return Value::dyn(compute == t ? e : ir::cast(e, t), r);
}

/// init `op` (the balanced-tree fold of xs).
Value fold(Evaluator& ev, ir::Op op, std::vector<Value> xs, const Value& init, ScalarType t, source::SourceRange r) {
  while (xs.size() > 1) {
    std::vector<Value> next;
    for (size_t i = 0; i + 1 < xs.size(); i += 2) next.push_back(combine(ev, op, xs[i], xs[i + 1], t, r));
    if (xs.size() % 2) next.push_back(xs.back());
    xs = std::move(next);
  }
  return xs.empty() ? init : combine(ev, op, xs[0], init, t, r);
}

}  // namespace

Value tensor_ssa_reduce(Evaluator& ev, BuiltinCall& c) {
  const Value& self = c.self();
  const source::SourceRange r = c.site.range;
  const ir::Op op = reduction_op(ev, c);
  const Value& profile = c[2];
  if (profile.kind() == Value::Kind::None) return self;
  const ScalarType t = self.type();
  if (!c[1].is_scalar())
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes a number as init_val, found " + describe(c[1]));
  const Value init = Value::dyn(ir::cast(ev.to_expr(c[1], c.range(1)), t), c.range(1));
  const std::vector<Value>& elts = self.elts();
  if (profile.kind() != Value::Kind::Tuple) {
    if (!profile.is_static_int())
      ev.fail(diag::Kind::TypeMismatch, c.range(2),
              c.name() + "() takes None, an integer or a tuple of None and integers as reduction_profile, found " +
                  describe(profile));
    return fold(ev, op, elts, init, t, r);
  }
  // One entry per top-level mode: an integer reduces it, None keeps it.
  const layout::IntTuple& shape = self.layout().shape;
  const std::vector<Value>& marks = profile.elts();
  if (marks.size() != shape.rank()) {
    ev.fail(diag::Kind::TensorShapeMismatch, c.range(2),
            c.name() + "(): reduction_profile " + repr(profile) + " has " + std::to_string(marks.size()) +
                " entries, but the value's shape " + ev.shape_text(shape) + " has " + std::to_string(shape.rank()) +
                " modes");
  }
  std::vector<int64_t> extent, stride;  // of each top-level mode in the compact (column-major) order of elts
  std::vector<bool> reduced;
  std::vector<layout::IntTuple> kept_shape;
  int64_t step = 1;
  for (size_t m = 0; m < marks.size(); ++m) {
    if (marks[m].kind() != Value::Kind::None && !marks[m].is_static_int()) {
      auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(2),
                         c.name() + "(): a reduction_profile entry is None or an integer here, found " + describe(marks[m]));
      d.note("nested profiles such as (None, (None, 0)) are not supported yet: reduce a flat value");
      ev.abort_entry();
    }
    const layout::IntTuple& mode = shape.rank() == 1 && shape.is_leaf() ? shape : shape[m];
    const int64_t n = layout::size(mode).require_value("a TensorSSA mode's size");
    extent.push_back(n);
    stride.push_back(step);
    step *= n;
    reduced.push_back(marks[m].kind() != Value::Kind::None);
    if (!reduced.back()) kept_shape.push_back(mode);
  }
  // Group the elements by their kept coordinates, in the compact order of the kept modes.
  int64_t kept = 1;
  for (size_t m = 0; m < extent.size(); ++m) kept *= reduced[m] ? 1 : extent[m];
  std::vector<std::vector<Value>> groups(static_cast<size_t>(kept));
  for (int64_t i = 0; i < static_cast<int64_t>(elts.size()); ++i) {
    int64_t out = 0, out_step = 1;
    for (size_t m = 0; m < extent.size(); ++m) {
      if (reduced[m]) continue;
      out += (i / stride[m]) % extent[m] * out_step;
      out_step *= extent[m];
    }
    groups[out].push_back(elts[i]);
  }
  std::vector<Value> results;
  for (auto& g : groups) results.push_back(fold(ev, op, std::move(g), init, t, r));
  if (kept_shape.empty()) return results[0];
  const layout::IntTuple out_shape = kept_shape.size() == 1 ? kept_shape[0] : layout::IntTuple::tuple(kept_shape);
  return payload::TensorSSA{std::make_shared<const std::vector<Value>>(std::move(results)),
                            std::make_shared<const layout::Layout>(layout::make_layout(out_shape)), t};
}

}  // namespace tileslc::sema
