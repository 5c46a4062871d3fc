// Layouts and the core of the algebra: construction, mode access (get, select,
// group_modes, flatten), coalesce and filter, composition (with tilers),
// complement, right and left inverses, and slicing. Static size-1 modes are
// dropped exactly where CuTe drops them: coalesce skips them, composition does
// not emit a mode whose size is statically 1, and a dynamic 1 is always kept.
#include <algorithm>
#include <numeric>

#include "layout/layout.h"

namespace tileslc::layout {

namespace {
struct Mode {
  Int shape, stride;
};

std::vector<Mode> flat_modes(const Layout& l) {
  std::vector<Int> s = flatten_leaves(l.shape), d = flatten_leaves(l.stride);
  std::vector<Mode> out;
  for (size_t i = 0; i < s.size(); ++i) out.push_back({s[i], d[i]});
  return out;
}

/// A layout from flat modes: `1:0` for none, a leaf for one, a tuple otherwise.
Layout from_modes(const std::vector<Mode>& modes) {
  if (modes.empty()) return Layout(Int(1), Int(0));
  if (modes.size() == 1) return Layout(modes[0].shape, modes[0].stride);
  std::vector<IntTuple> s, d;
  for (const auto& m : modes) {
    s.emplace_back(m.shape);
    d.emplace_back(m.stride);
  }
  return Layout(IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d)));
}

bool static_equal(const Int& a, const Int& b) { return a.is_static() && b.is_static() && a.value() == b.value(); }
}  // namespace

Layout::Layout(Shape s, Stride d) : shape(std::move(s)), stride(std::move(d)) {
  if (!congruent(shape, stride))
    throw LayoutError("make_layout: shape " + shape.to_string() + " and stride " + stride.to_string() +
                      " are not congruent");
}

Layout Layout::operator[](size_t i) const { return Layout(shape[i], stride[i]); }

std::string Layout::to_string(bool mark_static) const {
  return shape.to_string(mark_static) + ":" + stride.to_string(mark_static);
}

Layout make_layout(const Shape& shape) { return Layout(shape, compact_col_major(shape)); }
Layout make_layout(const Shape& shape, const Stride& stride) { return Layout(shape, stride); }

Layout make_layout(const std::vector<Layout>& modes) {
  std::vector<IntTuple> s, d;
  for (const auto& m : modes) {
    s.push_back(m.shape);
    d.push_back(m.stride);
  }
  return Layout(IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d)));
}

Layout make_ordered_layout(const Shape& shape, const IntTuple& order) {
  std::vector<Int> s = flatten_leaves(shape);
  std::vector<Int> o = flatten_leaves(order);
  if (s.size() != o.size())
    throw LayoutError("make_ordered_layout: order " + order.to_string() + " does not match shape " + shape.to_string());
  std::vector<size_t> idx(s.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return o[a].require_value("make_ordered_layout") < o[b].require_value("make_ordered_layout");
  });
  std::vector<Int> d(s.size());
  Int current(1);
  for (size_t i : idx) {
    d[i] = current;
    current = current * s[i];
  }
  return Layout(shape, unflatten(d, shape));
}

Int size(const Layout& l) { return product(l.shape); }

Int cosize(const Layout& l) {
  std::vector<Mode> m = flat_modes(l);
  Int c(1);
  for (const auto& x : m) c = c + (x.shape - Int(1)) * abs(x.stride);
  return c;
}

size_t rank(const Layout& l) { return l.rank(); }
size_t depth(const Layout& l) { return depth(l.shape); }
const Shape& shape(const Layout& l) { return l.shape; }
const Stride& stride(const Layout& l) { return l.stride; }
Layout get(const Layout& l, size_t i) { return l[i]; }

Layout select(const Layout& l, const std::vector<size_t>& modes) {
  std::vector<Layout> out;
  for (size_t i : modes) out.push_back(l[i]);
  return make_layout(out);
}

Layout group_modes(const Layout& l, size_t b, size_t e) {
  if (b > e || e > l.rank())
    throw LayoutError("group_modes: [" + std::to_string(b) + "," + std::to_string(e) + ") is not a range of modes of " +
                      l.to_string());
  std::vector<Layout> out, group;
  for (size_t i = 0; i < b; ++i) out.push_back(l[i]);
  for (size_t i = b; i < e; ++i) group.push_back(l[i]);
  out.push_back(make_layout(group));
  for (size_t i = e; i < l.rank(); ++i) out.push_back(l[i]);
  return make_layout(out);
}

Layout flatten(const Layout& l) { return Layout(flatten(l.shape), flatten(l.stride)); }

Layout append(const Layout& l, size_t n) {
  if (l.rank() >= n) return l;
  std::vector<Layout> out;
  for (size_t i = 0; i < l.rank(); ++i) out.push_back(l[i]);
  while (out.size() < n) out.emplace_back(Int(1), Int(0));
  return make_layout(out);
}

// ---------------------------------------------------------------------------
// coalesce / filter

Layout coalesce(const Layout& l) {
  std::vector<Mode> out;
  for (const auto& m : flat_modes(l)) {
    if (m.shape.is_constant(1)) continue;  // s0:d0 ++ _1:d1 => s0:d0
    if (!out.empty()) {
      Mode& prev = out.back();
      if (static_equal(prev.shape * prev.stride, m.stride)) {  // s0:d0 ++ s1:s0*d0 => s0*s1:d0
        prev.shape = prev.shape * m.shape;
        continue;
      }
    }
    out.push_back(m);
  }
  return from_modes(out);
}

Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (!profile.is_tuple()) return coalesce(l);
  if (profile.rank() > l.rank() || !l.shape.is_tuple())
    throw LayoutError("coalesce: profile " + profile.to_string() + " has more modes than " + l.to_string());
  std::vector<Layout> out;
  for (size_t i = 0; i < l.rank(); ++i) out.push_back(i < profile.rank() ? coalesce(l[i], profile[i]) : l[i]);
  return make_layout(out);
}

Layout filter(const Layout& l) {
  std::vector<Mode> m = flat_modes(l);
  for (auto& x : m)
    if (x.stride.is_constant(0)) x.shape = Int(1);
  return coalesce(from_modes(m));
}

// ---------------------------------------------------------------------------
// composition

namespace {
/// One step of compose_mode where a run-time (symbolic) extent is involved: the right layout's
/// remaining mode (rest_shape : rest_stride) against the left layout's mode of shape cs. Decided
/// without values only where CuTe's step is exact whatever the values are (CuTe computes these
/// steps at run time, assuming divisibility; we accept the cases that need no assumption):
///   - stride 1 (ad == 1): the whole mode cs is reached; it is kept as rest_shape's extent when
///     rest_shape is identical to cs (the rest is then 1), skipped when rest_shape is 1;
///   - stride identical to cs: the mode is stepped over entirely (rest stride 1).
/// nullopt where a value would be needed (the caller then reports E0601's "needs a static value").
struct SymbolicStep {
  bool keep = false;
  Int kept_shape, rest_shape, rest_stride;
};
std::optional<SymbolicStep> symbolic_step(const Int& cs, const Int& ad, const Int& rest_shape, const Int& rest_stride) {
  if (cs.identical(ad)) return SymbolicStep{false, Int(), rest_shape, signum(rest_stride)};
  if (!ad.is_constant(1)) return std::nullopt;
  if (rest_shape.is_constant(1)) return SymbolicStep{false, Int(), rest_shape, rest_stride};
  if (rest_shape.identical(cs)) return SymbolicStep{true, rest_shape, Int(1), rest_stride};
  return std::nullopt;
}

/// A o (s:d) with A given as flat modes (already coalesced).
Layout compose_mode(const std::vector<Mode>& a, const Layout& a_orig, const Int& s, const Int& d) {
  if (d.is_constant(0)) return Layout(s, d);
  if (a.size() == 1) return Layout(s, d * a[0].stride);
  std::vector<Mode> result;
  Int rest_shape = s, rest_stride = d;
  auto fail = [&](const std::string& why) {
    throw LayoutError("composition: " + why + " (in " + a_orig.to_string() + " o " +
                      Layout(s, d).to_string() + ")");
  };
  for (size_t i = 0; i + 1 < a.size(); ++i) {
    const Int& cs = a[i].shape;
    const Int& cd = a[i].stride;
    Int ad = abs(rest_stride);
    if (!cs.has_value() || !ad.has_value() || !rest_shape.has_value()) {
      // Run-time extents: only the steps whose outcome needs no value (see symbolic_step).
      if (auto r = symbolic_step(cs, ad, rest_shape, rest_stride); r) {
        if (r->keep) result.push_back({r->kept_shape, rest_stride * cd});
        rest_shape = r->rest_shape;
        rest_stride = r->rest_stride;
        continue;
      }
    }
    int64_t csv = cs.require_value("composition"), adv = ad.require_value("composition");
    if (csv <= 0)
      fail("mode " + std::to_string(i) + " of the left layout has size " + cs.to_string() + ", not a positive one");
    if (adv <= 0)
      fail("stride " + rest_stride.to_string() + " cannot divide shape " + cs.to_string() + " of the left layout");
    if (csv % adv != 0 && adv % csv != 0)
      fail("stride " + rest_stride.to_string() + " does not divide shape " + cs.to_string() +
           " of the left layout, nor the reverse");
    Int next_shape = ceil_div(cs, ad);
    Int next_stride = ceil_div(ad, cs) * signum(rest_stride);
    if (next_shape.is_constant(1) || rest_shape.is_constant(1)) {
      rest_stride = next_stride;
      continue;
    }
    int64_t nsv = next_shape.value(), rsv = rest_shape.require_value("composition");
    if (rsv <= 0) fail("the right layout has a mode of size " + rest_shape.to_string() + ", not a positive one");
    if (nsv % rsv != 0 && rsv % nsv != 0)
      fail("shape " + rest_shape.to_string() + " is not divisible by " + next_shape.to_string() +
           " (the rest of mode " + std::to_string(i) + " of the left layout), nor the reverse");
    Int new_shape = min(next_shape, rest_shape);
    result.push_back({new_shape, rest_stride * cd});
    rest_shape = rest_shape / new_shape;
    rest_stride = next_stride;
  }
  if (result.empty()) return Layout(rest_shape, rest_stride * a.back().stride);
  if (rest_shape.is_constant(1)) return from_modes(result);
  result.push_back({rest_shape, rest_stride * a.back().stride});
  return from_modes(result);
}

Layout compose_impl(const std::vector<Mode>& a, const Layout& a_orig, const Shape& bs, const Stride& bd) {
  if (bs.is_tuple()) {
    std::vector<Layout> out;
    for (size_t i = 0; i < bs.rank(); ++i) out.push_back(compose_impl(a, a_orig, bs[i], bd[i]));
    return make_layout(out);
  }
  return compose_mode(a, a_orig, bs.value(), bd.value());
}
}  // namespace

Layout composition(const Layout& a, const Layout& b) {
  Layout ca = coalesce(a);
  return compose_impl(flat_modes(ca), a, b.shape, b.stride);
}

Layout composition(const Layout& a, const Tiler& t) {
  switch (t.kind) {
    case Tiler::Kind::Layout: return composition(a, t.layout);
    case Tiler::Kind::Underscore: return a;
    case Tiler::Kind::Tuple: break;
  }
  if (t.modes.size() > a.rank())
    throw LayoutError("composition: tiler " + t.to_string() + " has more modes than " + a.to_string());
  std::vector<Layout> out;
  for (size_t i = 0; i < a.rank(); ++i) out.push_back(i < t.modes.size() ? composition(a[i], t.modes[i]) : a[i]);
  return make_layout(out);
}

// ---------------------------------------------------------------------------
// complement

Layout complement(const Layout& l, const Int& cotarget) {
  // The cotarget is a size (the codomain to fill); a negative one would make a mode of negative size.
  if (cotarget.has_value() && cotarget.value() < 0)
    throw LayoutError("complement: the cotarget is a size and cannot be negative, found " + cotarget.to_string());
  Layout f = filter(l);
  std::vector<Mode> m = flat_modes(f);
  if (m.size() == 1 && m[0].stride.is_constant(0)) return Layout(cotarget, Int(1));
  if (m.size() > 1) {
    for (const auto& x : m) x.stride.require_value("complement");
    std::stable_sort(m.begin(), m.end(), [](const Mode& x, const Mode& y) {
      return abs(x.stride).value() < abs(y.stride).value();
    });
  }
  std::vector<IntTuple> rs, rd;
  Int current(1);
  for (const auto& x : m) {
    Int d = abs(x.stride);
    if (x.shape.has_value() && x.shape.value() <= 0)
      throw LayoutError("complement: " + l.to_string() + " has a mode of size " + x.shape.to_string() +
                        "; complement needs positive sizes");
    if (d.has_value() && current.has_value()) {
      if (d.value() < current.value())
        throw LayoutError("complement: " + l.to_string() + " is not injective (a mode of stride " + d.to_string() +
                          " overlaps the modes below it)");
      if (d.value() % current.value() != 0)
        throw LayoutError("complement: stride " + d.to_string() + " of " + l.to_string() +
                          " is not divisible by " + current.to_string() + ", the extent of the smaller modes");
    }
    rs.emplace_back(d / current);
    rd.emplace_back(current);
    current = d * x.shape;
  }
  rs.emplace_back(ceil_div(cotarget, current));
  rd.emplace_back(current);
  return coalesce(Layout(IntTuple::tuple(std::move(rs)), IntTuple::tuple(std::move(rd))));
}

Layout complement(const Layout& l) { return complement(l, cosize(l)); }

// ---------------------------------------------------------------------------
// inverses

Layout right_inverse(const Layout& l) {
  Layout c = coalesce(l);
  std::vector<Mode> m = flat_modes(c);
  std::vector<Int> rstride = flatten_leaves(compact_col_major(c.shape));
  std::vector<size_t> seq;
  std::vector<bool> used(m.size(), false);
  Int next(1);
  for (;;) {
    bool found = false;
    for (size_t i = 0; i < m.size(); ++i) {
      if (used[i] || !m[i].stride.has_value()) continue;
      if (abs(m[i].stride).value() == next.require_value("right_inverse") && !m[i].shape.is_constant(1)) {
        seq.push_back(i);
        used[i] = true;
        next = m[i].shape * abs(m[i].stride);
        found = true;
        break;
      }
    }
    if (!found || !next.has_value()) break;
  }
  std::vector<Mode> out;
  for (size_t i : seq) out.push_back({m[i].shape, signum(m[i].stride) * rstride[i]});
  return from_modes(out);
}

Layout left_inverse(const Layout& l) { return right_inverse(make_layout({l, complement(l)})); }

// ---------------------------------------------------------------------------
// slice

namespace {
void slice_into(const Coord& crd, const IntTuple& t, std::vector<IntTuple>& out) {
  if (crd.is_underscore()) {
    out.push_back(t);
    return;
  }
  if (crd.is_tuple()) {
    if (!t.is_tuple() || t.rank() != crd.rank())
      throw LayoutError("slice: coordinate " + crd.to_string() + " does not match " + t.to_string());
    for (size_t i = 0; i < crd.rank(); ++i) slice_into(crd[i], t[i], out);
  }
}
}  // namespace

IntTuple slice(const Coord& crd, const IntTuple& t) {
  if (crd.is_underscore()) return t;
  std::vector<IntTuple> out;
  slice_into(crd, t, out);
  return IntTuple::tuple(std::move(out));
}

Layout slice(const Coord& crd, const Layout& l) { return Layout(slice(crd, l.shape), slice(crd, l.stride)); }

namespace {
Coord zero_kept(const Coord& crd) {
  if (crd.is_underscore()) return Coord(0);
  if (!crd.is_tuple()) return crd;
  std::vector<IntTuple> out;
  for (const auto& e : crd.elems()) out.push_back(zero_kept(e));
  return IntTuple::tuple(std::move(out));
}
}  // namespace

Int slice_offset(const Coord& crd, const Layout& l) {
  // A `_` in place of a tuple mode contributes 0 for every leaf of that mode.
  Coord z = zero_kept(crd);
  return crd2idx(z, l.shape, l.stride);
}

bool Layout::is_static() const {
  std::vector<Int> leaves = flatten_leaves(shape), strides = flatten_leaves(stride);
  leaves.insert(leaves.end(), strides.begin(), strides.end());
  for (const auto& x : leaves)
    if (!x.has_value()) return false;
  return true;
}

}  // namespace tileslc::layout
