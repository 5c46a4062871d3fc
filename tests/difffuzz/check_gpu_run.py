#!/usr/bin/env python3
"""fuzz.difffuzz.gpu_driver_abi: difffuzz's GPU run (tools/difffuzz_cuda.py's ctypes calls) against
tests/difffuzz/fake_libcuda.cpp, a stand-in CUDA driver over host memory that logs every launch.

  check_gpu_run.py TILESLC NVCC FAKE_LIB_DIR WORK_DIR

gpu-prep builds seed 4's 3 programs (tileslc, nvcc -cubin); gpu-run then runs them on the stand-in
driver, the second kernel's launch made to fault. Checks: each launch names the program's kernel
symbol with grid 1, block 32 and its parameters in order (an input's address, with its first
bytes uploaded; an output's, filled with the poison; each Int64 value); one context reset, after
the fault; and gpu-run's report: the faulting program's results missing, every other result the
poison (the kernels ran nothing), exactly the disagreements compare_results finds for that.
Exit status 0 when all hold."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import difffuzz  # noqa: E402


def main():
    tileslc, nvcc, fake_dir, work = sys.argv[1:5]
    bundles, log = os.path.join(work, "bundles"), os.path.join(work, "launches.log")
    fuzz = [sys.executable, os.path.join(ROOT, "tools", "difffuzz.py")]
    subprocess.run(fuzz + ["gpu-prep", "--seed", "4", "--count", "3", "--dir", bundles, "--tileslc", tileslc,
                           "--nvcc", nvcc, "--jobs", "1"], check=True)
    with open(os.path.join(bundles, "b00000", "bundle.json")) as f:
        exp = json.load(f)
    progs = exp["programs"]
    fault = progs[1]["name"]
    env = dict(os.environ, LD_LIBRARY_PATH=fake_dir, FAKE_CUDA_LOG=log, FAKE_FAULT=fault + "_kernel")
    r = subprocess.run(fuzz + ["gpu-run", "--dir", bundles], env=env, capture_output=True, text=True)
    print(r.stdout[-3000:])
    problems = []
    with open(log) as f:
        lines = f.read().splitlines()
    launches = [ln.split() for ln in lines if ln.startswith("L ")]
    if len(launches) != len(progs) or lines.count("RESET") != 1 or lines.index("RESET") != 2:
        problems.append("launches and resets: %r" % lines)
    checked = 0
    for p, words in zip(progs, launches):
        k = p["kernel"]
        where, _, image = difffuzz.program_layout(p)
        want = [k["symbol"], "1", "1", "1", "32", "1", "1", "0"]
        for role, v in k["args"]:
            if role == "i64":
                want.append("V%d" % v)
            else:
                off = where[(role, v)][0]
                want.append("P%d:%016x" % (off, int.from_bytes(image[off:off + 8], "little")))
        checked += len(k["args"])
        if words[1:] != want:
            problems.append("%s: launched %s, expected %s" % (p["name"], words[1:], want))
    poison = {(p["name"], t, i): int.from_bytes(bytes([difffuzz.POISON]) * difffuzz.DTYPE_SIZE[t], "little")
              for p in progs if p["name"] != fault for t, xs in p["outputs"].items() for i in range(len(xs))}
    errors = ["E %s cuCtxSynchronize: FAKE_ERROR (700)" % fault]
    bad = difffuzz.compare_results(progs, poison, errors, exp["compile_stdout"], "gpu")
    summary = re.search(r"(\d+) programs, (\d+) results, (\d+) disagreements", r.stdout)
    if r.returncode != 1 or not summary or int(summary.group(3)) != len(bad) or int(summary.group(1)) != len(progs):
        problems.append("gpu-run exit %d, expected 1 with %d disagreements" % (r.returncode, len(bad)))
    if "no result (%s)" % errors[0] not in r.stdout:
        problems.append("the fault of %s is not reported" % fault)
    for line in problems:
        print("FAIL " + line)
    print("fake driver: %d launches, %d parameters checked, %d disagreements as expected: %s" % (
        len(launches), checked, len(bad), "FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
