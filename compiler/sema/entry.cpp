// Entry points: builds one ir::HostFunction per @cute.jit function of the main
// module (parameters from annotations: tensors with symbolic extents, scalars,
// Constexpr values from -D or defaults), and instantiates kernels at their
// launch sites, one specialization per distinct argument signature (element
// types, ranks, which extents share a symbol, static argument values, static
// block size).
#include <cerrno>
#include <cstdlib>

#include "parse/parse.h"
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

}  // namespace

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
  if (diags_.has_errors()) return std::nullopt;

  for (const auto& [name, b] : m->globals)
    if (b.value.kind == Value::Kind::Function && b.value.fn->kind == FunctionValue::Kind::Jit &&
        b.value.fn->module == m)
      host_names_.insert(name);
  int entries = 0;
  for (const auto& s : m->ast->body) {
    const auto* def = s->as<ast::FunctionDef>();
    if (!def) continue;
    auto it = m->globals.find(def->name);
    if (it == m->globals.end() || it->second.value.kind != Value::Kind::Function) continue;
    auto fn = it->second.value.fn;
    if (fn->def != def || fn->kind != FunctionValue::Kind::Jit) continue;
    ++entries;
    try {
      build_host_function(fn);
    } catch (const AbortEntry&) {
    }
    flush_context();
  }
  if (!diags_.has_errors()) warn_unused_imports(*m);
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

void Evaluator::build_host_function(const std::shared_ptr<FunctionValue>& fn) {
  const auto* def = fn->def;
  // The evaluation budget (E0512) is per entry point: what importing the
  // standard library ran before does not count against it.
  steps_ = 0;
  if (is_reserved_cpp_name(def->name)) {
    auto& d = diags_.report(diag::Kind::BadAnnotation, def->name_range,
                            "host function name '" + def->name + "' is reserved in the generated C++");
    d.help("rename the @cute.jit function: its name is the C++ function callers use");
    return;
  }
  ir::HostFunction hf;
  hf.name = def->name;
  hf.loc = def->name_range;
  FnCtx ctx;
  ctx.host = &hf;
  ctx.locals = &hf.locals;
  ctx.blocks = {&hf.body};
  Frame f;
  f.module = fn->module;
  f.def = def;
  f.is_entry = true;
  frames_.push_back(&f);
  FnCtx* saved = fn_;
  fn_ = &ctx;
  struct Restore { Evaluator& ev; FnCtx* fn; ~Restore() { ev.fn_ = fn; ev.frames_.pop_back(); } } restore{*this, saved};

  std::set<std::string> stride_symbols;  // symbols first bound by a stride
  // Parameters start poisoned: one that fails its annotation check is
  // reported once, and its uses in the body stay quiet.
  for (const auto& p : def->params) f.env[p.name] = Binding{Value{}, "", p.range};
  for (const auto& p : def->params) {
    if (!p.annotation) {
      auto& d = error(diag::Kind::BadAnnotation, p.range,
                      "parameter '" + p.name + "' of host function '" + def->name + "' needs a type annotation");
      d.help("annotate it: " + p.name + ": cute.Tensor[cutlass.Float32, (N,)], " + p.name +
             ": cutlass.Float32 or " + p.name + ": cutlass.Constexpr");
      continue;
    }
    Value ann = eval(*p.annotation);
    if (ann.kind == Value::Kind::ConstexprSpec ||
        (ann.kind == Value::Kind::Builtin && ann.builtin == BuiltinId::ConstexprMarker)) {
      Value v;
      if (auto it = opts_.defines.find(p.name); it != opts_.defines.end()) {
        used_defines_.insert(p.name);
        auto parsed = parse_define(it->second);
        if (!parsed) {
          error(diag::Kind::BadDefine, p.range, "-D " + p.name + "=" + it->second + " is not an int (64-bit), float, bool or quoted string");
          continue;
        }
        v = *parsed;
      } else if (p.default_value) {
        v = eval(*p.default_value);
      } else {
        auto& d = error(diag::Kind::BadDefine, p.range, "Constexpr parameter '" + p.name + "' has no value");
        d.help("give it a default (" + p.name + ": cutlass.Constexpr = 128) or pass -D " + p.name + "=VALUE");
        continue;
      }
      f.env[p.name] = Binding{v, "", p.range};
      continue;
    }
    ir::HostParam hp;
    hp.name = unique_name(p.name);
    hp.loc = p.range;
    if (ann.kind == Value::Kind::Type) {
      hp.kind = ir::HostParam::Scalar;
      hp.type = ann.type;
      if (ir::is_narrow_float(ann.type))
        fail(diag::Kind::BadAnnotation, p.annotation->range,
             std::string("host scalar parameters of type ") + ir::type_name(ann.type) + " are not supported; use cutlass.Float32");
      f.env[p.name] = Binding{Value::dyn(ir::param_ref(hp.name, ann.type), p.range), "", p.range};
      hf.params.push_back(std::move(hp));
      continue;
    }
    if (ann.kind == Value::Kind::TensorSpec) {
      const auto& spec = *ann.spec;
      if (!spec.has_dims || spec.dims.empty()) {
        auto& d = error(diag::Kind::BadAnnotation, p.annotation->range,
                        "tensor parameter '" + p.name + "' of a host function needs its element type and at least one extent");
        d.help("e.g. " + p.name + ": cute.Tensor[cutlass.Float32, (M, N)] with M = cute.sym_int(\"M\") at module level");
        continue;
      }
      hp.kind = ir::HostParam::Tensor;
      hp.type = spec.dtype;
      hp.align_bytes = spec.align;
      int index = static_cast<int>(hf.params.size());
      auto tv = std::make_shared<TensorValue>();
      tv->dtype = spec.dtype;
      tv->host_index = index;
      tv->align_bytes = spec.align ? spec.align : std::max(1, ir::bit_width(spec.dtype) / 8);
      std::vector<layout::IntTuple> shape, stride;
      auto bind_symbol = [&](const Value& d, int mode, bool is_stride) {
        std::string local = unique_name(d.s);
        ctx.symbols[d.s] = ir::param_ref(local, ScalarType::Int64);
        if (d.i > 1) ctx.divisors[local] = d.i;
        ir::SymbolBinding sb{d.s, index, mode, local};
        sb.is_stride = is_stride;
        hf.symbols.push_back(sb);
        if (d.i > 1) {
          auto c = ir::make_stmt(ir::StmtKind::Check, p.range);
          c->a = ir::binary(ir::Op::Eq, ir::binary(ir::Op::TruncMod, ctx.symbols[d.s], ir::int_const(d.i, ScalarType::Int64), ScalarType::Int64),
                            ir::int_const(0, ScalarType::Int64), ScalarType::Boolean);
          c->message = def->name + ": " + d.s + " (" + (is_stride ? "stride " : "extent ") + std::to_string(mode) + " of " + p.name +
                       ") must be a multiple of " + std::to_string(d.i);
          c->b = ctx.symbols[d.s];
          emit(std::move(c));
        }
      };
      for (size_t m = 0; m < spec.dims.size(); ++m) {
        const Value& d = *spec.dims[m];
        ir::HostDim hd;
        if (d.kind == Value::Kind::Int) {
          hd.is_static = true;
          hd.value = d.i;
          shape.push_back(layout::Int(d.i));
        } else {
          hd.symbol = d.s;
          if (!ctx.symbols.count(d.s)) {
            bind_symbol(d, static_cast<int>(m), false);
          } else if (stride_symbols.count(d.s)) {
            auto c = ir::make_stmt(ir::StmtKind::Check, p.range);
            c->a = ir::binary(ir::Op::Eq, ir::tensor_extent(index, static_cast<int>(m)), ctx.symbols[d.s], ScalarType::Boolean);
            c->message = def->name + ": " + p.name + ".shape[" + std::to_string(m) + "] must be " + d.s;
            c->b = ir::tensor_extent(index, static_cast<int>(m));
            emit(std::move(c));
          }
          shape.push_back(layout::Int::symbol(d.s));
        }
        hp.dims.push_back(hd);
      }
      for (size_t m = 0; m < spec.dims.size(); ++m) {
        const Value* st = spec.strides.empty() ? nullptr : spec.strides[m].get();
        auto want = [&](ir::ExprRef expect, const std::string& what) {
          auto c = ir::make_stmt(ir::StmtKind::Check, p.range);
          c->a = ir::binary(ir::Op::Eq, ir::tensor_stride(index, static_cast<int>(m)), expect, ScalarType::Boolean);
          c->message = def->name + ": " + p.name + ".stride[" + std::to_string(m) + "] must be " + what;
          c->b = ir::tensor_stride(index, static_cast<int>(m));
          emit(std::move(c));
        };
        if (st && st->kind == Value::Kind::Int) {
          want(ir::int_const(st->i, ScalarType::Int64), std::to_string(st->i));
          stride.push_back(layout::Int(st->i));
        } else if (st && st->kind == Value::Kind::SymDim) {
          if (ctx.symbols.count(st->s)) want(ctx.symbols[st->s], st->s);
          else {
            bind_symbol(*st, static_cast<int>(m), true);
            stride_symbols.insert(st->s);
          }
          stride.push_back(layout::Int::symbol(st->s));
        } else {
          std::string leaf = p.name + ".stride[" + std::to_string(m) + "]";
          ctx.symbols[leaf] = ir::tensor_stride(index, static_cast<int>(m));
          stride.push_back(layout::Int::symbol(leaf));
        }
      }
      tv->layout = layout::make_layout(layout::IntTuple::tuple(shape), layout::IntTuple::tuple(stride));
      Value v;
      v.kind = Value::Kind::Tensor;
      v.tensor = tv;
      f.env[p.name] = Binding{v, "", p.range};
      hf.params.push_back(std::move(hp));
      continue;
    }
    auto& d = error(diag::Kind::BadAnnotation, p.annotation->range,
                    "unsupported annotation for host parameter '" + p.name + "': " + describe(ann));
    d.help("use cute.Tensor[dtype, (extents...)], a scalar type such as cutlass.Float32, or cutlass.Constexpr");
  }
  exec_body(def->body);
  report_ragged_tiles(ctx);
  program_.host_functions.push_back(std::move(hf));
}

void Evaluator::launch(const KernelCall& kc, std::vector<std::pair<std::string, Value>> kwargs, const ast::Call& site) {
  if (!fn_ || fn_->is_kernel) fail(diag::Kind::BadLaunch, site.range, "kernels are launched from @cute.jit host functions");
  std::optional<Value> grid, block, smem, cluster;
  for (auto& [k, v] : kwargs) {
    if (k == "grid") grid = v;
    else if (k == "block") block = v;
    else if (k == "cluster") cluster = v;
    else if (k == "smem") smem = v;
    else if (k == "stream")
      fail(diag::Kind::BadLaunch, site.range, "launch(stream=...) is not supported yet: launches use the host function's stream parameter");
    else {
      // Reported, then ignored: the kernel itself is still checked.
      auto& d = error(diag::Kind::UnknownKeyword, site.range, ".launch() got an unexpected keyword argument '" + k + "'");
      d.help("launch takes grid=, block=, smem= and cluster=");
    }
  }
  if (!grid || !block) {
    auto& d = error(diag::Kind::BadLaunch, site.range, std::string(".launch() needs ") + (!grid ? "grid=" : "block=") + "(x, y, z)");
    d.help("e.g. .launch(grid=(cute.ceil_div(N, 256), 1, 1), block=(256, 1, 1))");
    abort_entry();
  }
  auto kw_range = [&](const std::string& name) {
    for (const auto& k : site.keywords)
      if (k.name == name) return k.value->range;
    return site.range;
  };
  auto dims3 = [&](const Value& v, const char* what) {
    source::SourceRange at = kw_range(what);
    std::vector<Value> xs = v.kind == Value::Kind::Tuple ? *v.elts : std::vector<Value>{v};
    if (xs.empty() || xs.size() > 3)
      fail(diag::Kind::BadLaunch, at, std::string(what) + " must have 1 to 3 dimensions");
    while (xs.size() < 3) xs.push_back(Value::integer(1));
    for (auto& x : xs) {
      x = resolve_symbol(x, at);
      if (!(x.kind == Value::Kind::Int || (x.kind == Value::Kind::Dyn && ir::is_integer(x.type))))
        fail(diag::Kind::BadLaunch, at, std::string(what) + " dimensions must be integers, found " + describe(x));
      if (x.kind == Value::Kind::Int && x.i <= 0)
        fail(diag::Kind::BadLaunch, at, std::string(what) + " dimensions must be positive, found " + std::to_string(x.i));
    }
    return xs;
  };
  auto g = dims3(*grid, "grid");
  auto b = dims3(*block, "block");
  int64_t static_block[3] = {0, 0, 0};
  bool block_static = true;
  for (int k = 0; k < 3; ++k) {
    if (b[k].kind == Value::Kind::Int) static_block[k] = b[k].i;
    else block_static = false;
  }
  if (block_static) {
    int64_t threads = static_block[0] * static_block[1] * static_block[2];
    if (threads > 1024 || static_block[2] > 64) {
      std::string dims = std::to_string(static_block[0]) + "x" + std::to_string(static_block[1]) + "x" + std::to_string(static_block[2]);
      auto& d = error(diag::Kind::BlockTooLarge, kw_range("block"),
                      threads > 1024 ? "block of " + dims + " = " + std::to_string(threads) +
                                           " threads is over the limit of 1024 threads per block"
                                     : "block of " + dims + " has z = " + std::to_string(static_block[2]) +
                                           ", over the limit of 64");
      d.note("CUDA limits a block to 1024 threads, and block z to 64");
      abort_entry();
    }
  } else {
    for (auto& x : static_block) x = 0;
  }
  int64_t static_cluster[3] = {0, 0, 0};  // 0: launched without cluster=
  if (cluster) check_cluster(*cluster, g, kw_range("cluster"), static_cluster);
  if (smem) {
    Value sm = resolve_symbol(*smem, kw_range("smem"));
    if (!(sm.kind == Value::Kind::Int || (sm.kind == Value::Kind::Dyn && ir::is_integer(sm.type))))
      fail(diag::Kind::BadLaunch, kw_range("smem"), "smem must be an integer number of bytes, found " + describe(sm));
    if (sm.kind == Value::Kind::Int && sm.i < 0)
      fail(diag::Kind::BadLaunch, kw_range("smem"), "smem must not be negative, found " + std::to_string(sm.i) + " bytes");
  }
  auto info = std::make_unique<ir::LaunchInfo>();
  info->kernel = instantiate_kernel(kc, static_block, &info->args, static_cluster);
  for (int k = 0; k < 3; ++k) {
    info->grid[k] = to_expr_as(g[k], ScalarType::Int64, site.range);
    info->block[k] = to_expr_as(b[k], ScalarType::Int64, site.range);
    if (static_cluster[0]) info->cluster[k] = ir::int_const(static_cluster[k], ScalarType::Int64);
  }
  // The kernel's own allocations (SmemAllocator) come first; smem= adds to them.
  Value smem_total = Value::integer(program_.kernels.at(info->kernel).smem_bytes);
  if (smem) smem_total = eval_binop(ast::BinOpKind::Add, smem_total, resolve_symbol(*smem, kw_range("smem")), site.range, site.range);
  info->smem = to_expr_as(smem_total, ScalarType::Int64, site.range);
  auto s = ir::make_stmt(ir::StmtKind::Launch, site.range);
  s->launch = std::move(info);
  emit(std::move(s));
}

void Evaluator::check_kernel_annotations(const KernelCall& kc) {
  // Annotated kernel parameters (cute.Tensor[dtype, (dims...)]) are checked
  // against the launch's arguments; the annotation's symbols unify with the
  // arguments' extents, so passing an (M, K) tensor where (K, N) is expected
  // fails here, at compile time.
  const auto* def = kc.fn->def;
  std::map<std::string, std::pair<std::string, size_t>> unified;  // kernel symbol -> (argument extent, param index)
  for (size_t i = 0; i < def->params.size() && i < kc.args.size(); ++i) {
    const auto& p = def->params[i];
    if (!p.annotation) continue;
    Frame af;
    af.module = kc.fn->module;
    frames_.push_back(&af);
    Value ann = eval(*p.annotation);
    frames_.pop_back();
    const Value& a = kc.args[i];
    if (ann.kind == Value::Kind::Builtin && ann.builtin == BuiltinId::TensorType) {
      if (a.kind != Value::Kind::Tensor) {
        auto& d = error(diag::Kind::TypeMismatch, kc.range, "kernel parameter '" + p.name + "' expects a tensor, found " + describe(a));
        d.label(p.range, "parameter declared here");
        abort_entry();
      }
      continue;
    }
    if (ann.kind != Value::Kind::TensorSpec) continue;
    if (a.kind != Value::Kind::Tensor) {
      auto& d = error(diag::Kind::TypeMismatch, kc.range, "kernel parameter '" + p.name + "' expects a tensor, found " + describe(a));
      d.label(p.annotation->range, "declared here");
      abort_entry();
    }
    const auto& spec = *ann.spec;
    const auto& t = *a.tensor;
    if (spec.dtype != t.dtype) {
      auto& d = error(diag::Kind::TensorDtypeMismatch, kc.range,
                      "kernel parameter '" + p.name + "' expects a " + ir::type_name(spec.dtype) + " tensor, found " + repr(a));
      d.label(p.annotation->range, "declared here");
      abort_entry();
    }
    if (!spec.has_dims) continue;
    if (spec.dims.size() != t.layout.rank()) {
      auto& d = error(diag::Kind::RankMismatch, kc.range,
                      "kernel parameter '" + p.name + "' expects a rank-" + std::to_string(spec.dims.size()) + " tensor, found " + repr(a));
      d.label(p.annotation->range, "declared here");
      abort_entry();
    }
    for (size_t m = 0; m < spec.dims.size(); ++m) {
      std::string arg_dim = t.layout.shape[m].to_string();
      const Value& want = *spec.dims[m];
      if (want.kind == Value::Kind::Int) {
        if (arg_dim != std::to_string(want.i)) {
          auto& d = error(diag::Kind::ShapeMismatch, kc.range,
                          "extent " + std::to_string(m) + " of '" + p.name + "' must be " + std::to_string(want.i) + ", found " + arg_dim);
          d.label(p.annotation->range, "declared here");
          abort_entry();
        }
        continue;
      }
      auto [it, fresh] = unified.emplace(want.s, std::make_pair(arg_dim, i));
      if (!fresh && it->second.first != arg_dim) {
        const auto& first = def->params[it->second.second];
        auto& d = error(diag::Kind::ShapeMismatch, kc.range,
                        "kernel '" + def->name + "' needs one extent '" + want.s + "' for '" + first.name + "' and '" +
                            p.name + "', but the arguments give " + it->second.first + " and " + arg_dim);
        d.label(first.annotation->range, "'" + want.s + "' is " + it->second.first + " here");
        d.label(p.annotation->range, "and " + arg_dim + " here");
        d.note("the arguments are " + repr(kc.args[it->second.second]) + " and " + repr(a));
        abort_entry();
      }
    }
  }
}

int Evaluator::instantiate_kernel(const KernelCall& kc, const int64_t static_block[3], std::vector<ir::ExprRef>* host_args,
                                  const int64_t static_cluster[3]) {
  const auto* def = kc.fn->def;
  if (kc.args.size() > def->params.size()) {
    auto& d = error(diag::Kind::WrongArity, kc.range,
                    "kernel '" + def->name + "' takes " + std::to_string(def->params.size()) + " arguments, " +
                        std::to_string(kc.args.size()) + " given");
    d.label(def->name_range, "kernel declared here");
    abort_entry();
  }
  check_kernel_annotations(kc);
  // The signature: what specializes the kernel, and what the host passes.
  std::string key = def->name + "@" + std::to_string(reinterpret_cast<uintptr_t>(def)) + "|block=" +
                    std::to_string(static_block[0]) + "," + std::to_string(static_block[1]) + "," + std::to_string(static_block[2]);
  // A cluster launch specializes too (cluster_dim() is static, multicast masks are checked against it).
  const bool clustered = static_cluster && static_cluster[0] > 0;
  if (clustered)
    key += "|cluster=" + std::to_string(static_cluster[0]) + "," + std::to_string(static_cluster[1]) + "," + std::to_string(static_cluster[2]);
  std::map<std::string, int> symbol_ids;
  std::vector<std::string> symbol_order;  // run-time layout leaves, in first-use order
  std::map<std::string, std::string> leaf_hint;  // leaf -> kernel parameter name
  std::string spec;
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
    key += "|";
    spec += spec.empty() ? "" : ", ";
    spec += p.name + ": ";
    if (a.kind == Value::Kind::Tensor) {
      const auto& t = *a.tensor;
      if (t.offset && ir::as_int_const(t.offset).value_or(1) != 0)
        fail(diag::Kind::UnsupportedOperation, kc.range,
             "tensor '" + p.name + "' is a slice that starts inside its tensor: pass the whole tensor and slice it in the kernel");
      std::vector<std::string> leaves;
      collect_leaves(t.layout.shape, leaves);
      collect_leaves(t.layout.stride, leaves);
      for (const auto& l : leaves) {
        auto [it, fresh] = symbol_ids.emplace(l, static_cast<int>(symbol_ids.size()));
        if (fresh) symbol_order.push_back(l);
      }
      // Kernel parameters for a host tensor's strides are named after the
      // kernel's parameter: gA_stride0.
      if (t.layout.stride.is_tuple())
        for (size_t m = 0; m < t.layout.rank(); ++m)
          if (t.layout.stride[m].is_leaf() && !t.layout.stride[m].value().has_value() &&
              t.layout.stride[m].value().symbolic_op() == 0 &&
              t.layout.stride[m].value().symbol_name().find(".stride[") != std::string::npos)
            leaf_hint.emplace(t.layout.stride[m].value().symbol_name(), p.name + "_stride" + std::to_string(m));
      std::map<std::string, std::string> ids;
      for (const auto& [l, id] : symbol_ids) {
        ids[l] = "s" + std::to_string(id);
        if (int64_t dv = known_divisor(fn_->symbols.at(l)); dv > 1) ids[l] += "%" + std::to_string(dv);
      }
      key += std::string("T") + ir::type_name(t.dtype) + (t.space == MemSpace::Coord ? "C" : "G") + "a" +
             std::to_string(t.align_bytes) + canonical(t.layout.shape, ids) + ":" + canonical(t.layout.stride, ids);
      spec += repr(a);
    } else if (a.kind == Value::Kind::TmaAtom) {
      key += "M" + repr(a) + "@" + std::to_string(a.tma->host_index) + "/" + a.tma->smem_layout.to_string();
      spec += repr(a);
    } else if (a.kind == Value::Kind::Dyn) {
      key += std::string("D") + ir::type_name(a.type);
      spec += ir::type_name(a.type);
    } else if (a.kind == Value::Kind::Tuple && contains_runtime(a)) {
      std::function<bool(const Value&)> ok = [&](const Value& x) {
        if (x.kind == Value::Kind::Tuple) {
          for (const auto& e : *x.elts)
            if (!ok(e)) return false;
          return true;
        }
        return x.kind == Value::Kind::Dyn || (x.is_static() && x.kind != Value::Kind::Layout);
      };
      if (!ok(a)) fail(diag::Kind::TypeMismatch, kc.range, "cannot pass " + describe(a) + " to a kernel: tuples may hold numbers only");
      key += "P" + repr(a);
      spec += repr(a);
    } else if (a.kind == Value::Kind::Layout && !a.layout->is_static()) {
      auto& d = error(diag::Kind::DynamicLayout, kc.range,
                      "layout argument '" + p.name + "' has run-time extents or strides: " + a.layout->to_string());
      d.note("kernels are specialized on their static arguments; a layout passed by value must be static");
      d.help("pass a tensor instead (its layout's run-time parts travel with it), or build the layout inside the kernel");
      abort_entry();
    } else if (a.is_static() && a.kind != Value::Kind::KernelCall && a.kind != Value::Kind::Module) {
      key += "S" + repr(a);
      if (a.kind == Value::Kind::Function) key += std::to_string(reinterpret_cast<uintptr_t>(a.fn.get()));
      spec += repr(a);
    } else {
      fail(diag::Kind::TypeMismatch, kc.range, "cannot pass " + describe(a) + " to a kernel");
    }
  }
  if (static_block[0]) spec += ", block=(" + std::to_string(static_block[0]) + ", " + std::to_string(static_block[1]) + ", " +
                               std::to_string(static_block[2]) + ")";
  if (clustered)
    spec += ", cluster=(" + std::to_string(static_cluster[0]) + ", " + std::to_string(static_cluster[1]) + ", " +
            std::to_string(static_cluster[2]) + ")";

  // Host-side arguments, in kernel parameter order: per tensor its data
  // pointer, per dynamic scalar its value, then the layouts' run-time leaves.
  for (size_t i = 0; i < kc.args.size(); ++i) {
    const Value& a = kc.args[i];
    if (a.kind == Value::Kind::Tensor) {
      if (a.tensor->space != MemSpace::Coord) host_args->push_back(ir::tensor_data(a.tensor->host_index, a.tensor->dtype));
    } else if (a.kind == Value::Kind::TmaAtom) {
      // tileslc::make_tma_descriptor(&arg, tensor, function, param, inner_mode, box_inner, box_outer, swizzle_bytes)
      const TmaAtom& t = *a.tma;
      auto c = [](int64_t x) { return ir::int_const(x, ScalarType::Int32); };
      host_args->push_back(ir::intrinsic(ir::Intrinsic::MakeTmaDescriptor, {},
                                         {ir::tensor_data(t.host_index, t.dtype), c(t.inner_mode),
                                          c(t.tile[t.inner_mode]), c(t.tile[1 - t.inner_mode]), c(t.swizzle_bytes)},
                                         ScalarType::Uint8));
    } else if (a.kind == Value::Kind::Dyn) {
      host_args->push_back(a.expr);
    } else if (a.kind == Value::Kind::Tuple) {
      // A tuple with run-time elements (a tensor's shape): one parameter each.
      std::function<void(const Value&)> lift = [&](const Value& x) {
        if (x.kind == Value::Kind::Tuple) for (const auto& e : *x.elts) lift(e);
        else if (x.kind == Value::Kind::Dyn) host_args->push_back(x.expr);
      };
      lift(a);
    }
  }
  for (const auto& sym : symbol_order) host_args->push_back(fn_->symbols.at(sym));
  std::map<std::string, int64_t> leaf_divisors;
  for (const auto& sym : symbol_order) leaf_divisors[sym] = known_divisor(fn_->symbols.at(sym));

  if (auto it = kernel_cache_.find(key); it != kernel_cache_.end()) return it->second;

  // Generate the specialized body.
  ir::Kernel k;
  // Kernel names are internal: avoid C++ reserved names, host functions and each other.
  std::string base = is_reserved_cpp_name(def->name) ? def->name + "_kernel" : def->name;
  if (base.rfind("__", 0) == 0) base = "k" + base;
  std::string name = base;
  for (int n = 1; kernel_names_.count(name) || host_names_.count(name); ++n) name = base + "_" + std::to_string(n);
  kernel_names_.insert(name);
  k.name = name;
  k.source_name = def->name;
  k.loc = def->name_range;
  k.specialization = spec;
  k.static_threads = static_block[0] ? static_block[0] * static_block[1] * static_block[2] : 0;
  FnCtx ctx;
  ctx.is_kernel = true;
  ctx.kernel = &k;
  ctx.locals = &k.locals;
  ctx.blocks = {&k.body};
  for (int d = 0; d < 3; ++d) ctx.static_block[d] = static_block[d];
  if (clustered)
    for (int d = 0; d < 3; ++d) ctx.static_cluster[d] = k.cluster_dims[d] = static_cluster[d];
  Frame f;
  f.module = kc.fn->module;
  f.def = def;
  f.is_entry = true;
  {
    auto lc = sm_.line_col(kc.range.start());
    f.context = "in kernel '" + def->name + "' launched at line " + std::to_string(lc.line) + " with " + spec;
  }
  FnCtx* saved = fn_;
  fn_ = &ctx;
  frames_.push_back(&f);
  struct Restore { Evaluator& ev; FnCtx* fn; ~Restore() { ev.fn_ = fn; ev.frames_.pop_back(); } } restore{*this, saved};

  // Pointer parameters first, in argument order; layout leaves after.
  for (size_t i = 0; i < def->params.size(); ++i) {
    const auto& p = def->params[i];
    Value a = i < kc.args.size() ? kc.args[i] : Value{};
    if (i >= kc.args.size()) {
      Frame df;
      df.module = kc.fn->module;
      frames_.push_back(&df);
      a = eval(*p.default_value);
      frames_.pop_back();
    }
    if (a.kind == Value::Kind::Tensor) {
      auto tv = std::make_shared<TensorValue>(*a.tensor);
      tv->host_index = -1;
      tv->offset = nullptr;
      if (tv->space != MemSpace::Coord) {
        tv->ptr = unique_name(p.name);
        k.params.push_back({tv->ptr, true, false, tv->dtype});
      }
      Value v;
      v.kind = Value::Kind::Tensor;
      v.tensor = tv;
      f.env[p.name] = Binding{v, "", p.range};
    } else if (a.kind == Value::Kind::TmaAtom) {
      auto t = std::make_shared<TmaAtom>(*a.tma);
      t->param = unique_name(p.name);
      ir::KernelParam kp{t->param, false, true, ScalarType::Uint8, true};
      k.params.push_back(kp);
      Value v = a;
      v.tma = t;
      f.env[p.name] = Binding{v, "", p.range};
    } else if (a.kind == Value::Kind::Dyn) {
      std::string pname = unique_name(p.name);
      k.params.push_back({pname, false, false, a.type});
      f.env[p.name] = Binding{Value::dyn(ir::param_ref(pname, a.type), p.range), "", p.range};
    } else if (a.kind == Value::Kind::Tuple) {
      int n = 0;
      std::function<Value(const Value&)> lift = [&](const Value& x) -> Value {
        if (x.kind == Value::Kind::Tuple) {
          std::vector<Value> xs;
          for (const auto& e : *x.elts) xs.push_back(lift(e));
          return Value::tuple(std::move(xs));
        }
        if (x.kind != Value::Kind::Dyn) return x;
        std::string pname = unique_name(p.name + "_" + std::to_string(n++));
        k.params.push_back({pname, false, false, x.type});
        return Value::dyn(ir::param_ref(pname, x.type), p.range);
      };
      f.env[p.name] = Binding{lift(a), "", p.range};
    } else {
      f.env[p.name] = Binding{a, "", p.range};
    }
  }
  for (const auto& sym : symbol_order) {
    auto hint = leaf_hint.find(sym);
    std::string readable = sym;  // "mA.stride[0]" -> "mA_stride0"
    if (auto at = readable.find(".stride["); at != std::string::npos && readable.back() == ']')
      readable = readable.substr(0, at) + "_stride" + readable.substr(at + 8, readable.size() - at - 9);
    std::string sname = unique_name(hint != leaf_hint.end() ? hint->second : readable);
    k.params.push_back({sname, false, false, ScalarType::Int64});
    ctx.symbols[sym] = ir::param_ref(sname, ScalarType::Int64);
    if (leaf_divisors[sym] > 1) ctx.divisors[sname] = leaf_divisors[sym];
  }
  exec_body(def->body);
  report_ragged_tiles(ctx);
  for (auto& p : k.params)
    if (p.is_pointer) p.is_const = !ctx.stored_ptrs.count(p.name);
  k.smem_bytes = ctx.smem_bytes;
  check_smem_limit(ctx, def->name);
  int index = static_cast<int>(program_.kernels.size());
  program_.kernels.push_back(std::move(k));
  kernel_cache_[key] = index;
  return index;
}

void Evaluator::report_ragged_tiles(const FnCtx& ctx) {
  std::set<std::string> said;
  for (const auto& rt : ctx.ragged_tiles) {
    if (ctx.predicated_leaves.count(rt.leaf) || !said.insert(rt.extent + "/" + std::to_string(rt.tile)).second) continue;
    auto& d = diags_.report(diag::Kind::TilerMayNotDivide, rt.at,
                            "tile extent " + std::to_string(rt.tile) + " may not divide the run-time extent " + rt.extent +
                                ": the last tile would reach past the tensor");
    d.help("declare the extent's divisibility (cute.sym_int(\"" + rt.leaf + "\", divisibility=" + std::to_string(rt.tile) +
           ")), which the host function checks, launch this tile only under `if " + rt.leaf + " % " + std::to_string(rt.tile) +
           " == 0:`, or predicate the edge with cute.make_identity_tensor and cute.elem_less");
  }
}

bool contains_runtime(const Value& v) {
  if (v.kind == Value::Kind::Tuple) {
    for (const auto& e : *v.elts)
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
