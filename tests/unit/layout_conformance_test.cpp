// Conformance of compiler/layout with CuTe: every case of the shared file
// ../shared/conformance/layout_cases.json (read in place, never copied) is
// evaluated through the same text path as `tileslc layout OP ARG...` and
// compared with the case's result in exact form, or with its
// `coalesced_variant` where it has one. The file's integers are static unless
// a case's note says its source used run-time (dynamic) integers; those cases
// are listed below with the integers marked as CuTe prints them (`_N`
// static, `N` dynamic), because CuTe keeps dynamic size-1 modes that it drops
// for static ones.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace tileslc::layout {
namespace {

struct DynamicCase {
  std::string op;
  std::vector<std::string> args;         // as in the file
  std::vector<std::string> marked_args;  // `_N` static, `N` dynamic
  std::string note_says;                 // the note's words that set this case apart
};

// Cases whose note states that the source used dynamic integers.
const std::vector<DynamicCase>& dynamic_cases() {
  static const std::vector<DynamicCase> cases = {
      // "All shapes/strides DYNAMIC (int)."
      {"composition", {"(10,2):(16,4)", "(5,4):(1,5)"}, {"(10,2):(16,4)", "(5,4):(1,5)"}, "DYNAMIC"},
      // "Sub-step of Example 3, before by-mode coalesce": the same dynamic example.
      {"composition", {"(10,2):(16,4)", "5:1"}, {"(10,2):(16,4)", "5:1"}},
      // "A has dynamic ints, tiler is static."
      {"composition", {"(12,(4,8)):(59,(13,1))", "<3:4,8:2>"}, {"(12,(4,8)):(59,(13,1))", "<_3:_4,_8:_2>"}},
      // make_layout(N) (dynamic shape, static stride _1) divided by Layout<_M>.
      {"logical_divide", {"2:1", "32:1"}, {"2:_1", "_32:_1"}},
      {"logical_divide", {"48:1", "32:1"}, {"48:_1", "_32:_1"}},
      {"logical_divide", {"32:1", "48:1"}, {"32:_1", "_48:_1"}},
      // "for a dynamic column-major (8,24) tensor", tiled by a static shape.
      {"zipped_divide", {"(8,24):(1,8)", "(4,8)"}, {"(8,24):(1,8)", "(_4,_8)"}},
  };
  return cases;
}

const DynamicCase* find_dynamic(const std::string& op, const std::vector<std::string>& args,
                                const std::string& note) {
  for (const auto& c : dynamic_cases())
    if (c.op == op && c.args == args && note.find(c.note_says) != std::string::npos) return &c;
  return nullptr;
}

TEST(LayoutConformance, EveryCase) {
  std::filesystem::path path = std::filesystem::path(TILESLC_CONFORMANCE_DIR) / "layout_cases.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "conformance file not found: " << path;
  std::ifstream in(path);
  nlohmann::json cases = nlohmann::json::parse(in);
  ASSERT_TRUE(cases.is_array());
  size_t passed = 0, dynamic = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    std::string op = c.at("op");
    std::vector<std::string> args = c.at("args").get<std::vector<std::string>>();
    std::string expected = c.at("result");
    std::string variant = c.value("coalesced_variant", "");
    TextOpOptions opts;
    std::vector<std::string> used = args;
    std::string note = c.value("note", "");
    bool says_dynamic = note.find("DYNAMIC") != std::string::npos || note.find("dynamic") != std::string::npos;
    if (const DynamicCase* d = find_dynamic(op, args, note)) {
      used = d->marked_args;
      opts.parse.plain_ints_static = false;
      ++dynamic;
    } else {
      EXPECT_FALSE(says_dynamic) << "case " << i << " has a note about dynamic integers but no entry in dynamic_cases";
    }
    std::string label = "case " + std::to_string(i) + ": " + op;
    for (const auto& a : args) label += " \"" + a + "\"";
    try {
      std::string got = evaluate_op(op, used, opts);
      if (got == expected || (!variant.empty() && got == variant)) {
        ++passed;
      } else {
        ADD_FAILURE() << label << "\n  expected " << expected << (variant.empty() ? "" : " or " + variant)
                      << "\n  got      " << got;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << "\n  expected " << expected << "\n  threw: " << e.what();
    }
  }
  std::cout << "[ conformance ] " << passed << "/" << cases.size() << " layout cases passed (" << dynamic
            << " evaluated with dynamic integers)\n";
  EXPECT_EQ(passed, cases.size());
}

}  // namespace
}  // namespace tileslc::layout
