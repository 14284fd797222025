"""`brrr.compile`: run the brrrc compiler from Python."""

import os
import shutil
import subprocess


class CompileError(RuntimeError):
    """brrrc rejected the model; `diagnostics` holds its error lines."""

    def __init__(self, message, diagnostics):
        super().__init__(message)
        self.diagnostics = diagnostics


def find_brrrc():
    """Locates brrrc: $BRRRC, then PREFIX/bin next to an installed package,
    then the build tree this package sits in, then $PATH."""
    candidates = []
    if os.environ.get("BRRRC"):
        candidates.append(os.environ["BRRRC"])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    candidates += [os.path.join(root, "bin", "brrrc"),
                   os.path.join(root, "build", "bin", "brrrc")]
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("brrrc")
    if found:
        return found
    raise FileNotFoundError(
        "brrrc not found: set BRRRC, install brrr, or put brrrc on PATH")


def compile(model, output=None, input_shapes=None, emit=None, brrrc=None):
    """Compiles the ONNX model at `model`.

    input_shapes: {input name: [dims]} binding dynamic dimensions.
    emit: "brrr" for the imported IR (the default without `output`).
    Returns the compiler's output text when `output` is None, else `output`.
    Raises CompileError with every diagnostic if the model is rejected.
    """
    cmd = [brrrc or find_brrrc(), os.fspath(model)]
    for name, dims in (input_shapes or {}).items():
        cmd += ["--input-shape", f"{name}=" + "x".join(str(int(d)) for d in dims)]
    if emit is not None:
        cmd.append(f"--emit={emit}")
    if output is not None:
        cmd += ["-o", os.fspath(output)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        diagnostics = [line for line in proc.stderr.splitlines() if line]
        raise CompileError(
            f"brrrc failed on {model}:\n" + "\n".join(diagnostics), diagnostics)
    return proc.stdout if output is None else output
