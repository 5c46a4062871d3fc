// Unit tests for the module-wide undefined-name check (compiler/sema/name_check.h): Python's
// scoping rules over parsed modules, with the names reported (and their did-you-mean) asserted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diag/diag.h"
#include "parse/parse.h"
#include "sema/name_check.h"
#include "sema/registry.h"
#include "source/source.h"

namespace tileslc::sema {
namespace {

/// The undefined names of `src` as "line:col name [-> suggestion]", in report order.
std::vector<std::string> undefined(const std::string& src) {
  source::SourceManager sm;
  source::FileId f = sm.add_buffer("test.tpy", src);
  diag::DiagnosticEngine diags(sm);
  ast::Module m = parse::parse_file(sm, f, diags);
  EXPECT_FALSE(diags.has_errors()) << "parse failed";
  report_undefined_names(m, diags);
  std::vector<std::string> out;
  for (const auto& d : diags.diagnostics()) {
    EXPECT_EQ(d.kind, diag::Kind::UndefinedName);
    auto lc = sm.line_col(d.range.start());
    std::string s = std::to_string(lc.line) + ":" + std::to_string(lc.column) + " " +
                    std::string(sm.file(f).text().substr(d.range.begin, d.range.end - d.range.begin));
    for (const auto& ch : d.children)
      if (ch.is_help) s += " -> " + ch.message;
    out.push_back(s);
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(NameCheck, EveryBindingFormOfAFunctionIsLocal) {
  EXPECT_EQ(undefined("import os.path\n"
                      "from math import sqrt as root\n"
                      "def f(a, *args, b=1, **kw):\n"
                      "    x = y = 1\n"
                      "    (p, [q, *r]) = (1, [2, 3])\n"
                      "    z: int = 2\n"
                      "    n += 1\n"
                      "    for i, j in kw:\n"
                      "        pass\n"
                      "    with open('f') as (fh, gh):\n"
                      "        pass\n"
                      "    try:\n"
                      "        pass\n"
                      "    except OSError as err:\n"
                      "        pass\n"
                      "    import sys\n"
                      "    from json import dumps\n"
                      "    def g():\n"
                      "        return x + a\n"
                      "    class C:\n"
                      "        pass\n"
                      "    if (w := 3):\n"
                      "        pass\n"
                      "    return (a, args, b, kw, x, y, p, q, r, z, n, i, j, fh, gh, err, sys, dumps, g, C, w,\n"
                      "            os.path, root, len, print, __name__, __file__)\n"),
            Names{});
}

TEST(NameCheck, ModuleGlobalsMayBeBoundAfterTheFunctionOrByGlobal) {
  EXPECT_EQ(undefined("def f():\n"
                      "    return LATER + counter + missing\n"
                      "def g():\n"
                      "    global counter\n"
                      "    counter = 1\n"
                      "LATER = 2\n"
                      "if __name__ == '__main__':\n"
                      "    import torch\n"
                      "    print(torch, also_missing)\n"),
            (Names{"2:30 missing", "9:18 also_missing"}));
}

TEST(NameCheck, AGlobalStatementMakesTheNameNotLocal) {
  // `x` assigned after `global x` is the module's, so g's read of it resolves there.
  EXPECT_EQ(undefined("def f():\n"
                      "    global x\n"
                      "    x = 1\n"
                      "def g():\n"
                      "    return x\n"),
            Names{});
}

TEST(NameCheck, AClassBodyIsNotVisibleFromItsMethods) {
  EXPECT_EQ(undefined("class C:\n"
                      "    size = 4\n"
                      "    double = size * 2\n"
                      "    def method(self):\n"
                      "        return size + self.size\n"),
            Names{"5:16 size"});
}

TEST(NameCheck, EnclosingFunctionsAreVisibleToNestedOnes) {
  EXPECT_EQ(undefined("def outer(a):\n"
                      "    def inner(b):\n"
                      "        def innermost():\n"
                      "            return a + b + c\n"
                      "        return innermost\n"
                      "    c = 1\n"
                      "    return inner(a) + b\n"),
            Names{"7:23 b"});
}

TEST(NameCheck, ComprehensionAndLambdaScopes) {
  EXPECT_EQ(undefined("def f(n):\n"
                      "    xs = [i * j for i in range(n) if i for j in range(i)]\n"
                      "    ys = {k: v for k, v in xs}\n"
                      "    g = lambda t, u=n: t + u + n\n"
                      "    total = [m := q for q in xs]\n"
                      "    return i + t + m\n"),
            (Names{"6:12 i", "6:16 t"}));
}

TEST(NameCheck, DidYouMeanAmongTheVisibleNames) {
  EXPECT_EQ(undefined("threads = 128\n"
                      "def f(block_size):\n"
                      "    return blok_size * thraeds + lenn(block_size)\n"),
            (Names{"3:12 blok_size -> did you mean 'block_size'?", "3:24 thraeds -> did you mean 'threads'?",
                   "3:34 lenn -> did you mean 'len'?"}));
}

TEST(NameCheck, DefaultsDecoratorsAndAnnotationsAreReadInTheEnclosingScope) {
  EXPECT_EQ(undefined("@decorate\n"
                      "def f(a: Annotation = default_value) -> Returned:\n"
                      "    return a\n"),
            (Names{"1:2 decorate", "2:10 Annotation", "2:23 default_value", "2:41 Returned"}));
}

TEST(NameCheck, EveryPythonBuiltinSemaBindsIsKnownToTheCheck) {
  // sema binds Python's builtins from builtins.def (find_python_builtin); the undefined-name check
  // has its own list. A row missing there would make every use of it an E0301.
  size_t bound = 0;
  for (const auto& info : builtin_table()) {
    if (find_python_builtin(info.name) != &info) continue;
    ++bound;
    EXPECT_TRUE(is_python_builtin_name(info.name)) << info.name << " is bound by sema but unknown to name_check.cpp's kBuiltins";
  }
  EXPECT_GE(bound, 20u);  // range, len, min, max, print, isinstance, ValueError, ...
  EXPECT_TRUE(is_python_builtin_name("__name__"));
  EXPECT_FALSE(is_python_builtin_name("cute"));
}

}  // namespace
}  // namespace tileslc::sema
