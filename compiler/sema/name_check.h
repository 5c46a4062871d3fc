// Internal to sema: the undefined-name check over a whole module, pyflakes'
// "undefined name" for tileslc. The evaluator finds an undefined name only
// where it runs code (the module body, host functions, the kernels they
// launch); this pass reads every function's AST, whether or not anything
// calls or launches it.
#pragma once

#include <string_view>

#include "ast/ast.h"
#include "diag/diag.h"

namespace tileslc::sema {

/// Reports E0301 at every read of a name that no scope visible there binds,
/// by Python's scoping rules (https://docs.python.org/3/reference/executionmodel.html#resolution-of-names):
/// the names a function, lambda or comprehension binds anywhere in its body
/// (assignment, augmented and annotated assignment, for, with and except
/// targets, imports, def, class, :=, parameters) are its locals; then the
/// enclosing functions' (not an enclosing class body's); then the module's
/// globals, bound anywhere at module level in any order (a function runs
/// after the module body) or by a `global` statement; then Python's builtins
/// and the module attributes (__name__, __file__, ...). A read that already
/// has an E0301 (the evaluator's, with the
/// note of where the code was compiled) is not reported again. Each report
/// gets a did-you-mean among the names visible at the read.
void report_undefined_names(const ast::Module& module, diag::DiagnosticEngine& diags);

/// True if `name` is one of Python's builtins (dir(builtins) of CPython 3.11/3.12) or an
/// attribute every module has (__name__, ...): the names report_undefined_names never reports.
/// Every Python builtin sema binds (find_python_builtin) must be one (name_check_test checks it).
bool is_python_builtin_name(std::string_view name);

}  // namespace tileslc::sema
