// The IR verifier (verify.h). One pass per function: the names it declares
// are collected first, then its statements are walked in program order,
// checking each statement, then each expression of its operands.
#include "ir/verify.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/visit.h"

namespace tileslc::ir {

namespace {

const char* expr_kind_name(ExprKind k) {
  static const char* const kNames[] = {"IntConst",     "FloatConst",   "Var",       "Param",    "Builtin", "TensorData",
                                       "TensorExtent", "TensorStride", "Unary",     "Binary",   "Select",  "Cast",
                                       "Call",         "Load",         "AddressOf", "Intrinsic"};
  return kNames[static_cast<size_t>(k)];
}

const char* stmt_kind_name(StmtKind k) {
  static const char* const kNames[] = {"Assign", "Store", "If",     "For",    "While", "Break",   "Continue",
                                       "Return", "Sync",  "Printf", "Launch", "Check", "VecCopy", "Eval"};
  return kNames[static_cast<size_t>(k)];
}

const char* op_name(Op op) {
  static const char* const kNames[] = {"Neg", "BitNot",     "LogicalNot", "Add", "Sub", "Mul",    "Div",   "FloorDiv",
                                       "Mod", "TruncDiv",   "TruncMod",   "Shl", "Shr", "BitAnd", "BitOr", "BitXor",
                                       "Min", "Max",        "Pow",        "Eq",  "Ne",  "Lt",     "Le",    "Gt",
                                       "Ge",  "LogicalAnd", "LogicalOr",  "None"};
  return kNames[static_cast<size_t>(op)];
}

bool is_unary_op(Op op) { return op == Op::Neg || op == Op::BitNot || op == Op::LogicalNot; }
bool is_comparison(Op op) { return op >= Op::Eq && op <= Op::Ge; }
bool is_logical(Op op) { return op == Op::LogicalAnd || op == Op::LogicalOr; }
bool is_bitwise(Op op) { return op == Op::BitAnd || op == Op::BitOr || op == Op::BitXor; }
bool is_shift(Op op) { return op == Op::Shl || op == Op::Shr; }

std::string tn(ScalarType t) { return type_name(t); }

/// A TMA descriptor argument: MakeTmaDescriptor(View) on a host tensor's data (and its box, and view).
bool is_tma_descriptor(const Expr& a) {
  const auto* c = a.get_if<IntrinsicCall>();
  return c && (c->id == Intrinsic::MakeTmaDescriptor || c->id == Intrinsic::MakeTmaDescriptorView) && !c->operands.empty() && c->operands[0] &&
         c->operands[0]->is<TensorData>();
}

bool has_null(const std::vector<ExprRef>& xs) { return std::find(xs.begin(), xs.end(), nullptr) != xs.end(); }

/// What a function declares, by the name expressions and statements use.
struct Scope {
  bool kernel = true;
  std::map<std::string, ScalarType> locals;  ///< Var
  std::map<std::string, ScalarType> values;  ///< Param: kernel scalars; host scalars and symbol locals
  struct Memory {
    ScalarType type;
    bool writable;
    bool is_tma;
  };
  std::map<std::string, Memory> memory;  ///< Load/Store/AddressOf/VecCopy: pointers, arrays, shared memory
  const HostFunction* host = nullptr;
};

class Verifier {
 public:
  Verifier(const Program& p, std::vector<Problem>& out) : prog_(p), out_(out) {}

  void kernel(const Kernel& k) {
    where_ = "kernel " + k.name;
    Scope sc;
    for (const auto& p : k.params) {
      if (p.is_pointer || p.is_tma)
        declare_memory(sc, p.name, {p.type, !p.is_const && !p.is_tma, p.is_tma}, k.loc);
      else
        declare(sc, sc.values, p.name, p.type, k.loc);
    }
    for (const auto& v : k.locals) declare(sc, sc.locals, v.name, v.type, k.loc);
    for (const auto& a : k.arrays) {
      declare_memory(sc, a.name, {a.type, true, false}, k.loc);
      if (a.count <= 0) problem(k.loc, "register array '" + a.name + "' has " + std::to_string(a.count) + " elements");
    }
    for (const auto& b : k.smem) {
      declare_memory(sc, b.name, {b.type, true, false}, k.loc);
      if (b.byte_offset < 0 || b.bytes < 0 || b.byte_offset + b.bytes > k.smem_bytes)
        problem(k.loc, "shared-memory buffer '" + b.name + "' (" + std::to_string(b.bytes) + " bytes at " +
                           std::to_string(b.byte_offset) + ") lies outside the kernel's " +
                           std::to_string(k.smem_bytes) + " bytes");
    }
    function_body(sc, k.body);
  }

  void host_function(const HostFunction& h) {
    where_ = "host " + h.name;
    Scope sc;
    sc.kernel = false;
    sc.host = &h;
    for (const auto& p : h.params)
      if (p.kind == HostParam::Scalar) declare(sc, sc.values, p.name, p.type, h.loc);
    for (const auto& sb : h.symbols) {
      declare(sc, sc.values, sb.local, ScalarType::Int64, h.loc);
      if (!host_tensor(h, sb.param) || sb.mode < 0 || sb.mode >= static_cast<int>(h.params[sb.param].dims.size()))
        problem(h.loc, "symbol '" + sb.symbol + "' is bound to mode " + std::to_string(sb.mode) +
                           " of host parameter " + std::to_string(sb.param) + ", which is not a tensor with that mode");
    }
    for (const auto& v : h.locals) declare(sc, sc.locals, v.name, v.type, h.loc);
    function_body(sc, h.body);
  }

 private:
  const Program& prog_;
  std::vector<Problem>& out_;
  std::string where_;
  std::set<std::string> defined_;  ///< locals assigned so far, in program order
  int loop_depth_ = 0;

  void problem(source::SourceRange loc, std::string msg) { out_.push_back({where_, loc, std::move(msg)}); }

  void declare(Scope& sc, std::map<std::string, ScalarType>& into, const std::string& name, ScalarType t,
               source::SourceRange loc) {
    if (name.empty()) problem(loc, "a declaration has no name");
    if (sc.locals.count(name) || sc.values.count(name) || sc.memory.count(name))
      problem(loc, "'" + name + "' is declared twice");
    into[name] = t;
  }
  void declare_memory(Scope& sc, const std::string& name, Scope::Memory m, source::SourceRange loc) {
    if (sc.locals.count(name) || sc.values.count(name) || sc.memory.count(name))
      problem(loc, "'" + name + "' is declared twice");
    sc.memory[name] = m;
  }

  static const HostParam* host_tensor(const HostFunction& h, int index) {
    if (index < 0 || index >= static_cast<int>(h.params.size()) || h.params[index].kind != HostParam::Tensor)
      return nullptr;
    return &h.params[index];
  }

  void function_body(const Scope& sc, const Block& b) {
    defined_.clear();
    loop_depth_ = 0;
    block(sc, b);
  }

  void block(const Scope& sc, const Block& b) {
    for (const auto& s : b) {
      if (!s) {
        problem({}, "a block holds a null statement");
        continue;
      }
      statement(sc, *s);
      const bool loop = s->is<For>() || s->is<While>();
      loop_depth_ += loop;
      for_each_block(*s, [&](const Block& inner) { block(sc, inner); });
      loop_depth_ -= loop;
    }
  }

  // ------------------------------------------------------------ statements

  void statement(const Scope& sc, const Stmt& s) {
    const std::string what = stmt_kind_name(s.kind());
    for_each_operand(s, [&](const ExprRef& e) { expr(sc, e, s.loc); });
    auto need = [&](const ExprRef& e, const char* role) {
      if (!e) problem(s.loc, what + " has no " + role);
      return e != nullptr;
    };
    auto want = [&](const ExprRef& e, ScalarType t, const char* role) {
      if (e && e->type != t)
        problem(s.loc, what + ": the " + std::string(role) + " is " + tn(e->type) + ", expected " + tn(t));
    };
    auto integer = [&](const ExprRef& e, const char* role) {
      if (e && !is_integer(e->type))
        problem(s.loc, what + ": the " + std::string(role) + " is " + tn(e->type) + ", expected an integer");
    };
    auto condition = [&](const ExprRef& cond) {
      need(cond, "condition");
      want(cond, ScalarType::Boolean, "condition");
    };
    std::visit(
        Overloaded{
            [&](const Assign& a) {
              need(a.value, "value");
              if (auto t = local(sc, a.var, s.loc, what)) want(a.value, *t, "value");
              defined_.insert(a.var);
            },
            [&](const Store& st) {
              need(st.offset, "offset");
              need(st.value, "value");
              integer(st.offset, "offset");
              if (auto m = memory(sc, st.ptr, s.loc, what, true)) want(st.value, m->type, "stored value");
            },
            [&](const If& i) { condition(i.cond); },
            [&](const While& w) { condition(w.cond); },
            [&](const For& f) { loop(sc, f, s.loc); },
            [&](const Break&) { outside_loop(s, what); },
            [&](const Continue&) { outside_loop(s, what); },
            [&](const Return&) {},
            [&](const Sync&) {
              if (!sc.kernel) problem(s.loc, "Sync in a host function");
            },
            [&](const Printf&) {
              if (!sc.kernel) problem(s.loc, "Printf in a host function");
            },
            [&](const Launch& l) { launch(sc, l, s.loc); },
            [&](const Check& c) {
              if (sc.kernel) problem(s.loc, "Check in a kernel");
              condition(c.cond);
              if (c.message.empty()) problem(s.loc, "Check has an empty message");
            },
            [&](const VecCopy& v) {
              need(v.dst_offset, "destination offset");
              need(v.src_offset, "source offset");
              integer(v.dst_offset, "destination offset");
              integer(v.src_offset, "source offset");
              memory(sc, v.dst, s.loc, what, true);
              memory(sc, v.src, s.loc, what, false);
              if (v.vector_bits < 8 || v.vector_bits > 128 || (v.vector_bits & (v.vector_bits - 1)) != 0)
                problem(s.loc, "VecCopy moves " + std::to_string(v.vector_bits) +
                                   " bits, expected a power of two from 8 to 128");
            },
            [&](const Eval& e) { need(e.expr, "expression"); },
        },
        s.node);
  }

  void outside_loop(const Stmt& s, const std::string& what) {
    if (loop_depth_ == 0) problem(s.loc, what + " outside a loop");
  }

  void loop(const Scope& sc, const For& s, source::SourceRange loc) {
    const std::string what = "For";
    bool complete = true;
    for (const auto& [e, role] :
         {std::pair<const ExprRef&, const char*>{s.begin, "begin"}, {s.end, "end"}, {s.step, "step"}}) {
      if (!e) {
        problem(loc, what + " has no " + role);
        complete = false;
      } else if (e->type != s.var_type) {
        problem(loc,
                what + ": the " + std::string(role) + " is " + tn(e->type) + ", the loop variable " + tn(s.var_type));
      }
    }
    if (!is_integer(s.var_type)) problem(loc, "For counts in " + tn(s.var_type) + ", expected an integer type");
    if (auto t = local(sc, s.var, loc, what); t && *t != s.var_type)
      problem(loc,
              "For: loop variable '" + s.var + "' is declared " + tn(*t) + ", the loop counts in " + tn(s.var_type));
    if (s.step_sign < -1 || s.step_sign > 1)
      problem(loc, "For has step_sign " + std::to_string(s.step_sign) + ", expected -1, 0 or 1");
    if (auto step = complete ? as_int_const(s.step) : std::nullopt) {
      const int64_t sign = (*step > 0) - (*step < 0);
      if (sign == 0 || sign != s.step_sign)
        problem(loc, "For: the step is " + std::to_string(*step) + " but step_sign is " + std::to_string(s.step_sign));
    }
    defined_.insert(s.var);
  }

  void launch(const Scope& sc, const Launch& launch, source::SourceRange loc) {
    if (sc.kernel) problem(loc, "Launch in a kernel");
    if (!launch.info) {
      problem(loc, "Launch has no launch info");
      return;
    }
    const LaunchInfo& l = *launch.info;
    if (l.kernel < 0 || l.kernel >= static_cast<int>(prog_.kernels.size())) {
      problem(loc, "Launch names kernel " + std::to_string(l.kernel) + " of " + std::to_string(prog_.kernels.size()));
      return;
    }
    const Kernel& k = prog_.kernels[l.kernel];
    const int clusters = (l.cluster[0] != nullptr) + (l.cluster[1] != nullptr) + (l.cluster[2] != nullptr);
    if (clusters != 0 && clusters != 3)
      problem(loc, "Launch of " + k.name + " gives " + std::to_string(clusters) + " of 3 cluster dims");
    for (int d = 0; d < 3; ++d) {
      for (const auto& [e, role] : {std::pair<const ExprRef&, const char*>{l.grid[d], "grid"},
                                    {l.block[d], "block"},
                                    {l.cluster[d], "cluster"}}) {
        if (!e && role != std::string("cluster"))
          problem(loc, "Launch of " + k.name + " has no " + role + " dim " + std::to_string(d));
        if (e && !is_integer(e->type))
          problem(loc, "Launch of " + k.name + ": " + role + " dim " + std::to_string(d) + " is " + tn(e->type));
      }
      auto c = as_int_const(l.cluster[d]);
      if (c && *c != k.cluster_dims[d])
        problem(loc, "Launch of " + k.name + ": cluster dim " + std::to_string(d) + " is " + std::to_string(*c) +
                           ", the kernel's " + std::to_string(k.cluster_dims[d]));
    }
    if (!l.smem)
      problem(loc, "Launch of " + k.name + " has no shared-memory size");
    else if (!is_integer(l.smem->type))
      problem(loc, "Launch of " + k.name + ": the shared-memory size is " + tn(l.smem->type));
    if (l.args.size() != k.params.size()) {
      problem(loc, "Launch of " + k.name + " passes " + std::to_string(l.args.size()) + " arguments for " +
                         std::to_string(k.params.size()) + " parameters");
      return;
    }
    for (size_t i = 0; i < l.args.size(); ++i) {
      const auto& a = l.args[i];
      const auto& p = k.params[i];
      const std::string arg = "Launch of " + k.name + ": argument " + std::to_string(i) + " (" + p.name + ")";
      if (!a)
        problem(loc, arg + " is null");
      else if (p.is_tma && !is_tma_descriptor(*a))
        problem(loc, arg + " is a TMA descriptor but not a call on a host tensor's data with its box");
      else if (!p.is_tma && a->type != p.type)
        problem(loc, arg + " is " + tn(a->type) + ", the parameter " + tn(p.type));
    }
  }

  std::optional<ScalarType> local(const Scope& sc, const std::string& name, source::SourceRange loc,
                                  const std::string& what) {
    auto it = sc.locals.find(name);
    if (it == sc.locals.end()) {
      problem(loc, what + " writes '" + name + "', which is not a declared local");
      return std::nullopt;
    }
    return it->second;
  }

  std::optional<Scope::Memory> memory(const Scope& sc, const std::string& name, source::SourceRange loc,
                                      const std::string& what, bool write) {
    auto it = sc.memory.find(name);
    if (it == sc.memory.end()) {
      problem(loc, what + (write ? " writes" : " reads") + " '" + name +
                       "', which is not a declared pointer, array or shared-memory buffer");
      return std::nullopt;
    }
    if (write && !it->second.writable) problem(loc, what + " writes through '" + name + "', which is declared const");
    return it->second;
  }

  // ----------------------------------------------------------- expressions

  void expr(const Scope& sc, const ExprRef& root, source::SourceRange loc) {
    for_each_expr(root, [&](const Expr& e) { node(sc, e, loc); });
  }

  void node(const Scope& sc, const Expr& e, source::SourceRange loc) {
    std::string what = expr_kind_name(e.kind());
    if (const auto* u = e.get_if<Unary>()) what += std::string(" ") + op_name(u->op);
    if (const auto* b = e.get_if<Binary>()) what += std::string(" ") + op_name(b->op);
    auto bad = [&](const std::string& msg) { problem(loc, what + ": " + msg); };
    // The operands a kind requires are there (AddressOf's offset is optional).
    auto present = [&](std::initializer_list<const ExprRef*> xs) {
      for (const ExprRef* x : xs)
        if (!*x) {
          bad("has a null operand");
          return false;
        }
      return true;
    };
    const ScalarType t = e.type;
    std::visit(Overloaded{
                   [&](const IntConst&) {
                     if (is_float(t)) bad("has type " + tn(t));
                   },
                   [&](const FloatConst&) {
                     if (!is_float(t)) bad("has type " + tn(t));
                   },
                   [&](const Var& v) { named_value(sc, v.name, true, t, bad); },
                   [&](const Param& p) { named_value(sc, p.name, false, t, bad); },
                   [&](const Builtin& b) {
                     if (!sc.kernel) bad("'" + b.name + "' in a host function");
                     if (b.name.empty()) bad("has no name");
                   },
                   [&](const TensorData& d) { host_tensor_field(sc, t, d.tensor, std::nullopt, bad); },
                   [&](const TensorExtent& d) { host_tensor_field(sc, t, d.tensor, d.mode, bad); },
                   [&](const TensorStride& d) { host_tensor_field(sc, t, d.tensor, d.mode, bad); },
                   [&](const Unary& u) {
                     if (!is_unary_op(u.op))
                       bad("is not a unary operator");
                     else if (present({&u.operand}))
                       unary(u, t, bad);
                   },
                   [&](const Binary& b) {
                     if (is_unary_op(b.op) || b.op == Op::None_)
                       bad("is not a binary operator");
                     else if (present({&b.lhs, &b.rhs}))
                       binary(b, t, bad);
                   },
                   [&](const Select& s) {
                     if (!present({&s.cond, &s.if_true, &s.if_false})) return;
                     if (s.cond->type != ScalarType::Boolean)
                       bad("the condition is " + tn(s.cond->type) + ", expected Boolean");
                     if (s.if_true->type != t) bad("operand 1 is " + tn(s.if_true->type) + ", the node " + tn(t));
                     if (s.if_false->type != t) bad("operand 2 is " + tn(s.if_false->type) + ", the node " + tn(t));
                   },
                   [&](const Cast& c) { present({&c.value}); },
                   [&](const Call& c) {
                     if (has_null(c.args)) bad("has a null operand");
                     if (c.fn.empty()) bad("has no function name");
                   },
                   [&](const Load& l) {
                     if (present({&l.offset})) element_access(sc, t, l.ptr, l.offset, bad);
                   },
                   [&](const AddressOf& a) { element_access(sc, t, a.ptr, a.offset, bad); },
                   [&](const IntrinsicCall& c) { intrinsic_call(sc, t, c, bad); },
               },
               e.node);
  }

  /// A Var (a local, assigned before this read) or a Param, declared with the node's type.
  template <class Bad>
  void named_value(const Scope& sc, const std::string& name, bool var, ScalarType t, Bad&& bad) {
    const auto& names = var ? sc.locals : sc.values;
    auto it = names.find(name);
    if (it == names.end())
      bad("'" + name + (var ? "' is not a declared local" : "' is not a parameter of the function"));
    else if (it->second != t)
      bad("'" + name + "' is read as " + tn(t) + " but declared " + tn(it->second));
    else if (var && !defined_.count(name))
      bad("'" + name + "' is read before anything assigns it");
  }

  template <class Bad>
  static void intrinsic_call(const Scope& sc, ScalarType t, const IntrinsicCall& c, Bad&& bad) {
    if (has_null(c.operands)) return bad("has a null operand");
    if (intrinsic_immediates(c, bad)) intrinsic_operands(sc, t, c, bad);
  }

  /// An intrinsic's immediates: one per row immediate, each in its domain.
  template <class Bad>
  static bool intrinsic_immediates(const IntrinsicCall& c, Bad&& bad) {
    if (static_cast<size_t>(c.id) >= static_cast<size_t>(Intrinsic::Count_)) {
      bad("names no row of intrinsics.def");
      return false;
    }
    const IntrinsicInfo& row = intrinsic_info(c.id);
    if (c.imms.size() != row.immediates.size()) {
      bad(std::string(row.name) + " has " + std::to_string(c.imms.size()) + " immediates, expected " +
          std::to_string(row.immediates.size()));
      return false;
    }
    bool ok = true;
    for (size_t i = 0; i < c.imms.size(); ++i)
      if (!immediate_index(c.id, i, c.imms[i])) {
        bad(std::string(row.name) + ": " + row.immediates[i].name + " '" + c.imms[i] + "' is not in the row's domain");
        ok = false;
      }
    return ok;
  }

  /// An intrinsic's operands against its row: how many (optional and repeated ones
  /// counted), each of its role's type; its result type `t`; the kind of function it runs in.
  template <class Bad>
  static void intrinsic_operands(const Scope& sc, ScalarType t, const IntrinsicCall& c, Bad&& bad) {
    const IntrinsicInfo& row = intrinsic_info(c.id);
    const std::string name = row.name;
    const bool host = row.space == IntrinsicSpace::Host;
    if (row.space != IntrinsicSpace::Math && host == sc.kernel)
      bad(name + (host ? " (a host query) in a kernel" : " (a device operation) in a host function"));
    if (row.result && *row.result != t) bad(name + " gives " + tn(*row.result) + ", the node is " + tn(t));
    std::vector<const OperandSpec*> specs;
    for (const OperandSpec& o : row.operands) {
      const size_t n = o.repeat >= 0 ? std::stoul(c.imms[static_cast<size_t>(o.repeat)]) : 1;
      for (size_t k = 0; k < n; ++k) specs.push_back(&o);
    }
    const bool last_optional = !row.operands.empty() && row.operands.back().optional;
    if (c.operands.size() != specs.size() && !(last_optional && c.operands.size() + 1 == specs.size())) {
      bad(name + " has " + std::to_string(c.operands.size()) + " operands, expected " + std::to_string(specs.size()) +
          (last_optional ? " or " + std::to_string(specs.size() - 1) : ""));
      return;
    }
    for (size_t i = 0; i < c.operands.size(); ++i) {
      const std::string& want = specs[i]->type;
      const Expr& op = *c.operands[i];
      const std::string role = name + "'s " + specs[i]->role;
      if (want == "ptr" && !op.is<AddressOf>())
        bad(role + " is not an address");
      else if (want == "T" && op.type != t)
        bad(role + " is " + tn(op.type) + ", the node " + tn(t));
      else if (want != "ptr" && want != "T" && want != "any" && type_from_name(want) != op.type)
        bad(role + " is " + tn(op.type) + ", expected " + want);
    }
  }

  /// A Load or AddressOf of type `t`: an integer offset into declared memory of that type
  /// (a TMA descriptor's address, the whole parameter, takes none).
  template <class Bad>
  static void element_access(const Scope& sc, ScalarType t, const std::string& ptr, const ExprRef& offset, Bad&& bad) {
    if (offset && !is_integer(offset->type)) bad("the offset is " + tn(offset->type) + ", expected an integer");
    auto it = sc.memory.find(ptr);
    if (it == sc.memory.end())
      bad("'" + ptr + "' is not a declared pointer, array or shared-memory buffer");
    else if (it->second.is_tma != !offset)
      bad(it->second.is_tma ? "indexes the TMA descriptor '" + ptr + "'"
                            : "takes the address of '" + ptr + "' without an offset");
    else if (!it->second.is_tma && it->second.type != t)
      bad("'" + ptr + "' holds " + tn(it->second.type) + ", the node is " + tn(t));
  }

  /// TensorData (no mode) or TensorExtent/TensorStride of host parameter `index`.
  template <class Bad>
  void host_tensor_field(const Scope& sc, ScalarType t, int index, std::optional<int> mode, Bad&& bad) {
    if (sc.kernel || !sc.host) {
      bad("in a kernel");
      return;
    }
    const HostParam* p = host_tensor(*sc.host, index);
    if (!p) {
      bad("host parameter " + std::to_string(index) + " is not a tensor");
      return;
    }
    if (!mode) {
      if (t != p->type) bad("'" + p->name + "' holds " + tn(p->type) + ", the node is " + tn(t));
      return;
    }
    if (*mode < 0 || *mode >= static_cast<int>(p->dims.size()))
      bad("'" + p->name + "' has no mode " + std::to_string(*mode));
    if (t != ScalarType::Int64) bad("has type " + tn(t) + ", expected Int64");
  }

  template <class Bad>
  static void unary(const Unary& u, ScalarType t, Bad&& bad) {
    const ScalarType a = u.operand->type;
    if (u.op == Op::LogicalNot) {
      if (a != ScalarType::Boolean || t != ScalarType::Boolean)
        bad("on " + tn(a) + " giving " + tn(t) + ", expected Boolean");
      return;
    }
    if (a != t) bad("the operand is " + tn(a) + ", the node " + tn(t));
    if (u.op == Op::BitNot && !is_integer(t)) bad("on " + tn(t) + ", expected an integer");
    if (u.op == Op::Neg && (t == ScalarType::Boolean || is_narrow_float(t))) bad("on " + tn(t));
  }

  template <class Bad>
  static void binary(const Binary& e, ScalarType t, Bad&& bad) {
    const ScalarType a = e.lhs->type, b = e.rhs->type;
    if (is_logical(e.op)) {
      if (a != ScalarType::Boolean || b != ScalarType::Boolean || t != ScalarType::Boolean)
        bad("on " + tn(a) + " and " + tn(b) + " giving " + tn(t) + ", expected Boolean");
      return;
    }
    if (is_comparison(e.op)) {
      if (t != ScalarType::Boolean) bad("gives " + tn(t) + ", expected Boolean");
      if (a != b) bad("compares " + tn(a) + " with " + tn(b));
      return;
    }
    if (a != t) bad("operand 0 is " + tn(a) + ", the node " + tn(t));
    if (!is_shift(e.op) && b != t) bad("operand 1 is " + tn(b) + ", the node " + tn(t));
    if ((is_shift(e.op) && (!is_integer(a) || !is_integer(b))) || (is_bitwise(e.op) && is_float(t)))
      bad("on " + tn(a) + " and " + tn(b) + ", expected integers");
    if (!is_bitwise(e.op) && (t == ScalarType::Boolean || is_narrow_float(t))) bad("computes in " + tn(t));
  }
};

}  // namespace

std::vector<Problem> verify(const Program& p) {
  std::vector<Problem> out;
  Verifier v(p, out);
  std::set<std::string> names;
  for (const auto& k : p.kernels) {
    if (!names.insert(k.name).second) out.push_back({"", k.loc, "two kernels are named '" + k.name + "'"});
    v.kernel(k);
  }
  names.clear();
  for (const auto& h : p.host_functions) {
    if (!names.insert(h.name).second) out.push_back({"", h.loc, "two host functions are named '" + h.name + "'"});
    v.host_function(h);
  }
  return out;
}

}  // namespace tileslc::ir
