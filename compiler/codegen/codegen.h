// Codegen: prints an ir::Program as CUDA C++ (the .cu with kernels, host
// functions and their C ABI twins), the header declaring the host functions,
// and the metadata JSON. Output is a pure function of the program and the
// options: identical input gives identical bytes. Statements carry #line
// directives back to the .tpy; glue code maps back to the .cu itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "source/source.h"

namespace tileslc::codegen {

/// What the generated code is compiled for: nvcc and a GPU, or the host C++
/// compiler and the CPU emulator (runtime/include/tileslc/cpu/).
enum class Target : uint8_t { Cuda, Cpu };

struct Options {
  std::string cu_path;      ///< where the .cu is written (for #line back to the generated file)
  std::string header_name;  ///< file name of the header, for its include guard; may be empty
  std::string version;      ///< tileslc version, printed in the banner
  const source::SourceManager* sm = nullptr;  ///< resolves IR locations to file:line for #line
  Target target = Target::Cuda;
  /// --debug: keep every local (the debug locals sema made, offsets nothing reads) and, on
  /// the CPU target, give each kernel frame its thread's indices as locals (tl_thread_idx,
  /// tl_block_idx, tl_warp_idx, tl_lane_idx) and its debug views (ir::DebugView: objects of
  /// tileslc/cpu/debug_view.h that tileslc-gdb.py prints) for gdb (docs/debugging.md).
  bool debug = false;
};

/// An operation of a kernel that the CPU emulator cannot run yet: a device
/// function its runtime (runtime/include/tileslc/cpu) lacks, what it is and
/// where. Today there is none (the sm_80 and sm_90 atoms and clusters are all
/// emulated, docs/cpu_emulation.md); the check guards operations added to the
/// compiler before the emulator learns them.
struct NotEmulated {
  std::string what;
  source::SourceRange loc;
};
/// For --target=cpu: every such operation in `p`, in program order.
std::vector<NotEmulated> not_emulated(const ir::Program& p);

std::string emit_cuda(const ir::Program& p, const Options& opts);
std::string emit_header(const ir::Program& p, const Options& opts);
std::string emit_metadata(const ir::Program& p, const Options& opts);

}  // namespace tileslc::codegen
