#!/usr/bin/env bash
# tools/device/attention_ncu.sh [PACK]: where attention_sm90's time goes, on a GPU machine whose
# runtime lets Nsight Compute read the counters (Firecracker; not gVisor): one launch of one
# variant (VARIANT, default pp; SHAPE hd:seq, default 128:4096; CAUSAL=1 for the causal kernel),
# called from tools/bench/attention/torch_attention.py, under
# `ncu --clock-control none` with the SpeedOfLight, ComputeWorkloadAnalysis, InstructionStats,
# WarpStateStats and SchedulerStats sections (tensor-pipe use, issue slots, stall reasons), then
# the opcode histogram of that kernel's SASS (cuobjdump of PACK/pylib/libattention_sm90.so: MUFU,
# FSETP, F2FP, FMNMX, HGMMA counts). About 90 s. Files in $OUT (or /tmp). Exit 77 without ncu.
# SOURCE=1 instead profiles with PC sampling (WarpStateStats, SourceCounters): the kernel's stall
# reasons, the samples by SASS opcode and the 40 SASS instructions with the most samples.
set -uo pipefail
source "$(dirname "$0")/common.sh" "$@"
shape="${SHAPE:-128:4096}"
variant="${VARIANT:-pp}"
hd="${shape%%:*}"
causal=""
[[ "${CAUSAL:-0}" == 1 ]] && causal="_causal"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
[[ -n "$ncu" ]] || { echo "attention_ncu: no ncu: not run"; exit 77; }
suffix=""
case "$variant" in base) ;; *) suffix="_$variant" ;; esac
fn="attention_sm90_bf16_hd${hd}${causal}${suffix}"
if [[ "${SOURCE:-0}" != 1 ]]; then
  echo "=== ncu: $fn at $shape (one launch after two)"
  LD_LIBRARY_PATH="$PWD/$pack/pylib:$LD_LIBRARY_PATH" timeout 300 "$ncu" --clock-control none \
    --kernel-name regex:attention_kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
    --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    python3 tools/bench/attention/torch_attention.py --prebuilt "$pack/pylib" --shapes "$shape" \
    --variants "$variant" --reps 3 >"$out/attention_ncu.log" 2>&1 || failed=$((failed + 1))
  grep -E "attention_kernel|Duration|Compute \(SM\) Throughput|Memory Throughput|Executed Ipc|Issue Slots Busy|SM Busy|Stall|Warp Cycles Per|No Eligible|Active Warps Per|Registers Per|Shared Memory Config|One or More|Eligible Warps" \
    "$out/attention_ncu.log" | head -60
fi
if [[ "${SOURCE:-0}" == 1 ]]; then
  # Where the warps wait: the stall-reason samples of the whole kernel (raw page) and the SASS
  # instructions that drew the most samples (source page), from a second profile of the same launch.
  echo "=== ncu SourceCounters: stall reasons and the SASS lines with the most samples"
  LD_LIBRARY_PATH="$PWD/$pack/pylib:$LD_LIBRARY_PATH" timeout 300 "$ncu" --clock-control none \
    --kernel-name regex:attention_kernel --launch-skip 2 --launch-count 1 --section WarpStateStats --section SourceCounters \
    -f -o "$out/attention_src" python3 tools/bench/attention/torch_attention.py --prebuilt "$pack/pylib" --shapes "$shape" \
    --variants "$variant" --reps 3 >"$out/attention_src.log" 2>&1 || failed=$((failed + 1))
  "$ncu" -i "$out/attention_src.ncu-rep" --page raw --csv >"$out/attention_raw.csv" 2>&1
  "$ncu" -i "$out/attention_src.ncu-rep" --page source --csv --print-source sass >"$out/attention_sass_src.csv" 2>&1
  python3 - "$out/attention_raw.csv" "$out/attention_sass_src.csv" <<'PY'
import csv, collections, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) >= 3:
    head, vals = rows[0], rows[-1]
    stalls = sorted(((float(v.replace(",", "")), h) for h, v in zip(head, vals)
                     if "pcsamp_warps_issue_stalled" in h and not h.endswith("not_issued") and v.replace(",", "").replace(".", "").isdigit()),
                    reverse=True)
    total = sum(v for v, _ in stalls) or 1
    print("stall samples:", " ".join("%s=%.1f%%" % (h.split("stalled_")[-1], 100 * v / total) for v, h in stalls[:12]))
src = list(csv.reader(open(sys.argv[2])))
hdr = next((i for i, r in enumerate(src) if "Source" in r and "Address" in r), None)
if hdr is not None:
    h = src[hdr]
    col = next(i for i, c in enumerate(h) if c.startswith("Warp Stall Sampling (All"))
    si, ai = h.index("Source"), h.index("Address")
    body = [r for r in src[hdr + 1:] if len(r) == len(h)]
    num = lambda r: float(r[col].replace(",", "") or 0)
    total = sum(num(r) for r in body) or 1
    byop = collections.Counter()
    for r in body:
        byop[r[si].split()[0] if not r[si].startswith("@") else r[si].split()[1]] += num(r)
    print("samples by opcode:", " ".join("%s=%.1f%%" % (k, 100 * v / total) for k, v in byop.most_common(16)))
    for r in sorted(body, key=num, reverse=True)[:40]:
        print("%5.1f%% %s %s" % (100 * num(r) / total, r[ai], r[si][:110]))
PY
fi
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [[ -n "$cuobjdump" ]]; then
  echo "=== SASS opcode histogram of the kernels in libattention_sm90.so (top 25 of each of the first two)"
  "$cuobjdump" -sass "$pack/pylib/libattention_sm90.so" >"$out/attention_pylib.sass" 2>&1 || failed=$((failed + 1))
  python3 - "$out/attention_pylib.sass" <<'PY'
import collections, re, sys
hist, fn, order = {}, None, []
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = m.group(1); hist[fn] = collections.Counter(); order.append(fn); continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and fn:
        hist[fn][m.group(1)] += 1
# The order of the waits, GEMMs, exponentials, conversions and multiplies in the first kernels:
# runs of one kind collapsed (D = WARPGROUP.DEPBAR, H = HGMMA, E = MUFU.EX2, P = F2FP, X = FMUL,
# B = a barrier wait or arrive), to see whether the softmax sits between the waits.
kinds = (("WARPGROUP.DEPBAR", "D"), ("HGMMA", "H"), ("MUFU.EX2", "E"), ("F2FP", "P"), ("FMUL", "X"), ("SYNCS", "B"), ("BAR.", "B"))
seq, fn = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = m.group(1); seq[fn] = []; continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and fn:
        k = next((c for p, c in kinds if m.group(1).startswith(p)), None)
        if k:
            if seq[fn] and seq[fn][-1][0] == k: seq[fn][-1][1] += 1
            else: seq[fn].append([k, 1])
for fn in order[:int(__import__("os").environ.get("ORDER_KERNELS", "2"))]:
    print("order", fn[-40:], " ".join("%s%d" % (k, n) for k, n in seq[fn]))
for fn in order[:40]:
    h = hist[fn]
    keys = ("MUFU.EX2", "FSETP.GEU.AND", "F2FP.BF16.F32.PACK_AB", "FMNMX", "FADD", "FMUL", "FFMA", "HGMMA.64x128x16.F32.BF16", "STG.E.U16", "BAR.SYNC.DEFER_BLOCKING", "MOV")
    print(sum(h.values()), fn[-60:], " ".join("%s=%d" % (k, h[k]) for k in keys if h[k]))
    print("   top:", " ".join("%s=%d" % kv for kv in h.most_common(14)))
PY
fi
echo "attention_ncu: $failed failed"
exit $((failed > 0))
