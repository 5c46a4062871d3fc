// What the device prelude and the CPU emulation prelude (tileslc/cpu/prelude.h)
// share: the types of one vector access and the helpers that give generated
// code one meaning on both targets: tileslc::dev::neg (wrapping), floordiv, mod, min and max
// (Python's semantics), shl and shr (PTX's clamping shifts), cvt_rzi (PTX's
// saturating float-to-integer conversion), range_trips and range_next (a
// run-time range()'s iterations). Each prelude defines
// TILESLC_HOST_DEVICE, uint2 and uint4 before including this file.
#ifndef TILESLC_DEVICE_COMMON_H
#define TILESLC_DEVICE_COMMON_H

#include <cstdint>

namespace tileslc {
namespace dev {

// Types of one vector access, by width in bits.
typedef uint8_t bits8_t;
typedef uint16_t bits16_t;
typedef uint32_t bits32_t;
typedef uint2 bits64_t;
typedef uint4 bits128_t;

// Python's floor division and modulo: the quotient rounds toward negative
// infinity and the remainder takes the divisor's sign (C++ truncates).
TILESLC_HOST_DEVICE int32_t floordiv(int32_t a, int32_t b) { int32_t q = a / b; return q - ((a % b != 0) & ((a < 0) != (b < 0))); }
TILESLC_HOST_DEVICE int64_t floordiv(int64_t a, int64_t b) { int64_t q = a / b; return q - ((a % b != 0) & ((a < 0) != (b < 0))); }
TILESLC_HOST_DEVICE int16_t floordiv(int16_t a, int16_t b) { return static_cast<int16_t>(floordiv(int32_t{a}, int32_t{b})); }
TILESLC_HOST_DEVICE int8_t floordiv(int8_t a, int8_t b) { return static_cast<int8_t>(floordiv(int32_t{a}, int32_t{b})); }
TILESLC_HOST_DEVICE uint8_t floordiv(uint8_t a, uint8_t b) { return a / b; }
TILESLC_HOST_DEVICE uint16_t floordiv(uint16_t a, uint16_t b) { return a / b; }
TILESLC_HOST_DEVICE uint32_t floordiv(uint32_t a, uint32_t b) { return a / b; }
TILESLC_HOST_DEVICE uint64_t floordiv(uint64_t a, uint64_t b) { return a / b; }
TILESLC_HOST_DEVICE int32_t mod(int32_t a, int32_t b) { int32_t m = a % b; return m + (((m != 0) & ((m < 0) != (b < 0))) ? b : 0); }
TILESLC_HOST_DEVICE int64_t mod(int64_t a, int64_t b) { int64_t m = a % b; return m + (((m != 0) & ((m < 0) != (b < 0))) ? b : 0); }
TILESLC_HOST_DEVICE int16_t mod(int16_t a, int16_t b) { return static_cast<int16_t>(mod(int32_t{a}, int32_t{b})); }
TILESLC_HOST_DEVICE int8_t mod(int8_t a, int8_t b) { return static_cast<int8_t>(mod(int32_t{a}, int32_t{b})); }
TILESLC_HOST_DEVICE uint8_t mod(uint8_t a, uint8_t b) { return a % b; }
TILESLC_HOST_DEVICE uint16_t mod(uint16_t a, uint16_t b) { return a % b; }
TILESLC_HOST_DEVICE uint32_t mod(uint32_t a, uint32_t b) { return a % b; }
TILESLC_HOST_DEVICE uint64_t mod(uint64_t a, uint64_t b) { return a % b; }

// Python's float % and // (CPython's float_rem and float_floor_div): fmod is
// exact and no product is formed, so no FMA contraction can make the GPU's
// result differ from the emulator's or from the compiler's fold of static
// floats (sema/eval_expr.cpp, py_float_mod and py_float_floordiv). The
// remainder takes the divisor's sign, a zero one too (7.0 % -0.5 == -0.0);
// the quotient is (a - a % b) / b rounded to the nearest integer
// (10.0 // 0.1 == 99.0, where floor(10.0 / 0.1) == 100.0). A zero divisor
// gives NaN (Python raises ZeroDivisionError).
#define TILESLC_FLOAT_FLOORDIV_MOD(F)                           \
  TILESLC_HOST_DEVICE F mod(F a, F b) {                         \
    F m = fmod(a, b);                                           \
    if (m != F(0)) return (b < F(0)) != (m < F(0)) ? m + b : m; \
    return copysign(F(0), b);                                   \
  }                                                             \
  TILESLC_HOST_DEVICE F floordiv(F a, F b) {                    \
    F m = fmod(a, b);                                           \
    F q = (a - m) / b;                                          \
    if (m != F(0) && (b < F(0)) != (m < F(0))) q -= F(1);       \
    if (q == F(0)) return copysign(F(0), a / b);                \
    F f = floor(q);                                             \
    return q - f > F(0.5) ? f + F(1) : f;                       \
  }
TILESLC_FLOAT_FLOORDIV_MOD(float)
TILESLC_FLOAT_FLOORDIV_MOD(double)
#undef TILESLC_FLOAT_FLOORDIV_MOD

// Shifts by a run-time count, as PTX's shl and shr define them (PTX ISA,
// "Logic and Shift Instructions": shift amounts greater than the register
// width are clamped to it): the count is read as unsigned, and one of the
// operand's width or more shifts every bit out, so shl and a logical
// (unsigned) shr give 0 and an arithmetic (signed) shr gives the sign (-1 or
// 0). A negative count reads as 2^32 - |n| or more: the same. C++ leaves all
// of these undefined; a static count out of range is E0513 instead.
// T the type, U its unsigned twin, SIGNED 1 for an arithmetic shr.
#define TILESLC_INT_SHIFT(T, U, SIGNED)                                                        \
  TILESLC_HOST_DEVICE T shl(T a, T n) {                                                        \
    return static_cast<U>(n) >= sizeof(T) * 8 ? T(0) : static_cast<T>(static_cast<U>(a) << n); \
  }                                                                                            \
  TILESLC_HOST_DEVICE T shr(T a, T n) {                                                        \
    if (static_cast<U>(n) < sizeof(T) * 8) return static_cast<T>(a >> n);                      \
    return SIGNED ? static_cast<T>(a >> (sizeof(T) * 8 - 1)) : T(0);                           \
  }
TILESLC_INT_SHIFT(int8_t, uint8_t, 1)
TILESLC_INT_SHIFT(int16_t, uint16_t, 1)
TILESLC_INT_SHIFT(int32_t, uint32_t, 1)
TILESLC_INT_SHIFT(int64_t, uint64_t, 1)
TILESLC_INT_SHIFT(uint8_t, uint8_t, 0)
TILESLC_INT_SHIFT(uint16_t, uint16_t, 0)
TILESLC_INT_SHIFT(uint32_t, uint32_t, 0)
TILESLC_INT_SHIFT(uint64_t, uint64_t, 0)
#undef TILESLC_INT_SHIFT

// Float (Float32 or Float64) to integer as PTX's cvt.rzi.{s,u}{8,16,32,64}.f{32,64}
// defines it (PTX ISA, "cvt": float-to-integer conversions are clamped to the
// destination's range; NaN gives 0), which the CPU emulator and the static
// folder follow too. Needed because nvcc's static_cast to an 8- or 16-bit type
// converts to 32 bits and keeps the low bits (Uint8(2932.3) came out 117, not
// 255: tools/difffuzz.py's GPU half), and host C++ leaves an out-of-range value
// undefined. The comparisons are in F (float stays float: no FP64 on the GPU).
template <class T> struct int_limits;
#define TILESLC_INT_LIMITS(T, LO, HI) \
  template <> struct int_limits<T> { static constexpr T lo = LO, hi = HI; };
TILESLC_INT_LIMITS(int8_t, INT8_MIN, INT8_MAX)
TILESLC_INT_LIMITS(int16_t, INT16_MIN, INT16_MAX)
TILESLC_INT_LIMITS(int32_t, INT32_MIN, INT32_MAX)
TILESLC_INT_LIMITS(int64_t, INT64_MIN, INT64_MAX)
TILESLC_INT_LIMITS(uint8_t, 0, UINT8_MAX)
TILESLC_INT_LIMITS(uint16_t, 0, UINT16_MAX)
TILESLC_INT_LIMITS(uint32_t, 0, UINT32_MAX)
TILESLC_INT_LIMITS(uint64_t, 0, UINT64_MAX)
#undef TILESLC_INT_LIMITS
template <class T, class F>
TILESLC_HOST_DEVICE T cvt_rzi(F x) {
  if (x != x) return T(0);
  // F(hi) rounds up to a power of two for 32- and 64-bit T: x >= it is out of range.
  if (x <= static_cast<F>(int_limits<T>::lo)) return int_limits<T>::lo;
  if (x >= static_cast<F>(int_limits<T>::hi)) return int_limits<T>::hi;
  return static_cast<T>(x);
}

// The iterations of a run-time range(begin, end, step):
// max(0, ceil((end - begin) / step)) for every value of the type (the
// distance is taken in 64 unsigned bits, so range(2**31 - 11, 2**31 - 1, 4)
// runs 3 times in Int32, where `i < end; i += 4` would overflow). A zero step
// gives 0; codegen reports it first (TILESLC_TRAP). range_next(i, step) is
// i + step wrapping: the increment after the last iteration may pass the
// type's limit, which a signed C++ addition may not.
// T the type, U its unsigned twin, W the 64-bit type it widens to.
#define TILESLC_INT_RANGE(T, U, W)                                                                                   \
  TILESLC_HOST_DEVICE uint64_t range_trips(T begin, T end, T step) {                                                 \
    const uint64_t b = static_cast<uint64_t>(static_cast<W>(begin)), e = static_cast<uint64_t>(static_cast<W>(end)); \
    const uint64_t s = static_cast<uint64_t>(static_cast<W>(step));                                                  \
    if (step > T(0)) return begin < end ? (e - b - 1) / s + 1 : 0;                                                   \
    if (step == T(0) || !(end < begin)) return 0;                                                                    \
    return (b - e - 1) / (uint64_t(0) - s) + 1;                                                                      \
  }                                                                                                                  \
  TILESLC_HOST_DEVICE T range_next(T i, T step) {                                                                    \
    return static_cast<T>(static_cast<U>(static_cast<U>(i) + static_cast<U>(step)));                                 \
  }
TILESLC_INT_RANGE(int8_t, uint8_t, int64_t)
TILESLC_INT_RANGE(int16_t, uint16_t, int64_t)
TILESLC_INT_RANGE(int32_t, uint32_t, int64_t)
TILESLC_INT_RANGE(int64_t, uint64_t, int64_t)
TILESLC_INT_RANGE(uint8_t, uint8_t, uint64_t)
TILESLC_INT_RANGE(uint16_t, uint16_t, uint64_t)
TILESLC_INT_RANGE(uint32_t, uint32_t, uint64_t)
TILESLC_INT_RANGE(uint64_t, uint64_t, uint64_t)
#undef TILESLC_INT_RANGE

// -x of a signed integer, wrapping (-INT_MIN == INT_MIN; docs/language.md): C++'s -x overflows
// there and nvcc's optimizer assumes it does not (-a >= -b became a <= b, float(-x) became
// -float(x)). The 8- and 16-bit ones negate in 32 bits and sign-extend by shifts: nvcc compiled
// static_cast<int16_t>(-x) of -32768, widened to int, to 32768 (an H100 probe, 2026-12-05), as it
// did the same through uint16_t; this form gave -32768.
TILESLC_HOST_DEVICE int8_t neg(int8_t a) {
  return static_cast<int8_t>(static_cast<int32_t>(static_cast<uint32_t>(-static_cast<int32_t>(a)) << 24) >> 24);
}
TILESLC_HOST_DEVICE int16_t neg(int16_t a) {
  return static_cast<int16_t>(static_cast<int32_t>(static_cast<uint32_t>(-static_cast<int32_t>(a)) << 16) >> 16);
}
TILESLC_HOST_DEVICE int32_t neg(int32_t a) { return static_cast<int32_t>(0u - static_cast<uint32_t>(a)); }
TILESLC_HOST_DEVICE int64_t neg(int64_t a) { return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(a)); }

// Integer min and max for every integer type: the 8- and 16-bit ones too, or min(int16_t,
// int16_t) would resolve to the int32_t one and the operations after it compute in 32 bits, not
// wrapping to the type (difffuzz's GPU half).
#define TILESLC_INT_MIN_MAX(T)                                  \
  TILESLC_HOST_DEVICE T min(T a, T b) { return a < b ? a : b; } \
  TILESLC_HOST_DEVICE T max(T a, T b) { return a > b ? a : b; }
TILESLC_INT_MIN_MAX(int8_t)
TILESLC_INT_MIN_MAX(int16_t)
TILESLC_INT_MIN_MAX(int32_t)
TILESLC_INT_MIN_MAX(int64_t)
TILESLC_INT_MIN_MAX(uint8_t)
TILESLC_INT_MIN_MAX(uint16_t)
TILESLC_INT_MIN_MAX(uint32_t)
TILESLC_INT_MIN_MAX(uint64_t)
#undef TILESLC_INT_MIN_MAX

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_DEVICE_COMMON_H
