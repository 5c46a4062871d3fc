// gpu.named_barrier: bar.arrive next to bar.sync (named_barrier.tpy): a producer warp hands four
// rounds of values to three consumer warps through one shared slot (FULL / EMPTY named barriers,
// the aligned and unaligned arrive forms), and two warpgroups take turns on named barriers
// (tileslc.attention.pingpong.make_named), drawing tickets from a shared counter in their turns.
// Exact checks: every handed-off value (a lost or early hand-off reads a stale or poisoned
// slot), and the tickets in strict alternation (warpgroup w's turn t holds 2 t + w). Outputs start
// poisoned. Exit 77 without a CUDA GPU; the CPU emulator runs it too (emu.gpu.named_barrier).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "named_barrier.h"
#include "sample_util.h"

namespace {

constexpr int kRounds = 4, kTurns = 6;

bool check_handoff(cudaStream_t stream) {
  std::vector<float> in(kRounds * 32), out(kRounds * 96);
  for (int r = 0; r < kRounds; ++r)
    for (int i = 0; i < 32; ++i) in[r * 32 + i] = static_cast<float>(100 * r + i);
  tileslc::DeviceBuffer din, dout;
  CHECK_OK(din.allocate(in.size() * 4));
  CHECK_OK(dout.allocate(out.size() * 4));
  CHECK_OK(din.copy_from_host(in.data(), in.size() * 4));
  sample::poison(dout.data(), out.size() * 4);
  CHECK_OK(handoff(tileslc::make_tensor_view(din.data(), tileslc::DType::Float32, {kRounds, 32}, {32, 1}),
                   tileslc::make_tensor_view(dout.data(), tileslc::DType::Float32, {kRounds, 96}, {96, 1}), stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dout.copy_to_host(out.data(), out.size() * 4));
  int wrong = 0;
  for (int r = 0; r < kRounds; ++r)
    for (int i = 0; i < 96; ++i) {
      const float want = in[r * 32 + i % 32] * static_cast<float>(r + 1) + static_cast<float>(r);
      if (out[r * 96 + i] != want && wrong++ < 5)
        std::printf("named_barrier: handoff round %d consumer %d: %g, expected %g\n", r, i, out[r * 96 + i], want);
    }
  std::printf("named_barrier: handoff: %d rounds x 96 consumers, %d wrong\n", kRounds, wrong);
  return wrong == 0;
}

bool check_turns(cudaStream_t stream) {
  std::vector<int32_t> tickets(2 * kTurns);
  tileslc::DeviceBuffer dt;
  CHECK_OK(dt.allocate(tickets.size() * 4));
  sample::poison(dt.data(), tickets.size() * 4);
  CHECK_OK(turns(tileslc::make_tensor_view(dt.data(), tileslc::DType::Int32, {2, kTurns}, {kTurns, 1}), stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK_OK(dt.copy_to_host(tickets.data(), tickets.size() * 4));
  int wrong = 0;
  for (int w = 0; w < 2; ++w)
    for (int t = 0; t < kTurns; ++t)
      if (tickets[w * kTurns + t] != 2 * t + w && wrong++ < 5)
        std::printf("named_barrier: warpgroup %d turn %d drew ticket %d, expected %d\n", w, t, tickets[w * kTurns + t], 2 * t + w);
  std::printf("named_barrier: turns: 2 warpgroups x %d turns, %d out of order\n", kTurns, wrong);
  return wrong == 0;
}

}  // namespace

int main() {
  sample::require_device_or_skip("named_barrier");
  return sample::run_sample("named_barrier", [](sample::Rng&, cudaStream_t stream) {
    bool ok = check_handoff(stream);
    ok &= check_turns(stream);
    return ok;
  });
}
