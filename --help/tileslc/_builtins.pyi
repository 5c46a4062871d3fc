from typing import Annotated, Any, Callable, Iterator, TypeAlias, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


class _Value:
    """A tileslc value: static while compiling, or run-time in generated code."""
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __class_getitem__(cls, item: Any) -> Any: ...
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, key: Any) -> Any: ...
    def __setitem__(self, key: Any, value: Any) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __bool__(self) -> bool: ...
    def __index__(self) -> int: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __add__(self, other: Any) -> Any: ...
    def __radd__(self, other: Any) -> Any: ...
    def __sub__(self, other: Any) -> Any: ...
    def __rsub__(self, other: Any) -> Any: ...
    def __mul__(self, other: Any) -> Any: ...
    def __rmul__(self, other: Any) -> Any: ...
    def __truediv__(self, other: Any) -> Any: ...
    def __rtruediv__(self, other: Any) -> Any: ...
    def __floordiv__(self, other: Any) -> Any: ...
    def __rfloordiv__(self, other: Any) -> Any: ...
    def __mod__(self, other: Any) -> Any: ...
    def __rmod__(self, other: Any) -> Any: ...
    def __pow__(self, other: Any) -> Any: ...
    def __lshift__(self, other: Any) -> Any: ...
    def __rshift__(self, other: Any) -> Any: ...
    def __and__(self, other: Any) -> Any: ...
    def __rand__(self, other: Any) -> Any: ...
    def __or__(self, other: Any) -> Any: ...
    def __ror__(self, other: Any) -> Any: ...
    def __xor__(self, other: Any) -> Any: ...
    def __rxor__(self, other: Any) -> Any: ...
    def __neg__(self) -> Any: ...
    def __invert__(self) -> Any: ...
    def __lt__(self, other: Any) -> Any: ...
    def __le__(self, other: Any) -> Any: ...
    def __gt__(self, other: Any) -> Any: ...
    def __ge__(self, other: Any) -> Any: ...

def range_constexpr(*args) -> Any:
    """cutlass.range_constexpr(*args)."""

def const_expr(expression) -> Any:
    """cutlass.const_expr(expression)."""

Constexpr: TypeAlias = Annotated[_T, "cutlass.Constexpr(*args, **kwargs)."]

def tune(*, key=..., prune=..., flops=..., bytes=..., **space) -> Any:
    """cutlass.tune(*, key=(), prune=None, flops=None, bytes=None, **space)."""

def dsl_user_op(function) -> Any:
    """cutlass.dsl_user_op(function)."""

class Tensor(_Value):
    """cute.Tensor(*args, **kwargs)."""

    def load(self) -> Any:
        """Tensor.load()."""

    def store(self, data) -> Any:
        """Tensor.store(data)."""

    def fill(self, value) -> Any:
        """Tensor.fill(value)."""

def kernel(fn: Callable[..., Any]) -> Callable[..., Kernel]:
    """cute.kernel(*args, **kwargs)."""

def jit(fn: _F) -> _F:
    """cute.jit(*args, **kwargs)."""

def size(a, mode=...) -> Any:
    """cute.size(a, mode=())."""

def sym_int(name, *, divisibility=...) -> Any:
    """cute.sym_int(name, *, divisibility=None)."""

def printf(fmt, *args) -> Any:
    """cute.printf(fmt, *args). Kernel code only (@cute.kernel)."""

def thread_idx() -> Any:
    """cute.arch.thread_idx(). Kernel code only (@cute.kernel)."""

def block_idx() -> Any:
    """cute.arch.block_idx(). Kernel code only (@cute.kernel)."""

def block_dim() -> Any:
    """cute.arch.block_dim(). Kernel code only (@cute.kernel)."""

def grid_dim() -> Any:
    """cute.arch.grid_dim(). Kernel code only (@cute.kernel)."""

def sync_threads() -> Any:
    """cute.arch.sync_threads(). Kernel code only (@cute.kernel)."""

def lane_idx() -> Any:
    """cute.arch.lane_idx(). Kernel code only (@cute.kernel)."""

def warp_idx() -> Any:
    """cute.arch.warp_idx(). Kernel code only (@cute.kernel)."""

def exp(x) -> Any:
    """cute.math.exp(x)."""

def exp2(x) -> Any:
    """cute.math.exp2(x)."""

def log(x) -> Any:
    """cute.math.log(x)."""

def log2(x) -> Any:
    """cute.math.log2(x)."""

def sqrt(x) -> Any:
    """cute.math.sqrt(x)."""

def rsqrt(x) -> Any:
    """cute.math.rsqrt(x)."""

def sin(x) -> Any:
    """cute.math.sin(x)."""

def cos(x) -> Any:
    """cute.math.cos(x)."""

def tanh(x) -> Any:
    """cute.math.tanh(x)."""

def erf(x) -> Any:
    """cute.math.erf(x)."""

def floor(x) -> Any:
    """cute.math.floor(x)."""

def ceil(x) -> Any:
    """cute.math.ceil(x)."""

def fabs(x) -> Any:
    """cute.math.fabs(x)."""

def fma(a, b, c) -> Any:
    """cute.math.fma(a, b, c)."""

def make_layout(shape, *, stride=...) -> Any:
    """cute.make_layout(shape, *, stride=None)."""

def make_ordered_layout(shape, order) -> Any:
    """cute.make_ordered_layout(shape, order)."""

def cosize(a, mode=...) -> Any:
    """cute.cosize(a, mode=())."""

def rank(a, mode=...) -> Any:
    """cute.rank(a, mode=())."""

def depth(a) -> Any:
    """cute.depth(a)."""

def coalesce(input, *, target_profile=...) -> Any:
    """cute.coalesce(input, *, target_profile=None)."""

def filter(input) -> Any:
    """cute.filter(input)."""

def composition(lhs, rhs) -> Any:
    """cute.composition(lhs, rhs)."""

def complement(input, cotarget=...) -> Any:
    """cute.complement(input, cotarget=None)."""

def right_inverse(input) -> Any:
    """cute.right_inverse(input)."""

def left_inverse(input) -> Any:
    """cute.left_inverse(input)."""

def logical_divide(target, tiler) -> Any:
    """cute.logical_divide(target, tiler)."""

def zipped_divide(target, tiler) -> Any:
    """cute.zipped_divide(target, tiler)."""

def tiled_divide(target, tiler) -> Any:
    """cute.tiled_divide(target, tiler)."""

def flat_divide(target, tiler) -> Any:
    """cute.flat_divide(target, tiler)."""

def logical_product(block, tiler) -> Any:
    """cute.logical_product(block, tiler)."""

def zipped_product(block, tiler) -> Any:
    """cute.zipped_product(block, tiler)."""

def tiled_product(block, tiler) -> Any:
    """cute.tiled_product(block, tiler)."""

def flat_product(block, tiler) -> Any:
    """cute.flat_product(block, tiler)."""

def blocked_product(block, tiler) -> Any:
    """cute.blocked_product(block, tiler)."""

def raked_product(block, tiler) -> Any:
    """cute.raked_product(block, tiler)."""

def tile_to_shape(atom, trg_shape, order=...) -> Any:
    """cute.tile_to_shape(atom, trg_shape, order=None)."""

def make_layout_tv(thr_layout, val_layout) -> Any:
    """cute.make_layout_tv(thr_layout, val_layout)."""

def max_common_vector(a, b) -> Any:
    """cute.max_common_vector(a, b)."""

def recast_layout(new_type_bits, old_type_bits, src_layout) -> Any:
    """cute.recast_layout(new_type_bits, old_type_bits, src_layout)."""

def crd2idx(coord, layout) -> Any:
    """cute.crd2idx(coord, layout)."""

def idx2crd(idx, shape) -> Any:
    """cute.idx2crd(idx, shape)."""

def flatten(a) -> Any:
    """cute.flatten(a)."""

def select(input, mode=...) -> Any:
    """cute.select(input, mode=())."""

def group_modes(input, begin, end=...) -> Any:
    """cute.group_modes(input, begin, end=None)."""

def get(input, mode=...) -> Any:
    """cute.get(input, mode=())."""

def size_in_bytes(dtype, layout) -> Any:
    """cute.size_in_bytes(dtype, layout)."""

def make_identity_tensor(shape) -> Any:
    """cute.make_identity_tensor(shape)."""

def make_identity_layout(shape) -> Any:
    """cute.make_identity_layout(shape)."""

def make_swizzle(b, m, s) -> Any:
    """cute.make_swizzle(b, m, s)."""

def make_composed_layout(inner, offset, outer) -> Any:
    """cute.make_composed_layout(inner, offset, outer)."""

def elem_less(lhs, rhs) -> Any:
    """cute.elem_less(lhs, rhs)."""

def make_fragment(layout_or_shape, dtype) -> Any:
    """cute.make_fragment(layout_or_shape, dtype). Kernel code only (@cute.kernel)."""

def make_fragment_like(src, dtype=...) -> Any:
    """cute.make_fragment_like(src, dtype=None). Kernel code only (@cute.kernel)."""

def make_rmem_tensor(layout_or_shape, dtype) -> Any:
    """cute.make_rmem_tensor(layout_or_shape, dtype). Kernel code only (@cute.kernel)."""

def make_copy_atom(op, copy_internal_type, *, num_bits_per_copy=...) -> Any:
    """cute.make_copy_atom(op, copy_internal_type, *, num_bits_per_copy=None)."""

class CopyUniversalOp(_Value):
    """cute.nvgpu.CopyUniversalOp()."""

def make_tiled_copy_tv(atom, thr_layout, val_layout) -> Any:
    """cute.make_tiled_copy_tv(atom, thr_layout, val_layout)."""

def copy(atom, src, dst, *, pred=..., tma_bar_ptr=..., mcast_mask=...) -> Any:
    """cute.copy(atom, src, dst, *, pred=None, tma_bar_ptr=None, mcast_mask=None). Kernel code only (@cute.kernel)."""

def local_tile(input, tiler, coord, proj=...) -> Any:
    """cute.local_tile(input, tiler, coord, proj=None)."""

def local_partition(target, tiler, index, proj=...) -> Any:
    """cute.local_partition(target, tiler, index, proj=1)."""

class SmemAllocator(_Value):
    """cutlass.utils.SmemAllocator(). Kernel code only (@cute.kernel)."""

    def allocate_tensor(self, element_type, layout, byte_alignment=..., swizzle=...) -> Any:
        """SmemAllocator.allocate_tensor(element_type, layout, byte_alignment=16, swizzle=None)."""

    def allocate(self, size_or_type, byte_alignment=...) -> Any:
        """SmemAllocator.allocate(size_or_type, byte_alignment=1). Kernel code only (@cute.kernel)."""

def atomic_add(tensor, coord, val) -> Any:
    """cute.arch.atomic_add(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_min(tensor, coord, val) -> Any:
    """cute.arch.atomic_min(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_max(tensor, coord, val) -> Any:
    """cute.arch.atomic_max(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_and(tensor, coord, val) -> Any:
    """cute.arch.atomic_and(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_or(tensor, coord, val) -> Any:
    """cute.arch.atomic_or(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_xor(tensor, coord, val) -> Any:
    """cute.arch.atomic_xor(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_exch(tensor, coord, val) -> Any:
    """cute.arch.atomic_exch(tensor, coord, val). Kernel code only (@cute.kernel)."""

def atomic_cas(tensor, coord, cmp, val) -> Any:
    """cute.arch.atomic_cas(tensor, coord, cmp, val). Kernel code only (@cute.kernel)."""

def shuffle_sync(value, offset, mask=..., mask_and_clamp=...) -> Any:
    """cute.arch.shuffle_sync(value, offset, mask=0xFFFFFFFF, mask_and_clamp=31). Kernel code only (@cute.kernel)."""

def shuffle_sync_up(value, offset, mask=..., mask_and_clamp=...) -> Any:
    """cute.arch.shuffle_sync_up(value, offset, mask=0xFFFFFFFF, mask_and_clamp=0). Kernel code only (@cute.kernel)."""

def shuffle_sync_down(value, offset, mask=..., mask_and_clamp=...) -> Any:
    """cute.arch.shuffle_sync_down(value, offset, mask=0xFFFFFFFF, mask_and_clamp=31). Kernel code only (@cute.kernel)."""

def shuffle_sync_bfly(value, offset, mask=..., mask_and_clamp=...) -> Any:
    """cute.arch.shuffle_sync_bfly(value, offset, mask=0xFFFFFFFF, mask_and_clamp=31). Kernel code only (@cute.kernel)."""

def vote_ballot_sync(pred, mask=...) -> Any:
    """cute.arch.vote_ballot_sync(pred, mask=0xFFFFFFFF). Kernel code only (@cute.kernel)."""

def vote_any_sync(pred, mask=...) -> Any:
    """cute.arch.vote_any_sync(pred, mask=0xFFFFFFFF). Kernel code only (@cute.kernel)."""

def vote_all_sync(pred, mask=...) -> Any:
    """cute.arch.vote_all_sync(pred, mask=0xFFFFFFFF). Kernel code only (@cute.kernel)."""

def warp_redux_sync(value, kind, mask_and_clamp=..., *, abs=..., nan=...) -> Any:
    """cute.arch.warp_redux_sync(value, kind, mask_and_clamp=0xFFFFFFFF, *, abs=None, nan=None). Kernel code only (@cute.kernel)."""

def barrier(*, barrier_id=..., number_of_threads=...) -> Any:
    """cute.arch.barrier(*, barrier_id=None, number_of_threads=None). Kernel code only (@cute.kernel)."""

def fence_acq_rel_cta() -> Any:
    """cute.arch.fence_acq_rel_cta(). Kernel code only (@cute.kernel)."""

def fence_acq_rel_gpu() -> Any:
    """cute.arch.fence_acq_rel_gpu(). Kernel code only (@cute.kernel)."""

def fence_acq_rel_sys() -> Any:
    """cute.arch.fence_acq_rel_sys(). Kernel code only (@cute.kernel)."""

def cp_async_commit_group() -> Any:
    """cute.arch.cp_async_commit_group(). Kernel code only (@cute.kernel)."""

def cp_async_wait_group(n) -> Any:
    """cute.arch.cp_async_wait_group(n). Kernel code only (@cute.kernel)."""

class MmaUniversalOp(_Value):
    """cute.nvgpu.MmaUniversalOp(abacc_dtype=None)."""

class MmaF16BF16Op(_Value):
    """cute.nvgpu.warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)."""

class MmaTF32Op(_Value):
    """cute.nvgpu.warp.MmaTF32Op(shape_mnk)."""

class MmaI8Op(_Value):
    """cute.nvgpu.warp.MmaI8Op(ab_dtype, acc_dtype, shape_mnk)."""

def make_mma_atom(op) -> Any:
    """cute.make_mma_atom(op)."""

def make_tiled_mma(op_or_atom, atom_layout_mnk=..., permutation_mnk=...) -> Any:
    """cute.make_tiled_mma(op_or_atom, atom_layout_mnk=None, permutation_mnk=None)."""

def gemm(atom, d, a, b, c) -> Any:
    """cute.gemm(atom, d, a, b, c). Kernel code only (@cute.kernel)."""

class CopyG2SOp(_Value):
    """cute.nvgpu.cpasync.CopyG2SOp(cache_mode=None)."""

def mbarrier_init(mbar_ptr, index, cnt) -> Any:
    """cute.arch.mbarrier_init(mbar_ptr, index, cnt). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def mbarrier_init_fence() -> Any:
    """cute.arch.mbarrier_init_fence(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def mbarrier_arrive(mbar_ptr, index, peer_cta_rank_in_cluster=...) -> Any:
    """cute.arch.mbarrier_arrive(mbar_ptr, index, peer_cta_rank_in_cluster=None). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def mbarrier_arrive_and_expect_tx(mbar_ptr, index, bytes) -> Any:
    """cute.arch.mbarrier_arrive_and_expect_tx(mbar_ptr, index, bytes). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def mbarrier_wait(mbar_ptr, index, phase) -> Any:
    """cute.arch.mbarrier_wait(mbar_ptr, index, phase). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def fence_proxy_async() -> Any:
    """cute.arch.fence_proxy_async(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def warpgroup_reg_alloc(reg_count) -> Any:
    """cute.arch.warpgroup_reg_alloc(reg_count). Kernel code only (@cute.kernel). Needs sm_90a."""

def warpgroup_reg_dealloc(reg_count) -> Any:
    """cute.arch.warpgroup_reg_dealloc(reg_count). Kernel code only (@cute.kernel). Needs sm_90a."""

def elect_one() -> Any:
    """cute.arch.elect_one(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def make_warp_uniform(value) -> Any:
    """cute.arch.make_warp_uniform(value). Kernel code only (@cute.kernel)."""

class CopyBulkTensorTileG2SOp(_Value):
    """cute.nvgpu.cpasync.CopyBulkTensorTileG2SOp()."""

def make_tiled_tma_atom(op, gmem_tensor, smem_layout, cta_tiler, num_multicast=...) -> Any:
    """cute.nvgpu.cpasync.make_tiled_tma_atom(op, gmem_tensor, smem_layout, cta_tiler, num_multicast=1). Host code only (@cute.jit). Needs sm_90 or newer."""

class WarpgroupMmaF16BF16Op(_Value):
    """cute.nvgpu.warpgroup.MmaF16BF16Op(ab_dtype, acc_dtype, instruction_shape, a_src=None)."""

class WarpgroupMmaF8Op(_Value):
    """cute.nvgpu.warpgroup.MmaF8Op(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src=None)."""

def warpgroup_fence() -> Any:
    """cute.nvgpu.warpgroup.fence(). Kernel code only (@cute.kernel). Needs sm_90a."""

def warpgroup_commit_group() -> Any:
    """cute.nvgpu.warpgroup.commit_group(). Kernel code only (@cute.kernel). Needs sm_90a."""

def warpgroup_wait_group(group) -> Any:
    """cute.nvgpu.warpgroup.wait_group(group). Kernel code only (@cute.kernel). Needs sm_90a."""

class CopyBulkTensorTileS2GOp(_Value):
    """cute.nvgpu.cpasync.CopyBulkTensorTileS2GOp()."""

class CopyReduceBulkTensorTileS2GOp(_Value):
    """cute.nvgpu.cpasync.CopyReduceBulkTensorTileS2GOp()."""

def cp_async_bulk_commit_group() -> Any:
    """cute.arch.cp_async_bulk_commit_group(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cp_async_bulk_wait_group(group, *, read=...) -> Any:
    """cute.arch.cp_async_bulk_wait_group(group, *, read=None). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def get_device_multiprocessor_count() -> Any:
    """cutlass.utils.get_device_multiprocessor_count(). Host code only (@cute.jit)."""

def get_max_active_clusters(cluster_size) -> Any:
    """cutlass.utils.get_max_active_clusters(cluster_size). Host code only (@cute.jit)."""

def prefetch_descriptor(tma_atom) -> Any:
    """cute.nvgpu.cpasync.prefetch_descriptor(tma_atom). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cluster_idx() -> Any:
    """cute.arch.cluster_idx(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cluster_dim() -> Any:
    """cute.arch.cluster_dim(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def block_in_cluster_idx() -> Any:
    """cute.arch.block_in_cluster_idx(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def block_in_cluster_dim() -> Any:
    """cute.arch.block_in_cluster_dim(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def block_idx_in_cluster() -> Any:
    """cute.arch.block_idx_in_cluster(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cluster_arrive(*, aligned=...) -> Any:
    """cute.arch.cluster_arrive(*, aligned=None). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cluster_arrive_relaxed(*, aligned=...) -> Any:
    """cute.arch.cluster_arrive_relaxed(*, aligned=None). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def cluster_wait() -> Any:
    """cute.arch.cluster_wait(). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

class CopyBulkTensorTileG2SMulticastOp(_Value):
    """cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp()."""

class LdMatrix8x8x16bOp(_Value):
    """cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=1, unpack_bits=None)."""

def make_tiled_copy_A(atom, tiled_mma) -> Any:
    """cute.make_tiled_copy_A(atom, tiled_mma)."""

def make_tiled_copy_B(atom, tiled_mma) -> Any:
    """cute.make_tiled_copy_B(atom, tiled_mma)."""

class StMatrix8x8x16bOp(_Value):
    """cute.nvgpu.warp.StMatrix8x8x16bOp(transpose=False, num_matrices=1, unpack_bits=None). Needs sm_90 or newer."""

def make_tiled_copy_C(atom, tiled_mma) -> Any:
    """cute.make_tiled_copy_C(atom, tiled_mma)."""

class Layout(_Value):
    """cute.Layout(*args, **kwargs)."""

    def get_flat_coord(self, index) -> Any:
        """Layout.get_flat_coord(index)."""

    def get_hier_coord(self, index) -> Any:
        """Layout.get_hier_coord(index)."""

class ComposedLayout(_Value):
    """cute.ComposedLayout(*args, **kwargs)."""

class Swizzle(_Value):
    """cute.Swizzle(*args, **kwargs)."""

class Shape(_Value):
    """cute.Shape(*args, **kwargs)."""

class Stride(_Value):
    """cute.Stride(*args, **kwargs)."""

class Coord(_Value):
    """cute.Coord(*args, **kwargs)."""

class IntTuple(_Value):
    """cute.IntTuple(*args, **kwargs)."""

class Tile(_Value):
    """cute.Tile(*args, **kwargs)."""

class Tiler(_Value):
    """cute.Tiler(*args, **kwargs)."""

class Pointer(_Value):
    """cute.Pointer(*args, **kwargs)."""

    def align(self, min_align) -> Any:
        """Pointer.align(min_align)."""

class CopyAtom(_Value):
    """cute.CopyAtom(*args, **kwargs)."""

class MmaAtom(_Value):
    """cute.MmaAtom(*args, **kwargs)."""

class TiledCopy(_Value):
    """cute.TiledCopy(*args, **kwargs)."""

    def get_slice(self, thr_idx) -> Any:
        """TiledCopy.get_slice(thr_idx)."""

    def partition_S(self, src) -> Any:
        """TiledCopy.partition_S(src)."""

    def partition_D(self, dst) -> Any:
        """TiledCopy.partition_D(dst)."""

    def retile(self, src) -> Any:
        """TiledCopy.retile(src)."""

class TiledMma(_Value):
    """cute.TiledMma(*args, **kwargs)."""

    def get_slice(self, thr_idx) -> Any:
        """TiledMma.get_slice(thr_idx)."""

    def partition_A(self, input_mk) -> Any:
        """TiledMma.partition_A(input_mk)."""

    def partition_B(self, input_nk) -> Any:
        """TiledMma.partition_B(input_nk)."""

    def partition_C(self, input_mn) -> Any:
        """TiledMma.partition_C(input_mn)."""

    def make_fragment_A(self, input) -> Any:
        """TiledMma.make_fragment_A(input)."""

    def make_fragment_B(self, input) -> Any:
        """TiledMma.make_fragment_B(input)."""

    def make_fragment_C(self, input) -> Any:
        """TiledMma.make_fragment_C(input)."""

class ThrCopy(_Value):
    """cute.ThrCopy(*args, **kwargs)."""

class ThrMma(_Value):
    """cute.ThrMma(*args, **kwargs)."""

class TensorSSA(_Value):
    """cute.TensorSSA(*args, **kwargs)."""

    def to(self, dtype) -> Any:
        """TensorSSA.to(dtype)."""

    def reduce(self, op, init_val, reduction_profile) -> Any:
        """TensorSSA.reduce(op, init_val, reduction_profile)."""

class Numeric(_Value):
    """cutlass.Numeric(*args, **kwargs)."""

    def to(self, dtype) -> Any:
        """Numeric.to(dtype)."""

class LayoutEnum(_Value):
    """cutlass.utils.LayoutEnum(value)."""

    def from_tensor(self, tensor) -> Any:
        """LayoutEnum.from_tensor(tensor)."""

    def is_k_major_a(self) -> Any:
        """LayoutEnum.is_k_major_a()."""

    def is_m_major_a(self) -> Any:
        """LayoutEnum.is_m_major_a()."""

    def is_n_major_b(self) -> Any:
        """LayoutEnum.is_n_major_b()."""

    def is_k_major_b(self) -> Any:
        """LayoutEnum.is_k_major_b()."""

    def is_n_major_c(self) -> Any:
        """LayoutEnum.is_n_major_c()."""

    def is_m_major_c(self) -> Any:
        """LayoutEnum.is_m_major_c()."""

    def sm90_mma_major_mode(self) -> Any:
        """LayoutEnum.sm90_mma_major_mode()."""

class LoadCacheMode(_Value):
    """cute.nvgpu.LoadCacheMode(value)."""

class AddressSpace(_Value):
    """cute.AddressSpace(value)."""

class ReductionOp(_Value):
    """cute.ReductionOp(value)."""

def cutlass_range(*args, unroll=..., unroll_full=..., prefetch_stages=..., vectorize=..., at_least_once=...) -> Any:
    """cutlass.range(*args, unroll=0, unroll_full=False, prefetch_stages=None, vectorize=None, at_least_once=False). Inside kernels and host functions, not at module level."""

def cutlass_min(*args) -> Any:
    """cutlass.min(*args)."""

def cutlass_max(*args) -> Any:
    """cutlass.max(*args)."""

def ceil_div(input, tiler) -> Any:
    """cute.ceil_div(input, tiler)."""

def product_each(a) -> Any:
    """cute.product_each(a)."""

def repeat_like(x, target) -> Any:
    """cute.repeat_like(x, target)."""

def slice_(src, coord) -> Any:
    """cute.slice_(src, coord)."""

def shape(input, *, mode=...) -> Any:
    """cute.shape(input, *, mode=None)."""

def make_layout_image_mask(lay, coord, mode) -> Any:
    """cute.make_layout_image_mask(lay, coord, mode)."""

def make_rmem_tensor_like(src, dtype=...) -> Any:
    """cute.make_rmem_tensor_like(src, dtype=None). Kernel code only (@cute.kernel)."""

def domain_offset(coord, tensor) -> Any:
    """cute.domain_offset(coord, tensor)."""

def autovec_copy(src, dst, *, l1c_evict_priority=...) -> Any:
    """cute.autovec_copy(src, dst, *, l1c_evict_priority=None). Kernel code only (@cute.kernel)."""

def where(cond, x, y) -> Any:
    """cute.where(cond, x, y)."""

def fence_proxy(kind, *, space=..., use_intrinsic=...) -> Any:
    """cute.arch.fence_proxy(kind, *, space=None, use_intrinsic=None). Kernel code only (@cute.kernel). Needs sm_90 or newer."""

def make_tensor(iterator, layout) -> Any:
    """cute.make_tensor(iterator, layout)."""

def get_smem_capacity_in_bytes(compute_capability=...) -> Any:
    """cutlass.utils.get_smem_capacity_in_bytes(compute_capability=None)."""

class Float(_Value):
    """cutlass.Float(*args, **kwargs)."""

class Integer(_Value):
    """cutlass.Integer(*args, **kwargs)."""

class OperandMajorMode(_Value):
    """cute.nvgpu.warpgroup.OperandMajorMode(value)."""

class SmemLayoutAtomKind(_Value):
    """cute.nvgpu.warpgroup.SmemLayoutAtomKind(value)."""

def make_smem_layout_atom(kind, element_type) -> Any:
    """cute.nvgpu.warpgroup.make_smem_layout_atom(kind, element_type)."""

def struct(cls) -> Any:
    """cute.struct(cls)."""

class BFloat16(_Value):
    """A scalar type: annotates values, and BFloat16(x) converts x."""

class Boolean(_Value):
    """A scalar type: annotates values, and Boolean(x) converts x."""

class Float16(_Value):
    """A scalar type: annotates values, and Float16(x) converts x."""

class Float32(_Value):
    """A scalar type: annotates values, and Float32(x) converts x."""

class Float64(_Value):
    """A scalar type: annotates values, and Float64(x) converts x."""

class Float8E4M3FN(_Value):
    """A scalar type: annotates values, and Float8E4M3FN(x) converts x."""

class Float8E5M2(_Value):
    """A scalar type: annotates values, and Float8E5M2(x) converts x."""

class Int16(_Value):
    """A scalar type: annotates values, and Int16(x) converts x."""

class Int32(_Value):
    """A scalar type: annotates values, and Int32(x) converts x."""

class Int64(_Value):
    """A scalar type: annotates values, and Int64(x) converts x."""

class Int8(_Value):
    """A scalar type: annotates values, and Int8(x) converts x."""

class TFloat32(_Value):
    """A scalar type: annotates values, and TFloat32(x) converts x."""

class Uint16(_Value):
    """A scalar type: annotates values, and Uint16(x) converts x."""

class Uint32(_Value):
    """A scalar type: annotates values, and Uint32(x) converts x."""

class Uint64(_Value):
    """A scalar type: annotates values, and Uint64(x) converts x."""

class Uint8(_Value):
    """A scalar type: annotates values, and Uint8(x) converts x."""

class BoundKernel(_Value):
    """A BoundKernel value."""

    def set_name_prefix(self, prefix) -> Any:
        """BoundKernel.set_name_prefix(prefix)."""

class Kernel(_Value):
    """A @cute.kernel applied to its arguments: launch it from a @cute.jit host function."""

    def set_name_prefix(self, prefix) -> Any:
        """Kernel.set_name_prefix(prefix)."""

    def launch(self, *, grid=..., block=..., smem=..., stream=..., cluster=..., **kwargs) -> Any:
        """Kernel.launch(*, grid=None, block=None, smem=0, stream=None, cluster=None, **kwargs). Host code only (@cute.jit)."""

class MemRange(_Value):
    """A MemRange value."""

    def get_tensor(self, layout, swizzle=...) -> Any:
        """MemRange.get_tensor(layout, swizzle=None). Kernel code only (@cute.kernel)."""

    def data_ptr(self) -> Any:
        """MemRange.data_ptr(). Kernel code only (@cute.kernel)."""
