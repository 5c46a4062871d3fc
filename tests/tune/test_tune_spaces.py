#!/usr/bin/env python3
"""The samples' tuning spaces as the compiler reports them (ctest tune.sample_spaces): the
sizes docs/tuning.md states, the pruned configurations' reasons, and each function's own
Constexpr values (the tuner's reference) among the configurations kept.

Usage: test_tune_spaces.py TILESLC
"""
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = [("samples/gemm_sm90/gemm_sm90.tpy", "gemm_sm90", 72, 24, ["M", "N", "K"]),
         ("samples/softmax/softmax.tpy", "softmax_8192_tuned", 15, 1, ["M"])]


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src, fname, kept, pruned, key in CASES:
            meta = os.path.join(tmp, "m.json")
            subprocess.run([sys.argv[1], os.path.join(REPO, src), "-o", os.path.join(tmp, "x.cu"), "--emit-metadata", meta], check=True)
            fn = next(h for h in json.load(open(meta))["host_functions"] if h["name"] == fname)
            t = fn["tune"]
            ref = {k: fn["constexprs"][k] for k in t["params"]}
            ok = (len(t["configs"]) == kept and len(t["pruned"]) == pruned and t["key"] == key and ref in t["configs"]
                  and all(p["reason"] for p in t["pruned"]))
            failures += not ok
            print(f"{'ok' if ok else 'FAIL'}: {fname}: {len(t['configs'])} configurations kept, {len(t['pruned'])} pruned "
                  f"(e.g. {t['pruned'][0]['reason'] if t['pruned'] else '-'}), reference {ref}")
    print(f"tune spaces: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
