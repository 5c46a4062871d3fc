// Extended explanations of diagnostic codes (`tileslc --explain E0404`): the
// Markdown files docs/diagnostics/CODE.md, embedded in the binary at build
// time (embed_explanations.cmake writes them into a generated source as raw
// string literals), so an installed tileslc explains codes without the
// repository. Each text starts with its title line `# E0404: summary`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "diag/diag.h"

namespace tileslc::diag {

/// The embedded Markdown explanation of `k`, verbatim (HTML-comment markers
/// such as `<!-- no-tpy-example -->` included); empty if the kind has none.
std::string_view explanation(Kind k);

/// The explanation as `--explain` prints it: the Markdown without the lines
/// that hold only an HTML comment (markers for tools/check_explanations.py).
/// A kind without an embedded explanation gives its `# CODE: summary` line.
std::string render_explanation(Kind k);

/// Looks up a code as a user types it: case-insensitive and trimmed
/// ("e0404", " W0701 "); nullopt if no registered kind has that code.
std::optional<Kind> find_code_for_explain(std::string_view code);

}  // namespace tileslc::diag
