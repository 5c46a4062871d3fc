// The tuner's runner (docs/tuning.md): one binary per configuration, linked with
// that configuration's generated code. It allocates the host function's tensors
// for one shape (contiguous, row-major), fills them from a fixed seed (so every
// configuration sees the same inputs), runs the function once and dumps the
// tensors it writes (the correctness check compares them with the reference
// configuration's dump), then times `iters` runs after `warmup` runs with CUDA
// events, flushing the L2 cache before each one. With --back-to-back N it then
// issues N runs without flushing or waiting between them and reports the wall
// time per run ("b2b_us"): what a caller looping over the function sees, host
// overheads included (how `tileslc bench --metrics-overhead` measures what
// TILESLC_METRICS costs). Prints one JSON line on stdout.
//
// Built by tools/tune/tileslc_tune.py with -DTILESLC_TUNE_ENTRY=tileslc_NAME_packed;
// for the CPU emulator also -DTILESLC_TUNE_CPU (times are then the emulator's).
//
// Usage: runner [--info] --param SPEC... [--warmup W] [--iters I] [--dump FILE] [--reference FILE]
//                [--rtol R] [--atol A] [--back-to-back N]
//   SPEC: t:DTYPE:EXTENT,EXTENT,...[:w]   a tensor (w: the function may write it)
//         s:DTYPE:VALUE                   a scalar
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tileslc/c_api.h"

extern "C" int TILESLC_TUNE_ENTRY(void* const* args, tileslc_stream stream);

namespace {

struct Param {
  bool tensor = false, written = false;
  int dtype = TILESLC_FLOAT32;
  std::vector<int64_t> shape;
  double scalar = 0;
  tileslc_tensor_view view{};
  void* device = nullptr;
  size_t bytes = 0;
  // Scalar storage, one per width, passed by address.
  int8_t i8 = 0;
  int16_t i16 = 0;
  int32_t i32 = 0;
  int64_t i64 = 0;
  float f32 = 0;
  double f64 = 0;
};

struct DType {
  const char* name;
  int code;
  int size;
  bool is_float;
};
const DType kTypes[] = {{"Boolean", TILESLC_BOOLEAN, 1, false},   {"Int8", TILESLC_INT8, 1, false},
                        {"Int16", TILESLC_INT16, 2, false},       {"Int32", TILESLC_INT32, 4, false},
                        {"Int64", TILESLC_INT64, 8, false},       {"Uint8", TILESLC_UINT8, 1, false},
                        {"Uint16", TILESLC_UINT16, 2, false},     {"Uint32", TILESLC_UINT32, 4, false},
                        {"Uint64", TILESLC_UINT64, 8, false},     {"Float16", TILESLC_FLOAT16, 2, true},
                        {"BFloat16", TILESLC_BFLOAT16, 2, true},  {"Float32", TILESLC_FLOAT32, 4, true},
                        {"Float64", TILESLC_FLOAT64, 8, true},    {"TFloat32", TILESLC_TFLOAT32, 4, true},
                        {"Float8E4M3FN", TILESLC_FLOAT8E4M3FN, 1, true}, {"Float8E5M2", TILESLC_FLOAT8E5M2, 1, true}};

const DType* find_type(const std::string& name) {
  for (const auto& t : kTypes)
    if (name == t.name) return &t;
  return nullptr;
}
const DType& type_of(int code) {
  for (const auto& t : kTypes)
    if (t.code == code) return t;
  return kTypes[0];
}

[[noreturn]] void die(const std::string& msg) {
  std::printf("{\"ok\": false, \"error\": \"");
  for (char c : msg) {
    if (c == '"' || c == '\\') std::putchar('\\');
    std::putchar(c == '\n' ? ' ' : c);
  }
  std::printf("\"}\n");
  std::exit(1);
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(e));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t e; (e = s.find(sep, b)) != std::string::npos; b = e + 1) out.push_back(s.substr(b, e - b));
  out.push_back(s.substr(b));
  return out;
}

Param parse_param(const std::string& spec) {
  auto f = split(spec, ':');
  if (f.size() < 3) die("bad --param '" + spec + "'");
  const DType* t = find_type(f[1]);
  if (!t) die("unknown dtype '" + f[1] + "' in --param");
  Param p;
  p.dtype = t->code;
  if (f[0] == "t") {
    p.tensor = true;
    for (const auto& e : split(f[2], ',')) p.shape.push_back(std::strtoll(e.c_str(), nullptr, 10));
    p.written = f.size() > 3 && f[3] == "w";
  } else {
    p.scalar = std::strtod(f[2].c_str(), nullptr);
  }
  return p;
}

/// Element i of a tensor filled from `seed`: values in [-1, 1) on a 1/64 grid, exact in every float
/// type (fp8 too), small integers for integer types. Each tensor gets its own stream of values.
double fill_value(uint64_t seed, uint64_t i, bool is_float) {
  uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull ^ (i * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  const int v = static_cast<int>(x % 128) - 64;
  return is_float ? v / 64.0 : static_cast<double>(v % 8 + 8);
}

/// Writes `v` as element type `code` at `dst` (round to nearest even for the 16-bit floats).
void store(void* dst, int code, double v) {
  switch (code) {
    case TILESLC_FLOAT32: case TILESLC_TFLOAT32: { float f = static_cast<float>(v); std::memcpy(dst, &f, 4); return; }
    case TILESLC_FLOAT64: std::memcpy(dst, &v, 8); return;
    case TILESLC_BFLOAT16: {
      float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      uint16_t h = static_cast<uint16_t>((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
      std::memcpy(dst, &h, 2);
      return;
    }
    case TILESLC_FLOAT16: {  // the grid values are exact in half: sign, exponent, 10-bit mantissa
      float f = static_cast<float>(v);
      uint16_t h = 0;
      if (f != 0) {
        int e;
        float m = std::frexp(std::fabs(f), &e);  // f = m * 2^e, m in [0.5, 1)
        h = static_cast<uint16_t>(((e + 14) << 10) | (static_cast<int>(m * 2048) & 0x3FF));
        if (f < 0) h |= 0x8000;
      }
      std::memcpy(dst, &h, 2);
      return;
    }
    case TILESLC_FLOAT8E4M3FN: case TILESLC_FLOAT8E5M2: {  // the grid in fp8 is rounded: store 0 and ±1 only
      uint8_t b = v == 0 ? 0 : static_cast<uint8_t>((v < 0 ? 0x80 : 0) | (code == TILESLC_FLOAT8E4M3FN ? 0x38 : 0x3C));
      std::memcpy(dst, &b, 1);
      return;
    }
    default: {
      int64_t i = static_cast<int64_t>(v);
      std::memcpy(dst, &i, static_cast<size_t>(type_of(code).size));  // little-endian: the low bytes
    }
  }
}

/// Element `i` of a host copy as double, for the comparison.
double load(const unsigned char* base, int code, size_t i) {
  const DType& t = type_of(code);
  const unsigned char* p = base + i * static_cast<size_t>(t.size);
  switch (code) {
    case TILESLC_FLOAT32: case TILESLC_TFLOAT32: { float f; std::memcpy(&f, p, 4); return f; }
    case TILESLC_FLOAT64: { double d; std::memcpy(&d, p, 8); return d; }
    case TILESLC_BFLOAT16: { uint16_t h; std::memcpy(&h, p, 2); uint32_t b = uint32_t(h) << 16; float f; std::memcpy(&f, &b, 4); return f; }
    case TILESLC_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
      double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
      return (h & 0x8000) ? -v : v;
    }
    case TILESLC_INT8: return *reinterpret_cast<const int8_t*>(p);
    case TILESLC_INT16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case TILESLC_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case TILESLC_INT64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    default: { uint64_t v = 0; std::memcpy(&v, p, static_cast<size_t>(t.size)); return static_cast<double>(v); }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Param> params;
  int warmup = 5, iters = 20;
  std::string dump, reference;
  double rtol = 1e-2, atol = 1e-3;
  bool info = false;
  int back_to_back = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--param") params.push_back(parse_param(next()));
    else if (a == "--warmup") warmup = std::atoi(next().c_str());
    else if (a == "--iters") iters = std::max(1, std::atoi(next().c_str()));
    else if (a == "--dump") dump = next();
    else if (a == "--reference") reference = next();
    else if (a == "--rtol") rtol = std::atof(next().c_str());
    else if (a == "--atol") atol = std::atof(next().c_str());
    else if (a == "--info") info = true;
    else if (a == "--back-to-back") back_to_back = std::max(0, std::atoi(next().c_str()));
    else die("unknown argument '" + a + "'");
  }
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
#ifdef TILESLC_TUNE_CPU
  const std::string cuda_version = "cpu-emulator";
#else
  int rt = 0;
  cudaRuntimeGetVersion(&rt);
  const std::string cuda_version = std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10);
#endif
  if (info) {
    std::printf("{\"ok\": true, \"device\": {\"name\": \"%s\", \"sm_count\": %d, \"cc\": \"%d.%d\", \"cuda_version\": \"%s\"}}\n",
                prop.name, prop.multiProcessorCount, prop.major, prop.minor, cuda_version.c_str());
    return 0;
  }
  std::vector<void*> args;
  uint64_t seed = 0;
  for (auto& p : params) {
    if (!p.tensor) {
      // Every scalar width has its own slot; the host function reads the one of its type.
      p.i8 = static_cast<int8_t>(p.scalar), p.i16 = static_cast<int16_t>(p.scalar), p.i32 = static_cast<int32_t>(p.scalar);
      p.i64 = static_cast<int64_t>(p.scalar), p.f32 = static_cast<float>(p.scalar), p.f64 = p.scalar;
      const int size = type_of(p.dtype).size;
      const bool fl = type_of(p.dtype).is_float;
      args.push_back(fl ? (size == 8 ? static_cast<void*>(&p.f64) : static_cast<void*>(&p.f32))
                        : size == 1 ? static_cast<void*>(&p.i8) : size == 2 ? static_cast<void*>(&p.i16)
                        : size == 4 ? static_cast<void*>(&p.i32) : static_cast<void*>(&p.i64));
      continue;
    }
    const DType& t = type_of(p.dtype);
    size_t n = 1;
    for (auto e : p.shape) n *= static_cast<size_t>(e);
    p.bytes = n * static_cast<size_t>(t.size);
    std::vector<unsigned char> host(p.bytes);
    for (size_t i = 0; i < n; ++i) store(&host[i * static_cast<size_t>(t.size)], p.dtype, fill_value(seed, i, t.is_float));
    ++seed;
    check_cuda(cudaMalloc(&p.device, std::max<size_t>(p.bytes, 16)), "cudaMalloc");
    check_cuda(cudaMemcpy(p.device, host.data(), p.bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    p.view.data = p.device;
    p.view.dtype = p.dtype;
    p.view.rank = static_cast<int32_t>(p.shape.size());
    int64_t stride = 1;
    for (size_t m = p.shape.size(); m-- > 0;) {
      p.view.shape[m] = p.shape[m];
      p.view.stride[m] = stride;
      stride *= p.shape[m];
    }
    args.push_back(&p.view);
  }
  // One run for the check, on the filled inputs.
  if (TILESLC_TUNE_ENTRY(args.data(), nullptr) != 0) die(std::string("the host function failed: ") + tileslc_last_error());
  check_cuda(cudaDeviceSynchronize(), "the kernel");
  std::vector<unsigned char> outputs;
  for (const auto& p : params) {
    if (!p.tensor || !p.written) continue;
    const size_t at = outputs.size();
    outputs.resize(at + p.bytes);
    check_cuda(cudaMemcpy(outputs.data() + at, p.device, p.bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  if (!dump.empty()) std::ofstream(dump, std::ios::binary).write(reinterpret_cast<const char*>(outputs.data()), static_cast<std::streamsize>(outputs.size()));
  double max_abs = 0, max_rel = 0;
  size_t bad = 0;
  bool compared = false;
  if (!reference.empty()) {
    std::ifstream in(reference, std::ios::binary);
    std::vector<unsigned char> ref((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (ref.size() != outputs.size()) die("the reference dump has " + std::to_string(ref.size()) + " bytes, this run " + std::to_string(outputs.size()));
    size_t at = 0;
    for (const auto& p : params) {
      if (!p.tensor || !p.written) continue;
      const size_t n = p.bytes / static_cast<size_t>(type_of(p.dtype).size);
      for (size_t i = 0; i < n; ++i) {
        const double x = load(outputs.data() + at, p.dtype, i), r = load(ref.data() + at, p.dtype, i);
        const double err = std::fabs(x - r);
        if (!(err <= atol + rtol * std::fabs(r))) ++bad;  // NaN counts as bad
        max_abs = std::max(max_abs, err);
        if (r != 0) max_rel = std::max(max_rel, err / std::fabs(r));
      }
      at += p.bytes;
    }
    compared = true;
  }
  // L2 flush buffer: twice the L2 cache, written before each timed run.
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  void* flush = nullptr;
  const size_t flush_bytes = static_cast<size_t>(std::max(l2, 1 << 20)) * 2;
  check_cuda(cudaMalloc(&flush, flush_bytes), "cudaMalloc");
  for (int i = 0; i < warmup; ++i)
    if (TILESLC_TUNE_ENTRY(args.data(), nullptr) != 0) die(std::string("the host function failed: ") + tileslc_last_error());
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> times;
  for (int i = 0; i < iters; ++i) {
    check_cuda(cudaMemsetAsync(flush, i & 0xFF, flush_bytes, nullptr), "cudaMemsetAsync");
    check_cuda(cudaEventRecord(start, nullptr), "cudaEventRecord");
    if (TILESLC_TUNE_ENTRY(args.data(), nullptr) != 0) die(std::string("the host function failed: ") + tileslc_last_error());
    check_cuda(cudaEventRecord(stop, nullptr), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop), "the kernel");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  double b2b_us = -1;
  if (back_to_back > 0) {
    check_cuda(cudaDeviceSynchronize(), "the kernel");
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < back_to_back; ++i)
      if (TILESLC_TUNE_ENTRY(args.data(), nullptr) != 0) die(std::string("the host function failed: ") + tileslc_last_error());
    check_cuda(cudaDeviceSynchronize(), "the kernel");
    b2b_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / back_to_back;
  }
  std::printf("{\"ok\": true, \"time_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, \"iters\": %d", times[times.size() / 2], times.front(),
              times.back(), iters);
  if (b2b_us >= 0) std::printf(", \"b2b_us\": %.6g, \"b2b_runs\": %d", b2b_us, back_to_back);
  if (compared)
    std::printf(", \"check\": {\"pass\": %s, \"mismatches\": %zu, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g}", bad ? "false" : "true", bad,
                max_abs, max_rel);
  std::printf("}\n");
  return 0;
}
