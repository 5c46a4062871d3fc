// Run-time integers inside layouts. The layout library (compiler/layout/)
// computes with symbolic integers: expression trees over named leaves. Sema
// names each run-time value that enters a layout (a symbolic extent "M", a
// tensor's stride "mA.stride[0]", a materialized local) in FnCtx::symbols,
// lowers the library's results back to IR, and tracks what each run-time
// integer is known to be divisible by (cute.sym_int(..., divisibility=k)),
// which is how vectorized copies are proved aligned.
#include <numeric>

#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

constexpr int64_t kDivisorCap = int64_t(1) << 40;

int64_t cap_mul(int64_t a, int64_t b) {
  if (a >= kDivisorCap / std::max<int64_t>(b, 1)) return kDivisorCap;
  return a * b;
}

/// The symbolic integer an IR expression was lowered from (Evaluator::lower_int's inverse):
/// constants, leaves of `symbols` (cast to Int64 or not) and + - * / % over them. A run-time
/// extent read back from a layout (t.shape[1]) and put into a new layout keeps its symbolic
/// form, so the layout algebra sees the same extent on both sides (make_ordered_layout of a
/// tensor's tile counts, composed back with that tensor). nullopt for anything else.
std::optional<layout::Int> lift_symbolic(const ir::ExprRef& e, const std::map<std::string, ir::ExprRef>& symbols, int depth = 0) {
  if (depth > 64) return std::nullopt;
  if (auto c = ir::as_int_const(e)) return layout::Int(*c);
  for (const auto& [name, x] : symbols)
    if (x == e) return layout::Int::symbol(name);
  if (const auto* c = e->get_if<ir::Cast>()) {
    if (!ir::is_integer(e->type) || !ir::is_integer(c->value->type)) return std::nullopt;
    return lift_symbolic(c->value, symbols, depth + 1);
  }
  const auto* b = e->get_if<ir::Binary>();
  if (!b) return std::nullopt;
  auto l = lift_symbolic(b->lhs, symbols, depth + 1);
  auto r = l ? lift_symbolic(b->rhs, symbols, depth + 1) : std::nullopt;
  if (!r) return std::nullopt;
  switch (b->op) {
    case ir::Op::Add: return *l + *r;
    case ir::Op::Sub: return *l - *r;
    case ir::Op::Mul: return *l * *r;
    case ir::Op::TruncDiv: return *l / *r;
    case ir::Op::TruncMod: return *l % *r;
    default: return std::nullopt;
  }
}

}  // namespace

layout::Int Evaluator::symbol_for(const Value& in, source::SourceRange r) {
  Value v = resolve_symbol(in, r);
  if (v.is_static_int()) return layout::Int(v.i());
  if (!v.is_dyn_integer())
    fail(diag::Kind::BadLayoutArgument, r, "layout extents and strides must be integers, found " + describe(v));
  if (auto c = ir::as_int_const(v.expr())) return layout::Int(*c);
  // A run-time value used by name: an existing leaf keeps its name (a
  // symbolic extent's own), an expression over leaves keeps its symbolic form,
  // others are moved into an immutable local first (later assignments must
  // not change a layout that was already built).
  if (const std::string* extent = v.extent_name())
    if (auto it = fn_->symbols.find(*extent); it != fn_->symbols.end() && it->second == v.expr())
      return layout::Int::symbol(*extent);
  if (auto lifted = lift_symbolic(v.expr(), fn_->symbols)) return *lifted;
  Value m = materialize(Value::dyn(ir::cast(v.expr(), ScalarType::Int64), v.origin()), "dim", r);
  // materialize leaves a local, a parameter or a hardware index (blockIdx.x is Int64).
  const auto* hw = m.expr()->get_if<ir::Builtin>();
  const std::string* leaf = hw ? &hw->name : ir::value_name(*m.expr());
  std::string name = leaf ? *leaf : "";
  // Leaves passed in from the host keep the host's names; never let a local
  // of the same spelling take one over.
  while (fn_->symbols.count(name) && fn_->symbols[name] != m.expr()) name += "'";
  fn_->symbols[name] = m.expr();
  return layout::Int::symbol(name);
}

ir::ExprRef Evaluator::lower_int(const layout::Int& x, source::SourceRange r) {
  if (x.has_value()) return ir::int_const(x.value(), ScalarType::Int64);
  if (x.symbolic_op() == 0) {
    auto it = fn_->symbols.find(x.symbol_name());
    if (it == fn_->symbols.end()) {
      if (x.is_basis())
        fail(diag::Kind::DynamicLayout, r, "a coordinate (basis) stride " + x.symbol_name() + " cannot be used as an integer");
      fail(diag::Kind::DynamicLayout, r, "the run-time value '" + x.symbol_name() + "' is not available in this function");
    }
    return ir::cast(it->second, ScalarType::Int64);
  }
  auto a = lower_int(x.lhs(), r), b = lower_int(x.rhs(), r);
  ir::Op op = ir::Op::Add;
  switch (x.symbolic_op()) {
    case '+': op = ir::Op::Add; break;
    case '-': op = ir::Op::Sub; break;
    case '*': op = ir::Op::Mul; break;
    case '/': op = ir::Op::TruncDiv; break;  // extents and strides are non-negative
    case '%': op = ir::Op::TruncMod; break;
  }
  return ir::binary(op, a, b, ScalarType::Int64);
}

Value Evaluator::int_value(const layout::Int& x, source::SourceRange r) {
  if (x.has_value()) return Value::integer(x.value());
  return Value::dyn(lower_int(x, r), r);
}

int64_t Evaluator::known_divisor(const ir::ExprRef& e) {
  if (auto c = ir::as_int_const(e)) return *c == 0 ? kDivisorCap : std::min<int64_t>(std::abs(*c), kDivisorCap);
  if (const std::string* name = ir::value_name(*e)) {
    auto it = fn_->divisors.find(*name);
    return it == fn_->divisors.end() ? 1 : it->second;
  }
  if (const auto* c = e->get_if<ir::Cast>()) return known_divisor(c->value);
  if (const auto* b = e->get_if<ir::Binary>()) {
    int64_t a = known_divisor(b->lhs);
    switch (b->op) {
      case ir::Op::Mul: return cap_mul(a, known_divisor(b->rhs));
      case ir::Op::Add: case ir::Op::Sub: return std::gcd(a, known_divisor(b->rhs));
      case ir::Op::Shl:
        if (auto s = ir::as_int_const(b->rhs); s && *s >= 0 && *s < 40) return cap_mul(a, int64_t(1) << *s);
        return a;
      default: return 1;
    }
  }
  return 1;
}

int64_t Evaluator::known_divisor(const layout::Int& x) {
  if (x.has_value()) return x.value() == 0 ? kDivisorCap : std::min<int64_t>(std::abs(x.value()), kDivisorCap);
  if (x.symbolic_op() == 0) {
    auto it = fn_->symbols.find(x.symbol_name());
    return it == fn_->symbols.end() ? 1 : known_divisor(it->second);
  }
  switch (x.symbolic_op()) {
    case '*': return cap_mul(known_divisor(x.lhs()), known_divisor(x.rhs()));
    case '+': case '-': return std::gcd(known_divisor(x.lhs()), known_divisor(x.rhs()));
    default: return 1;
  }
}

void Evaluator::collect_leaves(const layout::IntTuple& t, std::vector<std::string>& out) {
  std::function<void(const layout::Int&)> walk = [&](const layout::Int& x) {
    if (x.has_value()) return;
    if (x.symbolic_op() == 0) {
      const std::string& n = x.symbol_name();
      if (x.is_named() && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      return;
    }
    walk(x.lhs());
    walk(x.rhs());
  };
  if (t.is_underscore()) return;
  if (t.is_leaf()) return walk(t.value());
  for (const auto& e : t.elems()) collect_leaves(e, out);
}

std::string Evaluator::canonical(const layout::Int& x, const std::map<std::string, std::string>& ids) {
  if (x.has_value()) return x.to_string();
  if (x.symbolic_op() == 0) {
    auto it = ids.find(x.symbol_name());
    return it == ids.end() ? x.symbol_name() : it->second;
  }
  return "(" + canonical(x.lhs(), ids) + x.symbolic_op() + canonical(x.rhs(), ids) + ")";
}

std::string Evaluator::canonical(const layout::IntTuple& t, const std::map<std::string, std::string>& ids) {
  if (t.is_underscore()) return "_";
  if (t.is_leaf()) return canonical(t.value(), ids);
  std::string s = "(";
  for (size_t i = 0; i < t.elems().size(); ++i) s += (i ? "," : "") + canonical(t.elems()[i], ids);
  return s + ")";
}

}  // namespace tileslc::sema
