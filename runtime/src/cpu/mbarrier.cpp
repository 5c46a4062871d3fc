// mbarriers for the CPU emulation target (PTX ISA, "Parallel Synchronization
// and Communication Instructions: mbarrier", "Phase Completion"). The 64-bit
// barrier word in shared memory holds, in the emulator's encoding:
//   bits  0-19  pending arrivals of the current phase
//   bits 20-39  expected arrivals per phase (mbarrier.init's count, 1 to 2^20 - 1)
//   bits 40-60  transaction count in bytes, signed (expect_tx adds, complete_tx subtracts)
//   bit  61     the current phase's parity
//   bit  63     0 once initialized (shared memory starts as 0xFF bytes, so a
//               barrier used before mbarrier.init is recognized)
// A phase completes when its pending arrivals and its transaction count are
// both zero: the parity flips, the pending count is reset to the expected
// count. try_wait.parity(p) succeeds once the phase of parity p has completed,
// i.e. while the current parity differs from p.
// Also here: shared_address(), the shared-memory operand check of the sm_90
// atoms.
#include <string>

#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/sm90.h"

namespace tileslc::cpu {

namespace {

constexpr int64_t kMaxCount = (1 << 20) - 1;  // arrival counts and |tx-count| (PTX ISA, "mbarrier")

struct State {
  int64_t pending, expected, tx;
  int parity;
};

bool initialized(uint64_t w) { return (w >> 63) == 0 && ((w >> 20) & 0xFFFFF) != 0; }

State decode(uint64_t w) {
  State s;
  s.pending = static_cast<int64_t>(w & 0xFFFFF);
  s.expected = static_cast<int64_t>((w >> 20) & 0xFFFFF);
  const int64_t tx = static_cast<int64_t>((w >> 40) & 0x1FFFFF);
  s.tx = tx >= (int64_t{1} << 20) ? tx - (int64_t{1} << 21) : tx;
  s.parity = static_cast<int>((w >> 61) & 1);
  return s;
}

uint64_t encode(const State& s) {
  return static_cast<uint64_t>(s.pending) | static_cast<uint64_t>(s.expected) << 20 |
         (static_cast<uint64_t>(s.tx) & 0x1FFFFF) << 40 | static_cast<uint64_t>(s.parity) << 61;
}

// "phase 0: 1 of 1 arrivals, 8192 transaction bytes still expected"
std::string describe_state(const State& s) {
  return "phase " + std::to_string(s.parity) + ": " + std::to_string(s.expected - s.pending) + " of " +
         std::to_string(s.expected) + " arrivals, " + std::to_string(s.tx) + " transaction bytes still expected";
}

State load(const uint64_t* bar, const char* op, const std::string& name, const SrcLoc& loc) {
  if (!initialized(*bar))
    fail(loc, std::string(op) + " on " + name + ", an mbarrier that mbarrier.init has not initialized");
  return decode(*bar);
}

// Stores `s`, completing the phase when nothing is pending any more.
void store(uint64_t* bar, State s, const char* op, const std::string& name, const SrcLoc& loc) {
  if (s.tx > kMaxCount || s.tx < -kMaxCount)
    fail(loc, std::string(op) + " on " + name + ": the transaction count becomes " + std::to_string(s.tx) +
                  " bytes, outside the mbarrier's range of +-" + std::to_string(kMaxCount));
  if (s.pending == 0 && s.tx == 0) {
    s.parity ^= 1;
    s.pending = s.expected;
  }
  *bar = encode(s);
}

struct WaitArg {
  const uint64_t* bar;
  int parity;
  std::string name;
};

bool phase_done(void* p) {
  const auto* a = static_cast<const WaitArg*>(p);
  return decode(*a->bar).parity != a->parity;
}

std::string describe_wait(void* p) {
  const auto* a = static_cast<const WaitArg*>(p);
  return "mbarrier " + a->name + ", " + describe_state(decode(*a->bar));
}

}  // namespace

uint32_t shared_address(const void* p, int64_t bytes, const char* what, const SrcLoc& loc) {
  const ThreadCtx& t = this_thread();
  const auto* q = static_cast<const unsigned char*>(p);
  if (q < t.smem || q + bytes > t.smem + t.smem_bytes)
    fail(loc, std::string(what) + " must lie in the block's shared memory (" + std::to_string(t.smem_bytes) +
                  " bytes), but " + std::to_string(bytes) + " bytes at it do not");
  return static_cast<uint32_t>(q - t.smem);
}

void mbarrier_init(uint64_t* bar, int32_t count, const std::string& name, const SrcLoc& loc) {
  shared_address(bar, 8, "an mbarrier", loc);
  if (count < 1 || count > kMaxCount)
    fail(loc, "mbarrier.init of " + name + " with count " + std::to_string(count) + ": expected 1 to " +
                  std::to_string(kMaxCount));
  *bar = encode(State{count, count, 0, 0});
}

void mbarrier_arrive(uint64_t* bar, int32_t expect_tx, const std::string& name, const SrcLoc& loc) {
  shared_address(bar, 8, "an mbarrier", loc);
  mbarrier_arrive_at(bar, expect_tx, expect_tx ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive", name, loc);
}

void mbarrier_arrive_at(uint64_t* bar, int32_t expect_tx, const char* op, const std::string& name, const SrcLoc& loc) {
  State s = load(bar, op, name, loc);
  if (expect_tx < 0 || expect_tx > kMaxCount)
    fail(loc, std::string(op) + " on " + name + " expects " + std::to_string(expect_tx) + " bytes: expected 0 to " +
                  std::to_string(kMaxCount));
  if (s.pending == 0)
    fail(loc, std::string(op) + " on " + name + ": more arrivals than the " + std::to_string(s.expected) +
                  " of its current phase (which waits for " + std::to_string(s.tx) + " transaction bytes)");
  s.tx += expect_tx;
  s.pending -= 1;
  race_release(bar);
  store(bar, s, op, name, loc);
}

void mbarrier_complete_tx(uint64_t* bar, int64_t bytes, const std::string& name, const SrcLoc& loc) {
  State s = load(bar, "a TMA load's complete_tx", name, loc);
  s.tx -= bytes;
  race_release(bar);  // the bytes the issuing thread's TMA wrote
  store(bar, s, "a TMA load's complete_tx", name, loc);
}

bool mbarrier_test_wait(const uint64_t* bar, int32_t parity, const std::string& name, const SrcLoc& loc) {
  const bool done = load(bar, "mbarrier.test_wait.parity", name, loc).parity != parity;
  if (done) race_acquire(bar);
  return done;
}

void mbarrier_wait(uint64_t* bar, int32_t parity, const std::string& name, const SrcLoc& loc) {
  shared_address(bar, 8, "an mbarrier", loc);
  load(bar, "mbarrier.try_wait.parity", name, loc);
  if (parity != 0 && parity != 1)
    fail(loc, "mbarrier.try_wait.parity on " + name + " with parity " + std::to_string(parity) +
                  ": expected 0 or 1");
  WaitArg arg{bar, parity, name};
  wait_until(&phase_done, &arg, "mbarrier.try_wait.parity", loc, &describe_wait);
  race_acquire(bar);
}

}  // namespace tileslc::cpu
