# Sourced by the tools/device/*.sh scripts that run on a GPU machine (`source .../common.sh "$@"`):
# goes to the repository root, takes the pack directory from the first argument (default .devbin,
# what tools/device/pack.sh packed) as $pack and the log directory from $OUT (or /tmp) as $out,
# puts the pack's libraries and CUDA's on LD_LIBRARY_PATH, prints the GPU's name and driver, and
# starts the count of failed steps, $failed, at 0.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
pack="${1:-.devbin}"
out="${OUT:-/tmp}"
export LD_LIBRARY_PATH="$PWD/$pack/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
failed=0

# pylib_python SECONDS SCRIPT [ARGS...]: python3 SCRIPT with the pack's Python extension libraries
# ($pack/pylib) loadable, killed after SECONDS.
pylib_python() {
  LD_LIBRARY_PATH="$PWD/$pack/pylib:$LD_LIBRARY_PATH" timeout "$1" python3 "${@:2}"
}

# sanitize TOOL BIN [ARGS...]: compute-sanitizer --tool TOOL on $pack/bin/BIN ARGS (log in
# $out/BIN_TOOL.log, its last two lines printed), when the machine has compute-sanitizer; a report
# (exit 3) or any other failure but the 120 s timeout counts in $failed.
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
sanitize() {
  [[ -n "$sanitizer" ]] || { echo "compute-sanitizer: not on this machine"; return 0; }
  local tool=$1 bin=$2 log="$out/$2_$1.log" rc
  echo "=== compute-sanitizer --tool $tool $bin ${*:3}"
  timeout 120 "$sanitizer" --tool "$tool" --error-exitcode 3 "$pack/bin/$bin" "${@:3}" >"$log" 2>&1
  rc=$?
  echo "rc=$rc"
  tail -2 "$log"
  [[ $rc -ne 0 && $rc -ne 124 ]] && failed=$((failed + 1))
  return 0
}

# cluster_sass SAMPLE...: the SASS of each packed sample (cuobjdump, when the machine has it): per
# cluster kernel (a name with _cluster_) its count of STAS, the SASS of st.async.shared::cluster
# (the distributed-shared-memory stores of the cluster exchange; SASS has no ST.ASYNC mnemonic),
# and its registers (cuobjdump -res-usage). A sample with no STAS at all counts in $failed.
cluster_sass() {
  local cuobjdump s
  cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
  [[ -n "$cuobjdump" ]] || { echo "cuobjdump: not on this machine: no SASS"; return 0; }
  for s in "$@"; do
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
}
