// What the CPU emulation target (--target=cpu) changes in a kernel's
// expressions: every element access p[i] becomes TILESLC_AT(p, i) (a store
// p[i] = v, TILESLC_SET(p, i, v)) and every element address &p[i] becomes
// TILESLC_ADDR(p, i), the bounds-checked forms
// of tileslc/cpu/checked.h. The rewrite builds new expressions only where an
// access occurs; the CUDA target never calls it, so its output is unchanged.
// Also: which of a program's operations the emulator cannot run (none of
// today's tileslc::dev:: functions; the check guards new ones).
#include "codegen/codegen.h"
#include "codegen/printer.h"
#include "ir/visit.h"

namespace tileslc::codegen {

ir::ExprRef checked_accesses(const ir::ExprRef& e) {
  // Operands are rewritten first, so a rewritten access's offset is checked too.
  return ir::mutate(e, [](const ir::ExprRef& x) -> ir::ExprRef {
    // A whole parameter's address (&tma_a, a TMA descriptor) has no element to check.
    if (x->kind == ir::ExprKind::AddressOf && x->operands.empty()) return x;
    if (x->kind == ir::ExprKind::Load || x->kind == ir::ExprKind::AddressOf) {
      const char* macro = x->kind == ir::ExprKind::Load ? "TILESLC_AT" : "TILESLC_ADDR";
      return ir::call(macro, {ir::var_ref(x->name, x->type), x->operands.at(0)}, x->type);
    }
    // A float converted to an integer: on the GPU static_cast is cvt.rzi, which saturates
    // (NaN to 0); in host C++ an out-of-range value has no defined result.
    if (x->kind == ir::ExprKind::Cast && ir::is_integer(x->type) && ir::is_float(x->operands.at(0)->type))
      return ir::call(std::string("tileslc::cpu::cvt_rzi<") + ir::cpp_type(x->type) + ">", {x->operands.at(0)}, x->type);
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

// The tileslc::dev:: functions runtime/include/tileslc/cpu/prelude.h (and
// sm90.h, which it includes) has.
bool emulated(const std::string& fn) {
  static const char* const kPrefixes[] = {"atomic_", "named_barrier_sync", "cp_async_", "mma_m16n8k16_f32_", "ldsm_",
                                           "mma_m16n8k8_f32_tf32", "mma_m16n8k32_s32_", "stsm_", "redux_sync_",
                                           "mbarrier_", "tma_", "bulk_", "fence_proxy_async", "warp_uniform", "setmaxnreg_",
                                           "elect_one", "wgmma_",
                                           // thread-block clusters (tileslc/cpu/cluster.h): the special registers
                                           // (cluster_idx_x, cluster_dim_x, block_in_cluster_idx_x,
                                           // block_in_cluster_dim_x, ..., block_idx_in_cluster) and barrier.cluster;
                                           // mbarrier_arrive_cluster and tma_load_2d_multicast match the prefixes above
                                           "cluster_", "block_in_cluster_", "block_idx_in_cluster"};
  for (const char* p : kPrefixes)
    if (fn.rfind(p, 0) == 0) return true;
  return false;
}

void find_unemulated(const ir::Block& b, std::vector<NotEmulated>& out) {
  static const std::string kDev = "tileslc::dev::";
  ir::for_each_expr(b, [&](const ir::Expr& e, const ir::Stmt& s) {
    // Calls, and builtin reads of special registers (cluster indices: "tileslc::dev::cluster_idx_x()").
    if ((e.kind != ir::ExprKind::Call && e.kind != ir::ExprKind::Builtin) || e.name.rfind(kDev, 0) != 0) return;
    std::string fn = e.name.substr(kDev.size());
    if (fn.size() > 2 && fn.compare(fn.size() - 2, 2, "()") == 0) fn.resize(fn.size() - 2);
    // One report per operation and line (an unrolled statement issues it many times).
    bool seen = false;
    for (const auto& n : out) seen |= n.what == fn && n.loc.begin == s.loc.begin && n.loc.file == s.loc.file;
    if (!emulated(fn) && !seen) out.push_back({std::move(fn), s.loc});
  });
}

}  // namespace

std::vector<NotEmulated> not_emulated(const ir::Program& p) {
  std::vector<NotEmulated> out;
  for (const auto& k : p.kernels) find_unemulated(k.body, out);
  return out;
}

}  // namespace tileslc::codegen
