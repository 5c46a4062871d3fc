// The module-wide undefined-name check (see name_check.h): one walk binds each
// scope's names, a second resolves every read against the scope chain.
#include "sema/name_check.h"

#include <set>
#include <string>
#include <vector>

#include "sema/evaluator.h"

namespace tileslc::sema {

namespace {

/// Python's builtins (dir(builtins) of CPython 3.11/3.12) and the attributes every module has.
/// tileslc compiles only some of the builtins; using another is reported where it is compiled,
/// not as an undefined name.
const char* const kBuiltins[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
    "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
    "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
    "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
    "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
    "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
    "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented", "NotImplementedError",
    "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
    "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit",
    "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
    "ValueError", "Warning", "ZeroDivisionError", "__build_class__", "__debug__", "__doc__", "__import__",
    "__loader__", "__name__", "__package__", "__spec__", "__file__", "__builtins__", "__cached__",
    "__annotations__", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
    "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits",
    "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format",
    "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance",
    "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next",
    "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed",
    "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip",
};

}  // namespace

bool is_python_builtin_name(std::string_view name) {
  for (const char* b : kBuiltins)
    if (name == b) return true;
  return false;
}

namespace {

struct Scope {
  enum class Kind { Module, Function, Class };
  Kind kind;
  const Scope* parent;
  std::set<std::string> names;
};

/// Adds the names that the assignment target `t` binds (a name, or names inside a tuple,
/// list or starred target; an attribute or subscript binds none).
void bind_target(const ast::Expr* t, std::set<std::string>& out) {
  if (!t) return;
  if (const auto* n = t->as<ast::Name>()) {
    out.insert(n->id);
  } else if (const auto* tu = t->as<ast::Tuple>()) {
    for (const auto& e : tu->elts) bind_target(e.get(), out);
  } else if (const auto* l = t->as<ast::List>()) {
    for (const auto& e : l->elts) bind_target(e.get(), out);
  } else if (const auto* s = t->as<ast::Starred>()) {
    bind_target(s->value.get(), out);
  }
}

/// The names `import a.b` (a), `import a.b as c` (c) and `from m import x as y` (y) bind.
void bind_aliases(const std::vector<ast::Alias>& names, bool from_import, std::set<std::string>& out) {
  for (const auto& a : names) {
    if (!a.asname.empty()) out.insert(a.asname);
    else if (from_import) out.insert(a.name);
    else out.insert(a.name.substr(0, a.name.find('.')));
  }
}

/// Calls `f` on each direct subexpression of `e` (null ones skipped), in source order except
/// for a conditional expression (body, test, orelse, as Python's ast lists them).
template <class F>
void each_child(const ast::Expr& e, F&& f) {
  auto one = [&](const ast::ExprPtr& x) {
    if (x) f(*x);
  };
  auto all = [&](const std::vector<ast::ExprPtr>& xs) {
    for (const auto& x : xs) one(x);
  };
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Name: case K::IntLit: case K::FloatLit: case K::StrLit: case K::BoolLit: case K::NoneLit:
    case K::EllipsisLit:
      return;
    case K::Tuple: return all(e.as<ast::Tuple>()->elts);
    case K::List: return all(e.as<ast::List>()->elts);
    case K::Set: return all(e.as<ast::Set>()->elts);
    case K::Dict:
      all(e.as<ast::Dict>()->keys);
      return all(e.as<ast::Dict>()->values);
    case K::Attribute: return one(e.as<ast::Attribute>()->value);
    case K::Subscript:
      one(e.as<ast::Subscript>()->value);
      return one(e.as<ast::Subscript>()->index);
    case K::Slice:
      one(e.as<ast::Slice>()->lower);
      one(e.as<ast::Slice>()->upper);
      return one(e.as<ast::Slice>()->step);
    case K::Call:
      one(e.as<ast::Call>()->func);
      all(e.as<ast::Call>()->args);
      for (const auto& k : e.as<ast::Call>()->keywords) one(k.value);
      return;
    case K::BinOp:
      one(e.as<ast::BinOp>()->lhs);
      return one(e.as<ast::BinOp>()->rhs);
    case K::UnaryOp: return one(e.as<ast::UnaryOp>()->operand);
    case K::BoolOp: return all(e.as<ast::BoolOp>()->values);
    case K::Compare:
      one(e.as<ast::Compare>()->left);
      return all(e.as<ast::Compare>()->comparators);
    case K::IfExp:
      one(e.as<ast::IfExp>()->body);
      one(e.as<ast::IfExp>()->test);
      return one(e.as<ast::IfExp>()->orelse);
    case K::Starred: return one(e.as<ast::Starred>()->value);
    case K::Lambda: return one(e.as<ast::Lambda>()->body);
    case K::Comp:
      for (const auto& g : e.as<ast::Comp>()->generators) {
        one(g.iter);
        one(g.target);
        all(g.ifs);
      }
      one(e.as<ast::Comp>()->elt);
      return one(e.as<ast::Comp>()->value);
    case K::NamedExpr:
      one(e.as<ast::NamedExpr>()->target);
      return one(e.as<ast::NamedExpr>()->value);
    case K::Yield: return one(e.as<ast::Yield>()->value);
    case K::Await: return one(e.as<ast::Await>()->value);
    case K::JoinedStr: return all(e.as<ast::JoinedStr>()->values);
    case K::FormattedValue:
      one(e.as<ast::FormattedValue>()->value);
      return one(e.as<ast::FormattedValue>()->format_spec);
  }
}

/// Names bound by `:=` anywhere in `e`: they belong to the enclosing function, also from inside
/// a comprehension (PEP 572); a lambda's are its own.
void bind_walrus(const ast::Expr* e, std::set<std::string>& out) {
  if (!e || e->kind == ast::ExprKind::Lambda) return;
  if (const auto* n = e->as<ast::NamedExpr>()) bind_target(n->target.get(), out);
  each_child(*e, [&](const ast::Expr& x) { bind_walrus(&x, out); });
}

/// The names the statements of `body` bind in the scope that owns it: through if/for/while/
/// with/try blocks, not into the bodies of nested functions and classes (only their names).
/// `global` names go to `globals` and are not local.
void bind_body(const ast::Body& body, std::set<std::string>& out, std::set<std::string>& globals_declared);

void bind_stmt(const ast::Stmt& s, std::set<std::string>& out, std::set<std::string>& globals_declared) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::ExprStmt: return bind_walrus(s.as<ast::ExprStmt>()->value.get(), out);
    case K::Assign:
      for (const auto& t : s.as<ast::Assign>()->targets) bind_target(t.get(), out);
      return bind_walrus(s.as<ast::Assign>()->value.get(), out);
    case K::AugAssign:
      bind_target(s.as<ast::AugAssign>()->target.get(), out);
      return bind_walrus(s.as<ast::AugAssign>()->value.get(), out);
    case K::AnnAssign:
      bind_target(s.as<ast::AnnAssign>()->target.get(), out);
      return bind_walrus(s.as<ast::AnnAssign>()->value.get(), out);
    case K::Return: return bind_walrus(s.as<ast::Return>()->value.get(), out);
    case K::Assert: return bind_walrus(s.as<ast::Assert>()->test.get(), out);
    case K::If: {
      const auto* i = s.as<ast::If>();
      bind_walrus(i->test.get(), out);
      bind_body(i->body, out, globals_declared);
      return bind_body(i->orelse, out, globals_declared);
    }
    case K::For: {
      const auto* f = s.as<ast::For>();
      bind_target(f->target.get(), out);
      bind_walrus(f->iter.get(), out);
      bind_body(f->body, out, globals_declared);
      return bind_body(f->orelse, out, globals_declared);
    }
    case K::While: {
      const auto* w = s.as<ast::While>();
      bind_walrus(w->test.get(), out);
      bind_body(w->body, out, globals_declared);
      return bind_body(w->orelse, out, globals_declared);
    }
    case K::With: {
      const auto* w = s.as<ast::With>();
      for (const auto& item : w->items) {
        bind_walrus(item.context_expr.get(), out);
        bind_target(item.optional_vars.get(), out);
      }
      return bind_body(w->body, out, globals_declared);
    }
    case K::Try: {
      const auto* t = s.as<ast::Try>();
      bind_body(t->body, out, globals_declared);
      for (const auto& h : t->handlers) {
        if (!h.name.empty()) out.insert(h.name);
        bind_body(h.body, out, globals_declared);
      }
      bind_body(t->orelse, out, globals_declared);
      return bind_body(t->finalbody, out, globals_declared);
    }
    case K::FunctionDef: out.insert(s.as<ast::FunctionDef>()->name); return;
    case K::ClassDef: out.insert(s.as<ast::ClassDef>()->name); return;
    case K::Import: return bind_aliases(s.as<ast::Import>()->names, false, out);
    case K::ImportFrom: return bind_aliases(s.as<ast::ImportFrom>()->names, true, out);
    case K::Global:
      for (const auto& n : s.as<ast::Global>()->names) globals_declared.insert(n);
      return;
    case K::Nonlocal:  // bound in an enclosing function, which has it already
    case K::Pass: case K::Break: case K::Continue: case K::Raise: case K::Delete:
      return;
  }
}

void bind_body(const ast::Body& body, std::set<std::string>& out, std::set<std::string>& globals_declared) {
  for (const auto& s : body) bind_stmt(*s, out, globals_declared);
}

/// Every `global` statement of the module, at any depth: those names are module globals.
void collect_globals(const ast::Body& body, std::set<std::string>& out) {
  for (const auto& s : body) {
    if (const auto* g = s->as<ast::Global>()) out.insert(g->names.begin(), g->names.end());
    if (const auto* f = s->as<ast::FunctionDef>()) collect_globals(f->body, out);
    if (const auto* c = s->as<ast::ClassDef>()) collect_globals(c->body, out);
    if (const auto* i = s->as<ast::If>()) collect_globals(i->body, out), collect_globals(i->orelse, out);
    if (const auto* f = s->as<ast::For>()) collect_globals(f->body, out), collect_globals(f->orelse, out);
    if (const auto* w = s->as<ast::While>()) collect_globals(w->body, out), collect_globals(w->orelse, out);
    if (const auto* w = s->as<ast::With>()) collect_globals(w->body, out);
    if (const auto* t = s->as<ast::Try>()) {
      collect_globals(t->body, out);
      for (const auto& h : t->handlers) collect_globals(h.body, out);
      collect_globals(t->orelse, out), collect_globals(t->finalbody, out);
    }
  }
}

class Checker {
 public:
  explicit Checker(diag::DiagnosticEngine& diags) : diags_(diags) {
    for (const auto& d : diags.diagnostics())
      if (d.kind == diag::Kind::UndefinedName) reported_.insert({d.range.begin, d.range.end});
  }

  void body(const ast::Body& b, const Scope& sc) {
    for (const auto& s : b) stmt(*s, sc);
  }

 private:
  diag::DiagnosticEngine& diags_;
  std::set<std::pair<uint32_t, uint32_t>> reported_;

  /// The scope a function or comprehension defined in `sc` looks names up in next:
  /// a class body is not visible from inside its methods.
  static const Scope* enclosing(const Scope& sc) {
    const Scope* p = &sc;
    while (p->kind == Scope::Kind::Class) p = p->parent;
    return p;
  }


  bool visible(const std::string& id, const Scope& sc) const {
    if (sc.names.count(id)) return true;
    for (const Scope* p = sc.kind == Scope::Kind::Class ? sc.parent : &sc; p; p = p->parent) {
      if (p->kind == Scope::Kind::Class) continue;
      if (p->names.count(id)) return true;
    }
    return is_python_builtin_name(id);
  }

  void read(const ast::Name& n, const Scope& sc) {
    if (visible(n.id, sc) || !reported_.insert({n.range.begin, n.range.end}).second) return;
    std::vector<std::string> candidates;
    for (const Scope* p = &sc; p; p = p->parent)
      if (p == &sc || p->kind != Scope::Kind::Class) candidates.insert(candidates.end(), p->names.begin(), p->names.end());
    // Of the builtins, only those tileslc compiles are suggested (as the evaluator's E0301 does).
    for (const char* b : {"range", "len", "min", "max", "abs", "print", "int", "float", "bool", "isinstance"})
      candidates.push_back(b);
    auto& d = diags_.report(diag::Kind::UndefinedName, n.range, "name '" + n.id + "' is not defined");
    std::string best = closest_name(n.id, candidates);
    if (!best.empty()) d.help("did you mean '" + best + "'?");
  }

  void exprs(const std::vector<ast::ExprPtr>& es, const Scope& sc) {
    for (const auto& e : es) expr(e.get(), sc);
  }

  /// Reads in an assignment target: only the parts of attributes and subscripts.
  void target(const ast::Expr* t, const Scope& sc) {
    if (!t || t->kind == ast::ExprKind::Name) return;
    if (const auto* tu = t->as<ast::Tuple>()) {
      for (const auto& e : tu->elts) target(e.get(), sc);
    } else if (const auto* l = t->as<ast::List>()) {
      for (const auto& e : l->elts) target(e.get(), sc);
    } else if (const auto* s = t->as<ast::Starred>()) {
      target(s->value.get(), sc);
    } else {
      expr(t, sc);
    }
  }

  /// Parameters' defaults and annotations are read where the def or lambda is.
  void params(const std::vector<ast::Param>& ps, const Scope& sc, std::set<std::string>& names) {
    for (const auto& p : ps) {
      expr(p.annotation.get(), sc);
      expr(p.default_value.get(), sc);
      names.insert(p.name);
    }
  }

  void comprehension(const ast::Comp& c, const Scope& sc) {
    // The first iterable is evaluated in the enclosing scope, the rest in the comprehension's.
    if (!c.generators.empty()) expr(c.generators.front().iter.get(), sc);
    Scope inner{Scope::Kind::Function, enclosing(sc), {}};
    for (const auto& g : c.generators) bind_target(g.target.get(), inner.names);
    for (size_t i = 0; i < c.generators.size(); ++i) {
      const auto& g = c.generators[i];
      if (i > 0) expr(g.iter.get(), inner);
      target(g.target.get(), inner);
      exprs(g.ifs, inner);
    }
    expr(c.elt.get(), inner);
    expr(c.value.get(), inner);
  }

  void expr(const ast::Expr* e, const Scope& sc) {
    if (!e) return;
    if (const auto* n = e->as<ast::Name>()) return read(*n, sc);
    if (const auto* l = e->as<ast::Lambda>()) {
      Scope inner{Scope::Kind::Function, enclosing(sc), {}};
      params(l->params, sc, inner.names);
      bind_walrus(l->body.get(), inner.names);
      return expr(l->body.get(), inner);
    }
    if (const auto* c = e->as<ast::Comp>()) return comprehension(*c, sc);
    if (const auto* n = e->as<ast::NamedExpr>()) return expr(n->value.get(), sc);  // its target is bound, not read
    each_child(*e, [&](const ast::Expr& x) { expr(&x, sc); });
  }

  void function(const ast::FunctionDef& f, const Scope& sc) {
    exprs(f.decorators, sc);
    Scope inner{Scope::Kind::Function, enclosing(sc), {}};
    params(f.params, sc, inner.names);
    expr(f.returns.get(), sc);
    std::set<std::string> declared_global;
    bind_body(f.body, inner.names, declared_global);
    for (const auto& g : declared_global) inner.names.erase(g);
    body(f.body, inner);
  }

  void class_def(const ast::ClassDef& c, const Scope& sc) {
    exprs(c.decorators, sc);
    exprs(c.bases, sc);
    for (const auto& k : c.keywords) expr(k.value.get(), sc);
    Scope inner{Scope::Kind::Class, &sc, {}};
    std::set<std::string> declared_global;
    bind_body(c.body, inner.names, declared_global);
    for (const auto& g : declared_global) inner.names.erase(g);
    body(c.body, inner);
  }

  void stmt(const ast::Stmt& s, const Scope& sc) {
    using K = ast::StmtKind;
    switch (s.kind) {
      case K::ExprStmt: return expr(s.as<ast::ExprStmt>()->value.get(), sc);
      case K::Assign: {
        const auto* a = s.as<ast::Assign>();
        expr(a->value.get(), sc);
        for (const auto& t : a->targets) target(t.get(), sc);
        return;
      }
      case K::AugAssign: {
        const auto* a = s.as<ast::AugAssign>();
        expr(a->value.get(), sc);
        return expr(a->target.get(), sc);
      }
      case K::AnnAssign: {
        const auto* a = s.as<ast::AnnAssign>();
        expr(a->annotation.get(), sc);
        expr(a->value.get(), sc);
        return target(a->target.get(), sc);
      }
      case K::Return: return expr(s.as<ast::Return>()->value.get(), sc);
      case K::Assert:
        expr(s.as<ast::Assert>()->test.get(), sc);
        return expr(s.as<ast::Assert>()->msg.get(), sc);
      case K::If: {
        const auto* i = s.as<ast::If>();
        expr(i->test.get(), sc);
        body(i->body, sc);
        return body(i->orelse, sc);
      }
      case K::For: {
        const auto* f = s.as<ast::For>();
        expr(f->iter.get(), sc);
        target(f->target.get(), sc);
        body(f->body, sc);
        return body(f->orelse, sc);
      }
      case K::While: {
        const auto* w = s.as<ast::While>();
        expr(w->test.get(), sc);
        body(w->body, sc);
        return body(w->orelse, sc);
      }
      case K::With: {
        const auto* w = s.as<ast::With>();
        for (const auto& item : w->items) {
          expr(item.context_expr.get(), sc);
          target(item.optional_vars.get(), sc);
        }
        return body(w->body, sc);
      }
      case K::Try: {
        const auto* t = s.as<ast::Try>();
        body(t->body, sc);
        for (const auto& h : t->handlers) {
          expr(h.type.get(), sc);
          body(h.body, sc);
        }
        body(t->orelse, sc);
        return body(t->finalbody, sc);
      }
      case K::Raise:
        expr(s.as<ast::Raise>()->exc.get(), sc);
        return expr(s.as<ast::Raise>()->cause.get(), sc);
      case K::Delete: return exprs(s.as<ast::Delete>()->targets, sc);
      case K::FunctionDef: return function(*s.as<ast::FunctionDef>(), sc);
      case K::ClassDef: return class_def(*s.as<ast::ClassDef>(), sc);
      case K::Pass: case K::Break: case K::Continue: case K::Import: case K::ImportFrom: case K::Global:
      case K::Nonlocal:
        return;
    }
  }
};

}  // namespace

void report_undefined_names(const ast::Module& module, diag::DiagnosticEngine& diags) {
  Scope globals{Scope::Kind::Module, nullptr, {}};
  std::set<std::string> unused;
  bind_body(module.body, globals.names, unused);
  collect_globals(module.body, globals.names);
  Checker(diags).body(module.body, globals);
}

}  // namespace tileslc::sema
