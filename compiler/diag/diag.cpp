// The diagnostic registry tables, the engine's bookkeeping, and the renderers
// (human with caret/underline, gcc one-line, JSON lines).
#include "diag/diag.h"

#include <utf8proc.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "diag/sarif.h"

namespace tileslc::diag {

namespace {

const std::vector<KindInfo>& registry() {
  static const std::vector<KindInfo> table = {
#define DIAG(Name, Code, Lvl, Summary) {Kind::Name, #Name, Code, Level::Lvl, Summary},
#include "diag/diag_kinds.def"
  };
  return table;
}

const char* level_name(Level l) {
  switch (l) {
    case Level::Note: return "note";
    case Level::Warning: return "warning";
    case Level::Error: return "error";
  }
  return "error";
}

const char* level_color(Level l) {
  switch (l) {
    case Level::Note: return "\x1b[1;36m";
    case Level::Warning: return "\x1b[1;35m";
    case Level::Error: return "\x1b[1;31m";
  }
  return "";
}

constexpr const char* kBold = "\x1b[1m";
constexpr const char* kReset = "\x1b[0m";
constexpr const char* kGreen = "\x1b[1;32m";
constexpr const char* kBlue = "\x1b[1;34m";

/// Number of code points of `s` (continuation bytes are not counted).
size_t code_points(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

/// Columns between tab stops when a snippet shows a tab: Python's tokenizer counts a tab to
/// the next multiple of 8 (https://docs.python.org/3/reference/lexical_analysis.html#indentation).
constexpr size_t kTabStop = 8;

/// A source line as a terminal shows it: one piece per code point with the terminal column it
/// starts at. Wide characters (CJK, fullwidth forms, most emoji) take two columns and combining
/// marks none, by utf8proc_charwidth (Unicode's East_Asian_Width); a tab is spaces up to the
/// next tab stop; a byte that is not UTF-8 is shown as is, one column. Carets placed by these
/// columns stay under their characters.
struct ShownLine {
  struct Piece {
    size_t byte;    ///< offset of the code point in the line
    size_t column;  ///< first terminal column (0-based)
    std::string_view text;  ///< what is printed for it (a tab: spaces)
  };
  std::vector<Piece> pieces;
  size_t width = 0;  ///< total columns

  explicit ShownLine(std::string_view line) {
    static const std::string spaces(kTabStop, ' ');
    for (size_t i = 0; i < line.size();) {
      utf8proc_int32_t cp = -1;
      utf8proc_ssize_t len = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(line.data() + i),
                                              static_cast<utf8proc_ssize_t>(line.size() - i), &cp);
      if (len <= 0) len = 1, cp = -1;
      size_t w;
      std::string_view text = line.substr(i, static_cast<size_t>(len));
      if (cp == '\t') {
        w = kTabStop - width % kTabStop;
        text = std::string_view(spaces).substr(0, w);
      } else {
        w = cp < 0 ? 1 : static_cast<size_t>(std::max(0, utf8proc_charwidth(cp)));
      }
      pieces.push_back({i, width, text});
      width += w;
      i += static_cast<size_t>(len);
    }
  }

  /// The terminal column of byte `b` of the line (the end of the line past its last byte).
  size_t column_of(size_t b) const {
    for (const auto& p : pieces)
      if (p.byte >= b) return p.column;
    return width;
  }

  /// The text of the columns [from, to): the code points that start there.
  std::string text(size_t from, size_t to) const {
    std::string out;
    for (const auto& p : pieces)
      if (p.column >= from && p.column < to) out += p.text;
    return out;
  }
};

/// `at` as (line, column) with the column counted in code points (1-based), as
/// editors and SARIF's unicodeCodePoints count it; SourceManager counts bytes.
source::LineCol char_line_col(const source::SourceManager& sm, source::SourceLoc at) {
  source::LineCol lc = sm.line_col(at);
  const std::string_view line = sm.file(at.file).line_text(lc.line);
  lc.column = static_cast<uint32_t>(code_points(line.substr(0, std::min<size_t>(lc.column - 1, line.size()))) + 1);
  return lc;
}

}  // namespace

const KindInfo& info(Kind k) { return registry().at(static_cast<size_t>(k)); }
const std::vector<KindInfo>& all_kinds() { return registry(); }

std::optional<Kind> find_code(std::string_view code) {
  for (const auto& k : registry())
    if (k.code == code) return k.kind;
  return std::nullopt;
}

Diagnostic& DiagnosticEngine::report(Kind kind, source::SourceRange range, std::string message) {
  Level level = info(kind).level;
  if (level == Level::Warning) {
    if (suppress_warnings_) {
      dropped_ = Diagnostic{};
      return dropped_;
    }
    if (werror_) level = Level::Error;
  }
  if (level == Level::Error) ++errors_;
  if (level == Level::Warning) ++warnings_;
  diags_.push_back(Diagnostic{kind, level, std::move(message), range, {}, {}, {}});
  return diags_.back();
}

void DiagnosticEngine::render_all(std::ostream& out, const RenderOptions& opts) const {
  std::vector<const Diagnostic*> sorted;
  for (const auto& d : diags_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->range.file != b->range.file) return a->range.file < b->range.file;
    return a->range.begin < b->range.begin;
  });
  if (opts.format == Format::Sarif) {
    render_sarif(out, sorted, opts);
    return;
  }
  size_t errors = 0;
  for (const auto* d : sorted) {
    if (d->level == Level::Error && opts.max_errors > 0 && errors++ >= opts.max_errors) {
      if (opts.format == Format::Human)
        out << "tileslc: too many errors, stopping after " << opts.max_errors << " (--max-errors)\n";
      break;
    }
    render(out, *d, opts);
  }
}

namespace {

struct Renderer {
  const source::SourceManager& sm;
  const RenderOptions& opts;
  std::ostream& out;

  std::string c(const char* code) const { return opts.color ? code : ""; }

  std::string location(source::SourceRange r) const {
    if (!r.valid()) return "tileslc";
    auto lc = char_line_col(sm, r.start());
    return sm.file(r.file).path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }

  /// Prints the source line of `r` with `^~~~` (primary) or `----` (secondary)
  /// under the span, and an optional label after the underline.
  size_t gutter = 1;  ///< width of the line-number column, shared by one diagnostic's snippets
  uint32_t last_line = 0;  ///< the source line the previous snippet showed (0: none)
  source::FileId last_file = source::kNoFile;

  void snippet(source::SourceRange r, bool primary, const std::string& label) {
    if (!r.valid()) return;
    const auto& f = sm.file(r.file);
    auto lc = sm.line_col(r.start());
    const std::string_view source_line = f.line_text(lc.line);
    const ShownLine shown(source_line);
    std::string num = std::to_string(lc.line);
    if (num.size() < gutter) num = std::string(gutter - num.size(), ' ') + num;
    std::string pad(num.size(), ' ');
    const size_t begin_byte = std::min<size_t>(lc.column - 1, source_line.size());
    size_t col = shown.column_of(begin_byte);
    // Clamp the underline to this line: multi-line spans underline to its end.
    size_t line_start_off = r.begin - (lc.column - 1);
    size_t end = std::min<size_t>(r.end, line_start_off + source_line.size());
    size_t width = end > r.begin ? shown.column_of(end - line_start_off) - col : 1;
    if (width == 0) width = 1;
    // A very long line (generated code, minified data) shows a window of kShown columns
    // around the span, with "..." where it was cut.
    constexpr size_t kShown = 160;
    const size_t total = shown.width;
    const bool cut = total > kShown;
    std::string line;
    if (cut) {
      const size_t from = col > kShown / 4 ? std::min(col - kShown / 4, total - kShown) : 0;
      line = (from > 0 ? "..." : "") + shown.text(from, from + kShown) + (from + kShown < total ? "..." : "");
      col = col - from + (from > 0 ? 3 : 0);
      width = std::max<size_t>(1, std::min(width, kShown - std::min(kShown, col - (from > 0 ? 3 : 0))));
    } else {
      line = shown.text(0, total + 1);
    }
    // Labels on the line just shown reuse it: only their underline is printed (a cut line
    // is shown again, its window may differ).
    if (cut || lc.line != last_line || r.file != last_file) out << c(kBlue) << " " << num << " | " << c(kReset) << line << "\n";
    last_line = lc.line;
    last_file = r.file;
    std::string under;
    under += primary ? '^' : '-';
    under += std::string(width - 1, primary ? '~' : '-');
    out << c(kBlue) << " " << pad << " | " << c(kReset) << std::string(col, ' ')
        << c(primary ? kGreen : kBlue) << under;
    if (!label.empty()) out << " " << label;
    out << c(kReset) << "\n";
  }

  void human(const Diagnostic& d) {
    const auto& k = info(d.kind);
    auto width = [&](source::SourceRange r) {
      if (r.valid()) gutter = std::max(gutter, std::to_string(sm.line_col(r.start()).line).size());
    };
    gutter = 1;
    last_line = 0;
    width(d.range);
    for (const auto& l : d.labels) width(l.range);
    for (const auto& ch : d.children)
      if (ch.range) width(*ch.range);
    out << c(kBold) << location(d.range) << ": " << c(kReset) << c(level_color(d.level))
        << level_name(d.level) << "[" << k.code << "]" << c(kReset) << c(kBold) << ": " << d.message
        << c(kReset) << "\n";
    snippet(d.range, true, d.primary_label);
    for (const auto& l : d.labels) {
      if (l.range.valid() && l.range.file != d.range.file) out << "  --> " << location(l.range) << "\n";
      snippet(l.range, false, l.text);
    }
    for (const auto& ch : d.children) {
      if (ch.range) {
        out << c(kBold) << location(*ch.range) << ": " << c(kReset);
      } else {
        out << "  = ";
      }
      out << c(ch.is_help ? kGreen : level_color(Level::Note)) << (ch.is_help ? "help" : "note")
          << c(kReset) << ": " << ch.message << "\n";
      if (ch.range) {
        last_line = 0;
        snippet(*ch.range, false, "");
      }
    }
  }

  void gcc(const Diagnostic& d) const {
    out << location(d.range) << ": " << level_name(d.level) << ": " << d.message << " ["
        << info(d.kind).code << "]\n";
    for (const auto& ch : d.children) {
      if (ch.range) out << location(*ch.range) << ": note: " << ch.message << "\n";
      // A diagnostic with no location (a usage error) keeps its help: nothing else says what to do.
      else if (!d.range.valid()) out << location(d.range) << ": note: " << (ch.is_help ? "help: " : "") << ch.message << "\n";
    }
  }

  nlohmann::json span(source::SourceRange r, bool primary, const std::string& label) const {
    nlohmann::json j;
    j["file"] = sm.file(r.file).path();
    auto b = char_line_col(sm, r.start());
    auto e = char_line_col(sm, {r.file, r.end});
    j["line_start"] = b.line;
    j["column_start"] = b.column;
    j["line_end"] = e.line;
    j["column_end"] = e.column;
    j["byte_start"] = r.begin;
    j["byte_end"] = r.end;
    j["is_primary"] = primary;
    j["label"] = label.empty() ? nlohmann::json(nullptr) : nlohmann::json(label);
    return j;
  }

  void json(const Diagnostic& d) {
    nlohmann::json j;
    j["code"] = std::string(info(d.kind).code);
    j["level"] = level_name(d.level);
    j["message"] = d.message;
    auto spans = nlohmann::json::array();
    if (d.range.valid()) spans.push_back(span(d.range, true, d.primary_label));
    for (const auto& l : d.labels)
      if (l.range.valid()) spans.push_back(span(l.range, false, l.text));
    j["spans"] = spans;
    auto children = nlohmann::json::array();
    for (const auto& ch : d.children) {
      nlohmann::json cj;
      cj["level"] = ch.is_help ? "help" : "note";
      cj["message"] = ch.message;
      auto cs = nlohmann::json::array();
      if (ch.range) cs.push_back(span(*ch.range, false, ""));
      cj["spans"] = cs;
      children.push_back(cj);
    }
    j["children"] = children;
    std::ostringstream rendered;
    RenderOptions plain;  // human, no color
    Renderer{sm, plain, rendered, 1}.human(d);
    j["rendered"] = rendered.str();
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
};

}  // namespace

void DiagnosticEngine::render(std::ostream& out, const Diagnostic& d, const RenderOptions& opts) const {
  Renderer r{sm_, opts, out, 1};
  switch (opts.format) {
    case Format::Human: r.human(d); break;
    case Format::Gcc: r.gcc(d); break;
    case Format::Json: r.json(d); break;
    case Format::Sarif: render_sarif(out, {&d}, opts); break;
  }
}

void DiagnosticEngine::render_sarif(std::ostream& out, const std::vector<const Diagnostic*>& diags,
                                    const RenderOptions& opts) const {
  using nlohmann::ordered_json;
  auto level = [](Level l) { return l == Level::Error ? "error" : l == Level::Warning ? "warning" : "note"; };
  ordered_json rules = ordered_json::array();
  for (const auto& k : all_kinds()) {
    ordered_json rule = {{"id", std::string(k.code)},
                         {"name", std::string(k.name)},
                         {"shortDescription", {{"text", std::string(k.summary)}}}};
    sarif::add_rule_help(rule, k.kind);
    rule["helpUri"] = "https://github.com/tileslc/tileslc/blob/main/docs/diagnostics/" + std::string(k.code) + ".md";
    rule["defaultConfiguration"] = {{"level", level(k.level)}};
    rules.push_back(rule);
  }
  std::error_code cwd_error;
  const std::filesystem::path cwd = std::filesystem::current_path(cwd_error);
  auto location = [&](source::SourceRange r, const std::string& message) {
    auto b = char_line_col(sm_, r.start());
    auto e = char_line_col(sm_, {r.file, r.end});
    ordered_json region = {{"startLine", b.line}, {"startColumn", b.column}, {"endLine", e.line}, {"endColumn", e.column}};
    ordered_json physical = {{"artifactLocation", sarif::artifact_location(sm_.file(r.file).path(), cwd)},
                             {"region", region}};
    ordered_json loc = {{"physicalLocation", physical}};
    if (!message.empty()) loc["message"] = {{"text", message}};
    return loc;
  };
  ordered_json results = ordered_json::array();
  for (const auto* d : diags) {
    const auto& k = info(d->kind);
    std::string text = d->message;
    for (const auto& ch : d->children) text += std::string("\n") + (ch.is_help ? "help: " : "note: ") + ch.message;
    ordered_json r = {{"ruleId", std::string(k.code)},
                      {"ruleIndex", static_cast<size_t>(d->kind)},
                      {"level", level(d->level)},
                      {"message", {{"text", text}}}};
    ordered_json locs = ordered_json::array();
    if (d->range.valid()) locs.push_back(location(d->range, d->primary_label));
    r["locations"] = locs;
    ordered_json related = ordered_json::array();
    for (const auto& l : d->labels)
      if (l.range.valid()) related.push_back(location(l.range, l.text));
    if (!related.empty()) r["relatedLocations"] = related;
    results.push_back(r);
  }
  ordered_json driver = {{"name", "tileslc"},
                         {"version", opts.tool_version},
                         {"informationUri", "https://github.com/tileslc/tileslc"},
                         {"rules", rules}};
  ordered_json run = {{"tool", {{"driver", driver}}},
                      {"originalUriBaseIds", {{sarif::kSrcRoot, {{"uri", sarif::directory_uri(cwd)}}}}},
                      {"columnKind", "unicodeCodePoints"},
                      {"results", results}};
  ordered_json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", ordered_json::array({run})}};
  out << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace tileslc::diag
