// wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16} and m64nNk32.f32.{e4m3,e5m2}
// with both operands in shared memory, or with A in registers (RS), for the
// CPU emulation target (PTX ISA, "Asynchronous
// Warpgroup Level Matrix Multiply-Accumulate Instructions: wgmma"):
//   D (64 x N, f32) = A (64 x 16) * B^T (B: N x 16, "K-major") + (scale_d ? D : 0)
// A warpgroup collective: the 128 threads meet (warpgroup_sync), and the last
// to arrive, which runs before the others resume, decodes the two
// shared-memory matrix descriptors, reads the operands and writes every
// thread's accumulator fragment. The math is done when issued, so the
// fence/commit/wait that follow have nothing to wait for.
//
// Matrix descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 start
// address >> 4, 16-29 leading byte offset >> 4, 32-45 stride byte offset >> 4,
// 49-51 base offset, 62-63 swizzle (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
// K-major operand element (row, k) of a 16-bit type ("Shared Memory Matrix
// Layout"; CuTe's GMMA K-major canonical layouts, in 16-byte units T:
// Swizzle<B,4,3> o ((8,m),(W,k)):((W T, SBO),(1 T, LBO)) with W = span / 16):
//   byte = 2k, chunk c = byte / 16,
//   addr = start + (row % 8) * span + (row / 8) * SBO + (c % W) * 16 + (c / W) * LBO + byte % 16,
// then the swizzle of that shared-memory address (span 16 without swizzle).
// MN-major operand (imm-trans-b = 1, 16-bit types, swizzled only; CuTe's GMMA
// MN-major canonical layouts: Swizzle<B,4,3> o ((T,W,m),(8,k)):((1,T,LBO),(W T,SBO))):
// element (row, k), with E = span / 2 elements of a row along MN,
//   addr = start + (k % 8) * span + (k / 8) * SBO + (row % E) * 2 + (row / E) * LBO,
// then the swizzle: LBO steps between E-wide blocks along MN, SBO between 8-row groups along K.
// Accumulator fragment ("Register Fragments: wgmma .m64nNk16", D): thread t
// of the warpgroup holds d[i], i < N / 2, at
//   row = 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2),  col = 8 (i / 4) + 2 (t % 4) + i % 2.
#include <cstring>
#include <string>
#include <vector>

#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/sm90.h"
#include "tileslc/cpu/tensor_map.h"
#include "tileslc/cpu/types.h"

namespace tileslc::cpu {

namespace {

struct Desc {
  uint32_t start, lbo, sbo, base_offset;
  int swizzle_bytes;  ///< 0 (none), 32, 64 or 128
  int span;           ///< bytes of one row of the 8-row pattern: the swizzle, or 16
};

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Decodes and checks descriptor `d` of an operand of `rows` rows of 32 bytes
// (16 elements of 2 bytes or 32 of 1 byte): every byte it covers must lie in the CTA's shared memory, and a
// swizzled operand must start on its pattern's period (base offset 0).
// The fields of descriptor `d` (`head` names it in messages): a base offset is refused as
// not modelled, and a swizzled operand must start in the first row of its pattern.
Desc fields(uint64_t d, const std::string& head, const SrcLoc& loc) {
  Desc r;
  r.start = static_cast<uint32_t>(d & 0x3FFF) << 4;
  r.lbo = static_cast<uint32_t>((d >> 16) & 0x3FFF) << 4;
  r.sbo = static_cast<uint32_t>((d >> 32) & 0x3FFF) << 4;
  r.base_offset = static_cast<uint32_t>((d >> 49) & 7);
  const int mode = static_cast<int>(d >> 62);
  r.swizzle_bytes = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  r.span = r.swizzle_bytes ? r.swizzle_bytes : 16;
  if (r.base_offset != 0) fail(loc, head + " has a base offset, which the emulator does not model");
  if (r.swizzle_bytes) {
    const uint32_t period = 8u * static_cast<uint32_t>(r.span);
    if ((r.start % period) >= static_cast<uint32_t>(r.span))
      fail(loc, head + " starts at shared address " + std::to_string(r.start) + ", row " +
                    std::to_string(r.start % period / r.span) + " of its " + std::to_string(r.swizzle_bytes) +
                    "-byte swizzle pattern: with base offset 0 it must start in the first row of a " +
                    std::to_string(period) + "-byte-aligned pattern");
  }
  return r;
}

Desc decode(uint64_t d, int rows, const char* which, const char* what, const SrcLoc& loc) {
  const std::string head = std::string(what) + ": the descriptor of " + which + " (" + hex(d) + ")";
  const Desc r = fields(d, head, loc);
  const int chunks_per_row = 32 / 16, w = r.span / 16;  // 32 bytes of K per row
  const uint32_t last = r.start + ((rows - 1) % 8) * r.span + ((rows - 1) / 8) * r.sbo +
                        ((chunks_per_row - 1) % w) * 16 + ((chunks_per_row - 1) / w) * r.lbo + 16;
  const size_t smem_bytes = this_thread().smem_bytes;
  if (last > smem_bytes)
    fail(loc, head + " covers shared addresses " + std::to_string(r.start) + " to " + std::to_string(last - 1) +
                  " (" + std::to_string(rows) + " rows, SBO " + std::to_string(r.sbo) + ", LBO " + std::to_string(r.lbo) +
                  "), past the block's " + std::to_string(smem_bytes) + " bytes of shared memory");
  return r;
}

// Decodes and checks the descriptor of an MN-major 16-bit operand of `rows`
// elements along MN and 16 along K: a swizzled layout, every byte inside the
// CTA's shared memory.
Desc decode_mn(uint64_t d, int rows, const char* which, const char* what, const SrcLoc& loc) {
  const std::string head = std::string(what) + ": the descriptor of MN-major " + which + " (" + hex(d) + ")";
  if ((d >> 62) == 0) fail(loc, head + " has no swizzle; the emulator models MN-major operands under a 32-, 64- or 128-byte swizzle only");
  const Desc r = fields(d, head, loc);
  const int per_row = r.span / 2;
  const uint32_t last = r.start + 7 * r.span + r.sbo + ((rows - 1) % per_row) * 2 + ((rows - 1) / per_row) * r.lbo + 2;
  if (last > this_thread().smem_bytes)
    fail(loc, head + " covers shared addresses " + std::to_string(r.start) + " to " + std::to_string(last - 1) + " (" + std::to_string(rows) +
                  " elements along MN, LBO " + std::to_string(r.lbo) + ", SBO " + std::to_string(r.sbo) + "), past the block's " +
                  std::to_string(this_thread().smem_bytes) + " bytes of shared memory");
  return r;
}

// The operand `rows` x K (K = 32 / sizeof(X): 16 or 32) as floats, row-major
// (out[row * K + k]).
template <class X>
void read_operand(const Desc& d, int rows, float* out, const SrcLoc& loc) {
  constexpr int per_chunk = 16 / static_cast<int>(sizeof(X)), K = 2 * per_chunk;
  const unsigned char* smem = this_thread().smem;
  const int w = d.span / 16;
  for (int row = 0; row < rows; ++row)
    for (int c = 0; c < 2; ++c) {
      const uint32_t lin = d.start + (row % 8) * d.span + (row / 8) * d.sbo + (c % w) * 16 + (c / w) * d.lbo;
      const unsigned char* p = smem + swizzle_address(lin, d.swizzle_bytes);
      race_access(p, 16, false, "a wgmma operand", loc);
      for (int e = 0; e < per_chunk; ++e) {
        X v;
        std::memcpy(&v, p + sizeof(X) * e, sizeof(X));
        out[row * K + c * per_chunk + e] = static_cast<float>(v);
      }
    }
}

// An MN-major 16-bit operand `rows` x 16 as floats, row-major (out[row * 16 + k]).
template <class X>
void read_operand_mn(const Desc& d, int rows, float* out, const SrcLoc& loc) {
  static_assert(sizeof(X) == 2, "MN-major wgmma operands are 16-bit");
  const unsigned char* smem = this_thread().smem;
  const int per_row = d.span / 2;  // elements along MN in one swizzle row
  for (int k = 0; k < 16; ++k)
    for (int row = 0; row < rows; row += 8) {  // 16 bytes: 8 consecutive elements along MN
      const uint32_t lin = d.start + (k % 8) * d.span + (k / 8) * d.sbo + (row % per_row) * 2 + (row / per_row) * d.lbo;
      const unsigned char* p = smem + swizzle_address(lin, d.swizzle_bytes);
      race_access(p, 16, false, "a wgmma operand", loc);
      for (int e = 0; e < 8; ++e) {
        X v;
        std::memcpy(&v, p + 2 * e, 2);
        out[(row + e) * 16 + k] = static_cast<float>(v);
      }
    }
}

// An operand read from shared memory through its descriptor, by element type.
void read_operand(WgmmaType t, const Desc& d, int rows, float* out, const SrcLoc& loc) {
  switch (t) {
    case WgmmaType::BF16: read_operand<__nv_bfloat16>(d, rows, out, loc); break;
    case WgmmaType::F16: read_operand<__half>(d, rows, out, loc); break;
    case WgmmaType::E4M3: read_operand<__nv_fp8_e4m3>(d, rows, out, loc); break;
    case WgmmaType::E5M2: read_operand<__nv_fp8_e5m2>(d, rows, out, loc); break;
  }
}

// wgmma RS: A (64 x K) from the 128 threads' registers, four 32-bit registers
// (32 bytes of K per row) each ("Register Fragments and Shared Memory Matrix
// Layouts", matrix A). Value v of thread t, with g = (t % 32) / 4 and
// q = t % 4, lies at row 16 (t / 32) + g + 8 r, column c:
//   16-bit (m64nNk16, 8 values):  r = (v / 2) % 2,  c = 2 q + v % 2 + 8 (v / 4);
//   8-bit  (m64nNk32, 16 values): r = (v / 4) % 2,  c = 4 q + v % 4 + 16 (v / 8).
// Each register holds 4 bytes of one row, so either way it is 32 / sizeof(X)
// consecutive columns of row g or g + 8, and the registers go (row g, k-low),
// (g + 8, k-low), (g, k-high), (g + 8, k-high).
template <class X>
void read_register_a(const WarpgroupExchange& x, float* out) {
  constexpr int per_reg = 4 / static_cast<int>(sizeof(X)), values = 4 * per_reg, K = 2 * values;
  for (int th = 0; th < 128; ++th) {
    const X* frag;
    std::memcpy(&frag, &x.slot[th][1], sizeof frag);
    const int lane = th % 32, warp = th / 32;
    for (int v = 0; v < values; ++v) {
      const int row = 16 * warp + lane / 4 + 8 * ((v / per_reg) % 2),
                col = per_reg * (lane % 4) + v % per_reg + (K / 2) * (v / (2 * per_reg));
      out[row * K + col] = static_cast<float>(frag[v]);
    }
  }
}

// A from registers, by element type.
void read_register_a(WgmmaType t, const WarpgroupExchange& x, float* out) {
  switch (t) {
    case WgmmaType::BF16: read_register_a<__nv_bfloat16>(x, out); break;
    case WgmmaType::F16: read_register_a<__half>(x, out); break;
    case WgmmaType::E4M3: read_register_a<__nv_fp8_e4m3>(x, out); break;
    case WgmmaType::E5M2: read_register_a<__nv_fp8_e5m2>(x, out); break;
  }
}

}  // namespace

void wgmma_m64n(int n, WgmmaType ta, WgmmaType tb, float* d, uint64_t desc_a, const void* a_regs, uint64_t desc_b,
                int32_t scale_d, const char* what, const SrcLoc& loc, bool b_mn_major) {
  WarpgroupExchange& x = this_warpgroup_exchange();
  const int t = this_thread().linear & 127;
  const bool rs = a_regs != nullptr;
  std::memcpy(&x.slot[t][0], &d, sizeof d);
  if (rs) std::memcpy(&x.slot[t][1], &a_regs, sizeof a_regs);
  else x.slot[t][1] = desc_a;
  x.slot[t][2] = desc_b;
  x.slot[t][3] = static_cast<uint64_t>(scale_d != 0);
  if (!warpgroup_sync(what, loc)) return;  // the last thread to arrive did the work

  for (int i = 1; i < 128; ++i)
    if ((!rs && x.slot[i][1] != x.slot[0][1]) || x.slot[i][2] != x.slot[0][2] || x.slot[i][3] != x.slot[0][3])
      fail(loc, std::string(what) + ": the threads of a warpgroup must pass the same descriptors and scale-d, but thread " +
                    std::to_string(i) + " of the warpgroup passes " + (rs ? std::string() : "A " + hex(x.slot[i][1]) + ", ") +
                    "B " + hex(x.slot[i][2]) + ", scale-d " + std::to_string(x.slot[i][3]) + " and thread 0 " +
                    (rs ? std::string() : "A " + hex(x.slot[0][1]) + ", ") + "B " + hex(x.slot[0][2]) + ", scale-d " +
                    std::to_string(x.slot[0][3]));
  const bool one_byte = ta == WgmmaType::E4M3 || ta == WgmmaType::E5M2;
  const int K = one_byte ? 32 : 16;
  const Desc db = b_mn_major ? decode_mn(desc_b, n, "B", what, loc) : decode(desc_b, n, "B", what, loc);
  std::vector<float> a(static_cast<size_t>(64) * K), b(static_cast<size_t>(n) * K), bt(static_cast<size_t>(n) * K),
      acc(static_cast<size_t>(64) * n, 0.0f);
  if (rs) {
    read_register_a(ta, x, a.data());
  } else {
    read_operand(ta, decode(desc_a, 64, "A", what, loc), 64, a.data(), loc);
  }
  if (!b_mn_major) read_operand(tb, db, n, b.data(), loc);
  else if (tb == WgmmaType::BF16) read_operand_mn<__nv_bfloat16>(db, n, b.data(), loc);
  else read_operand_mn<__half>(db, n, b.data(), loc);
  // The reads are the warpgroup's, not this thread's alone: wgmma.wait_group
  // is .sync.aligned, so on the GPU every thread of the warpgroup is ordered
  // after them (a warp whose lane 0 alone then arrives on an mbarrier, as
  // tileslc.pipeline's cluster mode does, releases them). The emulator reads
  // when issued, so the warpgroup meets again here; the other 127 threads
  // wait in warpgroup_sync and have done nothing since.
  if (g_racecheck) {
    int linear[128];
    const int first = this_thread().linear & ~127;
    for (int i = 0; i < 128; ++i) linear[i] = first + i;
    race_meet(linear, 128);
  }
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < K; ++k) bt[static_cast<size_t>(k) * n + j] = b[static_cast<size_t>(j) * K + k];
  // acc[m][j] = sum over k in order, vectorizable over j.
  for (int m = 0; m < 64; ++m) {
    float* row = acc.data() + static_cast<size_t>(m) * n;
    for (int k = 0; k < K; ++k) {
      const float av = a[static_cast<size_t>(m) * K + k];
      const float* bk = bt.data() + static_cast<size_t>(k) * n;
      for (int j = 0; j < n; ++j) row[j] += av * bk[j];
    }
  }
  const bool accumulate = x.slot[0][3] != 0;
  for (int th = 0; th < 128; ++th) {
    float* frag;
    std::memcpy(&frag, &x.slot[th][0], sizeof frag);
    const int lane = th % 32, warp = th / 32;
    for (int i = 0; i < n / 2; ++i) {
      const int row = 16 * warp + lane / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
      const float v = acc[static_cast<size_t>(row) * n + col];
      frag[i] = accumulate ? frag[i] + v : v;
    }
  }
}

}  // namespace tileslc::cpu
