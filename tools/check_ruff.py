#!/usr/bin/env python3
"""check_ruff.py REPO: lints every sample (samples/*/*.tpy) with the repository's ruff.toml and
requires 0 diagnostics (ctest stubs.ruff).

ruff runs as its WebAssembly build under node (tools/ruff_wasm.mjs), from the copy that
tools/bootstrap.sh installs with npm under ~/.cache/tileslc/ruff (or TILESLC_RUFF_WASM, a
directory holding node_modules/@astral-sh/ruff-wasm-nodejs); ruff's settings come from
ruff.toml (its file-selection keys are for the ruff command line and are dropped here: this
script chooses the files). Without node or the package the check exits 77 (ctest: skipped).
Exit status: 0 pass, 1 diagnostics (printed), 77 skipped."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

try:
    import tomllib  # Python 3.11
except ImportError:
    tomllib = None


def main():
    repo = pathlib.Path(sys.argv[1]).resolve()
    cache = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache")) / "tileslc" / "ruff"
    wasm_dir = pathlib.Path(os.environ.get("TILESLC_RUFF_WASM", cache))
    if tomllib is None:
        print("SKIP: this Python (%s) has no tomllib to read ruff.toml (3.11 or later)" % sys.version.split()[0])
        return 77
    node = shutil.which("node")
    if node is None or not (wasm_dir / "node_modules" / "@astral-sh" / "ruff-wasm-nodejs").is_dir():
        print("SKIP: ruff (node and @astral-sh/ruff-wasm-nodejs under %s) not installed: run tools/bootstrap.sh" % wasm_dir)
        return 77
    settings = tomllib.loads((repo / "ruff.toml").read_text())
    for key in ("extend-include", "include", "exclude", "extend-exclude"):
        settings.pop(key, None)
    files = sorted(str(p) for p in (repo / "samples").glob("*/*.tpy"))
    env = dict(os.environ, NODE_PATH=str(wasm_dir / "node_modules"))
    # An ES module resolves bare imports from its own directory upwards, not NODE_PATH: run a copy
    # placed next to the package.
    runner = wasm_dir / "ruff_wasm.mjs"
    shutil.copyfile(repo / "tools" / "ruff_wasm.mjs", runner)
    r = subprocess.run([node, str(runner), json.dumps(settings)] + files, env=env, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(r.stdout, end="")
    print("ruff: %d samples, %s" % (len(files), "0 diagnostics" if r.returncode == 0 else "diagnostics above"))
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
