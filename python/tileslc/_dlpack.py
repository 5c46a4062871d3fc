"""DLPack capsules from Python tensors, without copying (the DLPack Python
specification: data-apis.org/array-api, "DLPack"): `__dlpack__()` returns a
PyCapsule named "dltensor" (a DLManagedTensor*) or "dltensor_versioned" (a
DLManagedTensorVersioned*). The capsule is not consumed: its destructor runs
the producer's deleter when it is collected, so the caller keeps it alive
while the view is used."""
import ctypes

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_is_valid.restype = ctypes.c_int
_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]

# DLPack device types (dlpack.h DLDeviceType) of CUDA memory.
_CUDA_DEVICES = (2, 13)  # kDLCUDA, kDLCUDAManaged


def device_of(tensor):
    """(device_type, device_id) of `tensor` by its __dlpack_device__, or None."""
    probe = getattr(tensor, "__dlpack_device__", None)
    if probe is None:
        return None
    dev_type, dev_id = probe()
    return int(dev_type), int(dev_id)


def is_cuda(tensor):
    dev = device_of(tensor)
    return dev is not None and dev[0] in _CUDA_DEVICES


def capsule(tensor, stream):
    """(capsule, pointer, versioned) for `tensor`. `stream` is the consumer's
    CUDA stream as an int (DLPack: the producer orders its work before it),
    or None for CPU tensors."""
    if getattr(tensor, "requires_grad", False) and callable(getattr(tensor, "detach", None)):
        # torch refuses to export a tensor that requires grad; the fast path reads such tensors
        # (as torch's own kernels do), so the two paths agree: the same memory, no autograd.
        tensor = tensor.detach()
    export = getattr(tensor, "__dlpack__", None)
    if export is None:
        raise TypeError("expected a tensor with __dlpack__ (NumPy, PyTorch, CuPy, JAX...), got %s"
                        % type(tensor).__name__)
    cap = export() if stream is None else export(stream=stream)
    for name, versioned in ((b"dltensor_versioned", True), (b"dltensor", False)):
        if _is_valid(cap, name):
            return cap, _get_pointer(cap, name), versioned
    raise TypeError("__dlpack__ of %s returned a capsule that is neither an unused 'dltensor' nor "
                    "'dltensor_versioned'" % type(tensor).__name__)
