#!/usr/bin/env bash
# tools/device/dense_gemm_bench.sh [PACK]: on the GPU machine, CuTe DSL's unchanged dense_gemm.py
# through tileslc at 8192^3 (BFloat16, 128x256 tiles) with cluster (1, 1) and (2, 1) (multicast B),
# next to samples/gemm_sm90 in the same run (its default kernel and gemm_sm90_cluster, 2x1
# clusters multicasting B): issue 14's ">= 0.95x gemm_sm90 at the same tile and cluster shape".
# Needs a pack made with CUTLASS=checkout (tools/device/pack.sh: bin/compat_dense_gemm*,
# bin/gemm_sm90). Each binary also checks its numerics (sampled entries against float64); two
# rounds, so that a clock ramp shows. Under 3 minutes on an H200.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
for round in 1 2; do
  echo "=== round $round"
  for b in compat_dense_gemm compat_dense_gemm_c21; do
    [[ -x "$pack/bin/$b" ]] || { echo "$b: not in $pack/bin (pack with CUTLASS=checkout)"; failed=$((failed + 1)); continue; }
    timeout 120 "$pack/bin/$b" --bench 2>&1 | grep -E '8192|FAIL|error' || failed=$((failed + 1))
  done
  # gemm_sm90's 8192^3 lines: its default kernel, and the cluster-vs-no-cluster interleaved ratio.
  timeout 300 "$pack/bin/gemm_sm90" 2>&1 | grep -E '8192x8192x8192|FAIL' || failed=$((failed + 1))
done
echo "dense_gemm_bench.sh: $failed failed"
exit $((failed > 0))
