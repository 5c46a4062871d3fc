// The shared-memory race checker (see tileslc/cpu/racecheck.h): vector clocks
// per thread and per mbarrier, a shadow record per shared-memory byte. State
// is per host thread (each runs one CTA at a time).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/thread.h"

namespace tileslc::cpu {

const bool g_racecheck = [] {
  const char* env = std::getenv("TILESLC_CPU_RACECHECK");
  return env && std::strcmp(env, "1") == 0;
}();

namespace {

using Clock = std::vector<uint32_t>;

struct Access {
  uint32_t clock = 0;  ///< 0: none yet (a thread's own clock starts at 1)
  int32_t thread = -1;
  std::source_location loc;
  const char* what = "";
};

struct Shadow {
  Access write, read;
};

struct RaceCta {
  std::vector<Clock> clocks;  ///< per thread (linear index)
  std::unordered_map<const void*, Clock> sync;
  const unsigned char* smem = nullptr;
  std::vector<Shadow> shadow;  ///< per byte of shared memory
};

thread_local RaceCta* t_race = nullptr;

void join(Clock& into, const Clock& from) {
  for (size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// Whether access `a` happened before the present of a thread with clock `c`.
bool ordered(const Access& a, const Clock& c) { return a.clock == 0 || a.clock <= c[static_cast<size_t>(a.thread)]; }

std::string coords_of(int linear) {
  const ThreadCtx& t = this_thread();
  const unsigned x = t.block_dim.x, y = t.block_dim.y;
  const unsigned l = static_cast<unsigned>(linear);
  return "(" + std::to_string(l % x) + "," + std::to_string(l / x % y) + "," + std::to_string(l / (x * y)) + ")";
}

[[noreturn]] void report(const Access& other, bool write, bool other_write, const char* what, int64_t byte,
                         const std::source_location& loc) {
  fail(loc, std::string("shared-memory race: this thread ") + (write ? "writes" : "reads") + " shared byte " +
                std::to_string(byte) + " (" + what + "), which thread " + coords_of(other.thread) +
                (other_write ? " wrote" : " read") + " (" + other.what + ") at " + other.loc.file_name() + ":" +
                std::to_string(other.loc.line()) + " with no barrier in between");
}

}  // namespace

void race_cta_begin(int threads, const unsigned char* smem, size_t smem_bytes) {
  if (!g_racecheck) return;
  auto* r = new RaceCta;
  r->clocks.assign(static_cast<size_t>(threads), Clock(static_cast<size_t>(threads), 0));
  for (int i = 0; i < threads; ++i) r->clocks[static_cast<size_t>(i)][static_cast<size_t>(i)] = 1;
  r->smem = smem;
  r->shadow.resize(smem_bytes);
  t_race = r;
}

void race_cta_end() {
  delete t_race;
  t_race = nullptr;
}

void race_access_slow(const void* p, int64_t bytes, bool write, const char* what, const std::source_location& loc) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  const auto* q = static_cast<const unsigned char*>(p);
  if (q < r->smem || q >= r->smem + r->shadow.size()) return;
  const int self = t_thread->linear;
  const Clock& c = r->clocks[static_cast<size_t>(self)];
  const int64_t first = q - r->smem, last = std::min<int64_t>(first + bytes, static_cast<int64_t>(r->shadow.size()));
  for (int64_t b = first; b < last; ++b) {
    Shadow& s = r->shadow[static_cast<size_t>(b)];
    if (s.write.thread != self && !ordered(s.write, c)) report(s.write, write, true, what, b, loc);
    if (write && s.read.thread != self && !ordered(s.read, c)) report(s.read, true, false, what, b, loc);
    Access& a = write ? s.write : s.read;
    a = Access{c[static_cast<size_t>(self)], self, loc, what};
  }
}

void race_meet(const int* linear, int n) {
  RaceCta* r = t_race;
  if (!r) return;
  Clock all(r->clocks.size(), 0);
  for (int i = 0; i < n; ++i) join(all, r->clocks[static_cast<size_t>(linear[i])]);
  for (int i = 0; i < n; ++i) {
    Clock& c = r->clocks[static_cast<size_t>(linear[i])];
    c = all;
    c[static_cast<size_t>(linear[i])] += 1;
  }
}

void race_release(const void* key) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  Clock& c = r->clocks[static_cast<size_t>(t_thread->linear)];
  Clock& s = r->sync[key];
  if (s.empty()) s.assign(c.size(), 0);
  join(s, c);
  c[static_cast<size_t>(t_thread->linear)] += 1;
}

void race_acquire(const void* key) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  auto it = r->sync.find(key);
  if (it != r->sync.end()) join(r->clocks[static_cast<size_t>(t_thread->linear)], it->second);
}

}  // namespace tileslc::cpu
