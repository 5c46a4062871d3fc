// The messages of failed bounds and alignment checks (tileslc/cpu/checked.h).
#include <cinttypes>
#include <cstdio>
#include <string>

#include "tileslc/cpu/checked.h"

namespace tileslc::cpu {
namespace {

// "the tensor has 1000 elements" ("the tensor mC has ..." when the kernel
// calls it something else), or the offsets a strided view covers.
std::string extent_text(Space space, int64_t lo, int64_t hi, int64_t count, const std::string& tensor) {
  std::string noun = space == Space::Global ? "tensor" : space == Space::Shared ? "shared tensor" : "fragment";
  if (!tensor.empty()) noun += " " + tensor;
  if (count == 0) return "the " + noun + " has no elements";
  if (lo == 0 && hi == count) return "the " + noun + " has " + std::to_string(count) + " elements";
  return "the " + noun + "'s " + std::to_string(count) + " elements lie at offsets " + std::to_string(lo) + " to " +
         std::to_string(hi - 1);
}

}  // namespace

namespace detail {

void out_of_bounds(const SrcLoc& loc, Space space, const char* name, int64_t index, int64_t lo, int64_t hi,
                   int64_t count, const char* tensor) {
  const std::string other = tensor && std::string(tensor) != name ? tensor : "";
  fail(loc, std::string("out-of-bounds ") + space_name(space) + " access: " + name + "[" + std::to_string(index) +
                "] but " + extent_text(space, lo, hi, count, other));
}

}  // namespace detail

void check_access(const void* p, int64_t avail_bytes, const char* name, int64_t index, Space space, const SrcLoc& loc,
                  int64_t bytes, int64_t align, const char* what) {
  if (bytes > avail_bytes)
    fail(loc, std::string("out-of-bounds ") + space_name(space) + " access: " + what + " of " + std::to_string(bytes) +
                  " bytes at " + name + "[" + std::to_string(index) + "] runs " + std::to_string(bytes - avail_bytes) +
                  " bytes past the end of " + name);
  if (reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(align) != 0)
    fail(loc, std::string("misaligned ") + space_name(space) + " access: " + what + " of " + std::to_string(bytes) +
                  " bytes at " + name + "[" + std::to_string(index) + "] needs " + std::to_string(align) +
                  "-byte alignment");
}

}  // namespace tileslc::cpu
