#!/usr/bin/env bash
# cuda-gdb at .tpy lines on the GPU (issue 21, item 3; docs/debugging.md section 4):
# samples/vector_add generated with `tileslc --debug` and compiled with `nvcc -G -g`,
# driven by tests/gdb/cuda_vector_add_main.cu (the inputs of the emulator's
# gdb.vector_add test, so the expected values are the same). In batch mode it
# breaks at vector_add.tpy:28 in thread (5,0,0) of block (1,0,0), prints the
# thread's indices and .tpy locals (tidx, bidx, base, i, gA[i]), steps with
# `next` three times (lines 26, 27, 28 as in the emulator) and prints i again.
#
# Not part of CI (no GPU there). Run it on a GPU machine (the H200 device machine)
# from the repository root, after tools/device/pack.sh has made .devbin (carry it):
#   bash tests/gdb/cuda_gdb_vector_add.sh [DEVBIN=.devbin] [OUTDIR=$OUT or /tmp]
# DEVBIN provides tc/tileslc (the compiler) and lib/libtileslc_rt.so; nvcc and
# cuda-gdb come from the machine's CUDA toolkit (PATH, else /usr/local/cuda/bin).
# Takes about a minute (nvcc -G and cuda-gdb's start). Writes OUTDIR/cuda_gdb_vector_add.txt
# (the whole session) and prints it with a summary of the expected values that were
# found. Exit: 0 all expected values seen, 1 some missing, 77 no nvcc/cuda-gdb/GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
devbin="$(cd "${1:-.devbin}" && pwd)" || { echo "cuda_gdb_vector_add: no ${1:-.devbin} (tools/device/pack.sh makes it)"; exit 1; }
outdir="${2:-${OUT:-/tmp}}"
export PATH="$PATH:/usr/local/cuda/bin"
for tool in nvcc cuda-gdb; do
  command -v "$tool" >/dev/null || { echo "cuda_gdb_vector_add: skipped: $tool not found"; exit 77; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export LD_LIBRARY_PATH="$devbin/tc:$devbin/lib:${LD_LIBRARY_PATH:-}"
# An absolute .tpy path in the #line directives: cuda-gdb shows the .tpy lines from any directory.
"$devbin/tc/tileslc" "$PWD/samples/vector_add/vector_add.tpy" --debug --arch sm_90a \
    -o "$work/vector_add.cu" -H "$work/vector_add.h" || exit 1
nvcc -std=c++17 -G -g -O0 -arch=sm_90a -cudart shared -I runtime/include -I "$work" \
    "$work/vector_add.cu" tests/gdb/cuda_vector_add_main.cu -L "$devbin/lib" -ltileslc_rt -o "$work/vector_add_G" || exit 1
"$work/vector_add_G"; rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || { echo "cuda_gdb_vector_add: the -G build fails without the debugger (exit $rc)"; exit 1; }

cat > "$work/session.gdb" <<'GDB'
set pagination off
set width 0
set confirm off
# A condition on threadIdx is parsed where the breakpoint is set: before the kernel is loaded
# (host context) cuda-gdb answers "No symbol threadIdx" and sets nothing (the H200 run of
# 2026-12-05). So stop at the kernel's launch first, set the breakpoint in device context, go on.
set cuda break_on_launch application
echo @@launch\n
run
set cuda break_on_launch none
echo @@break\n
break vector_add.tpy:28 if threadIdx.x == 5 && blockIdx.x == 1
echo @@run\n
continue
echo @@focus\n
cuda kernel block thread
cuda block (1,0,0) thread (5,0,0)
echo @@locals\n
print tidx
print bidx
print bdim
print base
print i
print gA[i]
print gB[i]
info locals
echo @@next1\n
next
cuda block thread
print sums_0
echo @@next2\n
next
print v
echo @@next3\n
next
print i
cuda block thread
echo @@backtrace\n
backtrace
echo @@end\n
delete
continue
GDB
log="$outdir/cuda_gdb_vector_add.txt"
mkdir -p "$outdir"
timeout 240 cuda-gdb -nx -q -batch -x "$work/session.gdb" "$work/vector_add_G" >"$log" 2>&1
echo "cuda-gdb exit $?"
cat "$log"

# What the emulator's test checks, looked for in each section of cuda-gdb's output.
missing=0
section() { sed -n "/^@@$1\$/,/^@@/p" "$log"; }
expect() {  # SECTION LABEL REGEX
  if section "$1" | grep -Eq -- "$3"; then echo "ok   $2"; else echo "MISS $2: /$3/ in section $1"; missing=1; fi
}
value() {  # SECTION LABEL VALUE: a line "$N = VALUE"
  expect "$1" "$2" "^[$][0-9]+ = $3\$"
}
expect run "stops at vector_add.tpy:28" 'vector_add\.tpy:28'
expect focus "in block (1,0,0) thread (5,0,0)" 'block \(1,0,0\).*thread \(5,0,0\)'
value locals "tidx = 5" 5
value locals "bidx = 1" 1
value locals "bdim = 256" 256
value locals "base = 1029" 1029
value locals "gA[i] = 514.5" '514\.5'
value locals "gB[i] = 257.25" '257\.25'
expect next1 "next: line 26" '^26[[:space:]]+for v in cutlass\.range_constexpr'
value next1 "sums_0 = 771.75" '771\.75'
expect next2 "next: line 27" '^27[[:space:]]+i = base \+ v \* bdim'
value next2 "v = 1" 1
expect next3 "next: line 28 again" '^28[[:space:]]+sums = sums'
value next3 "i = 1285 after the steps" 1285
exit $missing
