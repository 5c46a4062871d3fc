// CuTe DSL's shared-memory structs (issue 14; CuTe DSL cute/struct.py): a
// class decorated @cute.struct whose annotated fields are
// cute.struct.MemRange[dtype, count] (count elements, aligned to the element)
// or cute.struct.Align[MemRange[...], bytes]; SmemAllocator.allocate(Struct)
// lays the fields out in order, each at its alignment, and returns an object
// whose fields are the ranges: 1-D shared-memory tensors of `count` elements,
// with .get_tensor(layout, swizzle=None) (the range viewed through a layout)
// and .data_ptr() (its first element's pointer, e.g. mbarrier storage).
#include "sema/struct_ops.h"

#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

/// The class namespace entry where @cute.struct keeps the field layout: a tuple of
/// (name, element type, count, alignment) per field, in declaration order.
const char* const kStructFields = "__cute_struct_fields__";

/// A field type marker's (dtype, count, align), from MemRange[...] or Align[MemRange[...], n].
const std::vector<Value>& field_args(const Value& v) { return v.elts(); }

bool is_field_type(const Value& v) { return v.is_op(BuiltinId::StructMemRange); }

}  // namespace

Value struct_field_type(Evaluator& ev, const Value& base, const Value& index, source::SourceRange r) {
  const bool align = base.builtin() == BuiltinId::StructAlign;
  const std::vector<Value> parts = index.kind() == Value::Kind::Tuple ? index.elts() : std::vector<Value>{index};
  if (parts.size() != 2)
    ev.fail(diag::Kind::TypeMismatch, r, std::string("cute.struct.") + (align ? "Align[field, bytes]" : "MemRange[dtype, count]") +
                                             " takes two arguments, found " + std::to_string(parts.size()));
  if (align) {
    if (!is_field_type(parts[0]))
      ev.fail(diag::Kind::TypeMismatch, r, "cute.struct.Align[field, bytes] takes a cute.struct.MemRange[...] field, found " + describe(parts[0]));
    const int64_t bytes = ev.require_static_int(parts[1], r, "cute.struct.Align's alignment");
    if (bytes <= 0 || (bytes & (bytes - 1)) || bytes > 1024)
      ev.fail(diag::Kind::BadLayoutArgument, r, "cute.struct.Align's alignment must be a power of two up to 1024, found " + std::to_string(bytes));
    const auto& a = field_args(parts[0]);
    return Value::op_marker(BuiltinId::StructMemRange, "cute.struct.Align[" + parts[0].s() + ", " + std::to_string(bytes) + "]",
                            {a[0], a[1], Value::integer(std::max(bytes, a[2].i()))});
  }
  if (parts[0].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, r, "cute.struct.MemRange[dtype, count] takes an element type first, found " + describe(parts[0]));
  const int64_t count = ev.require_static_int(parts[1], r, "cute.struct.MemRange's element count");
  if (count <= 0) ev.fail(diag::Kind::BadLayoutArgument, r, "cute.struct.MemRange needs at least one element, found " + std::to_string(count));
  const int64_t elem_bytes = std::max(1, ir::bit_width(parts[0].type()) / 8);
  return Value::op_marker(BuiltinId::StructMemRange,
                          std::string("cute.struct.MemRange[") + ir::type_name(parts[0].type()) + ", " + std::to_string(count) + "]",
                          {parts[0], Value::integer(count), Value::integer(elem_bytes)});
}

/// cute.struct.MemRange(...) / Align(...) called instead of subscripted.
Value struct_field_call(Evaluator& ev, BuiltinCall& c) {
  ev.fail(diag::Kind::NotCallable, c.site.range, c.name() + " is a field type of a @cute.struct class: write " + c.name() + "[...] in an annotation");
}

/// @cute.struct on a class: its annotated fields (the class body's __annotations__, in order) must
/// each be a MemRange or an Align of one; the field layout is kept on the class for
/// SmemAllocator.allocate. Returns the class.
Value struct_decorate(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Class)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), "@cute.struct decorates a class, found " + describe(c[0]));
  ClassValue& cls = *c[0].cls();
  std::vector<Value> fields;
  if (auto it = cls.ns.find("__annotations__"); it != cls.ns.end() && it->second.value.kind() == Value::Kind::Dict) {
    for (const auto& [name, type] : it->second.value.dict_items()) {
      if (!is_field_type(type)) {
        auto& d = ev.error(diag::Kind::UnsupportedOperation, cls.def->name_range,
                           "field '" + name.s() + "' of @cute.struct class '" + cls.name + "' is " + describe(type) +
                               ": fields here are cute.struct.MemRange[dtype, count] or cute.struct.Align[MemRange[...], bytes]");
        d.help("declare a single value as cute.struct.MemRange[dtype, 1]");
        ev.abort_entry();
      }
      const auto& a = field_args(type);
      fields.push_back(Value::tuple({name, a[0], a[1], a[2]}));
    }
  }
  if (fields.empty())
    ev.fail(diag::Kind::UnsupportedOperation, cls.def->name_range, "@cute.struct class '" + cls.name + "' declares no fields");
  cls.ns[kStructFields] = Binding{Value::tuple(std::move(fields)), "", cls.def->name_range};
  return c[0];
}

/// SmemAllocator.allocate(struct_class) (CuTe DSL utils/smem_allocator.py): each field, in order,
/// allocated as SmemAllocator.allocate_tensor(dtype, count, byte_alignment=align) does; the result
/// is an instance of the class whose attributes are the ranges. Sizes in bytes and plain element
/// types (CuTe DSL's other forms) are E0402 here.
Value struct_allocate(Evaluator& ev, BuiltinCall& c) {
  const Value& what = c[0];
  const Binding* layout = nullptr;
  if (what.kind() == Value::Kind::Class)
    if (auto it = what.cls()->ns.find(kStructFields); it != what.cls()->ns.end()) layout = &it->second;
  if (!layout) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0),
                       c.name() + "() takes a @cute.struct class here, found " + describe(what));
    d.help("allocate a tensor with smem.allocate_tensor(dtype, layout, byte_alignment)");
    ev.abort_entry();
  }
  auto obj = std::make_shared<InstanceValue>();
  obj->cls = what.cls();
  obj->serial = ++ev.instance_serials_;
  obj->initialized = true;
  ev.instances_.push_back(obj);
  const Value allocate_tensor = Value::method(BuiltinId::MethodAllocateTensor, c.self());
  for (const auto& f : layout->value.elts()) {
    const auto& p = f.elts();
    Value range = ev.call_value(allocate_tensor, {p[1], Value::of(layout::make_layout(layout::IntTuple(p[2].i())))},
                                {{"byte_alignment", p[3]}}, c.site);
    obj->attrs[p[0].s()] = InstanceValue::Attr{range, c.site.range, ev.fn_->serial};
  }
  return Value::of(obj);
}

/// A struct field's MemRange.get_tensor(layout, swizzle=None) (CuTe DSL cute/struct.py): the range
/// viewed through `layout` (a layout or a swizzled composed layout; `swizzle` composes a bare
/// swizzle in front). E0601 when the layout reaches past the range, or when a swizzle's span
/// is not aligned by the range's start.
Value struct_get_tensor(Evaluator& ev, BuiltinCall& c) {
  const TensorValue& range = *c.self().tensor();
  if (range.space != MemSpace::Smem || range.layout.rank() != 1)
    ev.fail(diag::Kind::TypeMismatch, c.site.range, c.name() + "() is a method of a @cute.struct field, found " + describe(c.self()));
  TensorValue out = range;
  std::optional<layout::Swizzle> sw;
  int64_t offset = 0;
  if (c[0].kind() == Value::Kind::ComposedLayout) {
    sw = c[0].composed().swizzle;
    offset = c[0].composed().offset.require_value("offset");
    out.layout = c[0].composed().layout;
  } else {
    out.layout = ev.to_layout(c[0], c.range(0), c.name() + "()'s layout");
  }
  if (c.has(1)) {
    if (c[1].kind() != Value::Kind::ComposedLayout || sw)
      ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "()'s swizzle= takes a swizzle (cute.make_swizzle) over a plain layout, found " +
                                                        describe(c[1]));
    sw = c[1].composed().swizzle;
  }
  const layout::Int cos = layout::cosize(out.layout);
  const int64_t count = layout::size(range.layout.shape).require_value("range size");
  if (!cos.has_value() || offset < 0 || cos.value() + offset > count)
    ev.fail(diag::Kind::BadLayoutArgument, c.range(0), c.name() + "(): layout " + out.layout.to_string() + " reaches past the field's " +
                                                           std::to_string(count) + " elements");
  const int64_t elem_bytes = std::max(1, ir::bit_width(range.dtype) / 8);
  if (sw && range.align_bytes < sw->span() * elem_bytes)
    ev.fail(diag::Kind::BadLayoutArgument, c.range(0), c.name() + "(): the swizzle needs its field aligned to " +
                                                           std::to_string(sw->span() * elem_bytes) + " bytes (cute.struct.Align[..., " +
                                                           std::to_string(sw->span() * elem_bytes) + "])");
  out.swizzle = sw;
  if (offset) out.offset = ir::int_const(offset, ir::ScalarType::Int64);
  return ev.tensor_value(std::move(out));
}

/// A struct field's MemRange.data_ptr(): the pointer to its first element (CuTe's Pointer, as
/// Tensor.iterator gives), e.g. the mbarrier storage a pipeline takes.
Value struct_data_ptr(Evaluator& ev, BuiltinCall& c) {
  if (c.self().tensor()->space != MemSpace::Smem)
    ev.fail(diag::Kind::TypeMismatch, c.site.range, c.name() + "() is a method of a @cute.struct field, found " + describe(c.self()));
  return *compat_tensor_attribute(c.self(), "iterator");
}

}  // namespace tileslc::sema
