// launch_overhead.cu: host cost of a generated host function per launch.
// vector_add (samples/vector_add) on N = 1 validates its three views, binds
// N, computes the grid and launches add_kernel through tileslc::launch_kernel;
// the raw variant calls cudaLaunchKernel on the same kernel with the same
// argument values and configuration, and nothing else. Both run on a tiny
// problem so that the host side, not the kernel, is what is measured.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "launch_overhead.h"
#include "sample_util.h"
#include "vector_add.h"

// The kernel tileslc generates for samples/vector_add/vector_add.tpy, declared
// as in <build>/samples/tileslc_gen/vector_add.cu, which defines it in the
// namespace of its module (this declaration links against that definition, so
// a change of its name or parameters in the generated code fails the bench's
// link).
namespace tileslc_kernels::vector_add {
__global__ void add_kernel(const float* __restrict__ gA, const float* __restrict__ gB, float* __restrict__ gC,
                           int64_t N, int64_t gA_stride0, int64_t gB_stride0, int64_t gC_stride0);
}  // namespace tileslc_kernels::vector_add

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

// One batch of `calls` back-to-back launches on an idle stream.
template <class F>
LaunchTiming time_batch(F&& launch, int calls, cudaStream_t stream) {
  CHECK(cudaStreamSynchronize(stream));
  const Clock::time_point t0 = Clock::now();
  for (int i = 0; i < calls; ++i) launch();
  const Clock::time_point t1 = Clock::now();
  CHECK(cudaStreamSynchronize(stream));
  const Clock::time_point t2 = Clock::now();
  return {microseconds(t0, t1) / calls, microseconds(t0, t2) / calls};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

LaunchTiming median_timing(const std::vector<LaunchTiming>& batches) {
  std::vector<double> enqueue, total;
  for (const LaunchTiming& t : batches) {
    enqueue.push_back(t.enqueue_us);
    total.push_back(t.total_us);
  }
  return {median(enqueue), median(total)};
}

// GPU time per kernel, in microseconds, when `calls` launches by `launch`
// are captured into a CUDA graph and replayed (median of `rounds` replays).
template <class F>
double graph_us_per_kernel(F&& launch, int calls, int rounds, cudaStream_t stream) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < calls; ++i) launch();
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const double ms = sample::median_ms([&] { CHECK(cudaGraphLaunch(exec, stream)); }, stream, 1, rounds);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return ms * 1e3 / calls;
}

}  // namespace

LaunchOverhead measure_launch_overhead(int calls, int rounds, cudaStream_t stream) {
  constexpr int64_t kN = 1;
  const float a_value = 1.5f, b_value = 2.25f;
  tileslc::DeviceBuffer dA, dB, dC;
  CHECK_OK(dA.allocate(16));
  CHECK_OK(dB.allocate(16));
  CHECK_OK(dC.allocate(16));
  CHECK_OK(dA.copy_from_host(&a_value, sizeof a_value));
  CHECK_OK(dB.copy_from_host(&b_value, sizeof b_value));
  const auto f32 = tileslc::DType::Float32;
  const tileslc::TensorView mA = tileslc::make_tensor_view(dA.data(), f32, {kN});
  const tileslc::TensorView mB = tileslc::make_tensor_view(dB.data(), f32, {kN});
  const tileslc::TensorView mC = tileslc::make_tensor_view(dC.data(), f32, {kN});

  auto generated = [&] { CHECK_OK(vector_add(mA, mB, mC, stream)); };
  // What vector_add launches for N = 1: ceil_div(1, 1024) = 1 block of 256
  // threads, no dynamic shared memory, unit strides.
  auto raw = [&] {
    const float* gA = static_cast<const float*>(dA.data());
    const float* gB = static_cast<const float*>(dB.data());
    float* gC = static_cast<float*>(dC.data());
    int64_t n = kN, stride_a = 1, stride_b = 1, stride_c = 1;
    void* args[] = {&gA, &gB, &gC, &n, &stride_a, &stride_b, &stride_c};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&tileslc_kernels::vector_add::add_kernel), dim3(1), dim3(256), args, 0, stream));
  };

  // Each variant must compute C = A + B.
  bool ok = true;
  for (int variant = 0; variant < 2; ++variant) {
    sample::poison(dC.data(), dC.size());
    variant == 0 ? generated() : raw();
    float c = 0.0f;
    CHECK(cudaStreamSynchronize(stream));
    CHECK_OK(dC.copy_to_host(&c, sizeof c));
    ok &= c == a_value + b_value;
  }

  time_batch(generated, calls, stream);  // warm-up
  time_batch(raw, calls, stream);
  std::vector<LaunchTiming> generated_batches, raw_batches;
  for (int r = 0; r < rounds; ++r) {
    generated_batches.push_back(time_batch(generated, calls, stream));
    raw_batches.push_back(time_batch(raw, calls, stream));
  }
  LaunchOverhead out;
  out.calls = calls;
  out.rounds = rounds;
  out.generated = median_timing(generated_batches);
  out.raw = median_timing(raw_batches);
  out.graph_us = graph_us_per_kernel(raw, calls, rounds, stream);
  out.ok = ok;
  return out;
}

}  // namespace bench
