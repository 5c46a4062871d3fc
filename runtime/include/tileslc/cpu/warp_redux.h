// redux.sync and packed 16-bit atomic adds for the CPU emulation target: the
// tileslc::dev::redux_sync_* functions of tileslc/device/redux.h and
// atomic_add_x2 of tileslc/device/prelude.h. Included by cpu/warp_ext.h.
#ifndef TILESLC_CPU_WARP_REDUX_H
#define TILESLC_CPU_WARP_REDUX_H

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tileslc/cpu/checked.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/cpu/types.h"
#include "tileslc/cpu/warp.h"

namespace tileslc::cpu {

/// redux.sync (PTX ISA "redux.sync"): every lane of `mask` passes `v`; each
/// gets `op` folded over the values of the mask's lanes in lane order (the
/// operations are associative and commutative, so the order does not show).
template <class T, class Op>
T warp_redux(uint32_t mask, T v, Op op, const char* what, const SrcLoc& loc) {
  WarpExchange& x = this_warp_exchange();
  std::memcpy(&x.slot[lane_of_this_thread()][0], &v, sizeof v);
  warp_sync(mask, what, loc);
  bool first = true;
  T r = v;
  for (int l = 0; l < 32; ++l) {
    if (!((mask >> l) & 1u)) continue;
    T o;
    std::memcpy(&o, &x.slot[l][0], sizeof o);
    r = first ? o : op(r, o);
    first = false;
  }
  warp_sync(mask, what, loc);
  return r;
}

}  // namespace tileslc::cpu

namespace tileslc::dev {

// add wraps around (two's complement); min/max follow T's signedness, umin/umax
// compare the bits as unsigned; and/or/xor on the bits.
#define TILESLC_CPU_REDUX(NAME, EXPR)                                                                           \
  template <class T>                                                                                            \
  T NAME(T v, uint32_t mask, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {                                 \
    return cpu::warp_redux(mask, v, [](T a, T b) { using U [[maybe_unused]] = std::make_unsigned_t<T>; return EXPR; }, "redux.sync", loc); \
  }
TILESLC_CPU_REDUX(redux_sync_add, static_cast<T>(static_cast<U>(a) + static_cast<U>(b)))
TILESLC_CPU_REDUX(redux_sync_min, a < b ? a : b)
TILESLC_CPU_REDUX(redux_sync_max, a > b ? a : b)
TILESLC_CPU_REDUX(redux_sync_umin, static_cast<U>(a) < static_cast<U>(b) ? a : b)
TILESLC_CPU_REDUX(redux_sync_umax, static_cast<U>(a) > static_cast<U>(b) ? a : b)
TILESLC_CPU_REDUX(redux_sync_and, static_cast<T>(a & b))
TILESLC_CPU_REDUX(redux_sync_or, static_cast<T>(a | b))
TILESLC_CPU_REDUX(redux_sync_xor, static_cast<T>(a ^ b))
#undef TILESLC_CPU_REDUX

/// red.add.noftz.{f16x2,bf16x2}: p[0] += a and p[1] += b as one 32-bit atomic
/// update of the 4-byte-aligned pair (a compare-and-swap loop, so CTAs on
/// other host threads see it whole); each sum rounded to the element type.
template <class P, class A, class B>
int32_t atomic_add_x2(P p, A a, B b) {
  auto* q = cpu::checked(p, 4, 4, "packed atomic add");
  using T = std::remove_pointer_t<decltype(q)>;
  static_assert(sizeof(T) == 2, "pairs of 16-bit floats");
  std::atomic_ref<uint32_t> r(*reinterpret_cast<uint32_t*>(q));
  uint32_t old = r.load();
  for (;;) {
    const T lo = cpu::bits_as<T>(static_cast<uint16_t>(old & 0xffffu)), hi = cpu::bits_as<T>(static_cast<uint16_t>(old >> 16));
    const uint32_t sum = cpu::bits_as<uint16_t>(T(static_cast<float>(lo) + static_cast<float>(a))) |
                         (static_cast<uint32_t>(cpu::bits_as<uint16_t>(T(static_cast<float>(hi) + static_cast<float>(b)))) << 16);
    if (r.compare_exchange_weak(old, sum)) return 0;
  }
}

}  // namespace tileslc::dev

#endif  // TILESLC_CPU_WARP_REDUX_H
