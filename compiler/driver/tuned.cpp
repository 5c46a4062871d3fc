// --tuned: reading the tuner's decisions and building the dispatching program (tuned.h).
#include "driver/tuned.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ir/visit.h"

namespace tileslc::driver {

namespace {

/// "line:col" of byte `pos` of `text` (1-based), for JSON syntax errors.
std::string line_col(const std::string& text, size_t pos) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

/// A config value as the database holds it: a -D literal string (numbers and bools are accepted too).
std::optional<std::string> literal(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "True" : "False");
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return v.dump();
  return std::nullopt;
}

/// Rewrites every launch in `body` through `map` (old kernel index to new).
void remap_launches(ir::Block& body, const std::map<int, int>& map) {
  for (auto& s : body) {
    if (auto* l = s->get_if<ir::Launch>(); l && l->info) l->info->kernel = map.at(l->info->kernel);
    ir::for_each_block(*s, [&](ir::Block& b) { remap_launches(b, map); });
  }
}

/// The kernels `body` launches, by index.
void launched(const ir::Block& body, std::set<int>& out) {
  ir::for_each_stmt(body, [&](const ir::Stmt& s) {
    if (const auto* l = s.get_if<ir::Launch>(); l && l->info) out.insert(l->info->kernel);
  });
}

/// Drops the kernels no host function launches any more (the dispatchers' originals).
void drop_unlaunched_kernels(ir::Program& p) {
  std::set<int> used;
  for (const auto& h : p.host_functions) launched(h.body, used);
  std::map<int, int> map;
  std::vector<ir::Kernel> kept;
  for (int i = 0; i < static_cast<int>(p.kernels.size()); ++i) {
    if (!used.count(i)) continue;
    map[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(p.kernels[i]));
  }
  p.kernels = std::move(kept);
  for (auto& h : p.host_functions) remap_launches(h.body, map);
}

/// A name not in `taken`: `base`, else `base` with a number.
std::string fresh(const std::string& base, std::set<std::string>& taken) {
  std::string name = base;
  for (int n = 1; taken.count(name); ++n) name = base + "_" + std::to_string(n);
  taken.insert(name);
  return name;
}

}  // namespace

bool read_tuned_decisions(const std::string& path, std::vector<TunedDecision>* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read the tuning results '" + path + "' (--tuned)";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  nlohmann::json db;
  try {
    db = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    *error = path + ":" + line_col(text, e.byte > 0 ? e.byte - 1 : 0) + ": the tuning results are not valid JSON";
    return false;
  }
  if (!db.is_object() || db.value("format", "") != "tileslc-tune" || !db.contains("decisions") || !db["decisions"].is_array()) {
    *error = path + ": not a tileslc tune results database (expected \"format\": \"tileslc-tune\" and \"decisions\"; run 'tileslc tune')";
    return false;
  }
  int index = 0;
  for (const auto& d : db["decisions"]) {
    const std::string where = path + ": decision " + std::to_string(++index);
    if (!d.is_object() || !d.contains("function") || !d["function"].is_string() || !d.contains("bucket") || !d["bucket"].is_object() ||
        !d.contains("config") || !d["config"].is_object()) {
      *error = where + ": expected {\"function\": ..., \"bucket\": {...}, \"config\": {...}}";
      return false;
    }
    TunedDecision t;
    t.function = d["function"].get<std::string>();
    for (const auto& [k, v] : d["bucket"].items()) {
      if (!v.is_number_integer()) {
        *error = where + ": bucket value '" + k + "' is not an integer";
        return false;
      }
      t.bucket.emplace_back(k, v.get<int64_t>());
    }
    for (const auto& [k, v] : d["config"].items()) {
      auto lit = literal(v);
      if (!lit) {
        *error = where + ": config value '" + k + "' is not a number, bool or -D literal string";
        return false;
      }
      t.config.emplace_back(k, *lit);
    }
    out->push_back(std::move(t));
  }
  return true;
}

bool apply_tuned(ir::Program& program, const std::vector<TunedDecision>& decisions, const CompileVariant& compile, std::string* error) {
  std::set<std::string> host_names, kernel_names;
  for (const auto& h : program.host_functions) host_names.insert(h.name);
  for (const auto& k : program.kernels) kernel_names.insert(k.name);
  std::vector<std::string> functions;  // in the database's order
  for (const auto& d : decisions)
    if (std::find(functions.begin(), functions.end(), d.function) == functions.end()) functions.push_back(d.function);
  for (const auto& fname : functions) {
    auto it = std::find_if(program.host_functions.begin(), program.host_functions.end(), [&](const ir::HostFunction& h) { return h.name == fname; });
    if (it == program.host_functions.end()) {
      *error = "the tuning results decide for '" + fname + "', which is not a @cute.jit function of '" + program.source_path + "'";
      return false;
    }
    const size_t index = static_cast<size_t>(it - program.host_functions.begin());
    ir::TunedDispatch dispatch;
    std::vector<std::vector<std::pair<std::string, std::string>>> configs;
    for (const auto& d : decisions) {
      if (d.function != fname) continue;
      std::vector<std::string> key;
      std::vector<int64_t> values;
      for (const auto& [sym, v] : d.bucket) key.push_back(sym), values.push_back(v);
      if (dispatch.key.empty()) {
        dispatch.key = key;
        for (const auto& sym : key) {
          const auto& syms = program.host_functions[index].symbols;
          if (std::none_of(syms.begin(), syms.end(), [&](const ir::SymbolBinding& b) { return b.symbol == sym && !b.is_stride; })) {
            *error = "the tuning results key '" + fname + "' on '" + sym + "', which is not a symbolic extent of its tensors";
            return false;
          }
        }
      } else if (key != dispatch.key) {
        *error = "the tuning results bucket '" + fname + "' on different keys";
        return false;
      }
      auto c = std::find(configs.begin(), configs.end(), d.config);
      if (c == configs.end()) c = configs.insert(configs.end(), d.config);
      dispatch.keys.push_back(values);
      dispatch.variant.push_back(static_cast<int>(c - configs.begin()));
    }
    for (size_t v = 0; v < configs.size(); ++v) {
      std::optional<ir::Program> variant = compile(configs[v]);
      if (!variant) {
        error->clear();
        return false;
      }
      auto vh = std::find_if(variant->host_functions.begin(), variant->host_functions.end(),
                             [&](const ir::HostFunction& h) { return h.name == fname; });
      if (vh == variant->host_functions.end()) {
        *error = "the specialization of '" + fname + "' has no host function of that name";
        return false;
      }
      // The variant's kernels this function launches join the program under fresh names.
      std::set<int> used;
      launched(vh->body, used);
      std::map<int, int> map;
      for (int k : used) {
        ir::Kernel kernel = std::move(variant->kernels[static_cast<size_t>(k)]);
        kernel.name = fresh(kernel.name + "_tuned" + std::to_string(v), kernel_names);
        map[k] = static_cast<int>(program.kernels.size());
        program.kernels.push_back(std::move(kernel));
      }
      remap_launches(vh->body, map);
      vh->name = fresh(fname + "_tuned" + std::to_string(v), host_names);
      dispatch.callees.push_back(vh->name);
      vh->tune = {};
      program.host_functions.push_back(std::move(*vh));
    }
    ir::HostFunction& h = program.host_functions[index];
    h.body.clear();
    h.locals.clear();
    h.dispatch = std::move(dispatch);
  }
  drop_unlaunched_kernels(program);
  return true;
}

}  // namespace tileslc::driver
