"""tileslc.reduction: reductions of one value per thread over a warp or a CTA, the building blocks
of the row kernels (softmax, RMSNorm, LayerNorm, row_reduce: samples/).

    from tileslc import reduction
    total = reduction.warp_reduce(partial, lambda a, b: a + b)            # every lane gets the warp's sum
    top = reduction.block_reduce(partial, max, sRed, warps=8)             # every thread gets the CTA's max

`combine` is any function of two values (a lambda, `max`, `min`), applied while compiling; it
must be associative and commutative (the butterfly pairs lanes in another order than a loop).

- warp_reduce(value, combine, width=32): a butterfly of `cute.arch.shuffle_sync_bfly` over
  groups of `width` lanes (a power of two, 2 to 32); each lane ends with its group's result.
- block_reduce(value, combine, sRed, warps): warp_reduce, then one value per warp through the
  shared tensor sRed (at least `warps` elements, one per warp of the CTA), then every thread
  combines the `warps` values itself (no second barrier after the read). It starts with a
  barrier so that sRed may be reused by consecutive reductions; every thread of the CTA must
  call it (it synchronizes the CTA).
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute

def warp_reduce(value, combine, width=...) -> Any:
    """`combine` over groups of `width` lanes (butterfly shuffles); every lane gets its group's result."""


def block_reduce(value, combine, sRed, warps) -> Any:
    """`combine` over the CTA's `warps` warps; every thread gets the result. sRed: >= warps shared elements."""


__all__ = ["cutlass", "cute", "warp_reduce", "block_reduce"]
