// gpu.tile_divisibility: the emulator test's driver (tests/emu/tile_divisibility_main.cpp) on a GPU:
// M = 192 runs and is checked, M = 100 is refused by the host function's divisibility check before
// the launch (issue 15, item 3: without the check the kernel reads past the tensor).
#include "../emu/tile_divisibility_main.cpp"
