// The shared-memory race checker (see tileslc/cpu/racecheck.h): vector clocks
// per thread and per sync object, a shadow record per shared-memory byte of
// each CTA. State is per host thread (each runs one cluster at a time; a
// launch without clusters runs each CTA as one). A thread's index here is
// rank * threads-per-CTA + its linear index in its CTA.
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
  int threads = 0;            ///< per CTA
  std::vector<Clock> clocks;  ///< per thread of the cluster
  std::unordered_map<const void*, Clock> sync;
  std::vector<const unsigned char*> smem;  ///< per CTA, by rank
  std::vector<uint3> block_idx;            ///< per CTA, by rank
  size_t smem_bytes = 0;
  std::vector<Shadow> shadow;  ///< per byte of shared memory, CTA by CTA
};

thread_local RaceCta* t_race = nullptr;

void join(Clock& into, const Clock& from) {
  for (size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// Whether access `a` happened before the present of a thread with clock `c`.
bool ordered(const Access& a, const Clock& c) { return a.clock == 0 || a.clock <= c[static_cast<size_t>(a.thread)]; }

int self_index() { return t_thread->cluster_rank * t_race->threads + t_thread->linear; }

std::string text(uint3 v) { return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")"; }

// "(5,0,0)" for thread `index` of the cluster; "(5,0,0) of block (1,0,0)"
// when it is in another CTA than the calling thread.
std::string coords_of(int index) {
  const ThreadCtx& t = this_thread();
  const unsigned x = t.block_dim.x, y = t.block_dim.y;
  const unsigned l = static_cast<unsigned>(index % t_race->threads);
  const int rank = index / t_race->threads;
  std::string s = text(uint3{l % x, l / x % y, l / (x * y)});
  if (rank != t.cluster_rank) s += " of block " + text(t_race->block_idx[static_cast<size_t>(rank)]);
  return s;
}

[[noreturn]] void report(const Access& other, bool write, bool other_write, const char* what, int64_t byte,
                         int rank, const std::source_location& loc) {
  const std::string peer = rank == t_thread->cluster_rank ? std::string() : " of block " + text(t_race->block_idx[static_cast<size_t>(rank)]);
  fail(loc, std::string("shared-memory race: this thread ") + (write ? "writes" : "reads") + " shared byte " +
                std::to_string(byte) + peer + " (" + what + "), which thread " + coords_of(other.thread) +
                (other_write ? " wrote" : " read") + " (" + other.what + ") at " + other.loc.file_name() + ":" +
                std::to_string(other.loc.line()) + " with no barrier in between");
}

}  // namespace

void race_cluster_begin(int ctas, int threads, const unsigned char* const* smem, size_t smem_bytes, const uint3* block_idx) {
  if (!g_racecheck) return;
  auto* r = new RaceCta;
  const size_t n = static_cast<size_t>(ctas) * static_cast<size_t>(threads);
  r->threads = threads;
  r->clocks.assign(n, Clock(n, 0));
  for (size_t i = 0; i < n; ++i) r->clocks[i][i] = 1;
  r->smem.assign(smem, smem + ctas);
  r->block_idx.assign(block_idx, block_idx + ctas);
  r->smem_bytes = smem_bytes;
  r->shadow.resize(smem_bytes * static_cast<size_t>(ctas));
  t_race = r;
}

void race_cluster_end() {
  delete t_race;
  t_race = nullptr;
}

void race_access_slow(const void* p, int64_t bytes, bool write, const char* what, const std::source_location& loc) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  const auto* q = static_cast<const unsigned char*>(p);
  int rank = -1;
  for (size_t k = 0; k < r->smem.size(); ++k)
    if (q >= r->smem[k] && q < r->smem[k] + r->smem_bytes) rank = static_cast<int>(k);
  if (rank < 0) return;
  const int self = self_index();
  const Clock& c = r->clocks[static_cast<size_t>(self)];
  const int64_t size = static_cast<int64_t>(r->smem_bytes);
  const int64_t first = q - r->smem[static_cast<size_t>(rank)], last = std::min<int64_t>(first + bytes, size);
  Shadow* shadow = r->shadow.data() + static_cast<size_t>(rank) * r->smem_bytes;
  for (int64_t b = first; b < last; ++b) {
    Shadow& s = shadow[b];
    if (s.write.thread != self && !ordered(s.write, c)) report(s.write, write, true, what, b, rank, loc);
    if (write && s.read.thread != self && !ordered(s.read, c)) report(s.read, true, false, what, b, rank, loc);
    Access& a = write ? s.write : s.read;
    a = Access{c[static_cast<size_t>(self)], self, loc, what};
  }
}

void race_meet(const int* linear, int n, const void* released) {
  RaceCta* r = t_race;
  if (!r) return;
  const size_t base = static_cast<size_t>(t_thread->cluster_rank) * static_cast<size_t>(r->threads);
  Clock all(r->clocks.size(), 0);
  if (released) {
    auto it = r->sync.find(released);
    if (it != r->sync.end()) {
      join(all, it->second);
      r->sync.erase(it);
    }
  }
  for (int i = 0; i < n; ++i) join(all, r->clocks[base + static_cast<size_t>(linear[i])]);
  for (int i = 0; i < n; ++i) {
    Clock& c = r->clocks[base + static_cast<size_t>(linear[i])];
    c = all;
    c[base + static_cast<size_t>(linear[i])] += 1;
  }
}

void race_release(const void* key) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  const size_t self = static_cast<size_t>(self_index());
  Clock& c = r->clocks[self];
  Clock& s = r->sync[key];
  if (s.empty()) s.assign(c.size(), 0);
  join(s, c);
  c[self] += 1;
}

void race_acquire(const void* key) {
  RaceCta* r = t_race;
  if (!r || !t_thread) return;
  auto it = r->sync.find(key);
  if (it != r->sync.end()) join(r->clocks[static_cast<size_t>(self_index())], it->second);
}

}  // namespace tileslc::cpu
