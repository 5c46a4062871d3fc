#!/usr/bin/env python3
"""The tuner end to end on the CPU emulator (docs/tuning.md; ctest tune.cpu_flow).

tiny_tune.tpy's space: 9 configurations, 1 pruned, 3 that do not compile, 1 that
computes the wrong result. Checks the database (statuses, checks, pruning,
decisions), the cache (a second run measures nothing), sharding and merging
(three shards merged hold every result of the sweep and decide from them), and
--tuned: the dispatching host function, linked with the runner, computes what
the reference does. Times are the emulator's: only the flow is tested.

Usage: test_tune_flow.py --tileslc build/bin/tileslc --runtime-lib build/lib --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KERNEL = os.path.join(HERE, "tiny_tune.tpy")
SHAPES = os.path.join(HERE, "tiny_shapes.json")


def run(cmd, expect=0):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != expect:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}\n{r.stdout}\n{r.stderr}")
    return r


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)
    print("ok:", msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tileslc", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    tune = [a.tileslc, "tune", KERNEL, "--shapes", SHAPES, "--target", "cpu", "--runtime-lib", a.runtime_lib, "-j", "2",
            "--warmup", "1", "--iters", "2", "-q"]
    db_path = os.path.join(a.work, "db.json")
    r = run(tune + ["--db", db_path, "--work-dir", os.path.join(a.work, "build")])
    db = json.load(open(db_path))
    fn = db["functions"]["scale"]
    check(fn["configs"] == 8 and len(fn["pruned"]) == 1 and fn["pruned"][0]["config"] == {"THREADS": "128", "VALUES": "4"}
          and fn["pruned"][0]["reason"] == "512 elements per block: not wanted", "the prune predicate rejected (128, 4) with its reason")
    check(fn["reference"] == {"THREADS": "128", "VALUES": "1"}, "the reference is the function's defaults")
    entries = db["entries"]
    check(len(entries) == 16, f"8 configurations x 2 shapes = 16 results (found {len(entries)})")
    by_status = {}
    for e in entries:
        by_status.setdefault(e["status"], []).append(e)
    check(len(by_status.get("compile_error", [])) == 6 and all(e["config"]["THREADS"] == "2048" for e in by_status["compile_error"]),
          "THREADS=2048 failed to compile on both shapes, recorded")
    check(all("E0707" in e["error"] or "1024" in e["error"] for e in by_status["compile_error"]), "the compile error says why")
    bad = by_status.get("check_failed", [])
    check(len(bad) == 2 and all(e["config"] == {"THREADS": "64", "VALUES": "2"} for e in bad)
          and all(e["check"]["mismatches"] > 0 for e in bad), "(64, 2) failed the correctness check")
    ok = by_status.get("ok", [])
    check(len(ok) == 8 and all(e["check"] is None or e["check"]["pass"] for e in ok), "the other 4 configurations ran and passed")
    check(all(e["gbps"] is not None and e["bytes"] == 8 * e["shape"]["N"] and e["flops"] == 2 * e["shape"]["N"] for e in ok),
          "bytes= and flops= evaluated per shape")
    decisions = db["decisions"]
    check(len(decisions) == 2 and sorted(d["bucket"]["N"] for d in decisions) == [1000, 4096], "one decision per bucket")
    check(all(d["config"]["THREADS"] != "2048" and d["config"] != {"THREADS": "64", "VALUES": "2"} for d in decisions),
          "no decision picks a failed configuration")
    check(db["sweep"]["device"]["cuda_version"] == "cpu-emulator", "the device is the emulator")
    check("E0707" in r.stderr or "compile_error" in r.stderr, "failures are reported on stderr")

    # The cache: the same sweep again measures nothing.
    r = run(tune + ["--db", db_path, "--work-dir", os.path.join(a.work, "build")])
    db2 = json.load(open(db_path))
    check(db2["timing"]["runs"] == 0 and db2["timing"]["compiled"] == 0 and "16 cached" in r.stderr,
          "a second run reuses all 16 results: nothing compiled or run")
    check(db2["decisions"] == decisions, "and decides the same")

    # Shards, merged.
    shard_dbs = []
    for i in range(3):
        p = os.path.join(a.work, f"shard{i}.json")
        run(tune + ["--db", p, "--shard", f"{i}/3", "--work-dir", os.path.join(a.work, "build")])
        shard_dbs.append(p)
    merged = os.path.join(a.work, "merged.json")
    run([a.tileslc, "tune", "merge", "-o", merged] + shard_dbs)
    m = json.load(open(merged))
    check(sorted(e["key"] for e in m["entries"]) == sorted(e["key"] for e in entries)
          and sorted(e["item"] for e in m["entries"]) == list(range(16)), "the merged shards hold the sweep's 16 results, each once")
    check(len(m["decisions"]) == 2, "and decide per bucket")
    other = json.load(open(shard_dbs[1]))
    other["sweep"]["device"]["name"] = "another GPU"
    other_path = os.path.join(a.work, "other.json")
    json.dump(other, open(other_path, "w"))
    r = run([a.tileslc, "tune", "merge", "-o", merged, shard_dbs[0], other_path], expect=2)
    check(f"{other_path}: its sweep" in r.stderr and "differs" in r.stderr, "merging shards of different sweeps is refused")

    # --tuned: the dispatcher, run through the runner against the reference's output.
    gen = os.path.join(a.work, "tuned.cpp")
    run([a.tileslc, KERNEL, "--target=cpu", "--tuned", db_path, "-o", gen, "-H", os.path.join(a.work, "tuned.h")])
    text = open(gen).read()
    check("scale_tuned0(" in text and "tileslc_buckets" in text, "--tuned wrote a dispatcher and its specializations")
    inc = os.path.join(REPO, "runtime", "include")
    binary = os.path.join(a.work, "tuned_runner")
    run(["c++", "-std=c++20", "-O1", "-fwrapv", "-DTILESLC_TUNE_CPU", "-DTILESLC_TUNE_ENTRY=tileslc_scale_packed",
         "-I", os.path.join(inc, "tileslc", "cpu", "cuda"), "-I", inc, gen, os.path.join(REPO, "tools", "tune", "tune_runner.cpp"),
         os.path.join(a.runtime_lib, "libtileslc_rt_cpu.a"), "-lboost_context", "-pthread", "-o", binary])
    ref_dump = os.path.join(a.work, "ref.bin")
    ref_cfg = [d for d in os.scandir(os.path.join(a.work, "build", "configs", "scale"))
               if json.load(open(os.path.join(d.path, "config.json"))) == {"THREADS": "128", "VALUES": "1"}][0].path
    for n in (4096, 3000):  # a bucket, and an unseen shape (the nearest bucket's configuration)
        run([os.path.join(ref_cfg, "runner"), "--param", f"t:Float32:{n}", "--param", f"t:Float32:{n}:w", "--iters", "1", "--warmup", "0",
             "--dump", ref_dump])
        out = json.loads(run([binary, "--param", f"t:Float32:{n}", "--param", f"t:Float32:{n}:w", "--iters", "1", "--warmup", "0",
                              "--reference", ref_dump]).stdout)
        check(out["ok"] and out["check"]["pass"], f"the tuned scale() computes the reference's result for N={n}")
    # Metrics: the tuned runner again with TILESLC_METRICS, then the summary.
    metrics = os.path.join(a.work, "metrics.jsonl")
    env = dict(os.environ, TILESLC_METRICS=metrics)
    r = subprocess.run([binary, "--param", "t:Float32:4096", "--param", "t:Float32:4096:w", "--iters", "3", "--warmup", "1"],
                       capture_output=True, text=True, env=env)
    lines = [json.loads(x) for x in open(metrics)]
    check(r.returncode == 0 and len(lines) == 5 and all(x["ok"] and x["gpu_ms"] >= 0 and x["block"][0] in (64, 128) for x in lines)
          and all(x["kernel"].startswith("scale_kernel_tuned") for x in lines), "TILESLC_METRICS: one line per launch (1 + 1 warm-up + 3)")
    r = run([a.tileslc, "metrics", "summarize", metrics, "--json"])
    rows = json.loads(r.stdout)
    check(len(rows) == 1 and rows[0]["launches"] == 5 and rows[0]["timed"] == 5, "tileslc metrics summarize counts them")
    print("tune flow: 0 failed")


if __name__ == "__main__":
    main()
