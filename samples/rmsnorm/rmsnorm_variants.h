// The launch variants of rmsnorm.tpy's 262144-column forward (rmsnorm_<type>_262144_c<cluster
// blocks>_t<threads>_m<blocks per SM>, and _c<cluster blocks>_t<threads>_smem: the share staged
// in shared memory; the backward's rmsnorm_bwd_<type>_<COLS>_rows; issue 17), for the driver (each checked like the
// default) and tileslc_membound --variants (each timed against the default and a copy in one run).
#pragma once
#include <cstdint>
#include <vector>

#include "launch_variant.h"
#include "rmsnorm.h"

namespace sample {

using RmsnormVariant = LaunchVariant<tileslc::Status (*)(tileslc::TensorView x, tileslc::TensorView w,
                                                         tileslc::TensorView y, float eps, cudaStream_t)>;

// The variants of (element bytes, cols); empty where there are none.
inline std::vector<RmsnormVariant> rmsnorm_variants(int64_t bytes, int64_t cols) {
  if (cols != 262144) return {};
  if (bytes == 4) {
    return {{"c16_t512_m2", rmsnorm_fp32_262144_c16_t512_m2},
            {"c16_t256_m2", rmsnorm_fp32_262144_c16_t256_m2},
            {"c8_t1024_m1", rmsnorm_fp32_262144_c8_t1024_m1},
            {"c16_t256_smem", rmsnorm_fp32_262144_c16_t256_smem}};
  }
  return {{"c16_t256_m2", rmsnorm_bf16_262144_c16_t256_m2},
          {"c16_t512_m2", rmsnorm_bf16_262144_c16_t512_m2},
          {"c16_t256_smem", rmsnorm_bf16_262144_c16_t256_smem},
          {"c8_t256_smem", rmsnorm_bf16_262144_c8_t256_smem}};
}

// "rows": the backward before its prefetch and cluster path.
using RmsnormBwdVariant = LaunchVariant<tileslc::Status (*)(
    tileslc::TensorView x, tileslc::TensorView w, tileslc::TensorView dy, tileslc::TensorView dx,
    tileslc::TensorView dw_partial, tileslc::TensorView dw, float eps, cudaStream_t)>;

// The backward's variants of (element bytes, cols): `rows`, rmsnorm_bwd_kernel without the next
// row staged (8192) or walking the long rows in chunks (262144), the defaults until 2026-12-05;
// `xonly` (Float32 262144), the cluster kernel staging x's share alone (dy read twice), the
// default until 2026-12-06.
inline std::vector<RmsnormBwdVariant> rmsnorm_bwd_variants(int64_t bytes, int64_t cols) {
  if (cols == 8192) return {{"rows", bytes == 4 ? rmsnorm_bwd_fp32_8192_rows : rmsnorm_bwd_bf16_8192_rows}};
  if (cols == 262144)
    return bytes == 4 ? std::vector<RmsnormBwdVariant>{{"rows", rmsnorm_bwd_fp32_262144_rows},
                                                       {"xonly", rmsnorm_bwd_fp32_262144_xonly}}
                      : std::vector<RmsnormBwdVariant>{{"rows", rmsnorm_bwd_bf16_262144_rows}};
  return {};
}

}  // namespace sample
