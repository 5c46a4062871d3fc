// ldmatrix for generated code (PTX ISA, "Warp-level matrix load instruction:
// ldmatrix", sm_75 and later): a warp loads one, two or four 8x8 matrices of
// 16-bit elements from shared memory. Lane i gives the address of row i % 8
// of matrix i / 8 (lanes 0-7 for .x1, 0-15 for .x2); each lane receives one
// 32-bit register per matrix: row lane / 4, columns 2 * (lane % 4) and the
// next, or with .trans rows 2 * (lane % 4) and the next of column lane / 4.
// sema (compiler/sema/ldmatrix_ops.cpp) passes each lane's row address and,
// per matrix, the address of the pair of adjacent fragment elements the
// register fills. Included by prelude.h.
#ifndef TILESLC_DEVICE_LDMATRIX_H
#define TILESLC_DEVICE_LDMATRIX_H

namespace tileslc {
namespace dev {

TILESLC_DEVICE uint32_t smem_address(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

#define TILESLC_LDSM_X1(NAME, TRANS)                                                                        \
  TILESLC_DEVICE int32_t NAME(const void* row, void* d0) {                                                  \
    uint32_t r0;                                                                                            \
    asm volatile("ldmatrix.sync.aligned.m8n8.x1" TRANS ".shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(smem_address(row))); \
    *static_cast<uint32_t*>(d0) = r0;                                                                       \
    return 0;                                                                                               \
  }
#define TILESLC_LDSM_X2(NAME, TRANS)                                                                        \
  TILESLC_DEVICE int32_t NAME(const void* row, void* d0, void* d1) {                                        \
    uint32_t r0, r1;                                                                                        \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2" TRANS ".shared.b16 {%0, %1}, [%2];\n"                      \
                 : "=r"(r0), "=r"(r1) : "r"(smem_address(row)));                                            \
    *static_cast<uint32_t*>(d0) = r0;                                                                       \
    *static_cast<uint32_t*>(d1) = r1;                                                                       \
    return 0;                                                                                               \
  }
#define TILESLC_LDSM_X4(NAME, TRANS)                                                                        \
  TILESLC_DEVICE int32_t NAME(const void* row, void* d0, void* d1, void* d2, void* d3) {                    \
    uint32_t r0, r1, r2, r3;                                                                                \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4" TRANS ".shared.b16 {%0, %1, %2, %3}, [%4];\n"              \
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_address(row)));                        \
    *static_cast<uint32_t*>(d0) = r0;                                                                       \
    *static_cast<uint32_t*>(d1) = r1;                                                                       \
    *static_cast<uint32_t*>(d2) = r2;                                                                       \
    *static_cast<uint32_t*>(d3) = r3;                                                                       \
    return 0;                                                                                               \
  }
TILESLC_LDSM_X1(ldsm_x1, "")
TILESLC_LDSM_X2(ldsm_x2, "")
TILESLC_LDSM_X4(ldsm_x4, "")
TILESLC_LDSM_X1(ldsm_x1_trans, ".trans")
TILESLC_LDSM_X2(ldsm_x2_trans, ".trans")
TILESLC_LDSM_X4(ldsm_x4_trans, ".trans")
#undef TILESLC_LDSM_X1
#undef TILESLC_LDSM_X2
#undef TILESLC_LDSM_X4

// stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 (PTX ISA, "Warp-level
// matrix store instruction: stmatrix", sm_90 and later): the inverse of
// ldmatrix with the same lanes and registers. Lane i gives the address of row
// i % 8 of matrix i / 8; each lane gives, per matrix, the 32-bit register
// (a pair of adjacent fragment elements) ldmatrix would have filled.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define TILESLC_STSM_ASM(...) __trap()  // sema rejects stmatrix below sm_90 (E0709); never reached
#else
#define TILESLC_STSM_ASM(...) asm volatile(__VA_ARGS__)
#endif
TILESLC_DEVICE uint32_t reg32(const void* p) { return *static_cast<const uint32_t*>(p); }
#define TILESLC_STSM(X1, X2, X4, TRANS)                                                                        \
  TILESLC_DEVICE int32_t X1(void* row, const void* s0) {                                                       \
    TILESLC_STSM_ASM("stmatrix.sync.aligned.m8n8.x1" TRANS ".shared.b16 [%0], {%1};\n" ::"r"(smem_address(row)),  \
                     "r"(reg32(s0)) : "memory");                                                               \
    return 0;                                                                                                  \
  }                                                                                                            \
  TILESLC_DEVICE int32_t X2(void* row, const void* s0, const void* s1) {                                       \
    TILESLC_STSM_ASM("stmatrix.sync.aligned.m8n8.x2" TRANS ".shared.b16 [%0], {%1, %2};\n" ::"r"(smem_address(row)), \
                     "r"(reg32(s0)), "r"(reg32(s1)) : "memory");                                               \
    return 0;                                                                                                  \
  }                                                                                                            \
  TILESLC_DEVICE int32_t X4(void* row, const void* s0, const void* s1, const void* s2, const void* s3) {       \
    TILESLC_STSM_ASM("stmatrix.sync.aligned.m8n8.x4" TRANS ".shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_address(row)), \
                     "r"(reg32(s0)), "r"(reg32(s1)), "r"(reg32(s2)), "r"(reg32(s3)) : "memory");             \
    return 0;                                                                                                  \
  }
TILESLC_STSM(stsm_x1, stsm_x2, stsm_x4, "")
TILESLC_STSM(stsm_x1_trans, stsm_x2_trans, stsm_x4_trans, ".trans")
#undef TILESLC_STSM
#undef TILESLC_STSM_ASM

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_DEVICE_LDMATRIX_H
