// CuTe DSL's sm_90 kernel vocabulary around TMA and wgmma that dense GEMMs use
// (issue 14; CuTe DSL cute/nvgpu/cpasync/helpers.py, cute/core.py,
// cute/nvgpu/warpgroup/mma.py): cpasync.tma_partition, cute.recast_ptr and
// TiledMma.set(warpgroup.Field.ACCUMULATE, ...).
//
// tma_partition keeps the tile's own (rows, cols) modes as the TMA mode: a TMA
// copy here takes one box as a rank-2 tile (check_tma_tiles in sm90_ops.cpp),
// where CuTe flattens it into one vector mode. The modes after it (stages,
// k-tiles) are CuTe's.
#include <algorithm>

#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// The slice of tile tensor `t` (mode 0 the atom's tile, then the rest) that one CTA of a
/// multicast group copies: mode 0 becomes the atom's box, starting `rows` (an Int) into the
/// tile's outer mode; the other modes are kept.
TensorValue multicast_slice(Evaluator& ev, const TensorValue& t, const TmaAtom& atom, const Value& rows, source::SourceRange r) {
  const int outer = 1 - atom.inner_mode;
  std::vector<Value> box_start{Value::integer(0), Value::integer(0)};
  box_start[static_cast<size_t>(outer)] = rows;
  std::vector<Value> crd{Value::tuple(std::move(box_start))};
  for (size_t m = 1; m < t.layout.rank(); ++m) crd.push_back(Value::integer(0));
  TensorValue out = offset_origin(ev, t, Value::tuple(std::move(crd)), r);
  const layout::Tiler box = layout::Tiler::from_shape(layout::IntTuple::tuple({layout::IntTuple(atom.box[0]), layout::IntTuple(atom.box[1])}));
  std::vector<layout::Layout> modes{layout::composition(layout::get(t.layout, 0), box)};
  for (size_t m = 1; m < t.layout.rank(); ++m) modes.push_back(layout::get(t.layout, m));
  out.layout = layout::make_layout(modes);
  return out;
}

}  // namespace

/// cpasync.tma_partition(atom, cta_coord, cta_layout, smem_tensor, gmem_tensor): the shared-memory
/// and TMA-tensor views a TMA copy takes, ((box rows, box cols), rest...) each, so that
/// tAsA[None, stage] and tAgA[None, k] are one box. cta_layout is the multicast group: the CTAs
/// that share the tile, as many as the atom's num_multicast. With one CTA the box is the tile;
/// with n, the CTA cta_layout(cta_coord) (run-time allowed) gets its 1/n slice of the tile along
/// the outer mode, as CuTe's tma_partition offsets each CTA into the tile by its share of the
/// copy (in shared-memory order, which a TMA tile's compact layout makes the outer mode's rows).
/// E0708 when mode 0 of either tensor is not the atom's tile, the group's size is not the atom's
/// num_multicast, or the atom is not a TMA atom.
Value sm90_tma_partition(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::TmaAtom)
    ev.fail(diag::Kind::BadCopyAtom, c.range(0), c.name() + "() takes a TMA atom (make_tiled_tma_atom) first, found " + describe(c[0]));
  const TmaAtom& atom = *c[0].tma();
  const layout::Layout group = ev.to_layout(c[2], c.range(2), c.name() + "()'s cta_layout");
  const layout::Int n = layout::size(group.shape);
  if (!n.has_value() || n.value() != atom.num_multicast) {
    auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(2), c.name() + "(): cta_layout has " + n.to_string() +
                                                                 " CTAs, and the TMA atom was made with num_multicast=" + std::to_string(atom.num_multicast));
    d.note("the CTAs of cta_layout share the tile, each loading its 1/num_multicast slice: make_tiled_tma_atom's num_multicast= is cta_layout's size");
    ev.abort_entry();
  }
  if (atom.num_multicast == 1) (void)ev.require_static_int(c[1], c.range(1), c.name() + "()'s cta_coord");
  auto box_mode = [&](size_t slot, const char* what) -> const TensorValue& {
    if (c[slot].kind() != Value::Kind::Tensor)
      ev.fail(diag::Kind::TypeMismatch, c.range(slot), c.name() + "() takes the " + what + " tensor here, found " + describe(c[slot]));
    const TensorValue& t = *c[slot].tensor();
    const layout::Layout box = t.layout.rank() ? layout::get(t.layout, 0) : t.layout;
    const layout::IntTuple want = layout::IntTuple::tuple({layout::IntTuple(atom.tile[0]), layout::IntTuple(atom.tile[1])});
    auto extent = [&](size_t m) {
      const layout::Int x = layout::size(layout::get(box, m).shape);
      return x.is_static() ? x.value() : -1;
    };
    if (box.rank() != 2 || extent(0) != atom.tile[0] || extent(1) != atom.tile[1]) {
      auto& d = ev.error(diag::Kind::BadCopyAtom, c.range(slot), c.name() + "(): mode 0 of the " + what + " tensor must be the TMA box " +
                                                                     ev.shape_text(want) + ", found shape " + ev.shape_text(t.layout.shape));
      d.help("group the box's modes first: cute.group_modes(sA, 0, 2)");
      ev.abort_entry();
    }
    return t;
  };
  const TensorValue& s = box_mode(3, "shared-memory");
  const TensorValue& g = box_mode(4, "global (TMA)");
  if (atom.num_multicast == 1) return Value::tuple({c[3], c[4]});
  const auto r = c.site.range;
  const int outer = 1 - atom.inner_mode;
  Value rows = ev.eval_binop(ast::BinOpKind::Mul, ev.layout_offset(group, c[1], r), Value::integer(atom.box[outer]), r, r);
  return Value::tuple({ev.tensor_value(multicast_slice(ev, s, atom, rows, r)), ev.tensor_value(multicast_slice(ev, g, atom, rows, r))});
}

/// cute.recast_ptr(ptr, swizzle_=None, dtype=None) (CuTe DSL core.py): the same address as a
/// pointer to `dtype` (its element offset rescaled, which must stay whole), with `swizzle_` (a
/// bare swizzle, ComposedLayout.inner) applied to element offsets from it, as CuTe's swizzled
/// pointer permutes address bits: the same function where the pointer starts on a swizzle block,
/// which E0601 requires. The swizzle replaces the pointer's own (a swizzled tensor's .iterator).
Value compat_recast_ptr(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Tensor || !c[0].tensor()->iterator)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a pointer (a tensor's .iterator), found " + describe(c[0]));
  TensorValue p = *c[0].tensor();
  const int64_t old_bytes = std::max(1, ir::bit_width(p.dtype) / 8);
  if (c.has(2)) {
    if (c[2].kind() != Value::Kind::Type) ev.fail(diag::Kind::TypeMismatch, c.range(2), c.name() + "()'s dtype= takes an element type, found " + describe(c[2]));
    const int64_t new_bytes = std::max(1, ir::bit_width(c[2].type()) / 8);
    if (p.offset) {
      const std::optional<int64_t> off = ir::as_int_const(p.offset);
      if (!off || (*off * old_bytes) % new_bytes != 0)
        ev.fail(diag::Kind::UnsupportedOperation, c.range(0), c.name() + "() needs a pointer whose offset is a whole number of " +
                                                                  std::string(ir::type_name(c[2].type())) + " elements while compiling");
      p.offset = *off * old_bytes / new_bytes ? ir::int_const(*off * old_bytes / new_bytes, ScalarType::Int64) : nullptr;
    }
    p.dtype = c[2].type();
  }
  if (c.has(1)) {
    if (c[1].kind() != Value::Kind::ComposedLayout)
      ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "()'s swizzle_ takes a swizzle (cute.make_swizzle, a composed layout's .inner), found " +
                                                                describe(c[1]));
    const layout::Swizzle sw = c[1].composed().swizzle;
    const int64_t span_bytes = sw.span() * std::max(1, ir::bit_width(p.dtype) / 8);
    const int64_t off_bytes = p.offset ? ir::as_int_const(p.offset).value_or(1) * std::max(1, ir::bit_width(p.dtype) / 8) : 0;
    if (p.align_bytes % span_bytes != 0 || off_bytes % span_bytes != 0)
      ev.fail(diag::Kind::BadLayoutArgument, c.range(1), c.name() + "(): the swizzle " + sw.to_string() + " needs the pointer aligned to " +
                                                             std::to_string(span_bytes) + " bytes (its block), found " +
                                                             std::to_string(p.align_bytes) + "-byte alignment");
    p.swizzle = sw;
  }
  return ev.tensor_value(std::move(p));
}

/// TiledMma.set(field, value) (CuTe DSL warpgroup/mma.py): Field.ACCUMULATE False makes the next
/// wgmma instructions write A * B (scale-d 0) instead of adding to the accumulators, True adds
/// again. The flag is a run-time Int32 of the function (it may change inside a run-time loop,
/// as after a main loop's first k-block), read by every cute.gemm on this tiled MMA after it.
Value mma_tiled_mma_set(Evaluator& ev, BuiltinCall& c) {
  if (enum_member_name(c[0], BuiltinId::WarpgroupField) != "ACCUMULATE")
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes cute.nvgpu.warpgroup.Field.ACCUMULATE, found " + describe(c[0]));
  if (!c.self().tiled_mma()->atom.wgmma)
    ev.fail(diag::Kind::UnsupportedOperation, c.site.range, c.name() + "(Field.ACCUMULATE, ...) is a field of warpgroup MMAs (wgmma), and this tiled MMA's atom is " +
                                                                c.self().tiled_mma()->atom.name);
  if (!c[1].is_scalar()) ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes a boolean, found " + describe(c[1]));
  const void* key = c.self().tiled_mma().get();
  auto it = ev.fn_->mma_accumulate.find(key);
  if (it == ev.fn_->mma_accumulate.end()) it = ev.fn_->mma_accumulate.emplace(key, ev.new_local("accumulate", ScalarType::Int32)).first;
  ev.emit(ir::assign(c.site.range, it->second, ir::cast(ev.to_expr_as(c[1], ScalarType::Boolean, c.range(1)), ScalarType::Int32)));
  return Value::none();
}

}  // namespace tileslc::sema
