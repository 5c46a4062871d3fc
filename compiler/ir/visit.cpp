// The child iterators (the per-kind map from a statement to its operands,
// blocks and names), the visitors built on them and the expression mutator.
#include "ir/visit.h"

namespace tileslc::ir {

namespace {

/// Calls `f` on each operand slot of `s` (const or not), skipping empty ones.
/// The one switch over statement kinds that knows which field holds what.
template <class S, class F>
void operand_slots(S& s, F&& f) {
  auto one = [&](auto& slot) {
    if (slot) f(slot);
  };
  switch (s.kind) {
    case StmtKind::Assign:
    case StmtKind::If:
    case StmtKind::While:
    case StmtKind::Eval: one(s.a); break;
    case StmtKind::Store:
    case StmtKind::VecCopy:
    case StmtKind::Check:
      one(s.a);
      one(s.b);
      break;
    case StmtKind::For:
      one(s.a);
      one(s.b);
      one(s.c);
      break;
    case StmtKind::Printf:
      for (auto& a : s.args) one(a);
      break;
    case StmtKind::Launch:
      if (!s.launch) break;
      for (auto& g : s.launch->grid) one(g);
      for (auto& b : s.launch->block) one(b);
      one(s.launch->smem);
      for (auto& c : s.launch->cluster) one(c);
      one(s.launch->stream);
      for (auto& a : s.launch->args) one(a);
      break;
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Return:
    case StmtKind::Sync: break;
  }
}

template <class S, class F>
void block_slots(S& s, F&& f) {
  switch (s.kind) {
    case StmtKind::If:
      f(s.body);
      f(s.orelse);
      break;
    case StmtKind::For:
    case StmtKind::While: f(s.body); break;
    default: break;
  }
}

void walk_stmts(const Block& b, const std::function<void(const Stmt&)>& f) {
  for (const auto& s : b) {
    f(*s);
    block_slots(*s, [&](const Block& inner) { walk_stmts(inner, f); });
  }
}

}  // namespace

void for_each_operand(const Stmt& s, const std::function<void(const ExprRef&)>& f) { operand_slots(s, f); }
void for_each_operand(Stmt& s, const std::function<void(ExprRef&)>& f) { operand_slots(s, f); }

void for_each_block(const Stmt& s, const std::function<void(const Block&)>& f) { block_slots(s, f); }
void for_each_block(Stmt& s, const std::function<void(Block&)>& f) { block_slots(s, f); }

void for_each_name(const Stmt& s, const std::function<void(const std::string&, NameUse)>& f) {
  switch (s.kind) {
    case StmtKind::Assign: f(s.name, NameUse::Assigned); break;
    case StmtKind::For: f(s.name, NameUse::LoopVar); break;
    case StmtKind::Store: f(s.name, NameUse::StoredTo); break;
    case StmtKind::VecCopy:
      f(s.name, NameUse::StoredTo);
      f(s.src, NameUse::CopiedFrom);
      break;
    default: break;
  }
}

void for_each_expr(const ExprRef& e, const std::function<void(const Expr&)>& f) {
  if (!e) return;
  f(*e);
  for (const auto& o : e->operands) for_each_expr(o, f);
}

void for_each_stmt(const Block& b, const std::function<void(const Stmt&)>& f) { walk_stmts(b, f); }

void for_each_expr(const Block& b, const std::function<void(const Expr&, const Stmt&)>& f) {
  walk_stmts(b, [&](const Stmt& s) {
    for_each_operand(s, [&](const ExprRef& e) { for_each_expr(e, [&](const Expr& x) { f(x, s); }); });
  });
}

ExprRef mutate(const ExprRef& e, const std::function<ExprRef(const ExprRef&)>& f) {
  if (!e) return e;
  std::vector<ExprRef> ops;
  bool changed = false;
  for (const auto& o : e->operands) {
    ops.push_back(mutate(o, f));
    changed |= ops.back() != o;
  }
  if (!changed) return f(e);
  auto copy = std::make_shared<Expr>(*e);
  copy->operands = std::move(ops);
  return f(copy);
}

void mutate(Block& b, const std::function<ExprRef(const ExprRef&)>& f) {
  for (auto& s : b) {
    for_each_operand(*s, [&](ExprRef& e) { e = mutate(e, f); });
    for_each_block(*s, [&](Block& inner) { mutate(inner, f); });
  }
}

std::vector<std::string> unused_fields(const Stmt& s) {
  const StmtKind k = s.kind;
  auto is = [k](std::initializer_list<StmtKind> kinds) {
    for (StmtKind x : kinds)
      if (x == k) return true;
    return false;
  };
  using K = StmtKind;
  std::vector<std::string> out;
  auto flag = [&](bool set, bool used, const char* field) {
    if (set && !used) out.push_back(field);
  };
  flag(!s.name.empty(), is({K::Assign, K::Store, K::For, K::Printf, K::VecCopy}), "name");
  flag(s.a != nullptr, is({K::Assign, K::Store, K::If, K::For, K::While, K::Check, K::VecCopy, K::Eval}), "a");
  flag(s.b != nullptr, is({K::Store, K::For, K::Check, K::VecCopy}), "b");
  flag(s.c != nullptr, is({K::For}), "c");
  flag(s.d != nullptr, false, "d");
  flag(!s.body.empty(), is({K::If, K::For, K::While}), "body");
  flag(!s.orelse.empty(), is({K::If}), "orelse");
  flag(!s.args.empty(), is({K::Printf}), "args");
  flag(s.launch != nullptr, is({K::Launch}), "launch");
  flag(!s.message.empty(), is({K::Check}), "message");
  flag(!s.src.empty() || s.vector_bits != 0 || s.to_global, is({K::VecCopy}), "src/vector_bits/to_global");
  flag(s.var_type != ScalarType::Int32 || s.step_sign != 1 || s.unroll, is({K::For}), "var_type/step_sign/unroll");
  return out;
}

}  // namespace tileslc::ir
