// attention_sm90 driver: runs the tileslc-generated FlashAttention-3-style forward
// attention (samples/attention_sm90/attention_sm90.tpy) on BFloat16 inputs for head
// dims 64, 128 and 256 and Float16 at 128, causal and not, one CTA per tile or persistent (static or
// dynamic tile order; ping-pong between the consumer warpgroups on mbarriers or named barriers),
// grouped-query attention (fewer K/V heads) and
// sequence lengths that are and are not multiples of the 128-row tiles, and checks O
// and the log-sum-exp against a float64 reference computed from the same rounded
// inputs. Q and O are stored (batch, seqlen, heads, head_dim) with padded row and
// batch strides, K and V (batch, heads, seqlen, head_dim): the kernel takes any
// strides on batch, seqlen and heads (views in its mode order: (S, D, H, B) for Q,
// K and O, (D, S, HK, B) for V). Outputs are NaN-poisoned first, so an entry never
// written fails the check.
//
// Usage: attention_sm90 [--small]
//   --small  only the small shapes (for the CPU emulator and compute-sanitizer).
// Exit: 0 all passed, 1 a check failed, 2 bad arguments, 77 no CUDA device or not a
// compute capability 9.0 device (built, not run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "attention_sm90.h"
#include "sample_util.h"

namespace {

const char* kName = "attention_sm90";

using AttnFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, tileslc::TensorView,
                                   tileslc::TensorView, float, cudaStream_t);

// _dynamic's: mSched, two Int32 of workspace, after mLSE.
using AttnDynFn = tileslc::Status (*)(tileslc::TensorView, tileslc::TensorView, tileslc::TensorView, tileslc::TensorView,
                                      tileslc::TensorView, tileslc::TensorView, float, cudaStream_t);

struct Variant {
  const char* name;
  AttnFn fn;
  int64_t head_dim;
  bool causal;
  bool f16;  // Float16 inputs and output, else BFloat16
  AttnDynFn dyn = nullptr;  // set (and fn null) for the _dynamic variants
};
// The first version (one CTA per tile), _pp (ping-pong between the consumer warpgroups on
// mbarriers), _ppnb (the same on named barriers), _persistent (a persistent grid walking the
// tiles, with ping-pong) and _dynamic (persistent CTAs taking tiles from a global counter).
const Variant kVariants[] = {{"bf16 hd64", &attention_sm90_bf16_hd64, 64, false, false},
                             {"bf16 hd64 causal", &attention_sm90_bf16_hd64_causal, 64, true, false},
                             {"bf16 hd128", &attention_sm90_bf16_hd128, 128, false, false},
                             {"bf16 hd128 causal", &attention_sm90_bf16_hd128_causal, 128, true, false},
                             {"bf16 hd256", &attention_sm90_bf16_hd256, 256, false, false},
                             {"bf16 hd256 causal", &attention_sm90_bf16_hd256_causal, 256, true, false},
                             {"fp16 hd128", &attention_sm90_fp16_hd128, 128, false, true},
                             {"fp16 hd128 causal", &attention_sm90_fp16_hd128_causal, 128, true, true},
                             {"bf16 hd64 pp", &attention_sm90_bf16_hd64_pp, 64, false, false},
                             {"bf16 hd64 causal pp", &attention_sm90_bf16_hd64_causal_pp, 64, true, false},
                             {"bf16 hd128 pp", &attention_sm90_bf16_hd128_pp, 128, false, false},
                             {"bf16 hd128 causal pp", &attention_sm90_bf16_hd128_causal_pp, 128, true, false},
                             {"bf16 hd64 persistent", &attention_sm90_bf16_hd64_persistent, 64, false, false},
                             {"bf16 hd64 causal persistent", &attention_sm90_bf16_hd64_causal_persistent, 64, true, false},
                             {"bf16 hd128 persistent", &attention_sm90_bf16_hd128_persistent, 128, false, false},
                             {"bf16 hd128 causal persistent", &attention_sm90_bf16_hd128_causal_persistent, 128, true, false},
                             {"bf16 hd256 persistent", &attention_sm90_bf16_hd256_persistent, 256, false, false},
                             {"bf16 hd256 causal persistent", &attention_sm90_bf16_hd256_causal_persistent, 256, true, false},
                             {"fp16 hd128 persistent", &attention_sm90_fp16_hd128_persistent, 128, false, true},
                             {"fp16 hd128 causal persistent", &attention_sm90_fp16_hd128_causal_persistent, 128, true, true},
                             {"bf16 hd64 ppnb", &attention_sm90_bf16_hd64_ppnb, 64, false, false},
                             {"bf16 hd64 causal ppnb", &attention_sm90_bf16_hd64_causal_ppnb, 64, true, false},
                             {"bf16 hd128 ppnb", &attention_sm90_bf16_hd128_ppnb, 128, false, false},
                             {"bf16 hd128 causal ppnb", &attention_sm90_bf16_hd128_causal_ppnb, 128, true, false},
                             {"bf16 hd64 causal dynamic", nullptr, 64, true, false, &attention_sm90_bf16_hd64_causal_dynamic},
                             {"bf16 hd128 causal dynamic", nullptr, 128, true, false, &attention_sm90_bf16_hd128_causal_dynamic}};

// The _dynamic variants' tile counter: zeroed once; every launch leaves it zero again, which the
// later cases check (a counter left over would skip tiles: their O stays NaN).
// Never freed: it lives until the process exits (a static destructor would run after the CUDA
// context is gone).
tileslc::DeviceBuffer& sched_workspace() {
  static tileslc::DeviceBuffer* ws = [] {
    auto* b = new tileslc::DeviceBuffer;
    CHECK_OK(b->allocate(8));
    CHECK(cudaMemset(b->data(), 0, 8));
    return b;
  }();
  return *ws;
}

// float -> IEEE binary16 bits, round to nearest even (inputs here are finite and small).
uint16_t float_to_f16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t m = mant | 0x800000u;
  const int shift = exp <= 0 ? 14 - exp : 13;  // subnormals keep fewer bits
  if (shift > 24) return static_cast<uint16_t>(sign);
  uint32_t h = (exp <= 0 ? 0u : static_cast<uint32_t>(exp) << 10) + ((m >> shift) & (exp <= 0 ? 0xffffffu : 0x3ffu));
  const uint32_t rem = m & ((1u << shift) - 1), mid = 1u << (shift - 1);
  if (rem > mid || (rem == mid && (h & 1u))) ++h;  // a carry moves into the exponent, as it should
  return static_cast<uint16_t>(sign | h);
}

// IEEE binary16 bits -> float (exact).
double f16_to_double(uint16_t h) {
  const int exp = (h >> 10) & 31, mant = h & 0x3ff;
  const double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

// A (batch, seqlen, heads, head_dim) BFloat16 tensor on the host and the device,
// stored with the given strides (elements); entries outside the view are garbage
// (0x7FBF, a NaN) so that a read outside it shows.
struct Tensor4 {
  int64_t shape[4], stride[4];
  bool f16;
  std::vector<uint16_t> host;
  tileslc::DeviceBuffer dev;
  int64_t extent() const {
    int64_t last = 0;
    for (int i = 0; i < 4; ++i) last += (shape[i] - 1) * stride[i];
    return last + 1;
  }
  int64_t at(int64_t b, int64_t s, int64_t h, int64_t d) const {
    return b * stride[0] + s * stride[1] + h * stride[2] + d * stride[3];
  }
  double get(int64_t b, int64_t s, int64_t h, int64_t d) const {
    const uint16_t bits = host[at(b, s, h, d)];
    return f16 ? f16_to_double(bits) : sample::bf16_to_float(bits);
  }
};

// Shape (B, S, H, D); `heads_outer`: stored (B, H, S, D), else (B, S, H, D) with each
// sequence row padded by 8 elements and each batch by 64 (16-byte multiples, as TMA wants).
Tensor4 make_tensor(int64_t B, int64_t S, int64_t H, int64_t D, bool heads_outer, bool f16) {
  Tensor4 t{{B, S, H, D}, {0, 0, 0, 1}, f16, {}, {}};
  if (heads_outer) {
    t.stride[1] = D, t.stride[2] = S * D, t.stride[0] = H * S * D;
  } else {
    t.stride[2] = D, t.stride[1] = H * D + 8, t.stride[0] = S * (H * D + 8) + 64;
  }
  t.host.assign(static_cast<size_t>(t.extent()), 0x7FBF);
  return t;
}

void fill_random(Tensor4& t, sample::Rng& rng) {
  for (int64_t b = 0; b < t.shape[0]; ++b)
    for (int64_t s = 0; s < t.shape[1]; ++s)
      for (int64_t h = 0; h < t.shape[2]; ++h)
        for (int64_t d = 0; d < t.shape[3]; ++d) {
          const float x = rng.uniform(-1.0f, 1.0f);
          t.host[t.at(b, s, h, d)] = t.f16 ? float_to_f16(x) : sample::float_to_bf16(x);
        }
}

void upload(Tensor4& t) {
  CHECK_OK(t.dev.allocate(t.host.size() * 2));
  CHECK(cudaMemcpy(t.dev.data(), t.host.data(), t.host.size() * 2, cudaMemcpyHostToDevice));
}

// The kernel's views: (S, D, H, B), or with `d_first` (D, S, H, B).
tileslc::TensorView view(const Tensor4& t, bool d_first) {
  const auto dt = t.f16 ? tileslc::DType::Float16 : tileslc::DType::BFloat16;
  if (d_first)
    return tileslc::make_tensor_view(t.dev.data(), dt, {t.shape[3], t.shape[1], t.shape[2], t.shape[0]},
                                     {t.stride[3], t.stride[1], t.stride[2], t.stride[0]});
  return tileslc::make_tensor_view(t.dev.data(), dt, {t.shape[1], t.shape[3], t.shape[2], t.shape[0]},
                                   {t.stride[1], t.stride[3], t.stride[2], t.stride[0]});
}

// The statistics of several workers' parts as one.
sample::ErrorStats merged(const std::vector<sample::ErrorStats>& parts) {
  sample::ErrorStats all;
  for (const sample::ErrorStats& e : parts) {
    all.max_abs_err = std::max(all.max_abs_err, e.max_abs_err);
    all.max_abs_ref = std::max(all.max_abs_ref, e.max_abs_ref);
    all.unwritten += e.unwritten;
    all.count += e.count;
  }
  return all;
}

// One case: every variant on random Q, K, V of (B, S, H / HK, D = the variant's),
// O and LSE checked entry by entry against the float64 reference.
bool run_case(int64_t B, int64_t S, int64_t H, int64_t HK, sample::Rng& rng, cudaStream_t stream) {
  bool ok = true;
  for (const Variant& v : kVariants) {
    const int64_t D = v.head_dim;
    Tensor4 Q = make_tensor(B, S, H, D, false, v.f16), K = make_tensor(B, S, HK, D, true, v.f16),
            V = make_tensor(B, S, HK, D, true, v.f16), O = make_tensor(B, S, H, D, false, v.f16);
    fill_random(Q, rng), fill_random(K, rng), fill_random(V, rng);
    upload(Q), upload(K), upload(V), upload(O);
    sample::poison(O.dev.data(), O.host.size() * 2);
    tileslc::DeviceBuffer lse_dev;
    CHECK_OK(lse_dev.allocate(static_cast<size_t>(B * H * S) * 4));
    sample::poison(lse_dev.data(), static_cast<size_t>(B * H * S) * 4);
    // LSE (B, H, S) compact, as the view (S, H, B).
    auto mLSE = tileslc::make_tensor_view(lse_dev.data(), tileslc::DType::Float32, {S, H, B}, {1, S, H * S});
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
    if (v.dyn) {
      auto mSched = tileslc::make_tensor_view(sched_workspace().data(), tileslc::DType::Int32, {2}, {1});
      CHECK_OK(v.dyn(view(Q, false), view(K, false), view(V, true), view(O, false), mLSE, mSched, scale, stream));
    } else {
      CHECK_OK(v.fn(view(Q, false), view(K, false), view(V, true), view(O, false), mLSE, scale, stream));
    }
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(O.host.data(), O.dev.data(), O.host.size() * 2, cudaMemcpyDeviceToHost));
    std::vector<float> lse(static_cast<size_t>(B * H * S));
    CHECK(cudaMemcpy(lse.data(), lse_dev.data(), lse.size() * 4, cudaMemcpyDeviceToHost));

    // The float64 reference, (batch, head) pairs spread over the host's cores (the GPU run's
    // largest case is 17 GFLOP of it per variant).
    const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<sample::ErrorStats> eos(workers), els(workers);
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&, w] {
        std::vector<double> p(static_cast<size_t>(S)), o(static_cast<size_t>(D));
        for (int64_t bh = w; bh < B * H; bh += workers) {
          const int64_t b = bh / H, h = bh % H, hk = h / (H / HK);
          for (int64_t i = 0; i < S; ++i) {
            const int64_t keys = v.causal ? i + 1 : S;
            double m = -INFINITY;
            for (int64_t j = 0; j < keys; ++j) {
              double s = 0.0;
              for (int64_t d = 0; d < D; ++d) s += Q.get(b, i, h, d) * K.get(b, j, hk, d);
              p[j] = s * scale;
              m = std::max(m, p[j]);
            }
            double sum = 0.0;
            for (int64_t j = 0; j < keys; ++j) sum += (p[j] = std::exp(p[j] - m));
            std::fill(o.begin(), o.end(), 0.0);
            for (int64_t j = 0; j < keys; ++j)
              for (int64_t d = 0; d < D; ++d) o[d] += p[j] * V.get(b, j, hk, d);
            for (int64_t d = 0; d < D; ++d) eos[w].add(O.get(b, i, h, d), o[d] / sum);
            els[w].add(lse[static_cast<size_t>((b * H + h) * S + i)], m + std::log(sum));
          }
        }
      });
    for (std::thread& t : pool) t.join();
    const sample::ErrorStats eo = merged(eos), el = merged(els);
    // O: P is rounded to BFloat16 before P V (relative error 2^-9 per probability) and O to
    // BFloat16 at the end (2^-9 of |O|); 1e-2 of max |O| leaves room for both and catches a
    // wrong key block or row (errors of order max |O|). LSE is Float32 math throughout.
    char what[160];
    std::snprintf(what, sizeof what, "%s B=%lld S=%lld H=%lld HK=%lld O", v.name, (long long)B, (long long)S, (long long)H, (long long)HK);
    ok &= sample::report(kName, what, eo, 1e-2);
    std::snprintf(what, sizeof what, "%s B=%lld S=%lld H=%lld HK=%lld LSE", v.name, (long long)B, (long long)S, (long long)H, (long long)HK);
    ok &= sample::report(kName, what, el, 1e-4);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "only the small shapes");
  sample::require_device_or_skip(kName);
  sample::require_compute_capability_or_skip(kName, 9, "sm_90a: TMA and wgmma");
  return sample::run_sample(kName, [small](sample::Rng& rng, cudaStream_t stream) {
    bool ok = true;
    ok &= run_case(1, 128, 1, 1, rng, stream);   // one tile, one key block
    ok &= run_case(2, 200, 4, 2, rng, stream);   // ragged: 2 query tiles, the last key block masked; GQA 2:1
    ok &= run_case(1, 520, 2, 1, rng, stream);   // 5 query tiles, 5 (9 at head dim 256) key blocks: the 2-stage rings wrap
    // 24 tiles of 4 query blocks (the last one 8 rows) on the emulator's 16 SMs: persistent CTAs
    // 0..7 take two tiles, their pipeline states carried over (odd key-block counts: the second
    // tile starts mid-ring), causal ones a long tile and then a short one.
    ok &= run_case(2, 392, 3, 1, rng, stream);
    if (!small) {
      ok &= run_case(2, 1024, 8, 2, rng, stream);
      // 16 query blocks x 8 heads x 2 = 256 tiles: on a 132-SM GPU persistent CTAs take two tiles.
      ok &= run_case(2, 2048, 8, 4, rng, stream);
      ok &= run_case(1, 1000, 4, 4, rng, stream);
    }
    return ok;
  });
}
