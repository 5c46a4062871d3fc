// tileslc.cute.arch beyond indices: hardware atomics on tensor elements in
// global or shared memory (PTX ISA "atom" / "red"; CUDA's atomicAdd family),
// warp shuffles and votes (PTX "shfl.sync", "vote.sync"), named barriers
// ("bar.sync id, count") and memory fences ("fence.acq_rel.{cta,gpu,sys}"),
// warp reductions ("redux.sync", sm_80) and packed half-precision adds
// ("red.add.noftz.{f16x2,bf16x2}").
// Each checks the element type and memory space the instruction supports and
// says which requirement failed.
#include <algorithm>

#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

struct AtomicRow {
  BuiltinId id;
  const char* name;      // tileslc.cute.arch name
  const char* device;    // prelude function
  bool integers_only;
};

constexpr AtomicRow kAtomics[] = {
    {BuiltinId::AtomicAdd, "atomic_add", "tileslc::dev::atomic_add", false},
    {BuiltinId::AtomicMin, "atomic_min", "tileslc::dev::atomic_min", true},
    {BuiltinId::AtomicMax, "atomic_max", "tileslc::dev::atomic_max", true},
    {BuiltinId::AtomicAnd, "atomic_and", "tileslc::dev::atomic_and", true},
    {BuiltinId::AtomicOr, "atomic_or", "tileslc::dev::atomic_or", true},
    {BuiltinId::AtomicXor, "atomic_xor", "tileslc::dev::atomic_xor", true},
    {BuiltinId::AtomicExch, "atomic_exch", "tileslc::dev::atomic_exch", false},
    {BuiltinId::AtomicCas, "atomic_cas", "tileslc::dev::atomic_cas", false},
};

bool wide_int(ScalarType t) {
  return t == ScalarType::Int32 || t == ScalarType::Uint32 || t == ScalarType::Int64 || t == ScalarType::Uint64;
}

}  // namespace

Value Evaluator::call_arch_builtin(BuiltinId id, std::vector<Value>& args, std::vector<std::pair<std::string, Value>>& kwargs,
                                   const ast::Call& site) {
  auto arg_range = [&](size_t i) { return arg_range_of(site, i); };
  auto kwarg = [&](const std::string& name) { return kwarg_of(kwargs, name); };
  auto check_kwargs = [&](const std::string& fn, std::initializer_list<const char*> allowed) {
    check_keywords(kwargs, "cute.arch." + fn, allowed, site.range);
  };
  auto arity = [&](size_t lo, size_t hi, const std::string& fn) { check_arity(args.size(), lo, hi, "cute.arch." + fn, site.range); };
  auto need_kernel = [&](const std::string& fn) {
    if (!fn_ || !fn_->is_kernel)
      fail(diag::Kind::UnsupportedOperation, site.range, "cute.arch." + fn + "() is only available inside a @cute.kernel");
  };
  auto mask_of = [&](std::optional<Value> m) {
    if (!m) return ir::int_const(0xffffffffLL, ScalarType::Uint32);
    Value v = resolve_symbol(*m, site.range);
    if (!(v.kind == Value::Kind::Int || (v.kind == Value::Kind::Dyn && ir::is_integer(v.type))))
      fail(diag::Kind::TypeMismatch, site.range, "a lane mask must be an integer, found " + describe(v));
    return to_expr_as(v, ScalarType::Uint32, site.range);
  };
  auto effect = [&](ir::ExprRef e) {
    auto s = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : site.range);
    s->a = std::move(e);
    emit(std::move(s));
  };

  for (const auto& row : kAtomics) {
    if (row.id != id) continue;
    std::string fn = row.name;
    need_kernel(fn);
    check_kwargs(fn, {});
    bool cas = id == BuiltinId::AtomicCas;
    arity(cas ? 4 : 3, cas ? 4 : 3, fn);
    if (args[0].kind != Value::Kind::Tensor)
      fail(diag::Kind::TypeMismatch, arg_range(0),
           "cute.arch." + fn + "() takes a tensor and a coordinate first (t, coord, " + (cas ? "compare, value" : "value") +
               "), found " + describe(args[0]));
    const TensorValue& t = *args[0].tensor;
    if (id == BuiltinId::AtomicAdd && args[2].kind == Value::Kind::Tuple) return atomic_add_pair(t, args, site);
    if (t.space == MemSpace::Rmem || t.space == MemSpace::Coord) {
      auto& d = error(diag::Kind::UnsupportedOperation, arg_range(0),
                      "cute.arch." + fn + "() needs a tensor in global or shared memory, found a " +
                          (t.space == MemSpace::Rmem ? "register" : "coordinate") + " tensor");
      d.note("atomics synchronize threads through memory; a register tensor is private to its thread");
      abort_entry();
    }
    ScalarType et = t.dtype;
    bool supported = row.integers_only ? wide_int(et)
                     : id == BuiltinId::AtomicAdd
                         ? (wide_int(et) || et == ScalarType::Float32 || et == ScalarType::Float64 || et == ScalarType::Float16 ||
                            et == ScalarType::BFloat16)
                         : (wide_int(et) || et == ScalarType::Float32);
    if (!supported) {
      auto& d = error(diag::Kind::TypeMismatch, arg_range(0),
                      "cute.arch." + fn + "() is not available for " + ir::type_name(et) + " elements");
      d.note(row.integers_only ? std::string("the hardware has it for Int32, Uint32, Int64 and Uint64")
             : id == BuiltinId::AtomicAdd ? std::string("atomic_add exists for 32- and 64-bit integers, Float16, BFloat16, Float32 and Float64")
                                          : std::string("it exists for 32- and 64-bit integers and Float32"));
      abort_entry();
    }
    auto off = tensor_offset(t, args[1], arg_range(1));
    std::vector<ir::ExprRef> ops{ir::address_of(t.ptr, off, et)};
    for (size_t i = 2; i < args.size(); ++i) {
      Value v = resolve_symbol(args[i], arg_range(i));
      if (!(v.is_number() || (v.kind == Value::Kind::Dyn)))
        fail(diag::Kind::TypeMismatch, arg_range(i), "cute.arch." + fn + "() needs a number here, found " + describe(v));
      if (ir::is_integer(et) && ((v.kind == Value::Kind::Dyn && ir::is_float(v.type)) || v.kind == Value::Kind::Float)) {
        auto& d = error(diag::Kind::LossyConversion, arg_range(i),
                        "a float value cannot be combined atomically into a " + std::string(ir::type_name(et)) + " tensor");
        d.help(std::string("convert explicitly: cutlass.") + ir::type_name(et) + "(value)");
        abort_entry();
      }
      ops.push_back(to_expr_as(v, et, arg_range(i)));
    }
    fn_->stored_ptrs[t.ptr] += 1;
    auto call = ir::call(row.device, std::move(ops), et);
    if (discarded_ == &site) {  // a statement of its own: no result (ptxas makes it a RED)
      effect(call);
      return Value::none();
    }
    // The old value, in a local of its own so the atomic runs exactly once.
    return materialize(Value::dyn(call, site.range), "old", site.range);
  }

  switch (id) {
    case BuiltinId::ShuffleSync: case BuiltinId::ShuffleSyncUp: case BuiltinId::ShuffleSyncDown: case BuiltinId::ShuffleSyncBfly: {
      const char* fn = id == BuiltinId::ShuffleSync ? "shuffle_sync" : id == BuiltinId::ShuffleSyncUp ? "shuffle_sync_up"
                       : id == BuiltinId::ShuffleSyncDown ? "shuffle_sync_down" : "shuffle_sync_bfly";
      const char* cuda = id == BuiltinId::ShuffleSync ? "__shfl_sync" : id == BuiltinId::ShuffleSyncUp ? "__shfl_up_sync"
                         : id == BuiltinId::ShuffleSyncDown ? "__shfl_down_sync" : "__shfl_xor_sync";
      need_kernel(fn);
      check_kwargs(fn, {"offset", "mask"});
      arity(1, 2, fn);
      Value v = resolve_symbol(args[0], arg_range(0));
      std::optional<Value> off = args.size() == 2 ? std::optional<Value>(args[1]) : kwarg("offset");
      if (!off) fail(diag::Kind::WrongArity, site.range, std::string("cute.arch.") + fn + "() needs the lane offset: " + fn + "(value, offset)");
      ScalarType t = v.kind == Value::Kind::Dyn ? v.type : natural_type(v).value_or(ScalarType::Int32);
      if (!(wide_int(t) || t == ScalarType::Float32 || t == ScalarType::Float64 || t == ScalarType::Float16 || t == ScalarType::BFloat16))
        fail(diag::Kind::TypeMismatch, arg_range(0), std::string("cute.arch.") + fn + "() cannot exchange " + describe(v));
      Value o = resolve_symbol(*off, site.range);
      if (!(o.kind == Value::Kind::Int || (o.kind == Value::Kind::Dyn && ir::is_integer(o.type))))
        fail(diag::Kind::TypeMismatch, site.range, std::string("cute.arch.") + fn + "()'s offset must be an integer, found " + describe(o));
      auto call = ir::call(cuda, {mask_of(kwarg("mask")), to_expr_as(v, t, arg_range(0)), to_expr_as(o, ScalarType::Int32, site.range)}, t);
      return materialize(Value::dyn(call, site.range), "shfl", site.range);
    }
    case BuiltinId::VoteBallotSync: case BuiltinId::VoteAnySync: case BuiltinId::VoteAllSync: {
      const char* fn = id == BuiltinId::VoteBallotSync ? "vote_ballot_sync" : id == BuiltinId::VoteAnySync ? "vote_any_sync" : "vote_all_sync";
      const char* cuda = id == BuiltinId::VoteBallotSync ? "__ballot_sync" : id == BuiltinId::VoteAnySync ? "__any_sync" : "__all_sync";
      need_kernel(fn);
      check_kwargs(fn, {"mask"});
      arity(1, 2, fn);
      std::optional<Value> mask = args.size() == 2 ? std::optional<Value>(args[1]) : kwarg("mask");
      Value p = resolve_symbol(args[0], arg_range(0));
      ScalarType rt = id == BuiltinId::VoteBallotSync ? ScalarType::Uint32 : ScalarType::Boolean;
      auto call = ir::call(cuda, {mask_of(mask), to_expr_as(p, ScalarType::Boolean, arg_range(0))}, rt);
      if (id != BuiltinId::VoteBallotSync) call = ir::binary(ir::Op::Ne, call, ir::int_const(0, ScalarType::Int32), ScalarType::Boolean);
      return materialize(Value::dyn(call, site.range), "vote", site.range);
    }
    case BuiltinId::WarpReduxSync: {
      // CuTe DSL: cute.arch.warp_redux_sync(value, kind, mask_and_clamp=FULL_MASK) -> redux.sync
      // (PTX ISA "redux.sync", sm_80): every lane of the mask gets the reduction of their values.
      const std::string fn = "warp_redux_sync";
      need_kernel(fn);
      check_kwargs(fn, {"kind", "mask_and_clamp"});
      arity(1, 3, fn);
      Value v = resolve_symbol(args[0], arg_range(0));
      std::optional<Value> kind = args.size() >= 2 ? std::optional<Value>(args[1]) : kwarg("kind");
      std::optional<Value> mask = args.size() >= 3 ? std::optional<Value>(args[2]) : kwarg("mask_and_clamp");
      static const char* const kKinds[] = {"add", "min", "max", "umin", "umax", "and", "or", "xor"};
      if (!kind || kind->kind != Value::Kind::Str)
        fail(diag::Kind::TypeMismatch, site.range, "cute.arch.warp_redux_sync() needs the kind as a string: \"add\", \"min\", \"max\", \"umin\", \"umax\", \"and\", \"or\" or \"xor\"");
      if (kind->s == "fmax" || kind->s == "fmin") {
        auto& d = error(diag::Kind::ArchTooOld, site.range, "redux.sync ." + kind->s.substr(1) + ".f32 needs sm_100a, but this file is compiled for " + program_.arch);
        const ScalarType vt = v.kind == Value::Kind::Dyn ? v.type : natural_type(v).value_or(ScalarType::Float32);
        if (vt != ScalarType::Float32) d.note(std::string("it also reduces Float32 values only; this value is ") + ir::type_name(vt));
        d.help("reduce Float32 values with cute.arch.shuffle_sync_bfly in log2(32) steps");
        abort_entry();
      }
      if (std::find(std::begin(kKinds), std::end(kKinds), kind->s) == std::end(kKinds))
        fail(diag::Kind::BadCopyAtom, site.range, "redux.sync has no '" + kind->s + "' reduction; expected add, min, max, umin, umax, and, or or xor");
      ScalarType t = v.kind == Value::Kind::Dyn ? v.type : natural_type(v).value_or(ScalarType::Int32);
      if (t != ScalarType::Int32 && t != ScalarType::Uint32) {
        auto& d = error(diag::Kind::TypeMismatch, arg_range(0), "cute.arch.warp_redux_sync() reduces Int32 or Uint32 values, found " + describe(v));
        d.note("redux.sync has 32-bit integer forms only below sm_100a");
        abort_entry();
      }
      auto call = ir::call("tileslc::dev::redux_sync_" + kind->s, {to_expr_as(v, t, arg_range(0)), mask_of(mask)}, t);
      return materialize(Value::dyn(call, site.range), "redux", site.range);
    }
    case BuiltinId::NamedBarrier: {
      need_kernel("barrier");
      check_kwargs("barrier", {"barrier_id", "number_of_threads"});
      arity(0, 0, "barrier");
      auto id_v = kwarg("barrier_id"), n_v = kwarg("number_of_threads");
      if (!id_v && !n_v) {
        emit(ir::make_stmt(ir::StmtKind::Sync, site.range));
        return Value::none();
      }
      // bar.sync a{, b}: barrier 0..15; b a multiple of 32 (PTX ISA, "bar, barrier").
      // The id may be a run-time value (bar.sync takes a register: one barrier per warpgroup).
      ir::ExprRef id_e = ir::int_const(0, ScalarType::Int32);
      if (id_v) {
        Value bid = resolve_symbol(*id_v, site.range);
        if (bid.kind == Value::Kind::Int && (bid.i < 0 || bid.i > 15))
          fail(diag::Kind::BadLaunch, site.range, "barrier_id must be 0 to 15 (the hardware has 16 named barriers), found " + std::to_string(bid.i));
        id_e = to_expr_as(bid, ScalarType::Int32, site.range);
      }
      ir::ExprRef count;
      if (n_v) {
        Value n = resolve_symbol(*n_v, site.range);
        if (n.kind == Value::Kind::Int && (n.i <= 0 || n.i % 32 != 0 || n.i > 1024))
          fail(diag::Kind::BadLaunch, site.range, "number_of_threads must be a positive multiple of 32 up to 1024, found " + std::to_string(n.i));
        count = to_expr_as(n, ScalarType::Int32, site.range);
      } else {
        count = ir::int_const(0, ScalarType::Int32);  // 0: all threads of the CTA
      }
      effect(ir::call("tileslc::dev::named_barrier_sync", {id_e, count}, ScalarType::Int32));
      return Value::none();
    }
    case BuiltinId::FenceBlock: case BuiltinId::FenceGpu: case BuiltinId::FenceSys: {
      need_kernel("fence");
      arity(0, 0, "fence");
      const char* fn = id == BuiltinId::FenceBlock ? "__threadfence_block" : id == BuiltinId::FenceGpu ? "__threadfence" : "__threadfence_system";
      effect(ir::call(fn, {}, ScalarType::Int32));
      return Value::none();
    }
    default: break;
  }
  fail(diag::Kind::NotCallable, site.range, "unknown cute.arch builtin");
}

Value Evaluator::atomic_add_pair(const TensorValue& t, std::vector<Value>& args, const ast::Call& site) {
  // atomic_add(t, coord, (a, b)): t[coord] += a and the next element in memory += b, as one
  // red.add.noftz.f16x2 (sm_60+) or .bf16x2 (sm_90+) on the 4-byte-aligned pair (PTX ISA "red", "atom").
  const std::string fn = "cute.arch.atomic_add";
  const std::vector<Value>& pair = *args[2].elts;
  if (t.space != MemSpace::Gmem && t.space != MemSpace::Smem)
    fail(diag::Kind::UnsupportedOperation, arg_range_of(site, 0), fn + "() needs a tensor in global or shared memory");
  if (t.dtype != ScalarType::Float16 && t.dtype != ScalarType::BFloat16) {
    auto& d = error(diag::Kind::TypeMismatch, arg_range_of(site, 2),
                    fn + "() adds a pair of values as one atom on Float16 or BFloat16 elements, the tensor holds " + ir::type_name(t.dtype));
    d.help("add one value per call: " + fn + "(t, coord, value)");
    abort_entry();
  }
  if (pair.size() != 2) fail(diag::Kind::WrongArity, arg_range_of(site, 2), fn + "() adds a pair (a, b), found " + std::to_string(pair.size()) + " values");
  if (t.dtype == ScalarType::BFloat16 && program_.arch.rfind("sm_90", 0) != 0) {
    auto& d = error(diag::Kind::ArchTooOld, site.range, "red.add.noftz.bf16x2 needs sm_90 or sm_90a, but this file is compiled for " + program_.arch);
    d.help("compile with --arch sm_90a, or add Float16 pairs (red.add.noftz.f16x2 exists on sm_80)");
    abort_entry();
  }
  auto off = tensor_offset(t, args[1], arg_range_of(site, 1));
  if (t.align_bytes % 4 != 0 || known_divisor(off) % 2 != 0) {
    const bool exact = off->kind == ir::ExprKind::IntConst;
    const std::string why = t.align_bytes % 4 != 0 ? "the tensor's base is only known to be " + std::to_string(t.align_bytes) + "-byte aligned"
                            : exact ? "this element is at element offset " + std::to_string(off->ival) + ", which is odd"
                                    : "this element is at an element offset known only to be a multiple of " + std::to_string(known_divisor(off));
    auto& d = error(diag::Kind::BadCopyAtom, arg_range_of(site, 1), "a packed atomic add needs the pair 4-byte aligned; " + why);
    d.note("the tensor's layout is " + t.layout.to_string() + " (" + std::to_string(t.align_bytes) + "-byte aligned base)");
    d.help("add pairs at even coordinates of the contiguous mode, e.g. (row, 2 * j)");
    abort_entry();
  }
  std::vector<ir::ExprRef> ops{ir::address_of(t.ptr, off, t.dtype)};
  for (size_t i = 0; i < 2; ++i) {
    Value v = resolve_symbol(pair[i], arg_range_of(site, 2));
    if (!(v.is_number() || v.kind == Value::Kind::Dyn)) fail(diag::Kind::TypeMismatch, arg_range_of(site, 2), fn + "() needs numbers in the pair, found " + describe(v));
    ops.push_back(to_expr_as(v, t.dtype, arg_range_of(site, 2)));
  }
  if (discarded_ != &site) {
    auto& d = error(diag::Kind::UnsupportedOperation, site.range, "the packed " + fn + "(t, coord, (a, b)) is a statement: it returns no old values");
    d.help("write it on a line of its own");
    abort_entry();
  }
  fn_->stored_ptrs[t.ptr] += 1;
  auto s = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : site.range);
  s->a = ir::call("tileslc::dev::atomic_add_x2", std::move(ops), ScalarType::Int32);
  emit(std::move(s));
  return Value::none();
}

}  // namespace tileslc::sema
