// _torch_reader.cpp: the optional C++ torch reader of the Python package's fast path (issue 16).
//
// _fastcall.c reads a torch tensor through torch.Tensor's own C accessors: five Python-level
// calls a tensor (device, dtype, shape, stride(), data_ptr()), each building a result object
// and setting up torch's error handling, about 370 of the ~480 ns a 3-tensor call spends on a
// CPU. This reader takes the same facts from the tensor's C++ object (THPVariable_Unpack: the
// at::Tensor behind the Python object), with no Python object made. It is compiled on first
// use against the running torch's headers and libraries (_torch_reader_build.py); without
// them the fast path keeps its Python-level reads.
//
// Same results, same errors: it reads only what the accessors would return without running
// any Python code, and defers (returns 1, _torch_reader.h) whenever an accessor could do
// something else: a torch function mode is active (the accessors would call it), the layout
// is not strided (stride() raises), the negative bit is set (the slow path refuses the tensor), a read throws (symbolic sizes, no storage), the device is
// not the target's, the dtype is outside the fast path's table, the rank is over
// TILESLC_MAX_RANK. _fastcall.c calls it only for objects of exactly torch.Tensor whose
// accessors are torch's own (not monkeypatched), so no subclass override is skipped.
#include "_torch_reader.h"

#include <ATen/PythonTorchFunctionTLS.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/version.h>

#include <cstring>

#ifdef TILESLC_READER_CUDA
#include <c10/cuda/CUDAStream.h>
#endif

namespace {

// tileslc_dtype code per c10::ScalarType (-1: not in the fast path's table), from set_dtype_codes.
constexpr int kScalarTypes = 256;
signed char g_codes[kScalarTypes];

// Whether a torch function mode would intercept torch.Tensor's accessors (torch's own test in
// check_has_torch_function for an exact Tensor).
bool torch_function_mode_on() {
#if TORCH_VERSION_MAJOR < 2
  return at::impl::function_mode_enabled();
#else
  return at::impl::torch_function_mode_enabled();
#endif
}

int read(PyObject* t, int cuda, tileslc_tensor_view* view, long* device) noexcept {
  try {
    // _fastcall.c passes only exact torch.Tensor objects; checked again here, since a THPVariable
    // is what THPVariable_Unpack takes (THPVariableClass is torch.Tensor).
    if (reinterpret_cast<PyObject*>(Py_TYPE(t)) != THPVariableClass || torch_function_mode_on()) return 1;
    const at::Tensor& x = THPVariable_Unpack(t);
    if (!x.defined() || x.layout() != c10::kStrided) return 1;
    const c10::Device d = x.device();
    long index = 0;
    if (cuda) {
      if (!d.is_cuda() || d.index() < 0) return 1;
      index = d.index();
    } else if (!d.is_cpu()) {
      return 1;
    }
    if (x.is_neg()) return 1;  // its memory holds the negated values: the slow path refuses it
    const int type = static_cast<int>(x.scalar_type());
    if (type < 0 || type >= kScalarTypes || g_codes[type] < 0) return 1;
    const c10::IntArrayRef sizes = x.sizes();  // throws for symbolic sizes: deferred below
    const c10::IntArrayRef strides = x.strides();
    const size_t rank = sizes.size();
    if (rank > TILESLC_MAX_RANK || strides.size() != rank) return 1;
    void* data = x.data_ptr();  // what Tensor.data_ptr() returns: includes the storage offset
    // Modes past the rank are zero (two fixed-size memsets, as _fastcall.c does).
    std::memset(view->shape, 0, sizeof view->shape);
    std::memset(view->stride, 0, sizeof view->stride);
    for (size_t i = 0; i < rank; ++i) {
      view->shape[i] = sizes[i];
      view->stride[i] = strides[i];
    }
    view->data = data;
    view->dtype = g_codes[type];
    view->rank = static_cast<int32_t>(rank);
    view->device = static_cast<int32_t>(index);
    *device = index;
    return 0;
  } catch (...) {  // the Python-level reads then raise torch's error, or take the call elsewhere
    return 1;
  }
}

#ifdef TILESLC_READER_CUDA
int current_stream(long device, void** stream) noexcept {
  try {
    *stream = c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(device)).stream();
    return 0;
  } catch (...) {
    return 1;
  }
}
#endif

int set_dtype_codes(PyObject* codes) {
  if (!PyDict_Check(codes)) {
    PyErr_SetString(PyExc_TypeError, "set_dtype_codes: expected a dict {torch.dtype: code}");
    return -1;
  }
  std::memset(g_codes, -1, sizeof g_codes);
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(codes, &pos, &key, &value)) {
    if (!THPDtype_Check(key)) continue;  // not a torch.dtype: never matches a tensor's
    long code = PyLong_AsLong(value);
    if (code == -1 && PyErr_Occurred()) return -1;
    const int type = static_cast<int>(reinterpret_cast<THPDtype*>(key)->scalar_type);
    if (type >= 0 && type < kScalarTypes && code >= 0 && code < 128) g_codes[type] = static_cast<signed char>(code);
  }
  return 0;
}

tileslc_torch_reader g_reader = {
    read,
#ifdef TILESLC_READER_CUDA
    current_stream,
#else
    nullptr,
#endif
    set_dtype_codes,
};

PyModuleDef g_module = {PyModuleDef_HEAD_INIT, "_torch_reader", nullptr, -1, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

// The module: `reader` (the capsule of _torch_reader.h), `cuda_stream` (whether current_stream
// is there), `torch_version` (the headers' TORCH_VERSION, to compare with the running torch's).
// Importing it before torch has set up torch.Tensor fails.
extern "C" __attribute__((visibility("default"))) PyObject* PyInit__torch_reader(void) {
  if (THPVariableClass == nullptr) {
    PyErr_SetString(PyExc_ImportError, "tileslc._torch_reader: import torch first");
    return nullptr;
  }
  std::memset(g_codes, -1, sizeof g_codes);
  PyObject* m = PyModule_Create(&g_module);
  if (m == nullptr) return nullptr;
  PyObject* cap = PyCapsule_New(&g_reader, TILESLC_TORCH_READER_CAPSULE, nullptr);
  if (cap == nullptr || PyModule_AddObject(m, "reader", cap) < 0) {  // steals `cap` on success only
    Py_XDECREF(cap);
    Py_DECREF(m);
    return nullptr;
  }
#ifdef TILESLC_READER_CUDA
  const long cuda_stream = 1;
#else
  const long cuda_stream = 0;
#endif
  if (PyModule_AddIntConstant(m, "cuda_stream", cuda_stream) < 0 ||
      PyModule_AddStringConstant(m, "torch_version", TORCH_VERSION) < 0) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
