// Unit tests for the embedded explanations (compiler/diag/explain.h): every
// kind in the registry (diag_kinds.def) has a docs/diagnostics/CODE.md
// embedded in the binary whose first line is `# CODE: summary`, and
// `--explain` lookup accepts any case. tools/check_explanations.py (ctest
// explain.examples) checks the examples inside the files.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "diag/diag.h"
#include "diag/explain.h"

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

}  // namespace
}  // namespace tileslc::diag
