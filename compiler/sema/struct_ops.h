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

}  // namespace tileslc::sema
