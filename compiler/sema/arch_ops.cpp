// tileslc.cute.arch beyond indices, one handler per builtins.def row (or a
// few rows sharing one): hardware atomics on tensor elements in global or
// shared memory (PTX ISA "atom" / "red"; CUDA's atomicAdd family), warp
// shuffles and votes (PTX "shfl.sync", "vote.sync"), named barriers
// ("bar.sync id, count") and memory fences ("fence.acq_rel.{cta,gpu,sys}"),
// warp reductions ("redux.sync", sm_80) and packed half-precision adds
// ("red.add.noftz.{f16x2,bf16x2}").
// The rows say they run inside a kernel; each handler checks the element type
// and memory space the instruction supports and says which requirement failed.
#include <algorithm>
#include <stdexcept>

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

struct AtomicRow {
  BuiltinId id;
  const char* op;  // the Atomic intrinsic's op; nullptr: AtomicCas
  bool integers_only;
};

constexpr AtomicRow kAtomics[] = {
    {BuiltinId::AtomicAdd, "add", false},   {BuiltinId::AtomicMin, "min", true},    {BuiltinId::AtomicMax, "max", true},
    {BuiltinId::AtomicAnd, "and", true},    {BuiltinId::AtomicOr, "or", true},      {BuiltinId::AtomicXor, "xor", true},
    {BuiltinId::AtomicExch, "exch", false}, {BuiltinId::AtomicCas, nullptr, false},
};

const AtomicRow& atomic_row(BuiltinId id) {
  for (const auto& row : kAtomics)
    if (row.id == id) return row;
  throw std::logic_error("arch_ops.cpp: no atomic for this builtin");
}

bool wide_int(ScalarType t) {
  return t == ScalarType::Int32 || t == ScalarType::Uint32 || t == ScalarType::Int64 || t == ScalarType::Uint64;
}

/// The type a warp collective exchanges a value in: its own when run-time, its natural one when static.
ScalarType lane_value_type(Evaluator& ev, const Value& v, ScalarType fallback) {
  return v.kind() == Value::Kind::Dyn ? v.type() : ev.natural_type(v).value_or(fallback);
}

/// A lane mask argument (CuTe DSL's mask=, mask_and_clamp= of redux.sync; FULL_MASK by default) as Uint32.
ir::ExprRef lane_mask(Evaluator& ev, BuiltinCall& c, size_t i) {
  if (!c[i].is_integer()) ev.fail(diag::Kind::TypeMismatch, c.range(i), "a lane mask must be an integer, found " + describe(c[i]));
  return ev.to_expr_as(c[i], ScalarType::Uint32, c.range(i));
}

/// The atomic's tensor must be in global or shared memory (E0417) and of an element type the row's instruction has (E0401).
void check_atomic_tensor(Evaluator& ev, BuiltinCall& c, const AtomicRow& row, const TensorValue& t) {
  if (t.space == MemSpace::Rmem || t.space == MemSpace::Coord) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(0),
                       c.name() + "() needs a tensor in global or shared memory, found a " +
                           (t.space == MemSpace::Rmem ? "register" : "coordinate") + " tensor");
    d.note("atomics synchronize threads through memory; a register tensor is private to its thread");
    ev.abort_entry();
  }
  const ScalarType et = t.dtype;
  const bool add = c.id() == BuiltinId::AtomicAdd;
  const bool supported =
      row.integers_only ? wide_int(et)
      : add ? (wide_int(et) || et == ScalarType::Float32 || et == ScalarType::Float64 || et == ScalarType::Float16 || et == ScalarType::BFloat16)
            : (wide_int(et) || et == ScalarType::Float32);
  if (!supported) {
    auto& d = ev.error(diag::Kind::TypeMismatch, c.range(0), c.name() + "() is not available for " + ir::type_name(et) + " elements");
    d.note(row.integers_only ? std::string("the hardware has it for Int32, Uint32, Int64 and Uint64")
           : add ? std::string("atomic_add exists for 32- and 64-bit integers, Float16, BFloat16, Float32 and Float64")
                 : std::string("it exists for 32- and 64-bit integers and Float32"));
    ev.abort_entry();
  }
}

/// An atomic's value operand (val, or cmp of atomic_cas) converted to the element type; floats into integers are refused.
ir::ExprRef atomic_operand(Evaluator& ev, BuiltinCall& c, size_t i, ScalarType et) {
  Value v = c[i];
  if (!v.is_scalar())
    ev.fail(diag::Kind::TypeMismatch, c.range(i), c.name() + "() needs a number here, found " + describe(v));
  if (ir::is_integer(et) && v.is_floating()) {
    auto& d = ev.error(diag::Kind::LossyConversion, c.range(i),
                       "a float value cannot be combined atomically into a " + std::string(ir::type_name(et)) + " tensor");
    d.help(std::string("convert explicitly: cutlass.") + ir::type_name(et) + "(value)");
    ev.abort_entry();
  }
  return ev.to_expr_as(v, et, c.range(i));
}

/// atomic_add(t, coord, (a, b)): t[coord] += a and the next element in memory += b, as one
/// red.add.noftz.f16x2 (sm_60+) or .bf16x2 (sm_90+) on the 4-byte-aligned pair (PTX ISA "red", "atom").
Value atomic_add_pair(Evaluator& ev, BuiltinCall& c, const TensorValue& t) {
  const std::string fn = c.name();
  const std::vector<Value>& pair = c[2].elts();
  if (t.space != MemSpace::Gmem && t.space != MemSpace::Smem)
    ev.fail(diag::Kind::UnsupportedOperation, c.range(0), fn + "() needs a tensor in global or shared memory");
  if (t.dtype != ScalarType::Float16 && t.dtype != ScalarType::BFloat16) {
    auto& d = ev.error(diag::Kind::TypeMismatch, c.range(2),
                       fn + "() adds a pair of values as one atom on Float16 or BFloat16 elements, the tensor holds " + ir::type_name(t.dtype));
    d.help("add one value per call: " + fn + "(t, coord, value)");
    ev.abort_entry();
  }
  if (pair.size() != 2)
    ev.fail(diag::Kind::WrongArity, c.range(2), fn + "() adds a pair (a, b), found " + std::to_string(pair.size()) + " values");
  const std::string& arch = ev.program_.arch;
  if (t.dtype == ScalarType::BFloat16 && arch.rfind("sm_90", 0) != 0) {
    auto& d = ev.error(diag::Kind::ArchTooOld, c.site.range, "red.add.noftz.bf16x2 needs sm_90 or sm_90a, but this file is compiled for " + arch);
    d.help("compile with --arch sm_90a, or add Float16 pairs (red.add.noftz.f16x2 exists on sm_80)");
    ev.abort_entry();
  }
  auto off = ev.tensor_offset(t, c[1], c.range(1));
  if (t.align_bytes % 4 != 0 || ev.known_divisor(off) % 2 != 0) {
    const std::optional<int64_t> exact = ir::as_int_const(off);
    const std::string why = t.align_bytes % 4 != 0 ? "the tensor's base is only known to be " + std::to_string(t.align_bytes) + "-byte aligned"
                            : exact ? "this element is at element offset " + std::to_string(*exact) + ", which is odd"
                                    : "this element is at an element offset known only to be a multiple of " + std::to_string(ev.known_divisor(off));
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(1), "a packed atomic add needs the pair 4-byte aligned; " + why);
    d.note("the tensor's layout is " + t.layout.to_string() + " (" + std::to_string(t.align_bytes) + "-byte aligned base)");
    d.help("add pairs at even coordinates of the contiguous mode, e.g. (row, 2 * j)");
    ev.abort_entry();
  }
  std::vector<ir::ExprRef> ops{ir::address_of(t.ptr, off, t.dtype)};
  for (const Value& x : pair) {
    if (!x.is_scalar())
      ev.fail(diag::Kind::TypeMismatch, c.range(2), fn + "() needs numbers in the pair, found " + describe(x));
    ops.push_back(ev.to_expr_as(x, t.dtype, c.range(2)));
  }
  if (ev.discarded_ != &c.site) {
    auto& d = ev.error(diag::Kind::UnsupportedOperation, c.site.range, "the packed " + fn + "(t, coord, (a, b)) is a statement: it returns no old values");
    d.help("write it on a line of its own");
    ev.abort_entry();
  }
  ev.fn_->stored_ptrs[t.ptr] += 1;
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::AtomicAddX2, {}, std::move(ops), ScalarType::Int32), c.site.range);
  return Value::none();
}

/// CUDA's width= for a shuffle's mask_and_clamp (PTX ISA "shfl.sync": the segment mask in bits 8-12,
/// the clamp in bits 0-4): ((32 - width) << 8) | 31, or (32 - width) << 8 for shfl.up, with width a
/// power of two. 32 (the whole warp) is CuTe DSL's default.
int64_t shuffle_width(Evaluator& ev, BuiltinCall& c, size_t i) {
  const int64_t v = ev.require_static_int(c[i], c.range(i), "mask_and_clamp");
  const int64_t clamp = c.id() == BuiltinId::ShuffleSyncUp ? 0 : 31;
  for (int64_t width = 32; width >= 1; width /= 2)
    if (v == (((32 - width) << 8) | clamp)) return width;
  auto& d = ev.error(diag::Kind::UnsupportedOperation, c.range(i),
                     c.name() + "() takes mask_and_clamp=((32 - width) << 8) | " + std::to_string(clamp) +
                         " for a segment width of 1, 2, 4, 8, 16 or 32 lanes, found " + std::to_string(v));
  d.note("other clamps are PTX-only: CUDA's shuffles take a segment width");
  ev.abort_entry();
}

ir::Intrinsic shuffle_intrinsic(BuiltinId id) {
  switch (id) {
    case BuiltinId::ShuffleSyncUp: return ir::Intrinsic::ShflUpSync;
    case BuiltinId::ShuffleSyncDown: return ir::Intrinsic::ShflDownSync;
    case BuiltinId::ShuffleSyncBfly: return ir::Intrinsic::ShflXorSync;
    default: return ir::Intrinsic::ShflSync;
  }
}

/// warp_redux_sync's kind: one of redux.sync's integer reductions (the Float32 ones are sm_100a).
const std::string& redux_kind(Evaluator& ev, BuiltinCall& c, const Value& v) {
  static const char* const kKinds[] = {"add", "min", "max", "umin", "umax", "and", "or", "xor"};
  const Value& kind = c[1];
  if (kind.kind() != Value::Kind::Str)
    ev.fail(diag::Kind::TypeMismatch, c.range(1),
            c.name() + "() needs the kind as a string: \"add\", \"min\", \"max\", \"umin\", \"umax\", \"and\", \"or\" or \"xor\"");
  if (kind.s() == "fmax" || kind.s() == "fmin") {
    auto& d = ev.error(diag::Kind::ArchTooOld, c.site.range,
                       "redux.sync ." + kind.s().substr(1) + ".f32 needs sm_100a, but this file is compiled for " + ev.program_.arch);
    const ScalarType vt = lane_value_type(ev, v, ScalarType::Float32);
    if (vt != ScalarType::Float32) d.note(std::string("it also reduces Float32 values only; this value is ") + ir::type_name(vt));
    d.help("reduce Float32 values with cute.arch.shuffle_sync_bfly in log2(32) steps");
    ev.abort_entry();
  }
  if (std::find(std::begin(kKinds), std::end(kKinds), kind.s()) == std::end(kKinds))
    ev.fail(diag::Kind::BadCopyAtom, c.range(1), "redux.sync has no '" + kind.s() + "' reduction; expected add, min, max, umin, umax, and, or or xor");
  return kind.s();
}

}  // namespace

void Evaluator::emit_effect(ir::ExprRef call, source::SourceRange r) {
  emit(ir::eval(stmt_loc_.valid() ? stmt_loc_ : r, std::move(call)));
}

Value arch_atomic(Evaluator& ev, BuiltinCall& c) {
  const AtomicRow& row = atomic_row(c.id());
  if (c[0].kind() != Value::Kind::Tensor)
    ev.fail(diag::Kind::TypeMismatch, c.range(0),
            c.name() + "() takes a tensor and a coordinate first (t, coord, " +
                (c.id() == BuiltinId::AtomicCas ? "compare, value" : "value") + "), found " + describe(c[0]));
  const TensorValue& t = *c[0].tensor();
  if (c.id() == BuiltinId::AtomicAdd && c[2].kind() == Value::Kind::Tuple) return atomic_add_pair(ev, c, t);
  check_atomic_tensor(ev, c, row, t);
  auto off = ev.tensor_offset(t, c[1], c.range(1));
  std::vector<ir::ExprRef> ops{ir::address_of(t.ptr, off, t.dtype)};
  for (size_t i = 2; i < c.slots.size(); ++i) ops.push_back(atomic_operand(ev, c, i, t.dtype));
  ev.fn_->stored_ptrs[t.ptr] += 1;
  auto call = row.op ? ir::intrinsic(ir::Intrinsic::Atomic, {row.op}, std::move(ops), t.dtype)
                     : ir::intrinsic(ir::Intrinsic::AtomicCas, {}, std::move(ops), t.dtype);
  if (ev.discarded_ == &c.site) {  // a statement of its own: no result (ptxas makes it a RED)
    ev.emit_effect(call, c.site.range);
    return Value::none();
  }
  // The old value, in a local of its own so the atomic runs exactly once.
  return ev.materialize(Value::dyn(call, c.site.range), "old", c.site.range);
}

Value arch_shuffle(Evaluator& ev, BuiltinCall& c) {
  Value v = c[0];
  const ScalarType t = lane_value_type(ev, v, ScalarType::Int32);
  if (!(wide_int(t) || t == ScalarType::Float32 || t == ScalarType::Float64 || t == ScalarType::Float16 || t == ScalarType::BFloat16))
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() cannot exchange " + describe(v));
  Value o = c[1];
  if (!o.is_integer()) ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "()'s offset must be an integer, found " + describe(o));
  std::vector<ir::ExprRef> ops{lane_mask(ev, c, 2), ev.to_expr_as(v, t, c.range(0)), ev.to_expr_as(o, ScalarType::Int32, c.range(1))};
  if (int64_t width = shuffle_width(ev, c, 3); width != 32) ops.push_back(ir::int_const(width, ScalarType::Int32));
  return ev.materialize(Value::dyn(ir::intrinsic(shuffle_intrinsic(c.id()), {}, std::move(ops), t), c.site.range),
                        "shfl", c.site.range);
}

Value arch_vote(Evaluator& ev, BuiltinCall& c) {
  const bool ballot = c.id() == BuiltinId::VoteBallotSync;
  Value p = c[0];
  std::vector<ir::ExprRef> ops{lane_mask(ev, c, 1), ev.to_expr_as(p, ScalarType::Boolean, c.range(0))};
  // __any_sync and __all_sync return an int: nonzero is true.
  auto call =
      ballot ? ir::intrinsic(ir::Intrinsic::BallotSync, {}, std::move(ops), ScalarType::Uint32)
             : ir::binary(ir::Op::Ne,
                          ir::intrinsic(ir::Intrinsic::VoteSync, {c.id() == BuiltinId::VoteAnySync ? "any" : "all"},
                                        std::move(ops), ScalarType::Int32),
                          ir::int_const(0, ScalarType::Int32), ScalarType::Boolean);
  return ev.materialize(Value::dyn(call, c.site.range), "vote", c.site.range);
}

/// CuTe DSL: warp_redux_sync(value, kind, mask_and_clamp=FULL_MASK, *, abs=None, nan=None) -> redux.sync
/// (PTX ISA "redux.sync", sm_80): every lane of the mask gets the reduction of their values.
Value arch_warp_redux_sync(Evaluator& ev, BuiltinCall& c) {
  Value v = c[0];
  const std::string& kind = redux_kind(ev, c, v);
  // abs= and nan= modify the Float32 reductions only (sm_100a); False is the integer forms' behaviour.
  for (size_t i : {size_t{3}, size_t{4}})
    if (c.has(i) && ev.truthy_static(ev.require_static(c[i], c.range(i), c.info.params[i].name), c.range(i)))
      ev.fail(diag::Kind::UnsupportedOperation, c.range(i),
              c.name() + "()'s " + c.info.params[i].name + "= applies to Float32 reductions (fmin, fmax), which need sm_100a");
  const ScalarType t = lane_value_type(ev, v, ScalarType::Int32);
  if (t != ScalarType::Int32 && t != ScalarType::Uint32) {
    auto& d = ev.error(diag::Kind::TypeMismatch, c.range(0), c.name() + "() reduces Int32 or Uint32 values, found " + describe(v));
    d.note("redux.sync has 32-bit integer forms only below sm_100a");
    ev.abort_entry();
  }
  auto call =
      ir::intrinsic(ir::Intrinsic::ReduxSync, {kind}, {ev.to_expr_as(v, t, c.range(0)), lane_mask(ev, c, 2)}, t);
  return ev.materialize(Value::dyn(call, c.site.range), "redux", c.site.range);
}

namespace {

/// barrier_id= of barrier() / barrier_arrive(): a static id must be 0 to 15; a run-time one is
/// taken as it is (bar.sync takes a register: one barrier per warpgroup).
ir::ExprRef named_barrier_id(Evaluator& ev, BuiltinCall& c) {
  if (!c.has(0)) return ir::int_const(0, ScalarType::Int32);
  Value bid = c[0];
  if (bid.kind() == Value::Kind::Int && (bid.i() < 0 || bid.i() > 15))
    ev.fail(diag::Kind::BadLaunch, c.range(0), "barrier_id must be 0 to 15 (the hardware has 16 named barriers), found " + std::to_string(bid.i()));
  return ev.to_expr_as(bid, ScalarType::Int32, c.range(0));
}

/// number_of_threads=: a static count must be a positive multiple of the warp size up to 1024.
ir::ExprRef named_barrier_count(Evaluator& ev, BuiltinCall& c) {
  Value n = c[1];
  if (n.kind() == Value::Kind::Int && (n.i() <= 0 || n.i() % 32 != 0 || n.i() > 1024))
    ev.fail(diag::Kind::BadLaunch, c.range(1), "number_of_threads must be a positive multiple of 32 up to 1024, found " + std::to_string(n.i()));
  return ev.to_expr_as(n, ScalarType::Int32, c.range(1));
}

}  // namespace

/// barrier(): __syncthreads(); with barrier_id= or number_of_threads=, bar.sync a{, b}: barrier 0..15,
/// b a multiple of 32 (PTX ISA, "bar, barrier"). The id may be a run-time value (bar.sync takes a
/// register: one barrier per warpgroup).
Value arch_barrier(Evaluator& ev, BuiltinCall& c) {
  if (!c.has(0) && !c.has(1)) {
    ev.emit(ir::sync_threads(c.site.range));
    return Value::none();
  }
  ir::ExprRef id_e = named_barrier_id(ev, c);
  // count 0: all threads of the CTA
  ir::ExprRef count = c.has(1) ? named_barrier_count(ev, c) : ir::int_const(0, ScalarType::Int32);
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::NamedBarrierSync, {}, {id_e, count}, ScalarType::Int32), c.site.range);
  return Value::none();
}

/// barrier_arrive(*, barrier_id=0, number_of_threads, aligned=True): the calling threads arrive on
/// named barrier barrier_id without waiting (PTX ISA, "bar, barrier": bar.arrive a, b, or with
/// aligned=False barrier.cta.arrive a, b, for threads of a warp that need not all execute it). The
/// barrier completes when number_of_threads threads arrived, counting those that wait at bar.sync
/// on it with the same count; bar.arrive has no all-threads form, so the count is required (as in
/// CuTe DSL, which raises ValueError without it).
Value arch_barrier_arrive(Evaluator& ev, BuiltinCall& c) {
  if (!c.has(1))
    ev.fail(diag::Kind::WrongArity, c.site.range,
            c.name() + "() needs number_of_threads= (bar.arrive has no form that counts every thread of the CTA)");
  ir::ExprRef id_e = named_barrier_id(ev, c);
  ir::ExprRef count = named_barrier_count(ev, c);
  const bool aligned = ev.truthy_static(ev.require_static(c[2], c.range(2), "aligned"), c.range(2));
  ev.emit_effect(ir::intrinsic(ir::Intrinsic::NamedBarrierArrive, {aligned ? "arrive" : "cta_arrive"}, {id_e, count}, ScalarType::Int32),
                 c.site.range);
  return Value::none();
}

Value arch_fence(Evaluator& ev, BuiltinCall& c) {
  const ir::Intrinsic fence = c.id() == BuiltinId::FenceBlock ? ir::Intrinsic::ThreadfenceBlock
                              : c.id() == BuiltinId::FenceGpu ? ir::Intrinsic::Threadfence
                                                              : ir::Intrinsic::ThreadfenceSystem;
  ev.emit_effect(ir::intrinsic(fence, {}, {}, ScalarType::Int32), c.site.range);
  return Value::none();
}

}  // namespace tileslc::sema
