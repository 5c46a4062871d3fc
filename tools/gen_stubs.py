#!/usr/bin/env python3
"""gen_stubs.py OUT_DIR: `.pyi` stubs of the kernel-side stdlib (`tileslc`, `tileslc.cute`, ...)
for editors and pyright (issue 16 item 5, docs/editors.md).

Two sources, nothing written by hand per name:
- compiler/sema/builtins.def: every natively implemented builtin. A row whose Export starts with
  an upper-case letter is a type (a class in the stub), any other row a function; TILESLC_METHOD
  rows become methods of the class their Name names (`Tensor.load` -> class Tensor). The
  docstring says the CuTe DSL name, the signature and where the builtin may be called.
- stdlib/tileslc/**.tpy, read with Python's own `ast` (a .tpy is Python syntax): docstrings,
  functions with their parameters, module constants and the names each module imports.
A module's stub binds the rows whose Name places them there (`cute.arch.thread_idx` in
`tileslc.cute.arch`, as the compiler binds them) and its own definitions, and lists all of
them in `__all__`, which is what pyright treats as the module's public names.

The stubs are deliberately loose: values are `Any`, classes accept any constructor arguments,
subscripts (`cute.Tensor[cutlass.Float32, (N,)]` is an annotation with a tuple inside, which
`__class_getitem__` allows) and attributes. What they give an editor is the names, the
signatures and the documentation; pyright in basic mode reports no errors on correct code.
Exit status: 0, or 1 with a message when an input cannot be read.
"""
import ast
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROW = re.compile(
    r'^TILESLC_(BUILTIN|METHOD)\(\s*(\w+),\s*(\w+|"[^"]*"),\s*"([^"]*)",\s*"([^"]*)",\s*(\w+),\s*(\w+),\s*(\w+)\)',
    re.M | re.S)

CONTEXT = {
    "Anywhere": "",
    "Kernel": " Kernel code only (@cute.kernel).",
    "Host": " Host code only (@cute.jit).",
    "Function": " Inside kernels and host functions, not at module level.",
}
ARCH = {"Any": "", "Sm90": " Needs sm_90 or newer.", "Sm90a": " Needs sm_90a."}

# The base classes every stub class derives from: loose on purpose (see the module doc).
PRELUDE = '''from typing import Annotated, Any, Callable, Iterator, TypeAlias, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


class _Value:
    """A tileslc value: static while compiling, or run-time in generated code."""
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __class_getitem__(cls, item: Any) -> Any: ...
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, key: Any) -> Any: ...
    def __setitem__(self, key: Any, value: Any) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __bool__(self) -> bool: ...
    def __index__(self) -> int: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __add__(self, other: Any) -> Any: ...
    def __radd__(self, other: Any) -> Any: ...
    def __sub__(self, other: Any) -> Any: ...
    def __rsub__(self, other: Any) -> Any: ...
    def __mul__(self, other: Any) -> Any: ...
    def __rmul__(self, other: Any) -> Any: ...
    def __truediv__(self, other: Any) -> Any: ...
    def __rtruediv__(self, other: Any) -> Any: ...
    def __floordiv__(self, other: Any) -> Any: ...
    def __rfloordiv__(self, other: Any) -> Any: ...
    def __mod__(self, other: Any) -> Any: ...
    def __rmod__(self, other: Any) -> Any: ...
    def __pow__(self, other: Any) -> Any: ...
    def __lshift__(self, other: Any) -> Any: ...
    def __rshift__(self, other: Any) -> Any: ...
    def __and__(self, other: Any) -> Any: ...
    def __rand__(self, other: Any) -> Any: ...
    def __or__(self, other: Any) -> Any: ...
    def __ror__(self, other: Any) -> Any: ...
    def __xor__(self, other: Any) -> Any: ...
    def __rxor__(self, other: Any) -> Any: ...
    def __neg__(self) -> Any: ...
    def __invert__(self) -> Any: ...
    def __lt__(self, other: Any) -> Any: ...
    def __le__(self, other: Any) -> Any: ...
    def __gt__(self, other: Any) -> Any: ...
    def __ge__(self, other: Any) -> Any: ...
'''

HOST_DRIVER = '''"""cuda.bindings.driver as tileslc sees it: host-only; CUstream annotates a stream parameter."""
from typing import Any


class CUstream:
    """The host function's cudaStream_t: what launch(stream=) takes."""


def __getattr__(name: str) -> Any: ...
'''

# Classes that only methods name (no row makes them): what their values are.
CLASS_DOC = {
    "Kernel": "A @cute.kernel applied to its arguments: launch it from a @cute.jit host function.",
    "TensorSSA": "A tensor's elements in registers (Tensor.load()), with elementwise arithmetic.",
}

# The decorators' types say what they return, so that `k(a, b).launch(...)` and calls of a
# @cute.jit function check; every other builtin returns Any.
SPECIAL = {
    "KernelDecorator": 'def {name}(fn: Callable[..., Any]) -> Callable[..., Kernel]:\n    """{doc}"""\n',
    "JitDecorator": 'def {name}(fn: _F) -> _F:\n    """{doc}"""\n',
    # A parameter annotated Constexpr takes any static value; Constexpr[int] says which.
    "ConstexprMarker": '{name}: TypeAlias = Annotated[_T, "{doc}"]\n',
}


def stub_params(params: str) -> str:
    """A builtins.def Params column with its defaults as `...` (a stub's spelling)."""
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return ", ".join(p.split("=")[0].strip() + ("=..." if "=" in p else "") for p in out)


def module_of(name: str) -> str:
    """The tileslc module a row's Name binds it in, or "" for Python's own builtins and
    modules (`range`, `math.ceil`, `list.append`), which editors know from typeshed."""
    qual = name.rsplit(".", 1)[0] if "." in name else ""
    if qual == "cutlass" or qual.startswith("cutlass."):
        return "tileslc" + qual[len("cutlass"):]
    if qual == "cute" or qual.startswith("cute."):
        return "tileslc." + qual
    return ""


def read_rows():
    text = (ROOT / "compiler/sema/builtins.def").read_text()
    rows = []
    for m in ROW.finditer(text):
        kind, ident, receiver_or_export, name, params, context, arch, _handler = m.groups()
        rows.append({"kind": kind, "id": ident, "export": receiver_or_export.strip('"'), "name": name,
                     "params": params, "context": context, "arch": arch})
    if not rows:
        raise SystemExit("gen_stubs: no rows read from compiler/sema/builtins.def")
    return rows


def read_enum_members():
    """{BuiltinId name: [member, ...]}: CuTe DSL's enums as compiler/sema/compat_ops.cpp's table
    declares them (`{BuiltinId::WarpgroupField, "Field", {{"ACCUMULATE", "accum_c"}}}`), so that a
    stub class has its members (warpgroup.Field.ACCUMULATE) without a second list of them."""
    text = (ROOT / "compiler/sema/compat_ops.cpp").read_text()
    table = text[text.index("const std::vector<EnumInfo>& enums()"):]
    table = table[:table.index("return table;")]
    members = {}
    for m in re.finditer(r'\{BuiltinId::(\w+),\s*"\w+",\s*\{((?:\{"\w+",\s*"[^"]*"\},?\s*)+)\}\}', table):
        members[m.group(1)] = re.findall(r'\{"(\w+)",', m.group(2))
    if not members:
        raise SystemExit("gen_stubs: no enums read from compiler/sema/compat_ops.cpp")
    return members


def row_doc(row) -> str:
    return f"{row['name']}({row['params']}).{CONTEXT[row['context']]}{ARCH[row['arch']]}".replace('"', "'")


def builtins_stub(rows, native) -> str:
    """tileslc/_builtins.pyi: every row by its Export name, methods on their classes, and the
    names `native` that stdlib modules import from tileslc._builtins with no row: the scalar
    types, which the compiler makes natively."""
    methods = {}
    for r in rows:
        if r["kind"] == "METHOD":
            cls, meth = r["name"].split(".", 1)
            if cls[:1].isupper():  # list.append, str.format: Python's own types
                methods.setdefault(cls, []).append((meth, r))
    lines = [PRELUDE]
    classes = set()
    enum_members = read_enum_members()
    for r in rows:
        if r["kind"] != "BUILTIN" or not module_of(r["name"]):
            continue  # methods below; Python's own builtins (range, len, ...) editors know
        export, doc = r["export"], row_doc(r)
        if r["id"] in SPECIAL:
            lines.append(SPECIAL[r["id"]].format(name=export, doc=doc))
        elif export[:1].isupper():
            classes.add(export)
            members = "".join(f"    {member}: {export}\n" for member in enum_members.get(r["id"], []))
            lines.append(f'class {export}(_Value):\n    """{doc}"""\n{members}')
            for meth, m in methods.get(export, []):
                lines.append(method_stub(meth, m))
        else:
            lines.append(f'def {export}({stub_params(r["params"])}) -> Any:\n    """{doc}"""\n')
    exported = {r["export"] for r in rows}
    for name in sorted(native - exported):
        lines.append(f'class {name}(_Value):\n    """A scalar type: annotates values, and {name}(x) converts x."""\n')
    for cls, meths in sorted(methods.items()):
        if cls in classes:
            continue
        lines.append(f'class {cls}(_Value):\n    """{CLASS_DOC.get(cls, "A " + cls + " value.")}"""\n')
        lines.extend(method_stub(meth, m) for meth, m in meths)
    return "\n".join(lines)


def method_stub(meth: str, r) -> str:
    params = stub_params(r["params"])
    params = "self" + (", " + params if params else "")
    return f'    def {meth}({params}) -> Any:\n        """{row_doc(r)}"""\n'



def tpy_module_name(path: pathlib.Path, stdlib: pathlib.Path) -> str:
    parts = list(path.relative_to(stdlib).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def params_text(args: ast.arguments) -> str:
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(positional, defaults):
        out.append(a.arg + ("=..." if d is not None else ""))
    if args.vararg:
        out.append("*" + args.vararg.arg)
    elif args.kwonlyargs:
        out.append("*")
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append(a.arg + ("=..." if d is not None else ""))
    if args.kwarg:
        out.append("**" + args.kwarg.arg)
    return ", ".join(out)


def quote_doc(doc: str, indent: str) -> str:
    doc = doc.replace("\\", "\\\\").replace('"""', "'''")
    return f'{indent}"""{doc}"""\n'


def module_stub(name: str, tree: ast.Module, rows) -> str:
    """One stdlib module's stub: its rows (from _builtins), imports, functions and constants."""
    lines, public = [], []
    doc = ast.get_docstring(tree, clean=False)
    if doc:
        lines.append(quote_doc(doc, ""))
    lines.append("from typing import Any\n")
    own = [r for r in rows if r["kind"] == "BUILTIN" and module_of(r["name"]) == name]
    for r in own:
        bound = r["name"].rsplit(".", 1)[1]
        lines.append(f"from tileslc._builtins import {r['export']} as {bound}")
        public.append(bound)
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                bound = a.asname or a.name.split(".")[0]
                if a.asname and "." in a.name:
                    pkg, leaf = a.name.rsplit(".", 1)
                    lines.append(f"from {pkg} import {leaf} as {bound}")
                else:
                    lines.append(f"import {a.name}" + (f" as {a.asname}" if a.asname else ""))
                if not bound.startswith("_"):
                    public.append(bound)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                bound = a.asname or a.name
                lines.append(f"from {node.module} import {a.name}" + (f" as {a.asname}" if a.asname else ""))
                if not bound.startswith("_"):
                    public.append(bound)
        elif isinstance(node, ast.FunctionDef):
            fdoc = ast.get_docstring(node, clean=False)
            lines.append(f"\ndef {node.name}({params_text(node.args)}) -> Any:")
            lines.append(quote_doc(fdoc, "    ") if fdoc else "    ...\n")
            if not node.name.startswith("_"):
                public.append(node.name)
        elif isinstance(node, ast.ClassDef):
            # A building-block class (row_tiling.RowVectors, NamedBarrier): its methods, and any
            # attribute (those its methods set on self) typed Any.
            cdoc = ast.get_docstring(node, clean=False)
            lines.append(f"\nclass {node.name}:")
            if cdoc:
                lines.append(quote_doc(cdoc, "    "))
            lines.append("    def __getattr__(self, name: str) -> Any: ...")
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    mdoc = ast.get_docstring(m, clean=False)
                    ret = "None" if m.name == "__init__" else "Any"
                    lines.append(f"\n    def {m.name}({params_text(m.args)}) -> {ret}:")
                    lines.append(quote_doc(mdoc, "        ") if mdoc else "        ...\n")
            if not node.name.startswith("_"):
                public.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    value = node.value
                    kind = type(value.value).__name__ if isinstance(value, ast.Constant) else "Any"
                    kind = kind if kind in ("int", "float", "str", "bool") else "Any"
                    lines.append(f"{t.id}: {kind}")
                    if not t.id.startswith("_"):
                        public.append(t.id)
    lines.append("\n__all__ = [" + ", ".join(f'"{p}"' for p in dict.fromkeys(public)) + "]\n")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 2:
        print("usage: gen_stubs.py OUT_DIR", file=sys.stderr)
        return 2
    out = pathlib.Path(argv[1])
    rows = read_rows()
    stdlib = ROOT / "stdlib"
    files, native = {}, set()
    # stdlib/math.tpy and the like are Python's modules as tileslc evaluates them; editors
    # know them from typeshed.
    for path in sorted((stdlib / "tileslc").rglob("*.tpy")):
        name = tpy_module_name(path, stdlib)
        try:
            tree = ast.parse(path.read_text(), filename=str(path))
        except SyntaxError as e:
            print(f"gen_stubs: {path}:{e.lineno}: {e.msg}", file=sys.stderr)
            return 1
        native |= {a.name for node in tree.body if isinstance(node, ast.ImportFrom)
                   and node.module == "tileslc._builtins" for a in node.names}
        rel = pathlib.Path(*name.split("."))
        target = out / rel / "__init__.pyi" if path.name == "__init__.tpy" else out / rel.with_suffix(".pyi")
        files[target] = module_stub(name, tree, rows)
    files[out / "tileslc" / "_builtins.pyi"] = builtins_stub(rows, native)
    # CuTe DSL's spellings: `cutlass` is an alias package of `tileslc` (as in the compiler,
    # docs/cute_dsl_compat.md), module by module.
    for target in list(files):
        rel = target.relative_to(out / "tileslc")
        if rel.name == "_builtins.pyi":
            continue
        module = ".".join(("tileslc",) + (rel.parent.parts if rel.name == "__init__.pyi" else rel.with_suffix("").parts))
        files[out / "cutlass" / rel] = f"from {module} import *\nfrom {module} import __all__ as __all__\n"
    # The host-only module a wrapper's stream parameter is annotated with.
    files[out / "cuda" / "__init__.pyi"] = ""
    files[out / "cuda" / "bindings" / "__init__.pyi"] = ""
    files[out / "cuda" / "bindings" / "driver.pyi"] = HOST_DRIVER
    for target, text in files.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        # Unchanged stubs are not rewritten, so an editor's index is not invalidated for nothing.
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
