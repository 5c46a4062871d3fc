// Hopper (sm_90 / sm_90a) atoms: mbarriers, TMA tile loads
// (cp.async.bulk.tensor with host-encoded tensor maps), warpgroup MMA
// (wgmma.mma_async with shared-memory descriptors derived from the swizzled
// shared-memory layout), setmaxnreg, elect.sync and the async-proxy fence.
//
// TMA follows CuTe DSL: make_tiled_tma_atom(op, gmem_tensor, smem_layout,
// cta_tiler) in a @cute.jit function returns the atom and a coordinate tensor
// over the global tensor (CuTe's TMA tensor: identity strides 1@k); tiles of
// it name the box to load: cute.copy(atom, coord_tile, smem_tile,
// tma_bar_ptr=(barriers, i)). The tensor map itself is encoded by the host
// function before the launch (tileslc::make_tma_descriptor) and passed as a
// `const __grid_constant__` kernel parameter.
//
// wgmma follows CuTe's SM90 GMMA atoms with operands in shared memory,
// K-major: A's thread-value layout is (128, (64, 16)):(0, (1, 64)) (every
// thread of the warpgroup names the whole tile: it is a descriptor), B's
// (128, (N, 16)):(0, (1, N)), C's the ISA's m64nNk16 accumulator fragment
// ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) (CuTe's CLayout_64xN). With
// a_src=RMEM (the RS form, 16-bit or Float8 inputs) A is each thread's register
// fragment instead: four 32-bit registers per instruction in the ISA's A
// fragment order, filled by any copy from partition_A.
#include <algorithm>

#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

constexpr int kSetmaxnregInc[] = {160, 168, 184, 200, 216, 232, 240};
constexpr int kSetmaxnregDec[] = {24, 32, 40, 56, 64, 80, 96};

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
  if (bar.kind != Value::Kind::Tuple || bar.elts->size() != 2 || (*bar.elts)[0].kind != Value::Kind::Tensor)
    fail(diag::Kind::TypeMismatch, r, fn + " needs an mbarrier as (tensor, coordinate), found " + describe(bar));
  const TensorValue& t = *(*bar.elts)[0].tensor;
  if (t.space != MemSpace::Smem || (t.dtype != ScalarType::Int64 && t.dtype != ScalarType::Uint64)) {
    auto& d = error(diag::Kind::BadCopyAtom, r, fn + " needs an mbarrier: an Int64 element of a shared-memory tensor, found a " +
                                                    std::string(ir::type_name(t.dtype)) + " tensor in " +
                                                    (t.space == MemSpace::Smem ? "shared" : t.space == MemSpace::Gmem ? "global" : "register") + " memory");
    d.help("bars = smem.allocate_tensor(cutlass.Int64, cute.make_layout((STAGES,)), 8)");
    abort_entry();
  }
  fn_->stored_ptrs[t.ptr] += 1;
  return ir::address_of(t.ptr, tensor_offset(t, (*bar.elts)[1], r), t.dtype);
}

Value Evaluator::call_sm90_builtin(BuiltinId id, std::vector<Value>& args, Kwargs& kwargs, const ast::Call& site) {
  auto arg_range = [&](size_t i) { return arg_range_of(site, i); };
  auto arity = [&](size_t lo, size_t hi, const std::string& fn) { check_arity(args.size(), lo, hi, fn, site.range); };
  auto need_kernel = [&](const std::string& fn) {
    if (!fn_ || !fn_->is_kernel) fail(diag::Kind::UnsupportedOperation, site.range, fn + "() is only available inside a @cute.kernel");
  };
  auto effect = [&](ir::ExprRef e) {
    auto s = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : site.range);
    s->a = std::move(e);
    emit(std::move(s));
  };
  auto int_arg = [&](size_t i, const std::string& what) {
    Value v = resolve_symbol(args[i], arg_range(i));
    if (!(v.kind == Value::Kind::Int || (v.kind == Value::Kind::Dyn && ir::is_integer(v.type))))
      fail(diag::Kind::TypeMismatch, arg_range(i), what + " must be an integer, found " + describe(v));
    return to_expr_as(v, ScalarType::Int32, arg_range(i));
  };
  auto barrier_of = [&](size_t first, const std::string& fn) {
    return barrier_address(Value::tuple({args[first], args[first + 1]}), arg_range(first), fn);
  };
  auto wgmma_operand_fences = [&]() {
    for (const auto& [name, count] : fn_->wgmma_accumulators)
      effect(ir::call("tileslc::dev::wgmma_fence_operands",
                      {ir::address_of(name, ir::int_const(0, ScalarType::Int64), ScalarType::Float32), ir::int_const(count, ScalarType::Int32)},
                      ScalarType::Int32));
  };
  if (id == BuiltinId::MbarrierArrive) return mbarrier_arrive(args, kwargs, site);
  if (id != BuiltinId::WarpgroupMmaF16BF16Op && id != BuiltinId::WarpgroupMmaF8Op)
    check_keywords(kwargs,
                   id == BuiltinId::MaxActiveClusters ? "cutlass.utils.get_max_active_clusters"
                   : id == BuiltinId::MultiprocessorCount ? "cutlass.utils.get_device_multiprocessor_count"
                                                          : "this function",
                   {}, site.range);
  // An mbarrier operation on (bars, i), with one integer operand when `operand` names it.
  auto barrier_op = [&](const std::string& fn, const char* device, const char* operand) {
    need_kernel(fn);
    arity(operand ? 3 : 2, operand ? 3 : 2, fn);
    std::vector<ir::ExprRef> ops{barrier_of(0, fn)};
    if (operand) ops.push_back(int_arg(2, operand));
    effect(ir::call(device, std::move(ops), ScalarType::Int32));
    return Value::none();
  };
  // Asynchronous groups (wgmma, cp.async.bulk): commit, and wait until at most n are pending.
  auto group_commit = [&](const std::string& fn, const char* what, bool needs_90a, const char* device) {
    need_kernel(fn);
    arity(0, 0, fn);
    require_arch(what, needs_90a, site.range);
    effect(ir::call(device, {}, ScalarType::Int32));
    return Value::none();
  };
  auto group_wait = [&](const std::string& fn, const char* what, bool needs_90a, const std::string& device_prefix, bool fence_accumulators) {
    need_kernel(fn);
    arity(1, 1, fn);
    require_arch(what, needs_90a, site.range);
    int64_t n = require_static_int(args[0], arg_range(0), "the number of pending groups");
    if (n < 0 || n > 7) fail(diag::Kind::BadLaunch, arg_range(0), fn + "() takes 0 to 7 pending groups, found " + std::to_string(n));
    effect(ir::call(device_prefix + std::to_string(n), {}, ScalarType::Int32));
    if (fence_accumulators) wgmma_operand_fences();
    return Value::none();
  };
  switch (id) {
    case BuiltinId::MbarrierInit: {
      const std::string fn = "cute.arch.mbarrier_init";
      need_kernel(fn);
      arity(3, 3, fn);
      require_arch("mbarrier", false, site.range);
      auto bar = barrier_of(0, fn);
      effect(ir::call("tileslc::dev::mbarrier_init", {bar, int_arg(2, "the arrival count")}, ScalarType::Int32));
      return Value::none();
    }
    case BuiltinId::MbarrierInitFence:
      need_kernel("cute.arch.mbarrier_init_fence");
      arity(0, 0, "cute.arch.mbarrier_init_fence");
      effect(ir::call("tileslc::dev::mbarrier_init_fence", {}, ScalarType::Int32));
      return Value::none();
    case BuiltinId::MbarrierArriveExpectTx:
      return barrier_op("cute.arch.mbarrier_arrive_and_expect_tx", "tileslc::dev::mbarrier_arrive_expect_tx", "the transaction bytes");
    case BuiltinId::MbarrierWait: return barrier_op("cute.arch.mbarrier_wait", "tileslc::dev::mbarrier_wait", "the phase parity");
    case BuiltinId::FenceProxyAsync:
      need_kernel("cute.arch.fence_proxy_async");
      arity(0, 0, "cute.arch.fence_proxy_async");
      require_arch("fence.proxy.async", false, site.range);
      effect(ir::call("tileslc::dev::fence_proxy_async", {}, ScalarType::Int32));
      return Value::none();
    case BuiltinId::WarpgroupRegAlloc: case BuiltinId::WarpgroupRegDealloc: {
      bool inc = id == BuiltinId::WarpgroupRegAlloc;
      const std::string fn = inc ? "cute.arch.warpgroup_reg_alloc" : "cute.arch.warpgroup_reg_dealloc";
      need_kernel(fn);
      arity(1, 1, fn);
      require_arch("setmaxnreg", true, site.range);
      int64_t n = require_static_int(args[0], arg_range(0), "the register count");
      const int* b = inc ? std::begin(kSetmaxnregInc) : std::begin(kSetmaxnregDec);
      const int* e = inc ? std::end(kSetmaxnregInc) : std::end(kSetmaxnregDec);
      if (std::find(b, e, n) == e) {
        std::string list;
        for (const int* p = b; p != e; ++p) list += (p == b ? "" : ", ") + std::to_string(*p);
        auto& d = error(diag::Kind::BadLaunch, arg_range(0), fn + "(" + std::to_string(n) + "): the register count must be one of " + list);
        d.note("setmaxnreg takes a multiple of 8 from 24 to 256 per thread (PTX ISA, \"setmaxnreg\")");
        abort_entry();
      }
      effect(ir::call(std::string("tileslc::dev::setmaxnreg_") + (inc ? "inc_" : "dec_") + std::to_string(n), {}, ScalarType::Int32));
      return Value::none();
    }
    case BuiltinId::ElectOne:
      need_kernel("cute.arch.elect_one");
      arity(0, 0, "cute.arch.elect_one");
      require_arch("elect.sync", false, site.range);
      return materialize(Value::dyn(ir::call("tileslc::dev::elect_one", {}, ScalarType::Boolean), site.range), "elected", site.range);
    case BuiltinId::MakeWarpUniform: {
      need_kernel("cute.arch.make_warp_uniform");
      arity(1, 1, "cute.arch.make_warp_uniform");
      Value v = resolve_symbol(args[0], arg_range(0));
      if (v.kind == Value::Kind::Int) return v;
      return Value::dyn(ir::call("tileslc::dev::warp_uniform", {int_arg(0, "the value")}, ScalarType::Int32), site.range);
    }
    case BuiltinId::CopyBulkTensorTileG2SOp: case BuiltinId::CopyBulkTensorTileS2GOp: case BuiltinId::CopyReduceBulkTensorTileS2GOp: {
      const char* name = id == BuiltinId::CopyBulkTensorTileG2SOp   ? "CopyBulkTensorTileG2SOp"
                         : id == BuiltinId::CopyBulkTensorTileS2GOp ? "CopyBulkTensorTileS2GOp"
                                                                    : "CopyReduceBulkTensorTileS2GOp";
      arity(0, 0, name);
      Value v;
      v.kind = Value::Kind::Marker;
      v.s = name;
      return v;
    }
    // cp.async.bulk groups: wait until at most n are pending reading their
    // shared memory (the .read form: the buffer may then be reused).
    case BuiltinId::BulkCommitGroup: return group_commit("cute.arch.cp_async_bulk_commit_group", "cp.async.bulk", false, "tileslc::dev::bulk_commit_group");
    case BuiltinId::BulkWaitGroup:
      return group_wait("cute.arch.cp_async_bulk_wait_group", "cp.async.bulk", false, "tileslc::dev::bulk_wait_group_read_", false);
    case BuiltinId::MakeTiledTmaAtom: return make_tiled_tma_atom(args, site);
    case BuiltinId::WarpgroupMmaF16BF16Op:
    case BuiltinId::WarpgroupMmaF8Op: {
      // MmaF16BF16Op(ab, acc, (64, N, 16)) and MmaF8Op(a, b, acc, (64, N, 32)): K is
      // 32 bytes of input either way (PTX ISA, "wgmma.mma_async", Matrix shape).
      const bool f8 = id == BuiltinId::WarpgroupMmaF8Op;
      const std::string fn = f8 ? "cute.nvgpu.warpgroup.MmaF8Op" : "cute.nvgpu.warpgroup.MmaF16BF16Op";
      const size_t nargs = f8 ? 4 : 3;
      arity(nargs, nargs, fn);
      // a_src: warpgroup.OperandSource.SMEM (0, a descriptor) or RMEM (1, registers: the RS form).
      check_keywords(kwargs, fn, {"a_src"}, site.range);
      bool a_rmem = false;
      if (auto src = kwarg_of(kwargs, "a_src")) {
        Value v = resolve_symbol(*src, site.range);
        if (v.kind != Value::Kind::Int || (v.i != 0 && v.i != 1))
          fail(diag::Kind::TypeMismatch, site.range, "a_src is warpgroup.OperandSource.SMEM or warpgroup.OperandSource.RMEM, found " + describe(v));
        a_rmem = v.i == 1;
      }
      auto type_of = [&](size_t i) {
        if (args[i].kind != Value::Kind::Type) fail(diag::Kind::TypeMismatch, arg_range(i), "expected an element type, found " + describe(args[i]));
        return args[i].type;
      };
      ScalarType ab = type_of(0), b = f8 ? type_of(1) : ab, acc = type_of(nargs - 2);
      const int64_t kk = f8 ? 32 : 16;
      Value shape = args[nargs - 1];
      std::vector<Value> mnk = shape.kind == Value::Kind::Tuple ? *shape.elts : std::vector<Value>{};
      int64_t n = mnk.size() == 3 && mnk[1].kind == Value::Kind::Int ? mnk[1].i : 0;
      bool ok = mnk.size() == 3 && mnk[0].kind == Value::Kind::Int && mnk[0].i == 64 && mnk[2].kind == Value::Kind::Int &&
                mnk[2].i == kk && (n == 64 || n == 128 || n == 192 || n == 256);
      if (!ok) {
        auto& d = error(diag::Kind::BadCopyAtom, arg_range(nargs - 1), fn + " supports the shapes (64, N, " + std::to_string(kk) +
                                                                          ") with N in 64, 128, 192, 256, found " + repr(shape));
        d.note(std::string("wgmma.mma_async's M is 64 per warpgroup and K ") + (f8 ? "32 for 8-bit" : "16 for 16-bit") +
               " inputs (PTX ISA, \"wgmma.mma_async\")");
        abort_entry();
      }
      auto is_f8 = [](ScalarType t) { return t == ScalarType::Float8E4M3FN || t == ScalarType::Float8E5M2; };
      bool types_ok = acc == ScalarType::Float32 &&
                      (f8 ? is_f8(ab) && is_f8(b) : (ab == ScalarType::BFloat16 || ab == ScalarType::Float16));
      if (!types_ok) {
        auto& d = error(diag::Kind::BadCopyAtom, site.range, std::string("wgmma has no ") + ir::type_name(ab) + " x " + ir::type_name(b) + " -> " +
                                                                 ir::type_name(acc) + " form here");
        d.note(f8 ? "MmaF8Op: Float8E4M3FN or Float8E5M2 inputs (any pair) accumulating in Float32"
                  : "MmaF16BF16Op: Float16 or BFloat16 inputs accumulating in Float32");
        abort_entry();
      }
      auto ptx = [](ScalarType t) {
        return t == ScalarType::BFloat16 ? "bf16" : t == ScalarType::Float16 ? "f16" : t == ScalarType::Float8E4M3FN ? "e4m3" : "e5m2";
      };
      MmaAtom a;
      a.name = f8 ? "warpgroup.MmaF8Op" : "warpgroup.MmaF16BF16Op";
      a.wgmma = true;
      a.device_fn = "tileslc::dev::wgmma_m64n" + std::to_string(n) + "k" + std::to_string(kk) + "_f32_" + ptx(ab) +
                    (f8 ? std::string("_") + ptx(b) : std::string()) + (a_rmem ? "_rs" : "_ss");
      a.a_rmem = a_rmem;
      a.ab = ab;
      if (b != ab) a.b = b;
      a.acc = acc;
      a.m = 64, a.n = n, a.k = kk, a.threads = 128;
      auto L = [](const std::string& s) { return layout::parse_layout(s); };
      const std::string k = std::to_string(kk);
      // RS: each thread holds four 32-bit registers of A, warp w rows 16w .. 16w + 15
      // (PTX ISA, "Register Fragments and Shared Memory Matrix Layouts", matrix A; CuTe's
      // ALayout_64x16 and ALayout_64x32). Value v of thread t, g = (t % 32) / 4, q = t % 4:
      //   16-bit, 8 values (the m16n8k16 A fragment): (16w + g + 8 ((v / 2) % 2), 2q + v % 2 + 8 (v / 4));
      //   8-bit, 16 values: (16w + g + 8 ((v / 4) % 2), 4q + v % 4 + 16 (v / 8)).
      // SS: every thread names the whole tile (a descriptor).
      a.a_tv = !a_rmem ? L("(128,(64," + k + ")):(0,(1,64))")
               : f8    ? L("((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))")
                       : L("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
      a.b_tv = L("(128,(" + std::to_string(n) + "," + k + ")):(0,(1," + std::to_string(n) + "))");
      a.c_tv = L("((4,8,4),(2,2," + std::to_string(n / 8) + ")):((128,1,16),(64,8,512))");
      Value v;
      v.kind = Value::Kind::MmaAtom;
      v.mma = std::make_shared<MmaAtom>(std::move(a));
      return v;
    }
    case BuiltinId::WarpgroupFence:
      need_kernel("cute.nvgpu.warpgroup.fence");
      arity(0, 0, "cute.nvgpu.warpgroup.fence");
      require_arch("wgmma", true, site.range);
      wgmma_operand_fences();
      effect(ir::call("tileslc::dev::wgmma_fence", {}, ScalarType::Int32));
      return Value::none();
    case BuiltinId::WarpgroupCommitGroup: return group_commit("cute.nvgpu.warpgroup.commit_group", "wgmma", true, "tileslc::dev::wgmma_commit_group");
    case BuiltinId::WarpgroupWaitGroup: return group_wait("cute.nvgpu.warpgroup.wait_group", "wgmma", true, "tileslc::dev::wgmma_wait_group_", true);
    case BuiltinId::MultiprocessorCount:
      arity(0, 0, "cutlass.utils.get_device_multiprocessor_count");
      if (!fn_ || fn_->is_kernel)
        fail(diag::Kind::UnsupportedOperation, site.range, "get_device_multiprocessor_count() is a host query: call it in a @cute.jit function");
      return materialize(Value::dyn(ir::call("tileslc::device_multiprocessor_count", {}, ScalarType::Int64), site.range), "sm_count", site.range);
    case BuiltinId::MaxActiveClusters: {
      // CuTe DSL: cutlass.utils.HardwareInfo().get_max_active_clusters(cluster_size).
      arity(1, 1, "cutlass.utils.get_max_active_clusters");
      if (!fn_ || fn_->is_kernel)
        fail(diag::Kind::UnsupportedOperation, site.range, "get_max_active_clusters() is a host query: call it in a @cute.jit function");
      Value n = args[0];
      if (n.kind == Value::Kind::SymDim) n = resolve_symbol(n, arg_range(0));
      if (n.kind == Value::Kind::Int && (n.i < 1 || n.i > 16)) {
        auto& d = error(diag::Kind::ClusterMismatch, arg_range(0),
                        "get_max_active_clusters(" + std::to_string(n.i) + "): a cluster has 1 to 16 blocks");
        d.note("8 is the portable maximum; 16 needs the non-portable cluster size attribute (sm_90)");
        abort_entry();
      }
      if (n.kind != Value::Kind::Int && !(n.kind == Value::Kind::Dyn && ir::is_integer(n.type)))
        fail(diag::Kind::TypeMismatch, arg_range(0), "get_max_active_clusters() takes the cluster's size in blocks, an integer, found " + describe(n));
      return materialize(Value::dyn(ir::call("tileslc::max_active_clusters", {to_expr_as(n, ScalarType::Int64, arg_range(0))}, ScalarType::Int64),
                                    site.range),
                         "max_clusters", site.range);
    }
    default: break;
  }
  fail(diag::Kind::NotCallable, site.range, "unknown sm_90 builtin");
}

Value Evaluator::make_tiled_tma_atom(std::vector<Value>& args, const ast::Call& site) {
  const std::string fn = "cute.nvgpu.cpasync.make_tiled_tma_atom";
  auto arg_range = [&](size_t i) { return arg_range_of(site, i); };
  check_arity(args.size(), 4, 4, fn, site.range);
  if (!fn_ || fn_->is_kernel)
    fail(diag::Kind::UnsupportedOperation, site.range, fn + "() builds a tensor map on the host: call it in a @cute.jit function");
  require_arch("TMA", false, site.range);
  const bool multicast = args[0].kind == Value::Kind::Marker && args[0].s == "CopyBulkTensorTileG2SMulticastOp";
  const bool op_ok = args[0].kind == Value::Kind::Marker &&
                     (args[0].s == "CopyBulkTensorTileG2SOp" || args[0].s == "CopyBulkTensorTileS2GOp" || args[0].s == "CopyReduceBulkTensorTileS2GOp" ||
                      multicast);
  if (!op_ok)
    fail(diag::Kind::BadCopyAtom, arg_range(0), fn + "() takes cute.nvgpu.cpasync.CopyBulkTensorTileG2SOp(), CopyBulkTensorTileG2SMulticastOp(), "
                                                     "CopyBulkTensorTileS2GOp() or CopyReduceBulkTensorTileS2GOp() first, found " + describe(args[0]));
  if (args[1].kind != Value::Kind::Tensor || args[1].tensor->space != MemSpace::Gmem || args[1].tensor->host_index < 0)
    fail(diag::Kind::BadCopyAtom, arg_range(1), fn + "() needs a global-memory tensor parameter of this function, found " + describe(args[1]));
  const TensorValue& g = *args[1].tensor;
  if (g.layout.rank() != 2) fail(diag::Kind::BadCopyAtom, arg_range(1), fn + "() supports rank-2 tensors here, found rank " + std::to_string(g.layout.rank()));
  int inner = -1;
  for (int m = 0; m < 2; ++m) {
    const auto& s = g.layout.stride[m];
    if (s.is_leaf() && s.value().has_value() && s.value().value() == 1) inner = m;
  }
  if (inner < 0) {
    auto& d = error(diag::Kind::BadCopyAtom, arg_range(1), "TMA needs one mode of stride 1, and this tensor's strides are " +
                                                               shape_text(g.layout.stride));
    d.help("declare the contiguous mode in the annotation: cute.Tensor[cutlass.BFloat16, (M, K), (K, 1), 16]");
    abort_entry();
  }
  // The shared-memory tile: a layout or swizzle o layout, compact with the same contiguous mode.
  layout::Layout sl;
  std::optional<layout::Swizzle> sw;
  if (args[2].kind == Value::Kind::ComposedLayout) {
    sl = args[2].composed->layout;
    sw = args[2].composed->swizzle;
  } else {
    sl = to_layout(args[2], arg_range(2), "the shared-memory layout");
  }
  layout::IntTuple tiler = to_int_tuple(args[3], arg_range(3), "cta_tiler");
  auto dim = [&](const layout::IntTuple& t, int m) -> int64_t {
    if (!t.is_tuple() || t.elems().size() != 2 || !t[m].is_leaf() || !t[m].value().has_value()) return -1;
    return t[m].value().value();
  };
  int64_t t0 = dim(tiler, 0), t1 = dim(tiler, 1);
  if (t0 <= 0 || t1 <= 0) fail(diag::Kind::BadCopyAtom, arg_range(3), "cta_tiler must be two static extents, found " + repr(args[3]));
  const int64_t elem = ir::bit_width(g.dtype) / 8;
  int64_t box_inner = inner == 0 ? t0 : t1, box_outer = inner == 0 ? t1 : t0;
  layout::Layout want = inner == 1 ? layout::parse_layout("(" + std::to_string(t0) + "," + std::to_string(t1) + "):(" + std::to_string(t1) + ",1)")
                                   : layout::parse_layout("(" + std::to_string(t0) + "," + std::to_string(t1) + "):(1," + std::to_string(t0) + ")");
  if (sl.to_string() != want.to_string()) {
    auto& d = error(diag::Kind::BadCopyAtom, arg_range(2), "the TMA tile must be stored compactly in shared memory with the global tensor's contiguous mode innermost: " +
                                                               want.to_string() + ", found " + sl.to_string());
    d.note("the copy engine writes the box row by row, " + std::to_string(box_inner) + " elements per row");
    abort_entry();
  }
  int64_t swizzle_bytes = 0;
  if (sw) {
    swizzle_bytes = swizzle_span_bytes(*sw, elem);
    if (swizzle_bytes == 0 || swizzle_bytes != box_inner * elem) {
      auto& d = error(diag::Kind::BadCopyAtom, arg_range(2), "this swizzle is not one the copy engine writes for rows of " +
                                                                 std::to_string(box_inner * elem) + " bytes");
      d.note("TMA swizzles rows of 32, 64 or 128 bytes; for " + std::to_string(elem) + "-byte elements those are cute.make_swizzle(1|2|3, " +
             std::to_string(swizzle_bytes == 0 ? (elem == 2 ? 3 : elem == 4 ? 2 : elem == 1 ? 4 : 1) : sw->base) +
             ", 3) over rows of exactly that many bytes");
      abort_entry();
    }
  }
  if (box_inner > 256 || box_outer > 256 || box_inner * elem % 16 != 0) {
    fail(diag::Kind::BadCopyAtom, arg_range(3), "a TMA box is at most 256 elements per dimension with rows a multiple of 16 bytes; this one is " +
                                                    std::to_string(box_outer) + " x " + std::to_string(box_inner));
  }
  auto atom = std::make_shared<TmaAtom>();
  atom->dtype = g.dtype;
  atom->host_index = g.host_index;
  atom->inner_mode = inner;
  atom->tile[0] = t0;
  atom->tile[1] = t1;
  atom->smem_layout = sl;
  atom->swizzle = sw;
  atom->swizzle_bytes = swizzle_bytes;
  atom->multicast = multicast;
  atom->direction = args[0].s == "CopyBulkTensorTileG2SOp" || multicast ? TmaAtom::Direction::Load
                    : args[0].s == "CopyBulkTensorTileS2GOp" ? TmaAtom::Direction::Store
                                                             : TmaAtom::Direction::ReduceAdd;
  if (atom->direction == TmaAtom::Direction::ReduceAdd && g.dtype != ScalarType::Float32 && g.dtype != ScalarType::Float16 &&
      g.dtype != ScalarType::BFloat16 && g.dtype != ScalarType::Int32 && g.dtype != ScalarType::Uint32)
    fail(diag::Kind::BadCopyAtom, arg_range(1), std::string("a TMA reduce-add has no ") + ir::type_name(g.dtype) + " form here (Float32, Float16, BFloat16, Int32, Uint32)");
  Value a;
  a.kind = Value::Kind::TmaAtom;
  a.tma = atom;
  // The TMA tensor: coordinates over the global tensor's shape.
  TensorValue tv;
  tv.space = MemSpace::Coord;
  tv.dtype = ScalarType::Int64;
  tv.layout = layout::make_layout(g.layout.shape, layout::IntTuple::tuple({layout::Int::symbol("1@0"), layout::Int::symbol("1@1")}));
  tv.coord_offset = {ir::int_const(0, ScalarType::Int64), ir::int_const(0, ScalarType::Int64)};
  return Value::tuple({a, tensor_value(std::move(tv))});
}

void Evaluator::tma_copy(const TmaAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& bar, source::SourceRange r,
                         const std::optional<Value>& mcast_mask, source::SourceRange mask_at) {
  require_arch("TMA", false, r);
  if (atom.param.empty())
    fail(diag::Kind::UnsupportedOperation, r, "this TMA atom was not passed to the kernel as an argument");
  if (!mask_at.valid()) mask_at = r;
  if (mcast_mask && !atom.multicast) {
    auto& e = error(diag::Kind::ClusterMismatch, mask_at, "mcast_mask= needs a multicast TMA atom, and this one was made with " +
                                                        std::string(atom.direction == TmaAtom::Direction::Load ? "CopyBulkTensorTileG2SOp()" : "a store op"));
    e.help("make the atom with cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp()");
    abort_entry();
  }
  if (atom.direction != TmaAtom::Direction::Load) return tma_store(atom, src, dst, bar, r);
  std::optional<ir::ExprRef> mask_expr;
  if (atom.multicast) mask_expr = multicast_mask(mcast_mask, r, mask_at);
  if (!bar) {
    auto& d = error(diag::Kind::BadCopyAtom, r, "a TMA copy completes on an mbarrier: pass tma_bar_ptr=(barriers, index)");
    d.note("the barrier's phase completes once the copy's bytes have arrived (mbarrier_arrive_and_expect_tx)");
    abort_entry();
  }
  const TensorValue& s = *src.tensor;
  const TensorValue& d = *dst.tensor;
  auto shape_is_tile = [&](const TensorValue& t) {
    return t.layout.rank() == 2 && layout::size(layout::get(t.layout, 0)).has_value() && layout::size(layout::get(t.layout, 1)).has_value() &&
           layout::size(layout::get(t.layout, 0)).value() == atom.tile[0] && layout::size(layout::get(t.layout, 1)).value() == atom.tile[1];
  };
  std::string tile = "(" + std::to_string(atom.tile[0]) + ", " + std::to_string(atom.tile[1]) + ")";
  if (s.space != MemSpace::Coord || !shape_is_tile(s)) {
    auto& e = error(diag::Kind::TensorShapeMismatch, r, "a TMA copy's source is a " + tile + " tile of the TMA tensor, found " +
                                                            (s.space == MemSpace::Coord ? "shape " + shape_text(s.layout.shape) : describe(src)));
    e.help("tile the tensor make_tiled_tma_atom returned: cute.local_tile(mA_tma, " + tile + ", (bm, None))[None, None, k]");
    abort_entry();
  }
  if (d.space != MemSpace::Smem || !shape_is_tile(d) || d.dtype != atom.dtype) {
    fail(diag::Kind::BadCopyAtom, r, "a TMA load writes a " + std::string(ir::type_name(atom.dtype)) + " " + tile +
                                         " shared-memory tile, found " + describe(dst) + " of shape " + shape_text(d.layout.shape));
  }
  bool same_layout = layout::coalesce(d.layout).to_string() == layout::coalesce(atom.smem_layout).to_string();
  bool same_swizzle = d.swizzle.has_value() == atom.swizzle.has_value() &&
                      (!d.swizzle || (d.swizzle->bits == atom.swizzle->bits && d.swizzle->base == atom.swizzle->base && d.swizzle->shift == atom.swizzle->shift));
  if (!same_layout || !same_swizzle) {
    auto& e = error(diag::Kind::BadCopyAtom, r, "the shared-memory tile's layout is not the one the TMA atom was built for");
    e.note("the atom writes " + (atom.swizzle ? atom.swizzle->to_string() + " o " : std::string()) + atom.smem_layout.to_string() +
           "; this tile is " + (d.swizzle ? d.swizzle->to_string() + " o " : std::string()) + d.layout.to_string());
    abort_entry();
  }
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
  Value origin = coord_element(s, Value::tuple({Value::integer(0), Value::integer(0)}), r);
  std::vector<Value> c = *origin.elts;
  auto coord = [&](int m) { return to_expr_as(resolve_symbol(c.at(static_cast<size_t>(m)), r), ScalarType::Int32, r); };
  auto desc = std::make_shared<ir::Expr>();
  desc->kind = ir::ExprKind::AddressOf;
  desc->type = ScalarType::Uint8;
  desc->name = atom.param;
  fn_->stored_ptrs[d.ptr] += 1;
  auto stmt = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : r);
  std::vector<ir::ExprRef> ops{ir::address_of(d.ptr, d.offset ? d.offset : ir::int_const(0, ScalarType::Int64), d.dtype), desc, barrier,
                               coord(atom.inner_mode), coord(1 - atom.inner_mode)};
  if (mask_expr) ops.push_back(*mask_expr);
  stmt->a = ir::call(mask_expr ? "tileslc::dev::tma_load_2d_multicast" : "tileslc::dev::tma_load_2d", std::move(ops), ScalarType::Int32);
  emit(std::move(stmt));
}

void Evaluator::wgmma_gemm(const TiledMma& tm, const Value& dv, const Value& av, const Value& bv, const Value& cv, source::SourceRange r) {
  require_arch("wgmma", true, r);
  const MmaAtom& atom = tm.atom;
  const TensorValue &d = *dv.tensor, &a = *av.tensor, &b = *bv.tensor, &c = *cv.tensor;
  if (d.ptr != c.ptr || d.layout.to_string() != c.layout.to_string()) {
    auto& e = error(diag::Kind::BadCopyAtom, r, "wgmma accumulates in place: cute.gemm's D and C must be the same fragment");
    e.help("cute.gemm(tiled_mma, acc, tCsA, tCsB, acc)");
    abort_entry();
  }
  if (d.space != MemSpace::Rmem || d.dtype != atom.acc)
    fail(diag::Kind::BadCopyAtom, r, "wgmma's accumulator is a Float32 register fragment (tiled_mma.make_fragment_C)");
  const int64_t elem = ir::bit_width(atom.ab) / 8;
  // Each operand: (V, X, K) in shared memory with V the atom's (rows, 16)
  // K-major tile under a 128-, 64- or 32-byte swizzle (or none, interleaved
  // 8x16-byte core matrices are not supported here).
  struct Operand { int64_t rows_rest, k_rest, sbo, mode; };
  auto operand = [&](const TensorValue& t, const char* which, int64_t rows, ScalarType want) -> Operand {
    if (t.space != MemSpace::Smem || t.dtype != want) {
      auto& e = error(diag::Kind::BadCopyAtom, r, std::string("wgmma reads ") + which + " from shared memory as " + ir::type_name(want) +
                                                      "; this operand is a " + ir::type_name(t.dtype) + " tensor in " +
                                                      (t.space == MemSpace::Rmem ? "registers" : t.space == MemSpace::Gmem ? "global memory" : "shared memory"));
      e.help(std::string("partition the shared-memory tile: thr_mma.partition_") + which + "(s" + which + "[None, None, stage])");
      abort_entry();
    }
    if (t.layout.rank() != 3)
      fail(diag::Kind::TensorShapeMismatch, r, std::string("cute.gemm()'s ") + which + " must be (V, " + (which[0] == 'A' ? "M" : "N") +
                                                   ", K)-shaped as partition_" + which + " makes it, found " + shape_text(t.layout.shape));
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
    if (!shape_ok || !k_major || span == 0 || row_stride * elem != span) {
      auto& e = error(diag::Kind::BadCopyAtom, r, std::string("wgmma's ") + which + " tile must be K-major in a swizzled shared-memory layout: " +
                                                      "rows of 32, 64 or 128 bytes under the matching swizzle");
      e.note(std::string("this operand's atom tile is ") + v.to_string() + (t.swizzle ? " (swizzled)" : " (not swizzled)"));
      e.help(elem == 1 ? "allocate it as cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((ROWS, 128), stride=(128, 1))) for 8-bit types"
                       : "allocate it as cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((ROWS, 64), stride=(64, 1))) for 16-bit types");
      abort_entry();
    }
    int64_t need = span * 8;
    int64_t align = t.align_bytes;
    if (align % need != 0) {
      auto& e = error(diag::Kind::BadCopyAtom, r, std::string("wgmma's ") + which + " buffer must be " + std::to_string(need) +
                                                      "-byte aligned for its swizzle, found " + std::to_string(align));
      e.help("allocate it with byte_alignment=" + std::to_string(need));
      abort_entry();
    }
    int64_t mode = span == 128 ? 1 : span == 64 ? 2 : 3;
    return {layout::size(layout::get(t.layout, 1)).require_value("rows"), layout::size(layout::get(t.layout, 2)).require_value("k"),
            8 * span, mode};
  };
  Operand oa{};
  if (atom.a_rmem) {
    // RS: A is the register fragment make_fragment_A made, (V, M, K) with each
    // instruction's V values contiguous: four 32-bit registers, V = 8 16-bit
    // or 16 8-bit values.
    const int64_t va = layout::size(layout::get(atom.a_tv, 1)).require_value("A values");
    const std::string frag = "(" + std::to_string(va) + ", M, K)";
    const char* help = "tCrA = tiled_mma.make_fragment_A(thr_mma.partition_A(sA)); cute.copy(atom, thr_mma.partition_A(sA), tCrA)";
    if (a.space != MemSpace::Rmem || a.dtype != atom.ab) {
      auto& e = error(diag::Kind::BadCopyAtom, r, std::string("this wgmma reads A from registers (a_src=RMEM): A must be a ") + ir::type_name(atom.ab) +
                                                      " register fragment " + frag + ", found " + describe(av) + " of shape " + shape_text(a.layout.shape));
      e.help(help);
      abort_entry();
    }
    if (a.layout.rank() != 3 || layout::coalesce(layout::get(a.layout, 0)).to_string() != std::to_string(va) + ":1") {
      auto& e = error(diag::Kind::BadCopyAtom, r, "this wgmma reads A from registers (a_src=RMEM): A must be the " + frag + " fragment " +
                                                      "make_fragment_A makes, " + std::to_string(va) + " contiguous values per thread per instruction, found shape " +
                                                      shape_text(a.layout.shape) + " with layout " + a.layout.to_string());
      e.note(std::string("each wgmma.mma_async m64nNk") + std::to_string(atom.k) + " reads four 32-bit registers of A per thread: " + std::to_string(va) + " " +
             ir::type_name(atom.ab) + " values (PTX ISA, \"Register Fragments and Shared Memory Matrix Layouts\")");
      e.help(help);
      abort_entry();
    }
    oa = {layout::size(layout::get(a.layout, 1)).require_value("M"), layout::size(layout::get(a.layout, 2)).require_value("K"), 0, 0};
  } else {
    oa = operand(a, "A", atom.m, atom.ab);
  }
  Operand ob = operand(b, "B", atom.n, atom.b_type());
  if (d.layout.rank() != 3) fail(diag::Kind::TensorShapeMismatch, r, "wgmma's accumulator must be (V, M, N)-shaped as make_fragment_C makes it");
  int64_t vc = layout::size(layout::get(atom.c_tv, 1)).require_value("C values");
  int64_t cm = layout::size(layout::get(d.layout, 1)).require_value("M"), cn = layout::size(layout::get(d.layout, 2)).require_value("N");
  if (layout::size(layout::get(d.layout, 0)).require_value("V") != vc || cm != oa.rows_rest || cn != ob.rows_rest || oa.k_rest != ob.k_rest) {
    auto& e = error(diag::Kind::TensorShapeMismatch, r, "cute.gemm() operands do not agree: A " + shape_text(a.layout.shape) + ", B " +
                                                            shape_text(b.layout.shape) + ", C " + shape_text(d.layout.shape));
    e.note("A is ((64, " + std::to_string(atom.k) + "), M, K), B ((N, " + std::to_string(atom.k) + "), N, K) and C (V, M, N) with equal M, N and K");
    abort_entry();
  }
  auto off = [&](const TensorValue& t, int64_t x, int64_t y) -> ir::ExprRef {
    Value o = layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x), Value::integer(y)}), r);
    auto stat = ir::int_const(o.i, ScalarType::Int64);
    return t.offset ? ir::binary(ir::Op::Add, t.offset, stat, ScalarType::Int64) : stat;
  };
  auto desc = [&](const TensorValue& t, const Operand& o, int64_t x, int64_t k) {
    return ir::call("tileslc::dev::wgmma_desc",
                    {ir::address_of(t.ptr, off(t, x, k), t.dtype), ir::int_const(16, ScalarType::Int32),
                     ir::int_const(o.sbo, ScalarType::Int32), ir::int_const(o.mode, ScalarType::Int32)},
                    ScalarType::Uint64);
  };
  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  for (int64_t k = 0; k < oa.k_rest; ++k)
    for (int64_t m = 0; m < cm; ++m)
      for (int64_t n = 0; n < cn; ++n) {
        Value o = layout_offset(d.layout, Value::tuple({Value::integer(0), Value::integer(m), Value::integer(n)}), r);
        auto s = ir::make_stmt(ir::StmtKind::Eval, loc);
        ir::ExprRef a_operand;
        if (atom.a_rmem) {
          Value ao = layout_offset(a.layout, Value::tuple({Value::integer(0), Value::integer(m), Value::integer(k)}), r);
          a_operand = ir::address_of(a.ptr, ir::int_const(ao.i, ScalarType::Int64), a.dtype);
        } else {
          a_operand = desc(a, oa, m, k);
        }
        s->a = ir::call(atom.device_fn,
                        {ir::address_of(d.ptr, ir::int_const(o.i, ScalarType::Int64), d.dtype), std::move(a_operand), desc(b, ob, n, k),
                         ir::int_const(1, ScalarType::Int32)},
                        ScalarType::Int32);
        emit(std::move(s));
      }
}

}  // namespace tileslc::sema

namespace tileslc::sema {

void Evaluator::tma_store(const TmaAtom& atom, const Value& src, const Value& dst, const std::optional<Value>& bar, source::SourceRange r) {
  // cp.async.bulk.tensor.2d.global.shared::cta (.reduce.add): a shared-memory
  // tile to a tile of the TMA tensor, completed by bulk commit/wait groups.
  const bool reduce = atom.direction == TmaAtom::Direction::ReduceAdd;
  if (bar) fail(diag::Kind::BadCopyAtom, r, "a TMA store completes through cute.arch.cp_async_bulk_commit_group()/wait_group(), not an mbarrier: drop tma_bar_ptr");
  const TensorValue& s = *src.tensor;
  const TensorValue& d = *dst.tensor;
  std::string tile = "(" + std::to_string(atom.tile[0]) + ", " + std::to_string(atom.tile[1]) + ")";
  auto shape_is_tile = [&](const TensorValue& t) {
    return t.layout.rank() == 2 && layout::size(layout::get(t.layout, 0)).has_value() && layout::size(layout::get(t.layout, 1)).has_value() &&
           layout::size(layout::get(t.layout, 0)).value() == atom.tile[0] && layout::size(layout::get(t.layout, 1)).value() == atom.tile[1];
  };
  if (s.space != MemSpace::Smem || !shape_is_tile(s) || s.dtype != atom.dtype)
    fail(diag::Kind::BadCopyAtom, r, std::string("a TMA ") + (reduce ? "reduce-add" : "store") + " reads a " + ir::type_name(atom.dtype) + " " + tile +
                                         " shared-memory tile first, found " + describe(src) + " of shape " + shape_text(s.layout.shape));
  if (d.space != MemSpace::Coord || !shape_is_tile(d)) {
    auto& e = error(diag::Kind::TensorShapeMismatch, r, "a TMA store writes a " + tile + " tile of the TMA tensor, found " +
                                                            (d.space == MemSpace::Coord ? "shape " + shape_text(d.layout.shape) : describe(dst)));
    e.help("tile the tensor make_tiled_tma_atom returned: cute.local_tile(mC_tma, " + tile + ", (bm, bn))");
    abort_entry();
  }
  bool same_layout = layout::coalesce(s.layout).to_string() == layout::coalesce(atom.smem_layout).to_string();
  bool same_swizzle = s.swizzle.has_value() == atom.swizzle.has_value() &&
                      (!s.swizzle || (s.swizzle->bits == atom.swizzle->bits && s.swizzle->base == atom.swizzle->base && s.swizzle->shift == atom.swizzle->shift));
  if (!same_layout || !same_swizzle) {
    auto& e = error(diag::Kind::BadCopyAtom, r, "the shared-memory tile's layout is not the one the TMA atom was built for");
    e.note("the atom reads " + (atom.swizzle ? atom.swizzle->to_string() + " o " : std::string()) + atom.smem_layout.to_string() +
           "; this tile is " + (s.swizzle ? s.swizzle->to_string() + " o " : std::string()) + s.layout.to_string());
    abort_entry();
  }
  Value origin = coord_element(d, Value::tuple({Value::integer(0), Value::integer(0)}), r);
  std::vector<Value> c = *origin.elts;
  auto coord = [&](int m) { return to_expr_as(resolve_symbol(c.at(static_cast<size_t>(m)), r), ScalarType::Int32, r); };
  auto desc = std::make_shared<ir::Expr>();
  desc->kind = ir::ExprKind::AddressOf;
  desc->type = ScalarType::Uint8;
  desc->name = atom.param;
  auto stmt = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : r);
  stmt->a = ir::call(reduce ? "tileslc::dev::tma_reduce_add_2d" : "tileslc::dev::tma_store_2d",
                     {desc, ir::address_of(s.ptr, s.offset ? s.offset : ir::int_const(0, ScalarType::Int64), s.dtype),
                      coord(atom.inner_mode), coord(1 - atom.inner_mode)},
                     ScalarType::Int32);
  emit(std::move(stmt));
}

}  // namespace tileslc::sema
