// The warp-collective atoms beyond warp.h's, one header each, for the CPU
// emulation target: more mma.sync shapes (warp_mma_ext.h) and stmatrix
// (warp_stmatrix.h). Included by cpu/prelude.h.
#ifndef TILESLC_CPU_WARP_EXT_H
#define TILESLC_CPU_WARP_EXT_H

#include "tileslc/cpu/warp_mma_ext.h"
#include "tileslc/cpu/warp_stmatrix.h"

#endif  // TILESLC_CPU_WARP_EXT_H
