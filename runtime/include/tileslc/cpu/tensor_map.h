// The CPU emulator's TMA tensor map: what its cuTensorMapEncodeTiled
// (runtime/src/cpu/tensor_map.cpp) stores in the 128-byte CUtensorMap /
// tileslc::TmaDescriptor, and what the emulated cp.async.bulk.tensor
// (tileslc/cpu/sm90.h) reads back. The driver's own encoding is opaque; this
// one is ours: a magic word (so a map that was never encoded, or was
// overwritten, is recognized), then the encode call's arguments. Units:
// dims and box in elements, strides in bytes (stride[i] between consecutive
// indices of dimension i + 1), swizzle_bytes 0, 32, 64 or 128.
#ifndef TILESLC_CPU_TENSOR_MAP_H
#define TILESLC_CPU_TENSOR_MAP_H

#include <cstdint>
#include <cstring>

namespace tileslc::cpu {

struct TensorMap {
  static constexpr uint64_t kMagic = 0x50414d54434c5354ull;  // "TSLCTMAP"
  uint64_t magic;
  const unsigned char* base;  ///< globalAddress
  uint64_t dim[5];
  uint64_t stride[4];
  uint32_t box[5];
  uint8_t elem_strides[5];
  uint8_t rank;
  uint8_t elem_bytes;
  uint8_t data_type;          ///< CUtensorMapDataType
  uint8_t float_type;         ///< 1 for the float types (oob NaN fill is allowed)
  uint8_t nan_fill;           ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  uint16_t swizzle_bytes;
};
static_assert(sizeof(TensorMap) <= 128, "a tensor map is 128 bytes");

/// The map stored in `desc` (128 bytes), or false when it holds none.
inline bool decode_tensor_map(const void* desc, TensorMap* out) {
  std::memcpy(out, desc, sizeof *out);
  return out->magic == TensorMap::kMagic;
}

/// Swizzle<B,4,3> for a swizzle of `bytes` (32: B=1, 64: 2, 128: 3) on a
/// shared-memory byte address: bits [4, 4+B) ^= bits [7, 7+B). TMA and wgmma
/// apply it to the address itself (PTX ISA, "Tensor Access Modes: Swizzling
/// modes"), which is why swizzled buffers start on the pattern's period.
inline uint32_t swizzle_address(uint32_t addr, int bytes) {
  const uint32_t bits = bytes == 128 ? 3 : bytes == 64 ? 2 : bytes == 32 ? 1 : 0;
  return addr ^ ((addr >> 3) & (((1u << bits) - 1u) << 4));
}

}  // namespace tileslc::cpu

#endif  // TILESLC_CPU_TENSOR_MAP_H
