// The metadata JSON: kernels (parameters, specialization, threads per block,
// shared memory its allocations need, cluster dims of a cluster launch),
// host functions (parameters with dtypes, extents, alignment and whether a kernel writes them), target arch
// and target (cuda or cpu).
#include <nlohmann/json.hpp>

#include <set>

#include "codegen/c_abi_names.h"
#include "codegen/codegen.h"
#include "ir/visit.h"

namespace tileslc::codegen {
namespace {

/// Which of host function `h`'s parameters its launches may write: a tensor whose data
/// pointer goes to a kernel pointer parameter the kernel stores through (KernelParam::is_const
/// false), or whose TMA descriptor a TMA store or reduction uses. The Python package's torch
/// operators declare these tensors as mutated (python/tileslc/torch.py).
std::vector<bool> written_params(const ir::Program& p, const ir::HostFunction& h) {
  std::vector<bool> written(h.params.size(), false);
  auto mark_tensors = [&](const ir::ExprRef& e) {
    ir::for_each_expr(e, [&](const ir::Expr& x) {
      if (const auto* d = x.get_if<ir::TensorData>(); d && d->tensor >= 0 && size_t(d->tensor) < written.size())
        written[d->tensor] = true;
    });
  };
  ir::for_each_stmt(h.body, [&](const ir::Stmt& s) {
    const auto* launch = s.get_if<ir::Launch>();
    if (!launch || !launch->info) return;
    const ir::LaunchInfo& l = *launch->info;
    const ir::Kernel& k = p.kernels.at(l.kernel);
    std::set<std::string> tma_stored;  // descriptor parameters of TMA stores and reductions
    ir::for_each_expr(k.body, [&](const ir::Expr& x, const ir::Stmt&) {
      const auto* call = x.get_if<ir::IntrinsicCall>();
      if (!call || call->operands.empty() ||
          (call->id != ir::Intrinsic::TmaStore2d && call->id != ir::Intrinsic::TmaReduceAdd2d && call->id != ir::Intrinsic::TmaStore3d &&
           call->id != ir::Intrinsic::TmaReduceAdd3d))
        return;
      ir::for_each_expr(call->operands.front(), [&](const ir::Expr& d) {
        if (const auto* prm = d.get_if<ir::Param>()) tma_stored.insert(prm->name);
        if (const auto* var = d.get_if<ir::Var>()) tma_stored.insert(var->name);
      });
    });
    for (size_t i = 0; i < k.params.size() && i < l.args.size(); ++i) {
      const ir::KernelParam& kp = k.params[i];
      if ((kp.is_pointer && !kp.is_const && !kp.is_tma) || (kp.is_tma && tma_stored.count(kp.name))) mark_tensors(l.args[i]);
    }
  });
  return written;
}

/// The tuning space as the tuner reads it (docs/tuning.md): parameters with candidates, key,
/// the kept configurations (objects of -D literals) and the pruned ones with the reason.
nlohmann::ordered_json tune_json(const ir::TuneSpace& t) {
  auto config = [&](const std::vector<std::string>& values) {
    nlohmann::ordered_json c = nlohmann::ordered_json::object();
    for (size_t i = 0; i < t.params.size(); ++i) c[t.params[i]] = values[i];
    return c;
  };
  nlohmann::ordered_json j;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (size_t i = 0; i < t.params.size(); ++i) params[t.params[i]] = t.values[i];
  j["params"] = params;
  j["key"] = t.key;
  auto kept = nlohmann::ordered_json::array();
  for (const auto& c : t.configs) kept.push_back(config(c));
  j["configs"] = kept;
  auto pruned = nlohmann::ordered_json::array();
  for (const auto& p : t.pruned) pruned.push_back({{"config", config(p.config)}, {"reason", p.reason}});
  j["pruned"] = pruned;
  return j;
}

}  // namespace

std::string emit_metadata(const ir::Program& p, const Options& opts) {
  nlohmann::ordered_json j;
  j["tileslc_version"] = opts.version;
  j["source"] = p.source_path;
  j["arch"] = p.arch;
  j["target"] = opts.target == Target::Cpu ? "cpu" : "cuda";  // which runtime the library links (Python reads it)
  auto kernels = nlohmann::ordered_json::array();
  for (const auto& k : p.kernels) {
    nlohmann::ordered_json kj;
    kj["name"] = k.name;
    kj["qualified_name"] = p.kernel_namespace + "::" + k.name;
    kj["source_name"] = k.source_name;
    kj["specialization"] = k.specialization;
    kj["threads_per_block"] = k.static_threads ? nlohmann::ordered_json(k.static_threads) : nlohmann::ordered_json(nullptr);
    // The kernel's own shared-memory allocations (SmemAllocator); a launch's smem= adds to them.
    kj["shared_memory_bytes"] = k.smem_bytes;
    if (k.cluster_dims[0] > 0) kj["cluster_dims"] = {k.cluster_dims[0], k.cluster_dims[1], k.cluster_dims[2]};
    auto params = nlohmann::ordered_json::array();
    for (const auto& prm : k.params)
      params.push_back({{"name", prm.name}, {"kind", prm.is_tma ? "tma_descriptor" : prm.is_pointer ? "pointer" : "scalar"}, {"dtype", ir::type_name(prm.type)},
                        {"const", prm.is_const}});
    kj["params"] = params;
    kernels.push_back(kj);
  }
  j["kernels"] = kernels;
  auto hosts = nlohmann::ordered_json::array();
  for (const auto& h : p.host_functions) {
    const std::vector<bool> written = written_params(p, h);
    nlohmann::ordered_json hj;
    hj["name"] = h.name;
    hj["c_abi_name"] = c_abi_name(h.name);
    hj["c_packed_name"] = c_packed_name(h.name);
    auto params = nlohmann::ordered_json::array();
    for (size_t i = 0; i < h.params.size(); ++i) {
      const auto& prm = h.params[i];
      nlohmann::ordered_json pj;
      pj["name"] = prm.name;
      pj["kind"] = prm.kind == ir::HostParam::Tensor ? "tensor" : "scalar";
      pj["dtype"] = ir::type_name(prm.type);
      if (prm.kind == ir::HostParam::Tensor) {
        auto dims = nlohmann::ordered_json::array();
        for (const auto& d : prm.dims) dims.push_back(d.is_static ? nlohmann::ordered_json(d.value) : nlohmann::ordered_json(d.symbol));
        pj["shape"] = dims;
        pj["align_bytes"] = prm.align_bytes;
        pj["written"] = bool(written[i]);  // a launched kernel may store into it
      }
      params.push_back(pj);
    }
    hj["params"] = params;
    nlohmann::ordered_json cx = nlohmann::ordered_json::object();
    for (const auto& [name, value] : h.constexprs) cx[name] = value;
    hj["constexprs"] = cx;  // this compilation's configuration, as -D literals
    if (h.tune.declared) hj["tune"] = tune_json(h.tune);
    if (h.cost.declared()) {  // @cutlass.cost: Python arithmetic over the symbols and Constexpr values
      hj["cost"] = {{"bytes", h.cost.bytes.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(h.cost.bytes)},
                    {"flops", h.cost.flops.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(h.cost.flops)}};
    }
    hosts.push_back(hj);
  }
  j["host_functions"] = hosts;
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace tileslc::codegen
