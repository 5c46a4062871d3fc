#!/usr/bin/env bash
# tools/device/pending.sh STEP [PACK]: the open issues' GPU checks that have not run yet, grouped
# into calls of the device tool (each under its 10-minute limit; the session budget is 30 minutes,
# so run them in this order and stop where the budget ends). Carry the pack (tools/device/pack.sh,
# default .devbin) and, for the tune steps, .tunekit (tools/tune/device_sweep.sh pack).
#
#   a  issue 15: the differential fuzzer's GPU half over 10,000 programs (difffuzz.sh, <= ~4 min);
#      issue 17: the 512x262144 row-kernel variants against a copy and their STAS counts
#      (membound.sh, <= 150 s); issue 16: torch_demo with the C++ torch reader (<= 90 s)
#   b  issue 20: the BF16 skinny candidates against cuBLAS (gemm_skinny.sh, ~3 min), then the FP8
#      entries against cuBLASLt (now without scale pointers; <= 150 s)
#   c  issue 19: the tune runner's GPU fill/check self-test, then gemm_sm90's full sweep (72
#      configurations x 4 shapes, resumable: run `c` again on the same warm machine if it stops)
#   d  issue 19: merge/verify, the softmax sweep and its 3-shard check, metrics on/off
#   e  after the 2026-12-05 fixes: difffuzz's 10,000 programs again (issue 15), the long rows'
#      default launch (issue 17), gemm_sm90_auto on the skinny shapes (issue 20), metrics on/off
#      with deferred event reads (issue 19), then torch_membound.py in what time is left
#
# Each step prints what the issue's "done when" asks for; logs go to $OUT.
set -uo pipefail
case "${1:-}" in
  a|b|c|d|e) step=$1; shift ;;
  *) echo "usage: pending.sh a|b|c|d|e [PACK]${1:+ (no step '$1')}" >&2; exit 2 ;;
esac
source "$(dirname "$0")/common.sh" "$@"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$SECONDS
elapsed() { echo "--- ${step}: t=$((SECONDS - t0)) s"; }
case "$step" in
  a)
    PREP_BUDGET_S=150 timeout 260 bash tools/device/difffuzz.sh "$pack" || failed=$((failed + 1)); elapsed
    timeout 150 bash tools/device/membound.sh "$pack" || failed=$((failed + 1)); elapsed
    echo "=== torch_demo"
    TILESLC_FASTCALL_DEBUG=1 pylib_python 100 python/examples/torch_demo.py --prebuilt "$pack/pylib" 2>&1 | tail -30
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed ;;
  b)
    timeout 330 bash tools/device/gemm_skinny.sh "$pack" || failed=$((failed + 1)); elapsed
    echo "=== tileslc_bench (FP8 entries)"
    fp8=gemm_fp8_sm90,gemm_fp8_sm90_cluster,gemm_fp8_e4m3_e5m2_sm90,gemm_fp8_e4m3_e5m2_sm90_cluster
    timeout 180 "$pack/bin/tileslc_bench" --entries "$fp8" --settle-ms 60 --rounds 3 --json "$out/fp8_bench.json" \
      >"$out/fp8_bench.log" 2>&1 || failed=$((failed + 1))
    grep -E "skipped|fastest tileslc|FAIL|all checks|4096x4096x4096|8192x8192x8192" "$out/fp8_bench.log" | head -40; elapsed ;;
  c)
    echo "=== tune runner self-test (GPU fill and check)"
    timeout 120 python3 tests/tune/runner_selftest.py --target cuda --runtime-include runtime/include \
      --runtime-lib .tunekit/lib --work /tmp/rs 2>&1 | tail -18
    echo "=== gemm_sm90 sweep"
    TUNE_LIMIT=420 bash tools/tune/device_sweep.sh gemm 0/1 2>&1 | tr '\r' '\n' | grep -v '^\[' | tail -30; elapsed ;;
  d)
    bash tools/tune/device_sweep.sh gemm-merge 2>&1 | tail -8
    for s in softmax softmax-shards metrics; do
      echo "=== $s"
      TUNE_LIMIT=150 timeout 170 bash tools/tune/device_sweep.sh "$s" 2>&1 | tr '\r' '\n' | grep -v '^\[' | tail -25
    done; elapsed ;;
  e)
    PREP_BUDGET_S=120 timeout 170 bash tools/device/difffuzz.sh "$pack" || failed=$((failed + 1)); elapsed
    echo "=== tileslc_membound, the default launches, long rows"
    timeout 90 "$pack/bin/tileslc_membound" --ops softmax,rmsnorm,layernorm --cols 262144 2>&1 | tail -12; elapsed
    SKIP_MEMCHECK=1 BENCH_ROUNDS=3 timeout 160 bash tools/device/gemm_skinny.sh "$pack" 2>&1 | grep -E "PASS,|cuBLAS|gemm_sm90_auto|gemm_sm90 |failed" | head -40; elapsed
    echo "=== metrics"
    TUNE_LIMIT=80 timeout 90 bash tools/tune/device_sweep.sh metrics 2>&1 | tr '\r' '\n' | grep -E "metrics off|^(kernel|function|softmax|gemm)" | head -12; elapsed
    echo "=== torch_membound (eager)"
    pylib_python 150 tools/bench/membound/torch_membound.py --prebuilt "$pack/pylib" 2>&1 | tail -40; elapsed ;;
esac
echo "pending.sh $step: $failed failed"
exit $((failed > 0))
