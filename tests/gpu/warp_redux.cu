// gpu.warp_redux: redux.sync (every kind, a partial mask, Int32 and Uint32)
// and packed red.add.noftz.{f16x2,bf16x2} in global and shared memory
// (warp_redux.tpy). Random full-range 32-bit inputs against a per-warp
// reference (wrapping add, signed and unsigned order, bitwise ops); the
// packed adds use small integers so that every sum is exact in Float16 and
// BFloat16 whatever the order of the atomics, and must match exactly.
// Outputs start poisoned. Exit 77 without a compute capability 9.0 GPU
// (BFloat16 pairs are sm_90); the CPU emulator runs it too.
#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "sample_util.h"
#include "warp_redux.h"

namespace {

/// A host array and its device copy.
template <class T>
struct Buffer {
  std::vector<T> host;
  tileslc::DeviceBuffer dev;
  explicit Buffer(size_t n) : host(n) { CHECK_OK(dev.allocate(n * sizeof(T))); }
  void upload() { CHECK_OK(dev.copy_from_host(host.data(), host.size() * sizeof(T))); }
  void download() { CHECK_OK(dev.copy_to_host(host.data(), host.size() * sizeof(T))); }
  void poison() { sample::poison(dev.data(), host.size() * sizeof(T)); }
  tileslc::TensorView view(tileslc::DType dt, std::initializer_list<int64_t> shape, std::initializer_list<int64_t> stride) const {
    return tileslc::make_tensor_view(dev.data(), dt, shape, stride);
  }
};

bool check_redux(std::mt19937& gen, cudaStream_t stream) {
  Buffer<int32_t> in(256), out(9 * 256);
  Buffer<uint32_t> uin(256), uout(2 * 256);
  for (size_t i = 0; i < 256; ++i) {
    in.host[i] = static_cast<int32_t>(gen());
    uin.host[i] = static_cast<uint32_t>(gen());
  }
  in.upload();
  uin.upload();
  out.poison();
  uout.poison();
  CHECK_OK(redux(in.view(tileslc::DType::Int32, {256}, {1}), uin.view(tileslc::DType::Uint32, {256}, {1}),
                 out.view(tileslc::DType::Int32, {9, 256}, {256, 1}), uout.view(tileslc::DType::Uint32, {2, 256}, {256, 1}), stream));
  CHECK(cudaStreamSynchronize(stream));
  out.download();
  uout.download();
  int64_t wrong = 0, stray = 0;
  for (int w = 0; w < 8; ++w) {
    uint32_t add = 0, add16 = 0, band = ~0u, bor = 0, bxor = 0, umn = ~0u, umx = 0, uumn = ~0u, uumx = 0;
    int32_t mn = INT32_MAX, mx = INT32_MIN;
    for (int l = 0; l < 32; ++l) {
      const int32_t v = in.host[32 * w + l];
      const uint32_t b = static_cast<uint32_t>(v), u = uin.host[32 * w + l];
      add += b;
      if (l < 16) add16 += b;
      mn = std::min(mn, v), mx = std::max(mx, v);
      umn = std::min(umn, b), umx = std::max(umx, b);
      band &= b, bor |= b, bxor ^= b;
      uumn = std::min(uumn, u), uumx = std::max(uumx, u);
    }
    const uint32_t want[8] = {add, static_cast<uint32_t>(mn), static_cast<uint32_t>(mx), umn, umx, band, bor, bxor};
    for (int l = 0; l < 32; ++l) {
      const int t = 32 * w + l;
      for (int k = 0; k < 8; ++k) wrong += static_cast<uint32_t>(out.host[k * 256 + t]) != want[k];
      if (l < 16) wrong += static_cast<uint32_t>(out.host[8 * 256 + t]) != add16;
      else stray += out.host[8 * 256 + t] != -1;  // lanes outside the mask write nothing: still poisoned
      wrong += uout.host[t] != uumn;
      wrong += uout.host[256 + t] != uumx;
    }
  }
  const bool ok = wrong == 0 && stray == 0;
  std::printf("warp_redux: redux.sync 8 warps x (8 kinds + masked add + 2 unsigned): %lld wrong, %lld stray writes  %s\n",
              (long long)wrong, (long long)stray, ok ? "PASS" : "FAIL");
  return ok;
}

/// 16-bit float bits <-> float for Float16 (IEEE half) and BFloat16.
float half_to_float(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}
uint16_t float_to_half_exact(float f) {  // small integers only (exact in Float16)
  if (f == 0.0f) return 0;
  const uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = std::fabs(f);
  int e = 0;
  while (a >= 2048.0f) a /= 2, ++e;
  while (a < 1024.0f) a *= 2, --e;
  return static_cast<uint16_t>(sign | ((e + 25) << 10) | (static_cast<int>(a) - 1024));
}

template <class F>
bool check_pairs(const char* name, bool bf16, F&& launch, std::mt19937& gen) {
  auto to_bits = [&](float f) { return bf16 ? sample::float_to_bf16(f) : float_to_half_exact(f); };
  auto to_float = [&](uint16_t b) { return bf16 ? sample::bf16_to_float(b) : half_to_float(b); };
  Buffer<uint16_t> acc(64), v(512), sacc(64);
  std::vector<float> want(64);
  std::uniform_int_distribution<int> small(-4, 4), init(-100, 100);
  for (int i = 0; i < 64; ++i) {
    want[i] = static_cast<float>(init(gen));
    acc.host[i] = sacc.host[i] = to_bits(want[i]);
  }
  for (int t = 0; t < 256; ++t)
    for (int c = 0; c < 2; ++c) {
      const float x = static_cast<float>(small(gen));
      v.host[2 * t + c] = to_bits(x);
      want[2 * (t % 32) + c] += x;
    }
  acc.upload();
  v.upload();
  sacc.upload();
  CHECK_OK(launch(acc, v, sacc));
  CHECK(cudaDeviceSynchronize());
  acc.download();
  sacc.download();
  int64_t wrong = 0;
  for (int i = 0; i < 64; ++i) {
    wrong += to_float(acc.host[i]) != want[i];
    wrong += to_float(sacc.host[i]) != want[i];
  }
  std::printf("warp_redux: %s pairs, 256 threads on 32 pairs, global and shared: %lld wrong  %s\n", name, (long long)wrong,
              wrong == 0 ? "PASS" : "FAIL");
  return wrong == 0;
}

}  // namespace

int main() {
  sample::require_device_or_skip("warp_redux");
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
#ifdef TILESLC_CPU_CUDA_RUNTIME_API_H
  major = 9;  // built for the CPU emulator (emu.gpu.warp_redux), which runs BFloat16 pairs whatever it reports
#endif
  if (major != 9) {
    std::printf("warp_redux: skipped: needs a compute capability 9.0 GPU, found %d.x\n", major);
    return sample::kSkipExitCode;
  }
  return sample::run_sample("warp_redux", [](sample::Rng&, cudaStream_t stream) {
    std::mt19937 gen(20251201u);
    bool ok = check_redux(gen, stream);
    using tileslc::DType;
    ok &= check_pairs(
        "Float16", false,
        [&](auto& acc, auto& v, auto& s) {
          return pairs_f16(acc.view(DType::Float16, {64}, {1}), v.view(DType::Float16, {256, 2}, {2, 1}), s.view(DType::Float16, {64}, {1}), stream);
        },
        gen);
    ok &= check_pairs(
        "BFloat16", true,
        [&](auto& acc, auto& v, auto& s) {
          return pairs_bf16(acc.view(DType::BFloat16, {64}, {1}), v.view(DType::BFloat16, {256, 2}, {2, 1}), s.view(DType::BFloat16, {64}, {1}),
                            stream);
        },
        gen);
    return ok;
  });
}
