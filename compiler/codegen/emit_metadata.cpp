// The metadata JSON: kernels (parameters, specialization, threads per block,
// shared memory its allocations need, cluster dims of a cluster launch),
// host functions (parameters with dtypes, extents and alignment), target arch
// and target (cuda or cpu).
#include <nlohmann/json.hpp>

#include "codegen/codegen.h"

namespace tileslc::codegen {

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
    nlohmann::ordered_json hj;
    hj["name"] = h.name;
    hj["c_abi_name"] = "tileslc_" + h.name;
    hj["c_packed_name"] = "tileslc_" + h.name + "_packed";
    auto params = nlohmann::ordered_json::array();
    for (const auto& prm : h.params) {
      nlohmann::ordered_json pj;
      pj["name"] = prm.name;
      pj["kind"] = prm.kind == ir::HostParam::Tensor ? "tensor" : "scalar";
      pj["dtype"] = ir::type_name(prm.type);
      if (prm.kind == ir::HostParam::Tensor) {
        auto dims = nlohmann::ordered_json::array();
        for (const auto& d : prm.dims) dims.push_back(d.is_static ? nlohmann::ordered_json(d.value) : nlohmann::ordered_json(d.symbol));
        pj["shape"] = dims;
        pj["align_bytes"] = prm.align_bytes;
      }
      params.push_back(pj);
    }
    hj["params"] = params;
    hosts.push_back(hj);
  }
  j["host_functions"] = hosts;
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace tileslc::codegen
