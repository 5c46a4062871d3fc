"""tileslc.pipeline: producer/consumer pipelines over a ring of shared-memory stages (CuTe DSL's cutlass.pipeline).

Where CuTe DSL has pipeline objects this module has functions (its classes so far are the
groups: Agent and CooperativeGroup):

- a pipeline is a static tuple made once per kernel by a create function and passed back
  to every call (CuTe DSL: the PipelineTmaAsync object);
- a pipeline state (CuTe DSL: PipelineState, with .index and .phase) is a pair of run-time
  integers (index, phase) that the kernel keeps in two variables of its own and advances
  with `index, phase = advance(pipe, index, phase)` (CuTe DSL: state.advance()). Two plain
  integers, because a tuple cannot be rebound inside a run-time loop.

TMA pipeline (CUTLASS's PipelineTmaAsync, sm_90), one CTA (cluster_ctas = 1, the default):

    pipe = pipeline.make_pipeline_tma_async(smem, STAGES, consumer_arrive_count, tx_bytes)  # every thread
    if producer_thread:
        index, phase = pipeline.make_pipeline_state(pipeline.Producer, STAGES)
        for k in range(k_tiles):
            pipeline.producer_acquire(pipe, index, phase)
            cute.copy(tma_a, gA[None, None, k], sA[None, None, index],
                      tma_bar_ptr=pipeline.producer_get_barrier(pipe, index))
            pipeline.producer_commit(pipe, index)
            index, phase = pipeline.advance(pipe, index, phase)
    else:  # the consumer_arrive_count consumer threads
        index, phase = pipeline.make_pipeline_state(pipeline.Consumer, STAGES)
        for k in range(k_tiles):
            pipeline.consumer_wait(pipe, index, phase)
            ... read stage `index` of sA ...
            pipeline.consumer_release(pipe, index)
            index, phase = pipeline.advance(pipe, index, phase)

Each stage has a "full" mbarrier (arrival count 1: the producer's arrive_and_expect_tx, then
the TMA unit's transaction bytes complete it) and an "empty" one (arrival count
consumer_arrive_count: every consuming thread arrives once when it is done reading). The
producer starts at phase 1, so its first wait on each empty barrier passes at once (the
stages start empty); the consumers start at phase 0.

With a cluster whose blocks multicast into each other's stages (cluster_ctas = the blocks that
write into a stage: TMA multicast over a cluster of cluster_ctas blocks), CUTLASS's
PipelineTmaAsync with a cluster shape:
- tx_count is still the bytes that land in THIS block's shared memory per stage, whichever
  block's copy engine issued them (a multicast load completes its bytes on the barrier at the
  same offset in every block it writes);
- a stage may be overwritten only once the consumers of every block it is multicast to are done,
  so consumer_release arrives on the empty barrier of every block of the cluster. It does so
  once per warp (lane r arrives on block r's barrier): call it from every lane of every consumer
  warp once the whole warp is done with the stage (wgmma.wait_group is warp-synchronous), and
  give consumer_arrive_count in threads, a multiple of 32. The empty barrier's arrival count is
  consumer warps x cluster_ctas;
- make_pipeline_tma_async ends with a cluster barrier (every block's barriers are initialized
  before any block multicasts into them or arrives on them), and the producer must call
  producer_tail before it exits (a block must not exit while peers still signal its barriers).

cp.async multistage pipeline (sm_80's commit-group pattern; what samples/gemm_sm80 writes
out by hand): tiles of global memory (rows, cols, k-tiles) stream into shared-memory rings
(rows, cols, STAGES), one commit group per k-tile, STAGES - 1 k-tiles in flight:

    pipeline.cp_async_prologue(atom, thr_copy, (gA, gB), (sA, sB), k_begin, k_end, STAGES)
    for i in range(k_end - k_begin):
        stage = pipeline.cp_async_step(atom, thr_copy, (gA, gB), (sA, sB), i, k_begin, k_end, STAGES)
        ... read sA[None, None, stage], sB[None, None, stage] ...

cp_async_step waits for k-tile k_begin + i, then a CTA barrier (every thread is done reading
the stage the next load overwrites), then issues the load of k-tile k_begin + i + STAGES - 1.
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute
from tileslc.named_barrier import NamedBarrier

class Agent:
    """What takes part in a pipeline's synchronization (CuTe DSL's pipeline.Agent): an arbitrary
    group of threads, a warp, a thread block or a cluster's blocks."""

    def __getattr__(self, name: str) -> Any: ...

class CooperativeGroup:
    """`size` agents of one kind taking part in a pipeline (CuTe DSL's pipeline.CooperativeGroup:
    a producer or consumer group; `size` is the arrival count the group contributes). The
    deprecated `alignment` is accepted and ignored, as CuTe DSL does (it warns)."""

    def __getattr__(self, name: str) -> Any: ...

    def __init__(self, agent, size=..., alignment=...) -> None:
        ...

Producer: str
Consumer: str

def make_pipeline_tma_async(smem, num_stages, consumer_arrive_count, tx_count, cluster_ctas=...) -> Any:
    """A TMA pipeline of num_stages stages: allocates its full and empty mbarriers from the
    SmemAllocator `smem`, initializes them (thread 0) and synchronizes the CTA (with
    cluster_ctas > 1: the cluster), so call it from every thread, before the warps specialize.
    tx_count is the bytes one stage's TMA copies deliver into this block's shared memory;
    cluster_ctas the blocks of the cluster that multicast into each other's stages (1: none).
    Returns the pipeline (full, empty, num_stages, tx_count, cluster_ctas)."""


def make_pipeline_state(user_type, num_stages) -> Any:
    """The start state (index, phase) of a Producer (0, 1) or a Consumer (0, 0)."""


def advance(pipe, index, phase) -> Any:
    """The next state: index + 1, wrapping to 0 after the last stage and flipping the phase."""


def producer_acquire(pipe, index, phase) -> Any:
    """Waits until the consumers released stage `index`, then arms its full barrier for the
    stage's tx_count bytes (one producer thread calls it)."""


def producer_get_barrier(pipe, index) -> Any:
    """The full barrier of stage `index`, as cute.copy's tma_bar_ptr=(bars, index)."""


def producer_commit(pipe, index) -> Any:
    """Nothing to do for TMA: the copies' transaction bytes complete the full barrier
    (kept so that a producer loop reads as CUTLASS's acquire, copy, commit)."""


def producer_tail(pipe, index, phase) -> Any:
    """Waits until the consumers released every stage: a producer that must not exit while
    consumers still read its stages calls it after its last acquire (state after the last
    advance)."""


def consumer_wait(pipe, index, phase) -> Any:
    """Waits until stage `index` holds its data (its full barrier completed phase `phase`)."""


def consumer_release(pipe, index) -> Any:
    """This thread is done reading stage `index` (arrives on its empty barrier). With
    cluster_ctas > 1, this warp is done: lane r arrives on the empty barrier of block r of
    the cluster (call it from every lane of the warp)."""


def cp_async_load_stage(atom, thr_copy, g_tiles, s_tiles, k, stage) -> Any:
    """Issues the cp.async copies of k-tile k of each tensor in g_tiles (rows, cols, k-tiles) into
    stage `stage` of the matching ring in s_tiles (rows, cols, stages), partitioned by thr_copy."""


def cp_async_prologue(atom, thr_copy, g_tiles, s_tiles, k_begin, k_end, STAGES) -> Any:
    """Starts k-tiles k_begin .. k_begin + STAGES - 2 (those below k_end) into stages 0 .. STAGES - 2,
    one commit group each (empty groups past k_end, so that the group count stays fixed)."""


def cp_async_step(atom, thr_copy, g_tiles, s_tiles, i, k_begin, k_end, STAGES) -> Any:
    """Iteration i of the main loop: waits until k-tile k_begin + i has landed and every thread
    is done with iteration i - 1, starts k-tile k_begin + i + STAGES - 1 (if below k_end) into the
    stage iteration i - 1 read, and returns the stage holding k-tile k_begin + i."""


__all__ = ["cutlass", "cute", "NamedBarrier", "Agent", "CooperativeGroup", "Producer", "Consumer", "make_pipeline_tma_async", "make_pipeline_state", "advance", "producer_acquire", "producer_get_barrier", "producer_commit", "producer_tail", "consumer_wait", "consumer_release", "cp_async_load_stage", "cp_async_prologue", "cp_async_step"]
