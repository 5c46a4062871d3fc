#!/usr/bin/env python3
"""The tuner end to end on the CPU emulator (docs/tuning.md; ctest tune.cpu_flow).

tiny_tune.tpy's space: 9 configurations, 1 pruned, 3 that do not compile, 1 that
computes the wrong result. Checks the database (statuses, checks, pruning,
decisions), the cache (a second run measures nothing), sharding and merging
(three shards merged hold every result of the sweep and decide from them), resuming
(a sweep killed midway keeps its results; a rerun measures only the rest), and
--tuned: the dispatching host function, linked with the runner, computes what
the reference does. Times are the emulator's: only the flow is tested.

Usage: test_tune_flow.py --tileslc build/bin/tileslc --runtime-lib build/lib --work DIR
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KERNEL = os.path.join(HERE, "tiny_tune.tpy")
SHAPES = os.path.join(HERE, "tiny_shapes.json")
sys.path.insert(0, os.path.dirname(HERE))
from script_util import fail, parse_args, run  # noqa: E402


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok:", msg)


def resume(a, tune):
    """A sweep killed midway (SIGKILL: no cleanup) keeps the results it had written, and a rerun
    with the same --db measures only the rest. The kill comes once the database holds a first
    result: the runs left take about a second each on the emulator, so some are always left."""
    db_path = os.path.join(a.work, "resume.json")
    for p in (db_path, db_path + ".tmp"):
        if os.path.exists(p):
            os.remove(p)
    cmd = tune + ["--db", db_path, "--work-dir", os.path.join(a.work, "build")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while proc.poll() is None and not os.path.exists(db_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    kept = json.load(open(db_path))["entries"] if os.path.exists(db_path) else []
    check(0 < len(kept) < 16, f"the killed sweep left a valid database with some of the 16 results ({len(kept)})")
    r = run(cmd)
    db = json.load(open(db_path))
    check(f"{len(kept)} cached" in r.stderr and f"{16 - len(kept)} new results" in r.stderr,
          f"the rerun reused the {len(kept)} results and measured the other {16 - len(kept)}")
    by_key = {e["key"]: e for e in db["entries"]}
    check(len(db["entries"]) == 16 and all(by_key.get(e["key"]) == e for e in kept),
          "the database holds all 16 results, the kept ones unchanged (not measured again)")
    check("timing" in db and len(db["decisions"]) == 2, "and the completed sweep decides both buckets")


def main():
    a = parse_args("--tileslc", "--runtime-lib")
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

    resume(a, tune)

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
    # verify: the tuned function against the sweep's time, then alternately with the decided
    # configuration built alone (--rounds 2: tuned, alone, tuned, alone).
    r = run([a.tileslc, "tune", "verify", KERNEL, "--db", db_path, "--target", "cpu", "--runtime-lib", a.runtime_lib,
             "--warmup", "1", "--iters", "2", "--rounds", "2", "--work-dir", os.path.join(a.work, "verify")])
    inter = [x for x in r.stdout.splitlines() if "interleaved x2: tuned " in x and " alone " in x]
    check(len(inter) == 2 and all(len(x.split("per round ")[1].split()) == 2 for x in inter),
          "verify timed the tuned function and each decision alone, interleaved, on both buckets")
    # Metrics: the tuned runner again with TILESLC_METRICS (and a peak bandwidth, which the CPU
    # emulator has none of), then the summary, its Prometheus form, and the metrics file as the
    # tuner's shape list.
    metrics = os.path.join(a.work, "metrics.jsonl")
    env = dict(os.environ, TILESLC_METRICS=metrics, TILESLC_PEAK_GBPS="0.5", TILESLC_PEAK_TFLOPS="0.25")
    r = subprocess.run([binary, "--param", "t:Float32:4096", "--param", "t:Float32:4096:w", "--iters", "3", "--warmup", "1"],
                       capture_output=True, text=True, env=env)
    lines = [json.loads(x) for x in open(metrics)]
    launches = [x for x in lines if "launch" in x]
    calls = [x for x in lines if "launch" not in x]
    check(r.returncode == 0 and len(launches) == 5 and all(x["ok"] and x["gpu_ms"] >= 0 and x["block"][0] in (64, 128) for x in launches)
          and all(x["kernel"].startswith("scale_kernel_tuned") for x in launches), "TILESLC_METRICS: one line per launch (1 + 1 warm-up + 3)")
    check(len(calls) == 5 and [x["call"] for x in calls] == list(range(5)) and [x["call"] for x in launches] == list(range(5))
          and all(x["function"].startswith("scale_tuned") for x in launches), "and one per call of the specialization, its launch numbered with it")
    c = calls[0]
    gbps = c["bytes"] / (c["gpu_ms"] * 1e-3) / 1e9
    check(all(x["extents"] == {"N": 4096} and x["bytes"] == 8 * 4096 and x["flops"] == 2 * 4096 and x["launches"] == 1 for x in calls)
          and abs(c["gbps"] - gbps) <= 1e-5 * gbps and abs(c["pct_peak_bw"] - 100 * c["gbps"] / 0.5) <= 1e-4 * c["pct_peak_bw"]
          and c["peak_gbps"] == 0.5 and abs(c["pct_peak_flops"] - 100 * c["tflops"] / 0.25) <= 1e-4 * c["pct_peak_flops"],
          f"a call line: extents, @cutlass.cost's bytes (8 N) and FLOPs (2 N), GB/s and % of peak ({c})")
    r = run([a.tileslc, "metrics", "summarize", metrics, "--json"])
    summary = json.loads(r.stdout)
    rows, fns = summary["kernels"], summary["functions"]
    check(len(rows) == 1 and rows[0]["launches"] == 5 and rows[0]["timed"] == 5, "tileslc metrics summarize counts the launches")
    total_ms = sum(x["gpu_ms"] for x in calls)
    check(len(fns) == 1 and fns[0]["calls"] == 5 and fns[0]["bytes"] == 5 * 8 * 4096 and fns[0]["flops"] == 5 * 2 * 4096
          and abs(fns[0]["gbps"] - 5 * 8 * 4096 / (total_ms * 1e-3) / 1e9) <= 1e-3 * fns[0]["gbps"] + 1e-3,
          "and the calls: bytes, FLOPs, GB/s over the timed calls")
    prom = os.path.join(a.work, "tileslc.prom")
    run([a.tileslc, "metrics", "summarize", metrics, "--prometheus", "-o", prom])
    text = open(prom).read()
    kernel = rows[0]["kernel"]
    check(f'tileslc_kernel_launches_total{{kernel="{kernel}"}} 5\n' in text and "# TYPE tileslc_kernel_launches_total counter" in text
          and f'tileslc_function_bytes_total{{function="{fns[0]["function"]}"}} 163840\n' in text
          and "# TYPE tileslc_function_achieved_bytes_per_second gauge" in text, "--prometheus: counters and gauges in the text format")
    bad_metrics = os.path.join(a.work, "bad.jsonl")
    with open(bad_metrics, "w") as f:
        f.write(open(metrics).readline() + "{not json\n")
    r = run([a.tileslc, "metrics", "summarize", bad_metrics], expect=2)
    check(f"{bad_metrics}:2: not a metrics line" in r.stderr, "a bad metrics line is an error at its line")
    from_metrics = [x for x in tune if x not in ("--shapes", SHAPES)] + ["--db", db_path, "--work-dir", os.path.join(a.work, "build")]
    r = run(from_metrics + ["--shapes-from-metrics", metrics])
    check("16 runs in all" not in r.stderr and "8 runs in all, 8 in shard 0/1, 8 cached" in r.stderr,
          f"--shapes-from-metrics: the one shape the calls had (N=4096), measured already ({r.stderr.splitlines()[0]})")
    r = run(from_metrics + ["--shapes-from-metrics", bad_metrics], expect=2)
    check(f"{bad_metrics}:2: not a metrics line" in r.stderr, "--shapes-from-metrics: a bad line is an error at its line")

    # tileslc bench: one configuration, the tuner's runner and build; and metrics off against on.
    bench = [a.tileslc, "bench", KERNEL, "--target", "cpu", "--runtime-lib", a.runtime_lib, "--warmup", "0", "--iters", "2",
             "--work-dir", os.path.join(a.work, "bench")]
    out = json.loads(run(bench + ["--shapes", "N=4096;N=1000", "--json", "-D", "THREADS=64"]).stdout)
    check(len(out) == 2 and all(x["status"] == "ok" and x["time_ms"] > 0 for x in out) and out[0]["config"]["THREADS"] == "64"
          and out[0]["bytes"] == 8 * 4096 and out[1]["flops"] == 2 * 1000
          and abs(out[0]["gbps"] - 8 * 4096 / (out[0]["time_ms"] * 1e-3) / 1e9) <= 1e-3 * out[0]["gbps"] + 1e-3,
          "tileslc bench: per shape the median time, @cutlass.cost's bytes and FLOPs, GB/s")
    out = json.loads(run(bench + ["--shapes", SHAPES, "--json", "--metrics-overhead", "--b2b", "3"]).stdout)
    check(len(out) == 2 and all(x["metrics_off"]["b2b_us"] > 0 and x["metrics_on"]["b2b_us"] > 0 and "overhead_pct" in x for x in out),
          "tileslc bench --metrics-overhead: calls back to back with metrics off and on")
    r = run(bench + ["--shapes", "N=4k"], expect=2)
    check("--shapes 'N=4k': shape 1: 'N=4k' is not NAME=NUMBER" in r.stderr, "bench: a bad inline shape is named")
    r = run(bench + ["--shapes", "M=4"], expect=2)
    check("--shapes: shape 1: 'M' is neither a symbolic extent (N)" in r.stderr, "bench: a name the function lacks is named")
    print("tune flow: 0 failed")


if __name__ == "__main__":
    main()
