// Internal to sema: the rule for changing a list or dict inside run-time
// control flow. Lists and dicts exist only while compiling, so a change made
// in a run-time loop's body happens once, when the body is compiled, not once
// per iteration: `acc = [x]; for i in range(n): acc[0] = acc[0] + g[i]` would
// keep one addition of the last i (found by a sample's author: silently wrong).
#pragma once

#include <cstdint>

#include "ast/ast.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

/// Lists and dicts are stamped when made (Value::list, Value::dict: the
/// payload's made_at), and each run-time loop body or branch is stamped when
/// entered (RuntimeRegion), from one clock: a container belongs to the
/// innermost region it was made in. Defined in value.cpp, where containers are made.
/// A list's or dict's stamp; 0 for other values.
uint64_t container_made_at(const Value& container);
/// The clock's next tick (regions and containers share it).
uint64_t container_clock_tick();

/// Marks a run-time loop body or branch being compiled, for its lifetime
/// (exceptions included), on the evaluator's stack of regions (nested regions,
/// inlined helpers' ones too).
class RuntimeRegion {
 public:
  explicit RuntimeRegion(Evaluator& ev) : ev_(ev) { ev_.runtime_regions().push_back(container_clock_tick()); }
  ~RuntimeRegion() { ev_.runtime_regions().pop_back(); }
  RuntimeRegion(const RuntimeRegion&) = delete;
  RuntimeRegion& operator=(const RuntimeRegion&) = delete;

 private:
  Evaluator& ev_;
};

/// Reports E0502 (StaticRebindInDynamic) and aborts the statement when the
/// list or dict `container` (its storage) is changed (`what`: "change an item
/// of", "call append on") inside a run-time loop body or branch it was not
/// made in: the change would happen once, while compiling. Whatever the path
/// to it (its name, an alias, a helper's parameter, an attribute, a method's
/// self). `name_expr`, when it is a Name, labels where that name was bound.
void reject_outer_container_change(Evaluator& ev, const Value& container, const ast::Expr& name_expr,
                                   source::SourceRange at, const char* what);

}  // namespace tileslc::sema
