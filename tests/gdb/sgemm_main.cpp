// The program tests/gdb/sgemm.steps debugs: samples/sgemm on M = N = 128,
// K = 16 (one block of 256 threads, two k-tiles of 8, no split) with inputs whose
// values the test knows: A[m][k] = m, B[n][k] = 1, so C[m][n] = 16 m and a
// thread's partial sums after the first k-tile are 8 m. Prints PASS and exits 0
// when C is right.
#include <cstdio>
#include <vector>

#include "tileslc/runtime.h"
#include "sgemm.h"

int main() {
  const int64_t m = 128, n = 128, k = 16;
  std::vector<float> a(m * k), b(n * k, 1.0f), c(m * n, -1.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) a[i * k + j] = static_cast<float>(i);
  auto mA = tileslc::make_tensor_view(a.data(), tileslc::DType::Float32, {m, k});
  auto mB = tileslc::make_tensor_view(b.data(), tileslc::DType::Float32, {n, k});
  auto mC = tileslc::make_tensor_view(c.data(), tileslc::DType::Float32, {m, n});
  if (tileslc::Status s = sgemm(mA, mB, mC); !s) {
    std::printf("sgemm: %s\n", s.message().c_str());
    return 1;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (c[i * n + j] != static_cast<float>(16 * i)) {
        std::printf("FAIL: C[%lld][%lld] = %g\n", static_cast<long long>(i), static_cast<long long>(j), c[i * n + j]);
        return 1;
      }
  std::printf("PASS\n");
  return 0;
}
