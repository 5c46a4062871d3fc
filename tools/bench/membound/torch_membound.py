#!/usr/bin/env python3
"""torch_membound.py: the row kernels of samples softmax, rmsnorm and layernorm (Float32 and
BFloat16, 16384x8192 and 512x262144) called from PyTorch, against torch eager (torch.softmax,
F.rms_norm, F.layer_norm), optionally torch.compile of the same, and a device-to-device copy
(y.copy_(x)), all in one process on torch's current stream. Each tileslc result is checked
against a float64 torch reference first (rows relative to their largest value; 2e-5 Float32,
6e-3 BFloat16 output). TB/s counts bytes read + written (x, y, the weight and bias once);
times are medians of cudaEvent-timed calls after a warm-up.

    python3 tools/bench/membound/torch_membound.py --prebuilt DIR   # DIR/lib{softmax,rmsnorm,layernorm}.so
    python3 tools/bench/membound/torch_membound.py                  # builds them with tileslc.build
    ... [--compile] [--reps N]

tools/device/pack.sh builds the libraries into its pylib/ and tools/device/run.sh runs this.
Exit 0 when every check passes, 1 otherwise, 77 without a CUDA GPU."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tileslc  # noqa: E402
import tileslc.torch  # noqa: E402, F401  (tensor arguments from torch)

SAMPLES = ("softmax", "rmsnorm", "layernorm")
SHAPES = ((16384, 8192), (512, 262144))
EPS = 1e-5


def libraries(prebuilt):
    libs = {}
    for name in SAMPLES:
        if prebuilt:
            libs[name] = tileslc.load(os.path.join(prebuilt, "lib%s.so" % name))
        else:
            libs[name] = tileslc.build(os.path.join(REPO, "samples", name, name + ".tpy"), arch="sm_90a")
    return libs


def tileslc_fn(libs, op, dtype, cols):
    """The sample's host function for (op, dtype, cols), as f(x, w, b, y)."""
    t = "fp32" if dtype == torch.float32 else "bf16"
    if op == "softmax":
        f = getattr(libs["softmax"], "softmax_%d" % cols if (t == "fp32" and cols == 8192) else "softmax_%s_%d" % (t, cols))
        return lambda x, w, b, y: f(x, y)
    if op == "rmsnorm":
        f = getattr(libs["rmsnorm"], "rmsnorm_%s_%d" % (t, cols))
        return lambda x, w, b, y: f(x, w, y, EPS)
    f = getattr(libs["layernorm"], "layernorm_%s_%d" % (t, cols))
    return lambda x, w, b, y: f(x, w, b, y, EPS)


def torch_fn(op, cols):
    if op == "softmax":
        return lambda x, w, b: torch.softmax(x, dim=-1)
    if op == "rmsnorm":
        return lambda x, w, b: F.rms_norm(x, (cols,), w, EPS)
    return lambda x, w, b: F.layer_norm(x, (cols,), w, b, EPS)


def reference(op, x, w, b):
    x, w, b = x.double(), w.double(), b.double()
    if op == "softmax":
        return torch.softmax(x, dim=-1)
    if op == "rmsnorm":
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w
    return F.layer_norm(x, (x.shape[-1],), w, b, EPS)


def median_ms(f, reps):
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


def nonzero(shape, dtype, lo, hi):
    """|v| in [lo, hi) with random signs: never zero."""
    v = torch.empty(shape, device="cuda").uniform_(lo, hi)
    return (v * (torch.randint(0, 2, shape, device="cuda") * 2 - 1)).to(dtype)


def run(libs, op, dtype, rows, cols, args):
    x = nonzero((rows, cols), dtype, 0.25, 4.0)
    w, b = nonzero((cols,), dtype, 0.5, 1.5), nonzero((cols,), dtype, 0.5, 1.5)
    y = torch.full_like(x, float("nan"))
    ours = tileslc_fn(libs, op, dtype, cols)
    ours(x, w, b, y)
    torch.cuda.synchronize()
    ref = reference(op, x, w, b)
    err = ((y.double() - ref).abs().amax(-1) / ref.abs().amax(-1)).max().item()
    tol = 2e-5 if dtype == torch.float32 else 6e-3
    ok = err <= tol  # NaN (an unwritten output) fails too
    del ref
    params = {"softmax": 0, "rmsnorm": 1, "layernorm": 2}[op] * cols * x.element_size()
    nbytes = 2 * x.numel() * x.element_size() + params
    eager = torch_fn(op, cols)
    times = {
        "tileslc": median_ms(lambda: ours(x, w, b, y), args.reps),
        "eager": median_ms(lambda: eager(x, w, b), args.reps),
        "copy": median_ms(lambda: y.copy_(x), args.reps),
    }
    if args.compile:
        compiled = torch.compile(eager)
        times["compile"] = median_ms(lambda: compiled(x, w, b), args.reps)
    tbs = {k: nbytes / (v * 1e-3) / 1e12 for k, v in times.items()}
    line = "%-10s %-5s %6dx%-7d %9.3f %9.3f %9.3f" % (op, "fp32" if dtype == torch.float32 else "bf16", rows, cols,
                                                     tbs["tileslc"], tbs["eager"], tbs["copy"])
    if args.compile:
        line += " %9.3f" % tbs["compile"]
    line += "  %6.3f %6.3f  %s (rel_err %.2e)" % (tbs["tileslc"] / tbs["copy"], tbs["tileslc"] / tbs["eager"],
                                                  "ok" if ok else "WRONG", err)
    print(line, flush=True)
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prebuilt", help="directory holding lib{softmax,rmsnorm,layernorm}.so")
    p.add_argument("--compile", action="store_true", help="also time torch.compile of the torch function")
    p.add_argument("--reps", type=int, default=20)
    args = p.parse_args()
    if not torch.cuda.is_available():
        print("torch_membound: no CUDA GPU: not run")
        return 77
    torch.manual_seed(0)
    libs = libraries(args.prebuilt)
    head = "%-10s %-5s %14s %9s %9s %9s" % ("kernel", "dtype", "shape", "tileslc", "eager", "copy")
    if args.compile:
        head += " %9s" % "compile"
    print(head + "  %6s %6s   (TB/s; ratios tileslc/copy, tileslc/eager)" % ("/copy", "/eager"))
    ok = True
    for op in SAMPLES:
        for dtype in (torch.float32, torch.bfloat16):
            for rows, cols in SHAPES:
                ok &= run(libs, op, dtype, rows, cols, args)
    print("torch_membound: %s" % ("all checks passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
