"""The harness of the gdb.* tests: runs gdb in batch mode on a program with tileslc-gdb.py
loaded, one section per step (its commands), and checks each section's output against
the step's regular expressions; no section may show a runtime file (tileslc/cpu/).

A test script lists its STEPS as (section name, gdb commands, [regular expressions]) and
calls main(STEPS, __doc__). Exit 0 pass, 1 fail, 77 gdb is not installed (ctest reports
the test skipped).
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile


def main(steps, doc, settings=("set print elements 4",)):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--script", required=True, help="tileslc-gdb.py")
    ap.add_argument("--gdb", default="gdb")
    ap.add_argument("program")
    args = ap.parse_args()
    test = doc.split(":", 1)[0]
    gdb = shutil.which(args.gdb)
    if not gdb:
        print("%s: skipped: gdb is not installed (tools/bootstrap.sh installs it)" % test)
        return 77
    lines = ["set pagination off", "set width 0", "set confirm off"] + list(settings) + [
        "set disable-randomization off", "source " + args.script]
    for name, cmds, _ in steps:
        lines += ["echo @@" + name + "\\n", cmds]
    lines += ["echo @@end\\n", "kill"]
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        cmdfile = f.name
    try:
        proc = subprocess.run([gdb, "-nx", "-q", "-batch", "-x", cmdfile, args.program], stdout=subprocess.PIPE,
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
