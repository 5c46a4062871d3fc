#!/usr/bin/env python3
"""check_stubs.py STUBS_DIR [--pyright SAMPLES_DIR]: checks the editor stubs (tools/gen_stubs.py).

Without --pyright (ctest stubs.generate): every stub parses as Python, every stdlib module has
one (under `tileslc` and its `cutlass` alias), and every builtins.def row is public where the
compiler binds it: `cute.arch.thread_idx` is in tileslc/cute/arch.pyi's `__all__`, every
method is a method of its class in tileslc/_builtins.pyi.

With --pyright (ctest stubs.pyright): copies each SAMPLES_DIR/*/*.tpy to a temporary .py (pyright
reads only .py), points pyright's stubPath at STUBS_DIR in basic mode and requires 0 errors over
all of them. pyright is TILESLC_PYRIGHT, else `pyright` on PATH, else the copy tools/bootstrap.sh
installs with npm under ~/.cache/tileslc/pyright; without one the check exits 77 (ctest: skipped).
Exit status: 0 pass, 1 fail (with what failed), 77 skipped.
"""
import ast
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import gen_stubs  # noqa: E402  (the row reader and the module mapping are the generator's)


def all_names(path: pathlib.Path):
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return {ast.literal_eval(e) for e in node.value.elts}
    return set()


def check_generated(stubs: pathlib.Path) -> list:
    errors = []
    for pyi in sorted(stubs.rglob("*.pyi")):
        try:
            ast.parse(pyi.read_text(), filename=str(pyi))
        except SyntaxError as e:
            errors.append(f"{pyi}:{e.lineno}: {e.msg}")
    stdlib = gen_stubs.ROOT / "stdlib"
    for tpy in sorted((stdlib / "tileslc").rglob("*.tpy")):
        rel = tpy.relative_to(stdlib)
        rel = rel.parent / "__init__.pyi" if rel.name == "__init__.tpy" else rel.with_suffix(".pyi")
        for shown in (rel, pathlib.Path("cutlass", *rel.parts[1:])):
            if not (stubs / shown).is_file():
                errors.append(f"no stub {shown} for {tpy.relative_to(gen_stubs.ROOT)}")
    builtins_tree = ast.parse((stubs / "tileslc/_builtins.pyi").read_text())
    classes = {n.name: {m.name for m in n.body if isinstance(m, ast.FunctionDef)}
               for n in builtins_tree.body if isinstance(n, ast.ClassDef)}
    for row in gen_stubs.read_rows():
        if row["kind"] == "METHOD":
            cls, meth = row["name"].split(".", 1)
            if not cls[:1].isupper():
                continue  # Python's own types
            if meth not in classes.get(cls, set()):
                errors.append(f"{row['name']}: no method {meth} on class {cls} in tileslc/_builtins.pyi")
            continue
        module = gen_stubs.module_of(row["name"])
        if not module:
            continue
        parts = module.split(".")
        path = stubs.joinpath(*parts, "__init__.pyi")
        if not path.is_file():
            path = stubs.joinpath(*parts[:-1], parts[-1] + ".pyi")
        bound = row["name"].rsplit(".", 1)[1]
        if not path.is_file() or bound not in all_names(path):
            errors.append(f"{row['name']}: not in the __all__ of {path.relative_to(stubs)}")
    return errors


def find_pyright():
    for candidate in (os.environ.get("TILESLC_PYRIGHT"), shutil.which("pyright"),
                      str(pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
                          / "tileslc/pyright/node_modules/.bin/pyright")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def check_pyright(stubs: pathlib.Path, samples: pathlib.Path) -> int:
    pyright = find_pyright()
    if not pyright:
        print("stubs.pyright: skipped: no pyright (set TILESLC_PYRIGHT, or run tools/bootstrap.sh with npm present)")
        return 77
    sources = sorted(samples.glob("*/*.tpy"))
    if not sources:
        print(f"stubs.pyright: no samples under {samples}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for src in sources:
            shutil.copy(src, pathlib.Path(tmp) / (src.stem + ".py"))
        config = {"stubPath": str(stubs.resolve()), "typeCheckingMode": "basic",
                  "reportMissingModuleSource": False, "pythonVersion": "3.11"}
        (pathlib.Path(tmp) / "pyrightconfig.json").write_text(json.dumps(config))
        run = subprocess.run([pyright, "--outputjson", "-p", tmp], capture_output=True, text=True, cwd=tmp)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        print(f"stubs.pyright: pyright printed no JSON (exit {run.returncode}): {run.stderr.strip()[:400]}")
        return 1
    summary = report["summary"]
    for d in report["generalDiagnostics"]:
        if d["severity"] == "error":
            line = d["range"]["start"]["line"] + 1
            print(f"{pathlib.Path(d['file']).name}:{line}: {d['message'].splitlines()[0]} ({d.get('rule', '')})")
    print(f"stubs.pyright: pyright {report.get('version', '?')}: {summary['filesAnalyzed']} samples, "
          f"{summary['errorCount']} errors, {summary['warningCount']} warnings")
    ok = summary["errorCount"] == 0 and summary["filesAnalyzed"] == len(sources)
    return 0 if ok else 1


def main(argv) -> int:
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--pyright"):
        print("usage: check_stubs.py STUBS_DIR [--pyright SAMPLES_DIR]", file=sys.stderr)
        return 2
    stubs = pathlib.Path(argv[1])
    if len(argv) == 4:
        return check_pyright(stubs, pathlib.Path(argv[3]))
    errors = check_generated(stubs)
    for e in errors:
        print("stubs.generate:", e)
    count = len(list(stubs.rglob("*.pyi")))
    print(f"stubs.generate: {count} stubs, {len(errors)} problems")
    return 1 if errors or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
