"""tileslc.utils.row_tiling: rows of a row-major (M, COLS) tensor dealt to threads in 128-bit vectors,
for memory-bound row kernels (RMSNorm, LayerNorm, softmax: samples/rmsnorm, samples/layernorm).

A row has COLS / VEC vectors of 16 bytes (VEC = 4 Float32, 8 BFloat16 values); the threads owning a
row (tpr of them) take vector j = (chunk * vectors + k) * tpr + t, k < vectors, so a warp's
accesses are 512 consecutive bytes and each thread has `vectors` 16-byte loads in flight. A round
of tpr vectors is a tiled copy (make_tiled_copy_tv of a 128-bit CopyUniversalOp atom, threads
(tpr,), values (VEC,)) over a zipped_divide of the row by tpr * VEC; when the rounds do not fill
the row, each vector is the atom over a zipped_divide by VEC, the last round guarded.

plan(cols, vec) picks, while compiling, who owns a row:
- a warp (tpr = 32, 8 rows per CTA of 256 threads) when a lane holds the row in <= MAX_VECTORS
  vectors: a reduction is 5 shuffles, no shared memory, no barrier;
- the CTA (128 to 512 threads) while the row still fits in registers that way: shuffles, then one
  value per warp through shared memory;
- beyond that (Float32 COLS > 16384, BFloat16 > 32768) a CTA of 512 threads that walks the row in
  `chunks` chunks of 4 vectors per thread (the kernel decides how often it reads it).
It returns (threads per CTA, threads per row, vectors per thread per chunk, chunks). COLS is any
multiple of VEC from 256: the vectors past the last full round are guarded at run time, and only
when COLS / VEC is not a multiple of what a round covers (a static test).

RowVectors(cols, dtype, plan) (made inside a kernel) knows this thread's row and vectors:
    rv = row_tiling.RowVectors(cols, gX.element_type, row_tiling.plan(cols, vec))
    if rv.row_in(rows):                      # False only past the last row of a warp-per-row CTA
        frg = rv.fragment(gX.element_type)   # (VEC, vectors) registers
        rv.load(gX[rv.row, None], 0, frg)    # chunk 0 of the row; slots past its end are 0 (pad=)
        total = rv.reduce(partial, lambda a, b: a + b, sRed)
        rv.store(frg, gY[rv.row, None], 0)
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute
from tileslc import reduction
MAX_VECTORS: int
WARP_ROWS_THREADS: int
LOOP_THREADS: int
LOOP_VECTORS: int

def plan(cols, vec) -> Any:
    """(threads per CTA, threads per row, vectors per thread per chunk, chunks) for rows of `cols`."""


class RowVectors:
    def __getattr__(self, name: str) -> Any: ...

    def __init__(self, cols, dtype, row_plan) -> None:
        ...


    def row_in(self, rows) -> Any:
        """Whether this thread's row exists (always, statically, when a CTA owns one row)."""


    def fragment(self, dtype) -> Any:
        """Registers for one chunk: (VEC, vectors) values of `dtype`."""


    def index(self, chunk, k) -> Any:
        """The row's vector number of slot k of chunk `chunk`."""


    def valid(self, chunk, k) -> Any:
        """Whether slot k of chunk `chunk` is a vector of the row (static True when full)."""


    def vector(self, gRow, chunk, k) -> Any:
        """This thread's slot k of chunk `chunk` of gRow (COLS,): a (VEC,) tensor. When the rounds
        fill the row, the tiled copy's partition of round chunk * vectors + k (zipped_divide by
        TPR * VEC); else vector index(chunk, k) of a zipped_divide by VEC (a round may be partial)."""


    def load(self, gRow, chunk, frg, pad=...) -> Any:
        """This thread's vectors of chunk `chunk` of gRow (COLS,) into frg; slots past the row get
        `pad` (0 adds nothing to a sum, -inf nothing to a maximum or a sum of exponentials)."""


    def store(self, frg, gRow, chunk) -> Any:
        """frg into this thread's vectors of chunk `chunk` of gRow (COLS,)."""


    def reduce(self, value, combine, sRed) -> Any:
        """`combine` over the threads of the row; every one gets the result. sRed: >= threads / 32
        shared Float32 (unused by a warp per row). Every thread of the CTA calls it."""


__all__ = ["cutlass", "cute", "reduction", "MAX_VECTORS", "WARP_ROWS_THREADS", "LOOP_THREADS", "LOOP_VECTORS", "plan", "RowVectors"]
