// Unit tests for the embedded explanations (compiler/diag/explain.h): every
// kind in the registry (diag_kinds.def) has a docs/diagnostics/CODE.md
// embedded in the binary whose first line is `# CODE: summary`, and
// `--explain` lookup accepts any case. tools/check_explanations.py (ctest
// explain.examples) checks the examples inside the files.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>

#include "diag/diag.h"
#include "diag/explain.h"
#include "sema/sema.h"
#include "source/source.h"

namespace tileslc::diag {
namespace {

std::string first_line(std::string_view text) { return std::string(text.substr(0, text.find('\n'))); }

TEST(Explain, EveryKindHasAnEmbeddedExplanationStartingWithItsCode) {
  for (const auto& k : all_kinds()) {
    std::string_view md = explanation(k.kind);
    ASSERT_FALSE(md.empty()) << k.code << " (" << k.name << ") has no docs/diagnostics/" << k.code
                             << ".md: write one (see docs/diagnostics.md)";
    EXPECT_EQ(first_line(md), "# " + std::string(k.code) + ": " + std::string(k.summary))
        << "docs/diagnostics/" << k.code << ".md must start with its code and the registry's summary";
  }
}

TEST(Explain, RenderedTextDropsMarkersAndKeepsTheTitle) {
  for (const auto& k : all_kinds()) {
    std::string text = render_explanation(k.kind);
    EXPECT_EQ(text.rfind("# " + std::string(k.code) + ": ", 0), 0u) << k.code;
    EXPECT_EQ(text.find("<!--"), std::string::npos) << k.code << ": a marker line reaches --explain output";
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << k.code;
  }
}

TEST(Explain, LookupIgnoresCaseAndSurroundingSpace) {
  auto k = find_code("E0404");
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(find_code_for_explain("E0404"), k);
  EXPECT_EQ(find_code_for_explain("e0404"), k);
  EXPECT_EQ(find_code_for_explain(" e0404\n"), k);
  EXPECT_FALSE(find_code_for_explain("E9999").has_value());
  EXPECT_FALSE(find_code_for_explain("").has_value());
  EXPECT_FALSE(find_code_for_explain("0404").has_value());
}

/// `n` with a comma every three digits, as the documentation writes numbers.
std::string with_commas(std::string digits) {
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return digits;
}

TEST(Explain, TheEvaluationBudgetTheDocsStateIsTheOneE0512Enforces) {
  // The erroneous example of E0512.md, compiled: its message names the real budget, which
  // E0512.md and docs/language.md must state (they once said 500,000 against a limit of 200,000).
  std::string md(explanation(Kind::EvaluationTooLarge));
  const size_t section = md.find("## Erroneous example");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = md.find("```python\n", section) + 10;
  const std::string example = md.substr(begin, md.find("```", begin) - begin);
  source::SourceManager sm;
  source::FileId f = sm.add_buffer("e0512.tpy", example);
  DiagnosticEngine diags(sm);
  sema::Options opts;
  opts.arch = "sm_90a";
  opts.stdlib_dir = TILESLC_SOURCE_DIR "/stdlib";
  EXPECT_FALSE(sema::analyze(sm, f, opts, diags, nullptr).has_value());
  std::string budget;
  for (const auto& d : diags.diagnostics()) {
    std::smatch m;
    if (d.kind == Kind::EvaluationTooLarge && std::regex_search(d.message, m, std::regex("ran ([0-9]+) "))) budget = m[1];
  }
  ASSERT_FALSE(budget.empty()) << "the erroneous example of E0512.md reports no E0512";
  EXPECT_NE(md.find(with_commas(budget) + " "), std::string::npos) << "E0512.md does not state the budget " << budget;
  std::ifstream language(TILESLC_SOURCE_DIR "/docs/language.md");
  std::stringstream text;
  text << language.rdbuf();
  EXPECT_NE(text.str().find("after " + with_commas(budget) + " "), std::string::npos)
      << "docs/language.md does not state the budget " << budget;
}

}  // namespace
}  // namespace tileslc::diag
