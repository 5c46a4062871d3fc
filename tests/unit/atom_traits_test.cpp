// The atom trait tables (compiler/sema/atom_traits.cpp) against what CuTe's
// traits and the PTX ISA say of each instruction: every (thread, value)
// layout has size(ThrID) threads and covers its operand tile (M x K, N x K,
// M x N; the stacked 8x8 matrices) exactly once, as CuTe's MMA_Traits and
// Copy_Traits require; the m16n8k16 layouts name the elements of the PTX
// ISA's figures ("Matrix Fragments for mma.m16n8k16 with floating point
// type", "Warp-level matrix load instruction: ldmatrix"); each row's
// intrinsic (ir/intrinsics.def) is a device operation the emulator runs, and
// its spelling exists in both runtimes (device/ and cpu/ headers:
// tools/check_intrinsics.py checks every spelling; this checks the atoms'
// immediates are ones the rows expand to); and each row's builtin makes it
// (same name, an Arch column no older than the row's architecture).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sema/atom_traits.h"
#include "sema/registry.h"

namespace tileslc::sema {
namespace {

int64_t size_of(const layout::Layout& l) { return layout::size(l).require_value("size"); }
int64_t mode_size(const layout::Layout& l, size_t m) { return size_of(layout::get(l, m)); }

/// Offset of (thread t, value v) in a (thread, value) layout with `threads` threads.
int64_t at(const layout::Layout& tv, int64_t threads, int64_t t, int64_t v) { return tv(t + threads * v).require_value("offset"); }

/// How many (thread, value) points land on each offset.
std::map<int64_t, int> image(const layout::Layout& tv) {
  std::map<int64_t, int> hits;
  for (int64_t i = 0; i < size_of(tv); ++i) ++hits[tv(i).require_value("offset")];
  return hits;
}

/// The layout covers [0, elems) and nothing else, each offset `times` times.
void expect_covers(const layout::Layout& tv, int64_t elems, int times, const std::string& what) {
  auto hits = image(tv);
  EXPECT_EQ(hits.size(), size_t(elems)) << what << ": " << tv.to_string();
  for (const auto& [off, n] : hits) {
    EXPECT_TRUE(off >= 0 && off < elems) << what << ": offset " << off << " outside the tile";
    EXPECT_EQ(n, times) << what << ": offset " << off;
  }
}

/// Every header of a runtime directory, concatenated.
std::string headers(const std::string& dir) {
  std::string all;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".h") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    all += ss.str();
  }
  return all;
}

/// True if `text` has `name` as a whole identifier.
bool has_identifier(const std::string& text, const std::string& name) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || !ident(text[at - 1])) && (at + name.size() == text.size() || !ident(text[at + name.size()]))) return true;
  return false;
}

/// The intrinsic is a tileslc::dev:: wrapper the emulator has, with immediates in its row's
/// domains, defined for the GPU (device/*.h) and for the CPU emulator (cpu/*.h).
void expect_in_preludes(const ir::IntrinsicOp& op) {
  static const std::string cuda = headers(TILESLC_SOURCE_DIR "/runtime/include/tileslc/device");
  static const std::string cpu = headers(TILESLC_SOURCE_DIR "/runtime/include/tileslc/cpu");
  const ir::IntrinsicInfo& row = ir::intrinsic_info(op.id);
  EXPECT_EQ(row.space, ir::IntrinsicSpace::Dev) << row.name;
  EXPECT_TRUE(row.emulated) << row.name;
  ASSERT_EQ(op.imms.size(), row.immediates.size()) << row.name;
  for (size_t i = 0; i < op.imms.size(); ++i)
    EXPECT_TRUE(ir::immediate_index(op.id, i, op.imms[i])) << row.name << " " << op.imms[i];
  const std::string fn = ir::intrinsic_spelling(op.id, op.imms);
  EXPECT_TRUE(has_identifier(cuda, fn)) << fn << " is not in runtime/include/tileslc/device";
  EXPECT_TRUE(has_identifier(cpu, fn)) << fn << " is not in runtime/include/tileslc/cpu";
}

/// The builtin that makes a row compiles for no older target than the instruction needs.
void expect_arch_checked(BuiltinId maker, AtomArch arch) {
  const BuiltinArch row = builtin_info(maker).arch;
  if (arch == AtomArch::Sm90) EXPECT_NE(row, BuiltinArch::Any) << builtin_info(maker).name;
  if (arch == AtomArch::Sm90a) EXPECT_EQ(row, BuiltinArch::Sm90a) << builtin_info(maker).name;
}

TEST(AtomTraits, MmaLayoutsHaveTheSizesOfCuteTraits) {
  ASSERT_FALSE(mma_traits().empty());
  for (const MmaTraits& t : mma_traits()) {
    const std::string what(t.cute);
    for (const layout::Layout* l : {&t.a_tv, &t.b_tv, &t.c_tv}) {
      ASSERT_EQ(l->rank(), 2u) << what;
      EXPECT_EQ(mode_size(*l, 0), t.threads) << what << ": size(ThrID)";
    }
    // size(ALayout) = M * K etc.: each thread holds its share, no element twice.
    expect_covers(t.a_tv, t.m * t.k, 1, what + " A");
    expect_covers(t.b_tv, t.n * t.k, 1, what + " B");
    expect_covers(t.c_tv, t.m * t.n, 1, what + " C");
    EXPECT_EQ(!t.device, t.any_type) << what << ": only the universal FMA is inline";
    if (t.device) expect_in_preludes(*t.device);
    EXPECT_EQ(builtin_info(t.maker).export_name, t.name) << what;
    expect_arch_checked(t.maker, t.arch);
  }
}

TEST(AtomTraits, M16n8k16MatchesThePtxFragments) {
  // g = lane / 4, t = lane % 4: a_v at (g + 8 ((v / 2) % 2), 2t + v % 2 + 8 (v / 4)); b_v at
  // (n g, k 2t + v % 2 + 8 (v / 2)); c_v at (g + 8 (v / 2), 2t + v % 2). Offsets are column-major.
  const auto rows = mma_traits_of(BuiltinId::MmaF16BF16Op);
  ASSERT_EQ(rows.size(), 2u);
  for (const MmaTraits* t : rows) {
    ASSERT_EQ(t->m, 16);
    ASSERT_EQ(t->n, 8);
    ASSERT_EQ(t->k, 16);
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, q = lane % 4;
      for (int v = 0; v < 8; ++v)
        EXPECT_EQ(at(t->a_tv, 32, lane, v), (g + 8 * ((v / 2) % 2)) + 16 * (2 * q + v % 2 + 8 * (v / 4))) << "A lane " << lane << " v" << v;
      for (int v = 0; v < 4; ++v) {
        EXPECT_EQ(at(t->b_tv, 32, lane, v), g + 8 * (2 * q + v % 2 + 8 * (v / 2))) << "B lane " << lane << " v" << v;
        EXPECT_EQ(at(t->c_tv, 32, lane, v), (g + 8 * (v / 2)) + 16 * (2 * q + v % 2)) << "C lane " << lane << " v" << v;
      }
    }
  }
}

TEST(AtomTraits, MatrixCopyLayoutsCoverTheirMatrices) {
  ASSERT_EQ(copy_traits().size(), 12u);
  for (const CopyTraits& t : copy_traits()) {
    const std::string what(t.cute);
    const int64_t elems = 64 * t.matrices;  // 8x8 matrices stacked 64 elements apart
    EXPECT_EQ(mode_size(t.rows(), 0), t.threads) << what;
    EXPECT_EQ(mode_size(t.rows(), 1), t.row_elems) << what;
    EXPECT_EQ(mode_size(t.regs(), 0), t.threads) << what;
    EXPECT_EQ(mode_size(t.regs(), 1), t.values_per_thread()) << what;
    // Every lane gives a row address; with fewer than 4 matrices the upper lanes repeat.
    expect_covers(t.rows(), elems, static_cast<int>(4 / t.matrices), what + " rows");
    expect_covers(t.regs(), elems, 1, what + " registers");
    // Each row is row_elems contiguous elements at a multiple of row_elems.
    for (int lane = 0; lane < t.threads; ++lane) {
      const int64_t first = at(t.rows(), t.threads, lane, 0);
      EXPECT_EQ(first % t.row_elems, 0) << what << " lane " << lane;
      for (int e = 1; e < t.row_elems; ++e) EXPECT_EQ(at(t.rows(), t.threads, lane, e), first + e) << what << " lane " << lane;
    }
    expect_in_preludes(t.device);
    expect_arch_checked(t.maker, t.arch);
    EXPECT_EQ(t.store, t.maker == BuiltinId::StMatrix8x8x16bOp) << what;
    EXPECT_EQ(&t, find_copy_traits(t.maker, t.matrices, t.trans)) << what;
  }
  EXPECT_EQ(copy_matrix_counts(BuiltinId::LdMatrix8x8x16bOp), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(copy_matrix_counts(BuiltinId::StMatrix8x8x16bOp), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(find_copy_traits(BuiltinId::LdMatrix8x8x16bOp, 3, false), nullptr);
}

TEST(AtomTraits, LdmatrixRegistersMatchThePtxFragments) {
  // Lane t holds (row t / 4, columns 2 (t % 4) + {0, 1}) of matrix j in register j; with .trans
  // (rows 2 (t % 4) + {0, 1}, column t / 4). A matrix is 8 row-major rows of 8 elements.
  for (const CopyTraits& t : copy_traits()) {
    for (int lane = 0; lane < 32; ++lane)
      for (int v = 0; v < t.values_per_thread(); ++v) {
        const int j = v / 2, h = v % 2;
        const int row = t.trans ? 2 * (lane % 4) + h : lane / 4, col = t.trans ? lane / 4 : 2 * (lane % 4) + h;
        EXPECT_EQ(at(t.regs(), 32, lane, v), 64 * j + 8 * row + col) << t.cute << " lane " << lane << " v" << v;
      }
  }
}

TEST(AtomTraits, WgmmaRowsCoverTheirTilesForEveryN) {
  ASSERT_EQ(wgmma_traits().size(), 4u);
  for (const WgmmaTraits& t : wgmma_traits()) {
    const std::string what(t.cute);
    EXPECT_EQ(&t, &find_wgmma_traits(t.maker, t.a_rmem)) << what;
    EXPECT_EQ(t.ns, (std::vector<int64_t>{64, 128, 192, 256})) << what;
    EXPECT_EQ(t.k * ir::bit_width(t.inputs.front()), 256) << what << ": K is 32 bytes of input";
    // Making the atom works for any target (host code builds it); cute.gemm with it needs
    // sm_90a (Evaluator::wgmma_gemm; golden fail_wgmma_needs_sm90a).
    EXPECT_EQ(t.arch, AtomArch::Sm90a) << what;
    for (int64_t n : t.ns)
      for (ir::ScalarType a : t.inputs)
        for (ir::ScalarType b : t.inputs) {
          if (t.maker == BuiltinId::WarpgroupMmaF16BF16Op && a != b) continue;  // one ab_dtype
          const MmaAtom atom = wgmma_atom(t, n, a, b);
          const std::string at_n = what + " N=" + std::to_string(n);
          EXPECT_EQ(atom.n, n) << at_n;
          EXPECT_EQ(atom.b_type(), b) << at_n;
          for (const layout::Layout* l : {&atom.a_tv, &atom.b_tv, &atom.c_tv}) EXPECT_EQ(mode_size(*l, 0), 128) << at_n;
          // A descriptor operand: all 128 threads name each element of the tile.
          expect_covers(atom.a_tv, 64 * t.k, t.a_rmem ? 1 : 128, at_n + " A");
          expect_covers(atom.b_tv, n * t.k, 128, at_n + " B");
          expect_covers(atom.c_tv, 64 * n, 1, at_n + " C");
          // The spellings are generated by macros in the CPU headers; tools/check_intrinsics.py
          // (which preprocesses them) checks they exist. Here: the immediates are in the row's domains.
          ASSERT_TRUE(atom.device.has_value()) << at_n;
          ASSERT_EQ(atom.device->imms.size(), ir::intrinsic_info(t.device).immediates.size()) << at_n;
          for (size_t i = 0; i < atom.device->imms.size(); ++i)
            EXPECT_TRUE(ir::immediate_index(t.device, i, atom.device->imms[i])) << at_n << " " << atom.device->imms[i];
        }
  }
}

TEST(AtomTraits, WgmmaRegisterFragmentsMatchThePtxIsa) {
  // Warp w = t / 32, g = (t % 32) / 4, q = t % 4 ("Register Fragments and Shared Memory Matrix
  // Layouts"): C value v at (16w + g + 8 ((v / 2) % 2), 8 (v / 4) + 2q + v % 2); 16-bit A value v at
  // (16w + g + 8 ((v / 2) % 2), 2q + v % 2 + 8 (v / 4)); 8-bit A value v at (16w + g + 8 ((v / 4) % 2),
  // 4q + v % 4 + 16 (v / 8)). Offsets are column-major over (64, N) and (64, K).
  const MmaAtom f16 = wgmma_atom(find_wgmma_traits(BuiltinId::WarpgroupMmaF16BF16Op, true), 64, ir::ScalarType::BFloat16,
                                 ir::ScalarType::BFloat16);
  const MmaAtom f8 = wgmma_atom(find_wgmma_traits(BuiltinId::WarpgroupMmaF8Op, true), 64, ir::ScalarType::Float8E4M3FN,
                                ir::ScalarType::Float8E5M2);
  for (int t = 0; t < 128; ++t) {
    const int w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (int v = 0; v < 32; ++v)
      EXPECT_EQ(at(f16.c_tv, 128, t, v), (16 * w + g + 8 * ((v / 2) % 2)) + 64 * (8 * (v / 4) + 2 * q + v % 2)) << "C t" << t << " v" << v;
    for (int v = 0; v < 8; ++v)
      EXPECT_EQ(at(f16.a_tv, 128, t, v), (16 * w + g + 8 * ((v / 2) % 2)) + 64 * (2 * q + v % 2 + 8 * (v / 4))) << "A16 t" << t << " v" << v;
    for (int v = 0; v < 16; ++v)
      EXPECT_EQ(at(f8.a_tv, 128, t, v), (16 * w + g + 8 * ((v / 4) % 2)) + 64 * (4 * q + v % 4 + 16 * (v / 8))) << "A8 t" << t << " v" << v;
  }
  EXPECT_EQ(f8.device->imms, (std::vector<std::string>{"64", "e4m3", "e5m2"}));
}

TEST(AtomTraits, ListText) {
  EXPECT_EQ(list_text({"Float16"}), "Float16");
  EXPECT_EQ(list_text({"Float16", "BFloat16", "Float16"}), "Float16 or BFloat16");
  EXPECT_EQ(list_text({".x1", ".x2", ".x4"}, " and "), ".x1, .x2 and .x4");
}

}  // namespace
}  // namespace tileslc::sema
