// @cutlass.cost expressions to C++ (cost_expr.h): a recursive-descent parser over Python's
// arithmetic grammar (https://docs.python.org/3/reference/expressions.html#operator-precedence):
//   sum    := term (('+' | '-') term)*
//   term   := factor (('*' | '/' | '//' | '%') factor)*
//   factor := ('+' | '-') factor | power
//   power  := atom ['**' factor]
//   atom   := NUMBER | NAME | '(' sum ')'
#include "ir/cost_expr.h"

#include <cctype>

namespace tileslc::ir {

namespace {

class CostParser {
 public:
  CostParser(const std::string& text, const std::function<std::optional<std::string>(const std::string&)>& name,
             const std::string& hint)
      : s_(text), name_(name), hint_(hint) {}

  std::string run(CostExprError* err) {
    std::string out = sum();
    skip();
    if (!failed_ && pos_ < s_.size()) fail("unexpected '" + s_.substr(pos_, 1) + "'");
    if (failed_) {
      if (err) *err = error_;
      return "";
    }
    return out;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool eat(const char* op) {
    skip();
    const std::string o(op);
    if (s_.compare(pos_, o.size(), o) != 0) return false;
    // '*' must not take the first half of '**', nor '/' of '//'.
    if ((o == "*" || o == "/") && pos_ + 1 < s_.size() && s_[pos_ + 1] == o[0]) return false;
    pos_ += o.size();
    return true;
  }
  std::string fail(std::string msg) {
    if (!failed_) error_ = {std::move(msg), pos_};
    failed_ = true;
    return "0.0";
  }

  std::string sum() {
    std::string l = term();
    for (;;) {
      if (eat("+")) l = "(" + l + " + " + term() + ")";
      else if (eat("-")) l = "(" + l + " - " + term() + ")";
      else return l;
    }
  }
  std::string term() {
    std::string l = factor();
    for (;;) {
      if (eat("//")) l = "std::floor(" + l + " / " + factor() + ")";
      else if (eat("*")) l = "(" + l + " * " + factor() + ")";
      else if (eat("/")) l = "(" + l + " / " + factor() + ")";
      else if (eat("%")) {  // Python's: the result takes the divisor's sign
        std::string r = factor();
        l = "(" + l + " - " + r + " * std::floor(" + l + " / " + r + "))";
      } else return l;
    }
  }
  std::string factor() {
    if (eat("-")) return "(-" + factor() + ")";
    if (eat("+")) return factor();
    return power();
  }
  std::string power() {
    std::string base = atom();
    if (eat("**")) return "std::pow(" + base + ", " + factor() + ")";
    return base;
  }
  std::string atom() {
    skip();
    if (pos_ >= s_.size()) return fail("the expression ends where a number, a name or '(' should follow");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      std::string inner = sum();
      if (!eat(")")) return fail("expected ')'");
      return "(" + inner + ")";
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
      const size_t begin = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' || s_[pos_] == '_' ||
                                  ((s_[pos_] == '+' || s_[pos_] == '-') && (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E'))))
        ++pos_;
      std::string lit;
      for (size_t i = begin; i < pos_; ++i)
        if (s_[i] != '_') lit += s_[i];
      size_t used = 0;
      double v = 0;
      try {
        v = std::stod(lit, &used);
      } catch (...) {
        used = 0;
      }
      if (used != lit.size() || (lit.size() > 1 && lit[0] == '0' && std::isdigit(static_cast<unsigned char>(lit[1])))) {
        pos_ = begin;
        return fail("'" + s_.substr(begin, pos_ - begin) + "' is not a decimal number");
      }
      (void)v;
      return lit.find_first_of(".eE") == std::string::npos ? lit + ".0" : lit;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t begin = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const std::string id = s_.substr(begin, pos_ - begin);
      size_t after = pos_;
      while (after < s_.size() && s_[after] == ' ') ++after;
      if (after < s_.size() && s_[after] == '(') {
        pos_ = begin;
        return fail("'" + id + "(...)' is a call: a cost is arithmetic (+ - * / // % **) on numbers and names");
      }
      if (auto cpp = name_(id)) return "static_cast<double>(" + *cpp + ")";
      pos_ = begin;
      return fail("'" + id + "' is not " + hint_);
    }
    return fail("unexpected '" + std::string(1, c) + "': a cost is arithmetic (+ - * / // % **) on numbers and names");
  }

  const std::string& s_;
  const std::function<std::optional<std::string>(const std::string&)>& name_;
  const std::string& hint_;
  size_t pos_ = 0;
  bool failed_ = false;
  CostExprError error_;
};

}  // namespace

std::string translate_cost_expr(const std::string& text, const std::function<std::optional<std::string>(const std::string&)>& name,
                                const std::string& names_hint, CostExprError* error) {
  return CostParser(text, name, names_hint).run(error);
}

}  // namespace tileslc::ir
