// Scalar type tables and the IR node constructors, which fold constant operands (integers with
// wrapping, Float32/Float64 rounded per operation, floor/ceil, a select's constant condition).
#include "ir/ir.h"

#include <cmath>
#include <stdexcept>

namespace tileslc::ir {

namespace {

struct TypeRow {
  const char* name;
  const char* cpp;
  int bits;
  bool is_float;
  bool is_signed;
};

// Indexed by ScalarType.
constexpr TypeRow kTypes[] = {
    {"Boolean", "bool", 1, false, false},
    {"Int8", "int8_t", 8, false, true},
    {"Int16", "int16_t", 16, false, true},
    {"Int32", "int32_t", 32, false, true},
    {"Int64", "int64_t", 64, false, true},
    {"Uint8", "uint8_t", 8, false, false},
    {"Uint16", "uint16_t", 16, false, false},
    {"Uint32", "uint32_t", 32, false, false},
    {"Uint64", "uint64_t", 64, false, false},
    {"Float16", "__half", 16, true, true},
    {"BFloat16", "__nv_bfloat16", 16, true, true},
    {"Float32", "float", 32, true, true},
    {"Float64", "double", 64, true, true},
    {"TFloat32", "float", 32, true, true},
    {"Float8E4M3FN", "__nv_fp8_e4m3", 8, true, true},
    {"Float8E5M2", "__nv_fp8_e5m2", 8, true, true},
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == static_cast<size_t>(ScalarType::Count_));

const TypeRow& row(ScalarType t) { return kTypes[static_cast<size_t>(t)]; }

ExprRef make(Expr::Node n, ScalarType t) {
  auto e = std::make_shared<Expr>();
  e->node = std::move(n);
  e->type = t;
  return e;
}

}  // namespace

const char* type_name(ScalarType t) { return row(t).name; }
const char* cpp_type(ScalarType t) { return row(t).cpp; }
int bit_width(ScalarType t) { return row(t).bits; }
bool is_float(ScalarType t) { return row(t).is_float; }
bool is_integer(ScalarType t) { return !row(t).is_float && t != ScalarType::Boolean; }
bool is_signed(ScalarType t) { return row(t).is_signed; }
bool is_narrow_float(ScalarType t) {
  return is_float(t) && t != ScalarType::Float32 && t != ScalarType::Float64;
}

const char* dtype_enum(ScalarType t) {
  static std::string names[static_cast<size_t>(ScalarType::Count_)];
  auto& s = names[static_cast<size_t>(t)];
  if (s.empty()) s = std::string("tileslc::DType::") + type_name(t);
  return s.c_str();
}

std::optional<ScalarType> type_from_name(const std::string& name) {
  for (size_t i = 0; i < static_cast<size_t>(ScalarType::Count_); ++i)
    if (name == kTypes[i].name) return static_cast<ScalarType>(i);
  return std::nullopt;
}

ExprRef int_const(int64_t v, ScalarType t) { return make(IntConst{v}, t); }
ExprRef bool_const(bool v) { return int_const(v ? 1 : 0, ScalarType::Boolean); }
ExprRef float_const(double v, ScalarType t) { return make(FloatConst{v}, t); }
ExprRef var_ref(const std::string& name, ScalarType t) { return make(Var{name}, t); }
ExprRef param_ref(const std::string& name, ScalarType t) { return make(Param{name}, t); }
ExprRef builtin_ref(const std::string& name, ScalarType t) { return make(Builtin{name}, t); }
namespace {
int64_t wrap_int_const(int64_t v, ScalarType t);
std::optional<int64_t> fold_int_unary(Op op, const ExprRef& a, ScalarType t);
std::optional<int64_t> fold_int_binary(Op op, const ExprRef& a, const ExprRef& b, ScalarType t);
std::optional<double> fold_float_unary(Op op, const ExprRef& a, ScalarType t);
std::optional<double> fold_float_binary(Op op, const ExprRef& a, const ExprRef& b, ScalarType t);
}  // namespace

ExprRef unary(Op op, ExprRef a, ScalarType t) {
  if (auto v = fold_int_unary(op, a, t)) return int_const(*v, t);
  if (auto v = fold_float_unary(op, a, t)) return float_const(*v, t);
  return make(Unary{op, std::move(a)}, t);
}
ExprRef binary(Op op, ExprRef a, ExprRef b, ScalarType t) {
  if (auto v = fold_int_binary(op, a, b, t)) return int_const(*v, t);
  if (auto v = fold_float_binary(op, a, b, t)) return t == ScalarType::Boolean ? bool_const(*v != 0) : float_const(*v, t);
  return make(Binary{op, std::move(a), std::move(b)}, t);
}
ExprRef select(ExprRef c, ExprRef a, ExprRef b) {
  // A constant condition picks its branch: the other may hold a constant expression that only
  // the select kept from folding (both branches are pure).
  if (auto k = as_int_const(c); k && c->type == ScalarType::Boolean) return *k ? a : b;
  const ScalarType t = a->type;
  return make(Select{std::move(c), std::move(a), std::move(b)}, t);
}
namespace {

/// `v`, a constant of an integer type, wrapped to integer type `t` as C++20's conversions (and the
/// GPU's cvt) define it: the low bits of the two's complement, sign-extended for a signed `t`.
/// IntConst holds a Uint64 above 2^63 - 1 as its bit pattern (negative).
int64_t wrap_int_const(int64_t v, ScalarType t) {
  const int bits = bit_width(t);
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1, u = static_cast<uint64_t>(v) & mask;
  if (is_signed(t) && (u >> (bits - 1)) != 0) return static_cast<int64_t>(u | ~mask);
  return static_cast<int64_t>(u);
}

/// Integer constants fold here, with docs/language.md's semantics (every operation wraps to the
/// type, // and % are Python's, shifts are PTX's clamping ones; tileslc::dev's helpers compute the
/// same at run time). Printed unfolded, a constant expression that overflows a signed type is
/// undefined C++ that nvcc's optimizer folds as it likes: INT64_MIN - c > d came out false where
/// the wrapped value is true (tools/difffuzz.py's GPU half, 2026-12-05). A division by zero and
/// INT_MIN // -1 stay unfolded (sema reports the static ones; they have no result).
bool is_int_operand(const ExprRef& e, ScalarType t) {
  return e && e->is<IntConst>() && e->type == t && is_integer(t) && t != ScalarType::Boolean;
}

bool less(int64_t a, int64_t b, ScalarType t) {
  return t == ScalarType::Uint64 ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b) : a < b;
}

std::optional<int64_t> fold_int_unary(Op op, const ExprRef& a, ScalarType t) {
  if (!is_int_operand(a, t) || (op != Op::Neg && op != Op::BitNot)) return std::nullopt;
  const uint64_t u = static_cast<uint64_t>(a->get_if<IntConst>()->value);
  return wrap_int_const(static_cast<int64_t>(op == Op::Neg ? uint64_t{0} - u : ~u), t);
}

std::optional<int64_t> fold_int_binary(Op op, const ExprRef& a, const ExprRef& b, ScalarType t) {
  if (!a || !b || a->type != b->type) return std::nullopt;
  const ScalarType ot = a->type;
  const bool comparison = op >= Op::Eq && op <= Op::Ge;
  if (!is_int_operand(a, ot) || !is_int_operand(b, ot) || (comparison ? t != ScalarType::Boolean : t != ot))
    return std::nullopt;
  const int64_t x = a->get_if<IntConst>()->value, y = b->get_if<IntConst>()->value;
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  const bool sgn = is_signed(ot), u64 = ot == ScalarType::Uint64;
  const int bits = bit_width(ot);
  auto wrapped = [&](uint64_t v) { return wrap_int_const(static_cast<int64_t>(v), ot); };
  switch (op) {
    case Op::Add: return wrapped(ux + uy);
    case Op::Sub: return wrapped(ux - uy);
    case Op::Mul: return wrapped(ux * uy);
    case Op::BitAnd: return wrapped(ux & uy);
    case Op::BitOr: return wrapped(ux | uy);
    case Op::BitXor: return wrapped(ux ^ uy);
    case Op::Min: return less(y, x, ot) ? y : x;
    case Op::Max: return less(x, y, ot) ? y : x;
    case Op::Eq: return int64_t{x == y};
    case Op::Ne: return int64_t{x != y};
    case Op::Lt: return int64_t{less(x, y, ot)};
    case Op::Le: return int64_t{!less(y, x, ot)};
    case Op::Gt: return int64_t{less(y, x, ot)};
    case Op::Ge: return int64_t{!less(x, y, ot)};
    case Op::Shl:
    case Op::Shr: {
      // The count reads as the type's unsigned twin; the type's width or more shifts every bit out.
      const uint64_t count = bits >= 64 ? uy : uy & ((uint64_t{1} << bits) - 1);
      if (count >= static_cast<uint64_t>(bits)) return op == Op::Shl || !sgn || x >= 0 ? 0 : -1;
      if (op == Op::Shl) return wrapped(ux << count);
      return u64 ? static_cast<int64_t>(ux >> count) : x >> count;  // x is sign-extended: arithmetic
    }
    case Op::FloorDiv:
    case Op::Mod:
    case Op::TruncDiv:
    case Op::TruncMod: {
      if (y == 0 || (sgn && y == -1 && x == wrap_int_const(int64_t{1} << (bits - 1), ot))) return std::nullopt;
      if (u64) return static_cast<int64_t>(op == Op::FloorDiv || op == Op::TruncDiv ? ux / uy : ux % uy);
      int64_t q = x / y, r = x % y;  // both in range: 64-bit C++ is exact here
      if ((op == Op::FloorDiv || op == Op::Mod) && r != 0 && ((r < 0) != (y < 0))) q -= 1, r += y;
      return wrapped(static_cast<uint64_t>(op == Op::FloorDiv || op == Op::TruncDiv ? q : r));
    }
    default: return std::nullopt;
  }
}

/// Float32 and Float64 constants fold too (+ - * /, unary -, comparisons), each operation rounded
/// once in the constant's type as the GPU rounds it: nvcc folded ceil(Float64(0.1) +
/// Float64(Uint64(2^64 - 17))) through a 64-bit integer as it folds ceil(3e38) (difffuzz's GPU
/// half), so a float constant expression must not reach it either. A Float32 constant may hold an
/// unrounded static float: it is rounded first, as cast does. A zero divisor stays unfolded.
std::optional<double> float_value(const ExprRef& e, ScalarType t) {
  const auto* f = e ? e->get_if<FloatConst>() : nullptr;
  if (!f || e->type != t || (t != ScalarType::Float32 && t != ScalarType::Float64)) return std::nullopt;
  return t == ScalarType::Float32 ? static_cast<double>(static_cast<float>(f->value)) : f->value;
}

std::optional<double> fold_float_unary(Op op, const ExprRef& a, ScalarType t) {
  auto x = op == Op::Neg ? float_value(a, t) : std::nullopt;
  if (!x) return std::nullopt;
  return -*x;
}

std::optional<double> fold_float_binary(Op op, const ExprRef& a, const ExprRef& b, ScalarType t) {
  if (!a || !b || a->type != b->type) return std::nullopt;
  const ScalarType ot = a->type;
  const bool comparison = op >= Op::Eq && op <= Op::Ge;
  if (comparison ? t != ScalarType::Boolean : t != ot) return std::nullopt;
  auto x = float_value(a, ot), y = float_value(b, ot);
  if (!x || !y) return std::nullopt;
  if (comparison) {
    bool r = false;
    switch (op) {
      case Op::Eq: r = *x == *y; break;
      case Op::Ne: r = *x != *y; break;
      case Op::Lt: r = *x < *y; break;
      case Op::Le: r = *x <= *y; break;
      case Op::Gt: r = *x > *y; break;
      case Op::Ge: r = *x >= *y; break;
      default: break;
    }
    return r ? 1.0 : 0.0;
  }
  if (op == Op::Div && *y == 0) return std::nullopt;
  auto apply = [op](auto p, auto q) -> std::optional<double> {
    switch (op) {
      case Op::Add: return static_cast<double>(p + q);
      case Op::Sub: return static_cast<double>(p - q);
      case Op::Mul: return static_cast<double>(p * q);
      case Op::Div: return static_cast<double>(p / q);
      default: return std::nullopt;
    }
  };
  if (ot == ScalarType::Float32) return apply(static_cast<float>(*x), static_cast<float>(*y));
  return apply(*x, *y);
}

}  // namespace

ExprRef cast(ExprRef a, ScalarType t) {
  if (a->type == t) return a;
  // Constants convert at compile time, with the run-time conversion's result: integers wrap,
  // an integer or a Float64 constant rounds once to Float32 (the value is kept as a double).
  if (const auto* i = a->get_if<IntConst>()) {
    const bool u64 = a->type == ScalarType::Uint64;
    if (is_integer(t)) return int_const(wrap_int_const(i->value, t), t);
    if (t == ScalarType::Boolean) return bool_const(i->value != 0);
    if (t == ScalarType::Float64)
      return float_const(u64 ? static_cast<double>(static_cast<uint64_t>(i->value)) : static_cast<double>(i->value), t);
    if (t == ScalarType::Float32)
      return float_const(u64 ? static_cast<float>(static_cast<uint64_t>(i->value)) : static_cast<float>(i->value), t);
  }
  if (const auto* f = a->get_if<FloatConst>(); f && (t == ScalarType::Float32 || t == ScalarType::Float64)) {
    // A Float32 constant may hold an unrounded static float (cutlass.Float32(0.1)): widening it
    // gives the Float32 value, 0.100000001490116..., as the run-time conversion does.
    const bool f32 = t == ScalarType::Float32 || a->type == ScalarType::Float32;
    return float_const(f32 ? static_cast<double>(static_cast<float>(f->value)) : f->value, t);
  }
  return make(Cast{std::move(a)}, t);
}
ExprRef call(const std::string& fn, std::vector<ExprRef> args, ScalarType t) {
  return make(Call{fn, std::move(args)}, t);
}
ExprRef intrinsic(Intrinsic id, std::vector<Imm> imms, std::vector<ExprRef> operands, ScalarType t) {
  const IntrinsicInfo& row = intrinsic_info(id);
  if (imms.size() != row.immediates.size())
    throw std::logic_error(std::string("ir::intrinsic: ") + row.name + " takes " +
                           std::to_string(row.immediates.size()) + " immediates");
  IntrinsicCall c{id, {}, std::move(operands)};
  for (size_t i = 0; i < imms.size(); ++i) {
    if (!immediate_index(id, i, imms[i].text))
      throw std::logic_error(std::string("ir::intrinsic: ") + row.name + " has no " + row.immediates[i].name + " '" +
                             imms[i].text + "'");
    c.imms.push_back(std::move(imms[i].text));
  }
  // floor and ceil of a constant fold here: nvcc folds ceil(3e38) and ceil(1e30) through a 64-bit
  // integer, to -2^63 (tools/difffuzz.py's GPU half, 2026-12-05). Exact in the constant's own
  // type (a Float32 constant may hold an unrounded static float: round it first, as cast does).
  if ((id == Intrinsic::Floor || id == Intrinsic::Ceil) && c.operands.size() == 1 &&
      (t == ScalarType::Float32 || t == ScalarType::Float64) && c.operands[0]->type == t)
    if (const auto* f = c.operands[0]->get_if<FloatConst>()) {
      const double v = t == ScalarType::Float32 ? static_cast<double>(static_cast<float>(f->value)) : f->value;
      return float_const(id == Intrinsic::Floor ? std::floor(v) : std::ceil(v), t);
    }
  return make(std::move(c), t);
}
ExprRef intrinsic(const IntrinsicOp& op, std::vector<ExprRef> operands, ScalarType t) {
  return intrinsic(op.id, std::vector<Imm>(op.imms.begin(), op.imms.end()), std::move(operands), t);
}
ExprRef load(const std::string& ptr, ExprRef offset, ScalarType t) { return make(Load{ptr, std::move(offset)}, t); }
ExprRef address_of(const std::string& ptr, ExprRef offset, ScalarType elem) {
  return make(AddressOf{ptr, std::move(offset)}, elem);
}
ExprRef tensor_data(int host_tensor, ScalarType elem) { return make(TensorData{host_tensor}, elem); }
ExprRef tensor_extent(int host_tensor, int mode) { return make(TensorExtent{host_tensor, mode}, ScalarType::Int64); }
ExprRef tensor_stride(int host_tensor, int mode) { return make(TensorStride{host_tensor, mode}, ScalarType::Int64); }

std::optional<int64_t> as_int_const(const ExprRef& e) {
  if (const auto* i = e ? e->get_if<IntConst>() : nullptr) return i->value;
  return std::nullopt;
}

const std::string* value_name(const Expr& e) {
  if (const auto* v = e.get_if<Var>()) return &v->name;
  if (const auto* p = e.get_if<Param>()) return &p->name;
  return nullptr;
}

bool is_hardware_index(const Expr& e) {
  if (const auto* c = e.get_if<IntrinsicCall>()) return intrinsic_info(c->id).effect == IntrinsicEffect::Index;
  return e.is<Builtin>();
}

namespace {

StmtPtr make(source::SourceRange loc, Stmt::Node n) {
  auto s = std::make_unique<Stmt>();
  s->node = std::move(n);
  s->loc = loc;
  return s;
}

}  // namespace

StmtPtr assign(source::SourceRange loc, std::string var, ExprRef value) {
  return make(loc, Assign{std::move(var), std::move(value)});
}
StmtPtr store(source::SourceRange loc, std::string ptr, ExprRef offset, ExprRef value) {
  return make(loc, Store{std::move(ptr), std::move(offset), std::move(value)});
}
StmtPtr if_(source::SourceRange loc, ExprRef cond, Block then_body, Block else_body) {
  return make(loc, If{std::move(cond), std::move(then_body), std::move(else_body)});
}
StmtPtr for_(source::SourceRange loc, std::string var, ScalarType var_type, ExprRef begin, ExprRef end, ExprRef step,
             int step_sign, bool unroll, Block body) {
  return make(loc, For{std::move(var), std::move(begin), std::move(end), std::move(step), std::move(body), var_type,
                       unroll, static_cast<int8_t>(step_sign)});
}
StmtPtr while_(source::SourceRange loc, ExprRef cond, Block body) {
  return make(loc, While{std::move(cond), std::move(body)});
}
StmtPtr break_(source::SourceRange loc) { return make(loc, Break{}); }
StmtPtr continue_(source::SourceRange loc) { return make(loc, Continue{}); }
StmtPtr return_(source::SourceRange loc) { return make(loc, Return{}); }
StmtPtr sync_threads(source::SourceRange loc) { return make(loc, Sync{}); }
StmtPtr device_printf(source::SourceRange loc, std::string format, std::vector<ExprRef> args) {
  return make(loc, Printf{std::move(format), std::move(args)});
}
StmtPtr launch(source::SourceRange loc, std::unique_ptr<LaunchInfo> info) { return make(loc, Launch{std::move(info)}); }
StmtPtr check(source::SourceRange loc, ExprRef cond, std::string message, ExprRef reported) {
  return make(loc, Check{std::move(cond), std::move(message), std::move(reported)});
}
StmtPtr vec_copy(source::SourceRange loc, std::string dst, ExprRef dst_offset, std::string src, ExprRef src_offset,
                 int vector_bits, bool to_global) {
  return make(loc, VecCopy{std::move(dst), std::move(dst_offset), std::move(src), std::move(src_offset), vector_bits,
                           to_global});
}
StmtPtr eval(source::SourceRange loc, ExprRef expr) { return make(loc, Eval{std::move(expr)}); }

}  // namespace tileslc::ir
