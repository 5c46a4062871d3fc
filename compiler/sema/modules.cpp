// Module loading: resolves dotted names to .tpy files (the importing file's
// directory, -I directories, then the stdlib), parses them, and runs their
// bodies at compile time. Each stdlib module starts with the builtins whose
// builtins.def Name places them there (bind_registry_names); `tileslc._builtins`
// is native and holds the scalar types and every builtin by its Export name.
#include <filesystem>

#include "parse/parse.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace fs = std::filesystem;

std::shared_ptr<ModuleValue> Evaluator::builtins_module() {
  if (builtins_) return builtins_;
  auto m = std::make_shared<ModuleValue>();
  m->name = "tileslc._builtins";
  auto add = [&](const char* name, Value v) { m->globals[name] = Binding{std::move(v), "", {}}; };
  for (size_t i = 0; i < static_cast<size_t>(ir::ScalarType::Count_); ++i) {
    auto t = static_cast<ir::ScalarType>(i);
    add(ir::type_name(t), Value::scalar_type(t));
  }
  for (const auto& info : builtin_table())
    if (!info.is_method) add(info.export_name, Value::make_builtin(info.id));
  builtins_ = m;
  return m;
}

void Evaluator::bind_registry_names(ModuleValue& m) {
  // The stdlib's tileslc.cute.arch is what users write as cute.arch (import tileslc.cute as cute,
  // import tileslc as cutlass): a row named "cute.arch.thread_idx" lands there as thread_idx.
  // Python's standard-library modules the stdlib provides (stdlib/math.tpy) keep their names: "math.ceil".
  std::string user = m.name == "tileslc" ? "cutlass"
                     : m.name.rfind("tileslc.cute", 0) == 0 ? "cute" + m.name.substr(std::string("tileslc.cute").size())
                     : m.name.rfind("tileslc.", 0) == 0     ? "cutlass" + m.name.substr(std::string("tileslc").size())
                                                            : m.name;
  if (user.empty()) return;
  for (const auto& info : builtin_table()) {
    if (info.is_method) continue;
    std::string_view name = info.name;
    auto dot = name.rfind('.');
    if (dot == std::string_view::npos || name.substr(0, dot) != user) continue;
    m.globals[std::string(name.substr(dot + 1))] = Binding{Value::make_builtin(info.id), "", {}};
  }
}

std::shared_ptr<ModuleValue> Evaluator::import_module(const std::string& written, source::SourceRange at, bool quiet) {
  if (written == "tileslc._builtins") return builtins_module();
  // CuTe DSL's `cutlass.cute` is our `tileslc.cute`: one module object under both names.
  const std::string dotted = canonical_module_name(written);
  if (auto it = modules_.find(dotted); it != modules_.end()) return it->second;  // loading: partial, as Python
  if (auto it = modules_.find(written); it != modules_.end()) return it->second;  // an opaque one

  // Parents first, as Python does: `import a.b` runs a/__init__ then a/b.
  std::shared_ptr<ModuleValue> parent;
  auto dot = dotted.rfind('.');
  if (dot != std::string::npos) {
    parent = import_module(written.substr(0, written.rfind('.')), at, quiet);
    if (!parent) return nullptr;  // already reported for the parent
  }
  auto bind_in_parent = [&](const std::shared_ptr<ModuleValue>& m) {
    if (parent) parent->globals[dotted.substr(dot + 1)] = Binding{Value::of(m), "", at};
    return m;
  };
  // Below an opaque module everything is opaque (torch.nn.functional); host-only modules are never
  // looked for on disk.
  if (parent && parent->opaque != ModuleValue::Opaque::No)
    return bind_in_parent(parent->opaque == ModuleValue::Opaque::NotYet
                              ? opaque_module(dotted, parent->opaque, parent->opaque_from)
                              : opaque_module(written, parent->opaque, written));
  if (auto m = import_opaque(written, dotted); m && m->opaque == ModuleValue::Opaque::HostOnly) return bind_in_parent(m);

  fs::path rel;
  {
    std::string p = dotted;
    for (auto& ch : p)
      if (ch == '.') ch = '/';
    rel = p;
  }
  std::vector<fs::path> roots;
  if (at.valid()) roots.push_back(fs::path(sm_.file(at.file).path()).parent_path());
  for (const auto& d : opts_.include_dirs) roots.push_back(d);
  if (!opts_.stdlib_dir.empty()) roots.push_back(opts_.stdlib_dir);
  fs::path found;
  for (const auto& root : roots) {
    // A CuTe DSL .py module is found like a .tpy one; in one directory the .tpy wins.
    for (const auto& cand : {root / rel.string().append(".tpy"), root / rel / "__init__.tpy", root / rel.string().append(".py"),
                             root / rel / "__init__.py"}) {
      std::error_code ec;
      if (fs::is_regular_file(cand, ec)) {
        found = cand;
        break;
      }
    }
    if (!found.empty()) break;
  }
  if (found.empty()) {
    if (auto m = import_opaque(written, dotted)) return bind_in_parent(m);  // CuTe DSL API not in the stdlib yet
    if (quiet) return nullptr;
    auto& d = error(diag::Kind::ModuleNotFound, at, "no module named '" + dotted + "'");
    std::string where;
    for (const auto& r : roots) where += (where.empty() ? "" : ", ") + (r.empty() ? std::string(".") : r.string());
    d.note("searched " + where);
    return nullptr;
  }
  std::string err;
  auto fid = sm_.load_file(found.lexically_normal().string(), &err);
  if (!fid) {
    error(diag::Kind::CannotReadFile, at, err);
    return nullptr;
  }
  if (deps_) deps_->push_back(found.lexically_normal().string());
  auto m = std::make_shared<ModuleValue>();
  m->name = dotted;
  m->file = *fid;
  modules_[dotted] = m;
  if (!opts_.stdlib_dir.empty() && found.lexically_normal().string().rfind(fs::path(opts_.stdlib_dir).lexically_normal().string(), 0) == 0)
    bind_registry_names(*m);
  const size_t errors_before = diags_.error_count(), reported_before = diags_.diagnostics().size();
  m->ast = std::make_unique<ast::Module>(parse::parse_file(sm_, *fid, diags_));
  if (diags_.error_count() != errors_before) {
    // A module that does not parse is not imported: its syntax errors say where the import is
    // (they come first: no follow-on "cannot import name" for names it would have defined),
    // and every later import of it is quiet, as the names it binds are.
    for (size_t i = reported_before; i < diags_.diagnostics().size(); ++i)
      if (at.valid()) diags_.diagnostic(i).note("in module '" + dotted + "', imported here", at);
    modules_[dotted] = nullptr;
    return nullptr;
  }
  exec_module_body(m, at);
  return bind_in_parent(m);
}

void Evaluator::exec_module_body(const std::shared_ptr<ModuleValue>& m, source::SourceRange imported_at) {
  Frame f;
  f.module = m;
  f.is_module = true;
  f.call_site = imported_at;
  m->loading = true;
  frames_.push_back(&f);
  FnCtx* saved_fn = fn_;
  fn_ = nullptr;  // no run-time code at module level
  // Module code runs as Python runs it on import: `if __name__ == "__main__":` is skipped. The compiled
  // file is compiled, not run as a script, so its __name__ is its stem too.
  std::string name = m->name;
  if (name == "__main__") name = fs::path(sm_.file(m->file).path()).stem().string();
  m->globals["__name__"] = Binding{Value::str(name), "", {}};
  try {
    exec_body(m->ast->body);
  } catch (const AbortEntry&) {
  }
  flush_context();
  fn_ = saved_fn;
  frames_.pop_back();
  m->loading = false;
}

}  // namespace tileslc::sema
