// launch_overhead.h: what a generated host function costs on the host per
// launch, against launching the same __global__ kernel directly.
#ifndef TILESLC_TOOLS_BENCH_LAUNCH_OVERHEAD_H
#define TILESLC_TOOLS_BENCH_LAUNCH_OVERHEAD_H

#include <cuda_runtime.h>

namespace bench {

// Microseconds per launch over one batch of back-to-back launches.
struct LaunchTiming {
  double enqueue_us = 0.0;  // CPU wall time of the loop of launches, per launch
  double total_us = 0.0;    // the same plus a final cudaStreamSynchronize, per launch
};

struct LaunchOverhead {
  int calls = 0;             // launches per batch
  int rounds = 0;            // batches per variant; the medians are reported
  LaunchTiming generated;    // vector_add(mA, mB, mC, stream) on N = 1
  LaunchTiming raw;          // cudaLaunchKernel(add_kernel, ...) with the same arguments
  double graph_us = 0.0;     // GPU time per kernel when the raw launches replay from a CUDA graph:
                             // the rate the GPU sustains with no host enqueue in the way
  bool ok = false;           // the last launches computed C = A + B
};

// Times `rounds` batches of `calls` launches of each variant (alternating,
// after a warm-up batch of each) on `stream`.
LaunchOverhead measure_launch_overhead(int calls, int rounds, cudaStream_t stream);

}  // namespace bench

#endif  // TILESLC_TOOLS_BENCH_LAUNCH_OVERHEAD_H
