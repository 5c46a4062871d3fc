// Sema: the partial evaluator (DESIGN.md §2 "How sema works"). It loads the
// main module and everything it imports (from the source's directory, -I
// directories and the stdlib), runs module bodies at compile time, and for
// each @cute.jit function evaluates the body with an environment from names to
// values: static values are computed, dynamic ones become IR. Helper calls are
// inlined and specialized on static arguments; kernel launches instantiate a
// specialized kernel per distinct argument signature. The result is a
// fully specialized ir::Program, or nullopt after errors were reported.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "ir/ir.h"
#include "source/source.h"

namespace tileslc::sema {

struct Options {
  std::string arch = "sm_90a";                   ///< "sm_80" or "sm_90a"
  std::vector<std::string> include_dirs;          ///< -I, searched after the main file's directory
  std::string stdlib_dir;                         ///< holds tileslc/__init__.tpy
  std::map<std::string, std::string> defines;     ///< -D NAME=VALUE (Constexpr parameters)
};

/// Analyzes `main` and everything it imports. Files read are appended to
/// `dependencies` (for depfiles), the main file first.
std::optional<ir::Program> analyze(source::SourceManager& sm, source::FileId main, const Options& opts,
                                   diag::DiagnosticEngine& diags, std::vector<std::string>* dependencies);

}  // namespace tileslc::sema
