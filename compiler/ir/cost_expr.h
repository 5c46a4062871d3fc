// A @cutlass.cost expression (docs/tuning.md, "Cost"): the bytes or FLOPs of one call of a host
// function, written as a Python arithmetic expression over its symbolic extents ("2 * M * N * K").
// The tuner evaluates the same text with Python; the generated host function evaluates its C++
// translation per call, in double precision, for the metrics records. The grammar is Python's,
// restricted to: decimal int and float literals, names, parentheses, unary + and -, and the
// binary operators + - * / // % ** with Python's precedence and associativity (** binds
// tighter than unary minus on its left and is right-associative; / is true division; // and %
// floor as Python's).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace tileslc::ir {

/// Why an expression does not translate: the message and the 0-based offset in the text.
struct CostExprError {
  std::string message;
  size_t offset = 0;
};

/// Translates `text` to a C++ expression of type double. `name` maps each name the text uses to
/// a C++ expression (a symbol's int64_t local, a Constexpr value), or returns nullopt for a name
/// that is not allowed (reported with `names_hint`, the names that are). Returns the C++ text,
/// or the first error. The result uses std::floor, std::fmod and std::pow (<cmath>).
std::string translate_cost_expr(const std::string& text, const std::function<std::optional<std::string>(const std::string&)>& name,
                                const std::string& names_hint, CostExprError* error);

}  // namespace tileslc::ir
