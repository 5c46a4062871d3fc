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
