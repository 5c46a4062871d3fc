// Unit tests for the SARIF log (diag/sarif.h, DiagnosticEngine::render_sarif):
// artifact URIs are valid URIs, relative to the working directory under
// %SRCROOT% when the file lies below it; every rule carries fullDescription
// and help from its --explain text.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "diag/diag.h"
#include "diag/sarif.h"
#include "source/source.h"

namespace tileslc::diag {
namespace {

TEST(Sarif, PercentEncodesEverythingButUnreservedAndSlash) {
  EXPECT_EQ(sarif::percent_encode_path("a b/k-1_2.~x.tpy"), "a%20b/k-1_2.~x.tpy");
  EXPECT_EQ(sarif::percent_encode_path("\xC3\xBC#%?"), "%C3%BC%23%25%3F");  // ü, then URI delimiters
}

TEST(Sarif, ArtifactUnderTheWorkingDirectoryIsRelativeToSrcRoot) {
  auto loc = sarif::artifact_location("kernels/my k.tpy", "/work/proj");
  EXPECT_EQ(loc["uri"], "kernels/my%20k.tpy");
  EXPECT_EQ(loc["uriBaseId"], "%SRCROOT%");
  loc = sarif::artifact_location("/work/proj/./a/../k.tpy", "/work/proj");
  EXPECT_EQ(loc["uri"], "k.tpy");
}

TEST(Sarif, ArtifactOutsideTheWorkingDirectoryIsAnAbsoluteFileUri) {
  auto loc = sarif::artifact_location("/opt/share/tileslc/stdlib/tileslc/cute/__init__.tpy", "/work/proj");
  EXPECT_EQ(loc["uri"], "file:///opt/share/tileslc/stdlib/tileslc/cute/__init__.tpy");
  EXPECT_FALSE(loc.contains("uriBaseId"));
  EXPECT_EQ(sarif::artifact_location("../other/k.tpy", "/work/proj")["uri"], "file:///work/other/k.tpy");
  EXPECT_EQ(sarif::directory_uri("/work/my proj"), "file:///work/my%20proj/");
}

TEST(Sarif, RulesCarryFullDescriptionAndHelpFromTheExplanation) {
  nlohmann::ordered_json rule;
  sarif::add_rule_help(rule, Kind::ShapeMismatch);
  const std::string full = rule["fullDescription"]["text"];
  EXPECT_EQ(full.rfind("Extents declared with the same symbol", 0), 0u) << full;
  EXPECT_EQ(full.find('\n'), std::string::npos);
  const std::string help = rule["help"]["markdown"];
  EXPECT_EQ(help.rfind("# E0404: ", 0), 0u);
  EXPECT_NE(help.find("## Erroneous example"), std::string::npos);
}

TEST(Sarif, LogNamesArtifactsRelativeToSrcRootAndDocumentsEveryRule) {
  source::SourceManager sm;
  const std::string path = (std::filesystem::current_path() / "dir with space" / "k.tpy").string();
  auto fid = sm.add_buffer(path, "x = 1\n");
  DiagnosticEngine diags(sm);
  diags.report(Kind::ShapeMismatch, {fid, 0, 1}, "extents do not unify");
  RenderOptions opts;
  opts.format = Format::Sarif;
  std::ostringstream out;
  diags.render_all(out, opts);
  auto log = nlohmann::json::parse(out.str());
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], sarif::directory_uri(std::filesystem::current_path()));
  const auto& artifact = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(artifact["uri"], "dir%20with%20space/k.tpy");
  EXPECT_EQ(artifact["uriBaseId"], "%SRCROOT%");
  const auto& rules = run["tool"]["driver"]["rules"];
  EXPECT_EQ(rules.size(), all_kinds().size());
  for (const auto& r : rules) {
    EXPECT_FALSE(r["fullDescription"]["text"].get<std::string>().empty()) << r["id"];
    EXPECT_FALSE(r["help"]["text"].get<std::string>().empty()) << r["id"];
  }
}

}  // namespace
}  // namespace tileslc::diag
