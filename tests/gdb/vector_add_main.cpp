// The program tests/gdb/vector_add.steps debugs: samples/vector_add on 2000
// elements (two blocks of 256 threads, each thread 4 elements) with inputs whose
// values the test knows: A[i] = i / 2, B[i] = i / 4, so C[i] = 3i / 4 (all exact
// in float). Prints PASS and exits 0 when C is right.
#include <cstdio>
#include <vector>

#include "tileslc/runtime.h"
#include "vector_add.h"

int main() {
  const int64_t n = 2000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 0.25f * static_cast<float>(i);
  }
  auto mA = tileslc::make_tensor_view(a.data(), tileslc::DType::Float32, {n});
  auto mB = tileslc::make_tensor_view(b.data(), tileslc::DType::Float32, {n});
  auto mC = tileslc::make_tensor_view(c.data(), tileslc::DType::Float32, {n});
  if (tileslc::Status s = vector_add(mA, mB, mC); !s) {
    std::printf("vector_add: %s\n", s.message().c_str());
    return 1;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (c[i] != 0.75f * static_cast<float>(i)) {
      std::printf("FAIL: C[%lld] = %g, expected %g\n", static_cast<long long>(i), c[i], 0.75 * static_cast<double>(i));
      return 1;
    }
  }
  std::printf("PASS\n");
  return 0;
}
