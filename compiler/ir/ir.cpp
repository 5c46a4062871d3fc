// Scalar type tables and the IR node constructors.
#include "ir/ir.h"

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
ExprRef unary(Op op, ExprRef a, ScalarType t) { return make(Unary{op, std::move(a)}, t); }
ExprRef binary(Op op, ExprRef a, ExprRef b, ScalarType t) { return make(Binary{op, std::move(a), std::move(b)}, t); }
ExprRef select(ExprRef c, ExprRef a, ExprRef b) {
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
