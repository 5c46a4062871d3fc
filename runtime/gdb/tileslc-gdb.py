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
#   allows) and tileslc::cpu::Ptr<T> (an element address).
# - `gA[i]` on a Span in gdb expressions (an xmethod): the element at offset i,
#   checked against the span as the emulator checks the kernel's accesses.
# - `tileslc break LOCATION [thread=(x,y,z)] [block=(x,y,z)]`: a breakpoint that
#   stops only in that emulated thread and block (omitted indices match any).
# - `tileslc thread`: the indices of the emulated thread that gdb stopped in.
#
# The thread's indices come from the locals that `tileslc --debug` puts in every
# kernel frame (tl_thread_idx, tl_block_idx, tl_warp_idx, tl_lane_idx); without
# them (code generated without --debug) from the emulator's
# tileslc::cpu::t_thread, the fiber running now.
import re

import gdb
import gdb.printing
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


class SpanPrinter:
    """tileslc::cpu::Span<T>: the memory a kernel's tensor may touch, offsets [lo, hi) from base."""

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


def _printers():
    pp = gdb.printing.RegexpCollectionPrettyPrinter("tileslc")
    pp.add_printer("Span", r"^tileslc::cpu::Span<.*>$", SpanPrinter)
    pp.add_printer("Ptr", r"^tileslc::cpu::Ptr<.*>$", PtrPrinter)
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

    def __init__(self, spec, thread, block):
        super().__init__(spec)
        self.want = (thread, block)

    @staticmethod
    def _matches(want, got):
        return want is None or all(w is None or w == g for w, g in zip(want, got))

    def stop(self):
        got = current_indices()
        if got is None:
            return False
        return self._matches(self.want[0], got[0]) and self._matches(self.want[1], got[1])


class TileslcCommand(gdb.Command):
    """Commands for kernels running in tileslc's CPU emulator.

tileslc break LOCATION [thread=(x,y,z)] [block=(x,y,z)]
    Stop at LOCATION (e.g. vector_add.tpy:21) only in that emulated thread and block.
tileslc thread
    Print the indices of the emulated thread (fiber) gdb stopped in."""

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


TileslcCommand()
TileslcBreak()
TileslcThread()
