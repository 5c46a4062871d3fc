// Scalar conversions and the promotion rules of binary arithmetic
// (documented in docs/language.md, "Types and promotion"):
//  - a static int adopts the other operand's type (weak typing, as Triton and
//    CuTe DSL do); a static float adopts a float operand's type and makes an
//    integer operand Float32;
//  - two dynamic integers: the wider; equal widths with mixed signedness give
//    the unsigned type (C's rule);
//  - integer with float: the float; Float16 with BFloat16: Float32; two floats:
//    the wider;
//  - Boolean operands count as Int32 in arithmetic.
// Also the evaluator's diagnostics: error() and fail(), with their context
// notes, and the budget of compile-time evaluation steps (E0512).
#include <cmath>
#include <cstdlib>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

diag::Diagnostic& Evaluator::error(diag::Kind k, source::SourceRange r, std::string msg) {
  flush_context();
  // The same mistake met again (a helper inlined into two specializations) is reported once.
  for (const auto& prev : diags_.diagnostics())
    if (prev.kind == k && prev.range.file == r.file && prev.range.begin == r.begin && prev.range.end == r.end &&
        prev.message == msg) {
      duplicate_sink_ = diag::Diagnostic{};
      return duplicate_sink_;
    }
  auto& d = diags_.report(k, r, std::move(msg));
  pending_diag_ = diags_.diagnostics().size() - 1;
  // Inlined call sites, innermost first; a repeated site (recursion) once; of
  // long chains the three innermost and the two outermost (the user's call).
  std::vector<std::pair<std::string, source::SourceRange>> sites;
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    const auto& cs = (*it)->call_site;
    if (cs.valid() && ((*it)->def || (*it)->is_module)) {
      std::string msg = (*it)->def ? "in '" + (*it)->def->name + "', inlined here"
                                   : "in module '" + (*it)->module->name + "', imported here";
      bool repeat = !sites.empty() && sites.back().first == msg && sites.back().second.begin == cs.begin &&
                    sites.back().second.file == cs.file;
      if (!repeat) sites.emplace_back(std::move(msg), cs);
    }
    if (!(*it)->context.empty()) {
      if (sites.size() > 5) {
        size_t dropped = sites.size() - 5;
        sites.erase(sites.begin() + 3, sites.begin() + 3 + static_cast<long>(dropped));
        sites.insert(sites.begin() + 3, {"... " + std::to_string(dropped) + " more inlined calls ...", source::SourceRange{}});
      }
      for (auto& site : sites) pending_context_.push_back(std::move(site));
      sites.clear();
      pending_context_.emplace_back((*it)->context, source::SourceRange{});
    }
  }
  for (auto& site : sites) pending_context_.push_back(std::move(site));
  return d;
}

void Evaluator::count_step(source::SourceRange r) {
  constexpr int64_t kBudget = 200000;
  if (++steps_ == kBudget) {
    auto& d = error(diag::Kind::EvaluationTooLarge, r,
                    "compile-time evaluation ran " + std::to_string(kBudget) + " statements and inlined calls without finishing");
    d.note("unrolled loops (range_constexpr) and helpers specialized on static arguments all run while compiling");
    d.help("use a run-time range(...) loop, or reduce the unrolled trip counts or the recursion depth");
  }
  if (steps_ >= kBudget) abort_entry();
}

void Evaluator::flush_context() {
  if (pending_diag_) {
    auto& d = diags_.diagnostic(*pending_diag_);
    for (auto& [msg, where] : pending_context_) {
      if (where.valid()) d.note(std::move(msg), where);
      else d.note(std::move(msg));
    }
  }
  pending_diag_.reset();
  pending_context_.clear();
}

void Evaluator::fail(diag::Kind k, source::SourceRange r, std::string msg) {
  error(k, r, std::move(msg));
  throw AbortEntry{};
}

std::optional<ScalarType> Evaluator::natural_type(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Int: return (v.i() >= INT32_MIN && v.i() <= INT32_MAX) ? ScalarType::Int32 : ScalarType::Int64;
    case Value::Kind::Float: return ScalarType::Float32;
    case Value::Kind::Bool: return ScalarType::Boolean;
    case Value::Kind::Dyn: return v.type();
    default: return std::nullopt;
  }
}

Value Evaluator::resolve_symbol(const Value& v, source::SourceRange r) {
  if (v.kind() != Value::Kind::SymDim) return v;
  if (fn_) {
    if (auto it = fn_->symbols.find(v.s()); it != fn_->symbols.end())
      return payload::Dyn{it->second, it->second->type, r, std::make_shared<const std::string>(v.s())};
    if (in_tensor_annotation_ > 0) {
      // Inside an annotation the symbol is read before any parameter binds it: an expression such as
      // (N * 2,) cannot be an extent, which must be a number or a symbol of its own.
      auto& d = error(diag::Kind::BadAnnotation, r,
                      "an extent in a tensor annotation is a number or a cute.sym_int symbol; '" + v.s() +
                          "' is used in an expression here");
      d.help("declare a symbol for this extent (" + v.s() + "2 = cute.sym_int(\"" + v.s() + "2\")) and derive '" +
             v.s() + "' from it in the function body");
      abort_entry();
    }
    auto& d = error(diag::Kind::NotStatic, r,
                    "symbolic extent '" + v.s() + "' is not bound by a tensor parameter of this function");
    d.help("use it in a parameter annotation such as cute.Tensor[cutlass.Float32, (" + v.s() + ",)]");
    abort_entry();
  }
  fail(diag::Kind::NotStatic, r, "symbolic extent '" + v.s() + "' has no value while compiling");
}

ir::ExprRef Evaluator::to_expr(const Value& in, source::SourceRange r) {
  Value v = resolve_symbol(in, r);
  switch (v.kind()) {
    case Value::Kind::Int: return ir::int_const(v.i(), *natural_type(v));
    case Value::Kind::Bool: return ir::bool_const(v.i() != 0);
    case Value::Kind::Float: return ir::float_const(v.f(), ScalarType::Float32);
    case Value::Kind::Dyn: return v.expr();
    default:
      fail(diag::Kind::TypeMismatch, r, "expected a number, found " + describe(v));
  }
}

ir::ExprRef Evaluator::to_expr_as(const Value& in, ScalarType t, source::SourceRange r) {
  Value v = resolve_symbol(in, r);
  if (v.kind() == Value::Kind::Int) {
    if (ir::is_float(t)) return ir::cast(ir::float_const(static_cast<double>(v.i()), ScalarType::Float32), t);
    if (t == ScalarType::Boolean) return ir::bool_const(v.i() != 0);
    int bits = ir::bit_width(t);
    bool fits = bits == 64 ? (ir::is_signed(t) || v.i() >= 0)
                           : ir::is_signed(t) ? (v.i() >= -(int64_t{1} << (bits - 1)) && v.i() < (int64_t{1} << (bits - 1)))
                                              : (v.i() >= 0 && v.i() < (int64_t{1} << bits));
    if (!fits)
      fail(diag::Kind::LossyConversion, r, std::to_string(v.i()) + " does not fit in " + ir::type_name(t));
    return ir::int_const(v.i(), t);
  }
  if (v.kind() == Value::Kind::Float) {
    if (ir::is_float(t)) {
      if (t == ScalarType::Float32 || t == ScalarType::Float64) return ir::float_const(v.f(), t);
      return ir::cast(ir::float_const(v.f(), ScalarType::Float32), t);
    }
    if (ir::is_integer(t)) {
      // The conversion truncates toward zero; a value whose truncation does not fit (or NaN)
      // has no defined result in C++ and saturates on the GPU: refuse it.
      const int bits = ir::bit_width(t);
      const double lo = ir::is_signed(t) ? -std::ldexp(1.0, bits - 1) : 0.0;
      const double hi = ir::is_signed(t) ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);
      const double tr = std::trunc(v.f());
      if (!(tr >= lo && tr < hi)) fail(diag::Kind::LossyConversion, r, repr(v) + " does not fit in " + ir::type_name(t));
    }
    return ir::cast(ir::float_const(v.f(), ScalarType::Float64), t);
  }
  if (v.kind() == Value::Kind::Bool) return ir::cast(ir::bool_const(v.i() != 0), t);
  auto e = to_expr(v, r);
  if (e->type == t) return e;
  // Narrow float <-> anything goes through Float32, which codegen knows how to convert.
  if (ir::is_narrow_float(e->type) && t != ScalarType::Float32) e = ir::cast(e, ScalarType::Float32);
  if (ir::is_narrow_float(t) && e->type != ScalarType::Float32) e = ir::cast(e, ScalarType::Float32);
  return ir::cast(e, t);
}

namespace {

int rank_of_float(ScalarType t) {
  switch (t) {
    case ScalarType::Float8E4M3FN: case ScalarType::Float8E5M2: return 0;
    case ScalarType::Float16: case ScalarType::BFloat16: return 1;
    case ScalarType::Float32: case ScalarType::TFloat32: return 2;
    default: return 3;
  }
}

ScalarType promote_dyn(ScalarType a, ScalarType b) {
  if (a == ScalarType::Boolean) a = ScalarType::Int32;
  if (b == ScalarType::Boolean) b = ScalarType::Int32;
  if (a == b) return a;
  bool fa = ir::is_float(a), fb = ir::is_float(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    int ra = rank_of_float(a), rb = rank_of_float(b);
    if (ra == rb) return ScalarType::Float32;  // Float16 with BFloat16, FP8 mixes
    return ra > rb ? a : b;
  }
  int wa = ir::bit_width(a), wb = ir::bit_width(b);
  if (wa != wb) return wa > wb ? a : b;
  return ir::is_signed(a) ? b : a;
}

}  // namespace

ScalarType Evaluator::promote(const Value& a, const Value& b, source::SourceRange r) {
  bool da = a.kind() == Value::Kind::Dyn, db = b.kind() == Value::Kind::Dyn;
  if (da && db) return promote_dyn(a.type(), b.type());
  if (!da && !db) {
    auto ta = natural_type(a), tb = natural_type(b);
    if (!ta || !tb) fail(diag::Kind::TypeMismatch, r, "expected numbers, found " + describe(ta ? b : a));
    return promote_dyn(*ta, *tb);
  }
  const Value& d = da ? a : b;
  const Value& s = da ? b : a;
  if (s.kind() == Value::Kind::Float) return ir::is_float(d.type()) ? d.type() : ScalarType::Float32;
  if (s.kind() == Value::Kind::Int) {
    if (d.type() == ScalarType::Boolean) return *natural_type(s);
    // A literal that does not fit the dynamic integer type widens it to 64 bits.
    if (ir::is_integer(d.type()) && ir::bit_width(d.type()) < 64) {
      int64_t lim = (int64_t{1} << (ir::bit_width(d.type()) - (ir::is_signed(d.type()) ? 1 : 0))) - 1;
      if (s.i() > lim || s.i() < (ir::is_signed(d.type()) ? -lim - 1 : 0))
        return ir::is_signed(d.type()) || s.i() < 0 ? ScalarType::Int64 : ScalarType::Uint64;
    }
    return d.type();
  }
  auto st = natural_type(s);
  if (!st) fail(diag::Kind::TypeMismatch, r, "expected a number, found " + describe(s));
  return promote_dyn(d.type(), *st);
}

bool Evaluator::truthy_static(const Value& v, source::SourceRange r) {
  switch (v.kind()) {
    case Value::Kind::None: return false;
    case Value::Kind::Int: case Value::Kind::Bool: return v.i() != 0;
    case Value::Kind::Float: return v.f() != 0;
    case Value::Kind::Str: return !v.s().empty();
    case Value::Kind::Tuple: return !v.elts().empty();
    case Value::Kind::Dict: return !v.dict_items().empty();
    default: return true;
  }
}

const Value& Evaluator::require_static(const Value& v, source::SourceRange r, const std::string& what) {
  if (v.is_static() && v.kind() != Value::Kind::SymDim) return v;
  auto& d = error(diag::Kind::NotStatic, r, what + " must be known while compiling, but this value is only known at run time");
  if (v.kind() == Value::Kind::Dyn && v.origin().valid() && (v.origin().begin != r.begin || v.origin().end != r.end))
    d.label(v.origin(), "run-time value originates here");
  if (const std::string* extent = v.extent_name())
    d.note("'" + *extent + "' is a symbolic extent: its value comes from the caller's tensors at run time");
  d.help("static values are literals, module constants, Constexpr parameters, range_constexpr indices and arithmetic on them");
  abort_entry();
}

int64_t Evaluator::require_static_int(const Value& v, source::SourceRange r, const std::string& what) {
  const Value& s = require_static(v, r, what);
  if (!s.is_static_int())
    fail(diag::Kind::TypeMismatch, r, what + " must be an integer, found " + describe(s));
  return s.i();
}

bool Evaluator::static_equal(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) {
    if (a.is_number() && b.is_number() && a.kind() != Value::Kind::Float && b.kind() != Value::Kind::Float)
      return a.i() == b.i();
    return false;
  }
  switch (a.kind()) {
    case Value::Kind::None: case Value::Kind::Ellipsis: return true;
    case Value::Kind::Int: case Value::Kind::Bool: return a.i() == b.i();
    case Value::Kind::Float: return a.f() == b.f();
    case Value::Kind::Str: case Value::Kind::SymDim: return a.s() == b.s();
    case Value::Kind::Type: return a.type() == b.type();
    case Value::Kind::Tuple:
      if (a.elts().size() != b.elts().size()) return false;
      for (size_t i = 0; i < a.elts().size(); ++i)
        if (!static_equal(a.elts()[i], b.elts()[i])) return false;
      return true;
    case Value::Kind::Dyn: return a.expr() == b.expr();
    case Value::Kind::Tensor: return a.tensor() == b.tensor();
    case Value::Kind::Layout: return a.layout().identical(b.layout());
    case Value::Kind::Module: return a.module() == b.module();
    case Value::Kind::Function: return a.fn() == b.fn();
    case Value::Kind::Builtin: return a.builtin() == b.builtin() && a.self() == b.self();
    case Value::Kind::TensorSSA: return &a.elts() == &b.elts();  // the same elements (one .load())
    case Value::Kind::CopyAtom: return a.atom() == b.atom();
    case Value::Kind::TiledCopy: return a.tiled_copy() == b.tiled_copy();
    case Value::Kind::MmaAtom: return a.mma() == b.mma();
    case Value::Kind::TmaAtom: return a.tma() == b.tma();
    case Value::Kind::ComposedLayout: return &a.composed() == &b.composed();
    case Value::Kind::TiledMma: return a.tiled_mma() == b.tiled_mma();
    case Value::Kind::SmemAllocator: return true;  // one per kernel: its state is the kernel's
    case Value::Kind::Marker: return a.builtin() == b.builtin() && repr(a) == repr(b);
    case Value::Kind::KernelCall: return a.kcall() == b.kcall();
    case Value::Kind::TensorSpec: return a.spec() == b.spec();
    case Value::Kind::ConstexprSpec: return true;
    case Value::Kind::Slice: return &a.elts() == &b.elts();
    case Value::Kind::Dict: return &a.dict_items() == &b.dict_items();
    // Python's default __eq__ is identity.
    case Value::Kind::Class: return a.cls() == b.cls();
    case Value::Kind::Instance: return a.obj() == b.obj();
    case Value::Kind::BoundMethod: {
      const auto &x = a.get<payload::BoundMethod>(), &y = b.get<payload::BoundMethod>();
      return static_equal(*x.fn, *y.fn) && static_equal(*x.self, *y.self);
    }
    case Value::Kind::Descriptor: return a.get<payload::Descriptor>().fn == b.get<payload::Descriptor>().fn;
    default: return false;
  }
}

namespace {

/// Python's repr of a float (float_repr_style 'short'): the shortest digits that read back as the
/// same double, written positionally when the decimal exponent is in [-4, 16) ("123.0", "0.001"),
/// else as d.ddde+XX ("1e+16", "3.5611475045771336e+16", "1.5e-05"). The exponent is the digits'
/// own: %g's rule (exponent against the precision) wrote 35611475045771336.0 (difffuzz, static).
std::string float_repr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  char buf[64];
  for (int precision = 0; precision <= 16; ++precision) {  // 1 to 17 significant digits
    std::snprintf(buf, sizeof buf, "%.*e", precision, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string mantissa = buf;  // [-]d[.ddd]e(+|-)XX
  const size_t e = mantissa.find('e');
  const int exponent = std::atoi(mantissa.c_str() + e + 1);
  mantissa.resize(e);
  const bool negative = mantissa[0] == '-';
  std::string digits;
  for (char c : mantissa) if (c >= '0' && c <= '9') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string s;
  if (exponent >= 16 || exponent < -4) {
    s = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "");
    std::snprintf(buf, sizeof buf, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    s += buf;
  } else if (exponent >= 0) {
    const size_t whole = static_cast<size_t>(exponent) + 1;
    if (digits.size() < whole) digits.append(whole - digits.size(), '0');
    s = digits.substr(0, whole) + "." + (digits.size() > whole ? digits.substr(whole) : "0");
  } else {
    s = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  }
  return negative ? "-" + s : s;
}

/// `Tensor[smem Float32, (4, 8)]`, `Tensor[coord ((2,2),4)]`, or CuTe's `Pointer[...]` for an iterator.
std::string tensor_repr(const TensorValue& t) {
  static const char* spaces[] = {"", "smem ", "rmem ", "coord "};
  if (t.iterator) return std::string("Pointer[") + spaces[static_cast<int>(t.space)] + ir::type_name(t.dtype) + "]";
  const auto& sh = t.layout.shape;
  std::string dims;
  bool flat = sh.is_tuple();
  if (flat) for (const auto& e : sh.elems()) flat = flat && e.is_leaf();
  if (flat) {
    dims = "(";
    for (size_t i = 0; i < sh.elems().size(); ++i) dims += (i ? ", " : "") + sh.elems()[i].to_string();
    dims += sh.elems().size() == 1 ? ",)" : ")";
  } else {
    dims = sh.to_string();
  }
  return std::string("Tensor[") + spaces[static_cast<int>(t.space)] +
         (t.space == MemSpace::Coord ? "" : std::string(ir::type_name(t.dtype)) + ", ") + dims + "]";
}

}  // namespace

std::string repr(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Undef: return "<undefined>";
    case Value::Kind::None: return "None";
    case Value::Kind::Int: return std::to_string(v.i());
    case Value::Kind::Bool: return v.i() ? "True" : "False";
    case Value::Kind::Float: return float_repr(v.f());
    case Value::Kind::Str: return "'" + v.s() + "'";
    case Value::Kind::Tuple: {
      std::string s = v.is_list() ? "[" : "(";
      for (size_t i = 0; i < v.elts().size(); ++i) s += (i ? ", " : "") + repr(v.elts()[i]);
      if (v.elts().size() == 1 && !v.is_list()) s += ",";
      return s + (v.is_list() ? "]" : ")");
    }
    case Value::Kind::Dict: {
      std::string s = "{";
      for (size_t i = 0; i < v.dict_items().size(); ++i)
        s += (i ? ", " : "") + repr(v.dict_items()[i].first) + ": " + repr(v.dict_items()[i].second);
      return s + "}";
    }
    case Value::Kind::Type: return ir::type_name(v.type());
    case Value::Kind::Dyn:  // a symbolic extent read in a function prints as its name, as before it was resolved
      if (const std::string* extent = v.extent_name()) return *extent;
      return std::string("<run-time ") + ir::type_name(v.type()) + ">";
    case Value::Kind::Tensor: return tensor_repr(*v.tensor());
    case Value::Kind::Module:
      return is_opaque(v) ? "<" + describe_opaque(*v.module()) + ">" : "<module '" + v.module()->name + "'>";
    case Value::Kind::Function: return "<function " + v.fn()->name() + ">";
    // The row's name: print() shows it, and kernel specialization keys tell two builtins apart by it.
    case Value::Kind::Builtin: {
      const BuiltinInfo& info = builtin_info(v.builtin());
      // Python's exception classes and instances: <class 'ValueError'>, ValueError('message').
      if (is_exception_class(v.builtin())) {
        if (!v.self()) return "<class '" + std::string(info.name) + "'>";
        std::string s = std::string(info.name) + "(";
        for (size_t i = 0; i < v.self()->elts().size(); ++i) s += (i ? ", " : "") + repr(v.self()->elts()[i]);
        return s + ")";
      }
      return std::string(v.self() ? "<method " : "<builtin ") + info.name + ">";
    }
    case Value::Kind::KernelCall: return "<kernel call " + v.kcall()->fn->def->name + "(...)>";
    case Value::Kind::SymDim: return v.s();
    case Value::Kind::TensorSpec: return "<tensor type>";
    case Value::Kind::ConstexprSpec: return "Constexpr";
    case Value::Kind::Ellipsis: return "...";
    case Value::Kind::Slice: return "<slice>";
    case Value::Kind::Layout: return v.layout().to_string();
    case Value::Kind::TensorSSA: return std::string("TensorSSA[") + ir::type_name(v.type()) + ", " + v.layout().shape.to_string() + "]";
    case Value::Kind::CopyAtom: {
      // The kind is part of a specialization key (entry.cpp): name it.
      std::string kind = v.atom()->ldsm_matrices ? std::string(v.atom()->stsm ? "stmatrix.x" : "ldmatrix.x") + std::to_string(v.atom()->ldsm_matrices) + (v.atom()->ldsm_trans ? ".trans" : "")
                         : v.atom()->cp_async    ? "cp.async"
                                               : "universal";
      return "CopyAtom[" + kind + ", " + ir::type_name(v.atom()->dtype) + ", " + std::to_string(v.atom()->bits) + " bits]";
    }
    case Value::Kind::TiledCopy:
      return "TiledCopy[tile " + v.tiled_copy()->tiler.to_string() + ", tv " + v.tiled_copy()->tv.to_string() + "]";
    case Value::Kind::SmemAllocator: return "<SmemAllocator>";
    case Value::Kind::Marker:
      if (v.elts().size() == 2)  // LdMatrix8x8x16bOp(transpose, num_matrices)
        return v.s() + "(transpose=" + (v.elts()[0].i() ? "True" : "False") + ", num_matrices=" + std::to_string(v.elts()[1].i()) + ")";
      if (v.s().find('.') != std::string::npos) return v.s();  // an enum member: LayoutEnum.ROW_MAJOR
      return v.s() + "()";
    case Value::Kind::ComposedLayout:
      return v.composed().layout.shape.is_leaf() && v.composed().layout.shape.value().is_constant(0) ? v.composed().swizzle.to_string()
                                                                                                   : v.composed().to_string();
    case Value::Kind::MmaAtom: return "MmaAtom[" + v.mma()->name + ", " + ir::type_name(v.mma()->ab) + " -> " + ir::type_name(v.mma()->acc) + "]";
    case Value::Kind::TmaAtom:
      return "TmaAtom[" + std::string(ir::type_name(v.tma()->dtype)) + ", (" + std::to_string(v.tma()->tile[0]) + ", " + std::to_string(v.tma()->tile[1]) +
             ")" + (v.tma()->swizzle_bytes ? ", swizzle " + std::to_string(v.tma()->swizzle_bytes) + "B" : std::string()) +
             (v.tma()->multicast ? ", multicast" : "") +
             (v.tma()->num_multicast > 1 ? " over " + std::to_string(v.tma()->num_multicast) + " blocks" : "") + "]";
    case Value::Kind::TiledMma:
      return "TiledMma[" + v.tiled_mma()->atom.name + " x (" + std::to_string(v.tiled_mma()->am) + ", " + std::to_string(v.tiled_mma()->an) + ")]";
    case Value::Kind::Class: return "<class '" + v.cls()->module->name + "." + v.cls()->name + "'>";
    case Value::Kind::Instance: return "<" + v.obj()->cls->module->name + "." + v.obj()->cls->name + " object>";
    case Value::Kind::BoundMethod: {
      const auto& m = v.get<payload::BoundMethod>();
      const Value& self = *m.self;
      std::string owner = self.kind() == Value::Kind::Class ? self.cls()->name : self.obj()->cls->name;
      return "<bound method " + owner + "." + m.fn->fn()->def->name + ">";
    }
    case Value::Kind::Descriptor: {
      static const char* kinds[] = {"staticmethod", "classmethod", "property"};
      const auto& d = v.get<payload::Descriptor>();
      return std::string("<") + kinds[static_cast<int>(d.kind)] + " " + d.fn->fn()->def->name + ">";
    }
    case Value::Kind::Super: return "<super: " + v.get<payload::Super>().after->name + ">";
  }
  return "?";
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Undef: return "an undefined value";
    case Value::Kind::None: return "None";
    case Value::Kind::Int: return "int " + repr(v);
    case Value::Kind::Bool: return "bool " + repr(v);
    case Value::Kind::Float: return "float " + repr(v);
    case Value::Kind::Str: return "string " + repr(v);
    case Value::Kind::Tuple: return (v.is_list() ? "list " : "tuple ") + repr(v);
    case Value::Kind::Dict: return "dict " + repr(v);
    case Value::Kind::Type: return std::string("type ") + ir::type_name(v.type());
    case Value::Kind::Dyn: return std::string("run-time ") + ir::type_name(v.type()) + " value";
    case Value::Kind::Tensor: return "tensor " + repr(v);
    case Value::Kind::Module: return is_opaque(v) ? describe_opaque(*v.module()) : "module '" + v.module()->name + "'";
    case Value::Kind::Function: return "function '" + v.fn()->name() + "'";
    case Value::Kind::Builtin: return std::string("builtin ") + builtin_info(v.builtin()).name;
    case Value::Kind::KernelCall: return "kernel call";
    case Value::Kind::SymDim: return "symbolic extent '" + v.s() + "'";
    case Value::Kind::TensorSpec: return "tensor type";
    case Value::Kind::ConstexprSpec: return "Constexpr marker";
    case Value::Kind::Ellipsis: return "Ellipsis";
    case Value::Kind::Slice: return "slice";
    case Value::Kind::Layout: return "layout " + v.layout().to_string();
    case Value::Kind::TensorSSA: return "tensor value " + repr(v);
    case Value::Kind::CopyAtom: return "copy atom " + repr(v);
    case Value::Kind::TiledCopy: return "tiled copy " + repr(v);
    case Value::Kind::SmemAllocator: return "shared memory allocator";
    case Value::Kind::Marker: return repr(v);
    case Value::Kind::MmaAtom: return "MMA atom " + repr(v);
    case Value::Kind::TmaAtom: return "TMA atom " + repr(v);
    case Value::Kind::ComposedLayout: return "composed layout " + repr(v);
    case Value::Kind::TiledMma: return "tiled MMA " + repr(v);
    case Value::Kind::Class: return "class '" + v.cls()->name + "'";
    case Value::Kind::Instance: return "'" + v.obj()->cls->name + "' object";
    case Value::Kind::BoundMethod: return "method " + repr(v);
    case Value::Kind::Descriptor: return repr(v);
    case Value::Kind::Super: return "super object";
  }
  return "value";
}

}  // namespace tileslc::sema
