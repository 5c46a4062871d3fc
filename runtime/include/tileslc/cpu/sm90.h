// The sm_90 device functions of tileslc/device/sm90.h for the CPU emulation
// target, at the level of the atoms (PTX ISA 8.x sections named at each):
//   - mbarrier: the 64-bit word in shared memory holds the barrier's state in
//     the emulator's own encoding (phase parity, pending arrivals, expected
//     arrivals, transaction count); waits suspend the thread through
//     wait_until, so a phase that can never complete is a reported deadlock;
//   - TMA (cp.async.bulk.tensor.2d): the tensor map is decoded
//     (tileslc/cpu/tensor_map.h) and checked; loads are performed when issued
//     and complete their bytes on the mbarrier; stores and reduce-adds join
//     the thread's bulk async-group and are performed at the
//     cp.async.bulk.wait_group.read that covers them (or when the thread
//     exits), so a kernel that overwrites the source too early is caught;
//   - wgmma.mma_async m64nNk16 (bf16/f16 -> f32) and m64nNk32 (e4m3/e5m2 ->
//     f32), B from a shared-memory descriptor and A from one or from
//     registers: a warpgroup collective performed when issued, so
//     fence, commit_group and wait_group have nothing left to do;
//   - elect.sync and the warp-uniform broadcast are warp collectives;
//     setmaxnreg and the proxy and mbarrier-init fences are no-ops (one
//     memory, one proxy).
// A "shared-memory address" here is the byte offset from the CTA's shared
// memory, which is 1024-byte aligned as on the GPU, so swizzles (which act on
// address bits) come out as they do there. Invalid uses are reported with the
// .tpy line through fail().
#ifndef TILESLC_CPU_SM90_H
#define TILESLC_CPU_SM90_H

#include <array>
#include <cstdint>
#include <string>

#include "tileslc/cpu/checked.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/cpu/warp.h"

namespace tileslc::cpu {

/// The shared-memory address of `p` (see above), after checking that `bytes`
/// bytes from `p` lie in the CTA's shared memory; `what` names the operand.
uint32_t shared_address(const void* p, int64_t bytes, const char* what, const SrcLoc& loc);

/// An mbarrier operand: its 8 bytes checked (shared memory, 8-byte aligned).
template <class P>
uint64_t* mbarrier_word(P p, const char* what) {
  using T = std::remove_cv_t<std::remove_pointer_t<decltype(raw_pointer(p))>>;
  static_assert(sizeof(T) == 8, "an mbarrier is a 64-bit word");
  return reinterpret_cast<uint64_t*>(const_cast<T*>(checked(p, 8, 8, what)));
}
/// How reports name an operand: "sA[4096]" for a checked address, "the
/// operand" for a plain pointer (hand-written callers).
template <class P>
std::string operand_name(const P& p) {
  if constexpr (requires { p.name; }) return std::string(p.name) + "[" + std::to_string(p.index) + "]";
  else return "the operand";
}

// mbarrier (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier"). `name` is the barrier operand as written.
void mbarrier_init(uint64_t* bar, int32_t count, const std::string& name, const SrcLoc& loc);
/// One arrival, after adding `expect_tx` bytes to the transaction count
/// (mbarrier.arrive.expect_tx; 0 for a plain arrive).
void mbarrier_arrive(uint64_t* bar, int32_t expect_tx, const std::string& name, const SrcLoc& loc);
/// mbarrier_arrive without the check that `bar` lies in the calling CTA's
/// shared memory: for a barrier in a peer CTA of the cluster (tileslc/cpu/
/// cluster.h); `op` names the operation in reports.
void mbarrier_arrive_at(uint64_t* bar, int32_t expect_tx, const char* op, const std::string& name, const SrcLoc& loc);
/// Blocks until the phase with parity `parity` has completed.
void mbarrier_wait(uint64_t* bar, int32_t parity, const std::string& name, const SrcLoc& loc);
/// mbarrier.test_wait.parity: whether the phase with parity `parity` has
/// completed, without waiting.
bool mbarrier_test_wait(const uint64_t* bar, int32_t parity, const std::string& name, const SrcLoc& loc);
/// The copy engine's side: `bytes` of transactions have landed (complete_tx).
void mbarrier_complete_tx(uint64_t* bar, int64_t bytes, const std::string& name, const SrcLoc& loc);

// TMA (PTX ISA, "cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor",
// "Tensor Access Modes"): a box of a `rank`-D tensor map (the instruction's
// .dim, 2 or 3 here) at coordinates c[0..rank), c[0] along the map's
// innermost dimension.
using TmaCoords = std::array<int32_t, 5>;
void tma_load(void* smem, const void* desc, uint64_t* bar, int rank, const TmaCoords& c, const std::string& dst_name,
              const std::string& bar_name, const SrcLoc& loc);
void tma_store(const void* desc, const void* smem, int rank, const TmaCoords& c, bool reduce_add, const std::string& src_name,
               const SrcLoc& loc);
void bulk_commit_group();
void bulk_wait_group_read(size_t n);

/// The element types wgmma reads.
enum class WgmmaType { BF16, F16, E4M3, E5M2 };
/// Any wgmma form tileslc emits (see runtime/src/cpu/wgmma.cpp): K is 16 (16-bit A) or 32 (8-bit A); A is the
/// descriptor `desc_a`, or, when `a_regs` is set (RS), this thread's four
/// 32-bit registers of A (8 16-bit or 16 8-bit values). `b_mn_major`: B is MN-major in shared memory
/// (imm-trans-b = 1; 16-bit B under a 32-, 64- or 128-byte swizzle).
void wgmma_m64n(int n, WgmmaType a, WgmmaType b, float* d, uint64_t desc_a, const void* a_regs, uint64_t desc_b,
                int32_t scale_d, const char* what, const SrcLoc& loc, bool b_mn_major = false);

}  // namespace tileslc::cpu

namespace tileslc {
namespace dev {

// ---- mbarrier
template <class P>
int32_t mbarrier_init(P bar, int32_t count, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::mbarrier_init(cpu::mbarrier_word(bar, "mbarrier.init"), count, cpu::operand_name(bar), loc);
  return 0;
}
/// fence.mbarrier_init: the emulator's barriers are visible once written.
inline int32_t mbarrier_init_fence() { return 0; }
template <class P>
int32_t mbarrier_arrive(P bar, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::mbarrier_arrive(cpu::mbarrier_word(bar, "mbarrier.arrive"), 0, cpu::operand_name(bar), loc);
  return 0;
}
template <class P>
int32_t mbarrier_arrive_expect_tx(P bar, int32_t bytes, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::mbarrier_arrive(cpu::mbarrier_word(bar, "mbarrier.arrive.expect_tx"), bytes, cpu::operand_name(bar), loc);
  return 0;
}
template <class P>
int32_t mbarrier_wait(P bar, int32_t parity, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::mbarrier_wait(cpu::mbarrier_word(bar, "mbarrier.try_wait"), parity, cpu::operand_name(bar), loc);
  return 0;
}

// ---- TMA
template <class S, class B>
int32_t tma_load_2d(S smem, const void* desc, B bar, int32_t c0, int32_t c1, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_load(cpu::raw_pointer(smem), desc, cpu::mbarrier_word(bar, "TMA load's mbarrier"), 2, {c0, c1},
                cpu::operand_name(smem), cpu::operand_name(bar), loc);
  return 0;
}
template <class S, class B>
int32_t tma_load_3d(S smem, const void* desc, B bar, int32_t c0, int32_t c1, int32_t c2, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_load(cpu::raw_pointer(smem), desc, cpu::mbarrier_word(bar, "TMA load's mbarrier"), 3, {c0, c1, c2},
                cpu::operand_name(smem), cpu::operand_name(bar), loc);
  return 0;
}
template <class S, class B>
int32_t tma_load_4d(S smem, const void* desc, B bar, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                    const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_load(cpu::raw_pointer(smem), desc, cpu::mbarrier_word(bar, "TMA load's mbarrier"), 4, {c0, c1, c2, c3},
                cpu::operand_name(smem), cpu::operand_name(bar), loc);
  return 0;
}
template <class S>
int32_t tma_store_2d(const void* desc, S smem, int32_t c0, int32_t c1, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_store(desc, cpu::raw_pointer(smem), 2, {c0, c1}, false, cpu::operand_name(smem), loc);
  return 0;
}
template <class S>
int32_t tma_store_3d(const void* desc, S smem, int32_t c0, int32_t c1, int32_t c2, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_store(desc, cpu::raw_pointer(smem), 3, {c0, c1, c2}, false, cpu::operand_name(smem), loc);
  return 0;
}
template <class S>
int32_t tma_reduce_add_2d(const void* desc, S smem, int32_t c0, int32_t c1, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_store(desc, cpu::raw_pointer(smem), 2, {c0, c1}, true, cpu::operand_name(smem), loc);
  return 0;
}
template <class S>
int32_t tma_reduce_add_3d(const void* desc, S smem, int32_t c0, int32_t c1, int32_t c2, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  cpu::tma_store(desc, cpu::raw_pointer(smem), 3, {c0, c1, c2}, true, cpu::operand_name(smem), loc);
  return 0;
}
inline int32_t bulk_commit_group() {
  cpu::bulk_commit_group();
  return 0;
}
#define TILESLC_CPU_BULK_WAIT(N) \
  inline int32_t bulk_wait_group_read_##N() { cpu::bulk_wait_group_read(N); return 0; }
TILESLC_CPU_BULK_WAIT(0)
TILESLC_CPU_BULK_WAIT(1)
TILESLC_CPU_BULK_WAIT(2)
TILESLC_CPU_BULK_WAIT(3)
TILESLC_CPU_BULK_WAIT(4)
TILESLC_CPU_BULK_WAIT(5)
TILESLC_CPU_BULK_WAIT(6)
TILESLC_CPU_BULK_WAIT(7)
#undef TILESLC_CPU_BULK_WAIT

/// prefetch.tensormap: the emulator reads tensor maps where they are; nothing to prefetch.
inline int32_t prefetch_tensormap(const void*) { return 0; }

/// fence.proxy.async.shared::cta: one proxy on the CPU.
inline int32_t fence_proxy_async() { return 0; }

// ---- wgmma
/// The shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"),
/// encoded as on the GPU from the operand's shared-memory address.
template <class P>
uint64_t wgmma_desc(P smem, int32_t lbo_bytes, int32_t sbo_bytes, int32_t swizzle_mode,
                    const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  const uint32_t addr = cpu::shared_address(cpu::raw_pointer(smem), 1, "a wgmma matrix descriptor's start address", loc);
  if (addr % 16 != 0)
    cpu::fail(loc, "a wgmma matrix descriptor's start address must be 16-byte aligned, found shared address " +
                       std::to_string(addr) + " (" + cpu::operand_name(smem) + ")");
  uint64_t d = (addr & 0x3FFFFu) >> 4;
  d |= static_cast<uint64_t>((lbo_bytes >> 4) & 0x3FFF) << 16;
  d |= static_cast<uint64_t>((sbo_bytes >> 4) & 0x3FFF) << 32;
  d |= static_cast<uint64_t>(swizzle_mode & 3) << 62;
  return d;
}
// The math happens when wgmma.mma_async is issued: nothing is in flight.
inline int32_t wgmma_fence() { return 0; }
inline int32_t wgmma_commit_group() { return 0; }
#define TILESLC_CPU_WGMMA_WAIT(N) \
  inline int32_t wgmma_wait_group_##N() { return 0; }
TILESLC_CPU_WGMMA_WAIT(0)
TILESLC_CPU_WGMMA_WAIT(1)
TILESLC_CPU_WGMMA_WAIT(2)
TILESLC_CPU_WGMMA_WAIT(3)
TILESLC_CPU_WGMMA_WAIT(4)
TILESLC_CPU_WGMMA_WAIT(5)
TILESLC_CPU_WGMMA_WAIT(6)
TILESLC_CPU_WGMMA_WAIT(7)
#undef TILESLC_CPU_WGMMA_WAIT
template <class P>
int32_t wgmma_fence_operands(P d, int32_t n) {
  (void)cpu::checked(d, int64_t{n} * 4, 4, "wgmma accumulator fence");
  return 0;
}
// Every form tileslc emits: 16-bit inputs (m64nNk16) and Float8 (m64nNk32, any
// pair), each with both operands in shared memory (_ss) and with A from four
// 32-bit registers, 16 bytes, per thread (_rs).
#define TILESLC_CPU_WGMMA_SS(N, K, NAME, PTX, TA, TB)                                                              \
  template <class D>                                                                                               \
  int32_t wgmma_m64n##N##k##K##_f32_##NAME##_ss(D d, uint64_t desc_a, uint64_t desc_b, int32_t scale_d,            \
                                                const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {                 \
    const char* what = "wgmma.mma_async.m64n" #N "k" #K ".f32." PTX;                                               \
    cpu::wgmma_m64n(N, cpu::WgmmaType::TA, cpu::WgmmaType::TB, cpu::checked(d, N / 2 * 4, 4, what), desc_a, nullptr, \
                    desc_b, scale_d, what, loc);                                                                   \
    return 0;                                                                                                      \
  }
#define TILESLC_CPU_WGMMA_RS(N, K, NAME, PTX, TA, TB)                                                              \
  template <class D, class A>                                                                                      \
  int32_t wgmma_m64n##N##k##K##_f32_##NAME##_rs(D d, A a, uint64_t desc_b, int32_t scale_d,                        \
                                                const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {                 \
    const char* what = "wgmma.mma_async.m64n" #N "k" #K ".f32." PTX " (A in registers)";                           \
    cpu::wgmma_m64n(N, cpu::WgmmaType::TA, cpu::WgmmaType::TB, cpu::checked(d, N / 2 * 4, 4, what), 0,            \
                    cpu::checked(a, 16, 4, what), desc_b, scale_d, what, loc);                                     \
    return 0;                                                                                                      \
  }
// B MN-major (imm-trans-b = 1, 16-bit inputs only): the same with _tb.
#define TILESLC_CPU_WGMMA_SS_TB(N, K, NAME, PTX, TA, TB)                                                           \
  template <class D>                                                                                               \
  int32_t wgmma_m64n##N##k##K##_f32_##NAME##_ss_tb(D d, uint64_t desc_a, uint64_t desc_b, int32_t scale_d,         \
                                                   const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {              \
    const char* what = "wgmma.mma_async.m64n" #N "k" #K ".f32." PTX " (B MN-major)";                               \
    cpu::wgmma_m64n(N, cpu::WgmmaType::TA, cpu::WgmmaType::TB, cpu::checked(d, N / 2 * 4, 4, what), desc_a, nullptr, \
                    desc_b, scale_d, what, loc, true);                                                             \
    return 0;                                                                                                      \
  }
#define TILESLC_CPU_WGMMA_RS_TB(N, K, NAME, PTX, TA, TB)                                                           \
  template <class D, class A>                                                                                      \
  int32_t wgmma_m64n##N##k##K##_f32_##NAME##_rs_tb(D d, A a, uint64_t desc_b, int32_t scale_d,                     \
                                                   const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {              \
    const char* what = "wgmma.mma_async.m64n" #N "k" #K ".f32." PTX " (A in registers, B MN-major)";               \
    cpu::wgmma_m64n(N, cpu::WgmmaType::TA, cpu::WgmmaType::TB, cpu::checked(d, N / 2 * 4, 4, what), 0,            \
                    cpu::checked(a, 16, 4, what), desc_b, scale_d, what, loc, true);                               \
    return 0;                                                                                                      \
  }
#define TILESLC_CPU_WGMMA_FORMS(FORM, N)                          \
  FORM(N, 16, bf16, "bf16", BF16, BF16)                           \
  FORM(N, 16, f16, "f16", F16, F16)                               \
  FORM(N, 32, e4m3_e4m3, "e4m3.e4m3", E4M3, E4M3)                 \
  FORM(N, 32, e4m3_e5m2, "e4m3.e5m2", E4M3, E5M2)                 \
  FORM(N, 32, e5m2_e4m3, "e5m2.e4m3", E5M2, E4M3)                 \
  FORM(N, 32, e5m2_e5m2, "e5m2.e5m2", E5M2, E5M2)
#define TILESLC_CPU_WGMMA_N(N)                                        \
  TILESLC_CPU_WGMMA_FORMS(TILESLC_CPU_WGMMA_SS, N)                       \
  TILESLC_CPU_WGMMA_FORMS(TILESLC_CPU_WGMMA_RS, N)                       \
  TILESLC_CPU_WGMMA_SS_TB(N, 16, bf16, "bf16", BF16, BF16)               \
  TILESLC_CPU_WGMMA_SS_TB(N, 16, f16, "f16", F16, F16)                   \
  TILESLC_CPU_WGMMA_RS_TB(N, 16, bf16, "bf16", BF16, BF16)               \
  TILESLC_CPU_WGMMA_RS_TB(N, 16, f16, "f16", F16, F16)
TILESLC_CPU_WGMMA_N(64)
TILESLC_CPU_WGMMA_N(128)
TILESLC_CPU_WGMMA_N(192)
TILESLC_CPU_WGMMA_N(256)
#undef TILESLC_CPU_WGMMA_N
#undef TILESLC_CPU_WGMMA_FORMS
#undef TILESLC_CPU_WGMMA_RS
#undef TILESLC_CPU_WGMMA_SS_TB
#undef TILESLC_CPU_WGMMA_RS_TB
#undef TILESLC_CPU_WGMMA_SS

/// The value of lane 0 in every lane (a shuffle from lane 0, as on the GPU).
inline int32_t warp_uniform(int32_t x, const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  return cpu::warp_exchange(0xffffffffu, x, 0, "make_warp_uniform (shfl.sync)", loc);
}

// setmaxnreg (PTX ISA, "setmaxnreg"): the CPU has no register file to share.
#define TILESLC_CPU_SETMAXNREG(DIR, N) \
  inline int32_t setmaxnreg_##DIR##_##N() { return 0; }
// Every count the ISA allows: a multiple of 8 from 24 to 256, either direction.
TILESLC_CPU_SETMAXNREG(inc, 24)
TILESLC_CPU_SETMAXNREG(inc, 32)
TILESLC_CPU_SETMAXNREG(inc, 40)
TILESLC_CPU_SETMAXNREG(inc, 48)
TILESLC_CPU_SETMAXNREG(inc, 56)
TILESLC_CPU_SETMAXNREG(inc, 64)
TILESLC_CPU_SETMAXNREG(inc, 72)
TILESLC_CPU_SETMAXNREG(inc, 80)
TILESLC_CPU_SETMAXNREG(inc, 88)
TILESLC_CPU_SETMAXNREG(inc, 96)
TILESLC_CPU_SETMAXNREG(inc, 104)
TILESLC_CPU_SETMAXNREG(inc, 112)
TILESLC_CPU_SETMAXNREG(inc, 120)
TILESLC_CPU_SETMAXNREG(inc, 128)
TILESLC_CPU_SETMAXNREG(inc, 136)
TILESLC_CPU_SETMAXNREG(inc, 144)
TILESLC_CPU_SETMAXNREG(inc, 152)
TILESLC_CPU_SETMAXNREG(inc, 160)
TILESLC_CPU_SETMAXNREG(inc, 168)
TILESLC_CPU_SETMAXNREG(inc, 176)
TILESLC_CPU_SETMAXNREG(inc, 184)
TILESLC_CPU_SETMAXNREG(inc, 192)
TILESLC_CPU_SETMAXNREG(inc, 200)
TILESLC_CPU_SETMAXNREG(inc, 208)
TILESLC_CPU_SETMAXNREG(inc, 216)
TILESLC_CPU_SETMAXNREG(inc, 224)
TILESLC_CPU_SETMAXNREG(inc, 232)
TILESLC_CPU_SETMAXNREG(inc, 240)
TILESLC_CPU_SETMAXNREG(inc, 248)
TILESLC_CPU_SETMAXNREG(inc, 256)
TILESLC_CPU_SETMAXNREG(dec, 24)
TILESLC_CPU_SETMAXNREG(dec, 32)
TILESLC_CPU_SETMAXNREG(dec, 40)
TILESLC_CPU_SETMAXNREG(dec, 48)
TILESLC_CPU_SETMAXNREG(dec, 56)
TILESLC_CPU_SETMAXNREG(dec, 64)
TILESLC_CPU_SETMAXNREG(dec, 72)
TILESLC_CPU_SETMAXNREG(dec, 80)
TILESLC_CPU_SETMAXNREG(dec, 88)
TILESLC_CPU_SETMAXNREG(dec, 96)
TILESLC_CPU_SETMAXNREG(dec, 104)
TILESLC_CPU_SETMAXNREG(dec, 112)
TILESLC_CPU_SETMAXNREG(dec, 120)
TILESLC_CPU_SETMAXNREG(dec, 128)
TILESLC_CPU_SETMAXNREG(dec, 136)
TILESLC_CPU_SETMAXNREG(dec, 144)
TILESLC_CPU_SETMAXNREG(dec, 152)
TILESLC_CPU_SETMAXNREG(dec, 160)
TILESLC_CPU_SETMAXNREG(dec, 168)
TILESLC_CPU_SETMAXNREG(dec, 176)
TILESLC_CPU_SETMAXNREG(dec, 184)
TILESLC_CPU_SETMAXNREG(dec, 192)
TILESLC_CPU_SETMAXNREG(dec, 200)
TILESLC_CPU_SETMAXNREG(dec, 208)
TILESLC_CPU_SETMAXNREG(dec, 216)
TILESLC_CPU_SETMAXNREG(dec, 224)
TILESLC_CPU_SETMAXNREG(dec, 232)
TILESLC_CPU_SETMAXNREG(dec, 240)
TILESLC_CPU_SETMAXNREG(dec, 248)
TILESLC_CPU_SETMAXNREG(dec, 256)
#undef TILESLC_CPU_SETMAXNREG

/// elect.sync with the full member mask (PTX ISA, "elect.sync"): every lane of
/// the warp takes part; true in the lowest one.
inline bool elect_one(const cpu::SrcLoc& loc = cpu::SrcLoc::current()) {
  const uint32_t lanes = cpu::warp_ballot(0xffffffffu, true, "elect.sync", loc);
  return (lanes & (0u - lanes)) == (1u << cpu::lane_of_this_thread());
}

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_CPU_SM90_H
