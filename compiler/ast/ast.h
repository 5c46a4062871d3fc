// The abstract syntax tree of a .tpy module: the parser's output and sema's
// input. It mirrors Python's own `ast` module (same node names and fields,
// https://docs.python.org/3/library/ast.html) for all of Python 3.11's
// statements and expressions but `match`; every node carries the SourceRange it
// was parsed from. The parser accepts constructs that sema cannot compile
// (classes, with, try, lambdas, comprehensions, ...): sema reports them only
// where it reaches them. Nodes are owned through unique_ptr by their parent;
// the tree is immutable after parsing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source/source.h"

namespace tileslc::ast {

using source::SourceRange;

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
  Name, IntLit, FloatLit, StrLit, BoolLit, NoneLit, EllipsisLit,
  Tuple, List, Dict, Attribute, Subscript, Slice, Call,
  BinOp, UnaryOp, BoolOp, Compare, IfExp,
  // Parsed everywhere, compiled nowhere yet: sema reports them where reached.
  Starred, Set, Lambda, Comp, NamedExpr, Yield, Await, JoinedStr, FormattedValue,
};

enum class BinOpKind : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitOr, BitXor, BitAnd };
enum class UnaryOpKind : uint8_t { Neg, Pos, Invert, Not };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spelling of an operator ("+", "//", "not in").
const char* spelling(BinOpKind k);
const char* spelling(UnaryOpKind k);
const char* spelling(BoolOpKind k);
const char* spelling(CmpOpKind k);

struct Expr {
  explicit Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Expr() = default;
  ExprKind kind;
  SourceRange range;

  template <class T> T* as() { return kind == T::kKind ? static_cast<T*>(this) : nullptr; }
  template <class T> const T* as() const { return kind == T::kKind ? static_cast<const T*>(this) : nullptr; }
};
using ExprPtr = std::unique_ptr<Expr>;

/// A parameter of a def or lambda.
struct Param {
  std::string name;
  SourceRange range;       ///< the name
  ExprPtr annotation;      ///< may be null
  ExprPtr default_value;   ///< may be null
  bool keyword_only = false;  ///< declared after a `*` or `*args`
  bool positional_only = false;  ///< declared before a `/`
  bool var_positional = false;   ///< `*args`
  bool var_keyword = false;      ///< `**kwargs`
};

#define TILESLC_AST_EXPR(K) \
  static constexpr ExprKind kKind = ExprKind::K; \
  explicit K(SourceRange r) : Expr(ExprKind::K, r) {}

struct Name : Expr { TILESLC_AST_EXPR(Name) std::string id; };
/// Integer literal; Python ints are unbounded, tileslc's static ints are int64.
struct IntLit : Expr { TILESLC_AST_EXPR(IntLit) int64_t value = 0; };
struct FloatLit : Expr { TILESLC_AST_EXPR(FloatLit) double value = 0; };
/// String literal; adjacent literals are already concatenated.
struct StrLit : Expr { TILESLC_AST_EXPR(StrLit) std::string value; };
struct BoolLit : Expr { TILESLC_AST_EXPR(BoolLit) bool value = false; };
struct NoneLit : Expr { TILESLC_AST_EXPR(NoneLit) };
struct EllipsisLit : Expr { TILESLC_AST_EXPR(EllipsisLit) };
struct Tuple : Expr { TILESLC_AST_EXPR(Tuple) std::vector<ExprPtr> elts; bool parenthesized = false; };
struct List : Expr { TILESLC_AST_EXPR(List) std::vector<ExprPtr> elts; };
/// `{k: v, **m}`: keys[i] is null where values[i] is unpacked with `**`.
struct Dict : Expr { TILESLC_AST_EXPR(Dict) std::vector<ExprPtr> keys, values; };
struct Attribute : Expr {
  TILESLC_AST_EXPR(Attribute)
  ExprPtr value;
  std::string attr;
  SourceRange attr_range;
};
/// value[index]; a tuple index `a[i, j]` is a Tuple, `a[i:j]` a Slice.
struct Subscript : Expr { TILESLC_AST_EXPR(Subscript) ExprPtr value, index; };
/// lower:upper:step inside a subscript; each part may be null.
struct Slice : Expr { TILESLC_AST_EXPR(Slice) ExprPtr lower, upper, step; };
/// `name=value`, or `**value` (name empty) in a call or class header.
struct Keyword {
  std::string name;
  SourceRange name_range;
  ExprPtr value;
};
struct Call : Expr {
  TILESLC_AST_EXPR(Call)
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};
struct BinOp : Expr { TILESLC_AST_EXPR(BinOp) BinOpKind op{}; SourceRange op_range; ExprPtr lhs, rhs; };
struct UnaryOp : Expr { TILESLC_AST_EXPR(UnaryOp) UnaryOpKind op{}; ExprPtr operand; };
/// `a and b and c`: one node with all operands, as in Python's ast.
struct BoolOp : Expr { TILESLC_AST_EXPR(BoolOp) BoolOpKind op{}; std::vector<ExprPtr> values; };
/// `a < b <= c`: left, then ops[i] applied to comparators[i].
struct Compare : Expr {
  TILESLC_AST_EXPR(Compare)
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<SourceRange> op_ranges;
  std::vector<ExprPtr> comparators;
};
/// `body if test else orelse`
struct IfExp : Expr { TILESLC_AST_EXPR(IfExp) ExprPtr test, body, orelse; };
/// `*value` in a tuple, list, set, call argument or assignment target.
struct Starred : Expr { TILESLC_AST_EXPR(Starred) ExprPtr value; };
/// `{a, b}`: a set display.
struct Set : Expr { TILESLC_AST_EXPR(Set) std::vector<ExprPtr> elts; };
/// `lambda params: body`; params carry no annotations.
struct Lambda : Expr { TILESLC_AST_EXPR(Lambda) std::vector<Param> params; ExprPtr body; };
/// One `[async] for target in iter if cond ...` clause of a comprehension.
struct Comprehension {
  ExprPtr target, iter;
  std::vector<ExprPtr> ifs;
  bool is_async = false;
};
enum class CompKind : uint8_t { List, Set, Dict, Generator };
/// ListComp, SetComp, DictComp (elt is the key, value the value) and
/// GeneratorExp of Python's ast in one node; `comp` says which.
struct Comp : Expr {
  TILESLC_AST_EXPR(Comp)
  CompKind comp{};
  ExprPtr elt, value;
  std::vector<Comprehension> generators;
};
/// `target := value`; target is a Name.
struct NamedExpr : Expr { TILESLC_AST_EXPR(NamedExpr) ExprPtr target, value; };
/// `yield [value]` or `yield from value`.
struct Yield : Expr { TILESLC_AST_EXPR(Yield) ExprPtr value; bool is_from = false; };
struct Await : Expr { TILESLC_AST_EXPR(Await) ExprPtr value; };
/// An f-string (with any adjacent plain literals): StrLit and FormattedValue
/// parts in source order. `f"{x=}"` is, as in Python, StrLit('x=') then x
/// with conversion 'r' (unless a conversion or format spec is given).
struct JoinedStr : Expr { TILESLC_AST_EXPR(JoinedStr) std::vector<ExprPtr> values; };
/// `{value!conversion:format_spec}` in an f-string; its range is the braces.
/// conversion is 0, 'r', 's' or 'a'; format_spec is a JoinedStr or null.
struct FormattedValue : Expr {
  TILESLC_AST_EXPR(FormattedValue)
  ExprPtr value;
  char conversion = 0;
  ExprPtr format_spec;
};
#undef TILESLC_AST_EXPR

// ----------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
  ExprStmt, Assign, AugAssign, AnnAssign, Return, Pass, Break, Continue, Assert,
  If, For, While, FunctionDef, Import, ImportFrom,
  // Parsed everywhere, compiled nowhere yet: sema reports them where reached.
  ClassDef, With, Try, Raise, Global, Nonlocal, Delete,
};

struct Stmt {
  explicit Stmt(StmtKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  SourceRange range;

  template <class T> T* as() { return kind == T::kKind ? static_cast<T*>(this) : nullptr; }
  template <class T> const T* as() const { return kind == T::kKind ? static_cast<const T*>(this) : nullptr; }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

#define TILESLC_AST_STMT(K) \
  static constexpr StmtKind kKind = StmtKind::K; \
  explicit K(SourceRange r) : Stmt(StmtKind::K, r) {}

struct ExprStmt : Stmt { TILESLC_AST_STMT(ExprStmt) ExprPtr value; };
/// `t1 = t2 = value`: targets in source order.
struct Assign : Stmt { TILESLC_AST_STMT(Assign) std::vector<ExprPtr> targets; ExprPtr value; };
struct AugAssign : Stmt { TILESLC_AST_STMT(AugAssign) ExprPtr target; BinOpKind op{}; SourceRange op_range; ExprPtr value; };
/// `target: annotation [= value]`
struct AnnAssign : Stmt { TILESLC_AST_STMT(AnnAssign) ExprPtr target, annotation, value; };
struct Return : Stmt { TILESLC_AST_STMT(Return) ExprPtr value; };
struct Pass : Stmt { TILESLC_AST_STMT(Pass) };
struct Break : Stmt { TILESLC_AST_STMT(Break) };
struct Continue : Stmt { TILESLC_AST_STMT(Continue) };
struct Assert : Stmt { TILESLC_AST_STMT(Assert) ExprPtr test, msg; };
/// `elif` is an If as the only statement of orelse, as in Python's ast.
struct If : Stmt { TILESLC_AST_STMT(If) ExprPtr test; Body body, orelse; };
struct For : Stmt { TILESLC_AST_STMT(For) ExprPtr target, iter; Body body, orelse; bool is_async = false; };
struct While : Stmt { TILESLC_AST_STMT(While) ExprPtr test; Body body, orelse; };

/// Its range starts at 'def', as in Python's ast; decorators lie before it.
struct FunctionDef : Stmt {
  TILESLC_AST_STMT(FunctionDef)
  std::string name;
  SourceRange name_range;
  std::vector<ExprPtr> decorators;  ///< `@cute.kernel`, `@cute.jit(...)`: the expression after '@'
  std::vector<Param> params;
  ExprPtr returns;                  ///< `-> T`, may be null
  Body body;
  bool is_async = false;            ///< `async def`; the range starts at 'async'
};
struct Alias {
  std::string name;        ///< dotted for `import a.b`, plain for `from m import name`
  SourceRange range;
  std::string asname;      ///< empty when there is no `as`
};
struct Import : Stmt { TILESLC_AST_STMT(Import) std::vector<Alias> names; };
struct ImportFrom : Stmt {
  TILESLC_AST_STMT(ImportFrom)
  std::string module;      ///< dotted; empty for `from . import x`
  SourceRange module_range;
  int level = 0;           ///< number of leading dots
  std::vector<Alias> names;
};
/// `class name(bases, keywords): body`; its range starts at 'class'.
struct ClassDef : Stmt {
  TILESLC_AST_STMT(ClassDef)
  std::string name;
  SourceRange name_range;
  std::vector<ExprPtr> decorators;
  std::vector<ExprPtr> bases;
  std::vector<Keyword> keywords;
  Body body;
};
/// `context_expr [as optional_vars]`
struct WithItem { ExprPtr context_expr, optional_vars; };
struct With : Stmt { TILESLC_AST_STMT(With) std::vector<WithItem> items; Body body; bool is_async = false; };
/// `except [type [as name]]: body`; range is the `except` line's header.
struct ExceptHandler {
  SourceRange range;
  ExprPtr type;            ///< null for a bare `except:`
  std::string name;        ///< empty without `as`
  SourceRange name_range;
  Body body;
};
/// `try` with handlers (`except*` ones if is_star), `else`, `finally`.
struct Try : Stmt {
  TILESLC_AST_STMT(Try)
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse, finalbody;
  bool is_star = false;
};
/// `raise [exc [from cause]]`
struct Raise : Stmt { TILESLC_AST_STMT(Raise) ExprPtr exc, cause; };
struct Global : Stmt { TILESLC_AST_STMT(Global) std::vector<std::string> names; };
struct Nonlocal : Stmt { TILESLC_AST_STMT(Nonlocal) std::vector<std::string> names; };
/// `del t1, t2`
struct Delete : Stmt { TILESLC_AST_STMT(Delete) std::vector<ExprPtr> targets; };
#undef TILESLC_AST_STMT

/// One parsed file.
struct Module {
  source::FileId file = source::kNoFile;
  Body body;
};

/// Renders the tree in a stable, Python-ast-like form for tests and
/// `tileslc --dump-ast`, on one line, e.g.
///   Module([Assign(targets=[Name('x')], value=BinOp(IntLit(1), '+', IntLit(2)))])
/// Expressions are positional, in source order where that reads better:
///   Name('x')  IntLit(1)  FloatLit(1.5)  FloatLit(2.0)  StrLit('a\'b\n')
///   BoolLit(True)  NoneLit  EllipsisLit
///   Tuple([a, b])  List([a])  Dict([k: v, k2: v2])
///   Attribute(value, 'attr')  Subscript(value, index)  Slice(lower, upper, step)
///   Call(func, [args])  Call(func, [args], [name=value, ...])  (keywords only if any)
///   BinOp(lhs, '+', rhs)  UnaryOp('-', x)  UnaryOp('not', x)  BoolOp('and', [a, b, c])
///   Compare(a, '<', b, 'not in', c)  IfExp(test=c, body=a, orelse=b)
///   Starred(e)  Set([a, b])  Dict([**m])  Call(f, [Starred(a)], [**kw])
///   Lambda([Param('x'), ...], body)  NamedExpr(Name('x'), e)
///   ListComp(elt, [comprehension(target, iter[, ifs=[...]][, async])])
///   SetComp(...)  GeneratorExp(...)  DictComp(key, value, [comprehension(...)])
///   Yield  Yield(e)  YieldFrom(e)  Await(e)
///   JoinedStr([StrLit('a'), FormattedValue(e[, conversion='r'][, format_spec=JoinedStr(...)])])
/// An absent optional expression (a Slice part) prints as `null`. Strings use
/// single quotes with \\ \' \n \r \t \xNN escapes; floats print as
/// Python's repr() does (2.0, 10000000000.0, 1e+16, 1e-05, inf).
/// Statements name their fields; empty lists and null fields are left out:
///   ExprStmt(e)  Assign(targets=[t1, t2], value=e)  AugAssign(target=t, op='+=', value=e)
///   AnnAssign(target=t, annotation=e[, value=e])  Return  Return(e)  Pass  Break  Continue
///   Assert(test=e[, msg=e])  If(test=e, body=[...][, orelse=[...]])
///   For(target=t, iter=e, body=[...][, orelse=[...]])  While(test=e, body=[...][, orelse=[...]])
///   FunctionDef(name='f'[, async][, decorators=[...]][, params=[Param('a'[, annotation=e]
///               [, default=e][, kwonly][, posonly][, vararg][, kwarg]), ...]][, returns=e], body=[...])
///   (For(...) also shows `, async`.)
///   ClassDef(name='C'[, decorators=[...]][, bases=[...]][, keywords=[k=e, **e]], body=[...])
///   With(items=[WithItem(e[, vars=t]), ...], body=[...][, async])
///   Try(body=[...][, handlers=[ExceptHandler([type=e][, name='n'], body=[...])]]
///       [, orelse=[...]][, finalbody=[...]][, star])
///   Raise  Raise(exc=e[, cause=e])  Global(['a', 'b'])  Nonlocal(['a'])  Delete([t1, t2])
///   Import([Alias('a.b', 'c'), Alias('d')])  ImportFrom(module='m', names=[...][, level=1])
/// Tuple::parenthesized and source ranges are not shown.
std::string dump(const Module& m);
std::string dump(const Expr& e);

}  // namespace tileslc::ast
