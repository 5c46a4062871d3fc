/* _fastcall.c: the Python package's fast path for calling a host function with
 * torch tensors (issue 16: Python-side overhead per call).
 *
 * The ctypes path (_library.py) builds a ctypes TensorView per tensor, asks
 * torch for the current stream through torch.cuda.current_stream() and lets
 * ctypes convert every argument: about 20 us a call on the H200, more than
 * the launch itself. Here one C function reads each torch tensor's data
 * pointer, dtype, shape, strides and device through torch.Tensor's own C
 * accessors (called directly, not looked up per object), asks torch for the
 * raw current stream (torch._C._cuda_getCurrentRawStream), and calls the
 * library's packed entry (`int tileslc_NAME_packed(void* const*
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
 * loads (_library.py makes the class), so `fn(a, b, c)` enters C directly, as
 * a vectorcall (no argument tuple): a Python-level __call__ in between cost
 * ~0.4 us of the ~1.7 us a call spent outside cudaLaunchKernel (H200,
 * torch_demo's figure). What this path does not take goes to the Python
 * method _slow_call with the same arguments.
 *
 * Where the optional C++ torch reader (_torch_reader.cpp, _torch_reader.h) was built, it reads
 * exact torch.Tensor objects from their at::Tensor instead (and the current stream through
 * c10::cuda), with no Python call; whatever it defers goes through the reads here unchanged.
 *
 * Built on first use by _fastcall_build.py with the system C compiler against
 * this Python's headers and tileslc/c_api.h; the package works without it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "_torch_reader.h" /* tileslc/c_api.h and the optional C++ torch reader's interface */

typedef int (*packed_fn)(void* const* args, tileslc_stream stream);

/* Parameter kinds, one char each (the Python side maps the metadata's dtypes to them). */
enum { kTensor = 't' };

/* torch's objects, set once by set_torch(): the Tensor type, a dict from torch dtypes to
 * tileslc_dtype codes, and torch._C._cuda_getCurrentRawStream (None on a CPU-only torch). */
static PyTypeObject* g_tensor_type = NULL;
static int g_has_neg = 0; /* torch.Tensor has is_neg() (torch 1.10 on: tensors may carry the negative bit) */
static PyObject* g_dtype_codes = NULL;
static PyObject* g_last_dtype = NULL; /* a key of g_dtype_codes (borrowed) and its code */
static long g_last_code = 0;
static PyObject* g_raw_stream = NULL;
static PyCFunction g_raw_stream_fn = NULL; /* its C function, when it is a METH_O builtin */
static PyObject* g_str_slow_call = NULL;
static PyObject* g_str_stream = NULL;
static PyObject* g_str_fail = NULL;
static PyObject* g_empty_tuple = NULL;

/* The optional C++ torch reader (_torch_reader.cpp, handed over by set_torch; NULL without it):
 * where it reads a tensor, none of the Python-level reads below run. Its capsule is kept so the
 * module stays loaded; g_reader_reads counts the tensors it read (torch_reader() tells). */
static const tileslc_torch_reader* g_reader = NULL;
static const tileslc_torch_reader* g_reader_loaded = NULL; /* g_reader unless use_torch_reader(False) */
static PyObject* g_reader_capsule = NULL;
static unsigned long long g_reader_reads = 0;

/* What the fast path reads of a torch tensor. Methods first, then attributes (getset
 * descriptors); is_cuda / is_cpu say the device type, get_device() the CUDA ordinal, is_neg()
 * whether the tensor's negative bit is set (its memory holds the negated values: such a tensor
 * goes to the slow path, which refuses it). */
enum { kGetDevice, kStride, kDataPtr, kIsNeg, kMethods, kDtype = kMethods, kShape, kIsCuda, kIsCpu, kDevice, kAccessors };
static const char* const kAccessorNames[kAccessors] = {"get_device", "stride",  "data_ptr", "is_neg", "dtype",
                                                       "shape",      "is_cuda", "is_cpu",   "device"};
static PyObject* g_accessor_names[kAccessors]; /* interned */

/* torch.Tensor's own accessors (torch._C.TensorBase's C functions), looked up on the type once
 * per version of it rather than on every tensor: an exact torch.Tensor then costs one C call per
 * read, not an attribute lookup through the MRO and the object's __dict__ plus a call. Valid
 * while torch.Tensor's tp_version_tag is `version` (CPython zeroes the tag whenever the class or
 * a base changes, so a monkeypatched torch.Tensor.stride is seen); a tensor of a subclass
 * (nn.Parameter, FakeTensor, any __torch_function__ subclass) reads through ordinary attribute
 * access. The C functions still honour torch function modes themselves. */
static struct {
  unsigned int version; /* torch.Tensor's tp_version_tag when resolved (0: not resolved) */
  int ok;               /* the accessors are torch's C ones: exact tensors read through them */
  int gave_up;          /* the type got no version tag: generic reads from now on */
  PyObject* descr[kAccessors]; /* new references; is_cpu may be NULL (torch before 1.13), is_neg (before 1.10) */
} g_direct;

static void direct_clear(void) {
  for (int i = 0; i < kAccessors; ++i) Py_CLEAR(g_direct.descr[i]);
  g_direct.version = 0;
  g_direct.ok = 0;
}

/* Looks torch.Tensor's accessors up, which also gives the type a version tag. Returns 0 (ok set
 * when every accessor is a C one of a base of torch.Tensor), or -1 with a Python error set. */
static int direct_resolve(void) {
  direct_clear();
  int ok = 1;
  for (int i = 0; i < kAccessors; ++i) {
    PyObject* d = PyObject_GetAttr((PyObject*)g_tensor_type, g_accessor_names[i]);
    if (d == NULL) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
      PyErr_Clear();
      /* is_cpu: torch before 1.13, whose CPU tensors take the ctypes path; is_neg: torch before
       * 1.10, which has no negative bit (g_has_neg) */
      if (i != kIsCpu && i != kIsNeg) ok = 0;
      continue;
    }
    g_direct.descr[i] = d;
    int c_accessor = i < kMethods ? Py_IS_TYPE(d, &PyMethodDescr_Type)
                                  : Py_IS_TYPE(d, &PyGetSetDescr_Type) &&
                                        ((PyGetSetDescrObject*)d)->d_getset->get != NULL;
    if (!c_accessor || !PyType_IsSubtype(g_tensor_type, ((PyDescrObject*)d)->d_type)) ok = 0;
  }
  unsigned int tag = g_tensor_type->tp_version_tag;
  if (tag == 0) { /* CPython gave out no tag (it caps a class's tags): nothing to check against */
    direct_clear();
    g_direct.gave_up = 1;
    return 0;
  }
  if (!ok) {  /* e.g. a monkeypatched torch.Tensor.stride: ordinary attribute reads */
    for (int i = 0; i < kAccessors; ++i) Py_CLEAR(g_direct.descr[i]);
  }
  g_direct.version = tag;
  g_direct.ok = ok;
  return 0;
}

/* Whether tensor `t` may be read through g_direct (resolving it when torch.Tensor changed).
 * Returns 1 or 0, -1 with a Python error set. */
static int direct_usable(PyObject* t) {
  if (Py_TYPE(t) != g_tensor_type || g_direct.gave_up) return 0;
  unsigned int tag = g_tensor_type->tp_version_tag;
  if ((tag == 0 || tag != g_direct.version) && direct_resolve() < 0) return -1;
  return g_direct.ok;
}

/* Calls method accessor `i` of `t` with no arguments: straight into torch's C function when
 * `direct`, else as t.name(). */
static PyObject* tensor_method(PyObject* t, int i, int direct) {
  if (!direct) {
    PyObject* self_arg[1] = {t};
    return PyObject_VectorcallMethod(g_accessor_names[i], self_arg, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
  }
  PyMethodDef* def = ((PyMethodDescrObject*)g_direct.descr[i])->d_method;
  switch (def->ml_flags & (METH_VARARGS | METH_KEYWORDS | METH_NOARGS | METH_O | METH_FASTCALL | METH_METHOD)) {
    case METH_NOARGS:
      return def->ml_meth(t, NULL);
    case METH_VARARGS:
      return def->ml_meth(t, g_empty_tuple);
    case METH_VARARGS | METH_KEYWORDS:
      return ((PyCFunctionWithKeywords)(void (*)(void))def->ml_meth)(t, g_empty_tuple, NULL);
    default: {  /* the descriptor's own vectorcall checks and converts */
      PyObject* self_arg[1] = {t};
      return PyObject_Vectorcall(g_direct.descr[i], self_arg, 1, NULL);
    }
  }
}

/* Reads attribute accessor `i` of `t` (its getter when `direct`, else getattr). */
static PyObject* tensor_attr(PyObject* t, int i, int direct) {
  if (!direct) return PyObject_GetAttr(t, g_accessor_names[i]);
  PyGetSetDef* gs = ((PyGetSetDescrObject*)g_direct.descr[i])->d_getset;
  return gs->get(t, gs->closure);
}

/* A torch.device object is `struct THPDevice { PyObject_HEAD; c10::Device device; }`, and a
 * c10::Device an int8 DeviceType (CPU 0, CUDA 1) followed by its index. set_torch() checks that
 * layout on devices it makes (cuda:3, cuda:5, cpu), finding the index's width (int8 in torch 2.x);
 * where it holds, one t.device read tells a CUDA tensor and its ordinal, in place of t.is_cuda and
 * t.get_device(). Otherwise (0 here) the path reads those two. */
static PyTypeObject* g_device_type = NULL;
static int g_device_index_bytes = 0; /* 1 or 2 when the layout was confirmed */

/* (type, index) of a torch.device in the confirmed layout; 0, or -1 when `d` is not one. */
static int read_device(PyObject* d, int* type, long* index) {
  if (g_device_index_bytes == 0 || Py_TYPE(d) != g_device_type) return -1;
  const unsigned char* p = (const unsigned char*)d + sizeof(PyObject);
  *type = (signed char)p[0];
  if (g_device_index_bytes == 1) {
    *index = (signed char)p[1];
  } else {
    int16_t v;
    memcpy(&v, p + 2, sizeof v);
    *index = v;
  }
  return 0;
}

/* Confirms the torch.device layout above on (cuda:3, cuda:5, cpu), setting g_device_*. */
static void probe_device_layout(PyObject* probes) {
  g_device_index_bytes = 0;
  Py_CLEAR(g_device_type);
  if (!PyTuple_Check(probes) || PyTuple_GET_SIZE(probes) != 3) return;
  PyTypeObject* type = Py_TYPE(PyTuple_GET_ITEM(probes, 0));
  if (type->tp_basicsize < (Py_ssize_t)(sizeof(PyObject) + 4)) return;
  const long want_index[3] = {3, 5, -1};
  const int want_type[3] = {1, 1, 0};
  g_device_type = (PyTypeObject*)Py_NewRef((PyObject*)type);
  for (int bytes = 1; bytes <= 2; ++bytes) {
    g_device_index_bytes = bytes;
    int all = 1;
    for (int i = 0; i < 3 && all; ++i) {
      int t;
      long index;
      all = read_device(PyTuple_GET_ITEM(probes, i), &t, &index) == 0 && t == want_type[i] && index == want_index[i];
    }
    if (all) return;
  }
  g_device_index_bytes = 0;
  Py_CLEAR(g_device_type);
}

#define MAX_PARAMS 64

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall; /* Caller_vectorcall: calls enter C with their arguments in place */
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

/* Whether `t` is on the target's device: a CUDA tensor when `cuda`, else a CPU one (is_cpu; a
 * torch without it sends CPU tensors to the ctypes path). Returns 1, 0, -1 with an error set. */
static int on_target_device(PyObject* t, int cuda, int direct) {
  int which = cuda ? kIsCuda : kIsCpu;
  if (direct && g_direct.descr[which] == NULL) return 0;
  PyObject* flag = tensor_attr(t, which, direct);
  if (flag == NULL) {
    if (!cuda && !direct && PyErr_ExceptionMatches(PyExc_AttributeError)) {
      PyErr_Clear();
      return 0;
    }
    return -1;
  }
  int r = PyObject_IsTrue(flag);
  Py_DECREF(flag);
  return r;
}

/* The CUDA ordinal of `t` when it is a CUDA tensor: 1 with *index set, 0 when it is not one, -1
 * with a Python error set. One t.device read where its layout was confirmed, else t.is_cuda and
 * t.get_device(). */
static int cuda_index(PyObject* t, int direct, long* index) {
  if (g_device_index_bytes != 0) {
    PyObject* d = tensor_attr(t, kDevice, direct);
    if (d == NULL) return -1;
    int type;
    int r = read_device(d, &type, index) == 0 && type == 1 && *index >= 0;
    Py_DECREF(d);
    return r;
  }
  int on = on_target_device(t, 1, direct);
  if (on <= 0) return on;
  PyObject* dev = tensor_method(t, kGetDevice, direct);
  if (dev == NULL) return -1;
  *index = PyLong_AsLong(dev);
  Py_DECREF(dev);
  if (*index == -1 && PyErr_Occurred()) return -1;
  return *index >= 0;
}

/* Fills `view` from a torch tensor on the target's device (CUDA when `cuda`, else the CPU).
 * Returns 0; 1 when `t` is not one this path takes (no Python error set); -1 with a Python error
 * set. `device` receives the CUDA ordinal (0 for the CPU target). Reads: the device (see
 * cuda_index; is_cpu for the CPU target), dtype, shape, stride(), data_ptr(). */
static int torch_view(PyObject* t, int cuda, tileslc_tensor_view* view, long* device) {
  if (g_tensor_type == NULL || !PyObject_TypeCheck(t, g_tensor_type)) return 1;
  int direct = direct_usable(t);
  if (direct < 0) return -1;
  /* Exactly torch.Tensor with torch's own accessors: the C++ reader, when loaded, reads what they
   * would return; what it does not take (it defers: an active torch function mode, a layout or
   * device or dtype this path does not take, a read that throws) goes through the reads below,
   * which take the call elsewhere or raise torch's error. */
  if (direct && g_reader != NULL && g_reader->read(t, cuda, view, device) == 0) {
    ++g_reader_reads;
    return 0;
  }
  int rc = 1;
  PyObject *dtype = NULL, *shape = NULL, *stride = NULL, *ptr = NULL;
  long index = 0;
  int on = cuda ? cuda_index(t, direct, &index) : on_target_device(t, 0, direct);
  if (on < 0) goto error;
  if (on == 0) goto done;
  if (g_has_neg) {
    PyObject* neg = tensor_method(t, kIsNeg, direct);
    if (neg == NULL) goto error;
    int is_neg = PyObject_IsTrue(neg);
    Py_DECREF(neg);
    if (is_neg < 0) goto error;
    if (is_neg) goto done; /* the slow path refuses it, naming the argument */
  }
  dtype = tensor_attr(t, kDtype, direct);
  if (dtype == NULL) goto error;
  long code;
  if (dtype == g_last_dtype) { /* consecutive tensors mostly share a dtype: skip the dict */
    code = g_last_code;
  } else {
    PyObject* c = PyDict_GetItemWithError(g_dtype_codes, dtype); /* borrowed */
    if (c == NULL) {
      if (PyErr_Occurred()) goto error;
      goto done;
    }
    code = PyLong_AsLong(c);
    g_last_dtype = dtype; /* kept alive by g_dtype_codes, a key of it */
    g_last_code = code;
  }
  shape = tensor_attr(t, kShape, direct);
  if (shape == NULL) goto error;
  Py_ssize_t rank = PyTuple_Check(shape) ? PyTuple_GET_SIZE(shape) : -1;
  if (rank < 0 || rank > TILESLC_MAX_RANK) goto done;
  stride = tensor_method(t, kStride, direct);
  if (stride == NULL) goto error;
  /* Modes past the rank are zero. Two 64-byte memsets, which compilers emit as vector stores,
   * not one of the whole view: GCC inlines that as `rep stosq`, whose start-up took ~40% of
   * this function's own time (perf, x86). */
  memset(view->shape, 0, sizeof view->shape);
  memset(view->stride, 0, sizeof view->stride);
  if (read_ints(shape, view->shape, rank) != 0 || read_ints(stride, view->stride, rank) != 0) goto done;
  ptr = tensor_method(t, kDataPtr, direct); /* includes the storage offset */
  if (ptr == NULL) goto error;
  view->data = PyLong_AsVoidPtr(ptr);
  if (PyErr_Occurred()) goto error;
  view->dtype = (tileslc_dtype)code;
  view->rank = (int32_t)rank;
  view->device = (int32_t)index;
  *device = index;
  rc = 0;
  goto done;
error:
  rc = -1;
done:
  Py_XDECREF(dtype);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  Py_XDECREF(ptr);
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

/* torch's current raw stream on CUDA device `device`: a cudaStream_t, or NULL (the legacy
 * default stream, or an error: check PyErr_Occurred). */
static void* current_raw_stream(long device) {
  PyObject* index = PyLong_FromLong(device); /* a cached small int */
  if (index == NULL) return NULL;
  PyObject* s = g_raw_stream_fn != NULL ? g_raw_stream_fn(PyCFunction_GET_SELF(g_raw_stream), index)
                                        : PyObject_CallOneArg(g_raw_stream, index);
  Py_DECREF(index);
  if (s == NULL) return NULL;
  void* stream = PyLong_AsVoidPtr(s);
  Py_DECREF(s);
  return stream;
}

/* One attempt at the fast path: None on success, the host function's status (an int, non-zero)
 * on failure, NotImplemented when the ctypes path must take the call, NULL with a Python error.
 * `stream` is None (torch's current stream on the first tensor's device) or a CUDA stream handle
 * as an int. */
static PyObject* try_fast(Caller* self, PyObject* const* args, Py_ssize_t nargs, PyObject* stream_obj) {
  if (self->fn == NULL || !self->enabled || nargs != self->nparams) Py_RETURN_NOTIMPLEMENTED;
  Arg storage[MAX_PARAMS];
  void* packed[MAX_PARAMS];
  long device = -1; /* the first tensor's CUDA ordinal */
  for (Py_ssize_t i = 0; i < self->nparams; ++i) {
    packed[i] = &storage[i];
    if (self->kinds[i] == kTensor) {
      long d = 0;
      int rc = torch_view(args[i], self->cuda, &storage[i].view, &d);
      if (rc < 0) return NULL;
      if (rc > 0) Py_RETURN_NOTIMPLEMENTED;
      if (device < 0) device = d;
    } else if (scalar_arg(args[i], self->kinds[i], &storage[i]) != 0) {
      return NULL;
    }
  }
  void* stream = NULL;
  if (stream_obj == Py_None && self->cuda) {
    /* No torch tensor, or no raw-stream function: the ctypes path picks the stream. */
    if (device < 0 || g_raw_stream == NULL || g_raw_stream == Py_None) Py_RETURN_NOTIMPLEMENTED;
    /* The C++ reader's c10::cuda::getCurrentCUDAStream: what _cuda_getCurrentRawStream returns. */
    if (g_reader == NULL || g_reader->current_stream == NULL || g_reader->current_stream(device, &stream) != 0)
      stream = current_raw_stream(device);
  } else if (stream_obj != Py_None) {
    stream = PyLong_AsVoidPtr(stream_obj);
  }
  if (PyErr_Occurred()) return NULL;
  ++self->calls;
  int status = self->fn(packed, (tileslc_stream)stream);
  if (status != 0) return PyLong_FromLong(status);
  Py_RETURN_NONE;
}

/* self._try_fast(args: tuple, stream): try_fast for the Python side (its first call, made
 * before torch's objects were handed over). */
static PyObject* Caller_try_fast(PyObject* self, PyObject* args) {
  PyObject *call_args, *stream_obj;
  if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &call_args, &stream_obj)) return NULL;
  return try_fast((Caller*)self, &PyTuple_GET_ITEM(call_args, 0), PyTuple_GET_SIZE(call_args), stream_obj);
}

/* self(*args, stream=None), as a vectorcall (no argument tuple is made): the fast path when it
 * takes the call (no keywords but `stream`), else self._slow_call(*args, **kwargs). A non-zero
 * status calls self._fail(), which raises the host function's message as the ctypes path does
 * (the call is not made twice). */
static PyObject* Caller_vectorcall(PyObject* self_, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  Caller* self = (Caller*)self_;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* stream_obj = Py_None;
  Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
  if (nkw > 1) goto slow;
  if (nkw == 1) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, 0);
    int is_stream = name == g_str_stream ? 1 : PyUnicode_Compare(name, g_str_stream) == 0;
    if (!is_stream) {
      if (PyErr_Occurred()) return NULL;
      goto slow;
    }
    stream_obj = args[nargs];
  }
  if (g_tensor_type != NULL) {
    PyObject* r = try_fast(self, args, nargs, stream_obj);
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
  PyObject* r = PyObject_Vectorcall(slow_call, args, nargs, kwnames);
  Py_DECREF(slow_call);
  return r;
}

/* Caller(...): a caller with no packed entry yet (every call takes _slow_call); the arguments are
 * the subclass's (HostFunction's __init__ takes them). */
static PyObject* Caller_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)args;
  (void)kwargs;
  Caller* self = (Caller*)type->tp_alloc(type, 0); /* zeroed: fn NULL, enabled 0, calls 0 */
  if (self != NULL) self->vectorcall = Caller_vectorcall;
  return (PyObject*)self;
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
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Base class of HostFunction: calls the host function's packed entry from C.",
    .tp_new = Caller_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Caller, vectorcall),
    .tp_getset = Caller_getset,
    .tp_methods = Caller_methods,
};

/* subclass_ready(cls): lets calls of `cls` (a Python subclass of Caller that keeps its __call__)
 * use Caller's vectorcall. CPython before 3.12 does not pass Py_TPFLAGS_HAVE_VECTORCALL on to a
 * class made by a class statement or type(), so each call would build an argument tuple and go
 * through tp_call (PyVectorcall_Call, still correct); 3.12 and later do this themselves. */
static PyObject* subclass_ready(PyObject* mod, PyObject* cls) {
  (void)mod;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &CallerType)) {
    PyErr_SetString(PyExc_TypeError, "subclass_ready: expected a subclass of Caller");
    return NULL;
  }
  PyTypeObject* t = (PyTypeObject*)cls;
  if (t->tp_call == PyVectorcall_Call && t->tp_vectorcall_offset == CallerType.tp_vectorcall_offset)
    t->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  return PyBool_FromLong((t->tp_flags & Py_TPFLAGS_HAVE_VECTORCALL) != 0);
}

/* A packed entry that does nothing and reports success: HostFunction._no_launch_twin() points a
 * copy of a host function at it, so that torch_demo.py can time the Python side of a call (every
 * read and check the fast path makes) without the launch. */
static int noop_packed(void* const* args, tileslc_stream stream) {
  (void)args;
  (void)stream;
  return 0;
}

static PyObject* noop_packed_address(PyObject* mod, PyObject* unused) {
  (void)mod;
  (void)unused;
  return PyLong_FromVoidPtr((void*)(uintptr_t)&noop_packed);
}

/* Takes the C++ torch reader's capsule (None: no reader), handing it the dtype table. */
static int set_reader(PyObject* capsule, PyObject* codes) {
  const tileslc_torch_reader* reader = NULL;
  if (capsule != Py_None) {
    reader = (const tileslc_torch_reader*)PyCapsule_GetPointer(capsule, TILESLC_TORCH_READER_CAPSULE);
    if (reader == NULL || reader->read == NULL || reader->set_dtype_codes == NULL) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "set_torch: an incomplete torch reader");
      return -1;
    }
    if (reader->set_dtype_codes(codes) != 0) return -1;
  }
  Py_INCREF(capsule);
  Py_XSETREF(g_reader_capsule, capsule);
  g_reader = g_reader_loaded = reader;
  return 0;
}

/* set_torch(Tensor, {dtype: code}, raw_stream_fn or None, (cuda:3, cuda:5, cpu) torch.devices,
 * reader=None): torch's objects, once torch is imported (a CPU-only torch has no raw-stream
 * function); `reader` is the C++ torch reader's capsule (_torch_reader.h) where it loaded. */
static PyObject* set_torch(PyObject* mod, PyObject* args) {
  (void)mod;
  PyObject *tensor_type, *codes, *raw_stream, *device_probes, *reader = Py_None;
  if (!PyArg_ParseTuple(args, "O!O!OO|O", &PyType_Type, &tensor_type, &PyDict_Type, &codes, &raw_stream,
                        &device_probes, &reader))
    return NULL;
  if (set_reader(reader, codes) != 0) return NULL;
  Py_INCREF(tensor_type);
  Py_INCREF(codes);
  Py_INCREF(raw_stream);
  Py_XDECREF(g_tensor_type);
  Py_XDECREF(g_dtype_codes);
  Py_XDECREF(g_raw_stream);
  g_tensor_type = (PyTypeObject*)tensor_type;
  g_dtype_codes = codes;
  g_last_dtype = NULL;
  g_raw_stream = raw_stream;
  /* torch._C._cuda_getCurrentRawStream is a METH_O builtin: call its C function directly. */
  g_raw_stream_fn = PyCFunction_Check(raw_stream) && PyCFunction_GET_FLAGS(raw_stream) == METH_O
                        ? PyCFunction_GET_FUNCTION(raw_stream)
                        : NULL;
  probe_device_layout(device_probes);
  g_has_neg = PyObject_HasAttrString(tensor_type, "is_neg");
  direct_clear();
  g_direct.gave_up = 0;
  Py_RETURN_NONE;
}

/* device_layout() -> the width in bytes of torch.device's index as confirmed by set_torch (1 or 2),
 * 0 where the fast path reads is_cuda and get_device() instead (for tests). */
static PyObject* device_layout(PyObject* mod, PyObject* unused) {
  (void)mod;
  (void)unused;
  return PyLong_FromLong(g_device_index_bytes);
}

/* torch_reader() -> (in use, reads the current stream, tensors it has read): the C++ torch
 * reader's state (for tests, torch_demo.py and fast_path_status()). */
static PyObject* torch_reader(PyObject* mod, PyObject* unused) {
  (void)mod;
  (void)unused;
  return Py_BuildValue("(NNK)", PyBool_FromLong(g_reader != NULL),
                       PyBool_FromLong(g_reader != NULL && g_reader->current_stream != NULL), g_reader_reads);
}

/* read_view(t, cuda, use_reader) -> (data, dtype, rank, shape, stride, view.device, device), or None where the
 * fast path does not take `t`: torch_view's reading of one tensor, through the C++ torch reader
 * when `use_reader` (and loaded), else the Python-level reads (tests compare the two). */
static PyObject* read_view(PyObject* mod, PyObject* args) {
  (void)mod;
  PyObject* t;
  int cuda, use_reader;
  if (!PyArg_ParseTuple(args, "Opp", &t, &cuda, &use_reader)) return NULL;
  const tileslc_torch_reader* saved = g_reader;
  if (!use_reader) g_reader = NULL;
  tileslc_tensor_view v;
  memset(&v, 0, sizeof v);
  long device = -1;
  int rc = torch_view(t, cuda, &v, &device);
  g_reader = saved;
  if (rc < 0) return NULL;
  if (rc > 0) Py_RETURN_NONE;
  PyObject* shape = PyTuple_New(TILESLC_MAX_RANK);
  PyObject* stride = PyTuple_New(TILESLC_MAX_RANK);
  if (shape == NULL || stride == NULL) {
    Py_XDECREF(shape);
    Py_XDECREF(stride);
    return NULL;
  }
  for (int i = 0; i < TILESLC_MAX_RANK; ++i) {
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(v.shape[i]));
    PyTuple_SET_ITEM(stride, i, PyLong_FromLongLong(v.stride[i]));
  }
  return Py_BuildValue("(NiiNNil)", PyLong_FromVoidPtr(v.data), (int)v.dtype, (int)v.rank, shape, stride,
                       (int)v.device, device);
}

/* current_stream(device, use_reader) -> the stream a call with stream=None launches on, as an int:
 * the C++ torch reader's when `use_reader` and it reads streams, else torch's raw current stream
 * (tests compare the two). */
static PyObject* current_stream(PyObject* mod, PyObject* args) {
  (void)mod;
  long device;
  int use_reader;
  if (!PyArg_ParseTuple(args, "lp", &device, &use_reader)) return NULL;
  void* stream = NULL;
  if (use_reader && g_reader != NULL && g_reader->current_stream != NULL) {
    if (g_reader->current_stream(device, &stream) != 0) Py_RETURN_NONE;
  } else {
    if (g_raw_stream == NULL || g_raw_stream == Py_None) Py_RETURN_NONE;
    stream = current_raw_stream(device);
    if (PyErr_Occurred()) return NULL;
  }
  return PyLong_FromVoidPtr(stream);
}

/* use_torch_reader(on) -> whether the C++ torch reader is in use now: off sends every tensor to the
 * Python-level reads, on takes the loaded reader back (the benchmarks time both in one process). */
static PyObject* use_torch_reader(PyObject* mod, PyObject* on) {
  (void)mod;
  int v = PyObject_IsTrue(on);
  if (v < 0) return NULL;
  g_reader = v ? g_reader_loaded : NULL;
  return PyBool_FromLong(g_reader != NULL);
}

static PyMethodDef methods[] = {
    {"use_torch_reader", use_torch_reader, METH_O, "use_torch_reader(on) -> whether the C++ torch reader is in use"},
    {"current_stream", current_stream, METH_VARARGS, "current_stream(device, use_reader) -> the stream a call uses"},
    {"read_view", read_view, METH_VARARGS, "read_view(t, cuda, use_reader) -> the view torch_view reads, or None"},
    {"set_torch", set_torch, METH_VARARGS, "set_torch(Tensor, dtype_codes, raw_stream_fn, device_probes, reader=None)"},
    {"torch_reader", torch_reader, METH_NOARGS, "torch_reader() -> (in use, reads the stream, tensors read)"},
    {"device_layout", device_layout, METH_NOARGS, "device_layout() -> torch.device's index width, 0 if unconfirmed"},
    {"subclass_ready", subclass_ready, METH_O, "subclass_ready(cls) -> whether calls of cls are vectorcalls"},
    {"noop_packed_address", noop_packed_address, METH_NOARGS, "the address of a packed entry that does nothing"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_fastcall", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__fastcall(void) {
  if (PyType_Ready(&CallerType) < 0) return NULL;
  PyObject* m = PyModule_Create(&module);
  if (m == NULL) return NULL;
  for (int i = 0; i < kAccessors; ++i) {
    g_accessor_names[i] = PyUnicode_InternFromString(kAccessorNames[i]);
    if (g_accessor_names[i] == NULL) return NULL;
  }
  g_str_slow_call = PyUnicode_InternFromString("_slow_call");
  g_str_stream = PyUnicode_InternFromString("stream");
  g_str_fail = PyUnicode_InternFromString("_fail");
  g_empty_tuple = PyTuple_New(0);
  if (!g_str_slow_call || !g_str_stream || !g_str_fail || !g_empty_tuple) return NULL;
  Py_INCREF(&CallerType);
  if (PyModule_AddObject(m, "Caller", (PyObject*)&CallerType) < 0) {
    Py_DECREF(&CallerType);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
