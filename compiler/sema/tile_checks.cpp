// Ragged tiles: a divide (local_tile, zipped_divide, ...) of a run-time extent
// by a tile that the extent's known divisibility does not cover leaves a last
// tile reaching past the tensor. While compiling that is warning W0601, unless
// an identity tensor over the extent predicates the edge. A kernel's ragged
// extent made of its launch's run-time leaves (a host tensor's symbolic
// extents) is also checked by the host function before each launch, which
// refuses the launch with a message instead of letting the kernel read or
// write out of bounds (issue 15 item 3; docs/diagnostics/W0601.md).
#include "sema/evaluator.h"

namespace tileslc::sema {

namespace {

/// `x` with its leaves renamed by `to` (leaves it does not name are kept).
layout::Int rename_leaves(const layout::Int& x, const std::map<std::string, std::string>& to) {
  if (x.has_value()) return x;
  if (x.symbolic_op() == 0) {
    auto it = to.find(x.symbol_name());
    return layout::Int::symbol(it == to.end() ? x.symbol_name() : it->second);
  }
  layout::Int a = rename_leaves(x.lhs(), to), b = rename_leaves(x.rhs(), to);
  switch (x.symbolic_op()) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return a % b;
  }
}

bool all_leaves_in(const std::vector<std::string>& leaves, const std::vector<std::string>& host_leaves) {
  for (const auto& l : leaves)
    if (std::find(host_leaves.begin(), host_leaves.end(), l) == host_leaves.end()) return false;
  return !leaves.empty();
}

}  // namespace

std::vector<Evaluator::TileCheck> Evaluator::report_ragged_tiles(const FnCtx& ctx, const std::vector<std::string>* host_leaves) {
  std::vector<TileCheck> checks;
  std::set<std::string> said;
  for (const auto& rt : ctx.ragged_tiles) {
    if (ctx.predicated_leaves.count(rt.leaf) || !said.insert(rt.extent + "/" + std::to_string(rt.tile)).second) continue;
    auto& d = diags_.report(diag::Kind::TilerMayNotDivide, rt.at,
                            "tile extent " + std::to_string(rt.tile) + " may not divide the run-time extent " + rt.extent +
                                ": the last tile would reach past the tensor");
    std::vector<std::string> leaves;
    collect_leaves(layout::IntTuple(rt.size), leaves);
    if (host_leaves && all_leaves_in(leaves, *host_leaves)) {
      checks.push_back({rt.size, rt.tile, rt.divide, rt.at});
      d.note("the host function checks before each launch that " + rt.extent + " is a multiple of " + std::to_string(rt.tile) +
             " and refuses the launch otherwise");
    }
    d.help("declare the extent's divisibility (cute.sym_int(\"" + rt.leaf + "\", divisibility=" + std::to_string(rt.tile) +
           ")), which the host function checks, launch this tile only under `if " + rt.leaf + " % " + std::to_string(rt.tile) +
           " == 0:`, or predicate the edge with cute.make_identity_tensor and cute.elem_less");
  }
  return checks;
}

void Evaluator::emit_tile_checks(int kernel, const std::vector<std::string>& leaves, source::SourceRange at) {
  auto it = kernel_tile_checks_.find(kernel);
  if (it == kernel_tile_checks_.end()) return;
  const auto& [generated_with, checks] = it->second;
  std::map<std::string, std::string> now;  // equal keys: the same leaves in the same order, maybe renamed
  for (size_t i = 0; i < generated_with.size() && i < leaves.size(); ++i) now[generated_with[i]] = leaves[i];
  const ir::HostFunction& host = *fn_->host;
  for (const auto& tc : checks) {
    layout::Int extent = rename_leaves(tc.extent, now);
    ir::ExprRef e = lower_int(extent, at);
    // "K (extent 1 of mA)" for a host tensor's symbolic extent, else the extent's expression.
    std::string what = "the run-time extent " + extent.to_string();
    if (extent.symbolic_op() == 0)
      for (const auto& sb : host.symbols)
        if (sb.symbol == extent.symbol_name() && !sb.is_stride)
          what = sb.symbol + " (extent " + std::to_string(sb.mode) + " of " + host.params.at(sb.param).name + ")";
    const std::string where = sm_.file(tc.at.file).path() + ":" + std::to_string(sm_.line_col(tc.at.start()).line);
    auto zero = ir::int_const(0, ir::ScalarType::Int64);
    auto rem = ir::binary(ir::Op::TruncMod, e, ir::int_const(tc.tile, ir::ScalarType::Int64), ir::ScalarType::Int64);
    emit(ir::check(at, ir::binary(ir::Op::Eq, rem, zero, ir::ScalarType::Boolean),
                   host.name + ": " + what + " must be a multiple of " + std::to_string(tc.tile) + " for the tile of " + tc.divide +
                       " at " + where,
                   e));
  }
}

}  // namespace tileslc::sema
