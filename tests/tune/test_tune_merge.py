#!/usr/bin/env python3
"""Merging shards decides as the unsharded sweep did (docs/tuning.md; ctest tune.merge_recorded).

recorded_full.json is the database an unsharded sweep of tiny_tune.tpy on the CPU emulator
wrote (test_tune_flow.py's first run; the times are the emulator's); recorded_h100_gemm_sm90.json
(72 configurations x 4 shapes) and recorded_h100_softmax.json (15 x 4) are the unsharded sweeps
of the samples on an H100 (tools/tune/device_sweep.sh gemm 0/1 and softmax, 2026-12-05). Each
recording's entries are dealt
to n shards as `--shard i/n` deals the runs (entry "item" modulo n), each shard
written as a database of the same sweep; `tileslc tune merge` of them must give
back every entry once and the same decisions, for n = 2, 3 and 5 and for the
shards in any order. Stdlib only; needs no compiler.
"""
import copy
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("tileslc_tune", os.path.join(HERE, "..", "..", "tools", "tune", "tileslc_tune.py"))
tune = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tune)


RECORDINGS = ("recorded_full.json", "recorded_h100_gemm_sm90.json", "recorded_h100_softmax.json")


def main():
    failures = 0
    for name in RECORDINGS:
        failures += check(name)
    print(f"tune merge: {failures} failed")
    return 1 if failures else 0


def check(name):
    full = json.load(open(os.path.join(HERE, name)))
    want = full["decisions"]
    assert want, f"{name}: the recording has decisions"
    assert tune.decide(copy.deepcopy(full)) == want, f"{name}: the recorded decisions are what the rule decides"
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in (2, 3, 5):
            paths = []
            for i in range(n):
                shard = {k: v for k, v in copy.deepcopy(full).items() if k not in ("entries", "decisions")}
                shard["entries"] = [e for e in full["entries"] if e["item"] % n == i]
                p = os.path.join(tmp, f"shard{i}of{n}.json")
                tune.write_db(p, shard)
                paths.append(p)
            for order in (paths, list(reversed(paths))):
                out = os.path.join(tmp, "merged.json")
                tune.merge(type("Args", (), {"output": out, "shards": order})())
                merged = json.load(open(out))
                same_entries = sorted(e["key"] for e in merged["entries"]) == sorted(e["key"] for e in full["entries"])
                ok = same_entries and merged["decisions"] == want
                failures += not ok
                print(f"{'ok' if ok else 'FAIL'}: {name}: {n} shards merged ({'reversed' if order != paths else 'in order'}): "
                      f"{len(merged['entries'])} entries, {len(merged['decisions'])} decisions")
    return failures


if __name__ == "__main__":
    sys.exit(main())
