// CuTe DSL's module names, and opaque stand-ins for what tileslc cannot compile.
// `cutlass` is an alias package of `tileslc` (cutlass.cute is tileslc.cute: one
// module object under both names). Host-only Python modules (torch, argparse,
// cuda.bindings.driver, cutlass.cute.testing, ...) import as opaque modules whose
// attributes are opaque again; so do the CuTe DSL modules and names the stdlib
// lacks ("not yet"). Opaque values cost nothing until code uses them: a call, or
// passing one where a value is needed, is E0307 (host-only) or E0308 (not yet),
// located at the use. A host function's `cuda.CUstream` parameter is the one
// opaque value that compiles: the host function's stream.
#include <array>
#include <string_view>

#include "sema/evaluator.h"

namespace tileslc::sema {

namespace {

using Opaque = ModuleValue::Opaque;

/// Python modules that exist only on the host side of a CuTe DSL program: tensor libraries,
/// the CUDA driver bindings, the standard library's process, timing and introspection modules,
/// and CuTe DSL's host utilities (DLPack import, testing and benchmarking, torch helpers).
/// (`math`, `functools` and `operator` are stdlib modules: stdlib/math.tpy, ...; `typing` stays opaque: its
/// names are only annotations here.)
constexpr std::array<std::string_view, 31> kHostOnlyModules = {
    "torch", "numpy", "cupy", "jax", "tvm_ffi", "cuda", "argparse", "time", "typing", "types",
    "inspect", "os", "sys", "random", "itertools", "json", "csv", "pathlib", "subprocess", "warnings", "logging",
    "contextlib", "copy", "pytest", "cutlass.torch", "cutlass.testing", "cutlass.cute.testing",
    "cutlass.cute.runtime", "cutlass.utils.tensor_helpers", "cutlass.cute.export", "cutlass.cutlass_dsl",
};

bool is_host_only(const std::string& dotted) {
  for (std::string_view m : kHostOnlyModules)
    if (dotted == m || (dotted.size() > m.size() && dotted.compare(0, m.size(), m) == 0 && dotted[m.size()] == '.'))
      return true;
  return false;
}

/// The name a user wrote for a stdlib module: tileslc.cute.nvgpu is cutlass.cute.nvgpu in CuTe DSL.
std::string cutlass_name(const std::string& canonical) {
  if (canonical == "tileslc" || canonical.rfind("tileslc.", 0) == 0) return "cutlass" + canonical.substr(7);
  return canonical;
}

}  // namespace

std::string canonical_module_name(const std::string& dotted) {
  if (dotted == "cutlass" || dotted.rfind("cutlass.", 0) == 0) return "tileslc" + dotted.substr(7);
  return dotted;
}

std::shared_ptr<ModuleValue> Evaluator::opaque_module(const std::string& name, Opaque kind, const std::string& from) {
  if (auto it = modules_.find(name); it != modules_.end()) return it->second;
  auto m = std::make_shared<ModuleValue>();
  m->name = name;
  m->opaque = kind;
  m->opaque_from = from;
  modules_[name] = m;
  return m;
}

std::shared_ptr<ModuleValue> Evaluator::import_opaque(const std::string& dotted, const std::string& canonical) {
  if (is_host_only(dotted)) return opaque_module(dotted, Opaque::HostOnly, dotted);
  // A CuTe DSL module the stdlib lacks: cutlass.utils.hopper_helpers is "not yet", not "no such module".
  if (canonical != dotted) return opaque_module(canonical, Opaque::NotYet, dotted);
  return nullptr;
}

Value Evaluator::opaque_attribute(const Value& base, const std::string& attr) {
  // Cached in the parent so that `torch.float16` is one object wherever it is read.
  auto& g = base.module()->globals;
  if (auto it = g.find(attr); it != g.end()) return it->second.value;
  auto child = std::make_shared<ModuleValue>();
  child->name = base.module()->name + "." + attr;
  child->opaque = base.module()->opaque == Opaque::Stream ? Opaque::HostOnly : base.module()->opaque;
  child->opaque_from = base.module()->opaque_from;
  Value v = Value::of(child);
  g[attr] = Binding{v, "", {}};
  return v;
}

Value Evaluator::opaque_decorated(const ast::FunctionDef& d, const Value& decorator) {
  auto m = std::make_shared<ModuleValue>();
  m->name = d.name + " (decorated with @" + opaque_display_name(*decorator.module()) + ")";
  m->opaque = decorator.module()->opaque;
  m->opaque_from = decorator.module()->opaque_from;
  return Value::of(m);
}

std::string opaque_display_name(const ModuleValue& m) { return cutlass_name(m.name); }

std::string describe_opaque(const ModuleValue& m) {
  switch (m.opaque) {
    case Opaque::HostOnly: return "host-only Python object " + m.name + " (module '" + m.opaque_from + "')";
    case Opaque::NotYet: return cutlass_name(m.name) + ", which tileslc does not provide yet";
    case Opaque::Stream: return "the host function's stream " + m.name;
    case Opaque::No: break;
  }
  return "module '" + m.name + "'";
}

Value Evaluator::opaque_call(const Value& callee, source::SourceRange at) {
  const ModuleValue& m = *callee.module();
  if (m.opaque != Opaque::HostOnly || m.opaque_from.rfind("cuda", 0) != 0 || m.name.size() < 9 ||
      m.name.compare(m.name.size() - 9, 9, ".CUstream") != 0)
    opaque_use(callee, at, true);
  return Value::of(opaque_module(m.name + "(...)", Opaque::HostOnly, m.opaque_from));
}

void Evaluator::opaque_use(const Value& v, source::SourceRange at, bool call) {
  const ModuleValue& m = *v.module();
  const std::string where = fn_ ? "it cannot run in a tileslc kernel or @cute.jit function"
                                : "tileslc does not run host-only Python while it compiles a module";
  if (m.opaque == Opaque::NotYet) {
    auto& d = error(diag::Kind::NotYetInTileslc, at,
                    cutlass_name(m.name) + " is CuTe DSL API that tileslc does not provide yet (module '" +
                        cutlass_name(m.name.substr(0, m.name.rfind('.'))) + "')");
    d.note("docs/cute_dsl_compat.md lists CuTe DSL's names and which ones tileslc has");
    abort_entry();
  }
  if (m.opaque == Opaque::Stream) {
    auto& d = error(diag::Kind::HostOnlyUse, at,
                    "'" + m.name + "' is the host function's stream (a cuda.CUstream parameter): only launch(stream=) takes it");
    d.help("pass it to a kernel launch: .launch(..., stream=" + m.name + ")");
    abort_entry();
  }
  auto& d = error(diag::Kind::HostOnlyUse, at,
                  m.name + " is a host-only Python " + (call ? "function" : "value") + " (module '" + m.opaque_from +
                      "'); " + where);
  if (!fn_) d.help("put host-side code under `if __name__ == \"__main__\":`, which tileslc skips");
  else d.help("do this on the host, before calling the compiled function, and pass the result in as a parameter");
  abort_entry();
}

bool Evaluator::bind_host_stream(const ast::Param& p, const Value& ann) {
  if (ann.kind() != Value::Kind::Module || ann.module()->opaque != Opaque::HostOnly ||
      (ann.module()->name != "cuda.bindings.driver.CUstream" && ann.module()->name != "cuda.CUstream"))
    return false;
  auto m = std::make_shared<ModuleValue>();
  m->name = p.name;
  m->opaque = Opaque::Stream;
  m->opaque_from = "cuda.bindings.driver";
  frame().env[p.name] = Binding{Value::of(m), "", p.range};
  return true;
}

}  // namespace tileslc::sema
