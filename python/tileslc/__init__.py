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
"""
from ._library import HostFunction, Library, TileslcError, load
from ._build import build

__all__ = ["HostFunction", "Library", "TileslcError", "build", "load"]
__version__ = "0.1.0"
