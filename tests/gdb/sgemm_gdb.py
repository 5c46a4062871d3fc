#!/usr/bin/env python3
"""gdb.sgemm: shared-memory views, register fragments and threads at a barrier in samples/sgemm.

Runs gdb in batch mode on tests/gdb/sgemm_main.cpp (sgemm built with `tileslc --debug`,
M = N = 128, K = 16: one block of 256 threads, two k-tiles of 8; A[m][k] = m,
B[n][k] = 1) with tileslc-gdb.py loaded and checks, at sgemm.tpy:98 (the
`sync_threads()` that ends the first k-tile) in thread (5,0,0), tx = 5, ty = 0:

- acc, the thread's (8,8) fragment of partial sums, as a table: rows ty*4 + {0..3} and
  64 + ty*4 + {0..3} of C after 8 k's: 8 m = 0, 8, 16, 24, 512, 520, 528, 536;
- a, the (8) fragment of A's values it last read: 0 1 2 3 64 65 66 67;
- sA, the (128,8):(1,132) shared-memory tile; tAsA, thread 5's 4 values of it: row 2
  (5 // 2), k = 4..7 (4 * (5 % 2)): origin 2 + 4 * 132 = 530, all A[2][k] = 2;
- gA, the local_tile of mA: (128,8,2):(16,1,8);
- `tileslc barrier`: threads 0..4 and 255 wait at the __syncthreads() of line 98 (255
  arrived last at line 87's and ran on), 6..254 are released from line 87 and not
  resumed yet, 5 runs;
- `tileslc switch thread=(3,0,0)`, a thread waiting at that barrier: its frames follow
  frame 0 (`bt`: the runtime's barrier_sync, then its kernel frame at line 98), and its
  kernel frame is selected: tx = 3, its tAsA at sA[529] (row 1, k = 4..7, all 1); thread
  (200,0,0), released from line 87's barrier: k = 0; back to thread 5;
- `next` over the barrier comes back to thread 5 at line 84 (the k loop), then 85,
  while the others wait at line 87 again.

Usage: sgemm_gdb.py --script runtime/gdb/tileslc-gdb.py [--gdb gdb] PROGRAM
Exit 0 pass, 1 fail, 77 gdb is not installed (ctest reports the test skipped).
"""
import sys

import gdb_batch

SYNC = r"waiting at __syncthreads\(\), /\S*/samples/sgemm/sgemm.tpy:%d"

# (section, gdb commands, regular expressions the section's output must match)
STEPS = [
    ("break", "tileslc break sgemm.tpy:98 thread=(5,0,0)",
     [r"tileslc: breakpoint 1 at sgemm.tpy:98 in thread \(5,0,0\) of block any"]),
    ("run", "run", [r"at /\S*/samples/sgemm/sgemm.tpy:98\n", r"98\s+cute.arch.sync_threads\(\)"]),
    ("locals", "print k\nprint tx\nprint ty", [r"^\$\d+ = 0\n\$\d+ = 5\n\$\d+ = 0$"]),
    ("acc", "print acc",
     [r'^\$\d+ = register fragment "acc" of float, layout \(8,8\):\(1,8\), shape \(8,8\), 64 elements, origin acc\[0\]\n'
      r' +0 +1 +2 +3 +4 +5 +6 +7\n0:( +0){8}\n1:( +8){8}\n2:( +16){8}\n3:( +24){8}\n4:( +512){8}\n5:( +520){8}\n'
      r'6:( +528){8}\n7:( +536){8}$']),
    ("a", "print a",
     [r'^\$\d+ = register fragment "a" of float, layout \(8\):\(1\), shape \(8\), 8 elements, origin a\[0\]\n'
      r' +0 +1 +2 +3 +4 +5 +6 +7\n0: +0 +1 +2 +3 +64 +65 +66 +67$']),
    ("sA", "print sA",
     [r'^\$\d+ = shared tensor "sA" of float, layout \(128,8\):\(1,132\), shape \(128,8\), 1024 elements, '
      r'origin sA\[0\] = \{0, 1, 2, 3\.\.\.\}$']),
    ("tAsA", "print tAsA",
     [r'^\$\d+ = shared tensor "tAsA" of float, layout \(\(4,1\),1,1\):\(\(132,0\),0,0\), shape \(\(4,1\),1,1\), '
      r'4 elements, origin sA\[530\]\n +0\n0: 2\n1: 2\n2: 2\n3: 2$']),
    ("gA", "print gA",
     [r'^\$\d+ = global tensor "gA" of const float, layout \(128,8,2\):\(16,1,8\), shape \(128,8,2\), 2048 elements, '
      r'origin mA\[0\]']),
    ("barrier", "tileslc barrier",
     [r"^block \(0,0,0\): 256 threads: 1 running, 6 waiting, 249 ready$",
      r"^  " + SYNC % 98 + r": 6: \(0\.\.4,0,0\), \(255,0,0\)$", r"^  running: 1: \(5,0,0\)$",
      r"^  ready \(released, not resumed yet\): 249: \(6\.\.254,0,0\)$"]),
    # A suspended thread where it waits: its frames follow frame 0 (unwound from its fiber's saved registers).
    ("switch", "tileslc switch thread=(3,0,0)\ntileslc thread\nprint tx\nprint tl_tAsA_offset\nprint tAsA",
     [r"^tileslc: thread \(3,0,0\) block \(0,0,0\) waits at __syncthreads\(\), /\S*/samples/sgemm/sgemm.tpy:98; "
      r"its frames follow frame 0 until the program resumes\n#4 +0x[0-9a-f]+ in tileslc_kernels::sgemm::sgemm_kernel \(.*\n"
      r"98\s+cute.arch.sync_threads\(\)\nthread \(3,0,0\) block \(0,0,0\)\n\$\d+ = 3\n\$\d+ = 529\n"
      r'\$\d+ = shared tensor "tAsA" of float, .*, origin sA\[529\]\n +0\n0: 1\n1: 1\n2: 1\n3: 1$']),
    ("switch_bt", "bt 5",
     [r"^#0  tileslc_kernels::sgemm::sgemm_kernel \(.*\n#1 .* in boost::context::fiber::resume\(\) .*\n#2 .*block_here.*\n"
      r"#3 .* in tileslc::cpu::barrier_sync .*\n#4 .* in tileslc_kernels::sgemm::sgemm_kernel \(.* at /\S*/samples/sgemm/sgemm.tpy:98$"]),
    ("switch_ready", "tileslc switch thread=(200,0,0)\nprint tl_thread_idx.x\nprint k",
     [r"^tileslc: thread \(200,0,0\) block \(0,0,0\) is released from a barrier and not resumed yet",
      r"^87\s+cute.arch.sync_threads\(\)\n\$\d+ = 200\n\$\d+ = 0$"]),
    ("switch_back", "tileslc switch thread=(5,0,0)\nprint tidx",
     [r"^tileslc: back in the running thread \(5,0,0\) block \(0,0,0\)\n#0  .*\n98\s+cute.arch.sync_threads\(\)\n\$\d+ = 5$"]),
    ("next1", "next\ntileslc thread", [r"^84\s+for k in range\(k_begin, k_end\):\nthread \(5,0,0\) block \(0,0,0\)$"]),
    ("next2", "next\ntileslc barrier",
     [r"^85\s+cute.copy\(atom, rA, tAsA\)$", r"^  " + SYNC % 87 + r": 7: \(0\.\.4,0,0\), \(254\.\.255,0,0\)$"]),
]


if __name__ == "__main__":
    sys.exit(gdb_batch.main(STEPS, __doc__))
