// Internal to sema: the barrier uniformity check over a generated kernel's IR.
// __syncthreads() must be reached by every thread of the block (CUDA C++
// Programming Guide, "Synchronization Functions": in conditional code only if
// the condition evaluates identically across the entire thread block);
// threads that skip it leave the others waiting: a deadlock, undefined
// behaviour on the GPU.
#pragma once

#include "diag/diag.h"
#include "ir/ir.h"

namespace tileslc::sema {

/// W0702 at every CTA barrier (ir::Sync, cute.arch.sync_threads()) of `kernel`
/// that runs under control flow that may differ between the threads of a block:
/// an if, a loop bound or a loop condition, or an early return, break or
/// continue under one, that depends on a value not uniform across the block.
/// Not uniform: the thread index (threadIdx), lane and warp indices, elect_one,
/// values read from memory (loads, atomics, shuffles, votes, warp reductions),
/// and locals assigned from them or assigned under such control flow (a
/// fixpoint over loops). Uniform: constants, parameters, block and grid indices
/// and dimensions, cluster indices, and what is computed from them only. A
/// barrier already reported at the same place (another specialization) is not
/// reported again.
void check_barrier_uniformity(const ir::Kernel& kernel, diag::DiagnosticEngine& diags);

/// CuTe DSL's TMA election (cute/nvgpu/cpasync/copy.py: "the DSL automatically handles this by
/// implicitly adding elect_one() around the copy"): every TMA copy (load, store, reduce-add)
/// of `kernel` reached under control flow uniform across a warp (conditions on the warp index,
/// make_warp_uniform values, block indices, parameters, constants) is issued by one elected
/// lane, `if (elect_one())`, so a warp calling it issues one copy, not 32. A copy under a
/// condition that differs between the lanes of a warp (`if tidx == 0:`) is issued by every
/// thread that reaches it, as the program says: that is the tileslc pattern of one producer
/// thread. Run before codegen, after the kernel's body is complete.
void elect_warp_uniform_tma(ir::Kernel& kernel);

}  // namespace tileslc::sema
