// C++ expression printing with C's precedence, so output has only the
// parentheses it needs. Narrow floats never meet arithmetic here (sema
// computes in Float32); conversions to and from them use CUDA's intrinsics.
// Calls of intrinsics (ir/intrinsics.def) are spelled here, once, from their
// row: intrinsic_callee.
#include <cmath>
#include <cstdio>

#include "codegen/printer.h"

namespace tileslc::codegen {

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

/// True when `count` is a constant shift count C++ defines for `t` (below its
/// width; sema rejects others, E0513): `<<`/`>>` then mean what PTX's shl/shr do.
bool static_shift_count(const ir::ExprRef& count, ScalarType t) {
  auto c = ir::as_int_const(count);
  return t == ScalarType::Boolean || (c && *c >= 0 && *c < ir::bit_width(t));
}

std::string wrap(const Printed& p, int min_prec) { return p.prec >= min_prec ? p.text : "(" + p.text + ")"; }

/// The precedence an operand of a binary operator of precedence `parent` needs to print without
/// parentheses: `min_prec` as C's rules give it, raised for readability where C's order surprises
/// readers (as GCC's -Wparentheses says): under a shift, a bitwise or a logical operator, an operand
/// that is another kind of binary operator is parenthesized, `a ^ ((a & 448) >> 3)` rather than
/// `a ^ (a & 448) >> 3`; comparisons under && and || stay bare.
int readable_min_prec(int parent, int operand, int min_prec) {
  const bool confusing_parent = parent == 11 || (parent >= 3 && parent <= 7);  // shifts, & ^ |, && ||
  if (!confusing_parent || operand >= kUnary || operand == parent) return min_prec;
  if ((parent == 3 || parent == 4) && (operand == 8 || operand == 9)) return min_prec;
  return operand + 1;
}

std::string call_args(const std::vector<ir::ExprRef>& ops, const HostNames* host) {
  std::string s;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + print(ops[i], host).text;
  return s;
}

Printed print_intrinsic(const ir::IntrinsicCall& c, ScalarType t, const HostNames* host) {
  std::string call = intrinsic_callee(c.id, c.imms, t) + "(" + call_args(c.operands, host) + ")";
  if (ir::intrinsic_info(c.id).space == ir::IntrinsicSpace::DevCast)
    call = std::string("static_cast<") + ir::cpp_type(t) + ">(" + call + ")";
  return {call, kPrimary};
}

}  // namespace

bool needs_cvt_rzi(ScalarType from, ScalarType to) {
  return ir::is_float(from) && ir::is_integer(to);
}

std::string cvt_rzi_callee(ScalarType to) { return std::string("tileslc::dev::cvt_rzi<") + ir::cpp_type(to) + ">"; }

namespace {

Printed print_cast(const ir::ExprRef& op, ScalarType to, const HostNames* host) {
  const ScalarType from = op->type;
  // A widened hardware index: cast the register itself.
  if (const auto* b = op->get_if<ir::Builtin>(); b && b->name.find('.') != std::string::npos && ir::is_integer(to))
    return {std::string("static_cast<") + ir::cpp_type(to) + ">(" + b->name + ")", kPrimary};
  Printed in = print(op, host);
  if (from == ScalarType::Float16) return {"__half2float(" + in.text + ")", kPrimary};
  if (from == ScalarType::BFloat16) return {"__bfloat162float(" + in.text + ")", kPrimary};
  if (to == ScalarType::Float16) return {"__float2half_rn(" + in.text + ")", kPrimary};
  if (to == ScalarType::BFloat16) return {"__float2bfloat16_rn(" + in.text + ")", kPrimary};
  if (to == ScalarType::Float8E4M3FN || to == ScalarType::Float8E5M2)
    return {std::string(ir::cpp_type(to)) + "(" + in.text + ")", kPrimary};
  if (needs_cvt_rzi(from, to)) return {cvt_rzi_callee(to) + "(" + in.text + ")", kPrimary};
  return {std::string("static_cast<") + ir::cpp_type(to) + ">(" + in.text + ")", kPrimary};
}

Printed print_binary(const ir::Binary& e, ScalarType type, const HostNames* host) {
  const auto& a = e.lhs;
  const auto& b = e.rhs;
  ScalarType t = a->type;
  auto args = [&] { return print(a, host).text + ", " + print(b, host).text; };
  switch (e.op) {
    case Op::FloorDiv: return {"tileslc::dev::floordiv(" + args() + ")", kPrimary};
    case Op::Mod: return {"tileslc::dev::mod(" + args() + ")", kPrimary};
    case Op::Min:
    case Op::Max:
      if (ir::is_float(t))
        return {std::string(e.op == Op::Min ? (t == ScalarType::Float64 ? "fmin" : "fminf")
                                            : (t == ScalarType::Float64 ? "fmax" : "fmaxf")) +
                    "(" + args() + ")",
                kPrimary};
      return {std::string("tileslc::dev::") + (e.op == Op::Min ? "min" : "max") + "(" + args() + ")", kPrimary};
    case Op::Pow: return {intrinsic_callee(ir::Intrinsic::Pow, {}, t) + "(" + args() + ")", kPrimary};
    case Op::Shl:
    case Op::Shr:
      // A count that may be out of range: PTX's clamping shift (device/common.h).
      if (!static_shift_count(b, t))
        return {std::string("tileslc::dev::") + (e.op == Op::Shl ? "shl(" : "shr(") + args() + ")", kPrimary};
      break;
    default: break;
  }
  int p = binary_prec(e.op);
  Printed lhs = print(a, host), rhs = print(b, host);
  std::string text = wrap(lhs, readable_min_prec(p, lhs.prec, p)) + " " + binary_token(e.op) + " " +
                     wrap(rhs, readable_min_prec(p, rhs.prec, p + 1));
  // C++ computes 8- and 16-bit integers in int: wrap back to the IR's type at each operation.
  if (ir::is_integer(type) && ir::bit_width(type) < 32)
    return {std::string("static_cast<") + ir::cpp_type(type) + ">(" + text + ")", kPrimary};
  return {text, p};
}

Printed print(const ir::ExprRef& e, const HostNames* host) {
  const ScalarType t = e->type;
  return std::visit(
      ir::Overloaded{
          [&](const ir::IntConst& c) -> Printed {
            std::string s = int_literal(c.value, t);
            return {s, s[0] == '-' ? kUnary : kPrimary};
          },
          [&](const ir::FloatConst& c) -> Printed {
            std::string s = float_literal(c.value, t);
            return {s, s[0] == '-' ? kUnary : kPrimary};
          },
          [&](const ir::Var& v) -> Printed {
            return {v.name, kPrimary};
          },
          [&](const ir::Param& p) -> Printed {
            return {p.name, kPrimary};
          },
          [&](const ir::Builtin& b) -> Printed {
            return {std::string("static_cast<") + ir::cpp_type(t) + ">(" + b.name + ")", kPrimary};
          },
          [&](const ir::TensorData& d) -> Printed {
            const auto& p = host->fn->params.at(d.tensor);
            return {std::string("static_cast<") + ir::cpp_type(t) + "*>(" + p.name + ".data)", kPrimary};
          },
          [&](const ir::TensorExtent& d) -> Printed {
            return {host->fn->params.at(d.tensor).name + ".shape[" + std::to_string(d.mode) + "]", kPrimary};
          },
          [&](const ir::TensorStride& d) -> Printed {
            return {host->fn->params.at(d.tensor).name + ".stride[" + std::to_string(d.mode) + "]", kPrimary};
          },
          [&](const ir::Unary& u) -> Printed {
            Printed a = print(u.operand, host);
            // -x of a signed integer wraps (-INT_MIN is INT_MIN): tileslc::dev::neg computes it in
            // the unsigned twin, where C++'s -x overflows and nvcc rewrote -a >= -b as a <= b and
            // float(-x) as -float(x); for 8 and 16 bits it negates in 32 and sign-extends by
            // shifts, as nvcc widened static_cast<int16_t>(-x) of -32768 to 32768 (difffuzz's GPU
            // half and a probe on the H100, 2026-12-05). A hardware index is never INT_MIN.
            if (u.op == Op::Neg && ir::is_integer(t) && ir::is_signed(t) && !ir::is_hardware_index(*u.operand))
              return {"tileslc::dev::neg(" + a.text + ")", kPrimary};
            const char* tok = u.op == Op::Neg ? "-" : u.op == Op::BitNot ? "~" : "!";
            std::string inner = wrap(a, kUnary);
            if (tok[0] == '-' && inner[0] == '-') inner = "(" + inner + ")";
            // C++ computes -x and ~x of 8- and 16-bit integers in int: wrap back to the IR's type
            // (-Uint8(255) is 1, not -255), as print_binary does for binary operators.
            if (u.op != Op::LogicalNot && ir::is_integer(t) && ir::bit_width(t) < 32)
              return {std::string("static_cast<") + ir::cpp_type(t) + ">(" + tok + inner + ")", kPrimary};
            return {tok + inner, kUnary};
          },
          [&](const ir::Binary& b) { return print_binary(b, t, host); },
          [&](const ir::Select& s) -> Printed {
            return {wrap(print(s.cond, host), 3) + " ? " + wrap(print(s.if_true, host), 3) + " : " +
                        wrap(print(s.if_false, host), 2),
                    2};
          },
          [&](const ir::Cast& c) { return print_cast(c.value, t, host); },
          [&](const ir::Call& c) -> Printed {
            return {c.fn + "(" + call_args(c.args, host) + ")", kPrimary};
          },
          [&](const ir::IntrinsicCall& c) { return print_intrinsic(c, t, host); },
          [&](const ir::Load& l) -> Printed {
            return {l.ptr + "[" + print(l.offset, host).text + "]", kPrimary};
          },
          [&](const ir::AddressOf& a) -> Printed {
            if (!a.offset) return {"&" + a.ptr, 15};  // a whole parameter (a TMA descriptor)
            return {"&" + a.ptr + "[" + print(a.offset, host).text + "]", 15};
          },
      },
      e->node);
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
  std::string sig = "int " + c_abi_name(h.name) + "(";
  for (size_t i = 0; i < h.params.size(); ++i) {
    const auto& p = h.params[i];
    sig += (i ? ", " : "");
    sig += p.kind == ir::HostParam::Tensor ? "const tileslc_tensor_view* " + p.name
                                           : std::string(ir::cpp_type(p.type)) + " " + p.name;
  }
  return sig + (h.params.empty() ? "" : ", ") + "tileslc_stream stream)";
}

std::string c_packed_signature(const ir::HostFunction& h) {
  return "int " + c_packed_name(h.name) + "(void* const* args, tileslc_stream stream)";
}

}  // namespace tileslc::codegen
