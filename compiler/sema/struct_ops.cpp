// CuTe DSL's shared-memory structs (issue 14; CuTe DSL cute/struct.py): a
// class decorated @cute.struct whose annotated fields are
// cute.struct.MemRange[dtype, count] (count elements, aligned to the element)
// or cute.struct.Align[MemRange[...], bytes]; SmemAllocator.allocate(Struct)
// lays the fields out in order, each at its alignment, and returns an object
// whose fields are the ranges: 1-D shared-memory tensors of `count` elements,
// with .get_tensor(layout, swizzle=None) (the range viewed through a layout)
// and .data_ptr() (its first element's pointer, e.g. mbarrier storage).
// SmemAllocator.allocate(nbytes) gives a byte pointer instead, which
// `Struct(pointer)` views as the struct (its fields at CuTe DSL's offsets, so
// two structs over one pointer overlap, as a union does); Struct.size_in_bytes()
// is the struct's size.
#include "sema/struct_ops.h"

#include <algorithm>

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

/// The field table @cute.struct kept on a class, or null when `what` is no struct class.
const Binding* struct_fields(const Value& what) {
  if (what.kind() != Value::Kind::Class) return nullptr;
  auto it = what.cls()->ns.find(kStructFields);
  return it == what.cls()->ns.end() ? nullptr : &it->second;
}

/// Where CuTe DSL's struct puts each field (cute/core.py, struct.__init__): in order, each at
/// the next multiple of its alignment (at least its element's size); the size is the end of the
/// last field rounded up to the largest alignment. Offsets and sizes in bytes.
struct Placement {
  std::vector<int64_t> offsets;
  int64_t size = 0;
};

Placement place_fields(const Binding& fields) {
  Placement out;
  int64_t end = 0, align = 1;
  for (const auto& f : fields.value.elts()) {
    const auto& p = f.elts();
    const int64_t a = p[3].i(), elem_bytes = std::max(1, ir::bit_width(p[1].type()) / 8);
    end = (end + a - 1) / a * a;
    out.offsets.push_back(end);
    end += p[2].i() * elem_bytes;
    align = std::max(align, a);
  }
  out.size = (end + align - 1) / align * align;
  return out;
}

/// A new instance of struct class `cls` (initialized; its attributes are set by the caller).
std::shared_ptr<InstanceValue> new_struct_instance(Evaluator& ev, const std::shared_ptr<ClassValue>& cls) {
  auto obj = std::make_shared<InstanceValue>();
  obj->cls = cls;
  obj->serial = ++ev.instance_serials_;
  obj->initialized = true;
  ev.instances_.push_back(obj);
  return obj;
}

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
  if (!cls.ns.count("size_in_bytes"))
    cls.ns["size_in_bytes"] = Binding{Value::method(BuiltinId::MethodStructSizeInBytes, c[0]), "", cls.def->name_range};
  return c[0];
}

/// Struct.size_in_bytes() (CuTe DSL cute/core.py): the struct's size in bytes, its fields laid
/// out as place_fields does (what SmemAllocator.allocate(nbytes) needs to hold it).
Value struct_size_in_bytes(Evaluator& ev, BuiltinCall& c) {
  const Binding* fields = struct_fields(c.self());
  if (!fields) ev.fail(diag::Kind::TypeMismatch, c.site.range, c.name() + "() is a method of a @cute.struct class, found " + describe(c.self()));
  return Value::integer(place_fields(*fields).size);
}

/// SmemAllocator.allocate(nbytes, byte_alignment) (CuTe DSL utils/smem_allocator.py): `nbytes`
/// bytes of the kernel's shared memory as an Int8 pointer (CuTe's Pointer, as Tensor.iterator
/// gives), for a @cute.struct class to view (`Struct(pointer)`). E0603 for a size that is not
/// positive.
static Value allocate_bytes(Evaluator& ev, BuiltinCall& c) {
  const int64_t bytes = c[0].i();
  if (bytes <= 0) ev.fail(diag::Kind::BadLayoutArgument, c.range(0), c.name() + "() needs at least one byte, found " + std::to_string(bytes));
  const Value allocate_tensor = Value::method(BuiltinId::MethodAllocateTensor, c.self());
  Value range = ev.call_value(allocate_tensor, {Value::scalar_type(ir::ScalarType::Int8), Value::of(layout::make_layout(layout::IntTuple(bytes)))},
                              {{"byte_alignment", c[1]}}, c.site);
  return *compat_tensor_attribute(range, "iterator");
}

/// SmemAllocator.allocate(struct_class) (CuTe DSL utils/smem_allocator.py): each field, in order,
/// allocated as SmemAllocator.allocate_tensor(dtype, count, byte_alignment=align) does; the result
/// is an instance of the class whose attributes are the ranges. Sizes in bytes and plain element
/// types (CuTe DSL's other forms) are E0402 here.
Value struct_allocate(Evaluator& ev, BuiltinCall& c) {
  const Value& what = c[0];
  if (what.kind() == Value::Kind::Int) return allocate_bytes(ev, c);
  const Binding* layout = struct_fields(what);
  if (!layout) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0),
                       c.name() + "() takes a size in bytes or a @cute.struct class here, found " + describe(what));
    d.help("allocate a tensor with smem.allocate_tensor(dtype, layout, byte_alignment)");
    ev.abort_entry();
  }
  auto obj = new_struct_instance(ev, what.cls());
  const Value allocate_tensor = Value::method(BuiltinId::MethodAllocateTensor, c.self());
  for (const auto& f : layout->value.elts()) {
    const auto& p = f.elts();
    Value range = ev.call_value(allocate_tensor, {p[1], Value::of(layout::make_layout(layout::IntTuple(p[2].i())))},
                                {{"byte_alignment", p[3]}}, c.site);
    obj->attrs[p[0].s()] = InstanceValue::Attr{range, c.site.range, ev.fn_->serial};
  }
  return Value::of(obj);
}

std::optional<Value> struct_construct(Evaluator& ev, const Value& callee, const std::vector<Value>& args, const Kwargs& kwargs,
                                      const ast::Call& site) {
  const Binding* fields = struct_fields(callee);
  if (!fields) return std::nullopt;
  const std::string name = callee.cls()->name;
  if (args.size() != 1 || !kwargs.empty())
    ev.fail(diag::Kind::WrongArity, site.range, name + "() (a @cute.struct class) takes one argument, the base pointer, found " +
                                                    std::to_string(args.size() + kwargs.size()));
  const source::SourceRange at = site.args.empty() ? site.range : site.args[0]->range;
  const TensorValue* base = args[0].kind() == Value::Kind::Tensor ? args[0].tensor().get() : nullptr;
  if (!base || !base->iterator || base->space != MemSpace::Smem || ir::bit_width(base->dtype) != 8 || !ev.fn_ || !ev.fn_->kernel) {
    auto& d = ev.error(diag::Kind::TypeMismatch, at, name + "() views a struct at a shared-memory byte pointer, found " + describe(args[0]));
    d.help("allocate its bytes with smem.allocate(" + name + ".size_in_bytes(), byte_alignment=16), or the struct itself with smem.allocate(" +
           name + ")");
    ev.abort_entry();
  }
  const auto& buffers = ev.fn_->kernel->smem;
  auto buf = std::find_if(buffers.begin(), buffers.end(), [&](const ir::SmemBuffer& b) { return b.name == base->ptr; });
  const std::optional<int64_t> shift = base->offset ? ir::as_int_const(base->offset) : std::optional<int64_t>(0);
  if (buf == buffers.end() || !shift)
    ev.fail(diag::Kind::UnsupportedOperation, at, name + "() needs a pointer whose place in shared memory is known while compiling");
  const Placement place = place_fields(*fields);
  const int64_t start = buf->byte_offset + *shift, avail = buf->bytes - *shift;
  if (place.size > avail)
    ev.fail(diag::Kind::BadLayoutArgument, at, name + " takes " + std::to_string(place.size) + " bytes (" + name +
                                                   ".size_in_bytes()), but its pointer has " + std::to_string(avail) + " bytes behind it");
  auto obj = new_struct_instance(ev, callee.cls());
  const auto& fs = fields->value.elts();
  for (size_t i = 0; i < fs.size(); ++i) {
    const auto& p = fs[i].elts();
    const int64_t at_byte = start + place.offsets[i], elem_bytes = std::max(1, ir::bit_width(p[1].type()) / 8);
    TensorValue range;
    range.dtype = p[1].type();
    range.space = MemSpace::Smem;
    range.layout = layout::make_layout(layout::IntTuple(p[2].i()));
    range.ptr = ev.unique_name("smem");
    range.align_bytes = at_byte == 0 ? 1024 : std::min<int64_t>(1024, at_byte & -at_byte);
    // A buffer of its own over the same bytes: the fields of two structs at one pointer overlap.
    ev.fn_->kernel->smem.push_back({range.ptr, range.dtype, at_byte, p[2].i() * elem_bytes, {}});
    obj->attrs[p[0].s()] = InstanceValue::Attr{ev.tensor_value(std::move(range)), site.range, ev.fn_->serial};
  }
  obj->attrs["base"] = InstanceValue::Attr{args[0], site.range, ev.fn_->serial};
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
  // A swizzled (composed) layout permutes element offsets from the field's start (CuTe's
  // ComposedLayout; TensorValue::swizzle), which needs no alignment: only whole swizzle blocks
  // inside the field. swizzle= makes CuTe DSL's swizzled pointer, which permutes address bits: the
  // same function only where the field starts on a block. (TMA and wgmma check their own.)
  if (sw && !c.has(1) && (cos.value() + offset + sw->span() - 1) / sw->span() * sw->span() > count)
    ev.fail(diag::Kind::BadLayoutArgument, c.range(0), c.name() + "(): the swizzle " + sw->to_string() + " permutes whole blocks of " +
                                                           std::to_string(sw->span()) + " elements, which reach past the field's " +
                                                           std::to_string(count) + " elements");
  if (sw && c.has(1) && range.align_bytes < sw->span() * elem_bytes)
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
