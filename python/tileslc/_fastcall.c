/* _fastcall.c: the Python package's fast path for calling a host function with
 * torch tensors (issue 16: Python-side overhead per call).
 *
 * The ctypes path (_library.py) builds a ctypes TensorView per tensor, asks
 * torch for the current stream through torch.cuda.current_stream() and lets
 * ctypes convert every argument: about 20 us a call on the H200, more than
 * the launch itself. Here one C function reads each torch tensor's data
 * pointer, dtype, shape, strides and device straight from the tensor object,
 * asks torch for the raw current stream (torch._C._cuda_getCurrentRawStream),
 * and calls the library's packed entry (`int tileslc_NAME_packed(void* const*
 * args, tileslc_stream stream)`, emitted next to every C twin), whose one
 * signature serves every host function.
 *
 * A library for the CUDA target takes torch CUDA tensors here, one for the CPU
 * emulator torch CPU tensors (device 0, as the DLPack import gives them).
 * Anything this path does not handle (another kind of tensor or device,
 * a dtype outside the table, keyword arguments, a wrong argument count) makes
 * the call return NotImplemented before anything runs, and the Python code
 * takes the ctypes/DLPack path, which handles it or raises the error.
 *
 * Built on first use by _fastcall_build.py with the system C compiler against
 * this Python's headers and tileslc/c_api.h; the package works without it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "tileslc/c_api.h"

typedef int (*packed_fn)(void* const* args, tileslc_stream stream);

/* Parameter kinds, one char each (the Python side maps the metadata's dtypes to them). */
enum { kTensor = 't' };

/* torch's objects, set once by set_torch(): the Tensor type, a dict from torch dtypes to
 * tileslc_dtype codes, and torch._C._cuda_getCurrentRawStream. */
static PyObject* g_tensor_type = NULL;
static PyObject* g_dtype_codes = NULL;
static PyObject* g_raw_stream = NULL;
static PyObject* g_str_is_cuda = NULL;
static PyObject* g_str_dtype = NULL;
static PyObject* g_str_shape = NULL;
static PyObject* g_str_stride = NULL;
static PyObject* g_str_data_ptr = NULL;
static PyObject* g_str_get_device = NULL;

#define MAX_PARAMS 64

typedef struct {
  PyObject_HEAD
  packed_fn fn;
  int cuda; /* the library's target: 1 CUDA (torch CUDA tensors), 0 the CPU emulator (CPU tensors) */
  Py_ssize_t nparams;
  char kinds[MAX_PARAMS];
  unsigned long long calls; /* calls that reached the host function through this path */
} Caller;

/* Storage for one argument: a tensor view or a scalar of any C type. */
typedef union {
  tileslc_tensor_view view;
  bool b;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f32;
  double f64;
} Arg;

/* Reads a tuple-like of Python ints (torch.Size, a stride tuple) into out[0..rank). Returns 0, or
 * -1 with no Python error set when it is not one (the caller falls back). */
static int read_ints(PyObject* seq, int64_t* out, Py_ssize_t rank) {
  if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != rank) return -1;
  for (Py_ssize_t i = 0; i < rank; ++i) {
    out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(seq, i));
    if (out[i] == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return -1;
    }
  }
  return 0;
}

/* Fills `view` from a torch tensor on the target's device (CUDA when `cuda`, else the CPU).
 * Returns 0; 1 when `t` is not one this path takes (no Python error set); -1 with a Python error
 * set. `device` receives the CUDA device index (-1 for a CPU tensor). */
static int torch_view(PyObject* t, int cuda, tileslc_tensor_view* view, long* device) {
  if (g_tensor_type == NULL || !PyObject_TypeCheck(t, (PyTypeObject*)g_tensor_type)) return 1;
  int rc = 1;
  PyObject *is_cuda = NULL, *dtype = NULL, *shape = NULL, *stride = NULL, *ptr = NULL, *dev = NULL;
  is_cuda = PyObject_GetAttr(t, g_str_is_cuda);
  if (is_cuda == NULL) goto error;
  if ((is_cuda == Py_True) != (cuda != 0)) goto done;
  dtype = PyObject_GetAttr(t, g_str_dtype);
  if (dtype == NULL) goto error;
  PyObject* code = PyDict_GetItemWithError(g_dtype_codes, dtype); /* borrowed */
  if (code == NULL) {
    if (PyErr_Occurred()) goto error;
    goto done;
  }
  shape = PyObject_GetAttr(t, g_str_shape);
  if (shape == NULL) goto error;
  Py_ssize_t rank = PyTuple_Check(shape) ? PyTuple_GET_SIZE(shape) : -1;
  if (rank < 0 || rank > TILESLC_MAX_RANK) goto done;
  stride = PyObject_CallMethodObjArgs(t, g_str_stride, NULL);
  if (stride == NULL) goto error;
  memset(view, 0, sizeof *view);
  if (read_ints(shape, view->shape, rank) != 0 || read_ints(stride, view->stride, rank) != 0) goto done;
  ptr = PyObject_CallMethodObjArgs(t, g_str_data_ptr, NULL); /* includes the storage offset */
  if (ptr == NULL) goto error;
  dev = PyObject_CallMethodObjArgs(t, g_str_get_device, NULL);
  if (dev == NULL) goto error;
  view->data = PyLong_AsVoidPtr(ptr);
  *device = PyLong_AsLong(dev);
  if (PyErr_Occurred()) goto error;
  view->dtype = (tileslc_dtype)PyLong_AsLong(code);
  view->rank = (int32_t)rank;
  view->device = cuda ? (int32_t)*device : 0;
  rc = 0;
  goto done;
error:
  rc = -1;
done:
  Py_XDECREF(is_cuda);
  Py_XDECREF(dtype);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  Py_XDECREF(ptr);
  Py_XDECREF(dev);
  return rc;
}

/* Converts a Python number to scalar kind `k` (struct-module letters: ? b h i q B H I Q f d).
 * Integers out of the type's range raise OverflowError, as Python's struct module does. */
static int scalar_arg(PyObject* o, char k, Arg* a) {
  if (k == 'f' || k == 'd') {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    if (k == 'f') a->f32 = (float)v;
    else a->f64 = v;
    return 0;
  }
  if (k == '?') {
    int v = PyObject_IsTrue(o);
    if (v < 0) return -1;
    a->b = v != 0;
    return 0;
  }
  if (k == 'Q') {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    a->u64 = v;
    return 0;
  }
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) return -1;
  long long lo = 0, hi = 0;
  switch (k) {
    case 'b': lo = INT8_MIN, hi = INT8_MAX; break;
    case 'h': lo = INT16_MIN, hi = INT16_MAX; break;
    case 'i': lo = INT32_MIN, hi = INT32_MAX; break;
    case 'q': lo = INT64_MIN, hi = INT64_MAX; break;
    case 'B': hi = UINT8_MAX; break;
    case 'H': hi = UINT16_MAX; break;
    case 'I': hi = UINT32_MAX; break;
    default: PyErr_Format(PyExc_TypeError, "unknown scalar kind '%c'", k); return -1;
  }
  if (v < lo || v > hi) {
    PyErr_Format(PyExc_OverflowError, "%lld does not fit in the parameter's type", v);
    return -1;
  }
  switch (k) {
    case 'b': a->i8 = (int8_t)v; break;
    case 'h': a->i16 = (int16_t)v; break;
    case 'i': a->i32 = (int32_t)v; break;
    case 'q': a->i64 = (int64_t)v; break;
    case 'B': a->u8 = (uint8_t)v; break;
    case 'H': a->u16 = (uint16_t)v; break;
    default: a->u32 = (uint32_t)v; break;
  }
  return 0;
}

/* caller(args: tuple, stream) -> None on success, the host function's status (an int, non-zero)
 * on failure, NotImplemented when the ctypes path must take the call. `stream` is None (torch's
 * current stream on the tensors' device) or a CUDA stream handle as an int. */
static PyObject* Caller_call(PyObject* self_, PyObject* args, PyObject* kwargs) {
  Caller* self = (Caller*)self_;
  PyObject *call_args, *stream_obj;
  if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) Py_RETURN_NOTIMPLEMENTED;
  if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &call_args, &stream_obj)) return NULL;
  if (PyTuple_GET_SIZE(call_args) != self->nparams) Py_RETURN_NOTIMPLEMENTED;
  Arg storage[MAX_PARAMS];
  void* packed[MAX_PARAMS];
  long device = -1;
  for (Py_ssize_t i = 0; i < self->nparams; ++i) {
    PyObject* o = PyTuple_GET_ITEM(call_args, i);
    packed[i] = &storage[i];
    if (self->kinds[i] == kTensor) {
      long d = -1;
      int rc = torch_view(o, self->cuda, &storage[i].view, &d);
      if (rc < 0) return NULL;
      if (rc > 0) Py_RETURN_NOTIMPLEMENTED;
      if (device < 0) device = d;
    } else if (scalar_arg(o, self->kinds[i], &storage[i]) != 0) {
      return NULL;
    }
  }
  void* stream = NULL;
  if (stream_obj == Py_None && self->cuda) {
    /* No torch tensor, or no raw-stream function: the ctypes path picks the stream. */
    if (device < 0 || g_raw_stream == NULL || g_raw_stream == Py_None) Py_RETURN_NOTIMPLEMENTED;
    PyObject* s = PyObject_CallFunction(g_raw_stream, "l", device);
    if (s == NULL) return NULL;
    stream = PyLong_AsVoidPtr(s);
    Py_DECREF(s);
  } else if (stream_obj != Py_None) {
    stream = PyLong_AsVoidPtr(stream_obj);
  }
  if (PyErr_Occurred()) return NULL;
  ++self->calls;
  int status = self->fn(packed, (tileslc_stream)stream);
  if (status != 0) return PyLong_FromLong(status);
  Py_RETURN_NONE;
}

static PyObject* Caller_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)kwargs;
  unsigned long long address;
  const char* kinds;
  Py_ssize_t n;
  int cuda;
  if (!PyArg_ParseTuple(args, "Ks#p", &address, &kinds, &n, &cuda)) return NULL;
  if (n > MAX_PARAMS) {
    PyErr_Format(PyExc_ValueError, "%zd parameters: the fast path takes at most %d", n, MAX_PARAMS);
    return NULL;
  }
  Caller* self = (Caller*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->fn = (packed_fn)(uintptr_t)address;
  self->cuda = cuda;
  self->nparams = n;
  memcpy(self->kinds, kinds, (size_t)n);
  return (PyObject*)self;
}

static PyObject* Caller_get_calls(PyObject* self, void* closure) {
  (void)closure;
  return PyLong_FromUnsignedLongLong(((Caller*)self)->calls);
}

static PyGetSetDef Caller_getset[] = {
    {"calls", Caller_get_calls, NULL, "calls that reached the host function through the fast path", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CallerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tileslc._fastcall.Caller",
    .tp_basicsize = sizeof(Caller),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Caller(address_of_packed_entry, kinds, cuda): calls a host function's packed entry.",
    .tp_new = Caller_new,
    .tp_call = Caller_call,
    .tp_getset = Caller_getset,
};

/* set_torch(Tensor, {dtype: code}, raw_stream_fn or None): torch's objects, once torch is imported
 * (a CPU-only torch has no raw-stream function). */
static PyObject* set_torch(PyObject* mod, PyObject* args) {
  (void)mod;
  PyObject *tensor_type, *codes, *raw_stream;
  if (!PyArg_ParseTuple(args, "O!O!O", &PyType_Type, &tensor_type, &PyDict_Type, &codes, &raw_stream)) return NULL;
  Py_INCREF(tensor_type);
  Py_INCREF(codes);
  Py_INCREF(raw_stream);
  Py_XDECREF(g_tensor_type);
  Py_XDECREF(g_dtype_codes);
  Py_XDECREF(g_raw_stream);
  g_tensor_type = tensor_type;
  g_dtype_codes = codes;
  g_raw_stream = raw_stream;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"set_torch", set_torch, METH_VARARGS, "set_torch(Tensor, dtype_codes, raw_stream_fn)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_fastcall", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__fastcall(void) {
  if (PyType_Ready(&CallerType) < 0) return NULL;
  PyObject* m = PyModule_Create(&module);
  if (m == NULL) return NULL;
  g_str_is_cuda = PyUnicode_InternFromString("is_cuda");
  g_str_dtype = PyUnicode_InternFromString("dtype");
  g_str_shape = PyUnicode_InternFromString("shape");
  g_str_stride = PyUnicode_InternFromString("stride");
  g_str_data_ptr = PyUnicode_InternFromString("data_ptr");
  g_str_get_device = PyUnicode_InternFromString("get_device");
  if (!g_str_is_cuda || !g_str_dtype || !g_str_shape || !g_str_stride || !g_str_data_ptr || !g_str_get_device) return NULL;
  Py_INCREF(&CallerType);
  if (PyModule_AddObject(m, "Caller", (PyObject*)&CallerType) < 0) {
    Py_DECREF(&CallerType);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
