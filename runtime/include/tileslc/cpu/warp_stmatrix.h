// stmatrix for the CPU emulation target (PTX ISA, "Warp-level matrix store
// instruction: stmatrix"): the tileslc::dev::stsm_x{1,2,4}[_trans] functions of
// tileslc/device/ldmatrix.h. Included by cpu/warp_ext.h.
#ifndef TILESLC_CPU_WARP_STMATRIX_H
#define TILESLC_CPU_WARP_STMATRIX_H

#include <cstdint>
#include <cstring>

#include "tileslc/cpu/checked.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/cpu/warp.h"

namespace tileslc::cpu {

/// stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16: lanes 8i .. 8i+7
/// give the addresses of rows 0..7 of matrix i (16 bytes each); lane t gives,
/// per matrix, one 32-bit register holding row t/4 at columns 2(t%4) and
/// 2(t%4)+1 (.trans: rows 2(t%4) and 2(t%4)+1 of column t/4), the lower
/// column (row) in the low 16 bits: the inverse of ldmatrix (warp.h). Each
/// lane writes the row it addressed once every lane's registers are in.
template <class R>
int32_t stmatrix(int num, bool trans, R row_ptr, const void* const* src, const char* what, const SrcLoc& loc) {
  WarpExchange& x = this_warp_exchange();
  const int lane = lane_of_this_thread();
  unsigned char* row = nullptr;
  if (lane < 8 * num) row = reinterpret_cast<unsigned char*>(checked(row_ptr, 16, 16, what));
  std::memcpy(&x.slot[lane][0], &row, sizeof row);
  for (int i = 0; i < num; ++i) std::memcpy(reinterpret_cast<unsigned char*>(&x.slot[lane][1]) + 4 * i, src[i], 4);
  warp_sync(0xffffffffu, what, loc);
  if (row) {
    const int i = lane / 8, r = lane % 8;
    for (int c = 0; c < 8; ++c) {
      const int from = trans ? 4 * c + r / 2 : 4 * r + c / 2, half = trans ? r % 2 : c % 2;
      std::memcpy(row + 2 * c, reinterpret_cast<const unsigned char*>(&x.slot[from][1]) + 4 * i + 2 * half, 2);
    }
  }
  warp_sync(0xffffffffu, what, loc);
  return 0;
}

}  // namespace tileslc::cpu

namespace tileslc::dev {

// The row address, then one 32-bit source register per matrix.
template <class R, class... Src>
int32_t stsm(bool trans, const char* what, const cpu::SrcLoc& loc, R row, Src... s) {
  const void* src[] = {static_cast<const void*>(cpu::checked(s, 4, 4, what))...};
  return cpu::stmatrix(static_cast<int>(sizeof...(Src)), trans, row, src, what, loc);
}
template <class R, class A>
int32_t stsm_x1(R r, A a, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) { return stsm(false, "stmatrix.x1", loc, r, a); }
template <class R, class A, class B>
int32_t stsm_x2(R r, A a, B b, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) { return stsm(false, "stmatrix.x2", loc, r, a, b); }
template <class R, class A, class B, class C, class D>
int32_t stsm_x4(R r, A a, B b, C c, D d, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return stsm(false, "stmatrix.x4", loc, r, a, b, c, d);
}
template <class R, class A>
int32_t stsm_x1_trans(R r, A a, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) { return stsm(true, "stmatrix.x1.trans", loc, r, a); }
template <class R, class A, class B>
int32_t stsm_x2_trans(R r, A a, B b, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return stsm(true, "stmatrix.x2.trans", loc, r, a, b);
}
template <class R, class A, class B, class C, class D>
int32_t stsm_x4_trans(R r, A a, B b, C c, D d, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return stsm(true, "stmatrix.x4.trans", loc, r, a, b, c, d);
}

}  // namespace tileslc::dev

#endif  // TILESLC_CPU_WARP_STMATRIX_H
