// `tileslc KERNEL.tpy --tuned DB.json` (docs/tuning.md): the tuner's decisions
// become code. Each tuned host function is compiled once per configuration that
// won a shape bucket (a specialization `NAME_tuned<i>` with its own kernels), and
// NAME itself becomes a dispatcher that validates its arguments, reads the key
// extents and calls the bucket's specialization (an unseen shape: the nearest
// bucket, by the sum of |log2(x / bucket x)| over the key).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace tileslc::driver {

/// One decision of a results database: for `function` and the key values `bucket`, `config`.
struct TunedDecision {
  std::string function;
  std::vector<std::pair<std::string, int64_t>> bucket;     ///< key symbol, value; in key order
  std::vector<std::pair<std::string, std::string>> config;  ///< Constexpr parameter, -D literal
};

/// Reads the "decisions" of the database at `path` (written by `tileslc tune`). False with
/// `error` set ("DB.json:3:7: ..." for a syntax error, the decision's index for a bad one).
bool read_tuned_decisions(const std::string& path, std::vector<TunedDecision>* out, std::string* error);

/// Compiles the program again with extra -D values (a configuration); nullopt after reporting errors.
using CompileVariant = std::function<std::optional<ir::Program>(const std::vector<std::pair<std::string, std::string>>& config)>;

/// Turns each host function of `program` that `decisions` name into a dispatcher over its
/// specializations, which `compile` makes. False with `error` set when a decision names a host
/// function or a key symbol the program does not have; false with an empty error when a
/// specialization did not compile (its diagnostics are reported).
bool apply_tuned(ir::Program& program, const std::vector<TunedDecision>& decisions, const CompileVariant& compile, std::string* error);

}  // namespace tileslc::driver
