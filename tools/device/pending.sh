#!/usr/bin/env bash
# tools/device/pending.sh STEP [PACK]: the open issues' GPU checks that have not run yet, grouped
# into calls of the device tool (each under its 10-minute limit; the session budget is 30 minutes,
# so run them in this order and stop where the budget ends). Carry the pack (tools/device/pack.sh,
# default .devbin) and, for the tune steps, .tunekit (tools/tune/device_sweep.sh pack).
#
#   a  issue 17: the long rows' softmax backward (against its variants) and cross-entropy forward
#      on the staged cluster path against a copy (tileslc_membound --variants), compute-sanitizer
#      memcheck and racecheck of the softmax and cross_entropy samples at --small, then
#      torch_membound.py --compile (torch eager and torch.compile in the same process)
#   b  issue 19: gemm_sm90's sweep (72 configurations x 4 shapes; the progress lines kept in
#      $OUT/gemm_sweep.log), merged and verified with the tuned function and each decision built
#      alone run alternately (tune verify --rounds), then the softmax sweep and its verify
#   c  issue 17: the RMSNorm backward (next row staged while this one is reduced; long rows over
#      a cluster with staged shares) against its `rows` variant (the kernels before) and a copy,
#      then against torch eager and torch.compile, compute-sanitizer on the rmsnorm sample at
#      --small, the STAS count of every cluster kernel of softmax, rmsnorm and cross_entropy
#      (the new backward and cross-entropy ones included); with FULL=1 also tileslc_membound's whole default table (~5 more minutes)
#   d  issue 20: gemm_fp8_sm90's sweep (80 configurations: tile width, stages, grouping, promotion
#      interval, staggered promotion, 2x1 clusters; 4096^3 and 8192^3) and verify, what promotion
#      costs (tileslc bench with PROMOTE=0 against the default), then tileslc_bench's FP8 entries
#      against cuBLASLt in one process. Needs .tunekit
#   e  c and d's most wanted steps in one call (~9 minutes, for a session that may get one): the
#      RMSNorm backward's variants, the FP8 sweep (TUNE_LIMIT=150), torch for the RMSNorm backward,
#      FP8 against cuBLASLt, then the sanitizers and the SASS
#   f  issue 18 after fastmath exp2, the first k-block's wgmma overwriting S and descriptors encoded
#      once per operand: attention_sm90's driver (every variant against the reference), ncu of
#      the _pp kernel at head dim 128 / 4096 tokens (tools/device/attention_ncu.sh: tensor-pipe use,
#      issue slots, the SASS opcode counts), torch_attention.py (pp, ppnb, persistent, dynamic
#      against cuDNN and flash), compute-sanitizer at --small, then tileslc_bench's BF16 and FP8
#      GEMMs against cuBLAS (the descriptor change is theirs too)
#   g  issue 17: compute-sanitizer on the rmsnorm sample at --small, the 8192-column forwards and
#      softmax backward, then tileslc_membound --sweep (softmax, RMSNorm, LayerNorm and the softmax
#      and RMSNorm backwards at N = 256 to 65536, about 1 GiB each, against a copy; ~350 s on an
#      H100 machine's 16 cores, 2026-12-06; stopped at its 390 s limit, it has printed the rows it finished)
#   h  issue 17: torch_membound.py --sweep --compile for the forwards, i for the backwards (g's
#      shapes against torch eager and torch.compile in the same process; one torch.compile a row)
#   j  issue 17: the RMSNorm backward after stage_dw (the Float32 dw partial kept in shared memory
#      over a slot's rows at 16384 and 65536 columns) and the default slots of short rows:
#      compute-sanitizer on the rmsnorm sample at --small, tileslc_membound --sweep --ops
#      rmsnorm_bwd (before, 2026-12-06: 0.735/0.653 at 16384, 0.812/0.510 at 65536), then its
#      default table (8192 and 262144 unchanged: 0.991, 0.972, 0.949, 0.883)
#
# Each step prints what the issue's "done when" asks for; logs go to $OUT.
set -uo pipefail
case "${1:-}" in
  a|b|c|d|e|f|g|h|i|j) step=$1; shift ;;
  -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
  *) echo "usage: pending.sh a|b|c|d|e|f|g|h|i|j [PACK] (--help: what each step runs)${1:+ (no step '$1')}" >&2; exit 2 ;;
esac
source "$(dirname "$0")/common.sh" "$@"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$SECONDS
elapsed() { echo "--- ${step}: t=$((SECONDS - t0)) s"; }
# The steps of c and d (e runs the most wanted of both in one call).
rn_variants() {
  echo "=== tileslc_membound --variants: rmsnorm_bwd"
  timeout 90 "$pack/bin/tileslc_membound" --ops rmsnorm_bwd --variants --json "$out/membound_rn.json" 2>&1 | grep -v PASS | tail -10
  [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed
}
rn_torch() {
  echo "=== torch_membound --compile: rmsnorm_bwd"
  pylib_python 150 tools/bench/membound/torch_membound.py --prebuilt "$pack/pylib" --compile --ops rmsnorm_bwd 2>&1 |
    grep -v -E "^(W|I)[0-9]{4}|warn" | tail -8; elapsed
}
rn_sanitize() {
  for t in memcheck racecheck; do sanitize $t rmsnorm --small; done
  cluster_sass softmax rmsnorm cross_entropy; elapsed
}
membound_all() {
  echo "=== tileslc_membound (every default)"
  timeout 330 "$pack/bin/tileslc_membound" --json "$out/membound_c.json" 2>&1 | grep -v PASS | tail -40
  [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed
}
fp8_sweep() {
  echo "=== gemm_fp8_sm90 sweep"
  TUNE_LIMIT=${TUNE_LIMIT:-300} timeout $((${TUNE_LIMIT:-300} + 100)) bash tools/tune/device_sweep.sh fp8 > "$out/fp8_sweep.log" 2>&1 ||
    failed=$((failed + 1))
  grep '^\[' "$out/fp8_sweep.log" | sed -n '1p;$p'; grep -v '^\[' "$out/fp8_sweep.log" | tail -16; elapsed
}
fp8_promote() {
  echo "=== what promotion costs: tileslc bench gemm_fp8_sm90, PROMOTE=0 (none) against the default"
  for d in PROMOTE=0 PROMOTE=4; do
    LD_LIBRARY_PATH="$PWD/.tunekit/lib:$LD_LIBRARY_PATH" timeout 90 .tunekit/bin/tileslc bench samples/gemm_fp8_sm90/gemm_fp8_sm90.tpy \
      -I samples/gemm_sm90 --function gemm_fp8_sm90 -D "$d" --work-dir "build/bench-work/fp8-$d" \
      --shapes 'M=4096,N=4096,K=4096,scale_a=1,scale_b=1;M=8192,N=8192,K=8192,scale_a=1,scale_b=1' 2>&1 | tail -4
  done; elapsed
}
fp8_bench() {
  echo "=== tileslc_bench: FP8 against cuBLASLt"
  timeout 200 "$pack/bin/tileslc_bench" --entries gemm_fp8_sm90,gemm_fp8_sm90_auto,gemm_fp8_e4m3_e5m2_sm90,gemm_fp8_e4m3_e5m2_sm90_auto \
    --settle-ms 60 --json "$out/bench_fp8.json" > "$out/bench_fp8.log" 2>&1 || failed=$((failed + 1))
  grep -E "fastest|gemm_fp8|cuBLASLt|FAIL" "$out/bench_fp8.log" | head -30; elapsed
}
case "$step" in
  a)
    echo "=== tileslc_membound --variants: softmax_bwd, xent"
    timeout 200 "$pack/bin/tileslc_membound" --ops softmax_bwd,xent --variants --json "$out/membound_a.json" 2>&1 | tail -24
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed
    for t in memcheck racecheck; do sanitize $t softmax --small; sanitize $t cross_entropy --small; done; elapsed
    echo "=== torch_membound --compile"
    pylib_python 330 tools/bench/membound/torch_membound.py --prebuilt "$pack/pylib" --compile --reps 20 2>&1 |
      grep -v -E "^(W|I)[0-9]{4}|warn" | tail -40; elapsed ;;
  b)
    echo "=== gemm_sm90 sweep"
    TUNE_LIMIT=330 bash tools/tune/device_sweep.sh gemm 0/1 > "$out/gemm_sweep.log" 2>&1 || failed=$((failed + 1))
    grep '^\[' "$out/gemm_sweep.log" | sed -n '1,2p;$p'; grep -v '^\[' "$out/gemm_sweep.log" | tail -14; elapsed
    echo "=== gemm merge and verify (interleaved)"
    timeout 150 bash tools/tune/device_sweep.sh gemm-merge 2>&1 | tail -12; elapsed
    echo "=== softmax sweep and verify"
    TUNE_LIMIT=80 timeout 150 bash tools/tune/device_sweep.sh softmax > "$out/softmax_sweep.log" 2>&1 || failed=$((failed + 1))
    grep '^\[' "$out/softmax_sweep.log" | sed -n '1p;$p'; grep -v '^\[' "$out/softmax_sweep.log" | tail -14; elapsed ;;
  c) rn_variants; rn_torch; rn_sanitize; [[ -n "${FULL:-}" ]] && membound_all ;;
  d) fp8_sweep; fp8_promote; fp8_bench ;;
  e) rn_variants; TUNE_LIMIT=${TUNE_LIMIT:-150} fp8_sweep; rn_torch; fp8_bench; rn_sanitize ;;
  f)
    echo "=== attention_sm90 (every variant against the float64 reference)"
    timeout 150 "$pack/bin/attention_sm90" >"$out/attention_sm90.log" 2>&1; rc=$?
    [[ $rc -ne 0 && $rc -ne 124 ]] && failed=$((failed + 1))
    echo "rc=$rc PASS=$(grep -c PASS "$out/attention_sm90.log") FAIL=$(grep -c FAIL "$out/attention_sm90.log")"
    grep FAIL "$out/attention_sm90.log" | head -5; elapsed
    mkdir -p "$out/ncu"; OUT="$out/ncu" timeout 200 bash tools/device/attention_ncu.sh "$pack" 2>&1 | head -24; elapsed
    echo "=== torch_attention"
    pylib_python 300 tools/bench/attention/torch_attention.py --prebuilt "$pack/pylib" --variants pp,ppnb,persistent,dynamic \
      --json "$out/attention.json" 2>&1 | tail -32 || failed=$((failed + 1)); elapsed
    for t in memcheck racecheck; do sanitize $t attention_sm90 --small; done; elapsed
    echo "=== tileslc_bench: BF16 and FP8 GEMMs against cuBLAS"
    timeout 150 "$pack/bin/tileslc_bench" --entries gemm_sm90,gemm_sm90_cluster,gemm_fp8_sm90,gemm_fp8_sm90_auto \
      --settle-ms 60 --json "$out/bench_gemm.json" > "$out/bench_gemm.log" 2>&1 || failed=$((failed + 1))
    grep -E "fastest|gemm_|cuBLAS|FAIL" "$out/bench_gemm.log" | head -30; elapsed ;;
  g)
    for t in memcheck racecheck; do sanitize $t rmsnorm --small; done; elapsed
    echo "=== tileslc_membound --cols 8192 (BFloat16 rows now over 256 threads of 4 vectors)"
    timeout 60 "$pack/bin/tileslc_membound" --cols 8192 --ops softmax,rmsnorm,layernorm,softmax_bwd 2>&1 | grep -v PASS | tail -10
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed
    echo "=== tileslc_membound --sweep"
    timeout 390 "$pack/bin/tileslc_membound" --sweep --json "$out/membound_sweep.json" 2>&1 | grep -v PASS | tail -56
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed ;;
  j)
    for t in memcheck racecheck; do sanitize $t rmsnorm --small; done; elapsed
    echo "=== tileslc_membound --sweep --ops rmsnorm_bwd"
    timeout 200 "$pack/bin/tileslc_membound" --sweep --ops rmsnorm_bwd --json "$out/membound_rn_sweep.json" 2>&1 | grep -v PASS
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed
    rn_variants ;;
  h|i)
    ops=softmax,rmsnorm,layernorm
    [[ $step == i ]] && ops=softmax_bwd,rmsnorm_bwd
    echo "=== torch_membound --sweep --compile --ops $ops"
    pylib_python 540 tools/bench/membound/torch_membound.py --prebuilt "$pack/pylib" --sweep --compile --reps 10 \
      --ops "$ops" 2>&1 | grep -v -E "^(W|I)[0-9]{4}|warn" | tail -34
    [[ ${PIPESTATUS[0]} -ne 0 ]] && failed=$((failed + 1)); elapsed ;;
esac
echo "pending.sh $step: $failed failed"
exit $((failed > 0))
