// Driver of operator_semantics.tpy (tests emu.semantics.*): runs one group of
// run-time operators, named by the argument, and compares every result with
// its definition bit for bit:
//   shifts              PTX's clamping shl/shr (tileslc::dev::shl, shr): a
//                       count of the width or more (or negative) gives 0, or
//                       the sign for a signed >>; C++ leaves it undefined and
//                       x86 masks the count (1 << 32 == 1);
//   float_floordiv_mod  Python's float // and % (CPython's values, computed
//                       in Python and written here in hex), in Float64 and
//                       in Float32 (Python's rules on the Float32 operands);
//   range_limits        range() loops whose bounds reach Int32's or Int64's
//                       limit run max(0, ceil((stop - start) / step)) times
//                       (the `i < stop; i += step` form overflowed and hung).
// Prints "semantics <group>: all checks passed" when every result matches.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "operator_semantics.h"
#include "sample_util.h"

namespace {

template <class T>
struct Buffer {
  std::vector<T> host;
  tileslc::DeviceBuffer dev;
  explicit Buffer(std::vector<T> v) : host(std::move(v)) {
    CHECK_OK(dev.allocate(host.size() * sizeof(T)));
    CHECK_OK(dev.copy_from_host(host.data(), host.size() * sizeof(T)));
  }
  void download() { CHECK_OK(dev.copy_to_host(host.data(), host.size() * sizeof(T))); }
  tileslc::TensorView view(tileslc::DType dt) const {
    return tileslc::make_tensor_view(dev.data(), dt, {static_cast<int64_t>(host.size())});
  }
};

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

int wrong = 0;
template <class T>
void expect(const char* what, int i, T got, T want) {
  if (same_bits(got, want)) return;
  ++wrong;
  if constexpr (std::is_floating_point_v<T>)  // %a: every bit, the sign of a zero too
    std::printf("  %s case %d: got %a, expected %a\n", what, i, static_cast<double>(got), static_cast<double>(want));
  else
    std::printf("  %s case %d: got %s, expected %s\n", what, i, std::to_string(got).c_str(),
                std::to_string(want).c_str());
}

// PTX's shl/shr on the count read as unsigned.
int32_t ref_shl(int32_t v, int32_t c) {
  return static_cast<uint32_t>(c) >= 32 ? 0 : static_cast<int32_t>(static_cast<uint32_t>(v) << c);
}
int32_t ref_shr(int32_t v, int32_t c) { return static_cast<uint32_t>(c) >= 32 ? (v < 0 ? -1 : 0) : v >> c; }
uint32_t ref_ushr(uint32_t v, uint32_t c) { return c >= 32 ? 0 : v >> c; }
int64_t ref_shl64(int64_t v, int64_t c) {
  return static_cast<uint64_t>(c) >= 64 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(v) << c);
}
int64_t ref_shr64(int64_t v, int64_t c) { return static_cast<uint64_t>(c) >= 64 ? (v < 0 ? -1 : 0) : v >> c; }

void check_shifts() {
  const int32_t values[] = {1, -8, INT32_MIN, INT32_MAX, 0x12345678};
  const int32_t counts[] = {0, 1, 4, 31, 32, 33, 63, 64, 65, 100, -1, INT32_MIN};
  std::vector<int32_t> v, c;
  for (int32_t x : values)
    for (int32_t n : counts) v.push_back(x), c.push_back(n);
  const size_t n = v.size();
  Buffer<int32_t> bv(v), bc(c), shl{std::vector<int32_t>(n)}, shr{std::vector<int32_t>(n)};
  Buffer<uint32_t> ushr{std::vector<uint32_t>(n)};
  Buffer<int64_t> shl64{std::vector<int64_t>(n)}, shr64{std::vector<int64_t>(n)};
  using D = tileslc::DType;
  CHECK_OK(shifts(bv.view(D::Int32), bc.view(D::Int32), shl.view(D::Int32), shr.view(D::Int32), ushr.view(D::Uint32),
                  shl64.view(D::Int64), shr64.view(D::Int64)));
  CHECK(cudaDeviceSynchronize());
  shl.download(), shr.download(), ushr.download(), shl64.download(), shr64.download();
  for (size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(i);
    expect("v << c", k, shl.host[i], ref_shl(v[i], c[i]));
    expect("v >> c", k, shr.host[i], ref_shr(v[i], c[i]));
    expect("Uint32 v >> c", k, ushr.host[i], ref_ushr(static_cast<uint32_t>(v[i]), static_cast<uint32_t>(c[i])));
    expect("Int64 v << c", k, shl64.host[i], ref_shl64(v[i], c[i]));
    expect("Int64 v >> c", k, shr64.host[i], ref_shr64(v[i], c[i]));
  }
  // The cases the issue names: 1 << 32 == 0 (x86's masked count gives 1), INT_MIN >> 40 == -1.
  expect("1 << 32", 0, ref_shl(1, 32), 0);
  expect("INT_MIN >> 40", 0, ref_shr(INT32_MIN, 40), -1);
}

struct FloatCase {
  double a, b, q, m;
  float q32, m32;
};
// Python: a // b and a % b, then the same on the Float32-rounded operands.
const FloatCase kFloatCases[] = {
    {0x1.4p+3, 0x1.999999999999ap-4, 0x1.8cp+6, 0x1.9999999999972p-4, 0x1.8cp+6f,
     0x1.999972p-4f},                                                                           // 10.0 // 0.1 == 99.0
    {0x1.cp+2, -0x1p-1, -0x1.cp+3, -0.0, -0x1.cp+3f, -0.0f},                                    // 7.0 % -0.5 == -0.0
    {-0x1.4p+2, 0x1.8p+1, -0x1p+1, 0x1p+0, -0x1p+1f, 0x1p+0f},                                  // -5.0 % 3.0 == 1.0
    {0x1.4p+2, -0x1.8p+1, -0x1p+1, -0x1p+0, -0x1p+1f, -0x1p+0f},                                // 5.0 % -3.0 == -1.0
    {-0x1.ep+2, 0x1p+1, -0x1p+2, 0x1p-1, -0x1p+2f, 0x1p-1f},                                    // -7.5 // 2.0 == -4.0
    {0.0, -0x1.8p+1, -0.0, -0.0, -0.0f, -0.0f},                                                 // 0.0 // -3.0 == -0.0
    {-0.0, 0x1.8p+1, -0.0, 0.0, -0.0f, 0.0f},                                                   // -0.0 % 3.0 == 0.0
    {0x1.4p+2, INFINITY, 0.0, 0x1.4p+2, 0.0f, 0x1.4p+2f},                                       // 5.0 // inf == 0.0
    {-0x1.4p+2, INFINITY, -0x1p+0, INFINITY, -0x1p+0f, INFINITY},                               // -5.0 % inf == inf
    {0x1p+0, 0x1.999999999999ap-4, 0x1.2p+3, 0x1.9999999999996p-4, 0x1.2p+3f, 0x1.999996p-4f},  // 1.0 // 0.1 == 9.0
    {-0x1p+0, 0x1.999999999999ap-4, -0x1.4p+3, 0x1p-54, -0x1.4p+3f, 0x1p-26f},                  // -1.0 // 0.1 == -10.0
    {0x1.3333333333333p-2, 0x1.999999999999ap-4, 0x1p+1, 0x1.9999999999998p-4, 0x1.8p+1f,
     0x1p-27f},  // 0.3 // 0.1 == 2.0
};

void check_float_floordiv_mod() {
  std::vector<double> a, b;
  for (const auto& c : kFloatCases) a.push_back(c.a), b.push_back(c.b);
  const size_t n = a.size();
  Buffer<double> ba(a), bb(b), q{std::vector<double>(n)}, m{std::vector<double>(n)};
  Buffer<float> q32{std::vector<float>(n)}, m32{std::vector<float>(n)};
  using D = tileslc::DType;
  CHECK_OK(float_floordiv_mod(ba.view(D::Float64), bb.view(D::Float64), q.view(D::Float64), m.view(D::Float64),
                              q32.view(D::Float32), m32.view(D::Float32)));
  CHECK(cudaDeviceSynchronize());
  q.download(), m.download(), q32.download(), m32.download();
  for (size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(i);
    expect("Float64 a // b", k, q.host[i], kFloatCases[i].q);
    expect("Float64 a % b", k, m.host[i], kFloatCases[i].m);
    expect("Float32 a // b", k, q32.host[i], kFloatCases[i].q32);
    expect("Float32 a % b", k, m32.host[i], kFloatCases[i].m32);
  }
}

// Python's len(range(start, stop, step)) and its last element.
template <class T>
void ref_range(T start, T stop, T step, int64_t& n, int64_t& last, int64_t last_before) {
  n = 0;
  last = last_before;
  __int128 i = start;
  while (step > 0 ? i < stop : i > stop) ++n, last = static_cast<int64_t>(i), i += step;
}

void check_range_limits() {
  struct Case {
    int32_t start, stop, step;
    int64_t start64, stop64, step64;
  };
  const Case cases[] = {
      {INT32_MAX - 10, INT32_MAX, 4, INT64_MAX - 10, INT64_MAX, 4},        // 3 each; the next i would pass the limit
      {INT32_MIN + 10, INT32_MIN, -4, INT64_MIN + 10, INT64_MIN, -4},      // the same downwards
      {0, 10, 3, 0, 10, 3},                                                // 4
      {10, 0, -3, 10, 0, -3},                                              // 4
      {5, 5, 2, 5, 5, 2},                                                  // none
      {0, 10, -1, 0, 10, -1},                                              // none: the step points away
      {INT32_MIN, INT32_MAX, INT32_MAX, INT64_MIN, INT64_MAX, INT64_MAX},  // 3 each
      {-5, 7, 1000, -5, 7, 1000},                                          // 1
  };
  int k = 0;
  for (const Case& c : cases) {
    Buffer<int64_t> out{std::vector<int64_t>(6, -7)};
    CHECK_OK(range_limits(out.view(tileslc::DType::Int64), c.start, c.stop, c.step, c.start64, c.stop64, c.step64));
    CHECK(cudaDeviceSynchronize());
    out.download();
    int64_t n = 0, last = 0;
    expect("range(2**31 - 11, 2**31 - 1, 4) iterations", k, out.host[0], int64_t{3});
    expect("range(2**31 - 11, 2**31 - 1, 4) last", k, out.host[1], int64_t{INT32_MAX - 2});
    ref_range<int32_t>(c.start, c.stop, c.step, n, last, INT32_MAX - 2);
    expect("Int32 range iterations", k, out.host[2], n);
    expect("Int32 range last", k, out.host[3], last);
    ref_range<int64_t>(c.start64, c.stop64, c.step64, n, last, 0);
    expect("Int64 range iterations", k, out.host[4], n);
    expect("Int64 range last", k, out.host[5], last);
    ++k;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string group = argc > 1 ? argv[1] : "";
  if (group == "shifts")
    check_shifts();
  else if (group == "float_floordiv_mod")
    check_float_floordiv_mod();
  else if (group == "range_limits")
    check_range_limits();
  else {
    std::fprintf(stderr, "usage: %s shifts|float_floordiv_mod|range_limits\n", argv[0]);
    return 2;
  }
  if (wrong) {
    std::printf("semantics %s: %d wrong\n", group.c_str(), wrong);
    return 1;
  }
  std::printf("semantics %s: all checks passed\n", group.c_str());
  return 0;
}
