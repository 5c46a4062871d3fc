// row_refs.h: float64 references of the row kernels (samples softmax, rmsnorm,
// layernorm, cross_entropy), one row at a time, shared by their drivers and the memory-bound
// benchmark (tools/bench/membound). Inputs are the values the device holds
// (already rounded to the element type); outputs are exact to float64.
#ifndef TILESLC_SAMPLES_ROW_REFS_H
#define TILESLC_SAMPLES_ROW_REFS_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sample {

// out = exp(x - max x) / sum exp(x - max x), over one row of `cols`.
inline void softmax_row_ref(const float* x, int64_t cols, double* out) {
  double mx = x[0];
  for (int64_t c = 1; c < cols; ++c) mx = std::max(mx, static_cast<double>(x[c]));
  double sum = 0;
  for (int64_t c = 0; c < cols; ++c) sum += std::exp(x[c] - mx);
  for (int64_t c = 0; c < cols; ++c) out[c] = std::exp(x[c] - mx) / sum;
}

// The softmax gradient from its output: out = y * (dy - sum(dy * y)), over one row of `cols`.
inline void softmax_bwd_row_ref(const float* y, const float* dy, int64_t cols, double* out) {
  double dot = 0;
  for (int64_t c = 0; c < cols; ++c) dot += static_cast<double>(dy[c]) * y[c];
  for (int64_t c = 0; c < cols; ++c) out[c] = y[c] * (dy[c] - dot);
}

// out = x * w / sqrt(mean(x^2) + eps), over one row of `cols`.
inline void rmsnorm_row_ref(const float* x, const float* w, int64_t cols, double eps, double* out) {
  double ss = 0;
  for (int64_t c = 0; c < cols; ++c) ss += static_cast<double>(x[c]) * x[c];
  const double rstd = 1.0 / std::sqrt(ss / cols + eps);
  for (int64_t c = 0; c < cols; ++c) out[c] = x[c] * rstd * w[c];
}

// 1 / sqrt(mean(x^2) + eps) of one row of `cols`.
inline double rmsnorm_rstd_ref(const float* x, int64_t cols, double eps) {
  double ss = 0;
  for (int64_t c = 0; c < cols; ++c) ss += static_cast<double>(x[c]) * x[c];
  return 1.0 / std::sqrt(ss / cols + eps);
}

// The RMSNorm gradient of x for y = x * rstd * w: out = rstd * dy * w - x * rstd^3 * sum(dy * w * x) / cols.
inline void rmsnorm_bwd_row_ref(const float* x, const float* w, const float* dy, int64_t cols, double eps, double* out) {
  const double rstd = rmsnorm_rstd_ref(x, cols, eps);
  double dot = 0;
  for (int64_t c = 0; c < cols; ++c) dot += static_cast<double>(dy[c]) * w[c] * x[c];
  const double corr = rstd * rstd * rstd * dot / cols;
  for (int64_t c = 0; c < cols; ++c) out[c] = rstd * dy[c] * w[c] - x[c] * corr;
}

// Adds one row's contribution to the RMSNorm weight gradient: dw[c] += dy[c] * x[c] * rstd.
inline void rmsnorm_dw_accumulate(const float* x, const float* dy, int64_t cols, double eps, double* dw) {
  const double rstd = rmsnorm_rstd_ref(x, cols, eps);
  for (int64_t c = 0; c < cols; ++c) dw[c] += static_cast<double>(dy[c]) * x[c] * rstd;
}

// out = (x - mean) / sqrt(var + eps) * w + b (biased variance), over one row of `cols`.
inline void layernorm_row_ref(const float* x, const float* w, const float* b, int64_t cols, double eps, double* out) {
  double mean = 0, var = 0;
  for (int64_t c = 0; c < cols; ++c) mean += x[c];
  mean /= cols;
  for (int64_t c = 0; c < cols; ++c) var += (x[c] - mean) * (x[c] - mean);
  const double rstd = 1.0 / std::sqrt(var / cols + eps);
  for (int64_t c = 0; c < cols; ++c) out[c] = (x[c] - mean) * rstd * w[c] + b[c];
}

// log(sum exp(x)) over one row of `cols`, shifted by the maximum (exact for any finite x).
inline double logsumexp_row_ref(const float* x, int64_t cols) {
  double mx = x[0];
  for (int64_t c = 1; c < cols; ++c) mx = std::max(mx, static_cast<double>(x[c]));
  double sum = 0;
  for (int64_t c = 0; c < cols; ++c) sum += std::exp(x[c] - mx);
  return mx + std::log(sum);
}

// The cross-entropy gradient of one row of logits: out = (softmax(x) - onehot(target)) * dloss;
// a target outside [0, cols) matches no column (an ignored row passes dloss = 0).
inline void cross_entropy_grad_row_ref(const float* x, int64_t cols, int64_t target, double dloss, double* out) {
  softmax_row_ref(x, cols, out);
  for (int64_t c = 0; c < cols; ++c) out[c] = (out[c] - (c == target ? 1.0 : 0.0)) * dloss;
}

}  // namespace sample

#endif  // TILESLC_SAMPLES_ROW_REFS_H
