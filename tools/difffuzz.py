#!/usr/bin/env python3
"""Differential fuzzer of tileslc's scalar semantics (issue 15, item 16).

Generates random well-typed .tpy kernels whose every result is computed several
ways that docs/language.md says must agree bit for bit:

  run-time  the expression over operands loaded from input tensors, run under the
            CPU emulator (tileslc --target=cpu + libtileslc_rt_cpu) or on the GPU;
  folded    the same expression over typed constants (cutlass.Int8(-5), ...), so the
            compiler's constant handling (ir::cast, literals) decides the value;
  static    Python-semantics expressions over static int/float values folded by
            sema (printed while compiling with print() and stored into tensors);
  model     this file's own evaluation of the documented semantics (wrapping
            integer casts, Python's // and %, PTX's clamping shifts, Float16 and
            BFloat16 computing in Float32 and rounding back, saturating float to
            integer conversions, IEEE float arithmetic, CPython's float // and %).

Transcendental functions (exp exp2 log log2 sin cos tanh erf rsqrt) are compared
within MATH_ULPS units in the last place; everything else bit for bit (any NaN
matches any NaN). See docs/fuzzing.md.

  difffuzz.py [--seed S] [--count N] [--save-reproducers DIR] [--inject-wrong]
  difffuzz.py gpu-prep --seed S --count N --dir D     (needs tileslc and nvcc: cubins)
  difffuzz.py gpu-run --dir D                          (needs python3 and the CUDA driver only)
  difffuzz.py gpu --seed S --count N --dir D          (both)

Standard library only: gpu-run must work on a machine with python3 and the CUDA
driver and nothing else (tools/difffuzz_cuda.py calls the driver through ctypes).
"""
import argparse
import ctypes
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction

from difffuzz_cuda import CudaError, CudaUnavailable, Driver

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS_PER_BUNDLE = 25  # emulator bundles; gpu-prep takes --per-bundle (nvcc's time is mostly per file)
MATH_ULPS = 4  # CUDA's documented maxima are 1-2 ulp for these functions; the host's libm is below 1

# ---------------------------------------------------------------- scalar types

INT_TYPES = {  # name: (bits, signed)
    "Int8": (8, True), "Int16": (16, True), "Int32": (32, True), "Int64": (64, True),
    "Uint8": (8, False), "Uint16": (16, False), "Uint32": (32, False), "Uint64": (64, False),
}
# name: (bits, mantissa bits with the implicit one, minimum normal exponent, maximum exponent)
FLOAT_TYPES = {
    "Float16": (16, 11, -14, 15), "BFloat16": (16, 8, -126, 127),
    "Float32": (32, 24, -126, 127), "Float64": (64, 53, -1022, 1023),
}
ALL_TYPES = list(INT_TYPES) + list(FLOAT_TYPES)
NARROW_FLOATS = ("Float16", "BFloat16")


def is_int(t):
    return t in INT_TYPES


def bits_of(t):
    return INT_TYPES[t][0] if is_int(t) else FLOAT_TYPES[t][0]


def int_range(t):
    b, s = INT_TYPES[t]
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if s else (0, (1 << b) - 1)


def wrap(v, t):
    """An integer wrapped to type t (two's complement), as C++20 conversions define."""
    b, s = INT_TYPES[t]
    v &= (1 << b) - 1
    return v - (1 << b) if s and v >= 1 << (b - 1) else v


def round_to(x, t):
    """x (a float or Fraction; inf and nan pass) rounded to nearest even in float type t."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    if t == "Float64":
        return float(x) if isinstance(x, Fraction) else x
    _, p, emin, emax = FLOAT_TYPES[t]
    q = Fraction(x)
    if q == 0:
        return math.copysign(0.0, x) if isinstance(x, float) else 0.0
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)  # subnormals share the minimum exponent's quantum
    quantum = Fraction(2) ** (e - p + 1)
    n, r = divmod(q, quantum)
    n = int(n)
    if r * 2 > quantum or (r * 2 == quantum and n % 2 == 1):
        n += 1
    v = n * quantum
    if v >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(v)


def to_bits(v, t):
    """The bit pattern of value v of type t, as an unsigned integer."""
    if is_int(t):
        return v & ((1 << bits_of(t)) - 1)
    if t == "Float64":
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    f32 = struct.unpack("<I", struct.pack("<f", v))[0]  # v is exact in Float32 for every float type here
    if t == "Float32":
        return f32
    if t == "BFloat16":
        return f32 >> 16
    return struct.unpack("<H", struct.pack("<e", v))[0]


def from_bits(b, t):
    if is_int(t):
        return wrap(b, t)
    if t == "Float64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if t == "Float32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if t == "BFloat16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    return struct.unpack("<e", struct.pack("<H", b))[0]


def promote(a, b):
    """docs/language.md section 2: the type two run-time operands compute in."""
    if a == "Boolean":
        a = "Int32"
    if b == "Boolean":
        b = "Int32"
    if is_int(a) and is_int(b):
        (wa, sa), (wb, sb) = INT_TYPES[a], INT_TYPES[b]
        if wa != wb:
            return a if wa > wb else b
        return a if not sa else b
    if is_int(a):
        return b
    if is_int(b):
        return a
    if {a, b} == {"Float16", "BFloat16"}:
        return "Float32"
    return a if bits_of(a) >= bits_of(b) else b


def int_to_float(v, t):
    """Integer to float type t: Float64 and Float32 round once; the narrow floats go through Float32
    (sema converts to Float32 and rounds to the storage type)."""
    if t == "Float64":
        return float(v)  # CPython's int -> float rounds to nearest even
    f = round_to(Fraction(v), "Float32")
    return f if t == "Float32" else round_to(f, t)


def float_to_int(x, t):
    """cvt.rzi's meaning (saturating, NaN gives 0) on both targets."""
    lo, hi = int_range(t)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    return min(hi, max(lo, int(x)))


def convert(v, frm, to):
    if frm == to:
        return v
    if frm == "Boolean":
        frm, v = "Int32", int(v)
    if to == "Boolean":
        return bool(v)
    if is_int(frm) and is_int(to):
        return wrap(v, to)
    if is_int(frm):
        return int_to_float(v, to)
    if is_int(to):
        return float_to_int(v, to)
    if to == "Float64":
        return v  # every float type widens exactly
    if to == "Float32":
        return round_to(v, "Float32")
    return round_to(round_to(v, "Float32"), to)  # a narrow float is made from Float32 (Float64 goes through it)


# --------------------------------------------------------------- float helpers


def ieee_div(a, b):
    if b == 0 or math.isinf(b) or math.isinf(a) or math.isnan(a) or math.isnan(b):
        if math.isnan(a) or math.isnan(b) or (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
            return math.nan
        if b == 0:
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        if math.isinf(a):
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return math.copysign(0.0, a) * math.copysign(1.0, b)
    return a / b  # C division: correctly rounded, signed zeros, overflow to inf


def arith(op, a, b, rnd):
    """IEEE a op b rounded by rnd (for Float32, Python's double result rounded once: exact for + - * /)."""
    if op == "+":
        return rnd(a + b)
    if op == "-":
        return rnd(a - b)
    if op == "*":
        return rnd(a * b)
    if op == "/":
        if a != 0 and b != 0 and not (math.isinf(a) or math.isnan(a) or math.isinf(b) or math.isnan(b)):
            return rnd(Fraction(a) / Fraction(b)) if rnd is not float else float(Fraction(a) / Fraction(b))
        return rnd(ieee_div(a, b))
    raise ValueError(op)


def py_float_mod(a, b, rnd):
    """tileslc::dev::mod on floats (device/common.h), step by step in the type's precision."""
    m = math.fmod(a, b)
    if m != 0:
        return rnd(m + b) if (b < 0) != (m < 0) else m
    return math.copysign(0.0, b)


def py_float_floordiv(a, b, rnd):
    m = math.fmod(a, b)
    q = rnd(Fraction(rnd(a - m)) / Fraction(b))
    if m != 0 and (b < 0) != (m < 0):
        q = rnd(q - 1.0)
    if q == 0:
        return math.copysign(0.0, ieee_div(a, b))
    if not math.isfinite(q):  # the quotient overflowed: floor(inf) is inf
        return q
    f = float(math.floor(q))
    return rnd(f + 1.0) if rnd(q - f) > 0.5 else f


def f_min_max(op, a, b):
    """fmin/fmax: a NaN operand gives the other one."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return min(a, b) if op == "min" else max(a, b)


def safe_math(fn, x):
    """Python's math function with IEEE results where Python raises."""
    try:
        if fn == "rsqrt":
            return math.nan if x < 0 else (math.copysign(math.inf, x) if x == 0 else 1.0 / math.sqrt(x))
        if fn == "exp2":
            return 2.0 ** x
        return getattr(math, fn)(x)
    except (ValueError, OverflowError):
        if fn in ("exp", "exp2"):
            return math.inf if x > 0 else 0.0
        if fn in ("log", "log2"):
            return -math.inf if x == 0 else math.nan
        if fn == "sqrt":
            return math.nan
        return math.nan


def ulp_distance(a, b, t):
    """Distance in units in the last place between two values of float type t."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 62
    if a == b:
        return 0

    def key(x):
        u = to_bits(x, t)
        sign = 1 << (bits_of(t) - 1)
        return -(u & (sign - 1)) if u & sign else u

    return abs(key(a) - key(b))


# ----------------------------------------------------------------- generation


class Node:
    """A generated expression: its run-time and folded spellings, its type and its model value."""

    def __init__(self, rt, ct, t, v):
        self.rt, self.ct, self.t, self.v = rt, ct, t, v


class Reject(Exception):
    """The drawn operands hit a case without a defined result (division by zero, ...): draw again."""


class Program:
    """One kernel + host function: inputs by type (bit patterns), outputs by type, expected values."""

    def __init__(self, name, rng):
        self.name, self.rng = name, rng
        self.inputs = {}  # type -> [bits]
        self.outputs = {}  # type -> [(kind, text, value, ulps)]
        self.lines = []  # kernel body lines under `if tidx == 0:`
        self.prints = []  # (tag, expected str)
        self.expressions = 0

    # --- leaves

    def input_slot(self, t, v):
        xs = self.inputs.setdefault(t, [])
        xs.append(to_bits(v, t))
        return "g%s[%d]" % (t, len(xs) - 1)

    def literal(self, t, v):
        if is_int(t):
            # static ints are 64-bit signed and a static int must fit the type (E0411): a Uint64 above
            # 2**63 - 1 is an Int64 constant converted (wrapping)
            return "cutlass.%s(%d)" % (t, v) if v < 1 << 63 else "cutlass.Uint64(cutlass.Int64(%d))" % (v - (1 << 64))
        if math.isnan(v):
            return "cutlass.%s(math.nan)" % t
        if math.isinf(v):
            return "cutlass.%s(%smath.inf)" % (t, "-" if v < 0 else "")
        return "cutlass.%s(%r)" % (t, v)

    def draw_int(self, t):
        lo, hi = int_range(t)
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice([lo, hi, lo + 1, hi - 1, 0, 1, wrap(-1, t), 2, 7])
        if r < 0.7:
            return wrap(self.rng.randint(-40, 40), t)
        return self.rng.randint(lo, hi)

    def draw_float(self, t):
        r = self.rng.random()
        if r < 0.06:
            return self.rng.choice([math.inf, -math.inf, math.nan])
        if r < 0.3:
            v = self.rng.choice([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -7.5, 0.1, 1e-3, 65504.0, 1e30, 1e-30, 3e38])
        elif r < 0.7:
            v = self.rng.randint(-64, 64) / self.rng.choice([1, 2, 4, 8, 3, 10])
        else:
            v = self.rng.uniform(-1, 1) * 2.0 ** self.rng.randint(-30, 40)
        return round_to(v, t)

    def leaf(self, t):
        v = self.draw_int(t) if is_int(t) else self.draw_float(t)
        if self.rng.random() < 0.1 and is_int(t) and bits_of(t) < 64:
            # an out-of-range value converted: the folded side must wrap it too
            w = self.rng.randint(-(1 << 40), 1 << 40)
            return Node("cutlass.%s(%s)" % (t, self.input_slot("Int64", w)), "cutlass.%s(cutlass.Int64(%d))" % (t, w), t, wrap(w, t))
        return Node(self.input_slot(t, v), self.literal(t, v), t, v)

    # --- expressions

    def expr(self, depth, want=None):
        """A random expression; of type `want` when given (converting at the end if needed)."""
        for _ in range(20):
            try:
                n = self._expr(depth, want)
                if want and n.t != want:
                    n = self.conv(n, want)
                return n
            except (Reject, OverflowError, ValueError, ZeroDivisionError):
                continue  # no defined result, or a case the model does not evaluate: draw again
        return self.leaf(want or "Int32")

    def _expr(self, depth, want):
        t = want or self.rng.choice(ALL_TYPES)
        if depth <= 0 or self.rng.random() < 0.2:
            return self.leaf(t)
        if is_int(t):
            kind = self.rng.choice(["bin", "bin", "bin", "div", "shift", "unary", "minmax", "conv", "select", "cmp"])
        else:
            kind = self.rng.choice(["bin", "bin", "bin", "div", "unary", "minmax", "conv", "select", "math"])
        other = self.rng.choice([t, t, self.rng.choice(ALL_TYPES if not is_int(t) else list(INT_TYPES))])
        if kind == "bin":
            ops = ["+", "-", "*", "&", "|", "^"] if is_int(t) and is_int(other) else ["+", "-", "*", "/"]
            return self.binop(self.rng.choice(ops), self.expr(depth - 1, t), self.expr(depth - 1, other))
        if kind == "div":
            return self.binop(self.rng.choice(["//", "%"]), self.expr(depth - 1, t), self.expr(depth - 1, other))
        if kind == "shift":
            count_t = self.rng.choice([t, "Int32", self.rng.choice(list(INT_TYPES))])
            c = self.rng.choice([0, 1, 3, bits_of(t) - 1, bits_of(t), bits_of(t) + 1, 31, 32, 63, 64, 65, -1])
            count = Node(self.input_slot(count_t, wrap(c, count_t)), self.literal(count_t, wrap(c, count_t)),
                         count_t, wrap(c, count_t))
            return self.binop(self.rng.choice(["<<", ">>"]), self.expr(depth - 1, t), count)
        if kind == "unary":
            a = self.expr(depth - 1, t)
            op = self.rng.choice(["-", "~"] if is_int(t) else ["-"])
            return self.unary(op, a)
        if kind == "minmax":
            return self.minmax(self.rng.choice(["min", "max"]), self.expr(depth - 1, t), self.expr(depth - 1, other))
        if kind == "conv":
            return self.conv(self.expr(depth - 1, self.rng.choice(ALL_TYPES)), t)
        if kind == "select":
            c = self.compare(depth - 1)
            a, b = self.expr(depth - 1, t), self.expr(depth - 1, t)
            return Node("(%s if %s else %s)" % (a.rt, c.rt, b.rt), "(%s if %s else %s)" % (a.ct, c.ct, b.ct), t,
                        a.v if c.v else b.v)
        if kind == "cmp":
            c = self.compare(depth - 1)
            return self.conv(c, t)
        return self.exact_math(depth, t)

    def binop(self, op, a, b):
        t = promote(a.t, b.t)
        compute = "Float32" if t in NARROW_FLOATS else t  # sema converts both operands to Float32 directly
        x, y = convert(a.v, a.t, compute), convert(b.v, b.t, compute)
        if is_int(t):
            if op in ("//", "%"):
                if y == 0 or (op == "//" and INT_TYPES[t][1] and x == int_range(t)[0] and y == -1):
                    raise Reject()
                v = x // y if op == "//" else x % y
            elif op in ("<<", ">>"):
                w = bits_of(t)
                c = y & ((1 << w) - 1)  # the count read as unsigned
                if op == "<<":
                    v = 0 if c >= w else x << c
                else:
                    v = (-1 if x < 0 else 0) if c >= w else x >> c
            else:
                v = {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y}[op]
            v = wrap(v, t)
        else:
            rnd = (lambda z: round_to(z, compute)) if compute == "Float32" else float
            if op in ("//", "%"):
                if y == 0 or not math.isfinite(x) or not math.isfinite(y):
                    raise Reject()
                v = (py_float_floordiv if op == "//" else py_float_mod)(x, y, rnd)
            else:
                v = arith(op, x, y, rnd)
            v = round_to(v, t)
        return Node("(%s %s %s)" % (a.rt, op, b.rt), "(%s %s %s)" % (a.ct, op, b.ct), t, v)

    def unary(self, op, a):
        t = a.t
        if is_int(t):
            v = wrap(-a.v if op == "-" else ~a.v, t)
        else:
            v = -a.v
        return Node("(%s%s)" % (op, a.rt), "(%s%s)" % (op, a.ct), t, v)

    def minmax(self, op, a, b):
        t = promote(a.t, b.t)
        compute = "Float32" if t in NARROW_FLOATS else t
        x, y = convert(a.v, a.t, compute), convert(b.v, b.t, compute)
        if is_int(t):
            v = min(x, y) if op == "min" else max(x, y)
        else:
            if x == 0 and y == 0:
                raise Reject()  # fmin(-0.0, 0.0) may give either zero
            v = round_to(f_min_max(op, x, y), t)
        return Node("%s(%s, %s)" % (op, a.rt, b.rt), "%s(%s, %s)" % (op, a.ct, b.ct), t, v)

    def conv(self, a, t):
        return Node("cutlass.%s(%s)" % (t, a.rt), "cutlass.%s(%s)" % (t, a.ct), t, convert(a.v, a.t, t))

    def compare(self, depth):
        a = self.expr(depth, self.rng.choice(ALL_TYPES))
        b = self.expr(depth, self.rng.choice([a.t, self.rng.choice(ALL_TYPES)]))
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        t = promote(a.t, b.t)
        t = "Float32" if t in NARROW_FLOATS else t
        x, y = convert(a.v, a.t, t), convert(b.v, b.t, t)
        v = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y}[op]
        return Node("(%s %s %s)" % (a.rt, op, b.rt), "(%s %s %s)" % (a.ct, op, b.ct), "Boolean", v)

    def exact_math(self, depth, t):
        """Correctly rounded cute.math functions: sqrt floor ceil fabs fma (Float32/Float64 operands)."""
        ft = t if t in ("Float32", "Float64") else "Float32"
        fn = self.rng.choice(["sqrt", "floor", "ceil", "fabs", "fma"])
        if fn == "fma":
            a, b, c = (self.expr(depth - 1, ft) for _ in range(3))
            if not all(math.isfinite(z) for z in (a.v, b.v, c.v)):
                v = a.v * b.v + c.v  # inf and NaN propagate as IEEE says (inf * 0 and inf - inf give NaN)
            else:
                exact = Fraction(a.v) * Fraction(b.v) + Fraction(c.v)
                if exact != 0:
                    v = round_to(exact, ft)
                else:  # an exact zero is -0.0 only when the product and the addend are both -0.0
                    neg_prod = (math.copysign(1, a.v) * math.copysign(1, b.v) < 0) and (a.v == 0 or b.v == 0)
                    v = -0.0 if neg_prod and math.copysign(1, c.v) < 0 else 0.0
            n = Node("cute.math.fma(%s, %s, %s)" % (a.rt, b.rt, c.rt), "cute.math.fma(%s, %s, %s)" % (a.ct, b.ct, c.ct),
                     ft, v)
        else:
            a = self.expr(depth - 1, ft)
            x = a.v
            if fn == "sqrt":  # Python's double sqrt is correctly rounded; rounding it to Float32 is too
                v = math.nan if math.isnan(x) or x < 0 else (x if math.isinf(x) or x == 0 else round_to(math.sqrt(x), ft))
            elif fn == "fabs":
                v = abs(x)
            elif math.isnan(x) or math.isinf(x):
                v = x
            else:
                v = float(math.floor(x) if fn == "floor" else math.ceil(x))
                if v == 0:
                    v = math.copysign(0.0, x)
            n = Node("cute.math.%s(%s)" % (fn, a.rt), "cute.math.%s(%s)" % (fn, a.ct), ft, v)
        return n if ft == t else self.conv(n, t)

    # --- statements

    def store(self, t, kind, text, v, ulps=0):
        outs = self.outputs.setdefault(t, [])
        outs.append((kind, text, v, ulps))
        self.lines.append("gO%s[%d] = %s" % (t, len(outs) - 1, text))

    def add_expression(self):
        n = self.expr(self.rng.randint(1, 4), self.rng.choice(ALL_TYPES))
        self.store(n.t, "run-time", n.rt, n.v)
        self.store(n.t, "folded", n.ct, n.v)
        self.expressions += 1

    def add_math(self):
        """A transcendental function at the root, compared within MATH_ULPS."""
        ft = self.rng.choice(["Float32", "Float64"])
        fn = self.rng.choice(["exp", "exp2", "log", "log2", "sin", "cos", "tanh", "erf", "rsqrt"])
        for _ in range(20):
            a = self.expr(self.rng.randint(0, 2), ft)
            if math.isfinite(a.v) and abs(a.v) < 80 and (fn not in ("sin", "cos") or abs(a.v) < 1e4):
                break
        else:
            a = Node(self.input_slot(ft, 1.5), self.literal(ft, 1.5), ft, 1.5)
        v = round_to(safe_math(fn, a.v), ft)
        self.store(ft, "run-time", "cute.math.%s(%s)" % (fn, a.rt), v, MATH_ULPS)
        self.store(ft, "folded", "cute.math.%s(%s)" % (fn, a.ct), v, MATH_ULPS)
        self.expressions += 1

    def add_loop(self):
        """A run-time range() with bounds and step from tensors, and the same loop unrolled statically."""
        it = self.rng.choice(["Int32", "Int64"])
        lo, hi = int_range(it)
        step = self.rng.choice([1, 2, 3, 7, -1, -2, -5, 100])
        trips = self.rng.randint(0, 12)
        r = self.rng.random()
        if r < 0.3:  # at the type's limit: the last increment passes it
            stop = hi if step > 0 else lo
            start = stop - step * trips - self.rng.randint(0, abs(step) - 1) * (1 if step > 0 else -1)
            start = max(lo, min(hi, start))
        else:
            start = self.rng.randint(-50, 50)
            stop = start + step * trips - self.rng.randint(0, abs(step) - 1) * (1 if step > 0 else -1)
            if self.rng.random() < 0.15:
                stop = start - step  # points away: no iteration
        acc_t = self.rng.choice(list(INT_TYPES))
        init = self.draw_int(acc_t)
        mul = self.draw_int(acc_t)
        op = self.rng.choice(["+", "^", "*"])
        acc = init
        for i in range(start, stop, step):
            term = wrap(wrap(i, acc_t) * mul, acc_t)
            acc = wrap(acc + term if op == "+" else acc ^ term if op == "^" else acc * (term | 1), acc_t)
        def body(acc, i, m):
            term = "(cutlass.%s(cutlass.Int64(%s)) * %s)" % (acc_t, i, m)  # a static i must fit (E0411)
            if op == "*":
                term = "(%s | cutlass.%s(1))" % (term, acc_t)
            return "    %s = %s %s %s" % (acc, acc, op, term)

        k = len(self.lines)
        bounds = [self.input_slot(it, v) for v in (start, stop, step)]
        self.lines.append("acc%d = %s" % (k, self.input_slot(acc_t, init)))
        self.lines.append("for i%d in range(%s, %s, %s):" % (k, bounds[0], bounds[1], bounds[2]))
        self.lines.append(body("acc%d" % k, "i%d" % k, self.input_slot(acc_t, mul)))
        self.store(acc_t, "loop run-time", "acc%d" % k, acc)
        k2 = len(self.lines)
        self.lines.append("acc%d = %s" % (k2, self.literal(acc_t, init)))
        self.lines.append("for i%d in cutlass.range_constexpr(%d, %d, %d):" % (k2, start, stop, step))
        self.lines.append(body("acc%d" % k2, "i%d" % k2, self.literal(acc_t, mul)))
        self.store(acc_t, "loop folded", "acc%d" % k2, acc)
        self.expressions += 1

    def add_predicated(self):
        """A tile of an input whose extent is a run-time symbol, read under cute.elem_less on the identity
        tensor's coordinates (a partial or empty last tile): the model sums only the elements inside."""
        t = self.rng.choice(list(INT_TYPES))
        ts = self.rng.choice([4, 8, 16])
        blk = self.rng.randint(0, 3)
        k = len(self.lines)
        self.lines += ["gT%d = cute.local_tile(g%s, (%d,), (%d,))" % (k, t, ts, blk),
                       "cT%d = cute.local_tile(cute.make_identity_tensor(g%s.shape), (%d,), (%d,))" % (k, t, ts, blk),
                       "acc%d = cutlass.%s(0)" % (k, t),
                       "for j%d in range(%d):" % (k, ts),
                       "    if cute.elem_less(cT%d[j%d], g%s.shape):" % (k, k, t),
                       "        acc%d = acc%d ^ (gT%d[j%d] + cutlass.%s(j%d))" % (k, k, k, k, t, k)]
        self.input_slot(t, self.draw_int(t))  # at least one element

        def value():  # the inputs are complete only when the program is
            xs, acc = self.inputs[t], 0
            for j in range(ts):
                if blk * ts + j < len(xs):
                    acc ^= wrap(from_bits(xs[blk * ts + j], t) + j, t)
            return wrap(acc, t)

        self.store(t, "predicated tile", "acc%d" % k, value)
        self.expressions += 1

    def add_static(self):
        """A Python-semantics expression over static ints and floats: printed while compiling and stored."""
        for _ in range(30):
            try:
                text, v = static_expr(self.rng, self.rng.randint(1, 4))
                break
            except Reject:
                continue
        else:
            text, v = "(7 // -2)", -4
        tag = "S%s_%d" % (self.name, len(self.prints))
        self.prints.append((tag, str(v)))
        self.lines.append("print(%r, %s)" % (tag, text))
        if isinstance(v, bool):
            return
        if isinstance(v, int):
            t = self.rng.choice(list(INT_TYPES))
            lo, hi = int_range(t)
            conv = "cutlass.%s(%s)" if lo <= v <= hi else "cutlass.%s(cutlass.Int64(%s))"  # E0411 if it does not fit
            self.store(t, "static", conv % (t, text), wrap(v, t))
        else:
            t = self.rng.choice(list(FLOAT_TYPES))
            if self.rng.random() < 0.3:  # a static float made Float32, then widened: the Float32 value
                self.store("Float64", "static", "cutlass.Float64(cutlass.Float32(%s))" % text, round_to(v, "Float32"))
            else:
                self.store(t, "static", "cutlass.%s(%s)" % (t, text), convert(v, "Float64", t))
        self.expressions += 1

    def source(self):
        """The kernel and host function of this program."""
        ins = sorted(self.inputs)
        outs = sorted(self.outputs)
        params = ["g%s" % t for t in ins] + ["gO%s" % t for t in outs]
        s = ["@cute.kernel", "def %s_kernel(%s):" % (self.name, ", ".join("%s: cute.Tensor" % p for p in params)),
             "    tidx, _, _ = cute.arch.thread_idx()", "    if tidx == 0:"]
        s += ["        " + line for line in self.lines]
        # inputs have run-time extents (symbols, bound from the tensors), outputs static ones
        hp = ["m%s: cute.Tensor[cutlass.%s, (N_%s_%s,)]" % (t, t, self.name, t) for t in ins] + [
            "mO%s: cute.Tensor[cutlass.%s, (%d,)]" % (t, t, len(self.outputs[t])) for t in outs]
        s = ['N_%s_%s = cute.sym_int("N_%s_%s")' % (self.name, t, self.name, t) for t in ins] + ["", ""] + s
        s += ["", "", "@cute.jit", "def %s(%s):" % (self.name, ", ".join(hp)),
              "    %s_kernel(%s).launch(grid=(1, 1, 1), block=(32, 1, 1))" % (
                  self.name, ", ".join("m" + p[1:] for p in params)), "", ""]
        return "\n".join(s)

    def expected(self):
        def val(v):
            return v() if callable(v) else v

        return {"name": self.name, "inputs": {t: b for t, b in self.inputs.items()},
                "outputs": {t: [[k, text, to_bits(val(v), t), u] for k, text, v, u in xs]
                            for t, xs in self.outputs.items()},
                "prints": self.prints}


def static_expr(rng, depth):
    """(text, value) of a static expression with Python's semantics that tileslc folds without error
    (every intermediate integer fits 64 bits, shift counts 0..62, no division by zero)."""
    def check(v):
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and not -(1 << 63) <= v < (1 << 63):
            raise Reject()
        if isinstance(v, float) and not math.isfinite(v):
            raise Reject()
        return v

    def go(d, want_int):
        if d <= 0 or rng.random() < 0.25:
            if want_int or rng.random() < 0.6:
                v = rng.choice([rng.randint(-20, 20), rng.randint(-(1 << 31), 1 << 31), rng.choice([0, 1, -1, 255, 256])])
                if rng.random() < 0.05:
                    v = rng.choice([(1 << 62) + 3, -(1 << 62) - 5, (1 << 63) - 1])
                return ("(%d)" % v if v < 0 else str(v)), v
            v = rng.choice([0.5, -2.25, 0.1, 10.0, 3.0, 1e-3, -7.0, rng.uniform(-100, 100)])
            return ("(%r)" % v if v < 0 else repr(v)), v
        op = rng.choice(["+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^", "neg", "inv", "min", "max", "/"]
                        if want_int or rng.random() < 0.5 else ["+", "-", "*", "//", "%", "/", "min", "max", "neg"])
        int_only = op in ("<<", ">>", "&", "|", "^", "inv")
        if op in ("neg", "inv"):
            at, av = go(d - 1, int_only or want_int)
            return "(%s%s)" % ("-" if op == "neg" else "~", at), check(-av if op == "neg" else ~av)
        at, av = go(d - 1, int_only or want_int)
        if op in ("<<", ">>"):
            c = rng.choice([0, 1, 5, 31, 32, 40, 62, 63])
            bt, bv = str(c), c
        else:
            bt, bv = go(d - 1, int_only or want_int)
        if op in ("//", "%", "/") and bv == 0:
            raise Reject()
        if op == "/" and want_int:
            raise Reject()
        if op in ("min", "max"):
            return "%s(%s, %s)" % (op, at, bt), check(min(av, bv) if op == "min" else max(av, bv))
        try:
            v = eval("(%r) %s (%r)" % (av, op, bv))  # noqa: S307 -- Python's own semantics are the reference
        except (ZeroDivisionError, OverflowError, ValueError):
            raise Reject()
        if isinstance(v, float) and isinstance(av, int) and isinstance(bv, int) is False and op == "/":
            pass
        return "(%s %s %s)" % (at, op, bt), check(v)

    text, v = go(depth, rng.random() < 0.6)
    return text, v


def make_program(pseed):
    """Program number `pseed` (its statements are drawn from random.Random(pseed) alone)."""
    rng = random.Random(pseed)
    p = Program("p%d" % pseed, rng)
    for _ in range(rng.randint(6, 14)):
        r = rng.random()
        if r < 0.7:
            p.add_expression()
        elif r < 0.8:
            p.add_math()
        elif r < 0.85:
            p.add_loop()
        elif r < 0.9:
            p.add_predicated()
        else:
            p.add_static()
    return p


def generate(seed, count, inject_wrong=False, first=0):
    """Programs first..first+count-1 of `seed` (numbered seed*1000003+i, so any one can be regenerated
    alone); with inject_wrong, the model's opinion of one result is perturbed (a high bit of a non-NaN
    value) and that program marked `injected`: the comparison must report it."""
    progs = [make_program(seed * 1000003 + i) for i in range(first, first + count)]
    if inject_wrong:
        for p in progs:
            for t, xs in sorted(p.outputs.items()):
                for j, (kind, text, v, u) in enumerate(xs):
                    if not callable(v) and (is_int(t) or not math.isnan(v)):
                        xs[j] = (kind, text, from_bits(to_bits(v, t) ^ (1 << (bits_of(t) - 2)), t), u)
                        p.injected = True
                        return progs
    return progs


HEADER = "import math\n\nimport tileslc as cutlass\nimport tileslc.cute as cute\n\n\n"


def bundle_source(progs):
    return HEADER + "".join(p.source() for p in progs)


DTYPE_SIZE = {t: bits_of(t) // 8 for t in ALL_TYPES}


def driver_source(progs, header):
    """A C++/CUDA driver that fills the inputs, calls every host function and prints every output's bits."""
    out = ["// Generated by tools/difffuzz.py: runs each program and prints 'R <program> <type> <slot> <hex bits>'.",
           "#include <cuda_runtime.h>", "#include <cstdint>", "#include <cstdio>", "#include <cstring>",
           "#include <vector>", '#include "%s"' % header, "",
           "namespace {",
           "struct Buf {", "  tileslc::DeviceBuffer dev;", "  tileslc::DType dt;", "  size_t n = 0, esize = 0;", "};",
           "bool fill(Buf& b, tileslc::DType dt, size_t esize, const uint64_t* bits, size_t n) {",
           "  b.dt = dt, b.n = n, b.esize = esize;",
           "  std::vector<unsigned char> h(n * esize);",
           "  for (size_t i = 0; i < n; ++i) std::memcpy(&h[i * esize], &bits[i], esize);  // little-endian",
           "  return b.dev.allocate(n * esize).ok() && b.dev.copy_from_host(h.data(), n * esize).ok();", "}",
           "tileslc::TensorView view(Buf& b) {",
           "  return tileslc::make_tensor_view(b.dev.data(), b.dt, {static_cast<int64_t>(b.n)});", "}",
           "void dump(const char* prog, const char* type, Buf& b) {",
           "  std::vector<unsigned char> h(b.n * b.esize);",
           "  if (!b.dev.copy_to_host(h.data(), h.size()).ok()) { std::printf(\"E %s copy back failed\\n\", prog); return; }",
           "  for (size_t i = 0; i < b.n; ++i) {",
           "    uint64_t v = 0;", "    std::memcpy(&v, &h[i * b.esize], b.esize);",
           "    std::printf(\"R %s %s %zu %llx\\n\", prog, type, i, static_cast<unsigned long long>(v));", "  }", "}",
           "}  // namespace", "", "int main() {", "  int count = 0;",
           "  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {",
           "    std::printf(\"difffuzz: no CUDA device\\n\");", "    return 77;", "  }"]
    for p in progs:
        ins, outs = sorted(p.inputs), sorted(p.outputs)
        out.append("  {  // %s" % p.name)
        args = []
        for t in ins:
            xs = p.inputs[t]
            out.append("    static const uint64_t in_%s[] = {%s};" % (t, ", ".join("0x%xull" % b for b in xs)))
            out.append("    Buf b_%s;" % t)
            out.append("    if (!fill(b_%s, tileslc::DType::%s, %d, in_%s, %d)) return 1;" % (t, t, DTYPE_SIZE[t], t, len(xs)))
            args.append("view(b_%s)" % t)
        for t in outs:
            n = len(p.outputs[t])
            out.append("    std::vector<uint64_t> poison_%s(%d, 0xa5a5a5a5a5a5a5a5ull);" % (t, n))
            out.append("    Buf o_%s;" % t)
            out.append("    if (!fill(o_%s, tileslc::DType::%s, %d, poison_%s.data(), %d)) return 1;" % (
                t, t, DTYPE_SIZE[t], t, n))
            args.append("view(o_%s)" % t)
        out.append("    tileslc::Status st = %s(%s);" % (p.name, ", ".join(args)))
        out.append("    if (!st.ok()) std::printf(\"E %s %%s\\n\", st.message().c_str());" % p.name)
        out.append("    else if (cudaDeviceSynchronize() != cudaSuccess) std::printf(\"E %s launch failed\\n\");" % p.name)
        out.append("    else {")
        for t in outs:
            out.append("      dump(\"%s\", \"%s\", o_%s);" % (p.name, t, t))
        out.append("    }")
        out.append("  }")
    out += ["  std::printf(\"difffuzz: done\\n\");", "  return 0;", "}", ""]
    return "\n".join(out)


# ------------------------------------------------------------------ comparing


def parse_run_output(text):
    """({(program, type, slot): bits}, error lines) of a driver's output ('R <program> <type> <slot> <hex>'
    and 'E <program> <message>' lines)."""
    results = {}
    errors = []
    for line in text.splitlines():
        parts = line.split()
        if parts[:1] == ["R"] and len(parts) == 5:
            results[(parts[1], parts[2], int(parts[3]))] = int(parts[4], 16)
        elif parts[:1] == ["E"]:
            errors.append(line)
    return results, errors


def compare(expected, run_output, compile_output, opinion):
    """Disagreements between the model (`expected`, one bundle) and the outputs of one run."""
    results, errors = parse_run_output(run_output)
    return compare_results(expected, results, errors, compile_output, opinion)


def compare_results(expected, results, errors, compile_output, opinion):
    """Disagreements between the model (`expected`, one bundle's programs) and the results of one run
    ({(program, type, slot): bits}; `errors`: 'E <program> ...' lines), and between the compile-time
    prints (`compile_output`, tileslc's stdout) and CPython's."""
    printed = {}
    for line in (compile_output or "").splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and parts[0].startswith("S"):
            printed[parts[0]] = parts[1]
    bad = []
    for p in expected:
        why = "; ".join(e for e in errors if e.split()[1:2] == [p["name"]]) or "; ".join(errors) or "missing"
        for t, xs in p["outputs"].items():
            for slot, (kind, text, want, ulps) in enumerate(xs):
                got = results.get((p["name"], t, slot))
                if got is None:
                    bad.append((p["name"], "%s %s: no result (%s)" % (opinion, kind, why), text))
                    continue
                if got == want:
                    continue
                gv, wv = from_bits(got, t), from_bits(want, t)
                if not is_int(t) and (ulp_distance(gv, wv, t) <= ulps):
                    continue
                bad.append((p["name"], "%s %s gO%s[%d]: got %s (0x%x), the documented semantics give %s (0x%x)" % (
                    opinion, kind, t, slot, gv, got, wv, want), text))
        if compile_output is not None:
            for tag, want in p["prints"]:
                got = printed.get(tag)
                if got != want:
                    bad.append((p["name"], "static print %s: tileslc printed %r, Python gives %r" % (tag, got, want), tag))
    return bad


# ------------------------------------------------------------------- building


def run(cmd, cwd=None, timeout=600):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def find_tileslc(arg):
    """--tileslc's path, or the build's tileslc when none is given."""
    c = arg or os.path.join(ROOT, "build", "bin", "tileslc")
    if os.path.exists(c):
        return c
    sys.exit("difffuzz: no tileslc binary at %s (%s)" % (c, "--tileslc" if arg else "build it, or pass --tileslc"))


def emulate_bundle(progs, work, tileslc, rt_cpu, index):
    """Compile one bundle for the CPU emulator, run it; (disagreements, stdout of tileslc)."""
    base = os.path.join(work, "b%d" % index)
    os.makedirs(base, exist_ok=True)
    tpy = os.path.join(base, "bundle.tpy")
    with open(tpy, "w") as f:
        f.write(bundle_source(progs))
    rc, so, se = run([tileslc, tpy, "--target=cpu", "--arch", "sm_90a", "-o", os.path.join(base, "bundle.cpp"),
                      "-H", os.path.join(base, "bundle.h")])
    if rc != 0:
        return [("bundle %d" % index, "tileslc --target=cpu failed (exit %d): %s" % (rc, se.strip()[:2000]), tpy)], so
    with open(os.path.join(base, "main.cpp"), "w") as f:
        f.write(driver_source(progs, "bundle.h"))
    exe = os.path.join(base, "emu")
    rt = os.path.join(ROOT, "runtime", "include")
    cmd = ["g++", "-std=c++20", "-O1", "-fwrapv", "-w", "-I", os.path.join(rt, "tileslc", "cpu", "cuda"), "-I", rt, "-I", base,
           os.path.join(base, "main.cpp"), os.path.join(base, "bundle.cpp"),
           rt_cpu, "-lboost_context", "-lpthread", "-o", exe]
    rc, _, se = run(cmd)
    if rc != 0:
        return [("bundle %d" % index, "g++ failed on the emulator build: %s" % se.strip()[:2000], tpy)], so
    rc, out, err = run([exe], timeout=300)
    bad = compare([p.expected() for p in progs], out, so, "emulator")
    if rc != 0:
        bad.append(("bundle %d" % index, "emulator exited %d: %s" % (rc, (err or out).strip()[-2000:]), tpy))
    return bad, so


def reproducer(prog, texts):
    """A minimal .tpy: the one program, its kernel cut to the statements that disagree (those whose line
    holds one of `texts`; and the loops and tiles that compute accumulators, which other statements do
    not read)."""
    keep = [line for line in prog.lines
            if any(t in line for t in texts) or not (line.startswith("gO") or line.startswith("print("))]
    p2 = Program(prog.name, prog.rng)
    p2.inputs, p2.outputs, p2.lines = prog.inputs, prog.outputs, keep
    values = ["# input m%s = %r" % (t, [from_bits(b, t) for b in xs]) for t, xs in sorted(prog.inputs.items())]
    return "\n".join(values) + "\n" + HEADER + p2.source()


def save_reproducers(directory, bad, program, most=100):
    """Writes DIR/<program>.tpy for each of the first `most` programs that disagree (`program(name)`: the
    Program, or None for a disagreement of no one program), its disagreements in comments at the top."""
    by_program = {}
    for name, what, text in bad:
        by_program.setdefault(name, []).append((what, text))
    written = 0
    for name, found in by_program.items():
        prog = program(name) if written < most else None
        if prog is None:
            continue
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "%s.tpy" % name), "w") as f:
            f.write("".join("# %s\n# %s\n" % (what.replace("\n", " "), text) for what, text in found) +
                    reproducer(prog, [text for _, text in found]))
        written += 1
    if len(by_program) > written:
        print("difffuzz: reproducers of %d programs in %s (%d more disagree)" % (
            written, directory, len(by_program) - written))


def injected_verdict(bad, injected):
    """--inject-wrong's exit status: 0 when the perturbed value and nothing else was reported (a run
    that reports every result, kernels that never ran, would otherwise pass)."""
    ok = len(bad) == 1 and bad[0][0] in injected
    print("difffuzz: --inject-wrong: the perturbed opinion was %s" % (
        "reported" if ok else "NOT reported alone (%d disagreements)" % len(bad)))
    return 0 if ok else 1


def cmd_fuzz(args):
    tileslc = find_tileslc(args.tileslc)
    rt_cpu = args.rt_cpu or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(tileslc))), "lib",
                                         "libtileslc_rt_cpu.a")
    progs = generate(args.seed, args.count, args.inject_wrong)
    bundles = [progs[i:i + PROGRAMS_PER_BUNDLE] for i in range(0, len(progs), PROGRAMS_PER_BUNDLE)]
    work = tempfile.mkdtemp(prefix="difffuzz.")
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(lambda ib: emulate_bundle(ib[1], work, tileslc, rt_cpu, ib[0]), enumerate(bundles)))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("difffuzz: kept %s" % work)
    bad = [b for r, _ in results for b in r]
    exprs = sum(p.expressions for p in progs)
    by_name = {p.name: p for p in progs}
    for name, what, text in bad[:50]:
        print("DISAGREE %s: %s\n    %s" % (name, what, text))
    if args.save_reproducers:
        save_reproducers(args.save_reproducers, bad, by_name.get)
    print("difffuzz: seed %d: %d programs, %d expressions, %d bundles, %d disagreements" % (
        args.seed, len(progs), exprs, len(bundles), len(bad)))
    if args.inject_wrong:
        return injected_verdict(bad, [p.name for p in progs if getattr(p, "injected", False)])
    return 1 if bad else 0


# ---------------------------------------------------------------- the GPU half
#
# gpu-prep compiles only device code: each bundle's generated CUDA C++ becomes one cubin (nvcc -cubin:
# cicc and ptxas, no host compiler, no CUDA runtime linked), and bundle.json describes how to launch each
# kernel from tileslc's --emit-metadata. gpu-run loads the cubins with the CUDA driver (ctypes,
# tools/difffuzz_cuda.py), so the GPU machine needs python3 and the driver only.

GPU_ARCH = "sm_90a"
GPU_GRID = (1, 1, 1)  # Program.source launches grid=(1, 1, 1)
BUFFER_ALIGN = 256  # each tensor of a program's allocation starts here, as cudaMalloc's would
POISON = 0xA5  # every byte of an output before the kernel runs


def itanium_prefix(qualified_name):
    """The mangled name's start (`_ZN...E`, before the parameter types) of a function `a::b::f`."""
    return "_ZN" + "".join("%d%s" % (len(c), c) for c in qualified_name.split("::")) + "E"


def kernel_symbols(cubin):
    """Every mangled C++ name (`_ZN...`) in `cubin`'s string tables."""
    return set(n.decode() for n in re.findall(rb"_ZN[A-Za-z0-9_]+", cubin))


def kernel_symbol(symbols, qualified_name):
    """The mangled name of the kernel `qualified_name` among `symbols` (kernel_symbols of its cubin)."""
    prefix = itanium_prefix(qualified_name)
    names = [n for n in symbols if n.startswith(prefix)]
    if len(names) != 1:
        raise ValueError("the cubin names %s %d times, not once" % (qualified_name, len(names)))
    return names[0]


def kernel_args(kernel, prog):
    """How gpu-run fills each parameter of `kernel` (its --emit-metadata entry) for `prog`: ["in", T] and
    ["out", T] are the addresses of input gT and output gOT, ["i64", v] an Int64 value (an input's
    extent N_<program>_T, or a tensor's stride, 1). Any other parameter is an error: the kernel ABI
    changed and this function must learn it."""
    args = []
    pointers = set()
    for prm in kernel["params"]:
        name, kind, dtype = prm["name"], prm["kind"], prm["dtype"]
        extent = "N_%s_" % prog.name
        if kind == "pointer" and name == "gO" + dtype and dtype in prog.outputs:
            args.append(["out", dtype])
            pointers.add(name)
        elif kind == "pointer" and name == "g" + dtype and dtype in prog.inputs:
            args.append(["in", dtype])
            pointers.add(name)
        elif kind == "scalar" and dtype == "Int64" and name.startswith(extent) and name[len(extent):] in prog.inputs:
            args.append(["i64", len(prog.inputs[name[len(extent):]])])
        elif kind == "scalar" and dtype == "Int64" and name.endswith("_stride0") and name[:-len("_stride0")] in pointers:
            args.append(["i64", 1])
        else:
            raise ValueError("kernel %s: parameter %s (%s %s) is not one difffuzz knows how to pass" % (
                kernel["name"], name, kind, dtype))
    return args


def prep_bundle(args, tileslc, index, first, count):
    """Generates and compiles bundle `index` (programs first..first+count-1) into DIR/bNNNNN: bundle.tpy,
    bundle.cubin and bundle.json (written last: a bundle without it is not run). None, or an error line."""
    progs = generate(args.seed, count, args.inject_wrong and index == 0, first)
    base = os.path.join(args.dir, "b%05d" % index)
    os.makedirs(base, exist_ok=True)
    tpy, cu, meta, cubin = (os.path.join(base, n) for n in ("bundle.tpy", "bundle.cu", "meta.json", "bundle.cubin"))
    with open(tpy, "w") as f:
        f.write(bundle_source(progs))
    rc, so, se = run([tileslc, tpy, "--arch", GPU_ARCH, "-o", cu, "--emit-metadata", meta])
    if rc != 0:
        return "b%05d: tileslc failed (exit %d): %s" % (index, rc, se[:2000])
    # Device code only. -fmad=false: no a*b+c contracted into an FMA, which would round once where the
    # program rounds twice. The device optimization levels stay nvcc's defaults (what a user gets).
    rc, _, se = run([args.nvcc, "-cubin", "-std=c++17", "-arch=" + GPU_ARCH, "-fmad=false", "-w",
                     "-I", os.path.join(ROOT, "runtime", "include"), cu, "-o", cubin], timeout=1200)
    if rc != 0:
        return "b%05d: nvcc failed: %s" % (index, se[:2000])
    with open(meta) as f:
        kernels = {k["name"]: k for k in json.load(f)["kernels"]}
    with open(cubin, "rb") as f:
        symbols = kernel_symbols(f.read())
    programs = []
    try:
        for p in progs:
            k = kernels[p.name + "_kernel"]
            e = p.expected()
            e["kernel"] = {"symbol": kernel_symbol(symbols, k["qualified_name"]), "args": kernel_args(k, p),
                           "block": [k["threads_per_block"], 1, 1], "shared_bytes": k["shared_memory_bytes"]}
            programs.append(e)
    except (KeyError, ValueError) as e:
        return "b%05d: %s" % (index, e)
    with open(os.path.join(base, "bundle.json"), "w") as f:
        json.dump({"programs": programs, "compile_stdout": so,
                   "injected": [p.name for p in progs if getattr(p, "injected", False)]}, f)
    os.remove(cu)
    os.remove(meta)
    return None


def prep_bundle_in_budget(job):
    """prep_bundle(args, tileslc, index, first, count), or "skipped" once --prep-budget-s has passed since t0."""
    args, tileslc, index, first, count, t0 = job
    if args.prep_budget_s and time.monotonic() - t0 > args.prep_budget_s:
        return "skipped"
    return prep_bundle(args, tileslc, index, first, count)


def cmd_gpu_prep(args):
    """Generate bundles and compile each into a cubin for sm_90a with bundle.json; 0 when all were built."""
    tileslc = find_tileslc(args.tileslc)
    if not (shutil.which(args.nvcc) or os.access(args.nvcc, os.X_OK)):
        print("difffuzz gpu-prep: no nvcc at '%s' (pass --nvcc PATH)" % args.nvcc, file=sys.stderr)
        return 2
    try:
        os.makedirs(args.dir, exist_ok=True)
    except OSError as e:
        print("difffuzz gpu-prep: cannot make the directory '%s': %s" % (args.dir, e.strerror), file=sys.stderr)
        return 2
    for d in os.listdir(args.dir):  # an earlier run's bundles would be run with these
        if re.fullmatch(r"b\d{5}", d):
            shutil.rmtree(os.path.join(args.dir, d))
    per = args.per_bundle
    starts = list(range(0, args.count, per))
    t0 = time.monotonic()
    # processes, not threads: generating the programs and the model's values is Python (the GIL)
    with ProcessPoolExecutor(max_workers=args.jobs) as ex:
        outcomes = list(ex.map(prep_bundle_in_budget, [(args, tileslc, i, first, min(per, args.count - first), t0)
                                                       for i, first in enumerate(starts)]))
    errs = [e for e in outcomes if e and e != "skipped"]
    skipped = outcomes.count("skipped")
    for e in errs:
        print(e)
    built = [min(per, args.count - first) for first, e in zip(starts, outcomes) if e is None]
    print("difffuzz gpu-prep: seed %d: %d programs in %d bundles built in %s in %.0f s (%d jobs), %d failed%s" % (
        args.seed, sum(built), len(built), args.dir, time.monotonic() - t0, args.jobs, len(errs),
        ", %d not started (--prep-budget-s %g)" % (skipped, args.prep_budget_s) if skipped else ""))
    return 1 if errs else 0


def program_layout(p):
    """A program's one allocation: ({("in"|"out", type): (offset, bytes)}, total bytes, the host image
    to upload: the inputs' bits, every output byte POISON)."""
    where, size = {}, 0
    for role, tensors in (("in", p["inputs"]), ("out", p["outputs"])):
        for t in sorted(tensors):
            n = len(tensors[t]) * DTYPE_SIZE[t]
            where[(role, t)] = (size, n)
            size += (n + BUFFER_ALIGN - 1) // BUFFER_ALIGN * BUFFER_ALIGN
    image = bytearray([POISON]) * size
    for t, xs in p["inputs"].items():
        off, _ = where[("in", t)]
        es = DTYPE_SIZE[t]
        for i, b in enumerate(xs):
            image[off + i * es:off + (i + 1) * es] = b.to_bytes(es, "little")
    return where, size, bytes(image)


def run_program(drv, module, p):
    """Runs one program's kernel; its results {(program, type, slot): bits}."""
    k = p["kernel"]
    where, size, image = program_layout(p)
    ptr = drv.alloc(size)
    try:
        drv.upload(ptr, image)
        args = [ctypes.c_uint64(ptr + where[(a[0], a[1])][0]) if a[0] in ("in", "out") else ctypes.c_int64(a[1])
                for a in k["args"]]
        drv.launch(drv.function(module, k["symbol"]), GPU_GRID, tuple(k["block"]), k["shared_bytes"], args)
        drv.synchronize()
        first = min(off for (role, _), (off, _) in where.items() if role == "out")
        data = drv.download(ptr + first, size - first)
    finally:
        drv.free(ptr)
    results = {}
    for t, xs in p["outputs"].items():
        off, _ = where[("out", t)]
        es = DTYPE_SIZE[t]
        for i in range(len(xs)):
            o = off - first + i * es
            results[(p["name"], t, i)] = int.from_bytes(data[o:o + es], "little")
    return results


def run_bundle(drv, base, exp, progress):
    """Runs every program of one bundle: (results, 'E <program> ...' error lines). After a failed launch
    the context is reset (a fault poisons it) and the next program runs in a fresh one; when the cubin
    cannot be loaded, no program of the bundle runs."""
    with open(os.path.join(base, "bundle.cubin"), "rb") as f:
        image = f.read()
    results, errors = {}, []
    module = None
    for i, p in enumerate(exp["programs"]):
        progress[:] = ["%s %s" % (base, p["name"]), time.monotonic()]
        try:
            if module is None:
                module = drv.load_module(image)
        except CudaError as e:
            errors += ["E %s %s" % (q["name"], e) for q in exp["programs"][i:]]
            break
        try:
            results.update(run_program(drv, module, p))
        except CudaError as e:
            errors.append("E %s %s" % (p["name"], e))
            drv.reset()
            module = None
    if module is not None:
        drv.unload_module(module)
    return results, errors


def start_watchdog(progress, seconds):
    """Ends the process (exit 3) when one program has been running `seconds`: a kernel that never ends
    would hang gpu-run in the driver, which no exception interrupts."""
    def watch():
        while True:
            time.sleep(1)
            if progress and time.monotonic() - progress[1] > seconds:
                print("difffuzz gpu-run: %s has run %d s without finishing: stopped (a kernel that does not end?)"
                      % (progress[0], seconds), flush=True)
                os._exit(3)
    threading.Thread(target=watch, daemon=True).start()


def cmd_gpu_run(args):
    """Run every prebuilt bundle in --dir on the GPU and compare with the documented semantics."""
    bundles = sorted(d for d in os.listdir(args.dir) if re.fullmatch(r"b\d{5}", d) and
                     os.path.exists(os.path.join(args.dir, d, "bundle.json"))) if os.path.isdir(args.dir) else []
    if not bundles:
        print("difffuzz gpu-run: no built bundles in %s (run gpu-prep first)" % args.dir)
        return 2
    try:
        drv = Driver()
    except CudaUnavailable as e:
        print("difffuzz gpu-run: no CUDA device here: nothing was run (%s)" % e)
        return 77
    t0 = time.monotonic()
    progress = []
    start_watchdog(progress, args.hang_s)
    nprogs = nexprs = ran = failing = 0
    bad, injected = [], set()
    for d in bundles:
        base = os.path.join(args.dir, d)
        with open(os.path.join(base, "bundle.json")) as f:
            exp = json.load(f)
        results, errors = run_bundle(drv, base, exp, progress)
        ran += 1
        nprogs += len(exp["programs"])
        nexprs += sum(len(xs) for p in exp["programs"] for xs in p["outputs"].values())
        bad += compare_results(exp["programs"], results, errors, exp["compile_stdout"], "gpu")
        injected.update(exp.get("injected", []))
        failing = failing + 1 if errors and len(errors) == len(exp["programs"]) else 0
        if failing == 3:  # the driver or the cubins, not the programs: stop rather than fail them all
            print("difffuzz gpu-run: no program of 3 bundles in a row ran (%s): stopped" % errors[-1])
            break
    progress.clear()
    for name, what, text in bad[:100]:
        print("DISAGREE %s: %s\n    %s" % (name, what, text))
    if args.save_reproducers:
        save_reproducers(args.save_reproducers, bad,
                         lambda name: make_program(int(name[1:])) if re.fullmatch(r"p\d+", name) else None)
    print("difffuzz gpu-run: %s: %d bundles, %d programs, %d results, %d disagreements (%.1f s)" % (
        drv.name, ran, nprogs, nexprs, len(bad), time.monotonic() - t0))
    if injected:
        return injected_verdict(bad, injected)
    return 1 if bad else 0


def cmd_gpu(args):
    """gpu-prep, then gpu-run over what was built: 77 without a GPU (after preparing), 1 when a bundle
    failed to build or a result disagrees."""
    prep = cmd_gpu_prep(args)
    rc = cmd_gpu_run(args)
    return 1 if prep != 0 and rc in (0, 2, 77) else rc


def _whole(low):
    """argparse type: a whole number >= low (a clear usage error instead of a traceback later)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("expected a whole number, found %r" % text)
        if value < low:
            raise argparse.ArgumentTypeError("expected a whole number from %d, found %d" % (low, value))
        return value
    return parse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    ap.add_argument("--seed", type=_whole(0), default=0)
    ap.add_argument("--count", type=_whole(1), default=50, help="programs to generate")
    ap.add_argument("--save-reproducers", metavar="DIR")
    ap.add_argument("--inject-wrong", action="store_true",
                    help="self-test: perturb one expected value; exit 0 only if it is reported")
    ap.add_argument("--tileslc")
    ap.add_argument("--rt-cpu", help="libtileslc_rt_cpu.a (default: next to tileslc's build)")
    ap.add_argument("--jobs", type=_whole(1), default=2)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    prep_args = argparse.ArgumentParser(add_help=False)
    prep_args.add_argument("--seed", type=_whole(0), required=True)
    prep_args.add_argument("--count", type=_whole(1), required=True)
    prep_args.add_argument("--tileslc")
    prep_args.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    prep_args.add_argument("--jobs", type=_whole(1), default=os.cpu_count() or 2, help="nvcc runs at once (default: the cores)")
    prep_args.add_argument("--per-bundle", type=_whole(1), default=100, help="programs per cubin")
    prep_args.add_argument("--inject-wrong", action="store_true",
                           help="self-test: perturb one expected value; gpu-run exits 0 only if it is reported")
    prep_args.add_argument("--prep-budget-s", type=float, default=0,
                           help="start no bundle after this many seconds (0: no limit); gpu-run runs those built")
    run_args = argparse.ArgumentParser(add_help=False)
    run_args.add_argument("--hang-s", type=float, default=60, help="stop when one program runs this long")
    run_args.add_argument("--save-reproducers", metavar="DIR")
    dir_arg = argparse.ArgumentParser(add_help=False)
    dir_arg.add_argument("--dir", required=True)
    sub.add_parser("gpu-prep", parents=[prep_args, dir_arg], help="build bundles of cubins (tileslc, nvcc)")
    sub.add_parser("gpu-run", parents=[run_args, dir_arg], help="run them (python3 and the CUDA driver)")
    sub.add_parser("gpu", parents=[prep_args, run_args, dir_arg], help="gpu-prep, then gpu-run")
    args = ap.parse_args()
    if args.cmd == "gpu-prep":
        return cmd_gpu_prep(args)
    if args.cmd == "gpu-run":
        return cmd_gpu_run(args)
    if args.cmd == "gpu":
        return cmd_gpu(args)
    return cmd_fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
