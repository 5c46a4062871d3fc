// Unit tests of the DLPack import (runtime/src/dlpack.cpp, tileslc/dlpack.h),
// built twice: against the CPU emulation runtime (which takes kDLCPU tensors)
// and the CUDA runtime (which takes kDLCUDA ones). No memory is touched, so
// neither needs a GPU.
#include "tileslc/dlpack.h"

#include <gtest/gtest.h>

#include <string>

namespace {

#ifdef TILESLC_CPU_EMULATION
constexpr DLDeviceType kAccepted = kDLCPU;
constexpr DLDeviceType kRefused = kDLCUDA;
#else
constexpr DLDeviceType kAccepted = kDLCUDA;
constexpr DLDeviceType kRefused = kDLCPU;
#endif

alignas(16) float storage[64];
int64_t shape2[2] = {4, 8};

DLTensor tensor(uint8_t code = kDLFloat, uint8_t bits = 32) {
  DLTensor t{};
  t.data = storage;
  t.device.device_type = kAccepted;
  t.device.device_id = 0;
  t.ndim = 2;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = shape2;
  t.strides = nullptr;
  return t;
}

// The view, or the error message with "error: " in front.
std::string convert(const DLTensor& t, tileslc_tensor_view* v) {
  if (tileslc_tensor_view_from_dltensor(&t, v) == TILESLC_OK) return "ok";
  return std::string("error: ") + tileslc_last_error();
}

TEST(DLPack, CompactTensorGetsRowMajorStrides) {
  tileslc_tensor_view v{};
  ASSERT_EQ(convert(tensor(), &v), "ok");
  EXPECT_EQ(v.data, storage);
  EXPECT_EQ(v.dtype, TILESLC_FLOAT32);
  EXPECT_EQ(v.rank, 2);
  EXPECT_EQ(v.shape[0], 4);
  EXPECT_EQ(v.shape[1], 8);
  EXPECT_EQ(v.stride[0], 8);
  EXPECT_EQ(v.stride[1], 1);
}

TEST(DLPack, GivenStridesAndByteOffsetAreKept) {
  int64_t strides[2] = {1, -4};  // column-major, second mode reversed
  DLTensor t = tensor();
  t.strides = strides;
  t.byte_offset = 12;  // three floats
  tileslc_tensor_view v{};
  ASSERT_EQ(convert(t, &v), "ok");
  EXPECT_EQ(v.data, storage + 3);
  EXPECT_EQ(v.stride[0], 1);
  EXPECT_EQ(v.stride[1], -4);
}

TEST(DLPack, EveryDTypeMapsToItsTileslcType) {
  const struct {
    uint8_t code, bits;
    tileslc_dtype expected;
  } cases[] = {{6, 8, TILESLC_BOOLEAN},           {kDLInt, 8, TILESLC_INT8},       {kDLInt, 16, TILESLC_INT16},
               {kDLInt, 32, TILESLC_INT32},       {kDLInt, 64, TILESLC_INT64},     {kDLUInt, 8, TILESLC_UINT8},
               {kDLUInt, 16, TILESLC_UINT16},     {kDLUInt, 32, TILESLC_UINT32},   {kDLUInt, 64, TILESLC_UINT64},
               {kDLFloat, 16, TILESLC_FLOAT16},   {kDLFloat, 32, TILESLC_FLOAT32}, {kDLFloat, 64, TILESLC_FLOAT64},
               {kDLBfloat, 16, TILESLC_BFLOAT16}, {10, 8, TILESLC_FLOAT8E4M3FN},   {12, 8, TILESLC_FLOAT8E5M2}};
  for (const auto& c : cases) {
    tileslc_tensor_view v{};
    ASSERT_EQ(convert(tensor(c.code, c.bits), &v), "ok") << int(c.code) << "/" << int(c.bits);
    EXPECT_EQ(v.dtype, c.expected) << int(c.code) << "/" << int(c.bits);
  }
}

TEST(DLPack, UnsupportedInputsAreNamed) {
  tileslc_tensor_view v{};
  DLTensor t = tensor();
  t.device.device_type = kRefused;
  EXPECT_NE(convert(t, &v).find(std::string("dlpack: tensor on device type ") + std::to_string(int(kRefused))),
            std::string::npos);
  EXPECT_EQ(convert(tensor(kDLComplex, 64), &v),
            "error: dlpack: dtype code 5 (complex) with 64 bits is not supported; tileslc takes bool, int, uint, "
            "float, bfloat16 and float8 (e4m3fn, e5m2) elements of 8 to 64 bits");
  EXPECT_NE(convert(tensor(kDLInt, 4), &v).find("dtype code 0 (int) with 4 bits is not supported"), std::string::npos);
  t = tensor();
  t.dtype.lanes = 4;
  EXPECT_EQ(convert(t, &v), "error: dlpack: dtype with 4 lanes is not supported, expected 1 lane");
  t = tensor();
  t.byte_offset = 6;
  EXPECT_EQ(convert(t, &v),
            "error: dlpack: byte_offset 6 is not a multiple of the element size (4 bytes); tileslc views address whole "
            "elements");
  t = tensor();
  t.ndim = 9;
  EXPECT_EQ(convert(t, &v), "error: dlpack: ndim 9 is not supported, expected 0 to 8");
  t = tensor();
  t.shape = nullptr;
  EXPECT_EQ(convert(t, &v), "error: dlpack: shape is NULL for a tensor of ndim 2");
  int64_t huge[2] = {int64_t(1) << 62, 1};
  t = tensor();
  t.strides = huge;
  EXPECT_EQ(convert(t, &v),
            "error: dlpack: strides[0] = 4611686018427387904 with shape[0] = 4 reaches byte offsets beyond int64");
  // A failed conversion leaves the output alone.
  tileslc_tensor_view before{};
  before.rank = 7;
  v = before;
  EXPECT_NE(convert(tensor(kDLComplex, 64), &v), "ok");
  EXPECT_EQ(v.rank, 7);
}

TEST(DLPack, ManagedAndVersionedTensors) {
  DLManagedTensor managed{};
  managed.dl_tensor = tensor();
  tileslc_tensor_view v{};
  ASSERT_EQ(tileslc_tensor_view_from_dlpack(&managed, &v), TILESLC_OK) << tileslc_last_error();
  EXPECT_EQ(v.shape[1], 8);
  DLManagedTensorVersioned versioned{};
  versioned.version.major = 1;
  versioned.version.minor = 1;
  versioned.dl_tensor = tensor();
  ASSERT_EQ(tileslc_tensor_view_from_dlpack_versioned(&versioned, &v), TILESLC_OK) << tileslc_last_error();
  versioned.version.major = 2;
  EXPECT_EQ(tileslc_tensor_view_from_dlpack_versioned(&versioned, &v), TILESLC_ERROR);
  EXPECT_STREQ(tileslc_last_error(), "dlpack: DLManagedTensorVersioned of version 2.1 is not supported, expected 1.x");
  EXPECT_EQ(tileslc_tensor_view_from_dlpack(nullptr, &v), TILESLC_ERROR);
  EXPECT_STREQ(tileslc_last_error(), "dlpack: NULL tensor or output view");
}

}  // namespace
