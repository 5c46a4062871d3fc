// Atoms as data: every warp-level MMA and matrix-copy instruction tileslc
// issues, with the facts CuTe keeps in MMA_Traits<Op> (include/cute/atom/
// mma_traits_sm80.hpp) and Copy_Traits<Op> (copy_traits_sm75.hpp,
// copy_traits_sm90.hpp): the CuTe DSL operation that selects the row, the
// instruction's shape, its threads, its (thread, value) layouts, the element
// types it takes, the oldest architecture that has it and the intrinsic
// (ir/intrinsics.def) that issues it. The PTX itself stays in the runtime's device headers
// (runtime/include/tileslc/device/prelude.h, and cpu/prelude.h for the
// emulator). The tables are built once, each layout parsed from CuTe's text at
// construction; the builtins that make atoms (mma_ops.cpp, ldmatrix_ops.cpp,
// sm90_ops.cpp) look rows up and spell no layout themselves. tests/unit/atom_traits_test.cpp
// checks every layout against the sizes CuTe's traits imply.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sema/value.h"

namespace tileslc::sema {

/// The oldest architecture with the instruction (CuTe's SM75_/SM80_/SM90_ prefixes).
/// tileslc's oldest GPU target is sm_80, so only Sm90 and Sm90a rows need a check,
/// which their builtins.def rows make (Arch column; atom_traits_test checks they agree).
enum class AtomArch : uint8_t { Any, Sm75, Sm80, Sm90, Sm90a };

/// One MMA instruction (CuTe's MMA_Traits). Layouts map (thread, value) to a
/// column-major offset in the operand's tile: (M, K) for A, (N, K) for B,
/// (M, N) for C and D.
struct MmaTraits {
  BuiltinId maker;              ///< the CuTe DSL operation that selects this row
  std::string_view name;        ///< the atom's name in messages: "MmaF16BF16Op"
  std::string_view cute;        ///< CuTe's operation: "SM80_16x8x16_F32BF16BF16F32_TN"
  int64_t m, n, k;              ///< Shape_MNK
  int64_t threads;              ///< size(ThrID)
  ir::ScalarType a, b, acc;     ///< ValTypeA, ValTypeB, ValTypeC (= ValTypeD): register storage types
  bool any_type;                ///< UniversalFMA<T>: a, b and acc are the operation's one dtype, any number type
  AtomArch arch;
  std::optional<ir::IntrinsicOp>
      device;                       ///< called as fn(&d, &a, &b, &c); none for the universal FMA (d = a * b + c inline)
  layout::Layout a_tv, b_tv, c_tv;  ///< ALayout, BLayout, CLayout
};

/// Every MMA row, in table order.
const std::vector<MmaTraits>& mma_traits();
/// The rows one operation selects from, in table order.
std::vector<const MmaTraits*> mma_traits_of(BuiltinId maker);
/// The MmaAtom a row makes; a universal row takes the element type `t`.
MmaAtom mma_atom(const MmaTraits& row, ir::ScalarType t = ir::ScalarType::Float32);

/// One warpgroup MMA form (CuTe's SM90 GMMA MMA_Traits, include/cute/atom/
/// mma_traits_sm90_gmma.hpp; PTX ISA, "wgmma.mma_async"): 128 threads compute a
/// 64 x N x K tile. A row stands for every N in `ns` (CuTe's rows are templated
/// on N too); its layouts are written with `{N}`, `{N/8}` and `{K}` in place of
/// the numbers, so wgmma_atom() makes the atom for one N. SS forms read A and B
/// through shared-memory descriptors (every thread names the whole tile); the
/// RS form reads A from registers.
struct WgmmaTraits {
  BuiltinId maker;              ///< WarpgroupMmaF16BF16Op or WarpgroupMmaF8Op
  std::string_view name;        ///< the atom's name in messages: "warpgroup.MmaF16BF16Op"
  std::string_view cute;        ///< CuTe's operation family: "SM90_64xNx16_F32BF16BF16_SS"
  bool a_rmem;                  ///< the RS form (a_src=RMEM)
  int64_t m, k, threads;        ///< 64, K (32 bytes of input), 128
  std::vector<int64_t> ns;      ///< the N this tileslc issues (the intrinsic's n domain)
  std::vector<ir::ScalarType> inputs;  ///< A's and B's element types (any pair for fp8)
  ir::ScalarType acc;
  std::string_view types_note;  ///< what `inputs` and `acc` mean, for messages
  AtomArch arch;
  ir::Intrinsic device;         ///< immediates: N, then A's (and for fp8 B's) PTX type
  std::string_view a_tv, b_tv, c_tv;  ///< ALayout, BLayout, CLayout with {N}, {N/8}, {K}
};

/// Every warpgroup MMA row, in table order.
const std::vector<WgmmaTraits>& wgmma_traits();
/// The row of `maker` reading A from shared memory (false) or registers (true).
const WgmmaTraits& find_wgmma_traits(BuiltinId maker, bool a_rmem);
/// The MmaAtom of `row` for one N, with A and B of `a` and `b`.
/// @pre n is in row.ns; a and b are in row.inputs (the caller reports otherwise).
MmaAtom wgmma_atom(const WgmmaTraits& row, int64_t n, ir::ScalarType a, ir::ScalarType b);

/// One warp-level matrix copy: ldmatrix or stmatrix of `matrices` 8x8
/// matrices of 16-bit elements stacked 64 elements apart (CuTe's
/// Copy_Traits). CuTe's layouts count bits; these count elements, so a
/// 128-bit row is 8 elements.
struct CopyTraits {
  BuiltinId maker;              ///< LdMatrix8x8x16bOp or StMatrix8x8x16bOp
  std::string_view cute;        ///< CuTe's operation: "SM75_U32x4_LDSM_N"
  std::string_view instr;       ///< "ldmatrix" or "stmatrix", for messages
  int matrices;                 ///< .x1, .x2, .x4
  bool trans;                   ///< .trans
  bool store;                   ///< registers to shared memory (stmatrix)
  int64_t threads;              ///< size(ThrID)
  int elem_bits;                ///< .b16
  int64_t row_elems;            ///< elements per shared-memory row (one lane's address)
  AtomArch arch;
  ir::IntrinsicOp device;       ///< called as fn(&row, &reg0, ..., &reg<matrices-1>)
  layout::Layout src, dst;      ///< SrcLayout, DstLayout: (lane, value) -> element of the stacked matrices

  /// The shared-memory side: (lane, element of its row) -> element.
  const layout::Layout& rows() const { return store ? dst : src; }
  /// The register side: (lane, value) -> element.
  const layout::Layout& regs() const { return store ? src : dst; }
  /// One 32-bit register per matrix for each lane.
  int64_t bits_per_thread() const { return 32 * matrices; }
  int64_t values_per_thread() const { return bits_per_thread() / elem_bits; }
};

/// Every copy row, in table order.
const std::vector<CopyTraits>& copy_traits();
/// The row of `maker` with that many matrices and transpose, if the table has one.
const CopyTraits* find_copy_traits(BuiltinId maker, int matrices, bool trans);
/// The row a matrix CopyAtom (ldsm_matrices > 0) was made from.
const CopyTraits& copy_traits_of(const CopyAtom& atom);
/// The matrix counts `maker` has rows for, ascending (for "1, 2 or 4").
std::vector<int> copy_matrix_counts(BuiltinId maker);

/// What a table offers, for messages: "a", "a or b", "a, b or c" (`last` joins the
/// last two), each distinct item once, in order.
std::string list_text(const std::vector<std::string>& items, const char* last = " or ");

}  // namespace tileslc::sema
