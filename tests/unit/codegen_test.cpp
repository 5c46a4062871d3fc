// Unit tests for codegen (compiler/codegen): in-memory programs analyzed by
// sema and printed by emit_cuda/emit_header/emit_metadata, with assertions on
// the text: folded static constants, #line directives back to the .tpy,
// byte-identical output for identical input, Python floor division and modulo
// (tileslc::dev::floordiv/mod for run-time ints, folded for static ones),
// const restrict pointers for tensors never stored to, launch bounds, and the
// header's C++ and C ABI declarations.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/c_abi_names.h"
#include "codegen/codegen.h"
#include "diag/diag.h"
#include "ir/ir.h"
#include "sema/sema.h"
#include "source/source.h"

namespace tileslc::codegen {
namespace {

/// One program compiled in memory to .cu, .h and metadata text.
struct Emitted {
  source::SourceManager sm;
  std::unique_ptr<diag::DiagnosticEngine> diags;
  std::optional<ir::Program> program;
  std::string cu, h, json;

  explicit Emitted(std::string src, std::map<std::string, std::string> defines = {}, Target target = Target::Cuda,
                   const std::string& path = "test.tpy") {
    source::FileId f = sm.add_buffer(path, std::move(src));
    diags = std::make_unique<diag::DiagnosticEngine>(sm);
    sema::Options sopts;
    sopts.stdlib_dir = TILESLC_SOURCE_DIR "/stdlib";
    sopts.defines = std::move(defines);
    program = sema::analyze(sm, f, sopts, *diags, nullptr);
    if (!program) {
      ADD_FAILURE() << "analysis failed with " << diags->error_count() << " error(s)";
      return;
    }
    Options opts;
    opts.cu_path = "out/test.cu";
    opts.header_name = "test.h";
    opts.version = "0.0.0-test";
    opts.sm = &sm;
    opts.target = target;
    cu = emit_cuda(*program, opts);
    h = emit_header(*program, opts);
    json = emit_metadata(*program, opts);
  }

  /// The kernel named `name`: from its TILESLC_GLOBAL line to the closing brace,
  /// without #line directives.
  std::string kernel(const std::string& name) const {
    size_t at = std::string::npos;
    for (size_t pos = cu.find("TILESLC_GLOBAL"); pos != std::string::npos; pos = cu.find("TILESLC_GLOBAL", pos + 1)) {
      size_t eol = cu.find('\n', pos);
      if (cu.substr(pos, eol - pos).find(" " + name + "(") != std::string::npos) {
        at = pos;
        break;
      }
    }
    if (at == std::string::npos) return "";
    size_t end = cu.find("\n}\n", at);
    std::string body = cu.substr(at, end + 2 - at);
    std::string out;
    size_t i = 0;
    while (i < body.size()) {
      size_t eol = body.find('\n', i);
      if (eol == std::string::npos) eol = body.size();
      std::string line = body.substr(i, eol - i);
      if (line.find("#line") == std::string::npos) out += line + "\n";
      i = eol + 1;
    }
    return out;
  }
};

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

const char* kPrelude =
    "import tileslc as cutlass\n"
    "import tileslc.cute as cute\n"
    "\n"
    "N = cute.sym_int(\"N\")\n"
    "\n";

const char* kVectorAdd =
    "@cute.kernel\n"                                                                  // 6
    "def add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor):\n"            // 7
    "    tidx, _, _ = cute.arch.thread_idx()\n"                                       // 8
    "    bidx, _, _ = cute.arch.block_idx()\n"                                        // 9
    "    bdim, _, _ = cute.arch.block_dim()\n"                                        // 10
    "    i = bidx * bdim + tidx\n"                                                    // 11
    "    if i < cute.size(gC):\n"                                                     // 12
    "        gC[i] = gA[i] + gB[i]\n"                                                 // 13
    "\n"
    "@cute.jit\n"
    "def vector_add(mA: cute.Tensor[cutlass.Float32, (N,)],\n"
    "               mB: cute.Tensor[cutlass.Float32, (N,)],\n"
    "               mC: cute.Tensor[cutlass.Float32, (N,)]):\n"
    "    threads = 256\n"
    "    add_kernel(mA, mB, mC).launch(grid=(cute.ceil_div(N, threads), 1, 1), block=(threads, 1, 1))\n";

TEST(Codegen, VectorAddKernelText) {
  Emitted e(std::string(kPrelude) + kVectorAdd);
  EXPECT_EQ(e.kernel("add_kernel"),
            "TILESLC_GLOBAL void TILESLC_LAUNCH_BOUNDS(256) add_kernel(const float* TILESLC_RESTRICT gA, "
            "const float* TILESLC_RESTRICT gB, float* TILESLC_RESTRICT gC, int64_t N, "
            "int64_t gA_stride0, int64_t gB_stride0, int64_t gC_stride0) {\n"
            "  int64_t i;\n"
            "  i = static_cast<int64_t>(blockIdx.x) * int64_t{256} + static_cast<int64_t>(threadIdx.x);\n"
            "  if (i < N) {\n"
            "    gC[i * gC_stride0] = gA[i * gA_stride0] + gB[i * gB_stride0];\n"
            "  }\n"
            "}\n");
}

TEST(Codegen, KernelsLiveInTheNamespaceOfTheirFile) {
  // Two generated files that both define add_kernel link into one program; the host
  // function stays global (it is the file's API).
  Emitted e(std::string(kPrelude) + kVectorAdd, {}, Target::Cuda, "dir/2d-add.v1.tpy");
  EXPECT_TRUE(contains(e.cu, "\nnamespace tileslc_kernels::_2d_add_v1 {\n")) << e.cu;
  EXPECT_TRUE(contains(e.cu, "\n}  // namespace tileslc_kernels::_2d_add_v1\n")) << e.cu;
  EXPECT_LT(e.cu.find("namespace tileslc_kernels::_2d_add_v1 {"), e.cu.find("void TILESLC_LAUNCH_BOUNDS(256) add_kernel("));
  EXPECT_LT(e.cu.find("void TILESLC_LAUNCH_BOUNDS(256) add_kernel("), e.cu.find("}  // namespace tileslc_kernels::_2d_add_v1"));
  EXPECT_GT(e.cu.find("tileslc::Status vector_add("), e.cu.find("}  // namespace tileslc_kernels::_2d_add_v1")) << e.cu;
  EXPECT_TRUE(contains(e.cu, "reinterpret_cast<const void*>(&tileslc_kernels::_2d_add_v1::add_kernel), \"add_kernel\"")) << e.cu;
}

TEST(Codegen, CpuTargetChecksEveryAccessAndLaunchesThroughTheEmulator) {
  Emitted e(std::string(kPrelude) + kVectorAdd, {}, Target::Cpu);
  EXPECT_EQ(e.kernel("add_kernel"),
            "TILESLC_GLOBAL void TILESLC_LAUNCH_BOUNDS(256) add_kernel(tileslc::cpu::Span<const float> TILESLC_RESTRICT gA, "
            "tileslc::cpu::Span<const float> TILESLC_RESTRICT gB, tileslc::cpu::Span<float> TILESLC_RESTRICT gC, int64_t N, "
            "int64_t gA_stride0, int64_t gB_stride0, int64_t gC_stride0) {\n"
            "  int64_t i;\n"
            "  i = static_cast<int64_t>(blockIdx.x) * int64_t{256} + static_cast<int64_t>(threadIdx.x);\n"
            "  if (i < N) {\n"
            "    TILESLC_SET(gC, i * gC_stride0, TILESLC_AT(gA, i * gA_stride0) + TILESLC_AT(gB, i * gB_stride0));\n"
            "  }\n"
            "}\n");
  EXPECT_TRUE(contains(e.cu, "#include \"tileslc/cpu/prelude.h\"\n")) << e.cu;
  EXPECT_TRUE(contains(e.cu, "tileslc::cpu::Span<const float> arg0 = tileslc::cpu::global_span<const float>(mA, \"mA\");"))
      << e.cu;
  EXPECT_TRUE(contains(e.cu, "launch_kernel(reinterpret_cast<const void*>(&tileslc::cpu::kernel_entry<&tileslc_kernels::test::add_kernel>)"))
      << e.cu;
  EXPECT_FALSE(contains(e.cu, "tileslc/device/prelude.h")) << e.cu;
}

/// Where a compiler reading `cu` places its first line that starts with `prefix`: the file and
/// line of the #line directive before it, counted on by the lines between ("file:line"), as
/// C++ [cpp.line] does; "" when no line starts so.
std::string presumed_location(const std::string& cu, const std::string& prefix) {
  std::string file = "<generated>";
  long line = 0;
  size_t pos = 0;
  while (pos < cu.size()) {
    size_t end = cu.find('\n', pos);
    if (end == std::string::npos) end = cu.size();
    const std::string text = cu.substr(pos, end - pos);
    pos = end + 1;
    if (text.rfind("#line ", 0) == 0) {
      const size_t q = text.find('"');
      line = std::stol(text.substr(6, q - 6)) - 1;  // the next line is `line`
      file = text.substr(q + 1, text.rfind('"') - q - 1);
      continue;
    }
    ++line;
    if (text.rfind(prefix, 0) == 0) return file + ":" + std::to_string(line);
  }
  return "";
}

TEST(Codegen, LineDirectivesPointAtTheTpy) {
  Emitted e(std::string(kPrelude) + kVectorAdd);
  EXPECT_EQ(presumed_location(e.cu, "TILESLC_GLOBAL void"), "test.tpy:7") << e.cu;
  // A kernel's local is declared at the line that first binds it (nvcc's warnings about it name that line).
  EXPECT_EQ(presumed_location(e.cu, "  int64_t i;"), "test.tpy:11") << e.cu;
  EXPECT_EQ(presumed_location(e.cu, "  i = "), "test.tpy:11") << e.cu;
  EXPECT_EQ(presumed_location(e.cu, "  if (i < N)"), "test.tpy:12") << e.cu;
  EXPECT_EQ(presumed_location(e.cu, "    gC["), "test.tpy:13") << e.cu;
  // Glue code maps back to the generated file itself.
  EXPECT_TRUE(contains(e.cu, "\"out/test.cu\"")) << e.cu;
}

TEST(Codegen, OutputIsByteIdenticalForIdenticalInput) {
  std::string src = std::string(kPrelude) + kVectorAdd;
  Emitted a(src), b(src);
  EXPECT_FALSE(a.cu.empty());
  EXPECT_EQ(a.cu, b.cu);
  EXPECT_EQ(a.h, b.h);
  EXPECT_EQ(a.json, b.json);
}

TEST(Codegen, BannerNamesVersionSourceAndArch) {
  Emitted e(std::string(kPrelude) + kVectorAdd);
  EXPECT_EQ(e.cu.substr(0, e.cu.find('\n')),
            "// Generated by tileslc 0.0.0-test from test.tpy for sm_90a. Do not edit.");
}

TEST(Codegen, StaticArithmeticFoldsToOneConstant) {
  Emitted e(std::string(kPrelude) +
            "TILE = 4\n"
            "def scale():\n"
            "    return (TILE * 8 + 3) // 5\n"
            "\n"
            "@cute.kernel\n"
            "def k(gA: cute.Tensor):\n"
            "    tidx, _, _ = cute.arch.thread_idx()\n"
            "    gA[tidx] = gA[tidx] * (2.0 * 3.0 + 0.25) + cutlass.Float32(scale())\n"
            "\n"
            "@cute.jit\n"
            "def run(mA: cute.Tensor[cutlass.Float32, (N,)]):\n"
            "    k(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  std::string k = e.kernel("k");
  EXPECT_TRUE(contains(k, "* 6.25f + 7.0f;")) << k;
  EXPECT_FALSE(contains(k, "2.0f")) << k;
  EXPECT_FALSE(contains(k, "floordiv")) << k;
}

TEST(Codegen, FloorDivisionFollowsPython) {
  Emitted e(std::string(kPrelude) +
            "@cute.kernel\n"
            "def k(gA: cute.Tensor, gB: cute.Tensor):\n"
            "    tidx, _, _ = cute.arch.thread_idx()\n"
            "    d = gA[tidx]\n"
            "    gB[tidx] = d // 2 + d % 2 + (-7 // 2) * 1000 + (-7 % 2) * 100\n"
            "\n"
            "@cute.jit\n"
            "def run(mA: cute.Tensor[cutlass.Int32, (N,)], mB: cute.Tensor[cutlass.Int32, (N,)]):\n"
            "    k(mA, mB).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  std::string k = e.kernel("k");
  // Run-time ints: floor semantics through the device helpers, never C's '/'.
  EXPECT_TRUE(contains(k, "tileslc::dev::floordiv(d, 2)")) << k;
  EXPECT_TRUE(contains(k, "tileslc::dev::mod(d, 2)")) << k;
  EXPECT_FALSE(contains(k, "d / 2")) << k;
  // Static: -7 // 2 == -4 and -7 % 2 == 1, folded.
  EXPECT_TRUE(contains(k, "-4000")) << k;
  EXPECT_TRUE(contains(k, "+ 100;")) << k;
  EXPECT_FALSE(contains(k, "-3000")) << k;  // C's truncating division would give -3
}

TEST(Codegen, ConstexprDefineSpecializesTheKernel) {
  std::string src = std::string(kPrelude) +
                    "@cute.kernel\n"
                    "def k(gA: cute.Tensor, unroll: cutlass.Constexpr):\n"
                    "    tidx, _, _ = cute.arch.thread_idx()\n"
                    "    for u in cutlass.range_constexpr(unroll):\n"
                    "        gA[tidx * unroll + u] = 0.0\n"
                    "\n"
                    "@cute.jit\n"
                    "def run(mA: cute.Tensor[cutlass.Float32, (N,)], threads: cutlass.Constexpr = 256,\n"
                    "        unroll: cutlass.Constexpr = 2):\n"
                    "    k(mA, unroll).launch(grid=(1, 1, 1), block=(threads, 1, 1))\n";
  Emitted dflt(src);
  std::string k2 = dflt.kernel("k");
  EXPECT_TRUE(contains(k2, "TILESLC_LAUNCH_BOUNDS(256)")) << k2;
  EXPECT_TRUE(contains(k2, " * 2 + 1)")) << k2;
  EXPECT_FALSE(contains(k2, "+ 2)")) << k2;

  Emitted set(src, {{"threads", "64"}, {"unroll", "3"}});
  std::string k3 = set.kernel("k");
  EXPECT_TRUE(contains(k3, "TILESLC_LAUNCH_BOUNDS(64)")) << k3;
  EXPECT_TRUE(contains(k3, " * 3 + 2)")) << k3;
  EXPECT_NE(dflt.cu, set.cu);
}

TEST(Codegen, TwoDtypesGiveTwoUniquelyNamedKernels) {
  Emitted e(std::string(kPrelude) +
            "@cute.kernel\n"
            "def k(gA: cute.Tensor):\n"
            "    tidx, _, _ = cute.arch.thread_idx()\n"
            "    gA[tidx] = gA[tidx] * 2.0\n"
            "\n"
            "@cute.jit\n"
            "def run(mA: cute.Tensor[cutlass.Float32, (N,)], mH: cute.Tensor[cutlass.Float16, (N,)]):\n"
            "    k(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))\n"
            "    k(mH).launch(grid=(1, 1, 1), block=(32, 1, 1))\n");
  ASSERT_EQ(e.program->kernels.size(), 2u);
  std::string n0 = e.program->kernels[0].name, n1 = e.program->kernels[1].name;
  EXPECT_NE(n0, n1);
  EXPECT_TRUE(contains(e.kernel(n0), "(float* TILESLC_RESTRICT gA,")) << e.cu;
  EXPECT_TRUE(contains(e.kernel(n1), "(__half* TILESLC_RESTRICT gA,")) << e.cu;
  // Narrow floats compute in Float32 and round back.
  EXPECT_TRUE(contains(e.kernel(n1), "__float2half_rn(__half2float(")) << e.kernel(n1);
}

TEST(Codegen, HeaderDeclaresCppAndCAbiEntryPoints) {
  Emitted e(std::string(kPrelude) + kVectorAdd);
  EXPECT_TRUE(contains(e.h, "tileslc::Status vector_add(tileslc::TensorView mA, tileslc::TensorView mB, "
                            "tileslc::TensorView mC, cudaStream_t stream = nullptr);"))
      << e.h;
  EXPECT_TRUE(contains(e.h, "int tileslc_vector_add(const tileslc_tensor_view* mA, const tileslc_tensor_view* mB, "
                            "const tileslc_tensor_view* mC, tileslc_stream stream);"))
      << e.h;
  // The C++ part is what C must not see; the C twin comes after it, in extern "C" for C++ only.
  const size_t cpp_begin = e.h.find("#ifdef __cplusplus\n#include \"tileslc/runtime.h\"");
  const size_t cpp_end = e.h.find("extern \"C\" {\n#endif\n");
  const size_t c_twin = e.h.find("int tileslc_vector_add(");
  ASSERT_NE(cpp_begin, std::string::npos) << e.h;
  ASSERT_NE(cpp_end, std::string::npos) << e.h;
  EXPECT_LT(cpp_begin, e.h.find("tileslc::Status vector_add(")) << e.h;
  EXPECT_LT(e.h.find("tileslc::Status vector_add("), cpp_end) << e.h;
  EXPECT_LT(cpp_end, c_twin) << e.h;
  EXPECT_TRUE(contains(e.h.substr(c_twin), "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n")) << e.h;
  EXPECT_TRUE(contains(e.cu, "tileslc::check_extent_equal(mB, \"vector_add\", \"mB\", 0, \"N\", N, \"mA\", 0)"))
      << e.cu;
}

// vector_add launched in 2x1 clusters (the grid is a run-time value: the
// runtime checks it against the cluster).
std::string clustered_vector_add() {
  std::string src = std::string(kPrelude) + kVectorAdd;
  const std::string plain = "block=(threads, 1, 1))";
  src.replace(src.find(plain), plain.size(), "block=(threads, 1, 1), cluster=(2, 1, 1))");
  return src;
}

TEST(Codegen, ClusterLaunchGoesThroughLaunchKernelCluster) {
  Emitted e(clustered_vector_add());
  EXPECT_TRUE(contains(e.cu, "tileslc::launch_kernel_cluster(reinterpret_cast<const void*>(&tileslc_kernels::test::add_kernel), \"add_kernel\",")) << e.cu;
  EXPECT_TRUE(contains(e.cu, "        dim3(int64_t{2}, int64_t{1}, int64_t{1}),\n")) << e.cu;
  EXPECT_TRUE(contains(e.cu, "// add_kernel(gA: Tensor[Float32, (N,)], gB: Tensor[Float32, (N,)], gC: Tensor[Float32, (N,)], "
                             "block=(256, 1, 1), cluster=(2, 1, 1))")) << e.cu;
  EXPECT_TRUE(contains(e.json, "\"cluster_dims\": [\n        2,\n        1,\n        1\n      ]")) << e.json;
  // The emulator's launch goes the same way (its cudaLaunchKernelExC runs each cluster's CTAs together).
  Emitted cpu(clustered_vector_add(), {}, Target::Cpu);
  EXPECT_TRUE(contains(cpu.cu, "tileslc::launch_kernel_cluster(reinterpret_cast<const void*>(&tileslc::cpu::kernel_entry<&tileslc_kernels::test::add_kernel>), "
                               "\"add_kernel\",")) << cpu.cu;
  EXPECT_TRUE(contains(cpu.cu, "        dim3(int64_t{2}, int64_t{1}, int64_t{1}),\n")) << cpu.cu;
  // cluster=(1, 1, 1) is a plain launch: the same text as without cluster=.
  std::string one = clustered_vector_add();
  one.replace(one.find("cluster=(2, 1, 1)"), 17, "cluster=(1, 1, 1)");
  EXPECT_EQ(Emitted(one).cu, Emitted(std::string(kPrelude) + kVectorAdd).cu);
}

TEST(Codegen, MetadataListsKernelsAndArch) {
  Emitted e(std::string(kPrelude) + kVectorAdd);
  EXPECT_TRUE(contains(e.json, "\"add_kernel\"")) << e.json;
  EXPECT_TRUE(contains(e.json, "\"sm_90a\"")) << e.json;
  EXPECT_TRUE(contains(e.json, "256")) << e.json;
}

}  // namespace
}  // namespace tileslc::codegen

// Every `tileslc_` identifier the runtime's C headers declare (comments stripped: they show
// example host functions) is in runtime_c_names(), and nothing else is, so a host function can
// never define one of them (issue 15 item 9: `last_error` made nvcc fail in generated code).
TEST(CAbiNames, RuntimeTableMatchesTheCHeaders) {
  std::set<std::string> declared;
  for (const char* header : {"c_api.h", "dlpack.h"}) {
    std::ifstream in(std::string(TILESLC_SOURCE_DIR) + "/runtime/include/tileslc/" + header);
    ASSERT_TRUE(in) << header;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text = std::regex_replace(text, std::regex(R"(/\*[\s\S]*?\*/|//[^\n]*)"), " ");
    std::regex id(R"(\btileslc_[a-z0-9_]+\b)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), id); it != std::sregex_iterator(); ++it)
      declared.insert(it->str());
  }
  std::set<std::string> table;
  for (std::string_view n : tileslc::codegen::runtime_c_names()) table.insert(std::string(n));
  EXPECT_EQ(table, declared);
  EXPECT_TRUE(table.count("tileslc_last_error"));
}

TEST(CAbiNames, ConflictsWithTheRuntimeAndBetweenHostFunctions) {
  tileslc::ir::Program p;
  for (const char* name : {"vector_add", "last_error", "f", "f_packed", "tensor_view"}) {
    tileslc::ir::HostFunction h;
    h.name = name;
    p.host_functions.push_back(std::move(h));
  }
  auto conflicts = tileslc::codegen::c_abi_conflicts(p);
  ASSERT_EQ(conflicts.size(), 3u);
  EXPECT_EQ(conflicts[0].host, 1u);
  EXPECT_EQ(conflicts[0].name, "tileslc_last_error");
  EXPECT_EQ(conflicts[0].other, -1);
  EXPECT_EQ(conflicts[1].host, 3u);  // f_packed's C twin is f's packed entry
  EXPECT_EQ(conflicts[1].name, "tileslc_f_packed");
  EXPECT_EQ(conflicts[1].other, 2);
  EXPECT_EQ(conflicts[2].host, 4u);
  EXPECT_EQ(conflicts[2].name, "tileslc_tensor_view");
  EXPECT_EQ(tileslc::codegen::c_abi_name("saxpy"), "tileslc_saxpy");
  EXPECT_EQ(tileslc::codegen::c_packed_name("saxpy"), "tileslc_saxpy_packed");
}
