// The native builtins: Python's (range, len, min, max, abs, print, int,
// float, bool), tileslc's (range_constexpr, const_expr), tileslc.cute's
// (size, sym_int, printf, and the names that are annotations or decorators,
// not functions), tileslc.cute.arch's thread/block indices and barrier,
// tileslc.cute.math's functions and Kernel.launch. Their rows in builtins.def
// declare the parameters, so the handlers here check argument kinds and
// values only, and say which argument is wrong.
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>

#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// A cute.arch index triple; dimensions with a static extent in `statics` fold.
/// block_idx and grid_dim are Int64 so that block * block_dim + thread offsets
/// cannot wrap at 2^31 elements; thread indices and block sizes are bounded by
/// 1024 and stay Int32.
Value hw_triple(const char* base, const int64_t* statics, ScalarType t, source::SourceRange r) {
  std::vector<Value> xs;
  const char* dims[] = {".x", ".y", ".z"};
  for (int k = 0; k < 3; ++k) {
    if (statics && statics[k] > 0) xs.push_back(Value::integer(statics[k]));
    else xs.push_back(Value::dyn(ir::builtin_ref(std::string(base) + dims[k], t), r));
  }
  return Value::tuple(std::move(xs));
}

/// A C conversion of cute.printf's format: "%5.2f" is spec "%5.2", conv 'f';
/// the length modifier written (l, ll, h, ...) is dropped, because the
/// argument is converted to the type the conversion is given with.
struct CConversion {
  std::string spec;
  char conv;
  size_t end;  ///< index of the conversion character in the format
};

/// The conversion starting at fmt[i] == '%' (not "%%"), or nothing if it is not one printf reads.
std::optional<CConversion> parse_conversion(const std::string& fmt, size_t i) {
  size_t j = i + 1;
  while (j < fmt.size() && std::strchr("-+ #0123456789.", fmt[j])) ++j;
  size_t length = 0;
  while (j < fmt.size() && std::strchr("hlLzjt", fmt[j])) ++j, ++length;
  if (j >= fmt.size() || !std::strchr("diouxXeEfFgGaAc", fmt[j])) return std::nullopt;
  return CConversion{fmt.substr(i, j - i - length), fmt[j], j};
}

/// Appends a C conversion and its argument, converted to what the conversion reads.
void append_conversion(Evaluator& ev, std::vector<ir::ExprRef>& args, std::string& out, const CConversion& cv, const Value& v,
                       source::SourceRange r) {
  if (std::strchr("di", cv.conv)) {
    args.push_back(ev.to_expr_as(v, ScalarType::Int64, r));
    out += cv.spec + "ll" + cv.conv;
  } else if (std::strchr("ouxXc", cv.conv)) {
    args.push_back(ev.to_expr_as(v, cv.conv == 'c' ? ScalarType::Int32 : ScalarType::Uint64, r));
    out += cv.spec + (cv.conv == 'c' ? "" : "ll") + cv.conv;
  } else {
    args.push_back(ev.to_expr_as(v, ScalarType::Float64, r));
    out += cv.spec + cv.conv;
  }
}

/// Appends a "{}" placeholder: a string is pasted into the format (its '%'
/// doubled, so printf prints it rather than reading a conversion), a number
/// gets the conversion of its type (%g, %lld, %llu).
void append_placeholder(Evaluator& ev, std::vector<ir::ExprRef>& args, std::string& out, const Value& v, source::SourceRange r) {
  if (v.kind() == Value::Kind::Str) {
    for (char ch : v.s()) out += ch == '%' ? std::string("%%") : std::string(1, ch);
    return;
  }
  auto e = ev.to_expr(v, r);
  if (ir::is_float(e->type)) {
    e = ev.to_expr_as(v, ScalarType::Float64, r);
    out += "%g";
  } else if (ir::is_signed(e->type) || e->type == ScalarType::Boolean) {
    e = ir::cast(e, ScalarType::Int64);
    out += "%lld";
  } else {
    e = ir::cast(e, ScalarType::Uint64);
    out += "%llu";
  }
  args.push_back(e);
}

/// The static folds of cute.math's one-argument functions, and the intrinsic the IR calls.
struct MathFn {
  BuiltinId id;
  ir::Intrinsic fn;
  double (*fold)(double);
};

const MathFn kMathFns[] = {
    {BuiltinId::MathExp, ir::Intrinsic::Exp, [](double x) { return std::exp(x); }},
    {BuiltinId::MathExp2, ir::Intrinsic::Exp2, [](double x) { return std::exp2(x); }},
    {BuiltinId::MathLog, ir::Intrinsic::Log, [](double x) { return std::log(x); }},
    {BuiltinId::MathLog2, ir::Intrinsic::Log2, [](double x) { return std::log2(x); }},
    {BuiltinId::MathSqrt, ir::Intrinsic::Sqrt, [](double x) { return std::sqrt(x); }},
    {BuiltinId::MathRsqrt, ir::Intrinsic::Rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
    {BuiltinId::MathSin, ir::Intrinsic::Sin, [](double x) { return std::sin(x); }},
    {BuiltinId::MathCos, ir::Intrinsic::Cos, [](double x) { return std::cos(x); }},
    {BuiltinId::MathTanh, ir::Intrinsic::Tanh, [](double x) { return std::tanh(x); }},
    {BuiltinId::MathErf, ir::Intrinsic::Erf, [](double x) { return std::erf(x); }},
    {BuiltinId::MathFloor, ir::Intrinsic::Floor, [](double x) { return std::floor(x); }},
    {BuiltinId::MathCeil, ir::Intrinsic::Ceil, [](double x) { return std::ceil(x); }},
    {BuiltinId::MathFabs, ir::Intrinsic::Fabs, [](double x) { return std::fabs(x); }},
};

/// A cute.math function of numbers: folded when every argument is static
/// (`fold`, or fma's), else a call of `fn` computed in the arguments' promoted
/// float type (Float32 for integers; narrow floats compute in Float32).
Value math_apply(Evaluator& ev, BuiltinCall& c, ir::Intrinsic fn, double (*fold)(double), std::vector<Value> args) {
  bool all_static = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_scalar())
      ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() needs a number, found " + describe(args[i]));
    all_static = all_static && args[i].is_static();
  }
  auto as_double = [](const Value& v) { return v.kind() == Value::Kind::Float ? v.f() : static_cast<double>(v.i()); };
  if (all_static) {
    if (fold) return Value::floating(fold(as_double(args[0])));
    return Value::floating(std::fma(as_double(args[0]), as_double(args[1]), as_double(args[2])));
  }
  ScalarType t = ScalarType::Float32;
  bool first = true;
  for (const auto& a : args) {
    if (a.kind() != Value::Kind::Dyn) continue;
    ScalarType at = ir::is_float(a.type()) ? a.type() : ScalarType::Float32;
    if (first) t = at;
    else if (t != at) t = (ir::bit_width(t) == 64 || ir::bit_width(at) == 64) ? ScalarType::Float64 : ScalarType::Float32;
    first = false;
  }
  ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
  std::vector<ir::ExprRef> ops;
  for (size_t i = 0; i < args.size(); ++i) ops.push_back(ev.to_expr_as(args[i], compute, c.range(i)));
  return Value::dyn(ir::cast(ir::intrinsic(fn, {}, std::move(ops), compute), t), c.site.range);
}

}  // namespace

// ---- Python's builtins and tileslc's

/// range(stop), range(start, stop[, step]) and cutlass.range_constexpr(...):
/// Python's positional-only forms, so the row takes "*args" and the count is checked here.
std::array<Value, 3> range_bounds(Evaluator& ev, BuiltinCall& c) {
  const auto& args = c.rest;
  const size_t n = args.size();
  if (n < 1 || n > 3)
    ev.fail(diag::Kind::WrongArity, n > 3 ? c.rest_ranges[3] : c.site.range,
            c.name() + "() takes 1 to 3 arguments, " + std::to_string(n) + " given");
  // Symbolic extents arrive as their run-time values (Evaluator::eval resolves them where read).
  Value start = n >= 2 ? args[0] : Value::integer(0);
  Value stop = n >= 2 ? args[1] : args[0];
  Value step = n == 3 ? args[2] : Value::integer(1);
  return {start, stop, step};
}

Value core_range(Evaluator& ev, BuiltinCall& c) {
  if (c.id() == BuiltinId::Range && (c.given(0) || c.given(1))) {
    // CuTe DSL's range(n, unroll=, unroll_full=) in jit code: cutlass.range's (start, stop, step,
    // unroll), kept a range object so that comprehensions and list() iterate it as range(n).
    Value parts = compat_range(ev, c);
    return payload::Slice{std::make_shared<const std::vector<Value>>(parts.elts())};
  }
  auto [start, stop, step] = range_bounds(ev, c);
  const size_t n = c.rest.size();
  auto at = [&](size_t i) { return arg_range_of(c.site, i); };
  // A range object: (start, stop, step) as a Slice, which a run-time `for` loops over and
  // Evaluator::iterate expands while compiling (comprehensions, list(range(n)), module-level loops).
  if (c.id() == BuiltinId::Range)
    return payload::Slice{std::make_shared<const std::vector<Value>>(std::vector<Value>{start, stop, step})};
  if (c.id() != BuiltinId::RangeConstexpr) return Value::tuple({start, stop, step});  // cutlass.range: a run-time loop
  int64_t a = ev.require_static_int(start, at(0), "range_constexpr's start");
  int64_t b = ev.require_static_int(stop, at(n >= 2 ? 1 : 0), "range_constexpr's stop");
  int64_t s = ev.require_static_int(step, at(2), "range_constexpr's step");
  if (s == 0) ev.fail(diag::Kind::DivisionByZero, c.site.range, "range_constexpr() step must not be zero");
  int64_t count = s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / (-s) : 0);
  if (count > 4096)
    ev.fail(diag::Kind::UnrollTooLarge, c.site.range,
            "range_constexpr(...) has " + std::to_string(count) + " iterations, more than the unrolling limit of 4096");
  std::vector<Value> xs;
  for (int64_t k = 0; k < count; ++k) xs.push_back(Value::integer(a + k * s));
  return Value::tuple(std::move(xs));
}

Value core_const_expr(Evaluator& ev, BuiltinCall& c) {
  return ev.require_static(c[0], c.range(0), "the argument of const_expr");
}

Value core_len(Evaluator& ev, BuiltinCall& c) {
  const Value& x = c[0];
  if (x.kind() == Value::Kind::Tuple) return Value::integer(static_cast<int64_t>(x.elts().size()));
  if (x.kind() == Value::Kind::Str) return Value::integer(static_cast<int64_t>(x.s().size()));
  if (x.kind() == Value::Kind::Tensor) return Value::integer(static_cast<int64_t>(x.tensor()->layout.rank()));
  if (x.kind() == Value::Kind::Dict) return Value::integer(static_cast<int64_t>(x.dict_items().size()));
  if (x.kind() == Value::Kind::Slice) return Value::integer(static_cast<int64_t>(ev.iterate(x, c.range(0), "len()").size()));
  ev.fail(diag::Kind::TypeMismatch, c.range(0), "len() needs a tuple, list, dict or string, found " + describe(x));
}

/// min(a, b, ...) and max(a, b, ...), or of one tuple: static values fold, run-time ones become Min/Max.
Value core_min_max(Evaluator& ev, BuiltinCall& c) {
  const bool is_min = c.id() == BuiltinId::Min || c.id() == BuiltinId::CutlassMin;
  std::vector<Value> args = c.rest;
  auto at = [&](size_t i) { return arg_range_of(c.site, i); };
  if (args.size() == 1 && (args[0].kind() == Value::Kind::Tuple || args[0].kind() == Value::Kind::Dict ||
                           args[0].kind() == Value::Kind::Slice))
    args = ev.iterate(args[0], at(0), c.name() + "()");
  else if (args.size() == 1)  // Python: min(x) iterates x; a number is not iterable
    ev.fail(diag::Kind::TypeMismatch, at(0), c.name() + "() of one argument needs a tuple, found " + describe(args[0]));
  if (args.empty()) ev.fail(diag::Kind::WrongArity, c.site.range, c.name() + "() needs at least one argument");
  const auto r = c.site.range;
  Value acc = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    const Value& b = args[i];
    if (!acc.is_scalar() || !b.is_scalar())
      ev.fail(diag::Kind::TypeMismatch, r, c.name() + "() needs numbers");
    if (acc.is_static() && b.is_static()) {
      bool take_b = ev.eval_compare(is_min ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, b, acc, r).i() != 0;
      if (take_b) acc = b;
      continue;
    }
    ScalarType t = ev.promote(acc, b, r);
    ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
    auto e = ir::binary(is_min ? ir::Op::Min : ir::Op::Max, ev.to_expr_as(acc, compute, r), ev.to_expr_as(b, compute, r), compute);
    acc = Value::dyn(ir::cast(e, t), r);
  }
  return acc;
}

Value core_abs(Evaluator& ev, BuiltinCall& c) {
  Value v = c[0];
  if (v.kind() == Value::Kind::Int) {
    if (v.i() == std::numeric_limits<int64_t>::min())
      ev.fail(diag::Kind::IntegerOverflow, c.site.range, "abs() of -2**63 overflows 64 bits");
    return Value::integer(v.i() < 0 ? -v.i() : v.i());
  }
  if (v.kind() == Value::Kind::Float) return Value::floating(std::fabs(v.f()));
  if (v.kind() != Value::Kind::Dyn) ev.fail(diag::Kind::TypeMismatch, c.range(0), "abs() needs a number, found " + describe(v));
  ScalarType compute = ir::is_narrow_float(v.type()) ? ScalarType::Float32 : v.type();
  const ir::Intrinsic fn = ir::is_float(compute) ? ir::Intrinsic::Fabs : ir::Intrinsic::Abs;
  return Value::dyn(ir::cast(ir::intrinsic(fn, {}, {ev.to_expr_as(v, compute, c.site.range)}, compute), v.type()),
                    c.site.range);
}

/// print(*args, sep=None, end=None), while compiling; None is Python's default (" " and a newline).
Value core_print(Evaluator& ev, BuiltinCall& c) {
  auto text = [&](size_t i, const char* fallback) {
    if (!c.has(i)) return std::string(fallback);
    if (c[i].kind() != Value::Kind::Str)
      ev.fail(diag::Kind::TypeMismatch, c.range(i), "print()'s " + c.info.params[i].name + " must be None or a string, found " + describe(c[i]));
    return c[i].s();
  };
  const std::string sep = text(0, " "), end = text(1, "\n");
  std::string out;
  for (size_t i = 0; i < c.rest.size(); ++i) {
    out += i ? sep : "";
    // print() writes str(x): a string as itself, an exception as its message; other values as repr() does.
    const Value& x = c.rest[i];
    const bool exception = x.kind() == Value::Kind::Builtin && x.self() && is_exception_class(x.builtin());
    out += x.kind() == Value::Kind::Str ? x.s() : exception ? ev.format_value(x, 's', "", c.rest_ranges[i]) : repr(x);
  }
  std::cout << out << end;
  return Value::none();
}

/// int(x), float(x) and bool(x): static numbers convert while compiling, run-time ones to Int32, Float32, Boolean.
Value core_convert(Evaluator& ev, BuiltinCall& c) {
  const BuiltinId id = c.id();
  Value v = c[0];
  if (v.kind() == Value::Kind::Dyn) {
    ScalarType t = id == BuiltinId::Int ? ScalarType::Int32 : id == BuiltinId::Float ? ScalarType::Float32 : ScalarType::Boolean;
    if (id == BuiltinId::Int && ir::is_integer(v.type())) return v;
    return Value::dyn(ev.to_expr_as(v, t, c.site.range), c.site.range);
  }
  if (!v.is_number()) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() needs a number, found " + describe(v));
  double d = v.kind() == Value::Kind::Float ? v.f() : static_cast<double>(v.i());
  if (id == BuiltinId::Int && v.kind() == Value::Kind::Float) {
    // [-2**63, 2**63): the doubles whose truncation is a 64-bit integer (NaN is none).
    if (!(v.f() >= -9223372036854775808.0 && v.f() < 9223372036854775808.0))
      ev.fail(diag::Kind::IntegerOverflow, c.site.range, "int() of " + repr(v) + " does not fit in 64 bits");
    return Value::integer(static_cast<int64_t>(std::trunc(v.f())));
  }
  if (id == BuiltinId::Int) return Value::integer(v.i());
  if (id == BuiltinId::Float) return Value::floating(d);
  return Value::boolean(d != 0);
}

/// Names that are not functions (annotations, decorators) or not supported
/// yet: their rows take anything, so the call gets this message, not an arity error.
Value core_not_callable(Evaluator& ev, BuiltinCall& c) {
  const auto r = c.site.range;
  switch (c.id()) {
    case BuiltinId::TensorType:
      ev.fail(diag::Kind::NotCallable, r, "cute.Tensor is a type for annotations: cute.Tensor[cutlass.Float32, (N,)]");
    case BuiltinId::ConstexprMarker:
      ev.fail(diag::Kind::NotCallable, r, "cutlass.Constexpr is an annotation for parameters, not a function");
    default:  // cute.kernel, cute.jit
      ev.fail(diag::Kind::NotCallable, r, "cute.kernel and cute.jit are decorators; write @cute.kernel above a def");
  }
}

// ---- tileslc.cute: sizes, symbols, printf

/// cute.size(a, mode=[]): mode=[i] is one mode; mode=[i, j] is mode j of mode i (CuTe's size<i, j>).
Value core_size(Evaluator& ev, BuiltinCall& c) {
  const Value& x = c[0];
  const Value& m = c[1];
  const auto mode_at = c.range(1);
  std::vector<int64_t> path;
  for (const auto& e : m.kind() == Value::Kind::Tuple ? m.elts() : std::vector<Value>{m})
    path.push_back(ev.require_static_int(e, mode_at, "cute.size's mode"));
  if (x.kind() == Value::Kind::Layout || x.kind() == Value::Kind::Tensor || x.kind() == Value::Kind::TensorSSA) {
    layout::Layout l = x.kind() == Value::Kind::Tensor ? x.tensor()->layout : x.layout();
    for (int64_t k : path) {
      if (k < 0 || static_cast<size_t>(k) >= l.rank())
        ev.fail(diag::Kind::IndexOutOfRange, mode_at, "mode " + std::to_string(k) + " is out of range for " + l.to_string());
      l = layout::get(l, static_cast<size_t>(k));
    }
    return ev.int_value(layout::size(l), c.site.range);
  }
  if (x.kind() == Value::Kind::TiledCopy) {
    if (!path.empty()) ev.fail(diag::Kind::UnknownKeyword, mode_at, c.name() + "() of a tiled copy takes no mode");
    return Value::integer(layout::size(layout::get(x.tiled_copy()->tv, 0)).require_value("thread count"));
  }
  if (x.kind() == Value::Kind::Tuple) {
    std::vector<Value> xs = x.elts();
    for (int64_t k : path) {  // mode=[i, j]: mode j of mode i, as for layouts
      if (k < 0 || k >= static_cast<int64_t>(xs.size()))
        ev.fail(diag::Kind::IndexOutOfRange, mode_at, "mode " + std::to_string(k) + " is out of range for " + repr(Value::tuple(xs)));
      Value sub = xs[static_cast<size_t>(k)];
      xs = sub.kind() == Value::Kind::Tuple ? sub.elts() : std::vector<Value>{sub};
    }
    Value acc = Value::integer(1);
    std::function<void(const Value&)> mul = [&](const Value& v) {
      if (v.kind() == Value::Kind::Tuple) for (const auto& e : v.elts()) mul(e);
      else acc = ev.eval_binop(ast::BinOpKind::Mul, acc, v, c.site.range, c.site.range);
    };
    for (const auto& e : xs) mul(e);
    return acc;
  }
  if (x.kind() == Value::Kind::Int || x.kind() == Value::Kind::Dyn) return x;
  ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() needs a tensor, shape or integer, found " + describe(x));
}

/// cute.sym_int(name, *, divisibility=None): a run-time extent, known to be a multiple of `divisibility`.
Value core_sym_int(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Str)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes the symbol's name as a string");
  payload::SymDim sym{c[0].s()};
  if (c.given(1)) {
    sym.divisibility = ev.require_static_int(c[1], c.range(1), "divisibility");
    if (sym.divisibility < 1)
      ev.fail(diag::Kind::BadLayoutArgument, c.range(1), "divisibility must be at least 1, found " + std::to_string(sym.divisibility));
  }
  return sym;
}

/// cute.printf(fmt, *args): "{}" placeholders (CuTe DSL style) become printf
/// conversions by type; C conversions (%d, %f, %lld, ...) are kept and their
/// arguments converted to what the conversion reads.
Value core_printf(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Str) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a format string first");
  const std::string& fmt = c[0].s();
  const auto r = c.site.range;
  std::vector<ir::ExprRef> args;
  std::string out;
  size_t next = 0;
  auto take = [&]() {
    if (next >= c.rest.size()) ev.fail(diag::Kind::WrongArity, r, c.name() + "() has more placeholders than arguments");
    return c.rest[next++];
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt.compare(i, 2, "%%") == 0) {
      out += "%%";
      ++i;
    } else if (fmt[i] == '%') {
      auto cv = parse_conversion(fmt, i);
      if (!cv) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "(): unsupported conversion in '" + fmt + "'");
      Value v = take();
      if (!v.is_scalar())
        ev.fail(diag::Kind::TypeMismatch, r, c.name() + "() can print numbers only, found " + describe(v));
      append_conversion(ev, args, out, *cv, v, r);
      i = cv->end;
    } else if (fmt.compare(i, 2, "{}") == 0) {
      append_placeholder(ev, args, out, take(), r);
      ++i;
    } else {
      out += fmt[i];
    }
  }
  if (next != c.rest.size()) ev.fail(diag::Kind::WrongArity, r, c.name() + "() has more arguments than placeholders");
  ev.emit(ir::device_printf(r, out, std::move(args)));
  return Value::none();
}

// ---- tileslc.cute.arch: indices and the CTA barrier (the rows say: kernels only)

Value core_index(Evaluator& ev, BuiltinCall& c) {
  const auto r = c.site.range;
  switch (c.id()) {
    case BuiltinId::ThreadIdx: return hw_triple("threadIdx", nullptr, ScalarType::Int32, r);
    case BuiltinId::BlockIdx: return hw_triple("blockIdx", nullptr, ScalarType::Int64, r);
    case BuiltinId::BlockDim: return hw_triple("blockDim", ev.fn_->static_block, ScalarType::Int32, r);
    case BuiltinId::GridDim: return hw_triple("gridDim", nullptr, ScalarType::Int64, r);
    case BuiltinId::LaneIdx: return Value::dyn(ir::intrinsic(ir::Intrinsic::LaneIdx, {}, {}, ScalarType::Int32), r);
    default: return Value::dyn(ir::intrinsic(ir::Intrinsic::WarpIdx, {}, {}, ScalarType::Int32), r);  // WarpIdx
  }
}

Value core_sync_threads(Evaluator& ev, BuiltinCall& c) {
  ev.emit(ir::sync_threads(c.site.range));
  return Value::none();
}

// ---- tileslc.cute.math

/// fastmath=True (CuTe DSL's flag: approximations allowed) on a run-time Float32 (or narrower)
/// value: exp2 and log2 become PTX's ex2 / lg2.approx.ftz.f32, exp(x) ex2(x log2 e) and log(x)
/// lg2(x) ln 2 (what CUDA's __expf and __logf compute). Null where the flag changes nothing: the
/// other functions, Float64, static values (folded exactly), host code (no such instructions).
ir::ExprRef fast_math(Evaluator& ev, BuiltinCall& c, const Value& x) {
  const BuiltinId id = c.id();
  if (!ev.fn_ || !ev.fn_->is_kernel) return nullptr;
  if (id != BuiltinId::MathExp && id != BuiltinId::MathExp2 && id != BuiltinId::MathLog && id != BuiltinId::MathLog2) return nullptr;
  if (x.kind() != Value::Kind::Dyn || (ir::is_float(x.type()) && ir::bit_width(x.type()) == 64)) return nullptr;
  const ScalarType f32 = ScalarType::Float32;
  ir::ExprRef arg = ev.to_expr_as(x, f32, c.range(0));
  const bool exp = id == BuiltinId::MathExp || id == BuiltinId::MathExp2;
  if (id == BuiltinId::MathExp) arg = ir::binary(ir::Op::Mul, arg, ir::float_const(1.4426950408889634, f32), f32);
  ir::ExprRef y = ir::intrinsic(exp ? ir::Intrinsic::Exp2ApproxFtz : ir::Intrinsic::Log2ApproxFtz, {}, {arg}, f32);
  if (id == BuiltinId::MathLog) y = ir::binary(ir::Op::Mul, y, ir::float_const(0.6931471805599453, f32), f32);
  return ir::is_float(x.type()) && x.type() != f32 ? ir::cast(y, x.type()) : y;
}

Value core_math(Evaluator& ev, BuiltinCall& c) {
  const MathFn* f = nullptr;
  for (const auto& m : kMathFns)
    if (m.id == c.id()) f = &m;
  bool fast = false;
  if (c.given(1)) {
    const Value& flag = ev.require_static(c[1], c.range(1), c.name() + "'s fastmath=");
    if (flag.kind() != Value::Kind::Bool)
      ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "'s fastmath= must be True or False, found " + describe(flag));
    fast = flag.i() != 0;
  }
  auto apply = [&](const Value& x) {
    if (fast)
      if (ir::ExprRef y = fast_math(ev, c, x)) return Value::dyn(y, c.site.range);
    return math_apply(ev, c, f->fn, f->fold, {x});
  };
  if (c[0].kind() == Value::Kind::TensorSSA)
    return ev.ssa_map(c[0], nullptr, [&](const Value& x, const Value*) { return apply(x); }, c.site.range);
  return apply(c[0]);
}

Value core_fma(Evaluator& ev, BuiltinCall& c) {
  return math_apply(ev, c, ir::Intrinsic::Fma, nullptr, {c[0], c[1], c[2]});
}

// ---- Kernel.launch

/// launch() (entry.cpp) checks the keywords itself: a missing grid= or block=
/// says what to write, and an unknown one (the row's **kwargs) is reported
/// without stopping, so the kernel is still checked. It reads them in the
/// order they are written.
Value core_launch(Evaluator& ev, BuiltinCall& c) {
  const auto& params = c.info.params;
  // The keywords given, written or unpacked from a dict (`.launch(**config)`).
  Kwargs kwargs;
  for (size_t i = 0; i < params.size(); ++i)
    if (c.given(i)) kwargs.emplace_back(params[i].name, c[i]);
  for (const auto& [name, v] : c.extra) kwargs.emplace_back(name, v);
  ev.launch(*c.self().kcall(), std::move(kwargs), c.site);
  return Value::none();
}

}  // namespace tileslc::sema
