// --debug: the layouts and tensor views a kernel binds to .tpy names, described for
// gdb (ir::DebugView). Sema folds these values away (a view is a pointer, an origin
// and a layout it computes with), so a debugger has nothing to show for `thrA` or
// `thr_layout`. Each such name gets a view: CuTe's text of the layout whose leaves are
// numbers or the names of C++ locals and parameters, and for a tensor the memory it
// views and a local holding its origin. The locals are written where the .tpy binds
// the name, as debug locals of numbers are (Evaluator::debug_bind); tileslc-gdb.py
// reads them from the kernel's frame. Nothing here runs without --debug.
#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

/// `t` in CuTe's form with its leaves taken in order from `leaves`.
void put_tuple(const layout::IntTuple& t, std::vector<std::string>::const_iterator& leaf, std::string& out) {
  if (!t.is_tuple()) {
    out += *leaf++;
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.elems().size(); ++i) {
    if (i) out += ',';
    put_tuple(t.elems()[i], leaf, out);
  }
  out += ')';
}

/// The layout's text, "shape:stride", with `leaves` (shape's leaves then stride's) in place of its integers.
std::string layout_text(const layout::Layout& l, const std::vector<std::string>& leaves) {
  std::string out;
  auto leaf = leaves.cbegin();
  put_tuple(l.shape, leaf, out);
  out += ':';
  put_tuple(l.stride, leaf, out);
  return out;
}

/// A run-time integer that is a kernel parameter itself (perhaps widened): its name, which
/// no statement assigns, so the view can name it instead of copying it into a local.
std::string parameter_name(const ir::ExprRef& e) {
  const ir::ExprRef* x = &e;
  if (const auto* c = (*x)->get_if<ir::Cast>()) x = &c->value;
  if (const auto* p = (*x)->get_if<ir::Param>()) return p->name;
  return "";
}

}  // namespace

void Evaluator::debug_view(const std::string& name, const Value& v, source::SourceRange r, bool parameter) {
  if (!opts_.debug || !fn_ || !fn_->kernel || name == "_") return;
  const TensorValue* t = v.kind() == Value::Kind::Tensor ? v.tensor().get() : nullptr;
  if (v.kind() != Value::Kind::Layout && !t) return;
  // Coordinate tensors hold no data and their strides are bases; an iterator has no layout yet.
  if (t && (t->space == MemSpace::Coord || t->iterator || t->ptr.empty())) return;
  const layout::Layout& l = t ? t->layout : v.layout();
  std::vector<layout::Int> ints = layout::flatten_leaves(l.shape);
  for (const auto& x : layout::flatten_leaves(l.stride)) ints.push_back(x);
  std::vector<std::string> named;
  for (const auto& x : ints) {
    if (x.has_value()) continue;
    if (x.has_basis()) return;
    collect_leaves(layout::IntTuple(x), named);
  }
  for (const auto& n : named)
    if (!fn_->symbols.count(n)) return;  // a run-time value of another function
  // Reused by a rebinding with the same static parts (a view at another origin, as in a loop).
  std::vector<std::string> pattern_leaves;
  for (const auto& x : ints) pattern_leaves.push_back(x.has_value() ? std::to_string(x.value()) : "?");
  std::string pattern = layout_text(l, pattern_leaves);
  if (t) pattern = t->ptr + (t->swizzle ? t->swizzle->to_string() : "") + " o " + pattern;
  auto known = fn_->debug_views.find(name);
  const bool reuse = !parameter && known != fn_->debug_views.end() && known->second.second == pattern;
  size_t index = reuse ? known->second.first : fn_->kernel->debug_views.size();
  if (!reuse) {
    ir::DebugView d;
    // A tensor parameter's C++ name is its span (the kernel's accesses go through it): its view
    // is "tl_<parameter>_view", which tileslc-gdb.py shows when the span is printed. A
    // rebinding of the name (`gA = cute.local_tile(gA, ...)`) gets a view of its own.
    if (parameter) {
      d.name = "tl_" + t->ptr + "_view";
      fn_->used_names.insert(d.name);
    } else {
      d.name = unique_name(name);
      fn_->debug_views.insert_or_assign(name, std::make_pair(index, pattern));
    }
    d.tpy_name = name;
    fn_->kernel->debug_views.push_back(std::move(d));
  }
  // Run-time parts: parameters by name, the rest copied into locals of the view ("tl_" names
  // are the debugger's: unique_name never gives them to a .tpy name).
  const std::string cname = fn_->kernel->debug_views[index].name;
  auto local = [&](const std::string& suffix, const ir::ExprRef& e) {
    std::string var = (cname.rfind("tl_", 0) == 0 ? cname : "tl_" + cname) + "_" + suffix;  // tl_gA_view_2, not tl_tl_...
    if (fn_->used_names.insert(var).second) fn_->locals->push_back({var, ScalarType::Int64});
    emit(ir::assign(r, var, e));
    return var;
  };
  std::vector<std::string> leaves;
  for (size_t i = 0; i < ints.size(); ++i) {
    const layout::Int& x = ints[i];
    if (x.has_value()) {
      leaves.push_back(std::to_string(x.value()));
      continue;
    }
    ir::ExprRef e = lower_int(x, r);
    std::string p = parameter_name(e);
    leaves.push_back(p.empty() ? local(std::to_string(i), e) : p);
  }
  ir::DebugView& d = fn_->kernel->debug_views[index];
  d.layout = layout_text(l, leaves);
  if (!t) return;
  d.base = t->ptr;
  d.swizzle = t->swizzle ? t->swizzle->to_string() : "";
  d.offset = !t->offset && parameter ? "0" : local("offset", t->offset ? ir::cast(t->offset, ScalarType::Int64) : ir::int_const(0, ScalarType::Int64));
}

}  // namespace tileslc::sema
