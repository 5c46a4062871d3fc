// Calls the three kernel instances linked into this program (two of one
// .tpy, one of another file with the same name) and checks their results.
// Prints "PASS: packaging" when all match.
#include <cstdio>
#include <vector>

#include "plus_scale.h"
#include "times2_scale.h"
#include "times3_scale.h"

namespace {

bool check(const char* what, const tileslc::Status& s, const std::vector<float>& y, float (*expected)(float)) {
  if (!s) {
    std::printf("FAIL: %s: %s\n", what, s.message().c_str());
    return false;
  }
  for (size_t i = 0; i < y.size(); ++i) {
    if (y[i] != expected(static_cast<float>(i))) {
      std::printf("FAIL: %s: y[%zu] = %g, expected %g\n", what, i, y[i], expected(static_cast<float>(i)));
      return false;
    }
  }
  return true;
}

}  // namespace

int main() {
  const int64_t n = 100;  // not a multiple of the 64-thread blocks
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  auto vx = tileslc::make_tensor_view(x.data(), tileslc::DType::Float32, {n});
  auto vy = tileslc::make_tensor_view(y.data(), tileslc::DType::Float32, {n});
  bool ok = check("times2_scale", times2_scale(vx, vy), y, [](float v) { return v * 2; });
  ok = check("times3_scale", times3_scale(vx, vy), y, [](float v) { return v * 3; }) && ok;
  ok = check("plus_scale", plus_scale(vx, vy, 0.5f), y, [](float v) { return v + 0.5f; }) && ok;
  // The prefixed name is the one in the host function's messages.
  auto short_y = tileslc::make_tensor_view(y.data(), tileslc::DType::Float32, {n - 1});
  tileslc::Status bad = times3_scale(vx, short_y);
  if (bad || bad.message().rfind("times3_scale: mY.shape[0] is 99", 0) != 0) {
    std::printf("FAIL: a short mY gave '%s'\n", bad.message().c_str());
    ok = false;
  }
  if (ok) std::printf("PASS: packaging\n");
  return ok ? 0 : 1;
}
