// `tileslc -c`: compiles the generated CUDA C++ with nvcc and reports nvcc's
// and ptxas's errors and warnings as tileslc diagnostics at the .tpy lines
// the #line directives name (E0704/W0701), so users see their own source.
#pragma once

#include <string>
#include <vector>

#include "diag/diag.h"

namespace tileslc::driver {

struct NvccJob {
  std::string cu_path;       ///< generated .cu to compile
  std::string object_path;   ///< -o
  std::string arch;          ///< sm_80, sm_90, sm_90a
  std::string include_dir;   ///< runtime/include
  std::vector<std::string> extra_flags;
};

/// Finds nvcc: $CUDA_PATH/bin, /usr/local/cuda/bin, then PATH. Empty if none.
std::string find_nvcc();

/// Runs nvcc and reports each of its and ptxas's errors and warnings at a .tpy line: where
/// nvcc names a loaded source ("FILE(LINE): error: ...", through the #line directives), at the
/// nearest #line of the generated code where it names a line without one, and at the kernel a
/// ptxas message names (else the first construct). Lines it cannot place go to
/// `unmapped_output`. Returns nvcc's exit status (0 ok).
int run_nvcc(const NvccJob& job, const source::SourceManager& sm, diag::DiagnosticEngine& diags,
             std::string* unmapped_output);

}  // namespace tileslc::driver
