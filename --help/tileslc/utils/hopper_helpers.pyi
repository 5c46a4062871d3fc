"""tileslc.utils.hopper_helpers: sm_90 GEMM set-up helpers (CuTe DSL's cutlass.utils.hopper_helpers).

Evaluated while compiling, from the tile shape and the operands' types and layouts:
- make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype,
  atom_layout_mnk, tiler_mn): the warpgroup MMA (wgmma) for those types, (64, N, 16) for
  Float16/BFloat16, (64, N, 32) for the Float8 pairs, tiled atom_layout_mnk times;
- get_smem_layout_atom(layout, element_type, major_mode_size): the widest swizzle (128, 64 or 32
  bytes, else interleaved) whose rows the major mode fills exactly;
- make_smem_layout_a/b/epi: that atom tiled over the operand's tile (A: (M, K), B: (N, K),
  the epilogue: epi_tile) and staged (a last mode of num_stages), as a swizzled composed layout;
- compute_tile_shape_or_override: the epilogue subtile, (min(128, M), min(32, N)) for two
  cooperating warpgroups, (min(64, M), min(32, N)) otherwise (64 columns for 8-bit outputs).
Operands must be K-major (row-major A (M, K) and B (N, K)): the wgmma here reads K-major
shared-memory tiles only; an MN-major operand raises NotImplementedError while compiling.
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute
from tileslc.cute.nvgpu import warpgroup

def make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype, atom_layout_mnk, tiler_mn, a_source=...) -> Any:
    ...


def get_smem_layout_atom(layout, element_type, major_mode_size) -> Any:
    ...


def _staged(atom, shape, order) -> Any:
    ...


def make_smem_layout_a(a_layout, mma_tiler_mnk, a_dtype, num_stages) -> Any:
    ...


def make_smem_layout_b(b_layout, mma_tiler_mnk, b_dtype, num_stages) -> Any:
    ...


def make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage, smem_trg_shape=..., smem_order=...) -> Any:
    ...


def compute_tile_shape_or_override(tile_shape_mnk, element_type, is_cooperative=..., epi_tile_override=...) -> Any:
    ...


__all__ = ["cutlass", "cute", "warpgroup", "make_trivial_tiled_mma", "get_smem_layout_atom", "make_smem_layout_a", "make_smem_layout_b", "make_smem_layout_epi", "compute_tile_shape_or_override"]
