// Unit tests for the lexer (compiler/lex): every token kind, every numeric
// and string literal form, the NEWLINE/INDENT/DEDENT layout rules, every
// E01xx diagnostic with its exact span, and stream invariants (balanced
// DEDENTs, final EndOfFile) after errors. Token streams are compared as
// compact strings, e.g. "def f ( Name(x) ) : NEWLINE INDENT ... EOF".
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "lex/lex.h"
#include "source/source.h"

namespace tileslc::lex {
namespace {

using source::SourceManager;

/// Renders bytes of a token text readably: \n, \t, \\, \xNN for controls.
std::string escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\\') out += "\\\\";
    else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else out += static_cast<char>(c);
  }
  return out;
}

std::string render(const Token& t) {
  switch (t.kind) {
    case TokenKind::EndOfFile: return "EOF";
    case TokenKind::Newline: return "NEWLINE";
    case TokenKind::Indent: return "INDENT";
    case TokenKind::Dedent: return "DEDENT";
    case TokenKind::Identifier: return "Name(" + t.text + ")";
    case TokenKind::Integer: return "Int(" + t.text + ")";
    case TokenKind::Float: return "Float(" + t.text + ")";
    case TokenKind::Imaginary: return "Imag(" + t.text + ")";
    case TokenKind::String: return (t.is_bytes ? "Bytes(" : "Str(") + escape(t.text) + ")";
    case TokenKind::Error: return "ERROR";
    default: return std::string(spelling(t.kind));
  }
}

std::string render(const std::vector<Token>& toks) {
  std::string out;
  for (const Token& t : toks) {
    if (!out.empty()) out += ' ';
    out += render(t);
  }
  return out;
}

class LexTest : public ::testing::Test {
 protected:
  SourceManager sm;
  diag::DiagnosticEngine diags{sm};
  source::FileId file = source::kNoFile;
  std::vector<Token> toks;

  /// Lexes `text` and returns the rendered stream; checks the invariants
  /// every stream must satisfy, errors or not.
  std::string lex(std::string text) {
    file = sm.add_buffer("t.tpy", std::move(text));
    toks = tokenize(sm, file, diags);
    check_invariants();
    return render(toks);
  }

  void check_invariants() {
    const uint32_t size = static_cast<uint32_t>(sm.file(file).text().size());
    ASSERT_FALSE(toks.empty());
    EXPECT_EQ(toks.back().kind, TokenKind::EndOfFile);
    int depth = 0;
    uint32_t last_begin = 0;
    for (size_t i = 0; i < toks.size(); ++i) {
      const Token& t = toks[i];
      if (t.kind == TokenKind::Indent) ++depth;
      if (t.kind == TokenKind::Dedent) --depth;
      EXPECT_GE(depth, 0) << "more DEDENTs than INDENTs at token " << i;
      EXPECT_NE(t.kind, TokenKind::Error);
      EXPECT_EQ(t.range.file, file);
      EXPECT_LE(t.range.begin, t.range.end);
      EXPECT_LE(t.range.end, size);
      EXPECT_GE(t.range.begin, last_begin) << "tokens out of order at " << i;
      last_begin = t.range.begin;
      if (i + 1 < toks.size()) EXPECT_NE(t.kind, TokenKind::EndOfFile);
      if (t.kind == TokenKind::Newline && i > 0) EXPECT_NE(toks[i - 1].kind, TokenKind::Newline);
    }
    EXPECT_EQ(depth, 0) << "unbalanced INDENT/DEDENT";
  }

  /// Lexes a single literal or name and returns its token (asserting that
  /// only NEWLINE and EOF follow).
  Token one(std::string text) {
    lex(std::move(text));
    EXPECT_EQ(toks.size(), 3u) << render(toks);
    return toks.empty() ? Token{} : toks[0];
  }

  std::string pos(source::SourceLoc loc) const {
    source::LineCol lc = sm.line_col(loc);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
  std::string span(source::SourceRange r) const {
    return pos({r.file, r.begin}) + "-" + pos({r.file, r.end});
  }

  /// All diagnostics as "E0105 1:5-1:8", in report order.
  std::string errors() const {
    std::string out;
    for (const diag::Diagnostic& d : diags.diagnostics()) {
      if (!out.empty()) out += ", ";
      out += std::string(diag::info(d.kind).code) + " " + span(d.range);
    }
    return out;
  }
  std::string message(size_t i = 0) const {
    return i < diags.diagnostics().size() ? diags.diagnostics()[i].message : "";
  }
  /// Token spans as "1:1-1:4 ..." for layout checks.
  std::string spans() const {
    std::string out;
    for (const Token& t : toks) {
      if (!out.empty()) out += ' ';
      out += span(t.range);
    }
    return out;
  }
};

// ---------------------------------------------------------------- tables

TEST(LexTables, SpellingAndKindName) {
  EXPECT_EQ(spelling(TokenKind::LParen), "(");
  EXPECT_EQ(spelling(TokenKind::DoubleStarEqual), "**=");
  EXPECT_EQ(spelling(TokenKind::Def), "def");
  EXPECT_EQ(spelling(TokenKind::Identifier), "identifier");
  EXPECT_EQ(spelling(TokenKind::EndOfFile), "end of file");
  EXPECT_EQ(kind_name(TokenKind::LParen), "LParen");
  EXPECT_EQ(kind_name(TokenKind::EndOfFile), "EndOfFile");
  EXPECT_EQ(kind_name(TokenKind::Yield), "Yield");
  EXPECT_EQ(kind_name(TokenKind::String), "String");
}

// -------------------------------------------------------- every token kind

struct KindEntry {
  TokenKind kind;
  std::string_view spelling;
};
constexpr KindEntry kPuncts[] = {
#define PUNCT(Name, Spelling) {TokenKind::Name, Spelling},
#include "lex/token_kinds.def"
};
constexpr KindEntry kKeywords[] = {
#define KEYWORD(Name, Spelling) {TokenKind::Name, Spelling},
#include "lex/token_kinds.def"
};

TEST_F(LexTest, EveryPunctuatorAlone) {
  for (const KindEntry& p : kPuncts) {
    std::string src = std::string(p.spelling);
    // Openers and closers alone are bracket errors; wrap them.
    if (src == "(" || src == "[" || src == "{") src += src == "(" ? ")" : src == "[" ? "]" : "}";
    if (src == ")" || src == "]" || src == "}") src = (src == ")" ? "(" : src == "]" ? "[" : "{") + src;
    lex(src);
    bool is_open = p.spelling == "(" || p.spelling == "[" || p.spelling == "{";
    const Token& t = toks[is_open ? 0 : (src.size() == 2 && src[1] == p.spelling[0] && src[0] != src[1] &&
                                                 (p.spelling == ")" || p.spelling == "]" || p.spelling == "}")
                                             ? 1
                                             : 0)];
    EXPECT_EQ(t.kind, p.kind) << p.spelling;
    EXPECT_EQ(sm.text(t.range), p.spelling);
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, EveryKeyword) {
  for (const KindEntry& k : kKeywords) {
    Token t = one(std::string(k.spelling));
    EXPECT_EQ(t.kind, k.kind) << k.spelling;
    EXPECT_EQ(sm.text(t.range), k.spelling);
  }
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, OperatorsLongestMatchFirst) {
  EXPECT_EQ(lex("a**=b//=c>>=d<<=e...f->g:=h!=i"),
            "Name(a) **= Name(b) //= Name(c) >>= Name(d) <<= Name(e) ... Name(f) -> Name(g) := "
            "Name(h) != Name(i) NEWLINE EOF");
  EXPECT_EQ(lex("x**y//z<<w>>v<=u>=t==s"),
            "Name(x) ** Name(y) // Name(z) << Name(w) >> Name(v) <= Name(u) >= Name(t) == Name(s) "
            "NEWLINE EOF");
  EXPECT_EQ(lex("+=-=*=/=%=@=&=|=^="), "+= -= *= /= %= @= &= |= ^= NEWLINE EOF");
  EXPECT_EQ(lex("+-*/%@&|^~<>=:,;."), "+ - * / % @ & | ^ ~ < >= : , ; . NEWLINE EOF");
  EXPECT_EQ(lex("....a.b"), "... . Name(a) . Name(b) NEWLINE EOF");
  EXPECT_EQ(lex("->->=- >"), "-> -> = - > NEWLINE EOF");
  EXPECT_EQ(lex("a[1:2, ::3]"), "Name(a) [ Int(1) : Int(2) , : : Int(3) ] NEWLINE EOF");
  EXPECT_EQ(lex("{1: 2}"), "{ Int(1) : Int(2) } NEWLINE EOF");
  EXPECT_EQ(lex("@cute.kernel"), "@ Name(cute) . Name(kernel) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, IdentifiersAndKeywords) {
  EXPECT_EQ(lex("_ __init__ x1 True_ defx Def None if_ iff"),
            "Name(_) Name(__init__) Name(x1) Name(True_) Name(defx) Name(Def) None Name(if_) "
            "Name(iff) NEWLINE EOF");
  EXPECT_EQ(lex("not x and y or z is not w in v"),
            "not Name(x) and Name(y) or Name(z) is not Name(w) in Name(v) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, UnicodeIdentifiers) {
  // U+00B5 MICRO SIGN is U+03BC GREEK SMALL LETTER MU once NFKC-normalized, as in Python.
  EXPECT_EQ(lex("αβ = café + 名前 + x·y + \u00b5"),
            "Name(αβ) = Name(café) + Name(名前) + Name(x·y) + Name(\u03bc) NEWLINE EOF");
  EXPECT_EQ(lex("Ω_1 = ñ2"), "Name(Ω_1) = Name(ñ2) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, IdentifiersFollowPythonsXidRule) {
  // U+2122 TRADE MARK SIGN and U+2103 DEGREE CELSIUS are symbols (So), U+00B2 SUPERSCRIPT TWO a
  // number (No): Python rejects all three in names (SyntaxError: invalid character).
  EXPECT_EQ(lex("a\u2122 = b\u2103 + x\u00b2"), "Name(a) = Name(b) + Name(x) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0101 1:2-1:5, E0101 1:9-1:12, E0101 1:16-1:18");
  EXPECT_EQ(message(0), "found character U+2122 '\u2122', expected a name, literal, operator or delimiter");
}

TEST_F(LexTest, IdentifierStartAndContinueDiffer) {
  // A combining mark (U+0301) or an Arabic-Indic digit (U+0663) continues a name but cannot start
  // one; U+2118 (Sm) starts one (Other_ID_Start); U+309B (Sk) is Other_ID_Start but its NFKC
  // form begins with a combining mark, so XID_Start leaves it out; U+0E33 continues a name only.
  // (NFKC spells U+0E33 THAI CHARACTER SARA AM as U+0E4D U+0E32.)
  EXPECT_EQ(lex("x\u0663\u0301 + \u2118 + a\u0e33"), "Name(x\u0663\u0301) + Name(\u2118) + Name(a\u0e4d\u0e32) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
  EXPECT_EQ(lex("\u0663x + \u309b + \u0e33"), "Name(x) + + NEWLINE EOF");
  EXPECT_EQ(errors(), "E0101 1:1-1:3, E0101 1:7-1:10, E0101 1:13-1:16");
}

TEST_F(LexTest, IdentifiersAreNfkcNormalized) {
  // U+FB01 LATIN SMALL LIGATURE FI, U+210C BLACK-LETTER CAPITAL H, e + U+0301 COMBINING ACUTE
  // ACCENT, U+1D431 MATHEMATICAL BOLD SMALL X: Python stores each name in NFKC form (PEP 3131).
  EXPECT_EQ(lex("\ufb01le + \u210c + e\u0301 + \U0001d431"), "Name(file) + Name(H) + Name(\u00e9) + Name(x) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
  // A keyword is one only as written in ASCII: fullwidth `ｉｆ` is the name `if`, as in CPython.
  EXPECT_EQ(lex("\uff49\uff46"), "Name(if) NEWLINE EOF");
}

TEST_F(LexTest, TokenPositions) {
  lex("def f(x):\n    return x + 10\n");
  EXPECT_EQ(render(toks),
            "def Name(f) ( Name(x) ) : NEWLINE INDENT return Name(x) + Int(10) NEWLINE DEDENT EOF");
  EXPECT_EQ(spans(),
            "1:1-1:4 1:5-1:6 1:6-1:7 1:7-1:8 1:8-1:9 1:9-1:10 1:10-2:1 2:1-2:5 2:5-2:11 2:12-2:13 "
            "2:14-2:15 2:16-2:18 2:18-3:1 3:1-3:1 3:1-3:1");
}

// --------------------------------------------------------------- integers

TEST_F(LexTest, IntegerForms) {
  struct Case {
    const char* src;
    const char* text;
  };
  const Case cases[] = {
      {"0", "0"},         {"7", "7"},           {"1234567890", "1234567890"},
      {"00", "00"},       {"0_0", "00"},        {"1_000_000", "1000000"},
      {"0xff", "0xff"},   {"0XDEAD_beef", "0XDEADbeef"}, {"0x_1", "0x1"},
      {"0o17", "0o17"},   {"0O7_7", "0O77"},    {"0b1010", "0b1010"},
      {"0B1_0", "0B10"},  {"0b_1", "0b1"},      {"18446744073709551616", "18446744073709551616"},
  };
  for (const Case& c : cases) {
    Token t = one(c.src);
    EXPECT_EQ(t.kind, TokenKind::Integer) << c.src;
    EXPECT_EQ(t.text, c.text) << c.src;
    EXPECT_EQ(sm.text(t.range), c.src);
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, FloatAndImaginaryForms) {
  struct Case {
    const char* src;
    TokenKind kind;
    const char* text;
  };
  const Case cases[] = {
      {"1.", TokenKind::Float, "1."},          {".5", TokenKind::Float, ".5"},
      {"1.5", TokenKind::Float, "1.5"},        {"1e10", TokenKind::Float, "1e10"},
      {"1.5E-3", TokenKind::Float, "1.5E-3"},  {"2e+7", TokenKind::Float, "2e+7"},
      {"1_000.0", TokenKind::Float, "1000.0"}, {"1_0.2_5e1_0", TokenKind::Float, "10.25e10"},
      {"1.e5", TokenKind::Float, "1.e5"},      {".5e-1", TokenKind::Float, ".5e-1"},
      {"09.5", TokenKind::Float, "09.5"},      {"00e0", TokenKind::Float, "00e0"},
      {"0.0", TokenKind::Float, "0.0"},        {"1j", TokenKind::Imaginary, "1j"},
      {"1.5J", TokenKind::Imaginary, "1.5J"},  {".5j", TokenKind::Imaginary, ".5j"},
      {"1e3j", TokenKind::Imaginary, "1e3j"},  {"09j", TokenKind::Imaginary, "09j"},
      {"1_0j", TokenKind::Imaginary, "10j"},
  };
  for (const Case& c : cases) {
    Token t = one(c.src);
    EXPECT_EQ(t.kind, c.kind) << c.src;
    EXPECT_EQ(t.text, c.text) << c.src;
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, NumbersNextToOperators) {
  EXPECT_EQ(lex("1+2-3.5*x[0]"), "Int(1) + Int(2) - Float(3.5) * Name(x) [ Int(0) ] NEWLINE EOF");
  EXPECT_EQ(lex("1..real"), "Float(1.) . Name(real) NEWLINE EOF");
  EXPECT_EQ(lex("1 .real"), "Int(1) . Name(real) NEWLINE EOF");
  EXPECT_EQ(lex("x.5"), "Name(x) Float(.5) NEWLINE EOF");
  EXPECT_EQ(lex("1e5-1"), "Float(1e5) - Int(1) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, MalformedNumbers) {
  struct Case {
    const char* src;
    const char* span;
    TokenKind kind;
    const char* message;
  };
  const Case cases[] = {
      {"0x", "1:1-1:3", TokenKind::Integer,
       "hexadecimal literal has no digits after '0x', expected 0-9 or a-f"},
      {"0b", "1:1-1:3", TokenKind::Integer, "binary literal has no digits after '0b', expected 0 or 1"},
      {"0o9", "1:1-1:4", TokenKind::Integer, "found invalid digit '9' in octal literal, expected 0-7"},
      {"0b102", "1:1-1:6", TokenKind::Integer,
       "found invalid digit '2' in binary literal, expected 0 or 1"},
      {"0xfg", "1:1-1:5", TokenKind::Integer,
       "found invalid digit 'g' in hexadecimal literal, expected 0-9 or a-f"},
      {"1__0", "1:1-1:5", TokenKind::Integer,
       "found an underscore not followed by a digit in a numeric literal, expected underscores only "
       "between digits"},
      {"1_", "1:1-1:3", TokenKind::Integer, nullptr},
      {"0x1_", "1:1-1:5", TokenKind::Integer, nullptr},
      {"1._5", "1:1-1:5", TokenKind::Float, nullptr},
      {"1.5_", "1:1-1:5", TokenKind::Float, nullptr},
      {"1e", "1:1-1:3", TokenKind::Integer, "exponent has no digits, expected a digit after 'e'"},
      {"1e+", "1:1-1:4", TokenKind::Integer, nullptr},
      {"1.5Ex", "1:1-1:6", TokenKind::Float, nullptr},
      {"09", "1:1-1:3", TokenKind::Integer,
       "found leading zeros in a decimal integer literal, expected no leading zeros (use the 0o "
       "prefix for octal)"},
      {"0_7", "1:1-1:4", TokenKind::Integer, nullptr},
      {"12abc", "1:1-1:6", TokenKind::Integer,
       "found 'a' right after a numeric literal, expected an operator or a space"},
      {"1.5x", "1:1-1:5", TokenKind::Float, nullptr},
      {"1jk", "1:1-1:4", TokenKind::Imaginary, nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    size_t before = diags.diagnostics().size();
    Token t = one(c.src);
    ASSERT_EQ(diags.diagnostics().size(), before + 1) << errors();
    const diag::Diagnostic& d = diags.diagnostics().back();
    EXPECT_EQ(diag::info(d.kind).code, "E0105");
    EXPECT_EQ(span(d.range), c.span);
    if (c.message) EXPECT_EQ(d.message, c.message);
    // The bad literal becomes a zero of its kind over the whole extent.
    EXPECT_EQ(t.kind, c.kind);
    EXPECT_EQ(t.text, c.kind == TokenKind::Float ? "0.0" : c.kind == TokenKind::Imaginary ? "0j" : "0");
    EXPECT_EQ(span(t.range), c.span);
  }
}

TEST_F(LexTest, MalformedNumberInContextKeepsLexing) {
  EXPECT_EQ(lex("x = 0x + 1\n"), "Name(x) = Int(0) + Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0105 1:5-1:7");
}

// ---------------------------------------------------------------- strings

TEST_F(LexTest, StringQuotingForms) {
  struct Case {
    const char* src;
    const char* text;
  };
  const Case cases[] = {
      {"'abc'", "abc"},
      {"\"abc\"", "abc"},
      {"''", ""},
      {"\"\"", ""},
      {"'a\"b'", "a\"b"},
      {"\"a'b\"", "a'b"},
      {"'''a'b''c'''", "a'b''c"},
      {"\"\"\"x\"y\"\"z\"\"\"", "x\"y\"\"z"},
      {"'''line1\nline2'''", "line1\nline2"},
      {"\"\"\"a\r\nb\rc\"\"\"", "a\nb\nc"},
      {"''''''", ""},
      {"u'uni'", "uni"},
      {"U\"uni\"", "uni"},
      {"'héllo 名'", "héllo 名"},
  };
  for (const Case& c : cases) {
    Token t = one(c.src);
    EXPECT_EQ(t.kind, TokenKind::String) << c.src;
    EXPECT_EQ(t.text, c.text) << c.src;
    EXPECT_FALSE(t.is_bytes) << c.src;
    EXPECT_EQ(sm.text(t.range), c.src);
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, StringPrefixesInAnyCase) {
  struct Case {
    const char* src;
    const char* text;
    bool bytes;
  };
  const Case cases[] = {
      {R"(r'\n')", R"(\n)", false},  {R"(R"\n")", R"(\n)", false}, {R"(b'\n')", "\n", true},
      {R"(B"x")", "x", true},        {R"(br'\n')", R"(\n)", true}, {R"(Br'\n')", R"(\n)", true},
      {R"(bR'\n')", R"(\n)", true},  {R"(BR'\n')", R"(\n)", true}, {R"(rb'\n')", R"(\n)", true},
      {R"(rB'\n')", R"(\n)", true},  {R"(Rb'\n')", R"(\n)", true}, {R"(RB'\n')", R"(\n)", true},
      {R"(u'\n')", "\n", false},     {R"(b'''a
b''')", "a\nb", true},
  };
  for (const Case& c : cases) {
    Token t = one(c.src);
    EXPECT_EQ(t.kind, TokenKind::String) << c.src;
    EXPECT_EQ(t.text, c.text) << c.src;
    EXPECT_EQ(t.is_bytes, c.bytes) << c.src;
    EXPECT_EQ(sm.text(t.range), c.src);
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, PrefixLettersThatAreNotPrefixes) {
  // "ub" is not a prefix: a name followed by a string, as in Python.
  EXPECT_EQ(lex("ub'x' rbx bx r"), "Name(ub) Str(x) Name(rbx) Name(bx) Name(r) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, StringEscapes) {
  struct Case {
    const char* src;
    std::string text;
  };
  const Case cases[] = {
      {R"('\n\t\r\\\'\"')", "\n\t\r\\'\""},
      {R"('\a\b\f\v')", "\a\b\f\v"},
      {R"('\0')", std::string(1, '\0')},
      {R"('\101\7\777x')", "A\x07\xC7\xBFx"},  // \777 is U+01FF
      {R"('\x41\xe9')", "A\xC3\xA9"},           // \xe9 is U+00E9 in str
      {R"('\u00e9\u4e2d')", "\xC3\xA9\xE4\xB8\xAD"},
      {R"('\U0001F600')", "\xF0\x9F\x98\x80"},
      {R"('\q\d\ ')", R"(\q\d\ )"},   // unknown escapes are kept, as in Python
      {"'a\\\nb'", "ab"},               // backslash-newline continues the string
      {"'a\\\r\nb'", "ab"},
      {"'''a\\\nb'''", "ab"},
      {R"('\é')", "\\\xC3\xA9"},
      {R"(b'\x41\xe9\101\377')", "A\xE9" "A\xFF"},
      {R"(b'\u00e9\N{X}')", R"(\u00e9\N{X})"},  // not escapes in bytes
  };
  for (const Case& c : cases) {
    Token t = one(c.src);
    EXPECT_EQ(t.kind, TokenKind::String) << c.src;
    EXPECT_EQ(escape(t.text), escape(c.text)) << c.src;
  }
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, RawStringsKeepBackslashes) {
  EXPECT_EQ(one(R"(r'\'')").text, R"(\')");
  EXPECT_EQ(one(R"(r"a\"b")").text, R"(a\"b)");
  EXPECT_EQ(one(R"(r'\\')").text, R"(\\)");
  EXPECT_EQ(one("r'a\\\nb'").text, "a\\\nb");
  EXPECT_EQ(one(R"(r'\x\N{x}\u')").text, R"(\x\N{x}\u)");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, AdjacentStringsAreSeparateTokens) {
  EXPECT_EQ(lex("'a' \"b\" b'c'"), "Str(a) Str(b) Bytes(c) NEWLINE EOF");
  EXPECT_EQ(lex("x = ('a'\n     'b')"), "Name(x) = ( Str(a) Str(b) ) NEWLINE EOF");
}

TEST_F(LexTest, UnterminatedStrings) {
  EXPECT_EQ(lex("x = 'abc\ny = 1\n"), "Name(x) = Str(abc) NEWLINE Name(y) = Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:5-1:9");
  EXPECT_EQ(message(), "found the end of the line inside a string, expected ' to close it");
}

TEST_F(LexTest, UnterminatedStringWithPrefixAtEof) {
  EXPECT_EQ(lex("s = rb\"ab\\\""), "Name(s) = Bytes(ab\\\\\") NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:7-1:12");
  EXPECT_EQ(span(toks[2].range), "1:5-1:12");
}

TEST_F(LexTest, UnterminatedStringClosesTheBracketsItSwallowed) {
  // The `)` went into the string: the lexer closes the call with a
  // zero-width `)`, so the line ends there and the next one is lexed alone.
  EXPECT_EQ(lex("f(\"a %d\\n, x)\ny = 1\n"),
            "Name(f) ( Str(a %d\\n, x)) ) NEWLINE Name(y) = Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:3-1:14");
  EXPECT_TRUE(toks[2].unterminated);
  EXPECT_EQ(span(toks[3].range), "1:14-1:14");
}

TEST_F(LexTest, UnterminatedStringWithoutClosersEndsTheStatement) {
  // No closer went into the string and the next line is not deeper: the
  // statement ends with this line.
  EXPECT_EQ(lex("if x:\n    f('abc\n    y\n"),
            "if Name(x) : NEWLINE INDENT Name(f) ( Str(abc) ) NEWLINE Name(y) NEWLINE DEDENT EOF");
  EXPECT_EQ(errors(), "E0102 2:7-2:11");
}

TEST_F(LexTest, UnterminatedStringKeepsBracketsOpenBeforeAContinuationLine) {
  // The next line is indented deeper, as a call's continuation line is:
  // '(' stays open.
  EXPECT_EQ(lex("f('a,\n  b)\nc\n"), "Name(f) ( Str(a,) Name(b) ) NEWLINE Name(c) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:3-1:6");
  // The string's closers close only the brackets outside it: here '[' and
  // the inner '(' (zero-width), while the outer '(' goes on to the next line.
  EXPECT_EQ(lex("g(h([1, 'x(y)])\n  z)\n"),
            "Name(g) ( Name(h) ( [ Int(1) , Str(x(y)])) ] ) Name(z) ) NEWLINE EOF");
}

TEST_F(LexTest, UnterminatedTripleQuotedInsideBracketsIsOneError) {
  EXPECT_EQ(lex("x = (1, '''abc\n"), "Name(x) = ( Int(1) , Str(abc\\n) ) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:9-2:1");  // and no E0112 for the '('
}

TEST_F(LexTest, UnterminatedTripleQuotedRunsToEof) {
  EXPECT_EQ(lex("x = 1\ns = '''abc\ndef\n  ghi"), "Name(x) = Int(1) NEWLINE Name(s) = Str(abc\\ndef\\n  ghi) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 2:5-4:6");
  EXPECT_EQ(message(),
            "found the end of the file inside a triple-quoted string, expected ''' to close it");
}

TEST_F(LexTest, StringBackslashBeforeNewlineInSingleQuotedContinues) {
  EXPECT_EQ(lex("'ab\\\ncd' + 1"), "Str(abcd) + Int(1) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, InvalidEscapes) {
  lex(R"(s = '\x4' + '\xZZ' + '\u12' + '\U00110000' + '\N{DASH}' + b'\400')");
  EXPECT_EQ(errors(), "E0103 1:6-1:9, E0103 1:14-1:16, E0103 1:23-1:27, E0103 1:32-1:42, "
                      "E0103 1:47-1:55, E0103 1:61-1:65");
  EXPECT_EQ(message(0), "found a truncated \\x escape, expected 2 hexadecimal digits");
  EXPECT_EQ(message(2), "found a truncated \\u escape, expected 4 hexadecimal digits");
  EXPECT_EQ(message(3),
            "found \\U escape \\U00110000 beyond the last code point, expected at most \\U0010ffff");
  EXPECT_EQ(message(4),
            "\\N{...} escapes are not supported, expected a \\u or \\U escape with the code point");
  EXPECT_EQ(message(5),
            "found octal escape \\400 above \\377 in a bytes literal, expected a value that fits in a "
            "byte");
  // Lexing continues normally after each bad escape.
  EXPECT_EQ(render(toks),
            "Name(s) = Str() + Str(ZZ) + Str() + Str() + Str() + Bytes() NEWLINE EOF");
}

TEST_F(LexTest, NonAsciiInBytes) {
  EXPECT_EQ(lex("b'aé'"), "Bytes(a) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0113 1:4-1:6");
  EXPECT_EQ(message(),
            "found non-ASCII character U+00E9 in a bytes literal, expected ASCII characters or escapes");
}

TEST_F(LexTest, NonAsciiInBytesReportedOncePerLiteral) {
  // One error per literal, at its first non-ASCII character; the next literal has its own.
  EXPECT_EQ(lex("x = b'résumé' + b'ü' + 'é'"), "Name(x) = Bytes(rsum) + Bytes() + Str(é) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0113 1:8-1:10, E0113 1:21-1:23");
}

TEST_F(LexTest, FStringsAreOneTokenWithParts) {
  EXPECT_EQ(lex("x = f'a{b}c' + 1\n"), "Name(x) = Str() + Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "");
  const Token& t = toks[2];
  ASSERT_TRUE(t.fstring);
  ASSERT_EQ(t.fstring->size(), 3u);
  EXPECT_EQ((*t.fstring)[0].literal, "a");
  EXPECT_TRUE((*t.fstring)[1].is_field);
  EXPECT_EQ(render((*t.fstring)[1].tokens), "Name(b) EOF");
  EXPECT_EQ(sm.text((*t.fstring)[1].range), "{b}");
  EXPECT_EQ(sm.text((*t.fstring)[1].expr_range), "b");
  EXPECT_EQ((*t.fstring)[2].literal, "c");
}

TEST_F(LexTest, FStringPrefixesAndNesting) {
  const char* srcs[] = {
      "F\"x\"", "fr'\\d'", "Rf'\\d'", "fR\"x\"", "rF'x'",
      "f'{x[\"k\"]}'",            // other quotes inside a field
      "f\"{x[\"k\"]}\"",          // same quotes inside a field (Python 3.12)
      "f'{{literal}}'",           // doubled braces
      "f'''a\n{b}\nc'''",         // triple-quoted across lines
      "f'{d[\"}\"]}'",            // a closing brace inside a nested string
      "f'{x!r:>{w}}'",            // conversion and a nested field in the spec
  };
  for (const char* src : srcs) {
    SCOPED_TRACE(src);
    std::string text = src;
    lex(text + " + 1");
    EXPECT_EQ(errors(), "");
    EXPECT_EQ(render(toks), "Str() + Int(1) NEWLINE EOF");
    EXPECT_TRUE(toks[0].fstring);
  }
}

TEST_F(LexTest, MalformedFStrings) {
  lex("f'{}' f'{x!z}' f'a}b' f'{ }'");
  EXPECT_EQ(errors(), "E0104 1:3-1:5, E0104 1:9-1:13, E0104 1:19-1:20, E0104 1:25-1:28");
}

TEST_F(LexTest, UnterminatedFString) {
  EXPECT_EQ(lex("f'abc\nx\n"), "Str() NEWLINE Name(x) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0102 1:2-1:6");
}

// ----------------------------------------------------------------- layout

TEST_F(LexTest, EmptyAndBlankFiles) {
  EXPECT_EQ(lex(""), "EOF");
  EXPECT_EQ(lex("\n\n   \n"), "EOF");
  EXPECT_EQ(lex("# only a comment"), "EOF");
  EXPECT_EQ(lex("  # indented comment\n\t\n"), "EOF");
  EXPECT_EQ(lex("   "), "EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, NewlineAddedAtEof) {
  EXPECT_EQ(lex("x"), "Name(x) NEWLINE EOF");
  EXPECT_EQ(spans(), "1:1-1:2 1:2-1:2 1:2-1:2");
  EXPECT_EQ(lex("x  # trailing comment"), "Name(x) NEWLINE EOF");
  EXPECT_EQ(lex("x\n"), "Name(x) NEWLINE EOF");
  EXPECT_EQ(spans(), "1:1-1:2 1:2-2:1 2:1-2:1");
}

TEST_F(LexTest, SimpleBlock) {
  EXPECT_EQ(lex("if x:\n    y = 1\nz = 2\n"),
            "if Name(x) : NEWLINE INDENT Name(y) = Int(1) NEWLINE DEDENT Name(z) = Int(2) NEWLINE EOF");
  // INDENT spans the indentation; DEDENT is empty, at the next line's first token.
  EXPECT_EQ(span(toks[4].range), "2:1-2:5");
  EXPECT_EQ(span(toks[9].range), "3:1-3:1");
}

TEST_F(LexTest, NestedBlocksDedentSeveralLevelsAtOnce) {
  std::string src =
      "def f():\n"
      "    for i in r:\n"
      "        if i:\n"
      "            a\n"
      "        b\n"
      "    c\n"
      "d\n";
  EXPECT_EQ(lex(src),
            "def Name(f) ( ) : NEWLINE INDENT for Name(i) in Name(r) : NEWLINE INDENT if Name(i) : "
            "NEWLINE INDENT Name(a) NEWLINE DEDENT Name(b) NEWLINE DEDENT Name(c) NEWLINE DEDENT "
            "Name(d) NEWLINE EOF");
  EXPECT_EQ(lex("if a:\n  if b:\n    if c:\n      x\ny\n"),
            "if Name(a) : NEWLINE INDENT if Name(b) : NEWLINE INDENT if Name(c) : NEWLINE INDENT "
            "Name(x) NEWLINE DEDENT DEDENT DEDENT Name(y) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, AllDedentsBeforeEof) {
  EXPECT_EQ(lex("if a:\n  if b:\n    x"),
            "if Name(a) : NEWLINE INDENT if Name(b) : NEWLINE INDENT Name(x) NEWLINE DEDENT DEDENT EOF");
  EXPECT_EQ(span(toks[toks.size() - 2].range), "3:6-3:6");
  EXPECT_EQ(lex("if a:\n  x\n\n  # comment\n\n"),
            "if Name(a) : NEWLINE INDENT Name(x) NEWLINE DEDENT EOF");
}

TEST_F(LexTest, BlankAndCommentLinesDoNotAffectIndentation) {
  std::string src =
      "if x:\n"
      "\n"
      "# at column 1\n"
      "        # deeper comment\n"
      "    y\n"
      "   \n"
      "  # shallower comment\n"
      "    z\n";
  EXPECT_EQ(lex(src), "if Name(x) : NEWLINE INDENT Name(y) NEWLINE Name(z) NEWLINE DEDENT EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, BracketsSpanLines) {
  std::string src =
      "x = foo(1,\n"
      "  2,   # comment inside\n"
      "\n"
      "        [3,\n"
      "4])\n"
      "y\n";
  EXPECT_EQ(lex(src),
            "Name(x) = Name(foo) ( Int(1) , Int(2) , [ Int(3) , Int(4) ] ) NEWLINE Name(y) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, BracketsSpanLinesInsideBlock) {
  EXPECT_EQ(lex("if a:\n    f(1,\n2)\n    g\n"),
            "if Name(a) : NEWLINE INDENT Name(f) ( Int(1) , Int(2) ) NEWLINE Name(g) NEWLINE DEDENT EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, BackslashContinuation) {
  EXPECT_EQ(lex("x = 1 + \\\n        2\ny\n"), "Name(x) = Int(1) + Int(2) NEWLINE Name(y) NEWLINE EOF");
  EXPECT_EQ(lex("if a and \\\nb:\n    c\n"),
            "if Name(a) and Name(b) : NEWLINE INDENT Name(c) NEWLINE DEDENT EOF");
  EXPECT_EQ(lex("x = \\\r\n  1"), "Name(x) = Int(1) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, LineEndings) {
  EXPECT_EQ(lex("if a:\r\n    b\r\nc\r\n"), "if Name(a) : NEWLINE INDENT Name(b) NEWLINE DEDENT Name(c) NEWLINE EOF");
  EXPECT_EQ(span(toks[3].range), "1:6-2:1");
  EXPECT_EQ(sm.text(toks[3].range), "\r\n");
  EXPECT_EQ(lex("if a:\r    b\rc"), "if Name(a) : NEWLINE INDENT Name(b) NEWLINE DEDENT Name(c) NEWLINE EOF");
  EXPECT_EQ(span(toks[5].range), "2:5-2:6");
  EXPECT_EQ(lex("x # c\r\ny"), "Name(x) NEWLINE Name(y) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(lex("\xEF\xBB\xBFx = 1\n"), "Name(x) = Int(1) NEWLINE EOF");
  EXPECT_EQ(span(toks[0].range), "1:4-1:5");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, TabsConsistentlyUsed) {
  EXPECT_EQ(lex("if a:\n\tif b:\n\t\tc\n\td\n"),
            "if Name(a) : NEWLINE INDENT if Name(b) : NEWLINE INDENT Name(c) NEWLINE DEDENT Name(d) "
            "NEWLINE DEDENT EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

TEST_F(LexTest, FormFeedResetsIndentation) {
  // As in CPython: a form feed in the indentation resets the column count.
  EXPECT_EQ(lex("if a:\n    b\n  \f    c\n\fd\n"),
            "if Name(a) : NEWLINE INDENT Name(b) NEWLINE Name(c) NEWLINE DEDENT Name(d) NEWLINE EOF");
  EXPECT_EQ(lex("x\f= 1"), "Name(x) = Int(1) NEWLINE EOF");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

TEST_F(LexTest, UnexpectedIndentAfterNonBlockLineIsLeftToParser) {
  EXPECT_EQ(lex("x = 1\n    y = 2\n"),
            "Name(x) = Int(1) NEWLINE INDENT Name(y) = Int(2) NEWLINE DEDENT EOF");
  EXPECT_EQ(diags.error_count(), 0u);
}

// ------------------------------------------------------ indentation errors

TEST_F(LexTest, UnexpectedIndentAtStart) {
  EXPECT_EQ(lex("# header\n\n   x = 1\ny = 2\n"), "Name(x) = Int(1) NEWLINE Name(y) = Int(2) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0108 3:1-3:4");
  EXPECT_EQ(message(), "found an indented first line, expected it to start at column 1");
}

TEST_F(LexTest, UnexpectedIndentAtStartKeepsBlocksBalanced) {
  EXPECT_EQ(lex("  if a:\n    b\n  c\n"),
            "if Name(a) : NEWLINE INDENT Name(b) NEWLINE DEDENT Name(c) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0108 1:1-1:3");
}

TEST_F(LexTest, InconsistentDedent) {
  EXPECT_EQ(lex("if a:\n    b\n  c\nd\n"),
            "if Name(a) : NEWLINE INDENT Name(b) NEWLINE DEDENT Name(c) NEWLINE Name(d) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0106 3:1-3:3");
  EXPECT_EQ(message(),
            "dedent to width 2 does not match any outer indentation level, expected width 0");
}

TEST_F(LexTest, InconsistentDedentListsLevels) {
  lex("if a:\n  if b:\n      c\n    d\n");
  EXPECT_EQ(errors(), "E0106 4:1-4:5");
  EXPECT_EQ(message(),
            "dedent to width 4 does not match any outer indentation level, expected width 0 or 2");
  // Later lines at the same odd width are not reported again.
  lex("if a:\n    b\n  c\n  d\n");
  EXPECT_EQ(errors(), "E0106 4:1-4:5, E0106 3:1-3:3");
}

TEST_F(LexTest, TabSpaceAmbiguityOnSameLevel) {
  // A tab and eight spaces are the same width with tab size 8, not with 1.
  EXPECT_EQ(lex("if a:\n\tb\n        c\n"),
            "if Name(a) : NEWLINE INDENT Name(b) NEWLINE Name(c) NEWLINE DEDENT EOF");
  EXPECT_EQ(errors(), "E0107 3:1-3:9");
  EXPECT_EQ(message(),
            "indentation mixes tabs and spaces so its depth depends on the tab width, expected the "
            "same tabs and spaces as the enclosing lines");
}

TEST_F(LexTest, TabSpaceAmbiguityOnIndent) {
  // Deeper with tab size 8, shallower with tab size 1.
  lex("if a:\n    if b:\n\tc\n");
  EXPECT_EQ(errors(), "E0107 3:1-3:2");
}

TEST_F(LexTest, TabSpaceAmbiguityOnDedent) {
  EXPECT_EQ(lex("if a:\n\tif b:\n\t    c\n        d\n"),
            "if Name(a) : NEWLINE INDENT if Name(b) : NEWLINE INDENT Name(c) NEWLINE DEDENT Name(d) "
            "NEWLINE DEDENT EOF");
  EXPECT_EQ(errors(), "E0107 4:1-4:9");
}

TEST_F(LexTest, TabsAndSpacesConsistentlyMixedAreFine) {
  // The same mix on every line of a block is unambiguous.
  lex("if a:\n  \tb\n  \tc\n");
  EXPECT_EQ(diags.error_count(), 0u) << errors();
}

// ------------------------------------------------------------ bracket errors

TEST_F(LexTest, UnmatchedClosingBracketIsDropped) {
  EXPECT_EQ(lex("x = 1)\ny = 2\n"), "Name(x) = Int(1) NEWLINE Name(y) = Int(2) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0109 1:6-1:7");
  EXPECT_EQ(message(), "found ')' with no open bracket to close, expected no closing bracket");
}

TEST_F(LexTest, MismatchedClosingBracket) {
  // The `]` closes the `(` and becomes the `)` it needs, so the parser sees
  // balanced brackets and reports nothing more.
  EXPECT_EQ(lex("x = (1]\ny\n"), "Name(x) = ( Int(1) ) NEWLINE Name(y) NEWLINE EOF");
  EXPECT_EQ(span(toks[4].range), "1:7-1:8");
  EXPECT_EQ(errors(), "E0109 1:7-1:8");
  EXPECT_EQ(message(), "found ']' closing '(', expected ')'");
  const diag::Diagnostic& d = diags.diagnostics()[0];
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(span(d.labels[0].range), "1:5-1:6");
  EXPECT_EQ(d.labels[0].text, "opened here");
}

TEST_F(LexTest, MismatchedBracketClosesThroughForgottenCloser) {
  // `foo(a[1)`: the `)` closes both (the `[` with a zero-width `]`), so the
  // next line is a new logical line.
  EXPECT_EQ(lex("foo(a[1)\nbar\n"),
            "Name(foo) ( Name(a) [ Int(1) ] ) NEWLINE Name(bar) NEWLINE EOF");
  EXPECT_EQ(span(toks[5].range), "1:8-1:8");
  EXPECT_EQ(errors(), "E0109 1:8-1:9");
  EXPECT_EQ(span(diags.diagnostics()[0].labels[0].range), "1:6-1:7");
}

TEST_F(LexTest, EofInsideBracketPointsAtOpener) {
  EXPECT_EQ(lex("if a:\n    x = f(1, [2,\n  3\n"),
            "if Name(a) : NEWLINE INDENT Name(x) = Name(f) ( Int(1) , [ Int(2) , Int(3) NEWLINE DEDENT EOF");
  EXPECT_EQ(errors(), "E0112 2:14-2:15");
  EXPECT_EQ(message(), "found the end of the file inside '[', expected ']'");
}

// ------------------------------------------------------- other lex errors

TEST_F(LexTest, StrayBackslash) {
  EXPECT_EQ(lex("x = 1 \\ + 2\n"), "Name(x) = Int(1) + Int(2) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0111 1:7-1:8");
  EXPECT_EQ(message(), "found ' ' after the line continuation backslash, expected the end of the line");
}

TEST_F(LexTest, BackslashAtEof) {
  EXPECT_EQ(lex("x = 1 \\"), "Name(x) = Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0111 1:7-1:8");
  EXPECT_EQ(message(),
            "found a line continuation backslash at the end of the file, expected another line after it");
}

TEST_F(LexTest, BackslashOnTheLastLine) {
  // Python: "unexpected EOF while parsing" (the continuation joins no line).
  EXPECT_EQ(lex("x = 1 \\\n"), "Name(x) = Int(1) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0111 1:7-1:8");
  EXPECT_EQ(message(), "found a line continuation backslash on the last line of the file, expected another line after it");
}

TEST_F(LexTest, StrayCharacters) {
  EXPECT_EQ(lex("a $ b ? c ! d ` e"), "Name(a) Name(b) Name(c) Name(d) Name(e) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0101 1:3-1:4, E0101 1:7-1:8, E0101 1:11-1:12, E0101 1:15-1:16");
  EXPECT_EQ(message(0), "found character '$', expected a name, literal, operator or delimiter");
  EXPECT_EQ(message(2), "found '!' on its own, expected '!=' or the keyword 'not'");
}

TEST_F(LexTest, StrayControlAndNullBytes) {
  lex(std::string("a\vb\0c", 5));
  EXPECT_EQ(render(toks), "Name(a) Name(b) Name(c) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0101 1:2-1:3, E0101 1:4-1:5");
  EXPECT_EQ(message(0), "found character U+000B, expected a name, literal, operator or delimiter");
  EXPECT_EQ(message(1), "found a null byte, expected a name, literal, operator or delimiter");
}

TEST_F(LexTest, NonIdentifierUnicodeCharacters) {
  // U+2192 RIGHTWARDS ARROW, U+00A0 NO-BREAK SPACE, U+3000 IDEOGRAPHIC SPACE, U+201C quote.
  EXPECT_EQ(lex("a → b\xC2\xA0" "c\xE3\x80\x80" "d \xE2\x80\x9C" "e"),
            "Name(a) Name(b) Name(c) Name(d) Name(e) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0101 1:3-1:6, E0101 1:8-1:10, E0101 1:11-1:14, E0101 1:16-1:19");
  EXPECT_EQ(message(0), "found character U+2192 '→', expected a name, literal, operator or delimiter");
}

TEST_F(LexTest, InvalidUtf8InCode) {
  // 0xE9 is Latin-1 'é'; 0xC0 0x80 is an overlong NUL; 0xE4 0xB8 is truncated.
  EXPECT_EQ(lex("x = \xE9\ny = \xC0\x80\nz = \xE4\xB8"), "Name(x) = NEWLINE Name(y) = NEWLINE Name(z) = NEWLINE EOF");
  EXPECT_EQ(errors(), "E0110 1:5-1:6, E0110 2:5-2:6, E0110 2:6-2:7, E0110 3:5-3:6, E0110 3:6-3:7");
  EXPECT_EQ(message(0), "found byte 0xE9 that is not valid UTF-8, expected UTF-8 encoded text");
}

TEST_F(LexTest, InvalidUtf8InStringAndComment) {
  EXPECT_EQ(lex("s = 'a\xFF" "b'  # c\xED\xA0\x80\n"), "Name(s) = Str(ab) NEWLINE EOF");
  // ED A0 80 would encode a surrogate: each byte is reported.
  EXPECT_EQ(errors(), "E0110 1:7-1:8, E0110 1:15-1:16, E0110 1:16-1:17, E0110 1:17-1:18");
}

TEST_F(LexTest, InvalidUtf8InsideName) {
  EXPECT_EQ(lex("ab\xFF" "cd"), "Name(ab) Name(cd) NEWLINE EOF");
  EXPECT_EQ(errors(), "E0110 1:3-1:4");
}

// ------------------------------------------------------ diagnostic coverage

TEST_F(LexTest, EveryLexerDiagnosticKindIsProducible) {
  // One snippet per E01xx kind; a new kind must be added here (and given a
  // full test above) or this test fails.
  const std::pair<const char*, std::string> cases[] = {
      {"E0101", "$"},          {"E0102", "'abc"},      {"E0103", "'\\x'"},
      {"E0104", "f'{}'"},       {"E0105", "0x"},        {"E0106", "if a:\n  b\n c\n"},
      {"E0107", "if a:\n\tb\n        c\n"},         {"E0108", " x"},
      {"E0109", ")"},          {"E0110", "\xFF"},      {"E0111", "\\ x"},
      {"E0112", "(x"},         {"E0113", "b'\xC3\xA9'"},
  };
  size_t covered = 0;
  for (const auto& [code, src] : cases) {
    SCOPED_TRACE(code);
    size_t before = diags.diagnostics().size();
    lex(src);
    ASSERT_EQ(diags.diagnostics().size(), before + 1) << errors();
    EXPECT_EQ(diag::info(diags.diagnostics().back().kind).code, code);
    ++covered;
  }
  size_t lexer_kinds = 0;
  for (const diag::KindInfo& k : diag::all_kinds())
    if (k.code.substr(0, 3) == "E01") ++lexer_kinds;
  EXPECT_EQ(covered, lexer_kinds);
}

// ---------------------------------------------------------------- recovery

TEST_F(LexTest, EveryPrefixOfAProgramLexesToAWellFormedStream) {
  // Truncating a program anywhere (inside strings, brackets, blocks, escapes)
  // must still give balanced DEDENTs and a final EOF; lex() checks that.
  const std::string program =
      "import tileslc.cute as cute\n"
      "@cute.kernel\n"
      "def k(gA: cute.Tensor, n: int = 0x1_0):\n"
      "    \"\"\"doc\n"
      "    string\"\"\"\n"
      "    for i in range(n):  # loop\n"
      "        if i % 2 == 0 and (i >>\n"
      "                          1) != 3:\n"
      "            gA[i] **= 2.5e-3 + \\\n"
      "                1j\n"
      "        else:\n"
      "\tpass\n"
      "    s = b'\\x00' + r'\\d' + '\\u00e9'\n"
      "  return f'{x}'\n";
  for (size_t len = 0; len <= program.size(); ++len) {
    SCOPED_TRACE(len);
    lex(program.substr(0, len));
  }
}

TEST_F(LexTest, GarbageInputStaysWellFormed) {
  const char* inputs[] = {
      "(((", ")))", "]]}{[(", "'''", "\"", "\\", "\\\\\\", "\t\t x\n y\n  z\n",
      "if x:\n        a\n    b\n  c\n d\n", "\xFF\xFE\xFD", "0x0b0o_", "1e+e-1..2",
      "f'{'", "f'''{\n", "b'\\", "  \n\t\f \n", "'\\N{", "(\n  if x:\n    y\n", "\r\r\n\n\r",
  };
  for (const char* in : inputs) {
    SCOPED_TRACE(in);
    lex(in);
  }
  EXPECT_TRUE(diags.has_errors());
}

TEST_F(LexTest, RandomFragmentSoupStaysWellFormed) {
  // Deterministic pseudo-random programs glued from fragments that stress
  // every state of the lexer; lex() checks the stream invariants each time.
  const std::string fragments[] = {
      "\n", "\r\n", "\r", "    ", "\t", "\f", "  ", "#c", "\\", "\\\n", "(", ")", "[", "]",
      "{", "}", "'", "\"", "'''", "\"\"\"", "r'", "b\"", "f'", "{x}", "\\x4", "\\N{", "\\u12",
      "0x", "0b1", "1_", "1e", "09", "1.5j", ".5", "...", "**=", "->", "!", "$", "if x:", "def",
      "\xC3\xA9", "\xFF", "\xE2\x86\x92", "\xEF\xBB\xBF", std::string(1, '\0'),
  };
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 2000; ++i) {
    std::string src;
    uint32_t n = next() >> 27;  // 0..31 fragments
    for (uint32_t j = 0; j < n; ++j) src += fragments[(next() >> 16) % std::size(fragments)];
    SCOPED_TRACE(escape(src));
    lex(src);
  }
}

TEST_F(LexTest, LargeFileIsFast) {
  std::string line = "    x_1 = foo(a, b[i + 1], 3.5e-2) * 0xFF  # comment\n";
  std::string src = "def f():\n";
  while (src.size() < 1'000'000) src += line;
  auto t0 = std::chrono::steady_clock::now();
  lex(src);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(diags.error_count(), 0u);
  EXPECT_GT(toks.size(), 300'000u);
  // 1 MB of source: far more than a real file; generous bound for slow builds (ten times that
  // under ASan + UBSan, which took 2765 ms on a loaded 2-core machine).
#ifdef TILESLC_SANITIZED
  EXPECT_LT(ms, 20000);
#else
  EXPECT_LT(ms, 2000);
#endif
}

}  // namespace
}  // namespace tileslc::lex
