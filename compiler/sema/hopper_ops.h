// What the rest of sema asks of hopper_ops.cpp (CuTe DSL's sm_90 layout vocabulary, issue 14).
#pragma once

#include <optional>
#include <string>

#include "sema/value.h"

namespace tileslc::sema {

class Evaluator;

/// A composed layout's parts, as CuTe DSL's ComposedLayout has them: `.inner` (the swizzle, a bare
/// composed layout), `.offset`, `.outer` (the layout) and `.shape` (the outer layout's); nullopt
/// for other attributes.
std::optional<Value> composed_layout_attribute(Evaluator& ev, const Value& v, const std::string& attr, source::SourceRange r);

}  // namespace tileslc::sema
