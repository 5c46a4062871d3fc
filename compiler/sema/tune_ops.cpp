// @cutlass.tune: a @cute.jit function's tuning space, declared next to its
// Constexpr parameters (docs/tuning.md). The decorator's value is checked by
// its builtin row's handler; build_tune_space turns it into the host function's
// ir::TuneSpace: every tuned name a Constexpr parameter, every key name a
// symbolic extent of its tensors, the product enumerated (last parameter
// fastest, as itertools.product), and the prune predicate run on each
// configuration while compiling, so a rejected configuration costs no compile.
#include <algorithm>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

/// At most this many configurations before pruning: a sweep over more is a typo, not a plan.
constexpr size_t kMaxTuneConfigs = 100000;

/// Where keyword `name` of the decorator call is written (the whole call if it is not).
source::SourceRange tune_keyword(const ast::Call& call, const std::string& name) {
  for (const auto& k : call.keywords)
    if (k.name == name) return k.value->range;
  return call.range;
}

/// A candidate value: one a -D can pass back (int, float, bool, str).
bool is_define_value(const Value& v) {
  const auto k = v.kind();
  return k == Value::Kind::Int || k == Value::Kind::Float || k == Value::Kind::Bool || k == Value::Kind::Str;
}

/// The names a predicate declares: a def's or a lambda's parameters (no *args / **kwargs).
std::vector<const ast::Param*> predicate_params(const FunctionValue& fn) {
  const std::vector<ast::Param>& ps = fn.def ? fn.def->params : fn.lambda->params;
  std::vector<const ast::Param*> out;
  for (const auto& p : ps) out.push_back(&p);
  return out;
}

}  // namespace

/// cutlass.tune(*, key=(), prune=None, **space): checks the space and returns (space, key, prune)
/// with space a tuple of (name, candidates) pairs. flops= and bytes= (an earlier spelling, which
/// arrive among the space's keywords) are E0514 pointing at @cutlass.cost.
/// Only a decorator may use it: a call elsewhere has no function to attach the space to.
Value core_tune(Evaluator& ev, BuiltinCall& c) {
  const std::string use = "@cutlass.tune(BM=[64, 128], key=(\"M\", \"N\"))";
  if (c.extra.empty())
    ev.fail(diag::Kind::BadTuneSpace, c.site.range, c.name() + "() needs at least one tuned parameter, e.g. " + use);
  std::vector<Value> space;
  for (const auto& [name, values] : c.extra) {
    const auto at = tune_keyword(c.site, name);
    if (name == "flops" || name == "bytes") {
      // The work of a call is the function's, tuned or not: one declaration, @cutlass.cost, which
      // the tuner and the metrics records both read (flops=/bytes= here was an earlier spelling).
      auto& d = ev.error(diag::Kind::BadTuneSpace, at, c.name() + "() does not take " + name + "=: the work of a call is declared with @cutlass.cost");
      d.help("write @cutlass.cost(" + name + "=" + (values.kind() == Value::Kind::Str ? repr(values) : std::string("\"...\"")) + ") above @cute.jit");
      ev.abort_entry();
    }
    if (values.kind() != Value::Kind::Tuple || values.elts().empty())
      ev.fail(diag::Kind::BadTuneSpace, at, c.name() + "(): '" + name + "' takes a non-empty list of candidate values, found " + describe(values));
    for (const auto& v : values.elts())
      if (!is_define_value(v))
        ev.fail(diag::Kind::BadTuneSpace, at,
                c.name() + "(): candidates of '" + name + "' must be static ints, floats, bools or strings (what -D takes), found " + describe(v));
    space.push_back(Value::tuple({Value::str(name), Value::tuple(values.elts())}));
  }
  std::vector<Value> key = c[0].kind() == Value::Kind::Str ? std::vector<Value>{c[0]}
                           : c[0].kind() == Value::Kind::Tuple ? c[0].elts()
                                                               : std::vector<Value>{Value{}};
  for (const auto& k : key)
    if (k.kind() != Value::Kind::Str)
      ev.fail(diag::Kind::BadTuneSpace, c.range(0), c.name() + "(): key= takes the names of symbolic extents, e.g. key=(\"M\", \"N\"), found " + describe(c[0]));
  if (c.has(1) && c[1].kind() != Value::Kind::Function)
    ev.fail(diag::Kind::BadTuneSpace, c.range(1), c.name() + "(): prune= takes a function of the tuned parameters, found " + describe(c[1]));
  return Value::tuple({Value::tuple(std::move(space)), Value::tuple(std::move(key)), c[1]});
}

namespace {

/// A decorator that annotates the @cute.jit function below it (@cutlass.tune, @cutlass.cost):
/// `kind` at the decorator unless it is a call above a @cute.jit function; else its value and call.
std::pair<Value, const ast::Call*> jit_decorator_spec(Evaluator& ev, const ast::Expr& deco, const Value& fn, diag::Kind kind,
                                                      const std::string& what, const std::string& usage) {
  const auto* call = deco.as<ast::Call>();
  if (!call) ev.fail(kind, deco.range, what + " takes " + usage);
  if (fn.kind() != Value::Kind::Function || fn.fn()->kind != FunctionValue::Kind::Jit || !fn.fn()->def) {
    auto& d = ev.error(kind, deco.range, what + " decorates a @cute.jit function, found " + describe(fn));
    d.help("write " + what + "(...) above @cute.jit");
    ev.abort_entry();
  }
  return {ev.eval(deco), call};
}

}  // namespace

Value Evaluator::tune_decorate(const ast::Expr& deco, Value fn) {
  tune_decls_[fn.kind() == Value::Kind::Function ? fn.fn()->def : nullptr] =
      jit_decorator_spec(*this, deco, fn, diag::Kind::BadTuneSpace, "@cutlass.tune", "the space: @cutlass.tune(BM=[64, 128], key=(\"M\",))");
  return fn;
}

/// @cutlass.cost (cost_ops.cpp checks and builds it): here for the decorator check it shares.
Value Evaluator::cost_decorate(const ast::Expr& deco, Value fn) {
  cost_decls_[fn.kind() == Value::Kind::Function ? fn.fn()->def : nullptr] =
      jit_decorator_spec(*this, deco, fn, diag::Kind::BadCost, "@cutlass.cost", "the work of one call: @cutlass.cost(bytes=\"4 * N\", flops=\"N\")");
  return fn;
}

void Evaluator::build_tune_space(const ast::FunctionDef& def, ir::HostFunction& hf) {
  auto it = tune_decls_.find(&def);
  if (it == tune_decls_.end()) return;
  const Value& spec = it->second.first;
  const ast::Call& call = *it->second.second;
  ir::TuneSpace& ts = hf.tune;
  ts.declared = true;
  ts.loc = call.range;
  std::vector<std::string> constexprs;
  for (const auto& [name, _] : hf.constexprs) constexprs.push_back(name);
  std::vector<std::vector<Value>> candidates;
  for (const auto& pair : spec.elts()[0].elts()) {
    const std::string name = pair.elts()[0].s();
    if (std::find(constexprs.begin(), constexprs.end(), name) == constexprs.end()) {
      auto& d = error(diag::Kind::BadTuneSpace, tune_keyword(call, name),
                      "@cutlass.tune: '" + name + "' is not a cutlass.Constexpr parameter of '" + def.name + "'");
      if (std::string best = closest_name(name, constexprs); !best.empty()) d.help("did you mean '" + best + "'?");
      else d.help("tune the function's Constexpr parameters: " + def.name + "(..., " + name + ": cutlass.Constexpr = ...)");
      abort_entry();
    }
    ts.params.push_back(name);
    candidates.push_back(pair.elts()[1].elts());
    ts.values.emplace_back();
    for (const auto& v : candidates.back()) ts.values.back().push_back(repr(v));
  }
  std::vector<std::string> symbols;
  for (const auto& sb : hf.symbols)
    if (!sb.is_stride) symbols.push_back(sb.symbol);
  for (const auto& k : spec.elts()[1].elts()) {
    if (std::find(symbols.begin(), symbols.end(), k.s()) == symbols.end()) {
      auto& d = error(diag::Kind::BadTuneSpace, tune_keyword(call, "key"),
                      "@cutlass.tune: key '" + k.s() + "' is not a symbolic extent of " + def.name + "'s tensors");
      if (std::string best = closest_name(k.s(), symbols); !best.empty()) d.help("did you mean '" + best + "'?");
      abort_entry();
    }
    ts.key.push_back(k.s());
  }
  if (ts.key.empty()) ts.key = symbols;  // no key: every extent makes the bucket
  size_t total = 1;
  for (const auto& c : candidates) {
    total *= c.size();
    if (total > kMaxTuneConfigs)
      fail(diag::Kind::BadTuneSpace, call.range,
           "@cutlass.tune: the space has more than " + std::to_string(kMaxTuneConfigs) + " configurations; narrow it");
  }
  const Value& prune = spec.elts()[2];
  std::vector<size_t> index(candidates.size(), 0);
  for (size_t n = 0; n < total; ++n) {
    std::vector<std::string> config;
    Kwargs args;
    for (size_t p = 0; p < candidates.size(); ++p) config.push_back(ts.values[p][index[p]]);
    if (prune.kind() == Value::Kind::Function) {
      // The predicate names what it reads: tuned parameters get this configuration's value,
      // other Constexpr parameters this compilation's.
      for (const ast::Param* p : predicate_params(*prune.fn())) {
        auto tuned = std::find(ts.params.begin(), ts.params.end(), p->name);
        if (tuned != ts.params.end()) {
          args.emplace_back(p->name, candidates[tuned - ts.params.begin()][index[tuned - ts.params.begin()]]);
        } else if (auto b = frame().env.find(p->name);
                   std::find(constexprs.begin(), constexprs.end(), p->name) != constexprs.end() && b != frame().env.end()) {
          args.emplace_back(p->name, b->second.value);
        } else if (!p->default_value && !p->var_keyword && !p->var_positional) {
          auto& d = error(diag::Kind::BadTuneSpace, p->range,
                          "the prune predicate's parameter '" + p->name + "' is not a Constexpr parameter of '" + def.name + "'");
          d.help("a prune predicate takes tuned or Constexpr parameters by name: prune=lambda BM, BN: BM * BN > 128 * 256");
          abort_entry();
        }
      }
      Value r = call_value(prune, {}, std::move(args), call);
      if (r.kind() == Value::Kind::Str && !r.s().empty()) {
        ts.pruned.push_back({config, r.s()});
      } else if (r.kind() != Value::Kind::Str && r.kind() != Value::Kind::None && truthy_static(r, tune_keyword(call, "prune"))) {
        ts.pruned.push_back({config, "prune returned True"});
      } else {
        ts.configs.push_back(std::move(config));
      }
    } else {
      ts.configs.push_back(std::move(config));
    }
    for (size_t p = candidates.size(); p-- > 0;) {  // the next index, last parameter fastest
      if (++index[p] < candidates[p].size()) break;
      index[p] = 0;
    }
  }
  if (ts.configs.empty())
    fail(diag::Kind::BadTuneSpace, tune_keyword(call, "prune"),
         "@cutlass.tune: the prune predicate rejects all " + std::to_string(total) + " configurations");
}

}  // namespace tileslc::sema
