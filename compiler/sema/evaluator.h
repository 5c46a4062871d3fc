// Internal to sema: the Evaluator, which walks ASTs with an environment of
// Values (value.h) and emits IR into the function being built. Split by
// construct across eval_*.cpp files; this header is their shared interface.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "ir/ir.h"
#include "sema/sema.h"
#include "sema/value.h"

namespace tileslc::sema {

/// The source range of argument i of a call (the whole call past the written arguments).
source::SourceRange arg_range_of(const ast::Call& site, size_t i);

/// Thrown to abandon the current entry point after an error was reported.
struct AbortEntry {};

struct BuiltinCall;  // a builtin call with its arguments bound (registry.h)

/// An element offset split around a swizzle: swizzle(inside) + outside (either may be null: 0).
struct SwizzleSplit {
  ir::ExprRef inside, outside;
};

/// An Int64 offset as (the sum of its non-constant terms, the sum of its constant ones), reading
/// through Int64 additions only: `(x + 16) + y` is (x + y, 16). The first is null when every
/// term is constant.
std::pair<ir::ExprRef, int64_t> split_constant(const ir::ExprRef& e);

/// The IR function under construction (a kernel or a host function).
struct FnCtx {
  bool is_kernel = false;
  int64_t serial = 0;                        ///< which function this is (run-time values stored on instances name it)
  ir::Kernel* kernel = nullptr;
  ir::HostFunction* host = nullptr;
  std::vector<ir::LocalVar>* locals = nullptr;
  std::set<std::string> used_names;          ///< C++ names taken in this function
  std::vector<ir::Block*> blocks;            ///< innermost last
  std::map<std::string, ir::ExprRef> symbols;  ///< symbolic extents visible here
  int64_t static_block[3] = {0, 0, 0};       ///< kernel: block dims when known statically
  int64_t static_cluster[3] = {0, 0, 0};     ///< kernel: the launch's cluster=(x, y, z); 0s without one
  std::map<std::string, size_t> stored_ptrs;   ///< kernel: pointer params stored through
  std::set<std::string> immutable_vars;        ///< locals assigned once (materialized temporaries)
  /// --debug: .tpy name -> the debug local that shows it (Options::debug); nothing reads these.
  std::map<std::string, ir::LocalVar> debug_vars;
  /// --debug: .tpy name -> (index in kernel->debug_views, the view's text with run-time leaves as '?').
  std::map<std::string, std::pair<size_t, std::string>> debug_views;
  std::map<std::string, int64_t> divisors;     ///< Param/Var name -> what its value is known to divide by
  std::vector<ir::Stmt*> open_loops;           ///< run-time loops being built, innermost last
  int64_t smem_bytes = 0;                      ///< kernel: shared memory allocated so far
  source::SourceRange smem_peak_at;            ///< kernel: the allocation that went over the limit
  /// Divides of run-time extents not provably divisible by their tile (W0601),
  /// reported when the function ends unless an identity tensor over that
  /// extent was made (the predication pattern for ragged edges).
  struct RaggedTile {
    std::string leaf, extent;
    int64_t tile;
    source::SourceRange at;
    layout::Int size;     ///< the extent itself (its leaves: this function's symbols)
    std::string divide;   ///< the builtin that divides ("local_tile"), for the host's message
  };
  std::vector<RaggedTile> ragged_tiles;
  std::set<std::string> predicated_leaves;
  /// wgmma accumulator fragments (array, elements): fenced at warpgroup fences and waits.
  std::vector<std::pair<std::string, int64_t>> wgmma_accumulators;
  /// TiledMma.set(Field.ACCUMULATE, ...): the Int32 local holding each tiled MMA's flag (its
  /// wgmma scale-d), by the tiled MMA object; a tiled MMA never set accumulates (scale-d 1).
  std::map<const void*, std::string> mma_accumulate;
  /// host: each tensor parameter's own layout, by HostParam index (a TMA atom built from a
  /// view of it, e.g. a slice, encodes the view's extents and strides instead).
  std::map<int, layout::Layout> host_tensor_layouts;
};

/// What a kernel specialization is cached on (Evaluator::kernel_cache_): the kernel, the
/// launch's static block and cluster dims (0s for a run-time block or no cluster=), and per
/// argument passed a canonical description of what specializes it (a tensor's element type,
/// memory space, alignment and layout with its run-time leaves numbered by first use; a run-time
/// scalar's type; a static value's repr).
struct KernelKey {
  const ast::FunctionDef* def = nullptr;
  std::array<int64_t, 3> block{}, cluster{};
  int64_t min_blocks_per_mp = 0;  ///< launch(min_blocks_per_mp=): 0 without it
  struct Arg {
    std::string text;
    const FunctionValue* function = nullptr;  ///< a function passed statically: specialized on which one
  };
  std::vector<Arg> args;
  bool operator<(const KernelKey& o) const;
};

/// A launch's arguments as a kernel sees them: the key, the specialization's text, the run-time leaves (entry.cpp).
struct KernelSignature;

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// A Python exception raised while compiling inside a `try` (exec_raise), on its way to a handler.
struct CompileTimeRaise {
  Value exception;        ///< an instance: a Builtin of the class's row holding its arguments as `self`
  std::string type;       ///< the class's name, for E0504 when no handler catches it
  std::string message;    ///< str() of the exception
  source::SourceRange at; ///< the raise
};

struct LoopInfo {
  bool dynamic = false;
  int dyn_depth = 0;  ///< frame's dyn_depth when the loop was entered
};

/// One activation of a Python function (or a module body), inlined.
struct Frame {
  Env env;
  std::shared_ptr<ModuleValue> module;
  const ast::FunctionDef* def = nullptr;   ///< null for module and class bodies
  const ast::ClassDef* class_body = nullptr;  ///< a class body being executed: names bind in the class namespace
  const ClassValue* owner = nullptr;       ///< methods: the class that defined the function (zero-argument super())
  bool is_module = false;
  bool is_entry = false;                   ///< the kernel or host function itself
  int dyn_depth = 0;                       ///< nesting of run-time if/for/while in this frame
  std::vector<LoopInfo> loops;
  Value return_value = Value::none();
  std::map<std::string, source::SourceRange> maybe_unbound;
  /// A static name rebound inside a run-time loop is a new value for the rest of that body only if
  /// the body did not read the old one first (a loop-carried static value: E0502). Reads of names
  /// bound outside the innermost region are stamped here (read_clock), and each open run-time
  /// region's start stamp is region_starts[depth - 1].
  std::map<std::string, int64_t> outer_reads;
  std::vector<int64_t> region_starts;
  int64_t read_clock = 0;
  std::string context;                     ///< "in kernel NAME launched at ... with ..." for notes
  source::SourceRange call_site;           ///< inlined helpers: where they were called; modules: where imported
};

class Evaluator {
 public:
  Evaluator(source::SourceManager& sm, const Options& opts, diag::DiagnosticEngine& diags)
      : sm_(sm), opts_(opts), diags_(diags) {}
  /// Modules and the functions they define point at each other (a function
  /// sees its module's globals): break those cycles so nothing leaks.
  ~Evaluator() {
    for (auto& [name, m] : modules_)
      if (m) m->globals.clear();  // null: a module that did not parse (import_module)
    if (builtins_) builtins_->globals.clear();
    // Instances may hold each other (and their classes' methods hold modules): clear what they hold.
    for (auto& w : instances_)
      if (auto o = w.lock()) o->attrs.clear();
    for (auto& c : classes_) c->ns.clear();
  }

  std::optional<ir::Program> run(source::FileId main, std::vector<std::string>* deps);

  // ---- diagnostics (eval_types.cpp): a mistake met again (a helper inlined into two
  // specializations) is reported once; each error gets the inlined call sites and the
  // "in kernel ..." context as notes (flush_context).
  diag::Diagnostic& error(diag::Kind k, source::SourceRange r, std::string msg);
  [[noreturn]] void fail(diag::Kind k, source::SourceRange r, std::string msg);
  [[noreturn]] void abort_entry() { throw AbortEntry{}; }
  /// The stamps of the run-time loop bodies and branches being compiled, innermost last
  /// (RuntimeRegion, container_mutation.h).
  std::vector<uint64_t>& runtime_regions() { return runtime_regions_; }

  // ---- modules (modules.cpp)
  /// Loads a module (and its parents); nullptr after reporting E0303, or silently with `quiet`.
  std::shared_ptr<ModuleValue> import_module(const std::string& dotted, source::SourceRange at, bool quiet = false);
  /// Runs a module's body once, as Python does on import; `imported_at` (the import statement, or
  /// none for the compiled file) becomes the "imported here" note of errors inside it.
  void exec_module_body(const std::shared_ptr<ModuleValue>& m, source::SourceRange imported_at = {});
  std::shared_ptr<ModuleValue> builtins_module();
  /// Binds, in a stdlib module, the builtins.def rows its Name column places there
  /// ("cute.arch.thread_idx" in tileslc.cute.arch), before the module's body runs.
  void bind_registry_names(ModuleValue& m);

  // ---- opaque stand-ins (host_modules.cpp): host-only modules, CuTe DSL names not yet here, the stream
  /// The opaque module `dotted` imports as (host-only, or a cutlass.* module the stdlib lacks), else null.
  std::shared_ptr<ModuleValue> import_opaque(const std::string& dotted, const std::string& canonical);
  std::shared_ptr<ModuleValue> opaque_module(const std::string& name, ModuleValue::Opaque kind, const std::string& from);
  /// `base.attr` (and `from base import attr`) of an opaque module: opaque again.
  Value opaque_attribute(const Value& base, const std::string& attr);
  /// A function decorated with a host-only decorator (@functools.lru_cache): host-only itself.
  Value opaque_decorated(const ast::FunctionDef& d, const Value& decorator);
  /// Calling an opaque value: E0307/E0308, except `cuda.CUstream(...)` (a stream handle, often a default
  /// argument), which makes an opaque host value.
  Value opaque_call(const Value& callee, source::SourceRange at);
  /// E0307 (host-only) or E0308 (not yet) for a use of an opaque value at `at`; `call` when it is called.
  [[noreturn]] void opaque_use(const Value& v, source::SourceRange at, bool call);
  /// A host parameter annotated `cuda.CUstream` binds to the host function's stream; false for other annotations.
  bool bind_host_stream(const ast::Param& p, const Value& ann);

  // ---- Python the parser accepts but sema does not compile yet (eval_unsupported.cpp): E0206 where reached
  [[noreturn]] void reject_unsupported(const ast::Stmt& s);
  [[noreturn]] void reject_unsupported(const ast::Expr& e);
  /// E0206 at `site` for a call of an async function.
  void check_def_supported(const ast::FunctionDef& def, source::SourceRange site);

  // ---- Python evaluated while compiling (eval_python.cpp): displays with star-expressions,
  // dicts, comprehensions, lambdas, f-strings, try/except/raise
  /// The elements of a static iterable (tuple, list, string, dict keys, range with static
  /// bounds); E0401 for anything else, E0501 for a range with a run-time bound.
  std::vector<Value> iterate(const Value& v, source::SourceRange r, const std::string& what);
  Value eval_display(const ast::Expr& e);
  Value eval_dict(const ast::Dict& d);
  Value eval_comp(const ast::Comp& c);
  /// A set's elements: the distinct static values of `xs` in first-seen order (a set is a tuple here).
  Value set_of(std::vector<Value> xs, source::SourceRange r);
  Value eval_lambda(const ast::Lambda& l);
  Value eval_fstring(const ast::JoinedStr& j);
  /// format(v, spec) with Python's format-spec mini-language; `conversion` is 0, 'r', 's' or 'a'.
  std::string format_value(const Value& v, char conversion, const std::string& spec, source::SourceRange r);
  /// str.format's template filled from `args` and `kwargs`.
  std::string format_template(const std::string& tmpl, const std::vector<Value>& args, const Kwargs& kwargs,
                              source::SourceRange r);
  /// d[key] for a static key: the value, or null.
  const Value* dict_find(const Value& d, const Value& key, source::SourceRange r);
  void dict_set(const Value& d, const Value& key, Value v, source::SourceRange r);
  Flow exec_try(const ast::Try& t);
  /// `raise` while compiling: caught by an enclosing `try` of code run while compiling, else E0504.
  [[noreturn]] void exec_raise(const ast::Raise& r);
  /// isinstance(v, cls) for Python's and tileslc's types, the program's classes (by the MRO), and tuples of them.
  bool isinstance_of(const Value& v, const Value& cls, source::SourceRange r);
  // ---- classes (class_ops.cpp): class statements, instances, attributes, methods, super()
  void exec_class_def(const ast::ClassDef& d);
  /// `base.attr` on a class, instance, super object, bound method or descriptor (Python's
  /// object.__getattribute__ and type.__getattribute__); nullopt for other kinds of `base`.
  std::optional<Value> object_attribute(const Value& base, const std::string& attr, source::SourceRange r);
  /// `base.attr = v` (a property's setter, an instance attribute, a class attribute).
  void store_attribute(const Value& base, const std::string& attr, Value v, source::SourceRange r);
  /// Calling a class (an instance; __init__ runs now), an instance (its __call__), a bound method
  /// or a staticmethod object; nullopt for other kinds of `callee`.
  std::optional<Value> call_object(const Value& callee, std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site);
  /// What a decorator makes of `fn` in a `def` (@cute.kernel, @cute.jit, @staticmethod, @classmethod,
  /// @property, @x.setter, @cutlass.dsl_user_op); E0206 for other decorators.
  Value decorate(const ast::Expr& deco, const Value& dv, Value fn);
  /// `@cutlass.tune(...)` (tune_ops.cpp): records the space of the @cute.jit function below it
  /// for build_host_function; E0514 when it is not above a @cute.jit function.
  Value tune_decorate(const ast::Expr& deco, Value fn);
  /// The entry point's TuneSpace (tune_ops.cpp): names checked against its Constexpr parameters
  /// and symbols, the product enumerated, the prune predicate run on each configuration.
  void build_tune_space(const ast::FunctionDef& def, ir::HostFunction& hf);
  /// `@cutlass.cost(...)` (cost_ops.cpp): records the cost of the @cute.jit function below it.
  Value cost_decorate(const ast::Expr& deco, Value fn);
  /// The entry point's CostDecl (cost_ops.cpp): each expression's names checked against its
  /// symbolic extents and Constexpr parameters (E0515 at the keyword otherwise).
  void build_cost(const ast::FunctionDef& def, ir::HostFunction& hf);
  /// Whether `attr` names something on a class or instance (hasattr; the MRO then the instance's attributes).
  bool object_has_attribute(const Value& base, const std::string& attr);
  /// A kernel specialization's key text for an instance passed as an argument (`self` of a kernel
  /// method): its class and the keys of its static attributes.
  std::string instance_key(const InstanceValue& obj, int depth = 0);

  // ---- expressions (eval_expr.cpp)
  /// The value of `e`. Inside a function a symbolic extent is resolved here, once, where an
  /// expression reads it (a name, a module attribute, a tuple element, a helper's result):
  /// later code sees the Dyn its tensor parameter binds (resolve_symbol), or E0501 names the
  /// extent no parameter binds. Module-level code has nothing to bind them to, and
  /// keep_extents_ leaves them symbolic.
  Value eval(const ast::Expr& e);
  /// While > 0, eval leaves symbolic extents unresolved: in cute.Tensor[...] (which declares
  /// them) and in a kernel call's arguments (the kernel binds an extent passed as such to its
  /// own parameter for it, rather than taking the host's value as another parameter).
  int keep_extents_ = 0;
  /// While > 0, eval is reading a cute.Tensor[...] annotation, whose extents are numbers or
  /// symbols: a symbol met in arithmetic there gets the annotation's own diagnostic.
  int in_tensor_annotation_ = 0;
  /// Raises keep_extents_ for its lifetime.
  struct KeepExtents {
    explicit KeepExtents(Evaluator& ev) : depth(ev.keep_extents_) { ++depth; }
    ~KeepExtents() { --depth; }
    int& depth;
  };
  /// eval without the resolution: the expression's own value.
  Value eval_node(const ast::Expr& e);
  Value eval_name(const ast::Name& n);
  Value eval_attribute(const ast::Attribute& a);
  /// base.attr where `base` has it (a method, a module's global, a tensor's or layout's field), else nothing.
  /// A class, instance or super object reports a missing attribute itself (E0xxx at `attr_range`,
  /// the attribute's name); `r` is the whole expression.
  std::optional<Value> find_attribute(const Value& base, const std::string& attr, source::SourceRange r,
                                      source::SourceRange attr_range);
  Value eval_subscript(const ast::Subscript& s);
  Value eval_binop(ast::BinOpKind op, Value lhs, Value rhs, source::SourceRange r, source::SourceRange op_r);
  /// A binary operation with a run-time operand: IR in the promoted type (docs/language.md "Promotion").
  Value dynamic_binop(ast::BinOpKind op, const Value& lhs, const Value& rhs, source::SourceRange r, source::SourceRange op_r);
  Value eval_unary(ast::UnaryOpKind op, Value v, source::SourceRange r);
  Value eval_compare(ast::CmpOpKind op, Value lhs, Value rhs, source::SourceRange r);
  Value eval_boolop(const ast::BoolOp& b);
  Value eval_ifexp(const ast::IfExp& e);
  Value eval_call(const ast::Call& c);

  // ---- conversions and promotion (eval_types.cpp)
  /// A static number, Bool or Dyn as an IR expression of its natural type.
  ir::ExprRef to_expr(const Value& v, source::SourceRange r);
  /// Converts `v` to type `t` (static numbers become constants).
  ir::ExprRef to_expr_as(const Value& v, ir::ScalarType t, source::SourceRange r);
  /// The type a binary arithmetic op computes in (DESIGN: docs/language.md "Promotion").
  ir::ScalarType promote(const Value& a, const Value& b, source::SourceRange r);
  std::optional<ir::ScalarType> natural_type(const Value& v);
  bool truthy_static(const Value& v, source::SourceRange r);
  /// Requires a static value; explains why it is dynamic otherwise.
  const Value& require_static(const Value& v, source::SourceRange r, const std::string& what);
  int64_t require_static_int(const Value& v, source::SourceRange r, const std::string& what);
  /// A symbolic extent (SymDim) as the run-time value that binds it in the current function: a
  /// Dyn that keeps the extent's name (payload::Dyn::extent); E0501 where nothing binds it (no
  /// tensor parameter of the function, or module level). Other values are returned unchanged.
  /// eval calls it on every value an expression reads; the operators and to_expr call it for
  /// extents that arrive inside a static tuple.
  Value resolve_symbol(const Value& v, source::SourceRange r);
  bool static_equal(const Value& a, const Value& b);

  // ---- statements (eval_stmt.cpp)
  /// The evaluator's stacks where a statement starts, for abandoning it (an error, or an
  /// exception raised while compiling): inlined frames, open run-time blocks, loops.
  struct UnwindPoint {
    size_t frames = 0, inlined = 0, loops = 0, blocks = 0;
    FnCtx* fn = nullptr;
    int dyn_depth = 0;
  };
  UnwindPoint unwind_point();
  void unwind_to(const UnwindPoint& p);
  Flow exec_body(const ast::Body& body);
  Flow exec(const ast::Stmt& s);
  void exec_expr_stmt(const ast::ExprStmt& e);
  void exec_assign(const ast::Assign& a);
  void exec_aug_assign(const ast::AugAssign& a);
  void exec_ann_assign(const ast::AnnAssign& a);
  Flow exec_return(const ast::Return& r);
  Flow exec_break_continue(const ast::Stmt& s);
  /// assert with a static condition: E0504 when it is false.
  void exec_assert(const ast::Assert& a);
  void exec_function_def(const ast::FunctionDef& d);
  void exec_import(const ast::Import& imp);
  void exec_import_from(const ast::ImportFrom& imp);
  void assign(const ast::Expr& target, Value v, source::SourceRange r);
  void bind_name(const std::string& name, Value v, source::SourceRange r);
  Flow exec_if(const ast::If& s);
  Flow exec_for(const ast::For& s);
  Flow exec_while(const ast::While& s);
  void emit(ir::StmtPtr s);
  /// Runs `body` inside the run-time loop `loop`, restores the scope, and emits the loop.
  void run_loop_body(ir::StmtPtr& loop, const Env& before, const std::function<void()>& body);
  /// Moves a dynamic value into a fresh local so later assignments cannot change it.
  Value materialize(const Value& v, const std::string& hint, source::SourceRange r);
  /// What a condition proves about divisibility where it holds: `x % c == 0` (floor or
  /// truncating remainder, possibly among `and`s) for a parameter or a local assigned once.
  std::map<std::string, int64_t> divisibility_facts(const ir::ExprRef& cond);
  std::string new_local(const std::string& hint, ir::ScalarType t);
  /// A local that will own .tpy name `name`: with --debug, the name's debug local when it has
  /// type `t` (it stops being one, so no debug write clobbers it), else new_local(name, t).
  std::string owned_local(const std::string& name, ir::ScalarType t);
  /// --debug, in a kernel: writes `v` (a number, static or run-time) to the debug local of
  /// `name`, made on first use; nothing otherwise or for other values.
  void debug_bind(const std::string& name, const Value& v, source::SourceRange r);
  /// --debug, in a kernel: describes `v` (a layout or a tensor view) bound to `name` for gdb's
  /// printers (ir::DebugView, debug_views.cpp); writes its origin and run-time leaves to debug
  /// locals at `r`. Nothing otherwise or for other values. `parameter`: `v` is the kernel's
  /// tensor parameter `name` (its view is "tl_<name>_view", origin 0).
  void debug_view(const std::string& name, const Value& v, source::SourceRange r, bool parameter = false);
  std::string unique_name(const std::string& hint);
  void promote_for_region(const std::set<std::string>& assigned, source::SourceRange r);

  // ---- calls and builtins (eval_call.cpp, registry.cpp)
  Value call_value(const Value& callee, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs,
                   const ast::Call& site);
  Value call_helper(const FunctionValue& fn, std::vector<Value> args,
                    std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site);
  /// Every builtin call: the registry row's context, arch and argument checks, then its handler (registry.cpp).
  Value call_builtin(const Value& callee, std::vector<Value>& args,
                     std::vector<std::pair<std::string, Value>>& kwargs, const ast::Call& site);

  // ---- tensors (eval_tensor.cpp)
  Value tensor_attribute(const Value& t, const std::string& attr, source::SourceRange r);
  Value tensor_load(const Value& t, const Value& index, source::SourceRange r);
  void tensor_store(const Value& t, const Value& index, const Value& v, source::SourceRange r);
  ir::ExprRef tensor_offset(const TensorValue& t, const Value& index, source::SourceRange r);
  Value tensor_size(const TensorValue& t, source::SourceRange r);


  // ---- run-time integers in layouts (symbols.cpp)
  /// A static or run-time integer as a layout integer; run-time ones become named leaves.
  layout::Int symbol_for(const Value& v, source::SourceRange r);
  /// A layout integer as Int64 IR (its leaves looked up in FnCtx::symbols).
  ir::ExprRef lower_int(const layout::Int& x, source::SourceRange r);
  /// A layout integer as a Value: Int when static, else Dyn.
  Value int_value(const layout::Int& x, source::SourceRange r);
  /// The largest power-of-two-or-not integer the value is known to be a multiple of (1 if nothing is known).
  int64_t known_divisor(const ir::ExprRef& e);
  int64_t known_divisor(const layout::Int& x);
  void collect_leaves(const layout::IntTuple& t, std::vector<std::string>& out);
  /// A layout's text with leaves renamed (for specialization keys).
  std::string canonical(const layout::Int& x, const std::map<std::string, std::string>& ids);
  std::string canonical(const layout::IntTuple& t, const std::map<std::string, std::string>& ids);

  // ---- tensors with layouts (tensor_ops.cpp)
  Value tensor_value(TensorValue t);
  /// t[coord] with None modes: the sub-tensor (CuTe slice).
  Value tensor_slice(const Value& t, const Value& coord, source::SourceRange r);
  /// The element offset (Int or Int64 Dyn) of a coordinate, None modes contributing 0.
  Value layout_offset(const layout::Layout& l, const Value& coord, source::SourceRange r);
  /// A coordinate tensor's element: one Value per mode of its codomain.
  Value coord_element(const TensorValue& t, const Value& coord, source::SourceRange r);
  /// composition and the divides of a tensor (layout_by_tiler sends them here): the same
  /// origin with the layout composed or divided; E0604 for a tile that leaves a partial one.
  Value tensor_by_tiler(BuiltinCall& c);
  Value partition(const TiledCopy& tc, const Value& t, source::SourceRange r);
  /// This thread's part of a tensor tiled by `tile_shape` under a (thread, value) layout
  /// (tensor_ops.cpp), CuTe's mode structure: (V, REST_M, REST_N, ...) for atom_v 0 (a tiled
  /// MMA's partition_A/B/C), ((ATOM_V, REST_V), REST_M, REST_N, ...) for a copy's atom_v > 0.
  Value thread_partition(const Value& t, const layout::IntTuple& tile_shape, const layout::Layout& tv_layout,
                         const Value& thread, int64_t atom_v, const std::string& what, source::SourceRange r);
  /// cute.gemm through a warp-level or universal atom (mma_ops.cpp; the MMA builtins are registry handlers).
  void gemm(const TiledMma& mma, const Value& d, const Value& a, const Value& b, const Value& c, source::SourceRange r);
  /// Emits `call` as a statement of its own, its value dropped (arch_ops.cpp).
  void emit_effect(ir::ExprRef call, source::SourceRange r);
  /// sm_90 atoms (sm90_ops.cpp; the sm_90 builtins' handlers are there too): cute.copy with a
  /// TMA atom (a load completes on tma_bar_ptr, a store through bulk groups) and cute.gemm with
  /// a wgmma atom.
  void tma_copy(const TmaAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& bar, source::SourceRange r,
                const std::optional<Value>& mcast_mask = std::nullopt, source::SourceRange mask_at = {});
  /// `scale_d`: the Int32 wgmma scale-d operand (TiledMma.set(Field.ACCUMULATE, ...)); null: 1.
  void wgmma_gemm(const TiledMma& mma, const Value& d, const Value& a, const Value& b, const Value& c, source::SourceRange r,
                  ir::ExprRef scale_d = nullptr);
  /// The address of the mbarrier named by (tensor, coordinate); E0708 unless an Int64 shared-memory element.
  ir::ExprRef barrier_address(const Value& bar, source::SourceRange r, const std::string& fn);
  /// E0709 unless the target architecture has the instruction (sm_90a-only ones with needs_90a).
  void require_arch(const char* what, bool needs_90a, source::SourceRange r);
  void copy(const CopyAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& pred, source::SourceRange r);
  /// ldmatrix and stmatrix atoms (ldmatrix_ops.cpp): cute.make_copy_atom's matrix atoms, their
  /// tiled copies' partition_S/D and retile, and the copies they make.
  Value make_ldmatrix_atom(BuiltinCall& c);
  void set_permutation(TiledMma& tm, const Value& perm, source::SourceRange r);
  Value ldmatrix_partition(const TiledCopy& tc, const Value& t, bool source, source::SourceRange r);
  Value retile(const TiledCopy& tc, const Value& t, source::SourceRange r);
  void ldmatrix_copy(const CopyAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& pred, source::SourceRange r);
  Value make_rmem(const layout::Layout& l, ir::ScalarType t, source::SourceRange r);
  /// The element offset after the tensor's swizzle, if it has one (static offsets fold; terms
  /// that are multiples of the swizzle's span are added after it, see split_at_swizzle_span).
  Value swizzled(const TensorValue& t, const Value& off, source::SourceRange r);
  /// Splits a sum of offset terms into those the swizzle `sw` must see and those that are
  /// multiples of 2^(base + bits + |shift|), which it leaves unchanged: swizzle(x + y) =
  /// swizzle(x) + y for such y (CuTe's Swizzle<B, M, S> only reads and writes lower bits).
  SwizzleSplit split_at_swizzle_span(const layout::Swizzle& sw, const ir::ExprRef& off);
  /// A sliced or partitioned tensor's new offset as locals: one for a plain tensor, two (inside
  /// and outside the swizzle) for a swizzled one.
  Value materialize_offset(const TensorValue& t, const Value& off, source::SourceRange r);
  /// E0512 when an element-by-element operation would unroll into too many instructions.
  void unroll_limit(int64_t n, const std::string& what, source::SourceRange r);
  Value ssa_load(const Value& t, source::SourceRange r);
  void ssa_store(const Value& t, const Value& v, source::SourceRange r);
  /// Element-wise arithmetic when an operand is a TensorSSA.
  Value ssa_map(const Value& a, const Value* b, const std::function<Value(const Value&, const Value*)>& f, source::SourceRange r);
  std::string shape_text(const layout::IntTuple& shape);

  // ---- layouts (layouts.cpp)
  layout::IntTuple to_int_tuple(const Value& v, source::SourceRange r, const std::string& what);
  Value from_int_tuple(const layout::IntTuple& t, source::SourceRange r);
  layout::Layout to_layout(const Value& v, source::SourceRange r, const std::string& what);
  layout::Tiler to_tiler(const Value& v, source::SourceRange r, const std::string& what);
  /// L(coord): static for static coordinates, index arithmetic otherwise.
  Value evaluate_layout(const layout::Layout& l, const Value& coord, source::SourceRange r);

  // ---- entry points (entry.cpp)
  /// The host function `name` (the module global the @cute.jit function is bound to) from `fn`.
  void build_host_function(const std::shared_ptr<FunctionValue>& fn, const std::string& name);
  /// One host parameter from its annotation: a Constexpr value, a scalar, or a tensor
  /// whose extents and strides bind the symbols of the host function (FnCtx::symbols).
  void bind_host_param(const ast::Param& p, std::set<std::string>& stride_symbols);
  /// A Constexpr parameter's value: -D NAME=VALUE, else its default (E0510 for neither or a bad value).
  std::optional<Value> host_constexpr_value(const ast::Param& p);
  void bind_host_tensor(const ast::Param& p, const TensorSpec& spec, ir::HostParam hp, std::set<std::string>& stride_symbols);
  std::vector<layout::IntTuple> host_tensor_shape(const ast::Param& p, const TensorSpec& spec, int index, ir::HostParam& hp,
                                                  const std::set<std::string>& stride_symbols);
  std::vector<layout::IntTuple> host_tensor_strides(const ast::Param& p, const TensorSpec& spec, int index,
                                                    std::set<std::string>& stride_symbols);
  /// A symbol's first use: an Int64 parameter of the host function, checked against its divisibility.
  void bind_host_symbol(const Value& d, const ast::Param& p, int index, int mode, bool is_stride);
  void warn_unused_imports(const ModuleValue& m);
  void warn_redefinitions(const ModuleValue& m);
  void launch(const KernelCall& kc, std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site);
  void check_kernel_annotations(const KernelCall& kc);
  /// Shared memory a block may opt in to (CUDA C++ Programming Guide, "Technical
  /// Specifications per Compute Capability"): 227 KB on sm_90, 163 KB on sm_80.
  int64_t smem_limit_bytes() const { return program_.arch.rfind("sm_90", 0) == 0 ? 227 * 1024 : 163 * 1024; }
  /// A kernel's tile that may not divide a host extent, unpredicated: each launch checks it (tile_checks.cpp).
  struct TileCheck {
    layout::Int extent;  ///< over the leaves of the launch that generated the kernel
    int64_t tile;
    std::string divide;
    source::SourceRange at;
  };
  /// W0601 for divides of run-time extents that nothing predicates (tile_checks.cpp). In a kernel,
  /// `host_leaves` are its launch's run-time leaves: a ragged extent made of them only is returned,
  /// for the host function to check before each launch.
  std::vector<TileCheck> report_ragged_tiles(const FnCtx& ctx, const std::vector<std::string>* host_leaves);
  /// Before launching kernel `kernel` (fn_ is the host function): a Check per TileCheck, its extent
  /// renamed from the generating launch's leaves to this launch's (`leaves`, in the same order).
  void emit_tile_checks(int kernel, const std::vector<std::string>& leaves, source::SourceRange at);
  /// E0706: the kernel's shared memory over the target's per-block limit.
  void check_smem_limit(const FnCtx& ctx, const std::string& kernel);
  /// The kernel's index in the program for this launch, specialized (and generated) once per KernelKey;
  /// appends the host's arguments for its parameters to `host_args`.
  /// `min_blocks_per_mp`: launch(min_blocks_per_mp=), 0 without it (a distinct specialization:
  /// the kernel's __launch_bounds__ differ).
  int instantiate_kernel(const KernelCall& kc, const int64_t static_block[3], std::vector<ir::ExprRef>* host_args,
                         const int64_t static_cluster[3] = nullptr, int64_t min_blocks_per_mp = 0);
  /// `cluster` is null for a launch without cluster=.
  KernelSignature kernel_signature(const KernelCall& kc, const int64_t static_block[3], const int64_t cluster[3],
                                   int64_t min_blocks_per_mp = 0);
  KernelKey::Arg kernel_arg_key(const KernelCall& kc, const ast::Param& p, const Value& a, KernelSignature& sig);
  std::string tensor_arg_key(const KernelCall& kc, const ast::Param& p, const TensorValue& t, KernelSignature& sig);
  /// A C++ name for a new specialization of kernel `source_name`, unique in the program.
  std::string kernel_name(const std::string& source_name);
  int generate_kernel(const KernelCall& kc, const KernelSignature& sig, const int64_t static_block[3], const int64_t cluster[3]);
  /// Parameter i inside the kernel being built (fn_): tensors and TMA atoms become pointer
  /// parameters, run-time scalars (and a tuple's run-time elements) value parameters.
  Value kernel_param_value(const KernelCall& kc, size_t i);
  /// One argument (or, through `element`, an element of a tuple argument, numbered from *element)
  /// as kernel parameters named after `name`; tuples and lists recursively, static values as they are.
  Value lift_kernel_arg(const Value& a, const std::string& name, const source::SourceRange& at, int* element);
  /// The signature's run-time layout leaves as Int64 parameters of the kernel being built.
  void bind_kernel_leaves(const KernelSignature& sig);
  /// launch(cluster=...) (cluster_ops.cpp): static positive dims, at most 16
  /// blocks, sm_90 (E0709), static grid dims divisible (E0711); fills `out`.
  void check_cluster(const Value& cluster, const std::vector<Value>& grid, source::SourceRange r, int64_t out[3]);
  /// cute.arch.mbarrier_arrive(bars, i, peer_cta_rank_in_cluster=None) (cluster_ops.cpp).
  Value mbarrier_arrive(BuiltinCall& c);
  /// cute.arch.store_async_dsmem(dst, i, value, bars, j, peer_cta_rank) (cluster_ops.cpp).
  Value store_async_dsmem(BuiltinCall& c);
  /// A peer block's rank in the kernel's cluster as an Int32 expression: an integer, E0711
  /// when static and outside the cluster (or the kernel has none). `what` names the argument.
  ir::ExprRef peer_rank(const Value& rank, source::SourceRange at, const char* what, const char* purpose);
  /// A multicast TMA load's mcast_mask= as a Uint16 expression; E0711 without a
  /// cluster launch, for a missing mask, or static bits past the cluster's blocks.
  ir::ExprRef multicast_mask(const std::optional<Value>& mask, source::SourceRange r, source::SourceRange mask_at);
  /// The number of blocks of the kernel's cluster (static), 0 when launched without cluster=.
  int64_t cluster_size() const;

  source::SourceManager& sm_;
  const Options& opts_;
  diag::DiagnosticEngine& diags_;
  ir::Program program_;
  std::map<std::string, std::shared_ptr<ModuleValue>> modules_;
  std::shared_ptr<ModuleValue> builtins_;
  std::vector<std::string>* deps_ = nullptr;
  std::vector<Frame*> frames_;
  FnCtx* fn_ = nullptr;
  std::map<KernelKey, int> kernel_cache_;
  /// Per generated kernel: the leaves of the launch that generated it and the tiles each launch checks.
  std::map<int, std::pair<std::vector<std::string>, std::vector<TileCheck>>> kernel_tile_checks_;
  std::set<std::string> kernel_names_;
  std::vector<const ast::FunctionDef*> inline_stack_;
  std::set<std::string> used_defines_;
  /// @cutlass.tune declarations by the @cute.jit function they decorate: the handler's value
  /// (space, key, prune, flops, bytes) and the decorator call, for locations.
  std::map<const ast::FunctionDef*, std::pair<Value, const ast::Call*>> tune_decls_;
  /// @cutlass.cost declarations, likewise: (bytes, flops) strings and the decorator call.
  std::map<const ast::FunctionDef*, std::pair<Value, const ast::Call*>> cost_decls_;
  int try_depth_ = 0;                         ///< `try` bodies being run while compiling (exec_try)
  std::vector<Value> handling_;               ///< exceptions being handled (a bare `raise` re-raises the last)
  std::set<const ast::FunctionDef*> inlined_jit_;         ///< @cute.jit functions called from compiled code (inlined)
  std::vector<uint64_t> runtime_regions_;                 ///< runtime_regions()
  int64_t fn_serials_ = 0;                                ///< FnCtx::serial of the last function begun
  int64_t instance_serials_ = 0;
  std::vector<std::shared_ptr<ClassValue>> classes_;      ///< every class made (their namespaces cleared at the end)
  std::vector<std::weak_ptr<InstanceValue>> instances_;   ///< every instance made (cycles broken at the end)

  Frame& frame() { return *frames_.back(); }
  /// The innermost scope names are bound in: a module's globals at module level.
  Env& scope() { return frame().is_module ? frame().module->globals : frame().env; }
  source::SourceRange stmt_loc_;  ///< statement being executed (for IR locations)
  const ast::Expr* discarded_ = nullptr;  ///< the expression statement whose value is dropped (atomics need no result)
  /// "in kernel ..." notes go after a diagnostic's own notes: the last
  /// error's index and the contexts to append once its reporter is done.
  std::optional<size_t> pending_diag_;
  std::vector<std::pair<std::string, source::SourceRange>> pending_context_;
  std::set<std::string> host_names_;         ///< @cute.jit names: kernels must not take them
  std::set<std::string> main_globals_read_;  ///< names of the compiled file read through its globals
  diag::Diagnostic duplicate_sink_;          ///< receives notes for a suppressed duplicate error
  /// Statements run and helpers inlined while compiling: a budget against
  /// programs whose static evaluation would not finish (E0512).
  int64_t steps_ = 0;
  void count_step(source::SourceRange r);
  void flush_context();
};

/// The tiled MMA's (thread, value) layout over a (rows, cols) tile of operand
/// A (0), B (1) or C (2), with the atoms repeated to cover it (mma_ops.cpp).
layout::Layout mma_tv_over_tile(const TiledMma& tm, int operand, int64_t rows, int64_t cols);

/// The stdlib name of a module: CuTe DSL's `cutlass` is an alias package of `tileslc` (host_modules.cpp).
std::string canonical_module_name(const std::string& dotted);
/// An opaque value's name as the user knows it (cutlass.utils.hopper_helpers), and its description for messages.
std::string opaque_display_name(const ModuleValue& m);
std::string describe_opaque(const ModuleValue& m);
/// True for an opaque stand-in (host_modules.cpp).
inline bool is_opaque(const Value& v) { return v.kind() == Value::Kind::Module && v.module()->opaque != ModuleValue::Opaque::No; }

/// True for the rows of Python's exception classes (builtins.def's Exc* rows; eval_python.cpp).
bool is_exception_class(BuiltinId id);

/// The enclosing function's names as a def or lambda made in frame `f` sees them (null at module level).
std::shared_ptr<const Env> capture_closure(const Frame& f);

/// True for names the generated C++ cannot use for a function or variable
/// (keywords, CUDA and C library names, tileslc's own).
bool is_reserved_cpp_name(const std::string& name);

/// True if a value (or a tuple's element, recursively) is only known at run time.
bool contains_runtime(const Value& v);


/// The candidate closest to `name` by edit distance, or "" if none is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

/// Prescan: names assigned anywhere in `body` (targets of =, +=, for).
std::set<std::string> assigned_names(const ast::Body& body);

}  // namespace tileslc::sema
