/* tileslc/c_api.h: the C ABI of tileslc. Compiles as C11 and as C++.
 *
 * A tensor view is what a generated host function receives for each tensor
 * parameter: a device pointer, an element type, a rank, and per-mode extents
 * and strides. Strides count elements, not bytes (like DLPack and PyTorch).
 * Next to every host function tileslc emits a C twin, declared in the
 * generated header outside its `#ifdef __cplusplus` part:
 *
 *     int tileslc_vector_add(const tileslc_tensor_view* mA, ..., tileslc_stream stream);
 *
 * which returns TILESLC_OK or TILESLC_ERROR; tileslc_last_error() then says
 * why. A packed entry with one signature for every host function comes with it
 * (for callers that dispatch by name at run time, such as the Python package's
 * fast path; its name is the metadata's "c_packed_name"):
 *
 *     int tileslc_vector_add_packed(void* const* args, tileslc_stream stream);
 *
 * where args[i] points at parameter i: a tileslc_tensor_view for a tensor, the
 * scalar's C type otherwise (float for Float32, int64_t for Int64, ...).
 * The C++ API (tileslc/runtime.h) uses the same layout as
 * tileslc::TensorView. tileslc/dlpack.h makes views from DLPack tensors. */
#ifndef TILESLC_C_API_H
#define TILESLC_C_API_H

#include <stdbool.h> /* Boolean scalar parameters of host functions */
#include <stddef.h>  /* NULL: the default stream */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, numbered as in tileslc::DType (CuTe DSL names in comments). */
typedef enum tileslc_dtype {
  TILESLC_BOOLEAN = 0,       /* Boolean, 1 byte */
  TILESLC_INT8 = 1,          /* Int8 */
  TILESLC_INT16 = 2,         /* Int16 */
  TILESLC_INT32 = 3,         /* Int32 */
  TILESLC_INT64 = 4,         /* Int64 */
  TILESLC_UINT8 = 5,         /* Uint8 */
  TILESLC_UINT16 = 6,        /* Uint16 */
  TILESLC_UINT32 = 7,        /* Uint32 */
  TILESLC_UINT64 = 8,        /* Uint64 */
  TILESLC_FLOAT16 = 9,       /* Float16 (IEEE half) */
  TILESLC_BFLOAT16 = 10,     /* BFloat16 */
  TILESLC_FLOAT32 = 11,      /* Float32 */
  TILESLC_FLOAT64 = 12,      /* Float64 */
  TILESLC_TFLOAT32 = 13,     /* TFloat32, stored in 4 bytes */
  TILESLC_FLOAT8E4M3FN = 14, /* Float8E4M3FN */
  TILESLC_FLOAT8E5M2 = 15    /* Float8E5M2 */
} tileslc_dtype;

/* What every C-ABI function of tileslc returns (generated host functions'
 * twins and the runtime's C functions). On TILESLC_ERROR the message is in
 * tileslc_last_error(). */
typedef enum tileslc_status { TILESLC_OK = 0, TILESLC_ERROR = 1 } tileslc_status;

/* The largest rank a tensor view can describe. */
#define TILESLC_MAX_RANK 8

/* A strided view of device memory.
 *   data:   device pointer to element (0, ..., 0); may be NULL only when the view has no elements
 *   dtype:  a tileslc_dtype value
 *   rank:   number of modes, 0..TILESLC_MAX_RANK
 *   shape:  extent of each mode (elements); entries at and beyond `rank` are ignored
 *   stride: step of each mode, in elements (not bytes); may be 0 (broadcast)
 *   device: CUDA device ordinal the memory lives on */
typedef struct tileslc_tensor_view {
  void* data;
  int32_t dtype;
  int32_t rank;
  int64_t shape[TILESLC_MAX_RANK];
  int64_t stride[TILESLC_MAX_RANK];
  int32_t device;
} tileslc_tensor_view;

/* A CUDA stream: the same type as the CUDA runtime's cudaStream_t (and the CPU
 * emulator's), declared here so that C callers need no CUDA header. NULL is
 * the default stream. */
typedef struct CUstream_st* tileslc_stream;

/* The message of the last failed tileslc C-ABI call on the calling thread, or ""
 * if the last call succeeded or none was made. The pointer stays valid until
 * the next tileslc call on this thread. Never returns NULL. */
const char* tileslc_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILESLC_C_API_H */
