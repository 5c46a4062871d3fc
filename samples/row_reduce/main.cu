// row_reduce driver: runs the tileslc-generated row_reduce (sum and max over
// the last mode of a Float32 (M, N) tensor with any strides) on row-major,
// padded (a slice of a wider matrix) and column-major (transposed) views,
// with N below, at and above a whole step of 128 columns, against a float64
// reference. Inputs are random and never zero (|x| in [0.25, 4), random
// signs; a row of one repeated negative value checks the maximum of a row with
// no positive entry); outputs poisoned with NaN, guard elements after them.
// Without --small it also times a 16384x8192 row-major run against a
// device-to-device copy moving as many bytes.
// Exit: 0 all passed, 1 a check failed, 77 no CUDA device (built, not run).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "row_reduce.h"
#include "sample_util.h"

namespace {

const char* kName = "row_reduce";
constexpr int64_t kGuard = 16;  // poisoned floats after each output that must stay untouched

bool run_case(const sample::Matrix2D& layout, bool bandwidth, sample::Rng& rng, cudaStream_t stream) {
  const int64_t M = layout.M, N = layout.N;
  sample::DeviceMatrix x = sample::DeviceMatrix::random(layout, 0.25f, 4.0f, rng);
  // Random signs (x is uploaded again below), and row 0 all -1.5 (its max is -1.5).
  std::vector<float> host(layout.span());
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      const float v = x.at(m, n);
      host[layout.at(m, n)] = m == 0 ? -1.5f : (rng.uniform(0.0f, 1.0f) < 0.5f ? -v : v);
    }
  }
  tileslc::DeviceBuffer dX, dSum, dMax;
  CHECK_OK(dX.allocate(host.size() * sizeof(float)));
  CHECK_OK(dX.copy_from_host(host.data(), dX.size()));
  CHECK_OK(dSum.allocate((M + kGuard) * sizeof(float)));
  CHECK_OK(dMax.allocate((M + kGuard) * sizeof(float)));
  sample::poison(dSum.data(), dSum.size());
  sample::poison(dMax.data(), dMax.size());
  auto mX = tileslc::make_tensor_view(dX.data(), tileslc::DType::Float32, {M, N}, {layout.s0, layout.s1});
  auto mSum = tileslc::make_tensor_view(dSum.data(), tileslc::DType::Float32, {M});
  auto mMax = tileslc::make_tensor_view(dMax.data(), tileslc::DType::Float32, {M});
  CHECK_OK(row_reduce(mX, mSum, mMax, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> sum(M + kGuard), top(M + kGuard);
  CHECK_OK(dSum.copy_to_host(sum.data(), dSum.size()));
  CHECK_OK(dMax.copy_to_host(top.data(), dMax.size()));

  // The sum's error bound: a lane adds about N / 32 terms in sequence, then 7
  // more additions combine lanes and accumulators; each rounds by at most
  // 2^-24 of a partial sum no larger than sum |x| (a generous bound, far below
  // what a missed or doubled column changes: at least 0.25).
  const std::string what = layout.shape() + ", " + layout.strides();
  int64_t bad_sum = 0, bad_max = 0, unwritten = 0;
  double worst = 0;
  for (int64_t m = 0; m < M; ++m) {
    double ref = 0, abs_sum = 0, ref_max = -INFINITY;
    for (int64_t n = 0; n < N; ++n) {
      const double v = host[layout.at(m, n)];
      ref += v;
      abs_sum += std::fabs(v);
      ref_max = std::max(ref_max, v);
    }
    if (std::isnan(sum[m]) || std::isnan(top[m])) ++unwritten;
    const double bound = (N / 32.0 + 8) * std::ldexp(1.0, -24) * abs_sum;
    worst = std::max(worst, std::fabs(sum[m] - ref) / bound);
    bad_sum += !(std::fabs(sum[m] - ref) <= bound);
    bad_max += top[m] != ref_max;  // a maximum is exact
  }
  const int64_t stray = sample::count_unpoisoned(sum.data() + M, kGuard) + sample::count_unpoisoned(top.data() + M, kGuard);
  const bool ok = bad_sum == 0 && bad_max == 0 && unwritten == 0 && stray == 0;
  std::printf("%s: %-40s %s  sum error %.3f of its bound, %lld wrong sums, %lld wrong maxima, %lld unwritten, %lld stray\n",
              kName, what.c_str(), ok ? "PASS" : "FAIL", worst, (long long)bad_sum, (long long)bad_max,
              (long long)unwritten, (long long)stray);
  if (bandwidth) {
    // Bytes read plus written (M * N + 2 * M floats), against a copy moving as many.
    sample::bandwidth_table(kName, what, (M * N + 2 * M) * sizeof(float),
                            [&] { CHECK_OK(row_reduce(mX, mSum, mMax, stream)); }, stream);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = sample::parse_small_flag(argc, argv, "skip the large case and its bandwidth table");
  return sample::run_sample(kName, [&](sample::Rng& rng, cudaStream_t stream) {
    using sample::Matrix2D;
    bool ok = true;
    ok &= run_case(Matrix2D::row_major(37, 100), false, rng, stream);       // fewer than a step of 128
    ok &= run_case(Matrix2D::row_major(9, 1024), false, rng, stream);       // whole steps
    ok &= run_case(Matrix2D::row_major(5, 1000, 1030), false, rng, stream); // a slice of a wider matrix
    ok &= run_case(Matrix2D::col_major(19, 300), false, rng, stream);       // a transposed view
    ok &= run_case(Matrix2D::row_major(3, 1), false, rng, stream);          // one column
    if (!small) ok &= run_case(Matrix2D::row_major(16384, 8192), true, rng, stream);
    return ok;
  });
}
