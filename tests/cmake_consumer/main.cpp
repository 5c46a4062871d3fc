// Consumer of a tileslc_add_kernels library: includes the generated header
// and calls the host function and its C ABI twin with bad arguments, which
// must be rejected on the host before any launch (so no GPU is needed).
#include <cstdio>
#include <string>

#include "scale.h"

int main() {
  float dummy[4];
  auto bad = tileslc::make_tensor_view(dummy, tileslc::DType::Float16, {4});
  tileslc::Status s = scale(bad);
  if (s.ok() || s.message() != "scale: mX has element type Float16, expected Float32") {
    std::printf("FAIL: C++ API returned \"%s\"\n", s.message().c_str());
    return 1;
  }
  tileslc_tensor_view c{};
  c.data = dummy;
  c.dtype = TILESLC_FLOAT32;
  c.rank = 2;
  if (tileslc_scale(&c, nullptr) != 1 || std::string(tileslc_last_error()) != "scale: mX has rank 2, expected 1") {
    std::printf("FAIL: C ABI returned \"%s\"\n", tileslc_last_error());
    return 1;
  }
  std::printf("PASS: %s; %s\n", s.message().c_str(), tileslc_last_error());
  return 0;
}
