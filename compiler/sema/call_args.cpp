// The source range of a call's argument i, for carets. A builtin's arguments are
// bound, with the one wording every builtin shares, by bind_builtin_args
// (registry.cpp); helpers bind theirs in call_helper (eval_call.cpp).
#include "sema/evaluator.h"

namespace tileslc::sema {

source::SourceRange arg_range_of(const ast::Call& site, size_t i) {
  return i < site.args.size() ? site.args[i]->range : site.range;
}

}  // namespace tileslc::sema
