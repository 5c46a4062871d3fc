// Driver of class_kernels.tpy (test emu.class_kernels): runs both class-based kernels on a
// 32 x 48 row-major problem and checks C = alpha * A + beta * B element by element against the
// float64 value (exact here: small integers and halves). Prints "class kernels: all checks passed".
#include <cmath>
#include <cstdio>
#include <vector>

#include "class_kernels.h"
#include "sample_util.h"

namespace {

constexpr int64_t kM = 32, kN = 48;

struct Matrix {
  std::vector<float> host;
  tileslc::DeviceBuffer dev;
  explicit Matrix(float seed) : host(kM * kN) {
    for (int64_t k = 0; k < kM * kN; ++k) host[k] = static_cast<float>((k * 7 + static_cast<int64_t>(seed)) % 23) - 11.0f;
    CHECK_OK(dev.allocate(host.size() * sizeof(float)));
    CHECK_OK(dev.copy_from_host(host.data(), host.size() * sizeof(float)));
  }
  tileslc::TensorView view() const {
    return tileslc::make_tensor_view(dev.data(), tileslc::DType::Float32, {kM, kN}, {kN, 1});
  }
  void download() { CHECK_OK(dev.copy_to_host(host.data(), host.size() * sizeof(float))); }
};

int check(const char* name, const Matrix& a, const Matrix& b, const Matrix& c, double alpha, double beta) {
  int wrong = 0;
  for (int64_t k = 0; k < kM * kN; ++k) {
    double want = alpha * a.host[k] + beta * b.host[k];
    if (std::fabs(c.host[k] - want) > 1e-6 && ++wrong <= 5)
      std::printf("  %s: C[%lld, %lld] = %g, expected %g\n", name, static_cast<long long>(k / kN),
                  static_cast<long long>(k % kN), c.host[k], want);
  }
  return wrong;
}

}  // namespace

int main() {
  Matrix a(1), b(5), c(0);
  int wrong = 0;
  CHECK_OK(axpby_4x16(a.view(), b.view(), c.view()));
  c.download();
  wrong += check("axpby_4x16", a, b, c, 2.0, -1.0);
  CHECK_OK(axpby_8x8(a.view(), b.view(), c.view()));
  c.download();
  wrong += check("axpby_8x8", a, b, c, 0.5, 3.0);
  if (wrong) {
    std::printf("class kernels: %d wrong elements\n", wrong);
    return 1;
  }
  std::printf("class kernels: all checks passed\n");
  return 0;
}
