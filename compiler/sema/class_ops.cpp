// Python classes, evaluated while compiling, as CuTe DSL runs them in the
// interpreter: `class` statements make class values (a name, bases, a
// namespace; the method resolution order is Python's C3 linearization),
// calling a class makes an instance (a static object; `__init__` runs now),
// and attribute access follows Python's data model ("3.3.2 Customizing
// attribute access", "3.3.2.2 Implementing Descriptors"): properties first,
// then the instance's own attributes, then the class's; functions found on
// the class bind `self`, staticmethods do not, classmethods bind the class.
// A @cute.jit method is inlined with `self` static; a @cute.kernel method is
// a kernel specialized on its instance (entry.cpp keys it with instance_key).
// The builtins that go with classes (isinstance, getattr, hasattr, super,
// staticmethod, classmethod, property, cutlass.dsl_user_op, the kernels'
// set_name_prefix) are builtins.def rows whose handlers are here.
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "sema/container_mutation.h"
#include "sema/evaluator.h"
#include "sema/registry.h"
#include "sema/struct_ops.h"

namespace tileslc::sema {

namespace {

using Kind = Value::Kind;

/// Python's C3 linearization of `c` (its bases' MROs and the bases in order); nullopt when no
/// consistent order exists (`class C(A, B)` with B a subclass of A).
std::optional<std::vector<ClassValue*>> c3_linearization(ClassValue& c) {
  std::vector<std::vector<ClassValue*>> seqs;
  for (const auto& b : c.bases) seqs.push_back(b->mro);
  std::vector<ClassValue*> direct;
  for (const auto& b : c.bases) direct.push_back(b.get());
  seqs.push_back(direct);
  std::vector<ClassValue*> out{&c};
  for (;;) {
    seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }), seqs.end());
    if (seqs.empty()) return out;
    ClassValue* next = nullptr;
    for (const auto& s : seqs) {
      ClassValue* head = s.front();
      bool in_a_tail = std::any_of(seqs.begin(), seqs.end(), [&](const auto& t) { return std::find(t.begin() + 1, t.end(), head) != t.end(); });
      if (!in_a_tail) {
        next = head;
        break;
      }
    }
    if (!next) return std::nullopt;
    out.push_back(next);
    for (auto& s : seqs)
      if (s.front() == next) s.erase(s.begin());
  }
}

/// The first class of `c`'s MRO from position `start` whose namespace binds `attr`, with the binding.
std::pair<const Binding*, const ClassValue*> find_in_mro(const ClassValue& c, const std::string& attr, size_t start = 0) {
  for (size_t i = start; i < c.mro.size(); ++i)
    if (auto it = c.mro[i]->ns.find(attr); it != c.mro[i]->ns.end()) return {&it->second, c.mro[i]};
  return {nullptr, nullptr};
}

const payload::Descriptor* as_descriptor(const Value& v, payload::Descriptor::Kind k) {
  const auto* d = v.get_if<payload::Descriptor>();
  return d && d->kind == k ? d : nullptr;
}

Value bound(const Value& fn, const Value& self) {
  return payload::BoundMethod{std::make_shared<const Value>(fn), std::make_shared<const Value>(self)};
}

/// A class attribute `v` looked up through an instance (`self` an Instance) or a class (`self` a
/// Class): functions bind to an instance, classmethods to the class, staticmethods to nothing.
/// Properties are handled by the callers (they call the getter).
Value bind_class_attribute(const Value& v, const Value& self, const std::shared_ptr<ClassValue>& cls) {
  if (v.kind() == Kind::Function) return self.kind() == Kind::Instance ? bound(v, self) : v;
  if (const auto* d = v.get_if<payload::Descriptor>()) {
    if (d->kind == payload::Descriptor::Kind::StaticMethod) return *d->fn;
    if (d->kind == payload::Descriptor::Kind::ClassMethod) return bound(*d->fn, Value::of(cls));
  }
  return v;
}

/// Every attribute name visible on an instance or class, for did-you-mean.
std::vector<std::string> attribute_names(const ClassValue& c, const InstanceValue* obj) {
  std::vector<std::string> out;
  if (obj)
    for (const auto& [k, _] : obj->attrs) out.push_back(k);
  for (const auto* k : c.mro)
    for (const auto& [name, _] : k->ns) out.push_back(name);
  return out;
}

/// A valid C++ identifier made of `s` (CuTe DSL takes any string as a kernel's name prefix).
std::string identifier_of(const std::string& s) {
  std::string out;
  for (char ch : s) out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k" + out;
  return out;
}

}  // namespace

void Evaluator::exec_class_def(const ast::ClassDef& d) {
  auto unsupported = [&](source::SourceRange at, const std::string& what) {
    auto& diag = error(diag::Kind::UnsupportedSyntax, at, what + " are not supported yet");
    if (sm_.line_col(at.start()).line != sm_.line_col(d.name_range.start()).line)
      diag.label(source::SourceRange{d.range.file, d.range.begin, d.name_range.end}, "in class '" + d.name + "'");
    diag.help("tileslc evaluates classes while compiling: plain classes with single or multiple inheritance, "
              "methods, @staticmethod, @classmethod and @property are supported");
    abort_entry();
  };
  for (const auto& k : d.keywords)
    unsupported(source::SourceRange::join(k.name_range, k.value->range),
                k.name == "metaclass" ? "metaclasses" : "class keyword arguments (" + k.name + "=)");

  auto cls = std::make_shared<ClassValue>();
  cls->name = d.name;
  cls->module = frame().module;
  cls->def = &d;
  for (const auto& b : d.bases) {
    Value bv = eval(*b);
    if (bv.kind() == Kind::Builtin && bv.builtin() == BuiltinId::Object) continue;  // every class derives from object
    if (bv.kind() == Kind::Class) {
      cls->bases.push_back(bv.cls());
      continue;
    }
    if (is_opaque(bv)) unsupported(b->range, "classes deriving from " + describe(bv));
    fail(diag::Kind::TypeMismatch, b->range, "a class's bases must be classes, found " + describe(bv));
  }
  auto mro = c3_linearization(*cls);
  if (!mro) {
    std::string names;
    for (const auto& b : cls->bases) names += (names.empty() ? "" : ", ") + b->name;
    fail(diag::Kind::TypeMismatch, d.name_range, "cannot create a consistent method resolution order (MRO) for bases " + names);
  }
  cls->mro = std::move(*mro);

  // The body runs in a frame of its own whose names become the class namespace; methods do not see
  // it (Python's class scope is not an enclosing scope of the functions defined in it).
  Frame body;
  body.module = frame().module;
  body.class_body = &d;
  frames_.push_back(&body);
  {
    struct Pop { Evaluator& ev; ~Pop() { ev.frames_.pop_back(); } } pop{*this};
    exec_body(d.body);
  }
  cls->ns = std::move(body.env);
  for (auto& [name, b] : cls->ns) {
    const Value* fn = &b.value;
    const auto* desc = b.value.get_if<payload::Descriptor>();
    if (desc) fn = desc->fn.get();
    if (fn->kind() == Kind::Function && !fn->fn()->owner) fn->fn()->owner = cls.get();
    if (desc && desc->setter && !desc->setter->fn()->owner) desc->setter->fn()->owner = cls.get();
  }
  classes_.push_back(cls);
  // Class decorators (@cute.struct, a user's function) apply nearest first, as Python applies them.
  Value result = Value::of(cls);
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) {
    Value deco = eval(**it);
    ast::Call site((*it)->range);
    result = call_value(deco, {result}, {}, site);
  }
  scope()[d.name] = Binding{result, "", d.name_range, frame().dyn_depth};
}

std::optional<Value> Evaluator::object_attribute(const Value& base, const std::string& attr, source::SourceRange r) {
  switch (base.kind()) {
    case Kind::Instance: {
      const auto& obj = *base.obj();
      auto [found, where] = find_in_mro(*obj.cls, attr);
      if (found) {
        if (const auto* p = as_descriptor(found->value, payload::Descriptor::Kind::Property)) {
          ast::Call site(r);
          return call_helper(*p->fn->fn(), {base}, {}, site);
        }
      }
      if (auto it = obj.attrs.find(attr); it != obj.attrs.end()) {
        const auto& a = it->second;
        if (a.fn_serial && (!fn_ || fn_->serial != a.fn_serial)) {
          auto& d = error(diag::Kind::NotStatic, r,
                          "attribute '" + attr + "' of this '" + obj.cls->name + "' object holds " + describe(a.value) +
                              " of another function: a run-time value is only valid in the function that stored it");
          d.label(a.where, "stored here");
          d.help("pass it as an argument (a kernel takes tensors and run-time scalars as parameters), or store only static values on the object");
          abort_entry();
        }
        return a.value;
      }
      if (found) return bind_class_attribute(found->value, base, obj.cls);
      if (attr == "__class__") return Value::of(obj.cls);
      auto& d = error(diag::Kind::NoSuchAttribute, r, "'" + obj.cls->name + "' object has no attribute '" + attr + "'");
      std::string best = closest_name(attr, attribute_names(*obj.cls, &obj));
      if (!best.empty()) d.help("did you mean '" + best + "'?");
      d.label(obj.cls->def->name_range, "class '" + obj.cls->name + "' defined here");
      abort_entry();
    }
    case Kind::Class: {
      const auto& cls = base.cls();
      if (auto [found, where] = find_in_mro(*cls, attr); found) return bind_class_attribute(found->value, base, cls);
      if (attr == "__name__") return Value::str(cls->name);
      auto& d = error(diag::Kind::NoSuchAttribute, r, "class '" + cls->name + "' has no attribute '" + attr + "'");
      std::string best = closest_name(attr, attribute_names(*cls, nullptr));
      if (!best.empty()) d.help("did you mean '" + best + "'?");
      abort_entry();
    }
    case Kind::Super: {
      const auto& s = base.get<payload::Super>();
      const Value& self = *s.self;
      std::shared_ptr<ClassValue> type = self.kind() == Kind::Instance ? self.obj()->cls : self.cls();
      auto pos = std::find(type->mro.begin(), type->mro.end(), s.after);
      size_t start = pos == type->mro.end() ? type->mro.size() : static_cast<size_t>(pos - type->mro.begin()) + 1;
      auto [found, where] = find_in_mro(*type, attr, start);
      if (!found) {
        auto& d = error(diag::Kind::NoSuchAttribute, r, "'super' object has no attribute '" + attr + "'");
        d.note("the classes after '" + s.after->name + "' in the method resolution order of '" + type->name + "' do not define it");
        abort_entry();
      }
      if (const auto* p = as_descriptor(found->value, payload::Descriptor::Kind::Property); p && self.kind() == Kind::Instance) {
        ast::Call site(r);
        return call_helper(*p->fn->fn(), {self}, {}, site);
      }
      return bind_class_attribute(found->value, self, type);
    }
    case Kind::BoundMethod: {
      const auto& m = base.get<payload::BoundMethod>();
      if (attr == "__self__") return *m.self;
      if (attr == "__func__") return *m.fn;
      if (attr == "__name__") return Value::str(m.fn->fn()->def->name);
      return std::nullopt;
    }
    case Kind::Function:
      if (attr == "__name__") return Value::str(base.fn()->def->name);
      return std::nullopt;
    default: return std::nullopt;
  }
}

bool Evaluator::object_has_attribute(const Value& base, const std::string& attr) {
  switch (base.kind()) {
    case Kind::Instance:
      return base.obj()->attrs.count(attr) || find_in_mro(*base.obj()->cls, attr).first || attr == "__class__";
    case Kind::Class: return find_in_mro(*base.cls(), attr).first || attr == "__name__";
    case Kind::Module: return !is_opaque(base) && base.module()->globals.count(attr);
    default: return find_method(base.kind(), attr) != nullptr;
  }
}

void Evaluator::store_attribute(const Value& base, const std::string& attr, Value v, source::SourceRange r) {
  if (base.kind() == Kind::Class) {
    base.cls()->ns[attr] = Binding{std::move(v), "", r};
    return;
  }
  if (base.kind() != Kind::Instance) {
    fail(diag::Kind::InvalidAssignTarget, r, "cannot set attribute '" + attr + "' of " + describe(base) +
                                                 ": only instances of classes and classes take new attributes");
  }
  auto& obj = *base.obj();
  if (auto [found, where] = find_in_mro(*obj.cls, attr); found) {
    if (const auto* p = as_descriptor(found->value, payload::Descriptor::Kind::Property)) {
      if (!p->setter) {
        auto& d = error(diag::Kind::InvalidAssignTarget, r, "property '" + attr + "' of '" + obj.cls->name + "' has no setter");
        d.help("add one with @" + attr + ".setter");
        abort_entry();
      }
      ast::Call site(r);
      call_helper(*p->setter->fn(), {base, std::move(v)}, {}, site);
      return;
    }
  }
  if (obj.cls->frozen && obj.initialized)
    fail(diag::Kind::InvalidAssignTarget, r, "cannot assign to field '" + attr + "' of frozen dataclass '" + obj.cls->name + "'");
  auto it = obj.attrs.find(attr);
  // Inside run-time control flow a static attribute cannot change (its value would depend on a
  // run-time condition); a run-time one is assigned to the variable that holds it. An object
  // made in the innermost run-time loop body or branch is new on each pass, so its attributes are
  // set as at function level (a PipelineState made under `if warp_idx == 0:`).
  const bool made_here = !runtime_regions_.empty() && obj.made_at > runtime_regions_.back();
  bool in_runtime_flow = fn_ && fn_->blocks.size() > 1 && !made_here;
  bool runtime = contains_runtime(v);
  if (v.kind() == Kind::Dyn) {
    if (it != obj.attrs.end() && it->second.fn_serial == fn_->serial && it->second.value.kind() == Kind::Dyn) {
      const auto* var = it->second.value.expr()->get_if<ir::Var>();
      ir::ScalarType t = it->second.value.type();
      // In a run-time loop or branch the variable is the attribute on every path; elsewhere a value
      // of another type rebinds the attribute to a new variable, as Python rebinds it.
      if (var && !fn_->immutable_vars.count(var->name) && (in_runtime_flow || t == v.type())) {
        emit(ir::assign(r, var->name, to_expr_as(v, t, r)));
        it->second.where = r;
        return;
      }
    }
    if (in_runtime_flow && it != obj.attrs.end()) {
      auto& d = error(diag::Kind::StaticRebindInDynamic, r,
                      "attribute '" + attr + "' holds " + describe(it->second.value) +
                          " and cannot be rebound to a run-time value inside run-time control flow");
      d.label(it->second.where, "'" + attr + "' assigned here");
      abort_entry();
    }
    // Its own variable: the attribute keeps this value when the expression's operands change later.
    std::string var = new_local(attr, v.type());
    emit(ir::assign(r, var, v.expr()));
    v = Value::dyn(ir::var_ref(var, v.type()), v.origin());
  } else if (in_runtime_flow && !(it != obj.attrs.end() && static_equal(it->second.value, v))) {
    auto& d = error(diag::Kind::StaticRebindInDynamic, r, "attribute '" + attr + "' is set inside run-time control flow");
    if (it != obj.attrs.end()) d.label(it->second.where, "'" + attr + "' assigned here with " + describe(it->second.value));
    d.note("an object's attributes are static: their value cannot depend on a run-time condition or iteration");
    d.help("use cutlass.const_expr(...) or range_constexpr(...) to make the control flow static");
    abort_entry();
  }
  obj.attrs[attr] = InstanceValue::Attr{std::move(v), r, runtime && fn_ ? fn_->serial : 0};
}

std::optional<Value> Evaluator::call_object(const Value& callee, std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site) {
  switch (callee.kind()) {
    case Kind::Class: {
      if (auto view = struct_construct(*this, callee, args, kwargs, site)) return view;  // Struct(pointer)
      const auto& cls = callee.cls();
      auto obj = std::make_shared<InstanceValue>();
      obj->cls = cls;
      obj->serial = ++instance_serials_;
      obj->made_at = container_clock_tick();
      instances_.push_back(obj);
      Value self = Value::of(obj);
      auto [init, where] = find_in_mro(*cls, "__init__");
      if (!init) {
        if (!args.empty() || !kwargs.empty()) {
          auto& d = error(diag::Kind::WrongArity, site.range, cls->name + "() takes no arguments");
          d.label(cls->def->name_range, "class '" + cls->name + "' defines no __init__");
          abort_entry();
        }
      } else {
        Value result = call_value(bind_class_attribute(init->value, self, cls), std::move(args), std::move(kwargs), site);
        if (result.kind() != Kind::None)
          fail(diag::Kind::TypeMismatch, site.range, cls->name + ".__init__() should return None, not " + describe(result));
      }
      obj->initialized = true;
      return self;
    }
    case Kind::Instance: {
      const auto& obj = *callee.obj();
      auto [call, where] = find_in_mro(*obj.cls, "__call__");
      if (!call) {
        auto& d = error(diag::Kind::NotCallable, site.func->range, "'" + obj.cls->name + "' object is not callable");
        d.label(obj.cls->def->name_range, "class '" + obj.cls->name + "' defines no __call__");
        abort_entry();
      }
      return call_value(bind_class_attribute(call->value, callee, obj.cls), std::move(args), std::move(kwargs), site);
    }
    case Kind::BoundMethod: {
      const auto& m = callee.get<payload::BoundMethod>();
      args.insert(args.begin(), *m.self);
      return call_value(*m.fn, std::move(args), std::move(kwargs), site);
    }
    case Kind::Descriptor: {
      const auto& d = callee.get<payload::Descriptor>();
      if (d.kind != payload::Descriptor::Kind::StaticMethod) return std::nullopt;
      return call_value(*d.fn, std::move(args), std::move(kwargs), site);
    }
    default: return std::nullopt;
  }
}

Value Evaluator::decorate(const ast::Expr& deco, const Value& dv, Value fn) {
  auto is = [&](BuiltinId id) { return dv.kind() == Kind::Builtin && dv.builtin() == id; };
  auto plain_function = [&](const char* what) -> FunctionValue& {
    if (fn.kind() != Kind::Function || fn.fn()->kind != FunctionValue::Kind::Helper)
      fail(diag::Kind::UnsupportedSyntax, deco.range, std::string(what) + " must be the decorator nearest the def, found it above another");
    return *fn.fn();
  };
  auto descriptor = [&](payload::Descriptor::Kind k) -> Value {
    if (fn.kind() != Kind::Function) fail(diag::Kind::UnsupportedSyntax, deco.range, "this decorator takes a function, found " + describe(fn));
    return payload::Descriptor{k, std::make_shared<const Value>(std::move(fn)), nullptr};
  };
  if (is(BuiltinId::KernelDecorator)) {
    plain_function("@cute.kernel").kind = FunctionValue::Kind::Kernel;
    return fn;
  }
  if (is(BuiltinId::Tune)) return tune_decorate(deco, std::move(fn));
  if (is(BuiltinId::Cost)) return cost_decorate(deco, std::move(fn));
  if (is(BuiltinId::JitDecorator)) {
    plain_function("@cute.jit").kind = FunctionValue::Kind::Jit;
    return fn;
  }
  // CuTe DSL's op decorator passes loc=/ip= (MLIR locations) to the function: here a plain helper.
  if (is(BuiltinId::DslUserOp)) return fn;
  if (is(BuiltinId::StaticMethod)) return descriptor(payload::Descriptor::Kind::StaticMethod);
  if (is(BuiltinId::ClassMethod)) return descriptor(payload::Descriptor::Kind::ClassMethod);
  if (is(BuiltinId::Property)) return descriptor(payload::Descriptor::Kind::Property);
  if (is(BuiltinId::PropertySetter)) {
    if (fn.kind() != Kind::Function) fail(diag::Kind::UnsupportedSyntax, deco.range, "a property setter takes a function, found " + describe(fn));
    payload::Descriptor p = dv.self()->get<payload::Descriptor>();
    p.setter = std::make_shared<const Value>(std::move(fn));
    return p;
  }
  auto& d = error(diag::Kind::UnsupportedSyntax, deco.range, "decorators other than CuTe DSL's and Python's method decorators are not supported yet");
  d.help("tileslc knows @cute.kernel, @cute.jit, @cutlass.dsl_user_op, @staticmethod, @classmethod, @property and @name.setter");
  abort_entry();
}

std::string Evaluator::instance_key(const InstanceValue& obj, int depth) {
  // The class by identity (two classes may share a name), then each attribute by what
  // specializes a kernel: static values by repr (instances recursively), run-time ones not at all
  // (a kernel cannot read them: object_attribute refuses).
  std::string key = obj.cls->module->name + "." + obj.cls->name + "@" + std::to_string(reinterpret_cast<std::uintptr_t>(obj.cls.get())) + "{";
  for (const auto& [name, a] : obj.attrs) {
    key += name + "=";
    if (a.value.kind() == Kind::Instance)
      key += depth < 8 ? instance_key(*a.value.obj(), depth + 1) : "<deep>";
    else if (a.fn_serial)
      key += "<run-time>";
    else if (a.value.kind() == Kind::Function)
      key += "F" + std::to_string(reinterpret_cast<std::uintptr_t>(a.value.fn().get()));
    else if (a.value.kind() == Kind::Class)
      key += "C" + std::to_string(reinterpret_cast<std::uintptr_t>(a.value.cls().get()));
    else
      key += repr(a.value);
    key += ";";
  }
  return key + "}";
}

// ---- the builtins

/// super() in a method (the class that defined it and its first argument), or super(C, obj).
Value class_super(Evaluator& ev, BuiltinCall& c) {
  if (c.given(0) || c.given(1)) {
    if (c[0].kind() != Kind::Class) ev.fail(diag::Kind::TypeMismatch, c.range(0), "super()'s first argument must be a class, found " + describe(c[0]));
    if (c[1].kind() != Kind::Instance && c[1].kind() != Kind::Class)
      ev.fail(diag::Kind::TypeMismatch, c.range(1), "super()'s second argument must be an instance or a class, found " + describe(c[1]));
    return payload::Super{c[0].cls().get(), std::make_shared<const Value>(c[1])};
  }
  // The innermost frame of a function (not a class body) is the method super() is written in.
  const Frame& f = ev.frame();
  if (!f.owner || !f.def || f.def->params.empty())
    ev.fail(diag::Kind::TypeMismatch, c.site.range, "super() without arguments works only inside a method that takes self or cls");
  auto it = f.env.find(f.def->params[0].name);
  if (it == f.env.end() || (it->second.value.kind() != Kind::Instance && it->second.value.kind() != Kind::Class))
    ev.fail(diag::Kind::TypeMismatch, c.site.range, "super(): the method's first argument is not an instance or a class");
  return payload::Super{f.owner, std::make_shared<const Value>(it->second.value)};
}

/// staticmethod(f), classmethod(f), property(fget, fset=None) and prop.setter(f) called as functions.
Value class_descriptor(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Kind::Function) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a function, found " + describe(c[0]));
  auto fn = std::make_shared<const Value>(c[0]);
  switch (c.id()) {
    case BuiltinId::StaticMethod: return payload::Descriptor{payload::Descriptor::Kind::StaticMethod, fn, nullptr};
    case BuiltinId::ClassMethod: return payload::Descriptor{payload::Descriptor::Kind::ClassMethod, fn, nullptr};
    case BuiltinId::Property: {
      std::shared_ptr<const Value> setter;
      if (c.has(1)) {
        if (c[1].kind() != Kind::Function) ev.fail(diag::Kind::TypeMismatch, c.range(1), "property()'s fset must be a function, found " + describe(c[1]));
        setter = std::make_shared<const Value>(c[1]);
      }
      return payload::Descriptor{payload::Descriptor::Kind::Property, fn, setter};
    }
    default: {  // prop.setter(f)
      payload::Descriptor p = c.self().get<payload::Descriptor>();
      if (p.kind != payload::Descriptor::Kind::Property) ev.fail(diag::Kind::NoSuchAttribute, c.site.range, "only a property has a setter");
      p.setter = fn;
      return p;
    }
  }
}

Value class_object(Evaluator& ev, BuiltinCall& c) {
  ev.fail(diag::Kind::UnsupportedSyntax, c.site.range, "object() instances are not supported yet: define a class");
}

/// cutlass.dsl_user_op(f) called as a function: f itself (a plain helper; loc= and ip= are ignored).
Value class_dsl_user_op(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Kind::Function) ev.fail(diag::Kind::TypeMismatch, c.range(0), "cutlass.dsl_user_op() takes a function, found " + describe(c[0]));
  return c[0];
}

/// kernel.set_name_prefix(prefix) (CuTe DSL): the kernel's generated C++ name is the prefix
/// (made an identifier), with _1, _2, ... for further specializations.
Value class_set_name_prefix(Evaluator& ev, BuiltinCall& c) {
  const Value& self = c.self();
  const Value& fnv = self.kind() == Kind::BoundMethod ? *self.get<payload::BoundMethod>().fn : self;
  if (fnv.kind() != Kind::Function || fnv.fn()->kind != FunctionValue::Kind::Kernel)
    ev.fail(diag::Kind::NoSuchAttribute, c.site.range, "set_name_prefix() is a method of @cute.kernel functions, not of " + describe(fnv));
  if (c[0].kind() != Kind::Str) ev.fail(diag::Kind::TypeMismatch, c.range(0), "set_name_prefix() takes a string, found " + describe(c[0]));
  fnv.fn()->name_prefix = identifier_of(c[0].s());
  return Value::none();
}

}  // namespace tileslc::sema
