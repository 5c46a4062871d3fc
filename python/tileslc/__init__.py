"""Call kernels compiled by tileslc from Python.

    lib = tileslc.load("libkernels.so")            # metadata: libkernels.json next to it
    lib = tileslc.build("softmax.tpy", defines={"BLOCK": 128}, arch="sm_90a")
    lib.softmax(x, y)                               # any __dlpack__ tensors

Each host function of the library's metadata JSON (tileslc --emit-metadata)
becomes a Python callable. Tensors pass through DLPack into the runtime's
tileslc_tensor_view_from_dlpack (tileslc/dlpack.h), which refuses what tileslc
cannot describe; the host function then checks dtypes, ranks and extents
before any launch. Any error raises TileslcError with the runtime's message.
With torch CUDA tensors the call runs on torch's current stream.

Calls with torch tensors take a C fast path (built on first use with the
system C compiler; `fast_path_status()` says whether it is in use), which
reads the tensors directly and calls the library's packed entry; everything
else goes through ctypes and DLPack.
"""
from ._library import HostFunction, Library, TileslcError, load
from ._build import build
from ._fastcall_build import status as fast_path_status

__all__ = ["HostFunction", "Library", "TileslcError", "build", "fast_path_status", "load"]
__version__ = "0.1.0"
