// The Lexer class, private to the lex phase and shared by its two source
// files: lex.cpp owns the line structure (indentation stack, NEWLINE/INDENT/
// DEDENT, brackets, comments, continuation), names, keywords and operators;
// lex_literals.cpp owns numbers and strings. One Lexer tokenizes one file in
// a single forward pass over its bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lex/lex.h"

namespace tileslc::lex::detail {

class Lexer {
 public:
  Lexer(const source::SourceManager& sm, source::FileId file, diag::DiagnosticEngine& diags);
  std::vector<Token> run();

 private:
  /// A lexer for the expression of an f-string field, text_[b, e) of the
  /// same file: as inside brackets (newlines join), ending with EndOfFile at `e`.
  Lexer(source::FileId file, diag::DiagnosticEngine& diags, std::string_view text, uint32_t b, uint32_t e);
  std::vector<Token> run_field();
  /// The main loop: tokens until the end of the text.
  void scan_tokens();

 private:
  /// One level of the indentation stack. `col` is the width with tabs to
  /// multiples of 8, `altcol` with tabs of width 1 (CPython's ambiguity
  /// check). A `silent` level was pushed during error recovery without an
  /// INDENT, so popping it produces no DEDENT.
  struct Level {
    uint32_t col;
    uint32_t altcol;
    bool silent;
  };
  struct OpenBracket {
    char ch;
    uint32_t offset;
  };

  // ---- lex.cpp: line structure, names, operators ----
  bool begin_line();
  void apply_indentation(uint32_t line_start, uint32_t col, uint32_t altcol);
  void lex_newline();
  void lex_backslash();
  void skip_comment();
  void lex_name_or_string();
  void lex_name();
  void lex_non_ascii();
  void lex_punct();
  void open_bracket(TokenKind k);
  void close_bracket(TokenKind k);
  /// Closes the open brackets above the first `keep`, innermost first, each
  /// with a zero-width closer token at `at` (error recovery: the parser then
  /// sees balanced brackets).
  void close_brackets_above(size_t keep, uint32_t at);
  void finish();

  // ---- lex_literals.cpp: numbers and strings ----
  void lex_number();
  bool scan_digits(int radix, std::string& out);
  void consume_name_chars();
  /// `begin` is the first prefix letter (or the quote); `pos_` is at the quote.
  void lex_string(uint32_t begin, bool raw, bool bytes, bool fstring);
  void scan_escape(std::string& value, bool bytes, bool report);
  void skip_nested_string();
  /// Splits an f-string's text from `p` into `out`: literal text and fields.
  /// In a format spec (`in_spec`) it stops at the '}' closing the field.
  /// Returns where it stopped. Reports malformed fields (E0104).
  size_t scan_fstring_parts(size_t p, size_t end, bool raw, bool in_spec, std::vector<FStringPart>& out);
  /// At the '{' of a field at `p`: appends the field; returns the offset after its '}'.
  size_t scan_fstring_field(size_t p, size_t end, bool raw, std::vector<FStringPart>& out);
  /// After an unterminated string whose text starts at `body_begin` and
  /// ends at `pos_`: closes the brackets open around it, keeping the outer
  /// ones its text does not close if the next line looks like a
  /// continuation line (next_line_indented_deeper).
  void close_brackets_after_unterminated_string(uint32_t body_begin);
  /// Whether the next line that is not blank or a comment is indented
  /// deeper than the current block.
  bool next_line_indented_deeper() const;
  /// Handles one byte >= 0x80 inside a string or comment: validates it as
  /// UTF-8 and appends it to `value` if given; in a bytes literal, reports
  /// E0113 unless the literal already has (non_ascii_reported_). Advances `pos_`.
  void copy_non_ascii(std::string* value, bool bytes);

  // ---- shared helpers ----
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < n_ ? text_[pos_ + ahead] : '\0';
  }
  bool at_end(size_t ahead = 0) const { return pos_ + ahead >= n_; }
  source::SourceRange range(uint32_t b, uint32_t e) const { return {file_, b, e}; }
  uint32_t pos() const { return static_cast<uint32_t>(pos_); }
  void emit(TokenKind k, uint32_t b, uint32_t e, std::string text = {}, bool is_bytes = false);
  diag::Diagnostic& error(diag::Kind k, uint32_t b, uint32_t e, std::string message);
  /// Reports the invalid UTF-8 byte at `pos_` and skips it.
  void invalid_utf8();

  source::FileId file_;
  diag::DiagnosticEngine& diags_;
  std::string_view text_;
  size_t n_;
  size_t pos_ = 0;
  std::vector<Token> toks_;
  std::vector<Level> indents_;
  std::vector<OpenBracket> brackets_;
  bool at_bol_ = true;           ///< at the start of a logical line
  bool line_has_tokens_ = false; ///< the current logical line produced a token
  bool non_ascii_reported_ = false;  ///< the string literal being lexed has its E0113
};

/// "U+00A0"-style name of a code point, for messages.
std::string code_point_name(char32_t cp);
/// `c` quoted for a message: 'x' for printable ASCII, else U+XXXX.
std::string describe_char(char c);

}  // namespace tileslc::lex::detail
