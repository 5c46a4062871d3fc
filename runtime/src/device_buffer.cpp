// DeviceBuffer: an owning cudaMalloc allocation with Status-returning copies,
// for sample drivers and tests.
#include <string>
#include <utility>

#include "tileslc/runtime.h"

namespace tileslc {
namespace {

Status cuda_error(const std::string& what, cudaError_t err) {
  (void)cudaGetLastError();  // clear non-sticky errors so later calls do not see them
  return Status::error("device_buffer: " + what + " failed: " + cudaGetErrorString(err));
}

Status check_bytes(const char* what, size_t bytes, size_t size) {
  if (bytes <= size) return Status();
  return Status::error(std::string("device_buffer: ") + what + " of " + std::to_string(bytes) +
                       " bytes, expected at most the buffer size " + std::to_string(size));
}

}  // namespace

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (data_ != nullptr) (void)cudaFree(data_);
  data_ = nullptr;
  size_ = 0;
}

Status DeviceBuffer::allocate(size_t bytes) {
  reset();
  if (bytes == 0) return Status();
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  if (err != cudaSuccess) return cuda_error("cudaMalloc of " + std::to_string(bytes) + " bytes", err);
  data_ = p;
  size_ = bytes;
  return Status();
}

Status DeviceBuffer::copy_from_host(const void* src, size_t bytes, cudaStream_t s) {
  if (Status st = check_bytes("copy_from_host", bytes, size_); !st) return st;
  if (bytes == 0) return Status();
  cudaError_t err = s == nullptr ? cudaMemcpy(data_, src, bytes, cudaMemcpyHostToDevice)
                                 : cudaMemcpyAsync(data_, src, bytes, cudaMemcpyHostToDevice, s);
  if (err != cudaSuccess) return cuda_error("copy_from_host of " + std::to_string(bytes) + " bytes", err);
  return Status();
}

Status DeviceBuffer::copy_to_host(void* dst, size_t bytes, cudaStream_t s) const {
  if (Status st = check_bytes("copy_to_host", bytes, size_); !st) return st;
  if (bytes == 0) return Status();
  cudaError_t err = s == nullptr ? cudaMemcpy(dst, data_, bytes, cudaMemcpyDeviceToHost)
                                 : cudaMemcpyAsync(dst, data_, bytes, cudaMemcpyDeviceToHost, s);
  if (err != cudaSuccess) return cuda_error("copy_to_host of " + std::to_string(bytes) + " bytes", err);
  return Status();
}

}  // namespace tileslc
