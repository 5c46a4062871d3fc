# tileslc-gdb.py: gdb support for kernels that run in tileslc's CPU emulator
# (tileslc --target=cpu; docs/debugging.md walks through a session).
#
# Load it with `source <prefix>/share/tileslc/gdb/tileslc-gdb.py` (in a repository
# checkout: runtime/gdb/tileslc-gdb.py), from the command line (`gdb -x ...`) or
# from ~/.gdbinit. It adds:
#
# - `skip` settings so that `step` and `next` stay on the kernel's .tpy lines:
#   the emulator's runtime (every file under */tileslc/cpu/*, where TILESLC_AT,
#   barriers and warp collectives live) and the C++ standard library are never
#   stepped into.
# - Pretty-printers for the emulator's tensors: tileslc::cpu::Span<T> (a kernel's
#   global tensor, shared-memory buffer or register fragment: its .tpy name,
#   memory space, element count and elements, as many as `set print elements`
#   allows; a tensor parameter of code built with --debug as a tensor view, below)
#   and tileslc::cpu::Ptr<T> (an element address).
# - Pretty-printers for what `tileslc --debug` declares for each .tpy name bound to
#   a layout or a tensor view (tileslc/cpu/debug_view.h): a layout with its table
#   of offsets (`print thr_layout`), a tensor view (a tile, a partition) with its
#   memory space, layout, shape, origin and elements as a table, and a register
#   fragment the same way (`print frgA`); tables for up to TABLE_LIMIT elements.
# - The emulator's narrow floats (__half, __nv_bfloat16, fp8) print as their value.
# - `gA[i]` on a Span in gdb expressions (an xmethod): the element at offset i,
#   checked against the span as the emulator checks the kernel's accesses.
# - `tileslc break LOCATION [thread=(x,y,z)] [block=(x,y,z)]`: a breakpoint that
#   stops only in that emulated thread and block (omitted indices match any).
# - `tileslc thread`: the indices of the emulated thread that gdb stopped in.
# - `tileslc barrier`: the threads of the block by what they do (running, waiting
#   at which barrier or collective and line, released, not started, finished).
# - `tileslc switch thread=(x,y,z) [block=(x,y,z)]`: show a suspended emulated thread
#   where it waits (its frames, locals and .tpy line, unwound from the registers its
#   fiber saved), or run on until a thread not started yet reaches the line gdb
#   stopped at.
#
# The thread's indices come from the locals that `tileslc --debug` puts in every
# kernel frame (tl_thread_idx, tl_block_idx, tl_warp_idx, tl_lane_idx); without
# them (code generated without --debug) from the emulator's
# tileslc::cpu::t_thread, the fiber running now.
import re

import gdb
import gdb.printing
import gdb.unwinder
import gdb.xmethod

# ---------------------------------------------------------------- stepping

def _skip_runtime():
    # -gfi: a glob over the file a function is defined in. The emulator's
    # headers are where every checked access and collective operation lives.
    for cmd in ("skip -gfi */tileslc/cpu/*", "skip -gfi */tileslc/cpu/*/*", "skip -rfu ^std::"):
        try:
            gdb.execute(cmd, to_string=True)
        except gdb.error:
            pass


_skip_runtime()

# ---------------------------------------------------------------- pretty-printers

_SPACE = {0: "global", 1: "shared", 2: "register"}


def _space(v):
    try:
        return _SPACE.get(int(v.cast(gdb.lookup_type("int"))), str(v))
    except gdb.error:
        return str(v).rsplit("::", 1)[-1].lower()


def _c_str(v):
    try:
        return v.string()
    except gdb.error:
        return "?"


def parameter_view(val):
    """The debug view (`tl_<name>_view`, tileslc --debug) of the kernel's tensor parameter that `val`
    is (a tensor parameter is a Span the kernel's accesses go through; its view beside it holds its
    .tpy name and layout), or None: another span, or code generated without --debug."""
    addr = val.address
    if addr is None:
        return None
    try:
        frame = gdb.selected_frame()
        block = frame.block()
    except (gdb.error, RuntimeError):
        return None
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        return None
    for sym in block:
        if not sym.is_argument:
            continue
        try:
            if sym.value(frame).address != addr:
                continue
            return frame.read_var("tl_%s_view" % sym.name)
        except (gdb.error, ValueError):
            return None
    return None


class SpanPrinter:
    """tileslc::cpu::Span<T>: the memory a kernel's tensor may touch, offsets [lo, hi) from base.

    A kernel's tensor parameter with a debug view prints as a tensor view (TensorViewPrinter):
    its .tpy name, layout and shape."""

    def __new__(cls, val):
        view = parameter_view(val)
        if view is not None:
            return TensorViewPrinter(view, False)
        return super().__new__(cls)

    def __init__(self, val):
        self.val = val

    def _unchecked(self):
        return int(self.val["count"]) < 0

    def to_string(self):
        name = _c_str(self.val["name"])
        space = _space(self.val["space"])
        elem = self.val.type.strip_typedefs().template_argument(0)
        if self._unchecked():
            return "%s tensor of %s at %s (unchecked pointer)" % (space, elem, self.val["base"])
        lo, hi = int(self.val["lo"]), int(self.val["hi"])
        return '%s tensor "%s" of %s: %d elements, offsets [%d, %d)' % (space, name, elem, int(self.val["count"]), lo, hi)

    def children(self):
        if self._unchecked():
            return
        base = self.val["base"]
        lo, hi = int(self.val["lo"]), int(self.val["hi"])
        for i in range(lo, hi):
            yield "[%d]" % i, (base + i).dereference()

    def display_hint(self):
        return "array"


class PtrPrinter:
    """tileslc::cpu::Ptr<T>: the address of element `offset` of a checked tensor."""

    def __init__(self, val):
        self.val = val

    def to_string(self):
        return '&%s[%d] (%s) = %s' % (_c_str(self.val["name"]), int(self.val["index"]), _space(self.val["space"]),
                                      self.val["p"].dereference() if int(self.val["p"]) else "null")


# ---------------------------------------------------------------- layouts, tensor views, fragments
#
# `tileslc --debug` declares, for each layout and tensor view a kernel binds to a .tpy
# name, an object of runtime/include/tileslc/cpu/debug_view.h: the layout in CuTe's
# form with each integer a number or the name of a local or parameter of the kernel's
# frame ("((4,1),4):((1,0),tl_thrA_5)"), and for a tensor the span it views and its
# origin (a local's name). The printers below read those names in the frame.

TABLE_LIMIT = 256  # a layout or tensor of at most this many elements prints as a table


def _tokens(text):
    return re.findall(r"[()\[\],:]|[^()\[\],:\s]+", text)


def _parse_tuple(tokens, pos):
    """An integer tuple in CuTe's form from tokens[pos]: (tree, next pos); a tree is a name/number or a list."""
    if tokens[pos] == "(":
        elems, pos = [], pos + 1
        while tokens[pos] != ")":
            e, pos = _parse_tuple(tokens, pos)
            elems.append(e)
            if tokens[pos] == ",":
                pos += 1
        return elems, pos + 1
    return tokens[pos], pos + 1


def _resolve(tree, frame):
    """Numbers for the leaves of `tree`: literals, or locals and parameters read from `frame`."""
    if isinstance(tree, list):
        return [_resolve(e, frame) for e in tree]
    if re.fullmatch(r"-?\d+", tree):
        return int(tree)
    return int(frame.read_var(tree))


def parse_layout(text, frame=None):
    """("shape", "stride") text of a debug view -> (shape, stride) nested lists of ints (leaves read in `frame`)."""
    toks = _tokens(text)
    shape, pos = _parse_tuple(toks, 0)
    if toks[pos] != ":":
        raise ValueError("not a layout: %s" % text)
    stride, _ = _parse_tuple(toks, pos + 1)
    frame = frame or gdb.selected_frame()
    return _resolve(shape, frame), _resolve(stride, frame)


def _flat(t):
    return [x for e in t for x in _flat(e)] if isinstance(t, list) else [t]


def _show(t):
    return "(" + ",".join(_show(e) for e in t) + ")" if isinstance(t, list) else str(t)


def _size(t):
    n = 1
    for x in _flat(t):
        n *= x
    return n


def layout_offset(shape, stride, i):
    """The layout's value at linear (colexicographic) index i, as CuTe's layout(i)."""
    off = 0
    for s, d in zip(_flat(shape), _flat(stride)):
        off += (i % s) * d
        i //= s
    return off


def _rows_cols(shape):
    """A table's rows (mode 0) and columns (the other modes). Modes of size 1 are left out
    first, and a single mode left that is a tuple is split, so that a fragment of shape
    ((4,4),1,1) is a 4 x 4 table; a rank-1 layout is one row. The linear index of cell
    (r, c) is r + c * rows either way (colexicographic)."""
    modes = shape if isinstance(shape, list) else [shape]
    modes = [m for m in modes if _size(m) != 1] or modes[:1]
    if len(modes) == 1 and isinstance(modes[0], list) and len(modes[0]) > 1:
        modes = modes[0]
    if len(modes) < 2:
        return 1, _size(modes)
    return _size(modes[0]), _size(modes[1:])


def table(shape, cell):
    """The layout's coordinates as a table (row: mode 0, column: the other modes), cell(i) at linear index i."""
    rows, cols = _rows_cols(shape)
    cells = [[cell(r + c * rows) for c in range(cols)] for r in range(rows)]
    w = max([len(x) for row in cells for x in row] + [len(str(cols - 1))])
    rw = len(str(rows - 1))
    lines = [" " * (rw + 2) + " ".join(str(c).rjust(w) for c in range(cols))]
    lines += [str(r).rjust(rw) + ": " + " ".join(x.rjust(w) for x in cells[r]) for r in range(rows)]
    return "\n".join(lines)


def _swizzle(text):
    """CuTe's Swizzle<B,M,S> as a function of an element offset; identity for ""."""
    m = re.fullmatch(r"Sw<(\d+),(\d+),(-?\d+)>", text or "")
    if not m:
        return lambda x: x
    bits, base, shift = (int(g) for g in m.groups())
    yyy = ((1 << bits) - 1) << (base + max(0, shift))
    return lambda x: x ^ ((x & yyy) >> shift) if shift >= 0 else x ^ ((x & yyy) << -shift)


def _summary():
    """Whether gdb prints a summary (a frame line's arguments, `print frame-arguments scalars`):
    no tables there. Told by gdb.print_options (Debian's gdb 13.1 has it); a gdb without it shows
    a small tensor parameter's table in frame lines too."""
    options = getattr(gdb, "print_options", None)
    return bool(options and options().get("summary"))


class LayoutPrinter:
    """tileslc::cpu::debug::Layout: a layout bound to a .tpy name; small ones with their table of offsets."""

    def __init__(self, val):
        self.val = val

    def to_string(self):
        text = _c_str(self.val["layout"])
        try:
            shape, stride = parse_layout(text)
        except (gdb.error, ValueError, IndexError) as e:
            return 'layout "%s" %s (%s)' % (_c_str(self.val["name"]), text, e)
        head = 'layout "%s" %s:%s' % (_c_str(self.val["name"]), _show(shape), _show(stride))
        if _size(shape) > TABLE_LIMIT:
            return head + ", %d elements" % _size(shape)
        return head + "\n" + table(shape, lambda i: str(layout_offset(shape, stride, i)))


class TensorViewPrinter:
    """tileslc::cpu::debug::Tensor / Fragment: a tensor view bound to a .tpy name, with its memory
    space, layout, shape and origin; small ones with their elements as a table (row: mode 0)."""

    def __init__(self, val, fragment):
        self.val = val
        self.fragment = fragment

    def _view(self):
        frame = gdb.selected_frame()
        shape, stride = parse_layout(_c_str(self.val["layout"]), frame)
        origin = _c_str(self.val["offset"])
        origin = int(origin) if re.fullmatch(r"-?\d+", origin) else int(frame.read_var(origin))
        return shape, stride, origin

    def element(self, shape, stride, origin, i):
        data = self.val["data"]
        off = _swizzle(_c_str(self.val["swizzle"]))(origin + layout_offset(shape, stride, i))
        if int(data["count"]) >= 0 and not int(data["lo"]) <= off < int(data["hi"]):
            return None
        return (data["base"] + off).dereference()

    def to_string(self):
        data = self.val["data"]
        name = _c_str(self.val["name"])
        elem = self.val.type.strip_typedefs().template_argument(0)
        what = "register fragment" if self.fragment else "%s tensor" % _space(data["space"])
        try:
            shape, stride, origin = self._view()
        except (gdb.error, ValueError, IndexError) as e:
            return '%s "%s" of %s, layout %s (%s)' % (what, name, elem, _c_str(self.val["layout"]), e)
        sw = _c_str(self.val["swizzle"])
        head = '%s "%s" of %s, layout %s%s:%s, shape %s, %d elements, origin %s[%d]' % (
            what, name, elem, sw + " o " if sw else "", _show(shape), _show(stride), _show(shape), _size(shape),
            _c_str(data["name"]), origin)
        if _size(shape) > TABLE_LIMIT or _summary():
            return head
        def cell(i):
            try:
                v = self.element(shape, stride, origin, i)
                return "-" if v is None else str(v)
            except gdb.error:  # memory gdb cannot read (a view printed before its memory exists)
                return "?"
        return head + "\n" + table(shape, cell)

    def children(self):
        try:
            shape, stride, origin = self._view()
        except (gdb.error, ValueError, IndexError):
            return
        if _size(shape) <= TABLE_LIMIT:
            return  # shown as a table
        for i in range(_size(shape)):
            v = self.element(shape, stride, origin, i)
            if v is not None:
                yield "[%d]" % i, v

    def display_hint(self):
        return "array"


def _narrow_float(bits, ebits, mbits, ieee):
    """A float of 1 sign, `ebits` exponent and `mbits` mantissa bits; `ieee`: the top exponent is
    infinity/NaN (half, bf16, e5m2), else only all ones is NaN (e4m3, which has no infinity)."""
    sign = -1.0 if bits >> (ebits + mbits) & 1 else 1.0
    e, m = bits >> mbits & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if ieee and e == (1 << ebits) - 1:
        return sign * float("inf") if m == 0 else float("nan")
    if not ieee and e == (1 << ebits) - 1 and m == (1 << mbits) - 1:
        return float("nan")
    if e == 0:
        return sign * m / (1 << mbits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


class NarrowFloatPrinter:
    """The emulator's __half, __nv_bfloat16, __nv_fp8_e4m3 and __nv_fp8_e5m2 (tileslc/cpu/types.h): their value."""

    FORMATS = {"__half": ("bits_", 5, 10, True), "__nv_bfloat16": ("bits_", 8, 7, True),
               "__nv_fp8_e4m3": ("__x", 4, 3, False), "__nv_fp8_e5m2": ("__x", 5, 2, True)}

    def __init__(self, val):
        self.val = val

    def to_string(self):
        field, ebits, mbits, ieee = self.FORMATS[str(self.val.type.strip_typedefs().unqualified())]
        return "%g" % _narrow_float(int(self.val[field]), ebits, mbits, ieee)


def _printers():
    pp = gdb.printing.RegexpCollectionPrettyPrinter("tileslc")
    pp.add_printer("Span", r"^tileslc::cpu::Span<.*>$", SpanPrinter)
    pp.add_printer("Ptr", r"^tileslc::cpu::Ptr<.*>$", PtrPrinter)
    pp.add_printer("Layout", r"^tileslc::cpu::debug::Layout$", LayoutPrinter)
    pp.add_printer("Tensor", r"^tileslc::cpu::debug::Tensor<.*>$", lambda v: TensorViewPrinter(v, False))
    pp.add_printer("Fragment", r"^tileslc::cpu::debug::Fragment<.*>$", lambda v: TensorViewPrinter(v, True))
    pp.add_printer("narrow float", r"^(__half|__nv_bfloat16|__nv_fp8_e4m3|__nv_fp8_e5m2)$", NarrowFloatPrinter)
    return pp


gdb.printing.register_pretty_printer(None, _printers(), replace=True)

# ---------------------------------------------------------------- gA[i]


class _SpanIndexWorker(gdb.xmethod.XMethodWorker):
    def get_arg_types(self):
        return gdb.lookup_type("long")

    def get_result_type(self, obj, index):
        return obj.type.strip_typedefs().template_argument(0)

    def __call__(self, obj, index):
        i = int(index)
        lo, hi = int(obj["lo"]), int(obj["hi"])
        if int(obj["count"]) >= 0 and not lo <= i < hi:
            raise gdb.GdbError('offset %d is outside the tensor "%s" (offsets [%d, %d))' % (i, _c_str(obj["name"]), lo, hi))
        return (obj["base"] + i).dereference()


class _SpanIndex(gdb.xmethod.XMethod):
    def __init__(self):
        super().__init__("operator[]")

    def get_worker(self, method_name):
        return _SpanIndexWorker() if method_name == "operator[]" else None


class _SpanMatcher(gdb.xmethod.XMethodMatcher):
    def __init__(self):
        super().__init__("tileslc::cpu::Span")
        self.methods = [_SpanIndex()]

    def match(self, class_type, method_name):
        if method_name != "operator[]" or not re.match(r"^tileslc::cpu::Span<.*>$", str(class_type.strip_typedefs())):
            return None
        return [m.get_worker(method_name) for m in self.methods if m.enabled]


gdb.xmethod.register_xmethod_matcher(None, _SpanMatcher(), replace=True)

# ---------------------------------------------------------------- threads


def _uint3(v):
    return tuple(int(v[c]) for c in ("x", "y", "z"))


def current_indices(frame=None):
    """(thread, block) of the emulated thread gdb stopped in, each an (x, y, z) tuple; None outside kernels."""
    frame = frame or gdb.selected_frame()
    try:  # tileslc --debug: the kernel frame's own locals
        return _uint3(frame.read_var("tl_thread_idx")), _uint3(frame.read_var("tl_block_idx"))
    except (ValueError, gdb.error):
        pass
    try:
        ctx = gdb.parse_and_eval("tileslc::cpu::t_thread")
        if int(ctx) == 0:
            return None
        return _uint3(ctx["thread_idx"]), _uint3(ctx["block_idx"])
    except gdb.error:
        return None


def _parse_triple(text, what):
    parts = [p.strip() for p in text.strip().strip("()").split(",") if p.strip()]
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"\d+|\*", p) for p in parts):
        raise gdb.GdbError("tileslc break: %s=%s: expected (x,y,z), e.g. %s=(5,0,0); * matches any" % (what, text, what))
    parts += ["0"] * (3 - len(parts))
    return tuple(None if p == "*" else int(p) for p in parts)


class ThreadBreakpoint(gdb.Breakpoint):
    """A breakpoint that stops only in the emulated thread `thread` of block `block` ((x, y, z), None: any)."""

    def __init__(self, spec, thread, block, temporary=False):
        super().__init__(spec, temporary=temporary)
        self.want = (thread, block)

    @staticmethod
    def _matches(want, got):
        return want is None or all(w is None or w == g for w, g in zip(want, got))

    def stop(self):
        got = current_indices()
        if got is None:
            return False
        return self._matches(self.want[0], got[0]) and self._matches(self.want[1], got[1])


# ---------------------------------------------------------------- the block's fibers
#
# The emulator runs a block's threads as fibers (runtime/src/cpu/grid.cpp): a thread
# runs until it finishes or waits for others (a barrier, a warp-collective operation,
# an mbarrier phase), then the next one runs. The block running now is the host
# thread's t_cta; each of its Fibers has a state and, while waiting, what it waits at.

_WAITS = {-1: "warp-collective", -2: "wait", -3: "warpgroup-collective", -4: "barrier.cluster.wait"}


def _std_vector(v):
    impl = v["_M_impl"]
    start = impl["_M_start"]
    return [start[i] for i in range(int(impl["_M_finish"] - start))]


def _source_location(loc):
    """A std::source_location (libstdc++) as FILE:LINE."""
    try:
        impl = loc["_M_impl"]
        if int(impl) == 0:
            return "?"
        return "%s:%d" % (impl["_M_file_name"].string(), int(impl["_M_line"]))
    except gdb.error:
        return "?"


def block_fibers():
    """The threads of the block running now: dicts with thread, state ("NotStarted", "Ready",
    "Waiting", "Done"; the running one "Running"), and for waiting ones `what` and `where`.
    None outside a kernel (or without the runtime's debug information)."""
    try:
        cta = gdb.parse_and_eval("'tileslc::cpu::(anonymous namespace)::t_cta'")
        running = gdb.parse_and_eval("'tileslc::cpu::(anonymous namespace)::t_fiber'")
    except gdb.error:
        return None
    if int(cta) == 0:
        return None
    out = []
    for f in _std_vector(cta.dereference()["threads"]):
        state = str(f["state"]).rsplit("::", 1)[-1]
        if int(running) != 0 and f.address == running:
            state = "Running"
        d = {"thread": _uint3(f["ctx"]["thread_idx"]), "block": _uint3(f["ctx"]["block_idx"]), "state": state}
        if state in ("Waiting", "Ready"):
            try:  # boost::context::fiber's fcontext_t: where the suspended thread's registers are saved
                d["context"] = int(f["fiber"]["fctx_"])
            except gdb.error:
                d["context"] = 0
        if state == "Waiting":
            w = f["wait"]
            bid = int(w["barrier"])
            what = _c_str(w["what"])
            if bid >= 0 and what == "bar.sync":
                what = "bar.sync %d" % bid
            elif bid < 0 and not what:
                what = _WAITS.get(bid, "wait")
            d["what"], d["where"] = what, _source_location(w["loc"])
        out.append(d)
    return out


# ---------------------------------------------------------------- a suspended thread's frames
#
# A suspended thread's stack is not reachable from frame 0: the fiber saved its registers
# when it switched away (Boost.Context's jump_fcontext; fcontext_t points at them). While
# `tileslc switch` shows such a thread, this unwinder makes its saved registers the caller of
# frame 0, so that gdb unwinds on through the thread's own frames (bt, frame N, up, info
# locals, print). Nothing in the program changes; resuming it (continue, next, step) ends the view.

# jump_fcontext's save area on x86-64 (System V): the slot of each register, 8 bytes each
# (slot 0 holds MXCSR and the x87 control word); the stack pointer after the switch back is
# the area's end.
_FCONTEXT_SLOTS = (("r12", 1), ("r13", 2), ("r14", 3), ("r15", 4), ("rbx", 5), ("rbp", 6), ("rip", 7))
_FCONTEXT_BYTES = 0x40


class _FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class FiberUnwinder(gdb.unwinder.Unwinder):
    """Frame 0's caller is the saved context of the suspended thread `tileslc switch` shows."""

    def __init__(self):
        super().__init__("tileslc suspended thread")
        self.view = None  # (fcontext_t address, frame 0's id (stack address, function start), thread)

    def __call__(self, pending):
        if self.view is None or pending.level() != 0:
            return None
        fctx, (cfa, func), _ = self.view
        u64 = gdb.lookup_type("unsigned long")
        slots = gdb.Value(fctx).cast(u64.pointer())
        # The id gdb's own unwinder gives frame 0, so that stepping afterwards sees the same frame.
        info = pending.create_unwind_info(_FrameId(gdb.Value(cfa).cast(u64), gdb.Value(func).cast(u64)))
        for reg, slot in _FCONTEXT_SLOTS:
            info.add_saved_register(reg, slots[slot])
        info.add_saved_register("rsp", gdb.Value(fctx + _FCONTEXT_BYTES).cast(u64))
        return info

    def show(self, fctx, thread):
        """Unwinds from the thread whose registers are saved at `fctx` after frame 0."""
        frame = gdb.newest_frame()
        m = re.search(r"frame at (0x[0-9a-f]+)", gdb.execute("info frame level 0", to_string=True))
        if not m or frame.function() is None:
            raise gdb.GdbError("tileslc switch: frame 0 has no debug information to unwind from")
        self.view = (fctx, (int(m.group(1), 16), int(frame.function().value().address)), thread)
        gdb.invalidate_cached_frames()

    def drop(self, *_):
        if self.view is not None:
            self.view = None
            gdb.invalidate_cached_frames()


_FIBERS = FiberUnwinder()
gdb.unwinder.register_unwinder(None, _FIBERS, replace=True)
gdb.events.cont.connect(_FIBERS.drop)
gdb.events.exited.connect(_FIBERS.drop)


def _runs(threads):
    """Thread indices as ranges of consecutive x: "(0..31,0,0), (40,0,0)"."""
    out, i = [], 0
    while i < len(threads):
        j = i
        while j + 1 < len(threads) and threads[j + 1][1:] == threads[i][1:] and threads[j + 1][0] == threads[j][0] + 1:
            j += 1
        x = str(threads[i][0]) if i == j else "%d..%d" % (threads[i][0], threads[j][0])
        out.append("(%s,%d,%d)" % ((x,) + tuple(threads[i][1:])))
        i = j + 1
    return ", ".join(out)


class TileslcCommand(gdb.Command):
    """Commands for kernels running in tileslc's CPU emulator.

tileslc break LOCATION [thread=(x,y,z)] [block=(x,y,z)]
    Stop at LOCATION (e.g. vector_add.tpy:21) only in that emulated thread and block.
tileslc thread
    Print the indices of the emulated thread (fiber) gdb stopped in.
tileslc barrier
    List the threads of this block by what they do: running, waiting (at which barrier
    or collective operation, at which line), not started, finished.
tileslc switch thread=(x,y,z) [block=(x,y,z)]
    Show that emulated thread where it is suspended (its frames follow frame 0 until the
    program resumes), or, for one not started yet, run until it reaches the line gdb
    stopped at."""

    def __init__(self):
        super().__init__("tileslc", gdb.COMMAND_USER, prefix=True)


class TileslcBreak(gdb.Command):
    """tileslc break LOCATION [thread=(x,y,z)] [block=(x,y,z)]: a breakpoint for one emulated thread.

The indices are CUDA's threadIdx and blockIdx; an omitted one, or a * in it, matches any."""

    def __init__(self):
        super().__init__("tileslc break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        m = re.fullmatch(r"\s*(\S+)((?:\s+\w+\s*=\s*\([^)]*\))*)\s*", arg)
        if not m:
            raise gdb.GdbError("usage: tileslc break FILE.tpy:LINE [thread=(x,y,z)] [block=(x,y,z)]")
        want = {"thread": None, "block": None}
        for key, val in re.findall(r"(\w+)\s*=\s*(\([^)]*\))", m.group(2)):
            if key not in want:
                raise gdb.GdbError("tileslc break: unknown %s=; expected thread= or block=" % key)
            want[key] = _parse_triple(val, key)
        bp = ThreadBreakpoint(m.group(1), want["thread"], want["block"])
        show = lambda t: "any" if t is None else "(%s)" % ",".join("*" if c is None else str(c) for c in t)
        print("tileslc: breakpoint %d at %s in thread %s of block %s" % (bp.number, m.group(1), show(want["thread"]),
                                                                       show(want["block"])))


class TileslcThread(gdb.Command):
    """tileslc thread: the emulated thread (fiber) gdb stopped in: threadIdx, blockIdx, warp and lane."""

    def __init__(self):
        super().__init__("tileslc thread", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        got = current_indices()
        if got is None:
            print("tileslc: not stopped inside an emulated kernel")
            return
        t, b = got
        print("thread (%d,%d,%d) block (%d,%d,%d)" % (t + b))


class TileslcBarrier(gdb.Command):
    """tileslc barrier: the threads of the block gdb stopped in, grouped by what they do: running,
waiting at a barrier or a collective operation (with its line), not started, finished."""

    def __init__(self):
        super().__init__("tileslc barrier", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        fibers = block_fibers()
        if not fibers:
            print("tileslc: not stopped inside an emulated kernel")
            return
        b = fibers[0]["block"]
        counts = {}
        for f in fibers:
            counts[f["state"]] = counts.get(f["state"], 0) + 1
        order = ["Running", "Waiting", "Ready", "NotStarted", "Done"]
        print("block (%d,%d,%d): %d threads: %s" % (b + (len(fibers), ", ".join(
            "%d %s" % (counts[s], {"NotStarted": "not started", "Done": "finished"}.get(s, s.lower()))
            for s in order if s in counts))))
        groups = {}
        for f in fibers:
            key = (f["what"], f["where"]) if f["state"] == "Waiting" else (f["state"], "")
            groups.setdefault(key, []).append(f["thread"])
        for (what, where), threads in sorted(groups.items(), key=lambda kv: min(t[::-1] for t in kv[1])[::-1]):
            label = {"Running": "running", "Ready": "ready (released, not resumed yet)", "NotStarted": "not started",
                     "Done": "finished"}.get(what, "waiting at %s, %s" % (what, where))
            print("  %s: %d: %s" % (label, len(threads), _runs(threads)))


class TileslcSwitch(gdb.Command):
    """tileslc switch thread=(x,y,z) [block=(x,y,z)]: go to another emulated thread (fiber).

The emulated threads are fibers, which gdb's `thread` cannot select. A thread of this block
that is suspended (waiting at a barrier or a collective operation, or released and not resumed
yet) is shown where it is: its frames follow frame 0 in `bt` (gdb unwinds from the registers
the fiber saved), and its kernel frame is selected, so `info locals`, `print`, `up` and
`tileslc thread` are about that thread, until the program resumes (`continue`, `next` and
`step` go on in the running thread). Switching to the running thread goes back to frame 0.
A thread that has not started runs until it reaches the line gdb stopped at (through a
temporary `tileslc break` there). Nothing happens if gdb is already in that thread; a thread
of this block that has finished is reported."""

    def __init__(self):
        super().__init__("tileslc switch", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        want = {"thread": None, "block": None}
        for key, val in re.findall(r"(\w+)\s*=\s*(\([^)]*\))", arg):
            if key not in want:
                raise gdb.GdbError("tileslc switch: unknown %s=; expected thread= or block=" % key)
            want[key] = _parse_triple(val, key)
        if want["thread"] is None:
            raise gdb.GdbError("usage: tileslc switch thread=(x,y,z) [block=(x,y,z)]")
        fibers = block_fibers()
        got = current_indices()
        if got is None or not fibers or not any(f["state"] == "Running" for f in fibers):
            raise gdb.GdbError("tileslc switch: not stopped inside an emulated kernel")
        match = lambda f: ThreadBreakpoint._matches(want["thread"], f["thread"]) and \
            ThreadBreakpoint._matches(want["block"], f["block"])
        if match({"thread": got[0], "block": got[1]}):
            print("tileslc: already in thread (%d,%d,%d) block (%d,%d,%d)" % (got[0] + got[1]))
            return
        target = next((f for f in fibers if match(f)), None)
        if target is not None and target["state"] == "Done":
            raise gdb.GdbError("tileslc switch: thread (%d,%d,%d) of block (%d,%d,%d) has finished" %
                               (target["thread"] + target["block"]))
        if target is not None and target["state"] == "Running":
            _FIBERS.drop()
            gdb.newest_frame().select()
            print("tileslc: back in the running thread (%d,%d,%d) block (%d,%d,%d)" % (target["thread"] + target["block"]))
            gdb.execute("frame", from_tty)
            return
        if target is not None and target.get("context") and self._show(target, from_tty):
            return
        _FIBERS.drop()
        gdb.newest_frame().select()
        sal = gdb.selected_frame().find_sal()
        if sal.symtab is None:
            raise gdb.GdbError("tileslc switch: no source line here")
        ThreadBreakpoint("%s:%d" % (sal.symtab.filename, sal.line), want["thread"], want["block"], temporary=True)
        gdb.execute("continue", from_tty)

    @staticmethod
    def _show(target, from_tty):
        """Shows the suspended `target`'s frames after frame 0 and selects its kernel frame; False
        where they cannot be unwound (not x86-64, or no kernel frame found)."""
        if gdb.newest_frame().architecture().name() != "i386:x86-64":
            return False
        _FIBERS.show(target["context"], target["thread"])
        frame = gdb.newest_frame().older()
        while frame is not None:
            got = current_indices(frame) if frame.function() is not None else None
            if got is not None and got == (target["thread"], target["block"]):
                try:
                    frame.read_var("tl_thread_idx")
                    break
                except (ValueError, gdb.error):
                    pass
            try:
                frame = frame.older()
            except gdb.error:
                frame = None
        if frame is None:
            _FIBERS.drop()
            return False
        frame.select()
        t = target["thread"] + target["block"]
        where = "waits at %s, %s" % (target["what"], target["where"]) if target["state"] == "Waiting" else \
            "is released from a barrier and not resumed yet"
        print("tileslc: thread (%d,%d,%d) block (%d,%d,%d) %s; its frames follow frame 0 until the program resumes"
              % (t + (where,)))
        gdb.execute("frame", from_tty)
        return True


TileslcCommand()
TileslcBreak()
TileslcThread()
TileslcBarrier()
TileslcSwitch()
