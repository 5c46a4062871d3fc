// TMA tile copies for the CPU emulation target (PTX ISA, "cp.async.bulk.tensor",
// "cp.reduce.async.bulk.tensor", "Tensor Access Modes: Tiled mode, Bounding
// Box, Swizzling modes"; CUDA C++ Programming Guide, "Asynchronous Data
// Copies using the Tensor Memory Accelerator"). A 2-D box of box[0] x box[1]
// elements at coordinates (c0, c1) of the tensor map, or a 3-D one of
// box[0] x box[1] x box[2] at (c0, c1, c2); in shared memory the box
// is dense, box[0] elements per row, each 16-byte chunk moved by the map's
// swizzle of its shared-memory address. Box elements outside the tensor read
// as zero (NaN with the NaN fill) and are not written by stores, as on the
// GPU. A multicast load writes the box into each CTA of its cluster mask
// and completes its bytes on each one's mbarrier. Reported: a map
// cuTensorMapEncodeTiled never wrote, a map whose rank is not the
// instruction's, a shared-memory box that leaves the CTA's shared memory or is not
// 128-byte aligned, and a box that lies entirely outside the tensor (the GPU
// would silently move nothing: a wrong tile coordinate), except for loads in
// a kernel launched with clusters (see in_cluster()).
#include <atomic>
#include <cstring>
#include <string>

#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/cluster.h"
#include "tileslc/cpu/sm90.h"
#include "tileslc/cpu/tensor_map.h"
#include "tileslc/cpu/types.h"

namespace tileslc::cpu {

namespace {

// The decoded map of `desc`, checked for what every tile copy of a
// `rank`-D box needs (the instruction's .dim is the map's rank).
TensorMap map_of(const void* desc, int rank, const char* op, const SrcLoc& loc) {
  TensorMap m;
  if (!desc || !decode_tensor_map(desc, &m))
    fail(loc, std::string(op) + ": the tensor map was not made by cuTensorMapEncodeTiled (or was overwritten)");
  if (m.rank != rank)
    fail(loc, std::string(op) + " of a " + std::to_string(rank) + "-D box with a rank-" + std::to_string(m.rank) + " tensor map");
  return m;
}

// "the 64 x 64 box at row 128, column 0 of the 64 x 192 tensor": rows are the
// map's second dimension, columns its innermost; a rank-3 map adds the batch
// ("..., batch 2 of the 64 x 192 x 3 tensor").
std::string box_text(const TensorMap& m, const TmaCoords& c) {
  std::string box = std::to_string(m.box[1]) + " x " + std::to_string(m.box[0]);
  std::string dims = std::to_string(m.dim[1]) + " x " + std::to_string(m.dim[0]);
  std::string at = "row " + std::to_string(c[1]) + ", column " + std::to_string(c[0]);
  for (int i = 2; i < m.rank; ++i) {
    box += " x " + std::to_string(m.box[i]);
    dims += " x " + std::to_string(m.dim[i]);
    at += ", batch " + std::to_string(c[i]);
  }
  return "the " + box + " box at " + at + " of the " + dims + " tensor";
}

// Bytes of the box in shared memory; the whole box counts for complete_tx,
// out-of-bounds elements included (PTX ISA, "complete_tx").
int64_t box_bytes(const TensorMap& m) {
  int64_t n = m.elem_bytes;
  for (int i = 0; i < m.rank; ++i) n *= m.box[i];
  return n;
}

// Checks the shared-memory side and the coordinates; returns the box's
// shared-memory address. A box entirely outside the tensor is reported
// unless `may_be_outside`.
uint32_t check_box(const TensorMap& m, const void* smem, const TmaCoords& c, const char* op, const std::string& smem_name,
                   const SrcLoc& loc, bool may_be_outside = false) {
  const std::string what = std::string(op) + "'s shared-memory box (" + smem_name + ")";
  const uint32_t addr = shared_address(smem, box_bytes(m), what.c_str(), loc);
  if (addr % 128 != 0)
    fail(loc, what + " must be 128-byte aligned, found shared address " + std::to_string(addr));
  bool outside = false;
  for (int i = 0; i < m.rank; ++i)
    outside = outside || int64_t{c[i]} + m.box[i] <= 0 || c[i] >= static_cast<int64_t>(m.dim[i]);
  if (outside && !may_be_outside) fail(loc, std::string(op) + ": " + box_text(m, c) + " lies entirely outside it");
  return addr;
}

// Calls f(shared-memory byte address, global element address or null when
// outside the tensor, bytes) for each 16-byte chunk of the box, or each
// element of a chunk that straddles the tensor's edge. The box is dense in
// shared memory, dimension 0 innermost; each row (one index per outer
// dimension) starts at its global address base + sum (c[i] + r[i]) * stride[i - 1].
template <class F>
void for_each_chunk(const TensorMap& m, uint32_t smem_addr, const TmaCoords& c, F f) {
  const int64_t row_bytes = int64_t{m.box[0]} * m.elem_bytes, per_chunk = 16 / m.elem_bytes;
  int64_t rows = 1;
  for (int i = 1; i < m.rank; ++i) rows *= m.box[i];
  for (int64_t r = 0; r < rows; ++r) {
    bool row_in = true;
    int64_t row_offset = 0;
    for (int64_t i = 1, rest = r; i < m.rank; rest /= m.box[i], ++i) {
      const int64_t g = int64_t{c[i]} + rest % m.box[i];
      row_in = row_in && g >= 0 && g < static_cast<int64_t>(m.dim[i]);
      row_offset += g * static_cast<int64_t>(m.stride[i - 1]);
    }
    const unsigned char* row = row_in ? m.base + row_offset : nullptr;
    for (int64_t chunk = 0; chunk < row_bytes / 16; ++chunk) {
      const int64_t g0 = int64_t{c[0]} + chunk * per_chunk;
      const uint32_t s = swizzle_address(static_cast<uint32_t>(smem_addr + r * row_bytes + chunk * 16), m.swizzle_bytes);
      if (row_in && g0 >= 0 && g0 + per_chunk <= static_cast<int64_t>(m.dim[0])) {
        f(s, row + g0 * m.elem_bytes, 16);
        continue;
      }
      for (int64_t e = 0; e < per_chunk; ++e) {
        const bool in = row_in && g0 + e >= 0 && g0 + e < static_cast<int64_t>(m.dim[0]);
        f(s + static_cast<uint32_t>(e * m.elem_bytes), in ? row + (g0 + e) * m.elem_bytes : nullptr, m.elem_bytes);
      }
    }
  }
}

// dst += src for one element of the map's type (cp.reduce.async.bulk .add),
// atomically: CTAs on other host threads may add to the same element.
template <class T>
void add_as(unsigned char* dst, const unsigned char* src) {
  T v;
  std::memcpy(&v, src, sizeof v);
  T* p = reinterpret_cast<T*>(dst);
  if constexpr (std::is_arithmetic_v<T>) {
    std::atomic_ref<T> r(*p);
    T old = r.load();
    while (!r.compare_exchange_weak(old, static_cast<T>(old + v))) {
    }
  } else {  // __half, __nv_bfloat16: the sum in float, rounded to nearest even
    std::atomic_ref<uint16_t> r(*reinterpret_cast<uint16_t*>(p));
    uint16_t old = r.load();
    while (!r.compare_exchange_weak(
        old, bits_as<uint16_t>(T(static_cast<float>(bits_as<T>(old)) + static_cast<float>(v))))) {
    }
  }
}

using AddFn = void (*)(unsigned char*, const unsigned char*);

// The element-wise add of a tensor map's data type; null when the emulator
// has none (CUtensorMapDataType values, see tileslc/cpu/cuda/cuda.h).
AddFn adder(uint8_t data_type) {
  switch (data_type) {
    case 2: return &add_as<uint32_t>;
    case 3: return &add_as<int32_t>;
    case 4: return &add_as<uint64_t>;
    case 5: return &add_as<int64_t>;
    case 6: return &add_as<__half>;
    case 7: return &add_as<float>;
    case 8: return &add_as<double>;
    case 9: return &add_as<__nv_bfloat16>;
  }
  return nullptr;
}

}  // namespace

namespace {

// The box at shared-memory address `addr` of the CTA whose shared memory
// starts at `base`, read from the tensor (checked by the caller).
void load_box(const TensorMap& m, unsigned char* base, uint32_t addr, const TmaCoords& c, const SrcLoc& loc) {
  const unsigned char fill = m.nan_fill ? 0xFF : 0x00;  // all-ones bits are NaN in every float type
  for_each_chunk(m, addr, c, [&](uint32_t s, const unsigned char* g, int bytes) {
    race_access(base + s, bytes, true, "a TMA load", loc);
    if (g) std::memcpy(base + s, g, bytes);
    else std::memset(base + s, fill, bytes);
  });
}

// In a cluster, a block whose tile lies past the tensor's edge still takes
// part in its cluster's loads (a cluster tile that is only partly in the
// tensor: tileslc.utils.tile_scheduler with cluster_m > 1, CUTLASS's
// schedulers alike); its box is all zeros and completes its bytes, as on the
// GPU. Without clusters such a box is a wrong tile coordinate, reported.
bool in_cluster() { return this_thread().cluster_ctas > 1; }

}  // namespace

void tma_load(void* smem, const void* desc, uint64_t* bar, int rank, const TmaCoords& c, const std::string& dst_name,
              const std::string& bar_name, const SrcLoc& loc) {
  const std::string op = "TMA load (cp.async.bulk.tensor." + std::to_string(rank) + "d)";
  const TensorMap m = map_of(desc, rank, op.c_str(), loc);
  const uint32_t addr = check_box(m, smem, c, op.c_str(), dst_name, loc, in_cluster());
  shared_address(bar, 8, "a TMA load's mbarrier", loc);
  load_box(m, this_thread().smem, addr, c, loc);
  mbarrier_complete_tx(bar, box_bytes(m), bar_name, loc);
}

void tma_load_multicast(void* smem, const void* desc, uint64_t* bar, int rank, const TmaCoords& c, uint32_t mask,
                        const std::string& dst_name, const std::string& bar_name, const SrcLoc& loc) {
  const std::string op_text = "TMA multicast load (cp.async.bulk.tensor." + std::to_string(rank) + "d.multicast::cluster)";
  const char* op = op_text.c_str();
  const TensorMap m = map_of(desc, rank, op, loc);
  const uint32_t addr = check_box(m, smem, c, op, dst_name, loc, in_cluster());
  shared_address(bar, 8, "a TMA load's mbarrier", loc);
  check_cta_mask(mask, op, loc);
  const ThreadCtx& t = this_thread();
  // The box lands everywhere before any barrier completes: a consumer that
  // wakes on its barrier finds the data (the GPU gives no order between
  // CTAs; this one is the simplest that is allowed).
  for (int32_t r = 0; r < t.cluster_ctas; ++r) {
    if (!((mask >> r) & 1u)) continue;
    peer_shared(smem, box_bytes(m), r, op, loc);  // the peer has not exited
    load_box(m, t.cluster_smem[r], addr, c, loc);
  }
  for (int32_t r = 0; r < t.cluster_ctas; ++r) {
    if (!((mask >> r) & 1u)) continue;
    auto* peer_bar = reinterpret_cast<uint64_t*>(peer_shared(bar, 8, r, op, loc));
    mbarrier_complete_tx(peer_bar, box_bytes(m), r == t.cluster_rank ? bar_name : bar_name + " of block rank " + std::to_string(r),
                         loc);
  }
}

void tma_store(const void* desc, const void* smem, int rank, const TmaCoords& c, bool reduce_add, const std::string& src_name,
               const SrcLoc& loc) {
  const std::string dims = std::to_string(rank) + "d";
  const std::string op_text = reduce_add ? "TMA reduce-add (cp.reduce.async.bulk.tensor." + dims + ")" : "TMA store (cp.async.bulk.tensor." + dims + ")";
  const char* op = op_text.c_str();
  const TensorMap m = map_of(desc, rank, op, loc);
  const uint32_t addr = check_box(m, smem, c, op, src_name, loc);
  AddFn add = nullptr;
  if (reduce_add && !(add = adder(m.data_type)))
    fail(loc, std::string(op) + ": no emulated add for the tensor map's data type " + std::to_string(m.data_type));
  unsigned char* base = this_thread().smem;
  // Performed at the bulk wait_group.read that covers it: reads shared memory then.
  this_thread().bulk_open.push_back([m, addr, c, add, base, loc] {
    for_each_chunk(m, addr, c, [&](uint32_t s, const unsigned char* g, int bytes) {
      race_access(base + s, bytes, false, "a TMA store", loc);
      if (!g) return;
      unsigned char* dst = const_cast<unsigned char*>(g);
      if (!add) {
        std::memcpy(dst, base + s, bytes);
        return;
      }
      for (int e = 0; e < bytes; e += m.elem_bytes) add(dst + e, base + s + e);
    });
  });
}

void bulk_commit_group() {
  ThreadCtx& t = this_thread();
  t.bulk_groups.push_back(std::move(t.bulk_open));
  t.bulk_open.clear();
}

void bulk_wait_group_read(size_t n) {
  ThreadCtx& t = this_thread();
  while (t.bulk_groups.size() > n) {
    for (auto& op : t.bulk_groups.front()) op();
    t.bulk_groups.pop_front();
  }
}

}  // namespace tileslc::cpu
