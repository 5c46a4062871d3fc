// UTF-8 helpers private to the lexer: decoding one code point with full
// validation (no overlongs, no surrogates, nothing above U+10FFFF), encoding
// a code point, and the approximate "may appear in an identifier" predicate
// for non-ASCII code points. Not a public header of the lex phase.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tileslc::lex::utf8 {

/// One decoded code point; `len` is its length in bytes, 0 if the bytes at
/// the position are not valid UTF-8.
struct Decoded {
  char32_t cp = 0;
  uint32_t len = 0;
};

/// Decodes the code point starting at `s[pos]` (pos < s.size()).
Decoded decode(std::string_view s, size_t pos);

/// Appends the UTF-8 encoding of `cp` (any value up to U+10FFFF, surrogates
/// included, as Python's str can hold them) to `out`.
void append(std::string& out, char32_t cp);

/// Whether the non-ASCII code point `cp` (>= 0x80) may appear in an
/// identifier. An approximation of Python's XID_Start/XID_Continue; see the
/// comment at the definition for exactly what is rejected.
bool is_identifier_char(char32_t cp);

}  // namespace tileslc::lex::utf8
