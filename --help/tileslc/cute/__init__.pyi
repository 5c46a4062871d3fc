"""tileslc.cute: tensors, kernels and layout work, CuTe DSL's `cutlass.cute` module.

Use it as `import tileslc.cute as cute`.
"""

from typing import Any

from tileslc._builtins import Tensor as Tensor
from tileslc._builtins import kernel as kernel
from tileslc._builtins import jit as jit
from tileslc._builtins import size as size
from tileslc._builtins import sym_int as sym_int
from tileslc._builtins import printf as printf
from tileslc._builtins import make_layout as make_layout
from tileslc._builtins import make_ordered_layout as make_ordered_layout
from tileslc._builtins import cosize as cosize
from tileslc._builtins import rank as rank
from tileslc._builtins import depth as depth
from tileslc._builtins import coalesce as coalesce
from tileslc._builtins import filter as filter
from tileslc._builtins import composition as composition
from tileslc._builtins import complement as complement
from tileslc._builtins import right_inverse as right_inverse
from tileslc._builtins import left_inverse as left_inverse
from tileslc._builtins import logical_divide as logical_divide
from tileslc._builtins import zipped_divide as zipped_divide
from tileslc._builtins import tiled_divide as tiled_divide
from tileslc._builtins import flat_divide as flat_divide
from tileslc._builtins import logical_product as logical_product
from tileslc._builtins import zipped_product as zipped_product
from tileslc._builtins import tiled_product as tiled_product
from tileslc._builtins import flat_product as flat_product
from tileslc._builtins import blocked_product as blocked_product
from tileslc._builtins import raked_product as raked_product
from tileslc._builtins import tile_to_shape as tile_to_shape
from tileslc._builtins import make_layout_tv as make_layout_tv
from tileslc._builtins import max_common_vector as max_common_vector
from tileslc._builtins import recast_layout as recast_layout
from tileslc._builtins import crd2idx as crd2idx
from tileslc._builtins import idx2crd as idx2crd
from tileslc._builtins import flatten as flatten
from tileslc._builtins import select as select
from tileslc._builtins import group_modes as group_modes
from tileslc._builtins import get as get
from tileslc._builtins import size_in_bytes as size_in_bytes
from tileslc._builtins import make_identity_tensor as make_identity_tensor
from tileslc._builtins import make_identity_layout as make_identity_layout
from tileslc._builtins import make_swizzle as make_swizzle
from tileslc._builtins import make_composed_layout as make_composed_layout
from tileslc._builtins import elem_less as elem_less
from tileslc._builtins import make_fragment as make_fragment
from tileslc._builtins import make_fragment_like as make_fragment_like
from tileslc._builtins import make_rmem_tensor as make_rmem_tensor
from tileslc._builtins import make_copy_atom as make_copy_atom
from tileslc._builtins import make_tiled_copy_tv as make_tiled_copy_tv
from tileslc._builtins import copy as copy
from tileslc._builtins import local_tile as local_tile
from tileslc._builtins import local_partition as local_partition
from tileslc._builtins import make_mma_atom as make_mma_atom
from tileslc._builtins import make_tiled_mma as make_tiled_mma
from tileslc._builtins import gemm as gemm
from tileslc._builtins import make_tiled_copy_A as make_tiled_copy_A
from tileslc._builtins import make_tiled_copy_B as make_tiled_copy_B
from tileslc._builtins import make_tiled_copy_C as make_tiled_copy_C
from tileslc._builtins import Layout as Layout
from tileslc._builtins import ComposedLayout as ComposedLayout
from tileslc._builtins import Swizzle as Swizzle
from tileslc._builtins import Shape as Shape
from tileslc._builtins import Stride as Stride
from tileslc._builtins import Coord as Coord
from tileslc._builtins import IntTuple as IntTuple
from tileslc._builtins import Tile as Tile
from tileslc._builtins import Tiler as Tiler
from tileslc._builtins import Pointer as Pointer
from tileslc._builtins import CopyAtom as CopyAtom
from tileslc._builtins import MmaAtom as MmaAtom
from tileslc._builtins import TiledCopy as TiledCopy
from tileslc._builtins import TiledMma as TiledMma
from tileslc._builtins import ThrCopy as ThrCopy
from tileslc._builtins import ThrMma as ThrMma
from tileslc._builtins import TensorSSA as TensorSSA
from tileslc._builtins import AddressSpace as AddressSpace
from tileslc._builtins import ReductionOp as ReductionOp
from tileslc._builtins import ceil_div as ceil_div
from tileslc._builtins import product_each as product_each
from tileslc._builtins import repeat_like as repeat_like
from tileslc._builtins import slice_ as slice_
from tileslc._builtins import shape as shape
from tileslc._builtins import make_layout_image_mask as make_layout_image_mask
from tileslc._builtins import make_rmem_tensor_like as make_rmem_tensor_like
from tileslc._builtins import domain_offset as domain_offset
from tileslc._builtins import autovec_copy as autovec_copy
from tileslc._builtins import where as where
from tileslc._builtins import make_tensor as make_tensor
from tileslc._builtins import struct as struct
from tileslc.cute import arch as arch
from tileslc.cute import math as math
from tileslc.cute import nvgpu as nvgpu
from tileslc.cute.math import exp
from tileslc.cute.math import exp2
from tileslc.cute.math import log
from tileslc.cute.math import log2
from tileslc.cute.math import sqrt
from tileslc.cute.math import rsqrt
from tileslc.cute.math import sin
from tileslc.cute.math import cos
from tileslc.cute.math import tanh
from tileslc.cute.math import erf
from tileslc.cute.math import floor
from tileslc.cute.math import ceil
from tileslc.cute.math import fabs
from tileslc.cute.math import fma
from tileslc import Numeric
from tileslc import Float
from tileslc import Integer
from tileslc import Boolean
from tileslc import Int8
from tileslc import Int16
from tileslc import Int32
from tileslc import Int64
from tileslc import Uint8
from tileslc import Uint16
from tileslc import Uint32
from tileslc import Uint64
from tileslc import Float16
from tileslc import BFloat16
from tileslc import Float32
from tileslc import Float64
from tileslc import TFloat32
from tileslc import Float8E4M3FN
from tileslc import Float8E5M2

__all__ = ["Tensor", "kernel", "jit", "size", "sym_int", "printf", "make_layout", "make_ordered_layout", "cosize", "rank", "depth", "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape", "make_layout_tv", "max_common_vector", "recast_layout", "crd2idx", "idx2crd", "flatten", "select", "group_modes", "get", "size_in_bytes", "make_identity_tensor", "make_identity_layout", "make_swizzle", "make_composed_layout", "elem_less", "make_fragment", "make_fragment_like", "make_rmem_tensor", "make_copy_atom", "make_tiled_copy_tv", "copy", "local_tile", "local_partition", "make_mma_atom", "make_tiled_mma", "gemm", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "Layout", "ComposedLayout", "Swizzle", "Shape", "Stride", "Coord", "IntTuple", "Tile", "Tiler", "Pointer", "CopyAtom", "MmaAtom", "TiledCopy", "TiledMma", "ThrCopy", "ThrMma", "TensorSSA", "AddressSpace", "ReductionOp", "ceil_div", "product_each", "repeat_like", "slice_", "shape", "make_layout_image_mask", "make_rmem_tensor_like", "domain_offset", "autovec_copy", "where", "make_tensor", "struct", "arch", "math", "nvgpu", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "erf", "floor", "ceil", "fabs", "fma", "Numeric", "Float", "Integer", "Boolean", "Int8", "Int16", "Int32", "Int64", "Uint8", "Uint16", "Uint32", "Uint64", "Float16", "BFloat16", "Float32", "Float64", "TFloat32", "Float8E4M3FN", "Float8E5M2"]
