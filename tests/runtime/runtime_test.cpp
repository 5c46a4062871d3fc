// Unit tests for libtileslc_rt: dtype tables, make_tensor_view, Status, the
// C-ABI last error, every argument-validation message, launch configuration
// checks (no GPU needed), and, when a GPU is present, launches and device buffers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tileslc/runtime.h"

const void* runtime_test_fill_kernel();
const void* runtime_test_smem_kernel();

namespace tileslc {
namespace {

void* fake_device_pointer(uintptr_t address) { return reinterpret_cast<void*>(address); }

bool gpu_present(std::string* why) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    *why = std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(err);
    return false;
  }
  if (count == 0) {
    *why = "no CUDA device: cudaGetDeviceCount returned 0";
    return false;
  }
  return true;
}

#define REQUIRE_GPU()                  \
  do {                                 \
    std::string why;                   \
    if (!gpu_present(&why)) GTEST_SKIP() << why; \
  } while (0)

TEST(DType, NamesFollowCuteDsl) {
  EXPECT_STREQ(dtype_name(DType::Boolean), "Boolean");
  EXPECT_STREQ(dtype_name(DType::Int8), "Int8");
  EXPECT_STREQ(dtype_name(DType::Uint64), "Uint64");
  EXPECT_STREQ(dtype_name(DType::Float16), "Float16");
  EXPECT_STREQ(dtype_name(DType::BFloat16), "BFloat16");
  EXPECT_STREQ(dtype_name(DType::Float32), "Float32");
  EXPECT_STREQ(dtype_name(DType::TFloat32), "TFloat32");
  EXPECT_STREQ(dtype_name(DType::Float8E4M3FN), "Float8E4M3FN");
  EXPECT_STREQ(dtype_name(DType::Float8E5M2), "Float8E5M2");
  EXPECT_STREQ(dtype_name(static_cast<DType>(42)), "unknown");
}

TEST(DType, SizesInBytes) {
  EXPECT_EQ(dtype_size(DType::Boolean), 1u);
  EXPECT_EQ(dtype_size(DType::Int8), 1u);
  EXPECT_EQ(dtype_size(DType::Int16), 2u);
  EXPECT_EQ(dtype_size(DType::Int32), 4u);
  EXPECT_EQ(dtype_size(DType::Int64), 8u);
  EXPECT_EQ(dtype_size(DType::Float16), 2u);
  EXPECT_EQ(dtype_size(DType::BFloat16), 2u);
  EXPECT_EQ(dtype_size(DType::Float32), 4u);
  EXPECT_EQ(dtype_size(DType::Float64), 8u);
  EXPECT_EQ(dtype_size(DType::TFloat32), 4u);
  EXPECT_EQ(dtype_size(DType::Float8E4M3FN), 1u);
  EXPECT_EQ(dtype_size(DType::Float8E5M2), 1u);
  EXPECT_EQ(dtype_size(static_cast<DType>(-1)), 0u);
}

TEST(DType, MatchesCEnum) {
  EXPECT_EQ(static_cast<int>(DType::Boolean), TILESLC_BOOLEAN);
  EXPECT_EQ(static_cast<int>(DType::Uint64), TILESLC_UINT64);
  EXPECT_EQ(static_cast<int>(DType::BFloat16), TILESLC_BFLOAT16);
  EXPECT_EQ(static_cast<int>(DType::Float32), TILESLC_FLOAT32);
  EXPECT_EQ(static_cast<int>(DType::Float8E5M2), TILESLC_FLOAT8E5M2);
}

TEST(TensorView, ContiguousRowMajorByDefault) {
  TensorView t = make_tensor_view(fake_device_pointer(0x1000), DType::Float32, {2, 3, 4});
  EXPECT_EQ(t.rank, 3);
  EXPECT_EQ(t.dtype, DType::Float32);
  EXPECT_EQ(t.device, 0);
  EXPECT_EQ(t.shape[0], 2);
  EXPECT_EQ(t.shape[2], 4);
  EXPECT_EQ(t.stride[0], 12);
  EXPECT_EQ(t.stride[1], 4);
  EXPECT_EQ(t.stride[2], 1);
  EXPECT_EQ(t.shape[3], 0);
  EXPECT_EQ(t.stride[7], 0);
  EXPECT_EQ(num_elements(t), 24);
}

TEST(TensorView, ZeroExtentCountsAsOneForStrides) {
  TensorView t = make_tensor_view(nullptr, DType::Float32, {5, 0, 3});
  EXPECT_EQ(t.stride[0], 3);
  EXPECT_EQ(t.stride[1], 3);
  EXPECT_EQ(t.stride[2], 1);
  EXPECT_EQ(num_elements(t), 0);
}

TEST(TensorView, ExplicitStridesAndDevice) {
  TensorView t = make_tensor_view(fake_device_pointer(0x1000), DType::BFloat16, {37, 1000}, {1, 37}, 3);
  EXPECT_EQ(t.rank, 2);
  EXPECT_EQ(t.stride[0], 1);
  EXPECT_EQ(t.stride[1], 37);
  EXPECT_EQ(t.device, 3);
}

TEST(TensorView, RankZeroIsAScalar) {
  TensorView t = make_tensor_view(fake_device_pointer(0x1000), DType::Int32, {});
  EXPECT_EQ(t.rank, 0);
  EXPECT_EQ(num_elements(t), 1);
}

TEST(TensorView, UndescribableViewsGetInvalidRank) {
  EXPECT_EQ(make_tensor_view(nullptr, DType::Float32, {1, 2, 3, 4, 5, 6, 7, 8, 9}).rank, -1);
  EXPECT_EQ(make_tensor_view(nullptr, DType::Float32, {4, 4}, {1}).rank, -1);
  EXPECT_EQ(make_tensor_view(nullptr, DType::Float32, {1, 2, 3, 4, 5, 6, 7, 8}).rank, 8);
}

TEST(TensorView, ElementCountOverflowIsReported) {
  TensorView big = make_tensor_view(fake_device_pointer(0x1000), DType::Float32, {int64_t(1) << 40, int64_t(1) << 40});
  EXPECT_EQ(num_elements(big), -1);
  TensorView empty = make_tensor_view(nullptr, DType::Float32, {int64_t(1) << 40, int64_t(1) << 40, 0});
  EXPECT_EQ(num_elements(empty), 0);
}

TEST(TensorView, CViewConvertsUnchanged) {
  tileslc_tensor_view c{};
  c.data = fake_device_pointer(0x2000);
  c.dtype = TILESLC_FLOAT16;
  c.rank = 2;
  c.shape[0] = 7;
  c.shape[1] = 9;
  c.stride[0] = 9;
  c.stride[1] = 1;
  c.device = 1;
  TensorView t = to_tensor_view(c);
  EXPECT_EQ(t.data, c.data);
  EXPECT_EQ(t.dtype, DType::Float16);
  EXPECT_EQ(t.rank, 2);
  EXPECT_EQ(t.shape[1], 9);
  EXPECT_EQ(t.stride[0], 9);
  EXPECT_EQ(t.device, 1);
  EXPECT_EQ(std::memcmp(&t, &c, offsetof(TensorView, device) + sizeof(int32_t)), 0);  // all but tail padding
}

TEST(Status, OkAndError) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(ok.message(), "");
  Status err = Status::error("f: something failed");
  EXPECT_FALSE(err.ok());
  EXPECT_FALSE(static_cast<bool>(err));
  EXPECT_EQ(err.message(), "f: something failed");
  Status empty = Status::error("");
  EXPECT_FALSE(empty.ok());
}

TEST(Status, LastErrorIsSetAndCleared) {
  set_last_error(Status());
  EXPECT_STREQ(tileslc_last_error(), "");
  set_last_error(Status::error("vector_add: mB has element type Float16, expected Float32"));
  EXPECT_STREQ(tileslc_last_error(), "vector_add: mB has element type Float16, expected Float32");
  set_last_error(Status());
  EXPECT_STREQ(tileslc_last_error(), "");
}

// --- check_tensor ---------------------------------------------------------

TensorView good_vector(int64_t n) { return make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {n}); }

TEST(CheckTensor, AcceptsAGoodView) {
  EXPECT_TRUE(check_tensor(good_vector(1000), "vector_add", "mA", DType::Float32, 1, 0).ok());
  EXPECT_TRUE(check_tensor(good_vector(1000), "vector_add", "mA", DType::Float32, 1, 16).ok());
}

TEST(CheckTensor, WrongDtype) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float16, {1000});
  Status s = check_tensor(t, "vector_add", "mB", DType::Float32, 1, 0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "vector_add: mB has element type Float16, expected Float32");
}

TEST(CheckTensor, UnknownDtypeCode) {
  TensorView t = good_vector(4);
  t.dtype = static_cast<DType>(99);
  Status s = check_tensor(t, "f", "mA", DType::Float32, 1, 0);
  EXPECT_EQ(s.message(), "f: mA has element type unknown code 99, expected Float32");
}

TEST(CheckTensor, WrongRank) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {10, 100});
  Status s = check_tensor(t, "vector_add", "mA", DType::Float32, 1, 0);
  EXPECT_EQ(s.message(), "vector_add: mA has rank 2, expected 1");
}

TEST(CheckTensor, InvalidRank) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {4, 4}, {1});
  Status s = check_tensor(t, "f", "mX", DType::Float32, 2, 0);
  EXPECT_EQ(s.message(), "f: mX has invalid rank -1, expected 0 to 8 (with as many strides as extents)");
}

TEST(CheckTensor, NegativeExtent) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {4, -3});
  Status s = check_tensor(t, "f", "mX", DType::Float32, 2, 0);
  EXPECT_EQ(s.message(), "f: mX.shape[1] is -3, expected a non-negative extent");
}

TEST(CheckTensor, OverflowingElementCount) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {int64_t(1) << 40, int64_t(1) << 40});
  Status s = check_tensor(t, "f", "mX", DType::Float32, 2, 0);
  EXPECT_EQ(s.message(), "f: mX has more elements than fit in a 64-bit count");
}

TEST(CheckTensor, NullDataWithElements) {
  TensorView t = make_tensor_view(nullptr, DType::Float32, {1000});
  Status s = check_tensor(t, "vector_add", "mC", DType::Float32, 1, 0);
  EXPECT_EQ(s.message(), "vector_add: mC has a null data pointer, expected device memory for 1000 elements");
  TensorView one = make_tensor_view(nullptr, DType::Float32, {1});
  EXPECT_EQ(check_tensor(one, "f", "x", DType::Float32, 1, 0).message(),
            "f: x has a null data pointer, expected device memory for 1 element");
}

TEST(CheckTensor, NullDataWithoutElementsIsFine) {
  TensorView t = make_tensor_view(nullptr, DType::Float32, {0});
  EXPECT_TRUE(check_tensor(t, "vector_add", "mC", DType::Float32, 1, 16).ok());
}

TEST(CheckTensor, MisalignedForElementSize) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10002), DType::Float32, {8});
  Status s = check_tensor(t, "vector_add", "mA", DType::Float32, 1, 0);
  EXPECT_EQ(s.message(), "vector_add: mA.data is 0x10002, expected an address aligned to 4 bytes");
}

TEST(CheckTensor, MisalignedForExplicitAlignment) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10004), DType::Float32, {8});
  EXPECT_TRUE(check_tensor(t, "f", "mA", DType::Float32, 1, 4).ok());
  Status s = check_tensor(t, "f", "mA", DType::Float32, 1, 16);
  EXPECT_EQ(s.message(), "f: mA.data is 0x10004, expected an address aligned to 16 bytes");
}

TEST(CheckTensor, FirstFailureWins) {
  // Wrong dtype and wrong rank: the dtype is reported.
  TensorView t = make_tensor_view(nullptr, DType::Int32, {4, 4});
  EXPECT_EQ(check_tensor(t, "f", "mA", DType::Float32, 1, 0).message(),
            "f: mA has element type Int32, expected Float32");
}

// --- extents and divisibility ----------------------------------------------

TEST(CheckExtent, EqualToBoundSymbol) {
  TensorView b = good_vector(999);
  EXPECT_TRUE(check_extent_equal(good_vector(1000), "vector_add", "mB", 0, "N", 1000, "mA", 0).ok());
  Status s = check_extent_equal(b, "vector_add", "mB", 0, "N", 1000, "mA", 0);
  EXPECT_EQ(s.message(), "vector_add: mB.shape[0] is 999, expected N = 1000 (from mA.shape[0])");
}

TEST(CheckExtent, SymbolWithoutBoundParameter) {
  Status s = check_extent_equal(good_vector(7), "f", "mB", 0, "K", 8, nullptr, 0);
  EXPECT_EQ(s.message(), "f: mB.shape[0] is 7, expected K = 8");
}

TEST(CheckExtent, ModeOutOfRange) {
  Status s = check_extent_equal(good_vector(7), "f", "mB", 1, "K", 8, "mA", 1);
  EXPECT_EQ(s.message(), "f: mB has rank 1, expected a mode 1 (rank at least 2)");
  EXPECT_FALSE(check_extent_static(good_vector(7), "f", "mB", -1, 7).ok());
}

TEST(CheckExtent, Static) {
  TensorView t = make_tensor_view(fake_device_pointer(0x10000), DType::Float32, {64, 100});
  EXPECT_TRUE(check_extent_static(t, "gemm", "mA", 0, 64).ok());
  Status s = check_extent_static(t, "gemm", "mA", 1, 128);
  EXPECT_EQ(s.message(), "gemm: mA.shape[1] is 100, expected 128");
}

TEST(CheckDivisible, Messages) {
  EXPECT_TRUE(check_divisible(1024, 128, "f", "N").ok());
  EXPECT_TRUE(check_divisible(0, 128, "f", "N").ok());
  EXPECT_EQ(check_divisible(1000, 128, "f", "N").message(), "f: N = 1000 is not divisible by 128");
  EXPECT_EQ(check_divisible(1000, 0, "f", "N").message(),
            "f: cannot check N for divisibility by 0, expected a positive divisor");
}

// --- launch configuration (validated before touching the GPU) -------------

TEST(Launch, ZeroGridDimensionFailsBeforeTheGpu) {
  float* out = nullptr;
  int64_t n = 0;
  float value = 1.0f;
  void* args[] = {&out, &n, &value};
  Status s = launch_kernel(runtime_test_fill_kernel(), "fill_kernel", dim3(0, 1, 1), dim3(256, 1, 1), 0, nullptr,
                           args);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "fill_kernel: grid dimension x is 0, expected a positive value");
  s = launch_kernel(runtime_test_fill_kernel(), "fill_kernel", dim3(4, 1, 0), dim3(256, 1, 1), 0, nullptr, args);
  EXPECT_EQ(s.message(), "fill_kernel: grid dimension z is 0, expected a positive value");
}

TEST(Launch, GridAndBlockLimits) {
  void* args[] = {nullptr};
  const void* k = runtime_test_fill_kernel();
  EXPECT_EQ(launch_kernel(k, "k", dim3(1, 65536, 1), dim3(32, 1, 1), 0, nullptr, args).message(),
            "k: grid dimension y is 65536, expected at most 65535");
  EXPECT_EQ(launch_kernel(k, "k", dim3(1, 1, 1), dim3(0, 1, 1), 0, nullptr, args).message(),
            "k: block dimension x is 0, expected a positive value");
  EXPECT_EQ(launch_kernel(k, "k", dim3(1, 1, 1), dim3(2048, 1, 1), 0, nullptr, args).message(),
            "k: block dimension x is 2048, expected at most 1024");
  EXPECT_EQ(launch_kernel(k, "k", dim3(1, 1, 1), dim3(1, 1, 65), 0, nullptr, args).message(),
            "k: block dimension z is 65, expected at most 64");
  EXPECT_EQ(launch_kernel(k, "k", dim3(1, 1, 1), dim3(64, 32, 1), 0, nullptr, args).message(),
            "k: block (64, 32, 1) has 2048 threads, expected at most 1024");
  EXPECT_EQ(launch_kernel(nullptr, "k", dim3(1, 1, 1), dim3(32, 1, 1), 0, nullptr, args).message(),
            "k: null kernel address, expected a __global__ function");
}

TEST(Launch, ClusterChecksFailBeforeTheGpu) {
  void* args[] = {nullptr};
  struct Case { dim3 grid, block, cluster; const char* message; };
  const Case cases[] = {
      {dim3(3, 1, 1), dim3(128, 1, 1), dim3(2, 1, 1), "k: grid (3, 1, 1) is not divisible by cluster (2, 1, 1) along x (3 % 2 = 1)"},
      {dim3(4, 6, 1), dim3(128, 1, 1), dim3(2, 4, 1), "k: grid (4, 6, 1) is not divisible by cluster (2, 4, 1) along y (6 % 4 = 2)"},
      {dim3(4, 1, 1), dim3(128, 1, 1), dim3(0, 1, 1), "k: cluster dimension x is 0, expected a positive value"},
      {dim3(32, 1, 1), dim3(128, 1, 1), dim3(32, 1, 1), "k: cluster dimension x is 32, expected at most 16"},
      {dim3(8, 4, 1), dim3(128, 1, 1), dim3(8, 4, 1), "k: cluster (8, 4, 1) has 32 blocks, expected at most 16 (8 portable)"},
      {dim3(2, 1, 1), dim3(2048, 1, 1), dim3(2, 1, 1), "k: block dimension x is 2048, expected at most 1024"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(launch_kernel_cluster(runtime_test_fill_kernel(), "k", c.grid, c.block, c.cluster, 0, nullptr, args).message(), c.message);
}

// --- with a GPU --------------------------------------------------------------

// Launches fill_kernel over 1000 floats through `launch` (grid 4 x 256
// threads) and checks that every element holds `value`.
template <class Launch>
void expect_fill(Launch&& launch, float value) {
  const int64_t n = 1000;
  DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(n * sizeof(float)).ok());
  float* out = static_cast<float*>(buf.data());
  int64_t count = n;
  void* args[] = {&out, &count, &value};
  Status s = launch(args);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> host(n, 0.0f);
  ASSERT_TRUE(buf.copy_to_host(host.data(), n * sizeof(float)).ok());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(host[i], value) << "at " << i;
}

TEST(LaunchGpu, FillKernelWritesEveryElement) {
  REQUIRE_GPU();
  expect_fill([](void** args) {
    return launch_kernel(runtime_test_fill_kernel(), "fill_kernel", dim3(4, 1, 1), dim3(256, 1, 1), 0, nullptr, args);
  }, 3.5f);
}

TEST(LaunchGpu, ClusterLaunchWritesEveryElement) {
  REQUIRE_GPU();
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  if (major < 9) GTEST_SKIP() << "thread-block clusters need compute capability 9.0, found " << major << ".x";
  expect_fill([](void** args) {
    return launch_kernel_cluster(runtime_test_fill_kernel(), "fill_kernel", dim3(4, 1, 1), dim3(256, 1, 1), dim3(2, 1, 1), 0,
                                 nullptr, args);
  }, 2.5f);
}

TEST(OccupancyGpu, MaxActiveClustersFitTheSmsAndShrinkWithTheClusterSize) {
  REQUIRE_GPU();
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  if (major < 9) GTEST_SKIP() << "thread-block clusters need compute capability 9.0, found " << major << ".x";
  const int64_t sms = device_multiprocessor_count();
  ASSERT_GT(sms, 0);
  EXPECT_EQ(max_active_clusters(0), 0);
  EXPECT_EQ(max_active_clusters(17), 0);
  EXPECT_EQ(max_active_clusters(1), sms);  // blocks that fill an SM: one per SM
  int64_t previous = sms;
  for (int64_t n : {2, 4, 8, 16}) {
    const int64_t c = max_active_clusters(n);
    std::printf("[ occupancy ] %lld SMs: %lld clusters of %lld blocks at once (SMs / size = %lld)\n",
                static_cast<long long>(sms), static_cast<long long>(c), static_cast<long long>(n),
                static_cast<long long>(sms / n));
    EXPECT_GE(c, 1) << n;
    EXPECT_LE(c * n, sms) << n;  // each block of a cluster needs its own SM
    EXPECT_LE(c, previous) << n;
    EXPECT_EQ(max_active_clusters(n), c) << n;  // cached
    previous = c;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the probe leaves no error behind
}

TEST(LaunchGpu, LargeDynamicSharedMemoryRaisesTheLimit) {
  REQUIRE_GPU();
  int optin = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
  const size_t smem = 64 * 1024;
  if (static_cast<size_t>(optin) < smem) GTEST_SKIP() << "device allows only " << optin << " bytes of shared memory";
  DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(256 * sizeof(float)).ok());
  float* out = static_cast<float*>(buf.data());
  int64_t n = 256;
  void* args[] = {&out, &n};
  Status s = launch_kernel(runtime_test_smem_kernel(), "smem_kernel", dim3(1, 1, 1), dim3(256, 1, 1), smem, nullptr,
                           args);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> host(256);
  ASSERT_TRUE(buf.copy_to_host(host.data(), host.size() * sizeof(float)).ok());
  EXPECT_EQ(host[255], 255.0f);
}

TEST(LaunchGpu, TooMuchSharedMemoryNamesTheKernel) {
  REQUIRE_GPU();
  void* args[] = {nullptr, nullptr};
  Status s = launch_kernel(runtime_test_smem_kernel(), "smem_kernel", dim3(1, 1, 1), dim3(32, 1, 1),
                           size_t(16) << 20, nullptr, args);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("smem_kernel: ", 0), 0u) << s.message();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the error must not leak into later CUDA calls";
}

TEST(DeviceBufferGpu, RoundTripMoveAndBounds) {
  REQUIRE_GPU();
  std::vector<int32_t> in(1000), out(1000, 0);
  for (int i = 0; i < 1000; ++i) in[i] = i * 7;
  DeviceBuffer a;
  ASSERT_TRUE(a.allocate(in.size() * sizeof(int32_t)).ok());
  EXPECT_EQ(a.size(), 4000u);
  ASSERT_TRUE(a.copy_from_host(in.data(), 4000).ok());
  DeviceBuffer b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  ASSERT_TRUE(b.copy_to_host(out.data(), 4000).ok());
  EXPECT_EQ(in, out);
  Status s = b.copy_to_host(out.data(), 4004);
  EXPECT_EQ(s.message(), "device_buffer: copy_to_host of 4004 bytes, expected at most the buffer size 4000");
  DeviceBuffer c;
  c = std::move(b);
  EXPECT_EQ(c.size(), 4000u);
  c.reset();
  EXPECT_EQ(c.data(), nullptr);
}

TEST(DeviceBufferNoGpu, BoundsCheckedWithoutTheGpu) {
  DeviceBuffer empty;
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_TRUE(empty.allocate(0).ok());
  int x = 0;
  EXPECT_EQ(empty.copy_from_host(&x, 4).message(),
            "device_buffer: copy_from_host of 4 bytes, expected at most the buffer size 0");
  EXPECT_TRUE(empty.copy_to_host(&x, 0).ok());
}


// The inline fast path of check_tensor may only accept what the full check
// accepts: compare them on views that vary dtype, rank, extents (negative,
// zero, overflowing), data pointers (null, misaligned) and alignments.
TEST(CheckTensor, InlinePathAgreesWithFullCheck) {
  alignas(64) static float storage[64];
  const int64_t extents[] = {-1, 0, 1, 7, int64_t{1} << 40};
  void* pointers[] = {nullptr, storage, reinterpret_cast<char*>(storage) + 2, reinterpret_cast<char*>(storage) + 4};
  const DType dtypes[] = {DType::Float32, DType::BFloat16};
  int compared = 0, accepted = 0;
  for (DType have : dtypes)
    for (int32_t rank = 0; rank <= 2; ++rank)
      for (int64_t e0 : extents)
        for (int64_t e1 : extents)
          for (void* p : pointers)
            for (int64_t align : {0, 4, 16}) {
              TensorView t{};
              t.data = p;
              t.dtype = have;
              t.rank = rank;
              if (rank > 0) t.shape[0] = e0, t.stride[0] = 1;
              if (rank > 1) t.shape[1] = e1, t.stride[1] = 1;
              const bool fast = check_tensor(t, "f", "mA", DType::Float32, 2, align).ok();
              const bool full = check_tensor_full(t, "f", "mA", DType::Float32, 2, align).ok();
              EXPECT_EQ(fast, full) << "rank " << rank << " extents " << e0 << ", " << e1 << " align " << align;
              ++compared;
              accepted += full;
            }
  EXPECT_EQ(compared, 2 * 3 * 5 * 5 * 4 * 3);
  EXPECT_GT(accepted, 0);  // the table reaches the success path too
}

}  // namespace
}  // namespace tileslc
