/* _torch_reader.h: the interface between the C fast path (_fastcall.c) and the optional C++
 * torch reader (_torch_reader.cpp), which reads a torch tensor's metadata from its C++ object
 * (at::Tensor) instead of through torch's Python accessors (issue 16).
 *
 * The reader's module (tileslc._torch_reader) exposes a PyCapsule named
 * TILESLC_TORCH_READER_CAPSULE holding a pointer to a static tileslc_torch_reader;
 * _library._give_torch hands it to _fastcall.set_torch, and _fastcall.c then calls `read`
 * per tensor and `current_stream` per call, with no Python call in between. Every function
 * here either does the whole job or defers (returns 1): the caller then does what it did
 * before the reader existed, so results and error messages stay those of the Python-level
 * reads. The functions never raise and never leave a Python error set. */
#ifndef TILESLC_TORCH_READER_H
#define TILESLC_TORCH_READER_H

#include <Python.h>

#include "tileslc/c_api.h"

#define TILESLC_TORCH_READER_CAPSULE "tileslc._torch_reader.reader_v1"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tileslc_torch_reader {
  /* Fills `view` from `t`, an object whose type is exactly torch.Tensor, when it is a strided
   * tensor on the target's device (CUDA when `cuda`, else the CPU) with a dtype handed over by
   * set_dtype_codes and rank <= TILESLC_MAX_RANK, and no torch function mode is active: returns
   * 0 with *device set (the CUDA ordinal; 0 for the CPU target). Anything else returns 1. */
  int (*read)(PyObject* t, int cuda, tileslc_tensor_view* view, long* device);
  /* torch's current CUDA stream on `device` (c10::cuda::getCurrentCUDAStream(device).stream()):
   * 0 with *stream set, 1 to defer. NULL where the reader was built without CUDA headers. */
  int (*current_stream)(long device, void** stream);
  /* Takes the fast path's {torch.dtype: tileslc_dtype code} dict (the same one _fastcall.c
   * uses): 0, or -1 with a Python error set. Called once per set_torch. */
  int (*set_dtype_codes)(PyObject* codes);
} tileslc_torch_reader;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILESLC_TORCH_READER_H */
