// Divides and products built on composition and complement (logical, zipped,
// tiled, flat; blocked and raked products; tile_to_shape), tilers, and the
// derived utilities: make_layout_tv, max_common_vector/layout, recast_layout
// (upcast/downcast), swizzles and composed layouts.
#include <algorithm>
#include <numeric>

#include "layout/layout.h"

namespace tileslc::layout {

// ---------------------------------------------------------------------------
// Tiler

Tiler Tiler::tuple(std::vector<Tiler> modes) {
  Tiler t;
  t.kind = Kind::Tuple;
  t.modes = std::move(modes);
  return t;
}

Tiler Tiler::underscore() {
  Tiler t;
  t.kind = Kind::Underscore;
  return t;
}

Tiler Tiler::from_shape(const IntTuple& shape) {
  if (shape.is_underscore()) return underscore();
  if (shape.is_leaf()) return Tiler(make_layout(shape));
  std::vector<Tiler> modes;
  for (const auto& e : shape.elems()) modes.push_back(from_shape(e));
  return tuple(std::move(modes));
}

std::string Tiler::to_string(bool mark_static) const {
  switch (kind) {
    case Kind::Layout: return layout.to_string(mark_static);
    case Kind::Underscore: return "_";
    case Kind::Tuple: break;
  }
  std::string s = "<";
  for (size_t i = 0; i < modes.size(); ++i) {
    if (i) s += ',';
    s += modes[i].to_string(mark_static);
  }
  return s + ">";
}

namespace {
/// Applies f mode by mode for a tuple tiler (modes past the tiler are kept),
/// or directly for a layout tiler.
template <class F>
Layout by_mode(const Layout& a, const Tiler& t, const char* op, F f) {
  if (t.kind == Tiler::Kind::Underscore) return a;
  if (t.kind == Tiler::Kind::Layout) return f(a, t.layout);
  if (t.modes.size() > a.rank())
    throw LayoutError(std::string(op) + ": tiler " + t.to_string() + " has more modes than " + a.to_string());
  std::vector<Layout> out;
  for (size_t i = 0; i < a.rank(); ++i)
    out.push_back(i < t.modes.size() ? by_mode(a[i], t.modes[i], op, f) : a[i]);
  return make_layout(out);
}

/// CuTe's zip2_by: splits a by-mode (tile, rest) result into ((tiles...), (rests...)).
std::pair<Layout, Layout> zip2_by(const Layout& l, const Tiler& t, const char* op) {
  if (t.kind == Tiler::Kind::Tuple) {
    std::vector<Layout> first, second;
    for (size_t i = 0; i < t.modes.size(); ++i) {
      auto [x, y] = zip2_by(l[i], t.modes[i], op);
      first.push_back(x);
      second.push_back(y);
    }
    for (size_t i = t.modes.size(); i < l.rank(); ++i) second.push_back(l[i]);
    return {make_layout(first), make_layout(second)};
  }
  if (t.kind == Tiler::Kind::Underscore)
    throw LayoutError(std::string(op) + ": `_` in a tiler is not supported here");
  if (l.rank() != 2 || !l.shape.is_tuple())
    throw LayoutError(std::string(op) + ": internal: expected a (tile, rest) layout, found " + l.to_string());
  return {l[0], l[1]};
}

Layout zipped(const Layout& l, const Tiler& t, const char* op) {
  auto [x, y] = zip2_by(l, t, op);
  return make_layout({x, y});
}

std::vector<Layout> modes_of(const Layout& l) {
  std::vector<Layout> out;
  if (!l.shape.is_tuple()) {
    out.push_back(l);
    return out;
  }
  for (size_t i = 0; i < l.rank(); ++i) out.push_back(l[i]);
  return out;
}

Layout tiled(const Layout& z) {
  std::vector<Layout> out{z[0]};
  for (const auto& m : modes_of(z[1])) out.push_back(m);
  return make_layout(out);
}

Layout flat(const Layout& z) {
  std::vector<Layout> out = modes_of(z[0]);
  for (const auto& m : modes_of(z[1])) out.push_back(m);
  return make_layout(out);
}
}  // namespace

// ---------------------------------------------------------------------------
// Divides

Layout logical_divide(const Layout& a, const Tiler& tiler) {
  return by_mode(a, tiler, "logical_divide", [](const Layout& l, const Layout& t) {
    return composition(l, make_layout({t, complement(t, size(l))}));
  });
}

Layout zipped_divide(const Layout& a, const Tiler& tiler) {
  return zipped(logical_divide(a, tiler), tiler, "zipped_divide");
}

Layout tiled_divide(const Layout& a, const Tiler& tiler) { return tiled(zipped_divide(a, tiler)); }
Layout flat_divide(const Layout& a, const Tiler& tiler) { return flat(zipped_divide(a, tiler)); }

// ---------------------------------------------------------------------------
// Products

Layout logical_product(const Layout& a, const Tiler& b) {
  return by_mode(a, b, "logical_product", [](const Layout& l, const Layout& t) {
    return make_layout({l, composition(complement(l, size(l) * cosize(t)), t)});
  });
}

Layout zipped_product(const Layout& a, const Tiler& b) {
  return zipped(logical_product(a, b), b, "zipped_product");
}

Layout tiled_product(const Layout& a, const Tiler& b) { return tiled(zipped_product(a, b)); }
Layout flat_product(const Layout& a, const Tiler& b) { return flat(zipped_product(a, b)); }

namespace {
Layout zip_product(const Layout& a, const Layout& b, bool raked) {
  size_t r = std::max(a.rank(), b.rank());
  Layout pa = append(a, r), pb = append(b, r);
  Layout p = logical_product(pa, Tiler(pb));
  Layout block = p[0], rest = p[1];
  // Rank-1 operands give a rank-1 result whose one mode is (block, rest) (CuTe
  // zips the modes and coalesces each one, so a blocked 1-D product is compact).
  if (r == 1) {
    Layout zipped = make_layout(std::vector<Layout>{raked ? make_layout({rest, block}) : make_layout({block, rest})});
    return coalesce(zipped, IntTuple::tuple({IntTuple(1)}));
  }
  std::vector<Layout> out;
  for (size_t i = 0; i < r; ++i)
    out.push_back(raked ? make_layout({rest[i], block[i]}) : make_layout({block[i], rest[i]}));
  return make_layout(out);
}
}  // namespace

Layout blocked_product(const Layout& a, const Layout& b) { return zip_product(a, b, false); }
Layout raked_product(const Layout& a, const Layout& b) { return zip_product(a, b, true); }

Layout tile_to_shape(const Layout& block, const Shape& target, const std::optional<IntTuple>& order) {
  size_t r = target.rank();
  if (block.rank() > r)
    throw LayoutError("tile_to_shape: block " + block.to_string() + " has more modes than the target shape " +
                      target.to_string());
  Layout padded = append(block, r);
  IntTuple bshape = product_each(padded.shape), tshape = product_each(target);
  std::vector<IntTuple> counts;
  for (size_t i = 0; i < r; ++i) {
    Int b = bshape[i].value(), t = tshape[i].value();
    int64_t bv = b.require_value("tile_to_shape"), tv = t.require_value("tile_to_shape");
    if (bv < 0)
      throw LayoutError("tile_to_shape: mode " + std::to_string(i) + " of the block " + block.to_string() +
                        " has size " + b.to_string() + ", not a positive one");
    if (bv == 0 || tv % bv != 0)
      throw LayoutError("tile_to_shape: mode " + std::to_string(i) + " of the target shape " + target.to_string() +
                        " is not divisible by the block's " + b.to_string() + " (block " + block.to_string() + ")");
    counts.emplace_back(ceil_div(t, b));
  }
  IntTuple product_shape = r == 1 && !target.is_tuple() ? counts[0] : IntTuple::tuple(counts);
  IntTuple ord = order ? *order : compact_col_major(product_shape);
  Layout tiles = make_ordered_layout(product_shape, ord);
  return coalesce(blocked_product(padded, tiles), product_shape);
}

// ---------------------------------------------------------------------------
// Utilities

std::pair<IntTuple, Layout> make_layout_tv(const Layout& thr, const Layout& val) {
  Layout mn = raked_product(thr, val);
  Layout tv_shape = make_layout(IntTuple::tuple({IntTuple(size(thr)), IntTuple(size(val))}));
  Layout tv = composition(right_inverse(mn), tv_shape);
  return {product_each(mn.shape), tv};
}

Layout max_common_layout(const Layout& a, const Layout& b) {
  Layout inv_b = right_inverse(b);
  Layout common = coalesce(composition(a, inv_b));
  Layout first = common[0];
  if (first.stride.is_leaf() && first.stride.value().is_constant(1))
    return composition(inv_b, first);
  return Layout(Int(1), Int(0));
}

Int max_common_vector(const Layout& a, const Layout& b) {
  Layout common = coalesce(composition(a, right_inverse(b)));
  Layout first = common[0];
  if (first.stride.is_leaf() && first.stride.value().is_constant(1)) return first.shape.value();
  return Int(1);
}

namespace {
Layout map_leaves(const Layout& l, Layout (*f)(int, const Int&, const Int&), int n) {
  if (!l.shape.is_tuple()) return f(n, l.shape.value(), l.stride.value());
  std::vector<Layout> out;
  for (size_t i = 0; i < l.rank(); ++i) out.push_back(map_leaves(l[i], f, n));
  return make_layout(out);
}

Layout upcast_leaf(int n, const Int& s, const Int& d) {
  if (d.is_constant(0)) return Layout(s, d);
  if (d.is_static()) {
    int64_t dv = d.value() < 0 ? -d.value() : d.value();
    if (dv % n != 0 && n % dv != 0)
      throw LayoutError("upcast: stride " + d.to_string() + " and " + std::to_string(n) + " do not divide each other");
    Int N(n);
    return Layout(ceil_div(s, ceil_div(N, abs(d))), signum(d) * ceil_div(abs(d), N));
  }
  return Layout(s, d / Int(n));
}

Layout downcast_leaf(int n, const Int& s, const Int& d) {
  if (d.is_constant(1) || d.is_constant(-1)) return Layout(s * Int(n), d);
  return Layout(s, d * Int(n));
}
}  // namespace

Layout upcast(int n, const Layout& l) {
  if (n <= 0) throw LayoutError("upcast: factor " + std::to_string(n) + " is not positive");
  return map_leaves(l, upcast_leaf, n);
}
Layout downcast(int n, const Layout& l) { return map_leaves(l, downcast_leaf, n); }

Layout recast_layout(int old_bits, int new_bits, const Layout& l) {
  if (old_bits <= 0 || new_bits <= 0) throw LayoutError("recast_layout: element widths must be positive");
  int g = std::gcd(old_bits, new_bits);
  int num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return l;
  if (num == 1) return downcast(den, l);
  if (den == 1) return upcast(num, l);
  return downcast(den, upcast(num, l));
}

// ---------------------------------------------------------------------------
// Swizzle / ComposedLayout

int64_t Swizzle::operator()(int64_t x) const {
  if (bits == 0) return x;
  int64_t mask = (int64_t(1) << bits) - 1;
  int64_t yyy = mask << (base + std::max(0, shift));
  return shift >= 0 ? x ^ ((x & yyy) >> shift) : x ^ ((x & yyy) << -shift);
}

std::string Swizzle::to_string() const {
  return "Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
}

Int ComposedLayout::operator()(const Coord& c) const {
  Int v = offset + layout(c);
  return Int(swizzle(v.require_value("swizzle")));
}

std::string ComposedLayout::to_string(bool mark_static) const {
  return swizzle.to_string() + " o " + offset.to_string(mark_static) + " o " + layout.to_string(mark_static);
}

}  // namespace tileslc::layout
