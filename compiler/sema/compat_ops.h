// CuTe DSL compatibility (issue 14): what the rest of sema asks of the
// names compat_ops.cpp owns. CuTe DSL's type names (cute.Layout, cute.Shape,
// cutlass.Numeric, ...) checked against the values annotated with them; its
// enums (utils.LayoutEnum, cute.nvgpu.LoadCacheMode, cute.AddressSpace), whose
// members are static markers; and the tensor attributes CuTe DSL has beyond
// shape/stride/layout (`.type`, `.memspace`).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "sema/value.h"

namespace tileslc::sema {

class Evaluator;
struct BuiltinCall;

/// Whether `v` may be passed where type name `id` (a builtins.def type-name row, or cute.Tensor)
/// is the annotation; nullopt when `id` is no type name. Loose, as CuTe DSL's own checks are:
/// cute.Shape takes an integer (static or run-time) or a tuple of them, cute.Layout a layout or a
/// composed one, cutlass.Numeric a number, a run-time scalar or a scalar type.
std::optional<bool> type_name_accepts(BuiltinId id, const Value& v);

/// Checks argument `arg` of function `fn` (a helper or kernel of module `module`) against its
/// parameter's annotation when that annotation names a CuTe DSL type (cute.Layout, cute.Tensor,
/// ...): E0401 at `at` naming the expected and the found kind, with the annotation labelled.
/// Other annotations (typing's, scalar types, strings) are not evaluated.
void check_annotated_argument(Evaluator& ev, const std::shared_ptr<ModuleValue>& module, const std::string& fn,
                              const ast::Param& p, const Value& arg, source::SourceRange at);

/// `Enum.MEMBER` of a CuTe DSL enum builtin (LayoutEnum.ROW_MAJOR): a static marker; nullopt
/// when `base` is no enum or has no such member.
std::optional<Value> enum_member(const Value& base, const std::string& attr);

/// The member name of a CuTe DSL enum member ("ACCUMULATE" of warpgroup.Field.ACCUMULATE) when
/// `v` is a member of the enum `enum_id`; "" otherwise.
std::string enum_member_name(const Value& v, BuiltinId enum_id);

/// CuTe DSL's tensor attributes beyond shape/stride/layout/element_type: `.type` (the tensor's
/// type as CuTe DSL prints it), `.memspace` (a cute.AddressSpace member); nullopt for others.
std::optional<Value> compat_tensor_attribute(const Value& t, const std::string& attr);

/// cute.domain_offset's tensor: `t` with its origin moved to `coord` (layout(coord) elements
/// further; a coordinate tensor's origin coordinate moves by it), its layout unchanged. `coord`
/// may be run-time; `r` locates the offset's arithmetic.
TensorValue offset_origin(Evaluator& ev, const TensorValue& t, const Value& coord, source::SourceRange r);

/// range()'s and cutlass.range()'s positional (start, stop, step): 1 to 3 arguments (E0405
/// otherwise), symbols resolved to their run-time values, start 0 and step 1 by default.
std::array<Value, 3> range_bounds(Evaluator& ev, BuiltinCall& c);

}  // namespace tileslc::sema
