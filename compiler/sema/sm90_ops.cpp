// Hopper (sm_90 / sm_90a): the handlers of builtins.def's sm_90 rows
// (mbarriers, setmaxnreg, elect.sync, the async-proxy fence, cp.async.bulk
// and wgmma groups, the TMA and wgmma atoms, the host's device queries), TMA
// tile copies (cp.async.bulk.tensor with host-encoded tensor maps) and
// warpgroup MMA (wgmma.mma_async with shared-memory descriptors derived from
// the swizzled shared-memory layout). The rows check the context (kernel or
// host function) and the architecture; the handlers check the rest.
//
// mbarriers are named as atomics are, by (tensor, coordinate): CuTe DSL's
// mbar_ptr is here two parameters, mbar_ptr (an Int64 shared-memory tensor)
// and index, followed by CuTe DSL's own (cnt, bytes, phase, ...).
//
// TMA follows CuTe DSL: make_tiled_tma_atom(op, gmem_tensor, smem_layout,
// cta_tiler) in a @cute.jit function returns the atom and a coordinate tensor
// over the global tensor (CuTe's TMA tensor: identity strides 1@k); tiles of
// it name the box to load: cute.copy(atom, coord_tile, smem_tile,
// tma_bar_ptr=(barriers, i)). The tensor map itself is encoded by the host
// function before the launch (tileslc::make_tma_descriptor) and passed as a
// `const __grid_constant__` kernel parameter.
//
// wgmma follows CuTe's SM90 GMMA atoms (rows of atom_traits.cpp) with operands in shared memory,
// K-major: A's thread-value layout is (128, (64, 16)):(0, (1, 64)) (every
// thread of the warpgroup names the whole tile: it is a descriptor), B's
// (128, (N, 16)):(0, (1, N)), C's the ISA's m64nNk16 accumulator fragment
// ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) (CuTe's CLayout_64xN). With
// a_src=RMEM (the RS form, 16-bit or Float8 inputs) A is each thread's register
// fragment instead: four 32-bit registers per instruction in the ISA's A
// fragment order, filled by any copy from partition_A.
#include <algorithm>

#include "sema/atom_traits.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

bool is_sm90(const std::string& arch) { return arch.rfind("sm_90", 0) == 0; }

/// Bytes per row of the canonical swizzle atoms, from the element-level
/// Swizzle<B, M, S>: M is log2 of 16 bytes in elements and S = 3, so a row of
/// the atom is 16 << B bytes (Swizzle<3,4,3> in bytes is the 128-byte pattern
/// of TMA and wgmma). 0 when the swizzle is not one of them.
int64_t swizzle_span_bytes(const layout::Swizzle& sw, int64_t elem_bytes) {
  int64_t m = 0;
  for (int64_t e = 16 / elem_bytes; e > 1; e >>= 1) ++m;
  if (sw.bits < 1 || sw.bits > 3 || sw.base != m || sw.shift != 3) return 0;
  return int64_t{16} << sw.bits;
}

/// Parameter i as an Int32 operand; E0404 unless an integer.
ir::ExprRef integer_arg(Evaluator& ev, BuiltinCall& c, size_t i, const std::string& what) {
  if (!c[i].is_integer()) ev.fail(diag::Kind::TypeMismatch, c.range(i), what + " must be an integer, found " + describe(c[i]));
  return ev.to_expr_as(c[i], ScalarType::Int32, c.range(i));
}

/// The mbarrier that parameters 0 and 1 (mbar_ptr, index) name.
ir::ExprRef barrier_arg(Evaluator& ev, BuiltinCall& c) {
  return ev.barrier_address(Value::tuple({c[0], c[1]}), c.range(0), c.name());
}

/// wgmma reads and writes the accumulators asynchronously: at each fence and
/// wait, the compiler must not move their registers across it.
void wgmma_operand_fences(Evaluator& ev, source::SourceRange r) {
  for (const auto& [name, count] : ev.fn_->wgmma_accumulators)
    ev.emit_effect(ir::intrinsic(ir::Intrinsic::WgmmaFenceOperands, {},
                                 {ir::address_of(name, ir::int_const(0, ScalarType::Int64), ScalarType::Float32),
                                  ir::int_const(count, ScalarType::Int32)},
                                 ScalarType::Int32),
                   r);
}

}  // namespace

void Evaluator::require_arch(const char* what, bool needs_90a, source::SourceRange r) {
  if (is_sm90(program_.arch) && (!needs_90a || program_.arch == "sm_90a")) return;
  auto& d = error(diag::Kind::ArchTooOld, r, std::string(what) + " needs " + (needs_90a ? "sm_90a" : "sm_90 or sm_90a") +
                                                 ", but this file is compiled for " + program_.arch);
  d.help(std::string("compile with --arch ") + (needs_90a ? "sm_90a" : "sm_90a (or sm_90)"));
  abort_entry();
}

ir::ExprRef Evaluator::barrier_address(const Value& bar, source::SourceRange r, const std::string& fn) {
  // (barriers, coordinate): one 64-bit mbarrier word in shared memory.
  if (bar.kind() != Value::Kind::Tuple || bar.elts().size() != 2 || bar.elts()[0].kind() != Value::Kind::Tensor)
    fail(diag::Kind::TypeMismatch, r, fn + " needs an mbarrier as (tensor, coordinate), found " + describe(bar));
  const TensorValue& t = *bar.elts()[0].tensor();
  if (t.space != MemSpace::Smem || (t.dtype != ScalarType::Int64 && t.dtype != ScalarType::Uint64)) {
    auto& d = error(diag::Kind::BadCopyAtom, r, fn + " needs an mbarrier: an Int64 element of a shared-memory tensor, found a " +
                                                    std::string(ir::type_name(t.dtype)) + " tensor in " +
                                                    (t.space == MemSpace::Smem ? "shared" : t.space == MemSpace::Gmem ? "global" : "register") + " memory");
    d.help("bars = smem.allocate_tensor(cutlass.Int64, cute.make_layout((STAGES,)), 8)");
    abort_entry();
  }
  fn_->stored_ptrs[t.ptr] += 1;
  return ir::address_of(t.ptr, tensor_offset(t, bar.elts()[1], r), t.dtype);
}

// ---- mbarriers, fences, groups, setmaxnreg, elect.sync ---------------------

/// mbarrier_init(mbar_ptr, index, cnt), mbarrier_arrive_and_expect_tx(mbar_ptr,
/// index, bytes), mbarrier_wait(mbar_ptr, index, phase): the barrier and one
/// integer operand.
Value sm90_mbarrier_op(Evaluator& ev, BuiltinCall& c) {
  const bool init = c.id() == BuiltinId::MbarrierInit, expect_tx = c.id() == BuiltinId::MbarrierArriveExpectTx;
  const ir::Intrinsic device = init        ? ir::Intrinsic::MbarrierInit
                               : expect_tx ? ir::Intrinsic::MbarrierArriveExpectTx
                                           : ir::Intrinsic::MbarrierWait;
  const char* operand = init ? "the arrival count" : expect_tx ? "the transaction bytes" : "the phase parity";
  std::vector<ir::ExprRef> ops{barrier_arg(ev, c)};
  ops.push_back(integer_arg(ev, c, 2, operand));
  ev.emit_effect(ir::intrinsic(device, {}, std::move(ops), ScalarType::Int32), c.site.range);
  return Value::none();
}

/// mbarrier_arrive(mbar_ptr, index, peer_cta_rank_in_cluster=None): the cluster family's
/// Evaluator::mbarrier_arrive (a peer rank arrives on another block's barrier).
Value sm90_mbarrier_arrive(Evaluator& ev, BuiltinCall& c) { return ev.mbarrier_arrive(c); }

/// cpasync.prefetch_descriptor(tma_atom): prefetch.tensormap of the atom's tensor map, the
/// kernel's TMA descriptor parameter (CuTe DSL issues it once per CTA before the first load).
Value sm90_prefetch_descriptor(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::TmaAtom)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), c.name() + "() takes a TMA atom (from make_tiled_tma_atom), found " + describe(c[0]));
  const TmaAtom& atom = *c[0].tma();
  if (atom.param.empty())
    ev.fail(diag::Kind::UnsupportedOperation, c.range(0), "this TMA atom was not passed to the kernel as an argument");
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::PrefetchTensormap, {}, {ir::address_of(atom.param, nullptr, ScalarType::Uint8)}, ScalarType::Int32),
                 c.site.range);
  return Value::none();
}

/// The builtins without arguments that are one instruction each.
Value sm90_instruction(Evaluator& ev, BuiltinCall& c) {
  ir::Intrinsic device;
  switch (c.id()) {
    case BuiltinId::MbarrierInitFence: device = ir::Intrinsic::MbarrierInitFence; break;
    case BuiltinId::FenceProxyAsync: device = ir::Intrinsic::FenceProxyAsync; break;
    case BuiltinId::WarpgroupFence:
      wgmma_operand_fences(ev, c.site.range);
      device = ir::Intrinsic::WgmmaFence;
      break;
    case BuiltinId::WarpgroupCommitGroup: device = ir::Intrinsic::WgmmaCommitGroup; break;
    case BuiltinId::BulkCommitGroup: device = ir::Intrinsic::BulkCommitGroup; break;
    default: ev.fail(diag::Kind::NotCallable, c.site.range, c.name() + "() is not an sm_90 instruction");
  }
  ev.emit_effect(ir::intrinsic(device, {}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

/// warpgroup.wait_group(group) and cp_async_bulk_wait_group(group, *, read=None):
/// wait until at most `group` committed groups are pending. cp.async.bulk
/// groups are waited for with .read (until they have read their shared
/// memory, which may then be reused), the only form here.
Value sm90_wait_group(Evaluator& ev, BuiltinCall& c) {
  const bool wgmma = c.id() == BuiltinId::WarpgroupWaitGroup;
  int64_t n = ev.require_static_int(c[0], c.range(0), "the number of pending groups");
  if (n < 0 || n > 7) ev.fail(diag::Kind::BadLaunch, c.range(0), c.name() + "() takes 0 to 7 pending groups, found " + std::to_string(n));
  if (!wgmma && c.has(1)) {
    const Value& read = ev.require_static(c[1], c.range(1), "read");
    if (read.kind() != Value::Kind::Bool)
      ev.fail(diag::Kind::TypeMismatch, c.range(1), "read must be True or False, found " + describe(read));
    if (!read.i()) {
      auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(1), c.name() + "() supports read=True only, found read=False");
      d.note("tileslc emits cp.async.bulk.wait_group.read, which waits until the groups have read their shared memory, "
             "not until their writes are complete");
      d.help("drop read=, or pass read=True");
      ev.abort_entry();
    }
  }
  // The accumulators are fenced on both sides of a wgmma wait: after it, so that no read of them
  // moves above it; before it, so that what the program computed into them before the wait (a
  // softmax of S while P V is in flight) is not moved below it by the C++ compiler. The fences
  // are empty asm statements: ptxas schedules the PTX on its own, and may still move a wait up to
  // the first instruction that needs it (docs/attention.md, "Where the time goes").
  if (wgmma) wgmma_operand_fences(ev, c.site.range);
  ev.emit_effect(ir::intrinsic(wgmma ? ir::Intrinsic::WgmmaWaitGroup : ir::Intrinsic::BulkWaitGroupRead, {n}, {},
                               ScalarType::Int32),
                 c.site.range);
  if (wgmma) wgmma_operand_fences(ev, c.site.range);
  return Value::none();
}

/// warpgroup_reg_alloc(reg_count) / warpgroup_reg_dealloc(reg_count): setmaxnreg.inc / .dec.
Value sm90_setmaxnreg(Evaluator& ev, BuiltinCall& c) {
  const ir::Intrinsic reg =
      c.id() == BuiltinId::WarpgroupRegAlloc ? ir::Intrinsic::SetmaxnregInc : ir::Intrinsic::SetmaxnregDec;
  int64_t n = ev.require_static_int(c[0], c.range(0), "the register count");
  // The counts the runtime has an instruction for: the intrinsic's domain.
  // PTX ISA, "setmaxnreg": a multiple of 8 from 24 to 256 per thread (the intrinsic's domain).
  if (!ir::immediate_index(reg, 0, std::to_string(n))) {
    ev.fail(diag::Kind::BadLaunch, c.range(0),
            c.name() + "(" + std::to_string(n) + "): the register count must be a multiple of 8 from 24 to 256");
  }
  ev.emit_effect(ir::intrinsic(reg, {n}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

Value sm90_elect_one(Evaluator& ev, BuiltinCall& c) {
  return ev.materialize(Value::dyn(ir::intrinsic(ir::Intrinsic::ElectOne, {}, {}, ScalarType::Boolean), c.site.range),
                        "elected", c.site.range);
}

Value sm90_make_warp_uniform(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() == Value::Kind::Int) return c[0];
  return Value::dyn(
      ir::intrinsic(ir::Intrinsic::WarpUniform, {}, {integer_arg(ev, c, 0, "the value")}, ScalarType::Int32),
      c.site.range);
}

// ---- host queries ------------------------------------------------------------

Value sm90_multiprocessor_count(Evaluator& ev, BuiltinCall& c) {
  return ev.materialize(
      Value::dyn(ir::intrinsic(ir::Intrinsic::DeviceMultiprocessorCount, {}, {}, ScalarType::Int64), c.site.range),
      "sm_count", c.site.range);
}

/// CuTe DSL: cutlass.utils.HardwareInfo().get_max_active_clusters(cluster_size).
Value sm90_max_active_clusters(Evaluator& ev, BuiltinCall& c) {
  const Value& n = c[0];
  if (n.kind() == Value::Kind::Int && (n.i() < 1 || n.i() > 16)) {
    auto& d = ev.error(diag::Kind::ClusterMismatch, c.range(0), "get_max_active_clusters(" + std::to_string(n.i()) + "): a cluster has 1 to 16 blocks");
    d.note("8 is the portable maximum; 16 needs the non-portable cluster size attribute (sm_90)");
    ev.abort_entry();
  }
  if (!n.is_integer())
    ev.fail(diag::Kind::TypeMismatch, c.range(0), "get_max_active_clusters() takes the cluster's size in blocks, an integer, found " + describe(n));
  return ev.materialize(Value::dyn(ir::intrinsic(ir::Intrinsic::MaxActiveClusters, {},
                                                 {ev.to_expr_as(n, ScalarType::Int64, c.range(0))}, ScalarType::Int64),
                                   c.site.range),
                        "max_clusters", c.site.range);
}

// ---- TMA atoms ---------------------------------------------------------------

/// CopyBulkTensorTileG2SOp(), CopyBulkTensorTileS2GOp(), CopyReduceBulkTensorTileS2GOp():
/// markers that make_tiled_tma_atom reads.
Value sm90_tma_op(Evaluator&, BuiltinCall& c) { return Value::op_marker(c.id(), c.info.export_name); }

namespace {

/// The mode of stride 1 among a global tensor's first two (the tiled ones; a rank-3 tensor's
/// third is its batch): the tensor map's innermost dimension.
int contiguous_mode(Evaluator& ev, const TensorValue& g, source::SourceRange at) {
  int inner = -1;
  for (int m = 0; m < 2; ++m) {
    const auto& s = g.layout.stride[m];
    if (s.is_leaf() && s.value().has_value() && s.value().value() == 1) inner = m;
  }
  if (inner < 0) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, at, std::string("TMA needs ") + (g.layout.rank() > 2 ? "mode 0 or 1" : "one mode") +
                                                        " of stride 1, and this tensor's strides are " + ev.shape_text(g.layout.stride));
    d.help(g.layout.rank() > 2 ? "declare the contiguous mode in the annotation: cute.Tensor[cutlass.BFloat16, (M, K, L), (K, 1, None), 16]"
                               : "declare the contiguous mode in the annotation: cute.Tensor[cutlass.BFloat16, (M, K), (K, 1), 16]");
    ev.abort_entry();
  }
  return inner;
}

/// The (t0, t1) tile stored compactly with mode `inner` innermost: the shared-memory layout a
/// TMA copy writes (or reads) row by row.
layout::Layout compact_tile_layout(int inner, int64_t t0, int64_t t1) {
  return inner == 1 ? layout::parse_layout("(" + std::to_string(t0) + "," + std::to_string(t1) + "):(" + std::to_string(t1) + ",1)")
                    : layout::parse_layout("(" + std::to_string(t0) + "," + std::to_string(t1) + "):(1," + std::to_string(t0) + ")");
}

/// make_tiled_tma_atom's num_multicast=n (parameter 4): the box's `outer` rows (of `row_bytes`
/// each) are split among n blocks, as CuTe's make_tma_copy divides the box's outermost extent,
/// each block loading one slice into the same offset of every block of its mask. E0708 (at the
/// argument) unless 1 <= n <= 16, n > 1 only with the multicast op, n divides `outer`, and every
/// slice starts where a TMA destination may: on the swizzle's period (8 rows of `swizzle_bytes`)
/// or on 128 bytes without a swizzle.
void check_num_multicast(Evaluator& ev, BuiltinCall& c, bool multicast_op, int64_t n, int64_t outer, int64_t row_bytes, int64_t swizzle_bytes) {
  const std::string fn = c.name(), ns = std::to_string(n);
  if (n < 1 || n > 16) ev.fail(diag::Kind::BadCopyAtom, c.range(4), fn + "(): num_multicast is 1 to 16 blocks of a cluster, found " + ns);
  if (n == 1) return;
  if (!multicast_op) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(4), fn + "(): num_multicast=" + ns + " needs a multicast load op, found " + describe(c[0]));
    d.help("make the atom with cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp()");
    ev.abort_entry();
  }
  const int64_t need = swizzle_bytes ? swizzle_bytes * 8 : 128;
  if (outer % n != 0 || outer / n * row_bytes % need != 0) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(4), fn + "(): num_multicast=" + ns + " splits the box's " + std::to_string(outer) +
                                                               " rows of " + std::to_string(row_bytes) + " bytes among " + ns +
                                                               " blocks, and " + (outer % n != 0 ? ns + " does not divide " + std::to_string(outer)
                                                                                                  : "a slice of " + std::to_string(outer / n) + " rows is not a multiple of " + std::to_string(need) + " bytes"));
    d.note("each block loads rows [i * " + std::to_string(outer) + " / " + ns + ", (i + 1) * " + std::to_string(outer) + " / " + ns +
           ") and multicasts them; a slice must start on " + std::to_string(need) + " bytes (" +
           (swizzle_bytes ? "the swizzle's period" : "a TMA destination's alignment") + ")");
    ev.abort_entry();
  }
}

/// The TMA tile's shared-memory layout `sl` (under `sw`, if swizzled) must be
/// the (t0, t1) tile stored compactly with the global tensor's contiguous mode
/// `inner` innermost, and the swizzle one the copy engine writes for rows of
/// that mode. Returns the swizzle's row bytes, 0 without a swizzle.
int64_t check_tma_smem_layout(Evaluator& ev, source::SourceRange at, const layout::Layout& sl, const std::optional<layout::Swizzle>& sw,
                              int inner, int64_t t0, int64_t t1, int64_t elem) {
  const int64_t box_inner = inner == 0 ? t0 : t1;
  layout::Layout want = compact_tile_layout(inner, t0, t1);
  if (!sl.identical(want)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, at, "the TMA tile must be stored compactly in shared memory with the global tensor's contiguous mode innermost: " +
                                                        want.to_string() + ", found " + sl.to_string());
    d.note("the copy engine writes the box row by row, " + std::to_string(box_inner) + " elements per row");
    ev.abort_entry();
  }
  if (!sw) return 0;
  int64_t swizzle_bytes = swizzle_span_bytes(*sw, elem);
  if (swizzle_bytes == 0 || swizzle_bytes != box_inner * elem) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, at, "this swizzle is not one the copy engine writes for rows of " +
                                                        std::to_string(box_inner * elem) + " bytes");
    d.note("TMA swizzles rows of 32, 64 or 128 bytes; for " + std::to_string(elem) + "-byte elements those are cute.make_swizzle(1|2|3, " +
           std::to_string(swizzle_bytes == 0 ? (elem == 2 ? 3 : elem == 4 ? 2 : elem == 1 ? 4 : 1) : sw->base) +
           ", 3) over rows of exactly that many bytes");
    ev.abort_entry();
  }
  return swizzle_bytes;
}

/// The view a TMA atom's tensor map covers when `g` is not its parameter's whole tensor (a
/// slice a[None, None, l] of a batched tensor, CuTe DSL's usual way to build a rank-2 atom):
/// host Int64 expressions (offset, shape0, shape1, stride0, stride1); empty for the parameter
/// itself. E0708 for a view with nested modes, which no rank-2 tensor map describes.
std::vector<ir::ExprRef> tma_view(Evaluator& ev, const TensorValue& g, source::SourceRange at) {
  auto whole = ev.fn_->host_tensor_layouts.find(g.host_index);
  if (!g.offset && whole != ev.fn_->host_tensor_layouts.end() && whole->second.identical(g.layout)) return {};
  if (g.layout.rank() != 2) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, at, "a TMA atom of a rank-" + std::to_string(g.layout.rank()) +
                                                        " tensor needs the whole tensor parameter, found a view with the layout " + g.layout.to_string());
    d.help("pass the parameter itself (its batch modes become the tensor map's), or slice it to rank 2: a[None, None, l]");
    ev.abort_entry();
  }
  auto i64 = [&](const layout::Int& x) { return ev.to_expr_as(ev.int_value(x, at), ScalarType::Int64, at); };
  std::vector<ir::ExprRef> view{g.offset ? ir::cast(g.offset, ScalarType::Int64) : ir::int_const(0, ScalarType::Int64)};
  for (const layout::IntTuple* t : {&g.layout.shape, &g.layout.stride}) {
    for (int m = 0; m < 2; ++m) {
      if (!(*t)[m].is_leaf()) {
        auto& d = ev.error(diag::Kind::BadCopyAtom, at, "a TMA atom's tensor must have flat modes, found the layout " + g.layout.to_string());
        d.help("slice or select the modes the tile covers: a[None, None, l]");
        ev.abort_entry();
      }
      view.push_back(i64((*t)[m].value()));
    }
  }
  return view;
}

}  // namespace

/// make_tiled_tma_atom(op, gmem_tensor, smem_layout, cta_tiler, num_multicast=1):
/// the atom and the TMA tensor, coordinates over the global tensor's shape. With
/// num_multicast=n > 1 (the multicast op only) each of n blocks loads 1/n of the tile along its
/// outer mode (check_num_multicast) and cpasync.tma_partition gives a block its slice.
Value sm90_make_tiled_tma_atom(Evaluator& ev, BuiltinCall& c) {
  const std::string fn = c.name();
  const Value& op = c[0];
  const bool multicast = op.is_op(BuiltinId::CopyBulkTensorTileG2SMulticastOp);
  const bool op_ok = op.is_op(BuiltinId::CopyBulkTensorTileG2SOp) || op.is_op(BuiltinId::CopyBulkTensorTileS2GOp) ||
                     op.is_op(BuiltinId::CopyReduceBulkTensorTileS2GOp) || multicast;
  if (!op_ok)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), fn + "() takes cute.nvgpu.cpasync.CopyBulkTensorTileG2SOp(), CopyBulkTensorTileG2SMulticastOp(), "
                                                      "CopyBulkTensorTileS2GOp() or CopyReduceBulkTensorTileS2GOp() first, found " + describe(op));
  if (c[1].kind() != Value::Kind::Tensor || c[1].tensor()->space != MemSpace::Gmem || c[1].tensor()->host_index < 0)
    ev.fail(diag::Kind::BadCopyAtom, c.range(1), fn + "() needs a global-memory tensor parameter of this function, found " + describe(c[1]));
  const TensorValue& g = *c[1].tensor();
  // Rank 3 is CuTe DSL's batched (M, K, L): cta_tiler tiles the first two modes, and the
  // tensor map's third dimension has box extent 1 (one tile of one batch per copy).
  // Rank 4 (loads only): two batch modes, as attention's (seqlen, head_dim, heads, batch).
  const bool load_op = op.is_op(BuiltinId::CopyBulkTensorTileG2SOp);
  if (g.layout.rank() != 2 && g.layout.rank() != 3 && !(g.layout.rank() == 4 && load_op))
    ev.fail(diag::Kind::BadCopyAtom, c.range(1), fn + "() supports rank-2 and rank-3 (batched) tensors here, and rank 4 for " +
                                                      "CopyBulkTensorTileG2SOp loads; found rank " + std::to_string(g.layout.rank()));
  for (size_t m = 0; m < g.layout.rank(); ++m)
    if (!g.layout.shape[m].is_leaf())
      ev.fail(diag::Kind::BadCopyAtom, c.range(1), fn + "() needs a tensor with flat modes, found the layout " + g.layout.to_string());
  const int inner = contiguous_mode(ev, g, c.range(1));
  // The shared-memory tile: a layout or swizzle o layout, compact with the same contiguous mode.
  layout::Layout sl;
  std::optional<layout::Swizzle> sw;
  if (c[2].kind() == Value::Kind::ComposedLayout) {
    sl = c[2].composed().layout;
    sw = c[2].composed().swizzle;
  } else {
    sl = ev.to_layout(c[2], c.range(2), "the shared-memory layout");
  }
  layout::IntTuple tiler = ev.to_int_tuple(c[3], c.range(3), "cta_tiler");
  auto dim = [&](const layout::IntTuple& t, int m) -> int64_t {
    if (!t.is_tuple() || t.elems().size() != 2 || !t[m].is_leaf() || !t[m].value().has_value()) return -1;
    return t[m].value().value();
  };
  const int64_t t0 = dim(tiler, 0), t1 = dim(tiler, 1);
  if (t0 <= 0 || t1 <= 0) ev.fail(diag::Kind::BadCopyAtom, c.range(3), "cta_tiler must be two static extents, found " + repr(c[3]));
  const int64_t elem = ir::bit_width(g.dtype) / 8;
  const int64_t box_inner = inner == 0 ? t0 : t1, box_outer = inner == 0 ? t1 : t0;
  const int64_t swizzle_bytes = check_tma_smem_layout(ev, c.range(2), sl, sw, inner, t0, t1, elem);
  if (box_inner > 256 || box_outer > 256 || box_inner * elem % 16 != 0) {
    ev.fail(diag::Kind::BadCopyAtom, c.range(3), "a TMA box is at most 256 elements per dimension with rows a multiple of 16 bytes; this one is " +
                                                     std::to_string(box_outer) + " x " + std::to_string(box_inner));
  }
  const int64_t num_multicast = ev.require_static_int(c[4], c.range(4), "num_multicast");
  check_num_multicast(ev, c, multicast, num_multicast, box_outer, box_inner * elem, swizzle_bytes);
  auto atom = std::make_shared<TmaAtom>();
  atom->dtype = g.dtype;
  atom->host_index = g.host_index;
  atom->inner_mode = inner;
  atom->rank = static_cast<int>(g.layout.rank());
  atom->tile[0] = t0;
  atom->tile[1] = t1;
  atom->swizzle = sw;
  atom->swizzle_bytes = swizzle_bytes;
  atom->multicast = multicast;
  atom->num_multicast = num_multicast;
  // One block's copy: the outer mode's 1/num_multicast slice, stored compactly as the tile is.
  atom->box[0] = inner == 0 ? t0 : t0 / num_multicast;
  atom->box[1] = inner == 1 ? t1 : t1 / num_multicast;
  atom->smem_layout = num_multicast == 1 ? sl : compact_tile_layout(inner, atom->box[0], atom->box[1]);
  atom->view = tma_view(ev, g, c.range(1));
  atom->direction = op.is_op(BuiltinId::CopyBulkTensorTileG2SOp) || multicast ? TmaAtom::Direction::Load
                    : op.is_op(BuiltinId::CopyBulkTensorTileS2GOp)           ? TmaAtom::Direction::Store
                                                                  : TmaAtom::Direction::ReduceAdd;
  if (atom->direction == TmaAtom::Direction::ReduceAdd && g.dtype != ScalarType::Float32 && g.dtype != ScalarType::Float16 &&
      g.dtype != ScalarType::BFloat16 && g.dtype != ScalarType::Int32 && g.dtype != ScalarType::Uint32)
    ev.fail(diag::Kind::BadCopyAtom, c.range(1),
            std::string("a TMA reduce-add has no ") + ir::type_name(g.dtype) + " form here (Float32, Float16, BFloat16, Int32, Uint32)");
  Value a = Value::of(atom);
  // The TMA tensor: coordinates over the global tensor's shape.
  TensorValue tv;
  tv.space = MemSpace::Coord;
  tv.dtype = ScalarType::Int64;
  std::vector<layout::IntTuple> bases;
  for (int m = 0; m < atom->rank; ++m) {
    bases.push_back(layout::Int::basis(m));
    tv.coord_offset.push_back(ir::int_const(0, ScalarType::Int64));
  }
  tv.layout = layout::make_layout(g.layout.shape, layout::IntTuple::tuple(std::move(bases)));
  return Value::tuple({a, ev.tensor_value(std::move(tv))});
}

// ---- TMA copies --------------------------------------------------------------

namespace {

/// The two tiles of a TMA copy: a tile of the TMA tensor (a load's source, a
/// store's destination) and a shared-memory tile of the atom's element type
/// and layout (the other one). Each is the atom's box (its tile, or one
/// block's slice of it with num_multicast > 1); the source is checked first.
void check_tma_tiles(Evaluator& ev, const TmaAtom& atom, const Value& src, const Value& dst, source::SourceRange r) {
  const bool load = atom.direction == TmaAtom::Direction::Load;
  const Value& coords = load ? src : dst;
  const Value& smem = load ? dst : src;
  const TensorValue& ct = *coords.tensor();
  const TensorValue& st = *smem.tensor();
  const std::string tile = "(" + std::to_string(atom.box[0]) + ", " + std::to_string(atom.box[1]) + ")";
  auto shape_is_tile = [&](const TensorValue& t) {
    return t.layout.rank() == 2 && layout::size(layout::get(t.layout, 0)).has_value() && layout::size(layout::get(t.layout, 1)).has_value() &&
           layout::size(layout::get(t.layout, 0)).value() == atom.box[0] && layout::size(layout::get(t.layout, 1)).value() == atom.box[1];
  };
  auto check_coords = [&] {
    if (ct.space == MemSpace::Coord && shape_is_tile(ct)) return;
    const std::string found = ct.space == MemSpace::Coord ? "shape " + ev.shape_text(ct.layout.shape) : describe(coords);
    auto& e = ev.error(diag::Kind::TensorShapeMismatch, r, (load ? "a TMA copy's source is a " : "a TMA store writes a ") + tile +
                                                               " tile of the TMA tensor, found " + found);
    if (atom.num_multicast > 1)
      e.help("each block copies its slice of the tile (num_multicast=" + std::to_string(atom.num_multicast) +
             "): cpasync.tma_partition(atom, cta_coord, cta_layout, sA, gA) gives it");
    else
      e.help("tile the tensor make_tiled_tma_atom returned: cute.local_tile(" +
             (load ? "mA_tma, " + tile + ", (bm, None))[None, None, k]" : "mC_tma, " + tile + ", (bm, bn))"));
    ev.abort_entry();
  };
  auto check_smem = [&] {
    if (st.space == MemSpace::Smem && shape_is_tile(st) && st.dtype == atom.dtype) return;
    const std::string what = load ? "a TMA load writes a " : std::string("a TMA ") + (atom.direction == TmaAtom::Direction::ReduceAdd ? "reduce-add" : "store") + " reads a ";
    ev.fail(diag::Kind::BadCopyAtom, r, what + ir::type_name(atom.dtype) + " " + tile + " shared-memory tile" + (load ? "" : " first") + ", found " +
                                            describe(smem) + " of shape " + ev.shape_text(st.layout.shape));
  };
  if (load) {
    check_coords();
    check_smem();
  } else {
    check_smem();
    check_coords();
  }
  bool same_layout = layout::coalesce(st.layout).identical(layout::coalesce(atom.smem_layout));
  bool same_swizzle = st.swizzle.has_value() == atom.swizzle.has_value() &&
                      (!st.swizzle || (st.swizzle->bits == atom.swizzle->bits && st.swizzle->base == atom.swizzle->base && st.swizzle->shift == atom.swizzle->shift));
  if (!same_layout || !same_swizzle) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, "the shared-memory tile's layout is not the one the TMA atom was built for");
    e.note(std::string(load ? "the atom writes " : "the atom reads ") + (atom.swizzle ? atom.swizzle->to_string() + " o " : std::string()) +
           atom.smem_layout.to_string() + "; this tile is " + (st.swizzle ? st.swizzle->to_string() + " o " : std::string()) + st.layout.to_string());
    ev.abort_entry();
  }
}

/// The operands every TMA instruction takes: the tensor map (the kernel's
/// parameter) and the box's coordinates, innermost first, at the origin of
/// the TMA tensor's tile.
struct TmaBox {
  ir::ExprRef desc;
  std::vector<ir::ExprRef> coords;  ///< inner, outer, then the batch (a rank-3 map)
};

TmaBox tma_box(Evaluator& ev, const TmaAtom& atom, const TensorValue& coords, source::SourceRange r) {
  Value origin = ev.coord_element(coords, Value::tuple({Value::integer(0), Value::integer(0)}), r);
  std::vector<Value> c = origin.elts();
  auto coord = [&](int m) { return ev.to_expr_as(c.at(static_cast<size_t>(m)), ScalarType::Int32, r); };
  ir::ExprRef desc = ir::address_of(atom.param, nullptr, ScalarType::Uint8);  // the whole tensor map
  TmaBox box{desc, {coord(atom.inner_mode), coord(1 - atom.inner_mode)}};
  for (int m = 2; m < atom.rank; ++m) box.coords.push_back(coord(m));
  return box;
}

/// cp.async.bulk.tensor.2d.global.shared::cta (.reduce.add): a shared-memory
/// tile to a tile of the TMA tensor, completed by bulk commit/wait groups.
void tma_store(Evaluator& ev, const TmaAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& bar, source::SourceRange r) {
  const bool reduce = atom.direction == TmaAtom::Direction::ReduceAdd;
  if (bar)
    ev.fail(diag::Kind::BadCopyAtom, r, "a TMA store completes through cute.arch.cp_async_bulk_commit_group()/wait_group(), not an mbarrier: drop tma_bar_ptr");
  check_tma_tiles(ev, atom, src, dst, r);
  const TensorValue& s = *src.tensor();
  TmaBox box = tma_box(ev, atom, *dst.tensor(), r);
  std::vector<ir::ExprRef> ops{box.desc, ir::address_of(s.ptr, s.offset ? s.offset : ir::int_const(0, ScalarType::Int64), s.dtype)};
  ops.insert(ops.end(), box.coords.begin(), box.coords.end());
  const bool rank3 = atom.rank == 3;
  const ir::Intrinsic id = reduce ? (rank3 ? ir::Intrinsic::TmaReduceAdd3d : ir::Intrinsic::TmaReduceAdd2d)
                                  : (rank3 ? ir::Intrinsic::TmaStore3d : ir::Intrinsic::TmaStore2d);
  ev.emit_effect(ir::intrinsic(id, {}, std::move(ops), ScalarType::Int32), r);
}

}  // namespace

void Evaluator::tma_copy(const TmaAtom& atom, const Value& src_in, const Value& dst_in, const std::optional<Value>& bar, source::SourceRange r,
                         const std::optional<Value>& mcast_mask, source::SourceRange mask_at) {
  require_arch("TMA", false, r);
  // A box as tma_partition leaves it, one mode grouping (rows, cols) (tAgA[None, k]), is that tile.
  auto ungroup = [&](const Value& v) {
    if (v.kind() != Value::Kind::Tensor || v.tensor()->layout.rank() != 1 || layout::get(v.tensor()->layout, 0).rank() != 2) return v;
    TensorValue t = *v.tensor();
    t.layout = layout::get(t.layout, 0);
    return tensor_value(std::move(t));
  };
  const Value src = ungroup(src_in), dst = ungroup(dst_in);
  if (atom.param.empty())
    fail(diag::Kind::UnsupportedOperation, r, "this TMA atom was not passed to the kernel as an argument");
  if (!mask_at.valid()) mask_at = r;
  // mcast_mask=0 on a plain load is no multicast (CuTe DSL's dense_gemm passes 0 without a cluster).
  const bool no_multicast = mcast_mask && mcast_mask->kind() == Value::Kind::Int && mcast_mask->i() == 0;
  if (mcast_mask && !atom.multicast && !no_multicast) {
    auto& e = error(diag::Kind::ClusterMismatch, mask_at, "mcast_mask= needs a multicast TMA atom, and this one was made with " +
                                                        std::string(atom.direction == TmaAtom::Direction::Load ? "CopyBulkTensorTileG2SOp()" : "a store op"));
    e.help("make the atom with cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp()");
    abort_entry();
  }
  if (atom.direction != TmaAtom::Direction::Load) return tma_store(*this, atom, src, dst, bar, r);
  std::optional<ir::ExprRef> mask_expr;
  if (atom.multicast) mask_expr = multicast_mask(mcast_mask, r, mask_at);
  if (!bar) {
    auto& d = error(diag::Kind::BadCopyAtom, r, "a TMA copy completes on an mbarrier: pass tma_bar_ptr=(barriers, index)");
    d.note("the barrier's phase completes once the copy's bytes have arrived (mbarrier_arrive_and_expect_tx)");
    abort_entry();
  }
  check_tma_tiles(*this, atom, src, dst, r);
  const TensorValue& d = *dst.tensor();
  // The destination must start on the swizzle pattern's period (1024 bytes
  // for 128-byte rows) so the copy engine's swizzle matches the layout's.
  const int64_t elem = ir::bit_width(d.dtype) / 8;
  const int64_t need = atom.swizzle_bytes ? atom.swizzle_bytes * 8 : 128;
  int64_t align = d.align_bytes;
  if (d.offset) {
    int64_t k = known_divisor(d.offset) * elem;
    align = std::min(align, k > 0 ? k : 1);
  }
  if (align % need != 0) {
    auto& e = error(diag::Kind::BadCopyAtom, r, "a TMA destination must be " + std::to_string(need) + "-byte aligned; this tile is only known to be " +
                                                    std::to_string(align) + "-byte aligned");
    e.help("allocate the buffer with byte_alignment=" + std::to_string(need) + " and keep stages a multiple of " + std::to_string(need) + " bytes apart");
    abort_entry();
  }
  auto barrier = barrier_address(*bar, r, "cute.copy(tma_atom, ...)");
  TmaBox box = tma_box(*this, atom, *src.tensor(), r);
  fn_->stored_ptrs[d.ptr] += 1;
  std::vector<ir::ExprRef> ops{ir::address_of(d.ptr, d.offset ? d.offset : ir::int_const(0, ScalarType::Int64), d.dtype), box.desc, barrier};
  ops.insert(ops.end(), box.coords.begin(), box.coords.end());
  if (mask_expr) ops.push_back(*mask_expr);
  const bool rank3 = atom.rank == 3;
  const ir::Intrinsic id = mask_expr    ? (rank3 ? ir::Intrinsic::TmaLoad3dMulticast : ir::Intrinsic::TmaLoad2dMulticast)
                           : atom.rank == 4 ? ir::Intrinsic::TmaLoad4d
                                            : (rank3 ? ir::Intrinsic::TmaLoad3d : ir::Intrinsic::TmaLoad2d);
  emit_effect(ir::intrinsic(id, {}, std::move(ops), ScalarType::Int32), r);
}

// ---- warpgroup MMA -----------------------------------------------------------

/// warpgroup.MmaF16BF16Op(ab_dtype, acc_dtype, instruction_shape, a_src=None) and
/// MmaF8Op(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src=None): the
/// shape is (64, N, K) with K 32 bytes of input either way (PTX ISA,
/// "wgmma.mma_async", Matrix shape).
Value sm90_warpgroup_mma_op(Evaluator& ev, BuiltinCall& c) {
  const bool f8 = c.id() == BuiltinId::WarpgroupMmaF8Op;
  const std::string fn = c.name();
  const size_t shape_slot = f8 ? 3 : 2, src_slot = shape_slot + 1;
  // a_src: warpgroup.OperandSource.SMEM (0, a descriptor; the default) or RMEM (1, registers: the RS form).
  bool a_rmem = false;
  if (c.has(src_slot)) {
    const Value& v = c[src_slot];
    if (v.kind() != Value::Kind::Int || (v.i() != 0 && v.i() != 1))
      ev.fail(diag::Kind::TypeMismatch, c.range(src_slot), "a_src is warpgroup.OperandSource.SMEM or warpgroup.OperandSource.RMEM, found " + describe(v));
    a_rmem = v.i() == 1;
  }
  auto type_of = [&](size_t i) {
    if (c[i].kind() != Value::Kind::Type) ev.fail(diag::Kind::TypeMismatch, c.range(i), "expected an element type, found " + describe(c[i]));
    return c[i].type();
  };
  ScalarType ab = type_of(0), b = f8 ? type_of(1) : ab, acc = type_of(shape_slot - 1);
  const WgmmaTraits& row = find_wgmma_traits(c.id(), a_rmem);
  const int64_t kk = row.k;
  const Value& shape = c[shape_slot];
  std::vector<Value> mnk = shape.kind() == Value::Kind::Tuple ? shape.elts() : std::vector<Value>{};
  int64_t n = mnk.size() == 3 && mnk[1].kind() == Value::Kind::Int ? mnk[1].i() : 0;
  bool ok = mnk.size() == 3 && mnk[0].kind() == Value::Kind::Int && mnk[0].i() == row.m && mnk[2].kind() == Value::Kind::Int &&
            mnk[2].i() == kk && std::count(row.ns.begin(), row.ns.end(), n);
  if (!ok) {
    std::string ns;
    for (int64_t x : row.ns) ns += (ns.empty() ? "" : ", ") + std::to_string(x);
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(shape_slot), fn + " supports the shapes (" + std::to_string(row.m) + ", N, " +
                                                                         std::to_string(kk) + ") with N in " + ns + ", found " + repr(shape));
    d.note(std::string("wgmma.mma_async's M is 64 per warpgroup and K ") + (f8 ? "32 for 8-bit" : "16 for 16-bit") + " inputs (PTX ISA, \"wgmma.mma_async\")");
    ev.abort_entry();
  }
  auto takes = [&](ScalarType t) { return std::count(row.inputs.begin(), row.inputs.end(), t) > 0; };
  if (acc != row.acc || !takes(ab) || !takes(b)) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.site.range, std::string("wgmma has no ") + ir::type_name(ab) + " x " + ir::type_name(b) + " -> " +
                                                                  ir::type_name(acc) + " form here");
    d.note(std::string(row.types_note));
    ev.abort_entry();
  }
  return Value::of(std::make_shared<MmaAtom>(wgmma_atom(row, n, ab, b)));
}

namespace {

/// An operand's extents past the atom (atoms along M or N, K blocks) and its
/// shared-memory descriptor's stride byte offset and swizzle mode.
struct WgmmaOperand {
  int64_t rows_rest, k_rest, sbo, mode;
  int64_t lbo = 16;   ///< leading byte offset (K-major: unused, 16 by convention)
  bool mn = false;    ///< MN-major in shared memory (B only: the imm-trans-b forms)
};

/// The leading and stride byte offsets of an MN-major 16-bit atom tile `v`,
/// (rows, 16) in elements, when its offsets are those of CuTe's GMMA MN-major
/// canonical layout under a swizzle of rows of `row_elems` elements:
///   v(n, k) = (k % 8) row_elems + (k / 8) SBO + n % row_elems + (n / row_elems) LBO,
/// (PTX ISA, "Matrix Descriptor Format": LBO steps between swizzle-wide blocks
/// along MN, SBO between 8-row groups along K); nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> mn_major_offsets(const layout::Layout& v, int64_t rows, int64_t k, int64_t row_elems) {
  if (v.rank() != 2 || !v.is_static()) return std::nullopt;
  auto size_is = [](const layout::Layout& m, int64_t want) {
    const layout::Int s = layout::size(m.shape);
    return s.has_value() && s.value() == want;
  };
  if (!size_is(v[0], rows) || !size_is(v[1], k) || k % 8 != 0 || (rows > row_elems && rows % row_elems != 0)) return std::nullopt;
  auto at = [&](int64_t n, int64_t kk) {
    const layout::Int x = v(layout::IntTuple::tuple({layout::IntTuple(n), layout::IntTuple(kk)}));
    return x.has_value() ? x.value() : int64_t{-1};
  };
  const int64_t lbo = rows > row_elems ? at(row_elems, 0) : 0, sbo = k > 8 ? at(0, 8) : 0;
  if (lbo % 8 != 0 || sbo % 8 != 0 || lbo < 0 || sbo < 0) return std::nullopt;
  for (int64_t n = 0; n < rows; ++n)
    for (int64_t kk = 0; kk < k; ++kk)
      if (at(n, kk) != (kk % 8) * row_elems + (kk / 8) * sbo + n % row_elems + (n / row_elems) * lbo) return std::nullopt;
  return std::make_pair(lbo, sbo);
}

/// A or B in shared memory: (V, X, K) with V the atom's (rows, K) K-major tile
/// under a 128-, 64- or 32-byte swizzle (interleaved 8x16-byte core matrices
/// without a swizzle are not supported here).
WgmmaOperand wgmma_smem_operand(Evaluator& ev, const MmaAtom& atom, const TensorValue& t, const char* which, int64_t rows, ScalarType want,
                                source::SourceRange r) {
  const int64_t elem = ir::bit_width(atom.ab) / 8;
  if (t.space != MemSpace::Smem || t.dtype != want) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, std::string("wgmma reads ") + which + " from shared memory as " + ir::type_name(want) +
                                                       "; this operand is a " + ir::type_name(t.dtype) + " tensor in " +
                                                       (t.space == MemSpace::Rmem ? "registers" : t.space == MemSpace::Gmem ? "global memory" : "shared memory"));
    e.help(std::string("partition the shared-memory tile: thr_mma.partition_") + which + "(s" + which + "[None, None, stage])");
    ev.abort_entry();
  }
  if (t.layout.rank() != 3)
    ev.fail(diag::Kind::TensorShapeMismatch, r, std::string("cute.gemm()'s ") + which + " must be (V, " + (which[0] == 'A' ? "M" : "N") +
                                                    ", K)-shaped as partition_" + which + " makes it, found " + ev.shape_text(t.layout.shape));
  layout::Layout v = layout::get(t.layout, 0);
  auto static_leaf = [](const layout::IntTuple& x, size_t i, int64_t want) {
    return x.is_tuple() && x.elems().size() == 2 && x[i].is_leaf() && x[i].value().has_value() && x[i].value().value() == want;
  };
  bool shape_ok = static_leaf(v.shape, 0, rows) && static_leaf(v.shape, 1, atom.k);
  int64_t row_stride = 0;
  bool k_major = false;
  if (shape_ok && v.stride.is_tuple() && v.stride[0].is_leaf() && v.stride[1].is_leaf() && v.stride[0].value().has_value() &&
      v.stride[1].value().has_value()) {
    row_stride = v.stride[0].value().value();
    k_major = v.stride[1].value().value() == 1;
  }
  int64_t span = t.swizzle ? swizzle_span_bytes(*t.swizzle, elem) : 0;
  std::optional<std::pair<int64_t, int64_t>> mn;
  if (which[0] == 'B' && elem == 2 && span != 0 && !(shape_ok && k_major && row_stride * elem == span))
    mn = mn_major_offsets(v, rows, atom.k, span / elem);
  if (mn) {
    if (t.align_bytes % (span * 8) != 0) {
      auto& e = ev.error(diag::Kind::BadCopyAtom, r, std::string("wgmma's ") + which + " buffer must be " + std::to_string(span * 8) +
                                                         "-byte aligned for its swizzle, found " + std::to_string(t.align_bytes));
      e.help("allocate it with byte_alignment=" + std::to_string(span * 8));
      ev.abort_entry();
    }
    WgmmaOperand o{layout::size(layout::get(t.layout, 1)).require_value("rows"), layout::size(layout::get(t.layout, 2)).require_value("k"),
                   mn->second * elem, span == 128 ? 1 : span == 64 ? 2 : 3};
    o.lbo = mn->first * elem;
    o.mn = true;
    return o;
  }
  if (!shape_ok || !k_major || span == 0 || row_stride * elem != span) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, std::string("wgmma's ") + which + " tile must be K-major in a swizzled shared-memory layout: " +
                                                       "rows of 32, 64 or 128 bytes under the matching swizzle" +
                                                       (which[0] == 'B' ? " (or, for 16-bit B, MN-major: rows along N of the swizzle's width, 8-row groups along K)" : ""));
    e.note(std::string("this operand's atom tile is ") + v.to_string() + (t.swizzle ? " (swizzled)" : " (not swizzled)"));
    e.help(elem == 1 ? "allocate it as cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((ROWS, 128), stride=(128, 1))) for 8-bit types"
                     : "allocate it as cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((ROWS, 64), stride=(64, 1))) for 16-bit types");
    ev.abort_entry();
  }
  int64_t need = span * 8;
  int64_t align = t.align_bytes;
  if (align % need != 0) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, std::string("wgmma's ") + which + " buffer must be " + std::to_string(need) +
                                                       "-byte aligned for its swizzle, found " + std::to_string(align));
    e.help("allocate it with byte_alignment=" + std::to_string(need));
    ev.abort_entry();
  }
  int64_t mode = span == 128 ? 1 : span == 64 ? 2 : 3;
  return {layout::size(layout::get(t.layout, 1)).require_value("rows"), layout::size(layout::get(t.layout, 2)).require_value("k"), 8 * span, mode};
}

/// RS: A is the register fragment make_fragment_A made, (V, M, K) with each
/// instruction's V values contiguous: four 32-bit registers, V = 8 16-bit or
/// 16 8-bit values.
WgmmaOperand wgmma_register_a(Evaluator& ev, const MmaAtom& atom, const Value& av, source::SourceRange r) {
  const TensorValue& a = *av.tensor();
  const int64_t va = layout::size(layout::get(atom.a_tv, 1)).require_value("A values");
  const std::string frag = "(" + std::to_string(va) + ", M, K)";
  const char* help = "tCrA = tiled_mma.make_fragment_A(thr_mma.partition_A(sA)); cute.copy(atom, thr_mma.partition_A(sA), tCrA)";
  if (a.space != MemSpace::Rmem || a.dtype != atom.ab) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, std::string("this wgmma reads A from registers (a_src=RMEM): A must be a ") + ir::type_name(atom.ab) +
                                                       " register fragment " + frag + ", found " + describe(av) + " of shape " + ev.shape_text(a.layout.shape));
    e.help(help);
    ev.abort_entry();
  }
  if (a.layout.rank() != 3 || !layout::coalesce(layout::get(a.layout, 0)).identical(layout::Layout(va, 1))) {
    auto& e = ev.error(diag::Kind::BadCopyAtom, r, "this wgmma reads A from registers (a_src=RMEM): A must be the " + frag + " fragment " +
                                                       "make_fragment_A makes, " + std::to_string(va) + " contiguous values per thread per instruction, found shape " +
                                                       ev.shape_text(a.layout.shape) + " with layout " + a.layout.to_string());
    e.note(std::string("each wgmma.mma_async m64nNk") + std::to_string(atom.k) + " reads four 32-bit registers of A per thread: " + std::to_string(va) + " " +
           ir::type_name(atom.ab) + " values (PTX ISA, \"Register Fragments and Shared Memory Matrix Layouts\")");
    e.help(help);
    ev.abort_entry();
  }
  return {layout::size(layout::get(a.layout, 1)).require_value("M"), layout::size(layout::get(a.layout, 2)).require_value("K"), 0, 0};
}

}  // namespace

void Evaluator::wgmma_gemm(const TiledMma& tm, const Value& dv, const Value& av, const Value& bv, const Value& cv, source::SourceRange r,
                           ir::ExprRef scale_d) {
  require_arch("wgmma", true, r);
  const MmaAtom& atom = tm.atom;
  // An operand sliced to one k-block, (V, M) (CuTe DSL's tCrA[None, None, k, stage]), is (V, M, 1).
  auto with_k = [&](const Value& v) {
    const TensorValue& t = *v.tensor();
    if (t.layout.rank() != 2) return v;
    TensorValue out = t;
    out.layout = layout::make_layout(layout::IntTuple::tuple({t.layout.shape[0], t.layout.shape[1], layout::IntTuple(1)}),
                                     layout::IntTuple::tuple({t.layout.stride[0], t.layout.stride[1], layout::IntTuple(0)}));
    return tensor_value(std::move(out));
  };
  const Value a3 = with_k(av), b3 = with_k(bv);
  const TensorValue &d = *dv.tensor(), &a = *a3.tensor(), &b = *b3.tensor(), &c = *cv.tensor();
  if (d.ptr != c.ptr || !d.layout.identical(c.layout)) {
    auto& e = error(diag::Kind::BadCopyAtom, r, "wgmma accumulates in place: cute.gemm's D and C must be the same fragment");
    e.help("cute.gemm(tiled_mma, acc, tCsA, tCsB, acc)");
    abort_entry();
  }
  if (d.space != MemSpace::Rmem || d.dtype != atom.acc)
    fail(diag::Kind::BadCopyAtom, r, "wgmma's accumulator is a Float32 register fragment (tiled_mma.make_fragment_C)");
  WgmmaOperand oa = atom.a_rmem ? wgmma_register_a(*this, atom, a3, r) : wgmma_smem_operand(*this, atom, a, "A", atom.m, atom.ab, r);
  WgmmaOperand ob = wgmma_smem_operand(*this, atom, b, "B", atom.n, atom.b_type(), r);
  if (d.layout.rank() != 3) fail(diag::Kind::TensorShapeMismatch, r, "wgmma's accumulator must be (V, M, N)-shaped as make_fragment_C makes it");
  int64_t vc = layout::size(layout::get(atom.c_tv, 1)).require_value("C values");
  int64_t cm = layout::size(layout::get(d.layout, 1)).require_value("M"), cn = layout::size(layout::get(d.layout, 2)).require_value("N");
  if (layout::size(layout::get(d.layout, 0)).require_value("V") != vc || cm != oa.rows_rest || cn != ob.rows_rest || oa.k_rest != ob.k_rest) {
    auto& e = error(diag::Kind::TensorShapeMismatch, r, "cute.gemm() operands do not agree: A " + shape_text(a.layout.shape) + ", B " +
                                                            shape_text(b.layout.shape) + ", C " + shape_text(d.layout.shape));
    e.note("A is ((64, " + std::to_string(atom.k) + "), M, K), B ((N, " + std::to_string(atom.k) + "), N, K) and C (V, M, N) with equal M, N and K");
    abort_entry();
  }
  // Each shared-memory operand's descriptor is encoded once, at the operand's origin (its run-time
  // offset: the pipeline stage), into a local; a k-block, m- or n-step adds its static offset in
  // 16-byte units to the start-address field (bits 0-13), as CUTLASS's descriptor iterator does.
  // The sum is the encoding of the moved address: an operand lies inside the CTA's shared memory
  // (< 256 KB), so the field (address >> 4, 14 bits) never carries into the next one. Without it
  // every wgmma paid the address's encoding again (cvta, mask, shift and or).
  auto static_offset = [&](const TensorValue& t, int64_t x, int64_t y) {
    return layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x), Value::integer(y)}), r).i();
  };
  // A sliced operand (tCsA[None, None, k] in a k-block loop) carries its step as a constant
  // addend of its offset (Evaluator::materialize_offset): it goes to the encoding's addend too, so
  // the k-blocks' calls encode the same run-time base, which the C++ compiler computes once.
  auto base_desc = [&](const TensorValue& t, const WgmmaOperand& o) -> std::pair<std::string, int64_t> {
    const std::string var = new_local("desc", ScalarType::Uint64);
    auto [rest, constant] = t.offset ? split_constant(ir::cast(t.offset, ScalarType::Int64)) : std::pair<ir::ExprRef, int64_t>{nullptr, 0};
    auto origin = rest ? rest : ir::int_const(0, ScalarType::Int64);
    emit(ir::assign(r, var,
                    ir::intrinsic(ir::Intrinsic::WgmmaDesc, {},
                                  {ir::address_of(t.ptr, origin, t.dtype), ir::int_const(o.lbo, ScalarType::Int32),
                                   ir::int_const(o.sbo, ScalarType::Int32), ir::int_const(o.mode, ScalarType::Int32)},
                                  ScalarType::Uint64)));
    return {var, constant};
  };
  auto desc = [&](const std::pair<std::string, int64_t>& base, const TensorValue& t, int64_t x, int64_t k) -> ir::ExprRef {
    const int64_t bytes = (base.second + static_offset(t, x, k)) * ir::bit_width(t.dtype) / 8;
    if (bytes % 16 != 0)
      fail(diag::Kind::BadCopyAtom, r, "a wgmma operand's k-block or tile starts " + std::to_string(bytes) +
                                           " bytes from the operand's origin: descriptors need 16-byte steps");
    auto v = ir::var_ref(base.first, ScalarType::Uint64);
    return bytes == 0 ? v : ir::binary(ir::Op::Add, v, ir::int_const(bytes / 16, ScalarType::Uint64), ScalarType::Uint64);
  };
  const auto desc_a = atom.a_rmem ? std::pair<std::string, int64_t>{} : base_desc(a, oa);
  const auto desc_b = base_desc(b, ob);
  // B MN-major (V stored (keys, head_dim) in attention's P * V): the imm-trans-b = 1 form of the same instruction.
  ir::IntrinsicOp device = *atom.device;
  if (ob.mn) device.id = atom.a_rmem ? ir::Intrinsic::WgmmaRSTransB : ir::Intrinsic::WgmmaSSTransB;
  for (int64_t k = 0; k < oa.k_rest; ++k)
    for (int64_t m = 0; m < cm; ++m)
      for (int64_t n = 0; n < cn; ++n) {
        Value o = layout_offset(d.layout, Value::tuple({Value::integer(0), Value::integer(m), Value::integer(n)}), r);
        ir::ExprRef a_operand;
        if (atom.a_rmem) {
          Value ao = layout_offset(a.layout, Value::tuple({Value::integer(0), Value::integer(m), Value::integer(k)}), r);
          a_operand = ir::address_of(a.ptr, ir::int_const(ao.i(), ScalarType::Int64), a.dtype);
        } else {
          a_operand = desc(desc_a, a, m, k);
        }
        emit_effect(ir::intrinsic(device,
                                  {ir::address_of(d.ptr, ir::int_const(o.i(), ScalarType::Int64), d.dtype),
                                   std::move(a_operand), desc(desc_b, b, n, k), scale_d ? scale_d : ir::int_const(1, ScalarType::Int32)},
                                  ScalarType::Int32),
                    r);
      }
}

}  // namespace tileslc::sema
