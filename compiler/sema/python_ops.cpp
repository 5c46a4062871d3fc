// Python's builtins and standard-library functions on static values, run
// while compiling as CuTe DSL runs them in the interpreter: enumerate, zip,
// all, any, sum, sorted, reversed, map, filter, list, tuple, set, dict,
// str, repr, getattr, hasattr, round, divmod, isinstance, the exception
// classes, Python's `math` (stdlib/math.tpy) and `functools`
// (stdlib/functools.tpy), and the methods of lists, dicts and strings.
// Semantics: the Python 3 library reference ("Built-in Functions", "math",
// "functools", "Built-in Types"). Results that Python returns as iterators
// (enumerate, zip, map, filter, reversed) are tuples here: the iterables are
// static, so they are consumed whole.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "sema/container_mutation.h"
#include "sema/evaluator.h"
#include "sema/registry.h"
#include "sema/static_limits.h"

namespace tileslc::sema {

namespace {

double as_double(const Value& v) { return v.kind() == Value::Kind::Float ? v.f() : static_cast<double>(v.i()); }

/// Python's ordering of two static values for sorted(): numbers, strings, tuples lexicographically.
bool static_less(Evaluator& ev, const Value& a, const Value& b, source::SourceRange r) {
  if (a.is_number() && b.is_number()) return as_double(a) < as_double(b);
  if (a.kind() == Value::Kind::Str && b.kind() == Value::Kind::Str) return a.s() < b.s();
  if (a.kind() == Value::Kind::Tuple && b.kind() == Value::Kind::Tuple) {
    const auto &x = a.elts(), &y = b.elts();
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (static_less(ev, x[i], y[i], r)) return true;
      if (static_less(ev, y[i], x[i], r)) return false;
    }
    return x.size() < y.size();
  }
  ev.fail(diag::Kind::TypeMismatch, r, "cannot order " + describe(a) + " and " + describe(b) + " while compiling");
}

/// A static number of a Python math function; a run-time value is E0501 pointing at cute.math.
double math_number(Evaluator& ev, BuiltinCall& c, size_t i) {
  Value v = c[i];
  if (v.kind() == Value::Kind::Dyn) {
    auto& d = ev.error(diag::Kind::NotStatic, c.range(i),
                       c.name() + "() runs while compiling, on static numbers; this argument is a " + describe(v));
    if (v.origin().valid() && (v.origin().begin != c.range(i).begin || v.origin().end != c.range(i).end))
      d.label(v.origin(), "known only at run time because of this");
    d.help("for run-time values use cute.math (cute.math.sqrt, cute.math.log2, ...), which compiles to device math");
    ev.abort_entry();
  }
  if (!v.is_number()) ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() needs a number, found " + describe(v));
  return as_double(v);
}

/// A float result converted to int as math.ceil/floor/trunc do (OverflowError/ValueError for inf/nan).
Value to_int(Evaluator& ev, BuiltinCall& c, double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    ev.fail(diag::Kind::IntegerOverflow, c.site.range, c.name() + "() of " + repr(Value::floating(x)) + " does not fit in 64 bits");
  return Value::integer(static_cast<int64_t>(x));
}

[[noreturn]] void math_domain_error(Evaluator& ev, BuiltinCall& c) {
  ev.fail(diag::Kind::StaticAssertFailed, c.site.range, "ValueError raised while compiling: math domain error in " + c.name() + "()");
}

}  // namespace

// ---- Python's math module

Value py_math(Evaluator& ev, BuiltinCall& c) {
  const BuiltinId id = c.id();
  if (id == BuiltinId::PyMathIsqrt) {
    int64_t n = ev.require_static_int(c[0], c.range(0), "math.isqrt's argument");
    if (n < 0) ev.fail(diag::Kind::StaticAssertFailed, c.range(0), "ValueError raised while compiling: isqrt() argument must be nonnegative");
    auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r > 0 && r > n / r) --r;              // r*r <= n without overflow
    while ((r + 1) <= n / (r + 1)) ++r;
    return Value::integer(r);
  }
  if ((id == BuiltinId::PyMathCeil || id == BuiltinId::PyMathFloor || id == BuiltinId::PyMathTrunc) &&
      c[0].is_static_int())
    return Value::integer(c[0].i());
  const double x = math_number(ev, c, 0);
  switch (id) {
    case BuiltinId::PyMathCeil: return to_int(ev, c, std::ceil(x));
    case BuiltinId::PyMathFloor: return to_int(ev, c, std::floor(x));
    case BuiltinId::PyMathTrunc: return to_int(ev, c, std::trunc(x));
    case BuiltinId::PyMathSqrt:
      if (x < 0) math_domain_error(ev, c);
      return Value::floating(std::sqrt(x));
    case BuiltinId::PyMathLog: {
      if (x <= 0) math_domain_error(ev, c);
      if (!c.has(1)) return Value::floating(std::log(x));
      double b = math_number(ev, c, 1);
      if (b <= 0 || b == 1) math_domain_error(ev, c);
      return Value::floating(std::log(x) / std::log(b));
    }
    case BuiltinId::PyMathLog2:
      if (x <= 0) math_domain_error(ev, c);
      return Value::floating(std::log2(x));
    case BuiltinId::PyMathLog10:
      if (x <= 0) math_domain_error(ev, c);
      return Value::floating(std::log10(x));
    case BuiltinId::PyMathExp: return Value::floating(std::exp(x));
    case BuiltinId::PyMathPow: return Value::floating(std::pow(x, math_number(ev, c, 1)));
    case BuiltinId::PyMathFabs: return Value::floating(std::fabs(x));
    case BuiltinId::PyMathCopysign: return Value::floating(std::copysign(x, math_number(ev, c, 1)));
    case BuiltinId::PyMathIsclose: {
      const double y = math_number(ev, c, 1), rel = math_number(ev, c, 2), abs_tol = math_number(ev, c, 3);
      if (x == y) return Value::boolean(true);
      if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
      const double diff = std::fabs(x - y);
      return Value::boolean(diff <= std::fabs(rel * y) || diff <= std::fabs(rel * x) || diff <= abs_tol);
    }
    default: break;
  }
  ev.fail(diag::Kind::UnsupportedOperation, c.site.range, c.name() + "() is not supported");
}

/// math.gcd(*integers), math.lcm(*integers).
Value py_math_gcd_lcm(Evaluator& ev, BuiltinCall& c) {
  const bool gcd = c.id() == BuiltinId::PyMathGcd;
  int64_t acc = gcd ? 0 : 1;
  for (size_t i = 0; i < c.rest.size(); ++i) {
    int64_t x = ev.require_static_int(c.rest[i], c.rest_ranges[i], c.name() + "'s argument");
    if (x == std::numeric_limits<int64_t>::min())
      ev.fail(diag::Kind::IntegerOverflow, c.rest_ranges[i], c.name() + "() of -2**63 overflows 64 bits");
    x = x < 0 ? -x : x;
    if (gcd) {
      acc = std::gcd(acc, x);
    } else {
      if (x == 0 || acc == 0) { acc = 0; continue; }
      int64_t g = std::gcd(acc, x), out = 0;
      if (__builtin_mul_overflow(acc / g, x, &out))
        ev.fail(diag::Kind::IntegerOverflow, c.site.range, "math.lcm() overflows 64 bits");
      acc = out;
    }
  }
  return Value::integer(acc);
}

/// math.prod(iterable, *, start=1): the product, computed as `*` computes it (so ints stay ints).
Value py_math_prod(Evaluator& ev, BuiltinCall& c) {
  Value acc = c[1];
  for (const auto& x : ev.iterate(c[0], c.range(0), "math.prod()"))
    acc = ev.eval_binop(ast::BinOpKind::Mul, acc, x, c.site.range, c.site.range);
  return acc;
}

// ---- functools

/// functools.partial(func, *args, **kwargs): a Builtin holding (func, args, kwargs); calling it
/// is Evaluator::call_value's.
Value py_partial(Evaluator&, BuiltinCall& c) {
  Value kw = Value::dict();
  for (const auto& [k, v] : c.extra) kw.dict_items().emplace_back(Value::str(k), v);
  return Value::method(BuiltinId::PyPartial, Value::tuple({c[0], Value::tuple(c.rest), kw}));
}

/// functools.reduce(function, iterable[, initial]).
Value py_reduce(Evaluator& ev, BuiltinCall& c) {
  if (c.rest.size() < 2 || c.rest.size() > 3)
    ev.fail(diag::Kind::WrongArity, c.site.range, "functools.reduce() takes 2 or 3 arguments, " + std::to_string(c.rest.size()) + " given");
  auto xs = ev.iterate(c.rest[1], c.rest_ranges[1], "functools.reduce()");
  size_t i = 0;
  Value acc;
  if (c.rest.size() == 3) acc = c.rest[2];
  else if (xs.empty()) ev.fail(diag::Kind::TypeMismatch, c.site.range, "reduce() of an empty iterable with no initial value");
  else acc = xs[i++];
  for (; i < xs.size(); ++i) acc = ev.call_value(c.rest[0], {acc, xs[i]}, {}, c.site);
  return acc;
}

/// @functools.lru_cache, @functools.cache, @functools.wraps(f) called as functions: the function unchanged
/// (lru_cache(maxsize=None) returns the decorator itself).
Value py_passthrough_decorator(Evaluator&, BuiltinCall& c) {
  if (c.id() != BuiltinId::PyWraps && c.rest.size() == 1 && c.rest[0].kind() == Value::Kind::Function) return c.rest[0];
  return Value::make_builtin(c.id() == BuiltinId::PyWraps ? BuiltinId::PyCache : c.id());
}

// ---- Python's builtins

Value py_enumerate(Evaluator& ev, BuiltinCall& c) {
  int64_t k = ev.require_static_int(c[1], c.range(1), "enumerate's start");
  std::vector<Value> out;
  for (auto& x : ev.iterate(c[0], c.range(0), "enumerate()")) out.push_back(Value::tuple({Value::integer(k++), x}));
  return Value::tuple(std::move(out));
}

Value py_zip(Evaluator& ev, BuiltinCall& c) {
  std::vector<std::vector<Value>> seqs;
  size_t n = c.rest.empty() ? 0 : SIZE_MAX;
  for (size_t i = 0; i < c.rest.size(); ++i) {
    seqs.push_back(ev.iterate(c.rest[i], c.rest_ranges[i], "zip()"));
    if (ev.truthy_static(c[0], c.range(0)) && i && seqs[i].size() != seqs[0].size())
      ev.fail(diag::Kind::StaticAssertFailed, c.rest_ranges[i],
              "ValueError raised while compiling: zip() argument " + std::to_string(i + 1) + " has length " +
                  std::to_string(seqs[i].size()) + ", argument 1 has length " + std::to_string(seqs[0].size()));
    n = std::min(n, seqs.back().size());
  }
  std::vector<Value> out;
  for (size_t k = 0; k < n; ++k) {
    std::vector<Value> row;
    for (auto& s : seqs) row.push_back(s[k]);
    out.push_back(Value::tuple(std::move(row)));
  }
  return Value::tuple(std::move(out));
}

/// all() and any(): static truth values; a run-time element is E0501 (write cutlass.const_expr, or a loop).
Value py_all_any(Evaluator& ev, BuiltinCall& c) {
  const bool all = c.id() == BuiltinId::PyAll;
  for (auto& x : ev.iterate(c[0], c.range(0), c.name() + "()")) {
    ev.require_static(x, c.range(0), "each element of " + c.name() + "()'s argument");
    if (ev.truthy_static(x, c.range(0)) != all) return Value::boolean(!all);
  }
  return Value::boolean(all);
}

/// sum(iterable, start=0): `+` over the elements, so run-time elements make a run-time sum.
Value py_sum(Evaluator& ev, BuiltinCall& c) {
  Value acc = c[1];
  for (auto& x : ev.iterate(c[0], c.range(0), "sum()")) acc = ev.eval_binop(ast::BinOpKind::Add, acc, x, c.site.range, c.site.range);
  return acc;
}

Value py_sorted(Evaluator& ev, BuiltinCall& c) {
  auto xs = ev.iterate(c[0], c.range(0), "sorted()");
  std::vector<std::pair<Value, Value>> keyed;
  for (auto& x : xs) {
    Value k = c.has(1) ? ev.call_value(c[1], {x}, {}, c.site) : x;
    keyed.emplace_back(ev.require_static(k, c.range(0), "a sort key"), x);
  }
  const bool reverse = ev.truthy_static(c[2], c.range(2));
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    return reverse ? static_less(ev, b.first, a.first, c.site.range) : static_less(ev, a.first, b.first, c.site.range);
  });
  std::vector<Value> out;
  for (auto& [k, x] : keyed) out.push_back(std::move(x));
  return Value::list(std::move(out));
}

Value py_reversed(Evaluator& ev, BuiltinCall& c) {
  auto xs = ev.iterate(c[0], c.range(0), "reversed()");
  std::reverse(xs.begin(), xs.end());
  return Value::tuple(std::move(xs));
}

Value py_map(Evaluator& ev, BuiltinCall& c) {
  if (c.rest.empty()) ev.fail(diag::Kind::WrongArity, c.site.range, "map() must have at least two arguments");
  std::vector<std::vector<Value>> seqs;
  size_t n = SIZE_MAX;
  for (size_t i = 0; i < c.rest.size(); ++i) {
    seqs.push_back(ev.iterate(c.rest[i], c.rest_ranges[i], "map()"));
    n = std::min(n, seqs.back().size());
  }
  std::vector<Value> out;
  for (size_t k = 0; k < n; ++k) {
    std::vector<Value> args;
    for (auto& s : seqs) args.push_back(s[k]);
    out.push_back(ev.call_value(c[0], std::move(args), {}, c.site));
  }
  return Value::tuple(std::move(out));
}

Value py_filter(Evaluator& ev, BuiltinCall& c) {
  std::vector<Value> out;
  for (auto& x : ev.iterate(c[1], c.range(1), "filter()")) {
    Value keep = c[0].kind() == Value::Kind::None ? x : ev.call_value(c[0], {x}, {}, c.site);
    ev.require_static(keep, c.site.range, "filter()'s condition");
    if (ev.truthy_static(keep, c.site.range)) out.push_back(x);
  }
  return Value::tuple(std::move(out));
}

/// list(), tuple() and set() of an optional iterable (a set is a tuple of distinct values here).
Value py_sequence(Evaluator& ev, BuiltinCall& c) {
  if (c.rest.size() > 1)
    ev.fail(diag::Kind::WrongArity, c.rest_ranges[1], c.name() + "() takes at most 1 argument, " + std::to_string(c.rest.size()) + " given");
  std::vector<Value> xs = c.rest.empty() ? std::vector<Value>{} : ev.iterate(c.rest[0], c.rest_ranges[0], c.name() + "()");
  if (c.id() == BuiltinId::PyList) return Value::list(std::move(xs));
  if (c.id() == BuiltinId::PySet) return ev.set_of(std::move(xs), c.site.range);
  return Value::tuple(std::move(xs));
}

Value py_dict(Evaluator& ev, BuiltinCall& c) {
  Value d = Value::dict();
  if (c.rest.size() > 1) ev.fail(diag::Kind::WrongArity, c.rest_ranges[1], "dict() takes at most 1 positional argument");
  if (!c.rest.empty()) {
    if (c.rest[0].kind() == Value::Kind::Dict) {
      for (const auto& [k, v] : c.rest[0].dict_items()) ev.dict_set(d, k, v, c.rest_ranges[0]);
    } else {
      for (auto& kv : ev.iterate(c.rest[0], c.rest_ranges[0], "dict()")) {
        auto pair = ev.iterate(kv, c.rest_ranges[0], "dict()'s item");
        if (pair.size() != 2)
          ev.fail(diag::Kind::WrongArity, c.rest_ranges[0], "dict() needs (key, value) pairs, found " + describe(kv));
        ev.dict_set(d, pair[0], pair[1], c.rest_ranges[0]);
      }
    }
  }
  for (const auto& [k, v] : c.extra) ev.dict_set(d, Value::str(k), v, c.site.range);
  return d;
}

/// str(x) and repr(x) as Python writes them (Evaluator::format_value).
Value py_str(Evaluator& ev, BuiltinCall& c) {
  if (c.id() == BuiltinId::PyRepr) return Value::str(ev.format_value(c[0], 'r', "", c.range(0)));
  if (c.rest.empty()) return Value::str("");
  if (c.rest.size() > 1) ev.fail(diag::Kind::WrongArity, c.rest_ranges[1], "str() takes 1 argument here (no encoding)");
  return Value::str(ev.format_value(c.rest[0], 's', "", c.rest_ranges[0]));
}

/// getattr(obj, name[, default]) and hasattr(obj, name) with a static name.
Value py_getattr(Evaluator& ev, BuiltinCall& c) {
  const bool has = c.id() == BuiltinId::PyHasattr;
  std::vector<Value> args = has ? std::vector<Value>{c[0], c[1]} : c.rest;
  auto at = [&](size_t i) { return has ? c.range(i) : arg_range_of(c.site, i); };
  if (!has && (args.size() < 2 || args.size() > 3))
    ev.fail(diag::Kind::WrongArity, c.site.range, "getattr() takes 2 or 3 arguments, " + std::to_string(args.size()) + " given");
  if (args[1].kind() != Value::Kind::Str)
    ev.fail(diag::Kind::TypeMismatch, at(1), c.name() + "()'s attribute name must be a string, found " + describe(args[1]));
  // A class or an instance answers whether it has the attribute (its MRO, then the instance's own
  // attributes) before it is read: reading a missing one is an error there, not nothing.
  const auto k = args[0].kind();
  const bool object = k == Value::Kind::Instance || k == Value::Kind::Class;
  std::optional<Value> v;
  if (!object || ev.object_has_attribute(args[0], args[1].s()) || (!has && args.size() == 2))
    v = ev.find_attribute(args[0], args[1].s(), c.site.range, at(1));
  if (has) return Value::boolean(v.has_value());
  if (v) return *v;
  if (args.size() == 3) return args[2];
  ev.fail(diag::Kind::NoSuchAttribute, at(1), describe(args[0]) + " has no attribute '" + args[1].s() + "'");
}

/// round(number, ndigits=None): halves to even, as Python; an int without ndigits, else the number's type.
Value py_round(Evaluator& ev, BuiltinCall& c) {
  Value x = ev.require_static(c[0], c.range(0), "round()'s argument");
  if (!x.is_number()) ev.fail(diag::Kind::TypeMismatch, c.range(0), "round() needs a number, found " + describe(x));
  if (x.kind() != Value::Kind::Float) {
    if (!c.has(1)) return Value::integer(x.i());
    int64_t nd = ev.require_static_int(c[1], c.range(1), "round()'s ndigits");
    if (nd >= 0) return Value::integer(x.i());
    int64_t p = 1;
    for (int64_t k = 0; k < -nd && p < (int64_t{1} << 60); ++k) p *= 10;
    double q = std::nearbyint(static_cast<double>(x.i()) / static_cast<double>(p));
    return Value::integer(static_cast<int64_t>(q) * p);
  }
  if (!c.has(1)) {
    double r = std::nearbyint(x.f());  // the default rounding mode: to nearest, ties to even
    if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
      ev.fail(diag::Kind::IntegerOverflow, c.site.range, "round() of " + repr(x) + " does not fit in 64 bits");
    return Value::integer(static_cast<int64_t>(r));
  }
  int64_t nd = ev.require_static_int(c[1], c.range(1), "round()'s ndigits");
  if (nd >= 0 && nd <= 300 && std::isfinite(x.f())) {
    // Python rounds the exact binary value in decimal (round(2.675, 2) == 2.67): printf does the same.
    std::vector<char> buf(400);
    std::snprintf(buf.data(), buf.size(), "%.*f", static_cast<int>(nd), x.f());
    return Value::floating(std::strtod(buf.data(), nullptr));
  }
  const double p = std::pow(10.0, static_cast<double>(nd));
  return Value::floating(std::nearbyint(x.f() * p) / p);
}

Value py_divmod(Evaluator& ev, BuiltinCall& c) {
  return Value::tuple({ev.eval_binop(ast::BinOpKind::FloorDiv, c[0], c[1], c.site.range, c.site.range),
                       ev.eval_binop(ast::BinOpKind::Mod, c[0], c[1], c.site.range, c.site.range)});
}

/// isinstance(obj, class_or_tuple) (Evaluator::isinstance_of: Python's types, tileslc's scalar types).
Value py_isinstance(Evaluator& ev, BuiltinCall& c) { return Value::boolean(ev.isinstance_of(c[0], c[1], c.range(1))); }

/// ValueError("message", ...): an exception instance, the class's row holding its arguments.
Value py_exception(Evaluator&, BuiltinCall& c) { return Value::method(c.id(), Value::tuple(c.rest)); }

// ---- methods of lists, tuples, dicts and strings

namespace {
/// The receiver of a method call `xs.append(x)` (for the name in a message), or the call itself.
const ast::Expr& receiver_expr(const BuiltinCall& c) {
  if (const auto* attr = c.site.func->as<ast::Attribute>()) return *attr->value;
  return *c.site.func;
}
}  // namespace

Value py_list_method(Evaluator& ev, BuiltinCall& c) {
  const Value& self = c.self();
  const BuiltinId id = c.id();
  if (id == BuiltinId::MethodSeqIndex || id == BuiltinId::MethodSeqCount) {
    int64_t count = 0;
    for (size_t i = 0; i < self.elts().size(); ++i) {
      if (!ev.static_equal(self.elts()[i], c[0])) continue;
      if (id == BuiltinId::MethodSeqIndex) return Value::integer(static_cast<int64_t>(i));
      ++count;
    }
    if (id == BuiltinId::MethodSeqCount) return Value::integer(count);
    ev.fail(diag::Kind::StaticAssertFailed, c.range(0), "ValueError raised while compiling: " + repr(c[0]) + " is not in the sequence");
  }
  if (!self.is_list())
    ev.fail(diag::Kind::NoSuchAttribute, c.site.func->range,
            "a tuple has no method '" + std::string(c.info.attribute()) + "': tuples are immutable (make a list with [...])");
  reject_outer_container_change(ev, self, receiver_expr(c), c.site.range, ("call " + std::string(c.info.attribute()) + " on").c_str());
  auto& items = self.list_items();
  switch (id) {
    case BuiltinId::MethodListAppend: items.push_back(c[0]); break;
    case BuiltinId::MethodListExtend:
      for (auto& x : ev.iterate(c[0], c.range(0), "list.extend()")) items.push_back(std::move(x));
      break;
    case BuiltinId::MethodListInsert: {
      const int64_t n = static_cast<int64_t>(items.size());
      int64_t i = ev.require_static_int(c[0], c.range(0), "list.insert's index");
      i = std::clamp<int64_t>(i < 0 ? i + n : i, 0, n);
      items.insert(items.begin() + i, c[1]);
      break;
    }
    case BuiltinId::MethodListPop: {
      const int64_t n = static_cast<int64_t>(items.size());
      int64_t i = ev.require_static_int(c[0], c.range(0), "list.pop's index");
      if (i < -n || i >= n)
        ev.fail(diag::Kind::IndexOutOfRange, c.site.range, "IndexError raised while compiling: pop index out of range");
      i = i < 0 ? i + n : i;
      Value v = items[static_cast<size_t>(i)];
      items.erase(items.begin() + i);
      return v;
    }
    default: break;
  }
  return Value::none();
}

Value py_dict_method(Evaluator& ev, BuiltinCall& c) {
  const Value& self = c.self();
  switch (c.id()) {
    case BuiltinId::MethodDictGet: {
      const Value* v = ev.dict_find(self, c[0], c.range(0));
      return v ? *v : c[1];
    }
    case BuiltinId::MethodDictSetdefault: {
      if (const Value* v = ev.dict_find(self, c[0], c.range(0))) return *v;
      reject_outer_container_change(ev, self, receiver_expr(c), c.site.range, "call setdefault on");
      ev.dict_set(self, c[0], c[1], c.range(0));
      return c[1];
    }
    case BuiltinId::MethodDictItems: case BuiltinId::MethodDictKeys: case BuiltinId::MethodDictValues: {
      std::vector<Value> out;
      for (const auto& [k, v] : self.dict_items())
        out.push_back(c.id() == BuiltinId::MethodDictItems ? Value::tuple({k, v}) : c.id() == BuiltinId::MethodDictKeys ? k : v);
      return Value::tuple(std::move(out));
    }
    case BuiltinId::MethodDictUpdate: {
      reject_outer_container_change(ev, self, receiver_expr(c), c.site.range, "call update on");
      Value other = Value::dict();
      if (!c.rest.empty()) {
        if (c.rest[0].kind() != Value::Kind::Dict)
          ev.fail(diag::Kind::TypeMismatch, c.rest_ranges[0], "dict.update() needs a dict, found " + describe(c.rest[0]));
        other = c.rest[0];
      }
      for (const auto& [k, v] : other.dict_items()) ev.dict_set(self, k, v, c.site.range);
      for (const auto& [k, v] : c.extra) ev.dict_set(self, Value::str(k), v, c.site.range);
      return Value::none();
    }
    default: break;
  }
  return Value::none();
}

Value py_str_method(Evaluator& ev, BuiltinCall& c) {
  const std::string& s = c.self().s();
  auto str_arg = [&](size_t i) -> const std::string& {
    if (c[i].kind() != Value::Kind::Str) ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() needs a string, found " + describe(c[i]));
    return c[i].s();
  };
  switch (c.id()) {
    case BuiltinId::MethodStrFormat: return Value::str(ev.format_template(s, c.rest, c.extra, c.site.range));
    case BuiltinId::MethodStrJoin: {
      std::string out;
      bool first = true;
      for (auto& x : ev.iterate(c[0], c.range(0), "str.join()")) {
        if (x.kind() != Value::Kind::Str) ev.fail(diag::Kind::TypeMismatch, c.range(0), "str.join() needs strings, found " + describe(x));
        check_static_string(ev, out.size() + s.size() + x.s().size(), c.site.range, "str.join()");
        out += (first ? "" : s) + x.s();
        first = false;
      }
      return Value::str(out);
    }
    case BuiltinId::MethodStrUpper: case BuiltinId::MethodStrLower: {
      std::string out = s;
      for (auto& ch : out) ch = static_cast<char>(c.id() == BuiltinId::MethodStrUpper ? ::toupper(ch) : ::tolower(ch));
      return Value::str(out);
    }
    case BuiltinId::MethodStrStartswith: return Value::boolean(s.rfind(str_arg(0), 0) == 0);
    case BuiltinId::MethodStrEndswith: {
      const std::string& t = str_arg(0);
      return Value::boolean(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
    }
    case BuiltinId::MethodStrReplace: {
      const std::string &from = str_arg(0), &to = str_arg(1);
      if (from.empty()) return Value::str(s);
      std::string out;
      for (size_t i = 0; i < s.size();) {
        if (s.compare(i, from.size(), from) == 0) out += to, i += from.size();
        else out += s[i++];
        check_static_string(ev, out.size(), c.site.range, "str.replace()");
      }
      return Value::str(out);
    }
    case BuiltinId::MethodStrSplit: {
      std::vector<Value> out;
      if (!c.has(0)) {
        size_t i = 0;
        while (i < s.size()) {
          while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
          size_t b = i;
          while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
          if (i > b) out.push_back(Value::str(s.substr(b, i - b)));
        }
      } else {
        const std::string& sep = str_arg(0);
        if (sep.empty()) ev.fail(diag::Kind::StaticAssertFailed, c.range(0), "ValueError raised while compiling: empty separator");
        size_t b = 0, e;
        while ((e = s.find(sep, b)) != std::string::npos) out.push_back(Value::str(s.substr(b, e - b))), b = e + sep.size();
        out.push_back(Value::str(s.substr(b)));
      }
      return Value::list(std::move(out));
    }
    case BuiltinId::MethodStrStrip: {
      size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
      return Value::str(b == std::string::npos ? "" : s.substr(b, e - b + 1));
    }
    default: break;
  }
  return Value::none();
}

}  // namespace tileslc::sema
