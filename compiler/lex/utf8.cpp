// UTF-8 decoding/encoding, and Python's Unicode identifier predicates and
// normalization over utf8proc, used by the lexer.
#include "lex/utf8.h"

#include <utf8proc.h>

#include <cstdlib>
#include <initializer_list>

namespace tileslc::lex::utf8 {

Decoded decode(std::string_view s, size_t pos) {
  auto byte = [&](size_t i) -> uint32_t { return static_cast<unsigned char>(s[i]); };
  uint32_t b0 = byte(pos);
  if (b0 < 0x80) return {b0, 1};
  uint32_t len;
  char32_t cp;
  char32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return {};  // continuation byte or 0xF8..0xFF as a lead byte
  }
  if (pos + len > s.size()) return {};
  for (uint32_t i = 1; i < len; ++i) {
    uint32_t b = byte(pos + i);
    if ((b & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {cp, len};
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Python's identifier rule is Unicode's (UAX #31, https://www.unicode.org/reports/tr31/):
// XID_Start then XID_Continue. The properties are derived from the general category, which
// utf8proc's tables give for every code point of its Unicode version, plus the few code points
// that UAX #31 and DerivedCoreProperties.txt name one by one. Keeping our own copy of the
// category tables (~4,000 ranges, changed by every Unicode release) would be the larger and
// the staler table; the lists below are the part the standard itself spells out.
namespace {

bool in(char32_t cp, std::initializer_list<char32_t> set) {
  for (char32_t c : set)
    if (c == cp) return true;
  return false;
}

/// Other_ID_Start (PropList.txt): kept as identifier starts for backward compatibility.
bool other_id_start(char32_t cp) { return in(cp, {0x1885, 0x1886, 0x2118, 0x212E, 0x309B, 0x309C}); }

/// Other_ID_Continue (PropList.txt).
bool other_id_continue(char32_t cp) { return in(cp, {0xB7, 0x387, 0x19DA}) || (cp >= 0x1369 && cp <= 0x1371); }

/// Code points whose NFKC form is not an identifier on its own, taken out of XID_Start and
/// XID_Continue (UAX #31 section 5.1); U+2E2F is Pattern_Syntax, never part of a name.
bool nfkc_excluded(char32_t cp) {
  return in(cp, {0x37A, 0x309B, 0x309C, 0xFDFA, 0xFDFB, 0x2E2F}) || (cp >= 0xFC5E && cp <= 0xFC63) ||
         (cp >= 0xFE70 && cp <= 0xFE7E && cp % 2 == 0);
}

bool id_start_category(char32_t cp) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_NL:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool is_xid_start(char32_t cp) {
  if (cp > 0x10FFFF || nfkc_excluded(cp)) return false;
  // Starts only under XID_Continue: their NFKC forms begin with a combining mark.
  if (cp == 0xE33 || cp == 0xEB3 || cp == 0xFF9E || cp == 0xFF9F) return false;
  return id_start_category(cp) || other_id_start(cp);
}

bool is_xid_continue(char32_t cp) {
  if (cp > 0x10FFFF || nfkc_excluded(cp)) return false;
  if (id_start_category(cp) || other_id_start(cp) || other_id_continue(cp)) return true;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_PC:
      return true;
    default:
      return false;
  }
}

std::string nfkc(std::string_view name) {
  std::string in_copy(name);  // utf8proc_NFKC reads a NUL-terminated string
  utf8proc_uint8_t* out = utf8proc_NFKC(reinterpret_cast<const utf8proc_uint8_t*>(in_copy.c_str()));
  if (!out) return in_copy;  // only on allocation failure: the name as written
  std::string result(reinterpret_cast<const char*>(out));
  std::free(out);
  return result;
}

}  // namespace tileslc::lex::utf8
