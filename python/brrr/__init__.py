"""Python front end of the brrr ONNX compiler.

`brrr.compile` drives the `brrrc` command-line compiler; `brrr.load` runs the
model.so it produces (see `brrr.runtime`). Importing the package needs
nothing beyond the Python standard library, so it works on any Python 3.8+;
running models on host arrays needs numpy, and torch or cupy are used when
given CUDA arrays.
"""

from ._compile import CompileError, compile, find_brrrc
from .runtime import BrrrError, Context, LaunchInfo, Model, TensorInfo, load

__all__ = ["BrrrError", "CompileError", "Context", "LaunchInfo", "Model",
           "TensorInfo", "compile", "find_brrrc", "load"]
