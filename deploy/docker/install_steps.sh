#!/usr/bin/env bash
# install_steps.sh: the steps that make tileslc on a machine, shared by CI (tools/run_tests.sh
# runs `deps` and `build`) and the container images (deploy/docker/Dockerfile runs `deps`,
# `build`, `install` and `kernels`), so CI exercises what the images are built with.
#
#   install_steps.sh deps                    Debian packages (tools/bootstrap.sh)
#   install_steps.sh build [CMAKE_ARG...]    configure the `default` preset and build (build/)
#   install_steps.sh install PREFIX          cmake --install build --prefix PREFIX
#   install_steps.sh kernels PREFIX OUT      the kernels library (deploy/docker/kernels) built
#                                            against PREFIX's tileslc, installed into OUT
#
# Environment: TILESLC_JOBS (parallel jobs, default 2); TILESLC_ARCHS (kernels: the archs,
# ';'-separated, default "sm_80;sm_90a"); TILESLC_KERNELS_TARGET (kernels: cuda, or cpu for
# the CPU emulator, what CI's packaging.docker_steps uses without CUDA); TILESLC_SAMPLES
# (kernels: samples/NAME:OLDEST_ARCH entries); TILESLC_BUILD_DIR (kernels: its build directory,
# default OUT/../kernels-build); TILESLC_BUILD_TREE (install: the build tree, default build/).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jobs="${TILESLC_JOBS:-2}"

step="${1:-}"
shift || true
case "$step" in
  deps)
    "$root/tools/bootstrap.sh"
    ;;
  build)
    cd "$root"
    cmake --preset default "$@"
    cmake --build build -j"$jobs"
    ;;
  install)
    prefix="${1:?install PREFIX}"
    cmake --install "${TILESLC_BUILD_TREE:-$root/build}" --prefix "$prefix"
    ;;
  kernels)
    prefix="${1:?kernels PREFIX OUT}"
    out="${2:?kernels PREFIX OUT}"
    build="${TILESLC_BUILD_DIR:-$out/../kernels-build}"
    cmake -S "$root/deploy/docker/kernels" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
          -DTILESLC_REPO="$root" "-DTILESLC_ARCHS=${TILESLC_ARCHS:-sm_80;sm_90a}" \
          "-DTILESLC_KERNELS_TARGET=${TILESLC_KERNELS_TARGET:-cuda}" \
          "-DTILESLC_SAMPLES=${TILESLC_SAMPLES:-vector_add:sm_80;softmax:sm_80;gemm_sm90:sm_90a}"
    cmake --build "$build" -j"$jobs"
    cmake --install "$build" --prefix "$out"
    ;;
  *)
    echo "usage: install_steps.sh deps | build [CMAKE_ARG...] | install PREFIX | kernels PREFIX OUT" >&2
    exit 2
    ;;
esac
