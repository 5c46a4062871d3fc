// Expressions, from Python's lowest precedence (conditional expressions) to
// atoms, one method per grammar rule; literals (int64 integers, floats,
// concatenated strings, f-strings); calls, attributes, subscripts and slices;
// lambda, comprehensions, generator expressions, set and dict displays,
// star-expressions, await, yield and walrus (parsed; sema reports those it
// cannot compile where it reaches them); E0206 for imaginary and bytes
// literals.
// Node ranges run from the first token of the rule to the last one, as in
// Python's ast: `(a + b) * c` spans from '(' to 'c'; a group `(a)` is the
// inner node with the inner range.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "parse/parser.h"

namespace tileslc::parse {

using diag::Kind;

namespace {

bool or_op(TokenKind k, ast::BinOpKind& op) {
  if (k != TokenKind::Pipe) return false;
  op = ast::BinOpKind::BitOr;
  return true;
}
bool xor_op(TokenKind k, ast::BinOpKind& op) {
  if (k != TokenKind::Caret) return false;
  op = ast::BinOpKind::BitXor;
  return true;
}
bool and_op(TokenKind k, ast::BinOpKind& op) {
  if (k != TokenKind::Amp) return false;
  op = ast::BinOpKind::BitAnd;
  return true;
}
bool shift_op(TokenKind k, ast::BinOpKind& op) {
  switch (k) {
    case TokenKind::LeftShift: op = ast::BinOpKind::LShift; return true;
    case TokenKind::RightShift: op = ast::BinOpKind::RShift; return true;
    default: return false;
  }
}
bool sum_op(TokenKind k, ast::BinOpKind& op) {
  switch (k) {
    case TokenKind::Plus: op = ast::BinOpKind::Add; return true;
    case TokenKind::Minus: op = ast::BinOpKind::Sub; return true;
    default: return false;
  }
}
bool term_op(TokenKind k, ast::BinOpKind& op) {
  switch (k) {
    case TokenKind::Star: op = ast::BinOpKind::Mul; return true;
    case TokenKind::Slash: op = ast::BinOpKind::Div; return true;
    case TokenKind::DoubleSlash: op = ast::BinOpKind::FloorDiv; return true;
    case TokenKind::Percent: op = ast::BinOpKind::Mod; return true;
    case TokenKind::At: op = ast::BinOpKind::MatMul; return true;
    default: return false;
  }
}

enum class IntParse { Ok, Overflow, BadDigit };

/// Parses the lexer's integer text (decimal, 0x, 0o, 0b; underscores removed)
/// into an unsigned 64-bit value.
IntParse parse_uint64(std::string_view s, uint64_t& out) {
  unsigned base = 10;
  if (s.size() > 1 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x') base = 16;
    if (p == 'o') base = 8;
    if (p == 'b') base = 2;
    if (base != 10) s.remove_prefix(2);
  }
  if (s.empty()) return IntParse::BadDigit;
  uint64_t v = 0;
  for (char c : s) {
    if (c == '_') continue;
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = static_cast<unsigned>((c | 0x20) - 'a' + 10);
    else return IntParse::BadDigit;
    if (d >= base) return IntParse::BadDigit;
    if (v > (std::numeric_limits<uint64_t>::max() - d) / base) return IntParse::Overflow;
    v = v * base + d;
  }
  out = v;
  return IntParse::Ok;
}

constexpr uint64_t kInt64MinMagnitude = uint64_t{1} << 63;

}  // namespace

bool Parser::can_start_expression(TokenKind k) const {
  switch (k) {
    case TokenKind::Identifier:
    case TokenKind::Integer:
    case TokenKind::Float:
    case TokenKind::Imaginary:
    case TokenKind::String:
    case TokenKind::Error:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::LBrace:
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde:
    case TokenKind::Not:
    case TokenKind::Lambda:
    case TokenKind::Await:
    case TokenKind::Yield:
    case TokenKind::Star:
    case TokenKind::Ellipsis:
    case TokenKind::True:
    case TokenKind::False:
    case TokenKind::None:
      return true;
    default:
      return false;
  }
}

// star_expressions: star_expression (',' star_expression)* [',']
ExprPtr Parser::parse_star_expressions() {
  uint32_t begin = cur().range.begin;
  ExprPtr first = parse_star_expression();
  if (!first || !at(TokenKind::Comma)) return first;
  std::vector<ExprPtr> elts;
  elts.push_back(std::move(first));
  while (consume(TokenKind::Comma)) {
    if (!can_start_expression(cur().kind)) break;  // trailing comma
    ExprPtr e = parse_star_expression();
    if (!e) return nullptr;
    elts.push_back(std::move(e));
  }
  auto t = std::make_unique<ast::Tuple>(range_from(begin));
  t->elts = std::move(elts);
  return t;
}

// star_expression: '*' bitwise_or | expression
ExprPtr Parser::parse_star_expression() {
  if (!at(TokenKind::Star)) return parse_expression();
  const Token& star = advance();
  ExprPtr e = parse_bitwise_or();
  if (!e) return nullptr;
  auto st = std::make_unique<ast::Starred>(range_from(star.range.begin));
  st->value = std::move(e);
  return st;
}

// star_named_expression: '*' bitwise_or | named_expression
ExprPtr Parser::parse_star_named_expression() {
  if (at(TokenKind::Star)) return parse_star_expression();
  return parse_named_expression();
}

// named_expression: NAME ':=' expression | expression !':='
ExprPtr Parser::parse_named_expression() {
  uint32_t begin = cur().range.begin;
  ExprPtr e = parse_expression();
  if (!e || !at(TokenKind::ColonEqual)) return e;
  if (e->kind != ast::ExprKind::Name) {
    report(Kind::InvalidAssignTarget, e->range, "cannot use an assignment expression (:=) with this expression")
        ->help("the target of ':=' is a single name");
    return nullptr;
  }
  advance();
  ExprPtr value = parse_expression();
  if (!value) return nullptr;
  auto n = std::make_unique<ast::NamedExpr>(range_from(begin));
  n->target = std::move(e);
  n->value = std::move(value);
  return n;
}

// lambdef: 'lambda' [params] ':' expression
ExprPtr Parser::parse_lambda() {
  uint32_t begin = advance().range.begin;
  auto l = std::make_unique<ast::Lambda>(SourceRange{});
  if (!parse_params(l->params, TokenKind::Colon)) return nullptr;
  l->body = parse_expression();
  if (!l->body) return nullptr;
  l->range = range_from(begin);
  return l;
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
ExprPtr Parser::parse_yield() {
  uint32_t begin = advance().range.begin;
  auto y = std::make_unique<ast::Yield>(SourceRange{});
  if (consume(TokenKind::From)) {
    y->is_from = true;
    y->value = parse_expression();
    if (!y->value) return nullptr;
  } else if (can_start_expression(cur().kind)) {
    y->value = parse_star_expressions();
    if (!y->value) return nullptr;
  }
  y->range = range_from(begin);
  return y;
}

// expression: disjunction 'if' disjunction 'else' expression
//           | disjunction
//           | lambdef | yield_expr   (yield only where Python allows it: not checked)
ExprPtr Parser::parse_expression() {
  DepthGuard guard(expr_depth_);
  if (too_deep(expr_depth_, cur(), "expressions")) return nullptr;
  if (at(TokenKind::Lambda)) return parse_lambda();
  if (at(TokenKind::Yield)) return parse_yield();
  uint32_t begin = cur().range.begin;
  ExprPtr body = parse_disjunction();
  if (!body || !at(TokenKind::If)) return body;
  advance();
  ExprPtr test = parse_disjunction();
  if (!test) return nullptr;
  if (!expect(TokenKind::Else, "after the condition of a conditional expression")) return nullptr;
  ExprPtr orelse = parse_expression();
  if (!orelse) return nullptr;
  auto e = std::make_unique<ast::IfExp>(range_from(begin));
  e->test = std::move(test);
  e->body = std::move(body);
  e->orelse = std::move(orelse);
  return e;
}

// disjunction: conjunction ('or' conjunction)+ | conjunction
ExprPtr Parser::parse_disjunction() {
  uint32_t begin = cur().range.begin;
  ExprPtr first = parse_conjunction();
  if (!first || !at(TokenKind::Or)) return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consume(TokenKind::Or)) {
    ExprPtr e = parse_conjunction();
    if (!e) return nullptr;
    values.push_back(std::move(e));
  }
  auto e = std::make_unique<ast::BoolOp>(range_from(begin));
  e->op = ast::BoolOpKind::Or;
  e->values = std::move(values);
  return e;
}

// conjunction: inversion ('and' inversion)+ | inversion
ExprPtr Parser::parse_conjunction() {
  uint32_t begin = cur().range.begin;
  ExprPtr first = parse_inversion();
  if (!first || !at(TokenKind::And)) return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consume(TokenKind::And)) {
    ExprPtr e = parse_inversion();
    if (!e) return nullptr;
    values.push_back(std::move(e));
  }
  auto e = std::make_unique<ast::BoolOp>(range_from(begin));
  e->op = ast::BoolOpKind::And;
  e->values = std::move(values);
  return e;
}

// inversion: 'not' inversion | comparison
ExprPtr Parser::parse_inversion() {
  if (!at(TokenKind::Not)) return parse_comparison();
  const Token& kw = advance();
  DepthGuard guard(expr_depth_);
  if (too_deep(expr_depth_, cur(), "expressions")) return nullptr;
  ExprPtr operand = parse_inversion();
  if (!operand) return nullptr;
  auto e = std::make_unique<ast::UnaryOp>(range_from(kw.range.begin));
  e->op = ast::UnaryOpKind::Not;
  e->operand = std::move(operand);
  return e;
}

// comparison: bitwise_or compare_op_bitwise_or_pair+ | bitwise_or
// compare_op: '==' | '!=' | '<=' | '<' | '>=' | '>' | 'not' 'in' | 'in' | 'is' 'not' | 'is'
ExprPtr Parser::parse_comparison() {
  uint32_t begin = cur().range.begin;
  ExprPtr left = parse_bitwise_or();
  if (!left) return nullptr;
  std::unique_ptr<ast::Compare> cmp;
  while (true) {
    ast::CmpOpKind op;
    SourceRange op_range = cur().range;
    bool is_op = true;
    switch (cur().kind) {
      case TokenKind::EqualEqual: op = ast::CmpOpKind::Eq; break;
      case TokenKind::NotEqual: op = ast::CmpOpKind::NotEq; break;
      case TokenKind::Less: op = ast::CmpOpKind::Lt; break;
      case TokenKind::LessEqual: op = ast::CmpOpKind::LtE; break;
      case TokenKind::Greater: op = ast::CmpOpKind::Gt; break;
      case TokenKind::GreaterEqual: op = ast::CmpOpKind::GtE; break;
      case TokenKind::In: op = ast::CmpOpKind::In; break;
      case TokenKind::Is:
        op = ast::CmpOpKind::Is;
        if (peek().kind == TokenKind::Not) {
          op = ast::CmpOpKind::IsNot;
          advance();
          op_range = SourceRange::join(op_range, cur().range);
        }
        break;
      case TokenKind::Not:
        is_op = peek().kind == TokenKind::In;
        if (is_op) {
          op = ast::CmpOpKind::NotIn;
          advance();
          op_range = SourceRange::join(op_range, cur().range);
        }
        break;
      default:
        is_op = false;
    }
    if (!is_op) break;
    advance();
    if (!cmp) {
      cmp = std::make_unique<ast::Compare>(SourceRange{});
      cmp->left = std::move(left);
    }
    ExprPtr rhs = parse_bitwise_or();
    if (!rhs) return nullptr;
    cmp->ops.push_back(op);
    cmp->op_ranges.push_back(op_range);
    cmp->comparators.push_back(std::move(rhs));
  }
  if (!cmp) return left;
  cmp->range = range_from(begin);
  return cmp;
}

/// Left-associative binary operators: operand (op operand)*.
ExprPtr Parser::binary_left(ExprPtr (Parser::*operand)(), bool (*op_of)(TokenKind, ast::BinOpKind&)) {
  uint32_t begin = cur().range.begin;
  ExprPtr lhs = (this->*operand)();
  if (!lhs) return nullptr;
  ast::BinOpKind op;
  while (op_of(cur().kind, op)) {
    const Token& op_tok = advance();
    if (!bump_chain(op_tok)) return nullptr;
    ExprPtr rhs = (this->*operand)();
    if (!rhs) return nullptr;
    auto e = std::make_unique<ast::BinOp>(range_from(begin));
    e->op = op;
    e->op_range = op_tok.range;
    e->lhs = std::move(lhs);
    e->rhs = std::move(rhs);
    lhs = std::move(e);
  }
  return lhs;
}

// bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor
ExprPtr Parser::parse_bitwise_or() { return binary_left(&Parser::parse_bitwise_xor, or_op); }
// bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and
ExprPtr Parser::parse_bitwise_xor() { return binary_left(&Parser::parse_bitwise_and, xor_op); }
// bitwise_and: bitwise_and '&' shift_expr | shift_expr
ExprPtr Parser::parse_bitwise_and() { return binary_left(&Parser::parse_shift_expr, and_op); }
// shift_expr: shift_expr ('<<' | '>>') sum | sum
ExprPtr Parser::parse_shift_expr() { return binary_left(&Parser::parse_sum, shift_op); }
// sum: sum ('+' | '-') term | term
ExprPtr Parser::parse_sum() { return binary_left(&Parser::parse_term, sum_op); }
// term: term ('*' | '/' | '//' | '%' | '@') factor | factor
ExprPtr Parser::parse_term() { return binary_left(&Parser::parse_factor, term_op); }

// factor: '+' factor | '-' factor | '~' factor | power
ExprPtr Parser::parse_factor() {
  ast::UnaryOpKind op;
  switch (cur().kind) {
    case TokenKind::Plus: op = ast::UnaryOpKind::Pos; break;
    case TokenKind::Minus: op = ast::UnaryOpKind::Neg; break;
    case TokenKind::Tilde: op = ast::UnaryOpKind::Invert; break;
    default: return parse_power();
  }
  const Token& op_tok = advance();
  // -9223372036854775808 is the one int64 whose magnitude is not an int64:
  // fold it into a literal unless an operator binding tighter than '-' follows.
  if (op == ast::UnaryOpKind::Neg && at(TokenKind::Integer)) {
    uint64_t v = 0;
    TokenKind after = peek().kind;
    if (parse_uint64(cur().text, v) == IntParse::Ok && v == kInt64MinMagnitude &&
        after != TokenKind::DoubleStar && after != TokenKind::Dot && after != TokenKind::LParen &&
        after != TokenKind::LBracket) {
      advance();
      auto lit = std::make_unique<ast::IntLit>(range_from(op_tok.range.begin));
      lit->value = std::numeric_limits<int64_t>::min();
      return lit;
    }
  }
  DepthGuard guard(expr_depth_);
  if (too_deep(expr_depth_, cur(), "expressions")) return nullptr;
  ExprPtr operand = parse_factor();
  if (!operand) return nullptr;
  auto e = std::make_unique<ast::UnaryOp>(range_from(op_tok.range.begin));
  e->op = op;
  e->operand = std::move(operand);
  return e;
}

// power: await_primary '**' factor | await_primary
// await_primary: 'await' primary | primary
ExprPtr Parser::parse_power() {
  uint32_t begin = cur().range.begin;
  ExprPtr base;
  if (at(TokenKind::Await)) {
    advance();
    DepthGuard guard(expr_depth_);
    if (too_deep(expr_depth_, cur(), "expressions")) return nullptr;
    ExprPtr operand = parse_primary();
    if (!operand) return nullptr;
    auto a = std::make_unique<ast::Await>(range_from(begin));
    a->value = std::move(operand);
    base = std::move(a);
  } else {
    base = parse_primary();
  }
  if (!base || !at(TokenKind::DoubleStar)) return base;
  const Token& op_tok = advance();
  DepthGuard guard(expr_depth_);
  if (too_deep(expr_depth_, cur(), "expressions")) return nullptr;
  ExprPtr exponent = parse_factor();
  if (!exponent) return nullptr;
  auto e = std::make_unique<ast::BinOp>(range_from(begin));
  e->op = ast::BinOpKind::Pow;
  e->op_range = op_tok.range;
  e->lhs = std::move(base);
  e->rhs = std::move(exponent);
  return e;
}

// primary: primary '.' NAME | primary '(' [arguments] ')' | primary '[' slices ']' | atom
ExprPtr Parser::parse_primary() {
  uint32_t begin = cur().range.begin;
  ExprPtr e = parse_atom();
  if (!e) return nullptr;
  while (true) {
    if (at(TokenKind::Dot)) {
      if (!bump_chain(advance())) return nullptr;
      if (!at(TokenKind::Identifier)) {
        report_expected(Kind::ExpectedToken, "an attribute name after '.'");
        return nullptr;
      }
      const Token& name = advance();
      auto a = std::make_unique<ast::Attribute>(range_from(begin));
      a->value = std::move(e);
      a->attr = name.text;
      a->attr_range = name.range;
      e = std::move(a);
    } else if (at(TokenKind::LParen)) {
      if (!bump_chain(cur())) return nullptr;
      e = parse_call(std::move(e), begin);
      if (!e) return nullptr;
    } else if (at(TokenKind::LBracket)) {
      if (!bump_chain(advance())) return nullptr;
      DepthGuard brackets(bracket_depth_);
      ExprPtr index = parse_slices();
      if (!index) return nullptr;
      if (!expect(TokenKind::RBracket, "to close the subscript")) return nullptr;
      auto s = std::make_unique<ast::Subscript>(range_from(begin));
      s->value = std::move(e);
      s->index = std::move(index);
      e = std::move(s);
    } else {
      return e;
    }
  }
}

// arguments: args [','] &')'
// args: (starred_expression | named_expression !'=') (',' ...)* [',' kwargs] | kwargs
// kwarg: NAME '=' expression | '**' expression
// starred_expression: '*' expression
// genexp argument (the only argument): named_expression for_if_clauses
ExprPtr Parser::parse_call(ExprPtr func, uint32_t begin) {
  const Token& open = advance();  // '('
  DepthGuard brackets(bracket_depth_);
  auto call = std::make_unique<ast::Call>(SourceRange{});
  call->func = std::move(func);
  bool bad_arguments = false;  // an argument error was reported: no Call node
  bool reported_positional = false;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::DoubleStar)) {
      ast::Keyword k;
      k.name_range = advance().range;  // the '**'
      k.value = parse_expression();
      if (!k.value) return nullptr;
      call->keywords.push_back(std::move(k));
    } else if (at(TokenKind::Star)) {
      const Token& star = advance();
      ExprPtr e = parse_expression();
      if (!e) return nullptr;
      auto st = std::make_unique<ast::Starred>(range_from(star.range.begin));
      st->value = std::move(e);
      call->args.push_back(std::move(st));
    } else if (at(TokenKind::Identifier) && peek().kind == TokenKind::Equal) {
      ast::Keyword k;
      k.name_range = cur().range;
      k.name = advance().text;
      advance();  // '='
      k.value = parse_expression();
      if (!k.value) return nullptr;
      for (const auto& other : call->keywords) {
        if (other.name == k.name) {
          report(Kind::DuplicateKeywordArgument, k.name_range,
                 "keyword argument '" + k.name + "' repeated in call")
              ->label(other.name_range, "first given here");
          bad_arguments = true;
          break;
        }
      }
      call->keywords.push_back(std::move(k));
    } else {
      ExprPtr arg = parse_named_expression();
      if (!arg) return nullptr;
      if (at(TokenKind::For) || at(TokenKind::Async)) {
        // f(x for x in y): the generator's range is the call's parentheses, as in Python's ast.
        if (!call->args.empty() || !call->keywords.empty()) {
          report(Kind::ExpectedToken, arg->range,
                 "a generator expression must be parenthesized unless it is the only argument");
          return nullptr;
        }
        ExprPtr gen =
            parse_comprehension(ast::CompKind::Generator, std::move(arg), nullptr, open.range.begin, TokenKind::RParen);
        if (!gen) return nullptr;
        call->args.push_back(std::move(gen));
        call->range = range_from(begin);
        return call;
      }
      if (!call->keywords.empty() && !reported_positional) {
        // Once per call: the positionals after the first one are the same mistake.
        const ast::Keyword& last = call->keywords.back();
        report(Kind::PositionalAfterKeyword, arg->range,
               last.name.empty() ? std::string("positional argument follows keyword argument unpacking")
                                 : "positional argument follows keyword argument '" + last.name + "'")
            ->label(last.name_range, last.name.empty() ? "unpacked here" : "keyword argument here");
        bad_arguments = reported_positional = true;
      }
      call->args.push_back(std::move(arg));
    }
    if (!consume(TokenKind::Comma)) break;
  }
  if (!at(TokenKind::RParen)) {
    report_expected(Kind::ExpectedToken, "',' or ')' after a call argument");
    return nullptr;
  }
  advance();
  if (bad_arguments) return nullptr;
  call->range = range_from(begin);
  return call;
}

// slices: slice !',' | ','.(slice | starred_expression)+ [',']
ExprPtr Parser::parse_slices() {
  uint32_t begin = cur().range.begin;
  ExprPtr first = parse_slice();
  if (!first || !at(TokenKind::Comma)) return first;
  std::vector<ExprPtr> elts;
  elts.push_back(std::move(first));
  while (consume(TokenKind::Comma)) {
    if (at(TokenKind::RBracket)) break;
    ExprPtr e = parse_slice();
    if (!e) return nullptr;
    elts.push_back(std::move(e));
  }
  auto t = std::make_unique<ast::Tuple>(range_from(begin));
  t->elts = std::move(elts);
  return t;
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression
ExprPtr Parser::parse_slice() {
  if (at(TokenKind::Star)) return parse_star_expression();
  uint32_t begin = cur().range.begin;
  ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    lower = parse_named_expression();
    if (!lower || !at(TokenKind::Colon)) return lower;
  }
  advance();  // ':'
  auto ends_part = [this] {
    return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RBracket);
  };
  ExprPtr upper, step;
  if (!ends_part()) {
    upper = parse_expression();
    if (!upper) return nullptr;
  }
  if (consume(TokenKind::Colon) && !ends_part()) {
    step = parse_expression();
    if (!step) return nullptr;
  }
  auto s = std::make_unique<ast::Slice>(range_from(begin));
  s->lower = std::move(lower);
  s->upper = std::move(upper);
  s->step = std::move(step);
  return s;
}

// atom: NAME | 'True' | 'False' | 'None' | strings | NUMBER | '...'
//     | (tuple | group | genexp) | (list | listcomp) | (dict | set | dictcomp | setcomp)
ExprPtr Parser::parse_atom() {
  const Token& t = cur();
  switch (t.kind) {
    case TokenKind::Identifier: {
      advance();
      auto e = std::make_unique<ast::Name>(t.range);
      e->id = t.text;
      return e;
    }
    case TokenKind::True:
    case TokenKind::False: {
      advance();
      auto e = std::make_unique<ast::BoolLit>(t.range);
      e->value = t.kind == TokenKind::True;
      return e;
    }
    case TokenKind::None: advance(); return std::make_unique<ast::NoneLit>(t.range);
    case TokenKind::Ellipsis: advance(); return std::make_unique<ast::EllipsisLit>(t.range);
    case TokenKind::Integer:
    case TokenKind::Float: return parse_number();
    case TokenKind::Imaginary:
      unsupported(t.range, "imaginary literals are not supported in tileslc");
      return nullptr;
    case TokenKind::String: return parse_strings();
    case TokenKind::LParen: return parse_paren();
    case TokenKind::LBracket: return parse_list();
    case TokenKind::LBrace: return parse_brace();
    case TokenKind::Lambda: return parse_lambda();
    case TokenKind::Yield: return parse_yield();
    default:
      report_expected(Kind::ExpectedExpression, "an expression");
      return nullptr;
  }
}

// NUMBER: an integer (int64) or float literal
ExprPtr Parser::parse_number() {
  const Token& t = advance();
  if (t.kind == TokenKind::Float) {
    const char* text = t.text.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(text, &end);
    if (end == text || *end != '\0') {
      report(Kind::InvalidNumber, t.range, "expected a float literal, found '" + t.text + "'");
      return nullptr;
    }
    auto e = std::make_unique<ast::FloatLit>(t.range);
    e->value = v;
    return e;
  }
  uint64_t v = 0;
  IntParse r = parse_uint64(t.text, v);
  if (r == IntParse::BadDigit) {
    report(Kind::InvalidNumber, t.range, "expected an integer literal, found '" + t.text + "'");
    return nullptr;
  }
  if (r == IntParse::Overflow || v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    report(Kind::InvalidNumber, t.range,
           "integer literal " + t.text +
               " does not fit in 64 bits, expected at most 9223372036854775807");
    return nullptr;
  }
  auto e = std::make_unique<ast::IntLit>(t.range);
  e->value = static_cast<int64_t>(v);
  return e;
}

namespace {

/// Appends literal text to a JoinedStr's parts, merging it into a literal
/// that ends the parts already (as Python's ast has one Constant there).
void add_literal(std::vector<ExprPtr>& parts, std::string text, SourceRange r) {
  if (text.empty()) return;
  if (!parts.empty())
    if (auto* last = parts.back()->as<ast::StrLit>()) {
      last->value += text;
      last->range = SourceRange::join(last->range, r);
      return;
    }
  auto lit = std::make_unique<ast::StrLit>(r);
  lit->value = std::move(text);
  parts.push_back(std::move(lit));
}

}  // namespace

// strings: STRING+   (adjacent literals concatenate; with an f-string among
// them they make one JoinedStr; bytes are E0206)
ExprPtr Parser::parse_strings() {
  const uint32_t begin = cur().range.begin;
  std::string value;
  bool bytes = false;
  bool joined = false;
  bool ok = true;
  std::vector<ExprPtr> parts;  // once joined: StrLit and FormattedValue
  while (at(TokenKind::String)) {
    const Token& t = advance();
    if (t.is_bytes && !bytes) {
      unsupported(t.range, "bytes literals are not supported in tileslc");
      bytes = true;
    }
    if (!t.fstring) {
      if (joined)
        add_literal(parts, t.text, t.range);
      else
        value += t.text;
      continue;
    }
    if (!joined) add_literal(parts, std::move(value), {file_, begin, t.range.begin});
    joined = true;
    ok = parse_fstring_parts(*t.fstring, parts) && ok;
  }
  if (bytes || !ok) return nullptr;
  if (!joined) {
    auto e = std::make_unique<ast::StrLit>(range_from(begin));
    e->value = std::move(value);
    return e;
  }
  auto j = std::make_unique<ast::JoinedStr>(range_from(begin));
  j->values = std::move(parts);
  return j;
}

bool Parser::parse_fstring_parts(const std::vector<lex::FStringPart>& parts, std::vector<ExprPtr>& out) {
  bool ok = true;
  for (const auto& part : parts) {
    if (!part.is_field) {
      add_literal(out, part.literal, part.range);
      continue;
    }
    auto f = std::make_unique<ast::FormattedValue>(part.range);
    f->value = parse_fstring_field(part);
    f->conversion = part.conversion;
    if (part.has_spec) {
      auto spec = std::make_unique<ast::JoinedStr>(part.range);
      ok = parse_fstring_parts(part.spec, spec->values) && ok;
      if (!spec->values.empty())
        spec->range = SourceRange::join(spec->values.front()->range, spec->values.back()->range);
      f->format_spec = std::move(spec);
    }
    if (!f->value) {
      ok = false;
      continue;
    }
    out.push_back(std::move(f));
  }
  return ok;
}

// fstring_replacement_field: '{' (yield_expr | star_expressions) ['='] ['!' NAME] [':' format_spec] '}'
ExprPtr Parser::parse_fstring_field(const lex::FStringPart& field) {
  Parser sub(field.tokens, file_, diags_, sm_);
  sub.expr_depth_ = expr_depth_;
  ExprPtr e = sub.at(TokenKind::Yield) ? sub.parse_yield() : sub.parse_star_expressions();
  if (!e) return nullptr;
  if (!sub.at(TokenKind::EndOfFile)) {
    sub.report(Kind::ExpectedToken, sub.cur().range,
               "expected '}', '!' or ':' after the f-string field's expression, found " + describe(sub.cur()));
    return nullptr;
  }
  return e;
}

// for_if_clauses: for_if_clause+
// for_if_clause: ['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*
ExprPtr Parser::parse_comprehension(ast::CompKind kind, ExprPtr elt, ExprPtr value, uint32_t begin, TokenKind close) {
  auto c = std::make_unique<ast::Comp>(SourceRange{});
  c->comp = kind;
  c->elt = std::move(elt);
  c->value = std::move(value);
  while (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For)) {
    ast::Comprehension g;
    g.is_async = consume(TokenKind::Async);
    advance();  // 'for'
    g.target = parse_for_targets();
    if (!g.target) return nullptr;
    if (!expect(TokenKind::In, "after the comprehension's target")) return nullptr;
    if (!check_target(*g.target, true, "assign to")) return nullptr;
    g.iter = parse_disjunction();
    if (!g.iter) return nullptr;
    while (consume(TokenKind::If)) {
      ExprPtr cond = parse_disjunction();
      if (!cond) return nullptr;
      g.ifs.push_back(std::move(cond));
    }
    c->generators.push_back(std::move(g));
  }
  if (!expect(close, "to close the comprehension")) return nullptr;
  c->range = range_from(begin);
  return c;
}

// tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
// group: '(' named_expression ')'
// genexp: '(' named_expression for_if_clauses ')'
ExprPtr Parser::parse_paren() {
  uint32_t begin = advance().range.begin;
  DepthGuard brackets(bracket_depth_);
  if (consume(TokenKind::RParen)) {
    auto t = std::make_unique<ast::Tuple>(range_from(begin));
    t->parenthesized = true;
    return t;
  }
  ExprPtr first = parse_star_named_expression();
  if (!first) return nullptr;
  if (at(TokenKind::For) || at(TokenKind::Async))
    return parse_comprehension(ast::CompKind::Generator, std::move(first), nullptr, begin, TokenKind::RParen);
  if (consume(TokenKind::RParen)) return first;  // a group
  if (!at(TokenKind::Comma)) {
    report_expected(Kind::ExpectedToken, "')' to close '('");
    return nullptr;
  }
  std::vector<ExprPtr> elts;
  elts.push_back(std::move(first));
  while (consume(TokenKind::Comma)) {
    if (at(TokenKind::RParen)) break;
    ExprPtr e = parse_star_named_expression();
    if (!e) return nullptr;
    elts.push_back(std::move(e));
  }
  if (!expect(TokenKind::RParen, "or ',' in a tuple")) return nullptr;
  auto t = std::make_unique<ast::Tuple>(range_from(begin));
  t->elts = std::move(elts);
  t->parenthesized = true;
  return t;
}

// list: '[' [star_named_expressions] ']'
// listcomp: '[' named_expression for_if_clauses ']'
ExprPtr Parser::parse_list() {
  uint32_t begin = advance().range.begin;
  DepthGuard brackets(bracket_depth_);
  std::vector<ExprPtr> elts;
  if (!at(TokenKind::RBracket)) {
    ExprPtr first = parse_star_named_expression();
    if (!first) return nullptr;
    if (at(TokenKind::For) || at(TokenKind::Async))
      return parse_comprehension(ast::CompKind::List, std::move(first), nullptr, begin, TokenKind::RBracket);
    elts.push_back(std::move(first));
    while (consume(TokenKind::Comma)) {
      if (at(TokenKind::RBracket)) break;
      ExprPtr e = parse_star_named_expression();
      if (!e) return nullptr;
      elts.push_back(std::move(e));
    }
  }
  if (!expect(TokenKind::RBracket, "or ',' in a list")) return nullptr;
  auto l = std::make_unique<ast::List>(range_from(begin));
  l->elts = std::move(elts);
  return l;
}

// dict: '{' [double_starred_kvpair (',' double_starred_kvpair)* [',']] '}'
// double_starred_kvpair: '**' bitwise_or | expression ':' expression
// set: '{' star_named_expressions '}'
// dictcomp: '{' kvpair for_if_clauses '}'
// setcomp: '{' named_expression for_if_clauses '}'
ExprPtr Parser::parse_brace() {
  uint32_t begin = advance().range.begin;
  DepthGuard brackets(bracket_depth_);
  if (consume(TokenKind::RBrace)) return std::make_unique<ast::Dict>(range_from(begin));
  // The first item decides: `**m` or `k: v` make a dict, anything else a set.
  bool is_dict = at(TokenKind::DoubleStar);
  std::vector<ExprPtr> keys, values;
  if (!is_dict) {
    ExprPtr first = parse_star_named_expression();
    if (!first) return nullptr;
    if (first->kind != ast::ExprKind::Starred && at(TokenKind::Colon)) {
      is_dict = true;
      advance();
      ExprPtr value = parse_expression();
      if (!value) return nullptr;
      if (at(TokenKind::For) || at(TokenKind::Async))
        return parse_comprehension(ast::CompKind::Dict, std::move(first), std::move(value), begin, TokenKind::RBrace);
      keys.push_back(std::move(first));
      values.push_back(std::move(value));
      if (!consume(TokenKind::Comma)) {
        if (!expect(TokenKind::RBrace, "or ',' in a dict")) return nullptr;
        auto d = std::make_unique<ast::Dict>(range_from(begin));
        d->keys = std::move(keys);
        d->values = std::move(values);
        return d;
      }
    } else {
      if (at(TokenKind::For) || at(TokenKind::Async))
        return parse_comprehension(ast::CompKind::Set, std::move(first), nullptr, begin, TokenKind::RBrace);
      auto set = std::make_unique<ast::Set>(SourceRange{});
      set->elts.push_back(std::move(first));
      while (consume(TokenKind::Comma)) {
        if (at(TokenKind::RBrace)) break;
        ExprPtr e = parse_star_named_expression();
        if (!e) return nullptr;
        set->elts.push_back(std::move(e));
      }
      if (!expect(TokenKind::RBrace, "or ',' in a set")) return nullptr;
      set->range = range_from(begin);
      return set;
    }
  }
  while (!at(TokenKind::RBrace)) {
    if (consume(TokenKind::DoubleStar)) {
      ExprPtr e = parse_bitwise_or();
      if (!e) return nullptr;
      keys.push_back(nullptr);
      values.push_back(std::move(e));
    } else {
      ExprPtr key = parse_expression();
      if (!key) return nullptr;
      if (!expect(TokenKind::Colon, "after a dict key")) return nullptr;
      ExprPtr value = parse_expression();
      if (!value) return nullptr;
      keys.push_back(std::move(key));
      values.push_back(std::move(value));
    }
    if (!consume(TokenKind::Comma)) break;
  }
  if (!expect(TokenKind::RBrace, "or ',' in a dict")) return nullptr;
  auto d = std::make_unique<ast::Dict>(range_from(begin));
  d->keys = std::move(keys);
  d->values = std::move(values);
  return d;
}

}  // namespace tileslc::parse
