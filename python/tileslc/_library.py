"""A kernel library and its host functions as Python callables (ctypes)."""
import ctypes
import json
import os
import sys
import warnings

from . import _dlpack, _fastcall_build, _torch_reader_build

MAX_RANK = 8  # TILESLC_MAX_RANK


class TileslcError(RuntimeError):
    """A host function or the DLPack import refused a call; the message is the runtime's."""


class TensorView(ctypes.Structure):
    """tileslc_tensor_view (tileslc/c_api.h)."""
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("shape", ctypes.c_int64 * MAX_RANK), ("stride", ctypes.c_int64 * MAX_RANK),
                ("device", ctypes.c_int32)]


# Host scalar parameter types (metadata dtype names, CuTe DSL's) as C types.
_SCALARS = {
    "Boolean": ctypes.c_bool, "Int8": ctypes.c_int8, "Int16": ctypes.c_int16, "Int32": ctypes.c_int32,
    "Int64": ctypes.c_int64, "Uint8": ctypes.c_uint8, "Uint16": ctypes.c_uint16, "Uint32": ctypes.c_uint32,
    "Uint64": ctypes.c_uint64, "Float32": ctypes.c_float, "Float64": ctypes.c_double, "TFloat32": ctypes.c_float,
}


# torch dtypes (by str(dtype)) as tileslc_dtype codes (tileslc/c_api.h), for the
# direct path below; a dtype missing here takes the DLPack path and its error.
_TORCH_DTYPES = {
    "torch.bool": 0, "torch.int8": 1, "torch.int16": 2, "torch.int32": 3, "torch.int64": 4, "torch.uint8": 5,
    "torch.uint16": 6, "torch.uint32": 7, "torch.uint64": 8, "torch.float16": 9, "torch.bfloat16": 10,
    "torch.float32": 11, "torch.float64": 12, "torch.float8_e4m3fn": 14, "torch.float8_e5m2": 15,
}


def _negative_bit(t):
    """Whether `t` is a torch tensor whose negative bit is set (torch 1.10 on: a lazy negation such
    as z.conj().imag; its memory holds -t). DLPack and data_ptr() both give that memory as is."""
    is_neg = getattr(t, "is_neg", None)
    return callable(is_neg) and bool(is_neg())


def _torch_cuda_view(t):
    """A TensorView of a torch CUDA tensor read from its attributes, or None when
    `t` is something else (the DLPack path then imports or refuses it). Why not
    DLPack here: torch's __dlpack__(stream=...) costs about 20 us a tensor on
    the H200 (an event between streams), more than the launch; the view is the
    same (data_ptr() includes the storage offset, strides are in elements)."""
    if not (type(t).__module__.startswith("torch") and getattr(t, "is_cuda", False)):
        return None
    code = _TORCH_DTYPES.get(str(t.dtype))
    rank = t.dim()
    if code is None or rank > MAX_RANK:
        return None
    view = TensorView()
    view.data = t.data_ptr()
    view.dtype = code
    view.rank = rank
    view.shape[:rank] = t.shape
    view.stride[:rank] = t.stride()
    view.device = t.device.index
    return view


# Scalar parameter types as the fast path's kinds (Python's struct-module letters).
_FAST_KINDS = {
    "Boolean": "?", "Int8": "b", "Int16": "h", "Int32": "i", "Int64": "q", "Uint8": "B", "Uint16": "H",
    "Uint32": "I", "Uint64": "Q", "Float32": "f", "Float64": "d", "TFloat32": "f",
}

_torch_given = False


def _give_torch(fast):
    """Hands torch's Tensor type, dtypes and raw-stream function to the fast path, once torch
    has been imported by the caller (importing it here would cost seconds)."""
    global _torch_given
    torch = sys.modules.get("torch")
    if _torch_given or torch is None or not hasattr(torch, "Tensor"):
        return
    codes = {getattr(torch, n[len("torch."):]): c for n, c in _TORCH_DTYPES.items() if hasattr(torch, n[len("torch."):])}
    # torch.device objects on which C confirms their layout (made without a GPU).
    probes = (torch.device("cuda", 3), torch.device("cuda", 5), torch.device("cpu"))
    # The C++ torch reader, where it builds against this torch (the first time: seconds).
    reader = _torch_reader_build.module(torch)
    fast.set_torch(torch.Tensor, codes, getattr(torch._C, "_cuda_getCurrentRawStream", None), probes,
                   reader.reader if reader is not None else None)
    _torch_given = True


def _torch_stream(tensors):
    """torch's current stream (an int) when a tensor is a torch CUDA tensor, else None."""
    for t in tensors:
        if type(t).__module__.startswith("torch") and getattr(t, "is_cuda", False):
            import torch
            return torch.cuda.current_stream(t.device).cuda_stream
    return None


class HostFunction:
    """One host function: call it with its parameters in order or by name,
    tensors as any __dlpack__ objects, and optionally `stream=` (a CUDA
    stream handle as an int; default: torch's current stream when given torch
    CUDA tensors, else the default stream).

    Where the C fast path loads, the objects a Library makes are of a subclass
    that also derives from _fastcall.Caller: torch tensors passed in order go
    from the call straight to the host function in C; anything else reaches
    _slow_call. `fast_enabled` (settable) and `fast_calls` tell about it."""

    fast_enabled = False  # the fast-path subclass's C attributes take over these two
    fast_calls = 0

    def __init__(self, library, meta):
        self.name = meta["name"]
        self.params = meta["params"]
        self._meta = meta
        self._library = library
        self._fn = getattr(library._dll, meta["c_abi_name"])
        argtypes = []
        for p in self.params:
            if p["kind"] == "tensor":
                argtypes.append(ctypes.POINTER(TensorView))
            elif p["dtype"] in _SCALARS:
                argtypes.append(_SCALARS[p["dtype"]])
            else:
                raise TileslcError("%s: parameter %s has type %s, which Python cannot pass"
                                   % (self.name, p["name"], p["dtype"]))
        self._fn.argtypes = argtypes + [ctypes.c_void_p]
        self._fn.restype = ctypes.c_int
        self._set_fast(meta)
        self.__doc__ = "%s(%s)" % (self.name, ", ".join(
            "%s: %s%s" % (p["name"], p["dtype"], "[%s]" % ", ".join(str(d) for d in p["shape"])
                          if p["kind"] == "tensor" else "") for p in self.params))

    def _set_fast(self, meta):
        """Points the C fast path at this function's packed entry, where both exist (not for
        libraries built before packed entries did, nor without the fast path: see
        fast_path_status())."""
        name = meta.get("c_packed_name")
        packed = getattr(self._library._dll, name, None) if name else None
        if packed is None or not hasattr(self, "_set_packed"):
            return
        self._set_packed(ctypes.cast(packed, ctypes.c_void_p).value, self._fast_kinds(), self._library.target == "cuda")

    def _fast_kinds(self):
        """The fast path's parameter kinds: 't' a tensor, else the scalar's struct-module letter."""
        return "".join("t" if p["kind"] == "tensor" else _FAST_KINDS[p["dtype"]] for p in self.params)

    def _no_launch_twin(self):
        """A copy of this host function whose fast path ends in a packed entry that does nothing:
        calling it with torch tensors makes every read and check of a real call but no launch,
        which times the Python side of a call (torch_demo.py). None without the fast path."""
        fast = _fastcall_build.module()
        if fast is None or not self.fast_enabled:
            return None
        twin = type(self)(self._library, self._meta)
        twin._set_packed(fast.noop_packed_address(), self._fast_kinds(), self._library.target == "cuda")
        return twin

    def _fail(self):
        raise TileslcError(self._library.last_error())

    def _bind(self, args, kwargs):
        if len(args) > len(self.params):
            raise TypeError("%s takes %d arguments, got %d" % (self.name, len(self.params), len(args)))
        names = [p["name"] for p in self.params]
        # A keyword that names no parameter is the mistake to report, not the parameter it left missing.
        unknown = sorted(k for k in kwargs if k not in names)
        if unknown:
            raise TypeError("%s() got an unexpected keyword argument %s (parameters: %s)"
                            % (self.name, ", ".join(repr(k) for k in unknown), ", ".join(names)))
        twice = sorted(k for k in kwargs if k in names[:len(args)])
        if twice:
            raise TypeError("%s() got multiple values for argument %s" % (self.name, ", ".join(repr(k) for k in twice)))
        values = list(args)
        for p in self.params[len(args):]:
            if p["name"] not in kwargs:
                raise TypeError("%s: missing argument %s" % (self.name, p["name"]))
            values.append(kwargs.pop(p["name"]))
        return values

    def _slow_call(self, *args, stream=None, **kwargs):
        if self.fast_enabled and not kwargs and not _torch_given:
            # The first call since torch was imported: hand its objects to C, then try again.
            _give_torch(_fastcall_build.module())
            r = self._try_fast(args, stream)
            if r is None:
                return
            if r is not NotImplemented:
                self._fail()
        values = self._bind(args, kwargs)
        tensors = [v for v, p in zip(values, self.params) if p["kind"] == "tensor"]
        if stream is None and self._library.target == "cuda":
            stream = _torch_stream(tensors)
        c_args, keep = [], []
        for v, p in zip(values, self.params):
            if p["kind"] != "tensor":
                c_args.append(v)
                continue
            if _negative_bit(v):
                raise TileslcError("%s: %s has torch's negative bit set (a view such as z.conj().imag or "
                                   "torch._neg_view(x)): its memory holds the negated values, which the kernel "
                                   "would read and write as they are; pass x.resolve_neg() (a copy)" % (self.name, p["name"]))
            view = _torch_cuda_view(v) if self._library.target == "cuda" else None
            if view is not None:
                # Launched on torch's current stream (or the caller's `stream=`): ordered after
                # the work that made the tensor, as a torch operation would be.
                keep.append(v)
                c_args.append(ctypes.byref(view))
                continue
            cuda = _dlpack.is_cuda(v)
            # DLPack's stream argument: the consumer's stream (1 is CUDA's legacy default).
            cap, ptr, versioned = _dlpack.capsule(v, (stream or 1) if cuda else None)
            view = TensorView()
            convert = self._library._from_versioned if versioned else self._library._from_managed
            if convert(ptr, ctypes.byref(view)) != 0:
                raise TileslcError("%s: %s: %s" % (self.name, p["name"], self._library.last_error()))
            keep.append(cap)
            c_args.append(ctypes.byref(view))
        if self._fn(*c_args, stream) != 0:
            raise TileslcError(self._library.last_error())
        del keep  # the producers' deleters may run now

    __call__ = _slow_call  # the fast-path subclass's C __call__ comes first in its MRO


_fast_class = None


def _host_function_class():
    """HostFunction, or where the C fast path loads, the subclass that derives from its Caller."""
    global _fast_class
    fast = _fastcall_build.module()
    if fast is None:
        return HostFunction
    if _fast_class is None:
        _fast_class = type("HostFunction", (fast.Caller, HostFunction),
                           {"__module__": __name__, "__doc__": HostFunction.__doc__, "__qualname__": "HostFunction"})
        fast.subclass_ready(_fast_class)  # calls as vectorcalls (CPython < 3.12 does not pass that on)
    return _fast_class


# The Library's own attribute names; a host function with one of these names is lib.functions[name].
_LIBRARY_ATTRIBUTES = frozenset(("path", "metadata", "target", "functions", "cached", "last_error"))


class Library:
    """A loaded kernel library: one attribute per host function (except one named like an
    attribute of the Library itself, `path`, `metadata`, `target`, `functions`, `cached`,
    `last_error`: that one is lib.functions[name])."""

    def __init__(self, path, metadata):
        self.path = os.path.abspath(path)
        self._dll = ctypes.CDLL(self.path)
        self._dll.tileslc_last_error.restype = ctypes.c_char_p
        self._dll.tileslc_last_error.argtypes = []
        try:
            self._from_managed = self._dll.tileslc_tensor_view_from_dlpack
            self._from_versioned = self._dll.tileslc_tensor_view_from_dlpack_versioned
        except AttributeError:
            raise TileslcError("%s has no DLPack import (tileslc_tensor_view_from_dlpack): link it against the shared "
                               "runtime (tileslc::rt_shared or tileslc::rt_cpu_shared) built with libdlpack-dev"
                               % path) from None
        for f in (self._from_managed, self._from_versioned):
            f.argtypes = [ctypes.c_void_p, ctypes.POINTER(TensorView)]
            f.restype = ctypes.c_int
        self.metadata = metadata
        targets = {m.get("target", "cuda") for m in metadata}
        if len(targets) != 1:
            raise TileslcError("%s: its metadata mixes targets %s" % (path, sorted(targets)))
        self.target = targets.pop()
        self.functions = {}
        for m in metadata:
            for h in m["host_functions"]:
                self.functions[h["name"]] = _host_function_class()(self, h)
        # A host function named like one of the Library's own attributes (path, metadata, target,
        # functions, cached, last_error) is reachable only as lib.functions[name]: say so once.
        shadowed = sorted(n for n in self.functions if n in _LIBRARY_ATTRIBUTES)
        if shadowed:
            warnings.warn("%s: host function(s) %s share a name with the Library's own attributes: call them as "
                          "lib.functions[%r](...)" % (os.path.basename(self.path), ", ".join(shadowed), shadowed[0]),
                          stacklevel=3)

    def last_error(self):
        return self._dll.tileslc_last_error().decode("utf-8", "replace")

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError("%s has no host function %s (it has: %s)"
                             % (os.path.basename(self.__dict__.get("path", "?")), name, ", ".join(sorted(functions))))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.functions))


def load(lib_path, metadata=None):
    """Loads the kernel library `lib_path` (a shared library of tileslc-generated
    code linked against the shared runtime) with its metadata: the JSON files
    tileslc --emit-metadata wrote, a path or a list of paths; by default
    `lib_path` with .json in place of its extension. Returns a Library."""
    if not os.path.isfile(lib_path):
        raise TileslcError("no kernel library at %s" % lib_path)
    if metadata is None:
        metadata = os.path.splitext(lib_path)[0] + ".json"
    paths = [metadata] if isinstance(metadata, (str, os.PathLike)) else list(metadata)
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            docs.append(json.load(f))
    return Library(lib_path, docs)
