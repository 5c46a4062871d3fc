#!/usr/bin/env bash
# tools/device/difffuzz.sh [PACK]: the GPU half of the differential fuzzer (docs/fuzzing.md) on a GPU
# machine that has python3 and CUDA (nvcc, the driver) but none of our build tools. Run from anywhere
# with the pack (tools/device/pack.sh, default .devbin) carried: its tc/tileslc generates the CUDA.
#   1. self-test: seed 2's 5 programs with one expected value perturbed; gpu-run must report it alone;
#   2. COUNT programs (default 10000) from SEED (default 100): gpu-prep builds one cubin per 100
#      programs on every core (nvcc -cubin; it starts no bundle after PREP_BUDGET_S, default 170 s),
#      then gpu-run launches every kernel through the CUDA driver and compares each result with
#      the model and each compile-time print with CPython's.
# Prints the counts (programs, results compared, disagreements) and the time; the full log is
# $OUT/difffuzz_gpu.log and a .tpy reproducer per disagreeing program goes to $OUT/difffuzz_repro.
# Exit status: the number of failed steps (0: the self-test reported its value and nothing disagreed).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$PWD/$pack/tc:$LD_LIBRARY_PATH"  # tileslc's libfmt and libspdlog
seed=${SEED:-100}
count=${COUNT:-10000}
work=$(mktemp -d /tmp/difffuzz_gpu.XXXXXX)
fuzz() { python3 tools/difffuzz.py gpu --tileslc "$pack/tc/tileslc" --jobs "$(nproc)" "$@"; }
t0=$SECONDS
echo "=== difffuzz self-test (--inject-wrong: the perturbed value, alone, must be reported)"
fuzz --seed 2 --count 5 --dir "$work/inject" --inject-wrong > "$out/difffuzz_inject.log" 2>&1
rc=$?
tail -2 "$out/difffuzz_inject.log"
[[ $rc -ne 0 ]] && { echo "rc=$rc"; grep -m 6 -A 1 '^DISAGREE\|failed' "$out/difffuzz_inject.log"; failed=$((failed + 1)); }
echo "=== difffuzz gpu: seed $seed, $count programs ($(nproc) cores)"
fuzz --seed "$seed" --count "$count" --dir "$work/main" --prep-budget-s "${PREP_BUDGET_S:-170}" \
     --save-reproducers "$out/difffuzz_repro" > "$out/difffuzz_gpu.log" 2>&1
rc=$?
grep -m 20 -A 1 '^DISAGREE' "$out/difffuzz_gpu.log"
grep -E '^difffuzz|^b[0-9]{5}: ' "$out/difffuzz_gpu.log" | head -20
echo "rc=$rc t=$((SECONDS - t0)) s"
[[ $rc -ne 0 ]] && failed=$((failed + 1))
rm -rf "$work"
exit "$failed"
