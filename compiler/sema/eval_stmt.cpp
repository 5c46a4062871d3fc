// Statement execution. Static control flow runs in the evaluator (the taken
// branch of a static `if`, every iteration of `range_constexpr`); dynamic
// control flow emits IR. Inside a run-time branch or loop, names that the
// region assigns are first given a local variable, so every path agrees on
// where a value lives (static numbers are promoted to run-time values there,
// other static values may not be rebound: E0502).
#include <algorithm>
#include <cctype>
#include <numeric>

#include "sema/container_mutation.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

void collect_targets(const ast::Expr& t, std::set<std::string>& out) {
  if (const auto* n = t.as<ast::Name>()) out.insert(n->id);
  if (const auto* tu = t.as<ast::Tuple>())
    for (const auto& e : tu->elts) collect_targets(*e, out);
  if (const auto* l = t.as<ast::List>())
    for (const auto& e : l->elts) collect_targets(*e, out);
}

void collect_body(const ast::Body& body, std::set<std::string>& out);

void collect_stmt(const ast::Stmt& s, std::set<std::string>& out) {
  if (const auto* a = s.as<ast::Assign>()) for (const auto& t : a->targets) collect_targets(*t, out);
  if (const auto* a = s.as<ast::AugAssign>()) collect_targets(*a->target, out);
  if (const auto* a = s.as<ast::AnnAssign>()) collect_targets(*a->target, out);
  if (const auto* i = s.as<ast::If>()) { collect_body(i->body, out); collect_body(i->orelse, out); }
  if (const auto* f = s.as<ast::For>()) { collect_targets(*f->target, out); collect_body(f->body, out); collect_body(f->orelse, out); }
  if (const auto* w = s.as<ast::While>()) { collect_body(w->body, out); collect_body(w->orelse, out); }
}

void collect_body(const ast::Body& body, std::set<std::string>& out) {
  for (const auto& s : body) collect_stmt(*s, out);
}

/// Names a statement binds in its scope, including definitions and imports
/// (for poisoning them after an error).
std::set<std::string> bound_by(const ast::Stmt& s) {
  std::set<std::string> out;
  collect_stmt(s, out);
  if (const auto* d = s.as<ast::FunctionDef>()) out.insert(d->name);
  if (const auto* c = s.as<ast::ClassDef>()) out.insert(c->name);
  if (const auto* imp = s.as<ast::Import>())
    for (const auto& a : imp->names) out.insert(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
  if (const auto* imp = s.as<ast::ImportFrom>())
    for (const auto& a : imp->names) out.insert(a.asname.empty() ? a.name : a.asname);
  return out;
}

bool is_trivial(const ir::ExprRef& e) {
  return e->is<ir::IntConst>() || e->is<ir::FloatConst>() || e->is<ir::Param>() ||
         ir::is_hardware_index(*e);
}

}  // namespace

std::set<std::string> assigned_names(const ast::Body& body) {
  std::set<std::string> out;
  collect_body(body, out);
  return out;
}

void Evaluator::emit(ir::StmtPtr s) {
  if (!fn_ || fn_->blocks.empty()) fail(diag::Kind::NotStatic, s->loc, "run-time code cannot appear at module level");
  fn_->blocks.back()->push_back(std::move(s));
}

bool is_reserved_cpp_name(const std::string& name) {
  static const std::set<std::string> reserved = {
      "auto", "bool", "break", "case", "char", "class", "const", "continue", "default", "delete", "do", "double",
      "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "new", "operator", "private",
      "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct", "switch",
      "template", "this", "throw", "typedef", "union", "unsigned", "void", "volatile", "while", "namespace", "using",
      "virtual", "friend", "true", "false", "nullptr", "args", "stream", "tileslc", "std", "threadIdx", "blockIdx",
      "blockDim", "gridDim", "warpSize", "dim3", "size_t", "int32_t", "int64_t", "uint32_t", "uint64_t", "min", "max",
      "status", "and", "or", "not", "xor", "main",
      // C/CUDA functions the generated code calls: a local of the same name would hide them.
      "printf", "abs", "llabs", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "sqrt", "sqrtf",
      "rsqrt", "rsqrtf", "sin", "sinf", "cos", "cosf", "tanh", "tanhf", "erf", "erff", "floor", "floorf", "ceil",
      "ceilf", "fabs", "fabsf", "fma", "fmaf", "pow", "powf", "fmin", "fminf", "fmax", "fmaxf", "grid_x", "grid_y",
      "grid_z", "block_x", "block_y", "block_z", "smem_bytes", "INT32_MIN", "INT64_MIN", "tileslc_smem",
      // types and functions of the CUDA runtime and the C library
      "cudaStream_t", "cudaError_t", "cudaEvent_t", "int8_t", "int16_t", "uint8_t", "uint16_t", "uintptr_t", "ptrdiff_t",
      "malloc", "free", "memcpy", "memset", "exit", "abort", "assert", "__syncthreads", "nullptr_t", "typeid",
      "decltype", "constexpr", "mutable", "export", "noexcept", "static_assert", "thread_local", "alignas",
      "alignof", "char16_t", "char32_t", "wchar_t", "concept", "requires", "co_await", "co_return", "co_yield",
      "asm", "catch", "try", "dynamic_cast", "static_cast", "reinterpret_cast", "const_cast", "explicit", "typename",
      // alternative tokens and newer keywords; macros g++ and nvcc predefine or the C library defines
      "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "char8_t", "consteval", "constinit",
      "linux", "unix", "errno", "cudaSuccess", "tileslc_kernels"};
  return reserved.count(name) > 0 || name.rfind("__", 0) == 0 || name.rfind("tl_", 0) == 0;
}

namespace {

/// All capitals (NULL, EOF, M_PI, TILESLC_DEVICE): how macros are spelled. A namespace
/// named so could be replaced by one; locals and symbols are used only where sema puts them.
bool macro_like(const std::string& name) {
  return !name.empty() && std::isupper(static_cast<unsigned char>(name[0])) &&
         std::none_of(name.begin(), name.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
}

}  // namespace

std::string default_kernel_namespace(const std::string& source_path) {
  std::string file = source_path;
  const size_t slash = file.find_last_of("/\\");
  if (slash != std::string::npos) file = file.substr(slash + 1);
  const size_t dot = file.rfind('.');
  if (dot != std::string::npos && dot > 0) file = file.substr(0, dot);
  std::string stem;
  for (char c : file) {
    const char k = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (k == '_' && !stem.empty() && stem.back() == '_') continue;  // "__" is reserved anywhere in C++
    stem += k;
  }
  if (stem.empty() || stem == "_") stem = "kernels";
  if (std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "_" + stem;
  if (stem[0] == '_' && std::isupper(static_cast<unsigned char>(stem[1]))) stem = "m" + stem;  // _X is reserved
  if (is_reserved_cpp_name(stem) || macro_like(stem)) stem += "_";
  return "tileslc_kernels::" + stem;
}

std::string check_kernel_namespace(const std::string& name) {
  size_t start = 0;
  while (true) {
    const size_t end = name.find("::", start);
    const std::string part = name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0])) ||
        !std::all_of(part.begin(), part.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      return "'" + part + "' is not a C++ identifier";
    if (is_reserved_cpp_name(part) || macro_like(part) || part.find("__") != std::string::npos ||
        (part[0] == '_' && part.size() > 1 && std::isupper(static_cast<unsigned char>(part[1]))))
      return "'" + part + "' is reserved in the generated C++";
    if (end == std::string::npos) return "";
    start = end + 2;
  }
}

std::string Evaluator::unique_name(const std::string& hint) {
  std::string base;
  for (char c : hint) base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "v" + base;
  if (base.rfind("__", 0) == 0 || base.rfind("tl_", 0) == 0) base = "u" + base;
  if (is_reserved_cpp_name(base)) base += "_";
  std::string name = base;
  for (int k = 1; fn_->used_names.count(name); ++k) name = base + "_" + std::to_string(k);
  fn_->used_names.insert(name);
  return name;
}

std::string Evaluator::new_local(const std::string& hint, ScalarType t) {
  std::string name = unique_name(hint);
  fn_->locals->push_back({name, t});
  return name;
}

std::string Evaluator::owned_local(const std::string& name, ScalarType t) {
  auto it = fn_->debug_vars.find(name);
  if (it == fn_->debug_vars.end() || it->second.type != t) return new_local(name, t);
  std::string var = it->second.name;
  fn_->debug_vars.erase(it);
  return var;
}

void Evaluator::debug_bind(const std::string& name, const Value& v, source::SourceRange r) {
  if (!opts_.debug || !fn_ || !fn_->kernel || name == "_") return;
  if (!v.is_number() && v.kind() != Value::Kind::Dyn) return;
  // A static float shown as Python holds it (to_expr would round it to Float32).
  ir::ExprRef e = v.kind() == Value::Kind::Float ? ir::float_const(v.f(), ScalarType::Float64) : to_expr(v, r);
  auto it = fn_->debug_vars.find(name);
  if (it == fn_->debug_vars.end() || it->second.type != e->type)
    it = fn_->debug_vars.insert_or_assign(name, ir::LocalVar{new_local(name, e->type), e->type}).first;
  emit(ir::assign(r, it->second.name, e));
}

Value Evaluator::materialize(const Value& v, const std::string& hint, source::SourceRange r) {
  if (v.kind() == Value::Kind::Dyn) {
    if (is_trivial(v.expr())) return v;
    if (const auto* x = v.expr()->get_if<ir::Var>(); x && fn_->immutable_vars.count(x->name)) return v;
    std::string name = new_local(hint, v.type());
    fn_->immutable_vars.insert(name);
    if (ir::is_integer(v.type()))
      if (int64_t d = known_divisor(v.expr()); d > 1) fn_->divisors[name] = d;
    emit(ir::assign(r, name, v.expr()));
    return Value::dyn(ir::var_ref(name, v.type()), v.origin());
  }
  if (v.is_list()) {  // a list stays one object: its elements are materialized in place
    auto& items = v.list_items();
    for (size_t i = 0; i < items.size(); ++i) items[i] = materialize(items[i], hint + "_" + std::to_string(i), r);
    return v;
  }
  if (v.kind() == Value::Kind::Tuple) {
    std::vector<Value> xs;
    for (size_t i = 0; i < v.elts().size(); ++i) xs.push_back(materialize(v.elts()[i], hint + "_" + std::to_string(i), r));
    return Value::tuple(std::move(xs));
  }
  return v;
}

namespace {

/// A tensor name promoted by promote_for_region (its origin a variable, `b.owned_var`) rebound to
/// a view of the same memory with the same layout and swizzle: stores the new origin into the
/// variable and returns true; false when `v` is not such a view (the caller reports E0502 as for
/// any static rebinding in run-time control flow).
bool rebind_tensor_origin(Evaluator& ev, Binding& b, const Value& v, source::SourceRange r) {
  if (b.owned_var.empty() || b.value.kind() != Value::Kind::Tensor || v.kind() != Value::Kind::Tensor) return false;
  const TensorValue &old = *b.value.tensor(), &now = *v.tensor();
  // Compared by value (layouts by Layout::identical), not through their printed forms.
  const bool same_swizzle = old.swizzle.has_value() == now.swizzle.has_value() &&
                            (!old.swizzle || (old.swizzle->bits == now.swizzle->bits && old.swizzle->base == now.swizzle->base &&
                                              old.swizzle->shift == now.swizzle->shift));
  if (old.ptr != now.ptr || old.space != now.space || old.dtype != now.dtype || !same_swizzle ||
      !old.layout.identical(now.layout) || now.iterator)
    return false;
  ir::ExprRef off = now.offset ? now.offset : ir::int_const(0, ScalarType::Int64);
  auto known = ev.fn_->divisors.find(b.owned_var);
  if (known != ev.fn_->divisors.end() && ev.known_divisor(off) % known->second != 0) {
    // Accesses through the view were proved aligned with the first origin's divisor.
    auto& d = ev.error(diag::Kind::StaticRebindInDynamic, r,
                       "this view's origin is known only to be a multiple of " + std::to_string(ev.known_divisor(off)) +
                           " elements, but the view was used as a multiple of " + std::to_string(known->second));
    d.label(b.where, "the view's first origin, a multiple of " + std::to_string(known->second));
    d.help("slice at offsets of the same granularity (e.g. whole stages)");
    ev.abort_entry();
  }
  ev.emit(ir::assign(r, b.owned_var, off));
  return true;
}

}  // namespace

void Evaluator::bind_name(const std::string& name, Value v, source::SourceRange r) {
  Env& env = scope();
  frame().maybe_unbound.erase(name);
  auto it = env.find(name);
  if (v.kind() == Value::Kind::Dyn) {
    // Reassigning a name that owns a local: store into it (converting inside
    // run-time regions, where every path must agree on the variable).
    if (it != env.end() && !it->second.owned_var.empty() && it->second.value.kind() == Value::Kind::Dyn) {
      ScalarType vt = it->second.value.type();
      if (vt == v.type() || frame().dyn_depth > 0) {
        if (vt != v.type() && ir::is_float(v.type()) && !ir::is_float(vt)) {
          auto& d = error(diag::Kind::LossyConversion, r,
                          "assigning a " + std::string(ir::type_name(v.type())) + " value to '" + name +
                              "', which holds " + ir::type_name(vt) + " on other run-time paths");
          d.label(it->second.where, "'" + name + "' first assigned here");
          d.help("convert explicitly, e.g. " + name + " = cutlass." + ir::type_name(vt) + "(...), or initialize '" +
                 name + "' with a float");
          abort_entry();
        }
        emit(ir::assign(r, it->second.owned_var, to_expr_as(v, vt, r)));
        it->second.value = Value::dyn(ir::var_ref(it->second.owned_var, vt), v.origin());
        return;
      }
    }
    int depth = frame().dyn_depth;
    if (it != env.end() && it->second.depth < depth) {
      auto& d = error(diag::Kind::StaticRebindInDynamic, r,
                      "'" + name + "' holds " + describe(it->second.value) +
                          " and cannot be rebound to a run-time value inside run-time control flow");
      d.label(it->second.where, "'" + name + "' bound here");
      abort_entry();
    }
    if (is_trivial(v.expr()) && depth == 0) {
      debug_bind(name, v, r);
      env[name] = Binding{v, "", r, depth};
      return;
    }
    std::string var = owned_local(name, v.type());
    emit(ir::assign(r, var, v.expr()));
    env[name] = Binding{Value::dyn(ir::var_ref(var, v.type()), v.origin()), var, r, depth};
    return;
  }
  if (it != env.end() && !it->second.owned_var.empty() && it->second.depth < frame().dyn_depth && v.is_number()) {
    // A promoted run-time variable (section "Variables in run-time control
    // flow" of docs/language.md) takes the number as a run-time value.
    return bind_name(name, Value::dyn(to_expr_as(v, it->second.value.type(), r), r), r);
  }
  if (it != env.end() && rebind_tensor_origin(*this, it->second, v, r)) {
    debug_view(name, v, r);
    return;
  }
  // Rebinding a static tuple inside a run-time loop's body is a new value for the rest of the
  // body when the body did not read the old one first (then the old value is not carried
  // from one iteration to the next): a loop's body rebinding a tuple of run-time coordinates.
  // After the region the name is unbound on the paths that rebound it (merge_envs, run_loop_body).
  const auto read = frame().outer_reads.find(name);
  const bool carried = it != env.end() && it->second.depth >= 0 && it->second.depth < frame().dyn_depth &&
                       static_cast<size_t>(it->second.depth) < frame().region_starts.size() && read != frame().outer_reads.end() &&
                       read->second > frame().region_starts[static_cast<size_t>(it->second.depth)];
  // (The innermost run-time region is a loop's body: unrolled loops inside it do not count.)
  const auto loop = std::find_if(frame().loops.rbegin(), frame().loops.rend(), [](const LoopInfo& l) { return l.dynamic; });
  const bool in_loop_body = loop != frame().loops.rend() && loop->dyn_depth == frame().dyn_depth - 1;
  const bool fresh_in_region = it != env.end() && it->second.depth < frame().dyn_depth && !carried && in_loop_body &&
                               static_cast<size_t>(it->second.depth) < frame().region_starts.size() && v.kind() == Value::Kind::Tuple &&
                               it->second.value.kind() == Value::Kind::Tuple;
  if (it != env.end() && it->second.depth < frame().dyn_depth && !static_equal(it->second.value, v) && !fresh_in_region) {
    auto& d = error(diag::Kind::StaticRebindInDynamic, r,
                    "static variable '" + name + "' is rebound inside run-time control flow");
    d.label(it->second.where, "'" + name + "' bound here with " + describe(it->second.value));
    if (it->second.value.kind() == Value::Kind::Tensor && v.kind() == Value::Kind::Tensor) {
      // Views of one tensor at run-time origins are fine (promote_for_region); this one differs more.
      d.note("a tensor view rebound here must view the same memory with the same layout (only its origin may change); "
             "its layout was " + it->second.value.tensor()->layout.to_string() + ", this one's is " + v.tensor()->layout.to_string());
      d.help("slice the same tensor the same way inside the loop (t[None, None, stage]), or unroll the loop "
             "(range_constexpr, range(..., unroll_full=True) over static bounds)");
      abort_entry();
    }
    d.note("a static value cannot depend on a run-time condition or iteration");
    d.help("use cutlass.const_expr(...) or range_constexpr(...) to make the control flow static");
    abort_entry();
  }
  if (v.is_number()) debug_bind(name, v, r);
  debug_view(name, v, r);
  if (fn_ && v.kind() == Value::Kind::Tuple) v = materialize(v, name, r);
  // The first name a shared-memory buffer or register fragment is bound to is how the user knows it.
  if (fn_ && fn_->kernel && v.kind() == Value::Kind::Tensor && v.tensor() && v.tensor()->space == MemSpace::Smem)
    for (auto& b : fn_->kernel->smem)
      if (b.name == v.tensor()->ptr && b.user_name.empty()) b.user_name = name;
  if (fn_ && fn_->kernel && v.kind() == Value::Kind::Tensor && v.tensor() && v.tensor()->space == MemSpace::Rmem)
    for (auto& a : fn_->kernel->arrays)
      if (a.name == v.tensor()->ptr && a.user_name.empty()) a.user_name = name;
  env[name] = Binding{std::move(v), "", r, frame().dyn_depth};
}

void Evaluator::assign(const ast::Expr& target, Value v, source::SourceRange r) {
  if (const auto* n = target.as<ast::Name>()) return bind_name(n->id, std::move(v), target.range);
  if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
    const auto& elts = target.kind == ast::ExprKind::Tuple ? target.as<ast::Tuple>()->elts : target.as<ast::List>()->elts;
    size_t star = elts.size();
    for (size_t i = 0; i < elts.size(); ++i)
      if (elts[i]->kind == ast::ExprKind::Starred) {
        if (star != elts.size()) fail(diag::Kind::InvalidAssignTarget, elts[i]->range, "multiple starred expressions in assignment");
        star = i;
      }
    if (v.kind() != Value::Kind::Tuple && v.kind() != Value::Kind::Dict && v.kind() != Value::Kind::Str &&
        v.kind() != Value::Kind::Slice)
      fail(diag::Kind::TypeMismatch, r, "cannot unpack " + describe(v) + " into " + std::to_string(elts.size()) + " names");
    auto vals = iterate(v, r, "unpacking");
    const size_t fixed = elts.size() - (star < elts.size() ? 1 : 0);
    if (star == elts.size() ? vals.size() != elts.size() : vals.size() < fixed)
      fail(diag::Kind::WrongArity, target.range, "expected " + std::string(star < elts.size() ? "at least " : "") +
                                                     std::to_string(fixed) + " values to unpack, found " +
                                                     std::to_string(vals.size()));
    if (star == elts.size()) {
      for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], vals[i], r);
      return;
    }
    // a, *rest, z = xs: the starred name takes the middle as a list.
    const size_t tail = elts.size() - star - 1, middle = vals.size() - fixed;
    for (size_t i = 0; i < star; ++i) assign(*elts[i], vals[i], r);
    assign(*elts[star]->as<ast::Starred>()->value,
           Value::list(std::vector<Value>(vals.begin() + static_cast<std::ptrdiff_t>(star),
                                          vals.begin() + static_cast<std::ptrdiff_t>(star + middle))), r);
    for (size_t i = 0; i < tail; ++i) assign(*elts[star + 1 + i], vals[star + middle + i], r);
    return;
  }
  if (const auto* s = target.as<ast::Subscript>()) {
    Value base = eval(*s->value);
    Value idx = eval(*s->index);
    if (base.is_list()) {  // l[i] = x: the list object changes, every name bound to it sees it
      reject_outer_container_change(*this, base, *s->value, target.range, "change an item of");
      auto& items = base.list_items();
      const int64_t n = static_cast<int64_t>(items.size());
      int64_t i = require_static_int(idx, s->index->range, "a list index");
      if (i < -n || i >= n)
        fail(diag::Kind::IndexOutOfRange, s->index->range,
             "list assignment index " + std::to_string(i) + " is out of range for a list of length " + std::to_string(n));
      items[static_cast<size_t>(i < 0 ? i + n : i)] = std::move(v);
      return;
    }
    if (base.kind() == Value::Kind::Dict) {
      reject_outer_container_change(*this, base, *s->value, target.range, "change an item of");
      dict_set(base, idx, std::move(v), s->index->range);
      return;
    }
    if (base.kind() != Value::Kind::Tensor)
      fail(diag::Kind::StoreToNonTensor, s->value->range, "cannot store an element into " + describe(base));
    tensor_store(base, idx, v, target.range);
    return;
  }
  if (const auto* at = target.as<ast::Attribute>()) {
    Value base = eval(*at->value);
    store_attribute(base, at->attr, std::move(v), at->attr_range);
    return;
  }
  if (target.kind == ast::ExprKind::Starred) reject_unsupported(target);
  fail(diag::Kind::InvalidAssignTarget, target.range, "cannot assign to this expression");
}

Flow Evaluator::exec_body(const ast::Body& body) {
  for (const auto& s : body) {
    Frame& fr = frame();
    if (!fr.is_entry && !fr.is_module) {
      // Inside an inlined helper, an error abandons the caller's statement.
      Flow f = exec(*s);
      if (f != Flow::Normal) return f;
      continue;
    }
    // Recovery: after an error in a statement of a kernel, host function or
    // module, restore the evaluator's stacks, poison the names the statement
    // would have bound (their uses abort silently, so one mistake gives one
    // error), and go on to find the next mistake.
    const UnwindPoint point = unwind_point();
    try {
      Flow f = exec(*s);
      if (f != Flow::Normal) return f;
    } catch (const AbortEntry&) {
      unwind_to(point);
      if (diags_.error_count() >= 100) throw;
      for (const auto& name : bound_by(*s)) scope()[name] = Binding{Value{}, "", s->range, point.dyn_depth};
    }
  }
  return Flow::Normal;
}

Evaluator::UnwindPoint Evaluator::unwind_point() {
  return {frames_.size(), inline_stack_.size(), frame().loops.size(), fn_ ? fn_->blocks.size() : 0, fn_, frame().dyn_depth};
}

void Evaluator::unwind_to(const UnwindPoint& p) {
  frames_.resize(p.frames);
  inline_stack_.resize(p.inlined);
  fn_ = p.fn;
  if (fn_) fn_->blocks.resize(p.blocks);
  frame().dyn_depth = p.dyn_depth;
  frame().loops.resize(p.loops);
}

Flow Evaluator::exec(const ast::Stmt& s) {
  using K = ast::StmtKind;
  count_step(s.range);
  source::SourceRange saved = stmt_loc_;
  stmt_loc_ = s.range;
  struct Restore { source::SourceRange& ref; source::SourceRange v; ~Restore() { ref = v; } } restore{stmt_loc_, saved};
  switch (s.kind) {
    case K::ExprStmt: exec_expr_stmt(*s.as<ast::ExprStmt>()); break;
    case K::Assign: exec_assign(*s.as<ast::Assign>()); break;
    case K::AugAssign: exec_aug_assign(*s.as<ast::AugAssign>()); break;
    case K::AnnAssign: exec_ann_assign(*s.as<ast::AnnAssign>()); break;
    case K::Pass: break;
    case K::Return: return exec_return(*s.as<ast::Return>());
    case K::Break: case K::Continue: return exec_break_continue(s);
    case K::Assert: exec_assert(*s.as<ast::Assert>()); break;
    case K::If: return exec_if(*s.as<ast::If>());
    case K::For: if (s.as<ast::For>()->is_async) reject_unsupported(s); return exec_for(*s.as<ast::For>());
    case K::While: return exec_while(*s.as<ast::While>());
    case K::FunctionDef: exec_function_def(*s.as<ast::FunctionDef>()); break;
    case K::Import: exec_import(*s.as<ast::Import>()); break;
    case K::ImportFrom: exec_import_from(*s.as<ast::ImportFrom>()); break;
    case K::Try: return exec_try(*s.as<ast::Try>());
    case K::Raise: exec_raise(*s.as<ast::Raise>());
    case K::ClassDef: exec_class_def(*s.as<ast::ClassDef>()); break;
    case K::With: case K::Global: case K::Nonlocal: case K::Delete:
      reject_unsupported(s);
  }
  return Flow::Normal;
}

void Evaluator::exec_expr_stmt(const ast::ExprStmt& e) {
  discarded_ = e.value.get();
  Value v = eval(*e.value);
  discarded_ = nullptr;
  if (v.kind() == Value::Kind::KernelCall) {
    auto& d = error(diag::Kind::KernelCalledDirectly, e.value->range,
                    "kernel '" + v.kcall()->fn->def->name + "' is called but never launched");
    d.help("launch it: " + v.kcall()->fn->def->name + "(...).launch(grid=(...), block=(...))");
    abort_entry();
  }
}

void Evaluator::exec_assign(const ast::Assign& a) {
  Value v = eval(*a.value);
  for (const auto& t : a.targets) assign(*t, v, a.value->range);
}

void Evaluator::exec_aug_assign(const ast::AugAssign& a) {
  Value cur = eval(*a.target);
  Value rhs = eval(*a.value);
  Value v = eval_binop(a.op, cur, rhs, a.range, a.op_range);
  assign(*a.target, v, a.range);
}

void Evaluator::exec_ann_assign(const ast::AnnAssign& a) {
  if (frame().class_body && a.target->as<ast::Name>()) {
    // A class body keeps its annotations in __annotations__, evaluated, as Python does
    // (@cute.struct reads its fields from them).
    Value ann = eval(*a.annotation);
    Env& ns = scope();
    auto it = ns.find("__annotations__");
    if (it == ns.end()) it = ns.emplace("__annotations__", Binding{Value::dict(), "", a.range, frame().dyn_depth}).first;
    it->second.value.dict_items().emplace_back(Value::str(a.target->as<ast::Name>()->id), ann);
  }
  if (!a.value) return;
  Value v = eval(*a.value);
  Value ann = eval(*a.annotation);
  if (ann.kind() == Value::Kind::Type && v.is_scalar()) {
    if (!fn_) fail(diag::Kind::NotStatic, a.annotation->range, "typed run-time values cannot be created at module level");
    v = Value::dyn(to_expr_as(v, ann.type(), a.value->range), a.value->range);
  }
  assign(*a.target, v, a.value->range);
}

Flow Evaluator::exec_return(const ast::Return& r) {
  Frame& f = frame();
  if (f.is_module || f.class_body) fail(diag::Kind::DynamicControlInStatic, r.range, "'return' outside a function");
  Value v = r.value ? eval(*r.value) : Value::none();
  if (f.is_entry) {
    if (v.kind() != Value::Kind::None)
      fail(diag::Kind::ReturnInKernel, r.value->range, "kernels and host functions cannot return a value");
    if (f.dyn_depth > 0) emit(ir::return_(r.range));
    return Flow::Return;
  }
  if (f.dyn_depth > 0) {
    auto& d = error(diag::Kind::DynamicControlInStatic, r.range,
                    "'return' inside run-time control flow of an inlined helper is not supported");
    d.help("assign the result to a variable on each path and return it once at the end");
    abort_entry();
  }
  if (v.kind() == Value::Kind::Dyn) v = materialize(v, f.def->name + "_result", r.range);
  f.return_value = v;
  return Flow::Return;
}

Flow Evaluator::exec_break_continue(const ast::Stmt& s) {
  Frame& f = frame();
  bool is_break = s.kind == ast::StmtKind::Break;
  if (f.loops.empty())
    fail(diag::Kind::BreakOutsideLoop, s.range, std::string("'") + (is_break ? "break" : "continue") + "' outside a loop");
  const LoopInfo& loop = f.loops.back();
  if (loop.dynamic) {
    emit(is_break ? ir::break_(s.range) : ir::continue_(s.range));
  } else if (f.dyn_depth > loop.dyn_depth) {
    auto& d = error(diag::Kind::DynamicControlInStatic, s.range,
                    std::string("'") + (is_break ? "break" : "continue") +
                        "' under a run-time condition cannot leave a loop unrolled at compile time");
    d.help("make the condition static with cutlass.const_expr, or use a run-time range(...) loop");
    abort_entry();
  }
  return is_break ? Flow::Break : Flow::Continue;
}

void Evaluator::exec_assert(const ast::Assert& a) {
  Value t = eval(*a.test);
  if (!t.is_static()) {
    auto& d = error(diag::Kind::NotStatic, a.test->range, "assert needs a condition known while compiling");
    d.help("use an if statement for run-time checks");
    abort_entry();
  }
  if (truthy_static(t, a.test->range)) return;
  std::string msg = "assertion failed";
  if (a.msg) {
    Value m = eval(*a.msg);
    msg += ": " + (m.kind() == Value::Kind::Str ? m.s() : repr(m));
  }
  fail(diag::Kind::StaticAssertFailed, a.test->range, msg);
}

void Evaluator::exec_function_def(const ast::FunctionDef& d) {
  auto fn = std::make_shared<FunctionValue>();
  fn->def = &d;
  fn->module = frame().module;
  fn->closure = capture_closure(frame());  // a def inside a function sees that function's names
  if (fn->closure) fn->self = fn;
  // Decorators apply bottom-up, as in Python: `@staticmethod @cute.jit def f` is a static jit function.
  std::vector<std::pair<const ast::Expr*, Value>> decorators;
  for (const auto& deco : d.decorators) {
    const ast::Expr* target = deco.get();
    if (const auto* c = deco->as<ast::Call>()) target = c->func.get();
    Value dv = eval(*target);
    if (is_opaque(dv)) {  // @some_host_module.decorator: the function is host-only Python
      scope()[d.name] = Binding{opaque_decorated(d, dv), "", d.name_range, frame().dyn_depth};
      return;
    }
    // @functools.lru_cache, @functools.cache, @functools.wraps(f): nothing to do while compiling.
    if (dv.kind() == Value::Kind::Builtin &&
        (dv.builtin() == BuiltinId::PyLruCache || dv.builtin() == BuiltinId::PyCache || dv.builtin() == BuiltinId::PyWraps))
      continue;
    decorators.emplace_back(deco.get(), std::move(dv));
  }
  Value v = Value::of(fn);
  for (size_t i = decorators.size(); i-- > 0;) {
    const auto& [deco, dv] = decorators[i];
    const auto k = dv.kind();
    if (k == Value::Kind::Function || k == Value::Kind::Class || k == Value::Kind::Instance || k == Value::Kind::BoundMethod) {
      // A Python decorator runs while compiling: @deco gives deco(f), @deco(args) gives deco(args)(f).
      Value decorator = eval(*deco);
      ast::Call site(deco->range);
      v = call_value(decorator, {std::move(v)}, {}, site);
    } else {
      v = decorate(*deco, dv, std::move(v));
    }
  }
  scope()[d.name] = Binding{std::move(v), "", d.name_range, frame().dyn_depth};
}

void Evaluator::exec_import(const ast::Import& imp) {
  for (const auto& alias : imp.names) {
    auto m = import_module(alias.name, alias.range);
    if (!m) {
      scope()[alias.asname.empty() ? alias.name.substr(0, alias.name.find('.')) : alias.asname] = Binding{Value{}, "", alias.range};
      continue;
    }
    if (!alias.asname.empty()) {
      scope()[alias.asname] = Binding{Value::of(m), "", alias.range};
    } else {
      // `import a.b` binds `a`.
      std::string top = alias.name.substr(0, alias.name.find('.'));
      scope()[top] = Binding{Value::of(import_module(top, alias.range)), "", alias.range};  // loaded above, as a parent
    }
  }
}

namespace {

/// The module `from <dots><module> import ...` names, seen from module `current`.
std::string absolute_module_name(const std::string& current, int level, const std::string& module) {
  if (level == 0) return module;
  std::string base = current;
  for (int k = 0; k < level; ++k) base = base.substr(0, base.rfind('.') == std::string::npos ? 0 : base.rfind('.'));
  return base.empty() ? module : (module.empty() ? base : base + "." + module);
}

}  // namespace

void Evaluator::exec_import_from(const ast::ImportFrom& imp) {
  std::string name = absolute_module_name(frame().module->name, imp.level, imp.module);
  auto m = import_module(name, imp.module_range.valid() ? imp.module_range : imp.range);
  if (!m) {
    for (const auto& alias : imp.names) scope()[alias.asname.empty() ? alias.name : alias.asname] = Binding{Value{}, "", alias.range};
    return;
  }
  for (const auto& alias : imp.names) {
    auto it = m->globals.find(alias.name);
    Value v;
    if (it != m->globals.end()) {
      v = it->second.value;
    } else if (m->opaque != ModuleValue::Opaque::No) {
      v = opaque_attribute(Value::of(m), alias.name);  // from torch import randn: opaque too
    } else if (auto sub = import_module(name + "." + alias.name, source::SourceRange{}, /*quiet=*/true); sub) {
      v = Value::of(sub);
    } else {
      std::vector<std::string> names;
      for (const auto& [k, _] : m->globals) names.push_back(k);
      auto& d = error(diag::Kind::NameNotInModule, alias.range, "cannot import name '" + alias.name + "' from '" + name + "'");
      if (auto best = closest_name(alias.name, names); !best.empty()) d.help("did you mean '" + best + "'?");
      // v stays poisoned: its uses are quiet.
    }
    scope()[alias.asname.empty() ? alias.name : alias.asname] = Binding{v, "", alias.range};
  }
}

void Evaluator::promote_for_region(const std::set<std::string>& assigned, source::SourceRange r) {
  if (!fn_) return;
  Env& env = scope();
  for (const auto& name : assigned) {
    auto it = env.find(name);
    if (it == env.end() || !it->second.owned_var.empty()) continue;
    Value& v = it->second.value;
    if (v.is_scalar()) {
      // Static numbers become run-time values (Int32/Float32/Boolean); shared
      // dynamic values get a local of their own.
      ir::ExprRef e = to_expr(v, r);
      std::string var = owned_local(name, e->type);
      emit(ir::assign(it->second.where.valid() ? it->second.where : r, var, e));
      it->second = Binding{Value::dyn(ir::var_ref(var, e->type), it->second.where), var, it->second.where, it->second.depth};
    } else if (v.kind() == Value::Kind::Tensor && v.tensor()->space != MemSpace::Coord && !v.tensor()->iterator) {
      // A tensor view rebound in the region (CuTe DSL's `tCsA_p = tCsA[None, None, None, pipe]`
      // in the main loop): its origin becomes a run-time Int64 variable; rebinding it to a view
      // of the same memory and layout stores the new origin (bind_name).
      auto t = std::make_shared<TensorValue>(*v.tensor());
      ir::ExprRef off = t->offset ? t->offset : ir::int_const(0, ScalarType::Int64);
      std::string var = new_local(name + "_origin", ScalarType::Int64);
      emit(ir::assign(it->second.where.valid() ? it->second.where : r, var, off));
      // What the first origin divides by holds for the variable while every rebinding keeps it
      // (rebind_tensor_origin checks), so vector and ldmatrix accesses through the view stay proved.
      // An origin of 0 says nothing of later ones (known_divisor caps it at 2^40): nothing recorded.
      if (int64_t dv = known_divisor(off); dv > 1 && dv < (int64_t(1) << 40)) fn_->divisors[var] = dv;
      t->offset = ir::var_ref(var, ScalarType::Int64);
      it->second = Binding{Value::of(t), var, it->second.where, it->second.depth};
    }
  }
}


namespace {

/// Joins the environments of two run-time paths: names that agree keep their
/// binding; names bound on one path only become "maybe unbound".
void merge_envs(Env& out, const Env& a, const Env& b, std::map<std::string, source::SourceRange>& maybe_unbound,
                Evaluator& ev) {
  Env merged;
  for (const auto& [k, ba] : a) {
    auto ib = b.find(k);
    if (ib == b.end()) {
      maybe_unbound[k] = ba.where;
      continue;
    }
    const auto& bb = ib->second;
    if (ba.value.kind() == Value::Kind::Undef || bb.value.kind() == Value::Kind::Undef) {
      merged[k] = ba.value.kind() == Value::Kind::Undef ? ba : bb;  // poisoned on a path: stays quiet
      continue;
    }
    bool same = (!ba.owned_var.empty() && ba.owned_var == bb.owned_var) || ev.static_equal(ba.value, bb.value);
    if (same) merged[k] = ba;
    else maybe_unbound[k] = ba.where;
  }
  for (const auto& [k, bb] : b)
    if (!a.count(k)) maybe_unbound[k] = bb.where;
  out = std::move(merged);
}

}  // namespace

std::map<std::string, int64_t> Evaluator::divisibility_facts(const ir::ExprRef& cond) {
  std::map<std::string, int64_t> facts;
  std::function<void(const ir::ExprRef&)> walk = [&](const ir::ExprRef& e) {
    const auto* b = e->get_if<ir::Binary>();
    if (!b) return;
    if (b->op == ir::Op::LogicalAnd) {
      walk(b->lhs);
      walk(b->rhs);
      return;
    }
    if (b->op != ir::Op::Eq) return;
    const ir::ExprRef* rem = nullptr;
    if (ir::as_int_const(b->rhs) == 0) rem = &b->lhs;
    else if (ir::as_int_const(b->lhs) == 0) rem = &b->rhs;
    const auto* m = rem ? (*rem)->get_if<ir::Binary>() : nullptr;
    if (!m || (m->op != ir::Op::Mod && m->op != ir::Op::TruncMod)) return;
    auto c = ir::as_int_const(m->rhs);
    ir::ExprRef x = m->lhs;
    while (x->is<ir::Cast>() && ir::is_integer(x->type)) x = x->as<ir::Cast>().value;
    // Only names that keep their value: parameters and locals assigned once.
    const std::string* name = ir::value_name(*x);
    const bool fixed = name && (x->is<ir::Param>() || fn_->immutable_vars.count(*name));
    if (c && *c > 1 && fixed) facts[*name] = std::lcm(facts.count(*name) ? facts[*name] : 1, *c);
  };
  walk(cond);
  return facts;
}

Flow Evaluator::exec_if(const ast::If& s) {
  Value c = eval(*s.test);
  if (c.is_static()) {
    return truthy_static(c, s.test->range) ? exec_body(s.body) : exec_body(s.orelse);
  }
  if (c.kind() != Value::Kind::Dyn)
    fail(diag::Kind::ConditionNotBoolean, s.test->range, "condition must be a boolean or number, found " + describe(c));
  auto cond = to_expr_as(c, ScalarType::Boolean, s.test->range);
  std::set<std::string> assigned = assigned_names(s.body);
  for (const auto& n : assigned_names(s.orelse)) assigned.insert(n);
  promote_for_region(assigned, s.range);

  auto stmt = ir::if_(s.range, cond);
  ir::If& branches = stmt->as<ir::If>();
  Frame& f = frame();
  Env before = scope();
  auto run_branch = [&](const ast::Body& body, ir::Block& block) {
    scope() = before;
    fn_->blocks.push_back(&block);
    ++f.dyn_depth;
    f.region_starts.push_back(++f.read_clock);
    Flow fl;
    {
      RuntimeRegion region(*this);
      fl = exec_body(body);
    }
    f.region_starts.pop_back();
    --f.dyn_depth;
    fn_->blocks.pop_back();
    if (fl == Flow::Return && !f.is_entry) fl = Flow::Normal;  // diagnosed at the return
    return std::pair<Flow, Env>{fl, scope()};
  };
  // In the body of `if M % 256 == 0:` (and of `... and N % 64 == 0`), M is known to be a
  // multiple of 256: what tiles, vector widths and specializations prove from divisibility
  // (W0601, 128-bit copies, kernel keys) holds there.
  std::map<std::string, int64_t> saved;
  for (const auto& [name, d] : divisibility_facts(cond)) {
    auto it = fn_->divisors.find(name);
    const int64_t old = it == fn_->divisors.end() ? 1 : it->second;
    saved.emplace(name, old);
    fn_->divisors[name] = std::lcm(old, d);
  }
  auto [f1, env1] = run_branch(s.body, branches.then_body);
  for (const auto& [name, old] : saved) {
    if (old > 1) fn_->divisors[name] = old;
    else fn_->divisors.erase(name);
  }
  auto [f2, env2] = run_branch(s.orelse, branches.else_body);
  // A branch that ends in break/continue/return does not reach the join.
  if (f1 != Flow::Normal && f2 == Flow::Normal) scope() = env2;
  else if (f2 != Flow::Normal && f1 == Flow::Normal) scope() = env1;
  else merge_envs(scope(), env1, env2, f.maybe_unbound, *this);
  emit(std::move(stmt));
  return Flow::Normal;
}

Flow Evaluator::exec_for(const ast::For& s) {
  Frame& f = frame();
  Value it = eval(*s.iter);
  // Static iteration: range_constexpr(...) or a static tuple.
  const ast::Call* call = s.iter->as<ast::Call>();
  bool is_range_call = false, is_constexpr_range = false;
  if (call) {
    Value callee = eval(*call->func);
    is_range_call = callee.kind() == Value::Kind::Builtin &&
                    (callee.builtin() == BuiltinId::Range || callee.builtin() == BuiltinId::CutlassRange);
    is_constexpr_range = callee.kind() == Value::Kind::Builtin && callee.builtin() == BuiltinId::RangeConstexpr;
  }
  if (!s.orelse.empty()) fail(diag::Kind::UnsupportedOperation, s.range, "for ... else is not supported in tileslc");
  // CuTe DSL's `range(n, unroll_full=True)` and `cutlass.range(n, unroll_full=True)` (one loop in
  // CuTe DSL) over static bounds (sgemm's and tensorop_gemm's k-block loops): unrolled while
  // compiling, so its index is static (register fragments are indexed by it).
  if (call && is_range_call && (it.kind() == Value::Kind::Tuple || it.kind() == Value::Kind::Slice) && it.elts().size() == 4 && it.elts()[3].kind() == Value::Kind::Int &&
      it.elts()[3].i() == -1 && it.elts()[0].kind() == Value::Kind::Int && it.elts()[1].kind() == Value::Kind::Int &&
      it.elts()[2].kind() == Value::Kind::Int) {
    if (it.elts()[2].i() == 0) fail(diag::Kind::DivisionByZero, call->range, "range() step must not be zero");
    it = payload::Slice{std::make_shared<const std::vector<Value>>(std::vector<Value>{it.elts()[0], it.elts()[1], it.elts()[2]})};
    is_range_call = false;
    is_constexpr_range = true;
  }
  // At module level (Python run on import) and over dicts and strings, every loop runs while compiling.
  const bool static_loop = (is_range_call && !fn_) || it.kind() == Value::Kind::Dict || it.kind() == Value::Kind::Str;
  if (static_loop || (!is_range_call && (is_constexpr_range || it.kind() == Value::Kind::Tuple))) {
    // A list is iterated as CPython does, by index over the live list: elements the body
    // appends are visited too (a snapshot ran 2 iterations where CPython runs 6).
    const bool live_list = it.is_list();
    const auto items = live_list ? std::vector<Value>{} : iterate(it, s.iter->range, "a for loop");
    if (const size_t n = live_list ? it.elts().size() : items.size(); n > 4096)
      fail(diag::Kind::UnrollTooLarge, s.iter->range,
           "loop unrolled at compile time has " + std::to_string(n) + " iterations, more than the limit of 4096");
    f.loops.push_back({false, f.dyn_depth});
    Flow result = Flow::Normal;
    for (size_t k = 0; live_list ? k < it.elts().size() : k < items.size(); ++k) {
      if (k == 4096)
        fail(diag::Kind::UnrollTooLarge, s.iter->range,
             "loop unrolled at compile time over a list its body keeps growing passed the limit of 4096 iterations");
      Value item = live_list ? it.elts()[k] : items[k];  // a copy: the body may grow the list
      assign(*s.target, item, s.target->range);
      Flow fl = exec_body(s.body);
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) { result = Flow::Return; break; }
    }
    f.loops.pop_back();
    return result;
  }
  if (!is_range_call)
    fail(diag::Kind::UnsupportedOperation, s.iter->range,
         "for loops iterate over range(...), cutlass.range_constexpr(...) or a static tuple, found " + describe(it));
  // Run-time loop: `it` is a Slice-like tuple (start, stop, step) from range().
  if (!fn_) fail(diag::Kind::NotStatic, s.range, "run-time loops cannot appear at module level");
  const auto& parts = it.elts();
  Value start = parts[0], stop = parts[1], step = parts[2];
  int64_t step_v = 0;  // 0: known only at run time
  if (step.kind() == Value::Kind::Dyn) {
    if (!ir::is_integer(step.type())) fail(diag::Kind::TypeMismatch, call->range, "range() step must be an integer, found " + describe(step));
    step = materialize(step, "step", call->range);  // evaluated once, as Python does
  } else {
    step_v = require_static_int(step, call->range, "the step of a run-time range");
    if (step_v == 0) fail(diag::Kind::DivisionByZero, call->range, "range() step must not be zero");
  }
  ScalarType t = promote(start, stop, s.iter->range);
  if (!ir::is_integer(t)) fail(diag::Kind::TypeMismatch, s.iter->range, "range() bounds must be integers");
  const auto* target = s.target->as<ast::Name>();
  if (!target) fail(diag::Kind::InvalidAssignTarget, s.target->range, "a run-time loop variable must be a single name");
  auto assigned = assigned_names(s.body);
  assigned.erase(target->id);
  promote_for_region(assigned, s.range);

  auto begin = to_expr_as(start, t, s.iter->range);
  auto end = to_expr_as(stop, t, s.iter->range);
  auto step_e = step_v ? ir::int_const(step_v, t) : to_expr_as(step, t, call->range);
  const std::string var = new_local(target->id, t);
  auto stmt = ir::for_(s.range, var, t, begin, end, step_e, step_v > 0 ? 1 : step_v < 0 ? -1 : 0);
  if (parts.size() == 4) stmt->as<ir::For>().unroll_factor = static_cast<int16_t>(parts[3].i());  // cutlass.range(unroll=, unroll_full=)
  Env before = scope();
  scope()[target->id] = Binding{Value::dyn(ir::var_ref(var, t), s.target->range), "", s.target->range, f.dyn_depth + 1};
  run_loop_body(stmt, before, [&] { exec_body(s.body); });
  return Flow::Normal;
}

void Evaluator::run_loop_body(ir::StmtPtr& loop, const Env& before, const std::function<void()>& body) {
  // The body runs once, emitting IR into the loop; afterwards the scope is
  // what it was before (promoted locals keep their variables), and names the
  // body introduced may be unbound when the loop runs zero times.
  Frame& f = frame();
  fn_->blocks.push_back(loop->is<ir::For>() ? &loop->as<ir::For>().body : &loop->as<ir::While>().body);
  fn_->open_loops.push_back(loop.get());
  f.loops.push_back({true, f.dyn_depth});
  ++f.dyn_depth;
  f.region_starts.push_back(++f.read_clock);
  {
    RuntimeRegion region(*this);
    body();
  }
  f.region_starts.pop_back();
  --f.dyn_depth;
  f.loops.pop_back();
  fn_->open_loops.pop_back();
  fn_->blocks.pop_back();
  Env after = scope();
  scope() = before;
  for (const auto& [k, b] : after) {
    auto old = before.find(k);
    if (old == before.end()) {
      f.maybe_unbound[k] = b.where;
      continue;
    }
    // A static name the body rebound (bind_name): after the loop it holds the old value (zero
    // iterations) or the last iteration's, so it may not be read.
    const bool same = (!b.owned_var.empty() && b.owned_var == old->second.owned_var) || b.value.kind() == Value::Kind::Undef ||
                      old->second.value.kind() == Value::Kind::Undef || static_equal(b.value, old->second.value);
    if (!same) {
      scope().erase(k);
      f.maybe_unbound[k] = b.where;
    }
  }
  emit(std::move(loop));
}

Flow Evaluator::exec_while(const ast::While& s) {
  Frame& f = frame();
  if (!s.orelse.empty()) fail(diag::Kind::UnsupportedOperation, s.range, "while ... else is not supported in tileslc");
  Value c = eval(*s.test);
  if (c.is_static()) {
    // A static condition: unrolled while it stays static.
    f.loops.push_back({false, f.dyn_depth});
    int iterations = 0;
    Flow result = Flow::Normal;
    while (truthy_static(c, s.test->range)) {
      if (++iterations > 4096)
        fail(diag::Kind::UnrollTooLarge, s.test->range, "while loop with a static condition ran more than 4096 times while compiling");
      Flow fl = exec_body(s.body);
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) { result = Flow::Return; break; }
      c = eval(*s.test);
      if (!c.is_static())
        fail(diag::Kind::DynamicControlInStatic, s.test->range,
             "while condition was static on entry but became a run-time value");
    }
    f.loops.pop_back();
    return result;
  }
  promote_for_region(assigned_names(s.body), s.range);
  // Re-evaluate the condition inside the loop so it sees the promoted locals:
  // while (true) { if (!cond) break; body }
  auto stmt = ir::while_(s.range, ir::bool_const(true));
  Env before = scope();
  run_loop_body(stmt, before, [&] {
    Value c2 = eval(*s.test);
    ir::Block exit;
    exit.push_back(ir::break_(s.test->range));
    emit(ir::if_(s.test->range,
                 ir::unary(ir::Op::LogicalNot, to_expr_as(c2, ScalarType::Boolean, s.test->range), ScalarType::Boolean),
                 std::move(exit)));
    exec_body(s.body);
  });
  return Flow::Normal;
}

void reject_outer_container_change(Evaluator& ev, const Value& container, const ast::Expr& name_expr,
                                   source::SourceRange at, const char* what) {
  if (ev.runtime_regions().empty()) return;
  if (container_made_at(container) > ev.runtime_regions().back()) return;  // made in this loop body or branch
  std::string name;
  source::SourceRange made_at;
  if (const auto* n = name_expr.as<ast::Name>()) {
    name = n->id;
    if (auto it = ev.frame().env.find(n->id); it != ev.frame().env.end()) made_at = it->second.where;
  }
  auto& d = ev.error(diag::Kind::StaticRebindInDynamic, at,
                     std::string("cannot ") + what + " " + (name.empty() ? std::string("a list or dict") : "'" + name + "'") +
                         " inside run-time control flow it was not made in: lists and dicts exist only while compiling, "
                         "so the change would happen once, not once per iteration or only on the taken branch");
  if (made_at.valid()) d.label(made_at, "'" + name + "' is bound here");
  d.help("keep a changing run-time value in a named variable (acc = acc + x), a register tensor "
         "(cute.make_rmem_tensor), or make the loop static (cutlass.range_constexpr)");
  ev.abort_entry();
}

}  // namespace tileslc::sema
