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

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_DEVICE_LDMATRIX_H
