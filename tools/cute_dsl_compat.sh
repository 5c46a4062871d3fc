#!/usr/bin/env bash
# cute_dsl_compat.sh CUTLASS_CHECKOUT [--all] [--only NAME] [--gpu-out DIR [--gpu-only]]: how many of CuTe DSL's
# own examples compile unchanged through tileslc (issue 14, docs/cute_dsl_compat.md).
#
# For each of the six examples of issue 14, the wrapper tests/cute_dsl/<example>_aot.tpy (our
# typed @cute.jit entry, importing the unchanged example through -I <example dir>) is
#   1. compiled by tileslc for the example's GPU (sm_80 ampere, sm_90a hopper),
#   2. built with nvcc (tileslc -c; skipped with a note where nvcc is missing),
#   3. compiled for the CPU emulator (--target=cpu), linked with our driver
#      tests/cute_dsl/<example>_aot_main.cpp and run: it checks the numerics against float64.
# One line per example: `PASS name` or `FAIL name: <first diagnostic line>`, then `N/6 pass`.
# Then the same for the cluster variants of dense_gemm (its wrapper with cluster_shape_mn (2, 1),
# (1, 2), (2, 2): multicast TMA; tests/cute_dsl/dense_gemm_c<MN>_aot.tpy) and `N/3 cluster
# variants pass`.
# With --all, every other non-Blackwell example under examples/python/CuTeDSL/cute/ is imported by
# a generated wrapper (so its module code runs, as on import) and compiled for its architecture;
# the count and each failure's first diagnostic follow.
# With --gpu-out DIR, each of the six that compiles also gets a GPU executable DIR/compat_<name>
# (its driver and the nvcc-built output, linked with libtileslc_rt.so of BUILD): the same checks on
# a GPU, for a machine without tileslc (tools/device/pack.sh puts them in its bin/). --gpu-only
# (with --gpu-out) does only what those executables need, step 1 and their nvcc build (not the
# separate `tileslc -c` of step 2 nor step 3): PASS then means the executable was built.
#
# Environment: TILESLC (default build/bin/tileslc), BUILD (default build: libtileslc_rt_cpu.a is
# built there when missing), CXX (default g++), NVCC (default nvcc), KEEP=1 keeps the work dir.
# --only NAME runs that one of the six or of the variants (ctest's compat.NAME, tests/cute_dsl_compat.cmake).
# Exit status: 0 when all six and the variants (or NAME) pass, 1 otherwise, 2 on usage errors.
set -uo pipefail

usage() { echo "usage: $0 CUTLASS_CHECKOUT [--all] [--only NAME] [--gpu-out DIR [--gpu-only]]" >&2; exit 2; }
[ $# -ge 1 ] || usage
cutlass="$1"; shift
all=0 only="" gpu_out="" gpu_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --all) all=1 ;;
    --only) [ $# -ge 2 ] || usage; only="$2"; shift ;;
    --gpu-out) [ $# -ge 2 ] || usage; gpu_out="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    --gpu-only) gpu_only=1 ;;
    *) usage ;;
  esac
  shift
done
[ "$gpu_only" = 0 ] || [ -n "$gpu_out" ] || usage
root="$(cd "$(dirname "$0")/.." && pwd)"
examples="$cutlass/examples/python/CuTeDSL/cute"
[ -d "$examples" ] || { echo "$0: no $examples (is $cutlass an NVIDIA/cutlass checkout?)" >&2; exit 2; }
tileslc="${TILESLC:-$root/build/bin/tileslc}"
build="${BUILD:-$root/build}"
cxx="${CXX:-g++}"
nvcc="${NVCC:-nvcc}"
[ -x "$tileslc" ] || { echo "$0: no tileslc at $tileslc (set TILESLC)" >&2; exit 2; }
work="$(mktemp -d)"
[ "${KEEP:-0}" = 1 ] && echo "work dir: $work" || trap 'rm -rf "$work"' EXIT

# The first diagnostic of a failed step: tileslc's first `error[...]` line, else the first line.
first_diagnostic() {
  local line
  line="$(grep -m1 -E 'error(\[|:)' "$1")"
  [ -n "$line" ] || line="$(grep -m1 -v '^\s*$' "$1")"
  echo "${line:-no output}" | sed "s|$work/||g; s|$examples/||g"
}

rt_cpu="$build/lib/libtileslc_rt_cpu.a"
have_rt_cpu() {
  [ -f "$rt_cpu" ] || cmake --build "$build" --target tileslc_rt_cpu >"$work/rt_cpu.log" 2>&1
  [ -f "$rt_cpu" ]
}

# run_example NAME PATH-UNDER-cute ARCH: one PASS/FAIL line; returns 0 on PASS.
run_example() {
  local name="$1" path="$2" arch="$3"
  local dir="$examples/$(dirname "$path")" wrapper="$root/tests/cute_dsl/${name}_aot.tpy"
  local driver="$root/tests/cute_dsl/${name}_aot_main.cpp" out="$work/$name"
  mkdir -p "$out"
  if [ ! -f "$examples/$path" ]; then echo "FAIL $name: $path is not in this checkout"; return 1; fi
  if ! "$tileslc" "$wrapper" -I "$dir" --arch "$arch" --color never -o "$out/${name}_aot.cu" -H "$out/${name}_aot.h" \
      >"$out/tileslc.log" 2>&1; then
    echo "FAIL $name: $(first_diagnostic "$out/tileslc.log")"; return 1
  fi
  if command -v "$nvcc" >/dev/null 2>&1; then
    if [ "$gpu_only" = 0 ] && ! "$tileslc" "$wrapper" -I "$dir" --arch "$arch" --color never -c -o "$out/${name}_aot.o" >"$out/nvcc.log" 2>&1; then
      echo "FAIL $name: nvcc: $(first_diagnostic "$out/nvcc.log")"; return 1
    fi
    if [ -n "$gpu_out" ]; then
      # -cudart shared: the kernels register with the one CUDA runtime libtileslc_rt.so calls; with
      # nvcc's default static runtime, cudaFuncSetAttribute in libtileslc_rt answered "invalid
      # resource handle" for every kernel over 48 KB of shared memory (H200 run of 2026-12-05).
      local gencode="-gencode=arch=compute_80,code=[sm_80,compute_80]"  # PTX too: sm_80 SASS does not run on sm_90
      [ "$arch" = sm_90a ] && gencode="-gencode=arch=compute_90a,code=sm_90a"
      if ! "$nvcc" -std=c++17 -O2 "$gencode" -cudart shared -I "$root/runtime/include" -I "$out" -I "$root/samples/common" \
          -I "$root/tests/cute_dsl" -x cu "$driver" "$out/${name}_aot.cu" -L "$build/lib" -ltileslc_rt \
          -o "$gpu_out/compat_$name" >"$out/gpu.log" 2>&1; then
        echo "FAIL $name: GPU driver build: $(first_diagnostic "$out/gpu.log")"; return 1
      fi
    fi
  elif [ "$gpu_only" = 1 ]; then
    echo "FAIL $name: no nvcc ($nvcc) to build the GPU executable"; return 1
  else
    echo "note: $name: no nvcc ($nvcc): the CUDA build is not checked" >&2
  fi
  if [ "$gpu_only" = 1 ]; then echo "PASS $name"; return 0; fi
  if ! "$tileslc" "$wrapper" -I "$dir" --arch "$arch" --color never --target=cpu -o "$out/${name}_aot_cpu.cpp" \
      -H "$out/${name}_aot.h" >"$out/cpu.log" 2>&1; then
    echo "FAIL $name: --target=cpu: $(first_diagnostic "$out/cpu.log")"; return 1
  fi
  if ! have_rt_cpu; then echo "FAIL $name: cannot build $rt_cpu: $(first_diagnostic "$work/rt_cpu.log")"; return 1; fi
  if ! "$cxx" -std=c++20 -O2 -I "$root/runtime/include/tileslc/cpu/cuda" -I "$root/runtime/include" -I "$out" \
      -I "$root/samples/common" -I "$root/tests/cute_dsl" "$driver" "$out/${name}_aot_cpu.cpp" "$rt_cpu" \
      -lboost_context -lpthread -o "$out/run" >"$out/cxx.log" 2>&1; then
    echo "FAIL $name: driver build: $(first_diagnostic "$out/cxx.log")"; return 1
  fi
  if ! "$out/run" >"$out/run.log" 2>&1 || ! grep -q "all checks passed" "$out/run.log"; then
    echo "FAIL $name: emulator run: $(grep -m1 -E 'FAIL|error' "$out/run.log" || tail -1 "$out/run.log")"; return 1
  fi
  echo "PASS $name"
}

pass=0
six=(
  "elementwise_add ampere/kernel/elementwise/elementwise_add.py sm_80"
  "elementwise_apply ampere/kernel/elementwise/elementwise_apply.py sm_80"
  "sgemm ampere/kernel/dense_gemm/sgemm.py sm_80"
  "tensorop_gemm ampere/kernel/dense_gemm/tensorop_gemm.py sm_80"
  "cta_norm hopper/kernel/cta_norm/cta_norm.py sm_90a"
  "dense_gemm hopper/kernel/dense_gemm/dense_gemm.py sm_90a"
)
variants=(
  "dense_gemm_c21 hopper/kernel/dense_gemm/dense_gemm.py sm_90a"
  "dense_gemm_c12 hopper/kernel/dense_gemm/dense_gemm.py sm_90a"
  "dense_gemm_c22 hopper/kernel/dense_gemm/dense_gemm.py sm_90a"
)
if [ -n "$only" ]; then
  picked=() picked_variants=()
  for row in "${six[@]}"; do
    [ "${row%% *}" = "$only" ] && picked+=("$row")
  done
  for row in "${variants[@]}"; do
    [ "${row%% *}" = "$only" ] && picked_variants+=("$row")
  done
  [ $((${#picked[@]} + ${#picked_variants[@]})) = 1 ] ||
    { echo "$0: --only takes one of: $(printf '%s ' "${six[@]%% *}" "${variants[@]%% *}")" >&2; exit 2; }
  six=("${picked[@]}") variants=("${picked_variants[@]}")
fi
for row in "${six[@]}"; do
  # shellcheck disable=SC2086
  run_example $row && pass=$((pass + 1))
done
[ ${#six[@]} = 0 ] || echo "$pass/${#six[@]} pass"
variant_pass=0
for row in "${variants[@]}"; do
  # shellcheck disable=SC2086
  run_example $row && variant_pass=$((variant_pass + 1))
done
[ ${#variants[@]} = 0 ] || echo "$variant_pass/${#variants[@]} cluster variants pass"

if [ "$all" = 1 ]; then
  # Every other example outside Blackwell's folders: a wrapper that only imports it, so its
  # module code runs. The wrapper has no entry point of its own: an import that works leaves
  # only the "defines no @cute.jit host function" error, which counts as success here.
  others=0; ok=0
  while IFS= read -r py; do
    rel="${py#$examples/}"
    skip=0
    for row in "${six[@]}"; do
      set -- $row
      [ "$rel" = "$2" ] && skip=1
    done
    [ "$skip" = 1 ] && continue
    others=$((others + 1))
    mod="$(basename "$py" .py)"
    arch=sm_90a
    case "$rel" in ampere/*|cute_ext/ampere/*) arch=sm_80 ;; esac
    gen="$work/all/${mod}_import_${others}.tpy"
    mkdir -p "$work/all"
    printf 'import %s\n' "$mod" >"$gen"
    "$tileslc" "$gen" -I "$(dirname "$py")" --arch "$arch" --color never -o "$work/all/$others.cu" \
      >"$work/all/$others.log" 2>&1
    if ! grep -E 'error(\[|:)' "$work/all/$others.log" | grep -vq "defines no @cute.jit host function"; then
      ok=$((ok + 1))
    else
      echo "FAIL $rel: $(grep -E 'error(\[|:)' "$work/all/$others.log" | grep -v 'defines no @cute.jit host function' | head -1 | sed "s|$work/all/||g; s|$examples/||g")"
    fi
  done < <(find "$examples" -name '*.py' -not -path '*/blackwell*' | sort)
  echo "$ok/$others other non-Blackwell examples import"
fi
[ "$pass" = "${#six[@]}" ] && [ "$variant_pass" = "${#variants[@]}" ]
