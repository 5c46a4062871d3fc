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
 * Caller is the base class of the package's HostFunction when this module
 * loads (_library.py makes the class), so `fn(a, b, c)` enters C directly:
 * a Python-level __call__ in between cost ~0.4 us of the ~1.7 us a call spent
 * outside cudaLaunchKernel (H200, torch_demo's figure). What this path does
 * not take goes to the Python method _slow_call with the same arguments.
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
static PyObject* g_str_dtype = NULL;
static PyObject* g_str_shape = NULL;
static PyObject* g_str_stride = NULL;
static PyObject* g_str_data_ptr = NULL;
static PyObject* g_str_get_device = NULL;
static PyObject* g_str_slow_call = NULL;
static PyObject* g_str_stream = NULL;
static PyObject* g_str_fail = NULL;

#define MAX_PARAMS 64

typedef struct {
  PyObject_HEAD
  packed_fn fn; /* NULL until _set_packed: every call takes _slow_call */
  int enabled;  /* fast_enabled: 0 sends every call to _slow_call (to time the ctypes path) */
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

/* t.name() with no arguments, without making a bound method. */
static PyObject* call_method0(PyObject* t, PyObject* name) {
  PyObject* self_arg[1] = {t};
  return PyObject_VectorcallMethod(name, self_arg, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* Fills `view` from a torch tensor on the target's device (CUDA when `cuda`, else the CPU).
 * Returns 0; 1 when `t` is not one this path takes (no Python error set); -1 with a Python error
 * set. `device` receives a new reference to t.get_device() (-1 for a CPU tensor), kept for the
 * raw-stream call. Five attribute reads a tensor: get_device() also says whether it is a CUDA one. */
static int torch_view(PyObject* t, int cuda, tileslc_tensor_view* view, PyObject** device) {
  if (g_tensor_type == NULL || !PyObject_TypeCheck(t, (PyTypeObject*)g_tensor_type)) return 1;
  int rc = 1;
  PyObject *dtype = NULL, *shape = NULL, *stride = NULL, *ptr = NULL, *dev = NULL;
  dev = call_method0(t, g_str_get_device);
  if (dev == NULL) goto error;
  long index = PyLong_AsLong(dev);
  if (index == -1 && PyErr_Occurred()) goto error;
  if ((index >= 0) != (cuda != 0)) goto done;
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
  stride = call_method0(t, g_str_stride);
  if (stride == NULL) goto error;
  memset(view, 0, sizeof *view);
  if (read_ints(shape, view->shape, rank) != 0 || read_ints(stride, view->stride, rank) != 0) goto done;
  ptr = call_method0(t, g_str_data_ptr); /* includes the storage offset */
  if (ptr == NULL) goto error;
  view->data = PyLong_AsVoidPtr(ptr);
  if (PyErr_Occurred()) goto error;
  view->dtype = (tileslc_dtype)PyLong_AsLong(code);
  view->rank = (int32_t)rank;
  view->device = cuda ? (int32_t)index : 0;
  *device = dev;
  dev = NULL;
  rc = 0;
  goto done;
error:
  rc = -1;
done:
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

/* One attempt at the fast path: None on success, the host function's status (an int, non-zero)
 * on failure, NotImplemented when the ctypes path must take the call, NULL with a Python error.
 * `stream` is None (torch's current stream on the tensors' device) or a CUDA stream handle as an
 * int. */
static PyObject* try_fast(Caller* self, PyObject* const* args, Py_ssize_t nargs, PyObject* stream_obj) {
  if (self->fn == NULL || !self->enabled || nargs != self->nparams) Py_RETURN_NOTIMPLEMENTED;
  Arg storage[MAX_PARAMS];
  void* packed[MAX_PARAMS];
  PyObject* device = NULL; /* the first tensor's device index */
  PyObject* result = NULL;
  for (Py_ssize_t i = 0; i < self->nparams; ++i) {
    packed[i] = &storage[i];
    if (self->kinds[i] == kTensor) {
      PyObject* d = NULL;
      int rc = torch_view(args[i], self->cuda, &storage[i].view, &d);
      if (rc < 0) goto out;
      if (rc > 0) goto not_mine;
      if (device == NULL) device = d;
      else Py_DECREF(d);
    } else if (scalar_arg(args[i], self->kinds[i], &storage[i]) != 0) {
      goto out;
    }
  }
  void* stream = NULL;
  if (stream_obj == Py_None && self->cuda) {
    /* No torch tensor, or no raw-stream function: the ctypes path picks the stream. */
    if (device == NULL || g_raw_stream == NULL || g_raw_stream == Py_None) goto not_mine;
    PyObject* s = PyObject_CallOneArg(g_raw_stream, device);
    if (s == NULL) goto out;
    stream = PyLong_AsVoidPtr(s);
    Py_DECREF(s);
  } else if (stream_obj != Py_None) {
    stream = PyLong_AsVoidPtr(stream_obj);
  }
  if (PyErr_Occurred()) goto out;
  ++self->calls;
  int status = self->fn(packed, (tileslc_stream)stream);
  if (status != 0) result = PyLong_FromLong(status);
  else result = Py_NewRef(Py_None);
  goto out;
not_mine:
  result = Py_NewRef(Py_NotImplemented);
out:
  Py_XDECREF(device);
  return result;
}

/* self._try_fast(args: tuple, stream): try_fast for the Python side (its first call, made
 * before torch's objects were handed over). */
static PyObject* Caller_try_fast(PyObject* self, PyObject* args) {
  PyObject *call_args, *stream_obj;
  if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &call_args, &stream_obj)) return NULL;
  return try_fast((Caller*)self, &PyTuple_GET_ITEM(call_args, 0), PyTuple_GET_SIZE(call_args), stream_obj);
}

/* self(*args, stream=None): the fast path when it takes the call (no keywords but `stream`),
 * else self._slow_call(*args, **kwargs). A non-zero status calls self._fail(), which raises the
 * host function's message as the ctypes path does (the call is not made twice). */
static PyObject* Caller_call(PyObject* self_, PyObject* args, PyObject* kwargs) {
  Caller* self = (Caller*)self_;
  PyObject* stream_obj = Py_None;
  Py_ssize_t nkw = kwargs == NULL ? 0 : PyDict_GET_SIZE(kwargs);
  if (nkw == 1) {
    stream_obj = PyDict_GetItemWithError(kwargs, g_str_stream); /* borrowed */
    if (stream_obj == NULL) {
      if (PyErr_Occurred()) return NULL;
      goto slow;
    }
  } else if (nkw > 1) {
    goto slow;
  }
  if (g_tensor_type != NULL) {
    PyObject* r = try_fast(self, &PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args), stream_obj);
    if (r == NULL || r == Py_None) return r;
    if (r != Py_NotImplemented) {
      Py_DECREF(r);
      return PyObject_CallMethodNoArgs(self_, g_str_fail);
    }
    Py_DECREF(r);
  }
slow:;
  PyObject* slow_call = PyObject_GetAttr(self_, g_str_slow_call);
  if (slow_call == NULL) return NULL;
  PyObject* r = PyObject_Call(slow_call, args, kwargs);
  Py_DECREF(slow_call);
  return r;
}

/* Caller(...): a caller with no packed entry yet (every call takes _slow_call); the arguments are
 * the subclass's (HostFunction's __init__ takes them). */
static PyObject* Caller_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)args;
  (void)kwargs;
  return type->tp_alloc(type, 0); /* zeroed: fn NULL, enabled 0, calls 0 */
}

/* self._set_packed(address_of_packed_entry, kinds, cuda): from now on calls may take the fast
 * path. `kinds` has one char per parameter: 't' a tensor, else a struct-module scalar letter. */
static PyObject* Caller_set_packed(PyObject* self_, PyObject* args) {
  Caller* self = (Caller*)self_;
  unsigned long long address;
  const char* kinds;
  Py_ssize_t n;
  int cuda;
  if (!PyArg_ParseTuple(args, "Ks#p", &address, &kinds, &n, &cuda)) return NULL;
  if (n > MAX_PARAMS) {
    PyErr_Format(PyExc_ValueError, "%zd parameters: the fast path takes at most %d", n, MAX_PARAMS);
    return NULL;
  }
  self->fn = (packed_fn)(uintptr_t)address;
  self->cuda = cuda;
  self->nparams = n;
  memcpy(self->kinds, kinds, (size_t)n);
  self->enabled = 1;
  Py_RETURN_NONE;
}

static PyObject* Caller_get_enabled(PyObject* self, void* closure) {
  (void)closure;
  return PyBool_FromLong(((Caller*)self)->fn != NULL && ((Caller*)self)->enabled);
}

static int Caller_set_enabled(PyObject* self, PyObject* value, void* closure) {
  (void)closure;
  int v = value == NULL ? 0 : PyObject_IsTrue(value);
  if (v < 0) return -1;
  ((Caller*)self)->enabled = v;
  return 0;
}

static PyObject* Caller_get_calls(PyObject* self, void* closure) {
  (void)closure;
  return PyLong_FromUnsignedLongLong(((Caller*)self)->calls);
}

static PyGetSetDef Caller_getset[] = {
    {"fast_calls", Caller_get_calls, NULL, "calls that reached the host function through the fast path", NULL},
    {"fast_enabled", Caller_get_enabled, Caller_set_enabled,
     "whether calls may take the fast path (False: every call takes the ctypes path)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Caller_methods[] = {
    {"_set_packed", Caller_set_packed, METH_VARARGS, "_set_packed(address_of_packed_entry, kinds, cuda)"},
    {"_try_fast", Caller_try_fast, METH_VARARGS, "_try_fast(args, stream) -> None, a status or NotImplemented"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CallerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tileslc._fastcall.Caller",
    .tp_basicsize = sizeof(Caller),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base class of HostFunction: calls the host function's packed entry from C.",
    .tp_new = Caller_new,
    .tp_call = Caller_call,
    .tp_getset = Caller_getset,
    .tp_methods = Caller_methods,
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
  g_str_dtype = PyUnicode_InternFromString("dtype");
  g_str_shape = PyUnicode_InternFromString("shape");
  g_str_stride = PyUnicode_InternFromString("stride");
  g_str_data_ptr = PyUnicode_InternFromString("data_ptr");
  g_str_get_device = PyUnicode_InternFromString("get_device");
  g_str_slow_call = PyUnicode_InternFromString("_slow_call");
  g_str_stream = PyUnicode_InternFromString("stream");
  g_str_fail = PyUnicode_InternFromString("_fail");
  if (!g_str_slow_call || !g_str_stream || !g_str_fail || !g_str_dtype || !g_str_shape || !g_str_stride || !g_str_data_ptr || !g_str_get_device) return NULL;
  Py_INCREF(&CallerType);
  if (PyModule_AddObject(m, "Caller", (PyObject*)&CallerType) < 0) {
    Py_DECREF(&CallerType);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
