# A module whose body fails while it is imported: the helper reads a misspelled name.
import cutlass.cute as cute


def tile_for(width):
    return widht * 2


TILE = tile_for(64)
