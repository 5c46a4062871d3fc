// Calls: plain helpers are inlined (their body runs in a fresh frame with the
// arguments bound, so static arguments specialize it), kernels called from a
// host function become KernelCall values awaiting .launch(), scalar types
// convert, and builtins dispatch to builtins.cpp.
#include <algorithm>

#include "sema/compat_ops.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

Value Evaluator::eval_call(const ast::Call& c) {
  Value callee = eval(*c.func);
  const bool kernel = callee.kind() == Value::Kind::Function && callee.fn()->kind == FunctionValue::Kind::Kernel;
  std::optional<KeepExtents> keep;
  if (kernel) keep.emplace(*this);
  std::vector<Value> args;
  for (const auto& a : c.args) {
    if (const auto* st = a->as<ast::Starred>()) {  // f(*xs): the static iterable's elements
      for (auto& x : iterate(eval(*st->value), st->value->range, "a star-argument (*args)")) args.push_back(std::move(x));
      continue;
    }
    args.push_back(eval(*a));
  }
  std::vector<std::pair<std::string, Value>> kwargs;
  for (const auto& k : c.keywords) {
    if (!k.name.empty()) {
      kwargs.emplace_back(k.name, eval(*k.value));
      continue;
    }
    Value d = eval(*k.value);  // f(**kw): a dict with string keys
    if (d.kind() != Value::Kind::Dict)
      fail(diag::Kind::TypeMismatch, k.value->range, "'**' in a call needs a dict, found " + describe(d));
    for (const auto& [key, v] : d.dict_items()) {
      if (key.kind() != Value::Kind::Str)
        fail(diag::Kind::TypeMismatch, k.value->range, "keywords must be strings, found " + describe(key));
      kwargs.emplace_back(key.s(), v);
    }
  }
  keep.reset();
  return call_value(callee, std::move(args), std::move(kwargs), c);
}

Value Evaluator::call_value(const Value& callee, std::vector<Value> args,
                            std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site) {
  if (auto v = call_object(callee, args, kwargs, site)) return *v;
  switch (callee.kind()) {
    case Value::Kind::Function: {
      const auto& fn = *callee.fn();
      if (fn.kind == FunctionValue::Kind::Kernel) {
        if (!fn_ || fn_->is_kernel) {
          auto& d = error(diag::Kind::KernelCalledDirectly, site.range,
                          "kernel '" + fn.def->name + "' can only be launched from a @cute.jit host function");
          d.label(fn.def->name_range, "kernel declared here");
          abort_entry();
        }
        if (!kwargs.empty())
          fail(diag::Kind::UnknownKeyword, site.range, "kernel arguments are positional; keywords go to .launch(...)");
        auto kc = std::make_shared<KernelCall>();
        kc->fn = callee.fn();
        kc->args = std::move(args);
        kc->range = site.range;
        return Value::of(kc);
      }
      // A @cute.jit function called from a kernel, a host function or a helper is traced inline, as
      // CuTe DSL does: its body runs here like a helper's. At module level there is nothing to run it in.
      if (fn.kind == FunctionValue::Kind::Jit && !fn_) {
        auto& d = error(diag::Kind::UnsupportedOperation, site.range,
                        "calling the @cute.jit function '" + fn.def->name + "' at module level is not supported");
        d.label(fn.def->name_range, "declared here");
        d.help("tileslc compiles ahead of time: call it from the @cute.jit function that is the entry point");
        abort_entry();
      }
      if (fn.kind == FunctionValue::Kind::Jit) inlined_jit_.insert(fn.def);
      return call_helper(fn, std::move(args), std::move(kwargs), site);
    }
    case Value::Kind::Type: {
      // cutlass.Float32(x): a run-time value of that type (as in CuTe DSL).
      if (args.size() != 1 || !kwargs.empty())
        fail(diag::Kind::WrongArity, site.range, std::string(ir::type_name(callee.type())) + "() takes exactly one argument");
      const Value& a = args[0];
      if (!a.is_scalar())
        fail(diag::Kind::TypeMismatch, site.args[0]->range,
             std::string("cannot convert ") + describe(a) + " to " + ir::type_name(callee.type()));
      if (!fn_) fail(diag::Kind::NotStatic, site.range, "typed run-time values cannot be created at module level");
      return Value::dyn(to_expr_as(a, callee.type(), site.range), site.range);
    }
    case Value::Kind::Builtin:
      if (callee.builtin() == BuiltinId::PyPartial && callee.self()) {
        // functools.partial(func, *args, **kwargs)(...): func with the stored arguments first.
        const auto& parts = callee.self()->elts();
        std::vector<Value> all = parts[1].elts();
        all.insert(all.end(), args.begin(), args.end());
        std::vector<std::pair<std::string, Value>> kw;
        for (const auto& [k, v] : parts[2].dict_items()) kw.emplace_back(k.s(), v);
        for (const auto& kv : kwargs) {  // not a structured binding: clang 14 cannot capture one in the lambda
          auto it = std::find_if(kw.begin(), kw.end(), [&](const auto& e) { return e.first == kv.first; });
          if (it != kw.end()) it->second = kv.second;
          else kw.push_back(kv);
        }
        return call_value(parts[0], std::move(all), std::move(kw), site);
      }
      return call_builtin(callee, args, kwargs, site);
    case Value::Kind::Module:
      if (is_opaque(callee)) return opaque_call(callee, site.range);
      break;
    case Value::Kind::Layout: {
      // L(coord) or L(c0, c1, ...): CuTe's layout evaluation.
      if (!kwargs.empty()) fail(diag::Kind::UnknownKeyword, site.range, "a layout takes a coordinate, not keywords");
      if (args.empty()) fail(diag::Kind::WrongArity, site.range, "a layout is called with a coordinate");
      Value coord = args.size() == 1 ? args[0] : Value::tuple(args);
      try {
        return evaluate_layout(callee.layout(), coord, site.range);
      } catch (const layout::LayoutError& e) {
        fail(diag::Kind::LayoutAlgebraError, site.range, e.what());
      }
    }
    default: break;
  }
  auto& d = error(diag::Kind::NotCallable, site.func->range, describe(callee) + " is not callable");
  if (callee.kind() == Value::Kind::Module) d.help("did you mean to call a function inside the module?");
  abort_entry();
}

Value Evaluator::call_helper(const FunctionValue& fn, std::vector<Value> args,
                             std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site) {
  const auto* def = fn.def;
  const std::vector<ast::Param>& params = def ? def->params : fn.lambda->params;
  const std::string name = fn.name();
  // Messages name a method with its class, as Python does: 'Tiler.__init__'.
  const std::string qual = fn.owner && def ? fn.owner->name + "." + def->name : name;
  const source::SourceRange declared = def ? def->name_range : fn.lambda->range;
  // Recursion is allowed when static arguments bound it (metaprogramming);
  // the inlining depth limit stops the rest.
  if (inline_stack_.size() >= 64) {
    bool recursive = def && std::find(inline_stack_.begin(), inline_stack_.end(), def) != inline_stack_.end();
    auto& diag = error(recursive ? diag::Kind::Recursion : diag::Kind::InlineTooDeep, site.range,
                       recursive ? "recursive call to '" + name + "' does not terminate while compiling"
                                 : "helper calls nested more than 64 deep");
    diag.label(declared, "'" + name + "' declared here");
    if (recursive)
      diag.note("helpers are inlined while compiling; a recursion must end on a static condition within 64 calls");
    abort_entry();
  }
  count_step(site.range);
  if (def) check_def_supported(*def, site.range);
  Frame f;
  f.module = fn.module;
  f.def = def;
  f.owner = fn.owner;
  f.call_site = site.range;
  if (fn.closure) f.env = *fn.closure;
  // A nested def sees its own name, as through Python's closure cell of the enclosing function:
  // the closure was captured before the def bound it (a recursive helper was E0301).
  if (auto self = fn.self.lock(); self && def) f.env[def->name] = Binding{Value::of(self), "", def->name_range, 0};
  // Bind parameters as Python does: positional ones, the rest of the positional arguments to
  // *args, keywords by name (the unknown ones to **kwargs), then defaults (evaluated in the
  // defining module, like Python at def time).
  std::vector<std::optional<Value>> bound(params.size());
  std::optional<size_t> var_positional, var_keyword;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].var_positional) var_positional = i;
    if (params[i].var_keyword) var_keyword = i;
  }
  size_t npos = 0;
  for (size_t i = 0; i < params.size() && npos < args.size(); ++i) {
    if (params[i].keyword_only || params[i].var_positional || params[i].var_keyword) break;
    bound[i] = args[npos++];
  }
  if (var_positional) {
    bound[*var_positional] = Value::tuple(std::vector<Value>(args.begin() + static_cast<std::ptrdiff_t>(npos), args.end()));
    npos = args.size();
  }
  if (npos < args.size()) {
    auto& d = error(diag::Kind::WrongArity, site.range,
                    "'" + qual + "' takes " + std::to_string(npos) + " positional argument" + (npos == 1 ? "" : "s") +
                        " but " + std::to_string(args.size()) + " were given");
    d.label(declared, "'" + name + "' declared here");
    abort_entry();
  }
  Value extra_kw = Value::dict();
  for (auto& [kw, v] : kwargs) {
    size_t i = 0;
    while (i < params.size() &&
           (params[i].name != kw || params[i].var_positional || params[i].var_keyword || params[i].positional_only))
      ++i;
    if (i == params.size()) {
      if (var_keyword) {
        extra_kw.dict_items().emplace_back(Value::str(kw), v);
        continue;
      }
      auto& d = error(diag::Kind::UnknownKeyword, site.range, "'" + qual + "' has no parameter named '" + kw + "'");
      d.label(declared, "'" + name + "' declared here");
      abort_entry();
    }
    if (bound[i]) fail(diag::Kind::WrongArity, site.range, "'" + qual + "' got multiple values for '" + kw + "'");
    bound[i] = v;
  }
  if (var_keyword) bound[*var_keyword] = extra_kw;
  frames_.push_back(&f);
  struct Pop { Evaluator& ev; ~Pop() { ev.frames_.pop_back(); ev.inline_stack_.pop_back(); } } pop{*this};
  inline_stack_.push_back(def);
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (!bound[i]) {
      if (!p.default_value) {
        frames_.pop_back();
        auto& d = error(diag::Kind::WrongArity, site.range, "'" + qual + "' is missing argument '" + p.name + "'");
        d.label(p.range, "parameter declared here");
        frames_.push_back(&f);
        abort_entry();
      }
      Frame df;
      df.module = fn.module;
      df.is_module = false;
      if (fn.closure) df.env = *fn.closure;
      frames_.push_back(&df);
      bound[i] = eval(*p.default_value);
      frames_.pop_back();
    }
    Value v = *bound[i];
    // A parameter annotated with a CuTe DSL type name (cute.Layout, cute.Tensor, ...) checks its argument.
    if (p.annotation)
      check_annotated_argument(*this, fn.module, def->name, p, v, i < npos && i < site.args.size() ? site.args[i]->range : site.range);
    // Parameters get their own locals so assignments inside cannot reach the caller's.
    if (v.kind() == Value::Kind::Dyn && fn_) v = materialize(v, p.name, p.range);
    f.env[p.name] = Binding{v, "", p.range};
  }
  if (fn.lambda) return eval(*fn.lambda->body);
  exec_body(def->body);
  return f.return_value;
}

}  // namespace tileslc::sema
