// The builtin registry (registry.h): builtins.def's rows as a table, their
// parameter lists parsed once, lookups by module name and by method, argument
// binding with Python's rules, and Evaluator::call_builtin, where every
// builtin call is checked (context, arch, arguments) before its handler runs.
#include "sema/registry.h"

#include <algorithm>

#include <cstdlib>
#include <map>
#include <stdexcept>

#include "sema/evaluator.h"

namespace tileslc::sema {

namespace {

struct Row {
  BuiltinId id;
  const char* export_name;
  const char* name;
  const char* params;
  BuiltinContext context;
  BuiltinArch arch;
  BuiltinHandler handler;
  bool is_method;
  Value::Kind receiver;
};

constexpr BuiltinContext Anywhere = BuiltinContext::Anywhere, Kernel = BuiltinContext::Kernel,
                         Host = BuiltinContext::Host, Function = BuiltinContext::Function;
constexpr BuiltinArch Any = BuiltinArch::Any, Sm90 = BuiltinArch::Sm90, Sm90a = BuiltinArch::Sm90a;

const Row kRows[] = {
#define TILESLC_BUILTIN(Id, Export, Name, Params, Context, Arch, Handler) \
  {BuiltinId::Id, Export, Name, Params, Context, Arch, &Handler, false, Value::Kind::Undef},
#define TILESLC_METHOD(Id, Receiver, Name, Params, Context, Arch, Handler) \
  {BuiltinId::Id, "", Name, Params, Context, Arch, &Handler, true, Value::Kind::Receiver},
#include "sema/builtins.def"
};

/// A default as written in a Params column: None, (), True, False, an integer, a float or a quoted string.
Value parse_default(const std::string& text, const char* row) {
  if (text == "None") return Value::none();
  if (text == "()") return Value::tuple({});
  if (text == "True") return Value::boolean(true);
  if (text == "False") return Value::boolean(false);
  if (text.size() >= 2 && (text[0] == '\'' || text[0] == '"') && text.back() == text[0])
    return Value::str(text.substr(1, text.size() - 2));
  char* end = nullptr;
  long long i = std::strtoll(text.c_str(), &end, 0);
  if (end && *end == '\0' && !text.empty()) return Value::integer(i);
  double f = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && !text.empty()) return Value::floating(f);
  throw std::logic_error(std::string("builtins.def: bad default '") + text + "' in " + row);
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// Parses "shape, stride=None, *, mode=None", "*args", "**kwargs" into `info`.
void parse_params(BuiltinInfo& info) {
  std::string sig = info.signature;
  std::vector<std::string> parts;
  std::string cur;
  char quote = 0;
  for (char ch : sig) {
    if (quote) {
      cur += ch;
      if (ch == quote) quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      cur += ch;
    } else if (ch == ',') {
      parts.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!trim(cur).empty()) parts.push_back(trim(cur));
  bool kw_only = false;
  for (const auto& p : parts) {
    if (p == "*") { kw_only = true; continue; }
    if (p.rfind("**", 0) == 0) { info.varkw = true; continue; }
    if (p.rfind("*", 0) == 0) { info.varargs = true; kw_only = true; continue; }
    BuiltinParam param;
    auto eq = p.find('=');
    param.name = trim(p.substr(0, eq));
    if (eq != std::string::npos) param.default_value = parse_default(trim(p.substr(eq + 1)), info.name);
    param.keyword_only = kw_only;
    if (!kw_only) ++info.positional;
    info.params.push_back(std::move(param));
  }
}

std::vector<BuiltinInfo> make_table() {
  std::vector<BuiltinInfo> table;
  table.reserve(std::size(kRows));
  for (const auto& r : kRows) {
    BuiltinInfo info{r.id, r.export_name, r.name, r.params, r.context, r.arch, r.handler, r.is_method, r.receiver, {}};
    parse_params(info);
    if (static_cast<size_t>(r.id) != table.size()) throw std::logic_error("builtins.def: rows out of BuiltinId order");
    table.push_back(std::move(info));
  }
  return table;
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

std::string_view BuiltinInfo::attribute() const {
  std::string_view n = name;
  auto dot = n.rfind('.');
  return dot == std::string_view::npos ? n : n.substr(dot + 1);
}

const std::vector<BuiltinInfo>& builtin_table() {
  static const std::vector<BuiltinInfo> table = make_table();
  return table;
}

const BuiltinInfo& builtin_info(BuiltinId id) { return builtin_table().at(static_cast<size_t>(id)); }

const BuiltinInfo* find_method(Value::Kind kind, std::string_view attr) {
  static const auto index = [] {
    std::map<std::pair<Value::Kind, std::string>, const BuiltinInfo*, std::less<>> m;
    for (const auto& info : builtin_table())
      if (info.is_method) m[{info.receiver, std::string(info.attribute())}] = &info;
    return m;
  }();
  auto it = index.find(std::make_pair(kind, std::string(attr)));
  return it == index.end() ? nullptr : it->second;
}

const BuiltinInfo* find_python_builtin(std::string_view name) {
  static const auto index = [] {
    std::map<std::string, const BuiltinInfo*, std::less<>> m;
    for (const auto& info : builtin_table())
      if (!info.is_method && std::string_view(info.name).find('.') == std::string_view::npos) m[info.name] = &info;
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

std::vector<std::string> method_names(Value::Kind kind) {
  std::vector<std::string> out;
  for (const auto& info : builtin_table())
    if (info.is_method && info.receiver == kind) out.emplace_back(info.attribute());
  return out;
}

bool BuiltinCall::has(size_t i) const { return i < slots.size() && slots[i] && slots[i]->kind() != Value::Kind::None; }

void bind_builtin_args(Evaluator& ev, BuiltinCall& call, std::vector<Value>& args, Kwargs& kwargs) {
  const BuiltinInfo& info = call.info;
  const std::string fn = info.name;
  const ast::Call& site = call.site;
  const size_t n = info.params.size();
  call.slots.assign(n, std::nullopt);
  call.ranges.assign(n, site.range);
  call.was_given.assign(n, false);
  size_t npos = std::min(args.size(), info.positional);
  for (size_t i = 0; i < npos; ++i) {
    call.slots[i] = std::move(args[i]);
    call.ranges[i] = arg_range_of(site, i);
    call.was_given[i] = true;
  }
  if (args.size() > info.positional) {
    if (!info.varargs) {
      std::string want;
      size_t required = 0;
      for (size_t i = 0; i < info.positional; ++i) required += info.params[i].default_value ? 0 : 1;
      if (info.positional == 0) want = info.params.empty() ? "no arguments" : "no positional arguments";
      else if (required == info.positional) want = plural(info.positional, "positional argument");
      else want = std::to_string(required) + " to " + plural(info.positional, "positional argument");
      auto& d = ev.error(diag::Kind::WrongArity, arg_range_of(site, info.positional),
                         fn + "() takes " + want + ", " + std::to_string(args.size()) + " given");
      std::string keyword_only;
      for (const auto& p : info.params)
        if (p.keyword_only) keyword_only += (keyword_only.empty() ? "" : ", ") + p.name + "=";
      if (!keyword_only.empty()) d.help(std::string(info.positional ? "pass the others" : "pass them") + " by keyword: " + keyword_only);
      ev.abort_entry();
    }
    for (size_t i = info.positional; i < args.size(); ++i) {
      call.rest.push_back(std::move(args[i]));
      call.rest_ranges.push_back(arg_range_of(site, i));
    }
  }
  for (size_t k = 0; k < kwargs.size(); ++k) {
    auto& [key, value] = kwargs[k];
    size_t i = 0;
    while (i < n && info.params[i].name != key) ++i;
    source::SourceRange at = k < site.keywords.size() ? site.keywords[k].name_range : site.range;
    if (i == n) {
      // CuTe DSL's ops take loc= and ip= (MLIR source locations and insertion points), which a
      // @cutlass.dsl_user_op function passes on; None there, they mean nothing here.
      if ((key == "loc" || key == "ip") && value.kind() == Value::Kind::None) continue;
      if (info.varkw) {
        call.extra.emplace_back(key, std::move(value));
        continue;
      }
      auto& d = ev.error(diag::Kind::UnknownKeyword, at, fn + "() got an unexpected keyword argument '" + key + "'");
      std::vector<std::string> names;  // a parameter already given is no suggestion
      for (size_t j = 0; j < n; ++j)
        if (!call.was_given[j]) names.push_back(info.params[j].name);
      std::string best = closest_name(key, names);
      if (!best.empty()) d.help("did you mean '" + best + "'?");
      else if (info.params.empty()) d.note(fn + "() takes no keyword arguments");
      ev.abort_entry();
    }
    if (call.was_given[i])
      ev.fail(diag::Kind::WrongArity, at, fn + "() got multiple values for argument '" + key + "'");
    call.slots[i] = std::move(value);
    call.ranges[i] = k < site.keywords.size() && site.keywords[k].value ? site.keywords[k].value->range : site.range;
    call.was_given[i] = true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (call.slots[i]) continue;
    if (!info.params[i].default_value)
      ev.fail(diag::Kind::WrongArity, site.range, fn + "() missing required argument '" + info.params[i].name + "'");
    call.slots[i] = *info.params[i].default_value;
  }
}

Value Evaluator::call_builtin(const Value& callee, std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site) {
  const BuiltinInfo& info = builtin_info(callee.builtin());
  const std::string fn = info.name;
  switch (info.context) {
    case BuiltinContext::Anywhere: break;
    case BuiltinContext::Kernel:
      if (!fn_ || !fn_->is_kernel)
        fail(diag::Kind::UnsupportedOperation, site.range, fn + "() is only available inside a @cute.kernel");
      break;
    case BuiltinContext::Host:
      if (!fn_ || fn_->is_kernel)
        fail(diag::Kind::UnsupportedOperation, site.range, fn + "() is only available inside a @cute.jit host function");
      break;
    case BuiltinContext::Function:
      if (!fn_)
        fail(diag::Kind::UnsupportedOperation, site.range, fn + "() is only available inside a @cute.kernel or @cute.jit function");
      break;
  }
  if (info.arch != BuiltinArch::Any) require_arch((fn + "()").c_str(), info.arch == BuiltinArch::Sm90a, site.range);
  BuiltinCall call(info, site);
  call.callee = &callee;
  bind_builtin_args(*this, call, args, kwargs);
  try {
    return info.handler(*this, call);
  } catch (const layout::LayoutError& e) {
    // Handlers report the algebra's failed preconditions with the layouts involved; any that
    // escapes one (a conversion outside its algebra() wrapper) is still E0601 here, never a crash.
    fail(diag::Kind::LayoutAlgebraError, site.range, e.what());
  }
}

}  // namespace tileslc::sema
