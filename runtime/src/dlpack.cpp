// The DLPack import: tensor views from DLTensor, DLManagedTensor and
// DLManagedTensorVersioned (tileslc/dlpack.h says what is accepted). Built
// only when <dlpack/dlpack.h> is found (TILESLC_HAVE_DLPACK).
#ifdef TILESLC_HAVE_DLPACK
#include "tileslc/dlpack.h"

#include <cstring>
#include <string>

namespace tileslc {
namespace {

// DLDataTypeCode values by number, so that DLPack 0.6 headers (which lack the
// later codes) read tensors from newer producers: kDLBool is 6 (DLPack 0.8),
// kDLFloat8_e4m3fn 10 and kDLFloat8_e5m2 12 (DLPack 1.1).
constexpr int kCodeInt = 0, kCodeUInt = 1, kCodeFloat = 2, kCodeBfloat = 4, kCodeBool = 6, kCodeFloat8E4M3FN = 10,
              kCodeFloat8E5M2 = 12;

struct DTypeRow {
  int code, bits;
  DType dtype;
};
// What each supported (code, bits) pair is. PyTorch before 2.0 exports bool
// as UInt8; it then arrives as Uint8, which is what its bytes are.
constexpr DTypeRow kDTypes[] = {
    {kCodeBool, 8, DType::Boolean},
    {kCodeInt, 8, DType::Int8},
    {kCodeInt, 16, DType::Int16},
    {kCodeInt, 32, DType::Int32},
    {kCodeInt, 64, DType::Int64},
    {kCodeUInt, 8, DType::Uint8},
    {kCodeUInt, 16, DType::Uint16},
    {kCodeUInt, 32, DType::Uint32},
    {kCodeUInt, 64, DType::Uint64},
    {kCodeFloat, 16, DType::Float16},
    {kCodeFloat, 32, DType::Float32},
    {kCodeFloat, 64, DType::Float64},
    {kCodeBfloat, 16, DType::BFloat16},
    {kCodeFloat8E4M3FN, 8, DType::Float8E4M3FN},
    {kCodeFloat8E5M2, 8, DType::Float8E5M2},
};

const char* code_name(int code) {
  switch (code) {
    case kCodeInt: return "int";
    case kCodeUInt: return "uint";
    case kCodeFloat: return "float";
    case 3: return "opaque handle";
    case kCodeBfloat: return "bfloat";
    case 5: return "complex";
    case kCodeBool: return "bool";
    default: return "float8/6/4 variant";
  }
}

const char* device_name(int type) {
  switch (type) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLOpenCL: return "kDLOpenCL";
    case kDLVulkan: return "kDLVulkan";
    case kDLMetal: return "kDLMetal";
    case kDLROCM: return "kDLROCM";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    default: return "another device type";
  }
}

Status fail(std::string message) { return Status::error("dlpack: " + message); }

}  // namespace

Status tensor_view_from_dlpack(const DLTensor& t, TensorView* out) {
  const int device_type = static_cast<int>(t.device.device_type);
#ifdef TILESLC_CPU_EMULATION
  const bool device_ok = device_type == kDLCPU || device_type == kDLCUDAHost;
  const char* expected = "kDLCPU or kDLCUDAHost (the CPU emulator's device memory is host memory)";
#else
  const bool device_ok = device_type == kDLCUDA || device_type == kDLCUDAManaged;
  const char* expected = "kDLCUDA or kDLCUDAManaged (CUDA device memory)";
#endif
  if (!device_ok)
    return fail("tensor on device type " + std::to_string(device_type) + " (" + device_name(device_type) +
                ") is not supported, expected " + expected);
  if (t.dtype.lanes != 1)
    return fail("dtype with " + std::to_string(t.dtype.lanes) + " lanes is not supported, expected 1 lane");
  const DTypeRow* row = nullptr;
  for (const auto& r : kDTypes)
    if (r.code == t.dtype.code && r.bits == t.dtype.bits) row = &r;
  if (row == nullptr)
    return fail("dtype code " + std::to_string(t.dtype.code) + " (" + code_name(t.dtype.code) + ") with " +
                std::to_string(t.dtype.bits) +
                " bits is not supported; tileslc takes bool, int, uint, float, bfloat16 and float8 (e4m3fn, e5m2) "
                "elements of 8 to 64 bits");
  if (t.ndim < 0 || t.ndim > kMaxRank)
    return fail("ndim " + std::to_string(t.ndim) + " is not supported, expected 0 to " + std::to_string(kMaxRank));
  if (t.ndim > 0 && t.shape == nullptr) return fail("shape is NULL for a tensor of ndim " + std::to_string(t.ndim));
  const int64_t elem = static_cast<int64_t>(dtype_size(row->dtype));
  if (t.byte_offset % static_cast<uint64_t>(elem) != 0)
    return fail("byte_offset " + std::to_string(t.byte_offset) + " is not a multiple of the element size (" +
                std::to_string(elem) + " bytes); tileslc views address whole elements");
  TensorView v{};
  v.data = static_cast<char*>(t.data) + t.byte_offset;
  v.dtype = row->dtype;
  v.rank = t.ndim;
  v.device = device_type == kDLCUDA || device_type == kDLCUDAManaged ? t.device.device_id : 0;
  int64_t compact = 1;  // DLPack: NULL strides mean compact row-major
  for (int m = t.ndim - 1; m >= 0; --m) {
    if (t.shape[m] < 0)
      return fail("shape[" + std::to_string(m) + "] is " + std::to_string(t.shape[m]) + ", expected >= 0");
    v.shape[m] = t.shape[m];
    v.stride[m] = t.strides != nullptr ? t.strides[m] : compact;
    if (__builtin_mul_overflow(compact, t.shape[m] > 0 ? t.shape[m] : 1, &compact))
      return fail("the tensor's element count overflows int64");
  }
  // Every element's byte offset must be representable: the generated code
  // computes offsets in int64.
  int64_t reach = 0;
  for (int m = 0; m < t.ndim; ++m) {
    if (t.shape[m] == 0) {
      reach = 0;
      break;
    }
    const int64_t step = v.stride[m] < 0 ? -v.stride[m] : v.stride[m];
    int64_t span = 0;
    if (v.stride[m] == INT64_MIN || __builtin_mul_overflow(step, t.shape[m] - 1, &span) ||
        __builtin_mul_overflow(span, elem, &span) || __builtin_add_overflow(reach, span, &reach))
      return fail("strides[" + std::to_string(m) + "] = " + std::to_string(v.stride[m]) + " with shape[" +
                  std::to_string(m) + "] = " + std::to_string(t.shape[m]) + " reaches byte offsets beyond int64");
  }
  *out = v;
  return Status();
}

}  // namespace tileslc

namespace {

int to_c(const tileslc::Status& s) {
  tileslc::set_last_error(s);
  return s.ok() ? TILESLC_OK : TILESLC_ERROR;
}

int from_dltensor(const DLTensor* tensor, tileslc_tensor_view* out) {
  if (tensor == nullptr || out == nullptr) return to_c(tileslc::Status::error("dlpack: NULL tensor or output view"));
  tileslc::TensorView v;
  tileslc::Status s = tileslc::tensor_view_from_dlpack(*tensor, &v);
  // Same layout (runtime.h asserts it); copied as bytes, not through a pointer of the other type.
  static_assert(sizeof(v) == sizeof(*out));
  if (s.ok()) std::memcpy(out, &v, sizeof(*out));
  return to_c(s);
}

}  // namespace

extern "C" int tileslc_tensor_view_from_dltensor(const DLTensor* tensor, tileslc_tensor_view* out) {
  return from_dltensor(tensor, out);
}

extern "C" int tileslc_tensor_view_from_dlpack(const DLManagedTensor* tensor, tileslc_tensor_view* out) {
  return from_dltensor(tensor != nullptr ? &tensor->dl_tensor : nullptr, out);
}

extern "C" int tileslc_tensor_view_from_dlpack_versioned(const DLManagedTensorVersioned* tensor,
                                                         tileslc_tensor_view* out) {
  if (tensor != nullptr && tensor->version.major != 1)
    return to_c(tileslc::Status::error("dlpack: DLManagedTensorVersioned of version " +
                                       std::to_string(tensor->version.major) + "." +
                                       std::to_string(tensor->version.minor) + " is not supported, expected 1.x"));
  return from_dltensor(tensor != nullptr ? &tensor->dl_tensor : nullptr, out);
}
#endif  // TILESLC_HAVE_DLPACK
