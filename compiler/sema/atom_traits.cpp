// The atom trait tables (atom_traits.h): one row per instruction, as CuTe's
// MMA_Traits / Copy_Traits specializations have them, with the layouts in
// CuTe's text, parsed once when a table is first used.
#include "sema/atom_traits.h"

#include <algorithm>
#include <stdexcept>

namespace tileslc::sema {

namespace {

using ST = ir::ScalarType;

// ---- MMA (include/cute/atom/mma_traits_sm80.hpp; PTX ISA, "Matrix Fragments for mma.m16n8k*")
//
// With g = lane / 4 and t = lane % 4, every m16n8 instruction keeps the
// accumulators c0..c3 at rows g, g + 8 and columns 2t, 2t + 1 (CuTe's SM80_16x8_Row).
constexpr const char* kC16x8 = "((4,8),(2,2)):((32,1),(16,8))";
// "Matrix Fragments for mma.m16n8k16 with floating point type": A at (row g [+8],
// col 2t [+1] [+8]), B at (col g, row 2t [+1] [+8]).
constexpr const char* kA16x8x16 = "((4,8),(2,2,2)):((32,1),(16,8,128))";
constexpr const char* kB16x8x16 = "((4,8),(2,2)):((16,1),(8,64))";
// "Matrix Fragments for mma.m16n8k8" (.tf32): A at (row g [+8], col t [+4]), B at (row t [+4], col g).
constexpr const char* kA16x8x8 = "((4,8),(2,2)):((16,1),(8,64))";
constexpr const char* kB16x8x8 = "((4,8),2):((8,1),32)";
// "Matrix Fragments for mma.m16n8k32" (.s8/.u8): A at (row g [+8], col 4t + (0..3) [+16]),
// B at (row 4t + (0..3) [+16], col g).
constexpr const char* kA16x8x32 = "((4,8),(4,2,2)):((64,1),(16,8,256))";
constexpr const char* kB16x8x32 = "((4,8),(4,2)):((32,1),(8,128))";
// UniversalFMA (include/cute/atom/mma_traits.hpp): one thread, one value of each operand.
constexpr const char* kScalar = "(1,1):(0,0)";

/// An MMA row as written; mma_traits() parses its layouts.
struct MmaRow {
  BuiltinId maker;
  const char* name;
  const char* cute;
  int64_t m, n, k, threads;
  ST a, b, acc;
  bool any_type;
  AtomArch arch;
  std::optional<ir::IntrinsicOp> device;
  const char *a_tv, *b_tv, *c_tv;
};

const MmaRow kMmaRows[] = {
    {.maker = BuiltinId::MmaUniversalOp, .name = "MmaUniversalOp", .cute = "UniversalFMA",
     .m = 1, .n = 1, .k = 1, .threads = 1, .a = ST::Float32, .b = ST::Float32, .acc = ST::Float32, .any_type = true,
     .arch = AtomArch::Any, .device = std::nullopt,
     .a_tv = kScalar, .b_tv = kScalar, .c_tv = kScalar},
    // mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
    {.maker = BuiltinId::MmaF16BF16Op, .name = "MmaF16BF16Op", .cute = "SM80_16x8x16_F32F16F16F32_TN",
     .m = 16, .n = 8, .k = 16, .threads = 32, .a = ST::Float16, .b = ST::Float16, .acc = ST::Float32, .any_type = false,
     .arch = AtomArch::Sm80, .device = ir::IntrinsicOp{ir::Intrinsic::MmaM16n8k16, {"f16"}},
     .a_tv = kA16x8x16, .b_tv = kB16x8x16, .c_tv = kC16x8},
    // mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
    {.maker = BuiltinId::MmaF16BF16Op, .name = "MmaF16BF16Op", .cute = "SM80_16x8x16_F32BF16BF16F32_TN",
     .m = 16, .n = 8, .k = 16, .threads = 32, .a = ST::BFloat16, .b = ST::BFloat16, .acc = ST::Float32, .any_type = false,
     .arch = AtomArch::Sm80, .device = ir::IntrinsicOp{ir::Intrinsic::MmaM16n8k16, {"bf16"}},
     .a_tv = kA16x8x16, .b_tv = kB16x8x16, .c_tv = kC16x8},
    // mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32. CuTe's ValTypeA/B are tfloat32_t; here
    // the registers hold Float32, which the wrapper rounds to TF32 (cvt.rna.tf32.f32) as it packs them.
    {.maker = BuiltinId::MmaTF32Op, .name = "MmaTF32Op", .cute = "SM80_16x8x8_F32TF32TF32F32_TN",
     .m = 16, .n = 8, .k = 8, .threads = 32, .a = ST::Float32, .b = ST::Float32, .acc = ST::Float32, .any_type = false,
     .arch = AtomArch::Sm80, .device = ir::IntrinsicOp{ir::Intrinsic::MmaM16n8k8Tf32, {}},
     .a_tv = kA16x8x8, .b_tv = kB16x8x8, .c_tv = kC16x8},
    // mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
    {.maker = BuiltinId::MmaI8Op, .name = "MmaI8Op", .cute = "SM80_16x8x32_S32S8S8S32_TN",
     .m = 16, .n = 8, .k = 32, .threads = 32, .a = ST::Int8, .b = ST::Int8, .acc = ST::Int32, .any_type = false,
     .arch = AtomArch::Sm80, .device = ir::IntrinsicOp{ir::Intrinsic::MmaM16n8k32, {"s8"}},
     .a_tv = kA16x8x32, .b_tv = kB16x8x32, .c_tv = kC16x8},
    // mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32
    {.maker = BuiltinId::MmaI8Op, .name = "MmaI8Op", .cute = "SM80_16x8x32_S32U8U8S32_TN",
     .m = 16, .n = 8, .k = 32, .threads = 32, .a = ST::Uint8, .b = ST::Uint8, .acc = ST::Int32, .any_type = false,
     .arch = AtomArch::Sm80, .device = ir::IntrinsicOp{ir::Intrinsic::MmaM16n8k32, {"u8"}},
     .a_tv = kA16x8x32, .b_tv = kB16x8x32, .c_tv = kC16x8},
};

// ---- warpgroup MMA (include/cute/atom/mma_traits_sm90_gmma.hpp; PTX ISA, "wgmma.mma_async",
// "Register Fragments and Shared Memory Matrix Layouts")
//
// SS: every thread names the whole tile (a descriptor), so the A and B layouts
// send all 128 threads to offset 0 of a column-major (rows, K) tile.
constexpr const char* kWgmmaA = "(128,(64,{K})):(0,(1,64))";
constexpr const char* kWgmmaB = "(128,({N},{K})):(0,(1,{N}))";
// RS: each thread holds four 32-bit registers of A, warp w rows 16w .. 16w + 15
// (CuTe's ALayout_64x16 and ALayout_64x32). Value v of thread t, g = (t % 32) / 4, q = t % 4:
//   16-bit, 8 values (the m16n8k16 A fragment): (16w + g + 8 ((v / 2) % 2), 2q + v % 2 + 8 (v / 4));
//   8-bit, 16 values: (16w + g + 8 ((v / 4) % 2), 4q + v % 4 + 16 (v / 8)).
constexpr const char* kWgmmaA16Rs = "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))";
constexpr const char* kWgmmaA8Rs = "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))";
// The accumulators: warp w's m16n8 C fragments for rows 16w .. 16w + 15, N / 8 of them (CLayout_64xN).
constexpr const char* kWgmmaC = "((4,8,4),(2,2,{N/8})):((128,1,16),(64,8,512))";

constexpr const char* kF16Note = "MmaF16BF16Op: Float16 or BFloat16 inputs accumulating in Float32";
constexpr const char* kF8Note = "MmaF8Op: Float8E4M3FN or Float8E5M2 inputs (any pair) accumulating in Float32";

const std::vector<int64_t> kWgmmaNs = {64, 128, 192, 256};

/// A warpgroup MMA row as written; wgmma_traits() fills in the common facts.
struct WgmmaRow {
  BuiltinId maker;
  const char* name;
  const char* cute;
  bool a_rmem;
  int64_t k;
  std::vector<ST> inputs;
  const char* note;
  ir::Intrinsic device;
  const char* a_tv;
};

const WgmmaRow kWgmmaRows[] = {
    // wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}
    {BuiltinId::WarpgroupMmaF16BF16Op, "warpgroup.MmaF16BF16Op", "SM90_64xNx16_F32{F16,BF16}_SS", false, 16,
     {ST::Float16, ST::BFloat16}, kF16Note, ir::Intrinsic::WgmmaSS, kWgmmaA},
    {BuiltinId::WarpgroupMmaF16BF16Op, "warpgroup.MmaF16BF16Op", "SM90_64xNx16_F32{F16,BF16}_RS", true, 16,
     {ST::Float16, ST::BFloat16}, kF16Note, ir::Intrinsic::WgmmaRS, kWgmmaA16Rs},
    // wgmma.mma_async.sync.aligned.m64nNk32.f32.{e4m3,e5m2}.{e4m3,e5m2}
    {BuiltinId::WarpgroupMmaF8Op, "warpgroup.MmaF8Op", "SM90_64xNx32_F32{E4M3,E5M2}{E4M3,E5M2}_SS", false, 32,
     {ST::Float8E4M3FN, ST::Float8E5M2}, kF8Note, ir::Intrinsic::WgmmaF8SS, kWgmmaA},
    {BuiltinId::WarpgroupMmaF8Op, "warpgroup.MmaF8Op", "SM90_64xNx32_F32{E4M3,E5M2}{E4M3,E5M2}_RS", true, 32,
     {ST::Float8E4M3FN, ST::Float8E5M2}, kF8Note, ir::Intrinsic::WgmmaF8RS, kWgmmaA8Rs},
};

/// `pattern` with {N}, {N/8} and {K} replaced by the numbers.
std::string instantiate(std::string_view pattern, int64_t n, int64_t k) {
  std::string out(pattern);
  for (auto [key, value] : {std::pair<std::string, int64_t>{"{N/8}", n / 8}, {"{N}", n}, {"{K}", k}})
    for (size_t at = out.find(key); at != std::string::npos; at = out.find(key, at))
      out.replace(at, key.size(), std::to_string(value));
  return out;
}

/// The PTX type of a wgmma input (the intrinsics' immediates).
const char* wgmma_ptx_type(ST t) {
  switch (t) {
    case ST::Float16: return "f16";
    case ST::BFloat16: return "bf16";
    case ST::Float8E4M3FN: return "e4m3";
    case ST::Float8E5M2: return "e5m2";
    default: throw std::logic_error("atom_traits: no wgmma input type " + std::string(ir::type_name(t)));
  }
}

// ---- ldmatrix / stmatrix (include/cute/atom/copy_traits_sm75.hpp, copy_traits_sm90.hpp;
// PTX ISA, "Warp-level matrix load instruction: ldmatrix" and "... store instruction: stmatrix")
//
// The rows: lane i names row i % 8 of matrix i / 8, 8 contiguous elements; with fewer
// than 4 matrices the upper lanes repeat the lower ones' addresses (unused).
constexpr const char* kRows1 = "((8,4),8):((8,0),1)";
constexpr const char* kRows2 = "((16,2),8):((8,0),1)";
constexpr const char* kRows4 = "(32,8):(8,1)";
// The registers: lane t holds (row t / 4, columns 2 (t % 4) + {0, 1}) of each matrix,
// one 32-bit register per matrix; with .trans (rows 2 (t % 4) + {0, 1}, column t / 4).
constexpr const char* kRegs1 = "(32,(2,1)):(2,(1,64))";
constexpr const char* kRegs2 = "(32,(2,2)):(2,(1,64))";
constexpr const char* kRegs4 = "(32,(2,4)):(2,(1,64))";
constexpr const char* kRegsT1 = "((4,8),(2,1)):((16,1),(8,64))";
constexpr const char* kRegsT2 = "((4,8),(2,2)):((16,1),(8,64))";
constexpr const char* kRegsT4 = "((4,8),(2,4)):((16,1),(8,64))";

/// A copy row as written (SrcLayout, DstLayout as CuTe orders them: stmatrix's
/// source is the registers); copy_traits() parses its layouts.
struct CopyRow {
  BuiltinId maker;
  const char* cute;
  int matrices;
  bool trans;
  ir::Intrinsic device;  // its x immediate is `matrices`
  const char *src, *dst;
};

constexpr BuiltinId kLd = BuiltinId::LdMatrix8x8x16bOp, kSt = BuiltinId::StMatrix8x8x16bOp;
constexpr ir::Intrinsic kLdN = ir::Intrinsic::Ldsm, kLdT = ir::Intrinsic::LdsmTrans, kStN = ir::Intrinsic::Stsm,
                        kStT = ir::Intrinsic::StsmTrans;

const CopyRow kCopyRows[] = {
    // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 (sm_75)
    {kLd, "SM75_U32x1_LDSM_N", 1, false, kLdN, kRows1, kRegs1},
    {kLd, "SM75_U32x2_LDSM_N", 2, false, kLdN, kRows2, kRegs2},
    {kLd, "SM75_U32x4_LDSM_N", 4, false, kLdN, kRows4, kRegs4},
    {kLd, "SM75_U16x2_LDSM_T", 1, true, kLdT, kRows1, kRegsT1},
    {kLd, "SM75_U16x4_LDSM_T", 2, true, kLdT, kRows2, kRegsT2},
    {kLd, "SM75_U16x8_LDSM_T", 4, true, kLdT, kRows4, kRegsT4},
    // stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 (sm_90)
    {kSt, "SM90_U32x1_STSM_N", 1, false, kStN, kRegs1, kRows1},
    {kSt, "SM90_U32x2_STSM_N", 2, false, kStN, kRegs2, kRows2},
    {kSt, "SM90_U32x4_STSM_N", 4, false, kStN, kRegs4, kRows4},
    {kSt, "SM90_U16x2_STSM_T", 1, true, kStT, kRegsT1, kRows1},
    {kSt, "SM90_U16x4_STSM_T", 2, true, kStT, kRegsT2, kRows2},
    {kSt, "SM90_U16x8_STSM_T", 4, true, kStT, kRegsT4, kRows4},
};

}  // namespace

const std::vector<MmaTraits>& mma_traits() {
  static const std::vector<MmaTraits> table = [] {
    std::vector<MmaTraits> out;
    for (const MmaRow& r : kMmaRows)
      out.push_back({r.maker, r.name, r.cute, r.m, r.n, r.k, r.threads, r.a, r.b, r.acc, r.any_type, r.arch, r.device,
                     layout::parse_layout(r.a_tv), layout::parse_layout(r.b_tv), layout::parse_layout(r.c_tv)});
    return out;
  }();
  return table;
}

std::vector<const MmaTraits*> mma_traits_of(BuiltinId maker) {
  std::vector<const MmaTraits*> out;
  for (const MmaTraits& t : mma_traits())
    if (t.maker == maker) out.push_back(&t);
  return out;
}

MmaAtom mma_atom(const MmaTraits& row, ir::ScalarType t) {
  MmaAtom a;
  a.name = row.name;
  a.device = row.device;
  a.ab = row.any_type ? t : row.a;
  a.acc = row.any_type ? t : row.acc;
  if (!row.any_type && row.b != row.a) a.b = row.b;
  a.m = row.m, a.n = row.n, a.k = row.k, a.threads = row.threads;
  a.a_tv = row.a_tv;
  a.b_tv = row.b_tv;
  a.c_tv = row.c_tv;
  return a;
}

const std::vector<WgmmaTraits>& wgmma_traits() {
  static const std::vector<WgmmaTraits> table = [] {
    std::vector<WgmmaTraits> out;
    for (const WgmmaRow& r : kWgmmaRows)
      out.push_back({r.maker, r.name, r.cute, r.a_rmem, /*m=*/64, r.k, /*threads=*/128, kWgmmaNs, r.inputs, ST::Float32,
                     r.note, AtomArch::Sm90a, r.device, r.a_tv, kWgmmaB, kWgmmaC});
    return out;
  }();
  return table;
}

const WgmmaTraits& find_wgmma_traits(BuiltinId maker, bool a_rmem) {
  for (const WgmmaTraits& t : wgmma_traits())
    if (t.maker == maker && t.a_rmem == a_rmem) return t;
  throw std::logic_error("atom_traits: no warpgroup MMA row for this operation");
}

MmaAtom wgmma_atom(const WgmmaTraits& row, int64_t n, ir::ScalarType a, ir::ScalarType b) {
  const bool f8 = row.maker == BuiltinId::WarpgroupMmaF8Op;
  MmaAtom atom;
  atom.name = row.name;
  atom.wgmma = true;
  atom.a_rmem = row.a_rmem;
  std::vector<std::string> imms{std::to_string(n), wgmma_ptx_type(a)};
  if (f8) imms.push_back(wgmma_ptx_type(b));
  atom.device = ir::IntrinsicOp{row.device, std::move(imms)};
  atom.ab = a;
  if (b != a) atom.b = b;
  atom.acc = row.acc;
  atom.m = row.m, atom.n = n, atom.k = row.k, atom.threads = row.threads;
  atom.a_tv = layout::parse_layout(instantiate(row.a_tv, n, row.k));
  atom.b_tv = layout::parse_layout(instantiate(row.b_tv, n, row.k));
  atom.c_tv = layout::parse_layout(instantiate(row.c_tv, n, row.k));
  return atom;
}

const std::vector<CopyTraits>& copy_traits() {
  static const std::vector<CopyTraits> table = [] {
    std::vector<CopyTraits> out;
    for (const CopyRow& r : kCopyRows) {
      const bool store = r.maker == kSt;
      out.push_back({r.maker, r.cute, store ? "stmatrix" : "ldmatrix", r.matrices, r.trans, store, /*threads=*/32,
                     /*elem_bits=*/16, /*row_elems=*/8, store ? AtomArch::Sm90 : AtomArch::Sm75,
                     ir::IntrinsicOp{r.device, {std::to_string(r.matrices)}},
                     layout::parse_layout(r.src), layout::parse_layout(r.dst)});
    }
    return out;
  }();
  return table;
}

const CopyTraits* find_copy_traits(BuiltinId maker, int matrices, bool trans) {
  for (const CopyTraits& t : copy_traits())
    if (t.maker == maker && t.matrices == matrices && t.trans == trans) return &t;
  return nullptr;
}

const CopyTraits& copy_traits_of(const CopyAtom& atom) {
  const CopyTraits* t = find_copy_traits(atom.stsm ? kSt : kLd, atom.ldsm_matrices, atom.ldsm_trans);
  if (!t) throw std::logic_error("atom_traits: a matrix copy atom without a row");
  return *t;
}

std::vector<int> copy_matrix_counts(BuiltinId maker) {
  std::vector<int> out;
  for (const CopyTraits& t : copy_traits())
    if (t.maker == maker && std::find(out.begin(), out.end(), t.matrices) == out.end()) out.push_back(t.matrices);
  std::sort(out.begin(), out.end());
  return out;
}

std::string list_text(const std::vector<std::string>& items, const char* last) {
  std::vector<std::string> xs;
  for (const auto& x : items)
    if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i) out += (i == 0 ? "" : i + 1 == xs.size() ? last : ", ") + xs[i];
  return out;
}

}  // namespace tileslc::sema
