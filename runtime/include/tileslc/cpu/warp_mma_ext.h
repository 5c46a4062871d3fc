// More mma.sync shapes for the CPU emulation target, beside warp.h's
// m16n8k16: m16n8k8 with .tf32 inputs and m16n8k32 with 8-bit integer inputs
// (PTX ISA, "Warp-level matrix multiply-accumulate instructions"), the
// tileslc::dev:: functions of tileslc/device/mma_sm80.h, on warp.h's
// warp_mma_m16n8 (the exchange, the two meetings, D from C and the others'
// fragments). Included by cpu/warp_ext.h.
#ifndef TILESLC_CPU_WARP_MMA_EXT_H
#define TILESLC_CPU_WARP_MMA_EXT_H

#include <cstdint>
#include <cstring>

#include "tileslc/cpu/checked.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/cpu/warp.h"

namespace tileslc::cpu {

/// x rounded to TF32 as cvt.rna.tf32.f32 does: the 13 low mantissa bits
/// cleared, to nearest with ties away from zero (on the magnitude); NaN and
/// infinity unchanged. The result is a float whose value is the TF32 value.
inline float round_to_tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 ("Matrix Fragments for
/// mma.m16n8k8", .tf32): with g = lane / 4 and t = lane % 4, lane holds
///   a[i] = A[g + 8 * (i % 2)][t + 4 * (i / 2)]   (i < 4)
///   b[i] = B[t + 4 * i][g]                       (i < 2)
///   c[i], d[i] = C, D[g + 8 * (i / 2)][2 * t + i % 2]   (i < 4)
/// and D = A * B + C, A and B rounded to TF32 first (products exact in float,
/// sums in float in k order).
template <class DP, class AP, class BP, class CP>
int32_t mma_m16n8k8_tf32(DP d_ptr, AP a_ptr, BP b_ptr, CP c_ptr, const char* what, const SrcLoc& loc) {
  auto a_at = [](const WarpExchange& x, int row, int col) {
    return round_to_tf32(exchanged<float>(x, 4 * (row % 8) + col % 4, 4 * (row / 8 + 2 * (col / 4))));
  };
  auto b_at = [](const WarpExchange& x, int k, int n) { return round_to_tf32(exchanged<float>(x, 4 * n + k % 4, 16 + 4 * (k / 4))); };
  return warp_mma_m16n8<float, float>(checked(d_ptr, 16, 4, what), checked(c_ptr, 16, 4, what), checked(a_ptr, 16, 4, what),
                                      checked(b_ptr, 8, 4, what), 8, a_at, b_at, what, loc);
}

/// mma.sync.aligned.m16n8k32.row.col.s32.X.X.s32 for X = int8_t or uint8_t
/// ("Matrix Fragments for mma.m16n8k32"): with g = lane / 4 and t = lane % 4,
///   a[i] = A[g + 8 * ((i / 4) % 2)][4 * t + i % 4 + 16 * (i / 8)]   (i < 16)
///   b[i] = B[4 * t + i % 4 + 16 * (i / 4)][g]                        (i < 8)
///   c[i], d[i] as m16n8k8's; D = A * B + C in 32-bit two's complement
/// (wrapping, as the instruction without .satfinite).
template <class X, class DP, class AP, class BP, class CP>
int32_t mma_m16n8k32_s32(DP d_ptr, AP a_ptr, BP b_ptr, CP c_ptr, const char* what, const SrcLoc& loc) {
  auto a_at = [](const WarpExchange& x, int row, int col) {
    const int i = col % 4 + 4 * (row / 8) + 8 * (col / 16);
    return static_cast<int32_t>(exchanged<X>(x, 4 * (row % 8) + (col % 16) / 4, i));
  };
  auto b_at = [](const WarpExchange& x, int k, int n) {
    return static_cast<int32_t>(exchanged<X>(x, 4 * n + (k % 16) / 4, 16 + k % 4 + 4 * (k / 16)));
  };
  const X* a = checked(a_ptr, 16, 4, what);
  const X* b = checked(b_ptr, 8, 4, what);
  return warp_mma_m16n8<int32_t, uint32_t>(checked(d_ptr, 16, 4, what), checked(c_ptr, 16, 4, what), a, b, 32, a_at, b_at, what, loc);
}

}  // namespace tileslc::cpu

namespace tileslc::dev {

// The device functions of tileslc/device/mma_sm80.h.
template <class D, class A, class B, class C>
int32_t mma_m16n8k8_f32_tf32(D d, A a, B b, C c, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return cpu::mma_m16n8k8_tf32(d, a, b, c, "mma.sync.m16n8k8.f32.tf32", loc);
}
template <class D, class A, class B, class C>
int32_t mma_m16n8k32_s32_s8(D d, A a, B b, C c, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return cpu::mma_m16n8k32_s32<int8_t>(d, a, b, c, "mma.sync.m16n8k32.s32.s8", loc);
}
template <class D, class A, class B, class C>
int32_t mma_m16n8k32_s32_u8(D d, A a, B b, C c, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return cpu::mma_m16n8k32_s32<uint8_t>(d, a, b, c, "mma.sync.m16n8k32.s32.u8", loc);
}

}  // namespace tileslc::dev

#endif  // TILESLC_CPU_WARP_MMA_EXT_H
