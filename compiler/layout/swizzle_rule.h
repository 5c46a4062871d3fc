// The one validity rule for CuTe swizzles, shared by every place that makes
// one (cute.make_swizzle in sema, the Sw<B,M,S> notation of `tileslc layout`).
#pragma once

#include <optional>
#include <string>

#include "layout/layout.h"

namespace tileslc::layout {

/// Why Sw<B,M,S> is not a swizzle CuTe accepts, or nullopt if it is. CuTe's
/// Swizzle<B, M, S> (cute/swizzle.hpp) static_asserts B >= 0, M >= 0 and
/// |S| >= B (the XORed bit ranges must not overlap); we also bound each field
/// by 16 so offsets stay far below 2^63 (a 2^48-element swizzle span).
std::optional<std::string> swizzle_violation(const Swizzle& sw);

}  // namespace tileslc::layout
