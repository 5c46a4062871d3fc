// The Python the parser accepts and sema does not compile yet: with, global,
// nonlocal, del, async, walrus, yield, await, `raise` in run-time control
// flow, starred assignment targets in comprehensions. Each gets one E0206
// naming it, where evaluation reaches it (module code as it runs on import,
// a called helper, a compiled kernel or host function; an async function
// where it is called), so a CuTe DSL module whose host-only code (its
// `__main__` block, helpers never called) uses them still imports. What is
// evaluated while compiling (comprehensions, lambdas, f-strings, try/raise,
// ...) is in eval_python.cpp; classes are in class_ops.cpp.
#include "sema/evaluator.h"

namespace tileslc::sema {

namespace {

/// What the construct is called in the message ("classes"), or null.
const char* construct_name(const ast::Stmt& s) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::With: return s.as<ast::With>()->is_async ? "async with statements" : "with statements";
    case K::Try: return "try statements";
    case K::Raise: return "raise statements in run-time code";
    case K::Global: return "global declarations";
    case K::Nonlocal: return "nonlocal declarations";
    case K::Delete: return "del statements";
    case K::For: return s.as<ast::For>()->is_async ? "async for loops" : nullptr;
    default: return nullptr;
  }
}

const char* construct_name(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Starred: return "star-expressions (*x)";
    case K::Set: return "set displays";
    case K::Lambda: return "lambda expressions";
    case K::Comp:
      switch (e.as<ast::Comp>()->comp) {
        case ast::CompKind::List: return "list comprehensions";
        case ast::CompKind::Set: return "set comprehensions";
        case ast::CompKind::Dict: return "dict comprehensions";
        case ast::CompKind::Generator: return "generator expressions";
      }
      return nullptr;
    case K::NamedExpr: return "assignment expressions (:=)";
    case K::Yield: return "yield expressions";
    case K::Await: return "await expressions";
    case K::JoinedStr:
    case K::FormattedValue: return "f-strings";
    default: return nullptr;
  }
}

/// The part of a compound statement to underline: its header keyword(s) and
/// name, not its whole body.
source::SourceRange header_of(const ast::Stmt& s) {
  source::SourceRange r = s.range;
  auto upto = [&](uint32_t len) { return source::SourceRange{r.file, r.begin, std::min(r.end, r.begin + len)}; };
  if (const auto* c = s.as<ast::ClassDef>()) return {r.file, r.begin, c->name_range.end};
  if (const auto* f = s.as<ast::FunctionDef>()) return {r.file, r.begin, f->name_range.end};
  if (const auto* w = s.as<ast::With>()) return upto(w->is_async ? 10 : 4);  // "async with", "with"
  if (s.kind == ast::StmtKind::Try) return upto(3);
  if (s.kind == ast::StmtKind::For) return upto(9);  // "async for"
  return r;
}

void help(diag::Diagnostic& d) {
  d.help(
      "only code that tileslc runs or compiles may not use it: a module's `__main__` block "
      "and functions never called may use it");
}

}  // namespace

void Evaluator::reject_unsupported(const ast::Stmt& s) {
  const char* what = construct_name(s);
  auto& d = error(diag::Kind::UnsupportedSyntax, header_of(s),
                  std::string(what ? what : "this statement") + " are not supported yet");
  help(d);
  abort_entry();
}

void Evaluator::reject_unsupported(const ast::Expr& e) {
  const char* what = construct_name(e);
  auto& d = error(diag::Kind::UnsupportedSyntax, e.range,
                  std::string(what ? what : "this expression") + " are not supported yet");
  help(d);
  abort_entry();
}

void Evaluator::check_def_supported(const ast::FunctionDef& def, source::SourceRange site) {
  if (def.is_async) {
    auto& d =
        error(diag::Kind::UnsupportedSyntax, site, "async functions are not supported yet: '" + def.name + "' is one");
    d.label(header_of(def), "declared here");
    help(d);
    abort_entry();
  }
}

}  // namespace tileslc::sema
