// What the CPU emulation target (--target=cpu) changes in a kernel's
// expressions: every element access p[i] becomes TILESLC_AT(p, i) and every
// element address &p[i] becomes TILESLC_ADDR(p, i), the bounds-checked forms
// of tileslc/cpu/checked.h. The rewrite builds new expressions only where an
// access occurs; the CUDA target never calls it, so its output is unchanged.
#include "codegen/printer.h"

namespace tileslc::codegen {

ir::ExprRef checked_accesses(const ir::ExprRef& e) {
  if (!e) return e;
  if (e->kind == ir::ExprKind::Load || e->kind == ir::ExprKind::AddressOf) {
    const char* macro = e->kind == ir::ExprKind::Load ? "TILESLC_AT" : "TILESLC_ADDR";
    return ir::call(macro, {ir::var_ref(e->name, e->type), checked_accesses(e->operands.at(0))}, e->type);
  }
  std::vector<ir::ExprRef> ops;
  bool changed = false;
  for (const auto& o : e->operands) {
    ops.push_back(checked_accesses(o));
    changed |= ops.back() != o;
  }
  if (!changed) return e;
  auto copy = std::make_shared<ir::Expr>(*e);
  copy->operands = std::move(ops);
  return copy;
}

std::string cpu_element(const std::string& base, const std::string& offset, bool address) {
  return std::string(address ? "TILESLC_ADDR(" : "TILESLC_AT(") + base + ", " + offset + ")";
}

}  // namespace tileslc::codegen
