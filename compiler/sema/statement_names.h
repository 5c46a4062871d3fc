// Internal to sema: reading a statement's names from its AST without
// evaluating it. Evaluator::eval_name uses it so that a statement abandoned at
// its first undefined name still reports the others (one run shows every
// typo of the statement).
#pragma once

#include <vector>

#include "ast/ast.h"

namespace tileslc::sema {

/// The statement of `body` whose range is `r`, looked for through the blocks
/// of if/for/while statements (not into function definitions); null if none.
const ast::Stmt* find_statement(const ast::Body& body, source::SourceRange r);

/// The Name nodes that `s` reads, in source order: those of its own
/// expressions (an if's or while's test, a for's iterable, an assignment's
/// value and the bases and indices of its targets), not of the blocks it
/// contains. A name that `s` assigns (a bare target of =, of an annotated
/// assignment or of for) is not read; an augmented assignment's target is.
/// Function definitions and imports read nothing here.
std::vector<const ast::Name*> names_read(const ast::Stmt& s);

/// The Name nodes that expression `e` reads, in source order (as names_read
/// does for a statement's own expressions).
std::vector<const ast::Name*> names_read(const ast::Expr& e);

}  // namespace tileslc::sema
