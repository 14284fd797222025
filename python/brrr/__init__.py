"""Python front end of the brrr ONNX compiler.

`brrr.compile` drives the `brrrc` command-line compiler and returns the
model.so it builds loaded, from a cache of compiled libraries when it can;
`brrr.load` opens a model.so (see `brrr.runtime`). Importing the package needs
nothing beyond the Python standard library, so it works on any Python 3.8+;
running models on host arrays needs numpy, and torch or cupy are used when
given CUDA arrays.
"""

from ._version import __version__
from ._compile import (CompileError, cache_clear, cache_dir, compile, find_brrrc,
                       include_dir)
from .runtime import (BrrrError, Context, LaunchInfo, Model, Symbol, TensorInfo,
                      load)

__all__ = ["__version__", "BrrrError", "CompileError", "Context", "LaunchInfo", "Model",
           "Symbol", "TensorInfo", "cache_clear", "cache_dir", "compile", "find_brrrc",
           "include_dir", "load"]
