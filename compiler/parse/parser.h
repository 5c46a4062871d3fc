// The parser's internal class, shared by parser.cpp (token access, error
// reporting and recovery, the module and block structure), parse_stmt.cpp
// (statements) and parse_expr.cpp (expressions). Not a public header: other
// phases use parse/parse.h.
//
// Error protocol: a parse method that hits a syntax error reports it once and
// returns null (or false). Every caller propagates the failure at once without
// reporting again, up to the statement loop, which drops the statement and
// calls sync() to skip to the next statement at the same nesting level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ast/ast.h"
#include "diag/diag.h"
#include "lex/lex.h"

namespace tileslc::parse {

using ast::Body;
using ast::ExprPtr;
using ast::StmtPtr;
using lex::Token;
using lex::TokenKind;
using source::SourceRange;

/// How deep brackets, unary operators, conditional expressions and `**`
/// chains may nest, and how deep blocks may nest (E0210).
inline constexpr int kMaxNesting = 200;
/// How many left-nested nodes (binary operators, attribute/call/subscript
/// trailers) one statement may build; bounds the AST's height so later
/// recursive passes cannot overflow the stack (E0210).
inline constexpr int kMaxChainPerStatement = 1000;
/// How many `elif` branches one `if` may have (each nests one level in the AST).
inline constexpr int kMaxElif = 1000;

/// Describes a token for "found ..." in messages: "newline", "')'",
/// "identifier 'x'", "integer literal 42".
std::string describe(const Token& t);
/// A punctuator's or keyword's spelling in quotes ("':'"), or the kind's
/// description ("newline").
std::string quoted(TokenKind k);

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, source::FileId file, diag::DiagnosticEngine& diags,
         const source::SourceManager* sm);

  ast::Module parse_module();

 private:
  // ------------------------------------------------------------ tokens
  const Token& cur() const { return peek(0); }
  const Token& peek(size_t n = 1) const {
    return pos_ + n < tokens_.size() ? tokens_[pos_ + n] : eof_;
  }
  bool at(TokenKind k) const { return cur().kind == k; }
  const Token& advance();
  bool consume(TokenKind k);
  /// Consumes `k` or reports E0201 "expected '<k>' <context>, found <cur>".
  bool expect(TokenKind k, std::string_view context);
  /// From `begin` to the end of the last consumed token that is not layout.
  SourceRange range_from(uint32_t begin) const { return {file_, begin, last_end_}; }
  SourceRange range_of(const Token& t) const { return t.range; }

  // ------------------------------------------------------- diagnostics
  diag::Diagnostic* report(diag::Kind kind, SourceRange range, std::string message);
  /// "expected <what>, found <cur>"; silent where the lexer has already
  /// reported the cause: at an Error token, at a NEWLINE or EOF inside
  /// brackets (only an unclosed bracket at end of file produces those, E0112),
  /// at a zero-width closer (added by the lexer after E0109 or E0102), and
  /// right after an unterminated string (E0102), which most likely swallowed
  /// what was expected.
  void report_expected(diag::Kind kind, std::string_view what);
  /// E0206 at `range`.
  void unsupported(SourceRange range, std::string message);
  /// Line of `r` for messages ("on line 3"); 0 if no SourceManager.
  uint32_t line_of(SourceRange r) const;

  // ---------------------------------------------------------- recovery
  bool at_line_start() const;
  /// Skips to just past the NEWLINE ending the current logical line (not
  /// past a DEDENT or EOF), then past an indented block that follows it.
  void skip_rest_of_statement();
  /// At an INDENT: skips it, everything inside, and its matching DEDENT.
  void skip_block();
  /// After a failed statement that began at token `start`: resynchronizes at
  /// the next statement of the same block.
  void sync(size_t start);
  /// Index of the bracket closing the one at `open`, or of the last token of
  /// the line if it is unclosed.
  size_t matching_close(size_t open) const;
  /// Records one more left-nested node; reports E0210 once it is too many.
  bool bump_chain(const Token& at_tok);

  // -------------------------------------------------------- statements
  void parse_statements(Body& out, bool until_dedent);
  bool parse_statement(Body& out);
  bool parse_simple_stmts(Body& out);
  StmtPtr parse_simple_stmt();
  bool parse_block(Body& out, std::string_view header, SourceRange header_kw);
  StmtPtr parse_if(bool is_elif, int elif_count);
  StmtPtr parse_while();
  /// `async_kw`: the 'async' before it, if any (the statement's range starts there).
  StmtPtr parse_for(const Token* async_kw = nullptr);
  /// for and comprehension targets: bitwise_or items (so 'in' ends them), `*x` allowed.
  ExprPtr parse_for_targets();
  StmtPtr parse_decorated();
  StmtPtr parse_function_def(std::vector<ExprPtr> decorators, const Token* async_kw = nullptr);
  /// A def's parameters up to and including `close` (')'), or a lambda's (':').
  bool parse_params(std::vector<ast::Param>& params, TokenKind close);
  StmtPtr parse_class_def(std::vector<ExprPtr> decorators);
  StmtPtr parse_with(const Token* async_kw);
  StmtPtr parse_try();
  StmtPtr parse_async(std::vector<ExprPtr> decorators);
  StmtPtr parse_raise();
  StmtPtr parse_global();
  StmtPtr parse_del();
  StmtPtr parse_return();
  StmtPtr parse_assert();
  StmtPtr parse_import();
  StmtPtr parse_import_from();
  bool parse_dotted_name(std::string& name, SourceRange& range, std::string_view context);
  StmtPtr parse_expr_or_assign();
  bool parse_else_block(Body& out, std::string_view owner);
  /// Checks an assignment, annotation, augmented-assignment or for target:
  /// a name, attribute or subscript, or (if `allow_sequence`) a tuple or list
  /// of targets. Reports E0205 "cannot <verb> <what>" and returns false if not.
  bool check_target(const ast::Expr& e, bool allow_sequence, std::string_view verb);

  // ------------------------------------------------------- expressions
  ExprPtr parse_star_expressions();
  ExprPtr parse_star_expression();
  ExprPtr parse_named_expression();
  ExprPtr parse_star_named_expression();
  ExprPtr parse_expression();
  ExprPtr parse_disjunction();
  ExprPtr parse_conjunction();
  ExprPtr parse_inversion();
  ExprPtr parse_comparison();
  ExprPtr parse_bitwise_or();
  ExprPtr parse_bitwise_xor();
  ExprPtr parse_bitwise_and();
  ExprPtr parse_shift_expr();
  ExprPtr parse_sum();
  ExprPtr parse_term();
  ExprPtr parse_factor();
  ExprPtr parse_power();
  ExprPtr parse_primary();
  ExprPtr parse_atom();
  ExprPtr parse_call(ExprPtr func, uint32_t begin);
  ExprPtr parse_slices();
  ExprPtr parse_slice();
  ExprPtr parse_paren();
  ExprPtr parse_list();
  ExprPtr parse_brace();
  ExprPtr parse_strings();
  /// The parts of one f-string token, appended to `out` (StrLit and FormattedValue).
  bool parse_fstring_parts(const std::vector<lex::FStringPart>& parts, std::vector<ExprPtr>& out);
  /// A field's expression, from its own tokens (ending with EndOfFile).
  ExprPtr parse_fstring_field(const lex::FStringPart& field);
  ExprPtr parse_number();
  ExprPtr parse_lambda();
  ExprPtr parse_yield();
  /// After `elt` (and `value`, for a dict) at 'for' or 'async': the clauses,
  /// then `close`; the node spans from `begin` to the closer.
  ExprPtr parse_comprehension(ast::CompKind kind, ExprPtr elt, ExprPtr value, uint32_t begin, TokenKind close);
  ExprPtr binary_left(ExprPtr (Parser::*operand)(), bool (*op_of)(TokenKind, ast::BinOpKind&));
  bool can_start_expression(TokenKind k) const;

  /// Increments the expression nesting depth for its lifetime.
  struct DepthGuard {
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    int& depth;
  };
  /// True (after reporting E0210) if the nesting depth is over the limit.
  bool too_deep(int depth, const Token& at_tok, const char* what);

  const std::vector<Token>& tokens_;
  Token eof_;
  size_t pos_ = 0;
  uint32_t last_end_ = 0;
  source::FileId file_;
  diag::DiagnosticEngine& diags_;
  const source::SourceManager* sm_;
  int expr_depth_ = 0;
  int block_depth_ = 0;
  int chain_ops_ = 0;
  int bracket_depth_ = 0;  ///< open ( [ { around the current token
};

}  // namespace tileslc::parse
