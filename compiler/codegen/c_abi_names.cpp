// C names of host functions and their collisions (c_abi_names.h).
#include "codegen/c_abi_names.h"

#include <map>

namespace tileslc::codegen {

std::string c_abi_name(const std::string& host_name) { return "tileslc_" + host_name; }

std::string c_packed_name(const std::string& host_name) { return "tileslc_" + host_name + "_packed"; }

const std::vector<std::string_view>& runtime_c_names() {
  static const std::vector<std::string_view> names = {
      // tileslc/c_api.h
      "tileslc_dtype", "tileslc_status", "tileslc_stream", "tileslc_tensor_view", "tileslc_last_error",
      // tileslc/dlpack.h
      "tileslc_tensor_view_from_dlpack", "tileslc_tensor_view_from_dlpack_versioned", "tileslc_tensor_view_from_dltensor",
  };
  return names;
}

std::vector<CAbiConflict> c_abi_conflicts(const ir::Program& p) {
  std::map<std::string, int> defined;  // C name -> host function index, -1 for the runtime's
  for (std::string_view n : runtime_c_names()) defined.emplace(std::string(n), -1);
  std::vector<CAbiConflict> out;
  for (size_t i = 0; i < p.host_functions.size(); ++i) {
    const std::string& name = p.host_functions[i].name;
    for (const std::string& c : {c_abi_name(name), c_packed_name(name)}) {
      auto [it, fresh] = defined.emplace(c, static_cast<int>(i));
      if (!fresh) out.push_back({i, c, it->second});
    }
  }
  return out;
}

}  // namespace tileslc::codegen
