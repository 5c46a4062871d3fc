#!/usr/bin/env bash
# tools/device/attention_sass.sh [PACK]: the SASS of attention_sm90's ping-pong and scheduler
# variants side by side (head dim 128: _pp / _ppnb, causal and not; causal _persistent and _dynamic;
# head dim 64 causal _persistent and _dynamic), on a machine with nvcc and cuobjdump (the GPU
# machine; this one has no cuobjdump): tileslc (TILESLC, default PACK/tc/tileslc from
# tools/device/pack.sh) generates those host functions' kernels, nvcc -Xptxas -v compiles them for
# sm_90a (spills: must be 0), and one line per kernel gives SCHED, PINGPONG, the SASS instruction
# count and the barrier instructions (BAR.SYNC / BAR.ARV: named barriers; SYNCS.*: mbarriers).
# About 30 s. Files in $OUT (or /tmp). Exit 77 without nvcc or cuobjdump, 1 on a spill or failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
pack="${1:-.devbin}"
out="${OUT:-/tmp}"
tc="${TILESLC:-$pack/tc/tileslc}"
export LD_LIBRARY_PATH="$PWD/$pack/tc:${LD_LIBRARY_PATH:-}"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [[ ! -x "$nvcc" || ! -x "$cuobjdump" ]]; then
  echo "attention_sass: no nvcc or cuobjdump: not run"
  exit 77
fi
python3 - "$out/attention_sass.tpy" <<'PY'
import sys
keep = {"attention_sm90_bf16_hd128_pp", "attention_sm90_bf16_hd128_ppnb", "attention_sm90_bf16_hd128_causal_pp",
        "attention_sm90_bf16_hd128_causal_ppnb", "attention_sm90_bf16_hd128_causal_persistent",
        "attention_sm90_bf16_hd128_causal_dynamic", "attention_sm90_bf16_hd64_causal_persistent",
        "attention_sm90_bf16_hd64_causal_dynamic"}
lines = open("samples/attention_sm90/attention_sm90.tpy").read().split("\n")
drop = lambda l: l.startswith("attention_sm90_") and " = host_function(" in l and l.split(" ")[0] not in keep  # noqa: E731
open(sys.argv[1], "w").write("\n".join(l for l in lines if not drop(l)))
PY
"$tc" "$out/attention_sass.tpy" --stdlib stdlib --arch sm_90a -o "$out/attention_sass.cu" || exit 1
"$nvcc" -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a -Iruntime/include -Xptxas -v \
  "$out/attention_sass.cu" -o "$out/attention_sass.cubin" >"$out/attention_sass.ptxas" 2>&1 || { tail -5 "$out/attention_sass.ptxas"; exit 1; }
"$cuobjdump" -sass "$out/attention_sass.cubin" >"$out/attention_sass.sass" || exit 1
python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
cu = open(out + "/attention_sass.cu").read()
# Each kernel's definition follows a comment with its Constexpr arguments.
what = {}
for m in re.finditer(r"^// attention_kernel\((.*)\)\n(?:.*\n)*?TILESLC_GLOBAL [^\n]*? (attention_kernel\w*)\(", cu, re.M):
    args = dict(re.findall(r"(D|CAUSAL|SCHED|PINGPONG): (\w+)", m.group(1)))
    what[m.group(2)] = "D=%s causal=%s SCHED=%s PINGPONG=%s" % (args["D"], args["CAUSAL"], args["SCHED"], args["PINGPONG"])
counts, fn = {}, None
for line in open(out + "/attention_sass.sass"):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = re.search(r"(attention_kernel\w*?)E", m.group(1)).group(1)
        counts[fn] = {"sass": 0, "BAR.SYNC": 0, "BAR.ARV": 0, "SYNCS": 0}
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][\w.]*)", line)
    if fn and m:
        c = counts[fn]
        c["sass"] += 1
        op = m.group(1)
        if op.startswith("BAR.SYNC") or op == "BAR":
            c["BAR.SYNC"] += 1
        elif op.startswith("BAR.ARV"):
            c["BAR.ARV"] += 1
        elif op.startswith("SYNCS"):
            c["SYNCS"] += 1
for fn in sorted(counts, key=lambda f: what.get(f, f)):
    c = counts[fn]
    print("%-52s %-22s sass %5d  BAR.SYNC %2d  BAR.ARV %2d  SYNCS %3d" % (what.get(fn, "?"), fn, c["sass"], c["BAR.SYNC"], c["BAR.ARV"], c["SYNCS"]))
PY
grep -E "spill" "$out/attention_sass.ptxas" | sort | uniq -c
! grep -E "[1-9][0-9]* bytes spill" "$out/attention_sass.ptxas" >/dev/null
