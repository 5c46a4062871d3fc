#!/usr/bin/env python3
"""The tuner's runner on its own (tools/tune/tune_runner.cpp; ctest tune.runner_selftest_cpu,
and on a GPU machine with --target cuda): its fill and its check, linked with a host function
that copies tensor 0 into tensor 1 and spoils the first K elements (runner_selftest_entry.cpp).

For every dtype, on a tensor of 32 MiB + 1003 elements (two chunks of the runner's staging):
the dump of an unspoiled run (the fill of seed 0, bit for bit), that run checked against its
own dump (no mismatch, no error), a run spoiling 7 elements checked against it (7 mismatches:
NaN in the float types) and an unspoiled run checked against the spoiled dump (7: a NaN
reference fails too). The results must equal runner_selftest.expected.json, recorded on the CPU
target, whose fill and check are host loops over the functions the GPU kernels run; so on a GPU
this shows the kernels fill the same bits and judge every element as the host does.
--record FILE writes the results instead. Exit 77 (skipped) when the CUDA runner finds no GPU.

Usage: runner_selftest.py --target cpu|cuda --runtime-include DIR --runtime-lib DIR --work DIR
                          [--arch sm_90a] [--nvcc nvcc] [--cxx c++] [--record FILE] [--dtypes A,B,...]
                          [--runner SOURCE]
--dtypes checks those only (the CPU ctest: two, for time); --runner another version of the
runner's source (an older one: the same results show the values did not change).
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(REPO, "tools", "tune", "tune_runner.cpp")
ENTRY = os.path.join(HERE, "runner_selftest_entry.cpp")
EXPECTED = os.path.join(HERE, "runner_selftest.expected.json")
DTYPES = {"Boolean": 1, "Int8": 1, "Int16": 2, "Int32": 4, "Int64": 8, "Uint8": 1, "Uint16": 2, "Uint32": 4, "Uint64": 8,
          "Float16": 2, "BFloat16": 2, "Float32": 4, "Float64": 8, "TFloat32": 4, "Float8E4M3FN": 1, "Float8E5M2": 1}
SPOILED = 7


def fail(msg):
    sys.exit("FAIL: " + msg)


def sh(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r


def build(a):
    binary = os.path.join(a.work, "runner")
    entry = "-DTILESLC_TUNE_ENTRY=runner_selftest_entry"
    if a.target == "cpu":
        sh([a.cxx, "-std=c++20", "-O2", "-fwrapv", "-DTILESLC_TUNE_CPU", entry, "-I", os.path.join(a.runtime_include, "tileslc", "cpu", "cuda"),
            "-I", a.runtime_include, a.runner, ENTRY, "-o", binary, os.path.join(a.runtime_lib, "libtileslc_rt_cpu.a"), "-lboost_context",
            "-pthread"])
    else:
        objs = [os.path.join(a.work, "runner.o"), os.path.join(a.work, "entry.o")]
        sh([a.nvcc, "-x", "cu", "-arch=" + a.arch, "-std=c++17", "-O2", entry, "-I", a.runtime_include, "-c", a.runner, "-o", objs[0]])
        sh([a.nvcc, "-std=c++17", "-O2", "-I", a.runtime_include, "-c", ENTRY, "-o", objs[1]])
        sh([a.nvcc] + objs + ["-o", binary, os.path.join(a.runtime_lib, "libtileslc_rt.a")])
    return binary


def run(binary, dtype, n, spoil, dump=None, reference=None):
    cmd = [binary, "--param", f"t:{dtype}:{n}", "--param", f"t:{dtype}:{n}:w", "--param", f"s:Int32:{spoil}", "--warmup", "0", "--iters", "1"]
    cmd += ["--dump", dump] if dump else []
    cmd += ["--reference", reference] if reference else []
    out = json.loads(sh(cmd).stdout.strip().splitlines()[-1])
    if not out.get("ok"):
        fail(f"{' '.join(cmd)}: {out}")
    return out.get("check")


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", choices=["cpu", "cuda"], required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--nvcc", default=os.environ.get("CUDACXX", "nvcc"))
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--record")
    ap.add_argument("--dtypes", help="comma-separated: check these only")
    ap.add_argument("--runner", default=RUNNER)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    binary = build(a)
    if a.target == "cuda":
        info = subprocess.run([binary, "--info"], capture_output=True, text=True)
        if '"ok": true' not in info.stdout:
            print(f"SKIP: no GPU for the CUDA runner: {info.stdout.strip()}")
            sys.exit(77)
    dtypes = a.dtypes.split(",") if a.dtypes else list(DTYPES)
    unknown = [d for d in dtypes if d not in DTYPES]
    if unknown:
        fail(f"--dtypes: unknown {', '.join(unknown)}")
    results = {}
    for dtype in dtypes:
        size = DTYPES[dtype]
        n = (32 << 20) // size + 1003
        clean, spoiled = os.path.join(a.work, "clean.bin"), os.path.join(a.work, "spoiled.bin")
        r = {"elements": n, "dump_sha256": None}
        run(binary, dtype, n, 0, dump=clean)
        r["dump_sha256"] = sha256(clean)
        r["self"] = run(binary, dtype, n, 0, reference=clean)
        r["spoiled"] = run(binary, dtype, n, SPOILED, dump=spoiled, reference=clean)
        r["against_spoiled"] = run(binary, dtype, n, 0, reference=spoiled)
        if not (r["self"]["pass"] and r["self"]["mismatches"] == 0 and r["self"]["max_abs_err"] == 0):
            fail(f"{dtype}: a run checked against its own dump: {r['self']}")
        for k in ("spoiled", "against_spoiled"):
            if r[k]["pass"] or r[k]["mismatches"] != SPOILED:
                fail(f"{dtype}: {k}: expected {SPOILED} mismatches, found {r[k]}")
        print(f"ok: {dtype}: {n} elements, fill {r['dump_sha256'][:16]}, {SPOILED} spoiled elements found both ways "
              f"(max |err| {r['spoiled']['max_abs_err']:g})")
        results[dtype] = r
    if a.record:
        with open(a.record, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
        print(f"runner selftest: recorded {a.record}")
        return
    expected = json.load(open(EXPECTED))
    bad = [d for d in dtypes if results[d] != expected.get(d)]
    for d in bad:
        print(f"FAIL: {d}: {a.target} gives {json.dumps(results[d])}\n  expected {json.dumps(expected.get(d))}")
    print(f"runner selftest ({a.target}): {len(bad)} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
