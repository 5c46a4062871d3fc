/* tileslc/dlpack.h: tensor views from DLPack tensors (DLPack, dmlc/dlpack:
 * DLTensor, DLManagedTensor and, from DLPack 1.0, DLManagedTensorVersioned).
 * Compiles as C11 and as C++; needs <dlpack/dlpack.h> (Debian: libdlpack-dev).
 *
 * The view borrows the DLPack tensor's memory: the caller keeps the DLPack
 * tensor (and its deleter unrun) while the view is in use. A view is made
 * only when tileslc can describe the tensor exactly; otherwise the function
 * returns TILESLC_ERROR and tileslc_last_error() says what is unsupported:
 *   - device: kDLCUDA and kDLCUDAManaged for the CUDA runtime (the view's
 *     device is the DLPack device_id); kDLCPU (and kDLCUDAHost) for the CPU
 *     emulation runtime, whose device memory is host memory;
 *   - dtype: one lane of Bool, Int8..64, UInt8..64, Float16/32/64, BFloat16,
 *     Float8 E4M3FN and E5M2 (DLPack 1.1 codes); not complex, sub-byte or
 *     vector types;
 *   - ndim: 0..TILESLC_MAX_RANK; a NULL shape with ndim > 0 is refused;
 *   - byte_offset: must be a multiple of the element size (it is added to
 *     data; tileslc views have no separate offset);
 *   - strides: NULL means compact row-major (DLPack's rule); given strides
 *     are used as they are (0 and negative included) as long as every
 *     element's byte offset fits in int64.
 * The versioned form also refuses a major version other than 1. */
#ifndef TILESLC_DLPACK_H
#define TILESLC_DLPACK_H

#include <dlpack/dlpack.h>

#include "tileslc/c_api.h"

#ifndef DLPACK_MAJOR_VERSION
/* DLPack before 1.0 (Debian bookworm ships 0.6) lacks the versioned managed
 * tensor; this is its layout from DLPack 1.0's dlpack.h, so producers that
 * hand out "dltensor_versioned" capsules can still be imported. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Fills *out with a view of `tensor` (both non-NULL). Returns TILESLC_OK, or
 * TILESLC_ERROR with the reason in tileslc_last_error() (*out is then
 * unchanged). */
int tileslc_tensor_view_from_dltensor(const DLTensor* tensor, tileslc_tensor_view* out);
/* The same for the DLTensor of a DLManagedTensor ("dltensor" capsules). */
int tileslc_tensor_view_from_dlpack(const DLManagedTensor* tensor, tileslc_tensor_view* out);
/* The same for a DLManagedTensorVersioned ("dltensor_versioned" capsules),
 * after checking that its major version is 1. */
int tileslc_tensor_view_from_dlpack_versioned(const DLManagedTensorVersioned* tensor, tileslc_tensor_view* out);

#ifdef __cplusplus
} /* extern "C" */

#include "tileslc/runtime.h"

namespace tileslc {
// The C++ form of tileslc_tensor_view_from_dltensor: a view of `tensor` in
// *out, or an error Status saying what tileslc cannot describe.
Status tensor_view_from_dlpack(const DLTensor& tensor, TensorView* out);
}  // namespace tileslc
#endif

#endif /* TILESLC_DLPACK_H */
