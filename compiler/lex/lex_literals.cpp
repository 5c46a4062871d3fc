// Numeric and string literals. Numbers follow Python's grammar exactly
// (decimal, 0x/0o/0b, underscores only between digits, leading zeros only in
// an all-zero decimal, floats with fraction and/or exponent, a j suffix for
// imaginary); a malformed one is reported once over its whole extent and
// becomes a zero literal of its kind so the parser sees no extra error.
// Strings: every quoting, the r/u/b/br/rb prefixes in any case, escapes
// decoded as Python does (unknown escapes kept literally), line endings in
// the value normalized to "\n"; f-strings are scanned to their end
// (including nested strings in replacement fields), then split into literal
// parts and fields whose expressions are tokenized by a field lexer. An
// unterminated string ends at the end of its line (or of the file, if
// triple-quoted) and closes the brackets whose closers it swallowed; a
// non-ASCII character in a bytes literal is reported once per literal.
#include <algorithm>
#include <cstdio>

#include "lex/lexer.h"
#include "lex/utf8.h"

namespace tileslc::lex::detail {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}
bool is_digit_of(char c, int radix) { return digit_value(c) < radix; }
bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

const char* radix_name(int radix) {
  switch (radix) {
    case 16: return "hexadecimal";
    case 8: return "octal";
    case 2: return "binary";
  }
  return "decimal";
}
const char* radix_digits(int radix) {
  switch (radix) {
    case 16: return "0-9 or a-f";
    case 8: return "0-7";
    case 2: return "0 or 1";
  }
  return "0-9";
}

}  // namespace

// Consumes the rest of a malformed number: name characters, so that `0b102`
// or `12abc` is one error rather than a number followed by a name.
void Lexer::consume_name_chars() {
  while (!at_end()) {
    char c = text_[pos_];
    if (is_alnum(c) || c == '_') {
      ++pos_;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      utf8::Decoded d = utf8::decode(text_, pos_);
      if (d.len == 0 || !utf8::is_xid_continue(d.cp)) return;
      pos_ += d.len;
    } else {
      return;
    }
  }
}

// digitpart ::= digit (["_"] digit)*  in the given radix. Appends the digits
// (without underscores) to `out`. Returns false, leaving pos_ on the '_', if
// an underscore is not followed by a digit; the caller reports it.
bool Lexer::scan_digits(int radix, std::string& out) {
  while (!at_end()) {
    char c = text_[pos_];
    if (is_digit_of(c, radix)) {
      out += c;
      ++pos_;
    } else if (c == '_') {
      if (!is_digit_of(peek(1), radix)) return false;
      ++pos_;
    } else {
      break;
    }
  }
  return true;
}

void Lexer::lex_number() {
  const uint32_t b = pos();
  std::string text;
  TokenKind kind = TokenKind::Integer;
  std::string problem;  // non-empty: the literal is malformed

  auto bad_underscore = [&] {
    problem = "found an underscore not followed by a digit in a numeric literal, expected "
              "underscores only between digits";
  };

  char c0 = text_[pos_];
  char p = static_cast<char>(peek(1) | 0x20);
  if (c0 == '0' && (p == 'x' || p == 'o' || p == 'b')) {
    int radix = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    text.append(text_.substr(pos_, 2));
    pos_ += 2;
    if (peek() == '_') ++pos_;  // 0x_ff is allowed: "0x" (["_"] hexdigit)+
    if (!is_digit_of(peek(), radix)) {
      if (is_alnum(peek()))
        problem = std::string("found invalid digit ") + describe_char(peek()) + " in " +
                  radix_name(radix) + " literal, expected " + radix_digits(radix);
      else
        problem = std::string(radix_name(radix)) + " literal has no digits after '" +
                  std::string(text_.substr(b, 2)) + "', expected " + radix_digits(radix);
    } else if (!scan_digits(radix, text)) {
      bad_underscore();
    } else if (is_alnum(peek()) && (radix != 16 || !is_digit_of(peek(), 16))) {
      problem = std::string("found invalid digit ") + describe_char(peek()) + " in " +
                radix_name(radix) + " literal, expected " + radix_digits(radix);
    }
  } else {
    // decinteger, pointfloat, exponentfloat, imagnumber
    if (c0 != '.' && !scan_digits(10, text)) bad_underscore();
    if (problem.empty() && peek() == '.') {
      kind = TokenKind::Float;
      text += '.';
      ++pos_;
      if (is_digit_of(peek(), 10) && !scan_digits(10, text)) bad_underscore();
    }
    if (problem.empty() && (peek() == 'e' || peek() == 'E')) {
      size_t digits_at = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
      if (is_digit_of(peek(digits_at), 10)) {
        kind = TokenKind::Float;
        text.append(text_.substr(pos_, digits_at));
        pos_ += digits_at;
        if (!scan_digits(10, text)) bad_underscore();
      } else {
        problem = "exponent has no digits, expected a digit after '" + std::string(1, peek()) + "'";
        pos_ += digits_at;
      }
    }
    if (problem.empty() && (peek() == 'j' || peek() == 'J')) {
      kind = TokenKind::Imaginary;
      text += text_[pos_];
      ++pos_;
    }
    if (problem.empty() && kind == TokenKind::Integer && text.size() > 1 && text[0] == '0' &&
        text.find_first_not_of('0') != std::string::npos)
      problem = "found leading zeros in a decimal integer literal, expected no leading zeros "
                "(use the 0o prefix for octal)";
  }
  // A number must not run into a name: `12abc`, `1.5x`.
  if (problem.empty() && !at_end()) {
    char c = text_[pos_];
    bool runs_on = is_name_start(c);
    if (static_cast<unsigned char>(c) >= 0x80) {
      utf8::Decoded d = utf8::decode(text_, pos_);
      runs_on = d.len != 0 && utf8::is_xid_start(d.cp);
    }
    if (runs_on)
      problem = "found " + (static_cast<unsigned char>(c) >= 0x80 ? std::string("a letter")
                                                                   : describe_char(c)) +
                " right after a numeric literal, expected an operator or a space";
  }
  if (!problem.empty()) {
    consume_name_chars();
    error(diag::Kind::InvalidNumber, b, pos(), std::move(problem));
    text = kind == TokenKind::Float ? "0.0" : kind == TokenKind::Imaginary ? "0j" : "0";
  }
  emit(kind, b, pos(), std::move(text));
}

void Lexer::copy_non_ascii(std::string* value, bool bytes) {
  utf8::Decoded d = utf8::decode(text_, pos_);
  if (d.len == 0) {
    invalid_utf8();
    return;
  }
  if (bytes) {
    if (!non_ascii_reported_) {  // once per literal: the first one shows the problem
      non_ascii_reported_ = true;
      uint32_t b = pos();
      error(diag::Kind::NonAsciiInBytes, b, b + d.len,
            "found non-ASCII character " + code_point_name(d.cp) +
                " in a bytes literal, expected ASCII characters or escapes");
    }
  } else if (value) {
    value->append(text_.substr(pos_, d.len));
  }
  pos_ += d.len;
}

// pos_ is on a backslash inside a non-raw string. Decodes one escape into
// `value`; an unknown escape keeps the backslash and leaves the next
// character to the caller, as Python does.
void Lexer::scan_escape(std::string& value, bool bytes, bool report) {
  const uint32_t b = pos();
  ++pos_;
  if (at_end()) {
    value += '\\';
    return;
  }
  char c = text_[pos_];
  auto simple = [&](char decoded) {
    value += decoded;
    ++pos_;
  };
  auto bad = [&](std::string message) {
    if (report) error(diag::Kind::InvalidEscape, b, pos(), std::move(message));
  };
  // \x, \u, \U: exactly `count` hex digits.
  auto hex = [&](int count) -> int64_t {
    ++pos_;
    int64_t v = 0;
    for (int i = 0; i < count; ++i) {
      if (!is_digit_of(peek(), 16)) {
        bad("found a truncated \\" + std::string(1, c) + " escape, expected " +
            std::to_string(count) + " hexadecimal digits");
        return -1;
      }
      v = v * 16 + digit_value(text_[pos_]);
      ++pos_;
    }
    return v;
  };
  switch (c) {
    case '\n': ++pos_; return;  // backslash-newline: continuation inside the string
    case '\r': pos_ += peek(1) == '\n' ? 2 : 1; return;
    case '\\': case '\'': case '"': return simple(c);
    case 'a': return simple('\a');
    case 'b': return simple('\b');
    case 'f': return simple('\f');
    case 'n': return simple('\n');
    case 'r': return simple('\r');
    case 't': return simple('\t');
    case 'v': return simple('\v');
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      uint32_t v = 0;
      for (int i = 0; i < 3 && is_digit_of(peek(), 8); ++i, ++pos_) v = v * 8 + (text_[pos_] - '0');
      if (!bytes) {
        utf8::append(value, v);
      } else if (v > 0xFF) {
        bad("found octal escape " + std::string(text_.substr(b, pos_ - b)) +
            " above \\377 in a bytes literal, expected a value that fits in a byte");
      } else {
        value += static_cast<char>(v);
      }
      return;
    }
    case 'x': {
      int64_t v = hex(2);
      if (v < 0) return;
      if (bytes)
        value += static_cast<char>(v);
      else
        utf8::append(value, static_cast<char32_t>(v));
      return;
    }
    case 'u': case 'U': {
      if (bytes) break;  // not an escape in bytes
      int64_t v = hex(c == 'u' ? 4 : 8);
      if (v < 0) return;
      if (v > 0x10FFFF) {
        bad("found \\U escape " + std::string(text_.substr(b, pos_ - b)) +
            " beyond the last code point, expected at most \\U0010ffff");
        return;
      }
      utf8::append(value, static_cast<char32_t>(v));
      return;
    }
    case 'N': {
      if (bytes) break;  // not an escape in bytes
      ++pos_;
      if (peek() == '{') {
        size_t close = pos_ + 1;
        while (close < n_ && (is_alnum(text_[close]) || text_[close] == ' ' || text_[close] == '-'))
          ++close;
        if (close < n_ && text_[close] == '}') pos_ = close + 1;
      }
      bad("\\N{...} escapes are not supported, expected a \\u or \\U escape with the code point");
      return;
    }
    default:
      break;
  }
  value += '\\';  // unknown escape: kept literally, the character follows
}

// Skips a string literal nested in an f-string replacement field (3.12
// allows any quotes there); pos_ is on its opening quote. Errors inside are
// not reported: the enclosing f-string is already an error.
void Lexer::skip_nested_string() {
  char q = text_[pos_];
  bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  while (!at_end()) {
    char c = text_[pos_];
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      return;
    }
    if ((c == '\n' || c == '\r') && !triple) return;
    pos_ += (c == '\\' && !at_end(1)) ? 2 : 1;
  }
}

size_t Lexer::scan_fstring_parts(size_t p, size_t end, bool raw, bool in_spec, std::vector<FStringPart>& out) {
  std::string lit;
  size_t lit_begin = p;
  auto flush = [&] {
    if (!lit.empty()) {
      FStringPart part;
      part.range = range(static_cast<uint32_t>(lit_begin), static_cast<uint32_t>(p));
      part.literal = std::move(lit);
      out.push_back(std::move(part));
    }
    lit.clear();
  };
  while (p < end) {
    char c = text_[p];
    if (c == '{' || c == '}') {
      if (p + 1 < end && text_[p + 1] == c && !in_spec) {
        lit += c;  // {{ or }}
        p += 2;
        continue;
      }
      if (c == '}') {
        if (in_spec) break;
        error(diag::Kind::InvalidFString, static_cast<uint32_t>(p), static_cast<uint32_t>(p + 1),
              "found a single '}' in an f-string, expected '}}' for a literal brace");
        ++p;
        continue;
      }
      flush();
      p = scan_fstring_field(p, end, raw, out);
      lit_begin = p;
    } else if (c == '\\' && !raw) {
      pos_ = p;
      scan_escape(lit, false, true);
      p = pos_;
    } else if (c == '\r') {
      lit += '\n';
      p += (p + 1 < end && text_[p + 1] == '\n') ? 2 : 1;
    } else {
      lit += c;
      ++p;
    }
  }
  flush();
  return p;
}

size_t Lexer::scan_fstring_field(size_t p, size_t end, bool raw, std::vector<FStringPart>& out) {
  const size_t open = p++;
  size_t q = p;
  int depth = 0;
  bool self_doc = false;
  while (q < end) {
    char c = text_[q];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0 && c == '}') break;
      if (depth > 0) --depth;
    } else if (c == '"' || c == '\'') {
      pos_ = q;
      skip_nested_string();
      q = pos_;
      continue;
    } else if (depth == 0 && c == '!' && !(q + 1 < end && text_[q + 1] == '=')) {
      break;
    } else if (depth == 0 && c == ':') {
      break;  // the format spec (a walrus needs parentheses in a field)
    } else if (depth == 0 && c == '=' && !(q + 1 < end && text_[q + 1] == '=') &&
               !(q > p && std::string_view("=!<>").find(text_[q - 1]) != std::string_view::npos)) {
      self_doc = true;
      break;
    }
    ++q;
  }
  FStringPart field;
  field.is_field = true;
  field.expr_range = range(static_cast<uint32_t>(p), static_cast<uint32_t>(q));
  auto bad = [&](size_t at, std::string message) {
    error(diag::Kind::InvalidFString, static_cast<uint32_t>(open), static_cast<uint32_t>(std::max(at, open + 1)),
          std::move(message));
    return end;
  };
  if (text_.substr(p, q - p).find_first_not_of(" \t\n\r\f") == std::string_view::npos)
    return bad(q + 1, "found an empty expression in an f-string field, expected an expression");
  if (self_doc) field.self_doc = std::string(text_.substr(p, ++q - p));
  while (self_doc && q < end && (text_[q] == ' ' || text_[q] == '\t')) field.self_doc += text_[q++];
  if (q < end && text_[q] == '!') {
    ++q;
    if (q >= end || (text_[q] != 'r' && text_[q] != 's' && text_[q] != 'a'))
      return bad(q + 1, "expected 'r', 's' or 'a' after '!' in an f-string field");
    field.conversion = text_[q++];
  }
  if (q < end && text_[q] == ':') {
    field.has_spec = true;
    q = scan_fstring_parts(q + 1, end, raw, true, field.spec);
  }
  if (q >= end || text_[q] != '}') return bad(q, "found the end of the f-string inside a field, expected '}'");
  ++q;
  if (self_doc && !field.conversion && !field.has_spec) field.conversion = 'r';
  field.range = range(static_cast<uint32_t>(open), static_cast<uint32_t>(q));
  field.tokens = Lexer(file_, diags_, text_, field.expr_range.begin, field.expr_range.end).run_field();
  if (!field.self_doc.empty()) {
    FStringPart doc;
    doc.range = range(static_cast<uint32_t>(p), static_cast<uint32_t>(p + field.self_doc.size()));
    doc.literal = field.self_doc;
    out.push_back(std::move(doc));
  }
  out.push_back(std::move(field));
  return q;
}

void Lexer::lex_string(uint32_t begin, bool raw, bool bytes, bool fstring) {
  const uint32_t quote_at = pos();
  const char q = text_[pos_];
  const bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  std::string value;
  int depth = 0;  // f-string replacement field nesting
  bool closed = false;
  non_ascii_reported_ = false;
  while (!at_end()) {
    char c = text_[pos_];
    if (c == q && depth == 0 && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      closed = true;
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) break;
      pos_ += (c == '\r' && peek(1) == '\n') ? 2 : 1;
      value += '\n';
    } else if (c == '\\') {
      if (raw || fstring) {
        // Raw: the backslash stays and protects the next character (a quote
        // does not close the string), which is copied as is.
        value += '\\';
        ++pos_;
        if (at_end()) break;
        char d = text_[pos_];
        if (d == '\n' || d == '\r') {
          pos_ += (d == '\r' && peek(1) == '\n') ? 2 : 1;
          value += '\n';
        } else if (static_cast<unsigned char>(d) >= 0x80) {
          copy_non_ascii(&value, bytes);
        } else {
          value += d;
          ++pos_;
        }
      } else {
        scan_escape(value, bytes, true);
      }
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      copy_non_ascii(&value, bytes);
    } else if (fstring && (c == '{' || c == '}')) {
      if (depth == 0 && peek(1) == c) {
        pos_ += 2;  // {{ or }}
      } else {
        depth += c == '{' ? 1 : (depth > 0 ? -1 : 0);
        ++pos_;
      }
    } else if (fstring && depth > 0 && (c == '"' || c == '\'')) {
      skip_nested_string();
    } else {
      if (c == '\0')
        error(diag::Kind::InvalidCharacter, pos(), pos() + 1,
              "found a null byte in a string literal, expected \\0 instead");
      else
        value += c;
      ++pos_;
    }
  }
  if (!closed) {
    error(diag::Kind::UnterminatedString, quote_at, pos(),
          triple ? std::string("found the end of the file inside a triple-quoted string, expected ") +
                       std::string(3, q) + " to close it"
                 : std::string("found the end of the line inside a string, expected ") + q +
                       " to close it");
  }
  std::shared_ptr<std::vector<FStringPart>> parts;
  if (fstring && closed) {
    const size_t quotes = triple ? 3 : 1;
    parts = std::make_shared<std::vector<FStringPart>>();
    size_t body_end = pos_ - quotes;
    size_t saved = pos_;
    scan_fstring_parts(quote_at + quotes, body_end, raw, false, *parts);
    pos_ = saved;
  }
  emit(TokenKind::String, begin, pos(), fstring ? std::string() : std::move(value), bytes);
  if (parts) toks_.back().fstring = std::move(parts);
  if (!closed) {
    toks_.back().unterminated = true;
    close_brackets_after_unterminated_string(quote_at + (triple ? 3 : 1));
  }
}

// Python reports an unterminated string and nothing more. The usual cause is
// a forgotten closing quote, so the rest of the line, closers included, went
// into the string: the brackets those closers would have closed are closed
// here, and the others too unless the next line is indented deeper than the
// statement, as a continuation line of a call is. The parser then sees
// balanced brackets and reports nothing more.
void Lexer::close_brackets_after_unterminated_string(uint32_t body_begin) {
  size_t closed = 0;
  int depth = 0;  // brackets opened inside the string
  for (char c : text_.substr(body_begin, pos_ - body_begin)) {
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) --depth;
      else ++closed;
    }
  }
  size_t keep = brackets_.size() > closed ? brackets_.size() - closed : 0;
  if (keep > 0 && !next_line_indented_deeper()) keep = 0;
  close_brackets_above(keep, pos());
}

}  // namespace tileslc::lex::detail
