#!/usr/bin/env bash
# tools/device/run.sh [PACK]: on a GPU machine, runs what tools/device/pack.sh packed (default
# .devbin): every GPU binary (its log in $OUT, or /tmp when OUT is unset; each prints PASS/FAIL
# lines and exits non-zero on a failed check), python/examples/torch_demo.py --prebuilt (torch
# tensors, a torch.compile graph, per-call host cost), tools/bench/membound/torch_membound.py (the row
# kernels against torch eager and a copy), tools/bench/attention/torch_attention.py (attention_sm90
# against torch SDPA's cuDNN and flash backends; JSON in $OUT/attention.json), then tileslc_bench's tables (kernel vs
# cuBLAS and device copy in the same process) and tileslc_membound's (softmax, RMSNorm, LayerNorm
# against a device copy). Prints one "=== name rc=N" line per binary.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
for b in "$pack"/bin/*; do
  n=$(basename "$b")
  [[ "$n" == tileslc_bench || "$n" == tileslc_membound ]] && continue
  timeout 300 "$b" >"$out/$n.log" 2>&1
  rc=$?
  echo "=== $n rc=$rc"
  tail -3 "$out/$n.log"
  [[ $rc -ne 0 ]] && failed=$((failed + 1))
done
echo "=== torch_demo"
pylib_python 600 python/examples/torch_demo.py --prebuilt "$pack/pylib" ||
  failed=$((failed + 1))
echo "=== torch_membound"
pylib_python 600 tools/bench/membound/torch_membound.py --prebuilt "$pack/pylib" ||
  failed=$((failed + 1))
echo "=== torch_attention"
pylib_python 600 tools/bench/attention/torch_attention.py --prebuilt "$pack/pylib" \
  --json "$out/attention.json" || failed=$((failed + 1))
echo "=== tileslc_bench"
timeout 600 "$pack/bin/tileslc_bench" 2>&1 | tee "$out/bench.log" | tail -60
echo "=== tileslc_membound"
timeout 600 "$pack/bin/tileslc_membound" --json "$out/membound.json" 2>&1 | tee "$out/membound.log" | grep -v PASS ||
  failed=$((failed + 1))
echo "run.sh: $failed failed"
exit $((failed > 0))
