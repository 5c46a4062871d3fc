#!/usr/bin/env bash
# tools/device/gemm.sh [PACK]: on a GPU machine (sm_90), the sm_90a GEMMs alone from what
# tools/device/pack.sh packed (default .devbin), in about 5 minutes on an H200 with 16 cores:
#   1. bin/gemm_sm90: every variant on the small, ragged, skinny (M = 16, 64, 128, 256 x 8192 x 8192,
#      split-K, with the check that partial tiles hold only C's rows) and square shapes against the
#      float64 reference, with TFLOP/s;
#   2. bin/gemm_fp8_sm90: E4M3 x E4M3 and E4M3 x E5M2, without and with 2x1 clusters multicasting B,
#      against the float64 reference of the dequantized inputs, with TFLOP/s at 4096^3 and 8192^3;
#   3. compute-sanitizer memcheck on both --small, when the machine has it (the split-K partials'
#      extent is checked by gemm_sm90 itself: its workspace starts poisoned);
#   4. the SASS of bin/gemm_fp8_sm90 (cuobjdump, when the machine has it): QGMMA instructions and their
#      shapes per kernel (4 a k-tile of 128: m64n128k32);
#   5. tileslc_bench (settle time BENCH_SETTLE_MS, default 150 ms): the "fastest tileslc" line of every
#      shape and precision, the rows of the BF16 dispatcher gemm_sm90_splitk and of the FP8 entries; the
#      whole table in $OUT/bench.log, JSON in $OUT/bench.json.
# Logs in $OUT (or /tmp). Exit 1 when a check fails.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
for n in gemm_sm90 gemm_fp8_sm90; do
  echo "=== $n"
  timeout 180 "$pack/bin/$n" >"$out/$n.log" 2>&1 || failed=$((failed + 1))
  echo "$(grep -c PASS "$out/$n.log") PASS, $(grep -c FAIL "$out/$n.log") FAIL"
  grep -E "FAIL|TFLOP|speedup|all checks|FAILED" "$out/$n.log"
done
for n in gemm_sm90 gemm_fp8_sm90; do sanitize memcheck "$n" --small; done
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [[ -n "$cuobjdump" ]]; then
  echo "=== SASS of gemm_fp8_sm90: QGMMA per kernel"
  "$cuobjdump" -sass "$pack/bin/gemm_fp8_sm90" >"$out/gemm_fp8_sm90.sass" 2>&1
  awk '/Function :/{name=$3} /QGMMA/{n[name]++; match($0, /QGMMA[.A-Z0-9x]*/); op[name]=substr($0, RSTART, RLENGTH)}
       END{for (k in n) print n[k], op[k], k}' "$out/gemm_fp8_sm90.sass"
fi
echo "=== tileslc_bench"
timeout 420 "$pack/bin/tileslc_bench" --settle-ms "${BENCH_SETTLE_MS:-150}" --json "$out/bench.json" >"$out/bench.log" 2>&1 ||
  failed=$((failed + 1))
grep -E "fastest tileslc|gemm_sm90_splitk |gemm_fp8|cuBLASLt E4M3|FAIL|all checks" "$out/bench.log"
echo "gemm.sh: $failed failed"
exit $((failed > 0))
