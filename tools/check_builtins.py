#!/usr/bin/env python3
"""Checks compiler/sema/builtins.def (the builtin registry) against the rest of the tree.

1. The stdlib agrees with the table. The compiler binds each row into the
   stdlib module its Name spells (`cute.arch.thread_idx`: thread_idx in
   stdlib/tileslc/cute/arch.tpy, as `import tileslc.cute as cute` makes it
   cute.arch); so every such module must exist, no stdlib file may define a
   name that hides one of its rows, and `from tileslc._builtins import` is
   left for the scalar types only. Python's builtins (names without a
   module) are found everywhere and belong to no module.
2. Every row is exercised: its name is called (or, for decorators, types and
   annotations, used) by some golden test, sample, GPU or emulator test, a
   unit test's source text, or a stdlib building block (tileslc.pipeline,
   tileslc.utils: they run when the samples that import them compile).

    python3 tools/check_builtins.py            # exit 1 and one line per problem

Python 3 standard library only.
"""
import glob
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r'^TILESLC_(BUILTIN|METHOD)\((\w+),\s*("?[\w]*"?),\s*"([^"]+)",\s*"([^"]*)",\s*(\w+),\s*(\w+),\s*(\w+)\)')


def rows():
    out = []
    with open(os.path.join(REPO, "compiler", "sema", "builtins.def")) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                kind, ident, export, name, params, context, arch, handler = m.groups()
                out.append({"kind": kind, "id": ident, "export": export.strip('"'), "name": name, "params": params})
    return out


def scalar_types():
    text = open(os.path.join(REPO, "compiler", "ir", "ir.h")).read()
    body = re.search(r"enum class ScalarType : uint8_t \{(.*?)\};", text, re.S).group(1)
    return {t.strip() for t in body.replace("\n", " ").split(",") if t.strip() and t.strip() != "Count_"}


def stdlib_modules():
    """{module as users write it ('cute.arch'): the text of its stdlib file}"""
    out = {}
    root = os.path.join(REPO, "stdlib")
    for path in glob.glob(os.path.join(root, "tileslc", "**", "*.tpy"), recursive=True):
        rel = os.path.relpath(path, root)[: -len(".tpy")].split(os.sep)
        if rel[-1] == "__init__":
            rel = rel[:-1]
        module = ".".join(rel)
        module = "cute" + module[len("tileslc.cute"):] if module.startswith("tileslc.cute") else "cutlass" + module[len("tileslc"):]
        out[module] = open(path).read()
    # Python's standard-library modules the stdlib provides (math.tpy): their rows are named "math.ceil".
    for path in glob.glob(os.path.join(root, "*.tpy")):
        out[os.path.basename(path)[: -len(".tpy")]] = open(path).read()
    return out


def used(name, corpus):
    n = re.escape(name)
    # a call or subscript (cute.Tensor[...]), a decorator (@cute.kernel), an annotation (x: cutlass.Constexpr)
    pattern = re.compile(r"(\b%s\s*[\(\[])|(@[\w.]*\b%s\b)|(:\s*[\w.]*\b%s\b)" % (n, n, n))
    return any(pattern.search(text) for text in corpus)


def main():
    problems = []
    table = rows()
    if not table:
        print("check_builtins: no rows found in compiler/sema/builtins.def")
        return 1
    types = scalar_types()
    modules = stdlib_modules()
    for module, text in modules.items():
        for m in re.finditer(r"from tileslc\._builtins import (\([^)]*\)|[^\n]*)", text):
            for item in m.group(1).strip("()").replace("\n", " ").split(","):
                name = item.split(" as ")[0].strip()
                if name and name not in types:
                    problems.append(f"stdlib module {module} imports '{name}' from tileslc._builtins; builtins come from "
                                    f"builtins.def's Name column, only scalar types are imported")
    for r in table:
        if r["kind"] != "BUILTIN" or "." not in r["name"]:
            continue
        module, public = r["name"].rsplit(".", 1)
        if module not in modules:
            problems.append(f"builtins.def row {r['id']} is named {r['name']}, but there is no stdlib module {module}")
            continue
        if re.search(r"^(def\s+%s\b|%s\s*=|import\s.*\bas\s+%s\s*$)" % ((re.escape(public),) * 3), modules[module], re.M):
            problems.append(f"stdlib module {module} defines '{public}', hiding builtins.def row {r['id']}")

    corpus = []
    # The stdlib counts: its modules run when the samples that import them compile.
    for pattern in ("tests/golden/*.tpy", "tests/golden/**/*.tpy", "samples/*/*.tpy", "tests/gpu/*.tpy", "tests/emu/*.tpy",
                    "stdlib/tileslc/pipeline.tpy", "stdlib/tileslc/utils/*.tpy",
                    "tests/unit/*.cpp"):
        for path in glob.glob(os.path.join(REPO, pattern), recursive=True):
            corpus.append(open(path, encoding="utf-8", errors="replace").read())
    for r in table:
        short = r["name"].rsplit(".", 1)[-1]
        if not used(short, corpus):
            problems.append(f"builtins.def row {r['id']} ({r['name']}) is not exercised by any golden, sample, GPU, "
                            f"emulator or unit test")
    for p in problems:
        print(p)
    print(f"check_builtins: {len(table)} rows, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
