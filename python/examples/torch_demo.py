#!/usr/bin/env python3
"""torch_demo.py: tileslc kernels called from PyTorch, checked against torch, and
what a call costs on the host.

Calls three of our samples with torch CUDA tensors on torch's current stream:
vector_add (Float32), gemm_sm90 (BFloat16 C = A @ B^T, TMA + wgmma, sm_90a)
and softmax_8192 (Float32 rows of 8192), each checked against torch (exact for
vector_add, relative to a float64 reference for the others), then one call on
a side stream, then vector_add as a torch.library operator inside a
torch.compile graph. Then the per-call host cost of back-to-back launches on a
1-element vector_add: through the C fast path, the fast path's Python side alone
(the same call ending in a packed entry that launches nothing), both again with
torch's Python accessors where the C++ torch reader is in use, through the
ctypes path, and torch.add(a, b, out=c) for comparison (wall time per call, the GPU never the
bottleneck at this size; the C++ cost of a generated host function per launch
is tileslc_bench's "launch overhead" table).

    python3 python/examples/torch_demo.py                 # builds with tileslc.build (tileslc + nvcc)
    python3 python/examples/torch_demo.py --prebuilt DIR  # loads DIR/lib{vector_add,gemm_sm90,softmax}.so

Exit 0 when every check passes, 1 otherwise, 77 without a CUDA GPU."""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import torch  # noqa: E402

import tileslc  # noqa: E402
import tileslc.torch  # noqa: E402

SAMPLES = ("vector_add", "gemm_sm90", "softmax")


def libraries(prebuilt, arch):
    libs = {}
    for name in SAMPLES:
        if prebuilt:
            libs[name] = tileslc.load(os.path.join(prebuilt, "lib%s.so" % name))
        else:
            libs[name] = tileslc.build(os.path.join(REPO, "samples", name, name + ".tpy"), arch=arch)
    return libs


def check(what, ok, detail):
    print("%-44s %s  %s" % (what, "PASS" if ok else "FAIL", detail))
    return ok


def rel_err(out, ref):
    return ((out.double() - ref).abs().max() / ref.abs().max()).item()


def checks(libs):
    ok = True
    torch.manual_seed(0)
    n = (1 << 24) + 7
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    c = torch.full((n,), float("nan"), device="cuda")
    libs["vector_add"].vector_add(a, b, c)
    torch.cuda.synchronize()
    ok &= check("vector_add N=%d" % n, torch.equal(c, a + b), "equal to a + b")

    m, nn, k = 4096, 4096, 4096
    A = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    B = torch.randn(nn, k, device="cuda", dtype=torch.bfloat16)
    C = torch.full((m, nn), float("nan"), device="cuda", dtype=torch.bfloat16)
    libs["gemm_sm90"].gemm_sm90(A, B, C)
    ref = A.double() @ B.double().T
    e = rel_err(C, ref)
    torch.cuda.synchronize()
    ok &= check("gemm_sm90 %dx%dx%d bf16" % (m, nn, k), e < 1e-2, "rel_err %.3e (tol 1e-2, bf16 output)" % e)

    rows = 1000
    x = torch.randn(rows, 8192, device="cuda") * 4
    y = torch.full_like(x, float("nan"))
    libs["softmax"].softmax_8192(x, y)
    ref = torch.softmax(x.double(), dim=1)
    e = ((y.double() - ref).abs().amax(dim=1) / ref.amax(dim=1)).max().item()
    ok &= check("softmax_8192 %dx8192 fp32" % rows, e < 1e-5, "rel_err per row %.3e (tol 1e-5)" % e)

    # A side stream: the call is ordered after the work queued there, like a torch op.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a2 = torch.randn(n, device="cuda")
        b2 = a2 * 3
        c2 = torch.empty(n, device="cuda")
        libs["vector_add"].vector_add(a2, b2, c2)
        expected = a2 * 4
    s.synchronize()
    ok &= check("vector_add on a side stream", torch.allclose(c2, expected, rtol=1e-6, atol=1e-6),
                "max |diff| %.2e" % (c2 - expected).abs().max().item())

    # As a torch.library operator, inside a torch.compile graph (tileslc.torch.register).
    op = tileslc.torch.register(libs["vector_add"].vector_add)

    def graph(x, y, out):
        op(x, y, out)
        return out * 2 + x

    compiled = torch.compile(graph)
    c.fill_(float("nan"))
    r = compiled(a, b, c)
    torch.cuda.synchronize()
    ok &= check("torch.compile graph calling torch.ops.tileslc.vector_add", torch.equal(r, (a + b) * 2 + a),
                "equal to (a + b) * 2 + a; schema %s" % tileslc.torch.schema(libs["vector_add"].vector_add))

    # The checks above are the C fast path's where it loads: each direct call went through it.
    fns = (libs["vector_add"].vector_add, libs["gemm_sm90"].gemm_sm90, libs["softmax"].softmax_8192)
    if all(f.fast_enabled for f in fns):
        ok &= check("C fast path took the calls above", all(f.fast_calls > 0 for f in fns),
                    "fast_calls %s" % ", ".join("%s %d" % (f.name, f.fast_calls) for f in fns))
        ok &= reader_checks(A, s)
    return ok


def reader_checks(A, side_stream):
    """Where the C++ torch reader is in use: the views it reads of CUDA tensors and the stream it
    finds (default and side stream) are those of the Python-level reads (_fastcall's test hooks)."""
    from tileslc import _fastcall_build
    fast = _fastcall_build.module()
    if not fast.torch_reader()[0]:
        return True
    cuda = dict(device="cuda")
    tensors = (A, A[1::3, 5:].t(), A[7, 9], torch.empty(0, **cuda), torch.ones(3), torch.ones(2, dtype=torch.cfloat, **cuda))
    same = all(fast.read_view(t, True, True) == fast.read_view(t, True, False) for t in tensors)
    device = torch.cuda.current_device()
    for stream in (torch.cuda.current_stream(), side_stream):
        with torch.cuda.stream(stream):
            want = torch.cuda.current_stream().cuda_stream
            same &= fast.current_stream(device, True) == want == fast.current_stream(device, False)
    return check("C++ torch reader reads as torch's accessors", same, "views of %d tensors, current stream on 2 streams"
                 % len(tensors))


def per_call_us(fn, calls):
    fn()  # warm
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def overhead(libs, calls):
    va = libs["vector_add"].vector_add
    a, b, c = (torch.randn(1, device="cuda") for _ in range(3))
    rows = []
    if va.fast_enabled:
        rows.append(("tileslc, C fast path", per_call_us(lambda: va(a, b, c), calls)))
        # The same reads, checks and stream lookup ending in a packed entry that does nothing:
        # the Python side of a fast-path call (the row above less this: launch + host function).
        twin = va._no_launch_twin()
        us = per_call_us(lambda: twin(a, b, c), calls)
        if twin.fast_calls == 5 * calls + 1:
            rows.append(("tileslc, fast path no launch", us))
        else:  # it went to the ctypes path, which launches: not the figure this row is for
            print("note: the no-launch twin left the fast path (%d of %d calls)" % (twin.fast_calls, 5 * calls + 1))
        # Where the C++ torch reader reads the tensors, both again with torch's Python accessors.
        from tileslc import _fastcall_build
        fast = _fastcall_build.module()
        if fast.torch_reader()[0] and fast.use_torch_reader(False) is False:
            try:
                full = per_call_us(lambda: va(a, b, c), calls)
                us = per_call_us(lambda: twin(a, b, c), calls)
            finally:
                fast.use_torch_reader(True)
            rows.append(("fast path, Python reads", full))
            if twin.fast_calls == 2 * (5 * calls + 1):
                rows.append(("no launch, Python reads", us))
    fast = va.fast_enabled
    va.fast_enabled = False
    rows.append(("tileslc, ctypes path", per_call_us(lambda: va(a, b, c), calls)))
    va.fast_enabled = fast
    op = getattr(torch.ops.tileslc, "vector_add", None)
    if op is not None:
        rows.append(("torch.ops.tileslc.vector_add", per_call_us(lambda: op(a, b, c), calls)))
    rows.append(("torch.add(a, b, out=c)", per_call_us(lambda: torch.add(a, b, out=c), calls)))
    print("\nhost cost per call, %d back-to-back calls, best of 5 (N = 1 vector_add)" % calls)
    print("fast path: %s" % tileslc.fast_path_status())
    print("fast path's tensor reads: %s" % tensor_reader())
    for name, us in rows:
        print("  %-28s %7.2f us" % (name, us))
    figures = dict(rows)
    if "tileslc, fast path no launch" in figures:
        print("  %-28s %7.2f us" % ("difference: launch + host", figures["tileslc, C fast path"]
                                    - figures["tileslc, fast path no launch"]))
    return rows


def tensor_reader():
    """Which reader the fast path's tensor reads go through (docs/python.md, "Call overhead")."""
    from tileslc import _fastcall_build
    fast = _fastcall_build.module()
    if fast is None:
        return "none (no fast path)"
    active, reads_stream, tensors = fast.torch_reader()
    if not active:
        return "torch's Python accessors (the C++ torch reader is not in use)"
    return "C++ torch reader (at::Tensor; %d tensors so far), stream via %s" % (
        tensors, "c10::cuda::getCurrentCUDAStream" if reads_stream else "torch._C._cuda_getCurrentRawStream")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prebuilt", help="directory with lib<sample>.so and .json built for this GPU")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--calls", type=int, default=20000)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("torch_demo: no CUDA GPU in PyTorch: not run")
        return 77
    libs = libraries(args.prebuilt, args.arch)
    ok = checks(libs)
    overhead(libs, args.calls)
    print("torch_demo: %s" % ("all checks passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
