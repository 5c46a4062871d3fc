// The C names the generated code defines for host functions (their C twin and packed entry,
// runtime/include/tileslc/c_api.h), and the check that none of them is a name the runtime's C
// headers declare already or another host function's: such a collision would otherwise surface
// as an nvcc or linker error in generated code (issue 15 item 9).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace tileslc::codegen {

/// `tileslc_NAME`: the extern "C" twin of host function NAME (after any --host-prefix).
std::string c_abi_name(const std::string& host_name);
/// `tileslc_NAME_packed`: its packed entry.
std::string c_packed_name(const std::string& host_name);

/// Every identifier the runtime's C headers (tileslc/c_api.h, tileslc/dlpack.h) declare with
/// the `tileslc_` prefix: functions, types and enums. codegen_test checks it against the headers.
const std::vector<std::string_view>& runtime_c_names();

/// A C name that host function `host` (an index into Program::host_functions) would define
/// and that is declared already: by the runtime (`other` = -1) or by host function `other`.
struct CAbiConflict {
  size_t host = 0;
  std::string name;  ///< the colliding C name, e.g. "tileslc_last_error"
  int other = -1;
};

/// The collisions of `p`'s host functions' C names, in host-function order.
std::vector<CAbiConflict> c_abi_conflicts(const ir::Program& p);

}  // namespace tileslc::codegen
