// The IR text printer (print.h says what the text looks like).
#include "ir/print.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace tileslc::ir {

namespace {

const char* infix(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::FloorDiv: return "//";
    case Op::Mod: return "%";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Pow: return "**";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::LogicalAnd: return "&&";
    case Op::LogicalOr: return "||";
    default: return nullptr;  // printed as calls
  }
}

const char* prefix_call(Op op) {
  switch (op) {
    case Op::TruncDiv: return "tdiv";
    case Op::TruncMod: return "tmod";
    case Op::Min: return "min";
    case Op::Max: return "max";
    default: return "?op";
  }
}

std::string float_text(double v, ScalarType t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  const bool f32 = t == ScalarType::Float32 || bit_width(t) < 32;
  std::snprintf(buf, sizeof buf, f32 ? "%.9g" : "%.17g", f32 ? static_cast<double>(static_cast<float>(v)) : v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

/// `CpAsyncWaitGroup<n=2>`: the row's name and each immediate by its name.
std::string intrinsic_head(const IntrinsicCall& c) {
  const IntrinsicInfo& row = intrinsic_info(c.id);
  std::string s = row.name;
  for (size_t i = 0; i < c.imms.size(); ++i)
    s += (i ? ", " : "<") + (i < row.immediates.size() ? row.immediates[i].name : "?") + "=" + c.imms[i];
  return c.imms.empty() ? s : s + ">";
}

bool is_constant(const ExprRef& e) { return e->is<IntConst>() || e->is<FloatConst>(); }

/// The type an operand's sibling `other` (an operand of the same type) implies: a constant takes it.
std::optional<ScalarType> sibling(const ExprRef& other) {
  if (!other || is_constant(other)) return std::nullopt;
  return other->type;
}

/// `:Type` where a leaf's type is not the one its spelling or context implies.
std::string suffix(ScalarType t, ScalarType implied) { return t == implied ? "" : std::string(":") + type_name(t); }

class IrPrinter {
 public:
  IrPrinter(const Program* p, const HostFunction* host) : prog_(p), host_(host) {}

  /// `implied`: the type the context gives `e` (a sibling operand's), which a constant then omits.
  std::string expr(const ExprRef& e, bool top = false, std::optional<ScalarType> implied = std::nullopt) {
    if (!e) return "<null>";
    auto list = [&](const std::vector<ExprRef>& xs) {
      std::string s;
      for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + expr(xs[i], true);
      return s;
    };
    auto paren = [top](const std::string& s) { return top ? s : "(" + s + ")"; };
    const ScalarType t = e->type;
    return std::visit(
        Overloaded{
            [&](const IntConst& c) -> std::string {
              if (t == ScalarType::Boolean) return c.value ? "true" : "false";
              return std::to_string(c.value) + suffix(t, implied.value_or(ScalarType::Int32));
            },
            [&](const FloatConst& c) {
              return float_text(c.value, t) + suffix(t, implied.value_or(ScalarType::Float32));
            },
            [&](const Var& v) { return v.name; },
            [&](const Param& p) { return p.name; },
            [&](const Builtin& b) { return b.name + suffix(t, ScalarType::Int32); },
            [&](const TensorData& d) { return tensor(d.tensor) + ".data"; },
            [&](const TensorExtent& d) { return tensor(d.tensor) + ".shape[" + std::to_string(d.mode) + "]"; },
            [&](const TensorStride& d) { return tensor(d.tensor) + ".stride[" + std::to_string(d.mode) + "]"; },
            [&](const Unary& u) {
              const std::string tok = u.op == Op::Neg          ? "-"
                                      : u.op == Op::BitNot     ? "~"
                                      : u.op == Op::LogicalNot ? "!"
                                                               : "?op";
              std::string inner = expr(u.operand);
              return tok + (tok == "-" && inner[0] == '-' ? "(" + inner + ")" : inner);
            },
            [&](const Binary& b) {
              if (const char* tok = infix(b.op)) {
                if (b.op == Op::Shl || b.op == Op::Shr) return paren(expr(b.lhs) + " " + tok + " " + expr(b.rhs));
                return paren(expr(b.lhs, false, sibling(b.rhs)) + " " + tok + " " + expr(b.rhs, false, sibling(b.lhs)));
              }
              return std::string(prefix_call(b.op)) + "(" + expr(b.lhs, true, sibling(b.rhs)) + ", " +
                     expr(b.rhs, true, sibling(b.lhs)) + ")";
            },
            [&](const Select& s) {
              return paren(expr(s.cond) + " ? " + expr(s.if_true, false, sibling(s.if_false)) + " : " +
                           expr(s.if_false, false, sibling(s.if_true)));
            },
            [&](const Cast& c) { return std::string(type_name(t)) + "(" + expr(c.value, true) + ")"; },
            [&](const Call& c) { return c.fn + "(" + list(c.args) + "):" + type_name(t); },
            [&](const IntrinsicCall& c) { return intrinsic_head(c) + "(" + list(c.operands) + "):" + type_name(t); },
            [&](const Load& l) { return l.ptr + "[" + offset(l.offset) + "]"; },
            [&](const AddressOf& a) { return a.offset ? "&" + a.ptr + "[" + offset(a.offset) + "]" : "&" + a.ptr; },
        },
        e->node);
  }

  void block(const Block& b, int indent) {
    if (b.empty()) line(indent, "pass");
    for (const auto& s : b) stmt(*s, indent);
  }

  void kernel(const Kernel& k) {
    std::string params;
    for (const auto& p : k.params) {
      std::string t = p.is_tma       ? std::string("TmaDescriptor")
                      : p.is_pointer ? std::string(p.is_const ? "const " : "") + type_name(p.type) + "*"
                                     : type_name(p.type);
      params += (params.empty() ? "" : ", ") + p.name + ": " + t;
    }
    line(0, "kernel " + k.name + "(" + params + "):");
    line(1, "# " + k.source_name + "(" + k.specialization + ")");
    if (k.static_threads) line(1, "threads " + std::to_string(k.static_threads));
    if (k.min_blocks_per_mp) line(1, "min_blocks_per_mp " + std::to_string(k.min_blocks_per_mp));
    if (k.cluster_dims[0])
      line(1, "cluster (" + std::to_string(k.cluster_dims[0]) + ", " + std::to_string(k.cluster_dims[1]) + ", " +
                  std::to_string(k.cluster_dims[2]) + ")");
    locals(k.locals);
    for (const auto& a : k.arrays)
      line(1, "array " + a.name + ": " + type_name(a.type) + "[" + std::to_string(a.count) + "]" +
                  tpy_name(a.user_name, a.name));
    for (const auto& b : k.smem)
      line(1, "smem " + b.name + ": " + type_name(b.type) + ", " + std::to_string(b.bytes) + " bytes at " +
                  std::to_string(b.byte_offset) + tpy_name(b.user_name, b.name));
    if (k.smem_bytes) line(1, "smem_bytes " + std::to_string(k.smem_bytes));
    line(1, "body:");
    host_ = nullptr;
    block(k.body, 2);
  }

  void host_function(const HostFunction& h) {
    std::string params;
    for (const auto& p : h.params) params += (params.empty() ? "" : ", ") + p.name + ": " + host_param_type(p);
    line(0, "host " + h.name + "(" + params + "):");
    for (const auto& sb : h.symbols) {
      const std::string tensor = sb.param >= 0 && sb.param < static_cast<int>(h.params.size())
                                     ? h.params[sb.param].name
                                     : "tensor" + std::to_string(sb.param);
      line(1, "symbol " + sb.symbol + " = " + tensor + (sb.is_stride ? ".stride[" : ".shape[") +
                  std::to_string(sb.mode) + "]" + (sb.local == sb.symbol ? "" : " as " + sb.local));
    }
    locals(h.locals);
    line(1, "body:");
    host_ = &h;
    block(h.body, 2);
    host_ = nullptr;
  }

  std::string& text() { return out_; }

 private:
  const Program* prog_;
  const HostFunction* host_;
  std::string out_;

  void line(int indent, const std::string& s) {
    out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_ += s;
    out_ += '\n';
  }

  std::string tensor(int index) const {
    if (host_ && index >= 0 && index < static_cast<int>(host_->params.size())) return host_->params[index].name;
    return "tensor" + std::to_string(index);
  }

  static std::string tpy_name(const std::string& user, const std::string& name) {
    return user.empty() || user == name ? "" : "  # " + user;
  }

  void locals(const std::vector<LocalVar>& vars) {
    for (const auto& v : vars) line(1, "local " + v.name + ": " + type_name(v.type));
  }

  static std::string host_param_type(const HostParam& p) {
    if (p.kind == HostParam::Stream) return "Stream";
    if (p.kind == HostParam::Scalar) return type_name(p.type);
    std::string dims;
    for (const auto& d : p.dims)
      dims += (dims.empty() ? "" : ", ") + (d.is_static ? std::to_string(d.value) : d.symbol);
    if (p.dims.size() == 1) dims += ",";
    return std::string("Tensor[") + type_name(p.type) + ", (" + dims + ")]" +
           (p.align_bytes ? " align " + std::to_string(p.align_bytes) : "");
  }

  /// Element offsets are Int64 (ir.h): a constant one needs no suffix.
  std::string offset(const ExprRef& e) { return expr(e, true, ScalarType::Int64); }
  // Launch dims and sizes are Int64 (ir.h) too.
  std::string dim(const ExprRef& e) { return expr(e, true, ScalarType::Int64); }
  std::string triple(const ExprRef (&xs)[3]) { return "(" + dim(xs[0]) + ", " + dim(xs[1]) + ", " + dim(xs[2]) + ")"; }

  void launch(const LaunchInfo& l, int indent) {
    std::string name = prog_ && l.kernel >= 0 && l.kernel < static_cast<int>(prog_->kernels.size())
                           ? prog_->kernels[l.kernel].name
                           : "kernel" + std::to_string(l.kernel);
    std::string args;
    for (const auto& a : l.args) args += (args.empty() ? "" : ", ") + expr(a, true);
    std::string s = "launch " + name + "(" + args + ") grid=" + triple(l.grid) + " block=" + triple(l.block) +
                    " smem=" + dim(l.smem);
    if (l.cluster[0]) s += " cluster=" + triple(l.cluster);
    if (l.stream) s += " stream=" + expr(l.stream, true);
    line(indent, s);
  }

  void stmt(const Stmt& s, int indent) {
    auto top = [&](const ExprRef& e) { return expr(e, true); };
    std::visit(
        Overloaded{
            [&](const Assign& a) { line(indent, a.var + " = " + top(a.value)); },
            [&](const Store& st) { line(indent, st.ptr + "[" + offset(st.offset) + "] = " + top(st.value)); },
            [&](const VecCopy& v) {
              line(indent, "copy." + std::to_string(v.vector_bits) + (v.to_global ? ".global " : " ") + v.dst + "[" +
                               offset(v.dst_offset) + "] = " + v.src + "[" + offset(v.src_offset) + "]");
            },
            [&](const Eval& e) { line(indent, "eval " + top(e.expr)); },
            [&](const If& i) {
              line(indent, "if " + top(i.cond) + ":");
              block(i.then_body, indent + 1);
              if (!i.else_body.empty()) {
                line(indent, "else:");
                block(i.else_body, indent + 1);
              }
            },
            [&](const For& f) { loop(f, indent); },
            [&](const While& w) {
              line(indent, "while " + top(w.cond) + ":");
              block(w.body, indent + 1);
            },
            [&](const Break&) { line(indent, "break"); },
            [&](const Continue&) { line(indent, "continue"); },
            [&](const Return&) { line(indent, "return"); },
            [&](const Sync&) { line(indent, "sync_threads"); },
            [&](const Printf& p) {
              std::string args;
              for (const auto& a : p.args) args += ", " + top(a);
              line(indent, "printf(" + c_string(p.format) + args + ")");
            },
            [&](const Check& c) {
              line(indent, "check " + top(c.cond) + " else " + c_string(c.message) +
                               (c.reported ? " found " + top(c.reported) : ""));
            },
            [&](const Launch& l) {
              if (l.info)
                launch(*l.info, indent);
              else
                line(indent, "launch <null>");
            },
        },
        s.node);
  }

  void loop(const For& f, int indent) {
    std::string flags = f.unroll ? " unroll" : "";
    if (f.unroll_factor) flags += " unroll_factor=" + std::to_string(f.unroll_factor);
    auto step = as_int_const(f.step);
    const int64_t sign = step ? (*step > 0) - (*step < 0) : 0;
    if (!step || sign != f.step_sign) flags += " step_sign=" + std::to_string(f.step_sign);
    auto bound = [&](const ExprRef& e) { return expr(e, true, f.var_type); };
    line(indent, "for " + f.var + ": " + type_name(f.var_type) + " in range(" + bound(f.begin) + ", " + bound(f.end) +
                     ", " + bound(f.step) + ")" + flags + ":");
    block(f.body, indent + 1);
  }
};

}  // namespace

std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string print(const Program& p) {
  IrPrinter pr(&p, nullptr);
  pr.text() = "# " + p.source_path + " for " + p.arch + ", kernels in namespace " + p.kernel_namespace + "\n";
  for (const auto& k : p.kernels) {
    pr.text() += "\n";
    pr.kernel(k);
  }
  for (const auto& h : p.host_functions) {
    pr.text() += "\n";
    pr.host_function(h);
  }
  return std::move(pr.text());
}

std::string print(const ExprRef& e, const HostFunction* host) { return IrPrinter(nullptr, host).expr(e, true); }

std::string print(const Block& b, const HostFunction* host, const Program* p, int indent) {
  IrPrinter pr(p, host);
  pr.block(b, indent);
  return std::move(pr.text());
}

}  // namespace tileslc::ir
