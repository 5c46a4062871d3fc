// <cuda_fp8.h> for the CPU emulation target: this directory goes first on the
// include path of code built for --target=cpu, so unchanged sources that
// include CUDA's headers get the host definitions instead.
#pragma once
#include "tileslc/cpu/types.h"
