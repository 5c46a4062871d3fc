#!/usr/bin/env python3
"""gdb.vscode_mi: what VS Code's cppdbg sends gdb, for the launch.json of docs/debugging.md.

cppdbg talks to gdb through its machine interface (MI): it runs the
configuration's setupCommands, inserts a breakpoint set in the .tpy editor by the
file's absolute path (with a condition from Edit Breakpoint), runs, lists the
frame's variables, expands a tensor through the pretty-printer (-var-create,
-var-list-children) and steps (-exec-next). This sends gdb the same MI commands
for tests/gdb/vector_add_main.cpp and checks the answers: the stop is at
vector_add.tpy:28 in thread (5,0,0) of block (1,0,0), the variables pane holds
the .tpy locals (tidx = 5, base = 1029), gA shows as a tensor whose children are
its elements, and each `next` stops at a .tpy line (26, 27, then 28).

Usage: vscode_mi.py --script runtime/gdb/tileslc-gdb.py --tpy samples/vector_add/vector_add.tpy
       [--gdb gdb] [--transcript FILE] PROGRAM
Exit 0 pass, 1 fail, 77 gdb is not installed.
"""
import os
import re
import shutil
import subprocess
import sys

import gdb_batch


def main():
    ap = gdb_batch.client_parser(__doc__)
    args = ap.parse_args()
    gdb = shutil.which(args.gdb)
    if not gdb:
        print("gdb.vscode_mi: skipped: gdb is not installed (tools/bootstrap.sh installs it)")
        return 77
    tpy = os.path.abspath(args.tpy)
    cmds = [
        '1-gdb-set pagination off',
        '2-gdb-set disable-randomization off',
        '3-enable-pretty-printing',  # setupCommands[0]
        '4-interpreter-exec console "source %s"' % os.path.abspath(args.script),  # setupCommands[1]
        '5-break-insert -f -c "tl_thread_idx.x == 5 && tl_block_idx.x == 1" "%s:28"' % tpy,
        '6-exec-run',
        '7-stack-list-variables --simple-values',
        '8-var-create - * "gA"',
        '9-var-list-children --all-values var1 0 4',
        '10-data-evaluate-expression "gA[i]"',
        '11-exec-next',
        '12-exec-next',
        '13-exec-next',
        '14-data-evaluate-expression i',
        '15-gdb-exit',
    ]
    proc = subprocess.run([gdb, "-nx", "-q", "--interpreter=mi2", args.program], input="\n".join(cmds) + "\n",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=50)
    out = proc.stdout
    if args.transcript:
        with open(args.transcript, "w") as f:
            for c in cmds:
                f.write("-> " + c + "\n")
            f.write(out)
    stops = re.findall(r'^\*stopped,(.*)$', out, re.M)
    checks = [
        ("breakpoint inserted at the .tpy line", r'^5\^done,bkpt=\{.*fullname="%s",line="28"' % re.escape(tpy)),
        ("variables pane: tidx = 5", r'^7\^done,variables=\[.*\{name="tidx",type="int32_t",value="5"\}'),
        ("variables pane: base = 1029", r'^7\^done,variables=\[.*\{name="base",type="int64_t",value="1029"\}'),
        # cppdbg shows a varobj with children as "{...}", its children under it.
        ("tensor gA through the pretty-printer", r'^8\^done,name="var1",.*displayhint="array",dynamic="1"'),
        ("its elements as children",
         r'^9\^done,numchild="4",displayhint="array",children=\[child=\{name="var1.\[0\]",exp="\[0\]",numchild="0",value="0",'
         r'.*child=\{name="var1.\[3\]",exp="\[3\]",numchild="0",value="1.5"'),
        ("the stop shows the tensor's summary", r'^\*stopped,reason="breakpoint-hit".*\{name="gA",value="global tensor \\"gA\\" of const float, layout \(2000\):\(1\), '
         r'shape \(2000\), 2000 elements, origin mA\[0\]'),
        ("gA[i] = 514.5", r'^10\^done,value="514.5"'),
        ("i = 1285 after three steps", r'^14\^done,value="1285"'),
    ]
    failures = [what for what, p in checks if not re.search(p, out, re.M)]
    want_lines = ["28", "26", "27", "28"]
    got = [(re.search(r'fullname="([^"]*)"', s), re.search(r'line="(\d+)"', s)) for s in stops]
    got = [(f.group(1) if f else "?", l.group(1) if l else "?") for f, l in got]
    if [l for _, l in got] != want_lines or any(f != tpy for f, _ in got):
        failures.append("stops at %s:%s, got %s" % (tpy, want_lines, got))
    if failures:
        print(out)
        print("\n".join("FAIL " + f for f in failures))
        return 1
    print("gdb.vscode_mi: %d checks passed; stops: %s" % (len(checks) + 1, ", ".join("%s:%s" % (os.path.basename(f), l) for f, l in got)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
