#!/usr/bin/env python3
"""gdb.vscode_dap: a Debug Adapter Protocol session on a .tpy breakpoint, as VS Code runs one.

VS Code talks to a debugger through a debug adapter, in the Debug Adapter Protocol (DAP:
JSON messages with a Content-Length header). This is the client side of such a session,
sending what VS Code sends, to a DAP adapter that drives gdb with tileslc-gdb.py loaded
(cdt-gdb-adapter, the adapter of the "CDT GDB Debug Adapter" VS Code extension:
`npm install cdt-gdb-adapter`; gdb >= 14's own `gdb -i=dap` speaks the same protocol),
on tests/gdb/vector_add_main.cpp: initialize, launch, setBreakpoints on
vector_add.tpy:28 with the condition `tl_thread_idx.x == 5 && tl_block_idx.x == 1` (what
Edit Breakpoint in the .tpy editor sends), configurationDone; then at the stop,
stackTrace (the top frame is vector_add.tpy:28), scopes and variables (the Variables
pane: tidx = 5, base = 1029, gA through the pretty-printer), evaluate `gA[i]` (514.5, the
Debug Console), `next` three times (lines 26, 27, 28) and evaluate `i` (1285).

Usage: vscode_dap.py --script runtime/gdb/tileslc-gdb.py --tpy samples/vector_add/vector_add.tpy
       [--adapter 'node .../cdt-gdb-adapter/dist/debugAdapter.js'] [--gdb gdb] [--transcript FILE] PROGRAM
The adapter defaults to $TILESLC_DAP_ADAPTER, else `cdtDebugAdapter` on PATH, else
~/.cache/tileslc/dap (tools/bootstrap.sh installs it there).
Exit 0 pass, 1 fail, 77 no gdb, node or adapter (ctest reports the test skipped).
"""
import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

import gdb_batch

# Where tools/bootstrap.sh installs the adapter (npm_tool dap).
BUNDLED = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache")), "tileslc", "dap",
                       "node_modules", "cdt-gdb-adapter", "dist", "debugAdapter.js")


def find_adapter(given):
    """The adapter's command line, or None."""
    if given:
        return shlex.split(given)
    if os.environ.get("TILESLC_DAP_ADAPTER"):
        return shlex.split(os.environ["TILESLC_DAP_ADAPTER"])
    if shutil.which("cdtDebugAdapter"):
        return [shutil.which("cdtDebugAdapter")]
    if os.path.exists(BUNDLED) and shutil.which("node"):
        return [shutil.which("node"), BUNDLED]
    return None


class Dap:
    """A DAP client over an adapter's stdin/stdout; every message it sends and receives goes to `log`."""

    def __init__(self, cmd, log):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.log = log
        self.seq = 0
        self.messages = queue.Queue()
        self.pending = []  # received, not yet asked for (an event that came before a response)
        self.output = []  # the text of output events: gdb's console (CLI commands of the Debug Console)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            header = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode().strip()
                if not line:
                    break
                k, _, v = line.partition(":")
                header[k.strip().lower()] = v.strip()
            self.messages.put(json.loads(out.read(int(header["content-length"]))))

    def send(self, command, **arguments):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command, "arguments": arguments}
        self.log.append("--> " + json.dumps(msg))
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.seq

    def wait(self, pred, timeout=30):
        """The first message for which pred(message) holds (messages before it are logged and dropped)."""
        for m in self.pending:
            if pred(m):
                self.pending.remove(m)
                return m
        end = time.time() + timeout
        while True:
            try:
                m = self.messages.get(timeout=max(0.1, end - time.time()))
            except queue.Empty:
                raise TimeoutError("no answer")
            if m is None:
                raise EOFError("the adapter exited")
            if m.get("type") == "event" and m.get("event") == "output":
                self.log.append("<-- output: " + json.dumps(m["body"].get("output", "")))
                self.output.append(m["body"].get("output", ""))
                continue
            else:
                self.log.append("<-- " + json.dumps(m))
            if pred(m):
                return m
            if m.get("type") != "response":
                self.pending.append(m)
            if time.time() > end:
                raise TimeoutError("no answer")

    def request(self, command, **arguments):
        seq = self.send(command, **arguments)
        m = self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq)
        if not m.get("success"):
            raise RuntimeError("%s failed: %s" % (command, m.get("message")))
        return m.get("body") or {}

    def event(self, name, timeout=30):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name, timeout).get("body", {})


def session(dap, args, tpy, checks):
    """The session; each check is (what, ok)."""
    dap.request("initialize", clientID="vscode", adapterID="gdb", linesStartAt1=True, columnsStartAt1=True,
                pathFormat="path", supportsVariableType=True)
    # launch.json's configuration (docs/debugging.md, "VS Code")
    dap.send("launch", gdb=args.gdb, program=os.path.abspath(args.program), cwd=os.getcwd(),
             initCommands=["-enable-pretty-printing", "set print elements 4", "set disable-randomization off", "source " + os.path.abspath(args.script)])
    dap.event("initialized")
    bps = dap.request("setBreakpoints", source={"path": tpy},
                      breakpoints=[{"line": 28, "condition": "tl_thread_idx.x == 5 && tl_block_idx.x == 1"}])
    checks.append(("breakpoint at vector_add.tpy:28", bool(bps["breakpoints"]) and bps["breakpoints"][0].get("line") == 28))
    dap.request("configurationDone")
    stop = dap.event("stopped")
    thread = stop.get("threadId") or dap.request("threads")["threads"][0]["id"]

    def top():
        f = dap.request("stackTrace", threadId=thread, startFrame=0, levels=20)["stackFrames"][0]
        return f, "%s:%d" % (f.get("source", {}).get("path", "?"), f["line"])

    frame, where = top()
    checks.append(("stopped at %s:28 (got %s)" % (tpy, where), where == "%s:28" % tpy))
    scopes = dap.request("scopes", frameId=frame["id"])["scopes"]
    local = {}
    for s in scopes:
        if s.get("expensive"):
            continue  # Registers: VS Code fetches it only when opened
        for v in dap.request("variables", variablesReference=s["variablesReference"])["variables"]:
            local.setdefault(v["name"], v)
    val = lambda n: local.get(n, {}).get("value")
    checks.append(("Variables: tidx = 5 (got %s)" % val("tidx"), val("tidx") == "5"))
    checks.append(("Variables: base = 1029 (got %s)" % val("base"), val("base") == "1029"))
    gA_type = local.get("gA", {}).get("type")
    checks.append(("Variables: gA, a tensor parameter (type %s)" % gA_type, gA_type == "tileslc::cpu::Span<float const>"))
    # The Debug Console: `>` runs a gdb command; its output comes back as output events.
    dap.request("evaluate", expression="> tileslc thread", frameId=frame["id"], context="repl")
    dap.request("evaluate", expression="> print gA", frameId=frame["id"], context="repl")
    e = dap.request("evaluate", expression="gA[i]", frameId=frame["id"], context="watch")["result"]
    checks.append(("evaluate gA[i] = 514.5 (got %s)" % e, e == "514.5"))
    lines = []
    for _ in range(3):
        dap.request("next", threadId=thread)
        dap.event("stopped")
        frame, where = top()
        lines.append(where.rsplit(":", 1)[-1])
    checks.append(("next: lines 26, 27, 28 (got %s)" % ", ".join(lines), lines == ["26", "27", "28"]))
    e = dap.request("evaluate", expression="i", frameId=frame["id"], context="watch")["result"]
    checks.append(("evaluate i = 1285 (got %s)" % e, e == "1285"))
    console = "".join(dap.output)
    checks.append(("Debug Console: tileslc thread", "thread (5,0,0) block (1,0,0)" in console))
    checks.append(("Debug Console: print gA through the pretty-printer",
                   bool(re.search(r'= global tensor "gA" of const float, layout \(2000\):\(1\), shape \(2000\), 2000 elements, '
                                  r'origin mA\[0\] = \{0, 0.5, 1, 1.5', console))))
    try:
        dap.request("disconnect", terminateDebuggee=True)
    except (RuntimeError, TimeoutError, EOFError):
        pass


def main():
    ap = gdb_batch.client_parser(__doc__)
    ap.add_argument("--adapter", help="the DAP adapter's command line")
    args = ap.parse_args()
    adapter = find_adapter(args.adapter)
    if not shutil.which(args.gdb) or not adapter:
        print("gdb.vscode_dap: skipped: needs gdb and a DAP adapter (node and cdt-gdb-adapter: tools/bootstrap.sh)")
        return 77
    args.gdb = shutil.which(args.gdb)
    tpy = os.path.abspath(args.tpy)
    log, checks = [], []
    dap = Dap(adapter, log)
    error = None
    try:
        session(dap, args, tpy, checks)
    except (RuntimeError, TimeoutError, EOFError, KeyError, IndexError) as e:
        error = "%s: %s" % (type(e).__name__, e)
    finally:
        try:
            dap.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            dap.proc.kill()
    if args.transcript:
        with open(args.transcript, "w") as f:
            f.write("\n".join(log) + "\n")
    failures = [what for what, ok in checks if not ok] + ([error] if error else [])
    if failures:
        print("\n".join(log))
        print("\n".join("FAIL " + f for f in failures))
        return 1
    print("gdb.vscode_dap: %d checks passed" % len(checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
