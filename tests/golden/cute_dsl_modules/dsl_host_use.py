# A CuTe DSL-style module whose kernel helper calls a host-only function (torch.randn):
# importing it is fine, compiling the kernel that reaches the call is E0307.
import torch

import cutlass
import cutlass.cute as cute


@cute.kernel
def noise_kernel(gX: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    gX[tidx] = torch.randn(1)


@cute.jit
def fill(mX: cute.Tensor):
    noise_kernel(mX).launch(grid=(1, 1, 1), block=(32, 1, 1))
