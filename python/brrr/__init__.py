"""Python front end of the brrr ONNX compiler.

`brrr.compile` drives the `brrrc` command-line compiler. It needs nothing
beyond the Python standard library, so it works on any Python 3.
"""

from ._compile import CompileError, compile, find_brrrc

__all__ = ["CompileError", "compile", "find_brrrc"]
