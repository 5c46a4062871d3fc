#!/usr/bin/env bash
# tools/tune/device_sweep.sh STEP: the samples' sweeps on a GPU machine that receives this
# working tree (docs/tuning.md, "The samples' sweeps"), one step a call, each well inside the
# device tool's 10 minutes per command:
#
#   pack         here, after `cmake --build build --target tileslc tileslc_rt`: .tunekit/ holds a
#                stripped tileslc (bin/), libtileslc_rt.a and tileslc's shared libraries (lib/),
#                laid out as a build tree (~12 MB); carry it
#   gemm I/N     there: gemm_sm90 over its 72 configurations, shard I of N (3 shards: about a minute
#                each; `gemm 0/1` is the whole sweep, ~3 minutes)
#   gemm-merge   merge the gemm shards, then time the --tuned gemm_sm90 on every bucket (verify)
#   gemm-quick   gemm_sm90 over its 72 configurations on tune_shapes_quick.json (no 8192^3), unsharded,
#                then verify
#   softmax      softmax_8192_tuned, unsharded, then verify
#   fp8          gemm_fp8_sm90 over its 80 configurations on 4096^3 and 8192^3, then verify
#   softmax-shards  the softmax sweep again as 3 shards, merged: its decisions against `softmax`'s
#   bench        tileslc bench: gemm_sm90 (hand-picked defaults) on the 4 tuning shapes and softmax_8192_tuned
#                on 3, as the sweep times them
#   metrics      tileslc bench --metrics-overhead on the same: metrics off against on (200 calls back to
#                back, per-call wall time), then the metrics file it wrote, summarized (text and Prometheus)
#
# The GPU machine needs nvcc and python3. Results stay in build/tune-results/ between calls
# (build/ is ignored, so the tool keeps it) and are copied to $OUT. Each sweep runs under
# `timeout ${TUNE_LIMIT:-540}` seconds: the tuner writes its database after every result, so a
# sweep cut there still reaches $OUT with what it measured, and the same step again resumes it
# (while the machine is warm: the builds and results are in build/).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ "${1:-}" == pack ]]; then
  rm -rf .tunekit && mkdir -p .tunekit/bin .tunekit/lib
  strip -o .tunekit/bin/tileslc build/bin/tileslc
  cp build/lib/libtileslc_rt.a .tunekit/lib/
  ldd build/bin/tileslc | awk '/spdlog|fmt/{print $3}' | xargs -r -I{} cp -L {} .tunekit/lib/
  du -sh .tunekit
  exit 0
fi
export LD_LIBRARY_PATH="$PWD/.tunekit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
T=.tunekit/bin/tileslc
R=build/tune-results
OUT=${OUT:-$R}
mkdir -p "$R" "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader || true
GEMM=(samples/gemm_sm90/gemm_sm90.tpy --function gemm_sm90 --shapes samples/gemm_sm90/tune_shapes.json --work-dir build/tune-work/gemm)
# SOFTMAX_SHAPES=samples/softmax/tune_shapes_quick.json leaves out M = 65536 (2 GiB in and out: ~1.5 s a
# run, most of it reading the reference's 2 GiB dump).
SOFTMAX=(samples/softmax/softmax.tpy --function softmax_8192_tuned --shapes "${SOFTMAX_SHAPES:-samples/softmax/tune_shapes.json}" --work-dir build/tune-work/softmax)
# sweep DB ARGS...: one sweep into DB, cut after TUNE_LIMIT seconds; DB (maybe partial) goes to $OUT.
sweep() {
  local db=$1 rc=0
  shift
  time timeout "${TUNE_LIMIT:-540}" "$T" tune "$@" --db "$db" || rc=$?
  [[ -f "$db" ]] && cp "$db" "$OUT/"
  [[ $rc == 124 ]] && echo "the sweep ran past TUNE_LIMIT=${TUNE_LIMIT:-540} s: $db keeps what it measured; run the step again to resume"
  return $rc
}
case "${1:-}" in
  gemm)
    shard=${2:?gemm I/N}
    sweep "$R/gemm_sm90.shard${shard%/*}.json" "${GEMM[@]}" --shard "$shard" -j "$(nproc)" ;;
  gemm-quick)
    sweep "$R/gemm_sm90.quick.json" "${GEMM[@]/tune_shapes.json/tune_shapes_quick.json}" -j "$(nproc)"
    "$T" tune verify samples/gemm_sm90/gemm_sm90.tpy --db "$R/gemm_sm90.quick.json" --work-dir build/tune-work/gemm-verify
    ;;
  gemm-merge)
    "$T" tune merge -o "$R/gemm_sm90.tune.json" "$R"/gemm_sm90.shard*.json
    "$T" tune verify samples/gemm_sm90/gemm_sm90.tpy --db "$R/gemm_sm90.tune.json" --work-dir build/tune-work/gemm-verify
    cp "$R/gemm_sm90.tune.json" "$OUT/" ;;
  fp8)
    sweep "$R/gemm_fp8_sm90.tune.json" samples/gemm_fp8_sm90/gemm_fp8_sm90.tpy --function gemm_fp8_sm90 -I samples/gemm_sm90 \
      --shapes samples/gemm_fp8_sm90/tune_shapes.json --work-dir build/tune-work/fp8 -j "$(nproc)"
    "$T" tune verify samples/gemm_fp8_sm90/gemm_fp8_sm90.tpy -I samples/gemm_sm90 --db "$R/gemm_fp8_sm90.tune.json" \
      --work-dir build/tune-work/fp8-verify
    ;;
  softmax)
    sweep "$R/softmax.tune.json" "${SOFTMAX[@]}" -j "$(nproc)"
    "$T" tune verify samples/softmax/softmax.tpy --db "$R/softmax.tune.json" --work-dir build/tune-work/softmax-verify
    ;;
  softmax-shards)
    for i in 0 1 2; do "$T" tune "${SOFTMAX[@]}" --shard "$i/3" --db "$R/softmax.shard$i.json" -q; done
    "$T" tune merge -o "$R/softmax.merged.json" "$R"/softmax.shard{0,1,2}.json
    python3 - "$R/softmax.tune.json" "$R/softmax.merged.json" <<'PY'
import json, sys
# The shards measure again, so a tie (configurations within noise) may break the other way:
# besides exact equality, judge each sharded pick by its time in the unsharded sweep itself.
whole, merged = (json.load(open(p)) for p in sys.argv[1:])
a, b = whole["decisions"], merged["decisions"]
key = lambda d: json.dumps(d["bucket"], sort_keys=True)
pick = lambda ds: sorted((key(d), json.dumps(d["config"], sort_keys=True)) for d in ds)
print("same decisions as the unsharded sweep:", pick(a) == pick(b))
times = {(key(e), json.dumps(e["config"], sort_keys=True)): e["time_ms"] for e in whole["entries"] if e.get("status") == "ok"}
worst = 1.0
for y in sorted(b, key=key):
    x = next(d for d in a if key(d) == key(y))
    t = times.get((key(y), json.dumps(y["config"], sort_keys=True)))
    ratio = t / x["time_ms"] if t else float("inf")
    worst = max(worst, ratio)
    print(y["bucket"], "unsharded", x["config"], x["time_ms"], "| sharded", y["config"], "its time in the unsharded sweep", t, "ratio %.4f" % ratio)
print("sharded picks within %.2f%% of the unsharded best, in the unsharded sweep's own times" % (100 * (worst - 1)))
PY
    cp "$R/softmax.merged.json" "$OUT/" ;;
  bench|metrics)
    GEMM_SHAPES=${GEMM_BENCH_SHAPES:-'M=128,N=8192,K=8192;M=4096,N=4096,K=4096;M=8192,N=8192,K=8192;M=1024,N=1024,K=1024'}
    SOFTMAX_SHAPES='M=1024;M=4096;M=16384'
    extra=()
    [[ "$1" == metrics ]] && extra=(--metrics-overhead --b2b 200)
    for k in gemm softmax; do
      if [[ $k == gemm ]]; then args=(samples/gemm_sm90/gemm_sm90.tpy --function gemm_sm90 --shapes "$GEMM_SHAPES")
      else args=(samples/softmax/softmax.tpy --function softmax_8192_tuned --shapes "$SOFTMAX_SHAPES"); fi
      rm -f "build/bench-work/$k/overhead.metrics.jsonl"
      time "$T" bench "${args[@]}" --work-dir "build/bench-work/$k" "${extra[@]}" -o "$OUT/$1.$k.json" || echo "tileslc bench exited $?"
      if [[ "$1" == metrics ]]; then
        m="build/bench-work/$k/overhead.metrics.jsonl"
        [[ -s "$m" ]] || continue
        wc -l "$m"; head -3 "$m"; grep -m2 '"extents"' "$m" || true
        "$T" metrics summarize "$m"
        "$T" metrics summarize "$m" --prometheus -o "$OUT/metrics.$k.prom"
        cp "$m" "$OUT/metrics.$k.jsonl"
      fi
    done ;;
  *) echo "usage: $0 pack | gemm I/N | gemm-merge | gemm-quick | fp8 | softmax | softmax-shards | bench | metrics" >&2; exit 2 ;;
esac
