#!/usr/bin/env python3
"""ctest python.gpu: the tileslc Python package with torch CUDA tensors.
Builds samples/vector_add and samples/saxpy for the GPU (tileslc.build,
nvcc) and calls them on torch's current stream, a side stream included,
checking against torch. Exit 77 (skipped, with the reason) without PyTorch,
CUDA in PyTorch, a GPU or nvcc.

Environment: TILESLC (the compiler), TILESLC_CACHE_DIR (the build cache),
TILESLC_ARCH (default: the GPU's own, sm_90a on Hopper)."""
import os
import shutil
import sys
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


try:
    import torch
except ImportError:
    skip("PyTorch is not installed for %s" % sys.executable)
if not torch.cuda.is_available():
    skip("PyTorch sees no CUDA GPU (a CPU-only build, or no GPU)")
if not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")):
    skip("nvcc not found")

import tileslc

SAMPLES = os.path.join(REPO, "samples")


def arch():
    if os.environ.get("TILESLC_ARCH"):
        return os.environ["TILESLC_ARCH"]
    major, minor = torch.cuda.get_device_capability()
    return "sm_90a" if (major, minor) == (9, 0) else "sm_%d%d" % (major, minor)


class CudaTarget(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vector_add = tileslc.build(os.path.join(SAMPLES, "vector_add", "vector_add.tpy"), arch=arch())
        cls.saxpy = tileslc.build(os.path.join(SAMPLES, "saxpy", "saxpy.tpy"), arch=arch())

    def test_vector_add_on_the_current_stream(self):
        n = 1 << 20
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        c = torch.empty(n, device="cuda")
        self.vector_add.vector_add(a, b, c)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(c, a + b))

    def test_side_stream(self):
        # Work queued on a side stream must see a and b as torch left them there.
        n = 1 << 22
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            x = torch.randn(n, device="cuda")
            y = torch.ones(n, device="cuda")
            expected = 0.5 * x + y
            self.saxpy.saxpy(0.5, x, y)
        s.synchronize()
        torch.testing.assert_close(y, expected, rtol=1e-6, atol=1e-6)

    def test_fast_path_reads_cuda_tensors(self):
        # Where the C fast path loads, torch CUDA tensors take it (strided views included) and read
        # their device from torch.device's confirmed layout; CPU tensors go to the ctypes path.
        if not tileslc.fast_path_status().startswith("loaded"):
            self.skipTest("fast path unavailable: " + tileslc.fast_path_status())
        from tileslc import _fastcall_build
        self.assertIn(_fastcall_build.module().device_layout(), (1, 2))
        fn = self.vector_add.vector_add
        before = fn.fast_calls
        a = torch.randn(2 * 4096, device="cuda")[::2]
        b = torch.randn(4096, device="cuda")
        c = torch.empty(4096, device="cuda")
        fn(a, b, c)
        torch.cuda.synchronize()
        self.assertEqual(fn.fast_calls, before + 1)
        self.assertTrue(torch.equal(c, a + b))
        twin = fn._no_launch_twin()
        c.fill_(3.0)
        twin(a, b, c)
        torch.cuda.synchronize()
        self.assertEqual(twin.fast_calls, 1)
        self.assertTrue(torch.equal(c, torch.full_like(c, 3.0)))

    def test_torch_reader_cuda(self):
        # The C++ torch reader (where it builds) reads CUDA tensors as the Python-level reads do,
        # and, where built with CUDA headers, torch's current stream as _cuda_getCurrentRawStream.
        if not tileslc.fast_path_status().startswith("loaded"):
            self.skipTest("fast path unavailable: " + tileslc.fast_path_status())
        from tileslc import _fastcall_build, _torch_reader_build
        fast = _fastcall_build.module()
        a = torch.randn(64, device="cuda")
        self.vector_add.vector_add(a, a, torch.empty_like(a))  # hands torch (and the reader) over
        active, reads_stream, reads = fast.torch_reader()
        if not active:
            self.skipTest("torch reader unavailable: " + _torch_reader_build.status())
        base = torch.arange(4 * 6 * 2, dtype=torch.float32, device="cuda").reshape(4, 6, 2)
        for t in (base, base[1:, ::3].transpose(0, 1), base[2, 1, 1], torch.empty(0, device="cuda"),
                  torch.ones(3, device="cuda", dtype=torch.bfloat16), torch.ones(3)):
            for cuda in (True, False):
                self.assertEqual(fast.read_view(t, cuda, True), fast.read_view(t, cuda, False), (t.shape, cuda))
        self.assertEqual(fast.torch_reader()[2] - reads, 5 + 1)  # 5 CUDA tensors (CUDA target), 1 CPU one
        device = torch.cuda.current_device()
        s = torch.cuda.Stream()
        for stream in (torch.cuda.current_stream(), s):
            with torch.cuda.stream(stream):
                self.assertEqual(fast.current_stream(device, True), torch.cuda.current_stream().cuda_stream)
                self.assertEqual(fast.current_stream(device, False), torch.cuda.current_stream().cuda_stream)
        print("torch reader: %s; reads the stream: %s" % (_torch_reader_build.status(), reads_stream))

    def test_error_before_launch(self):
        a = torch.zeros(10, device="cuda")
        with self.assertRaisesRegex(tileslc.TileslcError, r"mB.shape\[0\] is 9, expected N = 10"):
            self.vector_add.vector_add(a, torch.zeros(9, device="cuda"), a)
        with self.assertRaisesRegex(tileslc.TileslcError, r"mA: dlpack: tensor on device type 1 \(kDLCPU\)"):
            self.vector_add.vector_add(torch.zeros(10), a, a)


if __name__ == "__main__":
    unittest.main(verbosity=2)
