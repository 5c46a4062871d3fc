// static_limits.h: how large a value compile-time evaluation may build.
//
// Static Python code runs inside the compiler, so a value that grows without
// bound (a string doubled in a 40-step loop wants 2^40 bytes) would end the
// compiler with std::bad_alloc long before the E0512 step limit is reached.
// Every operation that can grow a string checks the result's size first and
// reports E0512 at the expression instead (docs/language.md, "Limits").
#pragma once

#include <cstddef>
#include <string>

#include "sema/evaluator.h"

namespace tileslc::sema {

/// The largest static string: 16 MiB, far above any kernel name, message or
/// generated identifier, far below what would exhaust the compiler's memory.
inline constexpr size_t kMaxStaticStringBytes = size_t{1} << 24;

/// Fails with E0512 at `r` when a string of `bytes` bytes would be over the limit.
/// `what` names the operation ("string concatenation", "str.join()").
inline void check_static_string(Evaluator& ev, size_t bytes, source::SourceRange r, const char* what) {
  if (bytes > kMaxStaticStringBytes)
    ev.fail(diag::Kind::EvaluationTooLarge, r,
            std::string(what) + " builds a static string of more than " + std::to_string(kMaxStaticStringBytes) +
                " bytes (the limit while compiling)");
}

}  // namespace tileslc::sema
