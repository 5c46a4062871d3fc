#!/usr/bin/env bash
# tools/device/attention.sh [PACK]: on a GPU machine (sm_90), attention_sm90 alone from what
# tools/device/pack.sh packed (default .devbin), in about 4 minutes on an H200 with 16 cores:
#   1. bin/attention_sm90: every variant (first version, _pp, _ppnb, _persistent, _dynamic) on the small and full
#      shapes against the float64 reference (PASS/FAIL lines; the 2048-token case has 256 tiles, so
#      persistent CTAs take two each on 132 SMs);
#   2. compute-sanitizer memcheck and racecheck on bin/attention_sm90 --small, when the machine has it;
#   3. bin/named_barrier_gpu_test (bar.arrive, named-barrier turns) and tools/device/attention_sass.sh
#      (SASS instruction and barrier counts of the ping-pong and scheduler variants, spills);
#   4. tools/bench/attention/torch_attention.py --prebuilt: base, pp, ppnb, persistent and dynamic against torch
#      SDPA's cuDNN and flash backends in one process (TFLOP/s and ratios), JSON in $OUT/attention.json.
# Logs in $OUT (or /tmp). Exit 1 when a check fails.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
echo "=== attention_sm90"
timeout 240 "$pack/bin/attention_sm90" >"$out/attention_sm90.log" 2>&1 || failed=$((failed + 1))
grep -c PASS "$out/attention_sm90.log"
grep -v PASS "$out/attention_sm90.log" | tail -5
for tool in memcheck racecheck; do sanitize "$tool" attention_sm90 --small; done
if [[ -x "$pack/bin/named_barrier_gpu_test" ]]; then
  echo "=== named_barrier_gpu_test (bar.arrive hand-off and named-barrier ping-pong turns)"
  timeout 60 "$pack/bin/named_barrier_gpu_test" >"$out/named_barrier.log" 2>&1 || failed=$((failed + 1))
  tail -3 "$out/named_barrier.log"
fi
echo "=== attention_sass (SASS of _pp / _ppnb / _persistent / _dynamic; needs nvcc and cuobjdump)"
OUT="$out" timeout 120 tools/device/attention_sass.sh "$pack"
rc=$?
[[ $rc -ne 0 && $rc -ne 77 ]] && failed=$((failed + 1))
echo "=== torch_attention"
pylib_python 300 tools/bench/attention/torch_attention.py --prebuilt "$pack/pylib" \
  --json "$out/attention.json" || failed=$((failed + 1))
echo "attention.sh: $failed failed"
exit $((failed > 0))
