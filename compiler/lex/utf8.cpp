// UTF-8 decoding/encoding and the approximate Unicode identifier predicate
// used by the lexer.
#include "lex/utf8.h"

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

// A practical approximation of Python's identifier rule (XID_Start then
// XID_Continue, after NFKC normalization) that needs no Unicode tables:
// every code point >= U+0080 is accepted except the ranges below, which are
// spaces, controls, punctuation and symbols that commonly sneak into source
// by copy and paste. Known differences from Python: combining marks and
// non-ASCII digits are also accepted at the start of a name, some symbols
// outside these ranges are accepted, and names are not NFKC-normalized (so
// two spellings that Python treats as the same name stay different here).
bool is_identifier_char(char32_t cp) {
  if (cp < 0x80) return false;
  if (cp <= 0xBF) {
    // C1 controls and Latin-1 punctuation/symbols (NBSP, ¡, §, «, °, ±, ...),
    // except the letters ª µ º and the middle dot (XID_Continue).
    return cp == 0xAA || cp == 0xB5 || cp == 0xBA || cp == 0xB7;
  }
  if (cp == 0xD7 || cp == 0xF7) return false;                // × ÷
  if (cp >= 0x2000 && cp <= 0x206F)                           // general punctuation,
    return cp == 0x203F || cp == 0x2040 || cp == 0x2054;      // but ‿ ⁀ ⁔ connect words
  if (cp >= 0x20A0 && cp <= 0x20CF) return false;             // currency symbols
  if (cp >= 0x2190 && cp <= 0x2BFF) return false;             // arrows, math, boxes, shapes, dingbats
  if (cp >= 0x2E00 && cp <= 0x2E7F) return false;             // supplemental punctuation
  if (cp >= 0x3000 && cp <= 0x3004) return false;             // ideographic space, 、。
  if (cp >= 0x3008 && cp <= 0x3020) return false;             // CJK brackets 「」【】...
  if (cp >= 0xE000 && cp <= 0xF8FF) return false;             // private use
  if (cp >= 0xFE10 && cp <= 0xFE6F && !(cp >= 0xFE20 && cp <= 0xFE2F) && cp != 0xFE33 &&
      cp != 0xFE34 && !(cp >= 0xFE4D && cp <= 0xFE4F))
    return false;                                             // vertical/small forms
  if (cp == 0xFEFF) return false;                             // BOM / zero-width no-break space
  if (cp >= 0xFF01 && cp <= 0xFF0F) return false;             // fullwidth ！＂＃...／
  if (cp >= 0xFF1A && cp <= 0xFF20) return false;             // fullwidth ：；＜＝＞？＠
  if (cp >= 0xFFF0 && cp <= 0xFFFF) return false;             // specials, U+FFFD
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return false;           // emoji and pictographs
  if (cp >= 0xF0000) return false;                            // supplementary private use
  return true;
}

}  // namespace tileslc::lex::utf8
