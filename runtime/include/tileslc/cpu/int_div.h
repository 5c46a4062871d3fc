// Integer division for the CPU emulation target. With --target=cpu, codegen
// writes a run-time integer `a // b`, `a % b` (and the C division it lowers
// them to for non-negative operands) as tileslc::cpu::floordiv<T>(a, b),
// mod<T>, truncdiv<T> and truncmod<T> whenever the divisor is not a constant
// other than 0 and -1 (codegen/cpu_target.cpp). On the host a division by
// zero or INT_MIN / -1 raises SIGFPE; these report the .tpy line instead,
// like the emulator's other faults:
//   "x.tpy:12: error: integer division by zero: 7 // 0 (thread ... block ...)".
// INT_MIN % -1 is 0, as in Python (every integer is a multiple of -1).
// The GPU does not trap: PTX's div and rem leave a zero divisor's result (and
// div's INT_MIN / -1) unspecified, and the kernel goes on with that value.
#ifndef TILESLC_CPU_INT_DIV_H
#define TILESLC_CPU_INT_DIV_H

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "tileslc/cpu/thread.h"

namespace tileslc::cpu {

namespace detail {
/// Stops the run when `a op b` has no integer result: a zero divisor, or a
/// quotient (op "//") of the type's minimum by -1.
template <class T>
void check_division(T a, T b, const char* op, const SrcLoc& loc) {
  if (b == T(0)) [[unlikely]]
    fail(loc, std::string("integer ") + (op[0] == '%' ? "modulo" : "division") + " by zero: " + std::to_string(+a) +
                  " " + op + " 0");
  if constexpr (std::is_signed_v<T>)
    if (op[0] == '/' && a == std::numeric_limits<T>::min() && b == T(-1)) [[unlikely]]
      fail(loc, "integer division overflows: " + std::to_string(+a) + " // -1 does not fit in " +
                    std::to_string(sizeof(T) * 8) + " bits");
}
}  // namespace detail

/// Python's a // b (tileslc::dev::floordiv), checked.
template <class T>
T floordiv(T a, T b, const SrcLoc& loc = SrcLoc::current()) {
  detail::check_division(a, b, "//", loc);
  return dev::floordiv(a, b);
}
/// Python's a % b (tileslc::dev::mod), checked; a % -1 is 0.
template <class T>
T mod(T a, T b, const SrcLoc& loc = SrcLoc::current()) {
  detail::check_division(a, b, "%", loc);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return dev::mod(a, b);
}
/// C's a / b (Python's // of non-negative operands), checked.
template <class T>
T truncdiv(T a, T b, const SrcLoc& loc = SrcLoc::current()) {
  detail::check_division(a, b, "//", loc);
  return static_cast<T>(a / b);
}
/// C's a % b (Python's % of non-negative operands), checked; a % -1 is 0.
template <class T>
T truncmod(T a, T b, const SrcLoc& loc = SrcLoc::current()) {
  detail::check_division(a, b, "%", loc);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return static_cast<T>(a % b);
}

}  // namespace tileslc::cpu

#endif  // TILESLC_CPU_INT_DIV_H
