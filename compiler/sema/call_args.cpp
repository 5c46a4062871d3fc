// Call helpers: the range of argument i (for carets), keyword lookup, and the
// unknown-keyword (E0406) and arity (E0405) checks of the helpers still handed
// a call's raw arguments. A registry row's arguments are bound, with the one
// wording every builtin shares, by bind_builtin_args (registry.cpp).
#include "sema/evaluator.h"

namespace tileslc::sema {

source::SourceRange arg_range_of(const ast::Call& site, size_t i) {
  return i < site.args.size() ? site.args[i]->range : site.range;
}

std::optional<Value> kwarg_of(const Kwargs& kwargs, const std::string& name) {
  for (const auto& [k, v] : kwargs)
    if (k == name) return v;
  return std::nullopt;
}

void Evaluator::check_keywords(const Kwargs& kwargs, const std::string& fn, std::initializer_list<const char*> allowed,
                               source::SourceRange r) {
  for (const auto& [k, v] : kwargs) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) fail(diag::Kind::UnknownKeyword, r, fn + "() got an unexpected keyword argument '" + k + "'");
  }
}

void Evaluator::check_arity(size_t given, size_t lo, size_t hi, const std::string& fn, source::SourceRange r) {
  if (given >= lo && given <= hi) return;
  std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  fail(diag::Kind::WrongArity, r,
       fn + "() takes " + want + " positional argument" + (hi == 1 && lo == 1 ? "" : "s") + ", " + std::to_string(given) + " given");
}

}  // namespace tileslc::sema
