// Parser: a hand-written recursive-descent parser from tokens to the AST,
// with Python's grammar and precedence
// (https://docs.python.org/3/reference/grammar.html). Each parse method
// carries its grammar rule in a comment. Constructs outside the tileslc subset
// (class, lambda, comprehensions, with, try, global, nonlocal, yield, async,
// await, walrus, del, raise, *args/**kwargs, star-expressions, decorators on
// anything but def) are parsed far enough to report E0206 "... is not
// supported in tileslc" at their location, then skipped, so later errors are
// still found.
#pragma once

#include <vector>

#include "ast/ast.h"
#include "diag/diag.h"
#include "lex/lex.h"

namespace tileslc::parse {

/// Parses a whole file's tokens (as produced by lex::tokenize). Always returns
/// a Module; statements with syntax errors are dropped after reporting. `sm`,
/// if given, lets messages name line numbers ("expected an indented block
/// after 'if' statement on line 3").
ast::Module parse_module(const std::vector<lex::Token>& tokens, source::FileId file,
                         diag::DiagnosticEngine& diags,
                         const source::SourceManager* sm = nullptr);

/// Convenience: tokenize and parse `file`.
ast::Module parse_file(const source::SourceManager& sm, source::FileId file,
                       diag::DiagnosticEngine& diags);

}  // namespace tileslc::parse
