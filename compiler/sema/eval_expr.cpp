// Expression evaluation: names, literals, attributes, subscripts and the
// operators. Static operands are computed with Python's semantics (floor
// division and modulo round toward negative infinity; `/` is true division);
// otherwise the operation becomes IR with the promoted type.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/hopper_ops.h"
#include "sema/registry.h"
#include "sema/statement_names.h"
#include "sema/static_limits.h"
#include "sema/struct_ops.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// Levenshtein distance, for did-you-mean suggestions.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  // One or two letters are one edit from too many names to suggest any.
  size_t best_d = name.size() <= 2 ? 1 : std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c == "_") continue;  // the throwaway name suggests nothing
    size_t d = edit_distance(name, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

namespace {

/// The largest value of integer type `t` (a Uint64's as 2^64 - 1).
unsigned __int128 type_max(ir::ScalarType t) {
  const int bits = ir::bit_width(t);
  return (static_cast<unsigned __int128>(1) << (ir::is_signed(t) ? bits - 1 : bits)) - 1;
}

/// An upper bound of `e` when `e` is provably >= 0, in its own type and without wrapping: hardware
/// indices (a CTA's thread index and extent below 1024, the rest below 2^31), non-negative
/// constants, unsigned values, and sums, products, quotients, remainders, minima and maxima of such
/// values whose bound fits the type. Python's floor division and modulo then equal C's, so codegen
/// can use / and %. The bound matters: Int16(13450) * Int16(32767) wraps to -13450, whose % is
/// not C's (tools/difffuzz.py's GPU half, 2026-12-05).
std::optional<unsigned __int128> nonneg_bound(const ir::ExprRef& e) {
  using B = std::optional<unsigned __int128>;
  const ir::ScalarType t = e->type;
  if (!ir::is_integer(t)) return std::nullopt;
  const unsigned __int128 top = type_max(t);
  auto fits = [&](unsigned __int128 v) -> B { return v <= top ? B(v) : std::nullopt; };
  if (ir::is_hardware_index(*e)) {
    const auto* b = e->get_if<ir::Builtin>();
    const bool cta = b && (b->name.rfind("threadIdx", 0) == 0 || b->name.rfind("blockDim", 0) == 0);
    return fits(cta ? 1024 : (static_cast<unsigned __int128>(1) << 31) - 1);
  }
  if (auto c = ir::as_int_const(e)) {
    if (t == ir::ScalarType::Uint64) return static_cast<unsigned __int128>(static_cast<uint64_t>(*c));
    return *c >= 0 ? B(static_cast<unsigned __int128>(*c)) : std::nullopt;
  }
  const B unsigned_any = ir::is_signed(t) ? B() : B(top);
  if (const auto* c = e->get_if<ir::Cast>()) {
    const B v = ir::is_integer(c->value->type) ? nonneg_bound(c->value) : B();
    const B kept = v ? fits(*v) : B();
    return kept ? kept : unsigned_any;
  }
  const auto* b = e->get_if<ir::Binary>();
  if (!b) return unsigned_any;
  const B l = nonneg_bound(b->lhs);
  const B r = b->op == ir::Op::BitAnd || l ? nonneg_bound(b->rhs) : B();
  B v;
  switch (b->op) {
    case ir::Op::Add: if (l && r) v = fits(*l + *r); break;
    case ir::Op::Mul: if (l && r) v = (*l == 0 || *r <= top / *l) ? fits(*l * *r) : B(); break;
    case ir::Op::FloorDiv: case ir::Op::TruncDiv: case ir::Op::Shr: if (l && r) v = l; break;
    case ir::Op::Mod: case ir::Op::TruncMod: case ir::Op::Min: if (l && r) v = std::min(*l, *r); break;
    case ir::Op::Max: if (l && r) v = std::max(*l, *r); break;
    case ir::Op::BitAnd: v = l && r ? B(std::min(*l, *r)) : l ? l : r; break;
    default: break;
  }
  return v ? v : unsigned_any;
}

bool provably_nonneg(const ir::ExprRef& e) { return nonneg_bound(e).has_value(); }

/// Where a run-time result's run-time-ness comes from: its first dynamic
/// operand's origin (so E0501 can point at the thread index, not the +).
source::SourceRange origin_of(const Value& a, const Value& b, source::SourceRange fallback) {
  if (a.kind() == Value::Kind::Dyn && a.origin().valid()) return a.origin();
  if (b.kind() == Value::Kind::Dyn && b.origin().valid()) return b.origin();
  return fallback;
}

int64_t py_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;  // INT64_MIN % -1 traps in C++; every integer is a multiple of -1
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

// Python's float % and // (CPython's float_rem and float_floor_div), as the
// run-time helpers tileslc::dev::mod and floordiv compute them
// (runtime/include/tileslc/device/common.h): 7.0 % -0.5 == -0.0 and
// 10.0 // 0.1 == 99.0, where a - floor(a / b) * b and floor(a / b) give +0.0
// and 100.0. fmod is exact; b != 0.
double py_float_mod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0) return (b < 0) != (m < 0) ? m + b : m;
  return std::copysign(0.0, b);
}
double py_float_floordiv(double a, double b) {
  double m = std::fmod(a, b);
  double q = (a - m) / b;
  if (m != 0 && (b < 0) != (m < 0)) q -= 1;
  if (q == 0) return std::copysign(0.0, a / b);
  double f = std::floor(q);
  return q - f > 0.5 ? f + 1 : f;
}

/// A symbolic extent, or a tuple holding one (not a list: a list is an object its aliases share).
bool holds_extent(const Value& v) {
  if (v.kind() == Value::Kind::SymDim) return true;
  if (v.kind() != Value::Kind::Tuple || v.is_list()) return false;
  return std::any_of(v.elts().begin(), v.elts().end(), holds_extent);
}

}  // namespace

Value Evaluator::eval(const ast::Expr& e) {
  Value v = eval_node(e);
  if (!fn_ || keep_extents_ > 0 || !holds_extent(v)) return v;
  if (v.kind() == Value::Kind::SymDim) return resolve_symbol(v, e.range);
  // A static tuple of extents (a module's SHAPE = (M, N)): the bound ones resolve now; one that
  // this function does not bind stays symbolic until something needs its value.
  std::function<Value(const Value&)> bound = [&](const Value& x) -> Value {
    if (x.kind() == Value::Kind::SymDim) return fn_->symbols.count(x.s()) ? resolve_symbol(x, e.range) : x;
    if (!holds_extent(x)) return x;
    std::vector<Value> xs;
    for (const auto& y : x.elts()) xs.push_back(bound(y));
    return Value::tuple(std::move(xs));
  };
  return bound(v);
}

Value Evaluator::eval_node(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Name: return eval_name(*e.as<ast::Name>());
    case K::IntLit: return Value::integer(e.as<ast::IntLit>()->value);
    case K::FloatLit: return Value::floating(e.as<ast::FloatLit>()->value);
    case K::StrLit: return Value::str(e.as<ast::StrLit>()->value);
    case K::BoolLit: return Value::boolean(e.as<ast::BoolLit>()->value);
    case K::NoneLit: return Value::none();
    case K::EllipsisLit: return payload::Ellipsis{};
    case K::Tuple: case K::List: case K::Set: return eval_display(e);
    case K::Dict: return eval_dict(*e.as<ast::Dict>());
    case K::Comp: return eval_comp(*e.as<ast::Comp>());
    case K::Lambda: return eval_lambda(*e.as<ast::Lambda>());
    case K::JoinedStr: return eval_fstring(*e.as<ast::JoinedStr>());
    case K::Attribute: return eval_attribute(*e.as<ast::Attribute>());
    case K::Subscript: return eval_subscript(*e.as<ast::Subscript>());
    case K::Slice: {
      const auto* s = e.as<ast::Slice>();
      std::vector<Value> parts;
      for (const auto* p : {s->lower.get(), s->upper.get(), s->step.get()}) parts.push_back(p ? eval(*p) : Value::none());
      return payload::Slice{std::make_shared<const std::vector<Value>>(std::move(parts))};
    }
    case K::Call: return eval_call(*e.as<ast::Call>());
    case K::BinOp: {
      const auto* b = e.as<ast::BinOp>();
      Value l = eval(*b->lhs);
      Value r = eval(*b->rhs);
      return eval_binop(b->op, std::move(l), std::move(r), e.range, b->op_range);
    }
    case K::UnaryOp: {
      const auto* u = e.as<ast::UnaryOp>();
      return eval_unary(u->op, eval(*u->operand), e.range);
    }
    case K::BoolOp: return eval_boolop(*e.as<ast::BoolOp>());
    case K::Compare: {
      const auto* c = e.as<ast::Compare>();
      Value left = eval(*c->left);
      Value result;
      for (size_t i = 0; i < c->ops.size(); ++i) {
        Value right = eval(*c->comparators[i]);
        Value part = eval_compare(c->ops[i], left, right, e.range);
        if (i == 0) {
          result = part;
        } else if (result.is_static() && part.is_static()) {
          result = Value::boolean(truthy_static(result, e.range) && truthy_static(part, e.range));
        } else {
          result = Value::dyn(ir::binary(ir::Op::LogicalAnd, to_expr_as(result, ScalarType::Boolean, e.range),
                                         to_expr_as(part, ScalarType::Boolean, e.range), ScalarType::Boolean), e.range);
        }
        if (result.is_static() && !truthy_static(result, e.range)) return Value::boolean(false);
        left = right;
      }
      return result;
    }
    case K::IfExp: return eval_ifexp(*e.as<ast::IfExp>());
    case K::Starred: case K::NamedExpr: case K::Yield: case K::Await: case K::FormattedValue: reject_unsupported(e);
  }
  fail(diag::Kind::UnsupportedOperation, e.range, "unsupported expression");
}

namespace {

bool is_python_builtin(const std::string& id) { return find_python_builtin(id) != nullptr; }

/// E0301 for `n`, with the closest name visible here as a did-you-mean.
void report_undefined(Evaluator& ev, const ast::Name& n) {
  std::vector<std::string> candidates;
  for (const auto& [k, _] : ev.scope()) candidates.push_back(k);
  for (const auto& [k, _] : ev.frame().module->globals) candidates.push_back(k);
  for (const auto& info : builtin_table())
    if (find_python_builtin(info.name) == &info) candidates.push_back(info.name);
  auto& d = ev.error(diag::Kind::UndefinedName, n.range, "name '" + n.id + "' is not defined");
  std::string best = closest_name(n.id, candidates);
  if (!best.empty()) d.help("did you mean '" + best + "'?");
}

/// After E0301 for `n`, which abandons the statement being executed: the
/// statement's other names that eval_name would not find either (not a
/// local, possibly unbound local, module global or Python builtin) get
/// E0301 too, each name once, so one run shows every typo of the statement.
/// Nothing is done when `n` is not one of that statement's own names (a
/// parameter's default, a decorator).
void report_undefined_in_statement(Evaluator& ev, const ast::Name& n) {
  Frame& f = ev.frame();
  const ast::Body* body = f.is_module ? (f.module->ast ? &f.module->ast->body : nullptr)
                                      : (f.def ? &f.def->body : nullptr);
  const ast::Stmt* stmt = body ? find_statement(*body, ev.stmt_loc_) : nullptr;
  if (!stmt) return;
  std::vector<const ast::Name*> names = names_read(*stmt);
  if (std::find(names.begin(), names.end(), &n) == names.end()) return;
  std::set<std::string> seen{n.id};
  for (const ast::Name* other : names) {
    if (!seen.insert(other->id).second) continue;
    if (ev.scope().count(other->id) || f.maybe_unbound.count(other->id) ||
        f.module->globals.count(other->id) || is_python_builtin(other->id))
      continue;
    report_undefined(ev, *other);
  }
}

}  // namespace

Value Evaluator::eval_name(const ast::Name& n) {
  auto& local = scope();
  if (frame().is_module && frame().module->name == "__main__") main_globals_read_.insert(n.id);
  // A poisoned name (bound by a statement that failed) aborts silently: its error is already reported.
  if (auto it = local.find(n.id); it != local.end()) {
    if (it->second.value.kind() == Value::Kind::Undef) abort_entry();
    if (it->second.depth < frame().dyn_depth) frame().outer_reads[n.id] = ++frame().read_clock;
    return it->second.value;
  }
  if (auto mu = frame().maybe_unbound.find(n.id); mu != frame().maybe_unbound.end()) {
    auto& d = error(diag::Kind::PossiblyUnbound, n.range,
                    "'" + n.id + "' is assigned only on some run-time paths and may be unbound here");
    d.label(mu->second, "assigned here, inside run-time control flow");
    d.help("assign '" + n.id + "' before the if/loop so every path defines it");
    abort_entry();
  }
  // A class body defined in a function sees that function's names (Python's enclosing scope),
  // e.g. a @cute.struct's field sizes computed from `self` in the method that defines it.
  if (frame().class_body && frames_.size() >= 2) {
    const Frame& outer = *frames_[frames_.size() - 2];
    if (!outer.is_module && !outer.class_body)
      if (auto it = outer.env.find(n.id); it != outer.env.end() && it->second.value.kind() != Value::Kind::Undef) return it->second.value;
  }
  auto& globals = frame().module->globals;
  if (frame().module->name == "__main__") main_globals_read_.insert(n.id);
  if (auto it = globals.find(n.id); it != globals.end()) {
    if (it->second.value.kind() == Value::Kind::Undef) abort_entry();
    return it->second.value;
  }
  if (const BuiltinInfo* b = find_python_builtin(n.id)) return Value::make_builtin(b->id);
  report_undefined(*this, n);
  report_undefined_in_statement(*this, n);
  abort_entry();
}

namespace {

Value bound_method(BuiltinId id, const Value& self) { return Value::method(id, self); }

}  // namespace

std::optional<Value> Evaluator::find_attribute(const Value& base, const std::string& attr, source::SourceRange r,
                                               source::SourceRange attr_range) {
  // Methods come from the registry (builtins.def's TILESLC_METHOD rows).
  if (const BuiltinInfo* m = find_method(base.kind(), attr)) return bound_method(m->id, base);
  if (auto v = object_attribute(base, attr, attr_range)) return *v;
  switch (base.kind()) {
    case Value::Kind::Module: {
      if (is_opaque(base)) return opaque_attribute(base, attr);
      auto& g = base.module()->globals;
      if (auto it = g.find(attr); it != g.end()) return it->second.value;
      break;
    }
    case Value::Kind::Tensor: return tensor_attribute(base, attr, r);
    case Value::Kind::Type:
      if (attr == "width") return Value::integer(ir::bit_width(base.type()));
      break;
    case Value::Kind::Dyn:
      if (attr == "dtype") return Value::scalar_type(base.type());
      break;
    case Value::Kind::Layout:
      if (attr == "shape") return from_int_tuple(base.layout().shape, r);
      if (attr == "stride") return from_int_tuple(base.layout().stride, r);
      break;
    case Value::Kind::TensorSSA:
      if (attr == "shape") return from_int_tuple(base.layout().shape, r);
      if (attr == "dtype" || attr == "element_type") return Value::scalar_type(base.type());
      break;
    case Value::Kind::ComposedLayout: return composed_layout_attribute(*this, base, attr, r);
    case Value::Kind::TiledMma:
      // CuTe DSL's TiledMma.shape_mnk: its MMA atom's instruction shape (M, N, K).
      if (attr == "shape_mnk") {
        const MmaAtom& a = base.tiled_mma()->atom;
        return Value::tuple({Value::integer(a.m), Value::integer(a.n), Value::integer(a.k)});
      }
      break;
    case Value::Kind::TiledCopy:
      if (attr == "tiler_mn") return from_int_tuple(base.tiled_copy()->tiler, r);
      if (attr == "layout_tv_tiled") return Value::of(base.tiled_copy()->tv);
      break;
    case Value::Kind::Builtin:
      if (auto member = enum_member(base, attr)) return *member;  // utils.LayoutEnum.ROW_MAJOR
      // An exception's arguments (`except ValueError as e: e.args`).
      if (attr == "args" && base.self() && base.self()->kind() == Value::Kind::Tuple &&
          find_python_builtin(builtin_info(base.builtin()).name) == &builtin_info(base.builtin()))
        return *base.self();
      break;
    default: break;
  }
  return std::nullopt;
}

Value Evaluator::eval_attribute(const ast::Attribute& a) {
  Value base = eval(*a.value);
  if (auto v = find_attribute(base, a.attr, a.range, a.attr_range)) return *v;
  if (base.kind() == Value::Kind::Module) {
    auto& g = base.module()->globals;
    std::vector<std::string> candidates;
    for (const auto& [k, _] : g) candidates.push_back(k);
    auto& d = error(diag::Kind::NoSuchAttribute, a.attr_range,
                    "module '" + base.module()->name + "' has no attribute '" + a.attr + "'");
    std::string best = closest_name(a.attr, candidates);
    if (!best.empty()) d.help("did you mean '" + best + "'?");
    // A user's tileslc.tpy (or tileslc/ folder) beside the input is found before the stdlib, as in Python.
    const std::string& mod = base.module()->name;
    if ((mod == "tileslc" || mod.rfind("tileslc.", 0) == 0) && base.module()->file != source::kNoFile) {
      const std::string path = sm_.file(base.module()->file).path();
      if (path.rfind(opts_.stdlib_dir, 0) != 0)
        d.note("module '" + mod + "' was loaded from " + path + ", which hides tileslc's stdlib (" + opts_.stdlib_dir +
               "): rename that file");
    }
    abort_entry();
  }
  auto& d = error(diag::Kind::NoSuchAttribute, a.attr_range, describe(base) + " has no attribute '" + a.attr + "'");
  std::string best = closest_name(a.attr, method_names(base.kind()));
  if (!best.empty()) d.help("did you mean '" + best + "'?");
  abort_entry();
}

namespace {

void annotation_extents(Evaluator& ev, const Value& part, source::SourceRange at, TensorSpec& spec) {
  spec.has_dims = true;
  std::vector<Value> dims = part.kind() == Value::Kind::Tuple ? part.elts() : std::vector<Value>{part};
  for (auto& d : dims) {
    if (d.kind() != Value::Kind::Int && d.kind() != Value::Kind::SymDim)
      ev.fail(diag::Kind::BadAnnotation, at, "tensor extents must be integers or symbols from cute.sym_int, found " + describe(d));
    if (d.kind() == Value::Kind::Int && d.i() < 0)
      ev.fail(diag::Kind::BadAnnotation, at, "tensor extents must not be negative, found " + std::to_string(d.i()));
    spec.dims.push_back(std::make_shared<Value>(d));
  }
  if (spec.dims.size() > 8)  // TILESLC_MAX_RANK of the runtime's tensor views
    ev.fail(diag::Kind::BadAnnotation, at, "tensors have at most 8 modes, found " + std::to_string(spec.dims.size()));
}

void annotation_strides(Evaluator& ev, const Value& part, source::SourceRange at, TensorSpec& spec) {
  for (auto& d : part.elts()) {
    if (d.kind() != Value::Kind::Int && d.kind() != Value::Kind::SymDim && d.kind() != Value::Kind::None)
      ev.fail(diag::Kind::BadAnnotation, at,
              "tensor strides must be integers, symbols from cute.sym_int or None (any), found " + describe(d));
    spec.strides.push_back(std::make_shared<Value>(d));
  }
  if (spec.strides.size() != spec.dims.size())
    ev.fail(diag::Kind::BadAnnotation, at,
            "the stride pattern has " + std::to_string(spec.strides.size()) + " modes but the shape has " +
                std::to_string(spec.dims.size()));
}

void annotation_alignment(Evaluator& ev, const Value& part, source::SourceRange at, TensorSpec& spec) {
  if (part.kind() != Value::Kind::Int || part.i() <= 0 || (part.i() & (part.i() - 1)))
    ev.fail(diag::Kind::BadAnnotation, at, "tensor alignment must be a power of two in bytes");
  spec.align = part.i();
  if (spec.align * 8 < ir::bit_width(spec.dtype))
    ev.fail(diag::Kind::BadAnnotation, at,
            "an alignment of " + std::to_string(spec.align) + " bytes is below the " + std::to_string(ir::bit_width(spec.dtype) / 8) +
                "-byte size of a " + ir::type_name(spec.dtype) + " element");
}

/// cute.Tensor[dtype, (extents...)], optionally followed by (strides...) and align_bytes.
Value tensor_annotation(Evaluator& ev, const ast::Subscript& s) {
  Evaluator::KeepExtents keep(ev);
  ++ev.in_tensor_annotation_;
  Value idx;
  try {
    idx = ev.eval(*s.index);
  } catch (...) {
    --ev.in_tensor_annotation_;
    throw;
  }
  --ev.in_tensor_annotation_;
  std::vector<Value> parts = idx.kind() == Value::Kind::Tuple ? idx.elts() : std::vector<Value>{idx};
  auto spec = std::make_shared<TensorSpec>();
  if (parts.empty() || parts.size() > 4 || parts[0].kind() != Value::Kind::Type) {
    auto& d = ev.error(diag::Kind::BadAnnotation, s.index->range,
                       "expected cute.Tensor[dtype, (extents...)], optionally followed by (strides...) and align_bytes");
    // Python's float, int and bool have no width in a tensor: name the cutlass type that has.
    if (!parts.empty() && parts[0].kind() == Value::Kind::Builtin) {
      const BuiltinId id = parts[0].builtin();
      const char* cutlass_type = id == BuiltinId::Float ? "cutlass.Float32" : id == BuiltinId::Int ? "cutlass.Int32"
                                 : id == BuiltinId::Bool ? "cutlass.Boolean" : nullptr;
      if (cutlass_type)
        d.help(std::string("a tensor's element type is a cutlass type with a width: write ") + cutlass_type + " (or " +
               (id == BuiltinId::Float ? "Float16, BFloat16, Float64" : id == BuiltinId::Int ? "Int8, Int64, Uint32" : "Uint8") +
               ") instead of Python's " + (id == BuiltinId::Float ? "float" : id == BuiltinId::Int ? "int" : "bool"));
    }
    ev.abort_entry();
  }
  spec->has_dtype = true;
  spec->dtype = parts[0].type();
  if (parts.size() >= 2) annotation_extents(ev, parts[1], s.index->range, *spec);
  for (size_t k = 2; k < parts.size(); ++k) {
    if (parts[k].kind() == Value::Kind::Tuple && k == 2) annotation_strides(ev, parts[k], s.index->range, *spec);
    else annotation_alignment(ev, parts[k], s.index->range, *spec);
  }
  return Value::of(spec);
}

/// A static tuple or string indexed by a static integer or sliced (no step), as Python does.
Value index_sequence(Evaluator& ev, const Value& base, const Value& idx, const ast::Subscript& s) {
  int64_t n = base.kind() == Value::Kind::Tuple ? static_cast<int64_t>(base.elts().size()) : static_cast<int64_t>(base.s().size());
  if (idx.kind() == Value::Kind::Slice) {
    auto get = [&](const Value& v, int64_t dflt) {
      return v.kind() == Value::Kind::None ? dflt : ev.require_static_int(v, s.index->range, "a slice bound");
    };
    int64_t step = get(idx.elts()[2], 1);
    if (step != 1) ev.fail(diag::Kind::UnsupportedOperation, s.index->range, "tuple slices with a step are not supported");
    int64_t lo = get(idx.elts()[0], 0), hi = get(idx.elts()[1], n);
    if (lo < 0) lo += n;
    if (hi < 0) hi += n;
    lo = std::clamp<int64_t>(lo, 0, n);
    hi = std::clamp<int64_t>(hi, lo, n);
    if (base.kind() == Value::Kind::Str) return Value::str(base.s().substr(lo, hi - lo));
    return Value::tuple(std::vector<Value>(base.elts().begin() + lo, base.elts().begin() + hi));
  }
  int64_t i = ev.require_static_int(idx, s.index->range, "a tuple index");
  int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    ev.fail(diag::Kind::IndexOutOfRange, s.index->range,
            "index " + std::to_string(i) + " is out of range for " + describe(base) + " of length " + std::to_string(n));
  if (base.kind() == Value::Kind::Str) return Value::str(base.s().substr(j, 1));
  return base.elts()[j];
}

}  // namespace

Value Evaluator::eval_subscript(const ast::Subscript& s) {
  Value base = eval(*s.value);
  if (base.kind() == Value::Kind::Builtin && base.builtin() == BuiltinId::TensorType) return tensor_annotation(*this, s);
  if (base.kind() == Value::Kind::Builtin && base.builtin() == BuiltinId::ConstexprMarker) {
    return payload::ConstexprSpec{};
  }
  // typing.Optional[int], torch.Tensor[...]: opaque, like the base.
  if (is_opaque(base)) return opaque_attribute(base, "[]");
  Value idx = eval(*s.index);
  // cute.struct.MemRange[dtype, n], cute.struct.Align[field, bytes]: a @cute.struct field's type.
  if (base.kind() == Value::Kind::Builtin && base.self() && base.self()->kind() == Value::Kind::Builtin &&
      base.self()->builtin() == BuiltinId::Struct && (base.builtin() == BuiltinId::StructMemRange || base.builtin() == BuiltinId::StructAlign))
    return struct_field_type(*this, base, idx, s.range);
  if (base.kind() == Value::Kind::Tensor) return tensor_load(base, idx, s.range);
  if (base.kind() == Value::Kind::Tuple || base.kind() == Value::Kind::Str) return index_sequence(*this, base, idx, s);
  if (base.kind() == Value::Kind::Dict) {
    if (const Value* v = dict_find(base, idx, s.index->range)) return *v;
    fail(diag::Kind::IndexOutOfRange, s.index->range, "KeyError: " + format_value(idx, 'r', "", s.index->range) + " is not in the dict");
  }
  fail(diag::Kind::NotSubscriptable, s.value->range, describe(base) + " cannot be indexed");
}

namespace {

using B = ast::BinOpKind;

/// Tuple concatenation and repetition and string concatenation, which are static.
std::optional<Value> sequence_binop(Evaluator& ev, B op, const Value& l, const Value& r, source::SourceRange range) {
  if (l.kind() == Value::Kind::Tuple && r.kind() == Value::Kind::Tuple && op == B::Add) {
    if (l.elts().size() + r.elts().size() > (size_t{1} << 16))
      ev.fail(diag::Kind::EvaluationTooLarge, range, "static tuple of more than 65536 elements");
    auto xs = l.elts();
    xs.insert(xs.end(), r.elts().begin(), r.elts().end());
    return l.is_list() && r.is_list() ? Value::list(std::move(xs)) : Value::tuple(std::move(xs));
  }
  if (l.kind() == Value::Kind::Tuple && r.kind() == Value::Kind::Int && op == B::Mul) {
    if (r.i() > 0 && static_cast<int64_t>(l.elts().size()) * r.i() > (int64_t{1} << 16))
      ev.fail(diag::Kind::EvaluationTooLarge, range,
              "static tuple of " + std::to_string(static_cast<int64_t>(l.elts().size()) * r.i()) + " elements is over the limit of 65536");
    std::vector<Value> xs;
    for (int64_t k = 0; k < r.i(); ++k) xs.insert(xs.end(), l.elts().begin(), l.elts().end());
    return l.is_list() ? Value::list(std::move(xs)) : Value::tuple(std::move(xs));
  }
  if (l.kind() == Value::Kind::Str && r.kind() == Value::Kind::Str && op == B::Add) {
    check_static_string(ev, l.s().size() + r.s().size(), range, "string concatenation");
    return Value::str(l.s() + r.s());
  }
  return std::nullopt;
}

/// Python's int / int: the exact quotient rounded once to the nearest double. Converting a
/// and b first rounds twice when either is above 2^53 (-86137555509730812 / -294146751 came out
/// one ulp off). Dividing a scaled to 2^(55 + bitlen(b)) keeps >= 55 quotient bits; a
/// nonzero remainder sets the lowest (round to odd), so the one conversion to double rounds
/// as the exact quotient would. @pre b != 0
double py_int_truediv(int64_t a, int64_t b) {
  constexpr int64_t kExact = int64_t{1} << 53;
  if (a > -kExact && a < kExact && b > -kExact && b < kExact) return static_cast<double>(a) / static_cast<double>(b);
  const bool negative = (a < 0) != (b < 0);
  const unsigned __int128 n = a < 0 ? -static_cast<unsigned __int128>(a) : static_cast<unsigned __int128>(a);
  const unsigned __int128 d = b < 0 ? -static_cast<unsigned __int128>(b) : static_cast<unsigned __int128>(b);
  auto bitlen = [](unsigned __int128 x) { int k = 0; for (; x; x >>= 1) ++k; return k; };
  const int k = std::max(0, 55 - (bitlen(n) - bitlen(d)));  // bitlen(n << k) <= 55 + 64 fits 128 bits
  const unsigned __int128 scaled = n << k;
  unsigned __int128 q = scaled / d;
  if (scaled % d != 0) q |= 1;
  const double r = std::ldexp(static_cast<double>(static_cast<uint64_t>(q)), -k);  // q < 2^64: |a| / |b| <= 2^63
  return negative ? -r : r;
}

/// Static integer arithmetic with Python's semantics (E0511 on overflow); nullopt for `@`.
std::optional<Value> static_int_binop(Evaluator& ev, B op, int64_t a, int64_t b, source::SourceRange range) {
  int64_t out = 0;
  auto ovf = [&] { ev.fail(diag::Kind::IntegerOverflow, range, "static integer arithmetic overflows 64 bits"); };
  switch (op) {
    case B::Add: if (__builtin_add_overflow(a, b, &out)) ovf(); return Value::integer(out);
    case B::Sub: if (__builtin_sub_overflow(a, b, &out)) ovf(); return Value::integer(out);
    case B::Mul: if (__builtin_mul_overflow(a, b, &out)) ovf(); return Value::integer(out);
    case B::FloorDiv: case B::Mod:
      if (b == 0) ev.fail(diag::Kind::DivisionByZero, range, "integer division or modulo by zero");
      if (op == B::FloorDiv && a == std::numeric_limits<int64_t>::min() && b == -1) ovf();  // -INT64_MIN
      return Value::integer(op == B::FloorDiv ? py_floordiv(a, b) : py_mod(a, b));
    case B::Div:
      if (b == 0) ev.fail(diag::Kind::DivisionByZero, range, "division by zero");
      return Value::floating(py_int_truediv(a, b));
    case B::Pow: {
      if (b < 0) return Value::floating(std::pow(static_cast<double>(a), static_cast<double>(b)));
      int64_t acc = 1;
      for (int64_t k = 0; k < b; ++k)
        if (__builtin_mul_overflow(acc, a, &acc)) ovf();
      return Value::integer(acc);
    }
    case B::LShift:
      // Python: a negative count raises; otherwise a << b is a * 2**b, which must fit 64 bits
      // (3 << 62 overflowed silently to a negative number; -1 << 63 fits).
      if (b < 0) ev.fail(diag::Kind::IntegerOverflow, range, "negative shift count");
      if (a == 0) return Value::integer(0);
      if (b > 63 || a > (std::numeric_limits<int64_t>::max() >> b) || a < (std::numeric_limits<int64_t>::min() >> b)) ovf();
      return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(a) << b));
    case B::RShift:
      if (b < 0) ev.fail(diag::Kind::IntegerOverflow, range, "negative shift count");  // Python raises ValueError
      return Value::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
    case B::BitAnd: return Value::integer(a & b);
    case B::BitOr: return Value::integer(a | b);
    case B::BitXor: return Value::integer(a ^ b);
    case B::MatMul: break;
  }
  return std::nullopt;
}

/// Static float arithmetic with Python's semantics; nullopt for the operators floats do not have.
std::optional<Value> static_float_binop(Evaluator& ev, B op, double a, double b, source::SourceRange range) {
  switch (op) {
    case B::Add: return Value::floating(a + b);
    case B::Sub: return Value::floating(a - b);
    case B::Mul: return Value::floating(a * b);
    case B::Div:
      if (b == 0) ev.fail(diag::Kind::DivisionByZero, range, "float division by zero");
      return Value::floating(a / b);
    case B::FloorDiv:
      if (b == 0) ev.fail(diag::Kind::DivisionByZero, range, "float floor division by zero");
      return Value::floating(py_float_floordiv(a, b));
    case B::Mod:
      if (b == 0) ev.fail(diag::Kind::DivisionByZero, range, "float modulo by zero");
      return Value::floating(py_float_mod(a, b));
    case B::Pow: return Value::floating(std::pow(a, b));
    default: return std::nullopt;
  }
}

/// The IR operator of a run-time `op`; `t` becomes Float32 for true division and `**` of integers.
ir::Op dynamic_op(Evaluator& ev, B op, ScalarType& t, source::SourceRange op_r) {
  switch (op) {
    case B::Add: return ir::Op::Add;
    case B::Sub: return ir::Op::Sub;
    case B::Mul: return ir::Op::Mul;
    case B::Div:
      if (!ir::is_float(t)) t = ScalarType::Float32;  // true division
      return ir::Op::Div;
    case B::FloorDiv: return ir::Op::FloorDiv;
    case B::Mod: return ir::Op::Mod;
    case B::Pow:
      if (!ir::is_float(t)) t = ScalarType::Float32;
      return ir::Op::Pow;
    case B::LShift: return ir::Op::Shl;
    case B::RShift: return ir::Op::Shr;
    case B::BitAnd: return ir::Op::BitAnd;
    case B::BitOr: return ir::Op::BitOr;
    case B::BitXor: return ir::Op::BitXor;
    case B::MatMul:
      ev.fail(diag::Kind::UnsupportedOperation, op_r, "'@' is not defined on scalars; use cute.gemm for matrix products");
  }
  return ir::Op::None_;
}

/// E0513 for a static shift count that is negative or not below the width of `compute`.
void check_shift_count(Evaluator& ev, ir::Op irop, const Value& r, ScalarType compute, source::SourceRange range) {
  // A shift by a negative count or by the type's width or more has no defined result in C++
  // (PTX's shl/shr clamp it, C++ does not promise that) and is an error in Python (negative).
  if ((irop != ir::Op::Shl && irop != ir::Op::Shr) || r.kind() != Value::Kind::Int || (r.i() >= 0 && r.i() < ir::bit_width(compute)))
    return;
  auto& d = ev.error(diag::Kind::ShiftCountOutOfRange, r.origin().valid() ? r.origin() : range,
                     std::string(irop == ir::Op::Shl ? "left" : "right") + " shift by " + std::to_string(r.i()) + " of a value of type " +
                         ir::type_name(compute) + (r.i() < 0 ? ": the count is negative" : ": the count must be below its width of " +
                                                                                           std::to_string(ir::bit_width(compute)) + " bits"));
  const std::string op = irop == ir::Op::Shl ? " << " : " >> ";
  if (r.i() < 0) d.help("shift the other way by the positive count");
  else if (ir::bit_width(compute) < 64) d.help("widen the value first, e.g. cutlass.Int64(x)" + op + std::to_string(r.i()));
  else d.help(irop == ir::Op::Shl ? "every bit would be shifted out: the result is 0" : "the result is 0 (or -1 for a negative signed value)");
  ev.abort_entry();
}

/// x + 0, x - 0, x * 1, x // 1 and 0 + x, 1 * x on integers: the operand that is the result.
ir::ExprRef integer_identity(ir::Op irop, const ir::ExprRef& le, const ir::ExprRef& re) {
  auto lc = ir::as_int_const(le), rc = ir::as_int_const(re);
  if ((irop == ir::Op::Add || irop == ir::Op::Sub) && rc && *rc == 0) return le;
  if (irop == ir::Op::Add && lc && *lc == 0) return re;
  if ((irop == ir::Op::Mul || irop == ir::Op::FloorDiv) && rc && *rc == 1) return le;
  if (irop == ir::Op::Mul && lc && *lc == 1) return re;
  return nullptr;
}

}  // namespace

Value Evaluator::eval_binop(ast::BinOpKind op, Value l, Value r, source::SourceRange range, source::SourceRange op_r) {
  l = resolve_symbol(l, range);
  r = resolve_symbol(r, range);
  if (l.kind() == Value::Kind::TensorSSA || r.kind() == Value::Kind::TensorSSA)
    return ssa_map(l, &r, [&](const Value& a, const Value* b) { return eval_binop(op, a, *b, range, op_r); }, range);
  if (auto v = sequence_binop(*this, op, l, r, range)) return *v;
  bool lnum = l.is_scalar(), rnum = r.is_scalar();
  if (!lnum || !rnum) {
    auto& d = error(diag::Kind::TypeMismatch, op_r.valid() ? op_r : range,
                    std::string("unsupported operand types for ") + ast::spelling(op) + ": " + describe(l) + " and " + describe(r));
    if (l.kind() == Value::Kind::Tensor || r.kind() == Value::Kind::Tensor)
      d.help("index the tensor to operate on its elements, e.g. gA[i] + gB[i]");
    abort_entry();
  }
  if (!l.is_static() || !r.is_static()) return dynamic_binop(op, l, r, range, op_r);
  std::optional<Value> v;
  if (l.kind() == Value::Kind::Float || r.kind() == Value::Kind::Float)
    v = static_float_binop(*this, op, l.kind() == Value::Kind::Float ? l.f() : static_cast<double>(l.i()),
                           r.kind() == Value::Kind::Float ? r.f() : static_cast<double>(r.i()), range);
  else
    v = static_int_binop(*this, op, l.i(), r.i(), range);
  if (v) return *v;
  fail(diag::Kind::TypeMismatch, op_r.valid() ? op_r : range,
       std::string("unsupported operand types for ") + ast::spelling(op) + ": " + describe(l) + " and " + describe(r));
}

Value Evaluator::dynamic_binop(ast::BinOpKind op, const Value& l, const Value& r, source::SourceRange range, source::SourceRange op_r) {
  if (!fn_) fail(diag::Kind::NotStatic, range, "run-time values cannot be used at module level");
  ScalarType t = promote(l, r, range);
  ir::Op irop = dynamic_op(*this, op, t, op_r);
  bool bitwise = irop == ir::Op::Shl || irop == ir::Op::Shr || irop == ir::Op::BitAnd || irop == ir::Op::BitOr ||
                 irop == ir::Op::BitXor;
  if (bitwise && ir::is_float(t))
    fail(diag::Kind::TypeMismatch, op_r, std::string("bitwise operator ") + ast::spelling(op) +
                                             " needs integer operands, found " + describe(l) + " and " + describe(r));
  if (t == ScalarType::Boolean && !bitwise) t = ScalarType::Int32;
  // Narrow floats compute in Float32 and round back once.
  ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
  if (!bitwise && irop == ir::Op::Mod && !ir::is_float(compute) && r.kind() == Value::Kind::Int && r.i() == 0)
    fail(diag::Kind::DivisionByZero, range, "integer modulo by zero");
  if (!ir::is_float(compute) && (irop == ir::Op::FloorDiv) && r.kind() == Value::Kind::Int && r.i() == 0)
    fail(diag::Kind::DivisionByZero, range, "integer division by zero");
  check_shift_count(*this, irop, r, compute, range);
  auto le = to_expr_as(l, compute, range), re = to_expr_as(r, compute, range);
  // Integer identities keep index arithmetic readable.
  if (ir::is_integer(compute))
    if (auto same = integer_identity(irop, le, re)) return Value::dyn(ir::cast(same, t), range);
  // Non-negative operands: Python's // and % are C's / and %.
  if ((irop == ir::Op::FloorDiv || irop == ir::Op::Mod) && ir::is_integer(compute) && provably_nonneg(le)) {
    auto rc = ir::as_int_const(re);
    if (rc && *rc > 0) irop = irop == ir::Op::FloorDiv ? ir::Op::TruncDiv : ir::Op::TruncMod;
  }
  auto e = ir::binary(irop, le, re, compute);
  if (compute != t) e = ir::cast(e, t);
  return Value::dyn(e, origin_of(l, r, range));
}

Value Evaluator::eval_unary(ast::UnaryOpKind op, Value v, source::SourceRange r) {
  using U = ast::UnaryOpKind;
  v = resolve_symbol(v, r);
  if (v.kind() == Value::Kind::TensorSSA)
    return ssa_map(v, nullptr, [&](const Value& a, const Value*) { return eval_unary(op, a, r); }, r);
  if (op == U::Not) {
    if (v.is_static()) return Value::boolean(!truthy_static(v, r));
    return Value::dyn(ir::unary(ir::Op::LogicalNot, to_expr_as(v, ScalarType::Boolean, r), ScalarType::Boolean),
                      v.origin().valid() ? v.origin() : r);
  }
  if (v.is_static_int()) {
    if (op == U::Neg) {
      if (v.i() == std::numeric_limits<int64_t>::min()) fail(diag::Kind::IntegerOverflow, r, "static integer negation overflows");
      return Value::integer(-v.i());
    }
    if (op == U::Pos) return Value::integer(v.i());
    return Value::integer(~v.i());
  }
  if (v.kind() == Value::Kind::Float) {
    if (op == U::Invert) fail(diag::Kind::TypeMismatch, r, "bad operand type for unary ~: float");
    return Value::floating(op == U::Neg ? -v.f() : v.f());
  }
  if (v.kind() != Value::Kind::Dyn)
    fail(diag::Kind::TypeMismatch, r, std::string("bad operand type for unary ") + ast::spelling(op) + ": " + describe(v));
  if (op == U::Pos) return v;
  if (op == U::Invert) {
    if (ir::is_float(v.type())) fail(diag::Kind::TypeMismatch, r, "bad operand type for unary ~: " + describe(v));
    return Value::dyn(ir::unary(ir::Op::BitNot, v.expr(), v.type()), r);
  }
  ScalarType t = v.type() == ScalarType::Boolean ? ScalarType::Int32 : v.type();
  ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
  auto e = ir::unary(ir::Op::Neg, to_expr_as(v, compute, r), compute);
  return Value::dyn(ir::cast(e, t), r);
}

Value Evaluator::eval_compare(ast::CmpOpKind op, Value l, Value r, source::SourceRange range) {
  using C = ast::CmpOpKind;
  l = resolve_symbol(l, range);
  r = resolve_symbol(r, range);
  if (l.kind() == Value::Kind::TensorSSA || r.kind() == Value::Kind::TensorSSA)
    return ssa_map(l, &r, [&](const Value& a, const Value* b) { return eval_compare(op, a, *b, range); }, range);
  if (op == C::Is || op == C::IsNot) {
    // `x is None` is known while compiling for any x: a run-time value or tensor is never None.
    if ((l.kind() == Value::Kind::None) != (r.kind() == Value::Kind::None) &&
        (l.kind() == Value::Kind::None || r.kind() == Value::Kind::None))
      return Value::boolean(op == C::IsNot);
    if (!l.is_static() || !r.is_static())
      fail(diag::Kind::UnsupportedOperation, range, "'is' compares static values only");
    bool same = static_equal(l, r);
    return Value::boolean(op == C::Is ? same : !same);
  }
  if ((op == C::In || op == C::NotIn) && r.kind() == Value::Kind::Str && l.kind() == Value::Kind::Str)
    return Value::boolean((r.s().find(l.s()) != std::string::npos) == (op == C::In));
  if ((op == C::In || op == C::NotIn) && r.kind() == Value::Kind::Dict)
    return Value::boolean((dict_find(r, l, range) != nullptr) == (op == C::In));
  if (op == C::In || op == C::NotIn) {
    if (r.kind() != Value::Kind::Tuple && r.kind() != Value::Kind::Slice)
      fail(diag::Kind::UnsupportedOperation, range, "'in' needs a static tuple, list, dict or string on the right");
    bool found = false;
    for (const auto& x : iterate(r, range, "'in'")) found = found || static_equal(require_static(l, range, "the left operand of 'in'"), x);
    return Value::boolean(op == C::In ? found : !found);
  }
  if (l.is_static() && r.is_static()) {
    if ((op == C::Eq || op == C::NotEq) && !(l.is_number() && r.is_number())) {
      bool eq = static_equal(l, r);
      return Value::boolean(op == C::Eq ? eq : !eq);
    }
    if (!l.is_number() || !r.is_number())
      fail(diag::Kind::TypeMismatch, range, "cannot order " + describe(l) + " and " + describe(r));
    bool fl = l.kind() == Value::Kind::Float || r.kind() == Value::Kind::Float;
    double a = l.kind() == Value::Kind::Float ? l.f() : static_cast<double>(l.i());
    double b = r.kind() == Value::Kind::Float ? r.f() : static_cast<double>(r.i());
    auto cmp = [&](auto x, auto y) {
      switch (op) {
        case C::Eq: return x == y;
        case C::NotEq: return x != y;
        case C::Lt: return x < y;
        case C::LtE: return x <= y;
        case C::Gt: return x > y;
        default: return x >= y;
      }
    };
    return Value::boolean(fl ? cmp(a, b) : cmp(l.i(), r.i()));
  }
  if (!l.is_scalar() || !r.is_scalar())
    fail(diag::Kind::TypeMismatch, range, "cannot compare " + describe(l) + " and " + describe(r));
  ScalarType t = promote(l, r, range);
  if (ir::is_narrow_float(t)) t = ScalarType::Float32;
  if (t == ScalarType::Boolean && op != C::Eq && op != C::NotEq) t = ScalarType::Int32;
  ir::Op irop = op == C::Eq ? ir::Op::Eq : op == C::NotEq ? ir::Op::Ne : op == C::Lt ? ir::Op::Lt
              : op == C::LtE ? ir::Op::Le : op == C::Gt ? ir::Op::Gt : ir::Op::Ge;
  return Value::dyn(ir::binary(irop, to_expr_as(l, t, range), to_expr_as(r, t, range), ScalarType::Boolean),
                    origin_of(l, r, range));
}

Value Evaluator::eval_boolop(const ast::BoolOp& b) {
  // Python semantics for static operands (short-circuit, returns an operand);
  // once an operand is dynamic the rest combine as Boolean && / ||.
  bool is_and = b.op == ast::BoolOpKind::And;
  Value acc;
  bool have_dyn = false;
  ir::ExprRef dyn;
  for (size_t i = 0; i < b.values.size(); ++i) {
    Value v = eval(*b.values[i]);
    if (v.is_static() && !have_dyn) {
      bool t = truthy_static(v, b.values[i]->range);
      if (is_and ? !t : t) return v;
      acc = v;
      continue;
    }
    if (v.is_static()) {
      bool t = truthy_static(v, b.values[i]->range);
      if (is_and && !t) return Value::boolean(false);  // x and False
      if (!is_and && t) return Value::boolean(true);   // x or True
      continue;
    }
    auto e = to_expr_as(v, ScalarType::Boolean, b.values[i]->range);
    dyn = have_dyn ? ir::binary(is_and ? ir::Op::LogicalAnd : ir::Op::LogicalOr, dyn, e, ScalarType::Boolean) : e;
    have_dyn = true;
  }
  if (have_dyn) return Value::dyn(dyn, b.range);
  return acc;
}

Value Evaluator::eval_ifexp(const ast::IfExp& e) {
  Value c = eval(*e.test);
  if (c.is_static()) return truthy_static(c, e.test->range) ? eval(*e.body) : eval(*e.orelse);
  Value a = eval(*e.body);
  Value b = eval(*e.orelse);
  if (!a.is_scalar() || !b.is_scalar())
    fail(diag::Kind::TypeMismatch, e.range,
         "a run-time conditional expression needs numeric branches, found " + describe(a) + " and " + describe(b));
  ScalarType t = promote(a, b, e.range);
  return Value::dyn(ir::select(to_expr_as(c, ScalarType::Boolean, e.test->range), to_expr_as(a, t, e.body->range),
                               to_expr_as(b, t, e.orelse->range)), e.range);
}

}  // namespace tileslc::sema
