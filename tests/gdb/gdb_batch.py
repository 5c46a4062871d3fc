#!/usr/bin/env python3
"""gdb_batch.py: runs a gdb.* test, a table of gdb steps (tests/gdb/NAME.steps), on a program.

Runs gdb in batch mode on PROGRAM with tileslc-gdb.py loaded, one section per step (its
commands), and checks each section's output against the step's regular expressions; no
section may show a runtime file (tileslc/cpu/).

A steps file is text: `#` lines are comments (the first one names the test: "gdb.NAME: what
it checks"); `[name]` starts a step; each `> ` line is one gdb command of it (the rest of the
line, as typed; a `python` ... `end` block is several); each `~ ` line a regular expression
(Python's re, MULTILINE and DOTALL) that the step's output must match, continued by `+ ` lines
(appended as they are: `\\n` in the text is a newline in the expression). Blank lines separate.

Usage: gdb_batch.py --steps tests/gdb/NAME.steps --script runtime/gdb/tileslc-gdb.py [--gdb gdb] PROGRAM
Exit 0 pass, 1 fail, 77 gdb is not installed (ctest reports the test skipped).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def read_steps(path):
    """(test name, [(step name, gdb commands joined by newlines, [regular expressions])]) of a steps file."""
    test, steps = None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#") or not line.strip():
                if test is None and line.startswith("# "):
                    test = line[2:].split(":", 1)[0]
                continue
            m = re.fullmatch(r"\[(\w+)\]", line)
            if m:
                steps.append((m.group(1), [], []))
            elif line[:2] in ("> ", "~ ", "+ ") and steps:
                cmds, patterns = steps[-1][1], steps[-1][2]
                if line[0] == ">":
                    cmds.append(line[2:])
                elif line[0] == "~":
                    patterns.append(line[2:])
                elif patterns:
                    patterns[-1] += line[2:]
                else:
                    raise SystemExit("%s:%d: a '+' line continues no expression" % (path, n))
            else:
                raise SystemExit("%s:%d: expected [step], '> ' command, '~ ' or '+ ' expression: %s" % (path, n, line))
    return test or os.path.basename(path), [(name, "\n".join(cmds), patterns) for name, cmds, patterns in steps]


def run(test, steps, script, gdb, program, settings=("set print elements 4",)):
    """Runs the steps; prints the outcome; returns the exit status."""
    lines = ["set pagination off", "set width 0", "set confirm off"] + list(settings) + [
        "set disable-randomization off", "source " + script]
    for name, cmds, _ in steps:
        lines += ["echo @@" + name + "\\n", cmds]
    lines += ["echo @@end\\n", "kill"]
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        cmdfile = f.name
    try:
        proc = subprocess.run([gdb, "-nx", "-q", "-batch", "-x", cmdfile, program], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=50)
    finally:
        os.unlink(cmdfile)
    out = proc.stdout
    sections = dict(re.findall(r"^@@(\w+)\n(.*?)(?=^@@)", out, re.S | re.M))
    failures = []
    for name, cmds, patterns in steps:
        text = sections.get(name)
        if text is None:
            failures.append("%s: no output section (gdb stopped early?)" % name)
            continue
        # Lines gdb adds whatever ran (threads starting and ending) are not the command's output.
        text = "\n".join(l for l in text.splitlines() if not re.match(r"\[(New )?Thread|\[Inferior|Using host libthread_db", l))
        for p in patterns:
            if not re.search(p, text, re.M | re.S):
                failures.append("%s (%s): expected /%s/ in:\n%s" % (name, cmds.replace("\n", "; "), p, text))
        if "/tileslc/cpu/" in text:
            failures.append("%s: stopped in the runtime:\n%s" % (name, text))
    if failures:
        print(out)
        print("\n".join("FAIL " + f for f in failures))
        return 1
    print("%s: %d steps checked" % (test, len(steps)))
    return 0


def client_parser(doc):
    """The arguments of the tests that drive gdb as VS Code does (vscode_mi.py, vscode_dap.py):
    --script tileslc-gdb.py, --tpy (the breakpoint's .tpy), --gdb, --transcript FILE, PROGRAM."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--script", required=True, help="tileslc-gdb.py")
    ap.add_argument("--tpy", required=True, help="the .tpy the breakpoint is set in")
    ap.add_argument("--gdb", default="gdb")
    ap.add_argument("--transcript", help="write the session here")
    ap.add_argument("program")
    return ap


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", required=True, help="the test's steps (tests/gdb/NAME.steps)")
    ap.add_argument("--script", required=True, help="tileslc-gdb.py")
    ap.add_argument("--gdb", default="gdb")
    ap.add_argument("program")
    args = ap.parse_args()
    test, steps = read_steps(args.steps)
    gdb = shutil.which(args.gdb)
    if not gdb:
        print("%s: skipped: gdb is not installed (tools/bootstrap.sh installs it)" % test)
        return 77
    return run(test, steps, args.script, gdb, args.program)


if __name__ == "__main__":
    sys.exit(main())
