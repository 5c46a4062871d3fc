// Entry points: builds one ir::HostFunction per @cute.jit function of the main
// module (parameters from annotations: tensors with symbolic extents, scalars,
// Constexpr values from -D or defaults), and instantiates kernels at their
// launch sites, one specialization per distinct argument signature (element
// types, ranks, which extents share a symbol, static argument values, static
// block and cluster size: a KernelKey).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <tuple>

#include "parse/parse.h"
#include "sema/compat_ops.h"
#include "sema/name_check.h"
#include "sema/registry.h"
#include "sema/uniformity.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// Parses a -D value as a Python literal: int (any base), float, True/False, or a string.
std::optional<Value> parse_define(const std::string& text) {
  if (text == "True") return Value::boolean(true);
  if (text == "False") return Value::boolean(false);
  if (text.empty()) return std::nullopt;
  std::string clean;
  for (char c : text)
    if (c != '_') clean += c;
  char* end = nullptr;
  errno = 0;
  long long iv = std::strtoll(clean.c_str(), &end, 0);
  if (end && *end == '\0' && errno == 0) return Value::integer(iv);
  if (end && *end == '\0' && errno == ERANGE) return std::nullopt;  // an integer over 64 bits
  double dv = std::strtod(clean.c_str(), &end);
  if (end && *end == '\0') return Value::floating(dv);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
    return Value::str(text.substr(1, text.size() - 2));
  return std::nullopt;
}

/// A run-time check of the host function: `cond` must hold, else the call fails with `message` and `shown`'s value.
ir::StmtPtr check_stmt(ir::ExprRef cond, ir::ExprRef shown, std::string message, source::SourceRange at) {
  return ir::check(at, std::move(cond), std::move(message), std::move(shown));
}

/// Where keyword argument `name` of a call is written (the whole call without it).
source::SourceRange keyword_range(const ast::Call& site, const std::string& name) {
  for (const auto& k : site.keywords)
    if (k.name == name) return k.value->range;
  return site.range;
}

/// launch()'s keyword arguments; grid= and block= are required.
struct LaunchConfig {
  std::optional<Value> grid, block, smem, cluster, min_blocks_per_mp;
};

LaunchConfig launch_config(Evaluator& ev, std::vector<std::pair<std::string, Value>>& kwargs, const ast::Call& site) {
  LaunchConfig cfg;
  bool misspelt = false;
  auto keyword_at = [&](const std::string& k) {
    for (const auto& kw : site.keywords)
      if (kw.name == k) return kw.name_range;
    return site.range;
  };
  for (auto& [k, v] : kwargs) {
    if (k == "grid") cfg.grid = v;
    else if (k == "block") cfg.block = v;
    else if (k == "cluster") cfg.cluster = v;
    else if (k == "smem") cfg.smem = v;
    else if (k == "min_blocks_per_mp") cfg.min_blocks_per_mp = v;
    else if (k == "stream") {
      // None is the default: the host function's stream parameter, which a `cuda.CUstream` parameter names.
      if (v.kind() != Value::Kind::None && !(is_opaque(v) && v.module()->opaque == ModuleValue::Opaque::Stream))
        ev.fail(diag::Kind::BadLaunch, keyword_at(k),
                "Kernel.launch(stream=...) takes the host function's cuda.CUstream parameter or None, found " + describe(v));
    } else {
      // Reported, then ignored: the kernel itself is still checked.
      auto& d = ev.error(diag::Kind::UnknownKeyword, keyword_at(k), "Kernel.launch() got an unexpected keyword argument '" + k + "'");
      std::string best = closest_name(k, {"grid", "block", "smem", "stream", "cluster", "min_blocks_per_mp"});
      if (!best.empty()) d.help("did you mean '" + best + "'?");
      else d.help("launch takes grid=, block=, smem=, stream=, cluster= and min_blocks_per_mp=");
      misspelt = true;
    }
  }
  // A misspelt grid= or block= is reported once, above.
  if ((!cfg.grid || !cfg.block) && misspelt) ev.abort_entry();
  if (!cfg.grid || !cfg.block) {
    auto& d = ev.error(diag::Kind::BadLaunch, site.range, std::string(".launch() needs ") + (!cfg.grid ? "grid=" : "block=") + "(x, y, z)");
    d.help("e.g. .launch(grid=(cute.ceil_div(N, 256), 1, 1), block=(256, 1, 1))");
    ev.abort_entry();
  }
  return cfg;
}

/// grid= or block= as three positive integers (static or run-time), missing ones 1.
std::vector<Value> launch_dims(Evaluator& ev, const Value& v, const char* what, const ast::Call& site) {
  source::SourceRange at = keyword_range(site, what);
  std::vector<Value> xs = v.kind() == Value::Kind::Tuple ? v.elts() : std::vector<Value>{v};
  if (xs.empty() || xs.size() > 3)
    ev.fail(diag::Kind::BadLaunch, at, std::string(what) + " must have 1 to 3 dimensions");
  while (xs.size() < 3) xs.push_back(Value::integer(1));
  for (const auto& x : xs) {
    if (!x.is_integer())
      ev.fail(diag::Kind::BadLaunch, at, std::string(what) + " dimensions must be integers, found " + describe(x));
    if (x.kind() == Value::Kind::Int && x.i() <= 0)
      ev.fail(diag::Kind::BadLaunch, at, std::string(what) + " dimensions must be positive, found " + std::to_string(x.i()));
  }
  return xs;
}

/// The block's dims when all three are static (E0702, BlockTooLarge, over CUDA's limits), else 0s.
void static_block_dims(Evaluator& ev, const std::vector<Value>& b, source::SourceRange at, int64_t out[3]) {
  for (int k = 0; k < 3; ++k) {
    if (b[k].kind() != Value::Kind::Int) {
      out[0] = out[1] = out[2] = 0;
      return;
    }
    out[k] = b[k].i();
  }
  int64_t threads = out[0] * out[1] * out[2];
  if (threads <= 1024 && out[2] <= 64) return;
  std::string dims = std::to_string(out[0]) + "x" + std::to_string(out[1]) + "x" + std::to_string(out[2]);
  auto& d = ev.error(diag::Kind::BlockTooLarge, at,
                     threads > 1024 ? "block of " + dims + " = " + std::to_string(threads) + " threads is over the limit of 1024 threads per block"
                                    : "block of " + dims + " has z = " + std::to_string(out[2]) + ", over the limit of 64");
  d.note("CUDA limits a block to 1024 threads, and block z to 64");
  ev.abort_entry();
}

/// E0413 for a static grid dimension over CUDA's limits (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability"): x up to 2^31 - 1, y and z up to 65535.
void check_static_grid(Evaluator& ev, const std::vector<Value>& g, source::SourceRange at) {
  static const char* const axes[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    const int64_t limit = k == 0 ? 2147483647 : 65535;
    if (g[k].kind() != Value::Kind::Int || g[k].i() <= limit) continue;
    auto& d = ev.error(diag::Kind::BadLaunch, at,
                       std::string("grid ") + axes[k] + " is " + std::to_string(g[k].i()) + ", over CUDA's limit of " +
                           (k == 0 ? "2147483647 (2^31 - 1) for grid x" : "65535 for grid y and z"));
    if (k > 0) d.help("put the large extent in grid x, which may hold up to 2^31 - 1 blocks, and derive the others from it");
    ev.abort_entry();
  }
}

/// min_blocks_per_mp= (CuTe DSL's LaunchConfig field: __launch_bounds__'s minimum of resident
/// blocks per SM, so ptxas caps each thread's registers at 64K / (N * threads)): a static integer
/// from 0 to 32 (an SM's most resident blocks; 0, CuTe DSL's default, asks for none), with a static
/// block= (the bound names its threads).
int64_t launch_min_blocks(Evaluator& ev, const Value& v, const int64_t static_block[3], source::SourceRange at) {
  if (v.kind() != Value::Kind::Int)
    ev.fail(diag::Kind::BadLaunch, at, "min_blocks_per_mp must be a static integer, found " + describe(v));
  if (v.i() < 0 || v.i() > 32)
    ev.fail(diag::Kind::BadLaunch, at, "min_blocks_per_mp must be from 0 (no minimum) to 32 (blocks resident on one SM), found " + std::to_string(v.i()));
  if (v.i() > 0 && !static_block[0])
    ev.fail(diag::Kind::BadLaunch, at, "min_blocks_per_mp needs a static block= (__launch_bounds__ names the block's threads)");
  return v.i();
}

/// smem= must be a non-negative integer number of bytes.
void check_launch_smem(Evaluator& ev, const Value& smem, source::SourceRange at) {
  const Value& sm = smem;
  if (!sm.is_integer())
    ev.fail(diag::Kind::BadLaunch, at, "smem must be an integer number of bytes, found " + describe(sm));
  if (sm.kind() == Value::Kind::Int && sm.i() < 0)
    ev.fail(diag::Kind::BadLaunch, at, "smem must not be negative, found " + std::to_string(sm.i()) + " bytes");
}

/// Kernel symbol -> (the argument extent it stands for, the index of the parameter that bound it).
using ExtentOwners = std::map<std::string, std::pair<std::string, size_t>>;

/// The extents of argument i against its annotation's: static ones must match, symbols unify across parameters.
void unify_extents(Evaluator& ev, const KernelCall& kc, size_t i, const TensorSpec& spec, ExtentOwners& unified) {
  const auto* def = kc.fn->def;
  const auto& p = def->params[i];
  const Value& a = kc.args[i];
  const auto& t = *a.tensor();
  for (size_t m = 0; m < spec.dims.size(); ++m) {
    std::string arg_dim = t.layout.shape[m].to_string();
    const Value& want = *spec.dims[m];
    if (want.kind() == Value::Kind::Int) {
      if (arg_dim != std::to_string(want.i())) {
        auto& d = ev.error(diag::Kind::ShapeMismatch, kc.range,
                           "extent " + std::to_string(m) + " of '" + p.name + "' must be " + std::to_string(want.i()) + ", found " + arg_dim);
        d.label(p.annotation->range, "declared here");
        ev.abort_entry();
      }
      continue;
    }
    auto [it, fresh] = unified.emplace(want.s(), std::make_pair(arg_dim, i));
    if (!fresh && it->second.first != arg_dim) {
      const auto& first = def->params[it->second.second];
      auto& d = ev.error(diag::Kind::ShapeMismatch, kc.range,
                         "kernel '" + def->name + "' needs one extent '" + want.s() + "' for '" + first.name + "' and '" + p.name +
                             "', but the arguments give " + it->second.first + " and " + arg_dim);
      d.label(first.annotation->range, "'" + want.s() + "' is " + it->second.first + " here");
      d.label(p.annotation->range, "and " + arg_dim + " here");
      d.note("the arguments are " + repr(kc.args[it->second.second]) + " and " + repr(a));
      ev.abort_entry();
    }
  }
}

/// Argument i against its cute.Tensor[dtype, (dims...)] annotation: a tensor, of that type and rank, with those extents.
void check_tensor_argument(Evaluator& ev, const KernelCall& kc, size_t i, const TensorSpec& spec, ExtentOwners& unified) {
  const auto& p = kc.fn->def->params[i];
  const Value& a = kc.args[i];
  if (a.kind() != Value::Kind::Tensor) {
    auto& d = ev.error(diag::Kind::TypeMismatch, kc.range, "kernel parameter '" + p.name + "' expects a tensor, found " + describe(a));
    d.label(p.annotation->range, "declared here");
    ev.abort_entry();
  }
  const auto& t = *a.tensor();
  if (spec.dtype != t.dtype) {
    auto& d = ev.error(diag::Kind::TensorDtypeMismatch, kc.range,
                       "kernel parameter '" + p.name + "' expects a " + ir::type_name(spec.dtype) + " tensor, found " + repr(a));
    d.label(p.annotation->range, "declared here");
    ev.abort_entry();
  }
  if (!spec.has_dims) return;
  if (spec.dims.size() != t.layout.rank()) {
    auto& d = ev.error(diag::Kind::RankMismatch, kc.range,
                       "kernel parameter '" + p.name + "' expects a rank-" + std::to_string(spec.dims.size()) + " tensor, found " + repr(a));
    d.label(p.annotation->range, "declared here");
    ev.abort_entry();
  }
  unify_extents(ev, kc, i, spec, unified);
}

/// What a kernel may take as a tuple with run-time elements: run-time values and static ones other than layouts.
bool tuple_passable_to_kernel(const Value& x) {
  if (x.kind() == Value::Kind::Tuple) {
    for (const auto& e : x.elts())
      if (!tuple_passable_to_kernel(e)) return false;
    return true;
  }
  return x.kind() == Value::Kind::Dyn || (x.is_static() && x.kind() != Value::Kind::Layout);
}

/// Whether a tuple holds (at any depth) a tensor or a TMA atom: CuTe DSL kernels take lists and
/// tuples of tensors (`mInputs: List[cute.Tensor]`); each becomes parameters of its own.
bool holds_kernel_object(const Value& x) {
  if (x.kind() == Value::Kind::Tensor || x.kind() == Value::Kind::TmaAtom) return true;
  if (x.kind() != Value::Kind::Tuple) return false;
  for (const auto& e : x.elts())
    if (holds_kernel_object(e)) return true;
  return false;
}

/// The host's values for a kernel's parameters, in argument order: per tensor its data pointer (none for a
/// coordinate tensor), per TMA atom its descriptor, per run-time scalar its value, per tuple its run-time elements.
void push_host_args(const std::vector<Value>& args, std::vector<ir::ExprRef>* out) {
  for (const Value& a : args) {
    if (a.kind() == Value::Kind::Tensor) {
      if (a.tensor()->space != MemSpace::Coord) out->push_back(ir::tensor_data(a.tensor()->host_index, a.tensor()->dtype));
    } else if (a.kind() == Value::Kind::TmaAtom) {
      // tileslc::make_tma_descriptor(&arg, tensor, function, param, inner_mode, box_inner, box_outer, swizzle_bytes),
      // of a view of the tensor (offset, extents, strides) when the atom was built from one.
      const TmaAtom& t = *a.tma();
      auto c = [](int64_t x) { return ir::int_const(x, ScalarType::Int32); };
      std::vector<ir::ExprRef> ops{ir::tensor_data(t.host_index, t.dtype), c(t.inner_mode), c(t.box[t.inner_mode]),
                                   c(t.box[1 - t.inner_mode]), c(t.swizzle_bytes)};
      ops.insert(ops.end(), t.view.begin(), t.view.end());
      out->push_back(ir::intrinsic(t.view.empty() ? ir::Intrinsic::MakeTmaDescriptor : ir::Intrinsic::MakeTmaDescriptorView, {},
                                   std::move(ops), ScalarType::Uint8));
    } else if (a.kind() == Value::Kind::Dyn) {
      out->push_back(a.expr());
    } else if (a.kind() == Value::Kind::Tuple) {
      // A tuple or list with run-time elements (a tensor's shape, a list of tensors): one
      // parameter each, in the order kernel_param_value lifts them.
      push_host_args(a.elts(), out);
    }
  }
}

/// A run-time layout leaf as a C++ name: "mA.stride[0]" -> "mA_stride0".
std::string readable_leaf(const std::string& sym) {
  std::string readable = sym;
  if (auto at = readable.find(".stride["); at != std::string::npos && readable.back() == ']')
    readable = readable.substr(0, at) + "_stride" + readable.substr(at + 8, readable.size() - at - 9);
  return readable;
}

std::string dims_text(const int64_t d[3]) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

}  // namespace

/// What a launch's arguments make of a kernel: the cache key, the specialization's text
/// (for the generated code and notes), and the run-time layout leaves that become kernel parameters.
struct KernelSignature {
  KernelKey key;
  std::string spec;                              ///< "gA: ..., n: Int32, block=(256, 1, 1)"
  std::map<std::string, int> symbol_ids;         ///< run-time leaf -> its number in the key
  std::vector<std::string> symbol_order;         ///< run-time layout leaves, in first-use order
  std::map<std::string, std::string> leaf_hint;  ///< leaf -> the kernel parameter named after it
  std::map<std::string, int64_t> leaf_divisors;  ///< leaf -> what the host knows its value divides by
};

bool KernelKey::operator<(const KernelKey& o) const {
  // std::less orders unrelated pointers; only equality matters for the cache, not the order.
  const std::less<const void*> before;
  if (def != o.def) return before(def, o.def);
  if (block != o.block) return block < o.block;
  if (cluster != o.cluster) return cluster < o.cluster;
  if (min_blocks_per_mp != o.min_blocks_per_mp) return min_blocks_per_mp < o.min_blocks_per_mp;
  return std::lexicographical_compare(args.begin(), args.end(), o.args.begin(), o.args.end(), [&](const Arg& x, const Arg& y) {
    return x.text != y.text ? x.text < y.text : before(x.function, y.function);
  });
}


std::optional<ir::Program> Evaluator::run(source::FileId main, std::vector<std::string>* deps) {
  deps_ = deps;
  program_.source_path = sm_.file(main).path();
  program_.kernel_namespace = opts_.kernel_namespace.empty() ? default_kernel_namespace(program_.source_path) : opts_.kernel_namespace;
  program_.arch = opts_.arch;
  if (deps_) deps_->push_back(program_.source_path);
  auto m = std::make_shared<ModuleValue>();
  m->name = "__main__";
  m->file = main;
  modules_["__main__"] = m;
  m->ast = std::make_unique<ast::Module>(parse::parse_file(sm_, main, diags_));
  if (diags_.has_errors()) return std::nullopt;
  exec_module_body(m);
  if (diags_.has_errors()) {
    report_undefined_names(*m->ast, diags_);
    return std::nullopt;
  }

  // The file's @cute.jit functions are its entry points: whatever its module code left bound to a
  // module global, as Python's import would (a top-level def, one under `if`, one a factory
  // returned: `run32 = make(32)`), each under the global's name (its def's name when bound to
  // that, else the first such global). Those with every parameter annotated first: one with an
  // unannotated parameter that those called (inlined) is a jit helper, not an entry point (E0410
  // only for one nothing called). In source order, then by name, so that output is deterministic.
  std::map<const FunctionValue*, std::pair<std::string, std::shared_ptr<FunctionValue>>> named;
  for (const auto& [name, b] : m->globals) {
    if (b.value.kind() != Value::Kind::Function) continue;
    const auto& fn = b.value.fn();
    if (fn->kind != FunctionValue::Kind::Jit || fn->module != m || !fn->def) continue;
    host_names_.insert(name);
    auto [it, fresh] = named.emplace(fn.get(), std::make_pair(name, fn));
    if (!fresh && name == fn->def->name) it->second.first = name;
  }
  struct Entry {
    std::string name;
    std::shared_ptr<FunctionValue> fn;
    bool annotated;
  };
  std::vector<Entry> entry_fns;
  for (auto& [key, e] : named) {
    const auto& params = e.second->def->params;
    entry_fns.push_back({e.first, e.second,
                         std::all_of(params.begin(), params.end(), [](const ast::Param& p) { return p.annotation != nullptr; })});
  }
  std::sort(entry_fns.begin(), entry_fns.end(), [](const Entry& a, const Entry& b) {
    return std::make_tuple(!a.annotated, a.fn->def->name_range.begin, a.name) < std::make_tuple(!b.annotated, b.fn->def->name_range.begin, b.name);
  });
  int entries = 0;
  for (const auto& e : entry_fns) {
    if (inlined_jit_.count(e.fn->def)) continue;
    ++entries;
    try {
      build_host_function(e.fn, e.name);
    } catch (const AbortEntry&) {
    }
    flush_context();
  }
  // After the evaluator's own E0301s, which name the specialization they were found in.
  report_undefined_names(*m->ast, diags_);
  if (!diags_.has_errors()) warn_unused_imports(*m);
  warn_redefinitions(*m);
  if (entries == 0) {
    auto& d = diags_.report(diag::Kind::NoEntryPoints, source::SourceRange{main, 0, 0},
                            "'" + program_.source_path + "' defines no @cute.jit host function");
    d.help("add a @cute.jit function that launches your kernels: kernel(args).launch(grid=..., block=...)");
  }
  for (const auto& [name, value] : opts_.defines)
    if (!used_defines_.count(name))
      diags_.report(diag::Kind::BadDefine, source::SourceRange{},
                    "-D " + name + "=" + value + " names no cutlass.Constexpr parameter of a @cute.jit function");
  // The kernels' namespace and the host functions share the global scope: `namespace sgemm`
  // beside `tileslc::Status sgemm(...)` does not compile.
  const std::string outer = program_.kernel_namespace.substr(0, program_.kernel_namespace.find("::"));
  for (const auto& h : program_.host_functions)
    if (h.name == outer) {
      auto& d = diags_.report(diag::Kind::BadCommandLine, source::SourceRange{},
                              "--kernel-namespace '" + program_.kernel_namespace + "' begins with '" + outer +
                                  "', the name of a host function of this file");
      d.help("nest it (e.g. kernels::" + outer + ") or pick another name");
      break;
    }
  if (diags_.has_errors()) return std::nullopt;
  return std::move(program_);
}

void Evaluator::warn_unused_imports(const ModuleValue& m) {
  // W0301: a top-level import of the compiled file that no code read.
  for (const auto& s : m.ast->body) {
    std::vector<std::pair<std::string, source::SourceRange>> names;
    if (const auto* imp = s->as<ast::Import>())
      for (const auto& a : imp->names) names.emplace_back(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname, a.range);
    if (const auto* imp = s->as<ast::ImportFrom>())
      for (const auto& a : imp->names) names.emplace_back(a.asname.empty() ? a.name : a.asname, a.range);
    for (const auto& [name, range] : names)
      if (!main_globals_read_.count(name))
        diags_.report(diag::Kind::UnusedImport, range, "'" + name + "' is imported but never used")
            .help("remove the import");
  }
}

void Evaluator::warn_redefinitions(const ModuleValue& m) {
  // W0303 (pyflakes' "redefinition of unused name"): Python keeps the later
  // definition, so a copy-pasted `@cute.jit def f` silently drops the first
  // host function from the generated C++. Only sibling top-level defs and
  // classes count: `if X: def f` / `else: def f` are alternatives, not repeats.
  std::map<std::string, source::SourceRange> defined;
  for (const auto& s : m.ast->body) {
    std::string name;
    source::SourceRange at;
    if (const auto* d = s->as<ast::FunctionDef>()) name = d->name, at = d->name_range;
    else if (const auto* c = s->as<ast::ClassDef>()) name = c->name, at = c->name_range;
    else continue;
    auto [it, fresh] = defined.emplace(name, at);
    if (!fresh) {
      auto& d = diags_.report(diag::Kind::RedefinedFunction, at, "'" + name + "' is defined again: this definition replaces the one before");
      d.note("the first definition of '" + name + "', which nothing can reach any more", it->second);
      d.help("rename one of them, or delete the one that is not wanted");
      it->second = at;
    }
  }
}

void Evaluator::build_host_function(const std::shared_ptr<FunctionValue>& fn, const std::string& name) {
  const auto* def = fn->def;
  // The evaluation budget (E0512) is per entry point: what importing the
  // standard library ran before does not count against it.
  steps_ = 0;
  if (is_reserved_cpp_name(name)) {
    auto& d = diags_.report(diag::Kind::HostNameCollision, def->name_range,
                            "host function name '" + name + "' is reserved in the generated C++");
    d.help("rename the @cute.jit function: its name is the C++ function callers use");
    return;
  }
  ir::HostFunction hf;
  hf.name = name;
  hf.loc = def->name_range;
  FnCtx ctx;
  ctx.host = &hf;
  ctx.locals = &hf.locals;
  ctx.blocks = {&hf.body};
  Frame f;
  f.module = fn->module;
  f.def = def;
  f.owner = fn->owner;
  f.is_entry = true;
  frames_.push_back(&f);
  ctx.serial = ++fn_serials_;
  FnCtx* saved = fn_;
  fn_ = &ctx;
  struct Restore { Evaluator& ev; FnCtx* fn; ~Restore() { ev.fn_ = fn; ev.frames_.pop_back(); } } restore{*this, saved};

  std::set<std::string> stride_symbols;  // symbols first bound by a stride
  // Parameters start poisoned: one that fails its annotation check is
  // reported once, and its uses in the body stay quiet.
  check_def_supported(*def, def->name_range);
  if (fn->closure) f.env = *fn->closure;  // a factory's @cute.jit function sees the factory's names
  for (const auto& p : def->params) f.env[p.name] = Binding{Value{}, "", p.range};
  for (const auto& p : def->params) bind_host_param(p, stride_symbols);
  build_tune_space(*def, hf);
  build_cost(*def, hf);
  exec_body(def->body);
  report_ragged_tiles(ctx, nullptr);
  program_.host_functions.push_back(std::move(hf));
}

void Evaluator::bind_host_param(const ast::Param& p, std::set<std::string>& stride_symbols) {
  const std::string& fn_name = fn_->host->name;
  if (!p.annotation) {
    auto& d = error(diag::Kind::BadAnnotation, p.range,
                    "parameter '" + p.name + "' of host function '" + fn_name + "' needs a type annotation");
    d.help("annotate it: " + p.name + ": cute.Tensor[cutlass.Float32, (N,)], " + p.name +
           ": cutlass.Float32 or " + p.name + ": cutlass.Constexpr");
    return;
  }
  Value ann = eval(*p.annotation);
  if (ann.kind() == Value::Kind::ConstexprSpec ||
      (ann.kind() == Value::Kind::Builtin && ann.builtin() == BuiltinId::ConstexprMarker)) {
    if (auto v = host_constexpr_value(p)) {
      frame().env[p.name] = Binding{*v, "", p.range};
      fn_->host->constexprs.emplace_back(p.name, repr(*v));  // a -D literal for int, float, bool, str
    }
    return;
  }
  if (bind_host_stream(p, ann)) return;  // not a C++ parameter of its own: the trailing cudaStream_t
  ir::HostParam hp;
  hp.name = unique_name(p.name);
  hp.loc = p.range;
  if (ann.kind() == Value::Kind::Type) {
    hp.kind = ir::HostParam::Scalar;
    hp.type = ann.type();
    if (ir::is_narrow_float(ann.type()))
      fail(diag::Kind::BadAnnotation, p.annotation->range,
           std::string("host scalar parameters of type ") + ir::type_name(ann.type()) + " are not supported; use cutlass.Float32");
    frame().env[p.name] = Binding{Value::dyn(ir::param_ref(hp.name, ann.type()), p.range), "", p.range};
    fn_->host->params.push_back(std::move(hp));
    return;
  }
  if (ann.kind() == Value::Kind::TensorSpec) return bind_host_tensor(p, *ann.spec(), std::move(hp), stride_symbols);
  auto& d = error(diag::Kind::BadAnnotation, p.annotation->range,
                  "unsupported annotation for host parameter '" + p.name + "': " + describe(ann));
  // The C ABI needs an element type and a width: name the annotation that gives them.
  const BuiltinId id = ann.kind() == Value::Kind::Builtin ? ann.builtin() : BuiltinId{};
  if (ann.kind() == Value::Kind::Builtin && id == BuiltinId::TensorType)
    d.help("a host function's tensor parameter names its element type and extents: " + p.name +
           ": cute.Tensor[cutlass.Float32, (M, N)] (M, N from cute.sym_int or numbers)");
  else if (ann.kind() == Value::Kind::Builtin && (id == BuiltinId::Int || id == BuiltinId::Float || id == BuiltinId::Bool))
    d.help(std::string("Python's ") + builtin_info(id).name + " has no fixed width in C: use " +
           (id == BuiltinId::Int ? "cutlass.Int32 (or Int64)" : id == BuiltinId::Float ? "cutlass.Float32 (or Float64)" : "cutlass.Boolean") +
           ", or cutlass.Constexpr for a compile-time value");
  else
    d.help("use cute.Tensor[dtype, (extents...)], a scalar type such as cutlass.Float32, or cutlass.Constexpr");
}

std::optional<Value> Evaluator::host_constexpr_value(const ast::Param& p) {
  if (auto it = opts_.defines.find(p.name); it != opts_.defines.end()) {
    used_defines_.insert(p.name);
    auto parsed = parse_define(it->second);
    if (!parsed)
      error(diag::Kind::BadDefine, p.range, "-D " + p.name + "=" + it->second + " is not an int (64-bit), float, bool or quoted string");
    return parsed;
  }
  if (p.default_value) return eval(*p.default_value);
  auto& d = error(diag::Kind::BadDefine, p.range, "Constexpr parameter '" + p.name + "' has no value");
  d.help("give it a default (" + p.name + ": cutlass.Constexpr = 128) or pass -D " + p.name + "=VALUE");
  return std::nullopt;
}

void Evaluator::bind_host_tensor(const ast::Param& p, const TensorSpec& spec, ir::HostParam hp, std::set<std::string>& stride_symbols) {
  if (!spec.has_dims || spec.dims.empty()) {
    auto& d = error(diag::Kind::BadAnnotation, p.annotation->range,
                    "tensor parameter '" + p.name + "' of a host function needs its element type and at least one extent");
    d.help("e.g. " + p.name + ": cute.Tensor[cutlass.Float32, (M, N)] with M = cute.sym_int(\"M\") at module level");
    return;
  }
  hp.kind = ir::HostParam::Tensor;
  hp.type = spec.dtype;
  hp.align_bytes = spec.align;
  int index = static_cast<int>(fn_->host->params.size());
  auto tv = std::make_shared<TensorValue>();
  tv->dtype = spec.dtype;
  tv->host_index = index;
  tv->align_bytes = spec.align ? spec.align : std::max(1, ir::bit_width(spec.dtype) / 8);
  auto shape = host_tensor_shape(p, spec, index, hp, stride_symbols);
  auto stride = host_tensor_strides(p, spec, index, stride_symbols);
  tv->layout = layout::make_layout(layout::IntTuple::tuple(shape), layout::IntTuple::tuple(stride));
  fn_->host_tensor_layouts[index] = tv->layout;
  frame().env[p.name] = Binding{Value::of(tv), "", p.range};
  fn_->host->params.push_back(std::move(hp));
}

std::vector<layout::IntTuple> Evaluator::host_tensor_shape(const ast::Param& p, const TensorSpec& spec, int index, ir::HostParam& hp,
                                                           const std::set<std::string>& stride_symbols) {
  FnCtx& ctx = *fn_;
  std::vector<layout::IntTuple> shape;
  for (size_t m = 0; m < spec.dims.size(); ++m) {
    const Value& d = *spec.dims[m];
    ir::HostDim hd;
    if (d.kind() == Value::Kind::Int) {
      hd.is_static = true;
      hd.value = d.i();
      shape.push_back(layout::Int(d.i()));
    } else {
      hd.symbol = d.s();
      if (!ctx.symbols.count(d.s())) {
        bind_host_symbol(d, p, index, static_cast<int>(m), false);
      } else if (stride_symbols.count(d.s())) {
        emit(check_stmt(ir::binary(ir::Op::Eq, ir::tensor_extent(index, static_cast<int>(m)), ctx.symbols[d.s()], ScalarType::Boolean),
                        ir::tensor_extent(index, static_cast<int>(m)),
                        fn_->host->name + ": " + p.name + ".shape[" + std::to_string(m) + "] must be " + d.s(), p.range));
      }
      shape.push_back(layout::Int::symbol(d.s()));
    }
    hp.dims.push_back(hd);
  }
  return shape;
}

std::vector<layout::IntTuple> Evaluator::host_tensor_strides(const ast::Param& p, const TensorSpec& spec, int index,
                                                             std::set<std::string>& stride_symbols) {
  FnCtx& ctx = *fn_;
  std::vector<layout::IntTuple> stride;
  for (size_t m = 0; m < spec.dims.size(); ++m) {
    const Value* st = spec.strides.empty() ? nullptr : spec.strides[m].get();
    auto want = [&](ir::ExprRef expect, const std::string& what) {
      emit(check_stmt(ir::binary(ir::Op::Eq, ir::tensor_stride(index, static_cast<int>(m)), expect, ScalarType::Boolean),
                      ir::tensor_stride(index, static_cast<int>(m)),
                      fn_->host->name + ": " + p.name + ".stride[" + std::to_string(m) + "] must be " + what, p.range));
    };
    if (st && st->kind() == Value::Kind::Int) {
      want(ir::int_const(st->i(), ScalarType::Int64), std::to_string(st->i()));
      stride.push_back(layout::Int(st->i()));
    } else if (st && st->kind() == Value::Kind::SymDim) {
      if (ctx.symbols.count(st->s())) want(ctx.symbols[st->s()], st->s());
      else {
        bind_host_symbol(*st, p, index, static_cast<int>(m), true);
        stride_symbols.insert(st->s());
      }
      stride.push_back(layout::Int::symbol(st->s()));
    } else {
      std::string leaf = p.name + ".stride[" + std::to_string(m) + "]";
      ctx.symbols[leaf] = ir::tensor_stride(index, static_cast<int>(m));
      stride.push_back(layout::Int::symbol(leaf));
    }
  }
  return stride;
}

void Evaluator::bind_host_symbol(const Value& d, const ast::Param& p, int index, int mode, bool is_stride) {
  FnCtx& ctx = *fn_;
  std::string local = unique_name(d.s());
  ctx.symbols[d.s()] = ir::param_ref(local, ScalarType::Int64);
  if (d.i() > 1) ctx.divisors[local] = d.i();
  ir::SymbolBinding sb{d.s(), index, mode, local};
  sb.is_stride = is_stride;
  ctx.host->symbols.push_back(sb);
  if (d.i() <= 1) return;
  emit(check_stmt(ir::binary(ir::Op::Eq,
                             ir::binary(ir::Op::TruncMod, ctx.symbols[d.s()], ir::int_const(d.i(), ScalarType::Int64), ScalarType::Int64),
                             ir::int_const(0, ScalarType::Int64), ScalarType::Boolean),
                  ctx.symbols[d.s()],
                  fn_->host->name + ": " + d.s() + " (" + (is_stride ? "stride " : "extent ") + std::to_string(mode) + " of " + p.name +
                      ") must be a multiple of " + std::to_string(d.i()),
                  p.range));
}

void Evaluator::launch(const KernelCall& kc, std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site) {
  if (!fn_ || fn_->is_kernel) fail(diag::Kind::BadLaunch, site.range, "kernels are launched from @cute.jit host functions");
  LaunchConfig cfg = launch_config(*this, kwargs, site);
  auto g = launch_dims(*this, *cfg.grid, "grid", site);
  check_static_grid(*this, g, keyword_range(site, "grid"));
  auto b = launch_dims(*this, *cfg.block, "block", site);
  int64_t static_block[3] = {0, 0, 0};
  static_block_dims(*this, b, keyword_range(site, "block"), static_block);
  int64_t static_cluster[3] = {0, 0, 0};  // 0: launched without cluster=
  if (cfg.cluster) check_cluster(*cfg.cluster, g, keyword_range(site, "cluster"), static_cluster);
  if (cfg.smem) check_launch_smem(*this, *cfg.smem, keyword_range(site, "smem"));
  const int64_t min_blocks =
      cfg.min_blocks_per_mp ? launch_min_blocks(*this, *cfg.min_blocks_per_mp, static_block, keyword_range(site, "min_blocks_per_mp")) : 0;
  auto info = std::make_unique<ir::LaunchInfo>();
  info->kernel = instantiate_kernel(kc, static_block, &info->args, static_cluster, min_blocks);
  for (int k = 0; k < 3; ++k) {
    info->grid[k] = to_expr_as(g[k], ScalarType::Int64, site.range);
    info->block[k] = to_expr_as(b[k], ScalarType::Int64, site.range);
    if (static_cluster[0]) info->cluster[k] = ir::int_const(static_cluster[k], ScalarType::Int64);
  }
  // The kernel's own allocations (SmemAllocator) come first; smem= adds to them.
  Value smem_total = Value::integer(program_.kernels.at(info->kernel).smem_bytes);
  if (cfg.smem)
    smem_total = eval_binop(ast::BinOpKind::Add, smem_total, *cfg.smem, site.range, site.range);
  if (smem_total.kind() == Value::Kind::Int && smem_total.i() > smem_limit_bytes()) {
    const int64_t own = program_.kernels.at(info->kernel).smem_bytes;
    auto& d = error(diag::Kind::SmemOverLimit, keyword_range(site, "smem"),
                    "kernel '" + kc.fn->def->name + "' is launched with " + std::to_string(smem_total.i()) +
                        " bytes of shared memory, over the " + program_.arch + " limit of " + std::to_string(smem_limit_bytes()) +
                        " bytes per block");
    d.note(std::to_string(own) + " bytes are the kernel's own allocations, " + std::to_string(smem_total.i() - own) + " come from smem=");
    d.help("use smaller tiles or fewer pipeline stages");
    abort_entry();
  }
  info->smem = to_expr_as(smem_total, ScalarType::Int64, site.range);
  emit(ir::launch(site.range, std::move(info)));
}

void Evaluator::check_kernel_annotations(const KernelCall& kc) {
  // Annotated kernel parameters (cute.Tensor[dtype, (dims...)]) are checked
  // against the launch's arguments; the annotation's symbols unify with the
  // arguments' extents, so passing an (M, K) tensor where (K, N) is expected
  // fails here, at compile time.
  const auto* def = kc.fn->def;
  ExtentOwners unified;
  for (size_t i = 0; i < def->params.size() && i < kc.args.size(); ++i) {
    const auto& p = def->params[i];
    if (!p.annotation) continue;
    Frame af;
    af.module = kc.fn->module;
    frames_.push_back(&af);
    Value ann = eval(*p.annotation);
    frames_.pop_back();
    const Value& a = kc.args[i];
    if (ann.kind() == Value::Kind::Builtin && ann.builtin() == BuiltinId::TensorType) {
      if (a.kind() != Value::Kind::Tensor) {
        auto& d = error(diag::Kind::TypeMismatch, kc.range, "kernel parameter '" + p.name + "' expects a tensor, found " + describe(a));
        d.label(p.range, "parameter declared here");
        abort_entry();
      }
      continue;
    }
    if (ann.kind() == Value::Kind::TensorSpec) check_tensor_argument(*this, kc, i, *ann.spec(), unified);
    else check_annotated_argument(*this, kc.fn->module, def->name, p, a, kc.range);  // cute.Layout, cute.Shape, ...
  }
}

int Evaluator::instantiate_kernel(const KernelCall& kc, const int64_t static_block[3], std::vector<ir::ExprRef>* host_args,
                                  const int64_t static_cluster[3], int64_t min_blocks_per_mp) {
  const auto* def = kc.fn->def;
  if (kc.args.size() > def->params.size()) {
    auto& d = error(diag::Kind::WrongArity, kc.range,
                    "kernel '" + def->name + "' takes " + std::to_string(def->params.size()) +
                        (def->params.size() == 1 ? " argument, " : " arguments, ") +
                        std::to_string(kc.args.size()) + " given");
    d.label(def->name_range, "kernel declared here");
    abort_entry();
  }
  check_kernel_annotations(kc);
  // A cluster launch specializes too (cluster_dim() is static, multicast masks are checked against it).
  const int64_t* cluster = static_cluster && static_cluster[0] > 0 ? static_cluster : nullptr;
  KernelSignature sig = kernel_signature(kc, static_block, cluster, min_blocks_per_mp);
  // Host-side arguments, in kernel parameter order: per tensor its data
  // pointer, per dynamic scalar its value, then the layouts' run-time leaves.
  push_host_args(kc.args, host_args);
  for (const auto& sym : sig.symbol_order) host_args->push_back(fn_->symbols.at(sym));
  for (const auto& sym : sig.symbol_order) sig.leaf_divisors[sym] = known_divisor(fn_->symbols.at(sym));
  auto cached = kernel_cache_.find(sig.key);
  int index = cached != kernel_cache_.end() ? cached->second : generate_kernel(kc, sig, static_block, cluster);
  emit_tile_checks(index, sig.symbol_order, kc.range);
  return index;
}

KernelSignature Evaluator::kernel_signature(const KernelCall& kc, const int64_t static_block[3], const int64_t cluster[3],
                                            int64_t min_blocks_per_mp) {
  const auto* def = kc.fn->def;
  KernelSignature sig;
  sig.key.def = def;
  sig.key.min_blocks_per_mp = min_blocks_per_mp;
  std::copy(static_block, static_block + 3, sig.key.block.begin());
  if (cluster) std::copy(cluster, cluster + 3, sig.key.cluster.begin());
  for (size_t i = 0; i < def->params.size(); ++i) {
    const auto& p = def->params[i];
    if (i >= kc.args.size()) {
      if (!p.default_value) {
        auto& d = error(diag::Kind::WrongArity, kc.range, "kernel '" + def->name + "' is missing argument '" + p.name + "'");
        d.label(p.range, "parameter declared here");
        abort_entry();
      }
      continue;
    }
    const Value& a = kc.args[i];
    sig.key.args.push_back(kernel_arg_key(kc, p, a, sig));
    sig.spec += sig.spec.empty() ? "" : ", ";
    sig.spec += p.name + ": " + (a.kind() == Value::Kind::Dyn ? std::string(ir::type_name(a.type())) : repr(a));
  }
  // A kernel without parameters has only the launch shape: no leading ", ".
  if (static_block[0]) sig.spec += (sig.spec.empty() ? "block=" : ", block=") + dims_text(static_block);
  if (cluster) sig.spec += (sig.spec.empty() ? "cluster=" : ", cluster=") + dims_text(cluster);
  if (min_blocks_per_mp) sig.spec += ", min_blocks_per_mp=" + std::to_string(min_blocks_per_mp);  // needs a static block: not first
  return sig;
}

KernelKey::Arg Evaluator::kernel_arg_key(const KernelCall& kc, const ast::Param& p, const Value& a, KernelSignature& sig) {
  if (a.kind() == Value::Kind::Tensor) return {tensor_arg_key(kc, p, *a.tensor(), sig)};
  if (a.kind() == Value::Kind::TmaAtom)
    return {"M" + repr(a) + "@" + std::to_string(a.tma()->host_index) + "/" + a.tma()->smem_layout.to_string()};
  if (a.kind() == Value::Kind::Dyn) return {std::string("D") + ir::type_name(a.type())};
  if (a.kind() == Value::Kind::Tuple && holds_kernel_object(a)) {
    // A list or tuple of tensors: specialized on each element, as if passed one by one.
    std::string key = "L(";
    for (const auto& e : a.elts()) key += kernel_arg_key(kc, p, e, sig).text + ",";
    return {key + ")"};
  }
  if (a.kind() == Value::Kind::Tuple && contains_runtime(a)) {
    if (!tuple_passable_to_kernel(a))
      fail(diag::Kind::TypeMismatch, kc.range, "cannot pass " + describe(a) + " to a kernel: tuples may hold numbers only");
    return {"P" + repr(a)};
  }
  if (a.kind() == Value::Kind::Layout && !a.layout().is_static()) {
    auto& d = error(diag::Kind::DynamicLayout, kc.range,
                    "layout argument '" + p.name + "' has run-time extents or strides: " + a.layout().to_string());
    d.note("kernels are specialized on their static arguments; a layout passed by value must be static");
    d.help("pass a tensor instead (its layout's run-time parts travel with it), or build the layout inside the kernel");
    abort_entry();
  }
  if (is_opaque(a)) opaque_use(a, kc.range, false);
  // An instance (a kernel method's `self`): specialized on its class and its static attributes.
  if (a.kind() == Value::Kind::Instance) return {"I" + instance_key(*a.obj())};
  if (a.is_static() && a.kind() != Value::Kind::KernelCall && a.kind() != Value::Kind::Module)
    return {"S" + repr(a), a.kind() == Value::Kind::Function ? a.fn().get() : nullptr};
  fail(diag::Kind::TypeMismatch, kc.range, "cannot pass " + describe(a) + " to a kernel");
}

std::string Evaluator::tensor_arg_key(const KernelCall& kc, const ast::Param& p, const TensorValue& t, KernelSignature& sig) {
  if (t.offset && ir::as_int_const(t.offset).value_or(1) != 0)
    fail(diag::Kind::UnsupportedOperation, kc.range,
         "tensor '" + p.name + "' is a slice that starts inside its tensor: pass the whole tensor and slice it in the kernel");
  std::vector<std::string> leaves;
  collect_leaves(t.layout.shape, leaves);
  collect_leaves(t.layout.stride, leaves);
  for (const auto& l : leaves) {
    auto [it, fresh] = sig.symbol_ids.emplace(l, static_cast<int>(sig.symbol_ids.size()));
    if (fresh) sig.symbol_order.push_back(l);
  }
  // Kernel parameters for a host tensor's strides are named after the
  // kernel's parameter: gA_stride0.
  if (t.layout.stride.is_tuple())
    for (size_t m = 0; m < t.layout.rank(); ++m)
      if (t.layout.stride[m].is_leaf() && !t.layout.stride[m].value().has_value() && t.layout.stride[m].value().symbolic_op() == 0 &&
          t.layout.stride[m].value().symbol_name().find(".stride[") != std::string::npos)
        sig.leaf_hint.emplace(t.layout.stride[m].value().symbol_name(), p.name + "_stride" + std::to_string(m));
  // Leaves are named by first use, with what they are known to divide by: the key says which
  // extents share a symbol, not what the symbols are called.
  std::map<std::string, std::string> ids;
  for (const auto& [l, id] : sig.symbol_ids) {
    ids[l] = "s" + std::to_string(id);
    if (int64_t dv = known_divisor(fn_->symbols.at(l)); dv > 1) ids[l] += "%" + std::to_string(dv);
  }
  return std::string("T") + ir::type_name(t.dtype) + (t.space == MemSpace::Coord ? "C" : "G") + "a" + std::to_string(t.align_bytes) +
         canonical(t.layout.shape, ids) + ":" + canonical(t.layout.stride, ids);
}

std::string Evaluator::kernel_name(const std::string& source_name) {
  // Kernel names are internal: avoid C++ reserved names, host functions and each other.
  std::string base = is_reserved_cpp_name(source_name) ? source_name + "_kernel" : source_name;
  if (base.rfind("__", 0) == 0) base = "k" + base;
  std::string name = base;
  for (int n = 1; kernel_names_.count(name) || host_names_.count(name); ++n) name = base + "_" + std::to_string(n);
  kernel_names_.insert(name);
  return name;
}

int Evaluator::generate_kernel(const KernelCall& kc, const KernelSignature& sig, const int64_t static_block[3], const int64_t cluster[3]) {
  const auto* def = kc.fn->def;
  ir::Kernel k;
  // A method's kernel is named after its class (SGemm_kernel); kernel.set_name_prefix(p) names it p.
  k.name = kernel_name(!kc.fn->name_prefix.empty() ? kc.fn->name_prefix
                       : kc.fn->owner          ? kc.fn->owner->name + "_" + def->name
                                               : def->name);
  k.source_name = def->name;
  k.loc = def->name_range;
  k.specialization = sig.spec;
  k.static_threads = static_block[0] ? static_block[0] * static_block[1] * static_block[2] : 0;
  k.min_blocks_per_mp = sig.key.min_blocks_per_mp;
  FnCtx ctx;
  ctx.is_kernel = true;
  ctx.kernel = &k;
  ctx.locals = &k.locals;
  ctx.blocks = {&k.body};
  for (int d = 0; d < 3; ++d) ctx.static_block[d] = static_block[d];
  if (cluster)
    for (int d = 0; d < 3; ++d) ctx.static_cluster[d] = k.cluster_dims[d] = cluster[d];
  ctx.serial = ++fn_serials_;
  Frame f;
  f.module = kc.fn->module;
  f.def = def;
  f.owner = kc.fn->owner;
  f.is_entry = true;
  f.context = "in kernel '" + def->name + "' launched at line " + std::to_string(sm_.line_col(kc.range.start()).line) + " with " + sig.spec;
  FnCtx* saved = fn_;
  fn_ = &ctx;
  frames_.push_back(&f);
  struct Restore { Evaluator& ev; FnCtx* fn; ~Restore() { ev.fn_ = fn; ev.frames_.pop_back(); } } restore{*this, saved};

  check_def_supported(*def, kc.range);
  // Pointer parameters first, in argument order; layout leaves after.
  for (size_t i = 0; i < def->params.size(); ++i) f.env[def->params[i].name] = Binding{kernel_param_value(kc, i), "", def->params[i].range};
  bind_kernel_leaves(sig);
  // --debug: layout and tensor parameters (a tensor parameter's view is beside its span).
  for (const auto& p : def->params)
    debug_view(p.name, f.env[p.name].value, p.range, f.env[p.name].value.kind() == Value::Kind::Tensor);
  exec_body(def->body);
  auto tile_checks = report_ragged_tiles(ctx, &sig.symbol_order);
  for (auto& p : k.params)
    if (p.is_pointer) p.is_const = !ctx.stored_ptrs.count(p.name);
  k.smem_bytes = ctx.smem_bytes;
  check_smem_limit(ctx, def->name);
  check_barrier_uniformity(k, diags_);
  elect_warp_uniform_tma(k);
  int index = static_cast<int>(program_.kernels.size());
  program_.kernels.push_back(std::move(k));
  kernel_cache_[sig.key] = index;
  if (!tile_checks.empty()) kernel_tile_checks_[index] = {sig.symbol_order, std::move(tile_checks)};
  return index;
}

Value Evaluator::kernel_param_value(const KernelCall& kc, size_t i) {
  const auto& p = kc.fn->def->params[i];
  Value a = i < kc.args.size() ? kc.args[i] : Value{};
  if (i >= kc.args.size()) {
    Frame df;
    df.module = kc.fn->module;
    frames_.push_back(&df);
    a = eval(*p.default_value);
    frames_.pop_back();
  }
  int n = 0;
  return lift_kernel_arg(a, p.name, p.range, a.kind() == Value::Kind::Tuple ? &n : nullptr);
}

Value Evaluator::lift_kernel_arg(const Value& a, const std::string& name, const source::SourceRange& at, int* element) {
  ir::Kernel& k = *fn_->kernel;
  // Elements of a tuple argument are named after it: p_0, p_1, ... (run-time ones only).
  auto param_name = [&] { return unique_name(element ? name + "_" + std::to_string((*element)++) : name); };
  if (a.kind() == Value::Kind::Tensor) {
    auto tv = std::make_shared<TensorValue>(*a.tensor());
    tv->host_index = -1;
    tv->offset = nullptr;
    if (tv->space != MemSpace::Coord) {
      tv->ptr = param_name();
      k.params.push_back({tv->ptr, true, false, tv->dtype});
    } else {
      // An identity tensor made by the host predicates its extents here too (no W0601 for them).
      std::vector<std::string> leaves;
      collect_leaves(tv->layout.shape, leaves);
      fn_->predicated_leaves.insert(leaves.begin(), leaves.end());
    }
    return Value::of(tv);
  }
  if (a.kind() == Value::Kind::TmaAtom) {
    auto t = std::make_shared<TmaAtom>(*a.tma());
    t->param = param_name();
    ir::KernelParam kp{t->param, false, true, ScalarType::Uint8, true};
    k.params.push_back(kp);
    return Value::of(t);
  }
  if (a.kind() == Value::Kind::Dyn) {
    std::string pname = param_name();
    k.params.push_back({pname, false, false, a.type()});
    return Value::dyn(ir::param_ref(pname, a.type()), at);
  }
  if (a.kind() != Value::Kind::Tuple) return a;
  std::vector<Value> xs;
  for (const auto& e : a.elts()) xs.push_back(lift_kernel_arg(e, name, at, element));
  return Value::tuple(std::move(xs));
}

void Evaluator::bind_kernel_leaves(const KernelSignature& sig) {
  FnCtx& ctx = *fn_;
  for (const auto& sym : sig.symbol_order) {
    auto hint = sig.leaf_hint.find(sym);
    std::string sname = unique_name(hint != sig.leaf_hint.end() ? hint->second : readable_leaf(sym));
    ctx.kernel->params.push_back({sname, false, false, ScalarType::Int64});
    ctx.symbols[sym] = ir::param_ref(sname, ScalarType::Int64);
    if (int64_t dv = sig.leaf_divisors.at(sym); dv > 1) ctx.divisors[sname] = dv;
  }
}

bool contains_runtime(const Value& v) {
  if (v.kind() == Value::Kind::Tuple) {
    for (const auto& e : v.elts())
      if (contains_runtime(e)) return true;
    return false;
  }
  return !v.is_static();
}

void Evaluator::check_smem_limit(const FnCtx& ctx, const std::string& kernel) {
  int64_t limit = smem_limit_bytes();
  if (ctx.smem_bytes <= limit) return;
  auto& d = error(diag::Kind::SmemOverLimit, ctx.smem_peak_at,
                  "kernel '" + kernel + "' needs " + std::to_string(ctx.smem_bytes) + " bytes of shared memory, over the " +
                      program_.arch + " limit of " + std::to_string(limit) + " bytes per block");
  d.note("the allocation marked here is the one that goes over " + std::to_string(limit) + " bytes; all of them total " +
         std::to_string(ctx.smem_bytes) + " bytes");
  d.help("use smaller tiles or fewer pipeline stages");
  abort_entry();
}

std::optional<ir::Program> analyze(source::SourceManager& sm, source::FileId main, const Options& opts,
                                   diag::DiagnosticEngine& diags, std::vector<std::string>* dependencies) {
  Evaluator ev(sm, opts, diags);
  return ev.run(main, dependencies);
}

}  // namespace tileslc::sema
