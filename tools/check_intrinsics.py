#!/usr/bin/env python3
"""Checks compiler/ir/intrinsics.def (the intrinsic table) against the runtime's headers.

1. Every spelling a row expands to (each combination of its immediates'
   domains) is defined where its Space says:
     Dev, DevCast  in namespace tileslc::dev of runtime/include/tileslc/device/
                   (what device/prelude.h includes) and, when the row says
                   Emulated, of runtime/include/tileslc/cpu/ (cpu/prelude.h);
     Cuda          CUDA's own functions: at global scope of the CPU headers
                   when Emulated (CUDA itself defines them for the GPU);
     Host          in namespace tileslc of runtime/include/tileslc/runtime.h.
   Math rows are CUDA's math library and <cmath>: not checked. A row that
   says Emulated false must not be defined by the CPU headers (then it is).
2. Every function the device headers define in tileslc::dev is some row's
   spelling or one of HELPERS.

The headers go through the C preprocessor (--cxx, default c++) with every
system header replaced by an empty file, so that their macros
(TILESLC_WAIT_GROUPS, TILESLC_CLUSTER_SREG, ...) expand into definitions; a
small scanner then lists the functions each namespace declares.

    python3 tools/check_intrinsics.py [--cxx c++]   # exit 1 and one line per problem

Python 3 standard library only.
"""
import argparse
import collections
import glob
import itertools
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(REPO, "runtime", "include")

# Functions the device headers define in tileslc::dev that no row names.
HELPERS = {
    # codegen's own, for operators (intrinsics.def's header): wrapping negation, Python's // and %,
    # integer min and max, PTX's clamping shifts and saturating float-to-integer conversion, a
    # run-time range()'s trip count and increment, a kernel's located trap
    "neg", "floordiv", "mod", "min", "max", "shl", "shr", "cvt_rzi", "range_trips", "range_next", "trap_at",
    # used inside the wrappers
    "smem_address", "smem_u32", "reg32", "to_tf32",
}

ROW = re.compile(r"^TILESLC_INTRINSIC\((.*)\)\s*$")
ARG = re.compile(r'"(?:[^"\\]|\\.)*"|[^,\s]+')
TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|::|\S')
IDENT = re.compile(r"[A-Za-z_]\w*$")
NOT_FUNCTIONS = {"static_assert", "alignas", "decltype", "sizeof", "alignof", "__attribute__", "__declspec",
                 "noexcept", "throw", "return", "operator", "asm", "__asm__", "typedef", "using"}


def rows():
    out = []
    with open(os.path.join(REPO, "compiler", "ir", "intrinsics.def")) as f:
        for line in f:
            m = ROW.match(line)
            if not m:
                continue
            args = ARG.findall(m.group(1))
            ident, space, spelling, imms, _ops, _result, _effect, _arch, emulated, _ptx = args
            out.append({"id": ident, "space": space, "spelling": spelling.strip('"'),
                        "imms": imms.strip('"'), "emulated": emulated == "true"})
    return out


def expansions(row):
    """Every spelling of the row: its pattern over the product of the immediates' domains."""
    domains = []
    for item in filter(None, row["imms"].split(", ")):
        domains.append(item.split(": ", 1)[1].split("|"))
    out = []
    for values in itertools.product(*domains):
        s = row["spelling"]
        for i, v in enumerate(values):
            s = s.replace("{%d}" % i, v)
        out.append(s)
    return out


def stub_system_headers(stubs):
    """An empty file for every <header> the runtime's headers include."""
    for path in glob.glob(os.path.join(INCLUDE, "**", "*.h"), recursive=True):
        with open(path) as f:
            for m in re.finditer(r"^\s*#\s*include\s*<([^>]+)>", f.read(), re.M):
                target = os.path.join(stubs, m.group(1))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                open(target, "a").close()


def preprocess(cxx, entry, stubs):
    cmd = [cxx, "-E", "-P", "-x", "c++", "-std=c++20", "-nostdinc", "-nostdinc++", "-I", stubs, "-I", INCLUDE,
           os.path.join(INCLUDE, entry)]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def skip_group(toks, i, open_tok, close_tok):
    """The index after the group that opens at toks[i]."""
    depth = 0
    while i < len(toks):
        depth += (toks[i] == open_tok) - (toks[i] == close_tok)
        i += 1
        if depth == 0:
            break
    return i


def declared_functions(text):
    """{"tileslc::dev": {"lane_idx", ...}, "": {...}, ...}: what each namespace declares at its scope."""
    toks = TOKEN.findall(text)
    out = collections.defaultdict(set)
    scopes = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "namespace" and "{" in toks[i + 1:i + 8]:
            j = toks.index("{", i)
            scopes.append([x for x in toks[i + 1:j] if x != "::"])
            i = j + 1
        elif t == "}":
            if scopes:
                scopes.pop()
            i += 1
        elif t == "{":  # a function's body, a class, an extern "C" block: not namespace scope
            i = skip_group(toks, i, "{", "}")
        elif t == "(":
            prev, before = toks[i - 1], toks[i - 2] if i >= 2 else ""
            if IDENT.match(prev) and prev not in NOT_FUNCTIONS and before not in ("::", ".", "->", "="):
                out["::".join(n for s in scopes for n in s)].add(prev)
            i = skip_group(toks, i, "(", ")")
        else:
            i += 1
    return out


def check(cxx):
    problems = []
    with tempfile.TemporaryDirectory() as stubs:
        stub_system_headers(stubs)
        device = declared_functions(preprocess(cxx, "tileslc/device/prelude.h", stubs))
        cpu = declared_functions(preprocess(cxx, "tileslc/cpu/prelude.h", stubs))
        host = declared_functions(preprocess(cxx, "tileslc/runtime.h", stubs))
    spelled = set()
    for row in rows():
        for name in expansions(row):
            where = row["id"] + " (" + name + ")"
            if row["space"] in ("Dev", "DevCast"):
                spelled.add(name)
                if name not in device["tileslc::dev"]:
                    problems.append(where + ": not defined in runtime/include/tileslc/device/")
                if row["emulated"] != (name in cpu["tileslc::dev"]):
                    problems.append(where + (": not defined in runtime/include/tileslc/cpu/ but the row says Emulated"
                                             if row["emulated"] else ": the CPU headers define it; the row says Emulated false"))
            elif row["space"] == "Cuda" and row["emulated"] != (name in cpu[""]):
                problems.append(where + (": the CPU headers do not define it at global scope but the row says Emulated"
                                         if row["emulated"] else ": the CPU headers define it; the row says Emulated false"))
            elif row["space"] == "Host" and name not in host["tileslc"]:
                problems.append(where + ": not declared in runtime/include/tileslc/runtime.h")
    for name in sorted(device["tileslc::dev"] - spelled - HELPERS):
        problems.append("tileslc::dev::" + name + ": defined in runtime/include/tileslc/device/ but no intrinsics.def row spells it"
                        " (add a row, or list it in tools/check_intrinsics.py's HELPERS)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"), help="the C++ compiler whose preprocessor to run")
    args = ap.parse_args()
    problems = check(args.cxx)
    for p in problems:
        print("intrinsics.headers: " + p)
    n = sum(len(expansions(r)) for r in rows())
    print("intrinsics.headers: %d rows, %d spellings, %d problem(s)" % (len(rows()), n, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
