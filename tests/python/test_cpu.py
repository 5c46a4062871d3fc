#!/usr/bin/env python3
"""ctest python.cpu: the tileslc Python package on the CPU emulation target.
Builds samples/vector_add and samples/saxpy with tileslc.build(target="cpu")
and calls them with NumPy arrays and, when Debian's python3-torch is
installed, CPU torch tensors, through DLPack. Exit 77 (skipped) without NumPy.

Environment: TILESLC (the compiler), TILESLC_CACHE_DIR (the build cache)."""
import os
import re
import sys
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not installed for %s (Debian: python3-numpy)" % sys.executable)
    sys.exit(77)

import tileslc

try:
    import torch
except ImportError:
    torch = None

SAMPLES = os.path.join(REPO, "samples")


def build(name, **kw):
    return tileslc.build(os.path.join(SAMPLES, name, name + ".tpy"), target="cpu", **kw)


class CpuTarget(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vector_add = build("vector_add")
        cls.saxpy = build("saxpy")

    def test_numpy_vector_add(self):
        n = 1000
        a = np.arange(n, dtype=np.float32)
        b = np.full(n, 0.5, np.float32)
        c = np.zeros(n, np.float32)
        self.vector_add.vector_add(a, b, c)
        np.testing.assert_array_equal(c, a + b)

    def test_numpy_scalar_and_keywords(self):
        n = 777
        x = np.arange(n, dtype=np.float32)
        y = np.ones(n, np.float32)
        self.saxpy.saxpy(2.0, mX=x, mY=y)
        np.testing.assert_array_equal(y, 2 * x + 1)

    def test_errors_carry_the_runtime_message(self):
        a = np.zeros(10, np.float32)
        with self.assertRaisesRegex(tileslc.TileslcError, r"^vector_add: mB has element type Float64, expected Float32$"):
            self.vector_add.vector_add(a, np.zeros(10, np.float64), a)
        with self.assertRaisesRegex(tileslc.TileslcError,
                                    r"^vector_add: mB.shape\[0\] is 9, expected N = 10 \(from mA.shape\[0\]\)$"):
            self.vector_add.vector_add(a, np.zeros(9, np.float32), a)
        with self.assertRaisesRegex(tileslc.TileslcError, r"^vector_add: mC: dlpack: dtype code 5 \(complex\)"):
            self.vector_add.vector_add(a, a, np.zeros(10, np.complex64))
        with self.assertRaisesRegex(TypeError, r"expected a tensor with __dlpack__"):
            self.vector_add.vector_add(a, a, [0.0] * 10)
        with self.assertRaisesRegex(TypeError, r"vector_add: missing argument mC"):
            self.vector_add.vector_add(a, a)

    def test_cache_hit(self):
        start = time.monotonic()
        again = build("vector_add")
        self.assertTrue(again.cached)
        self.assertEqual(again.path, self.vector_add.path)
        self.assertLess(time.monotonic() - start, 5.0)

    def test_defines_and_prefix_make_another_library(self):
        other = build("saxpy", defines={"threads": 64}, prefix="small_")
        self.assertNotEqual(other.path, self.saxpy.path)
        x = np.arange(100, dtype=np.float32)
        y = np.zeros(100, np.float32)
        other.small_saxpy(3.0, x, y)
        np.testing.assert_array_equal(y, 3 * x)

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_torch_cpu_tensors(self):
        n = 513
        a = torch.arange(n, dtype=torch.float32)
        b = torch.full((n,), 2.0)
        c = torch.empty(n)
        self.vector_add.vector_add(a, b, c)
        self.assertTrue(torch.equal(c, a + b))
        with self.assertRaisesRegex(tileslc.TileslcError, r"mA has element type Float16, expected Float32"):
            self.vector_add.vector_add(a.half(), b, c)

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_torch_fast_path(self):
        # torch tensors take the C fast path (tileslc/_fastcall.c) when it could be built: the
        # same results and messages as the ctypes path, strided views included.
        if not tileslc.fast_path_status().startswith("loaded"):
            self.skipTest("fast path unavailable: " + tileslc.fast_path_status())
        fn = self.vector_add.vector_add
        before = fn.fast_calls
        a = torch.arange(2 * 300, dtype=torch.float32)[::2]  # stride 2
        b = torch.full((300,), -1.5)
        c = torch.empty(300)
        fn(a, b, c)
        self.assertTrue(torch.equal(c, a + b))
        self.assertEqual(fn.fast_calls, before + 1)
        with self.assertRaisesRegex(tileslc.TileslcError, r"^vector_add: mB.shape\[0\] is 299, expected N = 300"):
            fn(a, b[:299], c)
        self.assertEqual(fn.fast_calls, before + 2)
        # NumPy arrays and keyword arguments are not the fast path's: they take ctypes.
        fn(a.numpy(), b.numpy(), mC=c.numpy())
        self.assertEqual(fn.fast_calls, before + 2)
        x = torch.arange(64, dtype=torch.float32)
        y = torch.ones(64)
        self.saxpy.saxpy(0.25, x, y)
        self.assertTrue(torch.equal(y, 0.25 * x + 1))
        with self.assertRaises(TypeError):
            self.saxpy.saxpy("two", x, y)

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_requires_grad_same_on_both_paths(self):
        # A tensor that requires grad is read as its memory on the fast path (positional
        # arguments) and on the ctypes path (a keyword argument goes there), where torch's
        # __dlpack__ alone would refuse it: the two paths give the same results.
        fn = self.vector_add.vector_add
        a = torch.arange(16, dtype=torch.float32).requires_grad_()
        b = torch.nn.Parameter(torch.full((16,), 0.25))
        c_fast, c_ctypes = torch.empty(16), torch.empty(16)
        fn(a, b, c_fast)
        fn(a, b, mC=c_ctypes)
        expected = a.detach() + b.detach()
        self.assertTrue(torch.equal(c_fast, expected))
        self.assertTrue(torch.equal(c_ctypes, expected))

    @unittest.skipIf(torch is None or not hasattr(torch, "_neg_view"), "needs PyTorch 1.10 or later (the negative bit)")
    def test_negative_bit_refused_on_both_paths(self):
        # A tensor with torch's negative bit (z.conj().imag, torch._neg_view) reads as -x while its
        # memory holds x: passed as memory it would give wrong sums silently. Both paths refuse it,
        # naming the argument; its resolve_neg() copy is read as the values torch shows.
        fn = self.vector_add.vector_add
        a = torch.arange(1, 17, dtype=torch.float32)
        b = torch.full((16,), 0.25)
        c = torch.full((16,), float("nan"))
        neg = torch._neg_view(a)
        self.assertTrue(neg.is_neg())
        before = fn.fast_calls if hasattr(fn, "fast_calls") else None
        for call in (lambda: fn(neg, b, c), lambda: fn(neg, b, mC=c), lambda: fn(b, a, torch._neg_view(c))):
            with self.assertRaisesRegex(tileslc.TileslcError, "has torch's negative bit set"):
                call()
        self.assertTrue(torch.isnan(c).all(), "nothing ran")
        if before is not None:
            self.assertEqual(fn.fast_calls, before)
        fn(neg.resolve_neg(), b, c)
        self.assertTrue(torch.equal(c, 0.25 - a))

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_torch_fast_path_reads(self):
        # How the fast path reads tensors: torch.Tensor's own C accessors for exact tensors, cached
        # per version of the class (a monkeypatched accessor is seen), ordinary attribute reads
        # for subclasses; tensors on another device (meta) go to the ctypes path, which refuses them.
        if not tileslc.fast_path_status().startswith("loaded"):
            self.skipTest("fast path unavailable: " + tileslc.fast_path_status())
        fn = self.vector_add.vector_add
        self.assertTrue(type(fn).__flags__ & (1 << 11), "HostFunction calls should be vectorcalls")
        n = 200
        a = torch.arange(n, dtype=torch.float32)
        b = torch.full((n,), 0.5)
        c = torch.empty(n)
        before = fn.fast_calls
        fn(torch.nn.Parameter(a, requires_grad=False), b, c)
        self.assertTrue(torch.equal(c, a + b))
        self.assertEqual(fn.fast_calls, before + 1)
        # A patched torch.Tensor.stride is what the next call reads; once restored, torch's again.
        original, seen = torch.Tensor.stride, []

        def stride(t, *args):
            seen.append(t.shape)
            return original(t, *args)
        torch.Tensor.stride = stride
        try:
            c.zero_()
            fn(a, b, c)
        finally:
            torch.Tensor.stride = original
        self.assertEqual(len(seen), 3)
        self.assertTrue(torch.equal(c, a + b))
        fn(a, b, c)
        self.assertEqual(len(seen), 3)
        self.assertEqual(fn.fast_calls, before + 3)
        with self.assertRaises((TypeError, ValueError, BufferError, RuntimeError, tileslc.TileslcError)):
            fn(torch.empty(n, device="meta"), b, c)
        self.assertEqual(fn.fast_calls, before + 3)
        # The no-launch twin (torch_demo.py's Python-side timing) reads and checks, launches nothing.
        twin = fn._no_launch_twin()
        c.fill_(7.0)
        twin(a, b, c)
        self.assertEqual(twin.fast_calls, 1)
        self.assertTrue(torch.equal(c, torch.full((n,), 7.0)))
        self.assertEqual(fn.fast_calls, before + 3)
        # A CUDA library's fast path refuses CPU tensors (the ctypes path then takes the call):
        # torch.device's layout, which it reads the device type from, is confirmed at setup.
        from tileslc import _fastcall_build
        self.assertIn(_fastcall_build.module().device_layout(), (1, 2))
        cuda_twin = fn._no_launch_twin()
        cuda_twin._set_packed(_fastcall_build.module().noop_packed_address(), "ttt", True)
        c.zero_()
        cuda_twin(a, b, c)
        self.assertEqual(cuda_twin.fast_calls, 0)
        self.assertTrue(torch.equal(c, a + b))

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_torch_reader(self):
        # The C++ torch reader (_torch_reader.cpp), where it builds: the views it reads are the
        # Python-level reads' exactly, and whatever it does not take (subclasses, torch function
        # modes, layouts, dtypes, ranks, devices outside the path) goes to those reads unchanged.
        if not tileslc.fast_path_status().startswith("loaded"):
            self.skipTest("fast path unavailable: " + tileslc.fast_path_status())
        from tileslc import _fastcall_build, _torch_reader_build
        fast = _fastcall_build.module()
        fn = self.vector_add.vector_add
        n = 50
        a, b, c = torch.arange(n, dtype=torch.float32), torch.full((n,), 0.5), torch.empty(n)
        fn(a, b, c)  # hands torch (and the reader) to the fast path
        if not fast.torch_reader()[0]:
            self.skipTest("torch reader unavailable: " + _torch_reader_build.status())
        reads = fast.torch_reader()[2]
        base = torch.arange(4 * 3 * 5 * 2, dtype=torch.float32).reshape(4, 3, 5, 2)
        tensors = [base, base[1:, ::2, 1:4].transpose(0, 2), base[..., 1], base[2, 1, 3, 1], torch.empty(0),
                   torch.empty(3, 0, 2)[:, :, 1:], torch.zeros(1).expand(7, 9), torch.ones(2, 3).t(),
                   torch.ones((1,) * 8), torch.ones((1,) * 9), torch.nn.Parameter(torch.ones(3)),
                   torch.empty(4, device="meta"), torch.ones(3, dtype=torch.complex64),
                   torch.ones(2, 2).to_sparse()]
        tensors += [torch.ones(5, dtype=d) for d in (torch.bool, torch.int8, torch.int16, torch.int32, torch.int64,
                                                     torch.uint8, torch.float16, torch.bfloat16, torch.float64)]
        for t in tensors:
            for cuda in (False, True):
                try:
                    python_view = fast.read_view(t, cuda, False)
                except RuntimeError as e:  # sparse: stride() raises; the reader defers to that
                    with self.assertRaisesRegex(RuntimeError, "^%s$" % re.escape(str(e))):
                        fast.read_view(t, cuda, True)
                    continue
                self.assertEqual(fast.read_view(t, cuda, True), python_view, (t.shape, t.dtype, t.device, cuda))
        # Read by the reader: the 9 dtypes and the 9 strided CPU tensors of rank <= 8, on the CPU target.
        self.assertEqual(fast.torch_reader()[2] - reads, 18)
        # A call with plain tensors reads all three through it, a strided view with an offset included.
        reads = fast.torch_reader()[2]
        a2 = torch.arange(2 * n + 1, dtype=torch.float32)[1::2]
        fn(a2, b, c)
        self.assertTrue(torch.equal(c, a2 + b))
        self.assertEqual(fast.torch_reader()[2] - reads, 3)
        with self.assertRaisesRegex(tileslc.TileslcError, r"^vector_add: mA has element type Float16, expected Float32$"):
            fn(a.half(), b, c)
        # Under a torch function mode the accessors call the mode: the reader leaves those reads to them.
        mode_type = getattr(torch.overrides, "TorchFunctionMode", None)
        if mode_type is not None:
            seen = []

            class Mode(mode_type):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    seen.append(getattr(func, "__name__", str(func)))
                    return func(*args, **(kwargs or {}))
            reads = fast.torch_reader()[2]
            c.zero_()
            with Mode():
                fn(a, b, c)
            self.assertTrue(torch.equal(c, a + b))
            self.assertEqual(fast.torch_reader()[2], reads)
            self.assertTrue(seen)

    @unittest.skipIf(torch is None, "PyTorch is not installed (Debian: python3-torch)")
    def test_torch_register(self):
        # tileslc.torch.register: the host function as torch.ops.<ns>.<name>, with the tensors its
        # kernels write marked as mutated in the schema (from the metadata's "written").
        import tileslc.torch as tt
        self.assertEqual(tt.schema(self.vector_add.vector_add),
                         "vector_add(Tensor mA, Tensor mB, Tensor(a!) mC) -> ()")
        self.assertEqual(tt.schema(self.saxpy.saxpy), "saxpy(float alpha, Tensor mX, Tensor(a!) mY) -> ()")
        self.assertEqual(tt.schema(self.vector_add.vector_add, mutates_args=("mA", "mC")),
                         "vector_add(Tensor(a!) mA, Tensor mB, Tensor(b!) mC) -> ()")
        with self.assertRaisesRegex(tileslc.TileslcError, r"mutates_args names mZ, which is not a tensor parameter"):
            tt.schema(self.vector_add.vector_add, mutates_args=("mZ",))
        op = tt.register(self.vector_add.vector_add, namespace="tileslc_test")
        a = torch.arange(100, dtype=torch.float32)
        b = torch.full((100,), 0.25)
        c = torch.full((100,), float("nan"))
        op(a, b, c)
        self.assertTrue(torch.equal(c, a + b))
        saxpy = tt.register(self.saxpy.saxpy, namespace="tileslc_test")
        y = torch.ones(100)
        torch.ops.tileslc_test.saxpy(3.0, a, y)
        self.assertTrue(torch.equal(y, 3 * a + 1))
        self.assertIs(saxpy, torch.ops.tileslc_test.saxpy)
        # The host function's errors come through the operator unchanged.
        with self.assertRaisesRegex(tileslc.TileslcError, r"^vector_add: mB.shape\[0\] is 99, expected N = 100"):
            op(a, b[:99], c)
        with self.assertRaisesRegex(tileslc.TileslcError, r"torch.ops.tileslc_test.vector_add is registered already"):
            tt.register(self.vector_add.vector_add, namespace="tileslc_test")

    def test_python_side_mistakes_are_named(self):
        # A keyword that names no parameter is reported as such (not as the parameter it left out),
        # wrong argument types of build()/load()/register() raise TileslcError naming the mistake.
        a = np.zeros(4, np.float32)
        with self.assertRaisesRegex(TypeError, r"vector_add\(\) got an unexpected keyword argument 'mD' \(parameters: mA, mB, mC\)"):
            self.vector_add.vector_add(a, a, mD=a)
        with self.assertRaisesRegex(TypeError, r"vector_add\(\) got multiple values for argument 'mA'"):
            self.vector_add.vector_add(a, a, a, mA=a)
        with self.assertRaisesRegex(tileslc.TileslcError, r"defines is 'X=1', expected a dict"):
            build("vector_add", defines="X=1")
        with self.assertRaisesRegex(tileslc.TileslcError, r"^no kernel library at /nonexistent/libk.so$"):
            tileslc.load("/nonexistent/libk.so")
        if torch is not None:
            import tileslc.torch as tt
            with self.assertRaisesRegex(tileslc.TileslcError, r"expected a host function of a tileslc library"):
                tt.register(lambda x: x)

    def test_host_function_named_like_a_library_attribute(self):
        # `path` is the Library's own attribute: the host function stays callable through
        # lib.functions, and loading says so once.
        import tempfile
        import warnings
        src = """import tileslc as cutlass
import tileslc.cute as cute

N = cute.sym_int("N")


@cute.kernel
def fill_kernel(gA: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx < cute.size(gA):
        gA[tidx] = 7.0


@cute.jit
def path(mA: cute.Tensor[cutlass.Float32, (N,)]):
    fill_kernel(mA).launch(grid=(1, 1, 1), block=(32, 1, 1))
"""
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "named_path.tpy")
            with open(f, "w") as out:
                out.write(src)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lib = tileslc.build(f, target="cpu")
            self.assertTrue(any("share a name with the Library's own attributes" in str(w.message) for w in caught))
            self.assertIsInstance(lib.path, str)
            a = np.zeros(20, np.float32)
            lib.functions["path"](a)
            np.testing.assert_array_equal(a, np.full(20, 7.0, np.float32))


if __name__ == "__main__":
    if torch is None:
        print("note: PyTorch is not installed for %s (Debian: python3-torch): its test is skipped" % sys.executable)
    unittest.main(verbosity=2)
