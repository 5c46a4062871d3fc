// Unit tests for compiler/layout, one suite per operation family, with values
// from CuTe's documentation (01_layout.md, 02_layout_algebra.md, the CuTe DSL
// docs) where they state them: notation and printing, integers (static,
// dynamic, symbolic), coordinates, coalesce, composition, complement,
// inverses, divides, products, tile_to_shape, make_layout_tv,
// max_common_vector, recast_layout, slice, swizzles, and error messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "layout/layout.h"

namespace tileslc::layout {
namespace {

Layout L(const char* s) { return parse_layout(s); }
IntTuple T(const char* s) { return parse_int_tuple(s); }
Tiler Ti(const char* s) { return parse_tiler(s); }
std::string S(const Layout& l) { return l.to_string(); }

TEST(LayoutNotation, RoundTripsAndMarks) {
  EXPECT_EQ(S(L("((2,2),3):((24,2),8)")), "((2,2),3):((24,2),8)");
  EXPECT_EQ(S(L(" 8 : 1 ")), "8:1");
  EXPECT_EQ(T("(3,8)").to_string(), "(3,8)");
  EXPECT_EQ(Ti("<3:4,8:2>").to_string(), "<3:4,8:2>");
  EXPECT_EQ(T("()").to_string(), "()");
  ParseOptions cute;
  cute.plain_ints_static = false;
  Layout m = parse_layout("(_3,(2,4)):(236,(_26,1))", cute);
  EXPECT_EQ(m.to_string(true), "(_3,(2,4)):(236,(_26,1))");
  EXPECT_EQ(m.to_string(), "(3,(2,4)):(236,(26,1))");
  EXPECT_EQ(parse_composed_layout("Sw<3,4,3> o 0 o (8,64):(64,1)").to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
}

TEST(LayoutNotation, ErrorsPointAtTheColumn) {
  try {
    parse_layout("(4,3:(1,4)");
    FAIL();
  } catch (const NotationError& e) {
    EXPECT_EQ(std::string(e.what()), "expected ',' or ')' at column 5");
    EXPECT_EQ(e.column(), 5u);
  }
  try {
    parse_layout("(4,3):(1,(4,2))");
    FAIL();
  } catch (const NotationError& e) {
    EXPECT_EQ(e.column(), 7u);
    EXPECT_NE(std::string(e.what()).find("not congruent"), std::string::npos);
  }
  EXPECT_THROW(parse_layout("(4,3)"), NotationError);
  EXPECT_THROW(parse_layout("8:1 x"), NotationError);
  EXPECT_THROW(parse_tiler("<3:4,8:2"), NotationError);
  EXPECT_THROW(parse_int_tuple("99999999999999999999"), NotationError);
}

TEST(LayoutInt, StaticDynamicSymbolic) {
  Int a(6), b = Int::dynamic(4), n = Int::symbol("N");
  EXPECT_TRUE((a * Int(2)).is_static());
  EXPECT_FALSE((a * b).is_static());
  EXPECT_EQ((a * b).value(), 24);
  EXPECT_EQ((n * Int(1)).to_string(), "N");
  EXPECT_EQ((n * Int(0)).to_string(), "0");
  EXPECT_EQ((n * Int(4) + Int(1)).to_string(), "(N*4)+1");
  EXPECT_EQ(ceil_div(Int(7), Int(2)).value(), 4);
  EXPECT_THROW(min(n, Int(4)), LayoutError);
  // A symbolic extent with a static tile: composition by an integral layout folds.
  Layout dyn(IntTuple(n), IntTuple(Int(1)));
  EXPECT_EQ(S(composition(dyn, L("4:2"))), "4:2");
  EXPECT_EQ(S(dyn), "N:1");
  // A run-time coordinate into a symbolic layout becomes C++ arithmetic.
  Layout mn = parse_layout("(N,4):(1,N)");
  EXPECT_EQ(mn(IntTuple::tuple({IntTuple(Int::symbol("i")), IntTuple(Int::symbol("j"))})).to_string(), "i+(j*N)");
  EXPECT_EQ(size(mn).to_string(), "N*4");
  EXPECT_THROW(composition(mn, L("8:1")), LayoutError);  // needs N's value for divisibility
}

TEST(LayoutInt, BasisStrides) {
  // CuTe's E<k> (printed 1@k): typed leaves, distinct from a name spelled the same.
  Int e0 = Int::basis(0), e1 = Int::basis(1), n = Int::symbol("N");
  EXPECT_TRUE(e1.is_basis());
  EXPECT_FALSE(e1.is_named());
  EXPECT_FALSE(e1.has_value());
  EXPECT_EQ(e1.basis_mode(), 1);
  EXPECT_EQ(e1.to_string(), "1@1");
  EXPECT_EQ(e1.symbol_name(), "1@1");
  EXPECT_TRUE(n.is_named());
  EXPECT_FALSE(n.is_basis());
  EXPECT_FALSE(n.has_basis());
  EXPECT_FALSE(Int(3).is_named());
  EXPECT_FALSE(Int(3).is_basis());
  EXPECT_THROW(n.basis_mode(), LayoutError);
  EXPECT_TRUE(e0.identical(Int::basis(0)));
  EXPECT_FALSE(e0.identical(e1));
  EXPECT_FALSE(e0.identical(Int::symbol("1@0")));
  // Scaled sums of bases print as before and remember which leaves are bases.
  Int s = e0 * Int(4) + e1 * n;
  EXPECT_EQ(s.to_string(), "(1@0*4)+(1@1*N)");
  EXPECT_TRUE(s.has_basis());
  EXPECT_FALSE(s.is_basis());
  EXPECT_FALSE(s.is_named());
  EXPECT_TRUE(s.lhs().lhs().is_basis());
  EXPECT_EQ(s.rhs().lhs().basis_mode(), 1);
  EXPECT_TRUE(s.rhs().rhs().is_named());
  EXPECT_FALSE((n * Int(2)).has_basis());
  // An identity layout's strides print in CuTe's notation.
  Layout id(IntTuple::tuple({IntTuple(4), IntTuple(n)}), IntTuple::tuple({IntTuple(e0), IntTuple(e1)}));
  EXPECT_EQ(S(id), "(4,N):(1@0,1@1)");
  EXPECT_EQ(id(IntTuple::tuple({IntTuple(2), IntTuple(3)})).to_string(), "(2*1@0)+(3*1@1)");
  EXPECT_THROW(Int::basis(-1), LayoutError);
}

TEST(LayoutCoord, Doc01Layout) {
  // 01_layout.md: (3,(2,3)):(3,(12,1)) and its three coordinate forms.
  Layout l = L("(3,(2,3)):(3,(12,1))");
  EXPECT_EQ(size(l).value(), 18);
  EXPECT_EQ(rank(l), 2u);
  EXPECT_EQ(depth(l), 2u);
  EXPECT_EQ(l(16).value(), 17);
  EXPECT_EQ(l(T("(1,5)")).value(), 17);
  EXPECT_EQ(l(T("(1,(1,2))")).value(), 17);
  EXPECT_EQ(idx2crd(IntTuple(16), l.shape).to_string(), "(1,(1,2))");
  EXPECT_EQ(idx2crd(T("(1,5)"), l.shape).to_string(), "(1,(1,2))");
  EXPECT_EQ(cosize(l).value(), 21);
  EXPECT_EQ(S(get(l, 1)), "(2,3):(12,1)");
  EXPECT_EQ(S(flatten(l)), "(3,2,3):(3,12,1)");
  EXPECT_EQ(S(group_modes(L("(2,3,4):(1,2,6)"), 1, 3)), "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(S(select(L("(2,3,4):(1,2,6)"), {2, 0})), "(4,2):(6,1)");
  EXPECT_EQ(S(make_layout(T("(2,(3,4))"))), "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(S(make_ordered_layout(T("(2,3,4)"), T("(2,0,1)"))), "(2,3,4):(12,1,3)");
}

TEST(LayoutCoalesce, Doc) {
  EXPECT_EQ(S(coalesce(L("(2,(1,6)):(1,(6,2))"))), "12:1");
  EXPECT_EQ(S(coalesce(L("(2,(1,6)):(1,(6,2))"), T("(1,1)"))), "(2,6):(1,2)");
  EXPECT_EQ(S(coalesce(L("(1,1):(4,2)"))), "1:0");
  EXPECT_EQ(S(filter(L("(2,3,4):(1,0,2)"))), "8:1");
  // Dynamic modes never merge and a dynamic 1 is kept.
  ParseOptions dyn;
  dyn.plain_ints_static = false;
  EXPECT_EQ(S(coalesce(parse_layout("(2,4):(1,2)", dyn))), "(2,4):(1,2)");
  EXPECT_EQ(S(coalesce(parse_layout("(_2,_4):(_1,_2)", dyn))), "8:1");
}

TEST(LayoutComposition, Doc) {
  EXPECT_EQ(S(composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"))), "((2,2),3):((24,2),8)");
  EXPECT_EQ(S(composition(L("20:2"), L("(5,4):(4,1)"))), "(5,4):(8,2)");
  EXPECT_EQ(S(composition(L("(10,2):(16,4)"), L("(5,4):(1,5)"))), "(5,(2,2)):(16,(80,4))");
  EXPECT_EQ(S(composition(L("(12,(4,8)):(59,(13,1))"), Ti("<3:4,8:2>"))), "(3,(2,4)):(236,(26,1))");
  EXPECT_EQ(S(composition(L("(12,(4,8)):(59,(13,1))"), Ti("(3,8)"))), "(3,(4,2)):(59,(13,1))");
  EXPECT_EQ(S(composition(L("(4,3):(3,1)"), L("8:0"))), "8:0");
}

TEST(LayoutComposition, RunTimeExtentsWhereNoValueIsNeeded) {
  // CuTe DSL's elementwise_apply: the (RestM, RestN) tiles of a zipped_divide read in (RestN,
  // RestM) order, RestM and RestN run-time: (M,N):(S,4) o (N,M):(M,1) = (N,M):(4,S).
  const Int m = Int::symbol("M"), n = Int::symbol("N"), s = Int::symbol("S");
  Layout rest = make_layout(IntTuple::tuple({IntTuple(m), IntTuple(n)}), IntTuple::tuple({IntTuple(s), IntTuple(Int(4))}));
  Layout remap = make_layout(IntTuple::tuple({IntTuple(n), IntTuple(m)}), IntTuple::tuple({IntTuple(m), IntTuple(Int(1))}));
  EXPECT_EQ(S(composition(rest, remap)), "(N,M):(4,S)");
  // The identity over the same extents is the layout itself; a stride-1 mode of extent 1 is dropped.
  EXPECT_EQ(S(composition(rest, make_layout(IntTuple::tuple({IntTuple(m), IntTuple(n)})))), "(M,N):(S,4)");
  // A run-time extent that must be split needs its value: E0601's "needs a static value".
  EXPECT_THROW(composition(rest, L("2:1")), LayoutError);
  EXPECT_THROW(composition(rest, make_layout(IntTuple(n), IntTuple(Int(2)))), LayoutError);
}

TEST(LayoutComposition, DivisibilityErrorsNameBothLayouts) {
  try {
    composition(L("(4,3):(3,1)"), L("2:3"));
    FAIL();
  } catch (const LayoutError& e) {
    EXPECT_EQ(std::string(e.what()),
              "composition: stride 3 does not divide shape 4 of the left layout, nor the reverse "
              "(in (4,3):(3,1) o 2:3)");
  }
  EXPECT_THROW(composition(L("(4,3):(3,1)"), L("6:1")), LayoutError);
  EXPECT_THROW(composition(L("(4,3):(3,1)"), Ti("<2:1,3:1,4:1>")), LayoutError);
}

TEST(LayoutComplement, Doc) {
  EXPECT_EQ(S(complement(L("4:1"), 24)), "6:4");
  EXPECT_EQ(S(complement(L("6:4"), 24)), "4:1");
  EXPECT_EQ(S(complement(L("(4,6):(1,4)"), 24)), "1:0");
  EXPECT_EQ(S(complement(L("4:2"), 24)), "(2,3):(1,8)");
  EXPECT_EQ(S(complement(L("(2,4):(1,6)"), 24)), "3:2");
  EXPECT_EQ(S(complement(L("(2,2):(1,6)"), 24)), "(3,2):(2,12)");
  EXPECT_EQ(S(complement(L("4:0"), 8)), "8:1");
  EXPECT_THROW(complement(L("(2,2):(1,1)"), 4), LayoutError);
  EXPECT_THROW(complement(L("(2,3):(1,3)"), 12), LayoutError);
}

TEST(LayoutInverse, Doc) {
  EXPECT_EQ(S(right_inverse(L("(2,4,6):(4,1,8)"))), "(4,2,6):(2,1,8)");
  EXPECT_EQ(S(left_inverse(L("(2,4,6):(4,1,8)"))), "(4,2,6):(2,1,8)");
  EXPECT_EQ(S(right_inverse(L("4:2"))), "1:0");
  EXPECT_EQ(S(right_inverse(L("(4,8):(8,1)"))), "(8,4):(4,1)");
}

TEST(LayoutDivide, Doc) {
  EXPECT_EQ(S(logical_divide(L("(4,2,3):(2,1,8)"), L("4:2"))), "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(S(logical_divide(L("16:3"), L("(2,2):(4,1)"))), "((2,2),(2,2)):((12,3),(6,24))");
  EXPECT_EQ(S(logical_divide(L("(12,32,6):(1,128,0)"), Ti("(4,8)"))), "((4,3),(8,4),6):((1,4),(128,1024),0)");
  EXPECT_EQ(S(zipped_divide(L("(12,32,6):(1,128,0)"), Ti("(4,8)"))), "((4,8),(3,4,6)):((1,128),(4,1024,0))");
  EXPECT_EQ(S(tiled_divide(L("(9,(4,8)):(59,(13,1))"), Ti("<3:3,(2,4):(1,8)>"))),
            "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
  EXPECT_EQ(S(flat_divide(L("(9,(4,8)):(59,(13,1))"), Ti("<3:3,(2,4):(1,8)>"))),
            "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
  EXPECT_THROW(logical_divide(L("8:1"), Ti("(2,2)")), LayoutError);
}

TEST(LayoutProduct, Doc) {
  EXPECT_EQ(S(logical_product(L("(2,2):(4,1)"), L("6:1"))), "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(S(logical_product(L("(2,2):(1,2)"), L("(3,4):(4,1)"))), "((2,2),(3,4)):((1,2),(16,4))");
  EXPECT_EQ(S(blocked_product(L("(2,2):(1,2)"), L("(3,4):(4,1)"))), "((2,3),(2,4)):((1,16),(2,4))");
  EXPECT_EQ(S(raked_product(L("(2,2):(1,2)"), L("(3,4):(4,1)"))), "((3,2),(4,2)):((16,1),(4,2))");
  // A by-mode tiler multiplies each mode within that mode's own codomain.
  EXPECT_EQ(S(logical_product(L("(2,2):(1,2)"), Ti("<3:1,4:1>"))), "((2,3),(2,(2,2))):((1,2),(2,(1,4)))");
  EXPECT_EQ(S(zipped_product(L("(2,2):(1,2)"), Ti("<3:1,4:1>"))), "((2,2),(3,(2,2))):((1,2),(2,(1,4)))");
  EXPECT_EQ(S(tiled_product(L("(2,2):(1,2)"), Ti("<3:1,4:1>"))), "((2,2),3,(2,2)):((1,2),2,(1,4))");
  EXPECT_EQ(S(flat_product(L("(2,2):(1,2)"), Ti("<3:1,4:1>"))), "(2,2,3,(2,2)):(1,2,2,(1,4))");
  EXPECT_EQ(S(zipped_product(L("(2,2):(1,2)"), L("(3,4):(4,1)"))), "((2,2),(3,4)):((1,2),(16,4))");
}

TEST(LayoutTileToShape, BlocksInOrder) {
  EXPECT_EQ(S(tile_to_shape(L("(2,2):(1,2)"), T("(8,6)"))), "((2,4),(2,3)):((1,4),(2,16))");
  EXPECT_EQ(S(tile_to_shape(L("(2,2):(1,2)"), T("(8,6)"), T("(1,0)"))), "((2,4),6):((1,12),2)");  // mode 1 (2,3):(2,4) coalesces
  EXPECT_THROW(tile_to_shape(L("(2,2):(1,2)"), T("(5,6)")), LayoutError);
}

TEST(LayoutTv, CuteDslMakeLayoutTv) {
  // CuTe DSL's elementwise-add example: 4x32 threads (row-major), 4x4 values each.
  auto [tiler, tv] = make_layout_tv(L("(4,32):(32,1)"), L("(4,4):(4,1)"));
  EXPECT_EQ(tiler.to_string(), "(16,128)");
  EXPECT_EQ(S(tv), "((32,4),(4,4)):((64,4),(16,1))");
}

TEST(LayoutUtilities, MaxCommonVectorAndRecast) {
  EXPECT_EQ(max_common_vector(L("(8,4):(1,8)"), L("(8,4):(1,8)")).value(), 32);
  EXPECT_EQ(max_common_vector(L("(8,4):(1,8)"), L("(8,4):(4,1)")).value(), 1);
  EXPECT_EQ(max_common_vector(L("(4,8):(1,4)"), L("(4,8):(1,8)")).value(), 4);
  EXPECT_EQ(S(recast_layout(16, 32, L("(4,8):(8,1)"))), "(4,4):(4,1)");
  EXPECT_EQ(S(recast_layout(32, 16, L("(4,4):(4,1)"))), "(4,8):(8,1)");
  EXPECT_EQ(S(recast_layout(8, 8, L("(4,4):(4,1)"))), "(4,4):(4,1)");
}

TEST(LayoutSlice, Doc) {
  Layout l = L("((3,2),(2,5,2)):((4,1),(2,13,100))");
  EXPECT_EQ(S(slice(T("(2,_)"), l)), "((2,5,2)):((2,13,100))");
  EXPECT_EQ(S(slice(T("((_,1),(0,_,1))"), l)), "(3,5):(4,13)");
  EXPECT_EQ(slice_offset(T("((_,1),(0,_,1))"), l).value(), 101);
  EXPECT_EQ(slice_offset(T("(2,_)"), l).value(), 8);
}

TEST(LayoutSwizzle, Sw343) {
  Swizzle sw{3, 4, 3};
  EXPECT_EQ(sw(128), 144);
  EXPECT_EQ(sw(0), 0);
  EXPECT_EQ(sw(15), 15);
  ComposedLayout c = parse_composed_layout("Sw<2,0,2> o 0 o (4,4):(4,1)");
  EXPECT_EQ(c(T("(1,0)")).value(), 5);
  EXPECT_EQ(c(T("(3,3)")).value(), 12);
}

TEST(LayoutShow, PrintLayoutTable) {
  EXPECT_EQ(print_layout(L("(2,3):(3,1)")),
            "(2,3):(3,1)\n"
            "     0   1   2\n"
            "   +---+---+---+\n"
            " 0 | 0 | 1 | 2 |\n"
            "   +---+---+---+\n"
            " 1 | 3 | 4 | 5 |\n"
            "   +---+---+---+\n");
  std::string svg = tv_svg(L("((2,2),2):((4,1),2)"), T("(4,2)"));
  EXPECT_NE(svg.find("T3/V1"), std::string::npos);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
}

// A zero (or negative) extent used to reach a raw integer division or modulo
// and trap with SIGFPE; every such path now throws LayoutError instead.
std::string what_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "(no LayoutError)";
}

TEST(LayoutErrors, ZeroExtentsThrowInsteadOfTrapping) {
  Layout a = L("(4,4):(1,4)");
  for (auto op : {logical_product, zipped_product, tiled_product, flat_product})
    EXPECT_THROW(op(a, Ti("(2,0)")), LayoutError);
  EXPECT_EQ(what_of([&] { logical_product(a, Ti("(2,0)")); }),
            "composition: the right layout has a mode of size 0, not a positive one (in (4,0):(1,16) o 0:1)");
  EXPECT_EQ(what_of([] { composition(L("(3,5):(7,2)"), L("0:1")); }),
            "composition: the right layout has a mode of size 0, not a positive one (in (3,5):(7,2) o 0:1)");
  EXPECT_EQ(what_of([] { composition(L("(4,0,8):(3,3,3)"), L("(3,3):(4,8)")); }),
            "composition: mode 1 of the left layout has size 0, not a positive one (in (4,0,8):(3,3,3) o 3:4)");
  EXPECT_THROW(composition(L("(3,5):(7,2)"), Layout(Int(4), Int::dynamic(0))), LayoutError);
  EXPECT_THROW(make_layout_tv(L("(4,8):(1,4)"), L("(4,0):(1,4)")), LayoutError);
  EXPECT_THROW(make_layout_tv(L("0:1"), L("(4,2):(1,4)")), LayoutError);
  EXPECT_THROW(max_common_vector(L("(4,4,3):(2,3,-3)"), L("(0,2):(1,2)")), LayoutError);
  EXPECT_THROW(max_common_vector(L("(4,8):(8,1)"), L("(2,0):(1,2)")), LayoutError);
  EXPECT_EQ(what_of([] { complement(L("(2,0,2):(1,2,16)"), 64); }),
            "complement: (2,0,2):(1,2,16) has a mode of size 0; complement needs positive sizes");
  EXPECT_THROW(complement(L("-2:1"), 8), LayoutError);
  EXPECT_THROW(blocked_product(L("(0,8):(3,4)"), L("(4,0,4):(0,3,3)")), LayoutError);
  EXPECT_THROW(tile_to_shape(L("(2,-2):(1,2)"), T("(4,4)")), LayoutError);
  EXPECT_THROW(upcast(0, L("(4,8):(8,1)")), LayoutError);
  EXPECT_THROW(idx2crd(T("3"), T("(1,0)")), LayoutError);
  EXPECT_THROW(crd2idx(T("3"), T("(0,4)"), T("(1,0)")), LayoutError);
  // INT64_MIN / -1 overflows (and traps) too.
  EXPECT_THROW(Int(INT64_MIN) / Int(-1), LayoutError);
  EXPECT_THROW(ceil_div(Int(INT64_MIN), Int(-1)), LayoutError);
  EXPECT_EQ((Int(INT64_MIN) % Int(-1)).value(), 0);
  // A symbolic value over a static zero would be a division by zero in the generated code.
  EXPECT_THROW(Int::symbol("n") / Int(0), LayoutError);
  EXPECT_THROW(Int::symbol("n") % Int(0), LayoutError);
  // Valid inputs keep their results.
  EXPECT_EQ(S(logical_product(L("(2,2):(4,1)"), Ti("6:1"))), "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(S(composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"))), "((2,2),3):((24,2),8)");
}

TEST(LayoutTextOps, EvaluateOp) {
  EXPECT_EQ(evaluate_op("composition", {"(6,2):(8,2)", "(4,3):(3,1)"}), "((2,2),3):((24,2),8)");
  EXPECT_EQ(evaluate_op("size", {"(3,(2,3))"}), "18");
  EXPECT_EQ(evaluate_op("crd2idx", {"16", "(3,(2,3))", "(3,(12,1))"}), "17");
  EXPECT_THROW(evaluate_op("nope", {}), UsageError);
  EXPECT_THROW(evaluate_op("size", {}), UsageError);
  try {
    evaluate_op("coalesce", {"(2,2):(1,2"});
    FAIL();
  } catch (const ArgNotationError& e) {
    EXPECT_EQ(e.arg_index, 0u);
    EXPECT_EQ(e.column(), 11u);
  }
}

}  // namespace
}  // namespace tileslc::layout
