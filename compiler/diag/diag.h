// Diagnostics core: the registry of diagnostic kinds (diag_kinds.def), the
// Diagnostic record (code, level, message, primary span, labelled secondary
// spans, notes and help), the DiagnosticEngine that collects them during a
// compilation, and renderers for the human and machine formats.
// Format of the human form (DESIGN.md §5):
//   file:line:col: error[E0402]: message
//    12 |     gC[i] = gA[i] + x
//       |             ^~~~~
//   note: ...
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "source/source.h"

namespace tileslc::diag {

enum class Level : uint8_t { Note, Warning, Error };

/// Every diagnostic kind the compiler can produce; see diag_kinds.def.
enum class Kind : uint16_t {
#define DIAG(Name, Code, Level, Summary) Name,
#include "diag/diag_kinds.def"
  Count_
};

/// Static facts about a kind, from the registry.
struct KindInfo {
  Kind kind;
  std::string_view name;
  std::string_view code;     ///< stable code, e.g. "E0402"
  Level level;
  std::string_view summary;  ///< one line, lowercase
};

const KindInfo& info(Kind k);
/// All registered kinds, in registry order.
const std::vector<KindInfo>& all_kinds();
/// Looks up a kind by its code ("E0402"); nullopt if unknown.
std::optional<Kind> find_code(std::string_view code);

/// A secondary span with its own short label ("declared here").
struct Label {
  source::SourceRange range;
  std::string text;
};

/// A `note:` or `help:` line, optionally pointing at source.
struct Child {
  Level level = Level::Note;  // Note renders "note:", Error is unused
  bool is_help = false;
  std::string message;
  std::optional<source::SourceRange> range;
};

struct Diagnostic {
  Kind kind{};
  Level level = Level::Error;
  std::string message;            ///< lowercase, no final period
  source::SourceRange range;      ///< primary span; may be invalid (file-less)
  std::string primary_label;      ///< text under the caret, may be empty
  std::vector<Label> labels;      ///< secondary spans
  std::vector<Child> children;    ///< notes and help, in order

  Diagnostic& label(source::SourceRange r, std::string text) {
    labels.push_back({r, std::move(text)});
    return *this;
  }
  Diagnostic& note(std::string msg, std::optional<source::SourceRange> r = std::nullopt) {
    children.push_back({Level::Note, false, std::move(msg), r});
    return *this;
  }
  Diagnostic& help(std::string msg) {
    children.push_back({Level::Note, true, std::move(msg), std::nullopt});
    return *this;
  }
};

/// Human: clang/rustc style; Gcc: one line each; Json: one object per line;
/// Sarif: one SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/).
enum class Format { Human, Gcc, Json, Sarif };

struct RenderOptions {
  Format format = Format::Human;
  bool color = false;
  size_t max_errors = 0;  ///< render at most this many errors (0: all); warnings are not counted
  std::string tool_version;  ///< for SARIF's tool.driver.version
};

/// Collects diagnostics for one compilation. Phases report into it and keep
/// going where they can recover; the driver renders them sorted by position.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const source::SourceManager& sm) : sm_(sm) {}

  /// Records a diagnostic of `kind` at `range`; returns it so callers can add
  /// labels, notes and help. The reference stays valid until the next report.
  Diagnostic& report(Kind kind, source::SourceRange range, std::string message);

  size_t error_count() const { return errors_; }
  size_t warning_count() const { return warnings_; }
  bool has_errors() const { return errors_ > 0; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  /// The i-th reported diagnostic, for reporters that add notes later.
  Diagnostic& diagnostic(size_t i) { return diags_.at(i); }

  /// Treat warnings as errors (-Werror) or drop them (-w).
  void set_warnings_as_errors(bool v) { werror_ = v; }
  void set_suppress_warnings(bool v) { suppress_warnings_ = v; }

  /// Renders all diagnostics, sorted by file and position, to `out`.
  void render_all(std::ostream& out, const RenderOptions& opts) const;
  /// Renders `diags` as one SARIF 2.1.0 log whose rules are the whole registry.
  void render_sarif(std::ostream& out, const std::vector<const Diagnostic*>& diags, const RenderOptions& opts) const;
  /// Renders one diagnostic.
  void render(std::ostream& out, const Diagnostic& d, const RenderOptions& opts) const;

 private:
  const source::SourceManager& sm_;
  std::vector<Diagnostic> diags_;
  Diagnostic dropped_;  // sink for suppressed warnings
  size_t errors_ = 0;
  size_t warnings_ = 0;
  bool werror_ = false;
  bool suppress_warnings_ = false;
};

}  // namespace tileslc::diag
