// Property tests for compiler/layout on a few thousand random static layouts
// (fixed seed, so failures reproduce): composition is A(B(i)) wherever it is
// defined, right_inverse is a right inverse, complement is disjoint from and
// ordered after its layout, divides and products keep their sizes, coalesce
// and filter keep the function, idx2crd and crd2idx round-trip.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <set>

#include "layout/layout.h"

namespace tileslc::layout {
namespace {

constexpr int kTrials = 4000;

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  /// A random shape of rank 1..3 with leaves in 1..6, nested up to depth 2.
  IntTuple shape(int depth = 0) {
    if (depth >= 2 || pick(0, 2) == 0) return IntTuple(pick(1, 6));
    std::vector<IntTuple> e;
    int r = pick(1, 3);
    for (int i = 0; i < r; ++i) e.push_back(shape(depth + 1));
    return IntTuple::tuple(e);
  }

  /// Strides for `s`: mostly compact in a random order (so compositions and
  /// complements are often defined), sometimes random.
  IntTuple stride_for(const IntTuple& s) {
    std::vector<Int> leaves = flatten_leaves(s);
    std::vector<size_t> order(leaves.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    std::vector<Int> d(leaves.size());
    int64_t cur = pick(1, 2);
    bool random = pick(0, 4) == 0;
    for (size_t i : order) {
      d[i] = random ? Int(pick(0, 12)) : Int(cur);
      cur *= leaves[i].value() * (pick(0, 5) == 0 ? 2 : 1);
    }
    return unflatten(d, s);
  }

  Layout layout() {
    IntTuple s = shape();
    while (size(s).value() > 512) s = shape();
    return Layout(s, stride_for(s));
  }

 private:
  std::mt19937 rng_;
};

int64_t v(const Int& i) { return i.value(); }

bool injective(const Layout& l) {
  std::set<int64_t> seen;
  for (int64_t i = 0; i < v(size(l)); ++i)
    if (!seen.insert(v(l(i))).second) return false;
  return true;
}

TEST(LayoutProperty, CompositionIsFunctionComposition) {
  Gen g(12345);
  int defined = 0, undefined = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout a = g.layout(), b = g.layout();
    Layout r;
    try {
      r = composition(a, b);
    } catch (const LayoutError&) {
      ++undefined;
      continue;
    }
    ++defined;
    ASSERT_EQ(v(size(r)), v(size(b))) << a.to_string() << " o " << b.to_string() << " = " << r.to_string();
    // Where B leaves A's domain, A is only defined up to coalescing.
    for (int64_t i = 0; i < v(size(b)); ++i)
      if (v(b(i)) < v(size(a))) ASSERT_EQ(v(r(i)), v(a(b(i)))) << a.to_string() << " o " << b.to_string() << " = " << r.to_string() << " at " << i;
  }
  std::cout << "[ property ] composition: " << defined << " defined, " << undefined << " rejected\n";
  EXPECT_GT(defined, kTrials / 2);
}

TEST(LayoutProperty, RightInverse) {
  Gen g(777);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = g.layout();
    Layout ri = right_inverse(l);
    for (int64_t i = 0; i < v(size(ri)); ++i)
      ASSERT_EQ(v(l(ri(i))), i) << l.to_string() << " right_inverse " << ri.to_string();
  }
  std::cout << "[ property ] right_inverse: " << kTrials << " layouts\n";
}

TEST(LayoutProperty, LeftInverseOfInjective) {
  Gen g(4242);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout l = g.layout();
    if (!injective(l)) continue;
    Layout li;
    try {
      li = left_inverse(l);
    } catch (const LayoutError&) {
      continue;  // complement undefined (strides that do not divide each other)
    }
    ++checked;
    for (int64_t i = 0; i < v(size(l)); ++i) ASSERT_EQ(v(li(l(i))), i) << l.to_string() << " left_inverse " << li.to_string();
  }
  std::cout << "[ property ] left_inverse: " << checked << " injective layouts\n";
  EXPECT_GT(checked, kTrials / 4);
}

TEST(LayoutProperty, ComplementDisjointAndOrdered) {
  Gen g(99);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout l = g.layout();
    if (!injective(l)) continue;
    int64_t cotarget = v(cosize(l)) * g.pick(1, 3);
    Layout c;
    try {
      c = complement(l, Int(cotarget));
    } catch (const LayoutError&) {
      continue;
    }
    ++checked;
    std::set<int64_t> image;
    for (int64_t i = 0; i < v(size(l)); ++i) image.insert(v(l(i)));
    for (int64_t j = 1; j < v(size(c)); ++j) {
      ASSERT_LT(v(c(j - 1)), v(c(j))) << "complement not increasing: " << l.to_string() << " -> " << c.to_string();
      ASSERT_EQ(image.count(v(c(j))), 0u) << "complement overlaps: " << l.to_string() << " -> " << c.to_string();
    }
    ASSERT_TRUE(injective(make_layout({l, c}))) << l.to_string() << " ++ " << c.to_string();
    ASSERT_GE(v(size(l)) * v(size(c)), cotarget) << l.to_string() << " -> " << c.to_string();
  }
  std::cout << "[ property ] complement: " << checked << " injective layouts\n";
  EXPECT_GT(checked, kTrials / 4);
}

TEST(LayoutProperty, DivideAndProductSizes) {
  Gen g(2024);
  int divides = 0, products = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout a = g.layout();
    int64_t n = v(size(a));
    // A tile whose size divides size(a): a random divisor, compact.
    std::vector<int64_t> divisors;
    for (int64_t d = 1; d <= n; ++d)
      if (n % d == 0) divisors.push_back(d);
    int64_t d = divisors[static_cast<size_t>(g.pick(0, static_cast<int>(divisors.size()) - 1))];
    Layout tile(Int(d), Int(1));
    try {
      Layout q = logical_divide(a, Tiler(tile));
      ++divides;
      ASSERT_EQ(v(size(q)), n) << a.to_string() << " / " << tile.to_string() << " = " << q.to_string();
      ASSERT_EQ(v(size(q[0])), d);
      Layout z = zipped_divide(a, Tiler(tile));
      ASSERT_EQ(v(size(z[0])), d);
      ASSERT_EQ(v(size(z[1])), n / d);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(v(q(i)), v(z(i)));
    } catch (const LayoutError&) {
    }
    Layout b = g.layout();
    try {
      Layout p = logical_product(a, Tiler(b));
      ++products;
      ASSERT_EQ(v(size(p)), n * v(size(b))) << a.to_string() << " x " << b.to_string() << " = " << p.to_string();
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(v(p(i)), v(a(i)));  // the first mode is A itself
      Layout bp = blocked_product(a, b), rp = raked_product(a, b);
      ASSERT_EQ(v(size(bp)), n * v(size(b)));
      ASSERT_EQ(v(size(rp)), n * v(size(b)));
    } catch (const LayoutError&) {
    }
  }
  std::cout << "[ property ] divides: " << divides << ", products: " << products << "\n";
  EXPECT_GT(divides, kTrials / 2);
  EXPECT_GT(products, kTrials / 4);
}

TEST(LayoutProperty, CoalesceAndFilterKeepTheFunction) {
  Gen g(31337);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = g.layout();
    Layout c = coalesce(l);
    ASSERT_EQ(v(size(c)), v(size(l)));
    ASSERT_LE(depth(c), 1u);
    for (int64_t i = 0; i < v(size(l)); ++i) ASSERT_EQ(v(c(i)), v(l(i))) << l.to_string() << " -> " << c.to_string();
    IntTuple profile = product_each(l.shape);
    Layout bm = coalesce(l, profile);
    ASSERT_EQ(bm.rank(), l.rank());
    for (int64_t i = 0; i < v(size(l)); ++i) ASSERT_EQ(v(bm(i)), v(l(i))) << l.to_string() << " -> " << bm.to_string();
    Layout f = filter(l);
    std::set<int64_t> lv, fv;
    for (int64_t i = 0; i < v(size(l)); ++i) lv.insert(v(l(i)));
    for (int64_t i = 0; i < v(size(f)); ++i) fv.insert(v(f(i)));
    ASSERT_EQ(lv, fv) << l.to_string() << " filter " << f.to_string();
  }
  std::cout << "[ property ] coalesce/filter: " << kTrials << " layouts\n";
}

TEST(LayoutProperty, Idx2CrdRoundTrip) {
  Gen g(5);
  for (int t = 0; t < kTrials; ++t) {
    IntTuple s = g.shape();
    while (size(s).value() > 512) s = g.shape();
    IntTuple d = compact_col_major(s);
    for (int64_t i = 0; i < v(size(s)); ++i) {
      Coord c = idx2crd(Coord(i), s);
      ASSERT_TRUE(congruent(c, s) || !s.is_tuple());
      ASSERT_EQ(v(crd2idx(c, s, d)), i) << s.to_string() << " " << c.to_string();
      ASSERT_EQ(v(crd2idx(Coord(i), s, d)), i);
    }
  }
  std::cout << "[ property ] idx2crd/crd2idx: " << kTrials << " shapes\n";
}

// Codegen adds the terms of a swizzled offset that are multiples of 2^(M + B + |S|)
// after the swizzle (sema's split_at_swizzle_span): Swizzle<B, M, S>(x + c) must
// equal Swizzle(x) + c for every such c, negative ones included.
TEST(LayoutProperty, SwizzleCommutesWithMultiplesOfItsSpan) {
  Gen g(6);
  int checked = 0;
  for (int bits = 1; bits <= 3; ++bits)
    for (int base = 0; base <= 4; ++base)
      for (int shift = -4; shift <= 4; ++shift) {
        if (std::abs(shift) < bits) continue;  // CuTe requires |S| >= B
        Swizzle sw{bits, base, shift};
        const int64_t span = int64_t(1) << (base + bits + std::abs(shift));
        for (int t = 0; t < 200; ++t) {
          const int64_t x = g.pick(0, 1 << 16), c = span * g.pick(-64, 64);
          ASSERT_EQ(sw(x + c), sw(x) + c) << sw.to_string() << " x=" << x << " c=" << c;
          // and a constant that is not a multiple splits into the two parts
          const int64_t k = g.pick(-5000, 5000), lo = ((k % span) + span) % span;
          ASSERT_EQ(sw(x + k), sw(x + lo) + (k - lo)) << sw.to_string() << " x=" << x << " k=" << k;
          ++checked;
        }
      }
  EXPECT_GT(checked, 10000);
  std::cout << "[ property ] swizzle(x + c) = swizzle(x) + c: " << checked << " cases\n";
}

}  // namespace
}  // namespace tileslc::layout
