#!/usr/bin/env python3
"""gdb.tiled_copy: layouts, tensor views and register fragments of samples/tiled_copy in gdb.

Runs gdb in batch mode on tests/gdb/tiled_copy_main.cpp (elementwise_add built with
`tileslc --debug`, M = 18, N = 136, A[m][n] = 1000 m + n, B[m][n] = n / 2) with
tileslc-gdb.py loaded and checks what the printers show at tiled_copy.tpy:52
(`frgC.store(frgA.load() + frgB.load())`) in thread (5,0,0) of block (1,0,0):

- the layout parameters thr_layout (4,32):(32,1) and val_layout (4,4):(4,1) with
  their tables of offsets;
- blkA, the block's (16,128) tile of A: block 1 is tile (1, 0) (rows 16..31), so its
  origin is A[16][0] = offset 16 * 136 = 2176;
- thrA, thread 5's values of the tile: layout ((4,4),1,1):((1,136),0,0) from
  A[16][20] (offset 2196): row m = 16, 17 of the matrix hold 16020.., 17020..; rows
  18 and 19 are outside it, shown as '-';
- the register fragments frgA (the values copied from thrA), frgPred (true for
  the rows inside the matrix) and, after `next`, frgC = A + B (16030, 16031.5, ...);
- `tileslc barrier`: threads 0..4 of the block finished, 5 running, 6..127 not started;
- `tileslc switch thread=(6,0,0)` goes on to thread 6 at the same line, whose thrA
  starts at A[16][24] (offset 2200).

Usage: tiled_copy_gdb.py --script runtime/gdb/tileslc-gdb.py [--gdb gdb] PROGRAM
Exit 0 pass, 1 fail, 77 gdb is not installed (ctest reports the test skipped).
"""
import sys

import gdb_batch

# (section, gdb commands, regular expressions the section's output must match)
STEPS = [
    ("break", "tileslc break tiled_copy.tpy:52 thread=(5,0,0) block=(1,0,0)",
     [r"tileslc: breakpoint 1 at tiled_copy.tpy:52 in thread \(5,0,0\) of block \(1,0,0\)"]),
    ("run", "run", [r"at /\S*/samples/tiled_copy/tiled_copy.tpy:52\n", r"52\s+frgC.store\(frgA.load\(\) \+ frgB.load\(\)\)"]),
    ("thread", "tileslc thread", [r"^thread \(5,0,0\) block \(1,0,0\)$"]),
    ("thr_layout", "print thr_layout",
     [r'^\$\d+ = layout "thr_layout" \(4,32\):\(32,1\)\n +0 +1 +2 .* 31\n0: +0 +1 +2 .* 31\n1: +32 +33 .* 63\n'
      r'2: +64 .* 95\n3: +96 +97 .* 127$']),
    ("val_layout", "print val_layout",
     [r'^\$\d+ = layout "val_layout" \(4,4\):\(4,1\)\n +0 +1 +2 +3\n0: +0 +1 +2 +3\n1: +4 +5 +6 +7\n2: +8 +9 +10 +11\n'
      r'3: +12 +13 +14 +15$']),
    ("blkA", "print blkA",
     [r'^\$\d+ = global tensor "blkA" of const float, layout \(16,128\):\(136,1\), shape \(16,128\), 2048 elements, '
      r'origin mA\[2176\] = \{16000, 17000, 16001, 17001\.\.\.\}$']),
    ("thrA", "print thrA",
     [r'^\$\d+ = global tensor "thrA" of const float, layout \(\(4,4\),1,1\):\(\(1,136\),0,0\), shape \(\(4,4\),1,1\), '
      r'16 elements, origin mA\[2196\]\n +0 +1 +2 +3\n0: 16020 17020 +- +-\n1: 16021 17021 +- +-\n'
      r'2: 16022 17022 +- +-\n3: 16023 17023 +- +-$']),
    ("origin", "print tl_thrA_offset", [r"^\$\d+ = 2196$"]),
    ("frgA", "print frgA",
     [r'^\$\d+ = register fragment "frgA" of float, layout \(\(4,4\),1,1\):\(\(1,4\),16,16\), shape \(\(4,4\),1,1\), '
      r'16 elements, origin frgA\[0\]\n +0 +1 +2 +3\n0: 16020 17020 .*\n1: 16021 17021 .*\n2: 16022 17022 .*\n'
      r'3: 16023 17023 ']),
    ("frgPred", "print frgPred",
     [r'^\$\d+ = register fragment "frgPred" of bool, .*\n +0 +1 +2 +3\n0: +true +true +false +false\n'
      r'1: +true +true +false +false\n2: +true +true +false +false\n3: +true +true +false +false$']),
    ("barrier", "tileslc barrier",
     [r"^block \(1,0,0\): 128 threads: 1 running, 122 not started, 5 finished$", r"^  finished: 5: \(0\.\.4,0,0\)$",
      r"^  running: 1: \(5,0,0\)$", r"^  not started: 122: \(6\.\.127,0,0\)$"]),
    ("next", "next", [r"^53\s+cute.copy\(copy_atom, frgC, thrC, pred=frgPred\)$"]),
    ("frgC", "print frgC",
     [r'^\$\d+ = register fragment "frgC" of float, .*\n +0 +1 +2 +3\n0: +16030 +17030 .*\n1: +16031\.5 +17031\.5 .*\n'
      r'2: +16033 +17033 .*\n3: +16034\.5 +17034\.5 ']),
    ("here", "tileslc switch thread=(5,0,0) block=(1,0,0)", [r"^tileslc: already in thread \(5,0,0\) block \(1,0,0\)$"]),
    ("switch", "tileslc switch thread=(6,0,0) block=(1,0,0)\ntileslc thread\nprint tidx\nprint tl_thrA_offset",
     [r"^53\s+cute.copy", r"^thread \(6,0,0\) block \(1,0,0\)\n\$\d+ = 6\n\$\d+ = 2200$"]),
    ("finished", "python\ntry:\n  gdb.execute('tileslc switch thread=(2,0,0) block=(1,0,0)')\nexcept gdb.error as e:\n  print(e)\nend",
     [r"^tileslc switch: thread \(2,0,0\) of block \(1,0,0\) has finished$"]),
]


if __name__ == "__main__":
    sys.exit(gdb_batch.main(STEPS, __doc__))
