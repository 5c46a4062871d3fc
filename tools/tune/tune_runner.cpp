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
// Built by tools/tune/tileslc_tune.py with -DTILESLC_TUNE_ENTRY=tileslc_NAME_packed, as CUDA
// source (nvcc -x cu -arch=ARCH: the fill and the check are kernels);
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
#include <string>
#include <vector>

#include <unistd.h>

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

// The fill and the check run where the tensors are: on the GPU for CUDA (kernels below; a
// 2 GiB tensor is filled and compared in milliseconds, not the ~25 s a host loop spent), on the
// host for the CPU emulator. Both evaluate the same functions, so every target fills the same
// bits and judges an element alike.
#if defined(__CUDACC__) && !defined(TILESLC_TUNE_CPU)
#define TUNE_GPU 1
#define TUNE_HD __host__ __device__
#else
#define TUNE_HD
#endif

TUNE_HD inline uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
TUNE_HD inline double double_of(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

/// Element i of a tensor of type `code` filled from `seed`, as its bit pattern (the low `size`
/// bytes are the element): values in [-1, 1) on a 1/64 grid, exact in every float type (fp8 keeps
/// 0 and ±1 only), small integers 1..15 for integer types. Each tensor gets its own stream of
/// values. Integer arithmetic only (the grid values convert exactly), so host and GPU agree bit
/// for bit.
TUNE_HD inline uint64_t fill_bits(uint64_t seed, uint64_t i, int code) {
  uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull ^ (i * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  const int v = static_cast<int>(x % 128) - 64;
  const float f = static_cast<float>(v) * 0.015625f;  // v / 64, exact
  const uint32_t b = float_bits(f);
  switch (code) {
    case TILESLC_FLOAT32: case TILESLC_TFLOAT32: return b;
    case TILESLC_FLOAT64: { const double d = static_cast<double>(v) * 0.015625; uint64_t r; std::memcpy(&r, &d, 8); return r; }
    case TILESLC_BFLOAT16: return (b + 0x7FFF + ((b >> 16) & 1)) >> 16;  // round to nearest even (exact here)
    case TILESLC_FLOAT16:  // |f| >= 2^-6 is normal in half: rebias the exponent, keep the top 10 mantissa bits
      return v == 0 ? 0 : ((b >> 16) & 0x8000) | ((((b >> 23) & 0xFF) - 112) << 10) | ((b >> 13) & 0x3FF);
    case TILESLC_FLOAT8E4M3FN: case TILESLC_FLOAT8E5M2:
      return v == 0 ? 0 : (v < 0 ? 0x80 : 0) | (code == TILESLC_FLOAT8E4M3FN ? 0x38 : 0x3C);
    default: return static_cast<uint64_t>(static_cast<int64_t>(v % 8 + 8));
  }
}

/// Element `i` of an array of `size`-byte elements as raw bits (zero-extended).
TUNE_HD inline uint64_t raw_at(const unsigned char* p, int size, size_t i) {
  switch (size) {
    case 1: return p[i];
    case 2: return reinterpret_cast<const uint16_t*>(p)[i];
    case 4: return reinterpret_cast<const uint32_t*>(p)[i];
    default: return reinterpret_cast<const uint64_t*>(p)[i];
  }
}
TUNE_HD inline void store_raw(unsigned char* p, int size, size_t i, uint64_t bits) {
  switch (size) {
    case 1: p[i] = static_cast<unsigned char>(bits); return;
    case 2: reinterpret_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(bits); return;
    case 4: reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(bits); return;
    default: reinterpret_cast<uint64_t*>(p)[i] = bits;
  }
}

/// An element's value as double, for the comparison (fp8 and the unsigned types compare as
/// unsigned integers of their bytes).
TUNE_HD inline double value_of(uint64_t bits, int code) {
  switch (code) {
    case TILESLC_FLOAT32: case TILESLC_TFLOAT32: { const uint32_t b = static_cast<uint32_t>(bits); float f; std::memcpy(&f, &b, 4); return f; }
    case TILESLC_FLOAT64: return double_of(bits);
    case TILESLC_BFLOAT16: { const uint32_t b = static_cast<uint32_t>(bits) << 16; float f; std::memcpy(&f, &b, 4); return f; }
    case TILESLC_FLOAT16: {
      const int e = static_cast<int>(bits >> 10) & 0x1F, m = static_cast<int>(bits) & 0x3FF;
      const double v = e == 0 ? m * 5.9604644775390625e-08  // m * 2^-24
                       : e == 31 ? double_of(m ? 0x7FF8000000000000ull : 0x7FF0000000000000ull)  // NaN, infinity
                                 : (1024 + m) * double_of(static_cast<uint64_t>(e - 25 + 1023) << 52);  // (1024 + m) * 2^(e-25)
      return (bits & 0x8000) ? -v : v;
    }
    case TILESLC_INT8: return static_cast<int8_t>(bits);
    case TILESLC_INT16: return static_cast<int16_t>(bits);
    case TILESLC_INT32: return static_cast<int32_t>(bits);
    case TILESLC_INT64: return static_cast<double>(static_cast<int64_t>(bits));
    default: return static_cast<double>(bits);
  }
}

/// The check of one element against the reference's: |x - r| <= atol + rtol * |r| (NaN fails),
/// and the largest absolute and relative errors (NaN errors are not maxima). The bound is
/// rounded as two separate IEEE operations on every target (no fused multiply-add on the GPU).
struct CheckAcc {
  unsigned long long bad = 0;
  double max_abs = 0, max_rel = 0;
};
TUNE_HD inline void check_element(double x, double r, double atol, double rtol, CheckAcc& acc) {
  const double err = fabs(x - r);
#ifdef __CUDA_ARCH__
  const double bound = __dadd_rn(atol, __dmul_rn(rtol, fabs(r)));
#else
  const double bound = atol + rtol * fabs(r);
#endif
  if (!(err <= bound)) ++acc.bad;
  if (err > acc.max_abs) acc.max_abs = err;
  if (r != 0 && err / fabs(r) > acc.max_rel) acc.max_rel = err / fabs(r);
}

#ifdef TUNE_GPU
__global__ void fill_kernel(unsigned char* dst, size_t n, int size, int code, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    store_raw(dst, size, i, fill_bits(seed, i, code));
}

/// Checks n elements of `x` against `ref`; adds the mismatches to out[0] and raises out[1], out[2]
/// to the largest errors (non-negative doubles as bits: their order is the integers').
__global__ void check_kernel(const unsigned char* x, const unsigned char* ref, size_t n, int size, int code, double atol, double rtol,
                             unsigned long long* out) {
  CheckAcc acc;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    check_element(value_of(raw_at(x, size, i), code), value_of(raw_at(ref, size, i), code), atol, rtol, acc);
  for (int off = 16; off > 0; off /= 2) {
    acc.bad += __shfl_down_sync(0xFFFFFFFFu, acc.bad, off);
    const double a = __shfl_down_sync(0xFFFFFFFFu, acc.max_abs, off), r = __shfl_down_sync(0xFFFFFFFFu, acc.max_rel, off);
    if (a > acc.max_abs) acc.max_abs = a;
    if (r > acc.max_rel) acc.max_rel = r;
  }
  if ((threadIdx.x & 31) == 0) {
    if (acc.bad) atomicAdd(&out[0], acc.bad);
    atomicMax(&out[1], static_cast<unsigned long long>(__double_as_longlong(acc.max_abs)));
    atomicMax(&out[2], static_cast<unsigned long long>(__double_as_longlong(acc.max_rel)));
  }
}

unsigned grid_for(size_t n) {
  static int sms = 0;
  if (!sms) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((n + 255) / 256, static_cast<size_t>(std::max(sms, 1)) * 8)));
}
#endif

/// Fills the device tensor `p` from `seed`.
void fill(const Param& p, uint64_t seed) {
  const DType& t = type_of(p.dtype);
  const size_t n = p.bytes / static_cast<size_t>(t.size);
#ifdef TUNE_GPU
  if (n) fill_kernel<<<grid_for(n), 256>>>(static_cast<unsigned char*>(p.device), n, t.size, p.dtype, seed);
  check_cuda(cudaGetLastError(), "the fill kernel");
#else
  std::vector<unsigned char> host(p.bytes);
  for (size_t i = 0; i < n; ++i) store_raw(host.data(), t.size, i, fill_bits(seed, i, p.dtype));
  check_cuda(cudaMemcpy(p.device, host.data(), p.bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
#endif
}

/// Host staging for the dump and the check: two pinned chunks, so that reading the next chunk of
/// the reference file overlaps the copy and the check of this one.
constexpr size_t kChunk = size_t(32) << 20;

struct Staging {
  unsigned char* host[2] = {};
  unsigned char* device[2] = {};
  cudaEvent_t done[2] = {};
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  ~Staging() {
    for (int s = 0; s < 2; ++s) {
      cudaFreeHost(host[s]);
#ifdef TUNE_GPU
      cudaFree(device[s]);
      cudaEventDestroy(done[s]);
#endif
    }
  }
  explicit Staging(size_t total) {
    const size_t bytes = std::max<size_t>(std::min(total, kChunk), 16);
    for (int s = 0; s < 2; ++s) {
      void* h = nullptr;
      check_cuda(cudaMallocHost(&h, bytes), "cudaMallocHost");
      host[s] = static_cast<unsigned char*>(h);
#ifdef TUNE_GPU
      void* d = nullptr;
      check_cuda(cudaMalloc(&d, bytes), "cudaMalloc");
      device[s] = static_cast<unsigned char*>(d);
      check_cuda(cudaEventCreate(&done[s]), "cudaEventCreate");
#endif
    }
  }
};

/// Writes the written tensors, in parameter order, to `path` (through a temporary file of this
/// process renamed at the end: a run that dies leaves no partial dump, and a runner orphaned by a
/// killed sweep cannot interleave its writes with the rerun's).
void dump_outputs(const std::vector<Param>& params, const std::string& path) {
  size_t total = 0;
  for (const auto& p : params) total += p.tensor && p.written ? p.bytes : 0;
  Staging st(total);
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) die("cannot write the dump '" + tmp + "'");
  for (const auto& p : params) {
    if (!p.tensor || !p.written) continue;
    for (size_t off = 0; off < p.bytes; off += kChunk) {
      const size_t len = std::min(kChunk, p.bytes - off);
      check_cuda(cudaMemcpy(st.host[0], static_cast<unsigned char*>(p.device) + off, len, cudaMemcpyDeviceToHost), "cudaMemcpy");
      if (std::fwrite(st.host[0], 1, len, f) != len) die("cannot write the dump '" + tmp + "'");
    }
  }
  if (std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) die("cannot write the dump '" + path + "'");
}

/// Compares every written tensor with the reference dump at `path`, element by element.
CheckAcc compare_outputs(const std::vector<Param>& params, const std::string& path, double atol, double rtol) {
  size_t total = 0;
  for (const auto& p : params) total += p.tensor && p.written ? p.bytes : 0;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) die("cannot read the reference dump '" + path + "'");
  std::fseek(f, 0, SEEK_END);
  const size_t have = static_cast<size_t>(std::ftell(f));
  std::fseek(f, 0, SEEK_SET);
  if (have != total) die("the reference dump has " + std::to_string(have) + " bytes, this run " + std::to_string(total));
  Staging st(total);
  CheckAcc acc;
#ifdef TUNE_GPU
  unsigned long long* sums = nullptr;  // mismatches, max |err| bits, max relative error bits
  check_cuda(cudaMalloc(&sums, 3 * sizeof(unsigned long long)), "cudaMalloc");
  check_cuda(cudaMemset(sums, 0, 3 * sizeof(unsigned long long)), "cudaMemset");
#else
  std::vector<unsigned char> mine(std::min(total, kChunk));
#endif
  int slot = 0;
  for (const auto& p : params) {
    if (!p.tensor || !p.written) continue;
    const DType& t = type_of(p.dtype);
    for (size_t off = 0; off < p.bytes; off += kChunk, slot ^= 1) {
      const size_t len = std::min(kChunk, p.bytes - off), n = len / static_cast<size_t>(t.size);
      const unsigned char* x = static_cast<const unsigned char*>(p.device) + off;
#ifdef TUNE_GPU
      check_cuda(cudaEventSynchronize(st.done[slot]), "cudaEventSynchronize");  // the copy from this buffer two chunks ago
      if (std::fread(st.host[slot], 1, len, f) != len) die("cannot read the reference dump '" + path + "'");
      check_cuda(cudaMemcpyAsync(st.device[slot], st.host[slot], len, cudaMemcpyHostToDevice, nullptr), "cudaMemcpyAsync");
      check_cuda(cudaEventRecord(st.done[slot], nullptr), "cudaEventRecord");
      check_kernel<<<grid_for(n), 256>>>(x, st.device[slot], n, t.size, p.dtype, atol, rtol, sums);
      check_cuda(cudaGetLastError(), "the check kernel");
#else
      if (std::fread(st.host[slot], 1, len, f) != len) die("cannot read the reference dump '" + path + "'");
      check_cuda(cudaMemcpy(mine.data(), x, len, cudaMemcpyDeviceToHost), "cudaMemcpy");
      for (size_t i = 0; i < n; ++i)
        check_element(value_of(raw_at(mine.data(), t.size, i), p.dtype), value_of(raw_at(st.host[slot], t.size, i), p.dtype), atol, rtol, acc);
#endif
    }
  }
  std::fclose(f);
#ifdef TUNE_GPU
  unsigned long long h[3];
  check_cuda(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost), "the check kernel");
  acc.bad = h[0], acc.max_abs = double_of(h[1]), acc.max_rel = double_of(h[2]);
  cudaFree(sums);
#endif
  return acc;
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
    check_cuda(cudaMalloc(&p.device, std::max<size_t>(p.bytes, 16)), "cudaMalloc");
    fill(p, seed++);
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
  if (!dump.empty()) dump_outputs(params, dump);
  CheckAcc check;
  if (!reference.empty()) check = compare_outputs(params, reference, atol, rtol);
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
  if (!reference.empty())
    std::printf(", \"check\": {\"pass\": %s, \"mismatches\": %llu, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g}", check.bad ? "false" : "true",
                check.bad, check.max_abs, check.max_rel);
  std::printf("}\n");
  return 0;
}
