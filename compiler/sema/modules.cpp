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
  std::string user = m.name == "tileslc" ? "cutlass"
                     : m.name.rfind("tileslc.cute", 0) == 0 ? "cute" + m.name.substr(std::string("tileslc.cute").size())
                     : m.name.rfind("tileslc.", 0) == 0     ? "cutlass" + m.name.substr(std::string("tileslc").size())
                                                            : std::string();
  if (user.empty()) return;
  for (const auto& info : builtin_table()) {
    if (info.is_method) continue;
    std::string_view name = info.name;
    auto dot = name.rfind('.');
    if (dot == std::string_view::npos || name.substr(0, dot) != user) continue;
    m.globals[std::string(name.substr(dot + 1))] = Binding{Value::make_builtin(info.id), "", {}};
  }
}

std::shared_ptr<ModuleValue> Evaluator::import_module(const std::string& dotted, source::SourceRange at, bool quiet) {
  if (dotted == "tileslc._builtins") return builtins_module();
  if (auto it = modules_.find(dotted); it != modules_.end()) return it->second;  // loading: partial, as Python

  // Parents first, as Python does: `import a.b` runs a/__init__ then a/b.
  std::shared_ptr<ModuleValue> parent;
  auto dot = dotted.rfind('.');
  if (dot != std::string::npos) {
    parent = import_module(dotted.substr(0, dot), at, quiet);
    if (!parent) return nullptr;  // already reported for the parent
  }

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
    for (const auto& cand : {root / rel.string().append(".tpy"), root / rel / "__init__.tpy"}) {
      std::error_code ec;
      if (fs::is_regular_file(cand, ec)) {
        found = cand;
        break;
      }
    }
    if (!found.empty()) break;
  }
  if (found.empty()) {
    if (quiet) return nullptr;
    auto& d = error(diag::Kind::ModuleNotFound, at, "no module named '" + dotted + "'");
    std::string where;
    for (const auto& r : roots) where += (where.empty() ? "" : ", ") + (r.empty() ? std::string(".") : r.string());
    d.note("searched " + where);
    if (dotted.rfind("cutlass", 0) == 0)
      d.help("tileslc provides CuTe DSL's API as `import tileslc as cutlass` and `import tileslc.cute as cute`");
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
  size_t errors_before = diags_.error_count();
  m->ast = std::make_unique<ast::Module>(parse::parse_file(sm_, *fid, diags_));
  if (diags_.error_count() == errors_before) exec_module_body(m);
  if (parent) parent->globals[dotted.substr(dot + 1)] = Binding{[&] {
    Value v; v.kind = Value::Kind::Module; v.module = m; return v; }(), "", at};
  return m;
}

void Evaluator::exec_module_body(const std::shared_ptr<ModuleValue>& m) {
  Frame f;
  f.module = m;
  f.is_module = true;
  m->loading = true;
  frames_.push_back(&f);
  FnCtx* saved_fn = fn_;
  fn_ = nullptr;  // no run-time code at module level
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
