#!/usr/bin/env bash
# run_tests.sh: the test job (what CI runs, through .ci/run). Bootstraps,
# configures the `default` preset, builds everything (compiler, runtime,
# samples through tileslc and nvcc when CUDA is present, tests) and runs
# ctest. GPU tests (gpu.*) report "Skipped" on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TILESLC_JOBS:-2}"

# The same steps the container images are built with (deploy/docker/Dockerfile).
TILESLC_JOBS="$jobs" deploy/docker/install_steps.sh deps
TILESLC_JOBS="$jobs" deploy/docker/install_steps.sh build
ctest --preset default -j"$jobs"
