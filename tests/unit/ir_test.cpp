// Unit tests for the IR (compiler/ir/ir.h, visit.h, print.h, verify.h) on
// programs built by hand: each statement kind's constructor fills its named
// fields, the child iterators reach every operand and block of each kind, the
// mutator rebuilds only what changed, the printer's text for every statement
// kind and a small program, the intrinsic table (every row parses and spells),
// and the verifier finding each class of problem (and nothing in a valid
// program).
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/print.h"
#include "ir/verify.h"
#include "ir/visit.h"

namespace tileslc::ir {
namespace {

using T = ScalarType;

const source::SourceRange at{};  // statements built here come from no .tpy file
ExprRef i32(int64_t v) { return int_const(v, T::Int32); }
ExprRef i64(int64_t v) { return int_const(v, T::Int64); }
StmtPtr copy(const char* dst, int64_t dst_offset, const char* src, int64_t src_offset, int bits) {
  return vec_copy(at, dst, i64(dst_offset), src, i64(src_offset), bits, false);
}
template <class... S>
Block block_of(S... stmts) {
  Block b;
  (b.push_back(std::move(stmts)), ...);
  return b;
}

/// kernel scale(gA: const Float32*, gB: Float32*, n: Int32) with a loop
/// `for i in range(0, n, 1): if i < n: gB[i] = gA[i] * 2`, launched by host
/// function `run(mA, mB)` over N = mA.shape[0] after checking N % 4 == 0.
Program valid_program() {
  Program p;
  p.source_path = "scale.tpy";
  p.arch = "sm_90a";
  p.kernel_namespace = "tileslc_kernels::scale";
  Kernel k;
  k.name = "scale";
  k.source_name = "scale";
  k.specialization = "gA: Float32[N], gB: Float32[N], n: Int32, block=(256, 1, 1)";
  k.params = {{"gA", true, true, T::Float32}, {"gB", true, false, T::Float32}, {"n", false, false, T::Int32}};
  k.locals = {{"i", T::Int32}};
  k.arrays = {{"frag", T::Float32, 4, "acc"}};
  k.static_threads = 256;
  auto i = cast(var_ref("i", T::Int32), T::Int64);
  auto store = ir::store(at, "gB", i, binary(Op::Mul, load("gA", i, T::Float32), float_const(2.0, T::Float32), T::Float32));
  auto guard = if_(at, binary(Op::Lt, var_ref("i", T::Int32), param_ref("n", T::Int32), T::Boolean),
                   block_of(std::move(store)));
  k.body.push_back(for_(at, "i", T::Int32, i32(0), param_ref("n", T::Int32), i32(1), 1, false, block_of(std::move(guard))));
  p.kernels.push_back(std::move(k));

  HostFunction h;
  h.name = "run";
  HostParam ta{HostParam::Tensor, "mA", {}, T::Float32, {{false, 0, "N"}}, 0};
  HostParam tb{HostParam::Tensor, "mB", {}, T::Float32, {{false, 0, "N"}}, 16};
  h.params = {ta, tb};
  h.symbols = {{"N", 0, 0, "N_1"}};
  h.body.push_back(check(at,
                          binary(Op::Eq, binary(Op::TruncMod, param_ref("N_1", T::Int64), i64(4), T::Int64), i64(0),
                                 T::Boolean),
                          "run: N must be a multiple of 4", param_ref("N_1", T::Int64)));
  auto l = std::make_unique<LaunchInfo>();
  l->kernel = 0;
  l->grid[0] = binary(Op::FloorDiv, param_ref("N_1", T::Int64), i64(256), T::Int64);
  l->grid[1] = l->grid[2] = l->block[1] = l->block[2] = i64(1);
  l->block[0] = i64(256);
  l->smem = i64(0);
  l->args = {tensor_data(0, T::Float32), tensor_data(1, T::Float32), cast(tensor_extent(0, 0), T::Int32)};
  h.body.push_back(launch(at, std::move(l)));
  p.host_functions.push_back(std::move(h));
  return p;
}

std::vector<std::string> problems(const Program& p) {
  std::vector<std::string> out;
  for (const auto& pr : verify(p)) out.push_back(pr.function + ": " + pr.message);
  return out;
}

/// Whether some problem's text contains `part`.
::testing::AssertionResult flags(const Program& p, const std::string& part) {
  auto ps = problems(p);
  for (const auto& s : ps)
    if (s.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  auto r = ::testing::AssertionFailure() << "no problem mentions '" << part << "'; found:";
  for (const auto& s : ps) r << "\n  " << s;
  return r;
}

For& kernel_loop(Program& p) { return p.kernels[0].body.at(0)->as<For>(); }
If& loop_guard(Program& p) { return kernel_loop(p).body.at(0)->as<If>(); }
Store& store_stmt(Program& p) { return loop_guard(p).then_body.at(0)->as<Store>(); }
LaunchInfo& launch_info(Program& p) { return *p.host_functions[0].body.at(1)->as<Launch>().info; }
Check& host_check(Program& p) { return p.host_functions[0].body.at(0)->as<Check>(); }

// ------------------------------------------------------------ expressions

TEST(IrExpr, ConstructorsFillTheNamedFieldsOfTheirKind) {
  ExprRef i = var_ref("i", T::Int64);
  ExprRef b = binary(Op::Mul, i, i64(4), T::Int64);
  EXPECT_EQ(b->kind(), ExprKind::Binary);
  EXPECT_EQ(b->type, T::Int64);
  EXPECT_EQ(b->as<Binary>().op, Op::Mul);
  EXPECT_EQ(b->as<Binary>().lhs, i);
  EXPECT_EQ(as_int_const(b->as<Binary>().rhs), 4);
  EXPECT_EQ(b->get_if<Unary>(), nullptr);
  EXPECT_THROW(b->as<Load>(), std::bad_variant_access) << "another kind's fields are not there to misuse";

  ExprRef ld = load("gA", i, T::Float32);
  EXPECT_EQ(ld->as<Load>().ptr, "gA");
  EXPECT_EQ(ld->as<Load>().offset, i);
  ExprRef wait = intrinsic(Intrinsic::CpAsyncWaitGroup, {2}, {}, T::Int32);
  const IntrinsicCall& c = wait->as<IntrinsicCall>();
  EXPECT_EQ(c.id, Intrinsic::CpAsyncWaitGroup);
  EXPECT_EQ(c.imms, std::vector<std::string>{"2"});
  EXPECT_EQ(tensor_stride(1, 2)->as<TensorStride>().mode, 2);
  EXPECT_EQ(tensor_stride(1, 2)->as<TensorStride>().tensor, 1);
  EXPECT_EQ(value_name(*param_ref("n", T::Int32)) ? *value_name(*param_ref("n", T::Int32)) : "", "n");
  EXPECT_EQ(value_name(*builtin_ref("threadIdx.x")), nullptr) << "a hardware index is not a named value";
  EXPECT_EQ(cast(int_const(7, T::Int32), T::Float64)->as<FloatConst>().value, 7.0) << "constants convert in place";
  EXPECT_TRUE(cast(i, T::Int32)->is<Cast>());

  const ExprKind kinds[] = {int_const(1, T::Int32)->kind(),
                            float_const(1, T::Float32)->kind(),
                            i->kind(),
                            param_ref("n", T::Int32)->kind(),
                            builtin_ref("threadIdx.x")->kind(),
                            tensor_data(0, T::Float32)->kind(),
                            tensor_extent(0, 0)->kind(),
                            tensor_stride(0, 0)->kind(),
                            unary(Op::Neg, i, T::Int64)->kind(),
                            b->kind(),
                            select(binary(Op::Lt, i, i, T::Boolean), i, i)->kind(),
                            cast(i, T::Int32)->kind(),
                            call("f", {}, T::Int32)->kind(),
                            load("p", i, T::Float32)->kind(),
                            address_of("p", i, T::Float32)->kind(),
                            intrinsic(Intrinsic::ElectOne, {}, {}, T::Boolean)->kind()};
  for (size_t k = 0; k < std::size(kinds); ++k) EXPECT_EQ(static_cast<size_t>(kinds[k]), k) << "Expr::Node's order";
}

TEST(IrExpr, ConstantOperandsFoldWithTheLanguagesSemantics) {
  // docs/language.md: integers wrap, // and % are Python's, shifts clamp; floats round once per
  // operation in their own type. nvcc folded the unfolded forms wrongly (difffuzz's GPU half).
  auto ival = [](const ExprRef& e) { return e->as<IntConst>().value; };
  auto fval = [](const ExprRef& e) { return e->as<FloatConst>().value; };
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(ival(binary(Op::Sub, int_const(min64, T::Int64), int_const(1, T::Int64), T::Int64)),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ival(binary(Op::Mul, int_const(13450, T::Int16), int_const(32767, T::Int16), T::Int16)), -13450);
  EXPECT_EQ(ival(binary(Op::Mod, int_const(-13450, T::Int16), int_const(4495, T::Int16), T::Int16)), 35);
  EXPECT_EQ(ival(binary(Op::FloorDiv, int_const(-7, T::Int32), int_const(2, T::Int32), T::Int32)), -4);
  EXPECT_EQ(ival(binary(Op::TruncDiv, int_const(-7, T::Int32), int_const(2, T::Int32), T::Int32)), -3);
  EXPECT_EQ(ival(binary(Op::Shl, int_const(-3, T::Int64), int_const(63, T::Int64), T::Int64)), min64);
  EXPECT_EQ(ival(binary(Op::Shl, int_const(1, T::Int32), int_const(32, T::Int32), T::Int32)), 0);
  EXPECT_EQ(ival(binary(Op::Shr, int_const(-8, T::Int32), int_const(40, T::Int32), T::Int32)), -1);
  EXPECT_EQ(ival(binary(Op::Add, int_const(200, T::Uint8), int_const(100, T::Uint8), T::Uint8)), 44);
  EXPECT_EQ(ival(binary(Op::Lt, int_const(-1, T::Uint64), int_const(1, T::Uint64), T::Boolean)), 0) << "2^64 - 1 < 1";
  EXPECT_EQ(ival(unary(Op::Neg, int_const(min64, T::Int64), T::Int64)), min64);
  EXPECT_EQ(ival(unary(Op::Neg, int_const(-128, T::Int8), T::Int8)), -128);
  EXPECT_TRUE(binary(Op::FloorDiv, int_const(1, T::Int32), int_const(0, T::Int32), T::Int32)->is<Binary>())
      << "a division by zero has no result: left to the run-time path";
  EXPECT_TRUE(binary(Op::FloorDiv, int_const(std::numeric_limits<int32_t>::min(), T::Int32), int_const(-1, T::Int32), T::Int32)
                  ->is<Binary>());
  EXPECT_EQ(fval(binary(Op::Add, float_const(0.1, T::Float32), float_const(0.2, T::Float32), T::Float32)),
            static_cast<double>(0.1f + 0.2f));
  EXPECT_EQ(fval(binary(Op::Add, float_const(0.1, T::Float64), float_const(0.2, T::Float64), T::Float64)), 0.1 + 0.2);
  EXPECT_EQ(fval(intrinsic(Intrinsic::Ceil, {}, {float_const(3e38, T::Float64)}, T::Float64)), 3e38);
  EXPECT_EQ(fval(intrinsic(Intrinsic::Floor, {}, {float_const(-2.5, T::Float32)}, T::Float32)), -3.0);
  EXPECT_TRUE(binary(Op::Div, float_const(1, T::Float32), float_const(0, T::Float32), T::Float32)->is<Binary>());
  const ExprRef v = var_ref("v", T::Int32);
  EXPECT_EQ(select(bool_const(true), v, int_const(1, T::Int32)), v) << "a constant condition keeps its branch";
  EXPECT_TRUE(binary(Op::Add, v, int_const(1, T::Int32), T::Int32)->is<Binary>());
}

TEST(IrExpr, NodesStaySmall) {
  // One struct per kind in a variant (the largest: Call, IntrinsicCall) instead of every kind's fields:
  // an Expr was 120 bytes and a Stmt 280 before they became variants (libstdc++, x86-64); For's
  // cutlass.range unroll hint (For::unroll_factor) made the largest statement 144 until it and
  // For::step_sign became int16_t and int8_t.
  EXPECT_LE(sizeof(Expr), 72u);
  EXPECT_LE(sizeof(Stmt), 136u);
}

// ------------------------------------------------------------- statements

TEST(IrStmt, ConstructorsFillTheNamedFieldsOfTheirKind) {
  const source::SourceRange loc{1, 10, 20};
  auto s = for_(loc, "k", T::Int64, i64(0), param_ref("n", T::Int64), i64(-2), -1, true);
  EXPECT_EQ(s->kind(), StmtKind::For);
  EXPECT_TRUE(s->is<For>());
  EXPECT_EQ(s->loc.begin, 10u);
  const For& f = s->as<For>();
  EXPECT_EQ(f.var, "k");
  EXPECT_EQ(f.var_type, T::Int64);
  EXPECT_EQ(as_int_const(f.step), -2);
  EXPECT_EQ(f.step_sign, -1);
  EXPECT_TRUE(f.unroll);
  EXPECT_TRUE(f.body.empty());
  EXPECT_EQ(s->get_if<While>(), nullptr);
  EXPECT_THROW(s->as<Store>(), std::bad_variant_access) << "another kind's fields are not there to misuse";

  auto v = vec_copy(loc, "sA", i64(8), "gA", i64(16), 128, true);
  const VecCopy& c = v->as<VecCopy>();
  EXPECT_EQ(c.dst + "<-" + c.src, "sA<-gA");
  EXPECT_EQ(as_int_const(c.dst_offset), 8);
  EXPECT_EQ(as_int_const(c.src_offset), 16);
  EXPECT_EQ(c.vector_bits, 128);
  EXPECT_TRUE(c.to_global);
  EXPECT_EQ(check(loc, bool_const(true), "m")->as<Check>().reported, nullptr) << "the reported value is optional";

  const StmtKind kinds[] = {assign(loc, "x", i32(1))->kind(),   store(loc, "p", i64(0), i32(1))->kind(),
                            if_(loc, bool_const(true))->kind(), while_(loc, bool_const(true))->kind(),
                            break_(loc)->kind(),                continue_(loc)->kind(),
                            return_(loc)->kind(),               sync_threads(loc)->kind(),
                            device_printf(loc, "", {})->kind(), launch(loc, nullptr)->kind(),
                            eval(loc, i32(0))->kind()};
  EXPECT_EQ(std::vector<StmtKind>(std::begin(kinds), std::end(kinds)),
            (std::vector<StmtKind>{StmtKind::Assign, StmtKind::Store, StmtKind::If, StmtKind::While, StmtKind::Break,
                                   StmtKind::Continue, StmtKind::Return, StmtKind::Sync, StmtKind::Printf,
                                   StmtKind::Launch, StmtKind::Eval}));
}

// ------------------------------------------------------------------ visitor

std::vector<std::string> operand_names(const Stmt& s) {
  std::vector<std::string> out;
  for_each_operand(s, [&](const ExprRef& e) { out.push_back(*value_name(*e)); });
  return out;
}

std::vector<std::string> operand_names(const ExprRef& e) {
  std::vector<std::string> out;
  for_each_operand(*e, [&](const ExprRef& o) { out.push_back(*value_name(*o)); });
  return out;
}

TEST(IrVisit, EveryOperandOfEveryExpressionKind) {
  auto v = [](const char* n) { return var_ref(n, T::Int64); };
  using Names = std::vector<std::string>;
  EXPECT_EQ(operand_names(unary(Op::Neg, v("a"), T::Int64)), Names{"a"});
  EXPECT_EQ(operand_names(binary(Op::Sub, v("lhs"), v("rhs"), T::Int64)), (Names{"lhs", "rhs"}));
  EXPECT_EQ(operand_names(select(var_ref("c", T::Boolean), v("t"), v("f"))), (Names{"c", "t", "f"}));
  EXPECT_EQ(operand_names(cast(v("a"), T::Int32)), Names{"a"});
  EXPECT_EQ(operand_names(call("f", {v("x"), v("y")}, T::Int64)), (Names{"x", "y"}));
  EXPECT_EQ(operand_names(load("p", v("off"), T::Float32)), Names{"off"});
  EXPECT_EQ(operand_names(address_of("p", v("off"), T::Float32)), Names{"off"});
  EXPECT_TRUE(operand_names(address_of("tma", nullptr, T::Uint8)).empty()) << "the offset is optional";
  EXPECT_EQ(operand_names(intrinsic(Intrinsic::ReduxSync, {"umax"}, {v("value"), v("mask")}, T::Uint32)),
            (Names{"value", "mask"}));
  for (const ExprRef& leaf :
       {int_const(1, T::Int32), float_const(1, T::Float32), v("x"), param_ref("n", T::Int32),
        builtin_ref("threadIdx.x"), tensor_data(0, T::Float32), tensor_extent(0, 1), tensor_stride(0, 1)})
    EXPECT_TRUE(operand_names(leaf).empty()) << print(leaf);
}

TEST(IrVisit, EveryOperandOfEveryKind) {
  auto v = [](const char* n) { return var_ref(n, T::Int32); };
  using Names = std::vector<std::string>;
  EXPECT_EQ(operand_names(*assign(at, "x", v("value"))), Names{"value"});
  EXPECT_EQ(operand_names(*store(at, "p", v("offset"), v("value"))), (Names{"offset", "value"}));
  EXPECT_EQ(operand_names(*for_(at, "i", T::Int32, v("begin"), v("end"), v("step"), 0)),
            (Names{"begin", "end", "step"}));
  EXPECT_EQ(operand_names(*if_(at, v("a"))), Names{"a"});
  EXPECT_EQ(operand_names(*while_(at, v("a"))), Names{"a"});
  EXPECT_EQ(operand_names(*eval(at, v("a"))), Names{"a"});
  EXPECT_EQ(operand_names(*check(at, v("cond"), "m")), Names{"cond"}) << "the reported value is optional";
  EXPECT_EQ(operand_names(*check(at, v("cond"), "m", v("found"))), (Names{"cond", "found"}));
  EXPECT_EQ(operand_names(*vec_copy(at, "d", v("dst"), "s", v("src"), 64, false)), (Names{"dst", "src"}));
  EXPECT_EQ(operand_names(*device_printf(at, "%d %d", {v("x"), v("y")})), (Names{"x", "y"}));
  for (auto make : {break_, continue_, return_, sync_threads}) EXPECT_TRUE(operand_names(*make(at)).empty());
  EXPECT_TRUE(operand_names(*launch(at, nullptr)).empty());

  auto info = std::make_unique<LaunchInfo>();
  const char* axes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    info->grid[d] = v((std::string("grid_") + axes[d]).c_str());
    info->block[d] = v((std::string("block_") + axes[d]).c_str());
  }
  info->smem = v("smem");
  info->args = {v("arg0"), v("arg1")};
  auto s = launch(at, std::move(info));
  EXPECT_EQ(operand_names(*s),
            (Names{"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "smem", "arg0", "arg1"}));
  LaunchInfo& l = *s->as<Launch>().info;
  for (int d = 0; d < 3; ++d) l.cluster[d] = v((std::string("cluster_") + axes[d]).c_str());
  l.stream = v("stream");
  EXPECT_EQ(operand_names(*s), (Names{"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "smem",
                                      "cluster_x", "cluster_y", "cluster_z", "stream", "arg0", "arg1"}));
}

TEST(IrVisit, WritableOperandsAndBlocks) {
  auto s = if_(at, bool_const(true), block_of(sync_threads(at)), block_of(return_(at)));
  for_each_operand(*s, [](ExprRef& e) { e = bool_const(false); });
  EXPECT_EQ(as_int_const(s->as<If>().cond), 0);
  std::vector<StmtKind> firsts;
  for_each_block(static_cast<const Stmt&>(*s), [&](const Block& b) { firsts.push_back(b.at(0)->kind()); });
  EXPECT_EQ(firsts, (std::vector<StmtKind>{StmtKind::Sync, StmtKind::Return}));
  int loops = 0;
  for_each_block(*for_(at, "i", T::Int32, i32(0), i32(4), i32(1), 1), [&](Block&) { ++loops; });
  for_each_block(*while_(at, bool_const(true)), [&](Block&) { ++loops; });
  EXPECT_EQ(loops, 2);
  int none = 0;
  for_each_block(*assign(at, "x", i32(0)), [&](const Block&) { ++none; });
  EXPECT_EQ(none, 0);
}

TEST(IrVisit, StatementsAndExpressionsInProgramOrder) {
  Program p = valid_program();
  std::vector<StmtKind> kinds;
  for_each_stmt(p.kernels[0].body, [&](const Stmt& s) { kinds.push_back(s.kind()); });
  EXPECT_EQ(kinds, (std::vector<StmtKind>{StmtKind::For, StmtKind::If, StmtKind::Store}));
  std::vector<ExprKind> exprs;
  for_each_expr(store_stmt(p).value, [&](const Expr& e) { exprs.push_back(e.kind()); });
  EXPECT_EQ(exprs, (std::vector<ExprKind>{ExprKind::Binary, ExprKind::Load, ExprKind::Cast, ExprKind::Var,
                                          ExprKind::FloatConst}));
  std::vector<std::string> vars;
  for_each_expr(p.kernels[0].body, [&](const Expr& e, const Stmt& s) {
    if (const std::string* name = value_name(e))
      vars.push_back(*name + "@" + std::to_string(static_cast<int>(s.kind())));
  });
  const std::string f = std::to_string(static_cast<int>(StmtKind::For)),
                    i = std::to_string(static_cast<int>(StmtKind::If)),
                    st = std::to_string(static_cast<int>(StmtKind::Store));
  EXPECT_EQ(vars, (std::vector<std::string>{"n@" + f, "i@" + i, "n@" + i, "i@" + st, "i@" + st}));
}

TEST(IrVisit, NamesAStatementBindsOrAddresses) {
  auto names = [](const Stmt& s) {
    std::vector<std::pair<std::string, NameUse>> out;
    for_each_name(s, [&](const std::string& n, NameUse u) { out.emplace_back(n, u); });
    return out;
  };
  using Uses = std::vector<std::pair<std::string, NameUse>>;
  EXPECT_EQ(names(*copy("sA", 0, "gA", 0, 128)), (Uses{{"sA", NameUse::StoredTo}, {"gA", NameUse::CopiedFrom}}));
  EXPECT_EQ(names(*for_(at, "k", T::Int32, i32(0), i32(4), i32(1), 1)), (Uses{{"k", NameUse::LoopVar}}));
  EXPECT_EQ(names(*assign(at, "x", i32(0))), (Uses{{"x", NameUse::Assigned}}));
  EXPECT_EQ(names(*store(at, "gB", i64(0), i32(0))), (Uses{{"gB", NameUse::StoredTo}}));
  EXPECT_TRUE(names(*device_printf(at, "%d\n", {i32(1)})).empty()) << "a format is text, not a name";
  EXPECT_TRUE(names(*check(at, bool_const(true), "x")).empty()) << "a message is text, not a name";
}

// ------------------------------------------------------------------ mutator

TEST(IrMutate, RebuildsOnlyThePathToAChange) {
  ExprRef i = var_ref("i", T::Int64);
  ExprRef left = binary(Op::Mul, param_ref("n", T::Int64), i64(4), T::Int64);
  ExprRef right = binary(Op::Add, i, i64(1), T::Int64);
  ExprRef root = binary(Op::Sub, left, right, T::Int64);
  auto i_to_zero = [](const ExprRef& e) {
    const auto* v = e->get_if<Var>();
    return v && v->name == "i" ? i64(0) : e;
  };
  ExprRef out = mutate(root, i_to_zero);
  EXPECT_NE(out, root);
  EXPECT_EQ(out->as<Binary>().lhs, left) << "an unchanged operand is shared";
  EXPECT_NE(out->as<Binary>().rhs, right);
  EXPECT_EQ(print(out), "(n * 4) - (0:Int64 + 1:Int64)") << "constants side by side both say their type";
  EXPECT_EQ(print(root), "(n * 4) - (i + 1)") << "the original is untouched";
  EXPECT_EQ(mutate(root, [](const ExprRef& e) { return e; }), root) << "no change, no copy";
}

TEST(IrMutate, SeesRewrittenOperandsAndDoesNotRevisitReplacements) {
  // Every load becomes a call on its (rewritten) offset, as the CPU target's checked accesses do.
  ExprRef e = load("a", cast(load("idx", i64(3), T::Int32), T::Int64), T::Float32);
  int calls = 0;
  ExprRef out = mutate(e, [&](const ExprRef& x) -> ExprRef {
    ++calls;
    const auto* l = x->get_if<Load>();
    if (!l) return x;
    return call("AT", {var_ref(l->ptr, x->type), l->offset}, x->type);
  });
  EXPECT_EQ(print(out), "AT(a, Int64(AT(idx, 3:Int64):Int32)):Float32") << "a call's operands imply no type";
  EXPECT_EQ(calls, 4) << "3:Int64, the inner load, the cast, the outer load";
}

TEST(IrMutate, BlockOperandsNestedIncluded) {
  Program p = valid_program();
  mutate(p.kernels[0].body, [](const ExprRef& e) { return e->is<Param>() ? i32(64) : e; });
  EXPECT_EQ(print(p.kernels[0].body),
            "for i: Int32 in range(0, 64, 1):\n  if i < 64:\n    gB[Int64(i)] = gA[Int64(i)] * 2.0\n");
}

// ------------------------------------------------------------------ printer

TEST(IrPrint, SmallProgram) {
  Program p = valid_program();
  EXPECT_EQ(
      print(p),
      "# scale.tpy for sm_90a, kernels in namespace tileslc_kernels::scale\n"
      "\n"
      "kernel scale(gA: const Float32*, gB: Float32*, n: Int32):\n"
      "  # scale(gA: Float32[N], gB: Float32[N], n: Int32, block=(256, 1, 1))\n"
      "  threads 256\n"
      "  local i: Int32\n"
      "  array frag: Float32[4]  # acc\n"
      "  body:\n"
      "    for i: Int32 in range(0, n, 1):\n"
      "      if i < n:\n"
      "        gB[Int64(i)] = gA[Int64(i)] * 2.0\n"
      "\n"
      "host run(mA: Tensor[Float32, (N,)], mB: Tensor[Float32, (N,)] align 16):\n"
      "  symbol N = mA.shape[0] as N_1\n"
      "  body:\n"
      "    check tmod(N_1, 4) == 0 else \"run: N must be a multiple of 4\" found N_1\n"
      "    launch scale(mA.data, mB.data, Int32(mA.shape[0])) grid=(N_1 // 256, 1, 1) block=(256, 1, 1) smem=0\n");
}

TEST(IrPrint, ExpressionForms) {
  ExprRef x = var_ref("x", T::Float64), b = var_ref("b", T::Boolean);
  EXPECT_EQ(print(select(b, x, float_const(0.5, T::Float64))), "b ? x : 0.5");
  EXPECT_EQ(print(float_const(0.5, T::Float64)), "0.5:Float64") << "alone, a constant says its type";
  EXPECT_EQ(print(unary(Op::Neg, unary(Op::Neg, x, T::Float64), T::Float64)), "-(-x)");
  EXPECT_EQ(print(unary(Op::LogicalNot, binary(Op::LogicalAnd, b, bool_const(true), T::Boolean), T::Boolean)),
            "!(b && true)");
  EXPECT_EQ(print(intrinsic(Intrinsic::Exp, {}, {cast(x, T::Float32)}, T::Float32)), "Exp(Float32(x)):Float32");
  EXPECT_EQ(print(intrinsic(Intrinsic::CpAsyncWaitGroup, {2}, {}, T::Int32)), "CpAsyncWaitGroup<n=2>():Int32");
  EXPECT_EQ(
      print(intrinsic(Intrinsic::ReduxSync, {"umax"}, {var_ref("v", T::Uint32), int_const(-1, T::Uint32)}, T::Uint32)),
      "ReduxSync<kind=umax>(v, -1:Uint32):Uint32");
  EXPECT_EQ(print(address_of("tma_a", nullptr, T::Float16)), "&tma_a") << "no offset: the whole parameter";
  EXPECT_EQ(print(load("p", nullptr, T::Float32)), "p[<null>]");
  EXPECT_EQ(print(load("p", i64(3), T::Float32)), "p[3]") << "offsets are Int64";
  EXPECT_EQ(print(load("p", i32(3), T::Float32)), "p[3:Int32]");
  EXPECT_EQ(print(builtin_ref("threadIdx.x")), "threadIdx.x");
  EXPECT_EQ(print(builtin_ref("blockIdx.x", T::Int64)), "blockIdx.x:Int64");
  EXPECT_EQ(print(binary(Op::TruncDiv, var_ref("i", T::Int32), i32(8), T::Int32)), "tdiv(i, 8)");
  EXPECT_EQ(print(tensor_stride(1, 0)), "tensor1.stride[0]") << "without a host function, tensors print by index";
  EXPECT_EQ(print(float_const(std::numeric_limits<double>::infinity(), T::Float32)), "inf");
}

TEST(IrPrint, EveryStatementKindThroughItsConstructor) {
  Block b;
  b.push_back(assign(at, "x", binary(Op::Add, var_ref("x", T::Int32), i32(1), T::Int32)));
  b.push_back(store(at, "gB", i64(3), float_const(0.5, T::Float32)));
  b.push_back(if_(at, var_ref("c", T::Boolean), block_of(sync_threads(at)), block_of(return_(at))));
  b.push_back(if_(at, var_ref("c", T::Boolean)));
  b.push_back(while_(at, bool_const(true), block_of(continue_(at))));
  b.push_back(for_(at, "k", T::Int64, i64(8), i64(0), param_ref("s", T::Int64), 0, true, block_of(break_(at))));
  b.push_back(for_(at, "j", T::Int32, i32(0), i32(16), i32(4), 1));
  b.push_back(copy("gC", 4, "sC", 0, 64));
  b.push_back(vec_copy(at, "gC", i64(4), "sC", i64(0), 128, true));
  b.push_back(device_printf(at, "x=%d \"q\"\n", {i32(3)}));
  b.push_back(eval(at, intrinsic(Intrinsic::FenceProxyAsync, {}, {}, T::Int32)));
  b.push_back(check(at, var_ref("ok", T::Boolean), "n must be even"));
  b.push_back(check(at, var_ref("ok", T::Boolean), "n must be even", param_ref("n", T::Int64)));
  auto info = std::make_unique<LaunchInfo>();
  info->kernel = 2;
  for (int d = 0; d < 3; ++d) info->grid[d] = info->block[d] = info->cluster[d] = i64(d + 1);
  info->smem = i64(1024);
  info->stream = param_ref("stream", T::Int64);
  info->args = {param_ref("n", T::Int32)};
  b.push_back(launch(at, std::move(info)));
  b.push_back(launch(at, nullptr));
  EXPECT_EQ(print(b, nullptr, nullptr, 1),
            "  x = x + 1\n"
            "  gB[3] = 0.5\n"
            "  if c:\n"
            "    sync_threads\n"
            "  else:\n"
            "    return\n"
            "  if c:\n"
            "    pass\n"
            "  while true:\n"
            "    continue\n"
            "  for k: Int64 in range(8, 0, s) unroll step_sign=0:\n"
            "    break\n"
            "  for j: Int32 in range(0, 16, 4):\n"
            "    pass\n"
            "  copy.64 gC[4] = sC[0]\n"
            "  copy.128.global gC[4] = sC[0]\n"
            "  printf(\"x=%d \\\"q\\\"\\n\", 3)\n"
            "  eval FenceProxyAsync():Int32\n"
            "  check ok else \"n must be even\"\n"
            "  check ok else \"n must be even\" found n\n"
            "  launch kernel2(n) grid=(1, 2, 3) block=(1, 2, 3) smem=1024 cluster=(1, 2, 3) stream=stream\n"
            "  launch <null>\n");
}

// ---------------------------------------------------------------- intrinsics

TEST(IrIntrinsics, EveryRowParsesAndSpells) {
  for (size_t i = 0; i < static_cast<size_t>(Intrinsic::Count_); ++i) {
    const auto id = static_cast<Intrinsic>(i);
    const IntrinsicInfo& row = intrinsic_info(id);  // throws on a malformed row
    EXPECT_EQ(row.id, id) << row.name;
    std::vector<std::string> first;
    for (const auto& imm : row.immediates) first.push_back(imm.domain.at(0));
    const std::string name = intrinsic_spelling(id, first);
    EXPECT_EQ(name.find_first_of("{}"), std::string::npos) << row.name << ": " << name;
  }
  EXPECT_EQ(intrinsic_spelling(Intrinsic::WgmmaF8RS, {"256", "e4m3", "e5m2"}), "wgmma_m64n256k32_f32_e4m3_e5m2_rs");
  EXPECT_EQ(intrinsic_spelling(Intrinsic::Ldsm, {"4"}), "ldsm_x4");
  const IntrinsicInfo& ldsm = intrinsic_info(Intrinsic::Ldsm);
  ASSERT_EQ(ldsm.operands.size(), 2u);
  EXPECT_EQ(ldsm.operands[1].repeat, 0) << "regs[x]: one per matrix";
  EXPECT_TRUE(intrinsic_info(Intrinsic::ShflSync).operands.back().optional);
  EXPECT_EQ(immediate_index(Intrinsic::SetmaxnregDec, 0, "40"), std::optional<size_t>(2));
  EXPECT_EQ(immediate_index(Intrinsic::SetmaxnregDec, 0, "41"), std::nullopt);
  EXPECT_THROW(intrinsic(Intrinsic::CpAsyncWaitGroup, {8}, {}, T::Int32), std::logic_error) << "0 to 7 pending groups";
  EXPECT_THROW(intrinsic(Intrinsic::CpAsync, {}, {}, T::Int32), std::logic_error) << "a missing immediate";
  EXPECT_TRUE(is_hardware_index(*intrinsic(Intrinsic::LaneIdx, {}, {}, T::Int32)));
  EXPECT_FALSE(is_hardware_index(*intrinsic(Intrinsic::BlockIdxInCluster, {}, {}, T::Int32)));
}

// ----------------------------------------------------------------- verifier

TEST(IrVerify, ValidProgramHasNoProblems) { EXPECT_EQ(problems(valid_program()), std::vector<std::string>{}); }

TEST(IrVerify, OperandTypes) {
  Program p = valid_program();
  store_stmt(p).value = binary(Op::Mul, load("gA", i64(0), T::Float32), float_const(2, T::Float64), T::Float32);
  EXPECT_TRUE(flags(p, "Binary Mul: operand 1 is Float64, the node Float32"));
  p = valid_program();
  loop_guard(p).cond = binary(Op::Lt, var_ref("i", T::Int32), param_ref("n", T::Int32), T::Int32);
  EXPECT_TRUE(flags(p, "Binary Lt: gives Int32, expected Boolean"));
  EXPECT_TRUE(flags(p, "If: the condition is Int32, expected Boolean"));
  p = valid_program();
  loop_guard(p).cond = binary(Op::LogicalAnd, var_ref("i", T::Int32), bool_const(true), T::Boolean);
  EXPECT_TRUE(flags(p, "Binary LogicalAnd: on Int32 and Boolean giving Boolean, expected Boolean"));
  p = valid_program();
  loop_guard(p).cond = unary(Op::LogicalNot, var_ref("i", T::Int32), T::Boolean);
  EXPECT_TRUE(flags(p, "Unary LogicalNot: on Int32"));
  p = valid_program();
  store_stmt(p).value = select(var_ref("i", T::Int32), float_const(1, T::Float32), float_const(2, T::Float32));
  EXPECT_TRUE(flags(p, "Select: the condition is Int32, expected Boolean"));
  p = valid_program();
  store_stmt(p).value = load("gA", float_const(1, T::Float32), T::Float32);
  EXPECT_TRUE(flags(p, "Load: the offset is Float32, expected an integer"));
  p = valid_program();
  store_stmt(p).value = load("gA", i64(1), T::Float16);
  EXPECT_TRUE(flags(p, "Load: 'gA' holds Float32, the node is Float16"));
  EXPECT_TRUE(flags(p, "Store: the stored value is Float16, expected Float32"));
  p = valid_program();
  store_stmt(p).offset = float_const(0, T::Float32);
  EXPECT_TRUE(flags(p, "Store: the offset is Float32, expected an integer"));
  p = valid_program();
  store_stmt(p).value = binary(Op::Add, float_const(1, T::Float16), float_const(1, T::Float16), T::Float16);
  EXPECT_TRUE(flags(p, "Binary Add: computes in Float16"));
}

TEST(IrVerify, MalformedNodes) {
  Program p = valid_program();
  auto bad = std::make_shared<Expr>(*cast(var_ref("i", T::Int32), T::Int64));
  bad->as<Cast>().value = nullptr;
  store_stmt(p).offset = bad;
  EXPECT_TRUE(flags(p, "Cast: has a null operand"));
  p = valid_program();
  auto odd = std::make_shared<Expr>(*binary(Op::Add, cast(var_ref("i", T::Int32), T::Int64), i64(2), T::Int64));
  odd->as<Binary>().op = Op::Neg;
  store_stmt(p).offset = odd;
  EXPECT_TRUE(flags(p, "Binary Neg: is not a binary operator"));
  p = valid_program();
  store_stmt(p).offset = binary(Op::Add, i64(1), nullptr, T::Int64);
  EXPECT_TRUE(flags(p, "has a null operand"));
  p = valid_program();
  store_stmt(p).offset = int_const(1, T::Float32);
  EXPECT_TRUE(flags(p, "IntConst: has type Float32"));
}

TEST(IrVerify, NamesAreDeclaredAndAssignedBeforeUse) {
  Program p = valid_program();
  store_stmt(p).offset = var_ref("j", T::Int64);
  EXPECT_TRUE(flags(p, "Var: 'j' is not a declared local"));
  p = valid_program();
  p.kernels[0].locals.push_back({"t", T::Int64});
  p.kernels[0].body.insert(p.kernels[0].body.begin(),
                           assign(at, "t", binary(Op::Add, var_ref("t", T::Int64), i64(1), T::Int64)));
  EXPECT_TRUE(flags(p, "Var: 't' is read before anything assigns it"));
  p = valid_program();
  store_stmt(p).ptr = "gX";
  EXPECT_TRUE(flags(p, "Store writes 'gX', which is not a declared pointer, array or shared-memory buffer"));
  p = valid_program();
  store_stmt(p).ptr = "gA";
  EXPECT_TRUE(flags(p, "Store writes through 'gA', which is declared const"));
  p = valid_program();
  loop_guard(p).cond = binary(Op::Lt, var_ref("i", T::Int32), param_ref("m", T::Int32), T::Boolean);
  EXPECT_TRUE(flags(p, "Param: 'm' is not a parameter of the function"));
  p = valid_program();
  p.kernels[0].locals.push_back({"n", T::Int32});
  EXPECT_TRUE(flags(p, "kernel scale: 'n' is declared twice"));
  p = valid_program();
  store_stmt(p).offset = tensor_extent(0, 0);
  EXPECT_TRUE(flags(p, "TensorExtent: in a kernel"));
  p = valid_program();
  launch_info(p).args[2] = cast(tensor_extent(0, 1), T::Int32);
  EXPECT_TRUE(flags(p, "TensorExtent: 'mA' has no mode 1"));
}

TEST(IrVerify, Loops) {
  Program p = valid_program();
  kernel_loop(p).step = nullptr;
  EXPECT_TRUE(flags(p, "For has no step"));
  p = valid_program();
  kernel_loop(p).step_sign = -1;
  EXPECT_TRUE(flags(p, "For: the step is 1 but step_sign is -1"));
  p = valid_program();
  kernel_loop(p).begin = i64(0);
  EXPECT_TRUE(flags(p, "For: the begin is Int64, the loop variable Int32"));
  p = valid_program();
  p.kernels[0].body.push_back(break_(at));
  EXPECT_TRUE(flags(p, "Break outside a loop"));
  kernel_loop(p).body.push_back(continue_(at));
  auto ps = problems(p);
  EXPECT_EQ(ps.size(), 1u) << "a Continue inside the loop is fine";
}

TEST(IrVerify, LaunchesAndChecks) {
  Program p = valid_program();
  launch_info(p).kernel = 1;
  EXPECT_TRUE(flags(p, "Launch names kernel 1 of 1"));
  p = valid_program();
  launch_info(p).args.pop_back();
  EXPECT_TRUE(flags(p, "Launch of scale passes 2 arguments for 3 parameters"));
  p = valid_program();
  launch_info(p).args[2] = tensor_extent(0, 0);
  EXPECT_TRUE(flags(p, "Launch of scale: argument 2 (n) is Int64, the parameter Int32"));
  p = valid_program();
  launch_info(p).block[1] = nullptr;
  EXPECT_TRUE(flags(p, "Launch of scale has no block dim 1"));
  p = valid_program();
  launch_info(p).cluster[0] = i64(2);
  EXPECT_TRUE(flags(p, "Launch of scale gives 1 of 3 cluster dims"));
  EXPECT_TRUE(flags(p, "Launch of scale: cluster dim 0 is 2, the kernel's 0"));
  p = valid_program();
  host_check(p).message.clear();
  EXPECT_TRUE(flags(p, "Check has an empty message"));
  p = valid_program();
  p.kernels[0].body.push_back(std::move(p.host_functions[0].body[0]));
  p.host_functions[0].body.erase(p.host_functions[0].body.begin());
  EXPECT_TRUE(flags(p, "kernel scale: Check in a kernel"));
}

TEST(IrVerify, IntrinsicsAgainstTheirRow) {
  auto eval = [](Program& p, ExprRef e) {
    p.kernels[0].body.push_back(ir::eval(at, std::move(e)));
  };
  auto addr = [](const char* ptr) { return address_of(ptr, i64(0), T::Float32); };
  Program p = valid_program();
  eval(p, intrinsic(Intrinsic::Ldsm, {2}, {addr("frag"), addr("frag"), addr("frag")}, T::Int32));
  eval(p,
       intrinsic(Intrinsic::ShflSync, {}, {int_const(-1, T::Uint32), float_const(1, T::Float32), i32(0)}, T::Float32));
  EXPECT_EQ(problems(p), std::vector<std::string>{}) << "x2: a row and two registers; a shuffle without width";
  p = valid_program();
  eval(p, intrinsic(Intrinsic::Ldsm, {4}, {addr("frag"), addr("frag")}, T::Int32));
  EXPECT_TRUE(flags(p, "Intrinsic: Ldsm has 2 operands, expected 5"));
  p = valid_program();
  eval(p, intrinsic(Intrinsic::MbarrierWait, {}, {i64(0), i64(1)}, T::Int32));
  EXPECT_TRUE(flags(p, "Intrinsic: MbarrierWait's bar is not an address"));
  EXPECT_TRUE(flags(p, "Intrinsic: MbarrierWait's parity is Int64, expected Int32"));
  p = valid_program();
  eval(p, intrinsic(Intrinsic::Atomic, {"add"}, {addr("gB"), i32(1)}, T::Float32));
  EXPECT_TRUE(flags(p, "Intrinsic: Atomic's val is Int32, the node Float32"));
  p = valid_program();
  eval(p, intrinsic(Intrinsic::ElectOne, {}, {}, T::Int32));
  EXPECT_TRUE(flags(p, "Intrinsic: ElectOne gives Boolean, the node is Int32"));
  p = valid_program();
  auto bad = std::make_shared<Expr>(*intrinsic(Intrinsic::CpAsyncWaitGroup, {1}, {}, T::Int32));
  bad->as<IntrinsicCall>().imms = {"9"};
  eval(p, bad);
  EXPECT_TRUE(flags(p, "Intrinsic: CpAsyncWaitGroup: n '9' is not in the row's domain"));
  p = valid_program();
  eval(p, intrinsic(Intrinsic::DeviceMultiprocessorCount, {}, {}, T::Int64));
  EXPECT_TRUE(flags(p, "kernel scale: Intrinsic: DeviceMultiprocessorCount (a host query) in a kernel"));
  p = valid_program();
  launch_info(p).args[0] = intrinsic(Intrinsic::MaxActiveClusters, {}, {i64(2)}, T::Int64);
  EXPECT_FALSE(flags(p, "a host query")) << "host queries belong in host functions";
}

TEST(IrVerify, StatementShape) {
  Program p = valid_program();
  p.kernels[0].body.push_back(eval(at, nullptr));
  EXPECT_TRUE(flags(p, "Eval has no expression"));
  p = valid_program();
  p.kernels[0].body.push_back(copy("frag", 0, "gA", 0, 96));
  EXPECT_TRUE(flags(p, "VecCopy moves 96 bits, expected a power of two from 8 to 128"));
  p = valid_program();
  p.kernels[0].body.push_back(copy("frag", 0, "gA", 0, 64));
  EXPECT_EQ(problems(p), std::vector<std::string>{}) << "a register array filled from a const pointer";
  p.kernels[0].body.push_back(copy("gA", 0, "frag", 0, 64));
  EXPECT_TRUE(flags(p, "VecCopy writes through 'gA', which is declared const"));
  p = valid_program();
  p.host_functions[0].body.push_back(sync_threads(at));
  EXPECT_TRUE(flags(p, "host run: Sync in a host function"));
  p = valid_program();
  p.kernels.push_back(std::move(valid_program().kernels[0]));
  EXPECT_TRUE(flags(p, "two kernels are named 'scale'"));
}

}  // namespace
}  // namespace tileslc::ir
