// Kernel metrics (runtime.h, docs/tuning.md "Metrics"): with TILESLC_METRICS=path.jsonl, one JSON
// line per launch: kernel, grid, block, dynamic shared memory, GPU time from CUDA events; and one
// per call of a host function that declares its cost (@cutlass.cost): its extents, GPU time,
// bytes and FLOPs, achieved GB/s and TFLOP/s and their share of the device's peak.
//
// A timed launch records two CUDA events and does not wait for them: its line (and its call's)
// waits in a queue, written in launch order when the queue holds kMaxPending lines or the program
// exits. Waiting on each launch's stop event cost 23 us per call back to back (softmax, M = 1024,
// H100, 2026-12-05: 25.1 us a call with metrics off, 47.3 on), since the host could no longer
// enqueue ahead of the GPU.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tileslc/runtime.h"

namespace tileslc::metrics {

std::atomic<int> g_state{0};

namespace {

std::mutex g_mutex;
FILE* g_out = nullptr;
unsigned long long g_sample = 1;
unsigned long long g_launches = 0;
unsigned long long g_calls = 0;
thread_local CallScope* t_scope = nullptr;  // the innermost call in progress on this thread

/// A line waiting for its GPU time: a timed launch's (its events) or a call's whose launches were
/// all timed (the sum of theirs, known once they are written: they precede it in the queue).
struct Pending {
  std::string line;  // without the GPU-time members and the closing brace
  cudaEvent_t start = nullptr, stop = nullptr;
  bool in_call = false, is_call = false, call_timed = false;
  unsigned long long call = 0;
  double bytes = -1, flops = -1, peak_gbps = 0, peak_tflops = 0;
};
constexpr size_t kMaxPending = 512;
std::vector<Pending> g_pending;                         // under g_mutex, in launch order
std::unordered_map<unsigned long long, double> g_call_ms;  // a pending call's launches so far
std::vector<cudaEvent_t> g_free_events;                  // recorded, read and ready for reuse
bool g_exit_flush_registered = false;

/// The device's peaks: DRAM bandwidth in GB/s and dense 16-bit tensor-core TFLOP/s (0: unknown).
struct Peak {
  double gbps = 0, tflops = 0;
};

/// Dense FP16/BF16 tensor-core FLOPs per SM per clock by compute capability (NVIDIA's A100,
/// H100 and B200 whitepapers: 1024, 2048 and 4096 FMAs); other devices: unknown.
double tensor_flops_per_sm_clock(int major, int minor) {
  if (major == 8 && minor == 0) return 2048;
  if (major == 9 && minor == 0) return 4096;
  if (major == 10 && minor == 0) return 8192;
  return 0;
}

/// TILESLC_PEAK_GBPS and TILESLC_PEAK_TFLOPS if set; otherwise the current device's, from its
/// attributes: 2 x memory clock x bus width (DDR), and SMs x clock x the per-SM rate above, at
/// the clocks the device reports (its boost clocks). Read once per device ordinal, under g_mutex.
Peak device_peak() {
  static Peak cache[64];
  static bool known[64] = {};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) {
    cudaGetLastError();
    dev = 0;
  }
  if (!known[dev]) {
    Peak p;
    int mem_khz = 0, bus_bits = 0, clock_khz = 0, sms = 0, major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
      p.gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess)
      p.tflops = sms * (clock_khz * 1e3) * tensor_flops_per_sm_clock(major, minor) / 1e12;
    cudaGetLastError();  // an attribute the device (or the CPU emulator) lacks is not a launch's error
    if (const char* v = std::getenv("TILESLC_PEAK_GBPS"); v && std::atof(v) > 0) p.gbps = std::atof(v);
    if (const char* v = std::getenv("TILESLC_PEAK_TFLOPS"); v && std::atof(v) > 0) p.tflops = std::atof(v);
    cache[dev] = p;
    known[dev] = true;
  }
  return cache[dev];
}

/// ", \"name\": value" with 6 significant digits.
std::string member(const char* name, double v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, ", \"%s\": %.6g", name, v);
  return buf;
}

/// The kernel name as a JSON string (names are C++ identifiers; escape anyway).
std::string json_string(const char* s) {
  std::string out = "\"";
  for (const char* p = s ? s : "kernel"; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    if (static_cast<unsigned char>(*p) >= 0x20) out += *p;
  }
  return out + "\"";
}

cudaEvent_t take_event() {
  if (!g_free_events.empty()) {
    cudaEvent_t e = g_free_events.back();
    g_free_events.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  return cudaEventCreate(&e) == cudaSuccess ? e : nullptr;
}

std::string gpu_members(double gpu_ms, double bytes, double flops, double peak_gbps, double peak_tflops) {
  std::string out = member("gpu_ms", gpu_ms);
  const double sec = gpu_ms * 1e-3;
  if (sec > 0 && bytes >= 0) {
    const double gbps = bytes / sec / 1e9;
    out += member("gbps", gbps);
    if (peak_gbps > 0) out += member("peak_gbps", peak_gbps) + member("pct_peak_bw", 100.0 * gbps / peak_gbps);
  }
  if (sec > 0 && flops >= 0) {
    const double tflops = flops / sec / 1e12;
    out += member("tflops", tflops);
    if (peak_tflops > 0) out += member("peak_tflops", peak_tflops) + member("pct_peak_flops", 100.0 * tflops / peak_tflops);
  }
  return out;
}

/// Waits for every pending launch's stop event and writes the queue, in order. Under g_mutex.
void flush_locked() {
  for (Pending& p : g_pending) {
    std::string line = std::move(p.line);
    if (p.stop) {
      float ms = -1.0f;
      if (cudaEventSynchronize(p.stop) == cudaSuccess && cudaEventElapsedTime(&ms, p.start, p.stop) == cudaSuccess && ms >= 0) {
        char t[48];
        std::snprintf(t, sizeof t, ", \"gpu_ms\": %.6g", ms);
        line += t;
        if (p.in_call) g_call_ms[p.call] += ms;
      } else {
        cudaGetLastError();
        if (p.in_call) g_call_ms[p.call] = -1e300;  // a launch without a time: its call has none
      }
      g_free_events.push_back(p.start);
      g_free_events.push_back(p.stop);
    } else if (p.is_call) {
      const auto it = g_call_ms.find(p.call);
      const double ms = it == g_call_ms.end() ? 0.0 : it->second;
      if (it != g_call_ms.end()) g_call_ms.erase(it);
      if (p.call_timed && ms >= 0) line += gpu_members(ms, p.bytes, p.flops, p.peak_gbps, p.peak_tflops);
    }
    line += "}\n";
    std::fputs(line.c_str(), g_out);
  }
  g_pending.clear();
  std::fflush(g_out);
}

void push_locked(Pending p) {
  if (!g_exit_flush_registered) {
    g_exit_flush_registered = true;
    // Registered after the CUDA runtime initialized (a launch came first), so it runs before the
    // runtime's own teardown and the events can still be read.
    std::atexit([] {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (g_out) flush_locked();
    });
  }
  g_pending.push_back(std::move(p));
  if (g_pending.size() >= kMaxPending) flush_locked();
}

}  // namespace

bool read_state() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (const int s = g_state.load(); s != 0) return s == 2;
  const char* path = std::getenv("TILESLC_METRICS");
  if (path && *path) {
    g_out = std::fopen(path, "a");
    if (!g_out) std::fprintf(stderr, "tileslc: TILESLC_METRICS: cannot open '%s': %s; metrics are off\n", path, std::strerror(errno));
    else std::setvbuf(g_out, nullptr, _IOLBF, 0);  // whole lines, even if the program dies
  }
  if (const char* n = std::getenv("TILESLC_METRICS_SAMPLE"); n && std::atoll(n) > 1) g_sample = static_cast<unsigned long long>(std::atoll(n));
  g_state.store(g_out ? 2 : 1);
  return g_out != nullptr;
}

Status recorded_launch(const char* kernel_name, dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream,
                       Status (*launch_fn)(void*), void* context) {
  unsigned long long n;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    n = g_launches++;
  }
  CallScope* scope = t_scope;
  const bool timed = scope ? scope->timed() : n % g_sample == 0;
  cudaEvent_t start = nullptr, stop = nullptr;
  if (timed) {
    std::lock_guard<std::mutex> lock(g_mutex);
    start = take_event();
    stop = take_event();
  }
  if (timed && (!start || !stop || cudaEventRecord(start, stream) != cudaSuccess))
    return Status::error(std::string("TILESLC_METRICS: cannot record a CUDA event for ") + (kernel_name ? kernel_name : "kernel"));
  Status s = launch_fn(context);
  const bool recorded = timed && s && cudaEventRecord(stop, stream) == cudaSuccess;
  char dims[160];
  std::snprintf(dims, sizeof dims, "\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %zu", grid.x, grid.y, grid.z, block.x, block.y,
                block.z, smem_bytes);
  Pending p;
  p.line = "{\"launch\": " + std::to_string(n) + ", \"kernel\": " + json_string(kernel_name) + ", " + dims +
           ", \"ok\": " + (s ? "true" : "false");
  if (scope) {
    p.line += ", \"call\": " + std::to_string(scope->number()) + ", \"function\": " + json_string(scope->function());
    scope->add_launch(bool(s), recorded);  // its time is added when the queue is written
    p.in_call = true;
    p.call = scope->number();
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (recorded) {
    p.start = start;
    p.stop = stop;
  } else if (timed) {
    g_free_events.push_back(start);
    g_free_events.push_back(stop);
  }
  push_locked(std::move(p));
  return s;
}

Status recorded_launch_full(const void* kernel, const char* kernel_name, dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream,
                            void** args) {
  struct Call {
    const void* kernel;
    const char* name;
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
    void** args;
  } call{kernel, kernel_name, grid, block, smem_bytes, stream, args};
  return recorded_launch(kernel_name, grid, block, smem_bytes, stream, [](void* c) {
    const Call& k = *static_cast<const Call*>(c);
    return launch_kernel_full(k.kernel, k.name, k.grid, k.block, k.smem, k.stream, k.args);
  }, &call);
}

void CallScope::begin(const char* function) {
  std::lock_guard<std::mutex> lock(g_mutex);
  active_ = true;
  function_ = function;
  call_ = g_calls++;
  timed_ = call_ % g_sample == 0;
  outer_ = t_scope;
  t_scope = this;
}

void CallScope::describe(double bytes, double flops, const char* const* names, const int64_t* values, size_t count) {
  bytes_ = bytes;
  flops_ = flops;
  extents_.clear();
  for (size_t i = 0; i < count; ++i) extents_ += (i ? ", " : "") + json_string(names[i]) + ": " + std::to_string(values[i]);
}

void CallScope::add_launch(bool ok, bool timed) {
  ++launches_;
  ok_ = ok_ && ok;
  timed_launches_ += timed;
}

void CallScope::end() {
  t_scope = outer_;
  Pending p;
  p.line = "{\"call\": " + std::to_string(call_) + ", \"function\": " + json_string(function_) + ", \"extents\": {" +
           extents_ + "}, \"launches\": " + std::to_string(launches_) + ", \"ok\": " + (ok_ ? "true" : "false");
  if (bytes_ >= 0) p.line += member("bytes", bytes_);
  if (flops_ >= 0) p.line += member("flops", flops_);
  p.is_call = true;
  p.call = call_;
  std::lock_guard<std::mutex> lock(g_mutex);
  // The call's time is its launches' when each was timed (a call that launched nothing, or
  // failed, has none): the work per second of GPU time, not of the host's wall clock.
  if (ok_ && launches_ > 0 && timed_launches_ == launches_) {
    const Peak peak = device_peak();  // the device of this call, read now
    p.call_timed = true;
    p.bytes = bytes_;
    p.flops = flops_;
    p.peak_gbps = peak.gbps;
    p.peak_tflops = peak.tflops;
  }
  push_locked(std::move(p));
}

}  // namespace tileslc::metrics
