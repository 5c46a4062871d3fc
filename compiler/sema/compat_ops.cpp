// CuTe DSL compatibility builtins (builtins.def's "CuTe DSL compatibility"
// section, issue 14): the names CuTe DSL code uses that are thin over what
// tileslc already computes. Type names as annotations (checked loosely against
// the values passed), CuTe DSL's enums as static markers, cutlass.range's
// unroll hint, the IntTuple helpers (ceil_div, product_each, repeat_like,
// slice_, shape), domain_offset, autovec_copy (cute.copy with the widest
// universal atom both tensors allow), where, fence_proxy and the shared-memory
// capacity table. Each handler's semantics is CuTe DSL's (python/CuTeDSL/
// cutlass/cute/{core,tensor,algorithm}.py, utils/layout.py), cited per handler.
#include "sema/compat_ops.h"

#include <algorithm>
#include <array>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

// ---- type names ------------------------------------------------------------

namespace {

bool is_int_like(const Value& v) {
  return v.is_static_int() || v.is_dyn_integer() || v.kind() == Value::Kind::SymDim ||
         (v.kind() == Value::Kind::Dyn && v.type() == ScalarType::Boolean);
}

/// An IntTuple (CuTe DSL's Shape, Stride, Coord, IntTuple): an integer or a tuple of them;
/// coordinates and tiles may hold None (a kept mode), tiles layouts.
bool is_int_tuple(const Value& v, bool none_ok, bool layout_ok) {
  if (is_int_like(v)) return true;
  if (none_ok && v.kind() == Value::Kind::None) return true;
  if (layout_ok && v.kind() == Value::Kind::Layout) return true;
  if (v.kind() != Value::Kind::Tuple) return false;
  for (const auto& e : v.elts())
    if (!is_int_tuple(e, none_ok, layout_ok)) return false;
  return true;
}

/// What each type name expects, for messages.
const char* expected_kind(BuiltinId id) {
  switch (id) {
    case BuiltinId::TensorType: return "a tensor";
    case BuiltinId::TypeLayout: case BuiltinId::TypeComposedLayout: return "a layout";
    case BuiltinId::TypeSwizzle: return "a swizzle";
    case BuiltinId::TypeShape: case BuiltinId::TypeStride: case BuiltinId::TypeIntTuple: return "an integer or a tuple of integers";
    case BuiltinId::TypeCoord: return "a coordinate (integers, None, or a tuple of them)";
    case BuiltinId::TypeTile: case BuiltinId::TypeTiler: return "a tile (integers, layouts, None, or a tuple of them)";
    case BuiltinId::TypePointer: return "a pointer";
    case BuiltinId::TypeCopyAtom: return "a copy atom";
    case BuiltinId::TypeMmaAtom: return "an MMA atom";
    case BuiltinId::TypeTiledCopy: case BuiltinId::TypeThrCopy: return "a tiled copy";
    case BuiltinId::TypeTiledMma: case BuiltinId::TypeThrMma: return "a tiled MMA";
    case BuiltinId::TypeTensorSSA: return "a tensor value (TensorSSA)";
    case BuiltinId::TypeNumeric: return "a number";
    case BuiltinId::TypeFloat: return "a floating-point number";
    case BuiltinId::TypeInteger: return "an integer";
    default: return "";
  }
}

}  // namespace

std::optional<bool> type_name_accepts(BuiltinId id, const Value& v) {
  using K = Value::Kind;
  const K k = v.kind();
  switch (id) {
    case BuiltinId::TensorType: return k == K::Tensor;
    // CuTe DSL passes a swizzled (composed) layout where a Layout is annotated and back.
    case BuiltinId::TypeLayout: case BuiltinId::TypeComposedLayout: return k == K::Layout || k == K::ComposedLayout;
    case BuiltinId::TypeSwizzle: return k == K::ComposedLayout;
    case BuiltinId::TypeShape: case BuiltinId::TypeStride: case BuiltinId::TypeIntTuple: return is_int_tuple(v, false, false);
    case BuiltinId::TypeCoord: return is_int_tuple(v, true, false);
    case BuiltinId::TypeTile: case BuiltinId::TypeTiler: return is_int_tuple(v, true, true);
    case BuiltinId::TypePointer: return k == K::Tensor;  // tileslc has no pointers apart from tensors yet
    case BuiltinId::TypeCopyAtom: return k == K::CopyAtom || k == K::TmaAtom;
    case BuiltinId::TypeMmaAtom: return k == K::MmaAtom;
    case BuiltinId::TypeTiledCopy: case BuiltinId::TypeThrCopy: return k == K::TiledCopy;
    case BuiltinId::TypeTiledMma: case BuiltinId::TypeThrMma: return k == K::TiledMma;
    case BuiltinId::TypeTensorSSA: return k == K::TensorSSA;
    // A value, or (annotated Type[cutlass.Numeric] and read loosely) a scalar type.
    case BuiltinId::TypeNumeric: return v.is_number() || k == K::Dyn || k == K::Type;
    // cutlass.Float, cutlass.Integer (CuTe DSL's abstract numeric classes): a value of that family or the type.
    case BuiltinId::TypeFloat: return k == K::Float || ((k == K::Dyn || k == K::Type) && ir::is_float(v.type()));
    case BuiltinId::TypeInteger:
      return k == K::Int || k == K::Bool || ((k == K::Dyn || k == K::Type) && (ir::is_integer(v.type()) || v.type() == ScalarType::Boolean));
    default: return std::nullopt;
  }
}

void check_annotated_argument(Evaluator& ev, const std::shared_ptr<ModuleValue>& module, const std::string& fn,
                              const ast::Param& p, const Value& arg, source::SourceRange at) {
  if (!p.annotation) return;
  // Only annotations spelled as a CuTe DSL type name are evaluated: typing's (Optional[...],
  // Type[...]), strings and names of classes stay unevaluated annotations, as in Python.
  const auto* attr = p.annotation->as<ast::Attribute>();
  const auto* name = p.annotation->as<ast::Name>();
  const std::string spelled = attr ? attr->attr : name ? name->id : std::string();
  if (spelled.empty()) return;
  bool is_type_name = spelled == "Tensor";
  for (const auto& info : builtin_table())
    if (!info.is_method && info.handler == &compat_type_name && spelled == info.export_name) is_type_name = true;
  if (!is_type_name) return;
  Frame af;
  af.module = module;
  ev.frames_.push_back(&af);
  struct Pop { Evaluator& ev; ~Pop() { ev.frames_.pop_back(); } } pop{ev};
  Value ann = ev.eval(*p.annotation);
  if (ann.kind() != Value::Kind::Builtin || ann.self()) return;
  std::optional<bool> ok = type_name_accepts(ann.builtin(), arg);
  if (!ok || *ok) return;
  auto& d = ev.error(diag::Kind::TypeMismatch, at,
                     "argument '" + p.name + "' of '" + fn + "' is annotated " + builtin_info(ann.builtin()).name + ", which expects " +
                         expected_kind(ann.builtin()) + ", found " + describe(arg));
  d.label(p.annotation->range, "annotated here");
  ev.abort_entry();
}

Value compat_type_name(Evaluator& ev, BuiltinCall& c) {
  auto& d = ev.error(diag::Kind::NotCallable, c.site.range, c.name() + " is a type name for annotations, not a function");
  if (c.id() == BuiltinId::TypeLayout) d.help("make a layout with cute.make_layout(shape, stride=...)");
  if (c.id() == BuiltinId::TypeSwizzle) d.help("make a swizzle with cute.make_swizzle(b, m, s)");
  if (c.id() == BuiltinId::TypeNumeric) d.help("convert with a scalar type: cutlass.Float32(x)");
  ev.abort_entry();
}

// ---- enums -------------------------------------------------------------------

namespace {

struct EnumMember {
  const char* name;
  const char* value;  ///< Python's Enum value (LayoutEnum("row_major")); numbers as text
};
struct EnumInfo {
  BuiltinId id;
  const char* display;
  std::vector<EnumMember> members;
};

/// CuTe DSL's enums (utils/layout.py, cute/nvgpu/common.py, base_dsl/enums.py), members in its order.
const std::vector<EnumInfo>& enums() {
  static const std::vector<EnumInfo> table = {
      {BuiltinId::LayoutEnum, "LayoutEnum", {{"ROW_MAJOR", "row_major"}, {"COL_MAJOR", "col_major"}}},
      {BuiltinId::LoadCacheMode, "LoadCacheMode",
       {{"ALWAYS", "always"}, {"GLOBAL", "global"}, {"STREAMING", "streaming"}, {"LAST_USE", "last_use"}, {"NONE", "none"}}},
      {BuiltinId::AddressSpace, "AddressSpace", {{"generic", "0"}, {"gmem", "1"}, {"smem", "3"}, {"rmem", "5"}, {"tmem", "6"}}},
      {BuiltinId::OperandMajorMode, "OperandMajorMode", {{"MN", "mn"}, {"K", "k"}}},
      // cute.nvgpu.warpgroup.Field, what TiledMma.set changes (sm90_dsl_ops.cpp).
      {BuiltinId::WarpgroupField, "Field", {{"ACCUMULATE", "accum_c"}}},
      // cute.ReductionOp, the reductions TensorSSA.reduce takes (ssa_reduce_ops.cpp).
      {BuiltinId::ReductionOp, "ReductionOp", {{"ADD", "add"}, {"MUL", "mul"}, {"MAX", "max"}, {"MIN", "min"}}},
      {BuiltinId::SmemLayoutAtomKind, "SmemLayoutAtomKind",
       {{"MN_INTER", "1"}, {"MN_SW32", "2"}, {"MN_SW64", "3"}, {"MN_SW128", "4"}, {"K_INTER", "5"}, {"K_SW32", "6"}, {"K_SW64", "7"}, {"K_SW128", "8"}}},
  };
  return table;
}

const EnumInfo* enum_of(BuiltinId id) {
  for (const auto& e : enums())
    if (e.id == id) return &e;
  return nullptr;
}

Value member_value(const EnumInfo& e, const EnumMember& m) { return Value::op_marker(e.id, std::string(e.display) + "." + m.name); }

/// The member name of an enum marker ("ROW_MAJOR" of LayoutEnum.ROW_MAJOR); "" for other values.
std::string member_name(const Value& v, BuiltinId enum_id) {
  if (v.kind() != Value::Kind::Marker || v.builtin() != enum_id) return "";
  return v.s().substr(v.s().find('.') + 1);
}

}  // namespace

std::string enum_member_name(const Value& v, BuiltinId enum_id) { return member_name(v, enum_id); }

std::optional<Value> enum_member(const Value& base, const std::string& attr) {
  if (base.kind() != Value::Kind::Builtin || base.self()) return std::nullopt;
  const EnumInfo* e = enum_of(base.builtin());
  if (!e) return std::nullopt;
  for (const auto& m : e->members)
    if (attr == m.name) return member_value(*e, m);
  return std::nullopt;
}

/// LayoutEnum("row_major"): Python's Enum call by value.
Value compat_enum_call(Evaluator& ev, BuiltinCall& c) {
  const EnumInfo& e = *enum_of(c.id());
  std::string names;
  for (const auto& m : e.members) {
    bool match = c[0].kind() == Value::Kind::Str ? c[0].s() == m.value
                 : c[0].kind() == Value::Kind::Int ? std::to_string(c[0].i()) == m.value
                                                   : false;
    if (match) return member_value(e, m);
    if (member_name(c[0], e.id) == m.name) return c[0];
    names += std::string(names.empty() ? "" : ", ") + m.value;
  }
  ev.fail(diag::Kind::TypeMismatch, c.range(0), repr(c[0]) + " is not a valid " + e.display + " (values: " + names + ")");
}

/// LayoutEnum.from_tensor(t) (CuTe DSL utils/layout.py): ROW_MAJOR when mode 1 has stride 1
/// (its leading dimension), COL_MAJOR when mode 0 has; the strides must be known while compiling.
Value compat_layout_enum_from_tensor(Evaluator& ev, BuiltinCall& c) {
  if (!c.self().is<payload::Builtin>() || c.self().builtin() != BuiltinId::LayoutEnum)
    ev.fail(diag::Kind::NoSuchAttribute, c.site.range, "from_tensor is a method of cutlass.utils.LayoutEnum");
  if (c[0].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a tensor, found " + describe(c[0]));
  const TensorValue& t = *c[0].tensor();
  auto unit = [&](size_t m) {
    if (m >= t.layout.rank()) return false;
    const layout::IntTuple s = t.layout.stride[m];
    return s.is_leaf() && s.value().is_static() && s.value().value() == 1;
  };
  const EnumInfo& e = *enum_of(BuiltinId::LayoutEnum);
  if (unit(1)) return member_value(e, e.members[0]);
  if (unit(0)) return member_value(e, e.members[1]);
  auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0),
                     c.name() + "() needs a tensor whose mode 0 or mode 1 has stride 1, found layout " + t.layout.to_string());
  d.help("declare the unit stride in the parameter's annotation: cute.Tensor[cutlass.Float32, (M, K), (K, 1)]");
  ev.abort_entry();
}

/// LayoutEnum's is_k_major_a, is_m_major_a, ... (CuTe DSL utils/layout.py): A is (M, K), B (N, K),
/// C (M, N); row-major makes the last mode contiguous.
Value compat_layout_enum_query(Evaluator& ev, BuiltinCall& c) {
  const std::string member = member_name(c.self(), BuiltinId::LayoutEnum);
  if (member.empty())
    ev.fail(diag::Kind::NoSuchAttribute, c.site.range, c.name() + "() is a method of LayoutEnum members, not of " + describe(c.self()));
  const bool row = member == "ROW_MAJOR";
  switch (c.id()) {
    case BuiltinId::MethodIsKMajorA: case BuiltinId::MethodIsKMajorB: case BuiltinId::MethodIsNMajorC: return Value::boolean(row);
    default: return Value::boolean(!row);
  }
}

std::optional<Value> compat_tensor_attribute(const Value& tv, const std::string& attr) {
  const TensorValue& t = *tv.tensor();
  static const char* spaces[] = {"gmem", "smem", "rmem", "generic"};
  if (attr == "memspace") {
    const EnumInfo& e = *enum_of(BuiltinId::AddressSpace);
    for (const auto& m : e.members)
      if (std::string(m.name) == spaces[static_cast<int>(t.space)]) return member_value(e, m);
  }
  if (attr == "iterator") {
    // CuTe's Pointer: the same origin, element type, memory space and alignment, with a layout
    // of one element so that nothing indexes past it before make_tensor lays it out.
    if (t.space == MemSpace::Coord || t.space == MemSpace::Rmem) return std::nullopt;
    TensorValue p = t;
    p.iterator = true;
    p.layout = layout::make_layout(layout::IntTuple(1), layout::IntTuple(0));
    return Value::of(std::make_shared<TensorValue>(std::move(p)));
  }
  if (attr == "type") {
    // CuTe DSL prints a tensor's MLIR type: !cute.memref<f32, gmem, align<16>, "(4,8):(8,1)">.
    if (t.space == MemSpace::Coord) return Value::str("!cute.coord_tensor<\"" + t.layout.to_string() + "\">");
    static const std::array<const char*, static_cast<size_t>(ScalarType::Count_)> mlir = {
        "i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2"};
    std::string align = t.align_bytes ? ", align<" + std::to_string(t.align_bytes) + ">" : std::string();
    return Value::str(std::string("!cute.memref<") + mlir[static_cast<size_t>(t.dtype)] + ", " + spaces[static_cast<int>(t.space)] +
                      align + ", \"" + t.layout.to_string() + "\">");
  }
  return std::nullopt;
}

// ---- loops and scalars --------------------------------------------------------

/// cutlass.range(start, stop, step, unroll=N, unroll_full=False): range()'s run-time loop and a
/// hint for nvcc (CuTe DSL base_dsl/ast_helpers.py: unroll 0 is no hint, 1 keeps the loop rolled,
/// N unrolls by N, unroll_full unrolls it all). The loop gets it as a fourth element
/// (eval_stmt.cpp's exec_for); prefetch_stages, vectorize and at_least_once are accepted
/// and have no effect here.
Value compat_range(Evaluator& ev, BuiltinCall& c) {
  int64_t unroll = ev.require_static_int(c[0], c.range(0), "cutlass.range's unroll=");
  if (unroll < 0) ev.fail(diag::Kind::TypeMismatch, c.range(0), "cutlass.range's unroll= must not be negative, found " + std::to_string(unroll));
  if (unroll > ir::kMaxUnrollFactor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0),
            "cutlass.range's unroll= must be at most " + std::to_string(ir::kMaxUnrollFactor) + ", found " + std::to_string(unroll));
  const Value& full = ev.require_static(c[1], c.range(1), "cutlass.range's unroll_full=");
  if (full.kind() != Value::Kind::Bool) ev.fail(diag::Kind::TypeMismatch, c.range(1), "cutlass.range's unroll_full= must be True or False, found " + describe(full));
  auto [start, stop, step] = range_bounds(ev, c);
  std::vector<Value> xs{start, stop, step};
  xs.push_back(Value::integer(full.i() ? -1 : unroll));
  return Value::tuple(std::move(xs));
}

/// cute.ceil_div(input, tiler) (CuTe DSL core.py): (input + tiler - 1) // tiler for integers; for
/// a shape, per mode the number of tiles (zipped_divide's second mode), modes past the tiler's
/// rank and None modes kept.
Value compat_ceil_div(Evaluator& ev, BuiltinCall& c) {
  const auto r = c.site.range;
  std::function<Value(const Value&, const Value&)> go = [&](const Value& a, const Value& b) -> Value {
    if (b.kind() == Value::Kind::None) return a;
    if (a.kind() == Value::Kind::Tuple) {
      if (b.kind() != Value::Kind::Tuple)
        ev.fail(diag::Kind::BadLayoutArgument, c.range(1),
                c.name() + "() of a shape " + repr(a) + " takes a tuple tiler, found " + describe(b));
      if (b.elts().size() > a.elts().size())
        ev.fail(diag::Kind::RankMismatch, c.range(1),
                c.name() + "(): the tiler " + repr(b) + " has more modes than the shape " + repr(a));
      std::vector<Value> xs;
      for (size_t i = 0; i < a.elts().size(); ++i) xs.push_back(i < b.elts().size() ? go(a.elts()[i], b.elts()[i]) : a.elts()[i]);
      return Value::tuple(std::move(xs));
    }
    if (b.kind() == Value::Kind::Tuple)
      ev.fail(diag::Kind::RankMismatch, c.range(1), c.name() + "() of an integer takes an integer tiler, found " + describe(b));
    if (b.kind() == Value::Kind::Layout || a.kind() == Value::Kind::Layout)
      ev.fail(diag::Kind::BadLayoutArgument, a.kind() == Value::Kind::Layout ? c.range(0) : c.range(1),
              c.name() + "() takes shapes and tuple tilers here, not layouts");
    Value sum = ev.eval_binop(ast::BinOpKind::Add, a, b, r, r);
    sum = ev.eval_binop(ast::BinOpKind::Sub, sum, Value::integer(1), r, r);
    return ev.eval_binop(ast::BinOpKind::FloorDiv, sum, b, r, r);
  };
  return go(c[0], c[1]);
}

/// cute.product_each(a) (CuTe DSL tuple.py): an integer stays; a tuple becomes the product of each mode.
Value compat_product_each(Evaluator& ev, BuiltinCall& c) {
  const auto r = c.site.range;
  std::function<Value(const Value&)> product = [&](const Value& v) -> Value {
    if (v.kind() != Value::Kind::Tuple) {
      if (!is_int_like(v)) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes integers and tuples of them, found " + describe(v));
      return v;
    }
    Value acc = Value::integer(1);
    for (const auto& e : v.elts()) acc = ev.eval_binop(ast::BinOpKind::Mul, acc, product(e), r, r);
    return acc;
  };
  if (c[0].kind() != Value::Kind::Tuple) return product(c[0]);
  std::vector<Value> xs;
  for (const auto& e : c[0].elts()) xs.push_back(product(e));
  return Value::tuple(std::move(xs));
}

/// cute.repeat_like(x, target) (CuTe DSL core.py): target's tuple structure with x at every leaf.
Value compat_repeat_like(Evaluator&, BuiltinCall& c) {
  std::function<Value(const Value&)> go = [&](const Value& t) -> Value {
    if (t.kind() != Value::Kind::Tuple) return c[0];
    std::vector<Value> xs;
    for (const auto& e : t.elts()) xs.push_back(go(e));
    return Value::tuple(std::move(xs));
  };
  return go(c[1]);
}

/// cute.slice_(src, coord) (CuTe DSL core.py; CuTe's slice): the modes of src where coord is
/// None; src a tensor (as t[coord]), a layout or a tuple.
Value compat_slice(Evaluator& ev, BuiltinCall& c) {
  const Value& src = c[0];
  if (src.kind() == Value::Kind::Tensor) return ev.tensor_slice(src, c[1], c.site.range);
  try {
    layout::IntTuple crd = ev.to_int_tuple(c[1], c.range(1), "the coordinate");
    if (src.kind() == Value::Kind::Layout) return Value::of(layout::slice(crd, src.layout()));
    if (src.kind() == Value::Kind::ComposedLayout) {
      // CuTe's slice_and_offset: the outer layout sliced; where the slice starts joins the offset.
      layout::ComposedLayout out = src.composed();
      out.offset = out.offset + layout::slice_offset(crd, out.layout);
      out.layout = layout::slice(crd, out.layout);
      return Value::of(out);
    }
    if (src.kind() == Value::Kind::Tuple || is_int_like(src))
      return ev.from_int_tuple(layout::slice(crd, ev.to_int_tuple(src, c.range(0), "the tuple")), c.site.range);
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, c.name() + "(): " + e.what());
  }
  ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() slices a tensor, a layout or a tuple, found " + describe(src));
}

/// cute.shape(input, mode=None) (CuTe DSL core.py): a tensor's or layout's shape, a shape itself;
/// mode= picks one mode (an index, or a list of nested indices).
Value compat_shape(Evaluator& ev, BuiltinCall& c) {
  const Value& in = c[0];
  Value shape = in.kind() == Value::Kind::Tensor ? ev.from_int_tuple(in.tensor()->layout.shape, c.site.range)
                : in.kind() == Value::Kind::Layout ? ev.from_int_tuple(in.layout().shape, c.site.range)
                : in;
  if (!is_int_tuple(shape, false, false))
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a tensor, a layout or a shape, found " + describe(in));
  if (!c.has(1)) return shape;
  std::vector<Value> modes = c[1].kind() == Value::Kind::Tuple ? c[1].elts() : std::vector<Value>{c[1]};
  for (const auto& m : modes) {
    int64_t i = ev.require_static_int(m, c.range(1), "a mode index");
    if (shape.kind() != Value::Kind::Tuple ? i != 0 : (i < 0 || i >= static_cast<int64_t>(shape.elts().size())))
      ev.fail(diag::Kind::IndexOutOfRange, c.range(1), "mode " + std::to_string(i) + " is out of range for shape " + repr(shape));
    if (shape.kind() == Value::Kind::Tuple) shape = shape.elts()[static_cast<size_t>(i)];
  }
  return shape;
}

namespace {

/// CuTe's Layout::get_hier_coord: the coordinate whose image is `idx`, per leaf
/// (idx / stride) % shape (idx2crd over the layout's own strides; a stride-0 leaf's coordinate is 0).
layout::IntTuple hier_coord(const layout::Int& idx, const layout::IntTuple& shape, const layout::IntTuple& stride) {
  if (shape.is_tuple()) {
    std::vector<layout::IntTuple> out;
    for (size_t i = 0; i < shape.rank(); ++i) out.push_back(hier_coord(idx, shape[i], stride[i]));
    return layout::IntTuple::tuple(std::move(out));
  }
  const layout::Int& d = stride.value();
  if (d.has_value() && d.value() == 0) return layout::Int(0);
  return (idx / d) % shape.value();
}

/// Layout.get_hier_coord(index) and get_flat_coord(index) (CuTe DSL core.py, CuTe's Layout
/// members): the coordinate of the layout that maps to `index` (the layout inverted on its
/// image), hierarchical, or with each top-level mode's coordinate made one integer (its
/// colexicographic index within the mode: crd2crd to (1, ..., 1)).
Value layout_coord(Evaluator& ev, BuiltinCall& c, bool flat) {
  try {
    const layout::Layout& l = c.self().layout();
    layout::IntTuple idx = ev.to_int_tuple(c[0], c.range(0), "the index");
    if (idx.is_tuple()) ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes an integer index, found " + repr(c[0]));
    layout::IntTuple crd = hier_coord(idx.value(), l.shape, l.stride);
    if (flat && crd.is_tuple()) {
      std::vector<layout::IntTuple> modes;
      for (size_t i = 0; i < crd.rank(); ++i)
        modes.push_back(crd[i].is_tuple() ? layout::IntTuple(layout::crd2idx(crd[i], l.shape[i], layout::compact_col_major(l.shape[i])))
                                          : crd[i]);
      crd = layout::IntTuple::tuple(std::move(modes));
    }
    Value out = ev.from_int_tuple(crd, c.site.range);
    return out.kind() == Value::Kind::Tuple || !flat ? out : Value::tuple({out});
  } catch (const layout::LayoutError& e) {
    ev.fail(diag::Kind::LayoutAlgebraError, c.site.range, c.name() + "(): " + e.what());
  }
}

}  // namespace

Value compat_get_flat_coord(Evaluator& ev, BuiltinCall& c) { return layout_coord(ev, c, true); }
Value compat_get_hier_coord(Evaluator& ev, BuiltinCall& c) { return layout_coord(ev, c, false); }

/// cute.make_layout_image_mask(lay, coord, mode) (CuTe DSL core.py): the 16-bit mask of the
/// image of the static layout `lay` along `mode` (bit lay(..., i, ...) for every i of that mode),
/// shifted by the offset the other modes of `coord` give: the blocks of a cluster (laid out by
/// `lay`) that a TMA multicast along `mode` reaches. `coord` may be run-time. A layout with
/// run-time extents, a coordinate of another rank, a mode out of range and a codomain past 16
/// bits are each reported at the argument.
Value compat_make_layout_image_mask(Evaluator& ev, BuiltinCall& c) {
  const auto r = c.site.range;
  layout::Layout l = ev.to_layout(c[0], c.range(0), "lay");
  auto cosize = layout::cosize(l);
  if (!cosize.has_value())
    ev.fail(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "() needs a static layout, found " + l.to_string());
  const size_t rank = l.rank();
  if (c[1].kind() != Value::Kind::Tuple || c[1].elts().size() != rank)
    ev.fail(diag::Kind::RankMismatch, c.range(1), c.name() + "() takes a coordinate of the layout's rank " + std::to_string(rank) +
                                                     ", found " + repr(c[1]));
  const int64_t mode = ev.require_static_int(c[2], c.range(2), "mode");
  if (mode < 0 || mode >= static_cast<int64_t>(rank))
    ev.fail(diag::Kind::IndexOutOfRange, c.range(2), c.name() + "(): mode " + std::to_string(mode) + " is out of range for a rank-" +
                                                        std::to_string(rank) + " layout");
  if (cosize.value() > 16)
    ev.fail(diag::Kind::IndexOutOfRange, c.range(0), c.name() + "(): the layout's codomain has " + std::to_string(cosize.value()) +
                                                        " elements; the mask has 16 bits");
  layout::Layout sub = layout::get(l, static_cast<size_t>(mode));
  int64_t mask = 0;
  const int64_t n = layout::size(sub).value();
  for (int64_t i = 0; i < n; ++i) mask |= int64_t{1} << layout::crd2idx(layout::Int(i), sub.shape, sub.stride).value();
  // The other modes' offset: lay(coord) with coord[mode] = 0.
  std::vector<Value> crd = c[1].elts();
  crd[static_cast<size_t>(mode)] = Value::integer(0);
  Value offset = ev.layout_offset(l, Value::tuple(std::move(crd)), r);
  return ev.eval_binop(ast::BinOpKind::LShift, Value::integer(mask), offset, r, r);
}

// ---- tensors -------------------------------------------------------------------

/// cute.domain_offset(coord, tensor) (CuTe DSL tensor.py): the tensor with its origin moved to
/// `coord` (layout(coord) elements further; a coordinate tensor's origin coordinate moves by it),
/// its layout unchanged, so (0, -r) makes a tile start r elements early.
Value compat_domain_offset(Evaluator& ev, BuiltinCall& c) {
  if (c[1].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes a tensor second, found " + describe(c[1]));
  return ev.tensor_value(offset_origin(ev, *c[1].tensor(), c[0], c.site.range));
}

TensorValue offset_origin(Evaluator& ev, const TensorValue& t, const Value& coord, source::SourceRange r) {
  TensorValue out = t;
  if (t.space == MemSpace::Coord) {
    Value moved = ev.coord_element(t, coord, r);  // the origin plus layout(coord), per codomain mode
    std::vector<Value> xs = moved.kind() == Value::Kind::Tuple ? moved.elts() : std::vector<Value>{moved};
    for (size_t k = 0; k < xs.size() && k < out.coord_offset.size(); ++k)
      out.coord_offset[k] = ev.to_expr_as(ev.materialize(xs[k], "crd", r), ScalarType::Int64, r);
    return out;
  }
  Value off = ev.layout_offset(t.layout, coord, r);
  if (t.offset) off = ev.eval_binop(ast::BinOpKind::Add, Value::dyn(t.offset, r), off, r, r);
  off = ev.materialize_offset(t, off, r);
  out.offset = ev.to_expr_as(off, ScalarType::Int64, r);
  return out;
}

/// cute.autovec_copy(src, dst) (CuTe DSL algorithm.py): element i of src to element i of dst,
/// both statically shaped, in the widest accesses (up to 128 bits) that both layouts and both
/// alignments allow: cute.copy with a universal atom over the tensors seen as one mode each.
Value compat_autovec_copy(Evaluator& ev, BuiltinCall& c) {
  for (size_t i = 0; i < 2; ++i)
    if (c[i].kind() != Value::Kind::Tensor)
      ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() copies tensors, found " + describe(c[i]));
  auto one_mode = [&](const Value& v) {
    TensorValue t = *v.tensor();
    t.layout = layout::make_layout(std::vector<layout::Layout>{t.layout});
    return ev.tensor_value(std::move(t));
  };
  CopyAtom atom;
  atom.dtype = c[0].tensor()->dtype;
  atom.bits = 128;
  ev.copy(atom, one_mode(c[0]), one_mode(c[1]), std::nullopt, c.site.range);
  return Value::none();
}

/// cute.where(cond, x, y) (CuTe DSL tensor.py): element-wise x where cond holds, else y; cond a
/// TensorSSA of Booleans, x and y TensorSSAs of its size or scalars (broadcast).
Value compat_where(Evaluator& ev, BuiltinCall& c) {
  const Value& cond = c[0];
  if (cond.kind() != Value::Kind::TensorSSA)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a tensor value (TensorSSA) condition, found " + describe(cond));
  const size_t n = cond.elts().size();
  for (size_t i = 1; i < 3; ++i) {
    const Value& v = c[i];
    if (v.kind() == Value::Kind::TensorSSA) {
      if (v.elts().size() != n) {
        auto& d = ev.error(diag::Kind::TensorShapeMismatch, c.range(i),
                           c.name() + "() of a condition of shape " + ev.shape_text(cond.layout().shape) + " and a value of shape " +
                               ev.shape_text(v.layout().shape));
        d.note("both must have the same number of elements");
        ev.abort_entry();
      }
    } else if (!v.is_scalar()) {
      ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() chooses between tensor values and numbers, found " + describe(v));
    }
  }
  const auto r = c.site.range;
  auto at = [&](const Value& v, size_t i) { return v.kind() == Value::Kind::TensorSSA ? v.elts()[i] : v; };
  // One element type for the result: the promotion of x's and y's.
  ScalarType t = ev.promote(at(c[1], 0), at(c[2], 0), r);
  if (c[1].kind() == Value::Kind::TensorSSA) t = c[1].type();
  else if (c[2].kind() == Value::Kind::TensorSSA) t = c[2].type();
  std::vector<Value> xs;
  for (size_t i = 0; i < n; ++i) {
    const Value ci = at(cond, i);
    if (ci.is_static()) {
      xs.push_back(Value::dyn(ev.to_expr_as(ev.truthy_static(ci, r) ? at(c[1], i) : at(c[2], i), t, r), r));
      continue;
    }
    xs.push_back(Value::dyn(ir::select(ev.to_expr_as(ci, ScalarType::Boolean, r), ev.to_expr_as(at(c[1], i), t, r),
                                       ev.to_expr_as(at(c[2], i), t, r)),
                            r));
  }
  return payload::TensorSSA{std::make_shared<const std::vector<Value>>(std::move(xs)), cond.get<payload::TensorSSA>().shape, t};
}

namespace {

/// A shared-memory tensor `t` over the pointer of make_tensor's slot 0: its elements must lie in
/// the allocation the pointer is in (E0601 otherwise; the pointer's place must be known while
/// compiling). The tensor gets a buffer of its own over those bytes, of its element type (a
/// recast pointer views the bytes as another type, as a @cute.struct view does).
Value smem_tensor_at(Evaluator& ev, BuiltinCall& c, TensorValue t) {
  const auto& buffers = ev.fn_ && ev.fn_->kernel ? ev.fn_->kernel->smem : std::vector<ir::SmemBuffer>{};
  auto buf = std::find_if(buffers.begin(), buffers.end(), [&](const ir::SmemBuffer& b) { return b.name == t.ptr; });
  const std::optional<int64_t> off = t.offset ? ir::as_int_const(t.offset) : std::optional<int64_t>(0);
  if (buf == buffers.end() || !off)
    ev.fail(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "() over a shared-memory pointer needs its place in the allocation known while compiling");
  const int64_t elem = std::max(1, ir::bit_width(t.dtype) / 8), start = buf->byte_offset + *off * elem;
  const layout::Int cos = layout::cosize(t.layout);
  if (!cos.is_static() || (*off + cos.value()) * elem > buf->bytes) {
    auto& d = ev.error(diag::Kind::BadLayoutArgument, c.range(1), c.name() + "(): the layout " + t.layout.to_string() + " reaches past the " +
                                                                    std::to_string(buf->bytes - *off * elem) + " bytes of shared memory behind the pointer");
    d.note("its codomain is " + cos.to_string() + " elements of " + std::to_string(elem) + " bytes");
    ev.abort_entry();
  }
  t.ptr = ev.unique_name("smem");
  t.offset = nullptr;
  t.align_bytes = start == 0 ? 1024 : std::min<int64_t>(1024, start & -start);
  ev.fn_->kernel->smem.push_back({t.ptr, t.dtype, start, cos.value() * elem, {}});
  return ev.tensor_value(std::move(t));
}

}  // namespace

/// cute.make_tensor(iterator, layout) (CuTe DSL tensor.py): a tensor over a pointer from
/// Tensor.iterator, laid out by a layout or a shape (compact column-major), in global or shared
/// memory (a shared-memory layout must stay inside the pointer's allocation).
Value compat_make_tensor(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Tensor || !c[0].tensor()->iterator) {
    auto& d = ev.error(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a pointer (a tensor's .iterator), found " + describe(c[0]));
    if (c[0].kind() == Value::Kind::Tensor) d.help("pass the tensor's pointer: cute.make_tensor(t.iterator, layout)");
    ev.abort_entry();
  }
  const TensorValue& p = *c[0].tensor();
  if (p.space != MemSpace::Gmem && p.space != MemSpace::Smem)
    ev.fail(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "() over a register pointer is not supported yet");
  TensorValue out = p;
  out.iterator = false;
  out.layout = ev.to_layout(c[1], c.range(1), c.name() + "()'s layout");
  if (p.space == MemSpace::Smem) return smem_tensor_at(ev, c, std::move(out));
  return ev.tensor_value(std::move(out));
}

/// Pointer.align(min_align) (CuTe DSL typing.py): the pointer with `min_align` bytes of alignment
/// assumed, as CuTe DSL assumes it. Here a pointer is a base (whose alignment the host function
/// checks) plus an element offset: where the base is known to be that aligned, the offset is
/// taken to be a multiple of min_align bytes, so copies through the pointer may vectorize;
/// otherwise nothing is assumed.
Value compat_pointer_align(Evaluator& ev, BuiltinCall& c) {
  const TensorValue& p = *c.self().tensor();
  if (!p.iterator) ev.fail(diag::Kind::NoSuchAttribute, c.site.range, "align() is a method of pointers (a tensor's .iterator)");
  int64_t bytes = ev.require_static_int(c[0], c.range(0), "the alignment");
  const int64_t elem_bytes = std::max(1, ir::bit_width(p.dtype) / 8);
  if (bytes <= 0 || (bytes & (bytes - 1)) != 0 || bytes % elem_bytes != 0)
    ev.fail(diag::Kind::TypeMismatch, c.range(0),
            c.name() + "() takes a power of two that is a multiple of the element's " + std::to_string(elem_bytes) + " bytes, found " +
                std::to_string(bytes));
  TensorValue out = p;
  if (p.offset && ev.fn_ && p.align_bytes % bytes == 0) {
    Value off = ev.materialize(Value::dyn(p.offset, c.site.range), "aligned", c.site.range);
    out.offset = off.expr();
    if (const auto* var = off.expr()->get_if<ir::Var>()) ev.fn_->divisors[var->name] = bytes / elem_bytes;
  }
  return ev.tensor_value(std::move(out));
}

// ---- arch and utils --------------------------------------------------------------

/// cute.arch.fence_proxy(kind, space=) (CuTe DSL arch/nvvm_wrappers.py; PTX ISA "membar/fence"):
/// the async-proxy kinds issue fence.proxy.async, which orders every state space and so also
/// serves "async.shared" and "async.global"; the other proxies are not here yet.
Value compat_fence_proxy(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Str)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes the proxy kind as a string, found " + describe(c[0]));
  const std::string& kind = c[0].s();
  if (kind != "async" && kind != "async.shared" && kind != "async.global") {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "(" + repr(c[0]) + ") is not supported yet");
    d.note("tileslc has the async proxy fences: 'async', 'async.shared', 'async.global'");
    ev.abort_entry();
  }
  if (c.has(1) && !(c[1].kind() == Value::Kind::Str && (c[1].s() == "cta" || c[1].s() == "cluster")))
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "()'s space= is 'cta' or 'cluster', found " + describe(c[1]));
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::FenceProxyAsync, {}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

/// cutlass.utils.get_smem_capacity_in_bytes(compute_capability=None) (CuTe DSL utils/smem_allocator.py):
/// the shared memory a block may use on "sm_80", "sm_90", ...; None: the target's.
Value compat_smem_capacity(Evaluator& ev, BuiltinCall& c) {
  static const std::vector<std::pair<const char*, int64_t>> capacity = {
      {"sm_80", 163}, {"sm_86", 99}, {"sm_87", 163}, {"sm_89", 99}, {"sm_90", 227}, {"sm_100", 227},
      {"sm_101", 227}, {"sm_103", 227}, {"sm_110", 227}, {"sm_120", 99}, {"sm_121", 99}};
  std::string cc;
  if (c.has(0)) {
    if (c[0].kind() != Value::Kind::Str)
      ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a compute capability such as \"sm_90\", found " + describe(c[0]));
    cc = c[0].s();
  } else {
    cc = ev.program_.arch;
  }
  if (!cc.empty() && cc.back() == 'a') cc.pop_back();  // sm_90a has sm_90's shared memory
  std::string known;
  for (const auto& [name, kib] : capacity) {
    if (cc == name) return Value::integer(kib * 1024);
    known += std::string(known.empty() ? "" : ", ") + name;
  }
  ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "(): unsupported compute capability '" + cc + "' (known: " + known + ")");
}

}  // namespace tileslc::sema
