// Sema's values: what a name is bound to while the partial evaluator runs.
// A Value is static (an int, float, bool, string, tuple, scalar type, module,
// function, builtin, symbolic extent, tensor type spec, ...) or dynamic (a
// typed IR expression computed at run time). Tensors are neither: they pair a
// run-time pointer with a shape whose modes are static or dynamic.
#pragma once

#include <map>
#include <type_traits>
#include <variant>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "ast/ast.h"
#include "ir/ir.h"
#include "layout/layout.h"

namespace tileslc::sema {

struct Value;
struct ModuleValue;
struct ClassValue;
struct InstanceValue;

/// Natively implemented functions, objects and methods: one per row of
/// builtins.def (registry.h reads the rows).
enum class BuiltinId : uint16_t {
#define TILESLC_BUILTIN(Id, Export, Name, Params, Context, Arch, Handler) Id,
#define TILESLC_METHOD(Id, Receiver, Name, Params, Context, Arch, Handler) Id,
#include "sema/builtins.def"
  Count_
};

struct Binding;
using Env = std::map<std::string, Binding>;

/// A `def` (or a `lambda`) together with the module whose globals it sees
/// and, for one made inside a function, the enclosing function's names
/// (Python's closure; captured when the def or lambda runs).
struct FunctionValue {
  enum class Kind : uint8_t { Helper, Kernel, Jit };
  const ast::FunctionDef* def = nullptr;  ///< null for a lambda
  const ast::Lambda* lambda = nullptr;    ///< a lambda: its parameters and body expression
  std::shared_ptr<ModuleValue> module;
  std::shared_ptr<const Env> closure;     ///< null at module level
  Kind kind = Kind::Helper;

  /// The name messages use: the def's, or "<lambda>".
  std::string name() const { return def ? def->name : "<lambda>"; }
  /// The class whose body defined it (a method), for super() and kernel names; null otherwise.
  /// Not owning: the class owns its namespace, which holds the function.
  const ClassValue* owner = nullptr;
  /// Kernels: CuTe DSL's `kernel.set_name_prefix(p)`: the generated kernels' C++ name starts with it.
  std::string name_prefix;
  /// A def inside a function: itself, so that its body sees its own name as Python's closure cell
  /// does (a recursive helper). Weak: the closure must not own the function that owns it.
  std::weak_ptr<FunctionValue> self;
};

/// Where a tensor's elements live. Coord tensors hold no data: element c of
/// an identity tensor is its own coordinate (CuTe's make_identity_tensor).
enum class MemSpace : uint8_t { Gmem, Smem, Rmem, Coord };

/// A tensor: an origin in some memory plus a CuTe layout (in elements). The
/// layout's run-time integers are symbolic leaves named in the current
/// function's FnCtx::symbols ("M", "mA.stride[0]"); identity tensors have
/// basis strides (layout::Int::basis(k), CuTe's E<k>, printed 1@k), projected per coordinate
/// when an element is read.
struct TensorValue {
  ir::ScalarType dtype = ir::ScalarType::Float32;
  MemSpace space = MemSpace::Gmem;
  layout::Layout layout;
  std::string ptr;                     ///< kernel: pointer parameter, smem pointer or rmem array
  ir::ExprRef offset;                  ///< Int64 elements from ptr to the origin; null means 0
  std::vector<ir::ExprRef> coord_offset;  ///< Coord: the origin's coordinate, one per mode of the codomain
  int host_index = -1;                 ///< host: index of the HostParam
  int64_t align_bytes = 0;             ///< alignment of ptr, in bytes
  std::optional<layout::Swizzle> swizzle;  ///< smem: applied to the element offset from ptr (CuTe's composed layout)
  bool iterator = false;               ///< CuTe's Pointer (Tensor.iterator): the origin alone, layout 1:0; make_tensor lays it out
};

/// A copy atom (CuTe DSL make_copy_atom): the universal copy moves
/// `bits` per instruction; cp.async (sm_80, PTX "cp.async") copies global to
/// shared memory asynchronously, completed by commit/wait groups.
struct CopyAtom {
  ir::ScalarType dtype = ir::ScalarType::Float32;
  int64_t bits = 0;
  bool cp_async = false;
  int ldsm_matrices = 0;               ///< ldmatrix (PTX "ldmatrix"): 1, 2 or 4 8x8 matrices; 0 otherwise
  bool ldsm_trans = false;             ///< ldmatrix .trans
  bool stsm = false;                   ///< stmatrix (sm_90, PTX "stmatrix"): the same matrices stored, registers to shared memory
};

/// An MMA atom: one instruction's (M, N, K) tile and, per operand, its
/// thread-value layout: (thread, value) -> offset in the operand's tile,
/// column-major over (M, K) for A, (N, K) for B, (M, N) for C (CuTe's
/// MMA_Traits ALayout/BLayout/CLayout). The universal FMA is one thread's
/// scalar d = a * b + c.
struct MmaAtom {
  std::string name;                    ///< "MmaUniversalOp", "MmaF16BF16Op"
  std::optional<ir::IntrinsicOp> device;  ///< the instruction (none for FMA: d = a * b + c inline)
  ir::ScalarType ab = ir::ScalarType::Float32, acc = ir::ScalarType::Float32;
  std::optional<ir::ScalarType> b;     ///< B's element type where it differs from A's (fp8 wgmma: E4M3 x E5M2)
  int64_t m = 1, n = 1, k = 1, threads = 1;
  layout::Layout a_tv, b_tv, c_tv;
  bool wgmma = false;                  ///< warpgroup MMA: B (and A unless a_rmem) are shared-memory descriptors
  bool a_rmem = false;                 ///< wgmma RS: A is a register fragment laid out by a_tv

  ir::ScalarType b_type() const { return b.value_or(ab); }
};

/// A TMA atom (CuTe DSL make_tiled_tma_atom; a tile load, store or reduce-add): which host tensor's
/// tensor map, the tile (in the tensor's mode order) and its shared-memory
/// layout. `param` names the kernel's `__grid_constant__` descriptor once
/// the atom is passed to a kernel.
struct TmaAtom {
  ir::ScalarType dtype = ir::ScalarType::BFloat16;
  int host_index = -1;                 ///< the host function's tensor parameter
  int inner_mode = 1;                  ///< the mode of stride 1 (the map's innermost dimension)
  int rank = 2;                        ///< the tensor map's rank: 2, or 3 for a batched (M, K, L) tensor (box extent 1 along L)
  int64_t tile[2] = {0, 0};
  layout::Layout smem_layout;
  std::optional<layout::Swizzle> swizzle;
  int64_t swizzle_bytes = 0;           ///< 0, 32, 64 or 128
  enum class Direction : uint8_t { Load, Store, ReduceAdd } direction = Direction::Load;
  bool multicast = false;              ///< CopyBulkTensorTileG2SMulticastOp: loads take mcast_mask=
  /// The blocks that share the tile (make_tiled_tma_atom's num_multicast=): each loads `box`, a
  /// 1/num_multicast slice of it along the outer mode, into every block of its mask (CuTe's
  /// SM90_TMA_LOAD_MULTICAST); cpasync.tma_partition picks a block's slice. 1: box is the tile.
  int64_t num_multicast = 1;
  int64_t box[2] = {0, 0};             ///< one copy's extents, in the tensor's mode order
  /// Host Int64 expressions (offset, shape0, shape1, stride0, stride1) of the view the atom was
  /// built from when it is not the whole parameter (a slice a[None, None, l]); empty otherwise.
  std::vector<ir::ExprRef> view;
  std::string param;
};

/// make_tiled_mma's result: atoms laid out (AM, AN) over threads, and its
/// per-thread slice. The TV layouts are over the tiled tile (M*AM, K),
/// (N*AN, K) and (M*AM, N*AN).
struct TiledMma {
  MmaAtom atom;
  int64_t am = 1, an = 1;
  int64_t tile_m = 0, tile_n = 0, tile_k = 0;  ///< permutation_mnk's (M, N, K) tile; 0: the atoms' (m*AM, n*AN, k)
  /// permutation_mnk's modes given as layouts (CuTe's permutations proper): partition_A/B/C
  /// first re-index the operand by them (CuTe's thrfrg_A/B/C: logical_divide by the permutation
  /// tiler); unset modes are identity permutations.
  std::optional<layout::Layout> perm[3];
  layout::Layout a_tv, b_tv, c_tv;
  std::shared_ptr<Value> thread;
};

/// make_tiled_copy_tv's result, and (thread set) its per-thread slice.
struct TiledCopy {
  CopyAtom atom;
  layout::IntTuple tiler;              ///< the tile (M, N) the TV layout covers
  layout::Layout tv;                   ///< (thread, value) -> offset in the tile (col-major)
  std::shared_ptr<Value> thread;       ///< get_slice(tidx): the thread index; null for the tiled copy
  /// make_tiled_copy_A/B (ldmatrix): `tv` is the source (shared-memory) side,
  /// `dst_tv` the tiled MMA's (thread, value) layout over `tiler` that the
  /// registers follow; `mma` and `operand` (0: A, 1: B) let retile() map a
  /// tiled_mma.make_fragment_A/B fragment onto the copy's values. make_tiled_copy_C
  /// (stmatrix, operand 2) is the same with the registers as the source.
  layout::Layout dst_tv;
  std::shared_ptr<const TiledMma> mma;
  int operand = -1;
};

/// `cute.Tensor[dtype, (dims...), align]` as written in an annotation.
struct TensorSpec {
  bool has_dtype = false;
  ir::ScalarType dtype = ir::ScalarType::Float32;
  bool has_dims = false;
  std::vector<std::shared_ptr<Value>> dims;  ///< Int or SymDim values
  std::vector<std::shared_ptr<Value>> strides;  ///< empty, or per mode Int, SymDim or None (any)
  int64_t align = 0;
};

/// `kernel(args...)` awaiting `.launch(...)`.
struct KernelCall {
  std::shared_ptr<FunctionValue> fn;
  std::vector<Value> args;
  source::SourceRange range;
};

// ---------------------------------------------------------------- payloads

// One struct per kind of value, holding what that kind has. Large or shared
// parts sit behind shared_ptr so a Value stays small and copies cheaply:
// tuples, layouts and atoms are immutable once built; tensors, modules and
// functions are objects that several values alias.
namespace payload {
struct Undef {};
struct None {};
struct Int {
  int64_t value = 0;
};
struct Float {
  double value = 0;
};
struct Bool {
  bool value = false;
};
struct Str {
  std::string value;
};
/// A tuple, or a Python list (`list`): a list is a tuple everywhere a sequence is read (shapes,
/// iteration, indexing), and a mutable object its aliases share (`l[i] = x`, `l.append(x)`).
struct Tuple {
  std::shared_ptr<const std::vector<Value>> elts;
  bool list = false;  ///< a list: `elts` was made non-const (Value::list) and is mutated in place
  uint64_t made_at = 0;  ///< a list: the container clock's tick when it was made (container_mutation.h)
};
/// A scalar type (Float32, Int64, ...) used as a value.
struct Type {
  ir::ScalarType type = ir::ScalarType::Int32;
};
/// A run-time value: a typed IR expression.
struct Dyn {
  ir::ExprRef expr;
  ir::ScalarType type = ir::ScalarType::Int32;
  source::SourceRange origin;  ///< where it became dynamic
  /// A symbolic extent resolved where it was read (Evaluator::resolve_symbol): its name ("M"),
  /// which layouts keep as their leaf and messages print; null for any other run-time value.
  std::shared_ptr<const std::string> extent;
};
struct Tensor {
  std::shared_ptr<TensorValue> tensor;
};
struct Module {
  std::shared_ptr<ModuleValue> module;
};
struct Function {
  std::shared_ptr<FunctionValue> fn;
};
/// A builtin function or object, or a method bound to its receiver.
struct Builtin {
  BuiltinId id{};
  std::shared_ptr<Value> self;  ///< methods: the receiver; null otherwise
};
struct KernelCall {
  std::shared_ptr<sema::KernelCall> call;
};
/// A symbolic extent (cute.sym_int): a run-time integer named `name`.
struct SymDim {
  std::string name;
  int64_t divisibility = 0;  ///< its declared divisibility; 0: none
};
struct TensorSpec {
  std::shared_ptr<sema::TensorSpec> spec;
};
/// `cute.Constexpr[...]` as written in an annotation.
struct ConstexprSpec {};
struct Ellipsis {};
/// lower:upper:step, each None when left out.
struct Slice {
  std::shared_ptr<const std::vector<Value>> parts;  ///< (lower, upper, step)
};
struct Layout {
  std::shared_ptr<const layout::Layout> layout;
};
/// A register value of a whole tensor (.load()): its elements flat, in the order of `shape`'s compact layout.
struct TensorSSA {
  std::shared_ptr<const std::vector<Value>> elts;
  std::shared_ptr<const layout::Layout> shape;
  ir::ScalarType type = ir::ScalarType::Float32;
};
struct CopyAtom {
  std::shared_ptr<sema::CopyAtom> atom;
};
struct TiledCopy {
  std::shared_ptr<sema::TiledCopy> tiled_copy;
};
struct SmemAllocator {};
/// A copy or MMA operation marker (CopyUniversalOp(), CopyG2SOp(), LdMatrix8x8x16bOp(...)): `op` is the
/// builtins.def row that made it, which code compares; `name` its name, which messages print.
struct OpMarker {
  BuiltinId op{};
  std::string name;
  std::shared_ptr<const std::vector<Value>> args;  ///< the marker's parameters where it has any (ldmatrix: transpose, count)
};
struct MmaAtom {
  std::shared_ptr<sema::MmaAtom> mma;
};
struct TiledMma {
  std::shared_ptr<sema::TiledMma> tiled_mma;
};
/// swizzle o offset o layout; a bare Swizzle is one with an empty layout.
struct ComposedLayout {
  std::shared_ptr<const layout::ComposedLayout> composed;
};
struct TmaAtom {
  std::shared_ptr<sema::TmaAtom> tma;
};
/// A Python dict evaluated while compiling: static keys (compared as `static_equal`) in insertion
/// order; a mutable object its aliases share.
struct Dict {
  std::shared_ptr<std::vector<std::pair<Value, Value>>> items;
  uint64_t made_at = 0;  ///< the container clock's tick when it was made (container_mutation.h)
};
/// A class made by a `class` statement while compiling (Python's type objects).
struct Class {
  std::shared_ptr<ClassValue> cls;
};
/// An instance of a Class: a static object whose attributes hold any value.
struct Instance {
  std::shared_ptr<InstanceValue> obj;
};
/// A function looked up on an instance (or a classmethod on its class): `self` is bound first.
struct BoundMethod {
  std::shared_ptr<const Value> fn;    ///< a Function
  std::shared_ptr<const Value> self;  ///< an Instance, or a Class for a classmethod
};
/// What @staticmethod, @classmethod and @property make of a function in a class body
/// (Python's descriptors): looked up on an instance or class, each binds differently.
struct Descriptor {
  enum class Kind : uint8_t { StaticMethod, ClassMethod, Property } kind = Kind::StaticMethod;
  std::shared_ptr<const Value> fn;      ///< the function (a property's getter)
  std::shared_ptr<const Value> setter;  ///< a property's setter (@name.setter); null when read-only
};
/// super() in a method: attribute lookup on `self`'s class MRO, after `after`.
struct Super {
  const ClassValue* after = nullptr;  ///< in the MRO of `self`'s class, which `self` keeps alive
  std::shared_ptr<const Value> self;  ///< an Instance or a Class
};

template <class P, class Variant>
struct IsAlternative;
template <class P, class... Ts>
struct IsAlternative<P, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<P, Ts> || ...)> {};
}  // namespace payload

/// A value: one payload (the kind's fields). kind() is the payload's; the
/// named readers (i(), s(), elts(), layout(), ...) read the field their name
/// says from the kinds listed on each and throw std::logic_error (an internal
/// error, never undefined behaviour) on any other kind.
struct Value {
  /// The kinds, in the order of Node's alternatives.
  enum class Kind : uint8_t {
    Undef, None, Int, Float, Bool, Str, Tuple, Type, Dyn, Tensor, Module, Function, Builtin,
    KernelCall, SymDim, TensorSpec, ConstexprSpec, Ellipsis, Slice, Layout, TensorSSA,
    CopyAtom, TiledCopy, SmemAllocator, Marker, MmaAtom, TiledMma, ComposedLayout, TmaAtom,
    Dict,
    Class, Instance, BoundMethod, Descriptor, Super,
  };
  using Node = std::variant<payload::Undef, payload::None, payload::Int, payload::Float, payload::Bool, payload::Str,
                            payload::Tuple, payload::Type, payload::Dyn, payload::Tensor, payload::Module,
                            payload::Function, payload::Builtin, payload::KernelCall, payload::SymDim,
                            payload::TensorSpec, payload::ConstexprSpec, payload::Ellipsis, payload::Slice,
                            payload::Layout, payload::TensorSSA, payload::CopyAtom, payload::TiledCopy,
                            payload::SmemAllocator, payload::OpMarker, payload::MmaAtom, payload::TiledMma,
                            payload::ComposedLayout, payload::TmaAtom, payload::Dict, payload::Class, payload::Instance,
                            payload::BoundMethod, payload::Descriptor, payload::Super>;
  Node node;

  Value() = default;
  /// A value of the payload's kind (`Value v = payload::Int{3};`).
  template <class P>
    requires payload::IsAlternative<P, Node>::value
  Value(P p) : node(std::move(p)) {}

  Kind kind() const { return static_cast<Kind>(node.index()); }
  template <class P>
  bool is() const {
    return std::holds_alternative<P>(node);
  }
  /// The payload P; throws std::logic_error when the value is another kind.
  template <class P>
  const P& get() const {
    if (const P* p = std::get_if<P>(&node)) return *p;
    wrong_kind("get<>()");
  }
  /// The payload P, or null.
  template <class P>
  const P* get_if() const {
    return std::get_if<P>(&node);
  }

  /// Known while compiling, so it folds: every kind but Undef, run-time values
  /// (Dyn), tensors and their register values (TensorSSA), the shared-memory
  /// allocator, TMA atoms, and tiled copies and MMAs sliced per thread.
  bool is_static() const;
  bool is_number() const { return kind() == Kind::Int || kind() == Kind::Float || kind() == Kind::Bool; }
  // The one rule for numbers, static or run-time: a static number is an Int,
  // Bool or Float payload; a run-time one is a Dyn, whose IR type says which.
  // A symbolic extent (SymDim) is neither: evaluation resolves it to the Dyn
  // its tensor parameter binds (Evaluator::resolve_symbol) before it is used.
  /// An integer known while compiling: Int, or Bool (Python's bool is an int).
  bool is_static_int() const { return kind() == Kind::Int || kind() == Kind::Bool; }
  /// A run-time integer: Dyn of an integer type (Boolean is not one).
  bool is_dyn_integer() const;
  /// An integer, static (Int) or run-time (is_dyn_integer()).
  bool is_integer() const { return kind() == Kind::Int || is_dyn_integer(); }
  /// A floating-point number, static (Float) or run-time (Dyn of a floating type).
  bool is_floating() const;
  /// A number, static (is_number()) or run-time (any Dyn).
  bool is_scalar() const { return is_number() || kind() == Kind::Dyn; }

  // Named readers, by the kinds that have the field.
  int64_t i() const;                              ///< Int; Bool (0 or 1); SymDim: its divisibility (0: none)
  double f() const;                               ///< Float
  const std::string& s() const;                   ///< Str; SymDim and Marker: the name
  const std::vector<Value>& elts() const;         ///< Tuple; Slice (lower, upper, step); TensorSSA; Marker's arguments
  ir::ScalarType type() const;                    ///< Type; Dyn; TensorSSA: the element type
  const ir::ExprRef& expr() const;                ///< Dyn
  source::SourceRange origin() const;             ///< Dyn: where it became dynamic; other kinds: an empty range
  /// The name of the symbolic extent this value is: a SymDim's, or a Dyn's resolved from one; null otherwise.
  const std::string* extent_name() const;
  const std::shared_ptr<TensorValue>& tensor() const;          ///< Tensor
  const std::shared_ptr<ModuleValue>& module() const;          ///< Module
  const std::shared_ptr<FunctionValue>& fn() const;            ///< Function
  BuiltinId builtin() const;                                   ///< Builtin; Marker: the operation's row
  const std::shared_ptr<Value>& self() const;                  ///< Builtin: a method's receiver, null for a function
  const std::shared_ptr<sema::KernelCall>& kcall() const;      ///< KernelCall
  const std::shared_ptr<sema::TensorSpec>& spec() const;       ///< TensorSpec
  const layout::Layout& layout() const;                        ///< Layout; TensorSSA: its shape (compact)
  const layout::ComposedLayout& composed() const;              ///< ComposedLayout
  const std::shared_ptr<sema::CopyAtom>& atom() const;         ///< CopyAtom
  const std::shared_ptr<sema::TiledCopy>& tiled_copy() const;  ///< TiledCopy
  const std::shared_ptr<sema::MmaAtom>& mma() const;           ///< MmaAtom
  const std::shared_ptr<sema::TiledMma>& tiled_mma() const;    ///< TiledMma
  const std::shared_ptr<sema::TmaAtom>& tma() const;           ///< TmaAtom
  const std::shared_ptr<ClassValue>& cls() const;              ///< Class
  const std::shared_ptr<InstanceValue>& obj() const;           ///< Instance

  static Value none() { return payload::None{}; }
  static Value integer(int64_t x) { return payload::Int{x}; }
  static Value floating(double x) { return payload::Float{x}; }
  static Value boolean(bool x) { return payload::Bool{x}; }
  static Value str(std::string x) { return payload::Str{std::move(x)}; }
  static Value tuple(std::vector<Value> xs);
  /// A new Python list (a Tuple with `list` set) holding `xs`.
  static Value list(std::vector<Value> xs);
  static Value dict(std::vector<std::pair<Value, Value>> items = {});
  bool is_list() const {
    const auto* t = get_if<payload::Tuple>();
    return t && t->list;
  }
  /// A list's elements, to mutate in place (every alias of the list sees it); throws on other kinds.
  std::vector<Value>& list_items() const;
  /// A dict's items, mutable; throws on other kinds.
  std::vector<std::pair<Value, Value>>& dict_items() const;
  static Value scalar_type(ir::ScalarType t) { return payload::Type{t}; }
  static Value dyn(ir::ExprRef e, source::SourceRange origin);
  static Value make_builtin(BuiltinId id) { return payload::Builtin{id, nullptr}; }
  /// Builtin method `id` bound to its receiver.
  static Value method(BuiltinId id, Value self);
  /// A copy or MMA operation marker (payload::OpMarker), with its parameters if it has any.
  static Value op_marker(BuiltinId op, std::string name, std::vector<Value> args = {});
  bool is_op(BuiltinId op) const {
    const auto* m = get_if<payload::OpMarker>();
    return m && m->op == op;
  }
  static Value of(layout::Layout l);
  static Value of(layout::ComposedLayout l);
  static Value of(std::shared_ptr<TensorValue> t) { return payload::Tensor{std::move(t)}; }
  static Value of(std::shared_ptr<ModuleValue> m) { return payload::Module{std::move(m)}; }
  static Value of(std::shared_ptr<FunctionValue> f) { return payload::Function{std::move(f)}; }
  static Value of(std::shared_ptr<sema::KernelCall> k) { return payload::KernelCall{std::move(k)}; }
  static Value of(std::shared_ptr<sema::TensorSpec> s) { return payload::TensorSpec{std::move(s)}; }
  static Value of(std::shared_ptr<CopyAtom> a) { return payload::CopyAtom{std::move(a)}; }
  static Value of(std::shared_ptr<TiledCopy> t) { return payload::TiledCopy{std::move(t)}; }
  static Value of(std::shared_ptr<MmaAtom> m) { return payload::MmaAtom{std::move(m)}; }
  static Value of(std::shared_ptr<TiledMma> t) { return payload::TiledMma{std::move(t)}; }
  static Value of(std::shared_ptr<TmaAtom> t) { return payload::TmaAtom{std::move(t)}; }
  static Value of(std::shared_ptr<ClassValue> c) { return payload::Class{std::move(c)}; }
  static Value of(std::shared_ptr<InstanceValue> o) { return payload::Instance{std::move(o)}; }

 private:
  /// Throws the internal error for reader `reader` on this value's kind.
  [[noreturn]] void wrong_kind(const char* reader) const;
};

static_assert(std::variant_size_v<Value::Node> == static_cast<size_t>(Value::Kind::Super) + 1);

/// A name's binding: its value, the local variable it owns (if any), and
/// where it was bound (for "declared here" labels).
struct Binding {
  Value value;
  std::string owned_var;  ///< C++ local owned by this name; "" if none
  source::SourceRange where;
  int depth = 0;          ///< run-time control-flow depth where it was bound
};

/// A call's keyword arguments, in the order written.
using Kwargs = std::vector<std::pair<std::string, Value>>;

struct ModuleValue {
  std::string name;                 ///< dotted module name ("tileslc.cute")
  source::FileId file = source::kNoFile;
  std::unique_ptr<ast::Module> ast;  ///< kept alive: functions point into it
  Env globals;
  bool loading = false;
  /// An opaque stand-in (host_modules.cpp) for a Python object tileslc cannot compile, from module `opaque_from`.
  enum class Opaque : uint8_t { No, HostOnly, NotYet, Stream } opaque = Opaque::No; std::string opaque_from;
};

/// A class made while compiling (class_ops.cpp): Python's type object, with
/// its method resolution order (C3, as Python computes __mro__).
struct ClassValue {
  std::string name;
  std::shared_ptr<ModuleValue> module;  ///< where it was defined
  const ast::ClassDef* def = nullptr;
  std::vector<std::shared_ptr<ClassValue>> bases;
  std::vector<ClassValue*> mro;         ///< this class first, then its bases' linearization (C3); not owning
  Env ns;                               ///< the class body's namespace: class attributes and methods
  /// @dataclass: the fields (annotated class attributes, in order) its generated __init__ takes.
  bool is_dataclass = false, frozen = false;
  std::vector<std::string> fields;
};

/// An instance: a static object. `__init__` runs while compiling; attributes
/// hold any value. A run-time value (Dyn, tensor) stored on it belongs to the
/// function being built when it was stored (`fn_serial`): it is an error to
/// read it in another (a kernel cannot see its host function's locals).
struct InstanceValue {
  std::shared_ptr<ClassValue> cls;
  int64_t serial = 0;                   ///< creation order, for messages
  /// The container clock's tick when it was made (container_mutation.h): its attributes may be
  /// set inside the run-time loop body or branch that made it.
  uint64_t made_at = 0;
  struct Attr {
    Value value;
    source::SourceRange where;          ///< where it was last assigned
    int64_t fn_serial = 0;              ///< run-time values: the function they belong to (0: static)
  };
  std::map<std::string, Attr> attrs;    ///< instance attributes (Python's __dict__), sorted by name
  bool initialized = false;             ///< __init__ returned (frozen dataclasses refuse stores after)
};

/// Python-like repr of a static value, for messages and print().
std::string repr(const Value& v);
/// A short description of a value's kind for messages: "int", "Float32 value", "tensor".
std::string describe(const Value& v);

}  // namespace tileslc::sema
