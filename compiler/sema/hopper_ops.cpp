// CuTe DSL's sm_90 layout vocabulary (issue 14, what dense_gemm.py asks of
// cutlass.utils.hopper_helpers before its kernel runs): the warpgroup MMA's
// operand major modes (cute.nvgpu.warpgroup.OperandMajorMode, with
// LayoutEnum.sm90_mma_major_mode()), the shared-memory layout atoms a wgmma
// reads (SmemLayoutAtomKind, make_smem_layout_atom), and a composed layout's
// parts (inner, offset, outer). hopper_helpers itself is .tpy over these
// (stdlib/tileslc/utils/hopper_helpers.tpy).
#include "sema/hopper_ops.h"

#include "sema/compat_ops.h"
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

namespace {

/// A member of an enum row (`OperandMajorMode.K`); the member exists (the enum table in compat_ops.cpp).
Value member(BuiltinId enum_id, const char* name) { return *enum_member(Value::make_builtin(enum_id), name); }

/// The member name of an enum marker ("K_SW128" of SmemLayoutAtomKind.K_SW128); "" for other values.
std::string member_name(const Value& v, BuiltinId enum_id) {
  if (v.kind() != Value::Kind::Marker || v.builtin() != enum_id) return "";
  return v.s().substr(v.s().find('.') + 1);
}

int log2_exact(int64_t x) {
  int n = 0;
  while ((int64_t(1) << n) < x) ++n;
  return n;
}

}  // namespace

/// LayoutEnum.sm90_mma_major_mode() (CuTe DSL utils/layout.py): a row-major operand (A as (M, K),
/// B as (N, K)) is K-major for the warpgroup MMA, a column-major one MN-major.
Value hopper_sm90_mma_major_mode(Evaluator& ev, BuiltinCall& c) {
  const Value& self = c.self();
  if (self.kind() != Value::Kind::Marker || self.builtin() != BuiltinId::LayoutEnum)
    ev.fail(diag::Kind::NoSuchAttribute, c.site.range, c.name() + "() is a method of LayoutEnum members, not of " + describe(self));
  return member(BuiltinId::OperandMajorMode, self.s() == "LayoutEnum.ROW_MAJOR" ? "K" : "MN");
}

/// cute.nvgpu.warpgroup.make_smem_layout_atom(kind, element_type) (CuTe's GMMA::Layout_{K,MN}_{INTER,
/// SW32,SW64,SW128}_Atom, in elements): a K-major atom is 8 rows of 16, 32, 64 or 128 contiguous
/// bytes, (8, bytes*8/width):(bytes*8/width, 1); an MN-major one the transpose, (bytes*8/width, 8):
/// (1, bytes*8/width); composed with Swizzle<B, M, 3> where B is 0, 1, 2, 3 for those widths and
/// M = log2(16 bytes in elements) keeps 16-byte chunks whole. E0401 for a kind that is no member
/// or an element type whose width does not divide 16 bytes.
Value hopper_make_smem_layout_atom(Evaluator& ev, BuiltinCall& c) {
  const std::string kind = member_name(c[0], BuiltinId::SmemLayoutAtomKind);
  if (kind.empty())
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a cute.nvgpu.warpgroup.SmemLayoutAtomKind, found " + describe(c[0]));
  if (c[1].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "() takes an element type second, found " + describe(c[1]));
  const int64_t width = ir::bit_width(c[1].type());
  if (width <= 0 || 128 % width != 0)
    ev.fail(diag::Kind::TypeMismatch, c.range(1), c.name() + "(): elements of " + std::to_string(width) + " bits do not tile 16-byte chunks");
  const bool mn = kind.rfind("MN_", 0) == 0;
  const std::string sw = kind.substr(kind.find('_') + 1);
  const int bits = sw == "SW128" ? 3 : sw == "SW64" ? 2 : sw == "SW32" ? 1 : 0;
  const int64_t row = (int64_t(16) << bits) * 8 / width;  // contiguous elements per row
  layout::ComposedLayout out;
  out.swizzle = layout::Swizzle{bits, log2_exact(128 / width), 3};
  out.offset = layout::Int(0);
  using layout::IntTuple;
  auto pair = [](int64_t a, int64_t b) { return IntTuple::tuple({IntTuple(a), IntTuple(b)}); };
  out.layout = mn ? layout::make_layout(pair(row, 8), pair(1, row)) : layout::make_layout(pair(8, row), pair(row, 1));
  return Value::of(out);
}

std::optional<Value> composed_layout_attribute(Evaluator& ev, const Value& v, const std::string& attr, source::SourceRange r) {
  const layout::ComposedLayout& cl = v.composed();
  if (attr == "inner") {
    layout::ComposedLayout sw;
    sw.swizzle = cl.swizzle;
    sw.layout = layout::make_layout(layout::IntTuple(0));  // no layout: a bare swizzle, as cute.make_swizzle makes
    return Value::of(sw);
  }
  if (attr == "offset") return ev.int_value(cl.offset, r);
  if (attr == "outer") return Value::of(cl.layout);
  if (attr == "shape") return ev.from_int_tuple(cl.layout.shape, r);
  return std::nullopt;
}

}  // namespace tileslc::sema
