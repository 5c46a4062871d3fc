// @cutlass.cost: the work of one call of a @cute.jit function (docs/tuning.md, "Cost"): bytes
// moved and FLOPs, as Python arithmetic over its symbolic extents and Constexpr parameters. The
// handler checks that each is a string; build_cost checks each name against the function (E0515
// at the name inside the string) and stores the text in the host function's ir::CostDecl, which
// the metadata lists (the tuner's bandwidth and FLOP/s) and codegen evaluates per call (the
// metrics records, ir/cost_expr.h). The decorator's placement check is tune_ops.cpp's, shared
// with @cutlass.tune.
#include <algorithm>
#include <cstdlib>

#include "ir/cost_expr.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

/// A Constexpr value usable in a cost: an int or float literal (not True, not a string).
bool numeric_literal(const std::string& v) {
  if (v.empty()) return false;
  char* end = nullptr;
  std::strtod(v.c_str(), &end);
  return end && *end == '\0';
}

}  // namespace

/// cutlass.cost(*, bytes=None, flops=None): checks that each given is a string and returns
/// (bytes, flops). Only a decorator may use it: a call elsewhere has no function to attach to.
Value core_cost(Evaluator& ev, BuiltinCall& c) {
  if (!c.has(0) && !c.has(1))
    ev.fail(diag::Kind::BadCost, c.site.range,
            c.name() + "() needs bytes= or flops=, e.g. @cutlass.cost(bytes=\"2 * (M * K + N * K + M * N)\", flops=\"2 * M * N * K\")");
  for (size_t i : {size_t(0), size_t(1)})
    if (c.has(i) && (c[i].kind() != Value::Kind::Str || c[i].s().empty()))
      ev.fail(diag::Kind::BadCost, c.range(i),
              c.name() + "(): " + (i == 0 ? "bytes" : "flops") +
                  "= takes a Python expression over the function's symbolic extents as a string, e.g. \"2 * M * N * K\", found " + describe(c[i]));
  return Value::tuple({c[0], c[1]});
}

void Evaluator::build_cost(const ast::FunctionDef& def, ir::HostFunction& hf) {
  auto it = cost_decls_.find(&def);
  if (it == cost_decls_.end()) return;
  const ast::Call& call = *it->second.second;
  std::vector<std::string> names;
  for (const auto& sb : hf.symbols) names.push_back(sb.symbol);
  for (const auto& [name, value] : hf.constexprs)
    if (numeric_literal(value)) names.push_back(name);
  std::string hint = "a symbolic extent or numeric Constexpr parameter of '" + def.name + "'";
  if (!names.empty()) {
    hint += " (";
    for (size_t i = 0; i < names.size(); ++i) hint += (i ? ", " : "") + names[i];
    hint += ")";
  }
  hf.cost.loc = call.range;
  const char* keywords[] = {"bytes", "flops"};
  for (size_t i = 0; i < 2; ++i) {
    const Value& v = it->second.first.elts()[i];
    if (v.kind() != Value::Kind::Str) continue;
    ir::CostExprError err;
    std::string bad;
    ir::translate_cost_expr(
        v.s(),
        [&](const std::string& n) -> std::optional<std::string> {
          if (std::find(names.begin(), names.end(), n) != names.end()) return n;
          bad = n;
          return std::nullopt;
        },
        hint, &err);
    if (!err.message.empty()) {
      source::SourceRange at = call.range;
      for (const auto& k : call.keywords)
        if (k.name == keywords[i]) at = k.value->range;
      // A plain "..." literal: point at the offending character inside it.
      if (at.end - at.begin == v.s().size() + 2) {
        at.begin += 1 + static_cast<uint32_t>(err.offset);
        at.end = at.begin + static_cast<uint32_t>(std::max<size_t>(1, bad.size()));
      }
      auto& d = error(diag::Kind::BadCost, at, "@cutlass.cost(" + std::string(keywords[i]) + "=...): " + err.message);
      if (!bad.empty())
        if (std::string best = closest_name(bad, names); !best.empty()) d.help("did you mean '" + best + "'?");
      abort_entry();
    }
    (i == 0 ? hf.cost.bytes : hf.cost.flops) = v.s();
  }
}

}  // namespace tileslc::sema
