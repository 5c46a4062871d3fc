// tile_to_shape and cosize of composed (swizzled) layouts; see composed_layout_ops.h.
#include "sema/composed_layout_ops.h"

#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

/// E0601 at the call for a failed precondition of the layout library, naming the composed layout.
[[noreturn]] void algebra_error(Evaluator& ev, BuiltinCall& c, const layout::LayoutError& e) {
  auto& d = ev.error(diag::Kind::LayoutAlgebraError, c.site.range, e.what());
  d.label(c.range(0), "this is " + c[0].composed().to_string());
  ev.abort_entry();
}

}  // namespace

Value composed_tile_to_shape(Evaluator& ev, BuiltinCall& c) {
  layout::ComposedLayout out = c[0].composed();
  try {
    std::optional<layout::IntTuple> order;
    if (c.has(2)) order = ev.to_int_tuple(c[2], c.range(2), "the order");
    out.layout = layout::tile_to_shape(out.layout, ev.to_int_tuple(c[1], c.range(1), "the target shape"), order);
  } catch (const layout::LayoutError& e) {
    algebra_error(ev, c, e);
  }
  return Value::of(out);
}

Value composed_cosize(Evaluator& ev, BuiltinCall& c) {
  layout::Layout l = c[0].composed().layout;
  try {
    std::vector<Value> modes;
    if (c.has(1)) modes = c[1].kind() == Value::Kind::Tuple ? c[1].elts() : std::vector<Value>{c[1]};
    for (const Value& m : modes) {
      int64_t k = ev.require_static_int(m, c.range(1), "a mode index");
      if (k < 0 || static_cast<size_t>(k) >= l.rank())
        ev.fail(diag::Kind::IndexOutOfRange, c.range(1), "mode " + std::to_string(k) + " is out of range for " + l.to_string());
      l = layout::get(l, static_cast<size_t>(k));
    }
    return ev.int_value(layout::cosize(l), c.site.range);
  } catch (const layout::LayoutError& e) {
    algebra_error(ev, c, e);
  }
}

}  // namespace tileslc::sema
