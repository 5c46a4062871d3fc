"""tileslc.utils.tile_scheduler: a static persistent tile scheduler with grouped rasterization
(CuTe DSL's cutlass.utils.StaticPersistentTileScheduler, as functions: .tpy has no classes).

A persistent grid launches about one CTA per SM; CTA b walks the linear tile indices
b, b + grid, b + 2 * grid, ... below tiles_m * tiles_n. tile_coords maps a linear index to
an output tile (bm, bn) in groups of group_m tile rows: consecutive indices walk down a
column of group_m tiles, then step to the next column, so the CTAs running at one time
share rows of A and columns of B in L2 (the last group has fewer rows when group_m does
not divide tiles_m; group_m = 1 is a plain row-major walk).

    # host (@cute.jit)
    params = tile_scheduler.make_params(M // BM, N // BN, GROUP_M)
    kernel(...).launch(grid=tile_scheduler.get_grid_shape(params), ...)
    # kernel: every CTA, any number of roles
    sched = tile_scheduler.create(tile_scheduler.make_params(tiles_m, tiles_n, GROUP_M))
    start, stop, step = tile_scheduler.work_range(sched)
    for tile in range(start, stop, step):
        bm, bn = tile_scheduler.tile_coords(sched, tile)

With thread-block clusters of cluster_m blocks along M (make_params(..., cluster_m=2) and a
launch with cluster=(cluster_m, 1, 1)), the unit of work is a cluster tile: cluster_m output
tiles stacked along M that share their N tile (the blocks of a cluster multicast B to each
other). The linear indices walk cluster tiles (cluster c takes c, c + clusters, ...), group_m
counts tile rows (group_m // cluster_m cluster-tile rows per group), and tile_coords gives the
block of rank r in its cluster the tile (cluster_row * cluster_m + r, bn). When cluster_m does
not divide tiles_m, the last cluster's upper blocks get bm >= tiles_m: they still take part in
the cluster's loads (their own A rows are out of bounds, which TMA fills with zeros) and must
not store (tile_in_bounds). Every block of a cluster walks the same number of tiles.

or, CuTe DSL's loop shape: tile = initial_work(sched); while is_valid(sched, tile): ...;
tile = advance(sched, tile). Mapping: PersistentTileSchedulerParams -> make_params,
StaticPersistentTileScheduler.create(params, block_idx, grid_dim) -> create(params),
initial_work_tile_info() -> initial_work, work_tile.is_valid_tile -> is_valid,
advance_to_next_work() + get_current_work() -> advance, work_tile.tile_idx -> tile_coords.
"""

from typing import Any

import tileslc as cutlass
from tileslc import cute as cute

def make_params(tiles_m, tiles_n, group_m, cluster_m=...) -> Any:
    """The problem in tiles: tiles_m x tiles_n output tiles, rasterized in groups of group_m tile
    rows; cluster_m blocks of a cluster along M take cluster_m stacked tiles together."""


def num_tiles(params) -> Any:
    """The units of work: tiles_m * tiles_n output tiles, or with cluster_m > 1
    ceil(tiles_m / cluster_m) * tiles_n cluster tiles."""


def get_grid_shape(params) -> Any:
    """(host) The persistent grid: one CTA per SM, at most one per tile (with cluster_m > 1:
    as many whole clusters as the GPU runs at once, at most one per cluster tile; GPCs need
    not hold a multiple of cluster_m SMs, so that can be fewer than SMs // cluster_m)."""


def create(params) -> Any:
    """(kernel) This CTA's scheduler: (params, first unit = block_idx.x, stride = grid_dim.x);
    with cluster_m > 1 its cluster's: (params, cluster_idx.x, cluster_dim.x)."""


def work_range(sched) -> Any:
    """(start, stop, step) of this CTA's linear tile indices, for `for tile in range(start, stop, step)`."""


def initial_work(sched) -> Any:
    """This CTA's first linear tile index."""


def is_valid(sched, tile) -> Any:
    """Whether `tile` is a tile of the problem (false once the CTA is done)."""


def advance(sched, tile) -> Any:
    """This CTA's next linear tile index after `tile`."""


def tile_coords(sched, tile) -> Any:
    """The output tile (bm, bn) of linear index `tile`, grouped rasterization (this block's
    tile of the cluster tile with cluster_m > 1: bm may then be tiles_m or more, see
    tile_in_bounds)."""


def tile_in_bounds(sched, bm) -> Any:
    """Whether tile row bm (from tile_coords) is inside the problem: false only for the upper
    blocks of the last cluster when cluster_m does not divide tiles_m."""


__all__ = ["cutlass", "cute", "make_params", "num_tiles", "get_grid_shape", "create", "work_range", "initial_work", "is_valid", "advance", "tile_coords", "tile_in_bounds"]
