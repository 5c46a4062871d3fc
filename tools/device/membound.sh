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
cluster_sass softmax rmsnorm layernorm
echo "membound.sh: $failed failed"
exit $((failed > 0))
