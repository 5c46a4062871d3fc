// Statements: simple statements (expression statements, the assignment
// forms, return, pass, break, continue, assert, import, raise, del, global,
// nonlocal) and compound ones (if/elif/else, for, while, def and class with
// decorators, with, try/except/else/finally, async def/for/with). Those sema
// cannot compile are still parsed: sema reports them where it reaches them.
#include <optional>

#include "parse/parser.h"

namespace tileslc::parse {

using diag::Kind;

namespace {

bool aug_op(TokenKind k, ast::BinOpKind& op) {
  using B = ast::BinOpKind;
  switch (k) {
    case TokenKind::PlusEqual: op = B::Add; return true;
    case TokenKind::MinusEqual: op = B::Sub; return true;
    case TokenKind::StarEqual: op = B::Mul; return true;
    case TokenKind::SlashEqual: op = B::Div; return true;
    case TokenKind::DoubleSlashEqual: op = B::FloorDiv; return true;
    case TokenKind::PercentEqual: op = B::Mod; return true;
    case TokenKind::DoubleStarEqual: op = B::Pow; return true;
    case TokenKind::AtEqual: op = B::MatMul; return true;
    case TokenKind::LeftShiftEqual: op = B::LShift; return true;
    case TokenKind::RightShiftEqual: op = B::RShift; return true;
    case TokenKind::PipeEqual: op = B::BitOr; return true;
    case TokenKind::CaretEqual: op = B::BitXor; return true;
    case TokenKind::AmpEqual: op = B::BitAnd; return true;
    default: return false;
  }
}

/// "a function call", "a literal", ... for E0205 messages.
const char* describe_target(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Call: return "a function call";
    case K::IntLit:
    case K::FloatLit:
    case K::StrLit: return "a literal";
    case K::BoolLit: return e.as<ast::BoolLit>()->value ? "True" : "False";
    case K::NoneLit: return "None";
    case K::EllipsisLit: return "'...'";
    case K::Tuple: return "a tuple";
    case K::List: return "a list";
    case K::Dict: return "a dict literal";
    case K::Slice: return "a slice";
    case K::BinOp:
    case K::UnaryOp: return "an operator expression";
    case K::BoolOp: return "a boolean expression";
    case K::Compare: return "a comparison";
    case K::IfExp: return "a conditional expression";
    case K::Lambda: return "a lambda";
    case K::Comp: return "a comprehension";
    case K::Set: return "a set display";
    case K::JoinedStr: return "an f-string";
    case K::NamedExpr: return "an assignment expression";
    case K::Yield: return "a yield expression";
    case K::Await: return "an await expression";
    default: return "this expression";
  }
}

}  // namespace

bool Parser::check_target(const ast::Expr& e, bool allow_sequence, std::string_view verb) {
  switch (e.kind) {
    case ast::ExprKind::Name:
    case ast::ExprKind::Attribute:
    case ast::ExprKind::Subscript:
      return true;
    case ast::ExprKind::Starred:
      if (!allow_sequence) break;
      return check_target(*e.as<ast::Starred>()->value, false, verb);
    case ast::ExprKind::Tuple:
      if (!allow_sequence) break;
      for (const auto& elt : e.as<ast::Tuple>()->elts)
        if (!check_target(*elt, true, verb)) return false;
      return true;
    case ast::ExprKind::List:
      if (!allow_sequence) break;
      for (const auto& elt : e.as<ast::List>()->elts)
        if (!check_target(*elt, true, verb)) return false;
      return true;
    default:
      break;
  }
  report(Kind::InvalidAssignTarget, e.range,
         "cannot " + std::string(verb) + " " + describe_target(e))
      ->help(allow_sequence ? "a target is a name, an attribute, a subscript, or a tuple of targets"
                            : "a target here is a single name, attribute or subscript");
  return false;
}

// statement: compound_stmt | simple_stmts
// compound_stmt: function_def | if_stmt | for_stmt | while_stmt
//              | class_def | with_stmt | try_stmt | async_stmt
bool Parser::parse_statement(Body& out) {
  chain_ops_ = 0;
  StmtPtr s;
  const Token& t = cur();
  switch (t.kind) {
    case TokenKind::If: s = parse_if(false, 0); break;
    case TokenKind::While: s = parse_while(); break;
    case TokenKind::For: s = parse_for(); break;
    case TokenKind::Def: s = parse_function_def({}); break;
    case TokenKind::At: s = parse_decorated(); break;
    case TokenKind::Class: s = parse_class_def({}); break;
    case TokenKind::With: s = parse_with(nullptr); break;
    case TokenKind::Try: s = parse_try(); break;
    case TokenKind::Async: s = parse_async({}); break;
    case TokenKind::Elif:
    case TokenKind::Else:
    case TokenKind::Except:
    case TokenKind::Finally:
      report_expected(Kind::ExpectedStatement, "a statement");
      return false;
    default:
      return parse_simple_stmts(out);
  }
  if (!s) return false;
  out.push_back(std::move(s));
  return true;
}

// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
bool Parser::parse_simple_stmts(Body& out) {
  Body line;
  while (true) {
    chain_ops_ = 0;
    StmtPtr s = parse_simple_stmt();
    if (!s) return false;
    line.push_back(std::move(s));
    if (!consume(TokenKind::Semicolon)) break;
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile)) break;
  }
  if (!consume(TokenKind::Newline) && !at(TokenKind::EndOfFile)) {
    if (at(TokenKind::ColonEqual))
      unsupported(cur().range, "assignment expressions (:=) are not supported in tileslc");
    else
      report_expected(Kind::ExpectedToken, "a newline or ';' after the statement");
    return false;
  }
  for (auto& s : line) out.push_back(std::move(s));
  return true;
}

// simple_stmt: assignment | star_expressions | return_stmt | import_stmt
//            | 'pass' | 'break' | 'continue' | assert_stmt
//            | raise_stmt | del_stmt | global_stmt | nonlocal_stmt
StmtPtr Parser::parse_simple_stmt() {
  const Token& t = cur();
  switch (t.kind) {
    case TokenKind::Pass: advance(); return std::make_unique<ast::Pass>(t.range);
    case TokenKind::Break: advance(); return std::make_unique<ast::Break>(t.range);
    case TokenKind::Continue: advance(); return std::make_unique<ast::Continue>(t.range);
    case TokenKind::Return: return parse_return();
    case TokenKind::Assert: return parse_assert();
    case TokenKind::Import: return parse_import();
    case TokenKind::From: return parse_import_from();
    case TokenKind::Global:
    case TokenKind::Nonlocal: return parse_global();
    case TokenKind::Del: return parse_del();
    case TokenKind::Raise: return parse_raise();
    default:
      if (!can_start_expression(t.kind)) {
        report_expected(Kind::ExpectedStatement, "a statement");
        return nullptr;
      }
      return parse_expr_or_assign();
  }
}

// return_stmt: 'return' [star_expressions]
StmtPtr Parser::parse_return() {
  uint32_t begin = advance().range.begin;
  ExprPtr value;
  if (!at(TokenKind::Newline) && !at(TokenKind::Semicolon) && !at(TokenKind::EndOfFile)) {
    value = parse_star_expressions();
    if (!value) return nullptr;
  }
  auto s = std::make_unique<ast::Return>(range_from(begin));
  s->value = std::move(value);
  return s;
}

// assert_stmt: 'assert' expression [',' expression]
StmtPtr Parser::parse_assert() {
  uint32_t begin = advance().range.begin;
  ExprPtr test = parse_expression();
  if (!test) return nullptr;
  ExprPtr msg;
  if (consume(TokenKind::Comma)) {
    msg = parse_expression();
    if (!msg) return nullptr;
  }
  auto s = std::make_unique<ast::Assert>(range_from(begin));
  s->test = std::move(test);
  s->msg = std::move(msg);
  return s;
}

// dotted_name: NAME ('.' NAME)*
bool Parser::parse_dotted_name(std::string& name, SourceRange& range, std::string_view context) {
  if (!at(TokenKind::Identifier)) {
    report_expected(Kind::ExpectedToken, "a module name " + std::string(context));
    return false;
  }
  uint32_t begin = cur().range.begin;
  name = advance().text;
  while (at(TokenKind::Dot)) {
    advance();
    if (!at(TokenKind::Identifier)) {
      report_expected(Kind::ExpectedToken, "a name after '.'");
      return false;
    }
    name += "." + advance().text;
  }
  range = range_from(begin);
  return true;
}

// import_name: 'import' dotted_as_names
// dotted_as_names: dotted_as_name (',' dotted_as_name)*
// dotted_as_name: dotted_name ['as' NAME]
StmtPtr Parser::parse_import() {
  uint32_t begin = advance().range.begin;
  std::vector<ast::Alias> names;
  do {
    ast::Alias a;
    if (!parse_dotted_name(a.name, a.range, names.empty() ? "after 'import'" : "after ','"))
      return nullptr;
    if (consume(TokenKind::As)) {
      if (!at(TokenKind::Identifier)) {
        report_expected(Kind::ExpectedToken, "a name after 'as'");
        return nullptr;
      }
      a.asname = advance().text;
      a.range = range_from(a.range.begin);
    }
    names.push_back(std::move(a));
  } while (consume(TokenKind::Comma));
  auto s = std::make_unique<ast::Import>(range_from(begin));
  s->names = std::move(names);
  return s;
}

// import_from: 'from' ('.' | '...')* dotted_name 'import' import_from_targets
//            | 'from' ('.' | '...')+ 'import' import_from_targets
// import_from_targets: '(' import_from_as_names [','] ')'
//                    | import_from_as_names !','
//                    | '*'                                    (E0206)
// import_from_as_names: import_from_as_name (',' import_from_as_name)*
// import_from_as_name: NAME ['as' NAME]
StmtPtr Parser::parse_import_from() {
  uint32_t begin = advance().range.begin;
  auto s = std::make_unique<ast::ImportFrom>(SourceRange{});
  while (at(TokenKind::Dot) || at(TokenKind::Ellipsis))
    s->level += advance().kind == TokenKind::Dot ? 1 : 3;
  if (s->level == 0 || at(TokenKind::Identifier)) {
    if (!parse_dotted_name(s->module, s->module_range, "after 'from'")) return nullptr;
  }
  if (!expect(TokenKind::Import, "after the module name")) return nullptr;
  if (at(TokenKind::Star)) {
    unsupported(cur().range, "wildcard imports (import *) are not supported in tileslc");
    return nullptr;
  }
  bool parens = consume(TokenKind::LParen);
  std::optional<DepthGuard> brackets;
  if (parens) brackets.emplace(bracket_depth_);
  while (true) {
    if (!at(TokenKind::Identifier)) {
      report_expected(Kind::ExpectedToken, s->names.empty() ? "a name to import" : "a name to import after ','");
      return nullptr;
    }
    ast::Alias a;
    a.range = cur().range;
    a.name = advance().text;
    if (consume(TokenKind::As)) {
      if (!at(TokenKind::Identifier)) {
        report_expected(Kind::ExpectedToken, "a name after 'as'");
        return nullptr;
      }
      a.asname = advance().text;
      a.range = range_from(a.range.begin);
    }
    s->names.push_back(std::move(a));
    if (!consume(TokenKind::Comma)) break;
    if (parens && at(TokenKind::RParen)) break;
  }
  if (parens && !expect(TokenKind::RParen, "to close the import list")) return nullptr;
  s->range = range_from(begin);
  return s;
}

// assignment: NAME ':' expression ['=' annotated_rhs]
//           | single_subscript_attribute_target ':' expression ['=' annotated_rhs]
//           | (star_targets '=')+ star_expressions
//           | single_target augassign star_expressions
// expression statement: star_expressions
StmtPtr Parser::parse_expr_or_assign() {
  uint32_t begin = cur().range.begin;
  ExprPtr lhs = parse_star_expressions();
  if (!lhs) return nullptr;

  if (at(TokenKind::Colon)) {  // annotated assignment
    if (!check_target(*lhs, false, "annotate")) return nullptr;
    advance();
    ExprPtr annotation = parse_expression();
    if (!annotation) return nullptr;
    ExprPtr value;
    if (consume(TokenKind::Equal)) {
      value = parse_star_expressions();
      if (!value) return nullptr;
    }
    auto s = std::make_unique<ast::AnnAssign>(range_from(begin));
    s->target = std::move(lhs);
    s->annotation = std::move(annotation);
    s->value = std::move(value);
    return s;
  }

  ast::BinOpKind op{};
  if (aug_op(cur().kind, op)) {
    const Token& op_tok = advance();
    ExprPtr value = parse_star_expressions();
    if (!value) return nullptr;
    if (!check_target(*lhs, false, "use augmented assignment on")) return nullptr;
    auto s = std::make_unique<ast::AugAssign>(range_from(begin));
    s->target = std::move(lhs);
    s->op = op;
    s->op_range = op_tok.range;
    s->value = std::move(value);
    return s;
  }

  if (at(TokenKind::Equal)) {
    std::vector<ExprPtr> exprs;
    exprs.push_back(std::move(lhs));
    while (consume(TokenKind::Equal)) {
      ExprPtr e = parse_star_expressions();
      if (!e) return nullptr;
      exprs.push_back(std::move(e));
    }
    for (size_t i = 0; i + 1 < exprs.size(); ++i)
      if (!check_target(*exprs[i], true, "assign to")) return nullptr;
    auto s = std::make_unique<ast::Assign>(range_from(begin));
    s->value = std::move(exprs.back());
    exprs.pop_back();
    s->targets = std::move(exprs);
    return s;
  }

  auto s = std::make_unique<ast::ExprStmt>(range_from(begin));
  s->value = std::move(lhs);
  return s;
}

// if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
// elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])
StmtPtr Parser::parse_if(bool is_elif, int elif_count) {
  const Token& kw = advance();
  chain_ops_ = 0;
  ExprPtr test = parse_named_expression();
  if (!test) return nullptr;
  if (!expect(TokenKind::Colon, is_elif ? "after elif condition" : "after if condition")) return nullptr;
  auto s = std::make_unique<ast::If>(SourceRange{});
  s->test = std::move(test);
  if (!parse_block(s->body, is_elif ? "'elif' statement" : "'if' statement", kw.range)) return nullptr;
  if (at(TokenKind::Elif)) {
    if (elif_count + 1 > kMaxElif) {
      report(Kind::NestingTooDeep, cur().range,
             "too many elif branches, expected at most " + std::to_string(kMaxElif));
      return nullptr;
    }
    StmtPtr elif = parse_if(true, elif_count + 1);
    if (!elif) return nullptr;
    s->orelse.push_back(std::move(elif));
  } else if (at(TokenKind::Else)) {
    if (!parse_else_block(s->orelse, "'else' statement")) return nullptr;
  }
  s->range = range_from(kw.range.begin);
  return s;
}

// else_block: 'else' ':' block
bool Parser::parse_else_block(Body& out, std::string_view owner) {
  const Token& kw = advance();
  if (!expect(TokenKind::Colon, "after 'else'")) return false;
  return parse_block(out, owner, kw.range);
}

// while_stmt: 'while' named_expression ':' block [else_block]
StmtPtr Parser::parse_while() {
  const Token& kw = advance();
  ExprPtr test = parse_named_expression();
  if (!test) return nullptr;
  if (!expect(TokenKind::Colon, "after while condition")) return nullptr;
  auto s = std::make_unique<ast::While>(SourceRange{});
  s->test = std::move(test);
  if (!parse_block(s->body, "'while' statement", kw.range)) return nullptr;
  if (at(TokenKind::Else) && !parse_else_block(s->orelse, "'else' statement")) return nullptr;
  s->range = range_from(kw.range.begin);
  return s;
}

// star_targets: star_target (',' star_target)* [',']   (followed by 'in')
// star_target: '*' bitwise_or | bitwise_or
ExprPtr Parser::parse_for_targets() {
  // Targets are parsed at bitwise_or level, so 'in' ends them.
  uint32_t tbegin = cur().range.begin;
  std::vector<ExprPtr> elts;
  bool tuple = false;
  while (true) {
    ExprPtr e;
    if (at(TokenKind::Star)) {
      const Token& star = advance();
      ExprPtr inner = parse_bitwise_or();
      if (!inner) return nullptr;
      auto st = std::make_unique<ast::Starred>(range_from(star.range.begin));
      st->value = std::move(inner);
      e = std::move(st);
    } else {
      e = parse_bitwise_or();
      if (!e) return nullptr;
    }
    elts.push_back(std::move(e));
    if (!consume(TokenKind::Comma)) break;
    tuple = true;
    if (at(TokenKind::In)) break;
  }
  if (!tuple) return std::move(elts.front());
  auto t = std::make_unique<ast::Tuple>(range_from(tbegin));
  t->elts = std::move(elts);
  return t;
}

// for_stmt: ['async'] 'for' star_targets 'in' star_expressions ':' block [else_block]
StmtPtr Parser::parse_for(const Token* async_kw) {
  const Token& kw = advance();
  ExprPtr target = parse_for_targets();
  if (!target) return nullptr;
  if (!expect(TokenKind::In, "after the for loop target")) return nullptr;
  if (!check_target(*target, true, "assign to")) return nullptr;
  ExprPtr iter = parse_star_expressions();
  if (!iter) return nullptr;
  if (!expect(TokenKind::Colon, "after the for loop iterable")) return nullptr;
  auto s = std::make_unique<ast::For>(SourceRange{});
  s->target = std::move(target);
  s->iter = std::move(iter);
  s->is_async = async_kw != nullptr;
  if (!parse_block(s->body, "'for' statement", kw.range)) return nullptr;
  if (at(TokenKind::Else) && !parse_else_block(s->orelse, "'else' statement")) return nullptr;
  s->range = range_from((async_kw ? *async_kw : kw).range.begin);
  return s;
}

// decorators: ('@' named_expression NEWLINE)+
// decorated: decorators (function_def | class_def | 'async' function_def)
StmtPtr Parser::parse_decorated() {
  std::vector<ExprPtr> decorators;
  while (at(TokenKind::At)) {
    advance();
    ExprPtr e = parse_named_expression();
    if (!e) return nullptr;
    if (!at(TokenKind::Newline)) {
      report_expected(Kind::ExpectedToken, "a newline after the decorator");
      return nullptr;
    }
    advance();
    decorators.push_back(std::move(e));
  }
  switch (cur().kind) {
    case TokenKind::Def:
      return parse_function_def(std::move(decorators));
    case TokenKind::Class: return parse_class_def(std::move(decorators));
    case TokenKind::Async:
      if (peek().kind == TokenKind::Def) return parse_async(std::move(decorators));
      advance();
      report_expected(Kind::ExpectedToken, "'def' after 'async' and decorators");
      return nullptr;
    default: report_expected(Kind::ExpectedToken, "'def' or 'class' after decorators"); return nullptr;
  }
}

// function_def: ['async'] 'def' NAME '(' [params] ')' ['->' expression] ':' block
StmtPtr Parser::parse_function_def(std::vector<ExprPtr> decorators, const Token* async_kw) {
  const Token& kw = advance();
  if (!at(TokenKind::Identifier)) {
    report_expected(Kind::ExpectedToken, "a function name after 'def'");
    return nullptr;
  }
  auto s = std::make_unique<ast::FunctionDef>(SourceRange{});
  s->decorators = std::move(decorators);
  s->name_range = cur().range;
  s->name = advance().text;
  s->is_async = async_kw != nullptr;
  if (!expect(TokenKind::LParen, "after the function name")) return nullptr;
  size_t errors_before = diags_.error_count();
  {
    DepthGuard brackets(bracket_depth_);
    if (!parse_params(s->params, TokenKind::RParen)) return nullptr;
  }
  bool header_errors = diags_.error_count() != errors_before;  // E0207, E0208
  if (consume(TokenKind::Arrow)) {
    s->returns = parse_expression();
    if (!s->returns) return nullptr;
  }
  if (!expect(TokenKind::Colon, "after the function signature")) return nullptr;
  if (!parse_block(s->body, "function definition", kw.range)) return nullptr;
  if (header_errors) return nullptr;  // body was parsed for its own errors
  s->range = range_from((async_kw ? *async_kw : kw).range.begin);
  return s;
}

// params: param_item (',' param_item)* [',']   followed by `close`
// param_item: NAME [':' expression] ['=' expression]     (no annotation in a lambda)
//           | '*' [NAME [':' expression]]  (the following parameters are keyword-only)
//           | '**' NAME [':' expression]  | '/'  (the preceding ones are positional-only)
bool Parser::parse_params(std::vector<ast::Param>& params, TokenKind close) {
  const bool lambda = close == TokenKind::Colon;
  bool seen_star = false;
  bool seen_slash = false;
  bool seen_kwargs = false;
  SourceRange star_range;
  bool after_star_param = false;
  std::optional<size_t> last_default;  // index of the last parameter with a default
  bool reported_default_order = false;  // E0208 once: one misplaced default, one error
  // name [':' annotation]: a parameter's name and annotation, checked for duplicates.
  auto named = [&](ast::Param& p) {
    p.range = cur().range;
    p.name = advance().text;
    if (!lambda && consume(TokenKind::Colon)) {
      p.annotation = parse_expression();
      if (!p.annotation) return false;
    }
    for (const auto& q : params) {
      if (q.name == p.name) {
        report(Kind::DuplicateParameter, p.range, "duplicate parameter '" + p.name + "' in function definition")
            ->label(q.range, "first declared here");
        break;
      }
    }
    return true;
  };
  while (!at(close)) {
    if (seen_kwargs) {
      report_expected(Kind::ExpectedToken, "no parameter after '**' parameter, " + quoted(close));
      return false;
    }
    if (at(TokenKind::Star)) {
      const Token& star = advance();
      if (seen_star) {
        report(Kind::ExpectedToken, star.range,
               "expected at most one '*' in a parameter list, found a second one");
        return false;
      }
      seen_star = true;
      star_range = star.range;
      if (at(TokenKind::Identifier)) {
        ast::Param p;
        if (!named(p)) return false;
        p.var_positional = true;
        after_star_param = true;
        params.push_back(std::move(p));
      }
    } else if (at(TokenKind::DoubleStar)) {
      advance();
      if (!at(TokenKind::Identifier)) {
        report_expected(Kind::ExpectedToken, "a parameter name after '**'");
        return false;
      }
      ast::Param p;
      if (!named(p)) return false;
      p.var_keyword = true;
      params.push_back(std::move(p));
      seen_kwargs = true;
    } else if (at(TokenKind::Slash)) {
      if (seen_slash || seen_star || params.empty()) {
        report(Kind::ExpectedToken, cur().range,
               seen_slash ? "expected at most one '/' in a parameter list, found a second one"
                          : "expected '/' after at least one parameter and before '*'");
        return false;
      }
      advance();
      seen_slash = true;
      for (auto& q : params) q.positional_only = true;
    } else if (at(TokenKind::Identifier)) {
      ast::Param p;
      if (!named(p)) return false;
      p.keyword_only = seen_star;
      if (consume(TokenKind::Equal)) {
        p.default_value = parse_expression();
        if (!p.default_value) return false;
      }
      if (seen_star) after_star_param = true;
      if (p.default_value) {
        last_default = params.size();
      } else if (last_default && !seen_star && !reported_default_order) {
        reported_default_order = true;
        const ast::Param& d = params[*last_default];
        report(Kind::DefaultBeforeNonDefault, p.range,
               "parameter '" + p.name + "' without a default follows parameter '" + d.name +
                   "' with a default")
            ->label(d.range, "has a default");
      }
      params.push_back(std::move(p));
    } else {
      report_expected(Kind::ExpectedToken, params.empty() && !seen_star ? "a parameter name or " + quoted(close)
                                                                        : std::string("a parameter name"));
      return false;
    }
    if (!consume(TokenKind::Comma)) break;
  }
  if (seen_star && !after_star_param) {
    report(Kind::ExpectedToken, star_range,
           "expected a keyword-only parameter after bare '*', found " + describe(cur()));
    return false;
  }
  if (!at(close)) {
    report_expected(Kind::ExpectedToken, "',' or " + quoted(close) + " after a parameter");
    return false;
  }
  advance();
  return true;
}

// class_def: decorators? 'class' NAME ['(' [arguments] ')'] ':' block
StmtPtr Parser::parse_class_def(std::vector<ExprPtr> decorators) {
  const Token& kw = advance();
  if (!at(TokenKind::Identifier)) {
    report_expected(Kind::ExpectedToken, "a class name after 'class'");
    return nullptr;
  }
  auto s = std::make_unique<ast::ClassDef>(SourceRange{});
  s->decorators = std::move(decorators);
  s->name_range = cur().range;
  s->name = advance().text;
  if (at(TokenKind::LParen)) {
    // The header's arguments are a call's: parse them as one and keep its parts.
    auto name = std::make_unique<ast::Name>(s->name_range);
    ExprPtr call = parse_call(std::move(name), s->name_range.begin);
    if (!call) return nullptr;
    auto* c = call->as<ast::Call>();
    s->bases = std::move(c->args);
    s->keywords = std::move(c->keywords);
  }
  if (!expect(TokenKind::Colon, "after the class header")) return nullptr;
  if (!parse_block(s->body, "class definition", kw.range)) return nullptr;
  s->range = range_from(kw.range.begin);
  return s;
}

// with_stmt: ['async'] 'with' '(' with_item (',' with_item)* [','] ')' ':' block
//          | ['async'] 'with' with_item (',' with_item)* ':' block
// with_item: expression ['as' star_target]
StmtPtr Parser::parse_with(const Token* async_kw) {
  const Token& kw = advance();
  auto s = std::make_unique<ast::With>(SourceRange{});
  s->is_async = async_kw != nullptr;
  // `with (a as b, c):` is a parenthesized item list; `with (a, b) as c:` is not.
  size_t close = at(TokenKind::LParen) ? matching_close(pos_) : 0;
  bool parens = close && tokens_[close].kind == TokenKind::RParen && close + 1 < tokens_.size() &&
                tokens_[close + 1].kind == TokenKind::Colon;
  std::optional<DepthGuard> brackets;
  if (parens) {
    advance();
    brackets.emplace(bracket_depth_);
  }
  while (true) {
    ast::WithItem item;
    item.context_expr = parse_expression();
    if (!item.context_expr) return nullptr;
    if (consume(TokenKind::As)) {
      item.optional_vars = at(TokenKind::Star) ? parse_star_expression() : parse_primary();
      if (!item.optional_vars || !check_target(*item.optional_vars, true, "assign to")) return nullptr;
    }
    s->items.push_back(std::move(item));
    if (!consume(TokenKind::Comma)) break;
    if (parens && at(TokenKind::RParen)) break;
  }
  if (parens) {
    if (!expect(TokenKind::RParen, "to close the with items")) return nullptr;
    brackets.reset();
  }
  if (!expect(TokenKind::Colon, "after the with items")) return nullptr;
  if (!parse_block(s->body, "'with' statement", kw.range)) return nullptr;
  s->range = range_from((async_kw ? *async_kw : kw).range.begin);
  return s;
}

// try_stmt: 'try' ':' block finally_block
//         | 'try' ':' block except_block+ [else_block] [finally_block]
//         | 'try' ':' block except_star_block+ [else_block] [finally_block]
// except_block: 'except' ['*'] expression ['as' NAME] ':' block | 'except' ':' block
// finally_block: 'finally' ':' block
StmtPtr Parser::parse_try() {
  const Token& kw = advance();
  if (!expect(TokenKind::Colon, "after 'try'")) return nullptr;
  auto s = std::make_unique<ast::Try>(SourceRange{});
  if (!parse_block(s->body, "'try' statement", kw.range)) return nullptr;
  while (at(TokenKind::Except)) {
    const Token& ex = advance();
    ast::ExceptHandler h;
    bool star = consume(TokenKind::Star);
    if (!s->handlers.empty() && star != s->is_star) {
      report(Kind::ExpectedToken, ex.range, "cannot mix 'except' and 'except*' in one try statement");
      return nullptr;
    }
    s->is_star = star;
    if (!at(TokenKind::Colon) || star) {
      h.type = parse_expression();
      if (!h.type) return nullptr;
      if (consume(TokenKind::As)) {
        if (!at(TokenKind::Identifier)) {
          report_expected(Kind::ExpectedToken, "a name after 'as'");
          return nullptr;
        }
        h.name_range = cur().range;
        h.name = advance().text;
      }
    }
    if (!expect(TokenKind::Colon, "after the except clause")) return nullptr;
    h.range = range_from(ex.range.begin);
    if (!parse_block(h.body, "'except' statement", ex.range)) return nullptr;
    s->handlers.push_back(std::move(h));
  }
  if (at(TokenKind::Else) && !s->handlers.empty() && !parse_else_block(s->orelse, "'else' statement")) return nullptr;
  if (at(TokenKind::Finally)) {
    const Token& fin = advance();
    if (!expect(TokenKind::Colon, "after 'finally'")) return nullptr;
    if (!parse_block(s->finalbody, "'finally' statement", fin.range)) return nullptr;
  } else if (s->handlers.empty()) {
    report_expected(Kind::ExpectedToken, "'except' or 'finally' after the try block");
    return nullptr;
  }
  s->range = range_from(kw.range.begin);
  return s;
}

// async_stmt: 'async' (function_def | with_stmt | for_stmt)
StmtPtr Parser::parse_async(std::vector<ExprPtr> decorators) {
  const Token& kw = advance();
  switch (cur().kind) {
    case TokenKind::Def: return parse_function_def(std::move(decorators), &kw);
    case TokenKind::With: return parse_with(&kw);
    case TokenKind::For: return parse_for(&kw);
    default: report_expected(Kind::ExpectedToken, "'def', 'with' or 'for' after 'async'"); return nullptr;
  }
}

// raise_stmt: 'raise' [expression ['from' expression]]
StmtPtr Parser::parse_raise() {
  uint32_t begin = advance().range.begin;
  auto s = std::make_unique<ast::Raise>(SourceRange{});
  if (can_start_expression(cur().kind)) {
    s->exc = parse_expression();
    if (!s->exc) return nullptr;
    if (consume(TokenKind::From)) {
      s->cause = parse_expression();
      if (!s->cause) return nullptr;
    }
  }
  s->range = range_from(begin);
  return s;
}

// global_stmt: 'global' NAME (',' NAME)*
// nonlocal_stmt: 'nonlocal' NAME (',' NAME)*
StmtPtr Parser::parse_global() {
  const Token& kw = advance();
  std::vector<std::string> names;
  do {
    if (!at(TokenKind::Identifier)) {
      report_expected(Kind::ExpectedToken, "a name after " + quoted(kw.kind));
      return nullptr;
    }
    names.push_back(advance().text);
  } while (consume(TokenKind::Comma));
  if (kw.kind == TokenKind::Global) {
    auto s = std::make_unique<ast::Global>(range_from(kw.range.begin));
    s->names = std::move(names);
    return s;
  }
  auto s = std::make_unique<ast::Nonlocal>(range_from(kw.range.begin));
  s->names = std::move(names);
  return s;
}

// del_stmt: 'del' del_targets
// del_targets: del_target (',' del_target)* [',']
StmtPtr Parser::parse_del() {
  uint32_t begin = advance().range.begin;
  ExprPtr e = parse_star_expressions();
  if (!e) return nullptr;
  auto s = std::make_unique<ast::Delete>(SourceRange{});
  auto* t = e->as<ast::Tuple>();
  if (t && !t->parenthesized) {
    s->targets = std::move(t->elts);
  } else {
    s->targets.push_back(std::move(e));
  }
  for (const auto& target : s->targets)
    if (!check_target(*target, true, "delete")) return nullptr;
  s->range = range_from(begin);
  return s;
}

}  // namespace tileslc::parse
