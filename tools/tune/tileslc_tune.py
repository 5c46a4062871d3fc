#!/usr/bin/env python3
"""tileslc tune: the ahead-of-time autotuner (docs/tuning.md). Stdlib only.

  tileslc tune KERNEL.tpy --shapes SHAPES.json [--db DB.json] [--target cuda|cpu] [--shard i/n] ...
  tileslc tune merge -o DB.json SHARD.json...
  tileslc tune show DB.json
  tileslc tune verify KERNEL.tpy --db DB.json
  tileslc tune KERNEL.tpy --shapes-from-metrics METRICS.jsonl [--top N] ...
  tileslc bench KERNEL.tpy --shapes SHAPES [--metrics-overhead] ...
  tileslc metrics summarize METRICS.jsonl [--json | --prometheus [-o FILE.prom]]

`tune` reads the @cutlass.tune space of each tuned @cute.jit function from the
compiler's metadata (pruned already), compiles every configuration in parallel
(tileslc, then nvcc or the host compiler; a failure is recorded, not fatal),
runs each on each shape with the runner (tools/tune/tune_runner.cpp: warm-up,
L2 flush, CUDA-event timing, correctness against the reference configuration,
the file's own Constexpr values), and writes the results database with the
decision per shape bucket, which `tileslc KERNEL.tpy --tuned DB.json` turns
into one dispatching host function. Results whose key (source contents,
compiler version, device, target, arch, function, configuration, shape) is in
the database already are reused. `tileslc` runs this script with TILESLC_EXE
set to itself.

Exit status: 0 done (configurations that failed are in the database), 1 the
sweep produced no usable result, 2 bad command line or input files.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import threading
import time

FORMAT = "tileslc-tune"
VERSION = 1


class InputError(Exception):
    """A mistake in the command line or an input file: reported as `tileslc tune: error: ...`, exit 2."""


def fail_input(msg):
    raise InputError(msg)


# ---- the database ---------------------------------------------------------------------------


def load_json(path, what):
    """Parses `path`; a syntax error is reported at its line and column."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail_input(f"cannot read {what} '{path}': {e.strerror}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail_input(f"{path}:{e.lineno}:{e.colno}: {what} is not valid JSON: {e.msg}")


def _whole(low):
    """argparse type: a whole number >= low (a usage error naming the option, not a traceback)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}")
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low}, found {value}")
        return value
    return parse


def load_db(path, must_exist):
    if not os.path.exists(path):
        if must_exist:
            fail_input(f"cannot read the results database '{path}': no such file")
        return None
    db = load_json(path, "the results database")
    if not isinstance(db, dict) or db.get("format") != FORMAT:
        fail_input(f"{path}: not a tileslc tune results database (no \"format\": \"{FORMAT}\")")
    if db.get("version") != VERSION:
        fail_input(f"{path}: results database version {db.get('version')}, this tuner reads version {VERSION}")
    if not isinstance(db.get("entries"), list):
        fail_input(f"{path}: \"entries\" must be a list")
    for i, e in enumerate(db["entries"]):
        if not (isinstance(e, dict) and isinstance(e.get("function"), str) and isinstance(e.get("shape"), dict)
                and isinstance(e.get("config"), dict)):
            fail_input(f"{path}: entry {i} is not a result (an object with \"function\", \"shape\" and \"config\")")
    return db


def sweep_identity(sweep):
    """What makes results comparable: the same sources, compiler, device, target and arch."""
    return (sweep.get("source_hash"), sweep.get("compiler"), json.dumps(sweep.get("device"), sort_keys=True),
            sweep.get("target"), sweep.get("arch"), json.dumps(sweep.get("defines", []), sort_keys=True))


def entry_order(e):
    return (e["function"], json.dumps(e["shape"], sort_keys=True), json.dumps(e["config"], sort_keys=True))


def decide(db):
    """The decision per (function, bucket): the fastest entry of this sweep that ran and passed
    its check (or had no reference to check against); ties go to the smaller configuration in
    JSON order, so every run and every merge of the same results decides alike."""
    ident = sweep_identity(db["sweep"])
    best = {}
    reference = {}
    for e in db["entries"]:
        if tuple(e.get("sweep", ())) != ident:
            continue
        if e.get("status") != "ok" or (e.get("check") is not None and not e["check"].get("pass")):
            continue
        k = (e["function"], json.dumps(e["bucket"], sort_keys=False))
        if e.get("reference"):
            reference[k] = e["time_ms"]
        rank = (e["time_ms"], json.dumps(e["config"], sort_keys=True))
        if k not in best or rank < best[k][0]:
            best[k] = (rank, e)
    decisions = []
    for k in sorted(best):
        e = best[k][1]
        d = {"function": e["function"], "bucket": e["bucket"], "config": e["config"], "time_ms": e["time_ms"]}
        if k in reference:
            d["reference_time_ms"] = reference[k]
            d["speedup"] = round(reference[k] / e["time_ms"], 4) if e["time_ms"] > 0 else None
        decisions.append(d)
    return decisions


def write_db(path, db):
    db["entries"].sort(key=entry_order)
    db["decisions"] = decide(db)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


# ---- the compiler and the build -------------------------------------------------------------


class Toolchain:
    """Where tileslc, its runtime and the compilers are, and how to build a runner."""

    def __init__(self, args):
        self.tileslc = args.tileslc or os.environ.get("TILESLC_EXE") or shutil.which("tileslc")
        if not self.tileslc or not os.path.exists(self.tileslc):
            fail_input("cannot find the tileslc executable; pass --tileslc PATH")
        self.tileslc = os.path.abspath(self.tileslc)
        exe_dir = os.path.dirname(self.tileslc)
        here = os.path.dirname(os.path.abspath(__file__))
        candidates = [os.path.join(exe_dir, "..", "..", "runtime", "include"), os.path.join(exe_dir, "..", "include"),
                      os.path.join(here, "..", "..", "runtime", "include")]
        self.include = args.runtime_include or next(
            (os.path.abspath(c) for c in candidates if os.path.exists(os.path.join(c, "tileslc", "runtime.h"))), None)
        if not self.include:
            fail_input("cannot find the tileslc runtime headers; pass --runtime-include DIR")
        lib = "libtileslc_rt_cpu.a" if args.target == "cpu" else "libtileslc_rt.a"
        lib_dirs = [args.runtime_lib] if args.runtime_lib else [os.path.join(exe_dir, "..", "lib")]
        self.lib = next((os.path.abspath(os.path.join(d, lib)) for d in lib_dirs if os.path.exists(os.path.join(d, lib))), None)
        if not self.lib:
            fail_input(f"cannot find {lib} (build it: cmake --build build --target "
                       f"{'tileslc_rt_cpu' if args.target == 'cpu' else 'tileslc_rt'}); or pass --runtime-lib DIR")
        self.runner_src = os.path.join(here, "tune_runner.cpp")
        self.target, self.arch = args.target, args.arch
        self.nvcc, self.cxx = args.nvcc, args.cxx
        self.common = [a for d in args.define for a in ("-D", d)] + [a for i in args.include for a in ("-I", i)]
        self.common += ["--arch", args.arch]
        if args.target == "cpu":
            self.common.append("--target=cpu")

    def version(self):
        return subprocess.run([self.tileslc, "--version"], capture_output=True, text=True).stdout.strip()

    def host_flags(self):
        if self.target == "cpu":
            return [self.cxx, "-std=c++20", "-O2", "-fwrapv", "-DTILESLC_TUNE_CPU", "-I", os.path.join(self.include, "tileslc", "cpu", "cuda"),
                    "-I", self.include]
        return [self.nvcc, "-std=c++17", "-O2", "-I", self.include]

    def link_libs(self):
        return [self.lib, "-lboost_context", "-pthread"] if self.target == "cpu" else [self.lib]

    def build_runner_object(self, entry, out):
        """The runner for host function C entry `entry` (its packed twin)."""
        # For CUDA the runner is CUDA source: its fill and check are kernels (tune_runner.cpp).
        cuda = [] if self.target == "cpu" else ["-x", "cu", "-arch=" + self.arch]
        cmd = self.host_flags() + cuda + ["-DTILESLC_TUNE_ENTRY=" + entry, "-c", self.runner_src, "-o", out]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("building the runner failed:\n" + " ".join(cmd) + "\n" + r.stdout + r.stderr)

    def build_config(self, kernel, config, runner_obj, work, extra=()):
        """Compiles one configuration into a runner binary; returns (binary, None) or (None, error text)."""
        defines = [a for k, v in config.items() for a in ("-D", f"{k}={v}")] + list(extra)
        binary = os.path.join(work, "runner")
        if self.target == "cpu":
            gen = os.path.join(work, "kernel.cpp")
            steps = [[self.tileslc, kernel, "-o", gen, "--diagnostics-format=gcc"] + self.common + defines,
                     self.host_flags() + [gen, runner_obj, "-o", binary] + self.link_libs()]
        else:
            obj = os.path.join(work, "kernel.o")
            steps = [[self.tileslc, kernel, "-c", "-o", obj, "--diagnostics-format=gcc"] + self.common + defines,
                     [self.nvcc, obj, runner_obj, "-o", binary] + self.link_libs()]
        for cmd in steps:
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                return None, (r.stderr + r.stdout).strip()[-4000:]
        return binary, None


# ---- the space, the shapes and the work -----------------------------------------------------


def source_hash(deps):
    h = hashlib.sha256()
    for d in sorted(deps):
        h.update(d.encode() if not os.path.isabs(d) else os.path.basename(d).encode())
        with open(d, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def read_depfile(path):
    text = open(path, encoding="utf-8").read().replace("\\\n", " ")
    _, _, rest = text.partition(":")
    out, cur = [], ""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest):
            cur += rest[i + 1]
            i += 2
            continue
        if c.isspace():
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def read_metadata(tc, kernel, work):
    """The compiler's metadata for `kernel` (tuning spaces included) and the .tpy files it read."""
    meta, dep = os.path.join(work, "metadata.json"), os.path.join(work, "metadata.d")
    cmd = [tc.tileslc, kernel, "-o", os.path.join(work, "metadata.cu"), "--emit-metadata", meta, "--depfile", dep] + tc.common
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        fail_input(f"'{kernel}' does not compile (tileslc exited with {r.returncode}): nothing to tune")
    return load_json(meta, "the metadata"), read_depfile(dep)


def function_symbols(fn):
    """Every symbolic extent of the host function's tensors, in order of appearance."""
    out = []
    for p in fn["params"]:
        for d in p.get("shape", []):
            if isinstance(d, str) and d not in out:
                out.append(d)
    return out


def read_shapes(path, fn):
    """The shape list: a JSON list of objects giving each symbolic extent (and scalar parameters,
    by name; 1 when not given). Errors name the entry."""
    shapes = load_json(path, "the shape list")
    if isinstance(shapes, dict) and "shapes" in shapes:
        shapes = shapes["shapes"]
    if not isinstance(shapes, list) or not shapes:
        fail_input(f"{path}: expected a non-empty list of shapes, e.g. [{{\"M\": 128, \"N\": 8192, \"K\": 8192}}]")
    return check_shapes(shapes, [f"{path}: shape {i + 1}" for i in range(len(shapes))], fn)


def parse_inline_shapes(text):
    """`M=128,N=8192,K=8192;M=4096,N=4096,K=4096` (bench's --shapes without a file): a list of
    shapes; a malformed one is an error naming it."""
    out = []
    for n, part in enumerate(x for x in text.split(";") if x.strip()):
        shape = {}
        for item in part.split(","):
            name, eq, value = item.partition("=")
            try:
                if not eq or not name.strip():
                    raise ValueError
                shape[name.strip()] = float(value) if "." in value else int(value)
            except ValueError:
                fail_input(f"--shapes '{text}': shape {n + 1}: '{item}' is not NAME=NUMBER "
                           "(write M=128,N=8192,K=8192, shapes separated by ';', or give a JSON file)")
        out.append(shape)
    if not out:
        fail_input(f"--shapes '{text}': no shape (write M=128,N=8192,K=8192, or give a JSON file)")
    return out


def tuned_base(name):
    """A function's name without the `_tuned<i>` suffix of a --tuned specialization."""
    base, sep, tail = name.rpartition("_tuned")
    return base if sep and tail.isdigit() else name


def read_metrics_shapes(path, fn, top):
    """The shapes production saw: the extents of every call line of `fn` (or of its `--tuned`
    specializations) in a TILESLC_METRICS file, distinct, the most frequent first (ties in order
    of first appearance), at most `top` of them. Lines that are not JSON are errors at their line."""
    counts, first, where = {}, {}, {}
    for n, line in enumerate(read_lines(path, "the metrics file"), 1):
        r = parse_metrics_line(path, n, line)
        if r is None or "launch" in r or tuned_base(r.get("function", "")) != fn["name"]:
            continue
        if not isinstance(r.get("extents"), dict):
            fail_input(f"{path}:{n}: a call of {r['function']} without \"extents\" (written by a tileslc before 0.2?)")
        k = json.dumps(r["extents"], sort_keys=True)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, n)
        where.setdefault(k, f"{path}:{n}")
    if not counts:
        fail_input(f"{path}: no call of {fn['name']} (TILESLC_METRICS records the calls of functions that declare @cutlass.cost)")
    keys = sorted(counts, key=lambda k: (-counts[k], first[k]))[:top or None]
    return check_shapes([json.loads(k) for k in keys], [where[k] for k in keys], fn)


def check_shapes(shapes, wheres, fn):
    """Each shape names every symbolic extent of `fn`'s tensors (positive ints) and maybe scalar
    parameters (numbers); returns them in the function's order. `wheres` locate each in errors."""
    symbols = function_symbols(fn)
    scalars = [p["name"] for p in fn["params"] if p["kind"] == "scalar"]
    out = []
    for where, s in zip(wheres, shapes):
        if not isinstance(s, dict):
            fail_input(f"{where}: expected an object such as {{\"M\": 128}}, found {json.dumps(s)}")
        for k, v in s.items():
            if k not in symbols and k not in scalars:
                fail_input(f"{where}: '{k}' is neither a symbolic extent ({', '.join(symbols)}) nor a scalar parameter of {fn['name']}")
            if k in symbols and (not isinstance(v, int) or isinstance(v, bool) or v <= 0):
                fail_input(f"{where}: extent '{k}' must be a positive integer, found {json.dumps(v)}")
            if k in scalars and (not isinstance(v, (int, float)) or isinstance(v, bool)):
                fail_input(f"{where}: scalar '{k}' must be a number, found {json.dumps(v)}")
        missing = [x for x in symbols if x not in s]
        if missing:
            fail_input(f"{where}: no value for {', '.join(repr(m) for m in missing)}, which {fn['name']}'s tensors need")
        out.append({k: s[k] for k in symbols + [x for x in scalars if x in s]})
    return out


DTYPE_BYTES = {"Boolean": 1, "Int8": 1, "Int16": 2, "Int32": 4, "Int64": 8, "Uint8": 1, "Uint16": 2, "Uint32": 4, "Uint64": 8,
               "Float16": 2, "BFloat16": 2, "Float32": 4, "Float64": 8, "TFloat32": 4, "Float8E4M3FN": 1, "Float8E5M2": 1}


def runner_params(fn, shape):
    specs = []
    for p in fn["params"]:
        if p["kind"] == "tensor":
            dims = [str(shape[d]) if isinstance(d, str) else str(d) for d in p["shape"]]
            specs += ["--param", f"t:{p['dtype']}:{','.join(dims)}" + (":w" if p.get("written") else "")]
        else:
            specs += ["--param", f"s:{p['dtype']}:{shape.get(p['name'], 1)}"]
    return specs


def cost(fn, what, shape, config):
    """Evaluates the function's @cutlass.cost(bytes=/flops=) over a shape: Python arithmetic over
    its symbolic extents and numeric Constexpr values (this configuration's), as the generated
    host function does per call (the compiler checked the names). None when not declared."""
    expr = (fn.get("cost") or {}).get(what)
    if not expr:
        return None
    names = {k: float(v) for k, v in {**fn["constexprs"], **config}.items() if is_number(v)}
    names.update(shape)
    try:
        return float(eval(expr, {"__builtins__": {}}, names))  # noqa: S307 - the kernel author's own arithmetic
    except Exception as e:  # noqa: BLE001 - any mistake in the expression is the user's to fix
        fail_input(f"{fn['name']}: @cutlass.cost({what}={expr!r}) cannot be evaluated for {shape}: {e}")


def is_number(text):
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return not isinstance(text, bool)


def achieved(fn, shape, config, time_ms):
    """The bytes, FLOPs, GB/s and TFLOP/s of one run of `fn` on `shape` (bytes: every tensor's size
    once when @cutlass.cost declares none)."""
    b = cost(fn, "bytes", shape, config)
    b = tensor_bytes(fn, shape) if b is None else b
    fl = cost(fn, "flops", shape, config)
    sec = time_ms * 1e-3
    out = {"bytes": b, "gbps": round(b / sec / 1e9, 3) if sec > 0 else None}
    if fl is not None:
        out.update(flops=fl, tflops=round(fl / sec / 1e12, 3) if sec > 0 else None)
    return out


def tensor_bytes(fn, shape):
    total = 0
    for p in fn["params"]:
        if p["kind"] == "tensor":
            n = 1
            for d in p["shape"]:
                n *= shape[d] if isinstance(d, str) else d
            total += n * DTYPE_BYTES.get(p["dtype"], 4)
    return total


def cache_key(ident, function, config, shape):
    return hashlib.sha256(json.dumps([list(ident), function, config, shape], sort_keys=True).encode()).hexdigest()[:32]


def parse_shard(text):
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        fail_input(f"--shard '{text}': expected i/n, e.g. 0/3")
    if n < 1 or not 0 <= i < n:
        fail_input(f"--shard '{text}': i must be in 0..n-1 and n at least 1")
    return i, n


# ---- progress -------------------------------------------------------------------------------


class Progress:
    """A progress bar with an ETA on a terminal; a line per event otherwise (CI logs)."""

    def __init__(self, total, quiet):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.tty = sys.stderr.isatty()
        self.quiet = quiet
        self.lock = threading.Lock()
        self.compile_s = 0.0
        self.run_s = 0.0

    def step(self, what):
        with self.lock:
            self.done += 1
            if self.quiet:
                return
            el = time.monotonic() - self.start
            eta = el / self.done * (self.total - self.done) if self.done else 0
            width = 30
            fill = int(width * self.done / max(self.total, 1))
            line = f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} {el:6.1f}s ETA {eta:5.1f}s  {what}"
            sys.stderr.write(("\r" + line[:150].ljust(150)) if self.tty else line + "\n")
            sys.stderr.flush()

    def finish(self):
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


# ---- the sweep ------------------------------------------------------------------------------


def run_sweep(args):
    tc = Toolchain(args)
    kernel = os.path.abspath(args.kernel)
    stem = os.path.splitext(os.path.basename(kernel))[0]
    work = os.path.abspath(args.work_dir or os.path.join(".tileslc-tune", stem + "-" + args.target))
    os.makedirs(work, exist_ok=True)
    shard = parse_shard(args.shard) if args.shard else (0, 1)
    meta, deps = read_metadata(tc, kernel, work)
    tuned = [h for h in meta["host_functions"] if "tune" in h]
    if args.function:
        names = [h["name"] for h in meta["host_functions"]]
        for f in args.function:
            if f not in names:
                fail_input(f"--function '{f}': {args.kernel} has no @cute.jit function of that name ({', '.join(names)})")
        tuned = [h for h in tuned if h["name"] in args.function]
        for f in args.function:
            if f not in [h["name"] for h in tuned]:
                fail_input(f"--function '{f}' has no @cutlass.tune space")
    if not tuned:
        fail_input(f"{args.kernel}: no @cute.jit function declares a tuning space (@cutlass.tune(...), docs/tuning.md)")

    # Bad input first, before any build.
    if args.top < 0:
        fail_input(f"--top {args.top}: expected a count of shapes, 1 or more (0: all)")
    if args.shapes_from_metrics:
        shapes_of = {fn["name"]: read_metrics_shapes(args.shapes_from_metrics, fn, args.top) for fn in tuned}
    else:
        shapes_of = {fn["name"]: read_shapes(args.shapes, fn) for fn in tuned}
    runner_dir = os.path.join(work, "runners")
    os.makedirs(runner_dir, exist_ok=True)
    # The device, from a runner of the first function (the runner reports it with --info).
    runner_objs = {}
    for fn in tuned:
        obj = os.path.join(runner_dir, fn["name"] + ".o")
        tc.build_runner_object(fn["c_packed_name"], obj)
        runner_objs[fn["name"]] = obj
    devices = [d for d in args.devices.split(",") if d != ""] if args.devices else [None]
    sweep = {"source": os.path.relpath(kernel), "source_hash": source_hash(deps), "compiler": tc.version(), "target": args.target,
             "arch": args.arch, "device": None, "defines": args.define}
    build_ident = sweep_identity(sweep)  # what a build depends on: all but the device
    sweep["device"] = probe_device(tc, kernel, tuned[0], runner_objs[tuned[0]["name"]], work, devices, build_ident)
    ident = sweep_identity(sweep)
    old = None if args.no_cache else load_db(args.db, must_exist=False)
    cached = {e["key"]: e for e in old["entries"]} if old else {}
    db = {"format": FORMAT, "version": VERSION, "sweep": sweep, "functions": {}, "entries": list(old["entries"]) if old else []}
    db["entries"] = [e for e in db["entries"] if e["key"] in cached]

    # The work: (function, configuration, shape) items, sharded round-robin; each shard also runs
    # the reference configuration on the shapes it measures, for the correctness check.
    items, references = [], {}
    for fn in tuned:
        space = fn["tune"]
        shapes = shapes_of[fn["name"]]
        ref = {k: fn["constexprs"][k] for k in space["params"]}
        configs = [dict(c) for c in space["configs"]]
        if ref not in configs:
            configs.append(ref)
        db["functions"][fn["name"]] = {"key": space["key"], "params": space["params"], "reference": ref,
                                       "configs": len(space["configs"]), "pruned": space["pruned"]}
        for s in shapes:
            for c in configs:
                items.append((fn, c, s))
    mine = [(n, it) for n, it in enumerate(items) if n % shard[1] == shard[0]]
    todo, item_index = [], {}
    for n, (fn, c, s) in mine:
        if cache_key(ident, fn["name"], c, s) not in cached:
            todo.append((fn, c, s))
            item_index[(fn["name"], json.dumps(c, sort_keys=True), json.dumps(s, sort_keys=True))] = n
    # The reference runs first on each shape that has work, for the checks; its own entry is the
    # item of the shard that owns it, so the shards' entries are disjoint.
    for fn, c, s in todo:
        ref = db["functions"][fn["name"]]["reference"]
        references.setdefault((fn["name"], json.dumps(s, sort_keys=True)), (fn, ref, s))
    ref_todo = list(references.values())
    n_cached = len(mine) - len(todo)
    configs_needed = {}
    for fn, c, s in todo + ref_todo:
        configs_needed.setdefault((fn["name"], json.dumps(c, sort_keys=True)), (fn, c))
    print(f"tileslc tune: {args.kernel}: {sum(len(h['tune']['configs']) for h in tuned)} configurations after pruning "
          f"({sum(len(h['tune']['pruned']) for h in tuned)} pruned), {len(items)} runs in all, {len(mine)} in shard "
          f"{shard[0]}/{shard[1]}, {n_cached} cached; compiling {len(configs_needed)} with {args.jobs} jobs",
          file=sys.stderr)

    progress = Progress(len(configs_needed) + len(todo) + len(ref_todo), args.quiet)
    t0 = time.monotonic()
    binaries = compile_all(tc, kernel, configs_needed, runner_objs, work, args.jobs, progress, build_ident)
    compile_s = time.monotonic() - t0
    t1 = time.monotonic()
    new_entries = []

    def record(fn, c, s, res):
        """Adds one measured item to the database and writes it (whole, then renamed): a sweep cut
        short keeps every result it had, and a rerun with the same --db measures only the rest."""
        fname = fn["name"]
        e = {"key": cache_key(ident, fname, c, s), "item": item_index[(fname, json.dumps(c, sort_keys=True), json.dumps(s, sort_keys=True))],
             "sweep": list(ident), "function": fname, "config": c, "shape": s, "bucket": {k: s[k] for k in fn["tune"]["key"]},
             "reference": c == db["functions"][fname]["reference"]}
        e.update(res)
        if e.get("status") == "ok":
            e.update(achieved(fn, s, c, e["time_ms"]))
        new_entries.append(e)
        db["entries"].append(e)
        write_db(args.db, db)

    results = run_all(args, tc, todo, ref_todo, binaries, work, devices, progress, record)
    run_s = time.monotonic() - t1
    progress.finish()
    db["timing"] = {"compile_s": round(compile_s, 2), "run_s": round(run_s, 2), "compiled": len(configs_needed), "runs": len(results)}
    write_db(args.db, db)
    new_entries.sort(key=lambda e: (e["function"], json.dumps(e["config"], sort_keys=True), json.dumps(e["shape"], sort_keys=True)))
    failed = [e for e in new_entries if e["status"] != "ok" or (e.get("check") and not e["check"]["pass"])]
    for e in failed:
        why = e.get("error") or f"check failed: {e['check']}"
        print(f"tileslc tune: note: {e['function']} {fmt_config(e['config'])} on {fmt_config(e['shape'])}: {e['status']}: "
              f"{why.splitlines()[0] if why else ''}", file=sys.stderr)
    print(f"tileslc tune: compile {compile_s:.1f}s, run {run_s:.1f}s; {len(new_entries)} new results, {len(failed)} failed; "
          f"wrote {args.db}", file=sys.stderr)
    print_decisions(db)
    return 0 if db["decisions"] else 1


def fmt_config(c):
    return " ".join(f"{k}={v}" for k, v in c.items())


def probe_device(tc, kernel, fn, runner_obj, work, devices, build_ident):
    """The device as the runner sees it (name, SM count, CUDA version), from the reference
    configuration's runner; every --devices entry must agree."""
    cfg = {k: fn["constexprs"][k] for k in fn["tune"]["params"]}
    (binary, err), _ = build_one(tc, kernel, fn, cfg, runner_obj, work, build_ident)
    if not binary:
        fail_input(f"the reference configuration of {fn['name']} does not build:\n{err}")
    seen = None
    for d in devices:
        r = subprocess.run([binary, "--info"], capture_output=True, text=True, env=device_env(d))
        try:
            info = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            info = {"ok": False, "error": r.stderr.strip()}
        if not info.get("ok"):
            fail_input(f"cannot query the device{'' if d is None else ' ' + d}: {info.get('error')}")
        if seen and info["device"] != seen:
            fail_input(f"--devices: device {d} is {info['device']}, device {devices[0]} {seen}: tune on identical GPUs")
        seen = info["device"]
    return seen


def device_env(d):
    env = dict(os.environ)
    if d is not None:
        env["CUDA_VISIBLE_DEVICES"] = d
    return env


def build_one(tc, kernel, fn, c, runner_obj, work, build_ident):
    """Builds configuration `c` of `fn` in its own directory, or reuses the build made there for the
    same sources, compiler, target, arch, -D values and runner (shards and reruns sharing a
    --work-dir compile a configuration once). Returns ((binary, error), reused)."""
    cjson = json.dumps(c, sort_keys=True)
    runner_hash = hashlib.sha256(open(tc.runner_src, "rb").read()).hexdigest()
    tag = hashlib.sha256(json.dumps([list(build_ident), runner_hash, fn["name"], cjson]).encode()).hexdigest()[:16]
    d = os.path.join(work, "configs", fn["name"], tag)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        f.write(cjson)
    done = os.path.join(d, "built.json")
    if os.path.exists(done):
        return tuple(json.load(open(done))), True
    res = tc.build_config(kernel, c, runner_obj, d)
    with open(done, "w") as f:
        json.dump(list(res), f)
    return res, False


def compile_all(tc, kernel, configs, runner_objs, work, jobs, progress, build_ident):
    """Compiles each configuration once, `jobs` at a time; returns {(function, config json): (binary, error)}."""
    out = {}

    def one(k):
        fn, c = configs[k]
        t = time.monotonic()
        res, reused = build_one(tc, kernel, fn, c, runner_objs[fn["name"]], work, build_ident)
        if reused:
            progress.step(f"reused {fn['name']} {fmt_config(c)}")
            return k, res
        progress.step(f"compiled {fn['name']} {fmt_config(c)} in {time.monotonic() - t:.1f}s" + (" (FAILED)" if res[1] else ""))
        return k, res

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for k, res in pool.map(one, list(configs)):
            out[k] = res
    return out


def run_one(args, binary, fn, s, dump, reference, device, extra=(), env=None):
    """Runs one configuration's runner on shape `s` (tools/tune/tune_runner.cpp): its result
    (status, median and minimum time, the check). `extra` are more runner arguments, `env`
    environment changes (a None value unsets the variable)."""
    cmd = [binary] + runner_params(fn, s) + ["--warmup", str(args.warmup), "--iters", str(args.iters), "--rtol", str(args.rtol),
                                              "--atol", str(args.atol)] + list(extra)
    if dump:
        cmd += ["--dump", dump]
    if reference:
        cmd += ["--reference", reference]
    run_env = device_env(device)
    for k, v in (env or {}).items():
        if v is None:
            run_env.pop(k, None)
        else:
            run_env[k] = v
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=run_env)
    except subprocess.TimeoutExpired:
        return {"status": "run_error", "error": f"timed out after {args.timeout} s"}
    try:
        out = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"status": "run_error", "error": (r.stderr.strip() or f"the runner exited with {r.returncode}")[-2000:]}
    if not out.get("ok"):
        return {"status": "run_error", "error": out.get("error", "")}
    res = {"status": "ok", "time_ms": out["time_ms"], "min_ms": out["min_ms"]}
    if "b2b_us" in out:
        res["b2b_us"] = out["b2b_us"]
    res["check"] = out.get("check")
    if res["check"] is not None and not res["check"]["pass"]:
        res["status"] = "check_failed"
    return res


def run_all(args, tc, todo, ref_todo, binaries, work, devices, progress, record=None):
    """Runs the references first (their outputs are what the others are checked against), then the
    rest; one runner at a time per device. `record(fn, config, shape, result)` is called for each
    item of `todo` as it finishes, one call at a time. Returns {(function, config, shape,
    is_reference): result}."""
    results = {}
    dumps = {}
    lock = threading.Lock()

    def job(item, is_ref, device):
        fn, c, s = item
        k = (fn["name"], json.dumps(c, sort_keys=True))
        binary, err = binaries[k]
        rk = (fn["name"], json.dumps(c, sort_keys=True), json.dumps(s, sort_keys=True), is_ref)
        ref_result = results.get((rk[0], rk[1], rk[2], True))
        if not binary:
            res = {"status": "compile_error", "error": err}
        elif not is_ref and ref_result is not None:
            res = dict(ref_result)  # this item is the reference: its run is the one the others were checked against
        else:
            sk = (fn["name"], json.dumps(s, sort_keys=True))
            dump = os.path.join(os.path.dirname(binary), "out-" + hashlib.sha256(sk[1].encode()).hexdigest()[:12] + ".bin") if is_ref else None
            res = run_one(args, binary, fn, s, dump, None if is_ref else dumps.get(sk), device)
            if is_ref and res["status"] == "ok":
                with lock:
                    dumps[sk] = dump
            if not is_ref and sk not in dumps:
                res["check"] = None  # no reference output: unchecked
        with lock:
            results[rk] = res
            if record and not is_ref:
                record(fn, c, s, res)
        progress.step(f"ran {fn['name']} {fmt_config(c)} on {fmt_config(s)}: " +
                      (f"{res['time_ms']:.4g} ms" if res["status"] == "ok" else res["status"]))

    for phase, is_ref in ((ref_todo, True), (todo, False)):
        q = queue.Queue()
        for it in phase:
            q.put(it)

        def worker(device, is_ref=is_ref, q=q):
            while True:
                try:
                    it = q.get_nowait()
                except queue.Empty:
                    return
                job(it, is_ref, device)

        threads = [threading.Thread(target=worker, args=(d,)) for d in devices]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return results


def print_decisions(db):
    for d in db["decisions"]:
        ref = f" (reference {d['reference_time_ms']:.4g} ms, x{d['speedup']})" if "reference_time_ms" in d else ""
        print(f"{d['function']} {fmt_config(d['bucket'])}: {fmt_config(d['config'])} {d['time_ms']:.4g} ms{ref}")


# ---- merge and show -------------------------------------------------------------------------


def merge(args):
    dbs = [(p, load_db(p, must_exist=True)) for p in args.shards]
    first_path, first = dbs[0]
    out = {"format": FORMAT, "version": VERSION, "sweep": first["sweep"], "functions": {}, "entries": []}
    seen = set()
    for path, db in dbs:
        if sweep_identity(db["sweep"]) != sweep_identity(first["sweep"]):
            fail_input(f"{path}: its sweep (sources, compiler, device, target, arch or -D values) differs from {first_path}'s: "
                       "merge shards of one sweep")
        for name, f in db.get("functions", {}).items():
            out["functions"].setdefault(name, f)
        for e in db["entries"]:
            if e["key"] not in seen:
                seen.add(e["key"])
                out["entries"].append(e)
    write_db(args.output, out)
    print(f"tileslc tune merge: {len(dbs)} files, {len(out['entries'])} results; wrote {args.output}", file=sys.stderr)
    print_decisions(out)
    return 0


def show(args):
    db = load_db(args.db, must_exist=True)
    db["decisions"] = decide(db)
    print_decisions(db)
    return 0


# ---- verify ---------------------------------------------------------------------------------


def verify(args):
    """Builds KERNEL with --tuned DB and times the dispatching host function on every decided
    bucket the way the sweep timed the configurations: its time should be the decision's."""
    tc = Toolchain(args)
    db = load_db(args.db, must_exist=True)
    kernel = os.path.abspath(args.kernel)
    work = os.path.abspath(args.work_dir or os.path.join(".tileslc-tune", "verify"))
    os.makedirs(work, exist_ok=True)
    meta, _ = read_metadata(tc, kernel, work)
    hosts = {h["name"]: h for h in meta["host_functions"]}
    failures = 0
    for fname in sorted({d["function"] for d in db["decisions"]}):
        if fname not in hosts:
            fail_input(f"{args.db}: decides for '{fname}', which {args.kernel} does not define")
        fn = hosts[fname]
        obj = os.path.join(work, fname + "_runner.o")
        tc.build_runner_object(fn["c_packed_name"], obj)
        d = os.path.join(work, fname)
        os.makedirs(d, exist_ok=True)
        binary, err = tc.build_config(kernel, {}, obj, d, extra=["--tuned", os.path.abspath(args.db)])
        if not binary:
            fail_input(f"{args.kernel} --tuned {args.db} does not build:\n{err}")
        shapes = {json.dumps(e["bucket"], sort_keys=True): e["shape"] for e in db["entries"] if e["function"] == fname}
        for dec in (x for x in db["decisions"] if x["function"] == fname):
            shape = shapes.get(json.dumps(dec["bucket"], sort_keys=True), dec["bucket"])
            res = run_one(args, binary, fn, shape, None, None, None)
            if res["status"] != "ok":
                failures += 1
                print(f"{fname} {fmt_config(dec['bucket'])}: the tuned function failed: {res.get('error')}")
                continue
            ratio = res["time_ms"] / dec["time_ms"] if dec["time_ms"] else float("nan")
            print(f"{fname} {fmt_config(dec['bucket'])}: tuned {res['time_ms']:.4g} ms, decision {fmt_config(dec['config'])} "
                  f"{dec['time_ms']:.4g} ms (x{ratio:.3f})" +
                  (f", reference {dec['reference_time_ms']:.4g} ms" if "reference_time_ms" in dec else ""))
            if args.rounds > 0:
                failures += interleave(args, tc, kernel, fn, obj, d, binary, dec, shape)
    return 1 if failures else 0


def interleave(args, tc, kernel, fn, runner_obj, work, tuned_binary, dec, shape):
    """Times the tuned host function and the decided configuration built alone, alternately, for
    args.rounds rounds in this one process tree: the sweep's recorded time was measured minutes
    earlier, at whatever clocks the GPU then ran (a long GEMM sweep warms it), so only runs
    side by side tell the dispatch's cost from the GPU's state. Returns 1 if a run failed."""
    d = os.path.join(work, "config-" + hashlib.sha256(json.dumps(dec["config"], sort_keys=True).encode()).hexdigest()[:12])
    os.makedirs(d, exist_ok=True)
    binary, err = tc.build_config(kernel, dec["config"], runner_obj, d)
    if not binary:
        print(f"{fn['name']} {fmt_config(dec['bucket'])}: the decided configuration does not build alone:\n{err}")
        return 1
    tuned, alone = [], []
    for _ in range(args.rounds):
        for times, b in ((tuned, tuned_binary), (alone, binary)):
            res = run_one(args, b, fn, shape, None, None, None)
            if res["status"] != "ok":
                print(f"{fn['name']} {fmt_config(dec['bucket'])}: an interleaved run failed: {res.get('error')}")
                return 1
            times.append(res["time_ms"])
    t, a = statistics.median(tuned), statistics.median(alone)
    print(f"{fn['name']} {fmt_config(dec['bucket'])}: interleaved x{args.rounds}: tuned {t:.4g} ms, "
          f"{fmt_config(dec['config'])} alone {a:.4g} ms (x{t / a:.3f}; per round "
          + " ".join(f"{x / y:.3f}" for x, y in zip(tuned, alone)) + ")")
    return 0


# ---- bench ----------------------------------------------------------------------------------


def bench(args):
    """`tileslc bench`: one configuration (the file's Constexpr values and -D) of one function,
    built and timed per shape by the tuner's own runner and build (warm-up, L2 flush, CUDA-event
    median); with --metrics-overhead each shape also runs with TILESLC_METRICS off and on, and
    the runner times --b2b calls back to back (the per-call wall time, host overheads included)."""
    if args.b2b < 1:
        fail_input(f"--b2b {args.b2b}: expected a number of calls, 1 or more")
    tc = Toolchain(args)
    kernel = os.path.abspath(args.kernel)
    stem = os.path.splitext(os.path.basename(kernel))[0]
    work = os.path.abspath(args.work_dir or os.path.join(".tileslc-bench", stem + "-" + args.target))
    os.makedirs(work, exist_ok=True)
    meta, deps = read_metadata(tc, kernel, work)
    names = [h["name"] for h in meta["host_functions"]]
    if args.function:
        if args.function not in names:
            fail_input(f"--function '{args.function}': {args.kernel} has no @cute.jit function of that name ({', '.join(names)})")
        fn = next(h for h in meta["host_functions"] if h["name"] == args.function)
    elif len(names) == 1:
        fn = meta["host_functions"][0]
    else:
        fail_input(f"{args.kernel} defines {len(names)} @cute.jit functions ({', '.join(names)}): name one with --function")
    if os.path.exists(args.shapes) or args.shapes.endswith(".json"):
        shapes = read_shapes(args.shapes, fn)
    else:
        inline = parse_inline_shapes(args.shapes)
        shapes = check_shapes(inline, [f"--shapes: shape {i + 1}" for i in range(len(inline))], fn)
    obj = os.path.join(work, fn["name"] + "_runner.o")
    tc.build_runner_object(fn["c_packed_name"], obj)
    sweep = {"source_hash": source_hash(deps), "compiler": tc.version(), "target": args.target, "arch": args.arch, "defines": args.define}
    (binary, err), _ = build_one(tc, kernel, fn, {}, obj, work, sweep_identity(sweep))
    if not binary:
        fail_input(f"{fn['name']} does not build:\n{err}")
    config = fn["constexprs"]
    rows, failures = [], 0
    metrics_file = os.path.join(work, "overhead.metrics.jsonl")
    for shape in shapes:
        row = {"function": fn["name"], "shape": shape, "config": config}
        if args.metrics_overhead:
            extra = ["--back-to-back", str(args.b2b)]
            off = run_one(args, binary, fn, shape, None, None, None, extra, {"TILESLC_METRICS": None})
            on = run_one(args, binary, fn, shape, None, None, None, extra, {"TILESLC_METRICS": metrics_file})
            res = off
            if off["status"] == "ok" and on["status"] == "ok":
                row["metrics_off"] = {"time_ms": off["time_ms"], "b2b_us": off["b2b_us"]}
                row["metrics_on"] = {"time_ms": on["time_ms"], "b2b_us": on["b2b_us"]}
                row["overhead_pct"] = round(100 * (on["b2b_us"] / off["b2b_us"] - 1), 2) if off["b2b_us"] > 0 else None
            elif on["status"] != "ok":
                res = on
        else:
            res = run_one(args, binary, fn, shape, None, None, None)
        row["status"] = res["status"]
        if res["status"] == "ok":
            row.update(time_ms=res["time_ms"], min_ms=res["min_ms"])
            row.update(achieved(fn, shape, config, res["time_ms"]))
        else:
            row["error"] = res.get("error", "")
            failures += 1
        rows.append(row)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 1 if failures else 0
    print(f"{fn['name']} {fmt_config(config)} ({args.target}, {args.arch}; median of {args.iters} after {args.warmup} warm-up, L2 flushed)")
    for r in rows:
        if r["status"] != "ok":
            print(f"  {fmt_config(r['shape'])}: {r['status']}: {r['error'].splitlines()[0] if r['error'] else ''}")
            continue
        line = f"  {fmt_config(r['shape'])}: {r['time_ms']:.4g} ms (min {r['min_ms']:.4g}), {r['gbps']:.4g} GB/s"
        if "tflops" in r:
            line += f", {r['tflops']:.4g} TFLOP/s"
        if "overhead_pct" in r:
            line += (f"; {args.b2b} calls back to back: {r['metrics_off']['b2b_us']:.4g} us/call metrics off, "
                     f"{r['metrics_on']['b2b_us']:.4g} on ({r['overhead_pct']:+.2f}%)")
        print(line)
    return 1 if failures else 0


# ---- metrics --------------------------------------------------------------------------------


def read_lines(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError as e:
        fail_input(f"cannot read {what} '{path}': {e.strerror}")


def parse_metrics_line(path, n, line):
    """One line of a TILESLC_METRICS file: a launch ("launch", "kernel", ...) or a call ("call",
    "function", no "launch"); None for a blank line; an error located at the line otherwise."""
    if not line.strip():
        return None
    try:
        r = json.loads(line)
        if "launch" in r:
            r["kernel"], r["grid"], r["block"]  # noqa: B018 - the fields every launch line has
        else:
            r["call"], r["function"]  # noqa: B018
    except (ValueError, KeyError, TypeError) as e:
        fail_input(f"{path}:{n}: not a metrics line ({type(e).__name__}: {e})")
    return r


def percentile_row(row, ms):
    ms = sorted(ms)
    if ms:
        row.update(total_ms=round(sum(ms), 6), mean_ms=round(sum(ms) / len(ms), 6), median_ms=ms[len(ms) // 2],
                   p95_ms=ms[min(len(ms) - 1, int(len(ms) * 0.95))], max_ms=ms[-1])
    return row


def summarize_metrics(path):
    """A TILESLC_METRICS file per kernel (launch lines: launches, timed, failed, GPU time) and per
    host function with a @cutlass.cost (call lines: calls, timed, failed, GPU time, total bytes
    and FLOPs, and the achieved GB/s and TFLOP/s over the timed calls with their % of the peak
    the runtime recorded). Returns {"kernels": [...], "functions": [...]}, most time first."""
    kernels, functions = {}, {}
    for n, line in enumerate(read_lines(path, "the metrics file"), 1):
        r = parse_metrics_line(path, n, line)
        if r is None:
            continue
        if "launch" in r:
            k = kernels.setdefault(r["kernel"], {"launches": 0, "failed": 0, "ms": [], "grid": r["grid"], "block": r["block"]})
            k["launches"] += 1
        else:
            k = functions.setdefault(r["function"], {"calls": 0, "failed": 0, "ms": [], "bytes": 0.0, "flops": 0.0, "timed_bytes": 0.0,
                                                     "timed_flops": 0.0, "peak_gbps": None, "peak_tflops": None})
            k["calls"] += 1
            k["bytes"] += r.get("bytes", 0)
            k["flops"] += r.get("flops", 0)
            if "gpu_ms" in r:
                k["timed_bytes"] += r.get("bytes", 0)
                k["timed_flops"] += r.get("flops", 0)
                k["peak_gbps"] = r.get("peak_gbps", k["peak_gbps"])
                k["peak_tflops"] = r.get("peak_tflops", k["peak_tflops"])
        k["failed"] += not r.get("ok", True)
        if "gpu_ms" in r:
            k["ms"].append(r["gpu_ms"])
    out = {"kernels": [], "functions": []}
    for name, k in sorted(kernels.items(), key=lambda kv: -sum(kv[1]["ms"])):
        out["kernels"].append(percentile_row({"kernel": name, "launches": k["launches"], "timed": len(k["ms"]), "failed": k["failed"],
                                              "grid": k["grid"], "block": k["block"]}, k["ms"]))
    for name, k in sorted(functions.items(), key=lambda kv: -sum(kv[1]["ms"])):
        row = percentile_row({"function": name, "calls": k["calls"], "timed": len(k["ms"]), "failed": k["failed"],
                              "bytes": k["bytes"], "flops": k["flops"]}, k["ms"])
        sec = sum(k["ms"]) * 1e-3
        if sec > 0 and k["timed_bytes"]:
            row["gbps"] = round(k["timed_bytes"] / sec / 1e9, 3)
            if k["peak_gbps"]:
                row["pct_peak_bw"] = round(100 * row["gbps"] / k["peak_gbps"], 2)
        if sec > 0 and k["timed_flops"]:
            row["tflops"] = round(k["timed_flops"] / sec / 1e12, 4)
            if k["peak_tflops"]:
                row["pct_peak_flops"] = round(100 * row["tflops"] / k["peak_tflops"], 2)
        out["functions"].append(row)
    return out


def prometheus_label(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def prometheus_text(summary):
    """The summary in Prometheus' text exposition format (version 0.0.4): counters per kernel and
    per function (their totals since the file began), and gauges for the achieved rates."""
    families = [
        ("tileslc_kernel_launches_total", "counter", "Kernel launches recorded.", "kernels", "kernel", "launches", 1),
        ("tileslc_kernel_timed_launches_total", "counter", "Kernel launches timed with CUDA events.", "kernels", "kernel", "timed", 1),
        ("tileslc_kernel_failed_launches_total", "counter", "Kernel launches that failed.", "kernels", "kernel", "failed", 1),
        ("tileslc_kernel_gpu_seconds_total", "counter", "GPU time of the timed launches.", "kernels", "kernel", "total_ms", 1e-3),
        ("tileslc_function_calls_total", "counter", "Calls of host functions with a @cutlass.cost.", "functions", "function", "calls", 1),
        ("tileslc_function_timed_calls_total", "counter", "Calls whose launches were all timed.", "functions", "function", "timed", 1),
        ("tileslc_function_failed_calls_total", "counter", "Calls with a failed launch.", "functions", "function", "failed", 1),
        ("tileslc_function_gpu_seconds_total", "counter", "GPU time of the timed calls.", "functions", "function", "total_ms", 1e-3),
        ("tileslc_function_bytes_total", "counter", "Bytes moved, as @cutlass.cost declares.", "functions", "function", "bytes", 1),
        ("tileslc_function_flops_total", "counter", "FLOPs, as @cutlass.cost declares.", "functions", "function", "flops", 1),
        ("tileslc_function_achieved_bytes_per_second", "gauge", "Bytes per GPU second over the timed calls.", "functions", "function", "gbps", 1e9),
        ("tileslc_function_achieved_flops_per_second", "gauge", "FLOPs per GPU second over the timed calls.", "functions", "function", "tflops", 1e12),
        ("tileslc_function_peak_bandwidth_ratio", "gauge", "Achieved bandwidth over the device's peak.", "functions", "function", "pct_peak_bw", 1e-2),
        ("tileslc_function_peak_flops_ratio", "gauge", "Achieved FLOP/s over the device's peak.", "functions", "function", "pct_peak_flops", 1e-2),
    ]
    lines = []
    for name, kind, help_text, table, label, field, scale in families:
        rows = [r for r in summary[table] if field in r]
        if not rows:
            continue
        lines += [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
        for r in rows:
            lines.append(f'{name}{{{label}="{prometheus_label(r[label])}"}} {r[field] * scale:.10g}')
    return "\n".join(lines) + "\n"


def metrics_summarize(args):
    summary = summarize_metrics(args.file)
    if args.prometheus:
        text = prometheus_text(summary)
        if args.output:  # whole, then renamed: node_exporter's textfile collector never reads half a file
            tmp = args.output + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, args.output)
        else:
            sys.stdout.write(text)
        return 0
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    dash = f"{'-':>10} {'-':>9} {'-':>9} {'-':>9} {'-':>9}"

    def times(r):
        return f"{r['total_ms']:10.4f} {r['mean_ms']:9.4f} {r['median_ms']:9.4f} {r['p95_ms']:9.4f} {r['max_ms']:9.4f}" if r["timed"] else dash

    print(f"{'kernel':40} {'launches':>8} {'timed':>6} {'failed':>6} {'total ms':>10} {'mean ms':>9} {'median':>9} {'p95':>9} {'max':>9}")
    for r in summary["kernels"]:
        print(f"{r['kernel'][:40]:40} {r['launches']:8} {r['timed']:6} {r['failed']:6} {times(r)}")
    if summary["functions"]:
        print()
        print(f"{'function':32} {'calls':>6} {'timed':>6} {'failed':>6} {'total ms':>10} {'mean ms':>9} {'median':>9} {'p95':>9} {'max':>9}"
              f" {'GB/s':>9} {'%peak':>6} {'TFLOP/s':>9} {'%peak':>6}")
        for r in summary["functions"]:
            rate = (f" {r['gbps']:9.2f}" if "gbps" in r else f" {'-':>9}") + (f" {r['pct_peak_bw']:6.1f}" if "pct_peak_bw" in r else f" {'-':>6}")
            rate += (f" {r['tflops']:9.3f}" if "tflops" in r else f" {'-':>9}") + (f" {r['pct_peak_flops']:6.1f}" if "pct_peak_flops" in r else f" {'-':>6}")
            print(f"{r['function'][:32]:32} {r['calls']:6} {r['timed']:6} {r['failed']:6} {times(r)}{rate}")
    return 0


# ---- command line ---------------------------------------------------------------------------


def add_build_options(p):
    """The options `verify` and `bench` share with the sweep: target, timing and the toolchain."""
    p.add_argument("--target", default="cuda", choices=["cuda", "cpu"], help="cuda: nvcc and the GPU; cpu: the CPU emulator")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--warmup", type=_whole(0), default=10)
    p.add_argument("--iters", type=_whole(1), default=50)
    p.add_argument("--rtol", type=float, default=2e-2)
    p.add_argument("--atol", type=float, default=1e-2)
    p.add_argument("--timeout", type=float, default=300, help="seconds per run")
    p.add_argument("--work-dir", help="where configurations are built (default: the sweep .tileslc-tune/STEM-TARGET, "
                                           "verify .tileslc-tune/verify, bench .tileslc-bench/...)")
    p.add_argument("-D", dest="define", action="append", default=[], help="NAME=VALUE for Constexpr parameters (not tuned ones)")
    p.add_argument("-I", dest="include", action="append", default=[], help="module search path")
    p.add_argument("--tileslc", help="the tileslc executable (default: the one running this)")
    p.add_argument("--runtime-include", help="tileslc's runtime headers")
    p.add_argument("--runtime-lib", help="directory holding libtileslc_rt.a / libtileslc_rt_cpu.a")
    p.add_argument("--nvcc", default=os.environ.get("CUDACXX", "nvcc"))
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"))


def main(argv):
    if argv and argv[0] == "merge":
        p = argparse.ArgumentParser(prog="tileslc tune merge", description="merge the databases of a sharded sweep")
        p.add_argument("-o", "--output", required=True, help="the merged database")
        p.add_argument("shards", nargs="+", help="the shards' databases")
        return merge(p.parse_args(argv[1:]))
    if argv[:2] == ["metrics", "summarize"]:
        p = argparse.ArgumentParser(prog="tileslc metrics summarize", description="a TILESLC_METRICS file, per kernel and function")
        p.add_argument("file")
        p.add_argument("--json", action="store_true", help="the tables as JSON")
        p.add_argument("--prometheus", action="store_true", help="Prometheus text exposition (counters and gauges)")
        p.add_argument("-o", "--output", help="with --prometheus: write this file atomically (node_exporter's textfile collector)")
        return metrics_summarize(p.parse_args(argv[2:]))
    if argv and argv[0] == "metrics":
        fail_input("usage: tileslc metrics summarize FILE.jsonl [--json | --prometheus [-o FILE.prom]]")
    if argv and argv[0] == "bench":
        p = argparse.ArgumentParser(prog="tileslc bench", description="time one configuration per shape, as the tuner does")
        p.add_argument("kernel")
        p.add_argument("--shapes", required=True, help="a JSON shapes file, or inline: M=128,N=8192,K=8192;M=4096,N=4096,K=4096")
        p.add_argument("--function", help="the @cute.jit function (needed when the file has several)")
        p.add_argument("--json", action="store_true", help="the results as JSON")
        p.add_argument("-o", "--output", help="also write the results as JSON to this file")
        p.add_argument("--metrics-overhead", action="store_true", help="also run with TILESLC_METRICS off and on, timing --b2b calls")
        p.add_argument("--b2b", type=_whole(1), default=200, help="calls back to back for --metrics-overhead")
        add_build_options(p)
        return bench(p.parse_args(argv[1:]))
    if argv and argv[0] == "verify":
        p = argparse.ArgumentParser(prog="tileslc tune verify", description="time the --tuned host function on each decided bucket")
        p.add_argument("kernel")
        p.add_argument("--db", required=True)
        p.add_argument("--rounds", type=_whole(0), default=3,
                       help="rounds of the tuned function and the decided configuration built alone, run alternately "
                            "(0: only the tuned function, against the sweep's recorded time)")
        add_build_options(p)
        return verify(p.parse_args(argv[1:]))
    if argv and argv[0] == "show":
        p = argparse.ArgumentParser(prog="tileslc tune show", description="print a database's decisions")
        p.add_argument("db")
        return show(p.parse_args(argv[1:]))
    p = argparse.ArgumentParser(prog="tileslc tune", description=__doc__.split("\n\n")[0],
                                epilog="Subcommands: 'tileslc tune merge -o OUT SHARD...', 'tileslc tune show DB', "
                                       "'tileslc tune verify KERNEL --db DB'. See docs/tuning.md.")
    p.add_argument("kernel", help="the .tpy file")
    shapes = p.add_mutually_exclusive_group(required=True)
    shapes.add_argument("--shapes", help="JSON list of shapes: [{\"M\": 128, \"N\": 8192, \"K\": 8192}, ...]")
    shapes.add_argument("--shapes-from-metrics", metavar="FILE.jsonl",
                        help="the shapes of the calls a TILESLC_METRICS file recorded, most frequent first")
    p.add_argument("--top", type=_whole(0), default=0, help="with --shapes-from-metrics: the N most frequent shapes only")
    p.add_argument("--db", help="results database to read (cache) and write (default: KERNEL-stem.tune.json)")
    p.add_argument("--function", action="append", default=[], help="tune only this @cute.jit function (repeatable)")
    p.add_argument("-j", "--jobs", type=_whole(1), default=os.cpu_count() or 1, help="parallel compilations")
    p.add_argument("--shard", help="i/n: run the i-th of n slices of the (configuration x shape) runs")
    p.add_argument("--devices", help="comma-separated CUDA device ordinals: one runner per device at a time")
    p.add_argument("--no-cache", action="store_true", help="measure everything again")
    add_build_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    args = p.parse_args(argv)
    if not args.db:
        args.db = os.path.splitext(os.path.basename(args.kernel))[0] + ".tune.json"
    if not os.path.isdir(os.path.dirname(args.db) or "."):
        fail_input(f"--db {args.db}: no directory '{os.path.dirname(args.db)}' to write the results database in")
    return run_sweep(args)


if __name__ == "__main__":
    # Errors name the command the user typed: `tileslc bench`, `tileslc metrics`, `tileslc tune`.
    command = "tileslc " + (sys.argv[1] if sys.argv[1:2] in (["bench"], ["metrics"]) else "tune")
    try:
        sys.exit(main(sys.argv[1:]))
    except (InputError, RuntimeError) as e:
        print(f"{command}: error: {e}", file=sys.stderr)
        sys.exit(2)
