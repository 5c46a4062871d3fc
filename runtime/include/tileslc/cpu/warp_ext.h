// The warp-collective atoms beyond warp.h's, one header each, for the CPU
// emulation target: more mma.sync shapes (warp_mma_ext.h), stmatrix
// (warp_stmatrix.h), redux.sync and packed 16-bit atomic adds (warp_redux.h).
// Included by cpu/prelude.h.
#ifndef TILESLC_CPU_WARP_EXT_H
#define TILESLC_CPU_WARP_EXT_H

#include "tileslc/cpu/warp_mma_ext.h"
#include "tileslc/cpu/warp_redux.h"
#include "tileslc/cpu/warp_stmatrix.h"

#endif  // TILESLC_CPU_WARP_EXT_H
