// The AST's text form (dump) and the Python spellings of its operators. The
// format is documented at dump() in ast.h; it is one line, stable, and
// compared verbatim by tests, so change it only together with them.
#include <charconv>
#include <cstdio>
#include <limits>
#include <string>

#include "ast/ast.h"

namespace tileslc::ast {

const char* spelling(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mul: return "*";
    case BinOpKind::Div: return "/";
    case BinOpKind::FloorDiv: return "//";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::MatMul: return "@";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
    case BinOpKind::BitAnd: return "&";
  }
  return "?";
}

const char* spelling(UnaryOpKind k) {
  switch (k) {
    case UnaryOpKind::Neg: return "-";
    case UnaryOpKind::Pos: return "+";
    case UnaryOpKind::Invert: return "~";
    case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char* spelling(BoolOpKind k) { return k == BoolOpKind::And ? "and" : "or"; }

const char* spelling(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::NotEq: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::LtE: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::GtE: return ">=";
    case CmpOpKind::Is: return "is";
    case CmpOpKind::IsNot: return "is not";
    case CmpOpKind::In: return "in";
    case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

namespace {

class Dumper {
 public:
  std::string out;

  void str(std::string_view s) {
    out += '\'';
    for (unsigned char c : s) {
      switch (c) {
        case '\\': out += "\\\\"; break;
        case '\'': out += "\\'"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += '\'';
  }

  /// Python's repr of a float: the shortest round-trip digits, positional
  /// when the decimal exponent is in [-4, 16), scientific otherwise.
  void number(double v) {
    if (v != v) { out += "nan"; return; }
    if (v == std::numeric_limits<double>::infinity()) { out += "inf"; return; }
    if (v == -std::numeric_limits<double>::infinity()) { out += "-inf"; return; }
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);  // "-1.2345e+05"
    size_t e = sci.find('e');
    int exp = std::stoi(sci.substr(e + 1));
    if (exp < -4 || exp >= 16) {
      out += sci;
      return;
    }
    std::string mant = sci.substr(0, e);
    bool neg = mant[0] == '-';
    if (neg) mant.erase(0, 1);
    std::string digits;
    for (char c : mant)
      if (c != '.') digits += c;
    std::string text;
    if (exp >= 0) {
      if (digits.size() < static_cast<size_t>(exp) + 1) digits.append(exp + 1 - digits.size(), '0');
      text = digits.substr(0, exp + 1) + ".";
      text += digits.size() > static_cast<size_t>(exp) + 1 ? digits.substr(exp + 1) : "0";
    } else {
      text = "0." + std::string(-exp - 1, '0') + digits;
    }
    if (neg) out += '-';
    out += text;
  }

  void opt(const ExprPtr& e) {
    if (e) expr(*e);
    else out += "null";
  }

  void exprs(const std::vector<ExprPtr>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ", ";
      expr(*v[i]);
    }
    out += ']';
  }

  void expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Name:
        out += "Name(";
        str(e.as<Name>()->id);
        out += ')';
        return;
      case ExprKind::IntLit:
        out += "IntLit(" + std::to_string(e.as<IntLit>()->value) + ")";
        return;
      case ExprKind::FloatLit:
        out += "FloatLit(";
        number(e.as<FloatLit>()->value);
        out += ')';
        return;
      case ExprKind::StrLit:
        out += "StrLit(";
        str(e.as<StrLit>()->value);
        out += ')';
        return;
      case ExprKind::BoolLit:
        out += e.as<BoolLit>()->value ? "BoolLit(True)" : "BoolLit(False)";
        return;
      case ExprKind::NoneLit: out += "NoneLit"; return;
      case ExprKind::EllipsisLit: out += "EllipsisLit"; return;
      case ExprKind::Tuple:
        out += "Tuple(";
        exprs(e.as<Tuple>()->elts);
        out += ')';
        return;
      case ExprKind::List:
        out += "List(";
        exprs(e.as<List>()->elts);
        out += ')';
        return;
      case ExprKind::Dict: {
        const auto* d = e.as<Dict>();
        out += "Dict([";
        for (size_t i = 0; i < d->keys.size(); ++i) {
          if (i) out += ", ";
          if (d->keys[i]) {
            expr(*d->keys[i]);
            out += ": ";
          } else {
            out += "**";
          }
          expr(*d->values[i]);
        }
        out += "])";
        return;
      }
      case ExprKind::Attribute: {
        const auto* a = e.as<Attribute>();
        out += "Attribute(";
        expr(*a->value);
        out += ", ";
        str(a->attr);
        out += ')';
        return;
      }
      case ExprKind::Subscript: {
        const auto* s = e.as<Subscript>();
        out += "Subscript(";
        expr(*s->value);
        out += ", ";
        expr(*s->index);
        out += ')';
        return;
      }
      case ExprKind::Slice: {
        const auto* s = e.as<Slice>();
        out += "Slice(";
        opt(s->lower);
        out += ", ";
        opt(s->upper);
        out += ", ";
        opt(s->step);
        out += ')';
        return;
      }
      case ExprKind::Call: {
        const auto* c = e.as<Call>();
        out += "Call(";
        expr(*c->func);
        out += ", ";
        exprs(c->args);
        if (!c->keywords.empty()) {
          out += ", ";
          keywords(c->keywords);
        }
        out += ')';
        return;
      }
      case ExprKind::BinOp: {
        const auto* b = e.as<BinOp>();
        out += "BinOp(";
        expr(*b->lhs);
        out += ", ";
        str(spelling(b->op));
        out += ", ";
        expr(*b->rhs);
        out += ')';
        return;
      }
      case ExprKind::UnaryOp: {
        const auto* u = e.as<UnaryOp>();
        out += "UnaryOp(";
        str(spelling(u->op));
        out += ", ";
        expr(*u->operand);
        out += ')';
        return;
      }
      case ExprKind::BoolOp: {
        const auto* b = e.as<BoolOp>();
        out += "BoolOp(";
        str(spelling(b->op));
        out += ", ";
        exprs(b->values);
        out += ')';
        return;
      }
      case ExprKind::Compare: {
        const auto* c = e.as<Compare>();
        out += "Compare(";
        expr(*c->left);
        for (size_t i = 0; i < c->ops.size(); ++i) {
          out += ", ";
          str(spelling(c->ops[i]));
          out += ", ";
          expr(*c->comparators[i]);
        }
        out += ')';
        return;
      }
      case ExprKind::IfExp: {
        const auto* i = e.as<IfExp>();
        out += "IfExp(test=";
        expr(*i->test);
        out += ", body=";
        expr(*i->body);
        out += ", orelse=";
        expr(*i->orelse);
        out += ')';
        return;
      }
      case ExprKind::Starred: wrap("Starred", *e.as<Starred>()->value); return;
      case ExprKind::Set:
        out += "Set(";
        exprs(e.as<Set>()->elts);
        out += ')';
        return;
      case ExprKind::Lambda: {
        const auto* l = e.as<Lambda>();
        out += "Lambda(";
        params(l->params);
        out += ", ";
        expr(*l->body);
        out += ')';
        return;
      }
      case ExprKind::Comp: comp(*e.as<Comp>()); return;
      case ExprKind::NamedExpr: {
        const auto* n = e.as<NamedExpr>();
        out += "NamedExpr(";
        expr(*n->target);
        out += ", ";
        expr(*n->value);
        out += ')';
        return;
      }
      case ExprKind::Yield: {
        const auto* y = e.as<Yield>();
        if (y->value)
          wrap(y->is_from ? "YieldFrom" : "Yield", *y->value);
        else
          out += "Yield";
        return;
      }
      case ExprKind::Await: wrap("Await", *e.as<Await>()->value); return;
      case ExprKind::JoinedStr:
        out += "JoinedStr(";
        exprs(e.as<JoinedStr>()->values);
        out += ')';
        return;
      case ExprKind::FormattedValue: {
        const auto* f = e.as<FormattedValue>();
        out += "FormattedValue(";
        expr(*f->value);
        if (f->conversion) out += std::string(", conversion='") + f->conversion + "'";
        field("format_spec", f->format_spec);
        out += ')';
        return;
      }
    }
  }

  void wrap(const char* name, const Expr& e) {
    out += name;
    out += '(';
    expr(e);
    out += ')';
  }

  /// `[name=value, **value]`
  void keywords(const std::vector<Keyword>& ks) {
    out += '[';
    for (size_t i = 0; i < ks.size(); ++i) {
      if (i) out += ", ";
      out += ks[i].name.empty() ? std::string("**") : ks[i].name + "=";
      expr(*ks[i].value);
    }
    out += ']';
  }

  void comp(const Comp& c) {
    static const char* const names[] = {"ListComp", "SetComp", "DictComp", "GeneratorExp"};
    out += names[static_cast<int>(c.comp)];
    out += '(';
    expr(*c.elt);
    if (c.value) {
      out += ", ";
      expr(*c.value);
    }
    out += ", [";
    for (size_t i = 0; i < c.generators.size(); ++i) {
      const Comprehension& g = c.generators[i];
      if (i) out += ", ";
      out += "comprehension(";
      expr(*g.target);
      out += ", ";
      expr(*g.iter);
      if (!g.ifs.empty()) {
        out += ", ifs=";
        exprs(g.ifs);
      }
      if (g.is_async) out += ", async";
      out += ')';
    }
    out += "])";
  }

  void params(const std::vector<Param>& ps) {
    out += '[';
    for (size_t i = 0; i < ps.size(); ++i) {
      const Param& p = ps[i];
      if (i) out += ", ";
      out += "Param(";
      str(p.name);
      field("annotation", p.annotation);
      field("default", p.default_value);
      if (p.keyword_only) out += ", kwonly";
      if (p.positional_only) out += ", posonly";
      if (p.var_positional) out += ", vararg";
      if (p.var_keyword) out += ", kwarg";
      out += ')';
    }
    out += ']';
  }

  void body(const Body& b) {
    out += '[';
    for (size_t i = 0; i < b.size(); ++i) {
      if (i) out += ", ";
      stmt(*b[i]);
    }
    out += ']';
  }

  /// ", name=<expr>" when `e` is set.
  void field(const char* name, const ExprPtr& e) {
    if (!e) return;
    out += ", ";
    out += name;
    out += '=';
    expr(*e);
  }

  /// ", name=[...]" when `b` is not empty.
  void field(const char* name, const Body& b) {
    if (b.empty()) return;
    out += ", ";
    out += name;
    out += '=';
    body(b);
  }

  void alias(const Alias& a) {
    out += "Alias(";
    str(a.name);
    if (!a.asname.empty()) {
      out += ", ";
      str(a.asname);
    }
    out += ')';
  }

  void aliases(const std::vector<Alias>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ", ";
      alias(v[i]);
    }
    out += ']';
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::ExprStmt:
        out += "ExprStmt(";
        expr(*s.as<ExprStmt>()->value);
        out += ')';
        return;
      case StmtKind::Assign: {
        const auto* a = s.as<Assign>();
        out += "Assign(targets=";
        exprs(a->targets);
        out += ", value=";
        expr(*a->value);
        out += ')';
        return;
      }
      case StmtKind::AugAssign: {
        const auto* a = s.as<AugAssign>();
        out += "AugAssign(target=";
        expr(*a->target);
        out += ", op=";
        str(std::string(spelling(a->op)) + "=");
        out += ", value=";
        expr(*a->value);
        out += ')';
        return;
      }
      case StmtKind::AnnAssign: {
        const auto* a = s.as<AnnAssign>();
        out += "AnnAssign(target=";
        expr(*a->target);
        out += ", annotation=";
        expr(*a->annotation);
        field("value", a->value);
        out += ')';
        return;
      }
      case StmtKind::Return: {
        const auto* r = s.as<Return>();
        out += "Return";
        if (r->value) {
          out += '(';
          expr(*r->value);
          out += ')';
        }
        return;
      }
      case StmtKind::Pass: out += "Pass"; return;
      case StmtKind::Break: out += "Break"; return;
      case StmtKind::Continue: out += "Continue"; return;
      case StmtKind::Assert: {
        const auto* a = s.as<Assert>();
        out += "Assert(test=";
        expr(*a->test);
        field("msg", a->msg);
        out += ')';
        return;
      }
      case StmtKind::If: {
        const auto* i = s.as<If>();
        out += "If(test=";
        expr(*i->test);
        out += ", body=";
        body(i->body);
        field("orelse", i->orelse);
        out += ')';
        return;
      }
      case StmtKind::For: {
        const auto* f = s.as<For>();
        out += "For(target=";
        expr(*f->target);
        out += ", iter=";
        expr(*f->iter);
        out += ", body=";
        body(f->body);
        field("orelse", f->orelse);
        if (f->is_async) out += ", async";
        out += ')';
        return;
      }
      case StmtKind::While: {
        const auto* w = s.as<While>();
        out += "While(test=";
        expr(*w->test);
        out += ", body=";
        body(w->body);
        field("orelse", w->orelse);
        out += ')';
        return;
      }
      case StmtKind::FunctionDef: {
        const auto* f = s.as<FunctionDef>();
        out += "FunctionDef(name=";
        str(f->name);
        if (f->is_async) out += ", async";
        if (!f->decorators.empty()) {
          out += ", decorators=";
          exprs(f->decorators);
        }
        if (!f->params.empty()) {
          out += ", params=";
          params(f->params);
        }
        field("returns", f->returns);
        out += ", body=";
        body(f->body);
        out += ')';
        return;
      }
      case StmtKind::Import:
        out += "Import(";
        aliases(s.as<Import>()->names);
        out += ')';
        return;
      case StmtKind::ImportFrom: {
        const auto* i = s.as<ImportFrom>();
        out += "ImportFrom(module=";
        str(i->module);
        out += ", names=";
        aliases(i->names);
        if (i->level) out += ", level=" + std::to_string(i->level);
        out += ')';
        return;
      }
      case StmtKind::ClassDef: {
        const auto* c = s.as<ClassDef>();
        out += "ClassDef(name=";
        str(c->name);
        if (!c->decorators.empty()) {
          out += ", decorators=";
          exprs(c->decorators);
        }
        if (!c->bases.empty()) {
          out += ", bases=";
          exprs(c->bases);
        }
        if (!c->keywords.empty()) {
          out += ", keywords=";
          keywords(c->keywords);
        }
        out += ", body=";
        body(c->body);
        out += ')';
        return;
      }
      case StmtKind::With: {
        const auto* w = s.as<With>();
        out += "With(items=[";
        for (size_t i = 0; i < w->items.size(); ++i) {
          if (i) out += ", ";
          out += "WithItem(";
          expr(*w->items[i].context_expr);
          field("vars", w->items[i].optional_vars);
          out += ')';
        }
        out += "], body=";
        body(w->body);
        if (w->is_async) out += ", async";
        out += ')';
        return;
      }
      case StmtKind::Try: {
        const auto* t = s.as<Try>();
        out += "Try(body=";
        body(t->body);
        if (!t->handlers.empty()) {
          out += ", handlers=[";
          for (size_t i = 0; i < t->handlers.size(); ++i) {
            const ExceptHandler& h = t->handlers[i];
            if (i) out += ", ";
            out += "ExceptHandler(";
            if (h.type) {
              out += "type=";
              expr(*h.type);
              out += ", ";
            }
            if (!h.name.empty()) {
              out += "name=";
              str(h.name);
              out += ", ";
            }
            out += "body=";
            body(h.body);
            out += ')';
          }
          out += ']';
        }
        field("orelse", t->orelse);
        field("finalbody", t->finalbody);
        if (t->is_star) out += ", star";
        out += ')';
        return;
      }
      case StmtKind::Raise: {
        const auto* r = s.as<Raise>();
        out += "Raise";
        if (r->exc) {
          out += "(exc=";
          expr(*r->exc);
          field("cause", r->cause);
          out += ')';
        }
        return;
      }
      case StmtKind::Global: names("Global", s.as<Global>()->names); return;
      case StmtKind::Nonlocal: names("Nonlocal", s.as<Nonlocal>()->names); return;
      case StmtKind::Delete:
        out += "Delete(";
        exprs(s.as<Delete>()->targets);
        out += ')';
        return;
    }
  }

  void names(const char* kind, const std::vector<std::string>& ns) {
    out += kind;
    out += "([";
    for (size_t i = 0; i < ns.size(); ++i) {
      if (i) out += ", ";
      str(ns[i]);
    }
    out += "])";
  }
};

}  // namespace

std::string dump(const Module& m) {
  Dumper d;
  d.out += "Module(";
  d.body(m.body);
  d.out += ')';
  return std::move(d.out);
}

std::string dump(const Expr& e) {
  Dumper d;
  d.expr(e);
  return std::move(d.out);
}

}  // namespace tileslc::ast
