#!/usr/bin/env python3
"""ctest packaging.docker_steps: deploy/docker/Dockerfile's steps, run the way the image runs
them, without docker (no registry, no GPU needed).

1. The Dockerfile: CUDA_VERSION is an ARG before the first FROM and both stages' bases use it;
   every `install_steps.sh STEP` it runs is a step the script has; every path it COPYs from the
   context exists; every path the runtime stage copies from the build stage is one the steps make.
2. `install_steps.sh install PREFIX` on this build tree, then `install_steps.sh kernels PREFIX
   OUT` for the CPU emulator (vector_add, sm_80): OUT holds the kernels library and its header,
   PREFIX the runtime headers (and, where CUDA built it, libtileslc_rt.so) the image copies.

Usage: docker_steps.py --source DIR --build DIR --work DIR
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from script_util import fail, parse_args, run  # noqa: E402


def lint(source):
    path = os.path.join(source, "deploy", "docker", "Dockerfile")
    lines = open(path, encoding="utf-8").read().replace("\\\n", " ").splitlines()
    script = open(os.path.join(source, "deploy", "docker", "install_steps.sh"), encoding="utf-8").read()
    steps = set(re.findall(r"^  ([a-z]+)\)$", script, re.M))
    froms = [(n, ln) for n, ln in enumerate(lines, 1) if ln.startswith("FROM ")]
    args_before = [ln for ln in lines[:froms[0][0]] if ln.startswith("ARG CUDA_VERSION=")]
    if not args_before:
        fail(f"{path}: no 'ARG CUDA_VERSION=' before the first FROM")
    for n, ln in froms:
        if "${CUDA_VERSION}" not in ln:
            fail(f"{path}:{n}: the base does not use ${{CUDA_VERSION}}: {ln}")
    if [ln.split()[-1] for _, ln in froms] != ["build", "runtime"]:
        fail(f"{path}: expected two stages, build and runtime")
    used = 0
    for n, ln in enumerate(lines, 1):
        if ln.startswith("RUN "):
            for step in re.findall(r"install_steps\.sh (\w+)", ln):
                used += 1
                if step not in steps:
                    fail(f"{path}:{n}: install_steps.sh has no step '{step}' ({', '.join(sorted(steps))})")
        if ln.startswith("COPY ") and "--from=" not in ln:
            for src in ln.split()[1:-1]:
                if src != "." and not os.path.exists(os.path.join(source, src)):
                    fail(f"{path}:{n}: COPY {src}: no such path in the tree")
        if ln.startswith("COPY --from=build"):
            src = ln.split()[2]
            if not (src.startswith("/opt/tileslc/") or src.startswith("/opt/tileslc-kernels/")):
                fail(f"{path}:{n}: COPY --from=build {src}: not under the prefixes the steps install into")
    if used < 4:
        fail(f"{path}: runs {used} install_steps.sh steps, expected deps, build, install and kernels")
    print(f"ok: {path}: {len(froms)} stages on CUDA_VERSION, {used} install_steps.sh steps, COPY sources present")


def main():
    a = parse_args("--source", "--build")
    lint(a.source)
    prefix, out = os.path.join(a.work, "prefix"), os.path.join(a.work, "kernels")
    env = dict(os.environ, TILESLC_BUILD_TREE=a.build, TILESLC_KERNELS_TARGET="cpu", TILESLC_ARCHS="sm_80",
               TILESLC_SAMPLES="vector_add:sm_80", TILESLC_BUILD_DIR=os.path.join(a.work, "kernels-build"))
    steps = os.path.join(a.source, "deploy", "docker", "install_steps.sh")
    for cmd in ([steps, "install", prefix], [steps, "kernels", prefix, out]):
        run(cmd, env=env)
    want = [os.path.join(out, "lib", "libtileslc_kernels_sm_80.so"), os.path.join(out, "include", "tileslc_kernels", "sm_80_vector_add.h"),
            os.path.join(prefix, "include", "tileslc", "runtime.h")]
    for w in want:
        if not os.path.isfile(w):
            fail(f"the steps did not make {w}")
    cuda_rt = glob.glob(os.path.join(prefix, "lib", "libtileslc_rt.so*"))
    print(f"ok: install and kernels made {', '.join(os.path.relpath(w, a.work) for w in want)}"
          + (f" and {os.path.basename(cuda_rt[0])}" if cuda_rt else " (no CUDA here: no libtileslc_rt.so to check)"))
    print("PASS: docker steps")


if __name__ == "__main__":
    main()
