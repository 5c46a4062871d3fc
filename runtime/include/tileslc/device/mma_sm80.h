// More sm_80 mma.sync shapes for generated code (PTX ISA, "Warp-level matrix
// multiply-accumulate instructions"): m16n8k8 with .tf32 inputs and m16n8k32
// with 8-bit integer inputs. Each takes this lane's fragments in the ISA's
// order (sema's MmaTF32Op and MmaI8Op layouts, compiler/sema/mma_ops.cpp)
// and writes d = a * b + c; d may alias c. Included by prelude.h.
#ifndef TILESLC_DEVICE_MMA_SM80_H
#define TILESLC_DEVICE_MMA_SM80_H

namespace tileslc {
namespace dev {

/// x rounded to TF32 (cvt.rna.tf32.f32: to nearest, ties away from zero),
/// as the 32-bit register mma.sync .tf32 reads.
TILESLC_DEVICE uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 ("Matrix Fragments for
/// mma.m16n8k8", .tf32): a[4] = A[g + 8 (i % 2)][t + 4 (i / 2)],
/// b[2] = B[t + 4 i][g], c/d[4] = C[g + 8 (i / 2)][2 t + i % 2] with
/// g = lane / 4, t = lane % 4. a and b are Float32, rounded to TF32 here.
TILESLC_DEVICE int32_t mma_m16n8k8_f32_tf32(float* d, const float* a, const float* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(to_tf32(a[0])), "r"(to_tf32(a[1])), "r"(to_tf32(a[2])), "r"(to_tf32(a[3])), "r"(to_tf32(b[0])), "r"(to_tf32(b[1])),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
  return 0;
}

// mma.sync.aligned.m16n8k32.row.col.s32.X.X.s32 ("Matrix Fragments for
// mma.m16n8k32", 8-bit integers): 16 A and 8 B bytes packed four to a
// register (the lowest index in the low byte), a[i] = A[g + 8 ((i / 4) % 2)]
// [4 t + i % 4 + 16 (i / 8)], b[i] = B[4 t + i % 4 + 16 (i / 4)][g], and c/d as
// m16n8k8's. Sums wrap around in 32 bits (no .satfinite).
#define TILESLC_MMA_M16N8K32(NAME, ELEM, PTX)                                                                   \
  TILESLC_DEVICE int32_t NAME(int32_t* d, const ELEM* a, const ELEM* b, const int32_t* c) {                     \
    const uint32_t* A = reinterpret_cast<const uint32_t*>(a);                                                   \
    const uint32_t* B = reinterpret_cast<const uint32_t*>(b);                                                   \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32." PTX "." PTX                                           \
                 ".s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"                             \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                               \
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                   "r"(c[3]));                                                                                  \
    return 0;                                                                                                   \
  }
TILESLC_MMA_M16N8K32(mma_m16n8k32_s32_s8, int8_t, "s8")
TILESLC_MMA_M16N8K32(mma_m16n8k32_s32_u8, uint8_t, "u8")
#undef TILESLC_MMA_M16N8K32

}  // namespace dev
}  // namespace tileslc

#endif  // TILESLC_DEVICE_MMA_SM80_H
