// The parser's frame: the public entry points, token access, diagnostics,
// error recovery (skipping to the next statement at the current nesting
// level), and the module/block structure built from NEWLINE, INDENT and
// DEDENT tokens. Statements are in parse_stmt.cpp, expressions in
// parse_expr.cpp.
#include "parse/parse.h"

#include "parse/parser.h"

namespace tileslc::parse {

namespace {

struct KindText {
  const char* text;
  bool literal_spelling;  // punctuator or keyword: quote it
};

constexpr KindText kKindText[] = {
#define TOKEN(Name, Spelling) {Spelling, false},
#define PUNCT(Name, Spelling) {Spelling, true},
#define KEYWORD(Name, Spelling) {Spelling, true},
#include "lex/token_kinds.def"
};

}  // namespace

std::string quoted(TokenKind k) {
  const KindText& t = kKindText[static_cast<size_t>(k)];
  return t.literal_spelling ? "'" + std::string(t.text) + "'" : std::string(t.text);
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::Identifier: return "identifier '" + t.text + "'";
    case TokenKind::Integer: return "integer literal " + t.text;
    case TokenKind::Float: return "float literal " + t.text;
    default: return quoted(t.kind);
  }
}

ast::Module parse_module(const std::vector<lex::Token>& tokens, source::FileId file,
                         diag::DiagnosticEngine& diags, const source::SourceManager* sm) {
  Parser p(tokens, file, diags, sm);
  return p.parse_module();
}

ast::Module parse_file(const source::SourceManager& sm, source::FileId file,
                       diag::DiagnosticEngine& diags) {
  return parse_module(lex::tokenize(sm, file, diags), file, diags, &sm);
}

Parser::Parser(const std::vector<Token>& tokens, source::FileId file, diag::DiagnosticEngine& diags,
               const source::SourceManager* sm)
    : tokens_(tokens), file_(file), diags_(diags), sm_(sm) {
  eof_.kind = TokenKind::EndOfFile;
  uint32_t end = tokens.empty() ? 0 : tokens.back().range.end;
  eof_.range = {file, end, end};
}

// file: [statements] ENDMARKER
ast::Module Parser::parse_module() {
  ast::Module m;
  m.file = file_;
  parse_statements(m.body, /*until_dedent=*/false);
  return m;
}

// ------------------------------------------------------------------ tokens

const Token& Parser::advance() {
  const Token& t = cur();
  if (pos_ < tokens_.size()) ++pos_;
  switch (t.kind) {
    case TokenKind::Newline:
    case TokenKind::Indent:
    case TokenKind::Dedent:
    case TokenKind::EndOfFile:
      break;
    default:
      last_end_ = t.range.end;
  }
  return t;
}

bool Parser::consume(TokenKind k) {
  if (!at(k)) return false;
  advance();
  return true;
}

bool Parser::expect(TokenKind k, std::string_view context) {
  if (consume(k)) return true;
  std::string what = quoted(k);
  if (!context.empty()) what += " " + std::string(context);
  report_expected(diag::Kind::ExpectedToken, what);
  return false;
}

// ------------------------------------------------------------- diagnostics

diag::Diagnostic* Parser::report(diag::Kind kind, SourceRange range, std::string message) {
  return &diags_.report(kind, range, std::move(message));
}

void Parser::report_expected(diag::Kind kind, std::string_view what) {
  if (at(TokenKind::Error)) return;
  if (bracket_depth_ > 0 && (at(TokenKind::Newline) || at(TokenKind::EndOfFile))) return;
  // At a zero-width closer: the lexer added it after E0109 or E0102, which
  // are reported at this spot.
  if (cur().range.begin == cur().range.end &&
      (at(TokenKind::RParen) || at(TokenKind::RBracket) || at(TokenKind::RBrace)))
    return;
  // Right after an unterminated string (E0102), zero-width closers the lexer
  // added aside: what is expected here most likely went into the string.
  for (size_t i = pos_; i > 0; --i) {
    const Token& t = tokens_[i - 1];
    if (t.kind == TokenKind::String && t.unterminated) return;
    if (t.range.begin != t.range.end) break;
  }
  report(kind, cur().range, "expected " + std::string(what) + ", found " + describe(cur()));
}

void Parser::unsupported(SourceRange range, std::string message) {
  report(diag::Kind::UnsupportedSyntax, range, std::move(message));
}

uint32_t Parser::line_of(SourceRange r) const {
  if (!sm_ || !r.valid()) return 0;
  return sm_->line_col(r.start()).line;
}

bool Parser::too_deep(int depth, const Token& at_tok, const char* what) {
  if (depth <= kMaxNesting) return false;
  report(diag::Kind::NestingTooDeep, at_tok.range,
         std::string(what) + " nested too deeply, expected at most " + std::to_string(kMaxNesting) +
             " levels");
  return true;
}

bool Parser::bump_chain(const Token& at_tok) {
  if (++chain_ops_ <= kMaxChainPerStatement) return true;
  report(diag::Kind::NestingTooDeep, at_tok.range,
         "too many chained operations in one statement, expected at most " +
             std::to_string(kMaxChainPerStatement));
  return false;
}

// ---------------------------------------------------------------- recovery

bool Parser::at_line_start() const {
  if (pos_ == 0) return true;
  switch (tokens_[pos_ - 1].kind) {
    case TokenKind::Newline:
    case TokenKind::Indent:
    case TokenKind::Dedent:
      return true;
    default:
      return false;
  }
}

void Parser::skip_rest_of_statement() {
  while (!at(TokenKind::EndOfFile) && !at(TokenKind::Newline) && !at(TokenKind::Dedent) &&
         !at(TokenKind::Indent))
    advance();
  consume(TokenKind::Newline);
  if (at(TokenKind::Indent)) skip_block();
}

void Parser::skip_block() {
  int depth = 0;
  do {
    if (at(TokenKind::EndOfFile)) return;
    if (at(TokenKind::Indent)) ++depth;
    if (at(TokenKind::Dedent)) --depth;
    advance();
  } while (depth > 0);
}

void Parser::sync(size_t start) {
  if (pos_ == start || !at_line_start()) skip_rest_of_statement();
}

size_t Parser::matching_close(size_t open) const {
  int depth = 0;
  size_t i = open;
  for (; i < tokens_.size(); ++i) {
    switch (tokens_[i].kind) {
      case TokenKind::LParen:
      case TokenKind::LBracket:
      case TokenKind::LBrace:
        ++depth;
        break;
      case TokenKind::RParen:
      case TokenKind::RBracket:
      case TokenKind::RBrace:
        if (--depth == 0) return i;
        break;
      case TokenKind::Newline:
      case TokenKind::EndOfFile:
        return i > open ? i - 1 : open;
      default:
        break;
    }
  }
  return tokens_.empty() ? 0 : tokens_.size() - 1;
}

// ------------------------------------------------------ module and blocks

// statements: statement+
void Parser::parse_statements(Body& out, bool until_dedent) {
  while (!at(TokenKind::EndOfFile)) {
    if (at(TokenKind::Dedent)) {
      if (until_dedent) return;
      advance();  // unbalanced; the lexer has reported it
      continue;
    }
    if (at(TokenKind::Newline)) {  // an empty logical line
      advance();
      continue;
    }
    if (at(TokenKind::Indent)) {
      // An indented block that no statement opens. Report it, parse it anyway
      // so that errors inside are found, and drop it.
      advance();
      report(diag::Kind::UnexpectedIndent, cur().range,
             "found an unexpected indent, expected the statement at the indentation of the one "
             "before it");
      Body dropped;
      DepthGuard guard(block_depth_);
      if (too_deep(block_depth_, cur(), "blocks")) {
        --pos_;
        skip_block();
        continue;
      }
      parse_statements(dropped, /*until_dedent=*/true);
      consume(TokenKind::Dedent);
      continue;
    }
    size_t start = pos_;
    TokenKind first = cur().kind;
    if (!parse_statement(out)) {
      sync(start);
      // The clauses of a dropped compound statement are not statements.
      if (first == TokenKind::If || first == TokenKind::For || first == TokenKind::While) {
        while (at(TokenKind::Elif) || at(TokenKind::Else)) skip_rest_of_statement();
      }
    }
    if (pos_ == start) advance();  // always make progress
  }
}

// block: NEWLINE INDENT statements DEDENT | simple_stmts
bool Parser::parse_block(Body& out, std::string_view header, SourceRange header_kw) {
  if (at(TokenKind::Newline)) {
    advance();
    if (!at(TokenKind::Indent)) {
      size_t i = pos_;
      while (i < tokens_.size() && (tokens_[i].kind == TokenKind::Dedent || tokens_[i].kind == TokenKind::Newline))
        ++i;
      const Token& next = i < tokens_.size() ? tokens_[i] : eof_;
      std::string msg = "expected an indented block after " + std::string(header);
      if (uint32_t line = line_of(header_kw)) msg += " on line " + std::to_string(line);
      report(diag::Kind::ExpectedIndentedBlock, next.range, std::move(msg));
      return false;
    }
    advance();
    DepthGuard guard(block_depth_);
    if (too_deep(block_depth_, cur(), "blocks")) {
      --pos_;  // back to the INDENT
      skip_block();
      return false;
    }
    parse_statements(out, /*until_dedent=*/true);
    consume(TokenKind::Dedent);
    return true;
  }
  if (at(TokenKind::EndOfFile)) {
    std::string msg = "expected an indented block after " + std::string(header);
    if (uint32_t line = line_of(header_kw)) msg += " on line " + std::to_string(line);
    report(diag::Kind::ExpectedIndentedBlock, cur().range, std::move(msg));
    return false;
  }
  switch (cur().kind) {
    case TokenKind::If:
    case TokenKind::For:
    case TokenKind::While:
    case TokenKind::Def:
    case TokenKind::Class:
    case TokenKind::With:
    case TokenKind::Try:
    case TokenKind::Async:
    case TokenKind::At:
      report_expected(diag::Kind::ExpectedStatement, "a simple statement or a newline after ':'");
      return false;
    default:
      return parse_simple_stmts(out);
  }
}

}  // namespace tileslc::parse
