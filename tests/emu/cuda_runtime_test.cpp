// Unit tests of the CUDA runtime shim (tileslc/cpu/cuda_runtime_api.h) as a
// CUDA driver uses it: the typed allocation overloads of CUDA's
// cuda_runtime.h, pinned and managed memory, cudaMemGetInfo, and the errors
// CUDA gives for null pointers and mismatched frees.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "emu_test_util.h"

namespace {

// Each of them 256-byte aligned, usable, and taken back by its own free.
TEST(CudaRuntime, TypedAllocationsCompileAndFree) {
  float* d = nullptr;
  double* h = nullptr;
  int* u = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 16 * sizeof(float)), cudaSuccess);
  const float* c = nullptr;  // CUDA's typed overloads take pointers to const too
  ASSERT_EQ(cudaMalloc(&c, 16 * sizeof(float)), cudaSuccess);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(cudaFree(const_cast<float*>(c)), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&h, 16 * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&u, 16 * sizeof(int)), cudaSuccess);
  ASSERT_NE(d, nullptr);
  ASSERT_NE(h, nullptr);
  ASSERT_NE(u, nullptr);
  for (const void* p : {static_cast<const void*>(d), static_cast<const void*>(h), static_cast<const void*>(u)})
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  EXPECT_EQ(cudaMemset(d, 0, 16 * sizeof(float)), cudaSuccess);
  u[15] = 7;
  EXPECT_EQ(cudaMemcpy(h, d, 8 * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(h[7], 0.0);
  EXPECT_EQ(cudaMallocManaged(&u, 0, cudaMemAttachHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  int* u2 = nullptr;
  EXPECT_EQ(cudaMallocManaged(&u2, 64, cudaMemAttachHost), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(h), cudaSuccess);
  EXPECT_EQ(cudaFree(u2), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(CudaRuntime, NullAndBadArgumentsAreInvalidValue) {
  EXPECT_EQ(cudaMalloc(static_cast<void**>(nullptr), 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMallocHost(static_cast<void**>(nullptr), 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMallocManaged(static_cast<void**>(nullptr), 16), cudaErrorInvalidValue);
  float* u = nullptr;
  EXPECT_EQ(cudaMallocManaged(&u, 16, 0x4), cudaErrorInvalidValue);
  EXPECT_EQ(u, nullptr);
  size_t free = 0;
  EXPECT_EQ(cudaMemGetInfo(&free, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  // Null pointers free nothing, successfully, as CUDA's.
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(nullptr), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(CudaRuntime, FreesRefuseAnotherAllocatorsPointer) {
  void* d = nullptr;
  void* h = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&h, 64), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(d), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(h), cudaErrorInvalidValue);
  int on_stack = 0;
  EXPECT_EQ(cudaFree(&on_stack), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(h), cudaSuccess);
  // A second free of the same pointer is an error, not a double free.
  EXPECT_EQ(cudaFree(d), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFreeHost(h), cudaErrorInvalidValue);
  cudaGetLastError();
}

TEST(CudaRuntime, MemGetInfoCountsDeviceAndManagedMemory) {
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  size_t free0 = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free0, &total), cudaSuccess);
  EXPECT_EQ(total, prop.totalGlobalMem);
  EXPECT_LE(free0, total);
  char* d = nullptr;
  char* u = nullptr;
  char* h = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 1 << 20), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&u, 1 << 10), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&h, 1 << 16), cudaSuccess);
  size_t free1 = 0;
  ASSERT_EQ(cudaMemGetInfo(&free1, &total), cudaSuccess);
  EXPECT_EQ(free0 - free1, size_t{(1 << 20) + (1 << 10)});  // pinned host memory is not the device's
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFree(u), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(h), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free1, &total), cudaSuccess);
  EXPECT_EQ(free1, free0);
}

// A kernel entry through the typed cudaLaunchKernel and cudaFuncSetAttribute overloads.
void fill_kernel(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x) + 1; }

TEST(CudaRuntime, TypedLaunchOverloads) {
  int* out = nullptr;
  ASSERT_EQ(cudaMallocManaged(&out, 32 * sizeof(int)), cudaSuccess);
  void* args[] = {&out};
  auto* entry = &tileslc::cpu::kernel_entry<&fill_kernel>;
  EXPECT_EQ(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024), cudaSuccess);
  ASSERT_EQ(cudaLaunchKernel(entry, dim3(1), dim3(32), args), cudaSuccess);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i + 1);
  EXPECT_EQ(cudaFree(out), cudaSuccess);
}

}  // namespace
