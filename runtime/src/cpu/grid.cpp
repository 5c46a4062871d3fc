// The CPU emulation target's scheduler: runs a grid cluster by cluster (a
// launch without clusters: CTA by CTA, each its own 1x1x1 cluster), all the
// threads of a cluster's CTAs as Boost.Context fibers in a fixed round-robin
// order (CTA rank 0's thread 0, 1, ..., then rank 1's, ..., then again), so a
// run is deterministic. Each CTA keeps its own shared memory. Clusters of a
// grid run one after another, or on TILESLC_CPU_THREADS host threads side by
// side. A fiber runs until it finishes or must wait for others: at a barrier
// (bar.sync, __syncthreads, barrier.cluster), a warp-collective operation or
// an mbarrier. The last thread to arrive releases the others. When no fiber
// of the cluster can run and some still wait, it is deadlocked: the report
// names the waiting statement and the threads that never came.
#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fiber_stack.h"
#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/thread.h"

namespace ctx = boost::context;

namespace tileslc::cpu {

thread_local ThreadCtx* t_thread = nullptr;

namespace {

enum class State : uint8_t { NotStarted, Ready, Waiting, Done };

struct Wait {
  const char* what = "";  ///< "__syncthreads()", "bar.sync", "__shfl_sync", ...
  SrcLoc loc;
  int barrier = -1;       ///< barrier id; -1 for a warp-collective operation, -2 for wait_until, -3 for a warpgroup,
                          ///< -4 for barrier.cluster.wait
  bool (*ready)(void*) = nullptr;  ///< wait_until: the thread may go on when ready(ready_arg)
  void* ready_arg = nullptr;
  std::string (*describe)(void*) = nullptr;  ///< wait_until: what is missing, for the deadlock report
};

struct Fiber {
  ThreadCtx ctx;
  State state = State::NotStarted;
  Wait wait;
  ctx::fiber fiber;  ///< the thread's own context while it is suspended
  ctx::fiber sink;   ///< the scheduler's context while the thread runs
  ctx::stack_context stack;  ///< the stack `fiber` runs on
  int64_t cluster_phase = -1;  ///< the cluster barrier phase this thread arrived in and has not waited for; -1: none
};

struct BarrierState {
  int arrived = 0;
  int expected = 0;
  bool syncthreads = false;
  SrcLoc site;           ///< where the first thread of the phase arrived
  int first_waiter = -1;
  std::vector<int> waiters;
  std::vector<int> arrivers;  ///< threads that arrived by bar.arrive in this phase (they went on)
  char race_key = 0;          ///< the race checker's sync object: bar.arrive's releases of the phase
};

struct WarpState {
  uint32_t arrived = 0;
  uint32_t expected = 0;
  const char* what = "";
  SrcLoc site;
  int first_waiter = -1;
  WarpExchange exchange;
};

struct WarpgroupState {
  int arrived = 0;
  const char* what = "";
  SrcLoc site;
  int first_waiter = -1;
  std::vector<int> waiters;
  WarpgroupExchange exchange;
};

struct Cta {
  std::vector<Fiber> threads;
  BarrierState barriers[16];
  std::vector<WarpState> warps;
  std::vector<WarpgroupState> warpgroups;
  int live = 0;
};

// barrier.cluster: one arrival per thread of the cluster per phase.
struct ClusterBarrier {
  int arrived = 0;   ///< arrivals in the current phase
  int expected = 0;  ///< every thread of every CTA of the cluster
  int64_t phase = 0;
  char race_key[2] = {};  ///< the race checker's sync objects, by phase parity (see cluster_wait)
};

struct Cluster {
  std::vector<Cta> ctas;  ///< by rank
  ClusterBarrier barrier;
  int live = 0;
};

thread_local Cluster* t_cluster = nullptr;
thread_local Cta* t_cta = nullptr;
thread_local Fiber* t_fiber = nullptr;

std::string coords(uint3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

std::string where(const SrcLoc& loc) { return std::string(loc.file_name()) + ":" + std::to_string(loc.line()); }

std::string thread_name(const Fiber& f) { return "thread " + coords(f.ctx.thread_idx); }

// Suspends the running fiber until another thread releases it.
void block_here(const Wait& w) {
  Fiber& f = *t_fiber;
  f.state = State::Waiting;
  f.wait = w;
  while (f.state == State::Waiting) f.sink = std::move(f.sink).resume();
}

void release(Cta& c, int linear) { c.threads[linear].state = State::Ready; }

// cp.async copies the thread never waited for still land when it exits.
void complete_async_copies(ThreadCtx& t) {
  t.cp_async_groups.push_back(std::move(t.cp_async_open));
  for (const auto& group : t.cp_async_groups)
    for (const AsyncCopy& a : group) std::memcpy(a.dst, a.src, a.bytes);
  t.cp_async_groups.clear();
  // So do TMA stores, which read the CTA's shared memory: it outlives them.
  t.bulk_groups.push_back(std::move(t.bulk_open));
  t.bulk_open.clear();
  for (auto& group : t.bulk_groups)
    for (auto& op : group) op();
  t.bulk_groups.clear();
}

// "thread (5,0,0)", with " of block (1,0,0)" when `f` is in another CTA than
// `ref` (a cluster's report names threads of several CTAs).
std::string thread_name_from(const Fiber& f, const Fiber& ref) {
  std::string s = thread_name(f);
  const uint3 a = f.ctx.block_idx, b = ref.ctx.block_idx;
  if (a.x != b.x || a.y != b.y || a.z != b.z) s += " of block " + coords(a);
  return s;
}

// The report when no thread of cluster `cl` can run: the first waiting
// thread's statement, and for each other thread why it will not come.
[[noreturn]] void report_deadlock(Cluster& cl) {
  Fiber* first = nullptr;
  Cta* at = nullptr;
  for (Cta& c : cl.ctas) {
    for (Fiber& f : c.threads)
      if (f.state == State::Waiting) {
        first = &f;
        break;
      }
    if (first) {
      at = &c;
      break;
    }
  }
  Cta& c = *at;
  const bool clustered = cl.ctas.size() > 1;
  int exited = 0, elsewhere = 0;
  const Fiber* first_exited = nullptr;
  const Fiber* first_elsewhere = nullptr;
  std::string message;
  auto tally = [&](const Fiber& f) {
    if (f.state == State::Done) {
      ++exited;
      if (!first_exited) first_exited = &f;
    } else if (f.state == State::Waiting && (f.wait.barrier != first->wait.barrier || f.wait.what != first->wait.what ||
                                             (first->wait.barrier == -1 && (f.ctx.linear >> 5) != (first->ctx.linear >> 5)) ||
                                             (first->wait.barrier == -3 && (f.ctx.linear >> 7) != (first->ctx.linear >> 7)))) {
      ++elsewhere;
      if (!first_elsewhere) first_elsewhere = &f;
    }
  };
  if (first->wait.barrier == -2) {
    for (const Cta& d : cl.ctas)
      for (const Fiber& f : d.threads) tally(f);
    message = "deadlock: " + std::string(first->wait.what) + " never completes" +
              (first->wait.describe ? " (" + first->wait.describe(first->wait.ready_arg) + ")" : std::string()) +
              ": every thread of the " + (clustered ? "cluster" : "block") + " waits or has exited";
  } else if (first->wait.barrier == -4) {
    // The threads that never arrived in the phase the waiters wait for.
    const ClusterBarrier& b = cl.barrier;
    for (const Cta& d : cl.ctas)
      for (const Fiber& f : d.threads)
        if (f.cluster_phase != b.phase) tally(f);
    message = "cluster barrier deadlock: " + std::string(first->wait.what) + " waits for the " + std::to_string(b.expected) +
              " threads of the cluster's " + std::to_string(cl.ctas.size()) + " blocks but only " + std::to_string(b.arrived) +
              " arrived";
  } else if (first->wait.barrier == -3) {
    const int wg = first->ctx.linear >> 7;
    for (int i = 0; i < 128; ++i) tally(c.threads[wg * 128 + i]);
    message = "warpgroup deadlock: " + std::string(first->wait.what) + " waits for the 128 threads of warpgroup " +
              std::to_string(wg) + " but only " + std::to_string(c.warpgroups[wg].arrived) + " arrived";
  } else if (first->wait.barrier >= 0) {
    const BarrierState& b = c.barriers[first->wait.barrier];
    // Threads that arrived by bar.arrive and went on are not missing, wherever they are now.
    for (const Fiber& f : c.threads)
      if (std::find(b.arrivers.begin(), b.arrivers.end(), f.ctx.linear) == b.arrivers.end()) tally(f);
    message = "barrier deadlock: " + std::string(first->wait.what) + " waits for " + std::to_string(b.expected) + " threads but only " + std::to_string(b.arrived) + " arrived" +
              (b.arrivers.empty() ? std::string() : " (" + std::to_string(b.arrivers.size()) + " by bar.arrive)");
  } else {
    const WarpState& w = c.warps[first->ctx.linear >> 5];
    for (int l = 0; l < 32; ++l)
      if (((w.expected >> l) & 1u) && !((w.arrived >> l) & 1u)) tally(c.threads[(first->ctx.linear & ~31) + l]);
    message = "warp deadlock: " + std::string(first->wait.what) + " waits for " +
              std::to_string(__builtin_popcount(w.expected)) + " lanes of warp " + std::to_string(first->ctx.linear >> 5) +
              " but only " + std::to_string(__builtin_popcount(w.arrived)) + " arrived";
  }
  if (exited)
    message += "; " + std::to_string(exited) + (first->wait.barrier == -2 ? " exited" : " exited without reaching it") +
               " (first: " + thread_name_from(*first_exited, *first) + ")";
  if (elsewhere)
    message += "; " + std::to_string(elsewhere) + " wait at " + first_elsewhere->wait.what + " at " +
               where(first_elsewhere->wait.loc) + " (first: " + thread_name_from(*first_elsewhere, *first) + ")";
  t_thread = &first->ctx;
  fail(first->wait.loc, message);
}

// The CTAs of one cluster, before they start: their indices and shared memory.
struct ClusterShape {
  dim3 grid, block, cluster;
  uint3 cluster_idx;         ///< of this cluster, in the grid of clusters
  unsigned char* const* smem;  ///< one buffer per CTA, by rank
  size_t smem_bytes;
};

// Runs one cluster (every CTA of a launch without clusters is one) to completion.
void run_cluster(KernelEntry entry, void** args, const ClusterShape& s, FiberStacks& stacks) {
  const int n = static_cast<int>(s.block.x * s.block.y * s.block.z);
  const int ctas = static_cast<int>(s.cluster.x * s.cluster.y * s.cluster.z);
  const uint3 cluster_grid{s.grid.x / s.cluster.x, s.grid.y / s.cluster.y, s.grid.z / s.cluster.z};
  Cluster cl;
  cl.ctas.resize(static_cast<size_t>(ctas));  // no reallocation after this: fibers hold references
  cl.live = n * ctas;
  cl.barrier.expected = n * ctas;
  std::vector<uint3> block_ids(static_cast<size_t>(ctas));
  for (int r = 0; r < ctas; ++r) {
    Cta& c = cl.ctas[static_cast<size_t>(r)];
    const uint3 in{r % s.cluster.x, r / s.cluster.x % s.cluster.y, r / (s.cluster.x * s.cluster.y)};
    const uint3 b{s.cluster_idx.x * s.cluster.x + in.x, s.cluster_idx.y * s.cluster.y + in.y,
                  s.cluster_idx.z * s.cluster.z + in.z};
    block_ids[static_cast<size_t>(r)] = b;
    c.threads.resize(n);
    c.warps.resize((n + 31) / 32);
    c.warpgroups.resize((n + 127) / 128);
    c.live = n;
    for (int i = 0; i < n; ++i) {
      ThreadCtx& t = c.threads[i].ctx;
      t.thread_idx = uint3{i % s.block.x, (i / s.block.x) % s.block.y, i / (s.block.x * s.block.y)};
      t.block_idx = b;
      t.block_dim = s.block;
      t.grid_dim = s.grid;
      t.linear = i;
      t.smem = s.smem[r];
      t.smem_bytes = s.smem_bytes;
      t.cluster_idx = s.cluster_idx;
      t.cluster_grid = cluster_grid;
      t.block_in_cluster = in;
      t.cluster_dim = s.cluster;
      t.cluster_rank = r;
      t.cluster_ctas = ctas;
      t.cluster_smem = s.smem;
    }
  }
  t_cluster = &cl;
  race_cluster_begin(ctas, n, s.smem, s.smem_bytes, block_ids.data());
  while (cl.live > 0) {
    bool progressed = false;
    for (Cta& c : cl.ctas) {
      t_cta = &c;
      for (Fiber& f : c.threads) {
        if (f.state == State::NotStarted) {
          f.state = State::Ready;
          f.fiber = ctx::fiber(std::allocator_arg, FiberStackHandle{&stacks, &f.stack}, [&f, &c, &cl, entry, args](ctx::fiber&& sink) {
            f.sink = std::move(sink);
            entry(args);
            complete_async_copies(f.ctx);
            f.state = State::Done;
            --c.live;
            --cl.live;
            return std::move(f.sink);
          });
        }
        if (f.state == State::Waiting && f.wait.ready && f.wait.ready(f.wait.ready_arg)) f.state = State::Ready;
        if (f.state != State::Ready) continue;
        progressed = true;
        t_fiber = &f;
        t_thread = &f.ctx;
        set_running_stack(&f.stack);
        f.fiber = std::move(f.fiber).resume();
        set_running_stack(nullptr);
      }
    }
    if (!progressed && cl.live > 0) report_deadlock(cl);
  }
  race_cluster_end();
  t_cluster = nullptr;
  t_cta = nullptr;
  t_fiber = nullptr;
  t_thread = nullptr;
}

bool cluster_phase_done(void* f) { return t_cluster->barrier.phase > static_cast<const Fiber*>(f)->cluster_phase; }

}  // namespace

WarpExchange& this_warp_exchange() { return t_cta->warps[t_thread->linear >> 5].exchange; }
WarpgroupExchange& this_warpgroup_exchange() { return t_cta->warpgroups[t_thread->linear >> 7].exchange; }

void fail(const SrcLoc& loc, const std::string& message) {
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  std::fflush(stdout);
  std::string text = where(loc) + ": error: " + message;
  if (t_thread) text += " (thread " + coords(t_thread->thread_idx) + " block " + coords(t_thread->block_idx) + ")";
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

namespace {

// The checks every arrival at named barrier `id` makes (bar.sync, __syncthreads, bar.arrive): the
// id and count are valid, and the count is the one the phase's first thread gave. Starts the
// phase when the calling thread is its first. Returns the barrier.
BarrierState& arrive_checked(int id, int count, bool syncthreads, const char* what, const SrcLoc& loc) {
  Cta& c = *t_cta;
  const int n = static_cast<int>(c.threads.size());
  if (id < 0 || id > 15) fail(loc, std::string(what) + " " + std::to_string(id) + ": barrier ids are 0 to 15");
  const int expected = count == 0 ? n : count;
  if (count < 0 || count > n || count % 32 != 0)
    fail(loc, std::string(what) + " " + std::to_string(id) + ", " + std::to_string(count) +
                  ": the thread count must be a multiple of 32 up to the " + std::to_string(n) + " threads of the block");
  BarrierState& b = c.barriers[id];
  if (b.arrived == 0) {
    b.expected = expected;
    b.syncthreads = syncthreads;
    b.site = loc;
    b.first_waiter = t_thread->linear;
    return b;
  }
  const Fiber& other = c.threads[b.first_waiter];
  if (b.expected != expected)
    fail(loc, std::string(syncthreads ? "__syncthreads()" : what) + " on barrier " + std::to_string(id) + " expects " +
                  std::to_string(expected) + " threads, but " + thread_name(other) + " arrived there for " +
                  std::to_string(b.expected) + " at " + where(b.site));
  if (syncthreads && b.syncthreads && (b.site.line() != loc.line() || std::strcmp(b.site.file_name(), loc.file_name())))
    fail(loc, "divergent __syncthreads(): this thread reached it here while " + thread_name(other) + " waits at " +
                  where(b.site));
  return b;
}

// The phase of `b` is complete: the waiters (and the calling thread, when `self_waits`) meet,
// with what the phase's bar.arrive threads released; every waiter resumes; the next phase starts.
void complete_phase(Cta& c, BarrierState& b, bool self_waits) {
  if (self_waits) b.waiters.push_back(t_thread->linear);
  race_meet(b.waiters.data(), static_cast<int>(b.waiters.size()), b.arrivers.empty() ? nullptr : &b.race_key);
  if (self_waits) b.waiters.pop_back();
  for (int w : b.waiters) release(c, w);
  b.waiters.clear();
  b.arrivers.clear();
  b.arrived = 0;
}

}  // namespace

void barrier_sync(int id, int count, bool syncthreads, const SrcLoc& loc) {
  Cta& c = *t_cta;
  const char* what = syncthreads ? "__syncthreads()" : "bar.sync";
  BarrierState& b = arrive_checked(id, count, syncthreads, "bar.sync", loc);
  if (!b.arrivers.empty() && std::find(b.arrivers.begin(), b.arrivers.end(), t_thread->linear) != b.arrivers.end())
    fail(loc, std::string(what) + " on barrier " + std::to_string(id) + " after this thread's bar.arrive on it in the same "
              "phase: this thread would count twice");
  if (++b.arrived == b.expected) {
    complete_phase(c, b, true);
    return;
  }
  b.waiters.push_back(t_thread->linear);
  block_here(Wait{what, loc, id});
}

void barrier_arrive(int id, int count, const SrcLoc& loc) {
  Cta& c = *t_cta;
  if (count == 0) fail(loc, "bar.arrive " + std::to_string(id) + ", 0: bar.arrive needs a thread count (a multiple of 32)");
  BarrierState& b = arrive_checked(id, count, false, "bar.arrive", loc);
  const int self = t_thread->linear;
  if (std::find(b.arrivers.begin(), b.arrivers.end(), self) != b.arrivers.end())
    fail(loc, "bar.arrive on barrier " + std::to_string(id) + " twice in one phase (the barrier has " +
                  std::to_string(b.arrived) + " of its " + std::to_string(b.expected) +
                  " threads): this thread would count twice");
  b.arrivers.push_back(self);
  race_release(&b.race_key);  // what this thread did so far happens before the waiters go on
  if (++b.arrived == b.expected) complete_phase(c, b, false);
}

void warp_sync(uint32_t mask, const char* what, const SrcLoc& loc) {
  Cta& c = *t_cta;
  const int linear = t_thread->linear, lane = linear & 31, warp = linear >> 5;
  const int64_t left = static_cast<int64_t>(c.threads.size()) - (linear & ~31);
  mask &= left >= 32 ? 0xffffffffu : (1u << left) - 1u;
  if (!((mask >> lane) & 1u)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", mask);
    fail(loc, std::string(what) + " with mask " + buf + ", which leaves out the calling lane " + std::to_string(lane));
  }
  WarpState& w = c.warps[warp];
  if (w.arrived == 0) {
    w.expected = mask;
    w.what = what;
    w.site = loc;
    w.first_waiter = linear;
  } else if (w.expected != mask || std::strcmp(w.what, what) != 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (mask 0x%08x) while lane %d waits at ", mask, w.first_waiter & 31);
    char buf2[32];
    std::snprintf(buf2, sizeof buf2, " (mask 0x%08x) at ", w.expected);
    fail(loc, "divergent warp: lane " + std::to_string(lane) + " reached " + what + buf + w.what + buf2 + where(w.site));
  }
  w.arrived |= 1u << lane;
  if (w.arrived == w.expected) {
    if (g_racecheck) {
      int lanes[32], k = 0;
      for (int l = 0; l < 32; ++l)
        if ((w.arrived >> l) & 1u) lanes[k++] = (linear & ~31) + l;
      race_meet(lanes, k);
    }
    for (int l = 0; l < 32; ++l)
      if (((w.arrived >> l) & 1u) && l != lane) release(c, (linear & ~31) + l);
    w.arrived = 0;
    return;
  }
  block_here(Wait{what, loc, -1});
}

void wait_until(bool (*ready)(void*), void* arg, const char* what, const SrcLoc& loc, std::string (*describe)(void*)) {
  if (ready(arg)) return;
  Wait w{what, loc, -2};
  w.ready = ready;
  w.ready_arg = arg;
  w.describe = describe;
  block_here(w);
}

bool warpgroup_sync(const char* what, const SrcLoc& loc) {
  Cta& c = *t_cta;
  const int linear = t_thread->linear, wg = linear >> 7;
  const int n = static_cast<int>(c.threads.size());
  if ((wg + 1) * 128 > n)
    fail(loc, std::string(what) + " is a warpgroup operation: threads " + std::to_string(wg * 128) + " to " +
                  std::to_string(wg * 128 + 127) + " must all exist, but the block has " + std::to_string(n) + " threads");
  WarpgroupState& g = c.warpgroups[wg];
  if (g.arrived == 0) {
    g.what = what;
    g.site = loc;
    g.first_waiter = linear;
  } else if (std::strcmp(g.what, what) != 0 || g.site.line() != loc.line() || std::strcmp(g.site.file_name(), loc.file_name())) {
    fail(loc, "divergent warpgroup: thread " + std::to_string(linear) + " reached " + what + " here while thread " +
                  std::to_string(g.first_waiter) + " waits at " + g.what + " at " + where(g.site));
  }
  if (++g.arrived == 128) {
    g.waiters.push_back(linear);
    race_meet(g.waiters.data(), 128);
    g.waiters.pop_back();
    for (int w : g.waiters) release(c, w);
    g.waiters.clear();
    g.arrived = 0;
    return true;
  }
  g.waiters.push_back(linear);
  block_here(Wait{what, loc, -3});
  return false;
}

void cluster_arrive(bool release, const SrcLoc& loc) {
  Cluster& cl = *t_cluster;
  Fiber& f = *t_fiber;
  ClusterBarrier& b = cl.barrier;
  if (f.cluster_phase >= 0)
    fail(loc, "barrier.cluster.arrive twice without a barrier.cluster.wait in between (the PTX ISA allows one arrival "
              "per thread and phase)");
  f.cluster_phase = b.phase;
  // .release: what this thread did before is ordered before every wait of the phase.
  if (release) race_release(&b.race_key[b.phase & 1]);
  if (++b.arrived == b.expected) {
    b.arrived = 0;
    ++b.phase;  // waiters see it through cluster_phase_done
  }
}

void cluster_wait(const SrcLoc& loc) {
  Cluster& cl = *t_cluster;
  Fiber& f = *t_fiber;
  if (f.cluster_phase < 0) fail(loc, "barrier.cluster.wait without a barrier.cluster.arrive before it");
  const int64_t phase = f.cluster_phase;
  if (cl.barrier.phase <= phase) {
    Wait w{"barrier.cluster.wait", loc, -4};
    w.ready = &cluster_phase_done;
    w.ready_arg = &f;
    block_here(w);
  }
  f.cluster_phase = -1;
  // The releases of phase `phase` went into the key of its parity; no thread
  // can arrive in phase + 2 (same key) before this thread arrives in phase + 1.
  race_acquire(&cl.barrier.race_key[phase & 1]);
}

bool cluster_cta_exited(int32_t rank) { return t_cluster->ctas.at(static_cast<size_t>(rank)).live == 0; }

cudaError_t run_grid(KernelEntry entry, void** args, dim3 grid, dim3 block, size_t smem_bytes, dim3 cluster) {
  if (t_thread) return cudaErrorNotSupported;  // a launch from inside a kernel
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || grid.x % cluster.x || grid.y % cluster.y || grid.z % cluster.z)
    return cudaErrorInvalidConfiguration;
  const unsigned per_cluster = cluster.x * cluster.y * cluster.z;
  const dim3 cgrid(grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z);
  const uint64_t clusters = uint64_t{cgrid.x} * cgrid.y * cgrid.z;
  std::atomic<uint64_t> next{0};
  // Each host thread takes the next cluster in (x, y, z) order until none is left.
  auto worker = [&] {
    // Stacks and the overflow report are per host thread (TILESLC_CPU_THREADS
    // of them, default 1: one CTA after another, the same interleaving and so
    // the same float atomics' rounding on every run).
    OverflowWatch watch;
    FiberStacks stacks;
    // Shared memory starts as 0xFF bytes (NaN for every float type), so a
    // read before the first write shows up in the results. One buffer per
    // CTA of the cluster, each 1024-byte aligned.
    const size_t span = (smem_bytes + 1023) / 1024 * 1024;
    std::unique_ptr<unsigned char[]> storage(new unsigned char[span * per_cluster + 1024]);
    unsigned char* base = storage.get() + (1024 - reinterpret_cast<uintptr_t>(storage.get()) % 1024) % 1024;
    std::vector<unsigned char*> smem(per_cluster);
    for (unsigned r = 0; r < per_cluster; ++r) smem[r] = base + r * span;
    for (uint64_t i = next++; i < clusters; i = next++) {
      const uint3 c{static_cast<unsigned>(i % cgrid.x), static_cast<unsigned>(i / cgrid.x % cgrid.y),
                    static_cast<unsigned>(i / (uint64_t{cgrid.x} * cgrid.y))};
      std::memset(base, 0xFF, span * per_cluster);
      run_cluster(entry, args, ClusterShape{grid, block, cluster, c, smem.data(), smem_bytes}, stacks);
    }
  };
  const uint64_t threads = std::min<uint64_t>(host_threads(), clusters);
  if (threads <= 1) {
    worker();
    return cudaSuccess;
  }
  std::vector<std::thread> pool;
  for (uint64_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return cudaSuccess;
}

}  // namespace tileslc::cpu
