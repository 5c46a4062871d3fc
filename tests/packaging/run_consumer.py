#!/usr/bin/env python3
"""Builds tests/packaging/consumer, a project outside the tileslc tree, the two
ways a user would (ctest packaging.*):

  --via install       cmake --install the tileslc build into a prefix, then
                      configure the consumer with find_package(tileslc), build
                      it, run it (it prints "PASS: packaging"); then touch a
                      module its .tpy imports, build again, and check that only
                      tileslc ran (unchanged outputs keep their time stamps, so
                      nothing that includes them is compiled again).
  --via subdirectory  configure the consumer with add_subdirectory(tileslc) and
                      check, without building (a second compiler build would
                      double CI time), that the build holds the compiler, the
                      runtime and the consumer and no tests, samples or bench
                      (ninja -t commands / targets).

Prints the step counts. Exit status 0 on success, 1 on a failed check.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        sys.exit("FAIL: %s exited with %d" % (" ".join(cmd), r.returncode))
    return r.stdout


def steps(ninja_output):
    """The lines a ninja build printed for its steps ("[3/7] Building ...")."""
    return [l for l in ninja_output.splitlines() if re.match(r"^\[\d+/\d+\] ", l)]


def configure(args, project, build, extra):
    cmd = [args.cmake, "-S", project, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"] + extra
    for var in ("CMAKE_CXX_COMPILER_LAUNCHER",):
        if os.environ.get(var):
            cmd.append("-D%s=%s" % (var, os.environ[var]))
    run(cmd)


def via_install(args, project, work):
    prefix = os.path.join(work, "prefix")
    run([args.cmake, "--install", args.tileslc_build, "--prefix", prefix])
    for f in ("bin/tileslc", "share/tileslc/stdlib/tileslc/__init__.tpy", "include/tileslc/c_api.h",
              "include/tileslc/runtime.h", "lib/cmake/tileslc/tileslcConfig.cmake",
              "lib/cmake/tileslc/tileslcConfigVersion.cmake", "lib/libtileslc_rt_cpu.a", "lib/libtileslc_rt_cpu.so"):
        if not os.path.exists(os.path.join(prefix, f)):
            sys.exit("FAIL: cmake --install did not install %s" % f)
    build = os.path.join(work, "build")
    configure(args, project, build, ["-DCMAKE_PREFIX_PATH=" + prefix])
    first = steps(run([args.cmake, "--build", build]))
    print("find_package build: %d steps" % len(first))
    out = run([os.path.join(build, "consumer")])
    sys.stdout.write(out)
    if "PASS: packaging" not in out:
        sys.exit("FAIL: the consumer did not pass")
    # A touch of an imported module reruns tileslc, whose outputs do not change.
    time.sleep(1.1)  # coarse file-system clocks
    os.utime(os.path.join(project, "kernels", "lib", "scaling.tpy"))
    second = steps(run([args.cmake, "--build", build]))
    print("after touching kernels/lib/scaling.tpy: %d steps" % len(second))
    for l in second:
        print("  " + l)
    expected = ["tileslc --target=cpu times2_scale.tpy", "tileslc --target=cpu times3_scale.tpy"]
    if sorted(re.sub(r"^\[\d+/\d+\] ", "", l) for l in second) != expected:
        sys.exit("FAIL: expected only the tileslc steps of the two instances that import scaling.tpy")
    pip_from_prefix(project, prefix, work)


# Run by pip_from_prefix in a clean environment: the pip-installed package must find the compiler
# and the runtime through the prefix it was installed from, nothing else.
PIP_CHECK = r"""
import os, sys
import tileslc
from tileslc import _build
exe = _build._find_tileslc(None)
assert exe == os.path.realpath(os.path.join(sys.argv[1], "bin", "tileslc")), exe
print("python: the pip-installed package found " + exe)
try:
    import numpy as np
except ImportError:
    print("python: no NumPy here: not calling a kernel")
    sys.exit(0)
lib = tileslc.build(sys.argv[2], defines={"FACTOR": 3}, target="cpu", include_dirs=[os.path.dirname(sys.argv[2]) + "/lib"],
                    cache_dir=sys.argv[3])
x = np.arange(100, dtype=np.float32)
y = np.zeros(100, np.float32)
lib.scale(x, y)
assert (y == 3 * x).all(), y
print("python: scale(FACTOR=3) through tileslc.build from the prefix: y == 3 * x")
"""


def pip_from_prefix(project, prefix, work):
    """pip install PREFIX/share/tileslc/python into a scratch target and use it: tileslc.build
    of the consumer's kernel for the CPU target, called with NumPy where it is installed."""
    package = os.path.join(prefix, "share", "tileslc", "python")
    if not os.path.isfile(os.path.join(package, "tileslc", "_install_prefix.py")):
        sys.exit("FAIL: cmake --install did not install the Python package with its _install_prefix.py")
    # The interpreter that has NumPy (Debian's, when the one running this has none) and pip.
    python = sys.executable
    for candidate in (sys.executable, "/usr/bin/python3"):
        if not os.path.exists(candidate):
            continue
        # pip is asked apart: importing it before setuptools trips Debian's distutils shim.
        modules = subprocess.run([candidate, "-c", "import numpy, setuptools, wheel"], capture_output=True)
        pip = subprocess.run([candidate, "-m", "pip", "--version"], capture_output=True)
        if modules.returncode == 0 and pip.returncode == 0:
            python = candidate
            break
    target = os.path.join(work, "site")
    # No index and no build isolation: the machine may be offline; setuptools is what builds it.
    run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", "--no-deps",
         "--target", target, package])
    env = {k: v for k, v in os.environ.items() if k not in ("TILESLC", "PYTHONPATH", "TILESLC_CACHE_DIR")}
    env["PATH"] = "/usr/bin:/bin"
    env["PYTHONPATH"] = target
    if os.environ.get("TILESLC_TEST_PRELOAD"):  # an ASan build: its runtime first, no leak report
        env["LD_PRELOAD"] = os.environ["TILESLC_TEST_PRELOAD"]
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    script = os.path.join(work, "pip_check.py")
    with open(script, "w") as f:
        f.write(PIP_CHECK)
    sys.stdout.write(run([python, script, prefix, os.path.join(project, "kernels", "scale.tpy"),
                          os.path.join(work, "cache")], env=env, cwd=work))


def via_subdirectory(args, project, work):
    build = os.path.join(work, "build-subdir")
    configure(args, project, build, ["-DTILESLC_VIA=subdirectory", "-DTILESLC_SOURCE_DIR=" + os.path.abspath(args.source)])
    # `ninja -n` would only announce a CMake re-run (the CONFIGURE_DEPENDS globs); the
    # commands tool lists every command of a build from scratch.
    commands = run([args.ninja, "-C", build, "-t", "commands", "all"]).splitlines()
    targets = run([args.ninja, "-C", build, "-t", "targets", "all"])
    own = len(run([args.ninja, "-C", args.tileslc_build, "-t", "commands", "all"]).splitlines())
    print("add_subdirectory build: %d commands (the tileslc build itself, tests and samples included: %d)"
          % (len(commands), own))
    for forbidden in ("runtime_test", "tileslc_bench", "emu_", "vector_add_kernels", "layout_test", "gtest"):
        if forbidden in targets:
            sys.exit("FAIL: add_subdirectory(tileslc) builds %s (tests, samples and bench are off there)" % forbidden)
    for needed in ("bin/tileslc", "libtileslc_rt_cpu.a", "consumer"):
        if needed not in targets:
            sys.exit("FAIL: add_subdirectory(tileslc) does not build %s" % needed)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--via", choices=("install", "subdirectory"), required=True)
    ap.add_argument("--source", required=True, help="the tileslc source tree")
    ap.add_argument("--tileslc-build", required=True, help="the tileslc build tree (for --via install)")
    ap.add_argument("--work", required=True, help="a scratch directory (emptied first)")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--ninja", default="ninja")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    project = os.path.join(args.work, "consumer")
    shutil.copytree(os.path.join(HERE, "consumer"), project)  # the touch test must not touch the repository
    (via_install if args.via == "install" else via_subdirectory)(args, project, args.work)
    print("PASS: packaging via %s" % args.via)


if __name__ == "__main__":
    main()
