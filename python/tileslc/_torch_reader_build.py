"""Builds and loads the optional C++ torch reader (_torch_reader.cpp) on first use.

The fast path (_fastcall.c) reads torch tensors through torch's Python accessors; this reader
reads them from the C++ tensor instead (docs/python.md, "Call overhead"). It needs torch's
C++ headers (torch/csrc/autograd/python_variable.h: pip's torch ships them in torch/include;
Debian's python3-torch needs libtorch-dev and pybind11-dev),
its libraries (torch/lib) and a C++ compiler ($TILESLC_CXX, else c++). Where torch is a CUDA
build whose libc10_cuda and the CUDA runtime's headers are found, it also reads torch's current
stream (c10::cuda::getCurrentCUDAStream) in C++.

It is compiled once into the build cache ($TILESLC_CACHE_DIR, else ~/.cache/tileslc) under a
hash of its sources and of torch's version, headers and libraries, the interpreter, the
compiler and the C++ ABI flag; a failed build is remembered there (entry/FAILED) so that later
processes do not spend the seconds again. Anything missing leaves the fast path on its
Python-level reads, which give the same results: `status()` (also in
tileslc.fast_path_status()) says why, TILESLC_FASTCALL_DEBUG=1 prints it to stderr when
decided, TILESLC_TORCH_READER=0 turns the reader off."""
import glob
import os
import shutil
import sys
import sysconfig

from . import _fastcall_build


def _torch_headers(torch):
    """The running torch's include directory (torch/include) when it has
    torch/csrc/autograd/python_variable.h, else None. (Debian's python3-torch links its parts to
    /usr/include, where libtorch-dev installs them.)"""
    root = os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "include")
    return root if os.path.isfile(os.path.join(root, "torch", "csrc", "autograd", "python_variable.h")) else None


def _cuda_include(torch, root, lib_dir):
    """The directory of cuda_runtime_api.h and cuda.h, where torch is a CUDA build with libc10_cuda and
    c10/cuda/CUDAStream.h; else None (the stream is then read through torch's Python API)."""
    if not getattr(torch.version, "cuda", None) or not glob.glob(os.path.join(lib_dir, "libc10_cuda.so*")):
        return None
    if not os.path.isfile(os.path.join(root, "c10", "cuda", "CUDAStream.h")):
        return None
    site = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))
    dirs = [os.path.join(os.environ[v], "include") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    dirs += ["/usr/local/cuda/include"] + sorted(glob.glob(os.path.join(site, "nvidia", "*", "include")))
    for d in dirs:  # c10/cuda includes both
        if all(os.path.isfile(os.path.join(d, h)) for h in ("cuda_runtime_api.h", "cuda.h")):
            return d
    return None


def _build(torch):
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "_torch_reader.cpp")
    includes = _fastcall_build._header_dirs()
    if not includes:
        return None, "tileslc/c_api.h not found (set TILESLC_INCLUDE)"
    root = _torch_headers(torch)
    if root is None:
        return None, ("no torch/csrc/autograd/python_variable.h for torch %s (Debian: apt-get install libtorch-dev "
                      "pybind11-dev)" % torch.__version__)
    lib_dir = os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "lib")
    if not glob.glob(os.path.join(lib_dir, "libtorch_python.*")):
        return None, "no libtorch_python in %s" % lib_dir
    py_include = sysconfig.get_paths()["include"]
    cxx = os.environ.get("TILESLC_CXX") or shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        return None, "no C++ compiler (c++) on PATH (set TILESLC_CXX)"
    abi = int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True))
    # torch 2.12 and later need C++20 for their headers (torch.utils.cpp_extension's default too).
    try:
        std = "c++20" if tuple(int(x) for x in _major_minor(torch.__version__)) >= (2, 12) else "c++17"
    except ValueError:
        std = "c++17"
    base = [cxx, "-std=" + std, "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-w",
            "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi, "-I", here, "-I", includes[0], "-I", py_include,
            "-I", root, "-I", os.path.join(root, "torch", "csrc", "api", "include"), src,
            "-L", lib_dir, "-Wl,-rpath," + lib_dir, "-ltorch_python", "-ltorch_cpu", "-lc10"]
    key = "\0".join((torch.__version__, root, lib_dir, sys.version, sys.executable, cxx, str(abi)))
    inputs = (src, os.path.join(here, "_torch_reader.h"), os.path.join(includes[0], "tileslc", "c_api.h"),
              os.path.join(root, "torch", "csrc", "autograd", "python_variable.h"))
    cuda_include = _cuda_include(torch, root, lib_dir)
    why = ""
    if cuda_include is not None:  # with the stream in C++; if that does not build, without it
        cmd = base + ["-DTILESLC_READER_CUDA", "-I", cuda_include, "-lc10_cuda"]
        module, why = _fastcall_build.compile_cached("torch-reader", "tileslc._torch_reader", inputs,
                                                     key + "\0cuda\0" + cuda_include, cmd, remember_failure=True)
        if module is not None:
            return module, why
        why = "; without the CUDA stream, since with it: " + why
    module, status = _fastcall_build.compile_cached("torch-reader", "tileslc._torch_reader", inputs, key, base,
                                                    remember_failure=True)
    return module, status + why


def _major_minor(version):
    return tuple(version.split("+")[0].split(".")[:2])


_reader = _fastcall_build.OnFirstUse("torch reader", "TILESLC_TORCH_READER")


def _build_checked(torch):
    module, status = _build(torch)
    if module is not None and _major_minor(module.torch_version) != _major_minor(torch.__version__):
        return None, "headers of torch %s, running torch %s: not used" % (module.torch_version, torch.__version__)
    return module, status


def module(torch):
    """The _torch_reader extension module for `torch` (imported), building it the first time;
    None when unavailable (status() says why)."""
    return _reader.load(_build_checked, torch)


def status():
    """Whether the C++ torch reader is in use, e.g. 'loaded from /root/.cache/tileslc/...', or why not."""
    return _reader.status
