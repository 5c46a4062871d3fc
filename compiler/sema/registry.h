// The builtin registry: builtins.def read into a table (BuiltinInfo per row),
// the lookups sema needs (a `tileslc._builtins` name, a method on a receiver),
// and the one place a builtin call is checked before its handler runs:
// arguments bound to the row's parameters as Python binds them (positional,
// then keywords, then defaults), E0405/E0406 with one wording that names the
// function, the context (kernel/host/module level) and the target
// architecture (E0709). docs/architecture.md walks through it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/value.h"

namespace tileslc::sema {

class Evaluator;
struct BuiltinCall;
struct BuiltinInfo;

/// Where a builtin may be called (builtins.def's Context column).
enum class BuiltinContext : uint8_t {
  Anywhere,  ///< module level, host functions and kernels
  Kernel,    ///< inside a @cute.kernel only
  Host,      ///< inside a @cute.jit host function only
  Function,  ///< inside a kernel or a host function, not at module level
};

/// The oldest target a builtin compiles for (builtins.def's Arch column).
enum class BuiltinArch : uint8_t { Any, Sm90, Sm90a };

using BuiltinHandler = Value (*)(Evaluator&, BuiltinCall&);

/// One declared parameter of a builtin ("stride=None" -> name "stride", default None).
struct BuiltinParam {
  std::string name;
  std::optional<Value> default_value;  ///< absent: required
  bool keyword_only = false;           ///< declared after `*` or `*args`
};

/// A row of builtins.def, with its parameter list parsed.
struct BuiltinInfo {
  BuiltinId id;
  const char* export_name;          ///< name in tileslc._builtins; "" for methods
  const char* name;                 ///< qualified name for messages: "cute.make_layout", "TiledCopy.partition_S"
  const char* signature;            ///< the Params column as written
  BuiltinContext context;
  BuiltinArch arch;
  BuiltinHandler handler;
  bool is_method = false;
  Value::Kind receiver = Value::Kind::Undef;  ///< methods: the kind they are looked up on
  std::vector<BuiltinParam> params; ///< named parameters, in order
  bool varargs = false;             ///< "*args": extra positional arguments go to BuiltinCall::rest
  bool varkw = false;               ///< "**kwargs": unknown keywords go to BuiltinCall::extra
  size_t positional = 0;            ///< parameters that can be passed by position

  /// The method's attribute name ("partition_S" of "TiledCopy.partition_S").
  std::string_view attribute() const;
};

/// Every row of builtins.def, indexed by BuiltinId.
const std::vector<BuiltinInfo>& builtin_table();
const BuiltinInfo& builtin_info(BuiltinId id);
/// The method named `attr` on values of `kind`, if the registry has one.
const BuiltinInfo* find_method(Value::Kind kind, std::string_view attr);
/// The row of Python's builtin named `name` (a Name without a module: "range", "enumerate",
/// "ValueError"), found from every module as in Python; null if there is none.
const BuiltinInfo* find_python_builtin(std::string_view name);
/// The attribute names of the methods on values of `kind` (for "available:" lists and did-you-mean).
std::vector<std::string> method_names(Value::Kind kind);

/// A builtin call with its arguments bound to the row's parameters. Slot i
/// holds parameter i's value (the argument, or the default when it was not
/// given); `given(i)` says whether the caller passed it.
struct BuiltinCall {
  const BuiltinInfo& info;
  const ast::Call& site;
  const Value* callee = nullptr;     ///< the builtin value called (methods: its `self` is the receiver)
  std::vector<std::optional<Value>> slots;
  std::vector<source::SourceRange> ranges;  ///< per slot: where the argument was written (the call when defaulted)
  std::vector<bool> was_given;
  std::vector<Value> rest;                  ///< "*args": positional arguments past the named ones
  std::vector<source::SourceRange> rest_ranges;
  Kwargs extra;                             ///< "**kwargs": keywords no parameter took

  BuiltinCall(const BuiltinInfo& i, const ast::Call& s) : info(i), site(s) {}
  BuiltinId id() const { return info.id; }
  /// "cute.make_layout": the name messages use.
  std::string name() const { return info.name; }
  /// Parameter i's value: passed or defaulted. Required parameters always have one.
  Value& operator[](size_t i) { return *slots.at(i); }
  /// True if parameter i has a value that is not None (passed, or a non-None default).
  bool has(size_t i) const;
  bool given(size_t i) const { return i < was_given.size() && was_given[i]; }
  /// Where parameter i was written; the whole call when it took its default.
  source::SourceRange range(size_t i) const { return i < ranges.size() ? ranges[i] : site.range; }
  /// The receiver of a method call.
  const Value& self() const { return *callee->self(); }
};

/// Binds `args` and `kwargs` to the row's parameters (Python's rules), or
/// reports E0405/E0406 at the call: "cute.arch.thread_idx() takes no
/// arguments, 1 given", "cute.make_layout() got an unexpected keyword argument
/// 'shapes'", "... got multiple values for argument 'shape'", "... missing
/// required argument 'shape'".
void bind_builtin_args(Evaluator& ev, BuiltinCall& call, std::vector<Value>& args, Kwargs& kwargs);

// The handlers, one declaration per row (defined in the family's *_ops.cpp).
#define TILESLC_BUILTIN(Id, Export, Name, Params, Context, Arch, Handler) Value Handler(Evaluator&, BuiltinCall&);
#define TILESLC_METHOD(Id, Receiver, Name, Params, Context, Arch, Handler) Value Handler(Evaluator&, BuiltinCall&);
#include "sema/builtins.def"

}  // namespace tileslc::sema
