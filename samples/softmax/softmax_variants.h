// The launch variants of softmax.tpy's 262144-column rows (softmax_<type>_262144_c<cluster
// blocks>_t<threads>_m<blocks per SM>, and _c<cluster blocks>_t<threads>_smem: the share staged
// in shared memory; the backward's softmax_bwd_<type>_262144_..._smem1/_smem2; issue 17), for the driver (each checked
// like the default) and tileslc_membound --variants (each timed against the default and a copy in one run).
#pragma once
#include <cstdint>
#include <vector>

#include "launch_variant.h"
#include "softmax.h"

namespace sample {

using SoftmaxVariant = LaunchVariant<tileslc::Status (*)(tileslc::TensorView x, tileslc::TensorView y, cudaStream_t)>;

// The variants of (element bytes, cols); empty where there are none.
inline std::vector<SoftmaxVariant> softmax_variants(int64_t bytes, int64_t cols) {
  if (cols != 262144) return {};
  if (bytes == 4) {
    return {{"c16_t512_m2", softmax_fp32_262144_c16_t512_m2},
            {"c16_t256_m2", softmax_fp32_262144_c16_t256_m2},
            {"c8_t1024_m1", softmax_fp32_262144_c8_t1024_m1},
            {"c16_t256_smem", softmax_fp32_262144_c16_t256_smem}};
  }
  // BFloat16 c16_t256_m2 and c16_t512_m2 would spill (2 and 4 bytes): the bf16 to Float32
  // conversions stay live across the reductions.
  return {{"c16_t256_smem", softmax_bf16_262144_c16_t256_smem}, {"c8_t256_smem", softmax_bf16_262144_c8_t256_smem}};
}

using SoftmaxBwdVariant = LaunchVariant<tileslc::Status (*)(tileslc::TensorView y, tileslc::TensorView dy,
                                                            tileslc::TensorView dx, cudaStream_t)>;

// The backward's variants of (element bytes, cols): _smem2 stages y and dy, _smem1 y only (the
// default stages both where both fit 64 KB a block: BFloat16 c16; Float32 c16 stages y only).
inline std::vector<SoftmaxBwdVariant> softmax_bwd_variants(int64_t bytes, int64_t cols) {
  if (cols != 262144) return {};
  if (bytes == 4) return {{"c16_t256_smem2", softmax_bwd_fp32_262144_c16_t256_smem2}};
  return {{"c16_t256_smem1", softmax_bwd_bf16_262144_c16_t256_smem1},
          {"c8_t256_smem2", softmax_bwd_bf16_262144_c8_t256_smem2}};
}

}  // namespace sample
