// Python evaluated while compiling, beyond numbers and tuples (as CuTe DSL
// runs it in the interpreter while tracing): lists and dicts as mutable
// objects, displays with star-expressions, comprehensions and generator
// expressions over static iterables (eager: a generator is its tuple),
// lambdas and closures, f-strings with Python's format-spec mini-language,
// and exceptions raised while compiling, caught by `try`/`except` or else
// reported as E0504 with their message. Run-time values print as `?` (what
// CuTe DSL prints for a dynamic value while tracing).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "sema/evaluator.h"
#include "sema/registry.h"
#include "sema/static_limits.h"

namespace tileslc::sema {

namespace {

/// Python's exception classes (builtins.def's Exc* rows) and the class each derives from.
std::optional<BuiltinId> exception_parent(BuiltinId id) {
  switch (id) {
    case BuiltinId::ExcBaseException: return std::nullopt;
    case BuiltinId::ExcException: return BuiltinId::ExcBaseException;
    case BuiltinId::ExcZeroDivisionError: case BuiltinId::ExcOverflowError: return BuiltinId::ExcArithmeticError;
    case BuiltinId::ExcIndexError: case BuiltinId::ExcKeyError: return BuiltinId::ExcLookupError;
    case BuiltinId::ExcNotImplementedError: return BuiltinId::ExcRuntimeError;
    default: return BuiltinId::ExcException;
  }
}


/// Python's repr of a string: single quotes unless it holds one and no double quote.
std::string quote(const std::string& s) {
  char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char ch : s) {
    if (ch == '\\') out += "\\\\";
    else if (ch == static_cast<unsigned char>(q)) out += std::string("\\") + q;
    else if (ch == '\n') out += "\\n";
    else if (ch == '\t') out += "\\t";
    else if (ch == '\r') out += "\\r";
    else if (ch < 0x20 || ch == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + q;
}

std::string py_text(const Value& v, bool as_repr);

/// The elements of a tuple, list or dict, each as repr() writes it.
std::string container_text(const Value& v) {
  if (v.kind() == Value::Kind::Dict) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, x] : v.dict_items()) {
      s += (first ? "" : ", ") + py_text(k, true) + ": " + py_text(x, true);
      first = false;
    }
    return s + "}";
  }
  std::string s = v.is_list() ? "[" : "(";
  for (size_t i = 0; i < v.elts().size(); ++i) s += (i ? ", " : "") + py_text(v.elts()[i], true);
  if (!v.is_list() && v.elts().size() == 1) s += ",";
  return s + (v.is_list() ? "]" : ")");
}

/// str(v) (as_repr false) or repr(v), as Python writes them and CuTe DSL prints tileslc's values:
/// a layout "(4,8):(1,4)", a run-time scalar "?", a tensor as its type.
std::string py_text(const Value& v, bool as_repr) {
  switch (v.kind()) {
    case Value::Kind::Str: return as_repr ? quote(v.s()) : v.s();
    case Value::Kind::Dyn: case Value::Kind::SymDim: return "?";
    case Value::Kind::Tuple: case Value::Kind::Dict: return container_text(v);
    case Value::Kind::Builtin:
      if (is_exception_class(v.builtin())) {
        const std::string name = builtin_info(v.builtin()).name;
        if (!v.self()) return "<class '" + name + "'>";
        const auto& args = v.self()->elts();
        if (as_repr) {
          std::string s = name + "(";
          for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + py_text(args[i], true);
          return s + ")";
        }
        if (args.empty()) return "";
        if (args.size() == 1) return py_text(args[0], false);
        return container_text(*v.self());
      }
      return repr(v);
    default: return repr(v);
  }
}

// ---- format(value, spec): Python's format-spec mini-language
// (https://docs.python.org/3/library/string.html#format-specification-mini-language)

struct FormatSpec {
  char fill = ' ';
  char align = 0;  ///< '<', '>', '^', '=' or 0 (the type's default)
  char sign = '-';
  bool alternate = false;
  int width = -1;
  char grouping = 0;  ///< ',' or '_'
  int precision = -1;
  char type = 0;
};

std::optional<FormatSpec> parse_spec(const std::string& s) {
  FormatSpec sp;
  size_t i = 0;
  const size_t n = s.size();
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (n >= 2 && is_align(s[1])) sp.fill = s[0], sp.align = s[1], i = 2;
  else if (n >= 1 && is_align(s[0])) sp.align = s[0], i = 1;
  if (i < n && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < n && s[i] == 'z') ++i;
  if (i < n && s[i] == '#') sp.alternate = true, ++i;
  if (i < n && s[i] == '0') {
    if (!sp.align) sp.fill = '0', sp.align = '=';
    ++i;
  }
  auto digits = [&](int& out) {
    size_t b = i;
    int64_t x = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && x < 100000) x = x * 10 + (s[i++] - '0');
    if (i > b) out = static_cast<int>(x);
    return i > b;
  };
  digits(sp.width);
  if (i < n && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits(sp.precision)) return std::nullopt;
  }
  if (i < n) sp.type = s[i++];
  if (i != n || std::string("bcdeEfFgGnosxX%").find(sp.type ? sp.type : 's') == std::string::npos) return std::nullopt;
  return sp;
}

/// Inserts `sep` every `every` digits from the right of a run of digits.
std::string group_digits(const std::string& digits, char sep, int every) {
  if (!sep) return digits;
  std::string out;
  int k = 0;
  for (size_t i = digits.size(); i-- > 0;) {
    if (k && k % every == 0) out += sep;
    out += digits[i];
    ++k;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// Pads `prefix` (sign, base prefix) + `body` to the spec's width.
std::string pad(const std::string& prefix, const std::string& body, const FormatSpec& sp, char default_align) {
  const size_t len = prefix.size() + body.size();
  if (sp.width < 0 || len >= static_cast<size_t>(sp.width)) return prefix + body;
  const size_t fill = static_cast<size_t>(sp.width) - len;
  switch (sp.align ? sp.align : default_align) {
    case '<': return prefix + body + std::string(fill, sp.fill);
    case '^': return std::string(fill / 2, sp.fill) + prefix + body + std::string(fill - fill / 2, sp.fill);
    case '=': return prefix + std::string(fill, sp.fill) + body;
    default: return std::string(fill, sp.fill) + prefix + body;
  }
}

std::string sign_of(bool negative, const FormatSpec& sp) {
  return negative ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
}

std::string format_float(double v, FormatSpec sp) {
  const bool neg = std::signbit(v) && !std::isnan(v);
  const double a = std::fabs(v);
  char t = sp.type;
  std::string body;
  if (std::isinf(a) || std::isnan(a)) {
    body = std::isnan(a) ? "nan" : "inf";
    if (t == 'F' || t == 'E' || t == 'G') std::transform(body.begin(), body.end(), body.begin(), ::toupper);
    if (t == '%') body += "%";
    return pad(sign_of(neg, sp), body, sp, '>');
  }
  char buf[512];
  if (!t && sp.precision < 0) {
    body = repr(Value::floating(a));
  } else if (!t) {
    std::snprintf(buf, sizeof buf, "%.*g", std::max(sp.precision, 1), a);
    body = buf;
    if (body.find_first_of(".e") == std::string::npos) body += ".0";
  } else if (t == 'f' || t == 'F' || t == '%') {
    std::snprintf(buf, sizeof buf, sp.alternate ? "%#.*f" : "%.*f", sp.precision < 0 ? 6 : sp.precision, t == '%' ? a * 100 : a);
    body = std::string(buf) + (t == '%' ? "%" : "");
  } else if (t == 'e' || t == 'E') {
    std::snprintf(buf, sizeof buf, t == 'e' ? "%.*e" : "%.*E", sp.precision < 0 ? 6 : sp.precision, a);
    body = buf;
  } else {  // g, G, n
    std::snprintf(buf, sizeof buf, sp.alternate ? (t == 'G' ? "%#.*G" : "%#.*g") : (t == 'G' ? "%.*G" : "%.*g"),
                  sp.precision < 0 ? 6 : std::max(sp.precision, 1), a);
    body = buf;
  }
  if (sp.grouping) {
    size_t end = body.find_first_not_of("0123456789");
    body = group_digits(body.substr(0, end), sp.grouping, 3) + (end == std::string::npos ? "" : body.substr(end));
  }
  return pad(sign_of(neg, sp), body, sp, '>');
}

std::string format_int(int64_t v, const FormatSpec& sp) {
  const bool neg = v < 0;
  uint64_t a = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const char t = sp.type ? sp.type : 'd';
  if (t == 'c') return pad("", std::string(1, static_cast<char>(a)), sp, '<');
  int base = t == 'b' ? 2 : t == 'o' ? 8 : (t == 'x' || t == 'X') ? 16 : 10;
  const char* digit_chars = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string digits;
  do {
    digits += digit_chars[a % base];
    a /= base;
  } while (a);
  std::reverse(digits.begin(), digits.end());
  digits = group_digits(digits, sp.grouping, base == 10 ? 3 : 4);
  std::string prefix = sign_of(neg, sp);
  if (sp.alternate && base != 10) prefix += t == 'b' ? "0b" : t == 'o' ? "0o" : t == 'X' ? "0X" : "0x";
  return pad(prefix, digits, sp, '>');
}

}  // namespace

std::string Evaluator::format_value(const Value& v0, char conversion, const std::string& spec, source::SourceRange r) {
  Value v = v0;
  if (conversion == 'r' || conversion == 'a') v = Value::str(py_text(v0, true));
  else if (conversion == 's') v = Value::str(py_text(v0, false));
  if (spec.empty()) return py_text(v, false);
  auto sp = parse_spec(spec);
  auto bad = [&]() -> std::string {
    fail(diag::Kind::TypeMismatch, r, "invalid format specifier '" + spec + "' for " + describe(v));
  };
  if (!sp) bad();
  switch (v.kind()) {
    case Value::Kind::Int: case Value::Kind::Bool:
      if (!sp->type || std::string("bcdnoxX").find(sp->type) != std::string::npos) {
        if (v.kind() == Value::Kind::Bool && !sp->type && sp->width < 0) return py_text(v, false);
        return format_int(v.i(), *sp);
      }
      if (sp->type == 's') bad();
      return format_float(static_cast<double>(v.i()), *sp);
    case Value::Kind::Float:
      if (sp->type && std::string("eEfFgGn%").find(sp->type) == std::string::npos) bad();
      return format_float(v.f(), *sp);
    case Value::Kind::Str: {
      if (sp->type && sp->type != 's') bad();
      std::string s = v.s();
      if (sp->precision >= 0 && s.size() > static_cast<size_t>(sp->precision)) s.resize(sp->precision);
      return pad("", s, *sp, '<');
    }
    case Value::Kind::Dyn: case Value::Kind::SymDim:
      // A run-time value prints as "?" while compiling, aligned as asked.
      return pad("", "?", *sp, '>');
    default:
      fail(diag::Kind::TypeMismatch, r, "unsupported format string '" + spec + "' for " + describe(v));
  }
}

std::string Evaluator::format_template(const std::string& t, const std::vector<Value>& args, const Kwargs& kwargs,
                                       source::SourceRange r) {
  std::string out;
  size_t auto_index = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char ch = t[i];
    if (ch == '}') {
      if (i + 1 < t.size() && t[i + 1] == '}') ++i;
      else fail(diag::Kind::TypeMismatch, r, "single '}' encountered in format string");
      out += '}';
      continue;
    }
    if (ch != '{') { out += ch; continue; }
    if (i + 1 < t.size() && t[i + 1] == '{') { out += '{'; ++i; continue; }
    size_t close = t.find('}', i);
    if (close == std::string::npos) fail(diag::Kind::TypeMismatch, r, "single '{' encountered in format string");
    std::string field = t.substr(i + 1, close - i - 1);
    i = close;
    std::string spec;
    char conversion = 0;
    if (auto colon = field.find(':'); colon != std::string::npos) spec = field.substr(colon + 1), field.resize(colon);
    if (auto bang = field.find('!'); bang != std::string::npos) {
      conversion = bang + 1 < field.size() ? field[bang + 1] : 0;
      field.resize(bang);
    }
    const Value* v = nullptr;
    if (field.empty()) {
      if (auto_index >= args.size()) fail(diag::Kind::IndexOutOfRange, r, "replacement index " + std::to_string(auto_index) + " out of range");
      v = &args[auto_index++];
    } else if (std::all_of(field.begin(), field.end(), ::isdigit)) {
      size_t k = std::stoul(field);
      if (k >= args.size()) fail(diag::Kind::IndexOutOfRange, r, "replacement index " + field + " out of range");
      v = &args[k];
    } else {
      for (const auto& [name, x] : kwargs)
        if (name == field) v = &x;
      if (!v) fail(diag::Kind::UnknownKeyword, r, "str.format() has no argument named '" + field + "'");
    }
    out += format_value(*v, conversion, spec, r);
    check_static_string(*this, out.size(), r, "str.format()");
  }
  return out;
}

Value Evaluator::eval_fstring(const ast::JoinedStr& j) {
  std::string out;
  for (const auto& part : j.values) {
    if (const auto* s = part->as<ast::StrLit>()) {
      out += s->value;
    } else if (const auto* f = part->as<ast::FormattedValue>()) {
      Value v = eval(*f->value);
      std::string spec;
      if (f->format_spec) {
        const auto* js = f->format_spec->as<ast::JoinedStr>();
        spec = js ? eval_fstring(*js).s() : std::string();
      }
      out += format_value(v, f->conversion, spec, f->range);
    } else {
      out += format_value(eval(*part), 0, "", part->range);
    }
    check_static_string(*this, out.size(), j.range, "the f-string");
  }
  return Value::str(std::move(out));
}

bool is_exception_class(BuiltinId id) { return id >= BuiltinId::ExcBaseException && id <= BuiltinId::ExcZeroDivisionError; }

// ---- iterables, displays, dicts

std::vector<Value> Evaluator::iterate(const Value& v0, source::SourceRange r, const std::string& what) {
  Value v = v0;
  switch (v.kind()) {
    case Value::Kind::Tuple: return v.elts();
    case Value::Kind::Str: {
      std::vector<Value> out;
      for (char ch : v.s()) out.push_back(Value::str(std::string(1, ch)));
      return out;
    }
    case Value::Kind::Dict: {
      std::vector<Value> out;
      for (const auto& kv : v.dict_items()) out.push_back(kv.first);
      return out;
    }
    case Value::Kind::Slice: {  // range(...) (core_range): start, stop, step
      const auto& p = v.elts();
      int64_t a = require_static_int(p[0], r, what + " over a range: its start");
      int64_t b = require_static_int(p[1], r, what + " over a range: its stop");
      int64_t s = require_static_int(p[2], r, what + " over a range: its step");
      if (s == 0) fail(diag::Kind::DivisionByZero, r, "range() step must not be zero");
      std::vector<Value> out;
      for (int64_t k = a; s > 0 ? k < b : k > b; k += s) {
        if (out.size() >= (size_t{1} << 16))
          fail(diag::Kind::EvaluationTooLarge, r, what + " over more than 65536 elements while compiling");
        out.push_back(Value::integer(k));
      }
      return out;
    }
    default:
      fail(diag::Kind::TypeMismatch, r,
           what + " needs a static iterable (a tuple, list, dict, string or range), found " + describe(v));
  }
}

Value Evaluator::eval_display(const ast::Expr& e) {
  const std::vector<ast::ExprPtr>* elts = nullptr;
  if (const auto* t = e.as<ast::Tuple>()) elts = &t->elts;
  else if (const auto* l = e.as<ast::List>()) elts = &l->elts;
  else elts = &e.as<ast::Set>()->elts;
  std::vector<Value> vs;
  for (const auto& x : *elts) {
    if (const auto* st = x->as<ast::Starred>()) {
      for (auto& y : iterate(eval(*st->value), st->value->range, "a star-expression")) vs.push_back(std::move(y));
      continue;
    }
    vs.push_back(eval(*x));
  }
  if (e.kind == ast::ExprKind::List) return Value::list(std::move(vs));
  if (e.kind == ast::ExprKind::Set) return set_of(std::move(vs), e.range);
  return Value::tuple(std::move(vs));
}

Value Evaluator::set_of(std::vector<Value> xs, source::SourceRange r) {
  std::vector<Value> distinct;
  for (auto& x : xs) {
    require_static(x, r, "a set element");
    if (std::none_of(distinct.begin(), distinct.end(), [&](const Value& d) { return static_equal(d, x); }))
      distinct.push_back(std::move(x));
  }
  return Value::tuple(std::move(distinct));
}

const Value* Evaluator::dict_find(const Value& d, const Value& key, source::SourceRange r) {
  require_static(key, r, "a dict key");
  for (const auto& [k, v] : d.dict_items())
    if (static_equal(k, key) && (k.kind() == Value::Kind::Str) == (key.kind() == Value::Kind::Str)) return &v;
  return nullptr;
}

void Evaluator::dict_set(const Value& d, const Value& key, Value v, source::SourceRange r) {
  if (const Value* old = dict_find(d, key, r)) {
    const_cast<Value&>(*old) = std::move(v);  // an item of d's mutable storage (dict_items)
    return;
  }
  d.dict_items().emplace_back(key, std::move(v));
}

Value Evaluator::eval_dict(const ast::Dict& d) {
  Value out = Value::dict();
  for (size_t i = 0; i < d.keys.size(); ++i) {
    if (!d.keys[i]) {  // {**other}
      Value other = eval(*d.values[i]);
      if (other.kind() != Value::Kind::Dict)
        fail(diag::Kind::TypeMismatch, d.values[i]->range, "'**' in a dict display needs a dict, found " + describe(other));
      for (const auto& [k, v] : other.dict_items()) dict_set(out, k, v, d.values[i]->range);
      continue;
    }
    Value k = eval(*d.keys[i]);
    dict_set(out, k, eval(*d.values[i]), d.keys[i]->range);
  }
  return out;
}

// ---- comprehensions and lambdas

namespace {

void target_names(const ast::Expr& t, std::vector<std::string>& out) {
  if (const auto* n = t.as<ast::Name>()) out.push_back(n->id);
  else if (const auto* tu = t.as<ast::Tuple>()) for (const auto& e : tu->elts) target_names(*e, out);
  else if (const auto* l = t.as<ast::List>()) for (const auto& e : l->elts) target_names(*e, out);
}

}  // namespace

Value Evaluator::eval_comp(const ast::Comp& c) {
  // The comprehension's own scope (Python 3): its targets do not leak; they shadow and are restored.
  std::vector<std::string> names;
  for (const auto& g : c.generators) target_names(*g.target, names);
  Env& env = scope();
  std::vector<std::pair<std::string, std::optional<Binding>>> saved;
  for (const auto& n : names) {
    auto it = env.find(n);
    saved.emplace_back(n, it == env.end() ? std::nullopt : std::optional<Binding>(it->second));
  }
  struct Restore {
    Env& env;
    std::vector<std::pair<std::string, std::optional<Binding>>>& saved;
    ~Restore() {
      for (auto& [n, b] : saved) {
        if (b) env[n] = *b;
        else env.erase(n);
      }
    }
  } restore{env, saved};

  std::function<void(const ast::Expr&, const Value&)> bind = [&](const ast::Expr& t, const Value& v) {
    if (const auto* n = t.as<ast::Name>()) {
      env[n->id] = Binding{v, "", t.range, frame().dyn_depth};
      return;
    }
    const auto* tu = t.as<ast::Tuple>();
    const auto* li = t.as<ast::List>();
    if (!tu && !li) reject_unsupported(t);
    const auto& elts = tu ? tu->elts : li->elts;
    auto vs = iterate(v, t.range, "unpacking");
    if (vs.size() != elts.size())
      fail(diag::Kind::WrongArity, t.range,
           "expected " + std::to_string(elts.size()) + " values to unpack, found " + std::to_string(vs.size()));
    for (size_t i = 0; i < elts.size(); ++i) bind(*elts[i], vs[i]);
  };
  std::vector<Value> out;
  Value dict = Value::dict();
  std::function<void(size_t)> loop = [&](size_t g) {
    if (g == c.generators.size()) {
      if (c.comp == ast::CompKind::Dict) {
        Value k = eval(*c.elt);
        dict_set(dict, k, eval(*c.value), c.elt->range);
      } else {
        out.push_back(eval(*c.elt));
      }
      return;
    }
    const auto& gen = c.generators[g];
    if (gen.is_async) fail(diag::Kind::UnsupportedSyntax, gen.iter->range, "async comprehensions are not supported yet");
    for (const Value& x : iterate(eval(*gen.iter), gen.iter->range, "a comprehension")) {
      count_step(gen.iter->range);
      bind(*gen.target, x);
      bool keep = true;
      for (const auto& cond : gen.ifs) {
        Value t = eval(*cond);
        require_static(t, cond->range, "a comprehension's condition");
        if (!truthy_static(t, cond->range)) { keep = false; break; }
      }
      if (keep) loop(g + 1);
    }
  };
  loop(0);
  switch (c.comp) {
    case ast::CompKind::List: return Value::list(std::move(out));
    case ast::CompKind::Dict: return dict;
    case ast::CompKind::Set: return set_of(std::move(out), c.range);
    case ast::CompKind::Generator: break;
  }
  return Value::tuple(std::move(out));  // a generator is consumed whole while compiling
}

namespace {

/// The enclosing function's names as a closure sees them: values only (a C++ local a name owns
/// stays the enclosing function's; the closure's own assignments make new ones).
std::shared_ptr<Env> capture(const Frame& f) {
  if (f.is_module) return nullptr;
  auto env = std::make_shared<Env>();
  for (const auto& [name, b] : f.env) (*env)[name] = Binding{b.value, "", b.where, 0};
  return env;
}

}  // namespace

Value Evaluator::eval_lambda(const ast::Lambda& l) {
  auto fn = std::make_shared<FunctionValue>();
  fn->lambda = &l;
  fn->module = frame().module;
  fn->closure = capture(frame());
  return Value::of(fn);
}

std::shared_ptr<const Env> capture_closure(const Frame& f) { return capture(f); }

// ---- exceptions raised while compiling

namespace {

std::optional<BuiltinId> exception_class_of(const Value& v) {
  if (v.kind() == Value::Kind::Builtin && is_exception_class(v.builtin())) return v.builtin();
  return std::nullopt;
}

/// E0504 for an exception no `try` of code run while compiling catches: Python would stop there.
[[noreturn]] void report_uncaught(Evaluator& ev, const std::string& type, const std::string& message, source::SourceRange at) {
  auto& d = ev.error(diag::Kind::StaticAssertFailed, at,
                     (type.empty() ? std::string("'raise'") : type) + " raised while compiling" + (message.empty() ? "" : ": " + message));
  d.help("this code runs while compiling, as Python runs it; the values it was given make it raise");
  ev.abort_entry();
}

bool derives_from(BuiltinId cls, BuiltinId base) {
  for (std::optional<BuiltinId> c = cls; c; c = exception_parent(*c))
    if (*c == base) return true;
  return false;
}

}  // namespace

bool Evaluator::isinstance_of(const Value& v, const Value& cls, source::SourceRange r) {
  if (cls.kind() == Value::Kind::Tuple) {
    for (const auto& c : cls.elts())
      if (isinstance_of(v, c, r)) return true;
    return false;
  }
  if (cls.kind() == Value::Kind::Type)  // cutlass.Float32: a run-time value of that type (CuTe DSL's Numeric instances)
    return v.kind() == Value::Kind::Dyn && v.type() == cls.type();
  if (is_opaque(cls)) return false;  // torch.Tensor, a host-only class: nothing compiled is one
  if (cls.kind() == Value::Kind::Class) {  // a class of the program: by the instance's class MRO
    if (v.kind() != Value::Kind::Instance) return false;
    const auto& mro = v.obj()->cls->mro;
    return std::find(mro.begin(), mro.end(), cls.cls().get()) != mro.end();
  }
  if (cls.kind() == Value::Kind::Builtin && !cls.self()) {
    const auto k = v.kind();
    switch (cls.builtin()) {
      case BuiltinId::Int: return k == Value::Kind::Int || k == Value::Kind::Bool;  // bool is an int, as in Python
      case BuiltinId::Float: return k == Value::Kind::Float;
      case BuiltinId::Bool: return k == Value::Kind::Bool;
      case BuiltinId::PyStr: return k == Value::Kind::Str;
      case BuiltinId::PyTuple: return k == Value::Kind::Tuple && !v.is_list();
      case BuiltinId::PyList: return v.is_list();
      case BuiltinId::PyDict: return k == Value::Kind::Dict;
      case BuiltinId::PySet: return false;  // sets are tuples here
      case BuiltinId::Object: return true;   // everything is an object
      default:
        if (is_exception_class(cls.builtin())) {
          auto vc = exception_class_of(v);
          return vc && v.self() && derives_from(*vc, cls.builtin());
        }
    }
  }
  fail(diag::Kind::TypeMismatch, r, "isinstance()'s second argument must be a type or a tuple of types, found " + describe(cls));
}

void Evaluator::exec_raise(const ast::Raise& r) {
  if (frame().dyn_depth > 0) reject_unsupported(static_cast<const ast::Stmt&>(r));
  Value exc;
  std::string type_text, message;
  if (!r.exc) {
    if (handling_.empty()) fail(diag::Kind::StaticAssertFailed, r.range, "'raise' with no exception being handled");
    exc = handling_.back();
  } else {
    const ast::Expr* type = r.exc.get();
    const ast::Call* call = r.exc->as<ast::Call>();
    if (call) type = call->func.get();
    type_text = std::string(sm_.text(type->range));
    // An exception class of the program's own (a class, not compiled yet) still reports its message.
    const auto* name = type->as<ast::Name>();
    bool known = !name || scope().count(name->id) || frame().module->globals.count(name->id) ||
                 find_python_builtin(name->id);
    if (known || try_depth_ > 0) {
      exc = eval(*r.exc);
    } else if (call && !call->args.empty()) {
      const ast::Expr& arg = *call->args[0];
      if (const auto* s = arg.as<ast::StrLit>()) message = s->value;
      else if (const auto* j = arg.as<ast::JoinedStr>()) message = eval_fstring(*j).s();
      else message = std::string(sm_.text(arg.range));
    }
  }
  if (auto cls = exception_class_of(exc)) {
    if (!exc.self()) exc = Value::method(*cls, Value::tuple({}));  // `raise ValueError`: an instance with no arguments
    type_text = builtin_info(*cls).name;
    message = py_text(exc, false);
  } else if (exc.kind() != Value::Kind::Undef) {
    fail(diag::Kind::TypeMismatch, r.exc ? r.exc->range : r.range, "exceptions must derive from BaseException, found " + describe(exc));
  }
  if (try_depth_ > 0) throw CompileTimeRaise{exc, type_text, message, r.range};
  report_uncaught(*this, type_text, message, r.range);
}

Flow Evaluator::exec_try(const ast::Try& t) {
  if (t.is_star) fail(diag::Kind::UnsupportedSyntax, t.range, "except* (exception groups) is not supported yet");
  const UnwindPoint point = unwind_point();
  const size_t nhandling = handling_.size();
  std::optional<CompileTimeRaise> caught;
  Flow flow = Flow::Normal;
  ++try_depth_;
  try {
    flow = exec_body(t.body);
  } catch (CompileTimeRaise& e) {
    caught = std::move(e);
  } catch (...) {
    --try_depth_;
    throw;
  }
  --try_depth_;
  auto run_finally = [&](Flow f) {
    if (t.finalbody.empty()) return f;
    Flow ff = exec_body(t.finalbody);
    return ff != Flow::Normal ? ff : f;
  };
  if (!caught) {
    if (flow == Flow::Normal && !t.orelse.empty()) flow = exec_body(t.orelse);
    return run_finally(flow);
  }
  unwind_to(point);  // what the raise left half-done: inlined frames, open run-time blocks, loops
  handling_.resize(nhandling);
  for (const auto& h : t.handlers) {
    if (h.type && !isinstance_of(caught->exception, eval(*h.type), h.type->range)) continue;
    if (!h.name.empty()) bind_name(h.name, caught->exception, h.name_range);
    handling_.push_back(caught->exception);
    struct Pop { std::vector<Value>& v; size_t n; ~Pop() { v.resize(n); } } pop{handling_, nhandling};
    return run_finally(exec_body(h.body));
  }
  run_finally(Flow::Normal);
  if (try_depth_ > 0) throw *caught;
  report_uncaught(*this, caught->type, caught->message, caught->at);
}

}  // namespace tileslc::sema
