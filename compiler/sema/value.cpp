// Value's readers and constructors: each reader serves the kinds that have
// its field and throws an internal error on any other, so reading the wrong
// field of a value is a located bug report instead of a silent zero.
#include "sema/value.h"

#include <stdexcept>

#include "sema/container_mutation.h"

namespace tileslc::sema {

namespace {

const char* kind_name(Value::Kind k) {
  static constexpr const char* kNames[] = {
      "Undef",   "None",       "Int",       "Float",          "Bool",          "Str",
      "Tuple",   "Type",       "Dyn",       "Tensor",         "Module",        "Function",
      "Builtin", "KernelCall", "SymDim",    "TensorSpec",     "ConstexprSpec", "Ellipsis",
      "Slice",   "Layout",     "TensorSSA", "CopyAtom",       "TiledCopy",     "SmemAllocator",
      "Marker",  "MmaAtom",    "TiledMma",  "ComposedLayout", "TmaAtom",       "Dict",
      "Class",   "Instance", "BoundMethod", "Descriptor", "Super",
  };
  static_assert(std::size(kNames) == std::variant_size_v<Value::Node>);
  return kNames[static_cast<size_t>(k)];
}

}  // namespace

void Value::wrong_kind(const char* reader) const {
  throw std::logic_error(std::string("tileslc internal error: Value::") + reader + " read from a value of kind " +
                         kind_name(kind()));
}

bool Value::is_static() const {
  if (const auto* t = get_if<payload::TiledCopy>()) return !t->tiled_copy || !t->tiled_copy->thread;
  if (const auto* t = get_if<payload::TiledMma>()) return !t->tiled_mma || !t->tiled_mma->thread;
  switch (kind()) {
    case Kind::Undef:
    case Kind::Dyn:
    case Kind::Tensor:
    case Kind::TensorSSA:
    case Kind::SmemAllocator:
    case Kind::TmaAtom: return false;
    default: return true;
  }
}

const std::string* Value::extent_name() const {
  if (const auto* s = get_if<payload::SymDim>()) return &s->name;
  const auto* d = get_if<payload::Dyn>();
  return d && d->extent ? d->extent.get() : nullptr;
}

bool Value::is_dyn_integer() const {
  const auto* d = get_if<payload::Dyn>();
  return d && ir::is_integer(d->type);
}

bool Value::is_floating() const {
  if (kind() == Kind::Float) return true;
  const auto* d = get_if<payload::Dyn>();
  return d && ir::is_float(d->type);
}

int64_t Value::i() const {
  if (const auto* p = get_if<payload::Int>()) return p->value;
  if (const auto* p = get_if<payload::Bool>()) return p->value;
  if (const auto* p = get_if<payload::SymDim>()) return p->divisibility;
  wrong_kind("i()");
}

double Value::f() const { return get<payload::Float>().value; }

const std::string& Value::s() const {
  if (const auto* p = get_if<payload::Str>()) return p->value;
  if (const auto* p = get_if<payload::SymDim>()) return p->name;
  if (const auto* p = get_if<payload::OpMarker>()) return p->name;
  wrong_kind("s()");
}

const std::vector<Value>& Value::elts() const {
  const std::shared_ptr<const std::vector<Value>>* elts = nullptr;
  if (const auto* p = get_if<payload::Tuple>())
    elts = &p->elts;
  else if (const auto* p = get_if<payload::Slice>())
    elts = &p->parts;
  else if (const auto* p = get_if<payload::TensorSSA>())
    elts = &p->elts;
  else if (const auto* p = get_if<payload::OpMarker>())
    elts = &p->args;
  if (!elts || !*elts) wrong_kind("elts()");
  return **elts;
}

ir::ScalarType Value::type() const {
  if (const auto* p = get_if<payload::Type>()) return p->type;
  if (const auto* p = get_if<payload::Dyn>()) return p->type;
  if (const auto* p = get_if<payload::TensorSSA>()) return p->type;
  wrong_kind("type()");
}

const ir::ExprRef& Value::expr() const { return get<payload::Dyn>().expr; }

source::SourceRange Value::origin() const {
  const auto* p = get_if<payload::Dyn>();
  return p ? p->origin : source::SourceRange{};
}

const std::shared_ptr<TensorValue>& Value::tensor() const { return get<payload::Tensor>().tensor; }
const std::shared_ptr<ModuleValue>& Value::module() const { return get<payload::Module>().module; }
const std::shared_ptr<FunctionValue>& Value::fn() const { return get<payload::Function>().fn; }

BuiltinId Value::builtin() const {
  if (const auto* p = get_if<payload::Builtin>()) return p->id;
  if (const auto* p = get_if<payload::OpMarker>()) return p->op;
  wrong_kind("builtin()");
}

const std::shared_ptr<Value>& Value::self() const { return get<payload::Builtin>().self; }
const std::shared_ptr<KernelCall>& Value::kcall() const { return get<payload::KernelCall>().call; }
const std::shared_ptr<TensorSpec>& Value::spec() const { return get<payload::TensorSpec>().spec; }

const layout::Layout& Value::layout() const {
  const std::shared_ptr<const layout::Layout>* l = nullptr;
  if (const auto* p = get_if<payload::Layout>())
    l = &p->layout;
  else if (const auto* p = get_if<payload::TensorSSA>())
    l = &p->shape;
  if (!l || !*l) wrong_kind("layout()");
  return **l;
}

const layout::ComposedLayout& Value::composed() const { return *get<payload::ComposedLayout>().composed; }
const std::shared_ptr<CopyAtom>& Value::atom() const { return get<payload::CopyAtom>().atom; }
const std::shared_ptr<TiledCopy>& Value::tiled_copy() const { return get<payload::TiledCopy>().tiled_copy; }
const std::shared_ptr<MmaAtom>& Value::mma() const { return get<payload::MmaAtom>().mma; }
const std::shared_ptr<TiledMma>& Value::tiled_mma() const { return get<payload::TiledMma>().tiled_mma; }
const std::shared_ptr<TmaAtom>& Value::tma() const { return get<payload::TmaAtom>().tma; }
const std::shared_ptr<ClassValue>& Value::cls() const { return get<payload::Class>().cls; }
const std::shared_ptr<InstanceValue>& Value::obj() const { return get<payload::Instance>().obj; }

Value Value::tuple(std::vector<Value> xs) {
  return payload::Tuple{std::make_shared<const std::vector<Value>>(std::move(xs))};
}

uint64_t container_clock_tick() {
  // The clock of container_mutation.h. Process-wide (containers are made by Value's factories,
  // which know no Evaluator); only its order matters, and the compiler is single-threaded.
  static uint64_t clock = 0;
  return ++clock;
}

uint64_t container_made_at(const Value& container) {
  if (const auto* t = container.get_if<payload::Tuple>()) return t->made_at;
  if (const auto* d = container.get_if<payload::Dict>()) return d->made_at;
  return 0;
}

Value Value::list(std::vector<Value> xs) {
  // Made non-const so that list_items() may mutate it through the const pointer Tuple holds.
  std::shared_ptr<std::vector<Value>> storage = std::make_shared<std::vector<Value>>(std::move(xs));
  return payload::Tuple{std::move(storage), true, container_clock_tick()};
}

Value Value::dict(std::vector<std::pair<Value, Value>> items) {
  auto storage = std::make_shared<std::vector<std::pair<Value, Value>>>(std::move(items));
  return payload::Dict{std::move(storage), container_clock_tick()};
}

std::vector<Value>& Value::list_items() const {
  const auto* t = get_if<payload::Tuple>();
  if (!t || !t->list) wrong_kind("list_items()");
  // Defined: a list's vector was created non-const (Value::list).
  return const_cast<std::vector<Value>&>(*t->elts);
}

std::vector<std::pair<Value, Value>>& Value::dict_items() const {
  const auto* d = get_if<payload::Dict>();
  if (!d) wrong_kind("dict_items()");
  return *d->items;
}

Value Value::dyn(ir::ExprRef e, source::SourceRange origin) {
  const ir::ScalarType t = e->type;
  return payload::Dyn{std::move(e), t, origin, nullptr};
}

Value Value::method(BuiltinId id, Value self) { return payload::Builtin{id, std::make_shared<Value>(std::move(self))}; }

Value Value::op_marker(BuiltinId op, std::string name, std::vector<Value> args) {
  return payload::OpMarker{op, std::move(name), std::make_shared<const std::vector<Value>>(std::move(args))};
}

Value Value::of(layout::Layout l) { return payload::Layout{std::make_shared<const layout::Layout>(std::move(l))}; }

Value Value::of(layout::ComposedLayout l) {
  return payload::ComposedLayout{std::make_shared<const layout::ComposedLayout>(std::move(l))};
}

}  // namespace tileslc::sema
