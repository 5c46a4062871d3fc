#!/usr/bin/env python3
"""Checks the diagnostic explanations in docs/diagnostics/ against a tileslc.

For every kind in compiler/diag/diag_kinds.def:
  - docs/diagnostics/CODE.md exists and starts with `# CODE: summary` (the
    registry's summary), and docs/diagnostics.md has a line for CODE;
  - the erroneous example (the first ```python block after `## Erroneous
    example`), compiled with `--diagnostics-format=json`, reports CODE;
  - the fixed example (the first ```python block after `## Fixed example`)
    compiles with exit status 0 and no diagnostic at all.

Markers, each an HTML comment on a line of its own in CODE.md:
  <!-- no-tpy-example -->    driver/IO/nvcc codes: shell examples, nothing compiled
  <!-- not-yet-produced -->  registered but nothing emits it yet: nothing compiled
  <!-- bug: WHAT -->         a compiler bug keeps the erroneous example from
                             reporting CODE: an expected failure (XFAIL); if it
                             does report CODE, the stale marker is a failure (XPASS)
An example whose first line is `# ARGS: ...` passes those (shell-quoted)
arguments to tileslc, as golden tests do.

Usage:
  tools/check_explanations.py --tileslc build/bin/tileslc           # check all
  tools/check_explanations.py --tileslc build/bin/tileslc E0404 W0701
  tools/check_explanations.py --write-index                         # regenerate docs/diagnostics.md

Exit status: 0 when nothing failed (XFAILs allowed), 1 otherwise. Stdlib only.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGISTRY = os.path.join(ROOT, "compiler", "diag", "diag_kinds.def")
DOCS_DIR = os.path.join(ROOT, "docs", "diagnostics")
INDEX = os.path.join(ROOT, "docs", "diagnostics.md")

DIAG_RE = re.compile(r'^\s*DIAG\(\s*(\w+)\s*,\s*"([EW]\d{4})"\s*,\s*(\w+)\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)', re.M)
CODE_IN_TEXT_RE = re.compile(r"\b(?:error|warning)\[([EW]\d{4})\]")
MARKER_RE = re.compile(r"^<!--\s*(no-tpy-example|not-yet-produced|bug:.*?)\s*-->\s*$", re.M)
TIMEOUT_S = 60


class Kind:
    def __init__(self, name, code, level, summary):
        self.name, self.code, self.level, self.summary = name, code, level, summary


def read_registry(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    kinds = [Kind(m.group(1), m.group(2), m.group(3), m.group(4).replace('\\"', '"').replace("\\\\", "\\"))
             for m in DIAG_RE.finditer(text)]
    if not kinds:
        sys.exit(f"check_explanations: no DIAG(...) lines found in {path}")
    return kinds


def python_block_after(md, heading):
    """The first ```python block after the line `## heading`, or None."""
    m = re.search(r"^##\s+" + re.escape(heading) + r"\s*$", md, re.M | re.I)
    if not m:
        return None
    b = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S).search(md, m.end())
    return b.group(1) if b else None


def markers(md):
    found = {"no-tpy-example": False, "not-yet-produced": False, "bug": None}
    for m in MARKER_RE.finditer(md):
        tag = m.group(1)
        if tag.startswith("bug:"):
            found["bug"] = tag[4:].strip()
        else:
            found[tag] = True
    return found


def compile_example(tileslc, stdlib, source, tag):
    """Compiles `source`; returns (exit status, set of codes reported, raw stderr)."""
    args = []
    first = source.split("\n", 1)[0]
    if first.startswith("# ARGS:"):
        args = shlex.split(first[len("# ARGS:"):])
    with tempfile.TemporaryDirectory(prefix="tileslc_explain_") as tmp:
        name = f"{tag}.tpy"
        with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="") as f:
            f.write(source)
        cmd = [tileslc, name, "--diagnostics-format=json", "--color=never",
               "-o", os.path.join(tmp, tag + ".cu"), "-H", os.path.join(tmp, tag + ".h")] + args
        if stdlib:
            cmd += ["--stdlib", stdlib]
        try:
            p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None, set(), f"timed out after {TIMEOUT_S} s"
    codes = set()
    for line in p.stderr.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if isinstance(obj, dict):
                if obj.get("code"):
                    codes.add(obj["code"])
                continue
        codes.update(CODE_IN_TEXT_RE.findall(line))  # driver errors are plain text in every format
    return p.returncode, codes, p.stderr


def describe_run(rc, codes, stderr):
    lines = stderr.strip().splitlines()
    shown = []
    for line in lines[:6]:
        try:
            obj = json.loads(line)
            shown.append(f"      {obj.get('code')}: {obj.get('message')}")
        except ValueError:
            shown.append("      " + line)
    return f"exit {rc}, codes {sorted(codes) or 'none'}" + ("\n" + "\n".join(shown) if shown else "")


def check_kind(kind, tileslc, stdlib):
    """Returns (status, message); status is PASS, FAIL, XFAIL, XPASS or SKIP."""
    path = os.path.join(DOCS_DIR, kind.code + ".md")
    if not os.path.isfile(path):
        return "FAIL", f"docs/diagnostics/{kind.code}.md is missing"
    with open(path, encoding="utf-8") as f:
        md = f.read()
    title = f"# {kind.code}: {kind.summary}"
    if md.split("\n", 1)[0].rstrip() != title:
        return "FAIL", f"first line must be '{title}', found '{md.splitlines()[0] if md else ''}'"
    mk = markers(md)
    bad, good = python_block_after(md, "Erroneous example"), python_block_after(md, "Fixed example")
    if mk["no-tpy-example"]:
        if not re.search(r"^```(sh|console|shell)\s*$", md, re.M):
            return "FAIL", "marked no-tpy-example but has no ```sh example"
        return "SKIP", "no .tpy example (shell example only)"
    if bad is None or good is None:
        return "FAIL", "needs '## Erroneous example' and '## Fixed example' sections, each with a ```python block"
    if mk["not-yet-produced"]:
        return "SKIP", "not produced by tileslc yet"
    if tileslc is None:
        return "PASS", "structure only (no --tileslc)"
    problems = []
    rc, codes, err = compile_example(tileslc, stdlib, bad, kind.code + "_erroneous")
    bad_ok = rc in (0, 1, 2) and kind.code in codes and (kind.level != "Error" or rc != 0)
    if rc is not None and rc not in (0, 1, 2):
        problems.append(f"erroneous example crashed tileslc ({describe_run(rc, codes, err)})")
    elif not bad_ok:
        problems.append(f"erroneous example does not report {kind.code} ({describe_run(rc, codes, err)})")
    rc2, codes2, err2 = compile_example(tileslc, stdlib, good, kind.code + "_fixed")
    if rc2 != 0 or codes2:
        problems.append(f"fixed example does not compile cleanly ({describe_run(rc2, codes2, err2)})")
    if mk["bug"] is not None:
        if bad_ok and not problems:
            return "XPASS", f"marked '<!-- bug: {mk['bug']} -->' but the erroneous example now reports " \
                            f"{kind.code}: remove the marker"
        if bad_ok:
            return "FAIL", "; ".join(problems)
        other = [p for p in problems if not p.startswith("erroneous example does not report")]
        if other:
            return "FAIL", "; ".join(other)
        return "XFAIL", f"known compiler bug: {mk['bug']}"
    if problems:
        return "FAIL", "\n    ".join(problems)
    return "PASS", f"erroneous example reports {kind.code}, fixed example compiles"


def index_text(kinds):
    lines = [
        "# Diagnostic codes",
        "",
        "Every diagnostic tileslc prints carries a stable code (`error[E0404]`). Each code has a page",
        "under [diagnostics/](diagnostics/) that says what the rule is, why tileslc has it, and shows an",
        "erroneous and a fixed example; `tileslc --explain E0404` prints the same page (the text is",
        "built into the binary). `tools/check_explanations.py` (ctest `explain.examples`) compiles",
        "every example. Ranges: E01xx lexical, E02xx syntax, E03xx names and modules, E04xx types",
        "and shapes, E05xx compile-time evaluation, E06xx layout algebra, E07xx target and codegen,",
        "E08xx driver and I/O, Wxxxx warnings. This file is generated by",
        "`python3 tools/check_explanations.py --write-index`.",
        "",
        "| code | level | summary |",
        "| --- | --- | --- |",
    ]
    for k in kinds:
        level = "warning" if k.level == "Warning" else "error"
        lines.append(f'| <a id="{k.code}"></a>[{k.code}](diagnostics/{k.code}.md) | {level} | {k.summary} |')
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tileslc", help="the tileslc binary to compile the examples with")
    ap.add_argument("--stdlib", help="pass --stdlib DIR to tileslc")
    ap.add_argument("--registry", default=REGISTRY, help="diag_kinds.def (default: the repository's)")
    ap.add_argument("--write-index", action="store_true", help="regenerate docs/diagnostics.md and exit")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-v", "--verbose", action="store_true", help="print a line for passing codes too")
    ap.add_argument("codes", nargs="*", help="check only these codes")
    a = ap.parse_args()

    kinds = read_registry(a.registry)
    if a.write_index:
        with open(INDEX, "w", encoding="utf-8") as f:
            f.write(index_text(kinds))
        print(f"check_explanations: wrote {os.path.relpath(INDEX, ROOT)} ({len(kinds)} codes)")
        return 0
    if not a.tileslc:
        ap.error("--tileslc is required (or --write-index)")
    if not os.path.isfile(a.tileslc):
        sys.exit(f"check_explanations: no tileslc at {a.tileslc}")
    tileslc = os.path.abspath(a.tileslc)

    results = []  # (code, status, message)
    known = {k.code for k in kinds}
    selected = [k for k in kinds if not a.codes or k.code in {c.upper() for c in a.codes}]
    for c in a.codes:
        if c.upper() not in known:
            results.append((c, "FAIL", "not a registered code"))

    if not a.codes:
        # The index lists every code, and no page documents an unregistered code.
        index = open(INDEX, encoding="utf-8").read() if os.path.isfile(INDEX) else ""
        if index != index_text(kinds):
            missing = [k.code for k in kinds if f'id="{k.code}"' not in index]
            results.append(("docs/diagnostics.md", "FAIL",
                            ("missing " + " ".join(missing) + "; " if missing else "") +
                            "out of date: run `python3 tools/check_explanations.py --write-index`"))
        for name in sorted(os.listdir(DOCS_DIR)) if os.path.isdir(DOCS_DIR) else []:
            if name.endswith(".md") and name[:-3] not in known:
                results.append((name, "FAIL", f"docs/diagnostics/{name} documents no registered code"))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = [(k, pool.submit(check_kind, k, tileslc, a.stdlib)) for k in selected]
        for k, fut in futures:
            status, msg = fut.result()
            results.append((k.code, status, msg))

    counts = {}
    for code, status, msg in results:
        counts[status] = counts.get(status, 0) + 1
        if status != "PASS" or a.verbose:
            print(f"{status:5} {code}: {msg}")
    failed = counts.get("FAIL", 0) + counts.get("XPASS", 0)
    print(f"explain: {len(selected)} codes; {counts.get('PASS', 0)} passed, {failed} failed, "
          f"{counts.get('XFAIL', 0)} expected failures (compiler bugs), {counts.get('SKIP', 0)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
