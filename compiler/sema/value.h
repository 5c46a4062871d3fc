// Sema's values: what a name is bound to while the partial evaluator runs.
// A Value is static (an int, float, bool, string, tuple, scalar type, module,
// function, builtin, symbolic extent, tensor type spec, ...) or dynamic (a
// typed IR expression computed at run time). Tensors are neither: they pair a
// run-time pointer with a shape whose modes are static or dynamic.
#pragma once

#include <map>
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

/// Natively implemented functions, objects and methods: one per row of
/// builtins.def (registry.h reads the rows).
enum class BuiltinId : uint16_t {
#define TILESLC_BUILTIN(Id, Export, Name, Params, Context, Arch, Handler) Id,
#define TILESLC_METHOD(Id, Receiver, Name, Params, Context, Arch, Handler) Id,
#include "sema/builtins.def"
  Count_
};

/// A `def` together with the module whose globals it sees.
struct FunctionValue {
  enum class Kind : uint8_t { Helper, Kernel, Jit };
  const ast::FunctionDef* def = nullptr;
  std::shared_ptr<ModuleValue> module;
  Kind kind = Kind::Helper;
};

/// Where a tensor's elements live. Coord tensors hold no data: element c of
/// an identity tensor is its own coordinate (CuTe's make_identity_tensor).
enum class MemSpace : uint8_t { Gmem, Smem, Rmem, Coord };

/// A tensor: an origin in some memory plus a CuTe layout (in elements). The
/// layout's run-time integers are symbolic leaves named in the current
/// function's FnCtx::symbols ("M", "mA.stride[0]"); identity tensors have
/// basis strides, leaves named "1@k" (CuTe's E<k>), projected per coordinate
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
  int64_t tile[2] = {0, 0};
  layout::Layout smem_layout;
  std::optional<layout::Swizzle> swizzle;
  int64_t swizzle_bytes = 0;           ///< 0, 32, 64 or 128
  enum class Direction : uint8_t { Load, Store, ReduceAdd } direction = Direction::Load;
  bool multicast = false;              ///< CopyBulkTensorTileG2SMulticastOp: loads take mcast_mask=
  std::string param;
};

/// make_tiled_mma's result: atoms laid out (AM, AN) over threads, and its
/// per-thread slice. The TV layouts are over the tiled tile (M*AM, K),
/// (N*AN, K) and (M*AM, N*AN).
struct TiledMma {
  MmaAtom atom;
  int64_t am = 1, an = 1;
  int64_t tile_m = 0, tile_n = 0, tile_k = 0;  ///< permutation_mnk's (M, N, K) tile; 0: the atoms' (m*AM, n*AN, k)
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

struct Value {
  enum class Kind : uint8_t {
    Undef, None, Int, Float, Bool, Str, Tuple, Type, Dyn, Tensor, Module, Function, Builtin,
    KernelCall, SymDim, TensorSpec, ConstexprSpec, Ellipsis, Slice, Layout,
    TensorSSA,   ///< a register value of a whole tensor (.load()): elts flat, `layout` its static shape
    CopyAtom, TiledCopy, SmemAllocator, Marker, MmaAtom, TiledMma,
    ComposedLayout,  ///< swizzle o offset o layout; a bare Swizzle is one with an empty layout
    TmaAtom,
  };
  Kind kind = Kind::Undef;
  int64_t i = 0;                           ///< Int, Bool; SymDim: its declared divisibility (0: none)
  double f = 0;                            ///< Float
  std::string s;                           ///< Str; SymDim name
  std::shared_ptr<std::vector<Value>> elts;  ///< Tuple; Slice (lower, upper, step)
  ir::ScalarType type = ir::ScalarType::Int32;  ///< Type; Dyn
  ir::ExprRef expr;                        ///< Dyn
  std::shared_ptr<TensorValue> tensor;
  std::shared_ptr<ModuleValue> module;
  std::shared_ptr<FunctionValue> fn;
  BuiltinId builtin{};                     ///< Builtin; Marker: the operation's row
  std::shared_ptr<Value> self;             ///< Builtin methods: the receiver
  std::shared_ptr<KernelCall> kcall;
  std::shared_ptr<TensorSpec> spec;
  std::shared_ptr<const layout::Layout> layout;  ///< Layout; TensorSSA: its shape (compact)
  std::shared_ptr<const layout::ComposedLayout> composed;  ///< ComposedLayout
  std::shared_ptr<CopyAtom> atom;
  std::shared_ptr<TiledCopy> tiled_copy;
  std::shared_ptr<MmaAtom> mma;
  std::shared_ptr<TiledMma> tiled_mma;
  std::shared_ptr<TmaAtom> tma;
  source::SourceRange origin;              ///< Dyn: where it became dynamic

  bool is_static() const {
    if (kind == Kind::TiledCopy) return !tiled_copy || !tiled_copy->thread;
    if (kind == Kind::TiledMma) return !tiled_mma || !tiled_mma->thread;
    return kind != Kind::Dyn && kind != Kind::Tensor && kind != Kind::Undef && kind != Kind::TensorSSA &&
           kind != Kind::SmemAllocator && kind != Kind::TmaAtom;
  }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }

  static Value none() { Value v; v.kind = Kind::None; return v; }
  static Value integer(int64_t x) { Value v; v.kind = Kind::Int; v.i = x; return v; }
  static Value floating(double x) { Value v; v.kind = Kind::Float; v.f = x; return v; }
  static Value boolean(bool x) { Value v; v.kind = Kind::Bool; v.i = x; return v; }
  static Value str(std::string x) { Value v; v.kind = Kind::Str; v.s = std::move(x); return v; }
  static Value tuple(std::vector<Value> xs) {
    Value v; v.kind = Kind::Tuple; v.elts = std::make_shared<std::vector<Value>>(std::move(xs)); return v;
  }
  static Value scalar_type(ir::ScalarType t) { Value v; v.kind = Kind::Type; v.type = t; return v; }
  static Value dyn(ir::ExprRef e, source::SourceRange origin) {
    Value v; v.kind = Kind::Dyn; v.type = e->type; v.expr = std::move(e); v.origin = origin; return v;
  }
  static Value make_builtin(BuiltinId id) { Value v; v.kind = Kind::Builtin; v.builtin = id; return v; }
  /// A copy or MMA operation marker (CopyUniversalOp(), CopyG2SOp(), LdMatrix8x8x16bOp(...)): `builtin` is the
  /// builtins.def row that made it, which code compares; `s` its name, which messages print.
  static Value op_marker(BuiltinId op, std::string name) {
    Value v; v.kind = Kind::Marker; v.builtin = op; v.s = std::move(name); return v;
  }
  bool is_op(BuiltinId op) const { return kind == Kind::Marker && builtin == op; }
  static Value of(std::shared_ptr<CopyAtom> a) { Value v; v.kind = Kind::CopyAtom; v.atom = std::move(a); return v; }
  static Value of(std::shared_ptr<TiledCopy> t) { Value v; v.kind = Kind::TiledCopy; v.tiled_copy = std::move(t); return v; }
  static Value of(std::shared_ptr<MmaAtom> m) { Value v; v.kind = Kind::MmaAtom; v.mma = std::move(m); return v; }
  static Value of(std::shared_ptr<TiledMma> t) { Value v; v.kind = Kind::TiledMma; v.tiled_mma = std::move(t); return v; }
};

/// A name's binding: its value, the local variable it owns (if any), and
/// where it was bound (for "declared here" labels).
struct Binding {
  Value value;
  std::string owned_var;  ///< C++ local owned by this name; "" if none
  source::SourceRange where;
  int depth = 0;          ///< run-time control-flow depth where it was bound
};

using Env = std::map<std::string, Binding>;

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

/// Python-like repr of a static value, for messages and print().
std::string repr(const Value& v);
/// A short description of a value's kind for messages: "int", "Float32 value", "tensor".
std::string describe(const Value& v);

}  // namespace tileslc::sema
