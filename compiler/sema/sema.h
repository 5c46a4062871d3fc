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
  std::string kernel_namespace;                   ///< --kernel-namespace; empty: tileslc_kernels::<file stem>
  /// --debug: every name a kernel binds to a number gets a C++ local of its own (a "debug
  /// local", written where the .tpy binds it and read by nothing but a debugger), including
  /// the names whose value sema folds into the expressions that use it (`tidx` of
  /// `tidx, _, _ = cute.arch.thread_idx()`, static numbers); every name bound to a layout or a
  /// tensor view is described for gdb's printers (ir::Kernel::debug_views, its origin and
  /// run-time extents in debug locals "tl_<name>_..."). The values and the rest of the IR are
  /// those of a normal build.
  bool debug = false;
};

/// The namespace kernels of `source_path` are defined in by default:
/// tileslc_kernels::<stem>, the stem made a C++ identifier that is not
/// reserved (other characters become '_', no "__", a keyword or a name the
/// generated code uses gets a trailing '_', a leading digit a leading '_').
std::string default_kernel_namespace(const std::string& source_path);

/// Whether `name` can name the kernels' namespace: identifiers joined by
/// "::", none of them reserved in the generated C++. Empty when it can, else
/// what is wrong.
std::string check_kernel_namespace(const std::string& name);

/// Analyzes `main` and everything it imports. Files read are appended to
/// `dependencies` (for depfiles), the main file first.
std::optional<ir::Program> analyze(source::SourceManager& sm, source::FileId main, const Options& opts,
                                   diag::DiagnosticEngine& diags, std::vector<std::string>* dependencies);

}  // namespace tileslc::sema
