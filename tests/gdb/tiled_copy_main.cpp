// The program tests/gdb/tiled_copy.steps debugs: samples/tiled_copy's
// elementwise_add on an 18 x 136 matrix (tiles of 16 x 128: 2 x 2 blocks of 128
// threads, each thread 4 x 4 values) with inputs whose values the test knows:
// A[m][n] = 1000 m + n, B[m][n] = n / 2, so C[m][n] = 1000 m + 1.5 n (exact in
// float). Rows 18 to 31 of the second row of tiles are outside the matrix: their
// values are predicated off. Prints PASS and exits 0 when C is right.
#include <cstdio>
#include <vector>

#include "tileslc/runtime.h"
#include "tiled_copy.h"

int main() {
  const int64_t m = 18, n = 136;
  std::vector<float> a(m * n), b(m * n), c(m * n, -1.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      a[i * n + j] = static_cast<float>(1000 * i + j);
      b[i * n + j] = 0.5f * static_cast<float>(j);
    }
  auto mA = tileslc::make_tensor_view(a.data(), tileslc::DType::Float32, {m, n});
  auto mB = tileslc::make_tensor_view(b.data(), tileslc::DType::Float32, {m, n});
  auto mC = tileslc::make_tensor_view(c.data(), tileslc::DType::Float32, {m, n});
  if (tileslc::Status s = elementwise_add(mA, mB, mC); !s) {
    std::printf("elementwise_add: %s\n", s.message().c_str());
    return 1;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (c[i * n + j] != static_cast<float>(1000 * i) + 1.5f * static_cast<float>(j)) {
        std::printf("FAIL: C[%lld][%lld] = %g\n", static_cast<long long>(i), static_cast<long long>(j), c[i * n + j]);
        return 1;
      }
  std::printf("PASS\n");
  return 0;
}
