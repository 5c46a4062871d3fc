// The launch variants of layernorm.tpy's 262144-column rows (layernorm_<type>_262144_c<cluster
// blocks>_t<threads>_m<blocks per SM>, _c<cluster blocks>_t<threads>_smem: the share staged in
// shared memory, and _cta: the CTA per row reading it twice; issue 17), for
// the driver (each checked like the default) and tileslc_membound --variants (each timed against
// the default and a copy in one run).
#pragma once
#include <cstdint>
#include <vector>

#include "launch_variant.h"
#include "layernorm.h"

namespace sample {

using LayernormVariant =
    LaunchVariant<tileslc::Status (*)(tileslc::TensorView x, tileslc::TensorView w, tileslc::TensorView b,
                                      tileslc::TensorView y, float eps, cudaStream_t)>;

// The variants of (element bytes, cols); empty where there are none.
inline std::vector<LayernormVariant> layernorm_variants(int64_t bytes, int64_t cols) {
  if (cols != 262144) return {};
  if (bytes == 4) {
    return {{"c16_t512_m2", layernorm_fp32_262144_c16_t512_m2},
            {"c16_t256_m2", layernorm_fp32_262144_c16_t256_m2},
            // c8_t1024_m1 would spill 24 bytes (x, w and b at 64 registers)
            {"c16_t256_smem", layernorm_fp32_262144_c16_t256_smem},
            {"cta", layernorm_fp32_262144_cta}};
  }
  return {{"c16_t256_m2", layernorm_bf16_262144_c16_t256_m2},
          {"c16_t512_m2", layernorm_bf16_262144_c16_t512_m2},
          {"c16_t256_smem", layernorm_bf16_262144_c16_t256_smem},
          {"c8_t256_smem", layernorm_bf16_262144_c8_t256_smem},
          {"cta", layernorm_bf16_262144_cta}};
}

}  // namespace sample
