// redux.sync for generated code (PTX ISA, "Parallel Synchronization and
// Communication Instructions: redux.sync", sm_80 and later): every lane of
// `mask` receives the reduction of the 32-bit integer values of those lanes.
// One function per kind of cute.arch.warp_redux_sync (sema: arch_ops.cpp),
// overloaded on Int32 / Uint32: add, min and max follow the value's
// signedness, umin and umax compare as unsigned, and/or/xor work on the bits.
// Included by prelude.h.
#ifndef TILESLC_DEVICE_REDUX_H
#define TILESLC_DEVICE_REDUX_H

namespace tileslc {
namespace dev {

#define TILESLC_REDUX(NAME, T, PTX)                                                                   \
  TILESLC_DEVICE T NAME(T v, uint32_t mask) {                                                         \
    T r;                                                                                              \
    asm volatile("redux.sync." PTX " %0, %1, %2;\n" : "=r"(r) : "r"(v), "r"(mask));                   \
    return r;                                                                                         \
  }
TILESLC_REDUX(redux_sync_add, int32_t, "add.s32")
TILESLC_REDUX(redux_sync_add, uint32_t, "add.u32")
TILESLC_REDUX(redux_sync_min, int32_t, "min.s32")
TILESLC_REDUX(redux_sync_min, uint32_t, "min.u32")
TILESLC_REDUX(redux_sync_max, int32_t, "max.s32")
TILESLC_REDUX(redux_sync_max, uint32_t, "max.u32")
TILESLC_REDUX(redux_sync_umin, int32_t, "min.u32")
TILESLC_REDUX(redux_sync_umin, uint32_t, "min.u32")
TILESLC_REDUX(redux_sync_umax, int32_t, "max.u32")
TILESLC_REDUX(redux_sync_umax, uint32_t, "max.u32")
TILESLC_REDUX(redux_sync_and, int32_t, "and.b32")
TILESLC_REDUX(redux_sync_and, uint32_t, "and.b32")
TILESLC_REDUX(redux_sync_or, int32_t, "or.b32")
TILESLC_REDUX(redux_sync_or, uint32_t, "or.b32")
TILESLC_REDUX(redux_sync_xor, int32_t, "xor.b32")
TILESLC_REDUX(redux_sync_xor, uint32_t, "xor.b32")
#undef TILESLC_REDUX

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_DEVICE_REDUX_H
