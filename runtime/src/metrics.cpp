// Kernel metrics (runtime.h, docs/tuning.md "Metrics"): with TILESLC_METRICS=path.jsonl, one JSON
// line per launch: kernel, grid, block, dynamic shared memory, GPU time from CUDA events; and one
// per call of a host function that declares its cost (@cutlass.cost): its extents, GPU time,
// bytes and FLOPs, achieved GB/s and TFLOP/s and their share of the device's peak.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

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
  if (timed && (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess || cudaEventRecord(start, stream) != cudaSuccess))
    return Status::error(std::string("TILESLC_METRICS: cannot record a CUDA event for ") + (kernel_name ? kernel_name : "kernel"));
  Status s = launch_fn(context);
  float ms = -1.0f;
  if (timed) {
    if (s && cudaEventRecord(stop, stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess)
      cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  char dims[160];
  std::snprintf(dims, sizeof dims, "\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %zu", grid.x, grid.y, grid.z, block.x, block.y,
                block.z, smem_bytes);
  std::string line = "{\"launch\": " + std::to_string(n) + ", \"kernel\": " + json_string(kernel_name) + ", " + dims +
                     ", \"ok\": " + (s ? "true" : "false");
  if (scope) {
    line += ", \"call\": " + std::to_string(scope->number()) + ", \"function\": " + json_string(scope->function());
    scope->add_launch(bool(s), ms);
  }
  if (ms >= 0) {
    char t[48];
    std::snprintf(t, sizeof t, ", \"gpu_ms\": %.6g", ms);
    line += t;
  }
  line += "}\n";
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fputs(line.c_str(), g_out);
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

void CallScope::add_launch(bool ok, float gpu_ms) {
  ++launches_;
  ok_ = ok_ && ok;
  if (gpu_ms >= 0) {
    ++timed_launches_;
    gpu_ms_ += gpu_ms;
  }
}

void CallScope::end() {
  t_scope = outer_;
  std::string line = "{\"call\": " + std::to_string(call_) + ", \"function\": " + json_string(function_) + ", \"extents\": {" +
                     extents_ + "}, \"launches\": " + std::to_string(launches_) + ", \"ok\": " + (ok_ ? "true" : "false");
  if (bytes_ >= 0) line += member("bytes", bytes_);
  if (flops_ >= 0) line += member("flops", flops_);
  std::lock_guard<std::mutex> lock(g_mutex);
  // The call's time is its launches' when each was timed (a call that launched nothing, or
  // failed, has none): the work per second of GPU time, not of the host's wall clock.
  if (ok_ && launches_ > 0 && timed_launches_ == launches_) {
    line += member("gpu_ms", gpu_ms_);
    const Peak peak = device_peak();
    const double sec = gpu_ms_ * 1e-3;
    if (sec > 0 && bytes_ >= 0) {
      const double gbps = bytes_ / sec / 1e9;
      line += member("gbps", gbps);
      if (peak.gbps > 0) line += member("peak_gbps", peak.gbps) + member("pct_peak_bw", 100.0 * gbps / peak.gbps);
    }
    if (sec > 0 && flops_ >= 0) {
      const double tflops = flops_ / sec / 1e12;
      line += member("tflops", tflops);
      if (peak.tflops > 0) line += member("peak_tflops", peak.tflops) + member("pct_peak_flops", 100.0 * tflops / peak.tflops);
    }
  }
  line += "}\n";
  std::fputs(line.c_str(), g_out);
}

}  // namespace tileslc::metrics
