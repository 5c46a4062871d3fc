#!/usr/bin/env python3
"""torch_membound.py: the row kernels of samples softmax, rmsnorm, layernorm and cross_entropy
(and the backwards of softmax, RMSNorm and cross-entropy)
(Float32 and BFloat16, 16384x8192 and 512x262144; cross-entropy also BFloat16 8192x131072)
called from PyTorch, against torch eager (torch.softmax, F.rms_norm, F.layer_norm,
F.cross_entropy(reduction="none") and its autograd backward), optionally torch.compile of the
same (the cross-entropy backward compiled from its formula), and a device-to-device copy
(y.copy_(x)), all in one process on torch's current stream. Each tileslc result is checked
against a float64 torch reference first (rows relative to their largest value; 2e-5 Float32,
6e-3 BFloat16 output). TB/s counts bytes read + written (x, y, the weight and bias once);
times are medians of cudaEvent-timed calls after a warm-up.

    python3 tools/bench/membound/torch_membound.py --prebuilt DIR   # DIR/lib{softmax,rmsnorm,layernorm,cross_entropy}.so
    python3 tools/bench/membound/torch_membound.py                  # builds them with tileslc.build
    ... [--compile] [--reps N] [--ops softmax,rmsnorm,layernorm,softmax_bwd,rmsnorm_bwd,xent] [--sweep]

--sweep runs instead the row kernels and the softmax and RMSNorm backwards at N = 256, 1024, 4096,
16384 and 65536 columns with about 1 GiB of input each (the instances of
tools/bench/membound/membound_sweep.tpy, DIR/libmembound_sweep.so with --prebuilt).

tools/device/pack.sh builds the libraries into its pylib/ and tools/device/run.sh runs this.
Exit 0 when every check passes, 1 otherwise, 77 without a CUDA GPU or without PyTorch."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.dirname(HERE))  # tools/bench: torch_timing

import tileslc  # noqa: E402

torch = F = median_ms = None  # import_torch(), after the command line is parsed


def import_torch():
    """PyTorch and what needs it, imported once the arguments parsed (so --help and a bad option
    answer without it); False when PyTorch is not installed."""
    global torch, F, median_ms
    try:
        import torch as torch_module
        import torch.nn.functional as functional
    except ImportError:
        return False
    from torch_timing import median_ms as timing
    import tileslc.torch  # noqa: F401  (tensor arguments from torch)
    torch, F, median_ms = torch_module, functional, timing
    return True

SAMPLES = ("softmax", "rmsnorm", "layernorm", "cross_entropy")
ROW_OPS = ("softmax", "rmsnorm", "layernorm")
XENT_SHAPES = ((16384, 8192), (8192, 131072), (512, 262144))
IGNORE_INDEX = -100
SHAPES = ((16384, 8192), (512, 262144))
SWEEP_COLS = (256, 1024, 4096, 16384, 65536)
ALL_OPS = ROW_OPS + ("softmax_bwd", "rmsnorm_bwd", "xent")
EPS = 1e-5


def libraries(prebuilt, sweep):
    """The samples' libraries by name, or with `sweep` the one of membound_sweep.tpy."""
    if sweep:
        if prebuilt:
            return {"membound_sweep": tileslc.load(os.path.join(prebuilt, "libmembound_sweep.so"))}
        imports = [os.path.join(REPO, "samples", name) for name in ROW_OPS]
        return {"membound_sweep": tileslc.build(os.path.join(HERE, "membound_sweep.tpy"), arch="sm_90a", include_dirs=imports)}
    libs = {}
    for name in SAMPLES:
        if prebuilt:
            libs[name] = tileslc.load(os.path.join(prebuilt, "lib%s.so" % name))
        else:
            libs[name] = tileslc.build(os.path.join(REPO, "samples", name, name + ".tpy"), arch="sm_90a")
    return libs


def host_function(libs, op, dtype, cols):
    """The host function of (op, dtype, cols): the sample's (softmax_8192 keeps its first name), or
    with --sweep's library loaded its <op>_sweep_<type>_<cols>."""
    t = "fp32" if dtype == torch.float32 else "bf16"
    if "membound_sweep" in libs:
        return getattr(libs["membound_sweep"], "%s_sweep_%s_%d" % (op, t, cols))
    name = "softmax_%d" % cols if (op == "softmax" and t == "fp32" and cols == 8192) else "%s_%s_%d" % (op, t, cols)
    return getattr(libs[op.replace("_bwd", "")], name)


def tileslc_fn(libs, op, dtype, cols):
    """The host function for (op, dtype, cols), as f(x, w, b, y)."""
    f = host_function(libs, op, dtype, cols)
    if op == "softmax":
        return lambda x, w, b, y: f(x, y)
    if op == "rmsnorm":
        return lambda x, w, b, y: f(x, w, y, EPS)
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
        "tileslc": median_ms(torch, lambda: ours(x, w, b, y), args.reps),
        "eager": median_ms(torch, lambda: eager(x, w, b), args.reps),
        "copy": median_ms(torch, lambda: y.copy_(x), args.reps),
    }
    if args.compile:
        compiled = compile_fresh(eager)
        times["compile"] = median_ms(torch, lambda: compiled(x, w, b), args.reps)
    return report(op, dtype, rows, cols, nbytes, times, ok, err, args)


def compile_fresh(fn):
    """torch.compile of fn for this one shape: dynamo's caches reset first, so that an earlier
    shape's graph is neither reused with dynamic extents (automatic dynamic shapes recompile a
    second shape as symbolic) nor counted against the recompile limit (past which dynamo runs
    the function eagerly without a word)."""
    torch._dynamo.reset()
    return torch.compile(fn, dynamic=False)


def report(op, dtype, rows, cols, nbytes, times, ok, err, args):
    """Prints one table row of TB/s (bytes read + written over each median time) and ratios."""
    tbs = {k: nbytes / (v * 1e-3) / 1e12 for k, v in times.items()}
    line = "%-10s %-5s %6dx%-7d %9.3f %9.3f %9.3f" % (op, "fp32" if dtype == torch.float32 else "bf16", rows, cols,
                                                     tbs["tileslc"], tbs["eager"], tbs["copy"])
    if args.compile:
        line += " %9.3f" % tbs["compile"]
    line += "  %6.3f %6.3f" % (tbs["tileslc"] / tbs["copy"], tbs["tileslc"] / tbs["eager"])
    if args.compile:
        line += " %6.3f" % (tbs["tileslc"] / max(tbs["eager"], tbs["compile"]))
    line += "  %s (rel_err %.2e)" % ("ok" if ok else "WRONG", err)
    print(line, flush=True)
    return ok


def softmax_bwd_formula(y, dy):
    """dx = y * (dy - sum(dy * y)) in Float32 (what torch.compile gets to fuse)."""
    yf, dyf = y.float(), dy.float()
    return (yf * (dyf - (dyf * yf).sum(-1, keepdim=True))).to(y.dtype)


def rmsnorm_bwd_formula(x, w, dy):
    """(dx, dw) of y = x * rstd * w in Float32 (what torch.compile gets to fuse)."""
    xf, wf, dyf = x.float(), w.float(), dy.float()
    rstd = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)
    dot = (dyf * wf * xf).sum(-1, keepdim=True)
    dx = rstd * dyf * wf - xf * rstd.pow(3) * dot / x.shape[-1]
    return dx.to(x.dtype), (dyf * xf * rstd).sum(0).to(w.dtype)


def run_backward(libs, op, dtype, rows, cols, args):
    """softmax_bwd (from y = softmax(x)) or rmsnorm_bwd (dx and dw): checked against float64
    autograd, then timed against torch's autograd backward of the same function and a copy."""
    x = nonzero((rows, cols), dtype, 0.25, 4.0)
    w = nonzero((cols,), dtype, 0.5, 1.5)
    dy = nonzero((rows, cols), dtype, 0.25, 2.0)
    dx = torch.full_like(x, float("nan"))
    if op == "softmax_bwd":
        f = host_function(libs, op, dtype, cols)
        y = torch.softmax(x.float(), -1).to(dtype)
        ours = lambda: f(y, dy, dx)  # noqa: E731
        yd = y.double()
        ref = yd * (dy.double() - (dy.double() * yd).sum(-1, keepdim=True))
        # Relative to max |y| * max |dy| of each row at least (dy - sum(dy * y) can cancel).
        scale = torch.maximum(ref.abs().amax(-1), yd.abs().amax(-1) * dy.double().abs().amax(-1))
        xg = x.detach().requires_grad_(True)
        graph = torch.softmax(xg, -1)
        eager = lambda: torch.autograd.grad(graph, xg, dy, retain_graph=True)  # noqa: E731
        compiled_args, formula = (y, dy), softmax_bwd_formula
        nbytes = 3 * x.numel() * x.element_size()
        ours()
        torch.cuda.synchronize()
        err = ((dx.double() - ref).abs().amax(-1) / scale).max().item()
    else:
        f = host_function(libs, op, dtype, cols)
        slots = min(rows, max(1024, (1 << 21) // cols))  # tileslc_membound's default_slots()
        partial = torch.empty((slots, cols), device="cuda")
        dw = torch.full_like(w, float("nan"))
        ours = lambda: f(x, w, dy, dx, partial, dw, EPS)  # noqa: E731
        xd, wd = x.double().requires_grad_(True), w.double().requires_grad_(True)
        yd = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + EPS) * wd
        ref_dx, ref_dw = torch.autograd.grad(yd, (xd, wd), dy.double())
        del xd, wd, yd
        ours()
        torch.cuda.synchronize()
        err = ((dx.double() - ref_dx).abs().amax(-1) / ref_dx.abs().amax(-1)).max().item()
        err = max(err, ((dw.double() - ref_dw).abs().max() / ref_dw.abs().max()).item())
        xg, wg = x.detach().requires_grad_(True), w.detach().requires_grad_(True)
        graph = F.rms_norm(xg, (cols,), wg, EPS)
        eager = lambda: torch.autograd.grad(graph, (xg, wg), dy, retain_graph=True)  # noqa: E731
        compiled_args, formula = (x, w, dy), rmsnorm_bwd_formula
        nbytes = 3 * x.numel() * x.element_size() + 2 * w.numel() * w.element_size() + 2 * partial.numel() * 4
    ok = err <= (2e-5 if dtype == torch.float32 else 6e-3)
    times = {
        "tileslc": median_ms(torch, ours, args.reps),
        "eager": median_ms(torch, eager, args.reps),
        # The copy moves x twice (read + write): scaled to the backward's bytes.
        "copy": median_ms(torch, lambda: dx.copy_(x), args.reps) * nbytes / (2 * x.numel() * x.element_size()),
    }
    if args.compile:
        compiled = compile_fresh(formula)
        times["compile"] = median_ms(torch, lambda: compiled(*compiled_args), args.reps)
    return report(op, dtype, rows, cols, nbytes, times, ok, err, args)


def xent_grad_formula(x, target, lse, dloss):
    """The cross-entropy gradient of the logits from the forward's logsumexp (what torch.compile
    gets to fuse): (exp(x - lse) - onehot(target)) * dloss, 0 on ignored rows."""
    p = torch.exp(x.float() - lse[:, None])
    cols = torch.arange(x.shape[1], device=x.device)
    g = torch.where(cols[None, :] == target[:, None], p - 1.0, p)
    scale = torch.where(target == IGNORE_INDEX, 0.0, dloss)
    return (g * scale[:, None]).to(x.dtype)


def run_cross_entropy(libs, dtype, rows, cols, args):
    """The forward (loss, lse) and the backward (dx) of one instance: checked against float64, then
    timed against F.cross_entropy(reduction="none"), its autograd backward, and a copy of x."""
    t = "fp32" if dtype == torch.float32 else "bf16"
    fwd = getattr(libs["cross_entropy"], "cross_entropy_fwd_%s_%d" % (t, cols))
    bwd = getattr(libs["cross_entropy"], "cross_entropy_bwd_%s_%d" % (t, cols))
    x = nonzero((rows, cols), dtype, 0.25, 8.0)
    target64 = torch.randint(0, cols, (rows,), device="cuda")
    target64[1::17] = IGNORE_INDEX
    target = target64.to(torch.int32)
    dloss = nonzero((rows,), torch.float32, 0.5, 2.0)
    loss = torch.full((rows,), float("nan"), device="cuda")
    lse = torch.full((rows,), float("nan"), device="cuda")
    dx = torch.full_like(x, float("nan"))
    fwd(x, target, loss, lse, IGNORE_INDEX)
    bwd(x, target, dloss, lse, dx, IGNORE_INDEX)
    torch.cuda.synchronize()
    xd = x.double().requires_grad_(True)
    ref_loss = F.cross_entropy(xd, target64, reduction="none", ignore_index=IGNORE_INDEX)
    (ref_dx,) = torch.autograd.grad(ref_loss, xd, dloss.double())
    err_fwd = ((loss.double() - ref_loss).abs().max() / ref_loss.abs().max()).item()
    # The gradient row by row, relative to max(largest |reference|, |dloss|) (ignored rows exact).
    scale = torch.maximum(ref_dx.abs().amax(-1), torch.where(target64 == IGNORE_INDEX, 0.0, dloss.double().abs()))
    err_bwd = ((dx.double() - ref_dx).abs().amax(-1) / scale.clamp_min(1e-30)).max().item()
    del xd, ref_loss, ref_dx
    ok_fwd = err_fwd <= 2e-5
    ok_bwd = err_bwd <= (2e-5 if dtype == torch.float32 else 6e-3)
    xg = x.detach().requires_grad_(True)
    graph_loss = F.cross_entropy(xg, target64, reduction="none", ignore_index=IGNORE_INDEX)
    eager_fwd = lambda: F.cross_entropy(x, target64, reduction="none", ignore_index=IGNORE_INDEX)  # noqa: E731
    eager_bwd = lambda: torch.autograd.grad(graph_loss, xg, dloss, retain_graph=True)  # noqa: E731
    fwd_times = {
        "tileslc": median_ms(torch, lambda: fwd(x, target, loss, lse, IGNORE_INDEX), args.reps),
        "eager": median_ms(torch, eager_fwd, args.reps),
        "copy": median_ms(torch, lambda: dx.copy_(x), args.reps),
    }
    bwd_times = {
        "tileslc": median_ms(torch, lambda: bwd(x, target, dloss, lse, dx, IGNORE_INDEX), args.reps),
        "eager": median_ms(torch, eager_bwd, args.reps),
        "copy": fwd_times["copy"],
    }
    if args.compile:
        compiled_fwd = compile_fresh(lambda x, t: F.cross_entropy(x, t, reduction="none", ignore_index=IGNORE_INDEX))
        fwd_times["compile"] = median_ms(torch, lambda: compiled_fwd(x, target64), args.reps)
        compiled_bwd = compile_fresh(xent_grad_formula)
        bwd_times["compile"] = median_ms(torch, lambda: compiled_bwd(x, target64, lse, dloss), args.reps)
    nbytes = x.numel() * x.element_size()
    # The copy reads and writes x: 2 * nbytes. The forward reads x once: its TB/s and ratio to the
    # copy count x once (and 12 bytes a row), the copy's its 2 * nbytes.
    ok = report("xent_fwd", dtype, rows, cols, nbytes + 12 * rows, dict(fwd_times, copy=fwd_times["copy"] / 2), ok_fwd,
                err_fwd, args)
    ok &= report("xent_bwd", dtype, rows, cols, 2 * nbytes + 12 * rows, bwd_times, ok_bwd, err_bwd, args)
    return ok


def main():
    # allow_abbrev=False: `--sw` is not taken for --sweep.
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    p.add_argument("--prebuilt", help="directory holding lib{softmax,rmsnorm,layernorm,cross_entropy}.so "
                   "(libmembound_sweep.so with --sweep)")
    p.add_argument("--compile", action="store_true", help="also time torch.compile of the torch function")
    p.add_argument("--reps", type=int, default=20, help="timed calls per median (at least 1)")
    p.add_argument("--ops", help="which kernels, comma-separated (default: all; with --sweep all but xent): " + ",".join(ALL_OPS))
    p.add_argument("--sweep", action="store_true",
                   help="N = %s columns at about 1 GiB of input each instead (no xent)" % ", ".join(map(str, SWEEP_COLS)))
    args = p.parse_args()
    ops = args.ops.split(",") if args.ops is not None else [o for o in ALL_OPS if not (args.sweep and o == "xent")]
    if "" in ops:
        p.error("--ops %r has an empty name (%s)" % (args.ops, ", ".join(ALL_OPS)))
    unknown = [o for o in ops if o not in ALL_OPS]
    if unknown:
        p.error("--ops: no kernel named %s (%s)" % (", ".join(unknown), ", ".join(ALL_OPS)))
    # An empty --prebuilt would read as "not given" and build the libraries instead.
    if args.prebuilt is not None and not os.path.isdir(args.prebuilt):
        p.error("--prebuilt %r is not a folder (the one tools/device/pack.sh fills: .devbin/pylib)" % args.prebuilt)
    if args.sweep and "xent" in ops:
        p.error("--sweep has no xent (its operations: %s)" % ", ".join(o for o in ALL_OPS if o != "xent"))
    if args.reps < 1:
        p.error("--reps is %d, expected at least 1" % args.reps)
    if not import_torch():  # nothing to compare with (the same exit as without a GPU)
        print("torch_membound: PyTorch is not installed: not run")
        return 77
    if not torch.cuda.is_available():
        print("torch_membound: no CUDA GPU: not run")
        return 77
    torch.manual_seed(0)
    libs = libraries(args.prebuilt, args.sweep)
    head = "%-10s %-5s %14s %9s %9s %9s" % ("kernel", "dtype", "shape", "tileslc", "eager", "copy")
    if args.compile:
        head += " %9s" % "compile"
    if args.compile:
        print(head + "  %6s %6s %6s  (TB/s; ratios tileslc/copy, tileslc/eager, tileslc/the faster of eager and compile)"
              % ("/copy", "/eager", "/best"))
    else:
        print(head + "  %6s %6s   (TB/s; ratios tileslc/copy, tileslc/eager)" % ("/copy", "/eager"))
    ok = True

    def shapes(dtype):
        if not args.sweep:
            return SHAPES
        size = torch.tensor([], dtype=dtype).element_size()
        return tuple(((1 << 30) // (cols * size), cols) for cols in SWEEP_COLS)

    for op in (o for o in ROW_OPS if o in ops):
        for dtype in (torch.float32, torch.bfloat16):
            for rows, cols in shapes(dtype):
                ok &= run(libs, op, dtype, rows, cols, args)
    for op in (o for o in ("softmax_bwd", "rmsnorm_bwd") if o in ops):
        for dtype in (torch.float32, torch.bfloat16):
            for rows, cols in shapes(dtype):
                ok &= run_backward(libs, op, dtype, rows, cols, args)
    for dtype in (torch.float32, torch.bfloat16) if "xent" in ops else ():
        for rows, cols in XENT_SHAPES:
            if dtype == torch.bfloat16 or cols != 131072:  # Float32 has no 131072 instance
                ok &= run_cross_entropy(libs, dtype, rows, cols, args)
    print("torch_membound: %s" % ("all checks passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
