#!/usr/bin/env bash
# run.sh: builds tileslc_bench (and the samples it links) in the `default`
# preset's build directory, then runs it from the repository root; arguments
# go to the bench (e.g. --json out.json). Needs CUDA (nvcc, cuBLAS) and, to
# run, a GPU: without one the bench exits 77, which this script passes on.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build   # the binary directory of the `default` preset

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake --preset default
fi
if ! ninja -C "$build" -t query tileslc_bench >/dev/null 2>&1; then
  echo "run.sh: $build has no tileslc_bench target: it is built only with the samples, when CUDA (nvcc) is found" >&2
  exit 1
fi
cmake --build "$build" -j"${TILESLC_JOBS:-2}" --target tileslc_bench
exec "$build/bin/tileslc_bench" "$@"
