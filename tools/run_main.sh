#!/usr/bin/env bash
# run_main.sh: the main job. Bootstraps, configures and builds tileslc, compiles
# samples/vector_add/vector_add.tpy through the build (the vector_add sample
# target runs tileslc and nvcc), prints the tileslc command line and the
# generated files, and runs build/bin/vector_add when a GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build   # the binary directory of the `default` preset

tools/bootstrap.sh
cmake --preset default
cmake --build "$build" -j2 --target tileslc

tpy=samples/vector_add/vector_add.tpy
if [[ ! -f "$tpy" ]]; then
  echo "run_main: $tpy does not exist yet: built the compiler only"
  exit 0
fi

if ninja -C "$build" -t query vector_add >/dev/null 2>&1; then
  # CUDA found: the sample target generates and compiles the kernels.
  cmake --build "$build" -j2 --target vector_add
  gen="$build/samples/tileslc_gen"
  echo "run_main: tileslc command line (from the build):"
  ninja -C "$build" -t commands "samples/tileslc_gen/vector_add.cu" | grep -- "vector_add.tpy" | tail -n1 |
    sed -e 's/^cd [^&]* && //' -e 's/ && [^ ]*cmake -E cmake_transform_depfile.*$//' | sed 's/^/  /'
  echo "run_main: generated files:"
  for f in "$gen"/vector_add.cu "$gen"/vector_add.h "$gen"/vector_add.json "$gen"/vector_add.d; do
    [[ -f "$f" ]] && echo "  $f ($(wc -l <"$f") lines)"
  done
  echo "run_main: running $build/bin/vector_add"
  set +e
  "$build/bin/vector_add"
  rc=$?
  set -e
  if [[ $rc -eq 77 ]]; then
    echo "run_main: vector_add built, but no GPU here: not run"
    exit 0
  fi
  exit $rc
else
  # No CUDA: the samples are not part of the build; run tileslc by hand to show its output.
  out="$build/run_main"
  mkdir -p "$out"
  cmd=("$build/bin/tileslc" "$tpy" -o "$out/vector_add.cu" -H "$out/vector_add.h"
       --emit-metadata "$out/vector_add.json" --arch sm_90a --depfile "$out/vector_add.d")
  echo "run_main: tileslc command line:"
  echo "  ${cmd[*]}"
  "${cmd[@]}"
  echo "run_main: generated files:"
  for f in "$out"/vector_add.cu "$out"/vector_add.h "$out"/vector_add.json "$out"/vector_add.d; do
    [[ -f "$f" ]] && echo "  $f ($(wc -l <"$f") lines)"
  done
  echo "run_main: no CUDA toolkit: vector_add built through tileslc only, not compiled with nvcc; no GPU here: not run"
fi
