// Owns the swizzle validity rule (swizzle_rule.h).
#include "layout/swizzle_rule.h"

#include <cstdlib>

namespace tileslc::layout {

std::optional<std::string> swizzle_violation(const Swizzle& sw) {
  if (sw.bits < 0 || sw.base < 0 || sw.bits > 16 || sw.base > 16 || std::abs(sw.shift) < sw.bits ||
      std::abs(sw.shift) > 16)
    return "Sw<B,M,S> needs 0 <= B, M <= 16 and B <= |S| <= 16 (CuTe's Swizzle<B, M, S>), found " + sw.to_string();
  return std::nullopt;
}

}  // namespace tileslc::layout
