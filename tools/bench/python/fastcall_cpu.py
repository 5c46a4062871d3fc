#!/usr/bin/env python3
"""fastcall_cpu.py: the Python side of a fast-path call, timed on the CPU (no GPU needed).

Builds samples/vector_add for the CPU emulator target (tileslc.build) and calls its no-launch twin
(fn._no_launch_twin(): the fast path's reads and checks of three 1-element CPU torch tensors,
ending in a packed entry that does nothing) back to back, with the C++ torch reader where it
loaded and with torch's Python accessors (_fastcall.use_torch_reader); prints the best time a
call over ROUNDS rounds, next to a Python function that does nothing (the loop's own cost). CPU time of
this thread (time.thread_time), so other processes on a shared machine disturb it less.

    TILESLC=build/bin/tileslc /usr/bin/python3 tools/bench/python/fastcall_cpu.py [--rounds 30]

Exit 77 without torch or without the fast path."""
import argparse
import os
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO, "python"))

try:
    import torch
except ImportError:
    print("fastcall_cpu: PyTorch is not installed for %s (Debian: python3-torch): not run" % sys.executable)
    sys.exit(77)

import tileslc  # noqa: E402


def per_call_ns(fn, args, calls, rounds):
    best = float("inf")
    for _ in range(rounds):
        start = time.thread_time()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.thread_time() - start) / calls * 1e9)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--calls", type=int, default=50000)
    args = ap.parse_args()
    lib = tileslc.build(os.path.join(REPO, "samples", "vector_add", "vector_add.tpy"), target="cpu")
    fn = lib.vector_add
    tensors = tuple(torch.zeros(1) for _ in range(3))
    fn(*tensors)  # hands torch to the fast path
    twin = fn._no_launch_twin()
    if twin is None:
        print("fastcall_cpu: no fast path (%s): not run" % tileslc.fast_path_status())
        return 77

    def nothing(a, b, c):
        pass
    from tileslc import _fastcall_build
    fast = _fastcall_build.module()
    # With the C++ torch reader (where it loaded) and with torch's Python accessors, one process.
    readers = [("C++ torch reader", True)] if fast.use_torch_reader(True) else []
    readers.append(("Python accessors", False))
    rows = [("fast path no launch, %s" % name, twin, on) for name, on in readers]
    rows.append(("def nothing(a, b, c)", nothing, None))
    best = {name: float("inf") for name, _, _ in rows}
    for _ in range(args.rounds):  # interleaved: a slow spell of the machine hits all alike
        for name, f, on in rows:
            if on is not None:
                fast.use_torch_reader(on)
            best[name] = min(best[name], per_call_ns(f, tensors, args.calls, 1))
    fast.use_torch_reader(True)
    if twin.fast_calls != args.rounds * args.calls * len(readers):
        print("fastcall_cpu: the no-launch twin left the fast path")
        return 1
    print("CPU time per call, 3 tensors, best of %d rounds of %d calls (torch %s, Python %s)"
          % (args.rounds, args.calls, torch.__version__, sys.version.split()[0]))
    print("torch reader: %s" % tileslc.fast_path_status().partition("; torch reader: ")[2])
    for name, _, _ in rows:
        print("  %-42s %7.0f ns" % (name, best[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
