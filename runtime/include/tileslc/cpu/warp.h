// Warp-collective operations for the CPU emulation target: shuffles and
// votes (CUDA's __shfl*_sync, __ballot_sync, __any_sync, __all_sync) and
// mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16} with the PTX ISA's fragment
// layouts. Each lane writes its operands to its row of the warp's exchange
// area, the lanes meet at warp_sync, each lane computes its own result from
// the others' rows, and the lanes meet again before the area is reused.
#ifndef TILESLC_CPU_WARP_H
#define TILESLC_CPU_WARP_H

#include <cstdint>
#include <cstring>

#include "tileslc/cpu/checked.h"
#include "tileslc/cpu/thread.h"

namespace tileslc::cpu {

inline int lane_of_this_thread() { return this_thread().linear & 31; }

/// The lanes that exist in the calling thread's warp (the last warp of a CTA
/// whose size is not a multiple of 32 has fewer).
inline uint32_t lanes_of_this_warp() {
  const ThreadCtx& t = this_thread();
  const int64_t left = int64_t{t.block_dim.x} * t.block_dim.y * t.block_dim.z - (t.linear & ~31);
  return left >= 32 ? 0xffffffffu : (1u << left) - 1u;
}

/// Every lane of `mask` passes `value`; returns the value of lane `src`
/// (the caller's own value when `src` is not in `mask`).
template <class T>
T warp_exchange(uint32_t mask, T value, int src, const char* what, const SrcLoc& loc) {
  static_assert(sizeof(T) <= 8, "a shuffle moves at most 64 bits");
  WarpExchange& x = this_warp_exchange();
  const int lane = lane_of_this_thread();
  std::memcpy(&x.slot[lane][0], &value, sizeof(T));
  warp_sync(mask, what, loc);
  T result = value;
  if (src >= 0 && src < 32 && ((mask >> src) & 1u)) std::memcpy(&result, &x.slot[src][0], sizeof(T));
  warp_sync(mask, what, loc);
  return result;
}

/// The lanes of `mask` whose `pred` is true, as a bit mask.
inline uint32_t warp_ballot(uint32_t mask, bool pred, const char* what, const SrcLoc& loc) {
  WarpExchange& x = this_warp_exchange();
  x.slot[lane_of_this_thread()][0] = pred ? 1u : 0u;
  warp_sync(mask, what, loc);
  uint32_t bits = 0;
  for (int l = 0; l < 32; ++l)
    if (((mask >> l) & 1u) && x.slot[l][0]) bits |= 1u << l;
  warp_sync(mask, what, loc);
  return bits;
}

}  // namespace tileslc::cpu

// CUDA's warp intrinsics ("Warp Shuffle Functions", "Warp Vote Functions" in
// the CUDA C++ Programming Guide); `width` splits the warp into segments.
template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32,
              const std::source_location& loc = std::source_location::current()) {
  const int lane = tileslc::cpu::lane_of_this_thread();
  return tileslc::cpu::warp_exchange(mask, var, (lane & ~(width - 1)) + (src_lane & (width - 1)), "__shfl_sync", loc);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                 const std::source_location& loc = std::source_location::current()) {
  const int lane = tileslc::cpu::lane_of_this_thread();
  const int src = (lane & (width - 1)) >= static_cast<int>(delta) ? lane - static_cast<int>(delta) : lane;
  return tileslc::cpu::warp_exchange(mask, var, src, "__shfl_up_sync", loc);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                   const std::source_location& loc = std::source_location::current()) {
  const int lane = tileslc::cpu::lane_of_this_thread();
  const int src = (lane & (width - 1)) + static_cast<int>(delta) < width ? lane + static_cast<int>(delta) : lane;
  return tileslc::cpu::warp_exchange(mask, var, src, "__shfl_down_sync", loc);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                  const std::source_location& loc = std::source_location::current()) {
  const int lane = tileslc::cpu::lane_of_this_thread();
  int src = lane ^ lane_mask;
  if ((src & ~(width - 1)) > (lane & ~(width - 1))) src = lane;  // a later segment: own value
  return tileslc::cpu::warp_exchange(mask, var, src, "__shfl_xor_sync", loc);
}
inline unsigned __ballot_sync(unsigned mask, int pred, const std::source_location& loc = std::source_location::current()) {
  return tileslc::cpu::warp_ballot(mask, pred != 0, "__ballot_sync", loc);
}
inline int __any_sync(unsigned mask, int pred, const std::source_location& loc = std::source_location::current()) {
  return tileslc::cpu::warp_ballot(mask, pred != 0, "__any_sync", loc) != 0;
}
inline int __all_sync(unsigned mask, int pred, const std::source_location& loc = std::source_location::current()) {
  return tileslc::cpu::warp_ballot(mask, pred != 0, "__all_sync", loc) == (mask & tileslc::cpu::lanes_of_this_warp());
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const std::source_location& loc = std::source_location::current()) {
  tileslc::cpu::warp_sync(mask, "__syncwarp", loc);
}

namespace tileslc::cpu {

/// The bytes lane `lane` wrote at byte `offset` of its exchange row, as a T.
template <class T>
T exchanged(const WarpExchange& x, int lane, int offset) {
  T v;
  std::memcpy(&v, reinterpret_cast<const unsigned char*>(&x.slot[lane][0]) + offset, sizeof(T));
  return v;
}

/// Every m16n8kK mma.sync (PTX ISA, "Warp-level matrix multiply-accumulate
/// instructions"): each lane writes its A (16 bytes) and B (8 bytes) registers
/// to its row of the warp's exchange (bytes 0..15 and 16..23), the lanes meet,
/// lane (g = lane / 4, t = lane % 4) computes, for i < 4,
///   D[g + 8 (i / 2)][2t + i % 2] = C[...] + sum over k < K of a_at(x, row, k) * b_at(x, k, col)
/// in Sum, in k order (float, or uint32_t for the wrapping integer sums), and
/// the lanes meet again before D is written (D may alias C).
template <class Acc, class Sum, class AAt, class BAt>
int32_t warp_mma_m16n8(Acc* d, const Acc* c, const void* a, const void* b, int K, AAt a_at, BAt b_at, const char* what,
                       const SrcLoc& loc) {
  WarpExchange& x = this_warp_exchange();
  const int lane = lane_of_this_thread();
  std::memcpy(&x.slot[lane][0], a, 16);
  std::memcpy(&x.slot[lane][2], b, 8);
  warp_sync(0xffffffffu, what, loc);
  Acc out[4];
  const int g = lane / 4, t = lane % 4;
  for (int i = 0; i < 4; ++i) {
    const int row = g + 8 * (i / 2), col = 2 * t + i % 2;
    Sum sum = static_cast<Sum>(c[i]);
    for (int k = 0; k < K; ++k) sum += static_cast<Sum>(a_at(x, row, k) * b_at(x, k, col));
    out[i] = static_cast<Acc>(sum);
  }
  warp_sync(0xffffffffu, what, loc);
  std::memcpy(d, out, sizeof out);
  return 0;
}

/// mma.sync.aligned.m16n8k16.row.col.f32.X.X.f32 for a 16-bit input type X
/// (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"):
/// with g = lane / 4 and t = lane % 4, lane holds
///   a[i] = A[g + 8 * ((i / 2) % 2)][2 * t + i % 2 + 8 * (i / 4)]   (i < 8)
///   b[i] = B[2 * t + i % 2 + 8 * (i / 2)][g]                        (i < 4)
///   c[i], d[i] = C, D[g + 8 * (i / 2)][2 * t + i % 2]               (i < 4)
/// and D = A * B + C over the whole warp, products and sums in float.
template <class X, class DP, class AP, class BP, class CP>
int32_t mma_m16n8k16_f32(DP d_ptr, AP a_ptr, BP b_ptr, CP c_ptr, const char* what, const SrcLoc& loc) {
  auto a_at = [](const WarpExchange& x, int row, int col) {  // A[row][col] from the lane that holds it
    const int t = (col % 8) / 2, g = row % 8, i = col % 2 + 2 * (row / 8) + 4 * (col / 8);
    return static_cast<float>(exchanged<X>(x, 4 * g + t, 2 * i));
  };
  auto b_at = [](const WarpExchange& x, int k, int n) {
    const int t = (k % 8) / 2, i = k % 2 + 2 * (k / 8);
    return static_cast<float>(exchanged<X>(x, 4 * n + t, 16 + 2 * i));
  };
  return warp_mma_m16n8<float, float>(checked(d_ptr, 16, 4, what), checked(c_ptr, 16, 4, what), checked(a_ptr, 16, 4, what),
                                      checked(b_ptr, 8, 4, what), 16, a_at, b_at, what, loc);
}

/// ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 (PTX ISA,
/// "Warp-level matrix load instruction: ldmatrix"): lanes 8i .. 8i+7 give the
/// addresses of rows 0..7 of matrix i (16 bytes each); lane t receives, per
/// matrix, row t/4 at columns 2(t%4) and 2(t%4)+1 (.trans: rows 2(t%4) and
/// 2(t%4)+1 of column t/4), the lower column (row) in the low 16 bits.
template <class R>
int32_t ldmatrix(int num, bool trans, R row_ptr, void* const* dst, const char* what, const SrcLoc& loc) {
  WarpExchange& x = this_warp_exchange();
  const int lane = lane_of_this_thread();
  const unsigned char* row = nullptr;
  if (lane < 8 * num) {
    row = reinterpret_cast<const unsigned char*>(checked(row_ptr, 16, 16, what));
    race_access(row, 16, false, what, loc);  // the row this lane addresses
  }
  std::memcpy(&x.slot[lane][0], &row, sizeof row);
  warp_sync(0xffffffffu, what, loc);
  uint32_t out[4] = {0, 0, 0, 0};
  for (int i = 0; i < num; ++i) {
    uint16_t half[2];
    for (int j = 0; j < 2; ++j) {
      const int r = trans ? 2 * (lane % 4) + j : lane / 4;
      const int c = trans ? lane / 4 : 2 * (lane % 4) + j;
      const unsigned char* base;
      std::memcpy(&base, &x.slot[8 * i + r][0], sizeof base);
      std::memcpy(&half[j], base + 2 * c, 2);
    }
    out[i] = half[0] | (static_cast<uint32_t>(half[1]) << 16);
  }
  warp_sync(0xffffffffu, what, loc);
  for (int i = 0; i < num; ++i) std::memcpy(dst[i], &out[i], 4);
  return 0;
}

}  // namespace tileslc::cpu

#endif  // TILESLC_CPU_WARP_H
