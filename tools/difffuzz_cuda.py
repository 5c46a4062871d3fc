"""The few CUDA driver API calls that difffuzz's GPU half (tools/difffuzz.py gpu-run) makes, through ctypes.

Standard library only: the GPU machine has python3 and the CUDA driver (libcuda.so.1) and none of
tileslc's build tools, so gpu-run loads each bundle's cubin (built by gpu-prep with nvcc -cubin) with
cuModuleLoadData and launches its kernels with cuLaunchKernel instead of running a compiled host
program. Every call is checked; a failure raises CudaError with the driver's error name.
"""
import ctypes

CUdeviceptr = ctypes.c_uint64


class CudaUnavailable(Exception):
    """No driver, no device, or the driver refuses to start: nothing can run here."""


class CudaError(Exception):
    """A driver call failed; `code` is the CUresult, the message names the call and the error."""

    def __init__(self, call, code, name):
        super().__init__("%s: %s (%d)" % (call, name, code))
        self.code = code


class Driver:
    """Device 0's primary context, made current on the calling thread."""

    _SIGNATURES = {  # name: argument types (every function returns a CUresult, an int)
        "cuInit": [ctypes.c_uint],
        "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
        "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
        "cuDeviceGetName": [ctypes.c_char_p, ctypes.c_int, ctypes.c_int],
        "cuDevicePrimaryCtxRetain": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int],
        "cuDevicePrimaryCtxReset_v2": [ctypes.c_int],
        "cuCtxSetCurrent": [ctypes.c_void_p],
        "cuCtxSynchronize": [],
        "cuModuleLoadData": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p],
        "cuModuleUnload": [ctypes.c_void_p],
        "cuModuleGetFunction": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_char_p],
        "cuMemAlloc_v2": [ctypes.POINTER(CUdeviceptr), ctypes.c_size_t],
        "cuMemFree_v2": [CUdeviceptr],
        "cuMemcpyHtoD_v2": [CUdeviceptr, ctypes.c_void_p, ctypes.c_size_t],
        "cuMemcpyDtoH_v2": [ctypes.c_void_p, CUdeviceptr, ctypes.c_size_t],
        "cuLaunchKernel": [ctypes.c_void_p] + [ctypes.c_uint] * 7 +
                          [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)],
        "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    }

    def __init__(self):
        lib = None
        for name in ("libcuda.so.1", "libcuda.so"):
            try:
                lib = ctypes.CDLL(name)
                break
            except OSError:
                continue
        if lib is None:
            raise CudaUnavailable("the CUDA driver (libcuda.so.1) is not installed")
        self.fn = {}
        for name, argtypes in self._SIGNATURES.items():
            f = getattr(lib, name, None)
            if f is None:
                raise CudaUnavailable("the CUDA driver has no %s" % name)
            f.argtypes, f.restype = argtypes, ctypes.c_int
            self.fn[name] = f
        try:
            self._call("cuInit", 0)
            count = ctypes.c_int(0)
            self._call("cuDeviceGetCount", ctypes.byref(count))
        except CudaError as e:
            raise CudaUnavailable(str(e))
        if count.value == 0:
            raise CudaUnavailable("cuDeviceGetCount: 0 devices")
        self.device = ctypes.c_int(0)
        self._call("cuDeviceGet", ctypes.byref(self.device), 0)
        name = ctypes.create_string_buffer(256)
        self._call("cuDeviceGetName", name, 256, self.device)
        self.name = name.value.decode(errors="replace")
        self._make_current()

    def _call(self, name, *args):
        rc = self.fn[name](*args)
        if rc != 0:
            text = ctypes.c_char_p()
            ok = self.fn["cuGetErrorName"](rc, ctypes.byref(text)) == 0 and text.value
            raise CudaError(name, rc, text.value.decode() if ok else "CUresult")

    def _make_current(self):
        ctx = ctypes.c_void_p()
        self._call("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), self.device)
        self._call("cuCtxSetCurrent", ctx)

    def reset(self):
        """Destroys the primary context's state (after a fault every later call would fail) and makes a
        fresh one current: modules and allocations made before are gone."""
        self._call("cuDevicePrimaryCtxReset_v2", self.device)
        self._make_current()

    def load_module(self, image):
        """A module from a cubin (bytes)."""
        module = ctypes.c_void_p()
        self._call("cuModuleLoadData", ctypes.byref(module), image)
        return module

    def unload_module(self, module):
        self._call("cuModuleUnload", module)

    def function(self, module, symbol):
        """The kernel named `symbol` (its mangled name) in `module`."""
        f = ctypes.c_void_p()
        self._call("cuModuleGetFunction", ctypes.byref(f), module, symbol.encode())
        return f

    def alloc(self, nbytes):
        """Device memory of `nbytes` bytes (at least 256-byte aligned); its address as an int."""
        p = CUdeviceptr()
        self._call("cuMemAlloc_v2", ctypes.byref(p), max(nbytes, 1))
        return p.value

    def free(self, ptr):
        self._call("cuMemFree_v2", ptr)

    def upload(self, ptr, data):
        """Copies the bytes `data` to device address `ptr`."""
        self._call("cuMemcpyHtoD_v2", ptr, data, len(data))

    def download(self, ptr, nbytes):
        """`nbytes` bytes from device address `ptr`."""
        buf = ctypes.create_string_buffer(nbytes)
        self._call("cuMemcpyDtoH_v2", buf, ptr, nbytes)
        return buf.raw

    def launch(self, function, grid, block, shared_bytes, args):
        """Launches `function` on the default stream; `args` are ctypes values in the kernel's parameter
        order (c_uint64 for a pointer, c_int64 for an Int64 scalar)."""
        params = (ctypes.c_void_p * max(len(args), 1))(*[ctypes.addressof(a) for a in args])
        self._call("cuLaunchKernel", function, *grid, *block, shared_bytes, None, params, None)

    def synchronize(self):
        self._call("cuCtxSynchronize")
