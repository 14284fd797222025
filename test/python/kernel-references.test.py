"""Checks, without torch, that every generated GPU kernel case has inputs
and a reference in test/gpu/kernel_references*.py: torch is replaced by a
stand-in whose tensors carry only a shape and a dtype, so each case's
inputs must match the shapes and dtypes its graph declares, and its
reference, where the stand-in can follow it to the end, must give one
result per declared output."""

import sys
import types

from onnx import TensorProto

DTYPES = {TensorProto.FLOAT: "float32", TensorProto.FLOAT16: "float16",
          TensorProto.BFLOAT16: "bfloat16", TensorProto.DOUBLE: "float64",
          TensorProto.INT64: "int64", TensorProto.INT32: "int32",
          TensorProto.INT8: "int8", TensorProto.UINT8: "uint8",
          TensorProto.BOOL: "bool", TensorProto.INT16: "int16",
          17: "float8_e4m3fn"}  # FLOAT8E4M3FN, past onnx 1.12's names


class Fake:
    """A tensor, or anything else torch would return, known only by the
    shape and dtype of the tensors made directly from a shape."""

    def __init__(self, shape=None, dtype=None):
        self.known_shape, self.dtype = shape, dtype

    @property
    def shape(self):
        return self.known_shape if self.known_shape is not None else FakeShape()

    def to(self, dtype=None, *args, **kwargs):
        return Fake(self.known_shape, dtype if isinstance(dtype, str) else self.dtype)

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        known = all(isinstance(s, int) and s >= 0 for s in shape)
        return Fake(tuple(shape) if known else None, self.dtype)

    def view(self, *args):
        if len(args) == 1 and isinstance(args[0], str):
            return Fake(self.known_shape, args[0])
        return self.reshape(*args)

    def contiguous(self):
        return self

    def clone(self):
        return self

    def is_floating_point(self):
        return self.dtype is None or self.dtype.startswith(("float", "bfloat"))

    def __getattr__(self, name):
        return Fake()

    def __call__(self, *a, **k):
        return Fake()

    def __getitem__(self, key):
        return Fake()

    def __setitem__(self, key, value):
        pass

    def __iter__(self):
        return iter([Fake(), Fake()])

    def __len__(self):
        return 2

    def __bool__(self):
        return True

    def __index__(self):
        return 2

    def __int__(self):
        return 2

    def __float__(self):
        return 1.0


class FakeShape(Fake):
    pass


for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
           "and", "or", "xor", "lshift", "rshift"):
    setattr(Fake, f"__{op}__", lambda self, other: Fake())
    setattr(Fake, f"__r{op}__", lambda self, other: Fake())
    setattr(Fake, f"__i{op}__", lambda self, other: Fake())
for op in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(Fake, f"__{op}__", lambda self, other: Fake())
for op in ("neg", "pos", "abs", "invert"):
    setattr(Fake, f"__{op}__", lambda self: Fake())
Fake.__hash__ = object.__hash__


def shape_of(args, kwargs):
    if "size" in kwargs:
        return tuple(kwargs["size"])
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


class FakeTorch(types.ModuleType):
    def __getattr__(self, name):
        return Fake()


torch = FakeTorch("torch")
for dt in set(DTYPES.values()) | {"float8_e5m2", "uint16"}:
    setattr(torch, dt, dt)
torch.float, torch.half, torch.double, torch.long = "float32", "float16", "float64", "int64"
torch.randn = lambda *a, generator=None, dtype="float32", **k: Fake(shape_of(a, k), dtype)
torch.rand = torch.randn
torch.zeros = torch.ones = torch.empty = torch.randn
torch.randint = lambda low, high=None, size=None, generator=None, dtype="int64", **k: Fake(
    tuple(size if size is not None else high), dtype)
torch.Generator = lambda *a, **k: Fake()
torch.nn = types.SimpleNamespace(functional=Fake())
sys.modules["torch"] = torch

from kernel_cases import GRAPH_OF, KERNEL_CASES  # noqa: E402
from kernel_references import torch_inputs, torch_reference  # noqa: E402

checked, shapes_checked, unfollowed, problems = 0, 0, 0, []
for name, nodes, ins, outs in KERNEL_CASES:
    graph = GRAPH_OF.get(name, name)
    try:
        xs = torch_inputs(graph, None)
    except KeyError:
        problems.append(f"{name}: no inputs")
        continue
    if len(xs) != len(ins):
        problems.append(f"{name}: {len(xs)} inputs, the graph declares {len(ins)}")
        continue
    for x, (arg, dtype, shape) in zip(xs, ins):
        shapes_checked += x.known_shape is not None
        if x.known_shape is not None and tuple(x.known_shape) != tuple(shape):
            problems.append(f"{name}: input '{arg}' has shape {tuple(x.known_shape)}, "
                            f"the graph declares {tuple(shape)}")
        want = DTYPES.get(dtype)
        if x.dtype is not None and want is not None and x.dtype != want:
            problems.append(f"{name}: input '{arg}' is {x.dtype}, the graph declares {want}")
    try:
        refs = torch_reference(graph, xs)
    except KeyError:
        problems.append(f"{name}: no reference")
        continue
    except (ValueError, TypeError):
        # The case's branch was taken; the stand-in could not follow it
        # (an unpacking of a tensor, a shape computed from results).
        refs = None
        unfollowed += 1
    if refs is not None and len(refs) != len(outs):
        problems.append(f"{name}: {len(refs)} reference results, "
                        f"the graph declares {len(outs)} outputs")
        continue
    checked += 1

print(f"cases: {len(KERNEL_CASES)}")
print(f"with inputs and a reference: {checked}")
print(f"inputs of a known shape: {shapes_checked} of {sum(len(c[2]) for c in KERNEL_CASES)}")
print(f"references followed to their results: {checked - unfollowed}")
for p in problems:
    print("problem:", p)
