// What the CPU emulation target (--target=cpu) changes in a kernel's
// expressions: every element access p[i] becomes TILESLC_AT(p, i) (a store
// p[i] = v, TILESLC_SET(p, i, v)) and every element address &p[i] becomes
// TILESLC_ADDR(p, i), the bounds-checked forms
// of tileslc/cpu/checked.h; an integer division by a divisor that may be 0
// or -1 becomes a call of tileslc/cpu/int_div.h, which reports it. The
// rewrite builds new expressions only where such an operation occurs; the
// CUDA target never calls it, so its output is unchanged.
// Also: which of a program's operations the emulator cannot run (the
// intrinsics whose row says Emulated false; none today, the check guards
// new ones).
#include "codegen/codegen.h"
#include "codegen/printer.h"
#include "ir/visit.h"

namespace tileslc::codegen {

namespace {

/// The tileslc/cpu/int_div.h function for an integer division whose divisor
/// may be 0 or -1 (the host's SIGFPE: the emulator reports the .tpy line
/// instead); null for anything else.
const char* checked_division(const ir::Expr& x) {
  const auto* b = x.get_if<ir::Binary>();
  if (!b || !ir::is_integer(x.type)) return nullptr;
  auto d = ir::as_int_const(b->rhs);
  if (d && *d != 0 && *d != -1) return nullptr;
  switch (b->op) {
    case ir::Op::FloorDiv: return "floordiv";
    case ir::Op::Mod: return "mod";
    case ir::Op::TruncDiv: return "truncdiv";
    case ir::Op::TruncMod: return "truncmod";
    default: return nullptr;
  }
}

}  // namespace

ir::ExprRef checked_accesses(const ir::ExprRef& e) {
  // Operands are rewritten first, so a rewritten access's offset is checked too.
  return ir::mutate(e, [](const ir::ExprRef& x) -> ir::ExprRef {
    if (const auto* l = x->get_if<ir::Load>())
      return ir::call("TILESLC_AT", {ir::var_ref(l->ptr, x->type), l->offset}, x->type);
    // A whole parameter's address (&tma_a, a TMA descriptor: no offset) has no element to check.
    if (const auto* a = x->get_if<ir::AddressOf>(); a && a->offset)
      return ir::call("TILESLC_ADDR", {ir::var_ref(a->ptr, x->type), a->offset}, x->type);
    // A float converted to an integer saturates (needs_cvt_rzi: in host C++, always a call).
    if (const auto* c = x->get_if<ir::Cast>(); c && needs_cvt_rzi(c->value->type, x->type))
      return ir::call(cvt_rzi_callee(x->type), {c->value}, x->type);
    if (const char* fn = checked_division(*x)) {
      const auto& b = x->as<ir::Binary>();
      return ir::call(std::string("tileslc::cpu::") + fn + "<" + ir::cpp_type(x->type) + ">", {b.lhs, b.rhs}, x->type);
    }
    return x;
  });
}

std::string cpu_element(const std::string& base, const std::string& offset, bool address) {
  return std::string(address ? "TILESLC_ADDR(" : "TILESLC_AT(") + base + ", " + offset + ")";
}

std::string cpu_store(const std::string& base, const std::string& offset, const std::string& value) {
  return "TILESLC_SET(" + base + ", " + offset + ", " + value + ")";
}

namespace {

void find_unemulated(const ir::Block& b, std::vector<NotEmulated>& out) {
  ir::for_each_expr(b, [&](const ir::Expr& e, const ir::Stmt& s) {
    const auto* c = e.get_if<ir::IntrinsicCall>();
    if (!c || ir::intrinsic_info(c->id).emulated) return;
    std::string fn = ir::intrinsic_spelling(c->id, c->imms);
    // One report per operation and line (an unrolled statement issues it many times).
    bool seen = false;
    for (const auto& n : out) seen |= n.what == fn && n.loc.begin == s.loc.begin && n.loc.file == s.loc.file;
    if (!seen) out.push_back({std::move(fn), s.loc});
  });
}

}  // namespace

std::vector<NotEmulated> not_emulated(const ir::Program& p) {
  std::vector<NotEmulated> out;
  for (const auto& k : p.kernels) find_unemulated(k.body, out);
  return out;
}

}  // namespace tileslc::codegen
