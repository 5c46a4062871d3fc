// The layout work the tiled copies of matrix atoms (ldmatrix, stmatrix) share: the
// builtins that derive them from a tiled MMA (ldmatrix_ops.cpp: make_tiled_copy_A/B/C)
// and from an MMA's C layout or another tiled copy (tiled_copy_ops.cpp:
// make_tiled_copy_C_atom, make_tiled_copy_S/D).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sema/atom_traits.h"
#include "sema/value.h"

namespace tileslc::sema {

/// Rows and columns of the tile make_tiled_copy_A/B/C cover (operand 0: A (M, K), 1: B (N, K),
/// 2: C (M, N)): permutation_mnk's, else the atoms'.
std::pair<int64_t, int64_t> operand_tile(const TiledMma& tm, int operand);

/// The layout of `shape` whose offsets are want[i] - want[0] at every point i (i the
/// column-major index over `shape`), if there is one: a stride per leaf from the first step
/// along it, checked at every point.
std::optional<layout::Layout> layout_through(const layout::IntTuple& shape, const std::vector<int64_t>& want);

/// CuTe's tile2thrfrg for a matrix atom: the register-side (thread, value) layout `regs_tv`
/// divided into (32 lanes, atom values) blocks, each re-expressed from the register (reference)
/// side to the shared-memory rows' side: ((lanes, rest threads), (row elements, rest values))
/// -> tile offset. Throws layout::LayoutError where the blocks do not divide `regs_tv`.
layout::Layout rows_tv(const CopyTraits& ct, const layout::Layout& regs_tv);

}  // namespace tileslc::sema
