// Unit tests for sema's Value (compiler/sema/value.h): the kind follows the
// payload, the named readers return the payload's fields, a reader on the
// wrong kind is an internal error (std::logic_error) rather than a default,
// is_static() is the one static/run-time rule, and a Value stays small.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ir/ir.h"
#include "sema/value.h"

namespace tileslc::sema {
namespace {

// A Value was one 328-byte struct of every kind's fields; the variant holds one payload.
static_assert(sizeof(Value) <= 64);

TEST(Value, KindFollowsPayload) {
  EXPECT_EQ(Value{}.kind(), Value::Kind::Undef);
  EXPECT_EQ(Value::none().kind(), Value::Kind::None);
  EXPECT_EQ(Value::integer(7).kind(), Value::Kind::Int);
  EXPECT_EQ(Value::boolean(true).kind(), Value::Kind::Bool);
  EXPECT_EQ(Value::str("x").kind(), Value::Kind::Str);
  EXPECT_EQ(Value(payload::SymDim{"M", 8}).kind(), Value::Kind::SymDim);
  EXPECT_EQ(Value::op_marker(BuiltinId{}, "CopyUniversalOp").kind(), Value::Kind::Marker);
  EXPECT_EQ(Value(payload::TmaAtom{}).kind(), Value::Kind::TmaAtom);
}

TEST(Value, ReadersReturnFields) {
  EXPECT_EQ(Value::integer(-3).i(), -3);
  EXPECT_EQ(Value::boolean(true).i(), 1);
  EXPECT_EQ(Value::floating(2.5).f(), 2.5);
  const Value sym = payload::SymDim{"M", 16};
  EXPECT_EQ(sym.s(), "M");
  EXPECT_EQ(sym.i(), 16);
  const Value t = Value::tuple({Value::integer(1), Value::str("a")});
  ASSERT_EQ(t.elts().size(), 2u);
  EXPECT_EQ(t.elts()[0].i(), 1);
  EXPECT_EQ(t.elts()[1].s(), "a");
  const Value d = Value::dyn(ir::int_const(4, ir::ScalarType::Int64), source::SourceRange{1, 2, 3});
  EXPECT_EQ(d.type(), ir::ScalarType::Int64);
  EXPECT_EQ(d.origin().begin, 2u);
  EXPECT_FALSE(Value::integer(1).origin().valid());
  const Value m = Value::op_marker(BuiltinId{}, "LdMatrix8x8x16bOp", {Value::boolean(false), Value::integer(4)});
  EXPECT_EQ(m.s(), "LdMatrix8x8x16bOp");
  ASSERT_EQ(m.elts().size(), 2u);
  EXPECT_EQ(m.elts()[1].i(), 4);
  const Value bound = Value::method(BuiltinId{}, Value::integer(9));
  ASSERT_TRUE(bound.self());
  EXPECT_EQ(bound.self()->i(), 9);
  EXPECT_FALSE(Value::make_builtin(BuiltinId{}).self());
}

TEST(Value, WrongKindIsInternalError) {
  EXPECT_THROW(Value::str("x").i(), std::logic_error);
  EXPECT_THROW(Value::integer(1).s(), std::logic_error);
  EXPECT_THROW(Value::integer(1).elts(), std::logic_error);
  EXPECT_THROW(Value::none().layout(), std::logic_error);
  EXPECT_THROW(Value::floating(1).tensor(), std::logic_error);
  EXPECT_THROW(Value{}.get<payload::Int>(), std::logic_error);
  EXPECT_EQ(Value::integer(1).get_if<payload::Float>(), nullptr);
}

TEST(Value, IsStatic) {
  EXPECT_TRUE(Value::integer(1).is_static());
  EXPECT_TRUE(Value::tuple({}).is_static());
  EXPECT_FALSE(Value{}.is_static());
  EXPECT_FALSE(Value::dyn(ir::int_const(1, ir::ScalarType::Int32), {}).is_static());
  EXPECT_FALSE(Value(payload::Tensor{}).is_static());
  EXPECT_FALSE(Value(payload::SmemAllocator{}).is_static());
  auto tc = std::make_shared<TiledCopy>();
  EXPECT_TRUE(Value::of(tc).is_static());
  tc->thread = std::make_shared<Value>(Value::dyn(ir::int_const(0, ir::ScalarType::Int32), {}));
  EXPECT_FALSE(Value::of(tc).is_static());  // sliced per thread
}

}  // namespace
}  // namespace tileslc::sema
