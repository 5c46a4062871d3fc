#!/usr/bin/env python3
"""Checks docs/cute_dsl_compat.md's name table against what tileslc provides.

The table (under the heading "CuTe DSL's names and their status here") lists every public name of CuTe DSL's `cutlass.cute` (with `cute.arch`, `cute.math`,
`cute.nvgpu.*`), `cutlass.utils` and `cutlass.pipeline`, one row each:

    | `cute.make_layout` | same |
    | `cute.arch.atomic_add` | differs: takes the tensor and coordinate (Python has no address-of) |
    | `cute.nvgpu.tcgen05.MmaF16BF16Op` | not yet |

A name exists here when a builtins.def row is named so (compiler/sema/builtins.def, read as
tools/check_builtins.py reads it) or the stdlib module CuTe DSL's name maps to defines it at top
level (a def, an assignment, an import) or is it (a submodule). The rules:
  - a name marked `same` or `differs: ...` must exist here;
  - a name that exists here must not be marked `not yet`;
  - every status is one of the three (`differs` with its reason), and no name is listed twice.
The table's names come from a CuTe DSL checkout once (they are facts); this check needs none.

    python3 tools/check_cute_dsl_compat.py     # exit 1 and one line per problem

Python 3 standard library only.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_builtins  # noqa: E402  (rows(), stdlib_modules(): the registry as the builtins check reads it)

REPO = check_builtins.REPO
DOC = os.path.join(REPO, "docs", "cute_dsl_compat.md")
SECTION = "## CuTe DSL's names and their status here"
ROW = re.compile(r"^\|\s*`([\w.]+)`\s*\|\s*([^|]*?)\s*\|")
TOP_LEVEL = re.compile(r"^(?:def\s+(\w+)|class\s+(\w+)|(\w+)\s*(?::[^=\n]*)?=(?!=)|import\s+[\w.]+\s+as\s+(\w+))", re.M)
FROM_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s+(\([^)]*\)|[^\n]*)", re.M)


def tileslc_names():
    """Every public name tileslc provides, spelled as CuTe DSL users write it ('cute.arch.thread_idx')."""
    names = set()
    for r in check_builtins.rows():
        if r["kind"] == "BUILTIN" and "." in r["name"]:
            names.add(r["name"])
    modules = check_builtins.stdlib_modules()
    for module, text in modules.items():
        names.add(module)  # a submodule is a name of its parent (cute.arch)
        for m in TOP_LEVEL.finditer(text):
            name = next(g for g in m.groups() if g)
            if not name.startswith("_"):
                names.add(f"{module}.{name}")
        for m in FROM_IMPORT.finditer(text):
            for item in m.group(1).strip("()").replace("\n", " ").split(","):
                name = item.split(" as ")[-1].strip()
                if name and not name.startswith("_") and not name.startswith("#"):
                    names.add(f"{module}.{name}")
    return names


def table():
    """(line, name, status) of the rows under the heading SECTION (other tables of the page are not names)."""
    rows = []
    inside = False
    with open(DOC, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.strip() == SECTION
            m = ROW.match(line) if inside else None
            if m:
                rows.append((lineno, m.group(1), m.group(2)))
    return rows


def main():
    ours = tileslc_names()
    rows = table()
    problems = []
    if not rows:
        problems.append(f"{DOC}: no name table rows (| `cute.name` | status |)")
    seen = {}
    for lineno, name, status in rows:
        where = f"docs/cute_dsl_compat.md:{lineno}"
        if name in seen:
            problems.append(f"{where}: {name} is listed twice (first at line {seen[name]})")
        seen[name] = lineno
        exists = name in ours
        if status == "same" or re.match(r"differs: \S", status):
            if not exists:
                problems.append(f"{where}: {name} is marked '{status.split(':')[0]}' but tileslc has no such name "
                                f"(no builtins.def row, no stdlib definition)")
        elif status == "not yet":
            if exists:
                problems.append(f"{where}: {name} is marked 'not yet' but tileslc provides it: mark it 'same' or "
                                f"'differs: why'")
        else:
            problems.append(f"{where}: {name} has status '{status}'; use same, differs: <why>, or not yet")
    for p in problems:
        print(p)
    counts = {s: sum(1 for _, _, st in rows if st.split(":")[0] == s) for s in ("same", "differs", "not yet")}
    print(f"check_cute_dsl_compat: {len(rows)} names ({counts['same']} same, {counts['differs']} differ, "
          f"{counts['not yet']} not yet), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
