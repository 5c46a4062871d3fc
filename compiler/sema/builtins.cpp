// The native builtins: Python's (range, len, min, max, abs, print, int,
// float, bool), tileslc's (range_constexpr, const_expr), tileslc.cute's
// (size, sym_int, printf), tileslc.cute.arch's thread/block indices and
// barriers, and tileslc.cute.math's functions. Each checks its arity and
// argument kinds and says which one is wrong.
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

const char* builtin_name(BuiltinId id) {
  switch (id) {
    case BuiltinId::Range: return "range";
    case BuiltinId::Len: return "len";
    case BuiltinId::Min: return "min";
    case BuiltinId::Max: return "max";
    case BuiltinId::Abs: return "abs";
    case BuiltinId::Print: return "print";
    case BuiltinId::Int: return "int";
    case BuiltinId::Float: return "float";
    case BuiltinId::Bool: return "bool";
    case BuiltinId::RangeConstexpr: return "range_constexpr";
    case BuiltinId::ConstExpr: return "const_expr";
    case BuiltinId::Size: return "cute.size";
    case BuiltinId::SymInt: return "cute.sym_int";
    case BuiltinId::Printf: return "cute.printf";
    case BuiltinId::MathExp: return "cute.math.exp";
    case BuiltinId::MathFma: return "cute.math.fma";
    default: return "builtin";
  }
}

}  // namespace

Value Evaluator::math_call(BuiltinId id, std::vector<Value>& args, const ast::Call& site) {
  struct Row { BuiltinId id; const char* fn; int arity; double (*fold)(double); };
  static const Row rows[] = {
      {BuiltinId::MathExp, "exp", 1, [](double x) { return std::exp(x); }},
      {BuiltinId::MathExp2, "exp2", 1, [](double x) { return std::exp2(x); }},
      {BuiltinId::MathLog, "log", 1, [](double x) { return std::log(x); }},
      {BuiltinId::MathLog2, "log2", 1, [](double x) { return std::log2(x); }},
      {BuiltinId::MathSqrt, "sqrt", 1, [](double x) { return std::sqrt(x); }},
      {BuiltinId::MathRsqrt, "rsqrt", 1, [](double x) { return 1.0 / std::sqrt(x); }},
      {BuiltinId::MathSin, "sin", 1, [](double x) { return std::sin(x); }},
      {BuiltinId::MathCos, "cos", 1, [](double x) { return std::cos(x); }},
      {BuiltinId::MathTanh, "tanh", 1, [](double x) { return std::tanh(x); }},
      {BuiltinId::MathErf, "erf", 1, [](double x) { return std::erf(x); }},
      {BuiltinId::MathFloor, "floor", 1, [](double x) { return std::floor(x); }},
      {BuiltinId::MathCeil, "ceil", 1, [](double x) { return std::ceil(x); }},
      {BuiltinId::MathFabs, "fabs", 1, [](double x) { return std::fabs(x); }},
      {BuiltinId::MathFma, "fma", 3, nullptr},
  };
  const Row* row = nullptr;
  for (const auto& r : rows)
    if (r.id == id) row = &r;
  if (args.size() == 1 && args[0].kind == Value::Kind::TensorSSA)
    return ssa_map(args[0], nullptr, [&](const Value& x, const Value*) {
      std::vector<Value> one{x};
      return math_call(id, one, site);
    }, site.range);
  std::string name = std::string("cute.math.") + row->fn;
  if (static_cast<int>(args.size()) != row->arity)
    fail(diag::Kind::WrongArity, site.range,
         name + "() takes " + std::to_string(row->arity) + " argument" + (row->arity == 1 ? "" : "s") + ", " +
             std::to_string(args.size()) + " given");
  bool all_static = true;
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = resolve_symbol(args[i], site.args[i]->range);
    if (!(args[i].is_number() || args[i].kind == Value::Kind::Dyn))
      fail(diag::Kind::TypeMismatch, site.args[i]->range, name + "() needs a number, found " + describe(args[i]));
    all_static = all_static && args[i].is_static();
  }
  auto as_double = [](const Value& v) { return v.kind == Value::Kind::Float ? v.f : static_cast<double>(v.i); };
  if (all_static) {
    if (row->arity == 1) return Value::floating(row->fold(as_double(args[0])));
    return Value::floating(std::fma(as_double(args[0]), as_double(args[1]), as_double(args[2])));
  }
  // The result type: the promoted float type of the arguments (integers give Float32).
  ScalarType t = ScalarType::Float32;
  bool first = true;
  for (const auto& a : args) {
    if (a.kind != Value::Kind::Dyn) continue;
    ScalarType at = ir::is_float(a.type) ? a.type : ScalarType::Float32;
    if (first) t = at;
    else if (t != at) t = (ir::bit_width(t) == 64 || ir::bit_width(at) == 64) ? ScalarType::Float64 : ScalarType::Float32;
    first = false;
  }
  ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
  std::vector<ir::ExprRef> ops;
  for (size_t i = 0; i < args.size(); ++i) ops.push_back(to_expr_as(args[i], compute, site.args[i]->range));
  return Value::dyn(ir::cast(ir::call(row->fn, std::move(ops), compute), t), site.range);
}

Value Evaluator::call_core_builtin(const Value& callee, std::vector<Value>& args,
                                   std::vector<std::pair<std::string, Value>>& kwargs, const ast::Call& site) {
  BuiltinId id = callee.builtin;
  auto arg_range = [&](size_t i) { return i < site.args.size() ? site.args[i]->range : site.range; };
  auto no_kwargs = [&] {
    if (!kwargs.empty())
      fail(diag::Kind::UnknownKeyword, site.range,
           std::string(builtin_name(id)) + "() got an unexpected keyword argument '" + kwargs[0].first + "'");
  };
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi) {
      std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      fail(diag::Kind::WrongArity, site.range,
           std::string(builtin_name(id)) + "() takes " + want + " argument" + (hi == 1 && lo == 1 ? "" : "s") + ", " +
               std::to_string(args.size()) + " given");
    }
  };
  auto need_kernel = [&](const char* what) {
    if (!fn_ || !fn_->is_kernel)
      fail(diag::Kind::UnsupportedOperation, site.range, std::string(what) + " is only available inside a @cute.kernel");
  };
  // block_idx and grid_dim are Int64 so that block * block_dim + thread
  // offsets cannot wrap at 2^31 elements; thread indices and block sizes are
  // bounded by 1024 and stay Int32.
  auto hw_triple = [&](const char* base, const int64_t* statics, ScalarType t) {
    std::vector<Value> xs;
    const char* dims[] = {".x", ".y", ".z"};
    for (int k = 0; k < 3; ++k) {
      if (statics && statics[k] > 0) xs.push_back(Value::integer(statics[k]));
      else xs.push_back(Value::dyn(ir::builtin_ref(std::string(base) + dims[k], t), site.range));
    }
    return Value::tuple(std::move(xs));
  };

  switch (id) {
    case BuiltinId::Range: case BuiltinId::RangeConstexpr: {
      no_kwargs();
      arity(1, 3);
      // Symbols (cute.sym_int) are their run-time values here, as anywhere in a function.
      Value start = args.size() >= 2 ? resolve_symbol(args[0], arg_range(0)) : Value::integer(0);
      Value stop = resolve_symbol(args.size() >= 2 ? args[1] : args[0], arg_range(args.size() >= 2 ? 1 : 0));
      Value step = args.size() == 3 ? resolve_symbol(args[2], arg_range(2)) : Value::integer(1);
      if (id == BuiltinId::Range) return Value::tuple({start, stop, step});
      int64_t a = require_static_int(start, arg_range(0), "range_constexpr's start");
      int64_t b = require_static_int(stop, arg_range(args.size() >= 2 ? 1 : 0), "range_constexpr's stop");
      int64_t c = require_static_int(step, arg_range(2), "range_constexpr's step");
      if (c == 0) fail(diag::Kind::DivisionByZero, site.range, "range_constexpr() step must not be zero");
      int64_t n = c > 0 ? (b > a ? (b - a + c - 1) / c : 0) : (a > b ? (a - b - c - 1) / (-c) : 0);
      if (n > 4096)
        fail(diag::Kind::UnrollTooLarge, site.range,
             "range_constexpr(...) has " + std::to_string(n) + " iterations, more than the unrolling limit of 4096");
      std::vector<Value> xs;
      for (int64_t k = 0; k < n; ++k) xs.push_back(Value::integer(a + k * c));
      return Value::tuple(std::move(xs));
    }
    case BuiltinId::ConstExpr:
      no_kwargs();
      arity(1, 1);
      return require_static(resolve_symbol(args[0], arg_range(0)), arg_range(0), "the argument of const_expr");
    case BuiltinId::Len: {
      no_kwargs();
      arity(1, 1);
      if (args[0].kind == Value::Kind::Tuple) return Value::integer(static_cast<int64_t>(args[0].elts->size()));
      if (args[0].kind == Value::Kind::Str) return Value::integer(static_cast<int64_t>(args[0].s.size()));
      if (args[0].kind == Value::Kind::Tensor) return Value::integer(static_cast<int64_t>(args[0].tensor->layout.rank()));
      fail(diag::Kind::TypeMismatch, arg_range(0), "len() needs a tuple or string, found " + describe(args[0]));
    }
    case BuiltinId::Min: case BuiltinId::Max: {
      no_kwargs();
      if (args.size() == 1 && args[0].kind == Value::Kind::Tuple) args = *args[0].elts;
      else if (args.size() == 1)  // Python: min(x) iterates x; a number is not iterable
        fail(diag::Kind::TypeMismatch, arg_range(0), std::string(builtin_name(id)) + "() of one argument needs a tuple, found " + describe(args[0]));
      if (args.empty()) fail(diag::Kind::WrongArity, site.range, std::string(builtin_name(id)) + "() needs at least one argument");
      Value acc = resolve_symbol(args[0], arg_range(0));
      for (size_t i = 1; i < args.size(); ++i) {
        Value b = resolve_symbol(args[i], arg_range(i));
        if (!(acc.is_number() || acc.kind == Value::Kind::Dyn) || !(b.is_number() || b.kind == Value::Kind::Dyn))
          fail(diag::Kind::TypeMismatch, site.range, std::string(builtin_name(id)) + "() needs numbers");
        if (acc.is_static() && b.is_static()) {
          Value lt = eval_compare(ast::CmpOpKind::Lt, b, acc, site.range);
          bool take_b = id == BuiltinId::Min ? lt.i != 0 : eval_compare(ast::CmpOpKind::Gt, b, acc, site.range).i != 0;
          if (take_b) acc = b;
          continue;
        }
        ScalarType t = promote(acc, b, site.range);
        ScalarType compute = ir::is_narrow_float(t) ? ScalarType::Float32 : t;
        auto e = ir::binary(id == BuiltinId::Min ? ir::Op::Min : ir::Op::Max, to_expr_as(acc, compute, site.range),
                            to_expr_as(b, compute, site.range), compute);
        acc = Value::dyn(ir::cast(e, t), site.range);
      }
      return acc;
    }
    case BuiltinId::Abs: {
      no_kwargs();
      arity(1, 1);
      Value v = resolve_symbol(args[0], arg_range(0));
      if (v.kind == Value::Kind::Int) {
        if (v.i == std::numeric_limits<int64_t>::min()) fail(diag::Kind::IntegerOverflow, site.range, "abs() of -2**63 overflows 64 bits");
        return Value::integer(v.i < 0 ? -v.i : v.i);
      }
      if (v.kind == Value::Kind::Float) return Value::floating(std::fabs(v.f));
      if (v.kind != Value::Kind::Dyn) fail(diag::Kind::TypeMismatch, arg_range(0), "abs() needs a number, found " + describe(v));
      ScalarType compute = ir::is_narrow_float(v.type) ? ScalarType::Float32 : v.type;
      return Value::dyn(ir::cast(ir::call("abs", {to_expr_as(v, compute, site.range)}, compute), v.type), site.range);
    }
    case BuiltinId::Print: {
      std::string out;
      for (size_t i = 0; i < args.size(); ++i) {
        out += i ? " " : "";
        out += args[i].kind == Value::Kind::Str ? args[i].s : repr(args[i]);
      }
      std::cout << out << "\n";
      return Value::none();
    }
    case BuiltinId::Int: case BuiltinId::Float: case BuiltinId::Bool: {
      no_kwargs();
      arity(1, 1);
      Value v = resolve_symbol(args[0], arg_range(0));
      if (v.kind == Value::Kind::Dyn) {
        ScalarType t = id == BuiltinId::Int ? ScalarType::Int32 : id == BuiltinId::Float ? ScalarType::Float32 : ScalarType::Boolean;
        if (id == BuiltinId::Int && ir::is_integer(v.type)) return v;
        return Value::dyn(to_expr_as(v, t, site.range), site.range);
      }
      if (!v.is_number()) fail(diag::Kind::TypeMismatch, arg_range(0), std::string(builtin_name(id)) + "() needs a number, found " + describe(v));
      double d = v.kind == Value::Kind::Float ? v.f : static_cast<double>(v.i);
      if (id == BuiltinId::Int && v.kind == Value::Kind::Float) {
        // [-2**63, 2**63): the doubles whose truncation is a 64-bit integer (NaN is none).
        if (!(v.f >= -9223372036854775808.0 && v.f < 9223372036854775808.0))
          fail(diag::Kind::IntegerOverflow, site.range, "int() of " + repr(v) + " does not fit in 64 bits");
        return Value::integer(static_cast<int64_t>(std::trunc(v.f)));
      }
      if (id == BuiltinId::Int) return Value::integer(v.i);
      if (id == BuiltinId::Float) return Value::floating(d);
      return Value::boolean(d != 0);
    }
    case BuiltinId::SymInt: {
      arity(1, 1);
      if (args[0].kind != Value::Kind::Str)
        fail(diag::Kind::TypeMismatch, arg_range(0), "cute.sym_int() takes the symbol's name as a string");
      Value v;
      v.kind = Value::Kind::SymDim;
      v.s = args[0].s;
      for (auto& [k, x] : kwargs) {
        if (k != "divisibility") fail(diag::Kind::UnknownKeyword, site.range, "cute.sym_int() got an unexpected keyword argument '" + k + "'");
        v.i = require_static_int(x, site.range, "divisibility");
        if (v.i < 1) fail(diag::Kind::BadLayoutArgument, site.range, "divisibility must be at least 1, found " + std::to_string(v.i));
      }
      return v;
    }
    case BuiltinId::Size: {
      // mode=[i] is one mode; mode=[i, j] is mode j of mode i (CuTe's size<i, j>).
      std::optional<int64_t> mode;
      std::vector<int64_t> path;
      for (auto& [k, v] : kwargs) {
        if (k != "mode") fail(diag::Kind::UnknownKeyword, site.range, "cute.size() got an unexpected keyword argument '" + k + "'");
        std::vector<Value> ms = v.kind == Value::Kind::Tuple ? *v.elts : std::vector<Value>{v};
        for (const auto& m : ms) path.push_back(require_static_int(m, site.range, "cute.size's mode"));
        if (!path.empty()) mode = path[0];
      }
      arity(1, 1);
      Value x = args[0];
      if (x.kind == Value::Kind::Layout || x.kind == Value::Kind::Tensor || x.kind == Value::Kind::TensorSSA) {
        layout::Layout l = x.kind == Value::Kind::Tensor ? x.tensor->layout : *x.layout;
        for (int64_t m : path) {
          if (m < 0 || static_cast<size_t>(m) >= l.rank())
            fail(diag::Kind::IndexOutOfRange, site.range, "mode " + std::to_string(m) + " is out of range for " + l.to_string());
          l = layout::get(l, static_cast<size_t>(m));
        }
        return int_value(layout::size(l), site.range);
      }
      if (x.kind == Value::Kind::TiledCopy) {
        if (mode) fail(diag::Kind::UnknownKeyword, site.range, "cute.size() of a tiled copy takes no mode");
        return Value::integer(layout::size(layout::get(x.tiled_copy->tv, 0)).require_value("thread count"));
      }
      if (x.kind == Value::Kind::Tuple) {
        std::vector<Value> xs = *x.elts;
        if (mode) {
          if (*mode < 0 || *mode >= static_cast<int64_t>(xs.size())) fail(diag::Kind::IndexOutOfRange, site.range, "mode out of range");
          xs = {xs[*mode]};
        }
        Value acc = Value::integer(1);
        std::function<void(const Value&)> mul = [&](const Value& v) {
          if (v.kind == Value::Kind::Tuple) for (const auto& e : *v.elts) mul(e);
          else acc = eval_binop(ast::BinOpKind::Mul, acc, v, site.range, site.range);
        };
        for (const auto& e : xs) mul(e);
        return acc;
      }
      if (x.kind == Value::Kind::Int || x.kind == Value::Kind::Dyn || x.kind == Value::Kind::SymDim) return resolve_symbol(x, arg_range(0));
      fail(diag::Kind::TypeMismatch, arg_range(0), "cute.size() needs a tensor, shape or integer, found " + describe(x));
    }
    case BuiltinId::Printf: {
      need_kernel("cute.printf");
      no_kwargs();
      if (args.empty() || args[0].kind != Value::Kind::Str)
        fail(diag::Kind::TypeMismatch, site.range, "cute.printf() takes a format string first");
      // "{}" placeholders (CuTe DSL style) become printf conversions by type;
      // C conversions (%d, %f, %lld, ...) are kept and their arguments
      // converted to what the conversion reads.
      std::string fmt = args[0].s, out;
      auto s = ir::make_stmt(ir::StmtKind::Printf, site.range);
      size_t next = 1;
      auto take = [&]() {
        if (next >= args.size())
          fail(diag::Kind::WrongArity, site.range, "cute.printf() has more placeholders than arguments");
        Value v = resolve_symbol(args[next], arg_range(next));
        ++next;
        return v;
      };
      for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] == '%') {
          if (i + 1 < fmt.size() && fmt[i + 1] == '%') { out += "%%"; ++i; continue; }
          size_t j = i + 1;
          while (j < fmt.size() && std::strchr("-+ #0123456789.", fmt[j])) ++j;
          std::string length;
          while (j < fmt.size() && std::strchr("hlLzjt", fmt[j])) length += fmt[j++];
          if (j >= fmt.size() || !std::strchr("diouxXeEfFgGaAc", fmt[j]))
            fail(diag::Kind::TypeMismatch, arg_range(0), "cute.printf(): unsupported conversion in '" + fmt + "'");
          char conv = fmt[j];
          Value v = take();
          if (!(v.is_number() || v.kind == Value::Kind::Dyn))
            fail(diag::Kind::TypeMismatch, site.range, "cute.printf() can print numbers only, found " + describe(v));
          std::string spec = fmt.substr(i, j - i - length.size());
          if (std::strchr("di", conv)) { s->args.push_back(to_expr_as(v, ScalarType::Int64, site.range)); out += spec + "ll" + conv; }
          else if (std::strchr("ouxXc", conv)) {
            s->args.push_back(to_expr_as(v, conv == 'c' ? ScalarType::Int32 : ScalarType::Uint64, site.range));
            out += spec + (conv == 'c' ? "" : "ll") + conv;
          } else { s->args.push_back(to_expr_as(v, ScalarType::Float64, site.range)); out += spec + conv; }
          i = j;
          continue;
        }
        if (fmt.compare(i, 2, "{}") == 0) {
          Value v = take();
          if (v.kind == Value::Kind::Str) { out += v.s; ++i; continue; }
          auto e = to_expr(v, site.range);
          if (ir::is_float(e->type)) { e = to_expr_as(v, ScalarType::Float64, site.range); out += "%g"; }
          else if (ir::is_signed(e->type) || e->type == ScalarType::Boolean) { e = ir::cast(e, ScalarType::Int64); out += "%lld"; }
          else { e = ir::cast(e, ScalarType::Uint64); out += "%llu"; }
          s->args.push_back(e);
          ++i;
          continue;
        }
        out += fmt[i];
      }
      if (next != args.size()) fail(diag::Kind::WrongArity, site.range, "cute.printf() has more arguments than placeholders");
      s->name = out;
      emit(std::move(s));
      return Value::none();
    }
    case BuiltinId::ThreadIdx: need_kernel("cute.arch.thread_idx()"); no_kwargs(); arity(0, 0); return hw_triple("threadIdx", nullptr, ScalarType::Int32);
    case BuiltinId::BlockIdx: need_kernel("cute.arch.block_idx()"); no_kwargs(); arity(0, 0); return hw_triple("blockIdx", nullptr, ScalarType::Int64);
    case BuiltinId::BlockDim: need_kernel("cute.arch.block_dim()"); no_kwargs(); arity(0, 0); return hw_triple("blockDim", fn_->static_block, ScalarType::Int32);
    case BuiltinId::GridDim: need_kernel("cute.arch.grid_dim()"); no_kwargs(); arity(0, 0); return hw_triple("gridDim", nullptr, ScalarType::Int64);
    case BuiltinId::LaneIdx: need_kernel("cute.arch.lane_idx()"); arity(0, 0); return Value::dyn(ir::builtin_ref("lane_idx"), site.range);
    case BuiltinId::WarpIdx: need_kernel("cute.arch.warp_idx()"); arity(0, 0); return Value::dyn(ir::builtin_ref("warp_idx"), site.range);
    case BuiltinId::SyncThreads:
      need_kernel("cute.arch.sync_threads()");
      no_kwargs();
      arity(0, 0);
      emit(ir::make_stmt(ir::StmtKind::Sync, site.range));
      return Value::none();
    case BuiltinId::MethodLaunch:
      if (!args.empty()) fail(diag::Kind::BadLaunch, site.range, ".launch() takes keyword arguments only: grid=, block=, smem=, stream=");
      launch(*callee.self->kcall, kwargs, site);
      return Value::none();
    case BuiltinId::MathExp: case BuiltinId::MathExp2: case BuiltinId::MathLog: case BuiltinId::MathLog2:
    case BuiltinId::MathSqrt: case BuiltinId::MathRsqrt: case BuiltinId::MathSin: case BuiltinId::MathCos:
    case BuiltinId::MathTanh: case BuiltinId::MathErf: case BuiltinId::MathFloor: case BuiltinId::MathCeil:
    case BuiltinId::MathFabs: case BuiltinId::MathFma:
      no_kwargs();
      return math_call(id, args, site);
    case BuiltinId::KernelDecorator: case BuiltinId::JitDecorator:
      fail(diag::Kind::NotCallable, site.range, "cute.kernel and cute.jit are decorators; write @cute.kernel above a def");
    case BuiltinId::TensorType:
      fail(diag::Kind::NotCallable, site.range, "cute.Tensor is a type for annotations: cute.Tensor[cutlass.Float32, (N,)]");
    case BuiltinId::ConstexprMarker:
      fail(diag::Kind::NotCallable, site.range, "cutlass.Constexpr is an annotation for parameters, not a function");
    case BuiltinId::Isinstance:
      fail(diag::Kind::UnsupportedOperation, site.range, "isinstance() is not supported yet");
    default:
      break;
  }
  fail(diag::Kind::NotCallable, site.range, "this builtin cannot be called");
}

// ---- legacy dispatch: rows of builtins.def declared "..." reach the family
// switches through these, with the call's arguments as written. Each goes
// when its family's rows get parameter lists and handlers of their own.

Value legacy_core(Evaluator& ev, BuiltinCall& c) { return ev.call_core_builtin(*c.callee, c.rest, c.extra, c.site); }
Value legacy_arch(Evaluator& ev, BuiltinCall& c) { return ev.call_arch_builtin(c.id(), c.rest, c.extra, c.site); }
Value legacy_mma(Evaluator& ev, BuiltinCall& c) { return ev.call_mma_builtin(c.id(), c.rest, c.extra, c.site); }
Value legacy_sm90(Evaluator& ev, BuiltinCall& c) { return ev.call_sm90_builtin(c.id(), c.rest, c.extra, c.site); }
Value legacy_cluster(Evaluator& ev, BuiltinCall& c) { return ev.call_cluster_builtin(c.id(), c.rest, c.extra, c.site); }
Value legacy_ldmatrix(Evaluator& ev, BuiltinCall& c) { return ev.call_ldmatrix_builtin(c.id(), c.rest, c.extra, c.site); }
Value legacy_retile(Evaluator& ev, BuiltinCall& c) {
  auto& args = c.rest;
  ev.check_arity(args.size(), 1, 1, ".retile", c.site.range);
  if (args[0].kind != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, arg_range_of(c.site, 0), ".retile() takes a tensor, found " + describe(args[0]));
  return ev.retile(*c.self().tiled_copy, args[0], c.site.range);
}
Value legacy_mma_method(Evaluator& ev, BuiltinCall& c) { return ev.call_mma_method(*c.callee, c.rest, c.site); }

}  // namespace tileslc::sema
