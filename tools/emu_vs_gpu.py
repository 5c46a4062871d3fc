#!/usr/bin/env python3
"""emu_vs_gpu.py: compares a sample's results under the CPU emulator with its results on a GPU.

Every sample driver prints one line per checked case:

    <sample>: <case label> PASS  rel_err 4.373e-07 (tol 3e-04)
    <sample>: <case label> PASS  0 of 256 bins wrong, 4097 counted
    <sample>: validation, <what> PASS  "<the host function's message>"

Both runs check the same float64 reference with the same tolerance, so they
agree within the documented tolerance when, case by case, both pass and both
relative errors are within that tolerance (then the two results are within
twice the tolerance of each other). Cases without a relative error (exact
counts, validation messages) must print the same text; addresses (0x...)
and decimal fractions (errors each run bounds itself, e.g. "worst error
1.12e-07 of the magnitude ... PASS") are masked. A case present in one run only is a disagreement.

Usage:
    tools/emu_vs_gpu.py --emu-dir E --gpu-dir G [SAMPLE ...]
        runs E/emu_<sample> --small and G/<sample> --small (default: every
        sample that has both binaries) and compares them;
    tools/emu_vs_gpu.py --emu-log A.txt --gpu-log B.txt
        compares two captured outputs (e.g. the GPU run's, copied back from a
        GPU machine), which may hold several samples each.

Prints a table per sample; exit 0 when every case agrees, 1 otherwise, 2 on
bad arguments or a binary that could not run.
"""
import argparse
import os
import re
import subprocess
import sys

CASE = re.compile(r'^(?P<sample>[A-Za-z0-9_]+): (?P<label>.*?)\s+(?P<status>PASS|FAIL)\b\s*(?P<rest>.*)$')
FLOAT = re.compile(r'[-+]?\d+\.\d+(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+')
REL_ERR = re.compile(r'rel_err (?P<err>[-+0-9.eE]+|nan|inf) \(tol (?P<tol>[-+0-9.eE]+)\)')
ADDRESS = re.compile(r'0x[0-9a-fA-F]+')


def parse(text):
    """{sample: [(key, status, rest)]}: key = (label, n-th occurrence of that label)."""
    cases = {}
    seen = {}
    for line in text.splitlines():
        m = CASE.match(line.strip())
        if not m:
            continue
        sample, label, rest = m['sample'], ' '.join(m['label'].split()), m['rest'].strip()
        if not rest and ': ' in label:
            # "<case>: 0 wrong, worst error 1.12e-07 ... PASS": the result precedes the status.
            label, rest = label.split(': ', 1)
        n = seen.get((sample, label), 0)
        seen[(sample, label)] = n + 1
        cases.setdefault(sample, []).append(((label, n), m['status'], rest))
    return cases


def compare_case(emu, gpu):
    """(agrees, emu text, gpu text) for one case seen in both runs."""
    (_, s_emu, r_emu), (_, s_gpu, r_gpu) = emu, gpu
    e, g = REL_ERR.search(r_emu), REL_ERR.search(r_gpu)
    if e and g:
        tol = float(e['tol'])
        ok = (s_emu == s_gpu == 'PASS' and float(e['tol']) == float(g['tol'])
              and float(e['err']) <= tol and float(g['err']) <= tol)
        return ok, f"{s_emu} {float(e['err']):.3e}", f"{s_gpu} {float(g['err']):.3e} (tol {e['tol']})"
    # Counts and messages must match; addresses and measured errors (which each
    # run checks against its own bound) may differ.
    mask = lambda r: FLOAT.sub('<x>', ADDRESS.sub('0x?', r))
    same = s_emu == s_gpu == 'PASS' and mask(r_emu) == mask(r_gpu)
    return same, f'{s_emu} {r_emu}'[:40], f'{s_gpu} {r_gpu}'[:40]


def compare(emu_cases, gpu_cases, samples):
    """Prints one table per sample; returns the number of disagreeing cases."""
    bad = 0
    for sample in samples:
        emu = {c[0]: c for c in emu_cases.get(sample, [])}
        gpu = {c[0]: c for c in gpu_cases.get(sample, [])}
        keys = [c[0] for c in emu_cases.get(sample, [])] + [c[0] for c in gpu_cases.get(sample, []) if c[0] not in emu]
        print(f'{sample}: {len(keys)} cases')
        if not keys:
            print('  no cases in either run')
            bad += 1
            continue
        for key in keys:
            label = key[0] if key[1] == 0 else f'{key[0]} (#{key[1] + 1})'
            if key in emu and key in gpu:
                ok, e, g = compare_case(emu[key], gpu[key])
            else:
                ok, e, g = False, (emu[key][1] if key in emu else 'missing'), (gpu[key][1] if key in gpu else 'missing')
            bad += not ok
            print(f"  {'agree' if ok else 'DIFFER':6}  {label[:48]:48}  emu {e:40}  gpu {g}")
    return bad


def run(binary):
    try:
        p = subprocess.run([binary, '--small'], capture_output=True, text=True, timeout=600)
    except OSError as err:
        sys.exit(f'emu_vs_gpu: cannot run {binary}: {err}')
    if p.returncode == 77:
        sys.exit(f'emu_vs_gpu: {binary} found no CUDA device (exit 77): run this on a GPU machine')
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description='Compare sample results under the CPU emulator and on a GPU.')
    ap.add_argument('--emu-dir')
    ap.add_argument('--gpu-dir')
    ap.add_argument('--emu-log')
    ap.add_argument('--gpu-log')
    ap.add_argument('samples', nargs='*')
    a = ap.parse_args()
    if a.emu_log and a.gpu_log:
        texts = []
        for path in (a.emu_log, a.gpu_log):
            try:
                with open(path) as f:
                    texts.append(f.read())
            except OSError as e:
                sys.exit(f'emu_vs_gpu: cannot read {path}: {e.strerror}')
        emu_cases, gpu_cases = parse(texts[0]), parse(texts[1])
        samples = a.samples or sorted(set(emu_cases) | set(gpu_cases))
    elif a.emu_dir and a.gpu_dir:
        samples = a.samples or sorted(n[len('emu_'):] for n in os.listdir(a.emu_dir)
                                      if n.startswith('emu_') and not n.startswith('emu_fail_')
                                      and os.path.isfile(os.path.join(a.gpu_dir, n[len('emu_'):])))
        emu_cases, gpu_cases = {}, {}
        for s in samples:
            emu_cases.update(parse(run(os.path.join(a.emu_dir, 'emu_' + s))))
            gpu_cases.update(parse(run(os.path.join(a.gpu_dir, s))))
    else:
        ap.print_usage(sys.stderr)
        sys.exit('emu_vs_gpu: give --emu-dir and --gpu-dir, or --emu-log and --gpu-log')
    bad = compare(emu_cases, gpu_cases, samples)
    total = sum(len(emu_cases.get(s, [])) for s in samples)
    print(f'emu_vs_gpu: {len(samples)} samples, {total} emulated cases, {bad} disagreeing')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
