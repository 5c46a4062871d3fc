// Unit tests for the parser (compiler/parse) and the AST dump (compiler/ast):
// every statement and expression form compared through ast::dump, operator
// precedence and associativity, source ranges, every E02xx diagnostic and
// Python beyond the compiled subset with exact line:column spans, error recovery
// (several errors in one file), and nesting limits (E0210, never a crash).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ast/ast.h"
#include "diag/diag.h"
#include "lex/lex.h"
#include "parse/parse.h"
#include "source/source.h"

namespace tileslc::parse {
namespace {

using source::SourceManager;

/// One parsed buffer with its diagnostics.
struct Parsed {
  SourceManager sm;
  std::unique_ptr<diag::DiagnosticEngine> diags;
  ast::Module module;

  explicit Parsed(std::string src) {
    source::FileId f = sm.add_buffer("test.tpy", std::move(src));
    diags = std::make_unique<diag::DiagnosticEngine>(sm);
    module = parse_file(sm, f, *diags);
  }

  /// "E0201 1:5 message" for every diagnostic, in report order.
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const auto& d : diags->diagnostics()) {
      auto lc = sm.line_col(d.range.start());
      out.push_back(std::string(diag::info(d.kind).code) + " " + std::to_string(lc.line) + ":" +
                    std::to_string(lc.column) + " " + d.message);
    }
    return out;
  }

  /// line:col-line:col of a range (end exclusive).
  std::string span(source::SourceRange r) const {
    auto b = sm.line_col(r.start());
    auto e = sm.line_col({r.file, r.end});
    return std::to_string(b.line) + ":" + std::to_string(b.column) + "-" + std::to_string(e.line) +
           ":" + std::to_string(e.column);
  }
};

/// Dump of a module that must parse without diagnostics.
std::string dump_module(const std::string& src) {
  Parsed p(src);
  EXPECT_EQ(p.errors(), std::vector<std::string>{}) << src;
  return ast::dump(p.module);
}

/// Dump of the expression of a one-line expression statement.
std::string dump_expr(const std::string& src) {
  Parsed p(src + "\n");
  EXPECT_EQ(p.errors(), std::vector<std::string>{}) << src;
  if (p.module.body.size() != 1) return "<" + std::to_string(p.module.body.size()) + " statements>";
  const auto* s = p.module.body[0]->as<ast::ExprStmt>();
  if (!s) return "<not an expression statement: " + ast::dump(p.module) + ">";
  return ast::dump(*s->value);
}

/// The diagnostics of `src`, which must produce some.
std::vector<std::string> errors_of(const std::string& src) { return Parsed(src).errors(); }

using Errs = std::vector<std::string>;

// ------------------------------------------------------------------ dump

TEST(AstDump, BriefExample) {
  EXPECT_EQ(dump_module("x = 1 + 2\n"),
            "Module([Assign(targets=[Name('x')], value=BinOp(IntLit(1), '+', IntLit(2)))])");
}

TEST(AstDump, Spellings) {
  EXPECT_STREQ(ast::spelling(ast::BinOpKind::FloorDiv), "//");
  EXPECT_STREQ(ast::spelling(ast::BinOpKind::MatMul), "@");
  EXPECT_STREQ(ast::spelling(ast::UnaryOpKind::Not), "not");
  EXPECT_STREQ(ast::spelling(ast::BoolOpKind::Or), "or");
  EXPECT_STREQ(ast::spelling(ast::CmpOpKind::NotIn), "not in");
  EXPECT_STREQ(ast::spelling(ast::CmpOpKind::IsNot), "is not");
}

TEST(AstDump, EmptyModule) {
  EXPECT_EQ(dump_module(""), "Module([])");
  EXPECT_EQ(dump_module("\n\n# only a comment\n"), "Module([])");
}

// ----------------------------------------------------------- literals

TEST(ParseExpr, Literals) {
  EXPECT_EQ(dump_expr("42"), "IntLit(42)");
  EXPECT_EQ(dump_expr("0x1F"), "IntLit(31)");
  EXPECT_EQ(dump_expr("0o17"), "IntLit(15)");
  EXPECT_EQ(dump_expr("0b101"), "IntLit(5)");
  EXPECT_EQ(dump_expr("1_000_000"), "IntLit(1000000)");
  EXPECT_EQ(dump_expr("9223372036854775807"), "IntLit(9223372036854775807)");
  EXPECT_EQ(dump_expr("-9223372036854775808"), "IntLit(-9223372036854775808)");
  EXPECT_EQ(dump_expr("1.5"), "FloatLit(1.5)");
  EXPECT_EQ(dump_expr("1."), "FloatLit(1.0)");
  EXPECT_EQ(dump_expr("2e3"), "FloatLit(2000.0)");
  EXPECT_EQ(dump_expr("1e100"), "FloatLit(1e+100)");
  EXPECT_EQ(dump_expr("1e10"), "FloatLit(10000000000.0)");  // Python's repr
  EXPECT_EQ(dump_expr("1e16"), "FloatLit(1e+16)");
  EXPECT_EQ(dump_expr("0.0001"), "FloatLit(0.0001)");
  EXPECT_EQ(dump_expr("0.00001"), "FloatLit(1e-05)");
  EXPECT_EQ(dump_expr("123.456"), "FloatLit(123.456)");
  EXPECT_EQ(dump_expr("1e400"), "FloatLit(inf)");
  EXPECT_EQ(dump_expr("'a\\'b'"), "StrLit('a\\'b')");
  EXPECT_EQ(dump_expr("\"x\\n\""), "StrLit('x\\n')");
  EXPECT_EQ(dump_expr("True"), "BoolLit(True)");
  EXPECT_EQ(dump_expr("False"), "BoolLit(False)");
  EXPECT_EQ(dump_expr("None"), "NoneLit");
  EXPECT_EQ(dump_expr("..."), "EllipsisLit");
}

TEST(ParseExpr, AdjacentStringsConcatenate) {
  EXPECT_EQ(dump_expr("'ab' \"cd\" 'e'"), "StrLit('abcde')");
  EXPECT_EQ(dump_expr("('ab'\n 'cd')"), "StrLit('abcd')");
}

TEST(ParseExpr, TuplesListsDicts) {
  EXPECT_EQ(dump_expr("(a, b)"), "Tuple([Name('a'), Name('b')])");
  EXPECT_EQ(dump_expr("(a,)"), "Tuple([Name('a')])");
  EXPECT_EQ(dump_expr("()"), "Tuple([])");
  EXPECT_EQ(dump_expr("(a)"), "Name('a')");
  EXPECT_EQ(dump_expr("a, b"), "Tuple([Name('a'), Name('b')])");
  EXPECT_EQ(dump_expr("a,"), "Tuple([Name('a')])");
  EXPECT_EQ(dump_expr("[]"), "List([])");
  EXPECT_EQ(dump_expr("[1, 2,]"), "List([IntLit(1), IntLit(2)])");
  EXPECT_EQ(dump_expr("{}"), "Dict([])");
  EXPECT_EQ(dump_expr("{'a': 1, b: (2, 3),}"),
            "Dict([StrLit('a'): IntLit(1), Name('b'): Tuple([IntLit(2), IntLit(3)])])");
  EXPECT_EQ(dump_expr("((1, 2), [3])"),
            "Tuple([Tuple([IntLit(1), IntLit(2)]), List([IntLit(3)])])");
}

TEST(ParseExpr, ParenthesizedFlag) {
  Parsed p("(a, b)\na, b\n");
  ASSERT_EQ(p.module.body.size(), 2u);
  EXPECT_TRUE(p.module.body[0]->as<ast::ExprStmt>()->value->as<ast::Tuple>()->parenthesized);
  EXPECT_FALSE(p.module.body[1]->as<ast::ExprStmt>()->value->as<ast::Tuple>()->parenthesized);
}

// ---------------------------------------------------- precedence

TEST(ParseExpr, Associativity) {
  EXPECT_EQ(dump_expr("a - b - c"), "BinOp(BinOp(Name('a'), '-', Name('b')), '-', Name('c'))");
  EXPECT_EQ(dump_expr("a / b // c % d"),
            "BinOp(BinOp(BinOp(Name('a'), '/', Name('b')), '//', Name('c')), '%', Name('d'))");
  EXPECT_EQ(dump_expr("2 ** 3 ** 2"), "BinOp(IntLit(2), '**', BinOp(IntLit(3), '**', IntLit(2)))");
  EXPECT_EQ(dump_expr("a if b else c if d else e"),
            "IfExp(test=Name('b'), body=Name('a'), orelse=IfExp(test=Name('d'), body=Name('c'), "
            "orelse=Name('e')))");
}

TEST(ParseExpr, PowerAndUnary) {
  EXPECT_EQ(dump_expr("-2 ** 2"), "UnaryOp('-', BinOp(IntLit(2), '**', IntLit(2)))");
  EXPECT_EQ(dump_expr("2 ** -1"), "BinOp(IntLit(2), '**', UnaryOp('-', IntLit(1)))");
  EXPECT_EQ(dump_expr("-a * b"), "BinOp(UnaryOp('-', Name('a')), '*', Name('b'))");
  EXPECT_EQ(dump_expr("~+-x"), "UnaryOp('~', UnaryOp('+', UnaryOp('-', Name('x'))))");
  EXPECT_EQ(dump_expr("-x.y ** 2"),
            "UnaryOp('-', BinOp(Attribute(Name('x'), 'y'), '**', IntLit(2)))");
  // Only a bare -9223372036854775808 folds into one literal; here ** binds first.
  EXPECT_EQ(errors_of("-9223372036854775808 ** 1\n"),
            Errs{"E0105 1:2 integer literal 9223372036854775808 does not fit in 64 bits, "
                 "expected at most 9223372036854775807"});
}

TEST(ParseExpr, PrecedenceLadder) {
  EXPECT_EQ(dump_expr("a or b and not c"),
            "BoolOp('or', [Name('a'), BoolOp('and', [Name('b'), UnaryOp('not', Name('c'))])])");
  EXPECT_EQ(dump_expr("a and b and c"), "BoolOp('and', [Name('a'), Name('b'), Name('c')])");
  EXPECT_EQ(dump_expr("not a == b"), "UnaryOp('not', Compare(Name('a'), '==', Name('b')))");
  EXPECT_EQ(dump_expr("a | b ^ c & d"),
            "BinOp(Name('a'), '|', BinOp(Name('b'), '^', BinOp(Name('c'), '&', Name('d'))))");
  EXPECT_EQ(dump_expr("a & b << c + d"),
            "BinOp(Name('a'), '&', BinOp(Name('b'), '<<', BinOp(Name('c'), '+', Name('d'))))");
  EXPECT_EQ(dump_expr("a >> b - c * d"),
            "BinOp(Name('a'), '>>', BinOp(Name('b'), '-', BinOp(Name('c'), '*', Name('d'))))");
  EXPECT_EQ(dump_expr("a @ b + c"), "BinOp(BinOp(Name('a'), '@', Name('b')), '+', Name('c'))");
  EXPECT_EQ(dump_expr("a < b | c"), "Compare(Name('a'), '<', BinOp(Name('b'), '|', Name('c')))");
  EXPECT_EQ(dump_expr("(a + b) * c"), "BinOp(BinOp(Name('a'), '+', Name('b')), '*', Name('c'))");
  EXPECT_EQ(dump_expr("x if a or b else y"),
            "IfExp(test=BoolOp('or', [Name('a'), Name('b')]), body=Name('x'), orelse=Name('y'))");
}

TEST(ParseExpr, Comparisons) {
  EXPECT_EQ(dump_expr("a < b < c"), "Compare(Name('a'), '<', Name('b'), '<', Name('c'))");
  EXPECT_EQ(dump_expr("a == b != c >= d <= e > f"),
            "Compare(Name('a'), '==', Name('b'), '!=', Name('c'), '>=', Name('d'), '<=', Name('e'), "
            "'>', Name('f'))");
  EXPECT_EQ(dump_expr("a in b"), "Compare(Name('a'), 'in', Name('b'))");
  EXPECT_EQ(dump_expr("a not in b"), "Compare(Name('a'), 'not in', Name('b'))");
  EXPECT_EQ(dump_expr("a is b"), "Compare(Name('a'), 'is', Name('b'))");
  EXPECT_EQ(dump_expr("a is not None"), "Compare(Name('a'), 'is not', NoneLit)");
}

// ------------------------------------------------------ primaries

TEST(ParseExpr, AttributesAndCalls) {
  EXPECT_EQ(dump_expr("cute.arch.thread_idx()"),
            "Call(Attribute(Attribute(Name('cute'), 'arch'), 'thread_idx'), [])");
  EXPECT_EQ(dump_expr("f(a, b=1, c=x + 1,)"),
            "Call(Name('f'), [Name('a')], [b=IntLit(1), c=BinOp(Name('x'), '+', IntLit(1))])");
  EXPECT_EQ(dump_expr("f(x)(y)"), "Call(Call(Name('f'), [Name('x')]), [Name('y')])");
  EXPECT_EQ(dump_expr("k(a).launch(grid=(1, 1, 1))"),
            "Call(Attribute(Call(Name('k'), [Name('a')]), 'launch'), [], "
            "[grid=Tuple([IntLit(1), IntLit(1), IntLit(1)])])");
  EXPECT_EQ(dump_expr("f(a == b)"), "Call(Name('f'), [Compare(Name('a'), '==', Name('b'))])");
}

TEST(ParseExpr, SubscriptsAndSlices) {
  EXPECT_EQ(dump_expr("a[i]"), "Subscript(Name('a'), Name('i'))");
  EXPECT_EQ(dump_expr("a[i, j]"), "Subscript(Name('a'), Tuple([Name('i'), Name('j')]))");
  EXPECT_EQ(dump_expr("a[i,]"), "Subscript(Name('a'), Tuple([Name('i')]))");
  EXPECT_EQ(dump_expr("a[1:2]"), "Subscript(Name('a'), Slice(IntLit(1), IntLit(2), null))");
  EXPECT_EQ(dump_expr("a[::2]"), "Subscript(Name('a'), Slice(null, null, IntLit(2)))");
  EXPECT_EQ(dump_expr("a[:]"), "Subscript(Name('a'), Slice(null, null, null))");
  EXPECT_EQ(dump_expr("a[1:]"), "Subscript(Name('a'), Slice(IntLit(1), null, null))");
  EXPECT_EQ(dump_expr("a[:n:]"), "Subscript(Name('a'), Slice(null, Name('n'), null))");
  EXPECT_EQ(dump_expr("a[None, :]"),
            "Subscript(Name('a'), Tuple([NoneLit, Slice(null, null, null)]))");
  EXPECT_EQ(dump_expr("a[i, :, None]"),
            "Subscript(Name('a'), Tuple([Name('i'), Slice(null, null, null), NoneLit]))");
  EXPECT_EQ(dump_expr("x[i, j:k, None]"),
            "Subscript(Name('x'), Tuple([Name('i'), Slice(Name('j'), Name('k'), null), NoneLit]))");
  EXPECT_EQ(dump_expr("a[()]"), "Subscript(Name('a'), Tuple([]))");
  EXPECT_EQ(dump_expr("t[0][1].x"),
            "Attribute(Subscript(Subscript(Name('t'), IntLit(0)), IntLit(1)), 'x')");
  EXPECT_EQ(dump_expr("cute.Tensor[cutlass.Float32, (M, N)]"),
            "Subscript(Attribute(Name('cute'), 'Tensor'), Tuple([Attribute(Name('cutlass'), "
            "'Float32'), Tuple([Name('M'), Name('N')])]))");
}

TEST(ParseExpr, MatchIsAnIdentifier) {
  EXPECT_EQ(dump_expr("match(x)"), "Call(Name('match'), [Name('x')])");
}

// ----------------------------------------------------- statements

TEST(ParseStmt, Imports) {
  EXPECT_EQ(dump_module("import a.b as c, d\n"),
            "Module([Import([Alias('a.b', 'c'), Alias('d')])])");
  EXPECT_EQ(dump_module("import tileslc.cute as cute\n"),
            "Module([Import([Alias('tileslc.cute', 'cute')])])");
  EXPECT_EQ(dump_module("from a.b import x as y, z\n"),
            "Module([ImportFrom(module='a.b', names=[Alias('x', 'y'), Alias('z')])])");
  EXPECT_EQ(dump_module("from . import x\n"),
            "Module([ImportFrom(module='', names=[Alias('x')], level=1)])");
  EXPECT_EQ(dump_module("from ..m import x\n"),
            "Module([ImportFrom(module='m', names=[Alias('x')], level=2)])");
  EXPECT_EQ(dump_module("from ... import x\n"),
            "Module([ImportFrom(module='', names=[Alias('x')], level=3)])");
  EXPECT_EQ(dump_module("from m import (a,\n    b,)\n"),
            "Module([ImportFrom(module='m', names=[Alias('a'), Alias('b')])])");
}

TEST(ParseStmt, SimpleStatements) {
  EXPECT_EQ(dump_module("pass\nbreak\ncontinue\nreturn\n"),
            "Module([Pass, Break, Continue, Return])");
  EXPECT_EQ(dump_module("return a, b\n"),
            "Module([Return(Tuple([Name('a'), Name('b')]))])");
  EXPECT_EQ(dump_module("assert x\nassert x, 'msg'\n"),
            "Module([Assert(test=Name('x')), Assert(test=Name('x'), msg=StrLit('msg'))])");
  EXPECT_EQ(dump_module("f(x)\n"), "Module([ExprStmt(Call(Name('f'), [Name('x')]))])");
  EXPECT_EQ(dump_module("x = 1; y = 2;\nz = 3\n"),
            "Module([Assign(targets=[Name('x')], value=IntLit(1)), Assign(targets=[Name('y')], "
            "value=IntLit(2)), Assign(targets=[Name('z')], value=IntLit(3))])");
  EXPECT_EQ(dump_module("'''docstring'''\n"), "Module([ExprStmt(StrLit('docstring'))])");
}

TEST(ParseStmt, Assignments) {
  EXPECT_EQ(dump_module("a = b = c\n"),
            "Module([Assign(targets=[Name('a'), Name('b')], value=Name('c'))])");
  EXPECT_EQ(dump_module("a, b = x\n"),
            "Module([Assign(targets=[Tuple([Name('a'), Name('b')])], value=Name('x'))])");
  EXPECT_EQ(dump_module("(a, b), c = x\n"),
            "Module([Assign(targets=[Tuple([Tuple([Name('a'), Name('b')]), Name('c')])], "
            "value=Name('x'))])");
  EXPECT_EQ(dump_module("[a, b] = x\n"),
            "Module([Assign(targets=[List([Name('a'), Name('b')])], value=Name('x'))])");
  EXPECT_EQ(dump_module("x[i] = v\n"),
            "Module([Assign(targets=[Subscript(Name('x'), Name('i'))], value=Name('v'))])");
  EXPECT_EQ(dump_module("x.a = v\n"),
            "Module([Assign(targets=[Attribute(Name('x'), 'a')], value=Name('v'))])");
  EXPECT_EQ(dump_module("x = 1, 2\n"),
            "Module([Assign(targets=[Name('x')], value=Tuple([IntLit(1), IntLit(2)]))])");
  EXPECT_EQ(dump_module("tidx, _, _ = cute.arch.thread_idx()\n"),
            "Module([Assign(targets=[Tuple([Name('tidx'), Name('_'), Name('_')])], "
            "value=Call(Attribute(Attribute(Name('cute'), 'arch'), 'thread_idx'), []))])");
}

TEST(ParseStmt, AugmentedAssignments) {
  const char* ops[] = {"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "|", "^", "&"};
  for (const char* op : ops) {
    std::string src = std::string("x ") + op + "= 1\n";
    EXPECT_EQ(dump_module(src), std::string("Module([AugAssign(target=Name('x'), op='") + op +
                                    "=', value=IntLit(1))])");
  }
  EXPECT_EQ(dump_module("a[i] += 1, 2\n"),
            "Module([AugAssign(target=Subscript(Name('a'), Name('i')), op='+=', "
            "value=Tuple([IntLit(1), IntLit(2)]))])");
}

TEST(ParseStmt, AnnotatedAssignments) {
  EXPECT_EQ(dump_module("x: int = 5\n"),
            "Module([AnnAssign(target=Name('x'), annotation=Name('int'), value=IntLit(5))])");
  EXPECT_EQ(dump_module("x: T\n"), "Module([AnnAssign(target=Name('x'), annotation=Name('T'))])");
  EXPECT_EQ(dump_module("self.x: cutlass.Int32 = 0\n"),
            "Module([AnnAssign(target=Attribute(Name('self'), 'x'), annotation=Attribute("
            "Name('cutlass'), 'Int32'), value=IntLit(0))])");
}

TEST(ParseStmt, IfElifElse) {
  EXPECT_EQ(dump_module("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3\n"),
            "Module([If(test=Name('a'), body=[Assign(targets=[Name('x')], value=IntLit(1))], "
            "orelse=[If(test=Name('b'), body=[Assign(targets=[Name('x')], value=IntLit(2))], "
            "orelse=[If(test=Name('c'), body=[Pass], orelse=[Assign(targets=[Name('x')], "
            "value=IntLit(3))])])])])");
  EXPECT_EQ(dump_module("if x: pass\n"), "Module([If(test=Name('x'), body=[Pass])])");
  EXPECT_EQ(dump_module("if x: a = 1; b = 2\nelse: return\n"),
            "Module([If(test=Name('x'), body=[Assign(targets=[Name('a')], value=IntLit(1)), "
            "Assign(targets=[Name('b')], value=IntLit(2))], orelse=[Return])])");
}

TEST(ParseStmt, Loops) {
  EXPECT_EQ(dump_module("for i in range(n):\n    s += i\nelse:\n    pass\n"),
            "Module([For(target=Name('i'), iter=Call(Name('range'), [Name('n')]), "
            "body=[AugAssign(target=Name('s'), op='+=', value=Name('i'))], orelse=[Pass])])");
  EXPECT_EQ(dump_module("for a, b in x, y: pass\n"),
            "Module([For(target=Tuple([Name('a'), Name('b')]), iter=Tuple([Name('x'), Name('y')]), "
            "body=[Pass])])");
  EXPECT_EQ(dump_module("for (a, b), c in z: pass\n"),
            "Module([For(target=Tuple([Tuple([Name('a'), Name('b')]), Name('c')]), iter=Name('z'), "
            "body=[Pass])])");
  EXPECT_EQ(dump_module("for x, in z: pass\n"),
            "Module([For(target=Tuple([Name('x')]), iter=Name('z'), body=[Pass])])");
  EXPECT_EQ(dump_module("while i < n:\n    i += 1\n    if i: break\n    continue\nelse:\n    pass\n"),
            "Module([While(test=Compare(Name('i'), '<', Name('n')), body=[AugAssign(target=Name('i'), "
            "op='+=', value=IntLit(1)), If(test=Name('i'), body=[Break]), Continue], orelse=[Pass])])");
}

TEST(ParseStmt, FunctionDefs) {
  EXPECT_EQ(dump_module("def f():\n    pass\n"), "Module([FunctionDef(name='f', body=[Pass])])");
  EXPECT_EQ(
      dump_module("@cute.kernel\ndef k(gA: cute.Tensor, n: int = 4, *, tile=(1, 2), flag) -> None:\n"
                  "    '''doc'''\n    return\n"),
      "Module([FunctionDef(name='k', decorators=[Attribute(Name('cute'), 'kernel')], "
      "params=[Param('gA', annotation=Attribute(Name('cute'), 'Tensor')), Param('n', "
      "annotation=Name('int'), default=IntLit(4)), Param('tile', default=Tuple([IntLit(1), "
      "IntLit(2)]), kwonly), Param('flag', kwonly)], returns=NoneLit, body=[ExprStmt(StrLit('doc')), "
      "Return])])");
  EXPECT_EQ(dump_module("@cute.jit(preprocess=False)\n@other\ndef h(a,): return a\n"),
            "Module([FunctionDef(name='h', decorators=[Call(Attribute(Name('cute'), 'jit'), [], "
            "[preprocess=BoolLit(False)]), Name('other')], params=[Param('a')], "
            "body=[Return(Name('a'))])])");
  EXPECT_EQ(dump_module("def outer():\n    def inner(x):\n        return x\n    return inner\n"),
            "Module([FunctionDef(name='outer', body=[FunctionDef(name='inner', params=[Param('x')], "
            "body=[Return(Name('x'))]), Return(Name('inner'))])])");
}

TEST(ParseStmt, DesignExample) {
  const char* src = R"(import tileslc as cutlass
import tileslc.cute as cute

N = cute.sym_int("N")          # a symbolic run-time extent

@cute.kernel
def add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    i = bidx * bdim + tidx
    if i < cute.size(gC):
        gC[i] = gA[i] + gB[i]

@cute.jit
def vector_add(mA: cute.Tensor[cutlass.Float32, (N,)],
               mC: cute.Tensor[cutlass.Float32, (N,)]):
    threads = 256
    add_kernel(mA, mC).launch(grid=(cute.ceil_div(N, threads), 1, 1), block=(threads, 1, 1))
)";
  Parsed p(src);
  EXPECT_EQ(p.errors(), Errs{});
  ASSERT_EQ(p.module.body.size(), 5u);
  const auto* k = p.module.body[3]->as<ast::FunctionDef>();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->name, "add_kernel");
  EXPECT_EQ(k->params.size(), 3u);
  EXPECT_EQ(k->body.size(), 3u);
  const auto* h = p.module.body[4]->as<ast::FunctionDef>();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(ast::dump(*h->params[0].annotation),
            "Subscript(Attribute(Name('cute'), 'Tensor'), Tuple([Attribute(Name('cutlass'), "
            "'Float32'), Tuple([Name('N')])]))");
}

// --------------------------------------------------------- ranges

TEST(ParseRanges, Expressions) {
  Parsed p("x = (a + b) * c\ny = f(1,\n  2)\nz = a.b[i]\n");
  ASSERT_EQ(p.errors(), Errs{});
  const auto* a0 = p.module.body[0]->as<ast::Assign>();
  EXPECT_EQ(p.span(a0->range), "1:1-1:16");
  EXPECT_EQ(p.span(a0->targets[0]->range), "1:1-1:2");
  const auto* mul = a0->value->as<ast::BinOp>();
  EXPECT_EQ(p.span(mul->range), "1:5-1:16");
  EXPECT_EQ(p.span(mul->op_range), "1:13-1:14");
  EXPECT_EQ(p.span(mul->lhs->range), "1:6-1:11");  // the group's inner node
  const auto* call = p.module.body[1]->as<ast::Assign>()->value->as<ast::Call>();
  EXPECT_EQ(p.span(call->range), "2:5-3:5");
  EXPECT_EQ(p.span(call->func->range), "2:5-2:6");
  const auto* sub = p.module.body[2]->as<ast::Assign>()->value->as<ast::Subscript>();
  EXPECT_EQ(p.span(sub->range), "4:5-4:11");
  const auto* attr = sub->value->as<ast::Attribute>();
  EXPECT_EQ(p.span(attr->range), "4:5-4:8");
  EXPECT_EQ(p.span(attr->attr_range), "4:7-4:8");
}

TEST(ParseRanges, Statements) {
  Parsed p("@cute.kernel\ndef f(a, b: int):\n    if a:\n        x = 1\n    else:\n        y = 2\n"
           "z += 1; w = 2\n");
  ASSERT_EQ(p.errors(), Errs{});
  const auto* f = p.module.body[0]->as<ast::FunctionDef>();
  EXPECT_EQ(p.span(f->range), "2:1-6:14");
  EXPECT_EQ(p.span(f->name_range), "2:5-2:6");
  EXPECT_EQ(p.span(f->params[1].range), "2:10-2:11");
  const auto* i = f->body[0]->as<ast::If>();
  EXPECT_EQ(p.span(i->range), "3:5-6:14");
  const auto* aug = p.module.body[1]->as<ast::AugAssign>();
  EXPECT_EQ(p.span(aug->range), "7:1-7:7");
  EXPECT_EQ(p.span(aug->op_range), "7:3-7:5");
  EXPECT_EQ(p.span(p.module.body[2]->range), "7:9-7:14");
}

TEST(ParseRanges, CompareAndImport) {
  Parsed p("a not in b is not c\nfrom x.y import z as w\n");
  ASSERT_EQ(p.errors(), Errs{});
  const auto* c = p.module.body[0]->as<ast::ExprStmt>()->value->as<ast::Compare>();
  EXPECT_EQ(p.span(c->range), "1:1-1:20");
  EXPECT_EQ(p.span(c->op_ranges[0]), "1:3-1:9");
  EXPECT_EQ(p.span(c->op_ranges[1]), "1:12-1:18");
  const auto* imp = p.module.body[1]->as<ast::ImportFrom>();
  EXPECT_EQ(p.span(imp->module_range), "2:6-2:9");
  EXPECT_EQ(p.span(imp->names[0].range), "2:17-2:23");
}

// ------------------------------------------------------- syntax errors

TEST(ParseErrors, MissingColon) {
  EXPECT_EQ(errors_of("if x\n    pass\n"),
            Errs{"E0201 1:5 expected ':' after if condition, found newline"});
  EXPECT_EQ(errors_of("while x y:\n    pass\n"),
            Errs{"E0201 1:9 expected ':' after while condition, found identifier 'y'"});
  EXPECT_EQ(errors_of("def f()\n    pass\n"),
            Errs{"E0201 1:8 expected ':' after the function signature, found newline"});
  EXPECT_EQ(errors_of("for i in x\n    pass\n"),
            Errs{"E0201 1:11 expected ':' after the for loop iterable, found newline"});
  EXPECT_EQ(errors_of("for i x:\n    pass\n"),
            Errs{"E0201 1:7 expected 'in' after the for loop target, found identifier 'x'"});
  EXPECT_EQ(errors_of("if x:\n    pass\nelse\n    pass\n"),
            Errs{"E0201 3:5 expected ':' after 'else', found newline"});
}

TEST(ParseErrors, ExpectedExpression) {
  EXPECT_EQ(errors_of("f(a, )\nx = (1 + )\n"), Errs{"E0202 2:10 expected an expression, found ')'"});
  EXPECT_EQ(errors_of("x = f(a, b + )\n"), Errs{"E0202 1:14 expected an expression, found ')'"});
  EXPECT_EQ(errors_of("x = [1, :]\n"), Errs{"E0202 1:9 expected an expression, found ':'"});
  EXPECT_EQ(errors_of("x = \n"), Errs{"E0202 1:5 expected an expression, found newline"});
  EXPECT_EQ(errors_of("x = 1 +\n"), Errs{"E0202 1:8 expected an expression, found newline"});
  EXPECT_EQ(errors_of("x = a if b\n"),
            Errs{"E0201 1:11 expected 'else' after the condition of a conditional expression, found "
                 "newline"});
}

TEST(ParseErrors, ExpectedStatementAndTokens) {
  EXPECT_EQ(errors_of("else:\n    pass\n"), Errs{"E0203 1:1 expected a statement, found 'else'"});
  EXPECT_EQ(errors_of("= 1\n"), Errs{"E0203 1:1 expected a statement, found '='"});
  EXPECT_EQ(errors_of("x = 1\n;\n"), Errs{"E0203 2:1 expected a statement, found ';'"});
  EXPECT_EQ(errors_of("x = 1 2\n"),
            Errs{"E0201 1:7 expected a newline or ';' after the statement, found integer literal 2"});
  EXPECT_EQ(errors_of("if x: if y: pass\n"),
            Errs{"E0203 1:7 expected a simple statement or a newline after ':', found 'if'"});
  EXPECT_EQ(errors_of("@dec\nx = 1\n"),
            Errs{"E0201 2:1 expected 'def' or 'class' after decorators, found identifier 'x'"});
  EXPECT_EQ(errors_of("def (): pass\n"),
            Errs{"E0201 1:5 expected a function name after 'def', found '('"});
  EXPECT_EQ(errors_of("f(a b)\n"),
            Errs{"E0201 1:5 expected ',' or ')' after a call argument, found identifier 'b'"});
  EXPECT_EQ(errors_of("x = a.1\n"), Errs{"E0201 1:6 expected a newline or ';' after the statement, found float literal .1"});
  EXPECT_EQ(errors_of("x = a.\n"),
            Errs{"E0201 1:7 expected an attribute name after '.', found newline"});
  EXPECT_EQ(errors_of("x = (a b)\n"),
            Errs{"E0201 1:8 expected ')' to close '(', found identifier 'b'"});
  EXPECT_EQ(errors_of("x = [a b]\n"),
            Errs{"E0201 1:8 expected ']' or ',' in a list, found identifier 'b'"});
  EXPECT_EQ(errors_of("x = {a: b c}\n"),
            Errs{"E0201 1:11 expected '}' or ',' in a dict, found identifier 'c'"});
  EXPECT_EQ(errors_of("x = a[1\n"),
            Errs{"E0112 1:6 found the end of the file inside '[', expected ']'"})
      << "the lexer reports the unclosed bracket";
  EXPECT_EQ(errors_of("import\n"),
            Errs{"E0201 1:7 expected a module name after 'import', found newline"});
  EXPECT_EQ(errors_of("from m import a,\n"),
            Errs{"E0201 1:17 expected a name to import after ',', found newline"});
  EXPECT_EQ(errors_of("from m imp a\n"),
            Errs{"E0201 1:8 expected 'import' after the module name, found identifier 'imp'"});
}

TEST(ParseErrors, ExpectedIndentedBlock) {
  EXPECT_EQ(errors_of("x = 1\n\nif x:\npass\n"),
            Errs{"E0204 4:1 expected an indented block after 'if' statement on line 3"});
  EXPECT_EQ(errors_of("def f():\n    if x:\n    y = 1\n"),
            Errs{"E0204 3:5 expected an indented block after 'if' statement on line 2"});
  EXPECT_EQ(errors_of("def f():\nreturn 1\n"),
            Errs{"E0204 2:1 expected an indented block after function definition on line 1"});
  EXPECT_EQ(errors_of("for i in x:\n"),
            Errs{"E0204 2:1 expected an indented block after 'for' statement on line 1"});
  EXPECT_EQ(errors_of("while x:\n    pass\nelse:\nz\n"),
            Errs{"E0204 4:1 expected an indented block after 'else' statement on line 3"});
  EXPECT_EQ(errors_of("if a:\n    pass\nelif b:\nz\n"),
            Errs{"E0204 4:1 expected an indented block after 'elif' statement on line 3"});
}

TEST(ParseErrors, InvalidTargets) {
  EXPECT_EQ(errors_of("f() = 1\n"), Errs{"E0205 1:1 cannot assign to a function call"});
  EXPECT_EQ(errors_of("a, 1 = x\n"), Errs{"E0205 1:4 cannot assign to a literal"});
  EXPECT_EQ(errors_of("x = a + b = c\n"), Errs{"E0205 1:5 cannot assign to an operator expression"});
  EXPECT_EQ(errors_of("None = 1\n"), Errs{"E0205 1:1 cannot assign to None"});
  EXPECT_EQ(errors_of("a < b = 1\n"), Errs{"E0205 1:1 cannot assign to a comparison"});
  EXPECT_EQ(errors_of("a, b += 1\n"),
            Errs{"E0205 1:1 cannot use augmented assignment on a tuple"});
  EXPECT_EQ(errors_of("f() += 1\n"),
            Errs{"E0205 1:1 cannot use augmented assignment on a function call"});
  EXPECT_EQ(errors_of("a, b: int = 1\n"), Errs{"E0205 1:1 cannot annotate a tuple"});
  EXPECT_EQ(errors_of("for f() in x: pass\n"), Errs{"E0205 1:5 cannot assign to a function call"});
  EXPECT_EQ(errors_of("(a if b else c) = 1\n"),
            Errs{"E0205 1:2 cannot assign to a conditional expression"});
}

TEST(ParseErrors, Parameters) {
  EXPECT_EQ(errors_of("def f(a, b, a): pass\n"),
            Errs{"E0207 1:13 duplicate parameter 'a' in function definition"});
  EXPECT_EQ(errors_of("def f(a=1, b): pass\n"),
            Errs{"E0208 1:12 parameter 'b' without a default follows parameter 'a' with a default"});
  EXPECT_EQ(errors_of("def f(a=1, *, b): pass\n"), Errs{});  // keyword-only needs no default
  EXPECT_EQ(errors_of("def f(a, *): pass\n"),
            Errs{"E0201 1:10 expected a keyword-only parameter after bare '*', found ')'"});
  EXPECT_EQ(errors_of("def f(*, a, *, b): pass\n"),
            Errs{"E0201 1:13 expected at most one '*' in a parameter list, found a second one"});
  EXPECT_EQ(errors_of("def f(a b): pass\n"),
            Errs{"E0201 1:9 expected ',' or ')' after a parameter, found identifier 'b'"});
  EXPECT_EQ(errors_of("def f(1): pass\n"),
            Errs{"E0201 1:7 expected a parameter name or ')', found integer literal 1"});
}

TEST(ParseErrors, ParameterErrorsStillParseTheBody) {
  // The function is dropped, but errors in its body are found too.
  EXPECT_EQ(errors_of("def f(a, a):\n    x = (1 + )\n"),
            (Errs{"E0207 1:10 duplicate parameter 'a' in function definition",
                  "E0202 2:14 expected an expression, found ')'"}));
  Parsed p("def f(a, a):\n    pass\ny = 1\n");
  EXPECT_EQ(ast::dump(p.module), "Module([Assign(targets=[Name('y')], value=IntLit(1))])");
}

TEST(ParseErrors, CallArguments) {
  EXPECT_EQ(errors_of("f(a=1, b)\n"),
            Errs{"E0209 1:8 positional argument follows keyword argument 'a'"});
  EXPECT_EQ(errors_of("f(a=1, a=2)\n"),
            Errs{"E0211 1:8 keyword argument 'a' repeated in call"});
}

TEST(ParseErrors, IntegerOutOfRange) {
  EXPECT_EQ(errors_of("x = 9223372036854775808\n"),
            Errs{"E0105 1:5 integer literal 9223372036854775808 does not fit in 64 bits, expected "
                 "at most 9223372036854775807"});
  EXPECT_EQ(errors_of("x = 0xFFFFFFFFFFFFFFFFFF\n"),
            Errs{"E0105 1:5 integer literal 0xFFFFFFFFFFFFFFFFFF does not fit in 64 bits, expected "
                 "at most 9223372036854775807"});
}

TEST(ParseErrors, UnexpectedIndent) {
  EXPECT_EQ(errors_of("x = 1\n    y = 2\nz = (1 + )\n"),
            (Errs{"E0108 2:5 found an unexpected indent, expected the statement at the indentation "
                  "of the one before it",
                  "E0202 3:10 expected an expression, found ')'"}));
}

TEST(ParseErrors, LabelsAndHelp) {
  Parsed p("def f(a, a): pass\n");
  ASSERT_EQ(p.diags->diagnostics().size(), 1u);
  const auto& d = p.diags->diagnostics()[0];
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(p.span(d.labels[0].range), "1:7-1:8");
  EXPECT_EQ(d.labels[0].text, "first declared here");
  Parsed q("f() = 1\n");
  ASSERT_EQ(q.diags->diagnostics().size(), 1u);
  EXPECT_EQ(q.span(q.diags->diagnostics()[0].range), "1:1-1:4");
  EXPECT_EQ(q.diags->diagnostics()[0].children.size(), 1u);
}

// ------------------------------------------ Python beyond the compiled subset
// The parser accepts all of Python 3.11's syntax but `match`; sema reports what
// it cannot compile where it reaches it (tests/golden/fail_unsupported_*.tpy).

TEST(ParsePython, ClassWithTryRaise) {
  EXPECT_EQ(dump_module("@dataclass(frozen=True)\nclass A(B, metaclass=M, **kw):\n    x: int = 1\n"),
            "Module([ClassDef(name='A', decorators=[Call(Name('dataclass'), [], [frozen=BoolLit(True)])], "
            "bases=[Name('B')], keywords=[metaclass=Name('M'), **Name('kw')], body=[AnnAssign(target=Name('x'), "
            "annotation=Name('int'), value=IntLit(1))])])");
  EXPECT_EQ(dump_module("with a as b, c:\n    pass\nwith (a as b, c,):\n    pass\nwith (a, b) as c:\n    pass\n"),
            "Module([With(items=[WithItem(Name('a'), vars=Name('b')), WithItem(Name('c'))], body=[Pass]), "
            "With(items=[WithItem(Name('a'), vars=Name('b')), WithItem(Name('c'))], body=[Pass]), "
            "With(items=[WithItem(Tuple([Name('a'), Name('b')]), vars=Name('c'))], body=[Pass])])");
  EXPECT_EQ(dump_module("try:\n    pass\nexcept (E, F) as e:\n    raise G('m') from e\nexcept:\n    raise\n"
                        "else:\n    pass\nfinally:\n    del x, y[0]\n"),
            "Module([Try(body=[Pass], handlers=[ExceptHandler(type=Tuple([Name('E'), Name('F')]), name='e', "
            "body=[Raise(exc=Call(Name('G'), [StrLit('m')]), cause=Name('e'))]), ExceptHandler(body=[Raise])], "
            "orelse=[Pass], finalbody=[Delete([Name('x'), Subscript(Name('y'), IntLit(0))])])])");
  EXPECT_EQ(dump_module("try:\n    pass\nexcept* E:\n    pass\n"),
            "Module([Try(body=[Pass], handlers=[ExceptHandler(type=Name('E'), body=[Pass])], star)])");
  EXPECT_EQ(errors_of("try:\n    pass\nx = 1\n"),
            Errs{"E0201 3:1 expected 'except' or 'finally' after the try block, found identifier 'x'"});
}

TEST(ParsePython, AsyncGlobalYield) {
  EXPECT_EQ(dump_module("async def f(a, /, b, *args, c, d=1, **kw):\n    global g, h\n    nonlocal n\n"
                        "    async for x in y:\n        await z\n    async with q:\n        yield\n"
                        "    yield from w\n    yield 1, 2\n"),
            "Module([FunctionDef(name='f', async, params=[Param('a', posonly), Param('b'), Param('args', vararg), "
            "Param('c', kwonly), Param('d', default=IntLit(1), kwonly), Param('kw', kwarg)], body=["
            "Global(['g', 'h']), Nonlocal(['n']), For(target=Name('x'), iter=Name('y'), body=[ExprStmt("
            "Await(Name('z')))], async), With(items=[WithItem(Name('q'))], body=[ExprStmt(Yield)], async), "
            "ExprStmt(YieldFrom(Name('w'))), ExprStmt(Yield(Tuple([IntLit(1), IntLit(2)])))])])");
  EXPECT_EQ(errors_of("def f(/, a): pass\n"),
            Errs{"E0201 1:7 expected '/' after at least one parameter and before '*'"});
  EXPECT_EQ(errors_of("def f(**kw, a): pass\n"),
            Errs{"E0201 1:13 expected no parameter after '**' parameter, ')', found identifier 'a'"});
}

TEST(ParsePython, StarsAndDisplays) {
  EXPECT_EQ(dump_module("a, *b = [*c, d]\n"),
            "Module([Assign(targets=[Tuple([Name('a'), Starred(Name('b'))])], value=List([Starred(Name('c')), "
            "Name('d')]))])");
  EXPECT_EQ(dump_expr("f(*a, b, k=1, **kw)"),
            "Call(Name('f'), [Starred(Name('a')), Name('b')], [k=IntLit(1), **Name('kw')])");
  EXPECT_EQ(dump_expr("{**m, 1: 2}"), "Dict([**Name('m'), IntLit(1): IntLit(2)])");
  EXPECT_EQ(dump_expr("{1, *t}"), "Set([IntLit(1), Starred(Name('t'))])");
  EXPECT_EQ(dump_expr("{}"), "Dict([])");
  EXPECT_EQ(dump_expr("lambda x, *y, z=1, **w: x"),
            "Lambda([Param('x'), Param('y', vararg), Param('z', default=IntLit(1), kwonly), Param('w', kwarg)], "
            "Name('x'))");
  EXPECT_EQ(dump_expr("lambda: 0"), "Lambda([], IntLit(0))");
  EXPECT_EQ(dump_expr("(n := 10) > 5"), "Compare(NamedExpr(Name('n'), IntLit(10)), '>', IntLit(5))");
  EXPECT_EQ(dump_module("for *a, b in x: pass\n"),
            "Module([For(target=Tuple([Starred(Name('a')), Name('b')]), iter=Name('x'), body=[Pass])])");
  EXPECT_EQ(errors_of("f(**k, a)\n"), Errs{"E0209 1:8 positional argument follows keyword argument unpacking"});
  EXPECT_EQ(errors_of("(a.b := 1)\n"), Errs{"E0205 1:2 cannot use an assignment expression (:=) with this expression"});
}

TEST(ParsePython, Comprehensions) {
  EXPECT_EQ(dump_expr("[x for x in y if x if not x for z in x]"),
            "ListComp(Name('x'), [comprehension(Name('x'), Name('y'), ifs=[Name('x'), UnaryOp('not', Name('x'))]), "
            "comprehension(Name('z'), Name('x'))])");
  EXPECT_EQ(dump_expr("(x async for x in y)"),
            "GeneratorExp(Name('x'), [comprehension(Name('x'), Name('y'), async)])");
  EXPECT_EQ(dump_expr("{k: v for k, v in z}"),
            "DictComp(Name('k'), Name('v'), [comprehension(Tuple([Name('k'), Name('v')]), Name('z'))])");
  EXPECT_EQ(dump_expr("{x for x in y}"), "SetComp(Name('x'), [comprehension(Name('x'), Name('y'))])");
  EXPECT_EQ(dump_expr("sum(x for x in y)"),
            "Call(Name('sum'), [GeneratorExp(Name('x'), [comprehension(Name('x'), Name('y'))])])");
  EXPECT_EQ(errors_of("f(a, x for x in y)\n"),
            Errs{"E0201 1:6 a generator expression must be parenthesized unless it is the only argument"});
}

TEST(ParsePython, FStrings) {
  // The same tree as Python's ast (a Constant is a StrLit; conversion -1/115/114 is none/'s'/'r').
  EXPECT_EQ(dump_expr("f\"{a:{b}.{c}f} {d!s} {e = !r:<3}\" f\"\"\"\n{f\n + g}\"\"\""),
            "JoinedStr([FormattedValue(Name('a'), format_spec=JoinedStr([FormattedValue(Name('b')), StrLit('.'), "
            "FormattedValue(Name('c')), StrLit('f')])), StrLit(' '), FormattedValue(Name('d'), conversion='s'), "
            "StrLit(' e = '), FormattedValue(Name('e'), conversion='r', format_spec=JoinedStr([StrLit('<3')])), "
            "StrLit('\\n'), FormattedValue(BinOp(Name('f'), '+', Name('g')))])");
  EXPECT_EQ(dump_expr("f'a{x!r:>{w}}b{y=}c{{}}' 'd' rf'\\d{z}'"),
            "JoinedStr([StrLit('a'), FormattedValue(Name('x'), conversion='r', format_spec=JoinedStr([StrLit('>'), "
            "FormattedValue(Name('w'))])), StrLit('by='), FormattedValue(Name('y'), conversion='r'), "
            "StrLit('c{}d\\\\d'), FormattedValue(Name('z'))])");
  EXPECT_EQ(dump_expr("f'{x[\"k\"]:{w}}'"),
            "JoinedStr([FormattedValue(Subscript(Name('x'), StrLit('k')), format_spec=JoinedStr(["
            "FormattedValue(Name('w'))]))])");
  EXPECT_EQ(dump_expr("'plain' 'only'"), "StrLit('plainonly')");
  EXPECT_EQ(errors_of("x = f'{a b}'\n"),
            Errs{"E0201 1:10 expected '}', '!' or ':' after the f-string field's expression, found identifier 'b'"});
}

TEST(ParsePython, Spans) {
  // Fields keep their file offsets: x is at 1:9, the field {x!r} spans 1:8-1:13.
  Parsed p("y = f'a{x!r}b' + c\n");
  ASSERT_EQ(p.errors(), Errs{});
  const auto* add = p.module.body[0]->as<ast::Assign>()->value->as<ast::BinOp>();
  const auto* j = add->lhs->as<ast::JoinedStr>();
  ASSERT_TRUE(j);
  EXPECT_EQ(p.span(j->range), "1:5-1:15");
  EXPECT_EQ(p.span(j->values[0]->range), "1:7-1:8");
  const auto* f = j->values[1]->as<ast::FormattedValue>();
  ASSERT_TRUE(f);
  EXPECT_EQ(p.span(f->range), "1:8-1:13");
  EXPECT_EQ(p.span(f->value->range), "1:9-1:10");
  Parsed q("class C(B):\n    pass\nasync def f():\n    pass\ng = (x for x in y)\nh(x for x in y)\n");
  ASSERT_EQ(q.errors(), Errs{});
  EXPECT_EQ(q.span(q.module.body[0]->range), "1:1-2:9");
  EXPECT_EQ(q.span(q.module.body[1]->range), "3:1-4:9");
  EXPECT_EQ(q.span(q.module.body[2]->as<ast::Assign>()->value->range), "5:5-5:19");
  const auto* call = q.module.body[3]->as<ast::ExprStmt>()->value->as<ast::Call>();
  EXPECT_EQ(q.span(call->args[0]->range), "6:2-6:16");
}

TEST(ParsePython, StillRejected) {
  EXPECT_EQ(errors_of("from m import *\n"),
            Errs{"E0206 1:15 wildcard imports (import *) are not supported in tileslc"});
  EXPECT_EQ(errors_of("x = 1j\n"), Errs{"E0206 1:5 imaginary literals are not supported in tileslc"});
  EXPECT_EQ(errors_of("x = 'a' b'c'\n"),
            Errs{"E0206 1:9 bytes literals are not supported in tileslc"});
}

// --------------------------------------------------------- recovery

TEST(ParseRecovery, TwoErrorsBothReported) {
  EXPECT_EQ(errors_of("x = (1 + )\ny = 1\nif z\n    pass\nw = [1 for a in]\n"),
            (Errs{"E0202 1:10 expected an expression, found ')'",
                  "E0201 3:5 expected ':' after if condition, found newline",
                  "E0202 5:16 expected an expression, found ']'"}));
}

TEST(ParseRecovery, GoodStatementsSurvive) {
  Parsed p("a = 1\nb = (1 + )\nclass C x:\n    x = (\n      1)\nc = 3\n");
  EXPECT_EQ(p.errors(), (Errs{"E0202 2:10 expected an expression, found ')'",
                              "E0201 3:9 expected ':' after the class header, found identifier 'x'"}));
  EXPECT_EQ(ast::dump(p.module),
            "Module([Assign(targets=[Name('a')], value=IntLit(1)), Assign(targets=[Name('c')], "
            "value=IntLit(3))])");
}

TEST(ParseRecovery, ErrorsInsideBlocks) {
  Parsed p("def f():\n    x = (1 + )\n    if y:\n        z = 1 +\n    w = 2\n    return w\nv = 1\n");
  EXPECT_EQ(p.errors(), (Errs{"E0202 2:14 expected an expression, found ')'",
                              "E0202 4:16 expected an expression, found newline"}));
  // The function (without its bad statements) and the final statement are kept.
  EXPECT_EQ(ast::dump(p.module),
            "Module([FunctionDef(name='f', body=[If(test=Name('y'), body=[]), Assign(targets=["
            "Name('w')], value=IntLit(2)), Return(Name('w'))]), Assign(targets=[Name('v')], "
            "value=IntLit(1))])");
}

TEST(ParseRecovery, FailedIfDropsItsClauses) {
  Parsed p("if x y:\n    a = 1\nelif b:\n    pass\nelse:\n    pass\nc = 2\n");
  EXPECT_EQ(p.errors(),
            Errs{"E0201 1:6 expected ':' after if condition, found identifier 'y'"});
  EXPECT_EQ(ast::dump(p.module), "Module([Assign(targets=[Name('c')], value=IntLit(2))])");
}

TEST(ParseRecovery, SemicolonLineWithError) {
  Parsed p("a = 1; b = (1 + ); c = 3\nd = 4\n");
  EXPECT_EQ(p.errors(), Errs{"E0202 1:17 expected an expression, found ')'"});
  EXPECT_EQ(ast::dump(p.module), "Module([Assign(targets=[Name('d')], value=IntLit(4))])");
}

TEST(ParseRecovery, OneErrorPerStatement) {
  EXPECT_EQ(errors_of("x = f(a=1, 2, k=3, k=4)\n").size(), 2u);  // E0209 then E0211, same call
  EXPECT_EQ(errors_of("x = (+) + (+)\n").size(), 1u);
}

TEST(ParseRecovery, OneErrorPerMisplacedDefaultOrKeyword) {
  // Python reports these once, at the first offending parameter or argument.
  EXPECT_EQ(errors_of("def f(a=1, b, c): pass\n"),
            Errs{"E0208 1:12 parameter 'b' without a default follows parameter 'a' with a default"});
  EXPECT_EQ(errors_of("f(a=1, b, c)\n"),
            Errs{"E0209 1:8 positional argument follows keyword argument 'a'"});
}

TEST(ParseRecovery, MismatchedBracketIsOnlyTheLexerError) {
  // The lexer turns the `)` into the `]` the subscript needs.
  Parsed p("x = a[1)\ny = 2\n");
  EXPECT_EQ(p.errors(), Errs{"E0109 1:8 found ')' closing '[', expected ']'"});
  EXPECT_EQ(ast::dump(p.module),
            "Module([Assign(targets=[Name('x')], value=Subscript(Name('a'), IntLit(1))), "
            "Assign(targets=[Name('y')], value=IntLit(2))])");
  EXPECT_EQ(errors_of("f(a[1)\n"), Errs{"E0109 1:6 found ')' closing '[', expected ']'"});
  // Nothing is reported at the `]` the lexer added, which the user did not write.
  EXPECT_EQ(errors_of("f(a[1 + )\n"), Errs{"E0109 1:9 found ')' closing '[', expected ']'"});
}

TEST(ParseRecovery, UnterminatedStringIsOnlyTheLexerError) {
  const std::string e0102 = " found the end of the line inside a string, expected \" to close it";
  // Its closers went into the string.
  EXPECT_EQ(errors_of("f(\"abc, x)\ny = 1\n"), Errs{"E0102 1:3" + e0102});
  EXPECT_EQ(errors_of("if len(\"abc):\n    pass\ny = 1\n"), Errs{"E0102 1:8" + e0102});
  // A comma went into it, on a line of a call that goes on.
  EXPECT_EQ(errors_of("f(\"a\",\n  \"b,\n  c)\ny = 1\n"), Errs{"E0102 2:3" + e0102});
  // A mistake after it on another line is still found.
  EXPECT_EQ(errors_of("f(\"abc)\ny = (1 + )\n"),
            (Errs{"E0102 1:3" + e0102, "E0202 2:10 expected an expression, found ')'"}));
}

TEST(ParseRecovery, NoFinalNewline) {
  EXPECT_EQ(dump_module("x = 1"), "Module([Assign(targets=[Name('x')], value=IntLit(1))])");
  EXPECT_EQ(dump_module("if x:\n    y = 1"), "Module([If(test=Name('x'), body=[Assign(targets=[Name('y')], value=IntLit(1))])])");
  EXPECT_EQ(errors_of("if x:"),
            Errs{"E0204 1:6 expected an indented block after 'if' statement on line 1"});
}

// ---------------------------------------------------------- limits

TEST(ParseLimits, DeepParenthesesGiveE0210) {
  std::string src = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\ny = 2\n";
  Parsed p(src);
  ASSERT_EQ(p.errors().size(), 1u);
  EXPECT_EQ(p.errors()[0].substr(0, 5), "E0210");
  EXPECT_EQ(ast::dump(p.module), "Module([Assign(targets=[Name('y')], value=IntLit(2))])");
}

TEST(ParseLimits, NestingJustUnderTheLimitParses) {
  std::string src = "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n";
  EXPECT_EQ(dump_module(src), "Module([Assign(targets=[Name('x')], value=IntLit(1))])");
}

TEST(ParseLimits, DeepUnaryPowerNotAndConditional) {
  for (std::string piece : {"-", "not ", "2 ** ", "a if b else "}) {
    std::string src = "x = ";
    for (int i = 0; i < 100000; ++i) src += piece;
    src += "1\n";
    auto errs = errors_of(src);
    ASSERT_EQ(errs.size(), 1u) << piece;
    EXPECT_EQ(errs[0].substr(0, 5), "E0210") << piece;
  }
}

TEST(ParseLimits, DeepBracketsOfEveryKind) {
  for (std::string open : {"[", "{", "f(", "a["}) {
    std::string src = "x = ";
    for (int i = 0; i < 50000; ++i) src += open;
    src += "\n";
    auto errs = errors_of(src);  // the lexer reports the unclosed brackets; no crash
    EXPECT_FALSE(errs.empty()) << open;
  }
}

TEST(ParseLimits, LongChainsGiveE0210) {
  std::string src = "x = a";
  for (int i = 0; i < 200000; ++i) src += " + a";
  src += "\ny = b";
  for (int i = 0; i < 200000; ++i) src += ".c";
  src += "\n";
  auto errs = errors_of(src);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].substr(0, 5), "E0210");
  EXPECT_EQ(errs[1].substr(0, 5), "E0210");
}

TEST(ParseLimits, FlatSequencesAreFine) {
  std::string src = "x = (";
  for (int i = 0; i < 20000; ++i) src += "1, ";
  src += ")\n";
  Parsed p(src);
  EXPECT_EQ(p.errors(), Errs{});
}

TEST(ParseLimits, DeepBlocksGiveE0210) {
  std::string src;
  for (int i = 0; i < 300; ++i) src += std::string(i, ' ') + "if x:\n";
  src += std::string(300, ' ') + "pass\n";
  src += "y = 1\n";
  Parsed p(src);
  ASSERT_FALSE(p.errors().empty());
  bool has_e0210 = false;
  for (const auto& e : p.errors()) has_e0210 |= e.substr(0, 5) == "E0210";
  EXPECT_TRUE(has_e0210);
}

TEST(ParseLimits, ManyElifs) {
  std::string src = "if a:\n    pass\n";
  for (int i = 0; i < 500; ++i) src += "elif b:\n    pass\n";
  EXPECT_EQ(errors_of(src), Errs{});
  std::string big = "if a:\n    pass\n";
  for (int i = 0; i < 5000; ++i) big += "elif b:\n    pass\n";
  big += "else:\n    pass\nz = 1\n";
  Parsed p(big);
  ASSERT_EQ(p.errors().size(), 1u);
  EXPECT_EQ(p.errors()[0].substr(0, 5), "E0210");
  EXPECT_EQ(ast::dump(p.module), "Module([Assign(targets=[Name('z')], value=IntLit(1))])");
}

TEST(ParseLimits, GarbageNeverHangs) {
  // Every token kind in odd places; the parser must terminate with errors.
  const char* inputs[] = {
      ")))]]]}}}", "else elif except finally", "= = = =", ":::", "@@@\n@\n", "def", "def f(",
      "for", "for x in", "from", "from .", "import a.", "if", "while", "x[", "x(", "lambda",
      "\n\n    \n", "a b c d e f", "return return", ", , ,", "not", "**", "x ** ** y", ";;",
      "if x:\n  pass\n else:\n  pass\n", "\tif x:\n", "def f(a=1, b=2, c): pass\n", "->", "...",
      "a.b.c(d[e:f:g:h])", "{1: 2, 3}", "{1, 2: 3}", "x = yield from y", "print 'x'",
  };
  for (const char* src : inputs) {
    Parsed p(src);
    (void)p;
  }
  SUCCEED();
}


// -------------------------------------------- coverage and robustness

TEST(ParseCoverage, EveryParserDiagnosticIsProduced) {
  // One program per E02xx kind; fails when a kind is added without a test.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"E0201", "if x\n    pass\n"},       {"E0202", "x = (1 + )\n"},
      {"E0203", "else:\n    pass\n"},       {"E0204", "if x:\npass\n"},
      {"E0205", "f() = 1\n"},                {"E0206", "from m import *\n"},
      {"E0207", "def f(a, a): pass\n"},      {"E0208", "def f(a=1, b): pass\n"},
      {"E0209", "f(a=1, b)\n"},              {"E0210", "x = " + std::string(250, '-') + "1\n"},
      {"E0211", "f(a=1, a=2)\n"},
  };
  std::vector<std::string> covered;
  for (const auto& [code, src] : cases) {
    Parsed p(src);
    ASSERT_EQ(p.diags->diagnostics().size(), 1u) << src;
    EXPECT_EQ(diag::info(p.diags->diagnostics()[0].kind).code, code) << src;
    covered.push_back(code);
  }
  for (const auto& k : diag::all_kinds()) {
    if (k.code.substr(0, 3) != "E02") continue;
    EXPECT_NE(std::find(covered.begin(), covered.end(), std::string(k.code)), covered.end())
        << k.code << " has no parser test";
  }
}

TEST(ParseCoverage, WithoutSourceManagerMessagesOmitLines) {
  SourceManager sm;
  source::FileId f = sm.add_buffer("t.tpy", "if x:\ny = 1\n");
  diag::DiagnosticEngine diags(sm);
  auto tokens = lex::tokenize(sm, f, diags);
  ast::Module m = parse_module(tokens, f, diags);
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].message, "expected an indented block after 'if' statement");
}

TEST(ParseCoverage, EmptyTokenVector) {
  SourceManager sm;
  source::FileId f = sm.add_buffer("t.tpy", "");
  diag::DiagnosticEngine diags(sm);
  ast::Module m = parse_module({}, f, diags);
  EXPECT_EQ(ast::dump(m), "Module([])");
  EXPECT_FALSE(diags.has_errors());
}

TEST(ParseRobustness, RandomFragmentsTerminate) {
  const char* frags[] = {
      "x", "f", "(", ")", "[", "]", "{", "}", ":", ",", ";", ".", "...", "->", "@", "=", ":=",
      "+", "-", "*", "**", "/", "//", "%", "|", "&", "^", "~", "<<", ">>", "<", ">", "==", "!=",
      "+=", "**=", "1", "2.5", "3j", "'s'", "b'b'", "\n", "\n    ", "\n        ", "\n  ",
      "if", "elif", "else", "for", "in", "while", "def", "class", "return", "pass", "break",
      "lambda", "yield", "await", "async", "with", "try", "except", "not", "and", "or", "is",
      "import", "from", "as", "None", "True", "global", "del", "raise", "assert", "#c", "\\\n",
  };
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int iter = 0; iter < 3000; ++iter) {
    std::string src;
    int n = 1 + next() % 40;
    for (int i = 0; i < n; ++i) {
      src += frags[next() % (sizeof frags / sizeof *frags)];
      src += ' ';
    }
    Parsed p(src);
    (void)ast::dump(p.module);
  }
  SUCCEED();
}

TEST(ParseRobustness, MutatedProgramTerminates) {
  const std::string base =
      "import tileslc.cute as cute\n@cute.kernel\ndef k(a: cute.Tensor, n=4, *, m):\n"
      "    x, y = a[1:2, ::3], {'k': (1,)}\n    if x < y <= n: x += -2 ** 2\n"
      "    elif not x: return f(x, k=1)[0].b\n    else:\n        for i in range(n):\n"
      "            while i: i -= 1\n";
  uint64_t state = 99;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  const std::string alphabet = "()[]{}:,.=+-*@ \n\tx1'\"#\\";
  for (int iter = 0; iter < 2000; ++iter) {
    std::string src = base;
    int edits = 1 + next() % 4;
    for (int e = 0; e < edits; ++e) {
      size_t at = next() % (src.size() + 1);
      switch (next() % 3) {
        case 0: if (at < src.size()) src.erase(at, 1); break;
        case 1: src.insert(at, 1, alphabet[next() % alphabet.size()]); break;
        default: if (at < src.size()) src[at] = alphabet[next() % alphabet.size()];
      }
    }
    Parsed p(src);
    (void)ast::dump(p.module);
  }
  SUCCEED();
}

}  // namespace
}  // namespace tileslc::parse
