// C++ expression printing with C's precedence, so output has only the
// parentheses it needs. Narrow floats never meet arithmetic here (sema
// computes in Float32); conversions to and from them use CUDA's intrinsics.
// Calls of intrinsics (ir/intrinsics.def) are spelled here, once, from their
// row: intrinsic_callee.
#include <cmath>
#include <cstdio>

#include "codegen/printer.h"

namespace tileslc::codegen {

using ir::ExprKind;
using ir::Op;
using ir::ScalarType;

namespace {

struct Printed {
  std::string text;
  int prec;  // C precedence: higher binds tighter
};

constexpr int kPrimary = 16, kUnary = 15;

int binary_prec(Op op) {
  switch (op) {
    case Op::Mul: case Op::Div: case Op::TruncDiv: case Op::TruncMod: return 13;
    case Op::Add: case Op::Sub: return 12;
    case Op::Shl: case Op::Shr: return 11;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return 9;
    case Op::Eq: case Op::Ne: return 8;
    case Op::BitAnd: return 7;
    case Op::BitXor: return 6;
    case Op::BitOr: return 5;
    case Op::LogicalAnd: return 4;
    case Op::LogicalOr: return 3;
    default: return kPrimary;  // printed as calls
  }
}

const char* binary_token(Op op) {
  switch (op) {
    case Op::Mul: return "*";
    case Op::Div: case Op::TruncDiv: return "/";
    case Op::TruncMod: return "%";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::BitAnd: return "&";
    case Op::BitXor: return "^";
    case Op::BitOr: return "|";
    case Op::LogicalAnd: return "&&";
    case Op::LogicalOr: return "||";
    default: return "?";
  }
}

std::string float_literal(double v, ScalarType t) {
  bool f32 = t != ScalarType::Float64;
  if (std::isnan(v)) return f32 ? "__int_as_float(0x7fffffff)" : "__longlong_as_double(0x7fffffffffffffffLL)";
  if (std::isinf(v)) {
    std::string s = f32 ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)";
    return v < 0 ? "(-" + s + ")" : s;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, f32 ? "%.9g" : "%.17g", f32 ? static_cast<double>(static_cast<float>(v)) : v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return f32 ? s + "f" : s;
}

std::string int_literal(int64_t v, ScalarType t) {
  switch (t) {
    case ScalarType::Boolean: return v ? "true" : "false";
    case ScalarType::Int64:
      if (v == INT64_MIN) return "INT64_MIN";
      return "int64_t{" + std::to_string(v) + "}";
    case ScalarType::Uint32: return std::to_string(static_cast<uint32_t>(v)) + "u";
    case ScalarType::Uint64: return "uint64_t{" + std::to_string(static_cast<uint64_t>(v)) + "u}";
    case ScalarType::Int32:
      if (v == INT32_MIN) return "INT32_MIN";
      return std::to_string(v);
    default: return std::string("static_cast<") + ir::cpp_type(t) + ">(" + std::to_string(v) + ")";
  }
}

Printed print(const ir::ExprRef& e, const HostNames* host);

std::string wrap(const Printed& p, int min_prec) { return p.prec >= min_prec ? p.text : "(" + p.text + ")"; }

std::string call_args(const std::vector<ir::ExprRef>& ops, const HostNames* host) {
  std::string s;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + print(ops[i], host).text;
  return s;
}

Printed print_intrinsic(const ir::ExprRef& e, const HostNames* host) {
  std::string call = intrinsic_callee(e->intrinsic, e->imms, e->type) + "(" + call_args(e->operands, host) + ")";
  if (ir::intrinsic_info(e->intrinsic).space == ir::IntrinsicSpace::DevCast)
    call = std::string("static_cast<") + ir::cpp_type(e->type) + ">(" + call + ")";
  return {call, kPrimary};
}

Printed print_cast(const ir::ExprRef& e, const HostNames* host) {
  ScalarType to = e->type, from = e->operands[0]->type;
  const auto& op = e->operands[0];
  // A widened hardware index: cast the register itself.
  if (op->kind == ExprKind::Builtin && op->name.find('.') != std::string::npos && ir::is_integer(to))
    return {std::string("static_cast<") + ir::cpp_type(to) + ">(" + op->name + ")", kPrimary};
  Printed in = print(op, host);
  if (from == ScalarType::Float16) return {"__half2float(" + in.text + ")", kPrimary};
  if (from == ScalarType::BFloat16) return {"__bfloat162float(" + in.text + ")", kPrimary};
  if (to == ScalarType::Float16) return {"__float2half_rn(" + in.text + ")", kPrimary};
  if (to == ScalarType::BFloat16) return {"__float2bfloat16_rn(" + in.text + ")", kPrimary};
  if (to == ScalarType::Float8E4M3FN || to == ScalarType::Float8E5M2)
    return {std::string(ir::cpp_type(to)) + "(" + in.text + ")", kPrimary};
  return {std::string("static_cast<") + ir::cpp_type(to) + ">(" + in.text + ")", kPrimary};
}

Printed print(const ir::ExprRef& e, const HostNames* host) {
  switch (e->kind) {
    case ExprKind::IntConst: {
      std::string s = int_literal(e->ival, e->type);
      return {s, s[0] == '-' ? kUnary : kPrimary};
    }
    case ExprKind::FloatConst: {
      std::string s = float_literal(e->fval, e->type);
      return {s, s[0] == '-' ? kUnary : kPrimary};
    }
    case ExprKind::Var: case ExprKind::Param: return {e->name, kPrimary};
    case ExprKind::Builtin:
      return {std::string("static_cast<") + ir::cpp_type(e->type) + ">(" + e->name + ")", kPrimary};
    case ExprKind::TensorData: {
      const auto& p = host->fn->params.at(e->index);
      return {std::string("static_cast<") + ir::cpp_type(e->type) + "*>(" + p.name + ".data)", kPrimary};
    }
    case ExprKind::TensorExtent: return {host->fn->params.at(e->index).name + ".shape[" + std::to_string(e->mode) + "]", kPrimary};
    case ExprKind::TensorStride: return {host->fn->params.at(e->index).name + ".stride[" + std::to_string(e->mode) + "]", kPrimary};
    case ExprKind::Unary: {
      Printed a = print(e->operands[0], host);
      const char* tok = e->op == Op::Neg ? "-" : e->op == Op::BitNot ? "~" : "!";
      std::string inner = wrap(a, kUnary);
      if (tok[0] == '-' && inner[0] == '-') inner = "(" + inner + ")";
      return {tok + inner, kUnary};
    }
    case ExprKind::Binary: {
      const auto& a = e->operands[0];
      const auto& b = e->operands[1];
      ScalarType t = a->type;
      switch (e->op) {
        case Op::FloorDiv:
          if (ir::is_float(t))
            return {intrinsic_callee(ir::Intrinsic::Floor, {}, t) + "(" + wrap(print(a, host), 13) + " / " +
                        wrap(print(b, host), 14) + ")",
                    kPrimary};
          return {"tileslc::dev::floordiv(" + call_args(e->operands, host) + ")", kPrimary};
        case Op::Mod: return {"tileslc::dev::mod(" + call_args(e->operands, host) + ")", kPrimary};
        case Op::Min: case Op::Max:
          if (ir::is_float(t))
            return {std::string(e->op == Op::Min ? (t == ScalarType::Float64 ? "fmin" : "fminf") : (t == ScalarType::Float64 ? "fmax" : "fmaxf")) +
                        "(" + call_args(e->operands, host) + ")", kPrimary};
          return {std::string("tileslc::dev::") + (e->op == Op::Min ? "min" : "max") + "(" + call_args(e->operands, host) + ")", kPrimary};
        case Op::Pow:
          return {intrinsic_callee(ir::Intrinsic::Pow, {}, t) + "(" + call_args(e->operands, host) + ")", kPrimary};
        default: break;
      }
      int p = binary_prec(e->op);
      std::string text = wrap(print(a, host), p) + " " + binary_token(e->op) + " " + wrap(print(b, host), p + 1);
      // C++ computes 8- and 16-bit integers in int: wrap back to the IR's type at each operation.
      if (ir::is_integer(e->type) && ir::bit_width(e->type) < 32)
        return {std::string("static_cast<") + ir::cpp_type(e->type) + ">(" + text + ")", kPrimary};
      return {text, p};
    }
    case ExprKind::Select: {
      return {wrap(print(e->operands[0], host), 3) + " ? " + wrap(print(e->operands[1], host), 3) + " : " +
                  wrap(print(e->operands[2], host), 2), 2};
    }
    case ExprKind::Cast: return print_cast(e, host);
    case ExprKind::Call: return {e->name + "(" + call_args(e->operands, host) + ")", kPrimary};
    case ExprKind::Intrinsic: return print_intrinsic(e, host);
    case ExprKind::Load: return {e->name + "[" + print(e->operands[0], host).text + "]", kPrimary};
    case ExprKind::AddressOf:
      if (e->operands.empty()) return {"&" + e->name, 15};  // a whole parameter (a TMA descriptor)
      return {"&" + e->name + "[" + print(e->operands[0], host).text + "]", 15};
  }
  return {"/*?*/", kPrimary};
}

}  // namespace

std::string intrinsic_callee(ir::Intrinsic id, const std::vector<std::string>& imms, ScalarType t) {
  const ir::IntrinsicInfo& row = ir::intrinsic_info(id);
  const std::string name = ir::intrinsic_spelling(id, imms);
  switch (row.space) {
    case ir::IntrinsicSpace::Dev:
    case ir::IntrinsicSpace::DevCast: return "tileslc::dev::" + name;
    case ir::IntrinsicSpace::Cuda: return name;
    case ir::IntrinsicSpace::Host: return "tileslc::" + name;
    case ir::IntrinsicSpace::Math:
      if (id == ir::Intrinsic::Abs) return t == ScalarType::Int64 ? "ll" + name : name;
      return t == ScalarType::Float64 ? name : name + "f";
  }
  return name;
}

std::string print_expr(const ir::ExprRef& e, const HostNames* host) { return print(e, host).text; }

std::string host_signature(const ir::HostFunction& h, bool header) {
  std::string sig = "tileslc::Status " + h.name + "(";
  for (size_t i = 0; i < h.params.size(); ++i) {
    const auto& p = h.params[i];
    sig += (i ? ", " : "");
    sig += p.kind == ir::HostParam::Tensor ? "tileslc::TensorView " + p.name : std::string(ir::cpp_type(p.type)) + " " + p.name;
  }
  return sig + (h.params.empty() ? "" : ", ") + "cudaStream_t stream" + (header ? " = nullptr)" : ")");
}

std::string c_abi_signature(const ir::HostFunction& h) {
  std::string sig = "int tileslc_" + h.name + "(";
  for (size_t i = 0; i < h.params.size(); ++i) {
    const auto& p = h.params[i];
    sig += (i ? ", " : "");
    sig += p.kind == ir::HostParam::Tensor ? "const tileslc_tensor_view* " + p.name
                                           : std::string(ir::cpp_type(p.type)) + " " + p.name;
  }
  return sig + (h.params.empty() ? "" : ", ") + "tileslc_stream stream)";
}

}  // namespace tileslc::codegen
