// Argument validation for generated host functions: every check runs on the
// host before any launch and returns a Status whose message starts with the
// host function's name and names the parameter, what was found and what was
// expected. None of these functions touch the GPU.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <utility>

#include "tileslc/runtime.h"

namespace tileslc {
namespace {

std::string str(const char* s) { return s ? std::string(s) : std::string("?"); }

std::string num(int64_t v) { return std::to_string(v); }

std::string hex_address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(p));
  return buf;
}

std::string dtype_text(DType d) {
  const char* name = dtype_name(d);
  if (std::string(name) == "unknown") return "unknown code " + num(static_cast<int32_t>(d));
  return name;
}

// "<function>: <param>" prefix shared by the tensor checks.
std::string head(const char* function, const char* param) { return str(function) + ": " + str(param); }

// Fails when `mode` is not a mode of `t`; the message names the parameter.
Status check_mode(const TensorView& t, const char* function, const char* param, int32_t mode) {
  if (t.rank < 0 || t.rank > kMaxRank) {
    return Status::error(head(function, param) + " has invalid rank " + num(t.rank) + ", expected 0 to " +
                         num(kMaxRank));
  }
  if (mode < 0 || mode >= t.rank) {
    return Status::error(head(function, param) + " has rank " + num(t.rank) + ", expected a mode " + num(mode) +
                         " (rank at least " + num(mode + 1) + ")");
  }
  return Status();
}

}  // namespace

Status check_tensor_full(const TensorView& t, const char* function, const char* param, DType dtype, int32_t rank,
                         int64_t align_bytes) {
  if (t.rank < 0 || t.rank > kMaxRank) {
    return Status::error(head(function, param) + " has invalid rank " + num(t.rank) + ", expected 0 to " +
                         num(kMaxRank) + " (with as many strides as extents)");
  }
  if (t.dtype != dtype) {
    return Status::error(head(function, param) + " has element type " + dtype_text(t.dtype) + ", expected " +
                         dtype_text(dtype));
  }
  if (t.rank != rank) {
    return Status::error(head(function, param) + " has rank " + num(t.rank) + ", expected " + num(rank));
  }
  for (int m = 0; m < t.rank; ++m) {
    if (t.shape[m] < 0) {
      return Status::error(head(function, param) + ".shape[" + num(m) + "] is " + num(t.shape[m]) +
                           ", expected a non-negative extent");
    }
  }
  const int64_t count = num_elements(t);
  if (count < 0) {
    return Status::error(head(function, param) + " has more elements than fit in a 64-bit count");
  }
  if (count > 0 && t.data == nullptr) {
    return Status::error(head(function, param) + " has a null data pointer, expected device memory for " +
                         num(count) + (count == 1 ? " element" : " elements"));
  }
  const int64_t align = align_bytes > 0 ? align_bytes : static_cast<int64_t>(dtype_size(dtype));
  if (align > 1 && t.data != nullptr && reinterpret_cast<uintptr_t>(t.data) % static_cast<uintptr_t>(align) != 0) {
    return Status::error(head(function, param) + ".data is " + hex_address(t.data) +
                         ", expected an address aligned to " + num(align) + " bytes");
  }
  return Status();
}

Status check_extent_equal(const TensorView& t, const char* function, const char* param, int32_t mode,
                          const char* symbol, int64_t value, const char* bound_param, int32_t bound_mode) {
  if (Status s = check_mode(t, function, param, mode); !s) return s;
  if (t.shape[mode] == value) return Status();
  std::string msg = head(function, param) + ".shape[" + num(mode) + "] is " + num(t.shape[mode]) + ", expected " +
                    str(symbol) + " = " + num(value);
  if (bound_param != nullptr) msg += " (from " + str(bound_param) + ".shape[" + num(bound_mode) + "])";
  return Status::error(std::move(msg));
}

Status check_extent_static(const TensorView& t, const char* function, const char* param, int32_t mode,
                           int64_t expected) {
  if (Status s = check_mode(t, function, param, mode); !s) return s;
  if (t.shape[mode] == expected) return Status();
  return Status::error(head(function, param) + ".shape[" + num(mode) + "] is " + num(t.shape[mode]) +
                       ", expected " + num(expected));
}

Status check_divisible(int64_t value, int64_t divisor, const char* function, const char* what) {
  if (divisor <= 0) {
    return Status::error(str(function) + ": cannot check " + str(what) + " for divisibility by " + num(divisor) +
                         ", expected a positive divisor");
  }
  if (value % divisor == 0) return Status();
  return Status::error(str(function) + ": " + str(what) + " = " + num(value) + " is not divisible by " + num(divisor));
}

}  // namespace tileslc
