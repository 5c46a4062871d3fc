// The CUDA value types and bit-level intrinsics that generated code and the
// sample drivers use, defined for the host compiler so the CPU emulation
// target needs no CUDA headers at all (it builds and runs on machines without
// CUDA): dim3 and uint3, the vector types of TILESLC_VEC_COPY (uint2, uint4),
// the narrow floats __half, __nv_bfloat16, __nv_fp8_e4m3 and __nv_fp8_e5m2
// (storage plus conversions with CUDA's rounding: to nearest even; fp8
// saturates to the largest finite value like __NV_SATFINITE), the
// reinterpreting casts (__int_as_float, ...) and the device-only math names
// (rsqrtf). Only what tileslc's output and the samples need; no arithmetic
// operators on narrow floats (sema computes in Float32).
#ifndef TILESLC_CPU_TYPES_H
#define TILESLC_CPU_TYPES_H

#include <cmath>
#include <limits>
#include <cstdint>
#include <cstring>

// ---- launch geometry and vector types (CUDA's vector_types.h)

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};
struct alignas(8) uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};

namespace tileslc::cpu {

/// The bits of `v` as a `To` of the same size (std::bit_cast without <bit>).
template <class To, class From>
inline To bits_as(From v) {
  static_assert(sizeof(To) == sizeof(From), "bits_as needs types of one size");
  To r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

/// float -> the upper 16 bits, rounded to nearest even (NaN stays a quiet NaN).
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t u = bits_as<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

/// IEEE binary16 bits -> float (exact).
inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f) return bits_as<float>(sign | 0x7f800000u | (man << 13));  // inf, NaN
  if (exp == 0) {                                                             // zero, subnormal
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return bits_as<float>(sign | ((exp + 112u) << 23) | (man << 13));
}

/// float -> IEEE binary16 bits, rounded to nearest even; overflow gives inf.
inline uint16_t float_to_half_bits(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const float a = std::fabs(f);
  if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7e00u);
  if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (a < 6.103515625e-05f) {  // subnormal half: a multiple of 2^-24, rounded to nearest even
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t au = bits_as<uint32_t>(a);
  au += 0xfffu + ((au >> 13) & 1u);  // round the 13 dropped bits to nearest even
  return static_cast<uint16_t>(sign | (((au >> 23) - 112u) << 10 | ((au >> 13) & 0x3ffu)));
}

/// An 8-bit float with `E` exponent bits (E4M3FN: bias 7, no infinities, NaN
/// = S.1111.111; E5M2: bias 15, IEEE-like): bits -> float, exact.
template <int E>
inline float fp8_bits_to_float(uint8_t b) {
  constexpr int M = 7 - E, bias = (1 << (E - 1)) - 1;
  const int exp = (b >> M) & ((1 << E) - 1), man = b & ((1 << M) - 1);
  const float sign = (b & 0x80) ? -1.0f : 1.0f;
  if (E == 4 && exp == 15 && man == 7) return std::nanf("");
  if (E == 5 && exp == 31) return man ? std::nanf("") : sign * INFINITY;
  if (exp == 0) return sign * std::ldexp(static_cast<float>(man), 1 - bias - M);
  return sign * std::ldexp(static_cast<float>(man + (1 << M)), exp - bias - M);
}

/// float -> 8-bit float bits, to nearest even, saturating to the largest
/// finite value (CUDA's __NV_SATFINITE); NaN -> NaN. A search over the 127
/// magnitudes: slow, exact, and nothing on a hot path uses fp8 yet.
template <int E>
inline uint8_t float_to_fp8_bits(float f) {
  if (std::isnan(f)) return 0x7f;
  const uint8_t sign = std::signbit(f) ? 0x80 : 0x00;
  const float a = std::fabs(f);
  const int largest = E == 4 ? 0x7e : 0x7b;  // largest finite magnitude's bits
  // __NV_SATFINITE: at or beyond the largest finite value (infinity included) is that value;
  // the search below would see every distance as infinite and pick by parity.
  if (a >= fp8_bits_to_float<E>(static_cast<uint8_t>(largest))) return static_cast<uint8_t>(sign | largest);
  int best = 0;
  for (int b = 1; b <= largest; ++b) {
    const float d = std::fabs(fp8_bits_to_float<E>(static_cast<uint8_t>(b)) - a);
    const float bd = std::fabs(fp8_bits_to_float<E>(static_cast<uint8_t>(best)) - a);
    if (d < bd || (d == bd && (b & 1) == 0)) best = b;
  }
  return static_cast<uint8_t>(sign | best);
}

}  // namespace tileslc::cpu

// ---- narrow floats (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h)

struct __half {
  uint16_t bits_;
  __half() = default;
  __half(float f) : bits_(tileslc::cpu::float_to_half_bits(f)) {}
  operator float() const { return tileslc::cpu::half_bits_to_float(bits_); }
};
struct __nv_bfloat16 {
  uint16_t bits_;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) : bits_(tileslc::cpu::float_to_bf16_bits(f)) {}
  operator float() const { return tileslc::cpu::bits_as<float>(static_cast<uint32_t>(bits_) << 16); }
};
struct __nv_fp8_e4m3 {
  uint8_t __x;
  __nv_fp8_e4m3() = default;
  explicit __nv_fp8_e4m3(float f) : __x(tileslc::cpu::float_to_fp8_bits<4>(f)) {}
  explicit operator float() const { return tileslc::cpu::fp8_bits_to_float<4>(__x); }
};
struct __nv_fp8_e5m2 {
  uint8_t __x;
  __nv_fp8_e5m2() = default;
  explicit __nv_fp8_e5m2(float f) : __x(tileslc::cpu::float_to_fp8_bits<5>(f)) {}
  explicit operator float() const { return tileslc::cpu::fp8_bits_to_float<5>(__x); }
};
typedef __half half;
typedef __nv_bfloat16 nv_bfloat16;

inline float __half2float(__half h) { return static_cast<float>(h); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __float2half(float f) { return __half(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }

// ---- reinterpreting casts and device math names

inline float __int_as_float(int v) { return tileslc::cpu::bits_as<float>(v); }
inline int __float_as_int(float v) { return tileslc::cpu::bits_as<int>(v); }
inline float __uint_as_float(unsigned v) { return tileslc::cpu::bits_as<float>(v); }
inline unsigned __float_as_uint(float v) { return tileslc::cpu::bits_as<unsigned>(v); }
inline double __longlong_as_double(long long v) { return tileslc::cpu::bits_as<double>(v); }
inline long long __double_as_longlong(double v) { return tileslc::cpu::bits_as<long long>(v); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }

#endif  // TILESLC_CPU_TYPES_H
