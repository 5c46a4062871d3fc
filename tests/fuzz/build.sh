#!/usr/bin/env bash
# Builds the libFuzzer target tests/fuzz/fuzz_compile.cpp with clang++-14 and
# ASan + UBSan, compiling the compiler's phase sources directly (no CMake
# project; `cmake -P` embeds docs/diagnostics/*.md for diag/explain.cpp, which
# the SARIF renderer uses), and (re)builds the seed corpus. CXX may name a
# wrapper script running `ccache clang++-14 "$@"` (one word: it is quoted). Usage:
#   tests/fuzz/build.sh [OUT_DIR]          # default /tmp/tileslc-fuzz
# Outputs: OUT_DIR/fuzz_compile, OUT_DIR/seeds/ (see make_seeds.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${1:-/tmp/tileslc-fuzz}"
CXX="${CXX:-clang++-14}"
JOBS="${JOBS:-2}"
FLAGS=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -I"$ROOT/compiler" -DTILESLC_FUZZ_STDLIB="\"$ROOT/stdlib\"")
[[ -n "${NO_JSON:-}" ]] && FLAGS+=(-DTILESLC_FUZZ_NO_JSON)
mkdir -p "$OUT/obj" "$OUT/generated"
cmake -DDOCS_DIR="$ROOT/docs/diagnostics" -DOUTPUT="$OUT/generated/explanations_data.cpp" \
      -P "$ROOT/compiler/diag/embed_explanations.cmake"
SRCS=()
for d in source diag lex ast parse ir sema layout codegen; do
  for f in "$ROOT"/compiler/$d/*.cpp; do SRCS+=("$f"); done
done
SRCS+=("$OUT/generated/explanations_data.cpp" "$ROOT/tests/fuzz/fuzz_compile.cpp")
export CXX OUT ROOT
printf '%s\n' "${SRCS[@]}" | xargs -P "$JOBS" -I{} sh -c '
  src="$1"; shift
  obj="$OUT/obj/$(echo "${src#$ROOT/}" | tr / _ | sed "s|^_tmp_|gen_|").o"
  if [ "${src##*/}" = fuzz_compile.cpp ] || [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find "$ROOT/compiler" -name "*.h" -newer "$obj" -o -name "*.def" -newer "$obj" | head -1)" ]; then
    echo "CXX $src"; "$CXX" "$@" -c "$src" -o "$obj"
  fi' _ {} "${FLAGS[@]}"
"$CXX" -fsanitize=fuzzer,address,undefined -g "$OUT"/obj/*.o -lfmt -lutf8proc -o "$OUT/fuzz_compile"
"$ROOT/tests/fuzz/make_seeds.sh" "$OUT/seeds"
echo "built $OUT/fuzz_compile; seeds in $OUT/seeds ($(ls "$OUT/seeds" | wc -l) files)"
