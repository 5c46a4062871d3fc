// Lexer: turns one source file into a vector of tokens following Python 3's
// lexical rules (https://docs.python.org/3/reference/lexical_analysis.html):
// NEWLINE/INDENT/DEDENT from an indentation stack, implicit line joining
// inside brackets, backslash continuation, comments, every integer and float
// form, strings of every quoting and prefix (an f-string is one String token
// carrying its parts: literal text and replacement fields, whose expressions
// are tokenized here too, E0104 for malformed ones), UTF-8 identifiers, and
// every operator and delimiter.
// Errors are reported to the DiagnosticEngine with exact spans; the lexer
// recovers and always ends the stream with balanced DEDENTs and EndOfFile.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"
#include "source/source.h"

namespace tileslc::lex {

enum class TokenKind : uint8_t {
#define TOKEN(Name, Spelling) Name,
#include "lex/token_kinds.def"
};

struct FStringPart;

/// The spelling of a punctuator/keyword, or a description ("identifier").
std::string_view spelling(TokenKind k);
/// The kind's name in the registry ("LParen"), for dumps and tests.
std::string_view kind_name(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  source::SourceRange range;
  /// Identifier: its name. String: the decoded value (escapes processed,
  /// adjacent literals are NOT concatenated here; the parser does that).
  /// Integer/Float/Imaginary: the literal's text with underscores removed,
  /// prefix and suffix kept as written ("0xff", "1.5e-3", "2j"); a malformed
  /// literal (reported as E0105) has the text "0", "0.0" or "0j".
  /// Keywords and punctuators: empty (see spelling()).
  std::string text;
  bool is_bytes = false;  ///< String with a b/B prefix
  /// String without its closing quote (E0102): it ends at the end of its
  /// line, or of the file if triple-quoted.
  bool unterminated = false;
  /// An f-string's parts (String tokens with an f prefix; text is then
  /// empty). Null for other tokens.
  std::shared_ptr<const std::vector<FStringPart>> fstring;
};

/// A piece of an f-string: literal text, or a replacement field
/// `{expression[=][!conversion][:format_spec]}`.
struct FStringPart {
  source::SourceRange range;  ///< the literal's text, or the field with its braces
  bool is_field = false;
  std::string literal;  ///< a literal's decoded text
  /// A field's expression tokens (file offsets), ending with EndOfFile at
  /// the expression's end; `expr_range` is the expression's text.
  std::vector<Token> tokens;
  source::SourceRange expr_range;
  std::string self_doc;  ///< `{x = }`: the text "x = " Python prints first
  char conversion = 0;   ///< 0, 'r', 's' or 'a'
  bool has_spec = false;
  std::vector<FStringPart> spec;  ///< the format spec's parts (fields may nest)
};

/// Tokenizes `file`. Never fails: errors go to `diags` and are skipped over.
/// Stray characters and unmatched closing brackets produce no token; other
/// bad input becomes the nearest well-formed token (so TokenKind::Error is
/// not produced). A mismatched closer or an unterminated string leaves the
/// brackets balanced, so the parser reports nothing more: the closer becomes
/// the one its opener needs, and the openers it (or the string) closes
/// through get zero-width closer tokens. The stream always ends with
/// balanced DEDENTs, then EndOfFile; a NEWLINE precedes them if the last
/// logical line had tokens.
std::vector<Token> tokenize(const source::SourceManager& sm, source::FileId file,
                            diag::DiagnosticEngine& diags);

}  // namespace tileslc::lex
