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

std::shared_ptr<Expr> node(ExprKind k, ScalarType t) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
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

ExprRef int_const(int64_t v, ScalarType t) {
  auto e = node(ExprKind::IntConst, t);
  e->ival = v;
  return e;
}
ExprRef bool_const(bool v) { return int_const(v ? 1 : 0, ScalarType::Boolean); }
ExprRef float_const(double v, ScalarType t) {
  auto e = node(ExprKind::FloatConst, t);
  e->fval = v;
  return e;
}
ExprRef var_ref(const std::string& name, ScalarType t) {
  auto e = node(ExprKind::Var, t);
  e->name = name;
  return e;
}
ExprRef param_ref(const std::string& name, ScalarType t) {
  auto e = node(ExprKind::Param, t);
  e->name = name;
  return e;
}
ExprRef builtin_ref(const std::string& name, ScalarType t) {
  auto e = node(ExprKind::Builtin, t);
  e->name = name;
  return e;
}
ExprRef unary(Op op, ExprRef a, ScalarType t) {
  auto e = node(ExprKind::Unary, t);
  e->op = op;
  e->operands = {std::move(a)};
  return e;
}
ExprRef binary(Op op, ExprRef a, ExprRef b, ScalarType t) {
  auto e = node(ExprKind::Binary, t);
  e->op = op;
  e->operands = {std::move(a), std::move(b)};
  return e;
}
ExprRef select(ExprRef c, ExprRef a, ExprRef b) {
  auto e = node(ExprKind::Select, a->type);
  e->operands = {std::move(c), std::move(a), std::move(b)};
  return e;
}
ExprRef cast(ExprRef a, ScalarType t) {
  if (a->type == t) return a;
  // Constants convert at compile time where exact.
  if (a->kind == ExprKind::IntConst && is_integer(t)) return int_const(a->ival, t);
  if (a->kind == ExprKind::IntConst && t == ScalarType::Boolean) return bool_const(a->ival != 0);
  if (a->kind == ExprKind::IntConst && (t == ScalarType::Float32 || t == ScalarType::Float64))
    return float_const(static_cast<double>(a->ival), t);
  if (a->kind == ExprKind::FloatConst && (t == ScalarType::Float32 || t == ScalarType::Float64))
    return float_const(a->fval, t);
  auto e = node(ExprKind::Cast, t);
  e->operands = {std::move(a)};
  return e;
}
ExprRef call(const std::string& fn, std::vector<ExprRef> args, ScalarType t) {
  auto e = node(ExprKind::Call, t);
  e->name = fn;
  e->operands = std::move(args);
  return e;
}
ExprRef intrinsic(Intrinsic id, std::vector<Imm> imms, std::vector<ExprRef> operands, ScalarType t) {
  auto e = node(ExprKind::Intrinsic, t);
  e->intrinsic = id;
  const IntrinsicInfo& row = intrinsic_info(id);
  if (imms.size() != row.immediates.size())
    throw std::logic_error(std::string("ir::intrinsic: ") + row.name + " takes " +
                           std::to_string(row.immediates.size()) + " immediates");
  for (size_t i = 0; i < imms.size(); ++i) {
    if (!immediate_index(id, i, imms[i].text))
      throw std::logic_error(std::string("ir::intrinsic: ") + row.name + " has no " + row.immediates[i].name + " '" +
                             imms[i].text + "'");
    e->imms.push_back(std::move(imms[i].text));
  }
  e->operands = std::move(operands);
  return e;
}
ExprRef intrinsic(const IntrinsicOp& op, std::vector<ExprRef> operands, ScalarType t) {
  return intrinsic(op.id, std::vector<Imm>(op.imms.begin(), op.imms.end()), std::move(operands), t);
}
ExprRef load(const std::string& ptr, ExprRef offset, ScalarType t) {
  auto e = node(ExprKind::Load, t);
  e->name = ptr;
  e->operands = {std::move(offset)};
  return e;
}
ExprRef address_of(const std::string& ptr, ExprRef offset, ScalarType elem) {
  auto e = node(ExprKind::AddressOf, elem);
  e->name = ptr;
  e->operands = {std::move(offset)};
  return e;
}
ExprRef tensor_data(int host_tensor, ScalarType elem) {
  auto e = node(ExprKind::TensorData, elem);
  e->index = host_tensor;
  return e;
}
ExprRef tensor_extent(int host_tensor, int mode) {
  auto e = node(ExprKind::TensorExtent, ScalarType::Int64);
  e->index = host_tensor;
  e->mode = mode;
  return e;
}
ExprRef tensor_stride(int host_tensor, int mode) {
  auto e = node(ExprKind::TensorStride, ScalarType::Int64);
  e->index = host_tensor;
  e->mode = mode;
  return e;
}

std::optional<int64_t> as_int_const(const ExprRef& e) {
  if (e && e->kind == ExprKind::IntConst) return e->ival;
  return std::nullopt;
}

bool is_hardware_index(const Expr& e) {
  return e.kind == ExprKind::Builtin ||
         (e.kind == ExprKind::Intrinsic && intrinsic_info(e.intrinsic).effect == IntrinsicEffect::Index);
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
                       unroll, step_sign});
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
