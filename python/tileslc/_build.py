"""tileslc.build: .tpy -> kernel library, cached by content hash.

The compiler runs every time (it takes milliseconds) into a scratch
directory; the hash of what it generated (so imports and compiler changes
count), of the build command and of the runtime library names the cache
entry. Only a new hash runs the host compiler: nvcc for target "cuda", g++
(TILESLC_CXX, else c++) for "cpu" (the CPU emulator)."""
import hashlib
import os
import shutil
import subprocess
import tempfile

from ._library import TileslcError, load


def _installed_tileslc():
    """PREFIX/bin/tileslc when this package was pip-installed from a CMake install of tileslc
    (cmake --install writes the prefix into _install_prefix.py), else None."""
    try:
        from ._install_prefix import PREFIX
    except ImportError:  # installed from the checkout, or used from it
        return None
    return os.path.join(PREFIX, "bin", "tileslc")


def _find_tileslc(explicit):
    """The tileslc executable: `explicit`, $TILESLC, tileslc on PATH, the CMake install this
    package came from, or the checkout's build/bin/tileslc."""
    checkout = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin", "tileslc")
    for c in (explicit, os.environ.get("TILESLC"), shutil.which("tileslc"), _installed_tileslc(), checkout):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.realpath(c)
    raise TileslcError("cannot find the tileslc compiler: pass tileslc=, set $TILESLC or put it on PATH")


def _layout(exe):
    """(include_dir, lib_dir) next to the compiler: installed (PREFIX/bin, PREFIX/include,
    PREFIX/lib) or a build tree (build/bin, runtime/include beside build/, build/lib)."""
    root = os.path.dirname(os.path.dirname(exe))
    includes = [os.path.join(root, "include"), os.path.join(os.path.dirname(root), "runtime", "include")]
    include = next((d for d in includes if os.path.isfile(os.path.join(d, "tileslc", "c_api.h"))), None)
    libs = [os.path.join(root, d) for d in ("lib", "lib64")]
    lib = next((d for d in libs if os.path.isdir(d)), None)
    if include is None or lib is None:
        raise TileslcError("%s: cannot find the runtime's headers and libraries next to it (looked in %s and %s)"
                           % (exe, ", ".join(includes), ", ".join(libs)))
    return include, lib


def _gencode(arch):
    number = arch[3:]
    virtual = "compute_" + number
    return "-gencode=arch=%s,code=sm_%s" % (virtual, number)


def _run(cmd, what):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise TileslcError("%s failed (exit %d): %s\n%s" % (what, r.returncode, " ".join(cmd), r.stdout))


def _cache_root(cache_dir):
    if cache_dir:
        return cache_dir
    if os.environ.get("TILESLC_CACHE_DIR"):
        return os.environ["TILESLC_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tileslc")


def build(path, defines=None, arch="sm_90a", target="cuda", include_dirs=(), prefix=None, cache_dir=None,
          tileslc=None, nvcc=None, cxx=None):
    """Compiles the .tpy `path` (tileslc -D NAME=VALUE for each of `defines`,
    --arch `arch`, --target `target`, -I for `include_dirs`, --host-prefix
    `prefix`) and its generated code into a shared library linked against the
    shared runtime, cached under `cache_dir` ($TILESLC_CACHE_DIR, else
    ~/.cache/tileslc) by content hash, and loads it. A compile error raises
    TileslcError with tileslc's diagnostics. The returned Library has a `cached`
    attribute: True when the library came from the cache."""
    if target not in ("cuda", "cpu"):
        raise TileslcError("target is %r, expected 'cuda' or 'cpu'" % (target,))
    if defines is not None and not isinstance(defines, dict):
        raise TileslcError("defines is %r, expected a dict of Constexpr names to values, e.g. {\"BLOCK\": 128}" % (defines,))
    exe = _find_tileslc(tileslc)
    include, libdir = _layout(exe)
    stem = os.path.splitext(os.path.basename(path))[0]
    args = ["--arch", arch, "--target=" + target]
    for k, v in sorted((defines or {}).items()):
        args += ["-D", "%s=%s" % (k, v)]
    for d in include_dirs:
        args += ["-I", os.path.abspath(d)]
    if prefix:
        args += ["--host-prefix", prefix]
    src_ext = ".cu" if target == "cuda" else ".cpp"
    with tempfile.TemporaryDirectory(prefix="tileslc-") as scratch:
        gen = os.path.join(scratch, stem + src_ext)
        meta = os.path.join(scratch, stem + ".json")
        _run([exe, os.path.abspath(path), "-o", gen, "--emit-metadata", meta] + args, "tileslc")
        if target == "cuda":
            compiler = nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
            # -cudart shared: one CUDA runtime with libtileslc_rt.so, which launches the kernels.
            cmd = [compiler, "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-lineinfo",
                   _gencode(arch), "-I", include, gen, "-L", libdir, "-ltileslc_rt", "-Xlinker", "-rpath," + libdir]
            runtime = "libtileslc_rt.so"
        else:
            compiler = cxx or os.environ.get("TILESLC_CXX") or "c++"
            # -fwrapv: signed + - * wrap as on the GPU (docs/language.md); C++ leaves overflow undefined
            cmd = [compiler, "-std=c++20", "-O2", "-fwrapv", "-shared", "-fPIC", "-I", os.path.join(include, "tileslc", "cpu", "cuda"),
                   "-I", include, gen, "-L", libdir, "-ltileslc_rt_cpu", "-Wl,-rpath," + libdir]
            runtime = "libtileslc_rt_cpu.so"
        h = hashlib.sha256()
        with open(gen, "rb") as f:  # its #line directives name the scratch directory
            h.update(f.read().replace(scratch.encode(), b""))
        h.update("\0".join(cmd[:1] + cmd[2:]).replace(scratch, "").encode())
        st = os.stat(os.path.join(libdir, runtime))
        h.update(("%s:%d:%d" % (runtime, st.st_size, st.st_mtime_ns)).encode())
        entry = os.path.join(_cache_root(cache_dir), h.hexdigest()[:24])
        lib_path = os.path.join(entry, "lib" + stem + ".so")
        cached = os.path.isfile(lib_path)
        if not cached:
            os.makedirs(entry, exist_ok=True)
            tmp = os.path.join(entry, ".lib%s.%d.so" % (stem, os.getpid()))
            _run(cmd + ["-o", tmp], os.path.basename(compiler))
            shutil.copyfile(meta, os.path.join(entry, "lib" + stem + ".json"))
            os.replace(tmp, lib_path)  # complete entries only: a crash leaves no half library
    lib = load(lib_path)
    lib.cached = cached
    return lib
