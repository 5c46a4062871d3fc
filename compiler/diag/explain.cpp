// Lookup and rendering of the embedded explanations (explain.h). The table
// itself, one {code, Markdown} entry per docs/diagnostics/*.md, is generated
// at build time into explanations_data.cpp by embed_explanations.cmake.
#include "diag/explain.h"

#include <cctype>
#include <cstddef>

namespace tileslc::diag {

namespace detail {
struct EmbeddedExplanation {
  const char* code;
  const char* markdown;
};
// Defined in the generated explanations_data.cpp.
extern const EmbeddedExplanation kEmbeddedExplanations[];
extern const std::size_t kEmbeddedExplanationCount;
}  // namespace detail

std::string_view explanation(Kind k) {
  std::string_view code = info(k).code;
  for (std::size_t i = 0; i < detail::kEmbeddedExplanationCount; ++i)
    if (code == detail::kEmbeddedExplanations[i].code) return detail::kEmbeddedExplanations[i].markdown;
  return {};
}

namespace {

bool is_comment_only_line(std::string_view line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
  return line.size() >= 7 && line.substr(0, 4) == "<!--" && line.substr(line.size() - 3) == "-->" &&
         line.find("-->") == line.size() - 3;
}

}  // namespace

std::string render_explanation(Kind k) {
  std::string_view md = explanation(k);
  if (md.empty()) {
    const auto& i = info(k);
    return "# " + std::string(i.code) + ": " + std::string(i.summary) + "\n";
  }
  std::string out;
  bool after_marker = false;  // a blank line right after dropped markers is dropped too
  while (!md.empty()) {
    std::size_t nl = md.find('\n');
    std::string_view line = md.substr(0, nl);
    md.remove_prefix(nl == std::string_view::npos ? md.size() : nl + 1);
    if (is_comment_only_line(line)) {
      after_marker = true;
      continue;
    }
    bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (blank && after_marker) continue;
    after_marker = false;
    out.append(line);
    out += '\n';
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

std::optional<Kind> find_code_for_explain(std::string_view code) {
  while (!code.empty() && std::isspace(static_cast<unsigned char>(code.front()))) code.remove_prefix(1);
  while (!code.empty() && std::isspace(static_cast<unsigned char>(code.back()))) code.remove_suffix(1);
  std::string upper(code);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return find_code(upper);
}

}  // namespace tileslc::diag
