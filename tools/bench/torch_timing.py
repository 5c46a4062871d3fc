"""Timing shared by the PyTorch benchmark scripts (tools/bench/*/torch_*.py).

median_ms(torch, f, reps): the median GPU time of one call of `f`, in milliseconds, over `reps`
calls after 3 warm-up calls, each timed by its own pair of CUDA events (so launch gaps between
calls are not counted, and one slow call does not move the result as a mean would).
"""


def median_ms(torch, f, reps):
    for _ in range(3):
        f()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]
