#!/usr/bin/env python3
"""gdb.vector_add: steps through samples/vector_add at its .tpy lines in gdb.

Runs gdb in batch mode on tests/gdb/vector_add_main.cpp (vector_add built with
`tileslc --debug`, A[i] = i / 2, B[i] = i / 4, N = 2000) with tileslc-gdb.py
loaded, and checks what each command prints: the breakpoint at vector_add.tpy:28
stops in thread (5,0,0) of block (1,0,0), whose first element is
i = base = 1 * 1024 + 5 = 1029; `tidx`, `bidx`, `bdim`, `n` and `base` are locals;
the tensor gA prints through the pretty-printer and gA[i] is A[1029] = 514.5; `next`
goes to line 26 (the `for v` of the next unrolled iteration, where
sums_0 = A[1029] + B[1029] = 771.75), then 27 (`i = base + v * bdim`, v = 1) and
28 again (i = 1029 + 256 = 1285), never into the runtime's files.

Usage: vector_add_gdb.py --script runtime/gdb/tileslc-gdb.py [--gdb gdb] PROGRAM
(DEBUG builds name the .tpy by its absolute path, so gdb shows its lines from any directory).
Exit 0 pass, 1 fail, 77 gdb is not installed (ctest reports the test skipped).
"""
import sys

import gdb_batch

# (section, gdb commands, regular expressions the section's output must match)
STEPS = [
    ("break", "tileslc break vector_add.tpy:28 thread=(5,0,0) block=(1,0,0)",
     [r"tileslc: breakpoint 1 at vector_add.tpy:28 in thread \(5,0,0\) of block \(1,0,0\)"]),
    ("run", "run",
     [r"Breakpoint 1, tileslc_kernels::vector_add::add_kernel \(", r"at /\S*/samples/vector_add/vector_add.tpy:28\n",
      r"28\s+sums = sums \+ \(gA\[i\] \+ gB\[i\],\)"]),
    ("thread", "tileslc thread", [r"^thread \(5,0,0\) block \(1,0,0\)$"]),
    ("tidx", "print tidx", [r"^\$\d+ = 5$"]),
    ("bidx", "print bidx", [r"^\$\d+ = 1$"]),
    ("bdim", "print bdim", [r"^\$\d+ = 256$"]),
    ("n", "print n", [r"^\$\d+ = 2000$"]),
    ("base", "print base", [r"^\$\d+ = 1029$"]),
    ("i", "print i", [r"^\$\d+ = 1029$"]),
    ("indices", "print tl_thread_idx\nprint tl_block_idx\nprint tl_warp_idx\nprint tl_lane_idx",
     [r"= \{x = 5, y = 0, z = 0\}\n.*= \{x = 1, y = 0, z = 0\}\n.*= 0\n.*= 5$"]),
    ("tensor", "print gA",
     [r'^\$\d+ = global tensor "mA" of const float: 2000 elements, offsets \[0, 2000\) = \{0, 0.5, 1, 1.5\.\.\.\}$']),
    ("element", "print gA[i]\nprint gB[i]", [r"^\$\d+ = 514.5\n\$\d+ = 257.25$"]),
    ("outside", "python\ntry:\n  gdb.execute('print gA[2000]')\nexcept gdb.error:\n  pass\nend", [r'offset 2000 is outside the tensor "mA" \(offsets \[0, 2000\)\)']),
    ("next1", "next", [r"^26\s+for v in cutlass.range_constexpr\(VALUES\):$"]),
    ("where1", "python print(gdb.selected_frame().find_sal().symtab.filename, gdb.selected_frame().name())",
     [r"^/\S*/samples/vector_add/vector_add.tpy tileslc_kernels::vector_add::add_kernel$"]),
    ("sum", "print sums_0\nprint v", [r"^\$\d+ = 771.75\n\$\d+ = 0$"]),
    ("next2", "next", [r"^27\s+i = base \+ v \* bdim$"]),
    ("v", "print v\nprint i", [r"^\$\d+ = 1\n\$\d+ = 1029$"]),
    ("next3", "next", [r"^28\s+sums = sums \+ \(gA\[i\] \+ gB\[i\],\)$"]),
    ("i2", "print i\ntileslc thread", [r"^\$\d+ = 1285\nthread \(5,0,0\) block \(1,0,0\)$"]),
]


if __name__ == "__main__":
    sys.exit(gdb_batch.main(STEPS, __doc__))
