// SARIF artifact URIs and rule documentation (diag/sarif.h).
#include "diag/sarif.h"

#include <sstream>

#include "diag/explain.h"

namespace tileslc::diag::sarif {

std::string percent_encode_path(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string directory_uri(const std::filesystem::path& cwd) {
  std::string p = cwd.lexically_normal().generic_string();
  if (p.empty() || p.back() != '/') p += '/';
  return "file://" + percent_encode_path(p);
}

nlohmann::ordered_json artifact_location(const std::string& path, const std::filesystem::path& cwd) {
  namespace fs = std::filesystem;
  const fs::path abs = (fs::path(path).is_absolute() ? fs::path(path) : cwd / path).lexically_normal();
  const fs::path rel = abs.lexically_relative(cwd.lexically_normal());
  const std::string r = rel.generic_string();
  if (!r.empty() && r != "." && r.rfind("..", 0) != 0)
    return {{"uri", percent_encode_path(r)}, {"uriBaseId", kSrcRoot}};
  return {{"uri", "file://" + percent_encode_path(abs.generic_string())}};
}

void add_rule_help(nlohmann::ordered_json& rule, Kind k) {
  std::string text = render_explanation(k);
  // The title line (`# E0404: summary`) repeats shortDescription; the first
  // paragraph after it says what the rule is about.
  std::istringstream in(text);
  std::string line, first;
  bool past_title = false;
  while (std::getline(in, line)) {
    if (!past_title) {
      past_title = line.rfind("# ", 0) == 0;
      continue;
    }
    if (line.empty()) {
      if (!first.empty()) break;
      continue;
    }
    if (line.rfind("#", 0) == 0 || line.rfind("```", 0) == 0) break;
    first += (first.empty() ? "" : " ") + line;
  }
  if (first.empty()) first = std::string(info(k).summary);
  rule["fullDescription"] = {{"text", first}};
  rule["help"] = {{"text", text}, {"markdown", text}};
}

}  // namespace tileslc::diag::sarif
