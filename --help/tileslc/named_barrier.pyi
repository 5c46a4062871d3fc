"""tileslc.named_barrier: CuTe DSL's cutlass.pipeline.NamedBarrier, a hardware named barrier
(PTX `bar.sync id, count`) synchronizing `num_threads` threads of the CTA.

An instance is a static object made while compiling (in `__init__` of a kernel class, or in a
kernel); its methods emit the barrier:

    barrier = pipeline.NamedBarrier(barrier_id=1, num_threads=256)
    ...
    barrier.arrive_and_wait()      # bar.sync 1, 256

barrier_id is 0 to 15 (0 is the one __syncthreads uses); num_threads a positive multiple of
32 up to 1024 (cute.arch.barrier checks both). `arrive` alone (PTX bar.arrive) is not provided yet.
"""

from typing import Any

from tileslc import cute as cute

class NamedBarrier:
    def __getattr__(self, name: str) -> Any: ...

    def __init__(self, barrier_id, num_threads) -> None:
        ...


    def arrive_and_wait(self) -> Any:
        """Every one of num_threads threads arrives and waits for the others (bar.sync)."""


    def wait(self) -> Any:
        """As CuTe DSL: waits for num_threads threads, counting this one (bar.sync)."""


    def sync(self) -> Any:
        """arrive_and_wait (CuTe DSL's alias)."""


    def arrive(self) -> Any:
        ...


    def get_barrier(self) -> Any:
        """The hardware barrier's id."""


__all__ = ["cute", "NamedBarrier"]
