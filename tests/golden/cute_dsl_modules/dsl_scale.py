# A module in CuTe DSL's own style, imported unchanged by the goldens import_cute_dsl_*.tpy:
# CuTe DSL's import forms, host-only modules (used only under __main__), a kernel and a
# helper that launches it on the caller's stream.
import argparse
import time
from typing import Type

import cuda.bindings.driver as cuda
import torch

import cutlass
import cutlass.cute as cute
import cutlass.cute.testing as testing
import cutlass.pipeline as pipeline
import cutlass.torch as cutlass_torch
import cutlass.utils as utils
from cutlass.cute.nvgpu import cpasync, warp, warpgroup
from cutlass.cute.runtime import from_dlpack

print("importing", __name__)
THREADS = 128
DEFAULT_STREAM = cuda.CUstream(cuda.CUstream_flags.CU_STREAM_DEFAULT)  # a host value; unused, so no error


@cute.kernel
def scale_kernel(gX: cute.Tensor, gY: cute.Tensor, alpha: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * THREADS + tidx
    if i < cute.size(gY):
        gY[i] = gX[i] * alpha


def scale(mX: cute.Tensor, mY: cute.Tensor, alpha: cutlass.Constexpr, stream: cuda.CUstream):
    n = cute.size(mY)
    scale_kernel(mX, mY, alpha).launch(grid=(cute.ceil_div(n, THREADS), 1, 1), block=(THREADS, 1, 1), stream=stream)


def run(n: int, dtype: Type[cutlass.Numeric] = cutlass.Float32):
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    scale(from_dlpack(x), from_dlpack(y), 2.0, cuda.CUstream(torch.cuda.current_stream().cuda_stream))
    torch.testing.assert_close(y, x * 2.0)


if __name__ == "__main__":
    print("__main__ ran while compiling")
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1024)
    args = parser.parse_args()
    start = time.time()
    run(args.n)
