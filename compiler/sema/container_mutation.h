// Internal to sema: the rule for changing a list or dict inside run-time
// control flow. Lists and dicts exist only while compiling, so a change made
// in a run-time loop's body happens once, when the body is compiled, not once
// per iteration: `acc = [x]; for i in range(n): acc[0] = acc[0] + g[i]` would
// keep one addition of the last i (found by a sample's author: silently wrong).
#pragma once

#include "ast/ast.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

/// Reports E0502 (StaticRebindInDynamic) and aborts the statement when the
/// list or dict that `container` evaluates to is changed (`what`: "change an
/// item of", "call append on") inside a run-time loop or branch of the current function that
/// it was not made in: a name bound outside the innermost run-time loop or
/// branch, or any other expression (an attribute, a call result). A container
/// made inside the loop body and changed there is fine. Not caught: a helper
/// inlined inside a caller's run-time loop that changes, at its own top level,
/// a container it was given (the helper's frame has no run-time flow of its own).
void reject_outer_container_change(Evaluator& ev, const ast::Expr& container, source::SourceRange at, const char* what);

}  // namespace tileslc::sema
