// Shared-memory race detection for the CPU emulation target, off unless
// TILESLC_CPU_RACECHECK=1. Each thread of a CTA (of a thread-block cluster,
// whose CTAs run together) carries a vector clock;
// synchronization joins clocks: barriers (__syncthreads, bar.sync), warp and
// warpgroup collectives (their lanes), and mbarriers (an arrive or a TMA's
// complete_tx releases the thread's clock into the barrier, a completed wait
// acquires it). Every shared-memory byte remembers its last write and its
// last read (thread, clock, .tpy line); an access that conflicts with one
// the accessing thread is not ordered after (a write against any access, a
// read against a write, by another thread) is reported with both threads and
// both lines, and the run exits with status 1. Atomics are not tracked (they
// do not race with each other). Keeping one read per byte means a race with
// an earlier of several readers can go unseen; an ordered pair is never
// reported.
#ifndef TILESLC_CPU_RACECHECK_H
#define TILESLC_CPU_RACECHECK_H

#include <cstdint>
#include <source_location>

#include "tileslc/cpu/types.h"

namespace tileslc::cpu {

/// TILESLC_CPU_RACECHECK=1 (read once).
extern const bool g_racecheck;

/// Records an access of `bytes` bytes at `p` by the calling thread; nothing
/// unless `p` lies in the shared memory of a CTA of its cluster. `what` names the access for
/// the report ("sA[12]", "TMA load", ...).
void race_access_slow(const void* p, int64_t bytes, bool write, const char* what, const std::source_location& loc);
inline void race_access(const void* p, int64_t bytes, bool write, const char* what, const std::source_location& loc) {
  if (g_racecheck) [[unlikely]]
    race_access_slow(p, bytes, write, what, loc);
}

// Synchronization, called by the scheduler and the mbarrier emulation.
/// A cluster of `ctas` CTAs (1: a launch without clusters) starts or ends on
/// the calling host thread: `threads` threads per CTA, CTA r with
/// `smem_bytes` of shared memory at smem[r] and block index block_idx[r].
void race_cluster_begin(int ctas, int threads, const unsigned char* const* smem, size_t smem_bytes, const uint3* block_idx);
void race_cluster_end();
/// The threads `linear[0 .. n)` of the calling thread's CTA met: each now
/// knows what all did before, and what was released into sync object
/// `released` (when given: a named barrier's bar.arrive threads), which is
/// then emptied for the barrier's next phase.
void race_meet(const int* linear, int n, const void* released = nullptr);
/// The calling thread releases its clock into sync object `key` (an mbarrier
/// arrive, a TMA load's complete_tx), or acquires what was released into it
/// (a completed mbarrier wait).
void race_release(const void* key);
void race_acquire(const void* key);

}  // namespace tileslc::cpu

#endif  // TILESLC_CPU_RACECHECK_H
