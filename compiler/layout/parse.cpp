// The parser for CuTe's notation: integer tuples `(3,(2,3))`, layouts
// `((2,2),3):((24,2),8)`, by-mode tilers `<3:4,8:2>`, coordinates with `_`,
// static markers `_12`, symbolic names `N`, swizzles `Sw<3,4,3>` and composed
// layouts `Sw<3,4,3> o 0 o (8,8):(8,1)`. Errors are NotationError with the
// 1-based column of the offending character.
#include <cctype>

#include "layout/layout.h"
#include "layout/swizzle_rule.h"

namespace tileslc::layout {

namespace {

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& opts) : text_(text), opts_(opts) {}

  [[noreturn]] void fail(const std::string& what) const { throw NotationError(what, pos_ + 1); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool at_end() { return peek() == '\0'; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect_end(const char* what) {
    if (!at_end()) fail(std::string("unexpected '") + text_[pos_] + "' after the " + what);
  }

  // int_tuple := '(' [int_tuple (',' int_tuple)*] ')' | integer | '_' | name
  IntTuple int_tuple() {
    char c = peek();
    if (c == '(') {
      ++pos_;
      std::vector<IntTuple> elems;
      if (accept(')')) return IntTuple::tuple({});
      for (;;) {
        elems.push_back(int_tuple());
        if (accept(',')) continue;
        if (accept(')')) break;
        fail("expected ',' or ')'");
      }
      return IntTuple::tuple(std::move(elems));
    }
    return IntTuple(leaf());
  }

  // leaf := ['-'] digits | '_' digits | '_' | name
  IntTuple leaf() {
    char c = peek();
    if (c == '_') {
      ++pos_;
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        return IntTuple(Int(number()));
      return IntTuple::underscore();
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = number();
      return IntTuple(opts_.plain_ints_static ? Int(v) : Int::dynamic(v));
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      return IntTuple(Int::symbol(std::string(text_.substr(start, pos_ - start))));
    }
    if (c == '\0') fail("expected an integer or '(', found the end of the text");
    fail(std::string("expected an integer or '(', found '") + c + "'");
  }

  int64_t number() {
    size_t start = pos_;
    bool neg = false;
    if (text_[pos_] == '-') {
      neg = true;
      ++pos_;
    }
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) fail("expected digits");
    int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (v > (INT64_MAX - 9) / 10) {
        pos_ = start;
        fail("integer too large");
      }
      v = v * 10 + (text_[pos_++] - '0');
    }
    return neg ? -v : v;
  }

  // layout := int_tuple ':' int_tuple
  Layout layout() {
    IntTuple s = int_tuple();
    if (!accept(':')) fail("expected ':' after the shape " + s.to_string());
    size_t stride_col = pos_;
    skip_space();
    stride_col = pos_;
    IntTuple d = int_tuple();
    if (!congruent(s, d)) {
      pos_ = stride_col;
      fail("stride " + d.to_string() + " is not congruent with shape " + s.to_string());
    }
    check_no_underscore(s, stride_col);
    return Layout(s, d);
  }

  void check_no_underscore(const IntTuple& t, size_t col) {
    if (t.is_underscore()) {
      pos_ = col;
      fail("`_` is not allowed in a layout");
    }
    if (t.is_tuple())
      for (const auto& e : t.elems()) check_no_underscore(e, col);
  }

  // tiler := '<' tiler (',' tiler)* '>' | layout | int_tuple
  Tiler tiler() {
    if (accept('<')) {
      std::vector<Tiler> modes;
      for (;;) {
        modes.push_back(tiler());
        if (accept(',')) continue;
        if (accept('>')) break;
        fail("expected ',' or '>'");
      }
      return Tiler::tuple(std::move(modes));
    }
    IntTuple s = int_tuple();
    if (accept(':')) {
      skip_space();
      size_t col = pos_;
      IntTuple d = int_tuple();
      if (!congruent(s, d)) {
        pos_ = col;
        fail("stride " + d.to_string() + " is not congruent with shape " + s.to_string());
      }
      return Tiler(Layout(s, d));
    }
    return Tiler::from_shape(s);
  }

  // swizzle := 'Sw' '<' int ',' int ',' int '>'
  Swizzle swizzle() {
    skip_space();
    if (text_.substr(pos_, 2) != "Sw") fail("expected 'Sw<B,M,S>'");
    pos_ += 2;
    if (!accept('<')) fail("expected '<'");
    Swizzle sw;
    int* fields[3] = {&sw.bits, &sw.base, &sw.shift};
    for (int i = 0; i < 3; ++i) {
      skip_space();
      *fields[i] = static_cast<int>(number());
      if (i < 2 && !accept(',')) fail("expected ','");
    }
    if (!accept('>')) fail("expected '>'");
    if (auto why = swizzle_violation(sw)) fail(*why);
    return sw;
  }

  // composed := swizzle ['o' int_leaf 'o' layout | 'o' layout]
  ComposedLayout composed() {
    ComposedLayout c;
    c.swizzle = swizzle();
    c.offset = Int(0);
    c.layout = Layout(Int(1), Int(0));
    if (at_end()) return c;
    if (!accept('o')) fail("expected 'o'");
    size_t save = pos_;
    IntTuple first = int_tuple();
    if (accept(':')) {  // no offset
      pos_ = save;
      c.layout = layout();
      return c;
    }
    if (!first.is_leaf()) fail("expected an offset or a layout");
    c.offset = first.value();
    if (!accept('o')) fail("expected 'o'");
    c.layout = layout();
    return c;
  }

 private:
  std::string_view text_;
  ParseOptions opts_;
  size_t pos_ = 0;
};

}  // namespace

IntTuple parse_int_tuple(std::string_view text, const ParseOptions& opts) {
  Parser p(text, opts);
  IntTuple t = p.int_tuple();
  p.expect_end("tuple");
  return t;
}

Layout parse_layout(std::string_view text, const ParseOptions& opts) {
  Parser p(text, opts);
  Layout l = p.layout();
  p.expect_end("layout");
  return l;
}

Tiler parse_tiler(std::string_view text, const ParseOptions& opts) {
  Parser p(text, opts);
  Tiler t = p.tiler();
  p.expect_end("tiler");
  return t;
}

ComposedLayout parse_composed_layout(std::string_view text, const ParseOptions& opts) {
  Parser p(text, opts);
  ComposedLayout c = p.composed();
  p.expect_end("layout");
  return c;
}

bool looks_like_layout(std::string_view text) {
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (c == ':' && depth == 0) return true;
  }
  return false;
}

}  // namespace tileslc::layout
