// The barrier uniformity check (see uniformity.h): a forward walk over the
// kernel's IR that marks locals not uniform across the block, repeated until
// that set stops growing, then a last walk that reports the barriers reached
// under divergent control flow.
#include "sema/uniformity.h"

#include <optional>
#include <set>
#include <string>

namespace tileslc::sema {

namespace {

/// Intrinsics whose result may differ between the threads of a block.
bool varies_per_thread(ir::Intrinsic id) {
  switch (id) {
    case ir::Intrinsic::LaneIdx: case ir::Intrinsic::WarpIdx: case ir::Intrinsic::ElectOne:
    case ir::Intrinsic::Atomic: case ir::Intrinsic::AtomicCas: case ir::Intrinsic::AtomicAddX2:
    case ir::Intrinsic::ShflSync: case ir::Intrinsic::ShflUpSync: case ir::Intrinsic::ShflDownSync:
    case ir::Intrinsic::ShflXorSync: case ir::Intrinsic::BallotSync: case ir::Intrinsic::VoteSync:
    case ir::Intrinsic::ReduxSync: case ir::Intrinsic::WarpUniform:
      return true;
    default:
      return false;
  }
}

/// How a block was left: by a return, or by a break or continue of the innermost loop, taken
/// by only some threads.
struct Exits {
  bool returned = false;
  bool left_loop = false;
};

class Walker {
 public:
  explicit Walker(diag::DiagnosticEngine* diags, bool warp_scope = false) : diags_(diags), warp_scope_(warp_scope) {}

  std::set<std::string> varying;  ///< locals that may differ between threads (of a warp, in warp scope)
  bool grew = false;

  bool varies(const ir::ExprRef& e) const {
    if (!e) return false;
    return std::visit(ir::Overloaded{
                          [](const ir::IntConst&) { return false; }, [](const ir::FloatConst&) { return false; },
                          [&](const ir::Var& v) { return varying.count(v.name) > 0; },
                          [](const ir::Param&) { return false; },
                          [](const ir::Builtin& b) { return b.name.rfind("threadIdx", 0) == 0; },
                          [](const ir::TensorData&) { return false; }, [](const ir::TensorExtent&) { return false; },
                          [](const ir::TensorStride&) { return false; },
                          [&](const ir::Unary& u) { return varies(u.operand); },
                          [&](const ir::Binary& b) { return varies(b.lhs) || varies(b.rhs); },
                          [&](const ir::Select& s) { return varies(s.cond) || varies(s.if_true) || varies(s.if_false); },
                          [&](const ir::Cast& c) { return varies(c.value); },
                          [&](const ir::Call& c) {
                            for (const auto& a : c.args)
                              if (varies(a)) return true;
                            return false;
                          },
                          [](const ir::Load&) { return true; },  // data may differ, or change between reads
                          [&](const ir::AddressOf& a) { return varies(a.offset); },
                          [&](const ir::IntrinsicCall& c) {
                            const bool warp_uniform = c.id == ir::Intrinsic::WarpIdx || c.id == ir::Intrinsic::WarpUniform;
                            if (varies_per_thread(c.id) && !(warp_scope_ && warp_uniform)) return true;
                            for (const auto& a : c.operands)
                              if (varies(a)) return true;
                            return false;
                          },
                      },
                      e->node);
  }

  /// Walks `b`; `divergent` is where the innermost condition that may differ between threads
  /// is (none: every thread runs this block).
  Exits block(const ir::Block& b, std::optional<source::SourceRange> divergent) {
    Exits out;
    for (const auto& s : b) {
      Exits e = stmt(*s, divergent);
      // After a return, break or continue that only some threads took, the rest of the block
      // runs in the others only.
      if (e.returned || e.left_loop) {
        out.returned |= e.returned;
        out.left_loop |= e.left_loop;
        if (!divergent) divergent = last_exit_;
      }
    }
    return out;
  }

 private:
  diag::DiagnosticEngine* diags_;  ///< null while the fixpoint runs
  bool warp_scope_ = false;        ///< uniform across a warp (the warp index is) rather than the block
  source::SourceRange last_exit_;  ///< the condition under which the last divergent exit was taken

  void mark(const std::string& var) {
    if (varying.insert(var).second) grew = true;
  }

  Exits stmt(const ir::Stmt& s, std::optional<source::SourceRange> divergent) {
    Exits out;
    if (const auto* a = s.get_if<ir::Assign>()) {
      if (divergent || varies(a->value)) mark(a->var);
    } else if (const auto* i = s.get_if<ir::If>()) {
      auto inner = varies(i->cond) ? std::optional(s.loc) : divergent;
      // Exits are reported only when taken under a condition that varies (see Return below).
      Exits t = block(i->then_body, inner), e = block(i->else_body, inner);
      out.returned = t.returned || e.returned;
      out.left_loop = t.left_loop || e.left_loop;
    } else if (const auto* f = s.get_if<ir::For>()) {
      const bool trip_varies = varies(f->begin) || varies(f->end) || varies(f->step);
      if (divergent || trip_varies) mark(f->var);
      auto inner = trip_varies ? std::optional(s.loc) : divergent;
      Exits e = block(f->body, inner);
      if (e.left_loop && !inner) e = block(f->body, last_exit_);  // later iterations run in some threads only
      out.returned = e.returned;
    } else if (const auto* w = s.get_if<ir::While>()) {
      auto inner = varies(w->cond) ? std::optional(s.loc) : divergent;
      Exits e = block(w->body, inner);
      if (e.left_loop && !inner) e = block(w->body, last_exit_);
      out.returned = e.returned;
    } else if (s.is<ir::Return>()) {
      out.returned = divergent.has_value();
      if (divergent) last_exit_ = *divergent;
    } else if (s.is<ir::Break>() || s.is<ir::Continue>()) {
      out.left_loop = divergent.has_value();
      if (divergent) last_exit_ = *divergent;
    } else if (s.is<ir::Sync>() && divergent && diags_) {
      report(s.loc, *divergent);
    }
    return out;
  }

  void report(source::SourceRange barrier, source::SourceRange condition) {
    for (const auto& d : diags_->diagnostics())
      if (d.kind == diag::Kind::DivergentBarrier && d.range.begin == barrier.begin && d.range.end == barrier.end) return;
    auto& d = diags_->report(diag::Kind::DivergentBarrier, barrier,
                             "this block-wide barrier may be reached by only some threads of the block");
    d.label(condition, "this depends on the thread, lane or warp index or on loaded data");
    d.note("every thread of the block must reach __syncthreads(); those that skip it leave the others waiting "
           "(a deadlock, undefined behaviour on the GPU)");
    d.help("move the barrier out of the condition so that every thread reaches it, or synchronize only the threads "
           "that do with a named barrier: cute.arch.barrier(barrier_id=1, number_of_threads=...)");
  }
};

/// A TMA copy's issuing intrinsic (loads, stores and reduce-adds).
bool is_tma_issue(const ir::Stmt& s) {
  const auto* e = s.get_if<ir::Eval>();
  const auto* call = e ? e->expr->get_if<ir::IntrinsicCall>() : nullptr;
  if (!call) return false;
  switch (call->id) {
    case ir::Intrinsic::TmaLoad2d: case ir::Intrinsic::TmaLoad3d: case ir::Intrinsic::TmaLoad2dMulticast:
    case ir::Intrinsic::TmaLoad3dMulticast: case ir::Intrinsic::TmaStore2d: case ir::Intrinsic::TmaStore3d:
    case ir::Intrinsic::TmaReduceAdd2d: case ir::Intrinsic::TmaReduceAdd3d:
      return true;
    default:
      return false;
  }
}

/// Wraps each TMA issue of `b` that runs under warp-uniform control flow in `if (elect_one())`.
void elect_tma_issues(ir::Block& b, bool divergent, const Walker& w) {
  for (auto& s : b) {
    if (auto* i = s->get_if<ir::If>()) {
      const bool d = divergent || w.varies(i->cond);
      elect_tma_issues(i->then_body, d, w);
      elect_tma_issues(i->else_body, d, w);
    } else if (auto* f = s->get_if<ir::For>()) {
      elect_tma_issues(f->body, divergent || w.varies(f->begin) || w.varies(f->end) || w.varies(f->step), w);
    } else if (auto* wh = s->get_if<ir::While>()) {
      elect_tma_issues(wh->body, divergent || w.varies(wh->cond), w);
    } else if (!divergent && is_tma_issue(*s)) {
      const source::SourceRange loc = s->loc;
      ir::Block one;
      one.push_back(std::move(s));
      s = ir::if_(loc, ir::intrinsic(ir::Intrinsic::ElectOne, {}, {}, ir::ScalarType::Boolean), std::move(one));
    }
  }
}

}  // namespace

void elect_warp_uniform_tma(ir::Kernel& kernel) {
  Walker fix(nullptr, /*warp_scope=*/true);
  do {
    fix.grew = false;
    fix.block(kernel.body, std::nullopt);
  } while (fix.grew);
  elect_tma_issues(kernel.body, false, fix);
}

void check_barrier_uniformity(const ir::Kernel& kernel, diag::DiagnosticEngine& diags) {
  Walker fix(nullptr);
  do {
    fix.grew = false;
    fix.block(kernel.body, std::nullopt);
  } while (fix.grew);
  Walker final_pass(&diags);
  final_pass.varying = std::move(fix.varying);
  final_pass.block(kernel.body, std::nullopt);
}

}  // namespace tileslc::sema
