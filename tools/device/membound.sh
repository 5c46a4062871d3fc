#!/usr/bin/env bash
# tools/device/membound.sh [PACK]: issue 17's long rows on a GPU machine in about 2 minutes, from
# what tools/device/pack.sh packed (default .devbin; logs and JSON in $OUT, or /tmp):
# 1. tileslc_membound --ops softmax,rmsnorm,layernorm --cols 262144 --variants: the 512x262144
#    forwards, the default launch and each variant (samples/*/<op>_variants.h: cluster blocks,
#    threads, min_blocks_per_mp), each checked against float64 on every row, then timed against a
#    device-to-device copy of the same bytes in the same run ($OUT/membound_variants.json);
# 2. the SASS of the packed softmax, rmsnorm and layernorm samples (cuobjdump, when the machine
#    has it): per cluster kernel its count of STAS, the SASS of st.async.shared::cluster (the
#    distributed-shared-memory stores of the cluster exchange; SASS has no ST.ASYNC mnemonic), and
#    its registers (cuobjdump -res-usage).
# Exit 1 when a check or step failed.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
echo "=== tileslc_membound --ops softmax,rmsnorm,layernorm --cols 262144 --variants"
timeout 300 "$pack/bin/tileslc_membound" --ops softmax,rmsnorm,layernorm --cols 262144 --variants \
  --json "$out/membound_variants.json" 2>&1 | tee "$out/membound_variants.log" | grep -v PASS
[[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1))
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [[ -z "$cuobjdump" ]]; then
  echo "cuobjdump: not on this machine: no SASS"
else
  for s in softmax rmsnorm layernorm; do
    echo "=== SASS of $s's cluster kernels: STAS count, registers"
    "$cuobjdump" -sass "$pack/bin/$s" >"$out/$s.sass" 2>&1 || { failed=$((failed + 1)); continue; }
    "$cuobjdump" -res-usage "$pack/bin/$s" >"$out/$s.res" 2>&1 || true
    # One line per cluster kernel: STAS count, then the kernel's register line from -res-usage.
    awk '/Function : /{f=$3} f ~ /_cluster_/ && /[[:space:]]STAS[[:space:].]/{n[f]++}
         END{for (k in n) print n[k], k}' "$out/$s.sass" | sort -k2 | while read -r n f; do
      regs=$(grep -A1 "Function $f:" "$out/$s.res" | grep -o "REG:[0-9]*" | head -1)
      echo "STAS=$n $regs $f"
    done
    if ! grep -q "[[:space:]]STAS[[:space:].]" "$out/$s.sass"; then
      echo "$s: no STAS in its SASS; its store and sync mnemonics:"
      grep -oE "[[:space:]](ST|RED|SYNCS)[A-Z0-9_.]*" "$out/$s.sass" | sort | uniq -c
      failed=$((failed + 1))
    fi
  done
fi
echo "membound.sh: $failed failed"
exit $((failed > 0))
