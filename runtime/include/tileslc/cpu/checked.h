// Bounds-checked tensor accesses for the CPU emulation target. With
// --target=cpu, codegen writes every element access `p[i]` as
// TILESLC_AT(p, i) and every element address `&p[i]` as TILESLC_ADDR(p, i).
// What `p` is decides the extent checked against:
//   - a kernel's global-memory parameter is a Span built by the host function
//     from the caller's TensorView (the offsets its elements occupy);
//   - a shared-memory tensor is a Span over its bytes of the CTA's shared
//     memory (sema's static allocation);
//   - a register fragment is a C array, whose size the type carries.
// An address is a Ptr: the pointer plus how many elements lie after it, so
// the operation that uses it (a 128-bit copy, cp.async, mma.sync) checks its
// whole width and alignment. A failed check reports the .tpy line through
// fail() and stops the run.
#ifndef TILESLC_CPU_CHECKED_H
#define TILESLC_CPU_CHECKED_H

#include <cstdint>
#include <string>

#include "tileslc/cpu/racecheck.h"
#include "tileslc/cpu/thread.h"
#include "tileslc/runtime.h"

namespace tileslc::cpu {

enum class Space : uint8_t { Global, Shared, Register };

inline const char* space_name(Space s) {
  return s == Space::Global ? "global" : s == Space::Shared ? "shared" : "register";
}

/// Elements at offsets [lo, hi) from `base` may be accessed. `name` is the
/// host tensor (global), the shared-memory tensor, or empty for a view whose
/// extent is unknown (then lo and hi are unbounded).
template <class T>
struct Span {
  T* base = nullptr;
  int64_t lo = 0, hi = 0;
  int64_t count = 0;  ///< elements of the tensor (hi - lo when compact)
  const char* name = "";
  Space space = Space::Global;
};

/// The global-memory span of a host function's tensor argument `t`: the
/// offsets from t.data that its elements occupy (any strides, negative ones
/// included; nothing for a tensor without elements).
template <class T>
Span<T> global_span(const TensorView& t, const char* name) {
  Span<T> s;
  s.base = static_cast<T*>(t.data);
  s.name = name;
  s.count = num_elements(t);
  if (s.count <= 0) return s;
  for (int m = 0; m < t.rank; ++m) {
    const int64_t last = (t.shape[m] - 1) * t.stride[m];
    (last < 0 ? s.lo : s.hi) += last;
  }
  s.hi += 1;
  return s;
}

/// A pointer argument that is not a host tensor (no extent to check against).
template <class T>
Span<T> unchecked_span(T* p) {
  return Span<T>{p, INT64_MIN / 2, INT64_MAX / 2, -1, "", Space::Global};
}

/// `bytes` bytes of the CTA's shared memory at `byte_offset`, as elements of T.
template <class T>
Span<T> shared_span(unsigned char* smem, int64_t byte_offset, int64_t bytes, const char* name) {
  const int64_t n = bytes / static_cast<int64_t>(sizeof(T));
  return Span<T>{reinterpret_cast<T*>(smem + byte_offset), 0, n, n, name, Space::Shared};
}

/// A thread's register fragment (a local array) as a span named as the kernel names it.
template <class T, size_t N>
Span<T> register_span(T (&a)[N], const char* name) {
  return Span<T>{a, 0, static_cast<int64_t>(N), static_cast<int64_t>(N), name, Space::Register};
}

/// An element address with what lies after it: `avail` elements may be
/// accessed from `p` on. Converts to T* for code that takes plain pointers.
template <class T>
struct Ptr {
  T* p;
  int64_t avail;
  const char* name;  ///< as written in the kernel
  int64_t index;     ///< the element offset taken
  Space space;
  SrcLoc loc;        ///< where the address was taken
  operator T*() const { return p; }
};

namespace detail {
[[noreturn]] void out_of_bounds(const SrcLoc& loc, Space space, const char* name, int64_t index, int64_t lo,
                                int64_t hi, int64_t count, const char* tensor);
}  // namespace detail

/// Element `i` of `s`, after checking it lies inside.
template <class T>
T& inside(const Span<T>& s, int64_t i, const char* name, const SrcLoc& loc) {
  if (i < s.lo || i >= s.hi) [[unlikely]]
    detail::out_of_bounds(loc, s.space, name, i, s.lo, s.hi, s.count, s.name);
  return s.base[i];
}

/// Element `i` of `s` read (TILESLC_AT), after checking it lies inside.
template <class T>
T& element(const Span<T>& s, int64_t i, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  T& e = inside(s, i, name, loc);
  if (s.space == Space::Shared) race_access(&e, sizeof(T), false, name, loc);
  return e;
}

/// Element `i` of `s` set to `v` (TILESLC_SET), after checking it lies inside.
template <class T, class V>
void store_element(const Span<T>& s, int64_t i, V&& v, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  T& e = inside(s, i, name, loc);
  if (s.space == Space::Shared) race_access(&e, sizeof(T), true, name, loc);
  e = static_cast<V&&>(v);
}
template <class T, size_t N>
T& element(T (&a)[N], int64_t i, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  if (i < 0 || i >= static_cast<int64_t>(N)) [[unlikely]]
    detail::out_of_bounds(loc, Space::Register, name, i, 0, N, N, "");
  return a[i];
}
template <class T, size_t N, class V>
void store_element(T (&a)[N], int64_t i, V&& v, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  element(a, i, name, loc) = static_cast<V&&>(v);
}

/// The address of element `i` (TILESLC_ADDR), which must lie inside.
template <class T>
Ptr<T> address(const Span<T>& s, int64_t i, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  inside(s, i, name, loc);
  return Ptr<T>{s.base + i, s.hi - i, name, i, s.space, loc};
}
template <class T, size_t N>
Ptr<T> address(T (&a)[N], int64_t i, const char* name, const SrcLoc& loc = SrcLoc::current()) {
  element(a, i, name, loc);
  return Ptr<T>{a + i, static_cast<int64_t>(N) - i, name, i, Space::Register, loc};
}

/// The pointer itself, from a Ptr or a plain pointer.
template <class T>
T* raw_pointer(const Ptr<T>& p) {
  return p.p;
}
template <class T>
T* raw_pointer(T* p) {
  return p;
}

/// Where an address was taken (plain pointers: here).
template <class T>
SrcLoc loc_of(const Ptr<T>& p) {
  return p.loc;
}
template <class T>
SrcLoc loc_of(T*, const SrcLoc& loc = SrcLoc::current()) {
  return loc;
}

/// Checks that `what` may touch `bytes` bytes at `p`, aligned to `align`.
void check_access(const void* p, int64_t avail_bytes, const char* name, int64_t index, Space space, const SrcLoc& loc,
                  int64_t bytes, int64_t align, const char* what);
template <class T>
T* checked(const Ptr<T>& p, int64_t bytes, int64_t align, const char* what) {
  check_access(p.p, p.avail * static_cast<int64_t>(sizeof(T)), p.name, p.index, p.space, p.loc, bytes, align, what);
  return p.p;
}
/// Plain pointers (from hand-written callers such as the unit tests) carry no
/// extent: nothing to check.
template <class T>
T* checked(T* p, int64_t, int64_t, const char*) {
  return p;
}

}  // namespace tileslc::cpu

/// p[i], p[i] = v and &p[i], checked (see the top of this file). The location is passed
/// here rather than left to the default argument: the code a default argument runs is
/// attributed to the line that declares it, so the kernel's line table would name this
/// header in the middle of a .tpy line and gdb's `next` would stop here (docs/debugging.md).
#define TILESLC_AT(P, I) (::tileslc::cpu::element(P, I, #P, ::tileslc::cpu::SrcLoc::current()))
#define TILESLC_SET(P, I, V) (::tileslc::cpu::store_element(P, I, V, #P, ::tileslc::cpu::SrcLoc::current()))
#define TILESLC_ADDR(P, I) (::tileslc::cpu::address(P, I, #P, ::tileslc::cpu::SrcLoc::current()))

#endif  // TILESLC_CPU_CHECKED_H
