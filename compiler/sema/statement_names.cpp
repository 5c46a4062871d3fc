// Finds a statement by its range and lists the names it reads (see
// statement_names.h): a walk over the AST that evaluates nothing.
#include "sema/statement_names.h"

namespace tileslc::sema {

namespace {

using Names = std::vector<const ast::Name*>;

void read_expr(const ast::Expr* e, Names& out);

void read_all(const std::vector<ast::ExprPtr>& es, Names& out) {
  for (const auto& e : es) read_expr(e.get(), out);
}

void read_expr(const ast::Expr* e, Names& out) {
  if (!e) return;
  using K = ast::ExprKind;
  switch (e->kind) {
    case K::Name: out.push_back(e->as<ast::Name>()); return;
    case K::IntLit: case K::FloatLit: case K::StrLit: case K::BoolLit: case K::NoneLit: case K::EllipsisLit:
      return;
    case K::Tuple: return read_all(e->as<ast::Tuple>()->elts, out);
    case K::List: return read_all(e->as<ast::List>()->elts, out);
    case K::Dict: {
      const auto* d = e->as<ast::Dict>();
      for (size_t i = 0; i < d->keys.size(); ++i) {
        read_expr(d->keys[i].get(), out);
        if (i < d->values.size()) read_expr(d->values[i].get(), out);
      }
      return;
    }
    case K::Attribute: return read_expr(e->as<ast::Attribute>()->value.get(), out);
    case K::Subscript: {
      const auto* s = e->as<ast::Subscript>();
      read_expr(s->value.get(), out);
      return read_expr(s->index.get(), out);
    }
    case K::Slice: {
      const auto* s = e->as<ast::Slice>();
      for (const ast::Expr* p : {s->lower.get(), s->upper.get(), s->step.get()}) read_expr(p, out);
      return;
    }
    case K::Call: {
      const auto* c = e->as<ast::Call>();
      read_expr(c->func.get(), out);
      read_all(c->args, out);
      for (const auto& k : c->keywords) read_expr(k.value.get(), out);
      return;
    }
    case K::BinOp: {
      const auto* b = e->as<ast::BinOp>();
      read_expr(b->lhs.get(), out);
      return read_expr(b->rhs.get(), out);
    }
    case K::UnaryOp: return read_expr(e->as<ast::UnaryOp>()->operand.get(), out);
    case K::BoolOp: return read_all(e->as<ast::BoolOp>()->values, out);
    case K::Compare: {
      const auto* c = e->as<ast::Compare>();
      read_expr(c->left.get(), out);
      return read_all(c->comparators, out);
    }
    case K::IfExp: {
      const auto* i = e->as<ast::IfExp>();
      read_expr(i->body.get(), out);
      read_expr(i->test.get(), out);
      return read_expr(i->orelse.get(), out);
    }    case K::Starred: case K::Set: case K::Lambda: case K::Comp: case K::NamedExpr: case K::Yield: case K::Await:
    case K::JoinedStr: case K::FormattedValue:
      return;  // E0206 where reached: their names are never looked up
  }
}

/// An assignment target: a bare name (also inside a tuple or list) is bound,
/// not read; a subscript's or attribute's parts are read.
void read_target(const ast::Expr* t, Names& out) {
  if (!t || t->kind == ast::ExprKind::Name) return;
  if (const auto* tu = t->as<ast::Tuple>()) {
    for (const auto& e : tu->elts) read_target(e.get(), out);
  } else if (const auto* l = t->as<ast::List>()) {
    for (const auto& e : l->elts) read_target(e.get(), out);
  } else {
    read_expr(t, out);
  }
}

const ast::Stmt* find_in(const ast::Body& body, source::SourceRange r);

const ast::Stmt* find_in_stmt(const ast::Stmt& s, source::SourceRange r) {
  if (s.range.file == r.file && s.range.begin == r.begin && s.range.end == r.end) return &s;
  if (s.range.file != r.file || r.begin < s.range.begin || r.end > s.range.end) return nullptr;
  const ast::Stmt* found = nullptr;
  if (const auto* i = s.as<ast::If>()) {
    if (!(found = find_in(i->body, r))) found = find_in(i->orelse, r);
  } else if (const auto* f = s.as<ast::For>()) {
    if (!(found = find_in(f->body, r))) found = find_in(f->orelse, r);
  } else if (const auto* w = s.as<ast::While>()) {
    if (!(found = find_in(w->body, r))) found = find_in(w->orelse, r);
  }
  return found;
}

const ast::Stmt* find_in(const ast::Body& body, source::SourceRange r) {
  for (const auto& s : body)
    if (const ast::Stmt* found = find_in_stmt(*s, r)) return found;
  return nullptr;
}

}  // namespace

const ast::Stmt* find_statement(const ast::Body& body, source::SourceRange r) { return find_in(body, r); }

std::vector<const ast::Name*> names_read(const ast::Expr& e) {
  Names out;
  read_expr(&e, out);
  return out;
}

std::vector<const ast::Name*> names_read(const ast::Stmt& s) {
  Names out;
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::ExprStmt: read_expr(s.as<ast::ExprStmt>()->value.get(), out); break;
    case K::Assign: {
      const auto* a = s.as<ast::Assign>();
      for (const auto& t : a->targets) read_target(t.get(), out);
      read_expr(a->value.get(), out);
      break;
    }
    case K::AugAssign: {
      const auto* a = s.as<ast::AugAssign>();
      read_expr(a->target.get(), out);
      read_expr(a->value.get(), out);
      break;
    }
    case K::AnnAssign: {
      const auto* a = s.as<ast::AnnAssign>();
      read_target(a->target.get(), out);
      read_expr(a->annotation.get(), out);
      read_expr(a->value.get(), out);
      break;
    }
    case K::Return: read_expr(s.as<ast::Return>()->value.get(), out); break;
    case K::Assert: {
      const auto* a = s.as<ast::Assert>();
      read_expr(a->test.get(), out);
      read_expr(a->msg.get(), out);
      break;
    }
    case K::If: read_expr(s.as<ast::If>()->test.get(), out); break;
    case K::For: {
      const auto* f = s.as<ast::For>();
      read_target(f->target.get(), out);
      read_expr(f->iter.get(), out);
      break;
    }
    case K::While: read_expr(s.as<ast::While>()->test.get(), out); break;
    case K::Pass: case K::Break: case K::Continue: case K::FunctionDef: case K::Import: case K::ImportFrom: break;
    case K::ClassDef: case K::With: case K::Try: case K::Raise: case K::Global: case K::Nonlocal: case K::Delete: break;
  }
  return out;
}

}  // namespace tileslc::sema
