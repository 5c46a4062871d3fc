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
