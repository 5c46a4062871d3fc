// Unit tests for the IR tooling (compiler/ir/visit.h, print.h, verify.h) on
// programs built by hand: the child iterators reach every operand and block of
// each statement kind, the mutator rebuilds only what changed, the printer's
// text for a small program, the intrinsic table (every row parses and
// spells), and the verifier finding each class of problem (and nothing in a
// valid program).
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

StmtPtr stmt(StmtKind k) { return make_stmt(k, {}); }
ExprRef i32(int64_t v) { return int_const(v, T::Int32); }
ExprRef i64(int64_t v) { return int_const(v, T::Int64); }
StmtPtr vec_copy(const char* dst, int64_t dst_offset, const char* src, int64_t src_offset, int bits) {
  auto v = stmt(StmtKind::VecCopy);
  v->name = dst;
  v->src = src;
  v->a = int_const(dst_offset, T::Int64);
  v->b = int_const(src_offset, T::Int64);
  v->vector_bits = bits;
  return v;
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
  auto loop = stmt(StmtKind::For);
  loop->name = "i";
  loop->a = i32(0);
  loop->b = param_ref("n", T::Int32);
  loop->c = i32(1);
  auto guard = stmt(StmtKind::If);
  guard->a = binary(Op::Lt, var_ref("i", T::Int32), param_ref("n", T::Int32), T::Boolean);
  auto store = stmt(StmtKind::Store);
  store->name = "gB";
  store->a = cast(var_ref("i", T::Int32), T::Int64);
  store->b = binary(Op::Mul, load("gA", cast(var_ref("i", T::Int32), T::Int64), T::Float32),
                    float_const(2.0, T::Float32), T::Float32);
  guard->body.push_back(std::move(store));
  loop->body.push_back(std::move(guard));
  k.body.push_back(std::move(loop));
  p.kernels.push_back(std::move(k));

  HostFunction h;
  h.name = "run";
  HostParam ta{HostParam::Tensor, "mA", {}, T::Float32, {{false, 0, "N"}}, 0};
  HostParam tb{HostParam::Tensor, "mB", {}, T::Float32, {{false, 0, "N"}}, 16};
  h.params = {ta, tb};
  h.symbols = {{"N", 0, 0, "N_1"}};
  auto check = stmt(StmtKind::Check);
  check->a = binary(Op::Eq, binary(Op::TruncMod, param_ref("N_1", T::Int64), i64(4), T::Int64), i64(0), T::Boolean);
  check->b = param_ref("N_1", T::Int64);
  check->message = "run: N must be a multiple of 4";
  h.body.push_back(std::move(check));
  auto l = std::make_unique<LaunchInfo>();
  l->kernel = 0;
  l->grid[0] = binary(Op::FloorDiv, param_ref("N_1", T::Int64), i64(256), T::Int64);
  l->grid[1] = l->grid[2] = l->block[1] = l->block[2] = i64(1);
  l->block[0] = i64(256);
  l->smem = i64(0);
  l->args = {tensor_data(0, T::Float32), tensor_data(1, T::Float32), cast(tensor_extent(0, 0), T::Int32)};
  auto launch = stmt(StmtKind::Launch);
  launch->launch = std::move(l);
  h.body.push_back(std::move(launch));
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

Stmt& kernel_stmt(Program& p, size_t i) { return *p.kernels[0].body.at(i); }
Stmt& store_stmt(Program& p) { return *kernel_stmt(p, 0).body[0]->body[0]; }
LaunchInfo& launch_info(Program& p) { return *p.host_functions[0].body.at(1)->launch; }

// ------------------------------------------------------------------ visitor

std::vector<std::string> operand_names(const Stmt& s) {
  std::vector<std::string> out;
  for_each_operand(s, [&](const ExprRef& e) { out.push_back(e->name); });
  return out;
}

TEST(IrVisit, EveryOperandOfEveryKind) {
  auto v = [](const char* n) { return var_ref(n, T::Int32); };
  auto s = stmt(StmtKind::Assign);
  s->a = v("value");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"value"}));
  s = stmt(StmtKind::Store);
  s->a = v("offset");
  s->b = v("value");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"offset", "value"}));
  s = stmt(StmtKind::For);
  s->a = v("begin");
  s->b = v("end");
  s->c = v("step");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"begin", "end", "step"}));
  for (StmtKind k : {StmtKind::If, StmtKind::While, StmtKind::Eval}) {
    s = stmt(k);
    s->a = v("a");
    EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"a"}));
  }
  s = stmt(StmtKind::Check);
  s->a = v("cond");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"cond"})) << "the reported value is optional";
  s->b = v("found");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"cond", "found"}));
  s = stmt(StmtKind::VecCopy);
  s->a = v("dst");
  s->b = v("src");
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"dst", "src"}));
  s = stmt(StmtKind::Printf);
  s->args = {v("x"), v("y")};
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"x", "y"}));
  for (StmtKind k : {StmtKind::Break, StmtKind::Continue, StmtKind::Return, StmtKind::Sync})
    EXPECT_TRUE(operand_names(*stmt(k)).empty());

  s = stmt(StmtKind::Launch);
  s->launch = std::make_unique<LaunchInfo>();
  const char* axes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    s->launch->grid[d] = v((std::string("grid_") + axes[d]).c_str());
    s->launch->block[d] = v((std::string("block_") + axes[d]).c_str());
  }
  s->launch->smem = v("smem");
  s->launch->args = {v("arg0"), v("arg1")};
  EXPECT_EQ(operand_names(*s), (std::vector<std::string>{"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
                                                         "smem", "arg0", "arg1"}));
  for (int d = 0; d < 3; ++d) s->launch->cluster[d] = v((std::string("cluster_") + axes[d]).c_str());
  s->launch->stream = v("stream");
  EXPECT_EQ(operand_names(*s),
            (std::vector<std::string>{"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "smem",
                                      "cluster_x", "cluster_y", "cluster_z", "stream", "arg0", "arg1"}));
}

TEST(IrVisit, WritableOperandsAndBlocks) {
  auto s = stmt(StmtKind::If);
  s->a = bool_const(true);
  s->body.push_back(stmt(StmtKind::Sync));
  s->orelse.push_back(stmt(StmtKind::Return));
  for_each_operand(*s, [](ExprRef& e) { e = bool_const(false); });
  EXPECT_EQ(as_int_const(s->a), 0);
  std::vector<StmtKind> firsts;
  for_each_block(static_cast<const Stmt&>(*s), [&](const Block& b) { firsts.push_back(b.at(0)->kind); });
  EXPECT_EQ(firsts, (std::vector<StmtKind>{StmtKind::Sync, StmtKind::Return}));
  int loops = 0;
  for (StmtKind k : {StmtKind::For, StmtKind::While}) for_each_block(*stmt(k), [&](Block&) { ++loops; });
  EXPECT_EQ(loops, 2);
  int none = 0;
  for_each_block(*stmt(StmtKind::Assign), [&](const Block&) { ++none; });
  EXPECT_EQ(none, 0);
}

TEST(IrVisit, StatementsAndExpressionsInProgramOrder) {
  Program p = valid_program();
  std::vector<StmtKind> kinds;
  for_each_stmt(p.kernels[0].body, [&](const Stmt& s) { kinds.push_back(s.kind); });
  EXPECT_EQ(kinds, (std::vector<StmtKind>{StmtKind::For, StmtKind::If, StmtKind::Store}));
  std::vector<ExprKind> exprs;
  for_each_expr(store_stmt(p).b, [&](const Expr& e) { exprs.push_back(e.kind); });
  EXPECT_EQ(exprs, (std::vector<ExprKind>{ExprKind::Binary, ExprKind::Load, ExprKind::Cast, ExprKind::Var,
                                          ExprKind::FloatConst}));
  std::vector<std::string> vars;
  for_each_expr(p.kernels[0].body, [&](const Expr& e, const Stmt& s) {
    if (e.kind == ExprKind::Var || e.kind == ExprKind::Param)
      vars.push_back(e.name + "@" + std::to_string(static_cast<int>(s.kind)));
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
  auto s = stmt(StmtKind::VecCopy);
  s->name = "sA";
  s->src = "gA";
  EXPECT_EQ(names(*s),
            (std::vector<std::pair<std::string, NameUse>>{{"sA", NameUse::StoredTo}, {"gA", NameUse::CopiedFrom}}));
  s = stmt(StmtKind::For);
  s->name = "k";
  EXPECT_EQ(names(*s), (std::vector<std::pair<std::string, NameUse>>{{"k", NameUse::LoopVar}}));
  s = stmt(StmtKind::Printf);
  s->name = "%d\n";
  EXPECT_TRUE(names(*s).empty()) << "a format is text, not a name";
}

TEST(IrVisit, UnusedFieldsAreReported) {
  auto s = stmt(StmtKind::Eval);
  s->a = i32(1);
  EXPECT_TRUE(unused_fields(*s).empty());
  s->b = i32(2);
  s->body.push_back(stmt(StmtKind::Sync));
  EXPECT_EQ(unused_fields(*s), (std::vector<std::string>{"b", "body"}));
}

// ------------------------------------------------------------------ mutator

TEST(IrMutate, RebuildsOnlyThePathToAChange) {
  ExprRef i = var_ref("i", T::Int64);
  ExprRef left = binary(Op::Mul, param_ref("n", T::Int64), i64(4), T::Int64);
  ExprRef right = binary(Op::Add, i, i64(1), T::Int64);
  ExprRef root = binary(Op::Sub, left, right, T::Int64);
  auto i_to_zero = [](const ExprRef& e) { return e->kind == ExprKind::Var && e->name == "i" ? i64(0) : e; };
  ExprRef out = mutate(root, i_to_zero);
  EXPECT_NE(out, root);
  EXPECT_EQ(out->operands[0], left) << "an unchanged operand is shared";
  EXPECT_NE(out->operands[1], right);
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
    if (x->kind != ExprKind::Load) return x;
    return call("AT", {var_ref(x->name, x->type), x->operands[0]}, x->type);
  });
  EXPECT_EQ(print(out), "AT(a, Int64(AT(idx, 3:Int64):Int32)):Float32") << "a call's operands imply no type";
  EXPECT_EQ(calls, 4) << "3:Int64, the inner load, the cast, the outer load";
}

TEST(IrMutate, BlockOperandsNestedIncluded) {
  Program p = valid_program();
  mutate(p.kernels[0].body, [](const ExprRef& e) { return e->kind == ExprKind::Param ? i32(64) : e; });
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
  EXPECT_EQ(print(address_of("tma_a", nullptr, T::Float16)), "&tma_a[<null>]");
  auto whole = std::make_shared<Expr>(*address_of("tma_a", i32(0), T::Float16));
  whole->operands.clear();
  EXPECT_EQ(print(ExprRef(whole)), "&tma_a");
  EXPECT_EQ(print(load("p", i64(3), T::Float32)), "p[3]") << "offsets are Int64";
  EXPECT_EQ(print(load("p", i32(3), T::Float32)), "p[3:Int32]");
  EXPECT_EQ(print(builtin_ref("threadIdx.x")), "threadIdx.x");
  EXPECT_EQ(print(builtin_ref("blockIdx.x", T::Int64)), "blockIdx.x:Int64");
  EXPECT_EQ(print(binary(Op::TruncDiv, var_ref("i", T::Int32), i32(8), T::Int32)), "tdiv(i, 8)");
  EXPECT_EQ(print(tensor_stride(1, 0)), "tensor1.stride[0]") << "without a host function, tensors print by index";
  EXPECT_EQ(print(float_const(std::numeric_limits<double>::infinity(), T::Float32)), "inf");
}

TEST(IrPrint, StatementForms) {
  Block b;
  auto w = stmt(StmtKind::While);
  w->a = bool_const(true);
  b.push_back(std::move(w));
  auto f = stmt(StmtKind::For);
  f->name = "k";
  f->var_type = T::Int64;
  f->a = i64(8);
  f->b = i64(0);
  f->c = param_ref("s", T::Int64);
  f->step_sign = 0;
  f->unroll = true;
  f->body.push_back(stmt(StmtKind::Break));
  b.push_back(std::move(f));
  auto v = vec_copy("gC", 4, "sC", 0, 128);
  v->to_global = true;
  b.push_back(std::move(v));
  auto pf = stmt(StmtKind::Printf);
  pf->name = "x=%d \"q\"\n";
  pf->args = {i32(3)};
  b.push_back(std::move(pf));
  auto e = stmt(StmtKind::Eval);
  e->a = intrinsic(Intrinsic::FenceProxyAsync, {}, {}, T::Int32);
  b.push_back(std::move(e));
  b.push_back(stmt(StmtKind::Sync));
  EXPECT_EQ(print(b, nullptr, nullptr, 1),
            "  while true:\n"
            "    pass\n"
            "  for k: Int64 in range(8, 0, s) unroll step_sign=0:\n"
            "    break\n"
            "  copy.128.global gC[4] = sC[0]\n"
            "  printf(\"x=%d \\\"q\\\"\\n\", 3)\n"
            "  eval FenceProxyAsync():Int32\n"
            "  sync_threads\n");
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
  store_stmt(p).b = binary(Op::Mul, load("gA", i64(0), T::Float32), float_const(2, T::Float64), T::Float32);
  EXPECT_TRUE(flags(p, "Binary Mul: operand 1 is Float64, the node Float32"));
  p = valid_program();
  kernel_stmt(p, 0).body[0]->a = binary(Op::Lt, var_ref("i", T::Int32), param_ref("n", T::Int32), T::Int32);
  EXPECT_TRUE(flags(p, "Binary Lt: gives Int32, expected Boolean"));
  EXPECT_TRUE(flags(p, "If: the condition is Int32, expected Boolean"));
  p = valid_program();
  kernel_stmt(p, 0).body[0]->a = binary(Op::LogicalAnd, var_ref("i", T::Int32), bool_const(true), T::Boolean);
  EXPECT_TRUE(flags(p, "Binary LogicalAnd: on Int32 and Boolean giving Boolean, expected Boolean"));
  p = valid_program();
  kernel_stmt(p, 0).body[0]->a = unary(Op::LogicalNot, var_ref("i", T::Int32), T::Boolean);
  EXPECT_TRUE(flags(p, "Unary LogicalNot: on Int32"));
  p = valid_program();
  store_stmt(p).b = select(var_ref("i", T::Int32), float_const(1, T::Float32), float_const(2, T::Float32));
  EXPECT_TRUE(flags(p, "Select: the condition is Int32, expected Boolean"));
  p = valid_program();
  store_stmt(p).b = load("gA", float_const(1, T::Float32), T::Float32);
  EXPECT_TRUE(flags(p, "Load: the offset is Float32, expected an integer"));
  p = valid_program();
  store_stmt(p).b = load("gA", i64(1), T::Float16);
  EXPECT_TRUE(flags(p, "Load: 'gA' holds Float32, the node is Float16"));
  EXPECT_TRUE(flags(p, "Store: the stored value is Float16, expected Float32"));
  p = valid_program();
  store_stmt(p).a = float_const(0, T::Float32);
  EXPECT_TRUE(flags(p, "Store: the offset is Float32, expected an integer"));
  p = valid_program();
  store_stmt(p).b = binary(Op::Add, float_const(1, T::Float16), float_const(1, T::Float16), T::Float16);
  EXPECT_TRUE(flags(p, "Binary Add: computes in Float16"));
}

TEST(IrVerify, MalformedNodes) {
  Program p = valid_program();
  auto bad = std::make_shared<Expr>(*cast(var_ref("i", T::Int32), T::Int64));
  bad->operands.push_back(i32(1));
  store_stmt(p).a = bad;
  EXPECT_TRUE(flags(p, "Cast: has 2 operands, expected 1"));
  p = valid_program();
  auto odd = std::make_shared<Expr>(*binary(Op::Add, i64(1), i64(2), T::Int64));
  odd->op = Op::Neg;
  store_stmt(p).a = odd;
  EXPECT_TRUE(flags(p, "Binary Neg: is not a binary operator"));
  p = valid_program();
  store_stmt(p).a = binary(Op::Add, i64(1), nullptr, T::Int64);
  EXPECT_TRUE(flags(p, "has a null operand"));
  p = valid_program();
  store_stmt(p).a = int_const(1, T::Float32);
  EXPECT_TRUE(flags(p, "IntConst: has type Float32"));
}

TEST(IrVerify, NamesAreDeclaredAndAssignedBeforeUse) {
  Program p = valid_program();
  store_stmt(p).a = var_ref("j", T::Int64);
  EXPECT_TRUE(flags(p, "Var: 'j' is not a declared local"));
  p = valid_program();
  p.kernels[0].locals.push_back({"t", T::Int64});
  auto use = stmt(StmtKind::Assign);
  use->name = "t";
  use->a = binary(Op::Add, var_ref("t", T::Int64), i64(1), T::Int64);
  p.kernels[0].body.insert(p.kernels[0].body.begin(), std::move(use));
  EXPECT_TRUE(flags(p, "Var: 't' is read before anything assigns it"));
  p = valid_program();
  store_stmt(p).name = "gX";
  EXPECT_TRUE(flags(p, "Store writes 'gX', which is not a declared pointer, array or shared-memory buffer"));
  p = valid_program();
  store_stmt(p).name = "gA";
  EXPECT_TRUE(flags(p, "Store writes through 'gA', which is declared const"));
  p = valid_program();
  kernel_stmt(p, 0).body[0]->a = binary(Op::Lt, var_ref("i", T::Int32), param_ref("m", T::Int32), T::Boolean);
  EXPECT_TRUE(flags(p, "Param: 'm' is not a parameter of the function"));
  p = valid_program();
  p.kernels[0].locals.push_back({"n", T::Int32});
  EXPECT_TRUE(flags(p, "kernel scale: 'n' is declared twice"));
  p = valid_program();
  store_stmt(p).a = tensor_extent(0, 0);
  EXPECT_TRUE(flags(p, "TensorExtent: in a kernel"));
  p = valid_program();
  launch_info(p).args[2] = cast(tensor_extent(0, 1), T::Int32);
  EXPECT_TRUE(flags(p, "TensorExtent: 'mA' has no mode 1"));
}

TEST(IrVerify, Loops) {
  Program p = valid_program();
  kernel_stmt(p, 0).c = nullptr;
  EXPECT_TRUE(flags(p, "For has no step"));
  p = valid_program();
  kernel_stmt(p, 0).step_sign = -1;
  EXPECT_TRUE(flags(p, "For: the step is 1 but step_sign is -1"));
  p = valid_program();
  kernel_stmt(p, 0).b = param_ref("n", T::Int32);
  kernel_stmt(p, 0).a = i64(0);
  EXPECT_TRUE(flags(p, "For: the begin is Int64, the loop variable Int32"));
  p = valid_program();
  p.kernels[0].body.push_back(stmt(StmtKind::Break));
  EXPECT_TRUE(flags(p, "Break outside a loop"));
  kernel_stmt(p, 0).body.push_back(stmt(StmtKind::Continue));
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
  p.host_functions[0].body[0]->message.clear();
  EXPECT_TRUE(flags(p, "Check has an empty message"));
  p = valid_program();
  p.kernels[0].body.push_back(std::move(p.host_functions[0].body[0]));
  p.host_functions[0].body.erase(p.host_functions[0].body.begin());
  EXPECT_TRUE(flags(p, "kernel scale: Check in a kernel"));
}

TEST(IrVerify, IntrinsicsAgainstTheirRow) {
  auto eval = [](Program& p, ExprRef e) {
    auto s = stmt(StmtKind::Eval);
    s->a = std::move(e);
    p.kernels[0].body.push_back(std::move(s));
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
  bad->imms = {"9"};
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
  auto e = stmt(StmtKind::Eval);
  e->a = intrinsic(Intrinsic::FenceProxyAsync, {}, {}, T::Int32);
  e->b = i32(1);
  p.kernels[0].body.push_back(std::move(e));
  EXPECT_TRUE(flags(p, "Eval sets 'b', which its kind does not use"));
  p = valid_program();
  p.kernels[0].body.push_back(stmt(StmtKind::Eval));
  EXPECT_TRUE(flags(p, "Eval has no expression"));
  p = valid_program();
  p.kernels[0].body.push_back(vec_copy("frag", 0, "gA", 0, 96));
  EXPECT_TRUE(flags(p, "VecCopy moves 96 bits, expected a power of two from 8 to 128"));
  p = valid_program();
  p.kernels[0].body.push_back(vec_copy("frag", 0, "gA", 0, 64));
  EXPECT_EQ(problems(p), std::vector<std::string>{}) << "a register array filled from a const pointer";
  p.kernels[0].body.push_back(vec_copy("gA", 0, "frag", 0, 64));
  EXPECT_TRUE(flags(p, "VecCopy writes through 'gA', which is declared const"));
  p = valid_program();
  p.host_functions[0].body.push_back(stmt(StmtKind::Sync));
  EXPECT_TRUE(flags(p, "host run: Sync in a host function"));
  p = valid_program();
  p.kernels.push_back(std::move(valid_program().kernels[0]));
  EXPECT_TRUE(flags(p, "two kernels are named 'scale'"));
}

}  // namespace
}  // namespace tileslc::ir
