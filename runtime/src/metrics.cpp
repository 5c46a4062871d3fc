// Kernel metrics (runtime.h, docs/tuning.md "Metrics"): with TILESLC_METRICS=path.jsonl, one JSON
// line per launch: kernel, grid, block, dynamic shared memory, GPU time from CUDA events.
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
  const bool timed = n % g_sample == 0;
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

}  // namespace tileslc::metrics
