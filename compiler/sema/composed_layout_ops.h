// Layout-algebra builtins on composed (swizzled) layouts, CuTe's ComposedLayout
// `inner o offset o outer` (issue 14: CuTe DSL's tensorop_gemm tiles a swizzled
// shared-memory atom to its stage shape and sizes buffers by its cosize).
#pragma once

#include "sema/value.h"

namespace tileslc::sema {

class Evaluator;
struct BuiltinCall;

/// cute.tile_to_shape(composed, shape, order): the swizzle and offset kept, the outer layout
/// tiled to `shape` (CuTe: tile_to_shape of a ComposedLayout tiles its layout B). Argument 0 is
/// a composed layout. E0601 on a failed precondition (the shape not a multiple of the atom's).
Value composed_tile_to_shape(Evaluator& ev, BuiltinCall& c);

/// cute.cosize(composed, mode=): the outer layout's cosize (a swizzle permutes offsets within
/// its 2^(B+M+S)-element blocks, so it spans what the outer layout spans, as CuTe's cosize of a
/// ComposedLayout); mode= selects a mode of the outer layout first.
Value composed_cosize(Evaluator& ev, BuiltinCall& c);

}  // namespace tileslc::sema
