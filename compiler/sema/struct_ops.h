// What the rest of sema asks of struct_ops.cpp (CuTe DSL's @cute.struct, issue 14).
#pragma once

#include "sema/value.h"

namespace tileslc::sema {

class Evaluator;

/// `cute.struct.MemRange[dtype, count]` and `cute.struct.Align[field, bytes]` (CuTe DSL
/// cute/struct.py), subscripted on `base`, the bound method value of either: the field's type as
/// a static marker (its arguments: the element type, the count, the alignment in bytes). E0401
/// at `r` for arguments of the wrong kind.
Value struct_field_type(Evaluator& ev, const Value& base, const Value& index, source::SourceRange r);

/// `Struct(base)` for a @cute.struct class `callee` (CuTe DSL cute/core.py, struct.__call__): the
/// struct viewed at `base`, a shared-memory byte pointer (SmemAllocator.allocate(nbytes)), its
/// fields laid out as CuTe DSL lays them out, each a shared-memory range over those bytes; `base`
/// is kept as the attribute `base`. nullopt when `callee` is no struct class (an ordinary call).
/// E0401 for another kind of base or argument list, E0603 when the struct does not fit in the
/// allocation behind `base`.
std::optional<Value> struct_construct(Evaluator& ev, const Value& callee, const std::vector<Value>& args, const Kwargs& kwargs,
                                      const ast::Call& site);

}  // namespace tileslc::sema
