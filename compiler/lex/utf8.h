// UTF-8 helpers private to the lexer: decoding one code point with full
// validation (no overlongs, no surrogates, nothing above U+10FFFF), encoding
// a code point, Python's identifier predicates (XID_Start, XID_Continue) and
// the NFKC normalization Python applies to identifiers, both over utf8proc's
// Unicode tables. Not a public header of the lex phase.
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

/// Whether the non-ASCII code point `cp` (>= 0x80) may begin an identifier:
/// Unicode's XID_Start property (UAX #31), which Python's tokenizer checks
/// (https://docs.python.org/3/reference/lexical_analysis.html#identifiers).
bool is_xid_start(char32_t cp);

/// Whether the non-ASCII code point `cp` (>= 0x80) may continue an
/// identifier: Unicode's XID_Continue property (a superset of XID_Start).
bool is_xid_continue(char32_t cp);

/// `name` (valid UTF-8) in Unicode Normalization Form KC, as Python stores
/// every identifier: `ﬁle` and `file` are one name, `𝐱` is `x`.
std::string nfkc(std::string_view name);

}  // namespace tileslc::lex::utf8
