"""tileslc host functions as PyTorch operators (torch.library), so that
`torch.compile` graphs, TorchScript and the dispatcher can call them.

    import torch, tileslc, tileslc.torch
    lib = tileslc.build("samples/vector_add/vector_add.tpy")
    op = tileslc.torch.register(lib.vector_add)          # torch.ops.tileslc.vector_add
    op(a, b, c)                                           # also inside torch.compile

A host function returns nothing and writes its results into tensors it is
given, so the operator's schema marks those tensors as mutated
(`Tensor(a!) mC`) and returns `()`. Which tensors a host function writes is
in the library's metadata (`"written"`, from the kernels it launches: a
pointer stored through, a TMA descriptor used to store); `mutates_args=`
overrides it. Libraries whose metadata predates the field are treated as
writing every tensor, which is always correct but keeps torch.compile from
reordering around the call.

The schema is written from the metadata (tensors as `Tensor`, integer scalars
as `int`, floating scalars as `float`, Boolean as `bool`), registered through
`torch.library.Library(namespace, "FRAGMENT")` for the library's device (CUDA
for the cuda target, CPU for the emulator), with a fake (meta) kernel for
`torch.compile` where this torch has `torch.library.register_fake` (2.4 and
later). The source of these semantics: PyTorch's "Custom C++ and CUDA
Operators" and the `torch.library` reference.
"""
import torch

from ._library import HostFunction, TileslcError

__all__ = ["register", "schema"]

# One torch Library per namespace, kept alive for the life of the process (a Library's
# registrations end when it is collected), and the operators registered through each.
_libraries = {}
_registered = set()

_SCALAR_TYPES = {
    "Boolean": "bool",
    "Int8": "int", "Int16": "int", "Int32": "int", "Int64": "int",
    "Uint8": "int", "Uint16": "int", "Uint32": "int", "Uint64": "int",
    "Float16": "float", "BFloat16": "float", "Float32": "float", "Float64": "float", "TFloat32": "float",
}


def _written(fn, mutates_args):
    """The names of the tensor parameters the operator declares as mutated."""
    tensors = [p["name"] for p in fn.params if p["kind"] == "tensor"]
    if mutates_args is None:
        return [p["name"] for p in fn.params if p["kind"] == "tensor" and p.get("written", True)]
    unknown = [n for n in mutates_args if n not in tensors]
    if unknown:
        raise TileslcError("%s: mutates_args names %s, which %s not a tensor parameter (tensors: %s)"
                           % (fn.name, ", ".join(unknown), "is" if len(unknown) == 1 else "are", ", ".join(tensors)))
    return list(mutates_args)


def schema(fn, name=None, mutates_args=None):
    """The torch schema string of host function `fn` (a tileslc HostFunction), e.g.
    `vector_add(Tensor mA, Tensor mB, Tensor(a!) mC) -> ()`. Raises TileslcError for a
    parameter type torch cannot pass (none of the scalar types tileslc accepts today)."""
    if not isinstance(fn, HostFunction):
        raise TileslcError("register: expected a host function of a tileslc library (lib.NAME), found %r" % (fn,))
    written = _written(fn, mutates_args)
    args, alias = [], 0
    for p in fn.params:
        if p["kind"] == "tensor":
            if p["name"] in written:
                # One alias set per mutated tensor: a..z, then a0, b0, ...
                tag = "abcdefghijklmnopqrstuvwxyz"[alias % 26] + (str(alias // 26 - 1) if alias >= 26 else "")
                alias += 1
                args.append("Tensor(%s!) %s" % (tag, p["name"]))
            else:
                args.append("Tensor %s" % p["name"])
        elif p["dtype"] in _SCALAR_TYPES:
            args.append("%s %s" % (_SCALAR_TYPES[p["dtype"]], p["name"]))
        else:
            raise TileslcError("%s: parameter %s has type %s, which a torch operator cannot pass"
                               % (fn.name, p["name"], p["dtype"]))
    return "%s(%s) -> ()" % (name or fn.name, ", ".join(args))


def _library(namespace):
    """The torch Library that defines our operators in `namespace`: a FRAGMENT (torch 2.1 and
    later, which lets other code add to the namespace too) or, on older torch, the namespace's
    one DEF library."""
    lib = _libraries.get(namespace)
    if lib is None:
        try:
            lib = torch.library.Library(namespace, "FRAGMENT")
        except ValueError:  # torch < 2.1 knows only DEF and IMPL
            lib = torch.library.Library(namespace, "DEF")
        _libraries[namespace] = lib
    return lib


def register(fn, name=None, namespace="tileslc", mutates_args=None):
    """Registers host function `fn` (e.g. `lib.vector_add`) as the operator
    `torch.ops.<namespace>.<name>` (name: the host function's) and returns it.
    The operator calls `fn` on torch's current stream. Registering the same
    name twice in one namespace raises TileslcError (torch keeps the first);
    give another `name=` or `namespace=` for a second library (e.g. another
    `defines=` set of the same kernel)."""
    sig = schema(fn, name, mutates_args)  # checks that fn is a host function first
    op_name = name or fn.name
    key = (namespace, op_name)
    if key in _registered:
        raise TileslcError("register: torch.ops.%s.%s is registered already (give name= or namespace=)"
                           % (namespace, op_name))
    lib = _library(namespace)
    try:
        lib.define(sig)
    except RuntimeError as e:
        raise TileslcError("register: torch refused the schema %r: %s" % (sig, e)) from None

    def kernel(*args):
        fn(*args)

    lib.impl(op_name, kernel, "CUDA" if fn._library.target == "cuda" else "CPU")
    register_fake = getattr(torch.library, "register_fake", None)
    if register_fake is not None:
        # The op creates no tensors and returns nothing: its fake kernel only has to accept the call.
        register_fake("%s::%s" % (namespace, op_name), lambda *args: None, lib=lib)
    _registered.add(key)
    return getattr(getattr(torch.ops, namespace), op_name)
