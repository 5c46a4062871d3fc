// The lexer's driver and line structure: the public tokenize(), the token
// kind tables (spelling, kind_name), the indentation stack that produces
// NEWLINE/INDENT/DEDENT exactly as CPython's tokenizer does (blank and
// comment-only lines ignored, implicit joining inside brackets, backslash
// continuation, tab/space ambiguity check with tab sizes 8 and 1, form feed
// resetting the column), bracket matching, comments, names, keywords and
// operators. Numbers and strings live in lex_literals.cpp.
#include "lex/lex.h"

#include <cstdio>

#include "lex/lexer.h"
#include "lex/utf8.h"

namespace tileslc::lex {

namespace {

constexpr std::string_view kSpellings[] = {
#define TOKEN(Name, Spelling) Spelling,
#include "lex/token_kinds.def"
};

constexpr std::string_view kNames[] = {
#define TOKEN(Name, Spelling) #Name,
#include "lex/token_kinds.def"
};

struct Keyword {
  std::string_view text;
  TokenKind kind;
};

constexpr Keyword kKeywords[] = {
#define KEYWORD(Name, Spelling) {Spelling, TokenKind::Name},
#include "lex/token_kinds.def"
};

/// The keyword kind of `name`, or Identifier. Keywords are 2-8 ASCII bytes.
TokenKind keyword_kind(std::string_view name) {
  if (name.size() < 2 || name.size() > 8) return TokenKind::Identifier;
  for (const Keyword& k : kKeywords)
    if (k.text.size() == name.size() && k.text[0] == name[0] && k.text == name) return k.kind;
  return TokenKind::Identifier;
}

bool is_ascii_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ascii_name_char(char c) { return is_ascii_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr uint32_t kTabSize = 8;

char closer_for(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }
TokenKind closer_kind(char open) {
  return open == '(' ? TokenKind::RParen : open == '[' ? TokenKind::RBracket : TokenKind::RBrace;
}

}  // namespace

std::string_view spelling(TokenKind k) {
  size_t i = static_cast<size_t>(k);
  return i < std::size(kSpellings) ? kSpellings[i] : std::string_view("unknown token");
}

std::string_view kind_name(TokenKind k) {
  size_t i = static_cast<size_t>(k);
  return i < std::size(kNames) ? kNames[i] : std::string_view("Unknown");
}

std::vector<Token> tokenize(const source::SourceManager& sm, source::FileId file,
                            diag::DiagnosticEngine& diags) {
  return detail::Lexer(sm, file, diags).run();
}

namespace detail {

std::string code_point_name(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

std::string describe_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return std::string("'") + c + "'";
  return code_point_name(u);
}

Lexer::Lexer(const source::SourceManager& sm, source::FileId file, diag::DiagnosticEngine& diags)
    : file_(file), diags_(diags), text_(sm.file(file).text()), n_(text_.size()) {}

void Lexer::emit(TokenKind k, uint32_t b, uint32_t e, std::string text, bool is_bytes) {
  toks_.push_back(Token{k, range(b, e), std::move(text), is_bytes, false, nullptr});
  if (k != TokenKind::Newline && k != TokenKind::Indent && k != TokenKind::Dedent)
    line_has_tokens_ = true;
}

diag::Diagnostic& Lexer::error(diag::Kind k, uint32_t b, uint32_t e, std::string message) {
  return diags_.report(k, range(b, e), std::move(message));
}

void Lexer::invalid_utf8() {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(text_[pos_]));
  error(diag::Kind::InvalidUtf8, pos(), pos() + 1,
        std::string("found byte ") + buf + " that is not valid UTF-8, expected UTF-8 encoded text");
  ++pos_;
}

std::vector<Token> Lexer::run() {
  toks_.reserve(n_ / 3 + 8);
  indents_.push_back({0, 0, false});
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
  scan_tokens();
  finish();
  return std::move(toks_);
}

Lexer::Lexer(source::FileId file, diag::DiagnosticEngine& diags, std::string_view text, uint32_t b, uint32_t e)
    : file_(file), diags_(diags), text_(text), n_(e), pos_(b) {}

std::vector<Token> Lexer::run_field() {
  const uint32_t begin = pos();
  indents_.push_back({0, 0, false});
  at_bol_ = false;
  brackets_.push_back({'{', begin});  // the field's brace: newlines inside join lines
  scan_tokens();
  if (brackets_.size() > 1) {
    OpenBracket open = brackets_.back();
    error(diag::Kind::InvalidFString, open.offset, open.offset + 1,
          std::string("found the end of the f-string field inside '") + open.ch + "', expected '" +
              closer_for(open.ch) + "'");
  }
  emit(TokenKind::EndOfFile, static_cast<uint32_t>(n_), static_cast<uint32_t>(n_));
  return std::move(toks_);
}

void Lexer::scan_tokens() {
  while (true) {
    if (at_bol_ && begin_line()) continue;  // a blank line was consumed
    at_bol_ = false;
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f')) ++pos_;
    if (at_end()) break;
    char c = text_[pos_];
    if (c == '#') {
      skip_comment();
    } else if (c == '\n' || c == '\r') {
      lex_newline();
    } else if (c == '\\') {
      lex_backslash();
    } else if (is_ascii_name_start(c)) {
      lex_name_or_string();
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      lex_number();
    } else if (c == '"' || c == '\'') {
      lex_string(pos(), false, false, false);
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      lex_non_ascii();
    } else {
      lex_punct();
    }
  }
}

// At the start of a physical line that begins a logical line: measures the
// indentation. Returns true if the line is blank or comment-only (it is then
// consumed entirely, newline included, and produces no token).
bool Lexer::begin_line() {
  uint32_t line_start = pos();
  uint32_t col = 0, altcol = 0;
  for (; !at_end(); ++pos_) {
    char c = text_[pos_];
    if (c == ' ') {
      ++col, ++altcol;
    } else if (c == '\t') {
      col = (col / kTabSize + 1) * kTabSize;
      ++altcol;
    } else if (c == '\f') {
      col = altcol = 0;  // CPython: a form feed resets the indentation count
    } else {
      break;
    }
  }
  if (at_end()) return false;  // trailing whitespace at EOF: nothing to indent
  char c = text_[pos_];
  if (c == '#' || c == '\n' || c == '\r') {
    if (c == '#') skip_comment();
    if (!at_end()) pos_ += (text_[pos_] == '\r' && peek(1) == '\n') ? 2 : 1;
    return true;
  }
  apply_indentation(line_start, col, altcol);
  return false;
}

void Lexer::apply_indentation(uint32_t line_start, uint32_t col, uint32_t altcol) {
  const uint32_t here = pos();
  auto ambiguous = [&] {
    error(diag::Kind::TabSpaceMix, line_start, here,
          "indentation mixes tabs and spaces so its depth depends on the tab width, expected "
          "the same tabs and spaces as the enclosing lines");
  };
  Level top = indents_.back();
  if (col == top.col) {
    if (altcol != top.altcol) ambiguous();
    return;
  }
  if (col > top.col) {
    if (toks_.empty()) {
      // The first logical line of the file is indented. Recover by taking its
      // indentation as the base level, without an INDENT.
      error(diag::Kind::UnexpectedIndent, line_start, here,
            "found an indented first line, expected it to start at column 1");
      indents_.push_back({col, altcol, true});
      return;
    }
    if (altcol <= top.altcol) ambiguous();
    indents_.push_back({col, altcol, false});
    emit(TokenKind::Indent, line_start, here);
    return;
  }
  while (indents_.size() > 1 && col < indents_.back().col) {
    if (!indents_.back().silent) emit(TokenKind::Dedent, here, here);
    indents_.pop_back();
  }
  top = indents_.back();
  if (col != top.col) {
    std::string levels;
    for (size_t i = 0; i < indents_.size(); ++i) {
      if (i > 0) levels += i + 1 == indents_.size() ? " or " : ", ";
      levels += std::to_string(indents_[i].col);
    }
    error(diag::Kind::InconsistentDedent, line_start, here,
          "dedent to width " + std::to_string(col) +
              " does not match any outer indentation level, expected width " + levels);
    // Recover: this line's width becomes a level of its own, silently.
    indents_.push_back({col, altcol, true});
    return;
  }
  if (altcol != top.altcol) ambiguous();
}

bool Lexer::next_line_indented_deeper() const {
  size_t i = pos_;
  while (i < n_) {
    while (i < n_ && text_[i] != '\n' && text_[i] != '\r') ++i;  // the rest of this line
    if (i < n_) i += (text_[i] == '\r' && i + 1 < n_ && text_[i + 1] == '\n') ? 2 : 1;
    uint32_t col = 0;
    for (; i < n_ && (text_[i] == ' ' || text_[i] == '\t'); ++i)
      col = text_[i] == ' ' ? col + 1 : (col / kTabSize + 1) * kTabSize;
    if (i < n_ && text_[i] != '\n' && text_[i] != '\r' && text_[i] != '#')
      return col > indents_.back().col;
  }
  return false;
}

void Lexer::lex_newline() {
  uint32_t b = pos();
  pos_ += (text_[pos_] == '\r' && peek(1) == '\n') ? 2 : 1;
  if (!brackets_.empty()) return;  // implicit line joining
  if (line_has_tokens_) {
    emit(TokenKind::Newline, b, pos());
    line_has_tokens_ = false;
  }
  at_bol_ = true;
}

void Lexer::lex_backslash() {
  uint32_t b = pos();
  ++pos_;
  if (!at_end() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
    pos_ += (text_[pos_] == '\r' && peek(1) == '\n') ? 2 : 1;  // explicit line joining
    if (at_end())  // Python: "unexpected EOF while parsing"
      error(diag::Kind::StrayBackslash, b, b + 1,
            "found a line continuation backslash on the last line of the file, expected another line after it");
    return;
  }
  if (at_end()) {
    error(diag::Kind::StrayBackslash, b, b + 1,
          "found a line continuation backslash at the end of the file, expected another line "
          "after it");
    return;
  }
  error(diag::Kind::StrayBackslash, b, b + 1,
        "found " + describe_char(text_[pos_]) +
            " after the line continuation backslash, expected the end of the line");
}

void Lexer::skip_comment() {
  while (!at_end()) {
    char c = text_[pos_];
    if (c == '\n' || c == '\r') break;
    if (static_cast<unsigned char>(c) >= 0x80)
      copy_non_ascii(nullptr, false);
    else
      ++pos_;
  }
}

// An ASCII letter or underscore starts a name, or a string with a prefix
// (r, u, b, f and the two-letter combinations br/rb/fr/rf in any case).
void Lexer::lex_name_or_string() {
  auto lower = [](char c) { return static_cast<char>(c | 0x20); };
  auto quote = [](char c) { return c == '"' || c == '\''; };
  char a = lower(text_[pos_]);
  uint32_t b = pos();
  if (quote(peek(1)) && (a == 'r' || a == 'u' || a == 'b' || a == 'f')) {
    ++pos_;
    lex_string(b, a == 'r', a == 'b', a == 'f');
    return;
  }
  if (quote(peek(2)) && is_ascii_name_start(peek(1))) {
    char c = lower(peek(1));
    bool raw = (a == 'r' && (c == 'b' || c == 'f')) || (c == 'r' && (a == 'b' || a == 'f'));
    if (raw) {
      pos_ += 2;
      lex_string(b, true, a == 'b' || c == 'b', a == 'f' || c == 'f');
      return;
    }
  }
  lex_name();
}

void Lexer::lex_name() {
  uint32_t b = pos();
  bool ascii = true;
  while (!at_end()) {
    char c = text_[pos_];
    if (is_ascii_name_char(c)) {
      ++pos_;
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x80) break;
    utf8::Decoded d = utf8::decode(text_, pos_);
    if (d.len == 0 || !utf8::is_xid_continue(d.cp)) break;
    pos_ += d.len;
    ascii = false;
  }
  std::string_view name = text_.substr(b, pos_ - b);
  if (!ascii) {
    // Python keeps every identifier in NFKC form (PEP 3131): `ﬁle` is `file`. A keyword is
    // recognised only as written, in ASCII, as in CPython's tokenizer.
    emit(TokenKind::Identifier, b, pos(), utf8::nfkc(name));
    return;
  }
  TokenKind k = keyword_kind(name);
  emit(k, b, pos(), k == TokenKind::Identifier ? std::string(name) : std::string());
}

void Lexer::lex_non_ascii() {
  utf8::Decoded d = utf8::decode(text_, pos_);
  if (d.len == 0) {
    invalid_utf8();
    return;
  }
  if (utf8::is_xid_start(d.cp)) {
    lex_name();
    return;
  }
  uint32_t b = pos();
  pos_ += d.len;
  error(diag::Kind::InvalidCharacter, b, pos(),
        "found character " + code_point_name(d.cp) + " '" + std::string(text_.substr(b, d.len)) +
            "', expected a name, literal, operator or delimiter");
}

void Lexer::lex_punct() {
  uint32_t b = pos();
  char c = text_[pos_];
  char c1 = peek(1);
  char c2 = peek(2);
  auto tok = [&](TokenKind k, uint32_t len) {
    pos_ += len;
    emit(k, b, pos());
  };
  // `op`, `op=` pairs.
  auto with_eq = [&](TokenKind plain, TokenKind eq) { c1 == '=' ? tok(eq, 2) : tok(plain, 1); };
  switch (c) {
    case '(': return open_bracket(TokenKind::LParen);
    case '[': return open_bracket(TokenKind::LBracket);
    case '{': return open_bracket(TokenKind::LBrace);
    case ')': return close_bracket(TokenKind::RParen);
    case ']': return close_bracket(TokenKind::RBracket);
    case '}': return close_bracket(TokenKind::RBrace);
    case ',': return tok(TokenKind::Comma, 1);
    case ';': return tok(TokenKind::Semicolon, 1);
    case '~': return tok(TokenKind::Tilde, 1);
    case ':': return with_eq(TokenKind::Colon, TokenKind::ColonEqual);
    case '=': return with_eq(TokenKind::Equal, TokenKind::EqualEqual);
    case '+': return with_eq(TokenKind::Plus, TokenKind::PlusEqual);
    case '%': return with_eq(TokenKind::Percent, TokenKind::PercentEqual);
    case '@': return with_eq(TokenKind::At, TokenKind::AtEqual);
    case '&': return with_eq(TokenKind::Amp, TokenKind::AmpEqual);
    case '|': return with_eq(TokenKind::Pipe, TokenKind::PipeEqual);
    case '^': return with_eq(TokenKind::Caret, TokenKind::CaretEqual);
    case '.':
      if (c1 == '.' && c2 == '.') return tok(TokenKind::Ellipsis, 3);
      return tok(TokenKind::Dot, 1);
    case '-':
      if (c1 == '>') return tok(TokenKind::Arrow, 2);
      return with_eq(TokenKind::Minus, TokenKind::MinusEqual);
    case '*':
      if (c1 == '*') return c2 == '=' ? tok(TokenKind::DoubleStarEqual, 3) : tok(TokenKind::DoubleStar, 2);
      return with_eq(TokenKind::Star, TokenKind::StarEqual);
    case '/':
      if (c1 == '/') return c2 == '=' ? tok(TokenKind::DoubleSlashEqual, 3) : tok(TokenKind::DoubleSlash, 2);
      return with_eq(TokenKind::Slash, TokenKind::SlashEqual);
    case '<':
      if (c1 == '<') return c2 == '=' ? tok(TokenKind::LeftShiftEqual, 3) : tok(TokenKind::LeftShift, 2);
      return with_eq(TokenKind::Less, TokenKind::LessEqual);
    case '>':
      if (c1 == '>') return c2 == '=' ? tok(TokenKind::RightShiftEqual, 3) : tok(TokenKind::RightShift, 2);
      return with_eq(TokenKind::Greater, TokenKind::GreaterEqual);
    case '!':
      if (c1 == '=') return tok(TokenKind::NotEqual, 2);
      ++pos_;
      error(diag::Kind::InvalidCharacter, b, pos(),
            "found '!' on its own, expected '!=' or the keyword 'not'");
      return;
    default:
      ++pos_;
      error(diag::Kind::InvalidCharacter, b, pos(),
            "found " + (c == '\0' ? std::string("a null byte") : "character " + describe_char(c)) +
                ", expected a name, literal, operator or delimiter");
      return;
  }
}

void Lexer::open_bracket(TokenKind k) {
  brackets_.push_back({text_[pos_], pos()});
  ++pos_;
  emit(k, pos() - 1, pos());
}

// A closer that matches the innermost opener closes it. A mismatched closer
// is reported; if its own opener is further out, the openers in between are
// taken as closed too (the usual cause is a forgotten closer: each gets a
// zero-width closer here), otherwise it closes the innermost opener and
// becomes the closer that one needs. Either way the parser sees balanced
// brackets and reports nothing more. An unmatched closer is reported and
// dropped.
void Lexer::close_bracket(TokenKind k) {
  uint32_t b = pos();
  char c = text_[pos_];
  ++pos_;
  if (brackets_.empty()) {
    error(diag::Kind::UnmatchedBracket, b, pos(),
          std::string("found '") + c + "' with no open bracket to close, expected no closing bracket");
    return;
  }
  OpenBracket top = brackets_.back();
  if (closer_for(top.ch) != c) {
    error(diag::Kind::UnmatchedBracket, b, pos(),
          std::string("found '") + c + "' closing '" + top.ch + "', expected '" + closer_for(top.ch) +
              "'")
        .label(range(top.offset, top.offset + 1), "opened here");
    size_t i = brackets_.size();
    while (i > 0 && closer_for(brackets_[i - 1].ch) != c) --i;
    if (i > 0) {
      close_brackets_above(i, b);  // the match itself is popped below
    } else {
      k = closer_kind(top.ch);
    }
  }
  brackets_.pop_back();
  emit(k, b, pos());
}

void Lexer::close_brackets_above(size_t keep, uint32_t at) {
  while (brackets_.size() > keep) {
    emit(closer_kind(brackets_.back().ch), at, at);
    brackets_.pop_back();
  }
}

void Lexer::finish() {
  uint32_t end = static_cast<uint32_t>(n_);
  if (!brackets_.empty()) {
    OpenBracket open = brackets_.back();
    error(diag::Kind::UnterminatedBracketAtEof, open.offset, open.offset + 1,
          std::string("found the end of the file inside '") + open.ch + "', expected '" +
              closer_for(open.ch) + "'");
    brackets_.clear();
  }
  if (line_has_tokens_) emit(TokenKind::Newline, end, end);
  line_has_tokens_ = false;
  while (indents_.size() > 1) {
    if (!indents_.back().silent) emit(TokenKind::Dedent, end, end);
    indents_.pop_back();
  }
  emit(TokenKind::EndOfFile, end, end);
}

}  // namespace detail
}  // namespace tileslc::lex
