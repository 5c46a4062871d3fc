// The child iterators (the per-kind map from an expression's or a statement's
// named fields to its operands, blocks and names), the visitors built on them and the expression mutator.
#include "ir/visit.h"

#include <type_traits>

namespace tileslc::ir {

namespace {

template <class N, class... Ks>
constexpr bool is_one_of = (std::is_same_v<N, Ks> || ...);
template <class>
constexpr bool kUnhandled = false;

// S is Stmt or const Stmt: each `auto& n` below is the kind's struct with S's constness,
// so one template serves the const and the writable iterators. A kind missing from
// a chain fails to compile (kUnhandled).

/// Calls `f` on each operand slot of `s`, skipping empty ones.
template <class S, class F>
void operand_slots(S& s, F&& f) {
  auto one = [&](auto& slot) {
    if (slot) f(slot);
  };
  std::visit(
      [&](auto& n) {
        using N = std::remove_cvref_t<decltype(n)>;
        if constexpr (std::is_same_v<N, Assign>) {
          one(n.value);
        } else if constexpr (std::is_same_v<N, Store>) {
          one(n.offset);
          one(n.value);
        } else if constexpr (is_one_of<N, If, While>) {
          one(n.cond);
        } else if constexpr (std::is_same_v<N, For>) {
          one(n.begin);
          one(n.end);
          one(n.step);
        } else if constexpr (std::is_same_v<N, Printf>) {
          for (auto& a : n.args) one(a);
        } else if constexpr (std::is_same_v<N, Launch>) {
          if (!n.info) return;
          for (auto& g : n.info->grid) one(g);
          for (auto& b : n.info->block) one(b);
          one(n.info->smem);
          for (auto& c : n.info->cluster) one(c);
          one(n.info->stream);
          for (auto& a : n.info->args) one(a);
        } else if constexpr (std::is_same_v<N, Check>) {
          one(n.cond);
          one(n.reported);
        } else if constexpr (std::is_same_v<N, VecCopy>) {
          one(n.dst_offset);
          one(n.src_offset);
        } else if constexpr (std::is_same_v<N, Eval>) {
          one(n.expr);
        } else if constexpr (!is_one_of<N, Break, Continue, Return, Sync>) {
          static_assert(kUnhandled<N>, "a statement kind without its operands");
        }
      },
      s.node);
}

/// Calls `f` on each operand slot of expression `e` (Expr or const Expr), skipping empty ones.
template <class E, class F>
void expr_operand_slots(E& e, F&& f) {
  auto one = [&](auto& slot) {
    if (slot) f(slot);
  };
  std::visit(
      [&](auto& n) {
        using N = std::remove_cvref_t<decltype(n)>;
        if constexpr (std::is_same_v<N, Unary>) {
          one(n.operand);
        } else if constexpr (std::is_same_v<N, Binary>) {
          one(n.lhs);
          one(n.rhs);
        } else if constexpr (std::is_same_v<N, Select>) {
          one(n.cond);
          one(n.if_true);
          one(n.if_false);
        } else if constexpr (std::is_same_v<N, Cast>) {
          one(n.value);
        } else if constexpr (std::is_same_v<N, Call>) {
          for (auto& a : n.args) one(a);
        } else if constexpr (is_one_of<N, Load, AddressOf>) {
          one(n.offset);
        } else if constexpr (std::is_same_v<N, IntrinsicCall>) {
          for (auto& o : n.operands) one(o);
        } else if constexpr (!is_one_of<N, IntConst, FloatConst, Var, Param, Builtin, TensorData, TensorExtent,
                                        TensorStride>) {
          static_assert(kUnhandled<N>, "an expression kind without its operands");
        }
      },
      e.node);
}

template <class S, class F>
void block_slots(S& s, F&& f) {
  if (auto* i = s.template get_if<If>()) {
    f(i->then_body);
    f(i->else_body);
  } else if (auto* l = s.template get_if<For>()) {
    f(l->body);
  } else if (auto* w = s.template get_if<While>()) {
    f(w->body);
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

void for_each_operand(const Expr& e, const std::function<void(const ExprRef&)>& f) { expr_operand_slots(e, f); }

void for_each_block(const Stmt& s, const std::function<void(const Block&)>& f) { block_slots(s, f); }
void for_each_block(Stmt& s, const std::function<void(Block&)>& f) { block_slots(s, f); }

void for_each_name(const Stmt& s, const std::function<void(const std::string&, NameUse)>& f) {
  if (const auto* a = s.get_if<Assign>()) f(a->var, NameUse::Assigned);
  if (const auto* l = s.get_if<For>()) f(l->var, NameUse::LoopVar);
  if (const auto* st = s.get_if<Store>()) f(st->ptr, NameUse::StoredTo);
  if (const auto* v = s.get_if<VecCopy>()) {
    f(v->dst, NameUse::StoredTo);
    f(v->src, NameUse::CopiedFrom);
  }
}

void for_each_expr(const ExprRef& e, const std::function<void(const Expr&)>& f) {
  if (!e) return;
  f(*e);
  expr_operand_slots(*e, [&](const ExprRef& o) { for_each_expr(o, f); });
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
  expr_operand_slots(*e, [&](const ExprRef& o) {
    ops.push_back(mutate(o, f));
    changed |= ops.back() != o;
  });
  if (!changed) return f(e);
  auto copy = std::make_shared<Expr>(*e);
  size_t i = 0;
  expr_operand_slots(*copy, [&](ExprRef& o) { o = std::move(ops[i++]); });
  return f(copy);
}

void mutate(Block& b, const std::function<ExprRef(const ExprRef&)>& f) {
  for (auto& s : b) {
    for_each_operand(*s, [&](ExprRef& e) { e = mutate(e, f); });
    for_each_block(*s, [&](Block& inner) { mutate(inner, f); });
  }
}

}  // namespace tileslc::ir
