#!/usr/bin/env bash
# tools/device/pack.sh [BUILD] [OUT]: packs what a GPU machine without tileslc needs to run every
# GPU test and sample of this build, for a machine that receives the working tree and little else
# (the device machine: no compiler toolchain of ours, no package registry, a 64 MiB carry limit).
#
# OUT (default .devbin, git-ignored: name it in the device tool's carry) gets
#   bin/    every sample, *_gpu_test, runtime_test, dlpack_test_cuda, tileslc_bench and tileslc_membound, stripped
#           (the fatbins stay: ~7 MB in all instead of ~70);
#   lib/    the non-system shared libraries they need, except CUDA's own (the machine has CUDA);
#   pylib/  vector_add, gemm_sm90, softmax, rmsnorm, layernorm, cross_entropy, attention_sm90 and
#           tools/bench/membound/membound_sweep built for
#           sm_90a by tileslc.build, with their metadata and libtileslc_rt.so, for python/examples/torch_demo.py,
#           tools/bench/membound/torch_membound.py and tools/bench/attention/torch_attention.py (--prebuilt);
#   tc/     tileslc itself with its libspdlog and libfmt, so that the GPU machine's nvcc can build
#           what tileslc generates there (tools/device/difffuzz.sh: difffuzz.py gpu --tileslc tc/tileslc);
#   bin/compat_*  with CUTLASS=checkout set: the CuTe DSL examples that compile, with their drivers
#           (tools/cute_dsl_compat.sh --gpu-out --gpu-only).
# Then run tools/device/run.sh there (carry OUT). Needs a build with CUDA (nvcc) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
out="${2:-.devbin}"
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/pylib"
shopt -s nullglob
for b in "$build"/bin/{attention_sm90,cross_entropy,elementwise_2d,gemm_sm80,gemm_sm90,gemm_fp8_sm90,histogram,layernorm,rmsnorm,row_reduce,saxpy,sgemm,softmax,splitk,tiled_copy,transpose,vector_add} \
         "$build"/bin/{runtime_test,dlpack_test_cuda,tileslc_bench,tileslc_membound} "$build"/bin/*_gpu_test; do
  [[ -x "$b" ]] && cp "$b" "$out/bin/"
done
for b in "$out"/bin/*; do ldd "$b" | awk '/=> \//{print $3}'; done | sort -u |
  grep -v -E '^/(usr/)?lib/|/cuda[^/]*/' | while read -r l; do cp -L "$l" "$out/lib/"; done || true
cp -L "$build/lib/libtileslc_rt.so" "$out/lib/"
python3 - "$build" "$out/pylib" <<'PY'
import glob, os, shutil, sys, tempfile
build, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, "python")
import tileslc
cache = tempfile.mkdtemp()
for name in ("vector_add", "gemm_sm90", "softmax", "rmsnorm", "layernorm", "cross_entropy", "attention_sm90"):
    tileslc.build(os.path.join("samples", name, name + ".tpy"), arch="sm_90a", cache_dir=cache,
                  tileslc=os.path.join(build, "bin", "tileslc"))
# torch_membound.py --sweep's instances of the row samples.
tileslc.build(os.path.join("tools", "bench", "membound", "membound_sweep.tpy"), arch="sm_90a", cache_dir=cache,
              include_dirs=[os.path.join("samples", n) for n in ("softmax", "rmsnorm", "layernorm")],
              tileslc=os.path.join(build, "bin", "tileslc"))
for f in glob.glob(os.path.join(cache, "*", "lib*")):
    shutil.copy(f, out)
shutil.rmtree(cache)
PY
cp -L "$build/lib/libtileslc_rt.so" "$out/pylib/"
mkdir -p "$out/tc"
cp "$build/bin/tileslc" "$out/tc/"
ldd "$build/bin/tileslc" | awk '/=> \//{print $3}' | grep -E 'spdlog|fmt' | while read -r l; do cp -L "$l" "$out/tc/"; done
if [[ -n "${CUTLASS:-}" ]]; then
  # --gpu-only: only the GPU executables' steps (tileslc to CUDA, nvcc), not the CPU emulator's checks.
  # The compat script exits non-zero while an example fails to compile; the drivers of the others are
  # packed all the same, and set -e must not end the pack before the strip below (263 MB instead of 30).
  { TILESLC="$build/bin/tileslc" BUILD="$build" tools/cute_dsl_compat.sh "$CUTLASS" --gpu-out "$out/bin" --gpu-only || true; } | tail -1
fi
# One file at a time: strip stops at the first file it cannot read (221 MB packed instead of 19).
for f in "$out"/bin/* "$out"/lib/*.so* "$out"/pylib/*.so "$out"/tc/tileslc; do strip "$f" 2>/dev/null || true; done
du -sh "$out"
