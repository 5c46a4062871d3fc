// sm_90 thread-block clusters: the launch's cluster=(x, y, z) (checked while
// compiling where its values are static), and the handlers of builtins.def's
// cluster rows (which say they need a kernel and sm_90): the cluster indices
// of CuTe DSL's cute.arch (cluster_idx, cluster_dim, block_in_cluster_idx,
// block_in_cluster_dim, block_idx_in_cluster), the cluster barrier
// (cluster_arrive, cluster_arrive_relaxed, cluster_wait) and the TMA
// multicast op marker (CopyBulkTensorTileG2SMulticastOp; its copies are
// checked in sm90_ops.cpp's tma_copy), plus an mbarrier arrive on a peer
// block and the multicast mask for sm90_ops.cpp. PTX ISA sections: "Special Registers"
// (%clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid,
// %cluster_ctarank) and "barrier.cluster".
//
// A kernel launched without cluster= runs in implicit 1x1x1 clusters (PTX ISA,
// "Cluster of Cooperative Thread Arrays"): its in-cluster indices fold to 0
// and its cluster dims to 1 while compiling; with cluster= the cluster shape
// is static (the kernel is specialized on it) and so are block_in_cluster_dim()
// and every index along an axis of extent 1.
#include <algorithm>
#include <functional>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

constexpr int64_t kMaxClusterPortable = 8;
constexpr int64_t kMaxClusterNonPortable = 16;

std::string dims_text(const int64_t d[3]) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

/// The (x, y, z) special registers of intrinsic `reg` (its axis immediate); `fold(k)` gives a static value instead
/// where it is known (>= 0).
Value register_triple(const ast::Call& site, ir::Intrinsic reg, const std::function<int64_t(int)>& fold) {
  std::vector<Value> xs;
  static const char* const kAxes[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    int64_t s = fold ? fold(k) : -1;
    if (s >= 0) xs.push_back(Value::integer(s));
    // A hardware index, like blockIdx.x: a pure read, so `x, _, _ = ...` binds no temporary.
    else
      xs.push_back(Value::dyn(ir::intrinsic(reg, {kAxes[k]}, {}, ScalarType::Int32), site.range));
  }
  return Value::tuple(std::move(xs));
}

/// The kernel's static cluster shape: the launch's cluster=, or the implicit 1x1x1 one.
const int64_t* cluster_shape(const Evaluator& ev) {
  static const int64_t kOne[3] = {1, 1, 1};
  return ev.fn_ && ev.fn_->static_cluster[0] > 0 ? ev.fn_->static_cluster : kOne;
}

}  // namespace

int64_t Evaluator::cluster_size() const {
  if (!fn_ || fn_->static_cluster[0] <= 0) return 0;
  return fn_->static_cluster[0] * fn_->static_cluster[1] * fn_->static_cluster[2];
}

void Evaluator::check_cluster(const Value& cluster, const std::vector<Value>& grid, source::SourceRange r, int64_t out[3]) {
  std::vector<Value> xs = cluster.kind() == Value::Kind::Tuple ? cluster.elts() : std::vector<Value>{cluster};
  if (xs.empty() || xs.size() > 3) fail(diag::Kind::BadLaunch, r, "cluster must have 1 to 3 dimensions");
  while (xs.size() < 3) xs.push_back(Value::integer(1));
  for (int k = 0; k < 3; ++k) {
    const Value& x = xs[static_cast<size_t>(k)];
    if (x.kind() != Value::Kind::Int) {
      auto& d = error(diag::Kind::ClusterMismatch, r, "cluster dimensions must be static integers, found " + describe(x));
      d.note("the kernel is specialized on its cluster shape (block_in_cluster_dim(), multicast masks)");
      abort_entry();
    }
    if (x.i() <= 0) fail(diag::Kind::ClusterMismatch, r, "cluster dimensions must be positive, found " + std::to_string(x.i()));
    out[k] = x.i();
  }
  const int64_t ctas = out[0] * out[1] * out[2];
  // cluster=(1, 1, 1) is every launch's implicit cluster, on every architecture.
  if (ctas > 1) require_arch("thread-block clusters (launch cluster=)", false, r);
  if (ctas > kMaxClusterNonPortable) {
    auto& d = error(diag::Kind::ClusterMismatch, r, "cluster " + dims_text(out) + " has " + std::to_string(ctas) +
                                                        " blocks, over the limit of " + std::to_string(kMaxClusterNonPortable));
    d.note("a cluster has at most 8 blocks on every sm_90 GPU, 16 on H100/H200 as a non-portable size");
    abort_entry();
  }
  // 9 to 16 blocks pass: the runtime opts the kernel in (cudaFuncAttributeNonPortableClusterSizeAllowed).
  static_assert(kMaxClusterPortable < kMaxClusterNonPortable);
  static const char* const kAxes[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    const Value& g = grid.at(static_cast<size_t>(k));
    if (g.kind() == Value::Kind::Int && g.i() % out[k] != 0) {
      auto& d = error(diag::Kind::ClusterMismatch, r, "grid dimension " + std::string(kAxes[k]) + " = " + std::to_string(g.i()) +
                                                          " is not divisible by the cluster's " + std::to_string(out[k]));
      d.note("clusters tile the grid: every grid dimension must be a multiple of the cluster's");
      abort_entry();
    }
    // A run-time grid dimension is checked by the host function before the
    // launch (tileslc::launch_kernel_cluster names grid, cluster and axis).
  }
  // cluster=(1, 1, 1) is the implicit cluster of every launch: a plain launch, as CuTe DSL's.
  if (ctas == 1) out[0] = out[1] = out[2] = 0;
}

Value cluster_indices(Evaluator& ev, BuiltinCall& c) {
  const int64_t* shape = cluster_shape(ev);
  switch (c.id()) {
    case BuiltinId::ClusterIdx: return register_triple(c.site, ir::Intrinsic::ClusterIdx, nullptr);
    case BuiltinId::ClusterDim: return register_triple(c.site, ir::Intrinsic::ClusterDim, nullptr);
    case BuiltinId::BlockInClusterIdx:
      return register_triple(c.site, ir::Intrinsic::BlockInClusterIdx,
                             [&](int k) { return shape[k] == 1 ? int64_t{0} : int64_t{-1}; });
    default: return register_triple(c.site, ir::Intrinsic::BlockInClusterDim, [&](int k) { return shape[k]; });
  }
}

Value cluster_block_idx_in_cluster(Evaluator& ev, BuiltinCall& c) {
  const int64_t* shape = cluster_shape(ev);
  if (shape[0] * shape[1] * shape[2] == 1) return Value::integer(0);
  return Value::dyn(ir::intrinsic(ir::Intrinsic::BlockIdxInCluster, {}, {}, ScalarType::Int32), c.site.range);
}

/// cluster_arrive(*, aligned=None), cluster_arrive_relaxed(*, aligned=None), cluster_wait().
Value cluster_barrier(Evaluator& ev, BuiltinCall& c) {
  // barrier.cluster.arrive without .aligned is right whether or not the warp is converged
  // (.aligned only lets the hardware assume it), so aligned= is checked but changes nothing.
  if (c.id() != BuiltinId::ClusterWait && c.has(0)) ev.truthy_static(ev.require_static(c[0], c.range(0), "aligned"), c.range(0));
  const char* step = c.id() == BuiltinId::ClusterArrive          ? "arrive"
                     : c.id() == BuiltinId::ClusterArriveRelaxed ? "arrive_relaxed"
                                                                 : "wait";
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::ClusterBarrier, {step}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

Value cluster_multicast_op(Evaluator&, BuiltinCall& c) { return Value::op_marker(c.id(), c.info.export_name); }

Value Evaluator::mbarrier_arrive(BuiltinCall& c) {
  // CuTe DSL: mbarrier_arrive(mbar_ptr, peer_cta_rank_in_cluster=None); here the barrier is
  // (bars, i). The row checks the context (a kernel), the arch (sm_90) and the arguments.
  const std::string fn = c.name();
  const source::SourceRange site = c.site.range;
  auto bar = barrier_address(Value::tuple({c[0], c[1]}), c.range(0), fn);
  auto emit_call = [&](ir::Intrinsic device, std::vector<ir::ExprRef> ops) {
    emit_effect(ir::intrinsic(device, {}, std::move(ops), ScalarType::Int32), site);
    return Value::none();
  };
  if (!c.has(2)) return emit_call(ir::Intrinsic::MbarrierArrive, {bar});
  return emit_call(ir::Intrinsic::MbarrierArriveCluster,
                   {bar, peer_rank(c[2], c.range(2), "peer_cta_rank_in_cluster", "signal another block's barrier")});
}

ir::ExprRef Evaluator::peer_rank(const Value& rank, source::SourceRange at, const char* what, const char* purpose) {
  if (!rank.is_integer()) fail(diag::Kind::TypeMismatch, at, std::string(what) + " must be an integer, found " + describe(rank));
  const int64_t ctas = cluster_size();
  if (rank.kind() == Value::Kind::Int && (rank.i() < 0 || rank.i() >= std::max<int64_t>(ctas, 1))) {
    auto& d = error(diag::Kind::ClusterMismatch, at, std::string(what) + " is " + std::to_string(rank.i()) + ", but the cluster has " +
                                                         std::to_string(std::max<int64_t>(ctas, 1)) + " block" + (ctas > 1 ? "s" : ""));
    if (ctas == 0) d.help(std::string("launch the kernel with cluster=(2, 1, 1) (or larger) to ") + purpose);
    abort_entry();
  }
  return to_expr_as(rank, ScalarType::Int32, at);
}

Value Evaluator::store_async_dsmem(BuiltinCall& c) {
  // CuTe DSL: store_async_dsmem(smem_ptr, value, mbar_ptr, peer_cta_rank), an i32; here the
  // destination is (tensor, index) and the barrier (bars, j), as mbarrier_arrive's, and the value
  // any 32-bit scalar of the destination's type (Float32 partial sums, Int32 counts). PTX ISA,
  // "st.async": the 4 bytes land at the destination's offset in the peer block's shared memory
  // and complete 4 transaction bytes on the barrier at the same offset there.
  const std::string fn = c.name();
  const Value& dst = c[0];
  if (dst.kind() != Value::Kind::Tensor)
    fail(diag::Kind::TypeMismatch, c.range(0), fn + " stores into an element of a shared-memory tensor, found " + describe(dst));
  const TensorValue& t = *dst.tensor();
  if (t.space != MemSpace::Smem || ir::bit_width(t.dtype) != 32) {
    auto& d = error(diag::Kind::TypeMismatch, c.range(0), fn + " stores one 32-bit value (st.async .b32) into shared memory, found a " +
                                                           std::string(ir::type_name(t.dtype)) + " tensor in " +
                                                           (t.space == MemSpace::Smem ? "shared" : t.space == MemSpace::Gmem ? "global" : "register") +
                                                           " memory");
    d.help("sDst = smem.allocate_tensor(cutlass.Float32, cute.make_layout((CLUSTER,)), 16)");
    abort_entry();
  }
  fn_->stored_ptrs[t.ptr] += 1;
  ir::ExprRef where = ir::address_of(t.ptr, tensor_offset(t, c[1], c.range(1)), t.dtype);
  ir::ExprRef value = to_expr_as(c[2], t.dtype, c.range(2));
  ir::ExprRef bar = barrier_address(Value::tuple({c[3], c[4]}), c.range(3), fn);
  ir::ExprRef rank = peer_rank(c[5], c.range(5), "peer_cta_rank", "store into another block's shared memory");
  emit_effect(ir::intrinsic(ir::Intrinsic::StAsyncCluster, {}, {where, value, bar, rank}, ScalarType::Int32), c.site.range);
  return Value::none();
}

/// store_async_dsmem(smem_ptr, index, value, mbar_ptr, mbar_index, peer_cta_rank): Evaluator::store_async_dsmem.
Value cluster_store_async(Evaluator& ev, BuiltinCall& c) { return ev.store_async_dsmem(c); }

ir::ExprRef Evaluator::multicast_mask(const std::optional<Value>& mask, source::SourceRange r, source::SourceRange mask_at) {
  const int64_t ctas = cluster_size();
  if (ctas == 0) {
    auto& d = error(diag::Kind::ClusterMismatch, r, "a multicast TMA load writes the shared memory of several blocks of a cluster, "
                                                     "but this kernel is launched without cluster=");
    d.help("launch it with .launch(grid=..., block=..., cluster=(2, 1, 1)), or use CopyBulkTensorTileG2SOp()");
    abort_entry();
  }
  if (!mask) {
    auto& d = error(diag::Kind::ClusterMismatch, r, "a multicast TMA load needs mcast_mask=: the blocks of the cluster it writes");
    d.help("bit i of the mask is the block of rank i (cute.arch.block_idx_in_cluster()): mcast_mask=0b11 writes blocks 0 and 1");
    abort_entry();
  }
  const Value& m = *mask;
  if (!m.is_integer())
    fail(diag::Kind::TypeMismatch, mask_at, "mcast_mask must be an integer bit mask, found " + describe(m));
  if (m.kind() == Value::Kind::Int) {
    const int64_t all = (int64_t{1} << ctas) - 1;
    if (m.i() <= 0 || (m.i() & ~all) != 0) {
      auto& d = error(diag::Kind::ClusterMismatch, mask_at, "mcast_mask " + std::to_string(m.i()) + " names " +
                                                          (m.i() <= 0 ? std::string("no block") : "blocks past the cluster's " + std::to_string(ctas)));
      d.note("the cluster " + dims_text(fn_->static_cluster) + " has blocks of rank 0 to " + std::to_string(ctas - 1) +
             ": masks from 1 to " + std::to_string(all));
      abort_entry();
    }
  }
  return to_expr_as(m, ScalarType::Uint16, mask_at);
}

}  // namespace tileslc::sema
