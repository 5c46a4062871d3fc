#!/usr/bin/env bash
# tools/device/gemm_skinny.sh [PACK]: on a GPU machine (sm_90), the BF16 GEMM variants of issue 20
# (skinny M = 16, 64, 128, 256 x 8192 x 8192; 4096^3, 8192^3) against cuBLAS, from what
# tools/device/pack.sh packed (default .devbin), in about 2 minutes:
#   1. bin/gemm_sm90: every variant against the float64 reference (the fused split-K also bit for bit
#      against gemm_sm90_splitk and with its arrival counts back at zero after each call), with the
#      driver's own timings and the skinny split sweep (1, 2, 3, 4, 6, 8 slices, with and without
#      reduce_kernel);
#   2. compute-sanitizer memcheck on gemm_sm90 --small, when the machine has it (at most 120 s; SKIP_MEMCHECK=1
#      skips it);
#   3. tileslc_bench on the BF16 entries only (--entries), settle BENCH_SETTLE_MS (default 60 ms), BENCH_ROUNDS
#      blocks (default 5: 4096^3 and 8192^3 are within a few % of cuBLAS, where 3 rounds spread 5 %): each
#      variant's median next to the fastest cuBLAS call on every shape; table in $OUT/skinny_bench.log,
#      JSON in $OUT/skinny_bench.json.
# Logs in $OUT (or /tmp). Exit 1 when a check fails.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
echo "=== gemm_sm90"
timeout 150 "$pack/bin/gemm_sm90" >"$out/gemm_sm90.log" 2>&1 || failed=$((failed + 1))
echo "$(grep -c PASS "$out/gemm_sm90.log") PASS, $(grep -c FAIL "$out/gemm_sm90.log") FAIL"
grep -E "FAIL|all checks" "$out/gemm_sm90.log"
# The driver's own medians of the skinny shapes (the split sweep included), in its log: the fastest five a shape.
for m in 16 64 128 256; do
  grep -E "^[a-z0-9_()]+: ${m}x8192x8192: .*ms" "$out/gemm_sm90.log" | sort -t: -k3 -g | head -5 | cut -c1-72 | sed 's/^/  /'
done
[[ -n "${SKIP_MEMCHECK:-}" ]] || sanitize memcheck gemm_sm90 --small
echo "=== tileslc_bench (BF16 entries)"
entries=gemm_sm90,gemm_sm90_cluster,gemm_sm90_splitk,gemm_sm90_splitk_fused,gemm_sm90_splitk_fused_bn128,gemm_sm90_splitk_fused_bm64,gemm_sm90_streamk,gemm_sm90_streamk_bm64,gemm_sm90_bn128,gemm_sm90_bn64,gemm_sm90_bm64_bn64,gemm_sm90_auto
timeout 300 "$pack/bin/tileslc_bench" --entries "$entries" --settle-ms "${BENCH_SETTLE_MS:-60}" --rounds "${BENCH_ROUNDS:-5}" --launch-calls 1000 \
  --json "$out/skinny_bench.json" >"$out/skinny_bench.log" 2>&1 || failed=$((failed + 1))
grep -E "FAIL|all checks" "$out/skinny_bench.log"
# Per shape: the fastest cuBLAS call, then each entry's median and ratio to it, fastest first (from the
# JSON; the whole table is in the log).
python3 - "$out/skinny_bench.json" <<'PY' || true
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["gemm"] if "ratio_to_cublas" in r]
shape = lambda r: "%dx%dx%d" % (r["shape"]["M"], r["shape"]["N"], r["shape"]["K"])
for key in dict.fromkeys(shape(r) for r in rows):
    here = [r for r in rows if shape(r) == key]
    best = min((r for r in here if r["reference"]), key=lambda r: r["time_ms"], default=None)
    mine = sorted((r for r in here if not r["reference"]), key=lambda r: -r["ratio_to_cublas"])
    print("%s: cuBLAS %s" % (key, "%.4f ms" % best["time_ms"] if best else "-"))
    for r in mine:
        print("    %-30s %.4f ms %.3fx%s" % (r["impl"], r["time_ms"], r["ratio_to_cublas"], "" if r["status"] == "PASS" else " FAIL"))
PY
echo "gemm_skinny.sh: $failed failed"
exit $((failed > 0))
