// The typed, fully specialized IR: what sema produces and codegen prints.
// A Program holds kernels (device functions launched on a grid) and host
// functions (the @cute.jit entry points). Every value here is dynamic: static
// values were folded away by sema. Expressions are immutable trees shared by
// pointer; statements form structured blocks (no gotos). Each expression and
// statement kind is a small struct with named fields (Binary{op, lhs, rhs},
// Load{ptr, offset}, Assign{var, value}, For{var, begin, end, step, ...});
// an Expr holds one of them in a std::variant next to its result type, a
// Stmt next to the .tpy source range it came from, so codegen can emit #line
// directives. Both are built with one constructor per kind (ir::binary,
// ir::load, ir::assign, ir::for_, ...) and read with x.as<For>() /
// x.get_if<For>() or std::visit. Device operations are intrinsic calls
// (intrinsics.def), by row and immediates. visit.h walks and rewrites it,
// print.h prints it, verify.h checks it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/intrinsics.h"
#include "source/source.h"

namespace tileslc::ir {

// --------------------------------------------------------------------- types

/// Scalar element types, with CuTe DSL's names. The numbering matches the
/// runtime's tileslc::DType so host code can compare them directly.
enum class ScalarType : uint8_t {
  Boolean, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
  Float16, BFloat16, Float32, Float64, TFloat32, Float8E4M3FN, Float8E5M2,
  Count_
};

const char* type_name(ScalarType t);   ///< "Float32"
const char* cpp_type(ScalarType t);    ///< "float", "__nv_bfloat16", "int64_t"
const char* dtype_enum(ScalarType t);  ///< "tileslc::DType::Float32"
int bit_width(ScalarType t);
bool is_float(ScalarType t);
bool is_integer(ScalarType t);         ///< Int*/Uint* (not Boolean)
bool is_signed(ScalarType t);
/// Float16/BFloat16/TFloat32/FP8: storage types whose arithmetic sema performs in Float32.
bool is_narrow_float(ScalarType t);
std::optional<ScalarType> type_from_name(const std::string& name);

// ------------------------------------------------------------ node variants

/// The part Expr and Stmt share: `node` holds one kind's struct, read by kind
/// with is<N>() / as<N>() / get_if<N>() or by std::visit(Overloaded{...}, x.node).
template <class... Kinds>
struct OneOf {
  using Node = std::variant<Kinds...>;
  Node node;

  template <class N>
  bool is() const {
    return std::holds_alternative<N>(node);
  }
  /// The fields of kind N; throws std::bad_variant_access when the node is another kind.
  template <class N>
  N& as() {
    return std::get<N>(node);
  }
  template <class N>
  const N& as() const {
    return std::get<N>(node);
  }
  /// The fields of kind N, or null.
  template <class N>
  N* get_if() {
    return std::get_if<N>(&node);
  }
  template <class N>
  const N* get_if() const {
    return std::get_if<N>(&node);
  }
};
/// Overloaded{f, g, ...}: one callable from several lambdas, for std::visit over a node.
/// With one lambda per kind (and no generic one) a new kind fails to compile until handled.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// --------------------------------------------------------------- expressions

enum class Op : uint8_t {
  // unary
  Neg, BitNot, LogicalNot,
  // binary arithmetic
  Add, Sub, Mul, Div, FloorDiv, Mod, TruncDiv, TruncMod, Shl, Shr, BitAnd, BitOr, BitXor,
  Min, Max, Pow,
  // comparisons (result Boolean)
  Eq, Ne, Lt, Le, Gt, Ge,
  // logical (Boolean operands)
  LogicalAnd, LogicalOr,
  None_,
};

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

// One struct per expression kind, with the fields that kind has; the node's
// result type is Expr::type. Offsets are Int64 expressions; names are C++
// names the function declares.

/// An integer or Boolean constant.
struct IntConst {
  int64_t value = 0;
};
struct FloatConst {
  double value = 0;
};
/// A local variable.
struct Var {
  std::string name;
};
/// A function parameter or host-side named value.
struct Param {
  std::string name;
};
/// A hardware index: "threadIdx.x", "blockIdx.y", ...
struct Builtin {
  std::string name;
};
/// Host: the data pointer of host parameter `tensor` (the node's type is its element type).
struct TensorData {
  int tensor = -1;
};
/// Host: shape[mode] of host parameter `tensor` (Int64).
struct TensorExtent {
  int tensor = -1;
  int mode = -1;
};
/// Host: stride[mode] of host parameter `tensor` (Int64).
struct TensorStride {
  int tensor = -1;
  int mode = -1;
};
/// op operand (Neg, BitNot, LogicalNot)
struct Unary {
  Op op = Op::None_;
  ExprRef operand;
};
/// lhs op rhs
struct Binary {
  Op op = Op::None_;
  ExprRef lhs, rhs;
};
/// cond ? if_true : if_false
struct Select {
  ExprRef cond, if_true, if_false;
};
/// `value` converted to the node's type.
struct Cast {
  ExprRef value;
};
/// C++ function `fn` on args: codegen's own (the CPU target's TILESLC_AT, ...), never sema's.
struct Call {
  std::string fn;
  std::vector<ExprRef> args;
};
/// ptr[offset]
struct Load {
  std::string ptr;
  ExprRef offset;
};
/// &ptr[offset]: the address of an element (atomics, async copies; the node's type is the
/// element's); without an offset, &ptr: a whole parameter (a TMA descriptor).
struct AddressOf {
  std::string ptr;
  ExprRef offset;
};
/// A row of intrinsics.def: `id` with immediates `imms` (one per row immediate, as the spelling writes it) on operands.
struct IntrinsicCall {
  Intrinsic id{};
  std::vector<std::string> imms;
  std::vector<ExprRef> operands;
};

/// The expression kinds, in the order of Expr::Node's alternatives.
enum class ExprKind : uint8_t {
  IntConst, FloatConst, Var, Param, Builtin, TensorData, TensorExtent, TensorStride,
  Unary, Binary, Select, Cast, Call, Load, AddressOf, Intrinsic,
};

/// An expression: one kind's fields and its result type. Immutable once built
/// (shared through ExprRef); built with the constructors below.
struct Expr : OneOf<IntConst, FloatConst, Var, Param, Builtin, TensorData, TensorExtent, TensorStride, Unary, Binary,
                    Select, Cast, Call, Load, AddressOf, IntrinsicCall> {
  ScalarType type = ScalarType::Int32;

  ExprKind kind() const { return static_cast<ExprKind>(node.index()); }
};
static_assert(std::variant_size_v<Expr::Node> == static_cast<size_t>(ExprKind::Intrinsic) + 1);

/// An intrinsic's immediate as its spelling writes it: a number's digits or a
/// word of the row's domain ("bf16").
struct Imm {
  std::string text;
  Imm(int v) : text(std::to_string(v)) {}
  Imm(int64_t v) : text(std::to_string(v)) {}
  Imm(const char* s) : text(s) {}
  Imm(std::string s) : text(std::move(s)) {}
};

/// An intrinsic and its immediates before it has operands: the instruction an atom names.
struct IntrinsicOp {
  Intrinsic id;
  std::vector<std::string> imms;
};

ExprRef int_const(int64_t v, ScalarType t);
ExprRef bool_const(bool v);
ExprRef float_const(double v, ScalarType t);
ExprRef var_ref(const std::string& name, ScalarType t);
ExprRef param_ref(const std::string& name, ScalarType t);
ExprRef builtin_ref(const std::string& name, ScalarType t = ScalarType::Int32);  ///< a hardware index
ExprRef unary(Op op, ExprRef a, ScalarType t);
ExprRef binary(Op op, ExprRef a, ExprRef b, ScalarType t);
ExprRef select(ExprRef c, ExprRef a, ExprRef b);
ExprRef cast(ExprRef a, ScalarType t);  ///< returns `a` itself when it already has type t
ExprRef call(const std::string& fn, std::vector<ExprRef> args, ScalarType t);  ///< codegen only (ir::Call)
/// A call of intrinsic `id`; throws std::logic_error when an immediate is not in its row's domain.
ExprRef intrinsic(Intrinsic id, std::vector<Imm> imms, std::vector<ExprRef> operands, ScalarType t);
ExprRef intrinsic(const IntrinsicOp& op, std::vector<ExprRef> operands, ScalarType t);
ExprRef load(const std::string& ptr, ExprRef offset, ScalarType t);
/// &ptr[offset]; a null offset takes the address of the whole parameter `ptr` (a TMA descriptor).
ExprRef address_of(const std::string& ptr, ExprRef offset, ScalarType elem);
ExprRef tensor_data(int host_tensor, ScalarType elem);
ExprRef tensor_extent(int host_tensor, int mode);
ExprRef tensor_stride(int host_tensor, int mode);
/// If `e` is an integer/boolean constant, its value.
std::optional<int64_t> as_int_const(const ExprRef& e);
/// The name a Var or Param reads; null for the other kinds.
const std::string* value_name(const Expr& e);
/// A hardware index: a Builtin (threadIdx.x) or an intrinsic whose Effect is Index (lane_idx):
/// a pure read, never negative.
bool is_hardware_index(const Expr& e);

// ---------------------------------------------------------------- statements

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// A kernel launch's configuration and arguments (host functions only).
struct LaunchInfo {
  int kernel = -1;               ///< index into Program::kernels
  ExprRef grid[3], block[3];     ///< Int64 (host) expressions
  ExprRef smem;                  ///< bytes of dynamic shared memory
  ExprRef cluster[3];            ///< Int64 cluster dims of a cluster launch (cluster=); null without one
  ExprRef stream;                ///< null: the host function's stream parameter
  std::vector<ExprRef> args;     ///< one per kernel parameter, in order
};

// One struct per statement kind, with the fields that kind has. Element
// offsets are Int64 expressions; names are the C++ names of locals, pointers,
// register arrays and shared-memory buffers the function declares.

/// var = value
struct Assign {
  std::string var;
  ExprRef value;
};
/// ptr[offset] = value
struct Store {
  std::string ptr;
  ExprRef offset;
  ExprRef value;
};
/// if (cond) then_body else else_body
struct If {
  ExprRef cond;
  Block then_body, else_body;
};
/// for (var = begin; var < end (or > end when the step is negative); var += step) body
/// The largest cutlass.range unroll factor For::unroll_factor holds.
inline constexpr int64_t kMaxUnrollFactor = INT16_MAX;
struct For {
  std::string var;
  ExprRef begin, end, step;  ///< all of type var_type
  Block body;
  ScalarType var_type = ScalarType::Int32;
  bool unroll = false;  ///< unroll fully (its body indexes register arrays)
  int8_t step_sign = 1; ///< +1 or -1 (static sign of the step); 0: a run-time step (a variable or parameter)
  /// cutlass.range's hint: N > 0 `#pragma unroll N` (1: not unrolled), -1 fully; 0 none. Narrow
  /// so that For, the largest statement, keeps a Stmt at 136 bytes (sema bounds N by kMaxUnrollFactor).
  int16_t unroll_factor = 0;
};
/// while (cond) body
struct While {
  ExprRef cond;
  Block body;
};
struct Break {};
struct Continue {};
/// A kernel's early exit (a host function returns an ok Status).
struct Return {};
/// __syncthreads()
struct Sync {};
/// Device printf: a C format string and the values its conversions read.
struct Printf {
  std::string format;
  std::vector<ExprRef> args;
};
/// Host: launch a kernel of the program (boxed: it is rare and the largest kind).
struct Launch {
  std::unique_ptr<LaunchInfo> info;
};
/// Host: a run-time check emitted by sema: unless `cond` holds, the call fails with `message`.
struct Check {
  ExprRef cond;         ///< Boolean, true means ok
  std::string message;  ///< a C string literal's contents
  ExprRef reported;     ///< the value the message reports ("..., found 12"); optional
};
/// dst[dst_offset .. +n) = src[src_offset .. +n): one access of vector_bits (8..128), both ends aligned to it.
struct VecCopy {
  std::string dst;
  ExprRef dst_offset;
  std::string src;
  ExprRef src_offset;
  int vector_bits = 0;
  bool to_global = false;  ///< the destination is global memory
};
/// An expression evaluated for its effect (a barrier, an atomic whose result is unused).
struct Eval {
  ExprRef expr;
};

/// The statement kinds, in the order of Stmt::Node's alternatives.
enum class StmtKind : uint8_t {
  Assign, Store, If, For, While, Break, Continue, Return, Sync, Printf, Launch, Check, VecCopy, Eval,
};

/// A statement: one kind's fields and the .tpy range it came from (codegen's #line).
struct Stmt
    : OneOf<Assign, Store, If, For, While, Break, Continue, Return, Sync, Printf, Launch, Check, VecCopy, Eval> {
  source::SourceRange loc;

  StmtKind kind() const { return static_cast<StmtKind>(node.index()); }
};
static_assert(std::variant_size_v<Stmt::Node> == static_cast<size_t>(StmtKind::Eval) + 1);

// Statement constructors, one per kind (those named after a C++ keyword end in '_').
StmtPtr assign(source::SourceRange loc, std::string var, ExprRef value);
StmtPtr store(source::SourceRange loc, std::string ptr, ExprRef offset, ExprRef value);
/// Its blocks are filled afterwards, through as<If>().
StmtPtr if_(source::SourceRange loc, ExprRef cond, Block then_body = {}, Block else_body = {});
/// step_sign: +1/-1 for a static step's sign, 0 for a run-time step.
StmtPtr for_(source::SourceRange loc, std::string var, ScalarType var_type, ExprRef begin, ExprRef end, ExprRef step,
             int step_sign, bool unroll = false, Block body = {});
StmtPtr while_(source::SourceRange loc, ExprRef cond, Block body = {});
StmtPtr break_(source::SourceRange loc);
StmtPtr continue_(source::SourceRange loc);
StmtPtr return_(source::SourceRange loc);
StmtPtr sync_threads(source::SourceRange loc);
StmtPtr device_printf(source::SourceRange loc, std::string format, std::vector<ExprRef> args);
StmtPtr launch(source::SourceRange loc, std::unique_ptr<LaunchInfo> info);
/// `reported` may be null.
StmtPtr check(source::SourceRange loc, ExprRef cond, std::string message, ExprRef reported = nullptr);
StmtPtr vec_copy(source::SourceRange loc, std::string dst, ExprRef dst_offset, std::string src, ExprRef src_offset,
                 int vector_bits, bool to_global);
StmtPtr eval(source::SourceRange loc, ExprRef expr);

// ----------------------------------------------------------------- functions

struct LocalVar {
  std::string name;  ///< unique C++ name within its function
  ScalarType type;
};

/// A kernel parameter: a global-memory pointer or a scalar.
struct KernelParam {
  std::string name;
  bool is_pointer = false;
  bool is_const = false;      ///< pointer never stored through: emitted as const T* __restrict__
  ScalarType type;            ///< scalar type, or the pointee type
  bool is_tma = false;        ///< a TMA descriptor: const TILESLC_GRID_CONSTANT tileslc::TmaDescriptor
};

/// A register array (a fragment, CuTe's rmem tensor), declared at the top of
/// the kernel, aligned to 16 bytes so vector copies can target it.
struct LocalArray {
  std::string name;
  ScalarType type;
  int64_t count = 0;
  std::string user_name;  ///< the .tpy name it was first bound to (the CPU emulator's reports use it)
};

/// A tensor in dynamic shared memory: `name` points `byte_offset` bytes into
/// the kernel's shared memory (which is aligned to 1024 bytes).
struct SmemBuffer {
  std::string name;
  ScalarType type;
  int64_t byte_offset = 0;
  int64_t bytes = 0;
  std::string user_name;  ///< the .tpy name it was first bound to (the CPU emulator's reports use it)
};

/// --debug on the CPU target: a .tpy name a kernel binds to a layout or a tensor view,
/// declared at the top of the kernel as an object tileslc-gdb.py's printers read
/// (runtime/include/tileslc/cpu/debug_view.h). Its texts name C++ locals and parameters
/// (run-time extents, strides and origins), which the printers read from the frame.
struct DebugView {
  std::string name;       ///< unique C++ name (the .tpy name unless taken)
  std::string tpy_name;   ///< the .tpy name
  std::string base;       ///< a tensor: the pointer parameter, register array or smem buffer it views; empty: a layout
  std::string offset;     ///< a tensor: its origin in elements from base (a number or a local's name)
  std::string layout;     ///< CuTe's form, each leaf a number or a local's or parameter's name: "((4,1),4):((1,0),tl_thrA_3)"
  std::string swizzle;    ///< a swizzled smem tensor: "Sw<B,M,S>"; empty otherwise
};

struct Kernel {
  std::string name;           ///< unique C++ name
  std::string source_name;    ///< the .tpy function name
  source::SourceRange loc;
  std::string specialization; ///< human-readable: "gA: Float32[N], ..., block=(256,1,1)"
  std::vector<KernelParam> params;
  std::vector<LocalVar> locals;
  int64_t static_threads = 0; ///< threads per block when known statically (for __launch_bounds__)
  int64_t min_blocks_per_mp = 0;  ///< launch(min_blocks_per_mp=): __launch_bounds__'s second argument; 0 without it
  std::vector<LocalArray> arrays;
  std::vector<SmemBuffer> smem;
  std::vector<DebugView> debug_views;  ///< --debug only (sema::Options::debug); empty otherwise
  int64_t smem_bytes = 0;     ///< dynamic shared memory the kernel's allocations need
  int64_t cluster_dims[3] = {0, 0, 0};  ///< the cluster=(x, y, z) it is specialized for; 0s without one
  Block body;
};

/// How a host tensor parameter's extent is declared in the signature.
struct HostDim {
  bool is_static = false;
  int64_t value = 0;          ///< static extent
  std::string symbol;         ///< symbolic extent name ("N"); empty with is_static
};

struct HostParam {
  enum Kind : uint8_t { Tensor, Scalar, Stream } kind = Scalar;
  std::string name;
  source::SourceRange loc;
  ScalarType type = ScalarType::Float32;  ///< scalar type or tensor element type
  std::vector<HostDim> dims;              ///< tensors
  int64_t align_bytes = 0;                ///< tensors: declared alignment (0: element size)
};

/// Where a symbolic extent is first bound: host tensor `param`'s `mode`.
struct SymbolBinding {
  std::string symbol;
  int param = -1;
  int mode = -1;
  std::string local;  ///< the C++ local holding its value in the host function
  bool is_stride = false;  ///< bound by stride[mode] rather than shape[mode]
};

/// A host function's tuning space, declared with `@cutlass.tune(...)` (docs/tuning.md): the
/// tuned Constexpr parameters and their candidate values, the symbols whose values make a shape
/// bucket, and the configurations that survive the static prune predicate. Values are -D
/// literals (`128`, `True`, `'row'`), so the tuner passes them back unchanged.
struct TuneSpace {
  bool declared = false;
  source::SourceRange loc;                       ///< the decorator
  std::vector<std::string> params;               ///< tuned Constexpr parameters, as declared
  std::vector<std::vector<std::string>> values;  ///< per parameter, its candidates
  std::vector<std::string> key;                  ///< symbolic extents that make a shape bucket
  std::vector<std::vector<std::string>> configs; ///< kept configurations (one value per param), product order
  struct Pruned {
    std::vector<std::string> config;
    std::string reason;  ///< the predicate's string, or "prune returned True"
  };
  std::vector<Pruned> pruned;
};

/// A host function's work per call, declared with `@cutlass.cost(bytes=..., flops=...)`
/// (docs/tuning.md, "Cost"): Python arithmetic over its symbolic extents and Constexpr
/// parameters (ir/cost_expr.h), checked by sema. The tuner evaluates the text per shape; the
/// generated host function evaluates it per call for the metrics records. Empty: not declared.
struct CostDecl {
  source::SourceRange loc;  ///< the decorator
  std::string bytes, flops;
  bool declared() const { return !bytes.empty() || !flops.empty(); }
};

/// `--tuned`: a host function that picks one of its tuned specializations by the shape bucket
/// (docs/tuning.md). Case i calls `callees[variant[i]]` when the key symbols equal `keys[i]`;
/// an unseen shape takes the nearest bucket (the smallest sum of |log2(x / bucket x)|).
struct TunedDispatch {
  std::vector<std::string> key;                 ///< symbols, in the order of each case's values
  std::vector<std::vector<int64_t>> keys;       ///< per case, the key values
  std::vector<int> variant;                     ///< per case, an index into callees
  std::vector<std::string> callees;             ///< the specializations' host function names
};

struct HostFunction {
  std::string name;
  source::SourceRange loc;
  std::vector<HostParam> params;
  std::vector<SymbolBinding> symbols;  ///< in binding order; later uses are checked against these
  std::vector<LocalVar> locals;
  Block body;
  /// This compilation's Constexpr parameters and their values as -D literals, in order.
  std::vector<std::pair<std::string, std::string>> constexprs;
  TuneSpace tune;
  CostDecl cost;
  TunedDispatch dispatch;  ///< non-empty callees: the body is the dispatch, not `body`
};

struct Program {
  std::string source_path;   ///< the main .tpy, as given on the command line
  std::string kernel_namespace;  ///< C++ namespace the kernels are defined in: tileslc_kernels::<stem>
  std::string arch;          ///< "sm_80", "sm_90a"
  std::vector<Kernel> kernels;
  std::vector<HostFunction> host_functions;
};

}  // namespace tileslc::ir
