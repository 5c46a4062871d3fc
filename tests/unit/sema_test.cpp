// Unit tests for sema (compiler/sema): in-memory programs analyzed into
// ir::Program, with assertions on the IR itself: how many kernels and host
// functions, one specialization per distinct launch signature (element types,
// static arguments, block size), kernel and host parameter lists, const-ness
// of pointers never stored through, static_threads, -D Constexpr values, and
// the codes and positions of the errors that make analysis fail.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "ir/ir.h"
#include "ir/visit.h"
#include "sema/sema.h"
#include "source/source.h"

namespace tileslc::sema {
namespace {

using ir::ScalarType;

/// One analyzed in-memory program.
struct Analyzed {
  source::SourceManager sm;
  std::unique_ptr<diag::DiagnosticEngine> diags;
  std::optional<ir::Program> program;
  std::vector<std::string> deps;

  explicit Analyzed(std::string src, std::map<std::string, std::string> defines = {},
                    std::string arch = "sm_90a") {
    source::FileId f = sm.add_buffer("test.tpy", std::move(src));
    diags = std::make_unique<diag::DiagnosticEngine>(sm);
    Options opts;
    opts.arch = std::move(arch);
    opts.stdlib_dir = TILESLC_SOURCE_DIR "/stdlib";
    opts.defines = std::move(defines);
    program = analyze(sm, f, opts, *diags, &deps);
  }

  /// "E0301 11:13" for every diagnostic, in report order.
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const auto& d : diags->diagnostics()) {
      std::string s(diag::info(d.kind).code);
      if (d.range.valid()) {
        auto lc = sm.line_col(d.range.start());
        s += " " + std::to_string(lc.line) + ":" + std::to_string(lc.column);
      }
      out.push_back(s);
    }
    return out;
  }

  const ir::Program& ok() const {
    EXPECT_TRUE(program.has_value()) << "analysis failed: " << ::testing::PrintToString(errors());
    return *program;
  }
};

const char* kPrelude =
    "import tileslc as cutlass\n"
    "import tileslc.cute as cute\n"
    "\n"
    "N = cute.sym_int(\"N\")\n"
    "\n";

// The vector_add of DESIGN.md section 2.
const char* kVectorAdd =
    "@cute.kernel\n"
    "def add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor):\n"
    "    tidx, _, _ = cute.arch.thread_idx()\n"
    "    bidx, _, _ = cute.arch.block_idx()\n"
    "    bdim, _, _ = cute.arch.block_dim()\n"
    "    i = bidx * bdim + tidx\n"
    "    if i < cute.size(gC):\n"
    "        gC[i] = gA[i] + gB[i]\n"
    "\n"
    "@cute.jit\n"
    "def vector_add(mA: cute.Tensor[cutlass.Float32, (N,)],\n"
    "               mB: cute.Tensor[cutlass.Float32, (N,)],\n"
    "               mC: cute.Tensor[cutlass.Float32, (N,)]):\n"
    "    threads = 256\n"
    "    add_kernel(mA, mB, mC).launch(grid=(cute.ceil_div(N, threads), 1, 1), block=(threads, 1, 1))\n";

std::string param_list(const ir::Kernel& k) {
  std::string out;
  for (const auto& p : k.params) {
    if (!out.empty()) out += ", ";
    if (p.is_pointer) out += p.is_const ? "const " : "";
    out += std::string(ir::type_name(p.type)) + (p.is_pointer ? "* " : " ") + p.name;
  }
  return out;
}

int count_launches(const ir::Block& b) {
  int n = 0;
  for (const auto& s : b) {
    if (s->is<ir::Launch>()) ++n;
    ir::for_each_block(*s, [&](const ir::Block& inner) { n += count_launches(inner); });
  }
  return n;
}

TEST(Sema, VectorAddHasOneKernelAndOneHostFunction) {
  Analyzed a(std::string(kPrelude) + kVectorAdd);
  const auto& p = a.ok();
  EXPECT_EQ(p.arch, "sm_90a");
  EXPECT_EQ(p.source_path, "test.tpy");
  ASSERT_EQ(p.kernels.size(), 1u);
  ASSERT_EQ(p.host_functions.size(), 1u);
  EXPECT_EQ(p.kernels[0].source_name, "add_kernel");
  EXPECT_EQ(p.kernels[0].name, "add_kernel");
  EXPECT_EQ(p.host_functions[0].name, "vector_add");
  EXPECT_EQ(count_launches(p.host_functions[0].body), 1);
  EXPECT_EQ(a.errors(), std::vector<std::string>{});
}

TEST(Sema, KernelParametersArePointersStridesAndExtents) {
  Analyzed a(std::string(kPrelude) + kVectorAdd);
  const auto& k = a.ok().kernels.at(0);
  // gA and gB are only read: const; gC is stored through. Pointers come
  // first, then the run-time integers of the layouts, shared ones once.
  EXPECT_EQ(param_list(k),
            "const Float32* gA, const Float32* gB, Float32* gC, Int64 N, "
            "Int64 gA_stride0, Int64 gB_stride0, Int64 gC_stride0");
}

TEST(Sema, StaticThreadsComesFromTheStaticBlock) {
  Analyzed a(std::string(kPrelude) + kVectorAdd);
  EXPECT_EQ(a.ok().kernels.at(0).static_threads, 256);

  Analyzed b(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor):\n"
             "    tx, ty, _ = cute.arch.thread_idx()\n"
             "    gA[ty * 32 + tx] = 0.0\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mA).launch(grid=(1, 1, 1), block=(32, 8, 2))\n");
  EXPECT_EQ(b.ok().kernels.at(0).static_threads, 512);
}

TEST(Sema, HostParametersCarryKindsTypesAndSymbols) {
  Analyzed a(std::string(kPrelude) +
             "M = cute.sym_int(\"M\")\n"
             "@cute.kernel\n"
             "def k(alpha, gA: cute.Tensor):\n"
             "    tx, _, _ = cute.arch.thread_idx()\n"
             "    gA[tx, 0] = gA[tx, 0] * alpha\n"
             "\n"
             "@cute.jit\n"
             "def run(alpha: cutlass.Float32, mA: cute.Tensor[cutlass.BFloat16, (M, 64)],\n"
             "        threads: cutlass.Constexpr = 128):\n"
             "    k(alpha, mA).launch(grid=(1, 1, 1), block=(threads, 1, 1))\n");
  const auto& h = a.ok().host_functions.at(0);
  // The Constexpr parameter is folded away; the stream is the generated function's own.
  ASSERT_GE(h.params.size(), 2u);
  EXPECT_EQ(h.params[0].kind, ir::HostParam::Scalar);
  EXPECT_EQ(h.params[0].name, "alpha");
  EXPECT_EQ(h.params[0].type, ScalarType::Float32);
  EXPECT_EQ(h.params[1].kind, ir::HostParam::Tensor);
  EXPECT_EQ(h.params[1].name, "mA");
  EXPECT_EQ(h.params[1].type, ScalarType::BFloat16);
  ASSERT_EQ(h.params[1].dims.size(), 2u);
  EXPECT_FALSE(h.params[1].dims[0].is_static);
  EXPECT_EQ(h.params[1].dims[0].symbol, "M");
  EXPECT_TRUE(h.params[1].dims[1].is_static);
  EXPECT_EQ(h.params[1].dims[1].value, 64);
  for (const auto& p : h.params) EXPECT_NE(p.name, "threads");
  ASSERT_EQ(h.symbols.size(), 1u);
  EXPECT_EQ(h.symbols[0].symbol, "M");
  EXPECT_EQ(h.symbols[0].param, 1);
  EXPECT_EQ(h.symbols[0].mode, 0);
  EXPECT_EQ(a.ok().kernels.at(0).static_threads, 128);
  // The scalar reaches the kernel as its first parameter.
  EXPECT_EQ(param_list(a.ok().kernels.at(0)).substr(0, 13), "Float32 alpha");
}

const char* kScaleKernel =
    "@cute.kernel\n"
    "def scale_kernel(gA: cute.Tensor, s: cutlass.Constexpr):\n"
    "    tidx, _, _ = cute.arch.thread_idx()\n"
    "    gA[tidx] = gA[tidx] * s\n"
    "\n";

TEST(Sema, OneSpecializationPerDtype) {
  Analyzed a(std::string(kPrelude) + kScaleKernel +
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)], mH: cute.Tensor[cutlass.Float16, (N,)]):\n"
             "    scale_kernel(mA, 2.0).launch(grid=(1, 1, 1), block=(128, 1, 1))\n"
             "    scale_kernel(mH, 2.0).launch(grid=(1, 1, 1), block=(128, 1, 1))\n");
  const auto& p = a.ok();
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].source_name, "scale_kernel");
  EXPECT_EQ(p.kernels[1].source_name, "scale_kernel");
  EXPECT_NE(p.kernels[0].name, p.kernels[1].name);
  EXPECT_EQ(p.kernels[0].params.at(0).type, ScalarType::Float32);
  EXPECT_EQ(p.kernels[1].params.at(0).type, ScalarType::Float16);
  EXPECT_EQ(count_launches(p.host_functions.at(0).body), 2);
}

TEST(Sema, OneSpecializationPerStaticArgumentAndReuseOfEqualOnes) {
  Analyzed a(std::string(kPrelude) + kScaleKernel +
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    scale_kernel(mA, 2.0).launch(grid=(1, 1, 1), block=(128, 1, 1))\n"
             "    scale_kernel(mA, 0.5).launch(grid=(1, 1, 1), block=(128, 1, 1))\n"
             "    scale_kernel(mA, 2.0).launch(grid=(1, 1, 1), block=(128, 1, 1))\n");
  const auto& p = a.ok();
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_NE(p.kernels[0].specialization, p.kernels[1].specialization);
  EXPECT_NE(p.kernels[0].specialization.find("s: 2.0"), std::string::npos) << p.kernels[0].specialization;
  EXPECT_NE(p.kernels[1].specialization.find("s: 0.5"), std::string::npos) << p.kernels[1].specialization;
  // The static argument is folded: it is not a kernel parameter.
  for (const auto& k : p.kernels) EXPECT_EQ(param_list(k), "Float32* gA, Int64 N, Int64 gA_stride0");
  EXPECT_EQ(count_launches(p.host_functions.at(0).body), 3);
}

TEST(Sema, OneSpecializationPerStaticBlockSize) {
  Analyzed a(std::string(kPrelude) + kScaleKernel +
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    scale_kernel(mA, 2.0).launch(grid=(1, 1, 1), block=(128, 1, 1))\n"
             "    scale_kernel(mA, 2.0).launch(grid=(1, 1, 1), block=(64, 1, 1))\n");
  const auto& p = a.ok();
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].static_threads, 128);
  EXPECT_EQ(p.kernels[1].static_threads, 64);
}

TEST(Sema, DefineSetsConstexprParameter) {
  std::string src = std::string(kPrelude) + kScaleKernel +
                    "@cute.jit\n"
                    "def run(mA: cute.Tensor[cutlass.Float32, (N,)], threads: cutlass.Constexpr = 256):\n"
                    "    scale_kernel(mA, 1.5).launch(grid=(1, 1, 1), block=(threads, 1, 1))\n";
  Analyzed dflt(src);
  EXPECT_EQ(dflt.ok().kernels.at(0).static_threads, 256);
  Analyzed set(src, {{"threads", "64"}});
  EXPECT_EQ(set.ok().kernels.at(0).static_threads, 64);
  Analyzed bad(src, {{"thread", "64"}});
  EXPECT_FALSE(bad.program.has_value());
  EXPECT_EQ(bad.errors(), std::vector<std::string>{"E0510"});
}

TEST(Sema, HelpersAreInlinedNotEmittedAsKernels) {
  Analyzed a(std::string(kPrelude) +
             "def axpy(a, x, y):\n"
             "    return a * x + y\n"
             "\n"
             "@cute.kernel\n"
             "def k(gX: cute.Tensor, gY: cute.Tensor):\n"
             "    i, _, _ = cute.arch.thread_idx()\n"
             "    gY[i] = axpy(2.0, gX[i], gY[i])\n"
             "\n"
             "@cute.jit\n"
             "def run(mX: cute.Tensor[cutlass.Float32, (N,)], mY: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mX, mY).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  const auto& p = a.ok();
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].source_name, "k");
  // gX is read only, gY is read and written.
  EXPECT_EQ(param_list(p.kernels[0]), "const Float32* gX, Float32* gY, Int64 N, Int64 gX_stride0, Int64 gY_stride0");
}

TEST(Sema, RangeConstexprUnrollsIntoStraightLineStores) {
  Analyzed a(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor):\n"
             "    tidx, _, _ = cute.arch.thread_idx()\n"
             "    for v in cutlass.range_constexpr(4):\n"
             "        gA[tidx * 4 + v] = 0.0\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  const auto& body = a.ok().kernels.at(0).body;
  ASSERT_EQ(body.size(), 4u);
  for (const auto& s : body) EXPECT_EQ(s->kind(), ir::StmtKind::Store);
}

TEST(Sema, RuntimeRangeIsOneForLoop) {
  Analyzed a(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor, gOut: cute.Tensor):\n"
             "    acc = 0.0\n"
             "    for j in range(cute.size(gA)):\n"
             "        acc += gA[j]\n"
             "    gOut[0] = acc\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)], mOut: cute.Tensor[cutlass.Float32, (1,)]):\n"
             "    k(mA, mOut).launch(grid=(1, 1, 1), block=(1, 1, 1))\n");
  const auto& body = a.ok().kernels.at(0).body;
  int fors = 0;
  for (const auto& s : body)
    if (const auto* f = s->get_if<ir::For>()) {
      ++fors;
      EXPECT_EQ(f->step_sign, 1);
      EXPECT_EQ(ir::as_int_const(f->begin), std::optional<int64_t>(0));
      EXPECT_EQ(ir::as_int_const(f->step), std::optional<int64_t>(1));
      EXPECT_EQ(f->body.size(), 1u);
    }
  EXPECT_EQ(fors, 1);
}

TEST(Sema, ConstExprPrunesTheOtherBranch) {
  Analyzed a(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor, flag: cutlass.Constexpr):\n"
             "    tidx, _, _ = cute.arch.thread_idx()\n"
             "    if cutlass.const_expr(flag):\n"
             "        gA[tidx] = 1.0\n"
             "    else:\n"
             "        gA[tidx] = 2.0\n"
             "        gA[tidx + 1] = 3.0\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mA, False).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  const auto& body = a.ok().kernels.at(0).body;
  ASSERT_EQ(body.size(), 2u);
  for (const auto& s : body) EXPECT_EQ(s->kind(), ir::StmtKind::Store);
}

TEST(Sema, DependenciesListTheMainFileFirstThenTheStdlib) {
  Analyzed a(std::string(kPrelude) + kVectorAdd);
  a.ok();
  ASSERT_GE(a.deps.size(), 2u);
  EXPECT_EQ(a.deps[0], "test.tpy");
  bool has_cute = false;
  for (const auto& d : a.deps) has_cute |= d.find("tileslc/cute/__init__.tpy") != std::string::npos;
  EXPECT_TRUE(has_cute);
}

TEST(Sema, ErrorsFailAnalysisWithCodeAndPosition) {
  Analyzed a(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor):\n"
             "    i, _, _ = cute.arch.thread_idx()\n"
             "    gA[i] = gAA[i]\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  EXPECT_FALSE(a.program.has_value());
  EXPECT_EQ(a.errors(), std::vector<std::string>{"E0301 9:13"});
}

TEST(Sema, StaticErrors) {
  auto kernel_with = [](const std::string& stmt) {
    return std::string(kPrelude) +
           "@cute.kernel\n"
           "def k(gA: cute.Tensor):\n"
           "    i, _, _ = cute.arch.thread_idx()\n" +
           stmt +
           "\n"
           "@cute.jit\n"
           "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
           "    k(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))\n";
  };
  EXPECT_EQ(Analyzed(kernel_with("    gA[i] = cutlass.Float32(7 // 0)\n")).errors(),
            std::vector<std::string>{"E0503 9:29"});
  EXPECT_EQ(Analyzed(kernel_with("    assert 1 + 1 == 3\n")).errors(), std::vector<std::string>{"E0504 9:12"});
  EXPECT_EQ(Analyzed(kernel_with("    for v in cutlass.range_constexpr(100000):\n        gA[i] = 0.0\n")).errors(),
            std::vector<std::string>{"E0506 9:14"});
  EXPECT_EQ(Analyzed(kernel_with("    gA[i] = (1, 2, 3)[3]\n")).errors(), std::vector<std::string>{"E0409 9:23"});
  EXPECT_EQ(Analyzed(kernel_with("    gA[i] = gA[i] & gA[i]\n")).errors(), std::vector<std::string>{"E0401 9:19"});
}

TEST(Sema, BlockOverTheLimitIsRejected) {
  Analyzed a(std::string(kPrelude) +
             "@cute.kernel\n"
             "def k(gA: cute.Tensor):\n"
             "    i, _, _ = cute.arch.thread_idx()\n"
             "    gA[i] = 0.0\n"
             "\n"
             "@cute.jit\n"
             "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
             "    k(mA).launch(grid=(1, 1, 1), block=(2048, 1, 1))\n");
  EXPECT_FALSE(a.program.has_value());
  ASSERT_EQ(a.errors().size(), 1u);
  EXPECT_EQ(a.errors()[0].substr(0, 5), "E0702");
}

}  // namespace
}  // namespace tileslc::sema
