"""Builds and loads the C fast path (_fastcall.c) on first use.

It is compiled with the system C compiler ($TILESLC_CC, else cc) against this
Python's headers and tileslc/c_api.h, into the build cache (tileslc.build's:
$TILESLC_CACHE_DIR, else ~/.cache/tileslc) under a hash of the source, the
header, the interpreter and the compiler, so each interpreter builds it once.
Anything missing (no compiler, no Python headers, no c_api.h) leaves the
package on its ctypes path: `status()` says why (TILESLC_FASTCALL_DEBUG=1 also
prints it to stderr). TILESLC_FASTCALL=0 turns the fast path off. Its optional
C++ torch reader is _torch_reader_build's."""
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time


def _header_dirs():
    """Directories that may hold tileslc/c_api.h: $TILESLC_INCLUDE, next to the compiler
    (installed or build tree, as tileslc.build finds it), the checkout's runtime/include."""
    dirs = [os.environ.get("TILESLC_INCLUDE")]
    try:
        from ._build import _find_tileslc, _layout
        dirs.append(_layout(_find_tileslc(None))[0])
    except Exception:  # no compiler around: tileslc.load() needs none
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    dirs.append(os.path.join(here, "..", "..", "runtime", "include"))
    return [d for d in dirs if d and os.path.isfile(os.path.join(d, "tileslc", "c_api.h"))]


def _build():
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_fastcall.c")
    includes = _header_dirs()
    if not includes:
        return None, "tileslc/c_api.h not found (set TILESLC_INCLUDE)"
    py_include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(py_include, "Python.h")):
        return None, "no Python.h in %s (install this Python's development headers)" % py_include
    cc = os.environ.get("TILESLC_CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None, "no C compiler (cc) on PATH (set TILESLC_CC)"
    here = os.path.dirname(src)
    cmd = [cc, "-std=c11", "-O2", "-shared", "-fPIC", "-I", py_include, "-I", includes[0], "-I", here, src]
    key = "%s\0%s\0%s" % (sys.version, sys.executable, cc)
    return compile_cached("fastcall", "tileslc._fastcall",
                          (src, os.path.join(here, "_torch_reader.h"), os.path.join(includes[0], "tileslc", "c_api.h")),
                          key, cmd)


def compile_cached(stem, module_name, inputs, key, cmd, remember_failure=False):
    """Compiles an extension module (`cmd` + ["-o", output path]) into the build cache under a hash
    of the `inputs` files and `key`, unless it is there already, and imports it as
    `module_name`. Returns (module, status); (None, why) when the compiler failed. With
    `remember_failure` (for builds that take seconds) the compiler's output goes to the entry's
    FAILED file, which `why` names, and later processes do not try again (deleting the entry's
    directory retries)."""
    from ._build import _cache_root
    h = hashlib.sha256()
    for p in inputs:
        with open(p, "rb") as f:
            h.update(f.read())
    h.update(key.encode())
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    entry = os.path.join(_cache_root(None), "%s-%s" % (stem, h.hexdigest()[:24]))
    path = os.path.join(entry, module_name.rpartition(".")[2] + suffix)
    failed = os.path.join(entry, "FAILED")
    built = ""
    if not os.path.isfile(path):
        if remember_failure and os.path.isfile(failed):
            return None, "failed to build earlier (compiler output: %s)" % failed
        os.makedirs(entry, exist_ok=True)
        tmp = os.path.join(entry, ".%s.%d%s" % (stem, os.getpid(), suffix))
        cmd = cmd + ["-o", tmp]
        start = time.monotonic()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        built = " (built now in %.1f s)" % (time.monotonic() - start)
        if r.returncode != 0:
            why = "%s\n%s" % (" ".join(cmd), r.stdout)
            if not remember_failure:
                return None, "building %s failed: %s" % (module_name, why)
            with open(failed + ".%d" % os.getpid(), "w", encoding="utf-8") as f:
                f.write(why)
            os.replace(failed + ".%d" % os.getpid(), failed)
            return None, "building %s failed (compiler output: %s)" % (module_name, failed)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, "loaded from %s%s" % (path, built)


class OnFirstUse:
    """An extension module built and loaded on first use, once a process: `load(build, *args)`
    calls build(*args) -> (module or None, status) the first time, unless $`switch` is 0, and
    keeps both (an exception is a status too: a broken cache entry, a read-only cache, an import
    error). TILESLC_FASTCALL_DEBUG=1 prints the status to stderr, with the compiler's output
    when a build failed (compile_cached)."""

    def __init__(self, label, switch):
        self.label, self.switch = label, switch
        self.module, self.status = None, "not loaded yet"

    def load(self, build, *args):
        if self.status == "not loaded yet":
            if os.environ.get(self.switch, "1") == "0":
                self.status = "off (%s=0)" % self.switch
            else:
                try:
                    self.module, self.status = build(*args)
                except Exception as e:
                    self.module, self.status = None, "unavailable: %s" % e
            if os.environ.get("TILESLC_FASTCALL_DEBUG", "0") not in ("", "0"):
                print("tileslc: %s: %s" % (self.label, self.status), file=sys.stderr)
                for log in re.findall(r"compiler output: ([^)]+)\)", self.status):
                    with open(log, encoding="utf-8", errors="replace") as f:
                        sys.stderr.write(f.read())
        return self.module


_fast = OnFirstUse("fast path", "TILESLC_FASTCALL")


def module():
    """The _fastcall extension module, building it the first time; None when unavailable
    (status() says why)."""
    return _fast.load(_build)


def status():
    """Why the fast path is or is not in use, e.g. 'loaded from /root/.cache/tileslc/...', and
    once torch was handed to it, its torch reader's state ('; torch reader: ...',
    _torch_reader_build.status())."""
    from . import _torch_reader_build
    reader = _torch_reader_build.status()
    return _fast.status if reader == "not loaded yet" else "%s; torch reader: %s" % (_fast.status, reader)
