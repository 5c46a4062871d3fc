#!/usr/bin/env python3
"""torch_attention.py: samples/attention_sm90 (FlashAttention-3-style forward attention) called
from PyTorch against torch SDPA with the cuDNN and the flash backends, all in one process on
torch's current stream, for the issue 18 table: BFloat16, batch x seqlen = 16K tokens, head dim
128 (seqlen 1024, 4096, 16384) and 64 (4096, 16384), causal and not, heads = 2048 / head_dim
(16 or 32). Our kernel is checked first against a float64 torch reference on a slice (O
relative to its largest entry, tolerance 1e-2, and the log-sum-exp); times are medians of
cudaEvent-timed calls after a warm-up. TFLOP/s counts 4 * B * H * S^2 * D, halved for causal.
Our kernel comes in five variants, each checked and timed in the same run: "base" (one CTA per
tile), "pp" (ping-pong between the consumer warpgroups on mbarriers; head dims 64 and 128),
"ppnb" (the same ping-pong on named barriers, bar.sync / bar.arrive; head dims 64 and 128),
"persistent" (a persistent grid walking the tiles in a static order, longest first for causal,
with ping-pong) and "dynamic" (causal, head dims 64 and 128: persistent CTAs take the next tile,
longest first, from a global counter in a workspace, with named-barrier ping-pong). Ratios are
the best of ours / cuDNN and / flash, and persistent / base.

    python3 tools/bench/attention/torch_attention.py --prebuilt DIR   # DIR/libattention_sm90.so
    python3 tools/bench/attention/torch_attention.py                  # builds it with tileslc.build
    ... [--reps N] [--json OUT.json] [--shapes hd:seq,...] [--variants base,pp,ppnb,persistent,dynamic]

Exit 0 when every check passes, 1 otherwise, 77 without torch or a CUDA GPU (compute
capability 9.0: the kernel is sm_90a)."""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.dirname(HERE))  # tools/bench: torch_timing

from torch_timing import median_ms  # noqa: E402

TOKENS = 16384
SHAPES = ((128, 1024), (128, 4096), (128, 16384), (64, 4096), (64, 16384), (256, 4096))
VARIANTS = {"base": "", "pp": "_pp", "ppnb": "_ppnb", "persistent": "_persistent", "dynamic": "_dynamic"}


def skip(why):
    print("torch_attention: %s: not run" % why)
    return 77


def ours_fn(lib, hd, causal, variant):
    """Our host function for (hd, causal, variant) on (B, S, H, D) torch tensors: views in the
    kernel's mode order (S, D, H, B) for Q, K, O and (D, S, H, B) for V, LSE (B, H, S) as (S, H, B).
    None when the library has no such function (e.g. pp at head dim 256, dynamic not causal).
    "dynamic" also takes its tile counter: two Int32 zeroed here once, which every call leaves zero."""
    f = getattr(lib, "attention_sm90_bf16_hd%d%s%s" % (hd, "_causal" if causal else "", VARIANTS[variant]), None)
    if f is None:
        return None
    if variant == "dynamic":
        import torch
        workspace = torch.zeros(2, device="cuda", dtype=torch.int32)

        def call_dynamic(q, k, v, o, lse, scale):
            f(q.permute(1, 3, 2, 0), k.permute(1, 3, 2, 0), v.permute(3, 1, 2, 0), o.permute(1, 3, 2, 0),
              lse.permute(2, 1, 0), workspace, scale)
        return call_dynamic

    def call(q, k, v, o, lse, scale):
        f(q.permute(1, 3, 2, 0), k.permute(1, 3, 2, 0), v.permute(3, 1, 2, 0), o.permute(1, 3, 2, 0),
          lse.permute(2, 1, 0), scale)
    return call


def check(torch, call, q, k, v, causal, scale):
    """Max relative error of O and of the LSE on batch 0, heads 0..1, against float64."""
    o = torch.full_like(q, float("nan"))
    B, S, H, D = q.shape
    lse = torch.full((B, H, S), float("nan"), device="cuda", dtype=torch.float32)
    call(q, k, v, o, lse, scale)
    torch.cuda.synchronize()
    qd, kd, vd = (x[0, :, :2].double().transpose(0, 1) for x in (q, k, v))  # (2, S, D)
    s = qd @ kd.transpose(1, 2) * scale
    if causal:
        s = s.masked_fill(torch.ones(S, S, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    ref_lse = torch.logsumexp(s, dim=-1)
    ref = torch.softmax(s, dim=-1) @ vd
    got = o[0, :, :2].double().transpose(0, 1)
    err_o = ((got - ref).abs().max() / ref.abs().max()).item()
    err_l = ((lse[0, :2].double() - ref_lse).abs().max() / ref_lse.abs().max()).item()
    return err_o, err_l


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prebuilt", help="directory holding libattention_sm90.so")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--json", help="write the results here as JSON")
    p.add_argument("--shapes", help="head_dim:seqlen pairs, comma-separated (default: the issue 18 table and 256:4096)")
    p.add_argument("--variants", default="base,pp,ppnb,persistent,dynamic", help="which of our variants to run, comma-separated")
    args = p.parse_args()
    try:
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as e:
        return skip("no torch (%s)" % e)
    if not torch.cuda.is_available():
        return skip("no CUDA GPU")
    if torch.cuda.get_device_capability()[0] != 9:
        return skip("needs a compute capability 9.0 GPU, found %d.%d" % torch.cuda.get_device_capability())
    import tileslc
    import tileslc.torch  # noqa: F401  (tensor arguments from torch)

    shapes = SHAPES
    if args.shapes:
        shapes = tuple(tuple(int(x) for x in s.split(":")) for s in args.shapes.split(","))
    lib = (tileslc.load(os.path.join(args.prebuilt, "libattention_sm90.so")) if args.prebuilt
           else tileslc.build(os.path.join(REPO, "samples", "attention_sm90", "attention_sm90.tpy"), arch="sm_90a"))
    variants = args.variants.split(",")
    for v in variants:
        if v not in VARIANTS:
            p.error("unknown variant %r (known: %s)" % (v, ", ".join(VARIANTS)))
    torch.manual_seed(0)
    print("%-4s %-6s %-7s %5s %3s %s %9s %9s  %7s %7s %7s  %s" % (
        "hd", "seq", "causal", "batch", "H", " ".join("%10s" % v for v in variants), "cudnn", "flash", "/cudnn", "/flash",
        "pers/base", "check (TFLOP/s; ratios: our best)"))
    ok, rows = True, []
    for hd, seq in shapes:
        for causal in (False, True):
            B, H = max(1, TOKENS // seq), 2048 // hd
            q, k, v = (torch.randn(B, seq, H, hd, device="cuda", dtype=torch.bfloat16) for _ in range(3))
            scale = 1.0 / math.sqrt(hd)
            flops = 4.0 * B * H * seq * seq * hd / (2 if causal else 1)
            row = {"head_dim": hd, "seqlen": seq, "causal": causal, "batch": B, "heads": H}
            o = torch.empty_like(q)
            lse = torch.empty(B, H, seq, device="cuda", dtype=torch.float32)
            checks = []
            for variant in variants:
                call = ours_fn(lib, hd, causal, variant)
                if call is None:
                    continue
                err_o, err_l = check(torch, call, q, k, v, causal, scale)
                good = err_o <= 1e-2 and err_l <= 1e-4  # NaN fails too
                ok &= good
                key = "tileslc" if variant == "base" else "tileslc_" + variant
                row.update({key + "_err_o": err_o, key + "_err_lse": err_l, key + "_correct": good})
                row[key] = flops / (median_ms(torch, lambda: call(q, k, v, o, lse, scale), args.reps) * 1e-3) / 1e12
                checks.append("%s %s (O %.1e, LSE %.1e)" % (variant, "ok" if good else "WRONG", err_o, err_l))
            # SDPA takes (B, H, S, D): transposed views of the same tensors.
            qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
            for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)):
                try:
                    with sdpa_kernel(backend):
                        ms = median_ms(torch, lambda: F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal, scale=scale), args.reps)
                    row[name] = flops / (ms * 1e-3) / 1e12
                except RuntimeError as e:
                    row[name + "_error"] = str(e).split("\n")[0]
            ours = [row[key] for key in row if key == "tileslc" or (key.startswith("tileslc_") and key[8:] in VARIANTS)]
            if ours:
                row["tileslc_best"] = max(ours)
            for key in ("cudnn", "flash"):
                if key in row and ours:
                    row["ratio_" + key] = row["tileslc_best"] / row[key]
            if "tileslc" in row and "tileslc_persistent" in row:
                row["ratio_persistent_base"] = row["tileslc_persistent"] / row["tileslc"]
            fmt = lambda key, w=9: ("%*.1f" % (w, row[key])) if key in row else "%*s" % (w, "-")  # noqa: E731
            ratio = lambda key: ("%7.3f" % row[key]) if key in row else "%7s" % "-"  # noqa: E731
            print("%-4d %-6d %-7s %5d %3d %s %s %s  %s %s %9s  %s" % (
                hd, seq, causal, B, H, " ".join(fmt("tileslc" if x == "base" else "tileslc_" + x, 10) for x in variants),
                fmt("cudnn"), fmt("flash"), ratio("ratio_cudnn"), ratio("ratio_flash"), ratio("ratio_persistent_base"),
                "; ".join(checks) or "-"), flush=True)
            rows.append(row)
            del q, k, v, o, lse
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "results": rows}, f, indent=1)
    print("torch_attention: %s" % ("all checks passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
