"""`brrr.compile`: run the brrrc compiler from Python, with a cache of the
libraries it builds."""

import hashlib
import os
import shutil
import subprocess
import tempfile
from typing import Any, Dict, Optional, Sequence, Union

_CACHE_FORMAT = b"brrr compile cache 1\0"


class CompileError(RuntimeError):
    """brrrc rejected the model; `diagnostics` holds its error lines."""

    def __init__(self, message, diagnostics):
        super().__init__(message)
        self.diagnostics = diagnostics


def find_brrrc() -> str:
    """Locates brrrc: $BRRRC, then the one a wheel installs inside the
    package, then PREFIX/bin next to an installed package, then the build
    tree this package sits in, then $PATH."""
    candidates = []
    if os.environ.get("BRRRC"):
        candidates.append(os.environ["BRRRC"])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    candidates += [os.path.join(here, "_bundle", "bin", "brrrc"),
                   os.path.join(root, "bin", "brrrc"),
                   os.path.join(root, "build", "bin", "brrrc")]
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("brrrc")
    if found:
        return found
    raise FileNotFoundError(
        "brrrc not found: set BRRRC, install brrr, or put brrrc on PATH")


def include_dir() -> str:
    """The directory of the C and C++ runtime headers (brrr_runtime.h and
    the RAII wrapper brrr_runtime.hpp), for a host program that links a
    model.so: inside the package where a wheel installed it, PREFIX/include/
    brrr/runtime next to an installed package, or runtime/ of the checkout
    this package sits in."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    for path in (os.path.join(here, "_bundle", "include", "brrr", "runtime"),
                 os.path.join(root, "include", "brrr", "runtime"),
                 os.path.join(root, "runtime")):
        if os.path.isfile(os.path.join(path, "brrr_runtime.hpp")):
            return path
    raise FileNotFoundError("brrr's runtime headers were not found next to "
                            f"the package ({here}): install brrr")


def cache_dir() -> str:
    """Where compiled libraries are cached: $BRRR_CACHE_DIR, else
    $XDG_CACHE_HOME/brrr, else ~/.cache/brrr."""
    if os.environ.get("BRRR_CACHE_DIR"):
        return os.environ["BRRR_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "brrr")


def cache_enabled() -> bool:
    """False when $BRRR_CACHE is 0, off or no."""
    return os.environ.get("BRRR_CACHE", "1").lower() not in ("0", "off", "no")


def cache_clear() -> int:
    """Deletes every library in the cache (and the model digests it keeps);
    returns how many libraries."""
    d = cache_dir()
    if not os.path.isdir(d):
        return 0
    shutil.rmtree(os.path.join(d, "digests"), ignore_errors=True)
    removed = 0
    for name in os.listdir(d):
        if name.endswith(".so") or ".tmp-" in name:
            try:
                os.remove(os.path.join(d, name))
                removed += name.endswith(".so")
            except FileNotFoundError:
                pass
    return removed


_versions = {}


def _version(brrrc):
    """`brrrc --version`, once per compiler path and modification time."""
    st = os.stat(brrrc)
    key = (brrrc, st.st_mtime_ns, st.st_size)
    if key not in _versions:
        proc = subprocess.run([brrrc, "--version"], capture_output=True, text=True)
        _versions[key] = proc.stdout + proc.stderr
    return _versions[key]


def _model_digest(model, directory):
    """SHA-256 of the model file's bytes and of the external data files it
    names (name, size, modification time). A model file whose path, size,
    modification time and inode were digested before is not read again:
    the digest is kept in `directory`/digests, as ccache's direct mode does."""
    st = os.stat(model)
    memo_key = hashlib.sha256(
        f"{os.path.abspath(model)}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}"
        .encode()).hexdigest()
    memo = os.path.join(directory, "digests", memo_key)
    try:
        with open(memo) as f:
            digest, *files = f.read().split("\n")
        if all(_same_file(line) for line in files if line):
            return digest
    except (OSError, ValueError):
        pass
    h = hashlib.sha256()
    with open(model, "rb") as f:
        data = f.read()
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)
    model_dir = os.path.dirname(os.path.abspath(model))
    files = []
    for name in _external_files(model_dir, data, os.path.abspath(model)):
        path = os.path.join(model_dir, name)
        s = os.stat(path)
        h.update(f"\0{name}\0{s.st_size}\0{s.st_mtime_ns}".encode())
        files.append(f"{path}\0{s.st_size}\0{s.st_mtime_ns}")
    digest = h.hexdigest()
    try:
        os.makedirs(os.path.dirname(memo), exist_ok=True)
        tmp = f"{memo}.tmp-{os.getpid()}"
        with open(tmp, "w") as f:
            f.write("\n".join([digest] + files))
        os.replace(tmp, memo)
    except OSError:
        pass
    return digest


def _external_files(model_dir, data, model_path, depth=3):
    """The files under `model_dir` (relative paths, sorted) whose path
    appears in the model's bytes: its external data locations, which may
    lie in subdirectories. Only directories whose names appear are
    entered, `depth` levels at most."""
    found = []

    def walk(rel, level):
        try:
            names = sorted(os.listdir(os.path.join(model_dir, rel)))
        except OSError:
            return
        for name in names:
            sub = os.path.join(rel, name) if rel else name
            path = os.path.join(model_dir, sub)
            if sub.encode() not in data or path == model_path:
                continue
            if os.path.isfile(path):
                found.append(sub)
            elif os.path.isdir(path) and level < depth:
                walk(sub, level + 1)

    walk("", 1)
    return found


def _same_file(line):
    """Whether an external data file recorded as PATH\0SIZE\0MTIME is
    unchanged."""
    path, size, mtime = line.split("\0")
    s = os.stat(path)
    return s.st_size == int(size) and s.st_mtime_ns == int(mtime)


def _cache_key(brrrc, model, args, directory):
    """What a cached library depends on: the format, the compiler's version,
    the model (_model_digest) and the compiler's arguments."""
    h = hashlib.sha256(_CACHE_FORMAT)
    h.update(_version(brrrc).encode())
    h.update(_model_digest(model, directory).encode())
    for a in args:
        h.update(b"\0" + a.encode())
    return h.hexdigest()


def _run(cmd, model):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        diagnostics = [line for line in proc.stderr.splitlines() if line]
        raise CompileError(
            f"brrrc failed on {model}:\n" + "\n".join(diagnostics), diagnostics)
    return proc.stdout


_scratch = None


def _scratch_dir():
    """A directory for uncached libraries, removed when the process ends."""
    global _scratch
    if _scratch is None:
        import atexit
        _scratch = tempfile.mkdtemp(prefix="brrr-")
        atexit.register(shutil.rmtree, _scratch, True)
    return _scratch


def _dim_text(d: Any) -> str:
    """--input-shape's text for one dimension: 8, (1, 64) or "1..64"."""
    if isinstance(d, str):
        return d
    if isinstance(d, (tuple, list)):
        if len(d) != 2:
            raise ValueError("a dimension range is (min, max), got %r" % (d,))
        return "%d..%d" % (int(d[0]), int(d[1]))
    return str(int(d))


def compile(model: Union[str, "os.PathLike[str]"],
            output: Optional[Union[str, "os.PathLike[str]"]] = None,
            input_shapes: Optional[Dict[str, Sequence[Any]]] = None,
            precision: Optional[str] = None, target: Optional[str] = None,
            flags: Sequence[str] = (), emit: Optional[str] = None,
            brrrc: Optional[str] = None, cache: Optional[bool] = None,
            device: Optional[int] = 0) -> Any:
    """Compiles the ONNX model at `model` with brrrc.

    Without `emit`, builds a model.so and returns it loaded, as
    `brrr.load(path, device)` does (`device=None`: inspection only, no GPU
    needed). The library is `output` when given; otherwise it comes from
    the compile cache (see `cache_dir`), keyed by the model's bytes, its
    external data files, the arguments and brrrc's version: a hit loads
    without compiling. `cache=False` (or $BRRR_CACHE=0) compiles into a
    temporary directory instead.

    With `emit` ("brrr", "kernels", "ptx", ...), returns brrrc's output
    text, or writes it to `output` and returns `output`.

    input_shapes: {input name: [dims]} binding dynamic dimensions; a dim is
        an int, or a range (min, max) (or "min..max") that one library
        serves at every size in (--input-shape x=1..64x128).
    precision: "auto", "fp32", "tf32", "fp16" or "bf16" (--precision;
        default brrrc's "auto": a 16-bit model's f32 products in its type).
    target: "sm_90a" or "sm_80" (--target).
    flags: further brrrc arguments, e.g. ["--weights=appended"].
    Raises CompileError with every diagnostic if the model is rejected.
    """
    brrrc = brrrc or find_brrrc()
    model = os.fspath(model)
    args = []
    for name, dims in (input_shapes or {}).items():
        args += ["--input-shape", f"{name}=" + "x".join(_dim_text(d) for d in dims)]
    if precision is not None:
        args.append(f"--precision={precision}")
    if target is not None:
        args.append(f"--target={target}")
    args += [str(f) for f in flags]

    if emit is not None:
        cmd = [brrrc, model, *args, f"--emit={emit}"]
        if output is not None:
            cmd += ["-o", os.fspath(output)]
        text = _run(cmd, model)
        return text if output is None else output

    from .runtime import load
    if output is not None:
        _run([brrrc, model, *args, "-o", os.fspath(output)], model)
        return load(output, device)
    if cache is None:
        cache = cache_enabled()
    if not cache:
        path = os.path.join(_scratch_dir(), f"model-{len(os.listdir(_scratch_dir()))}.so")
        _run([brrrc, model, *args, "-o", path], model)
        return load(path, device)
    directory = cache_dir()
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, _cache_key(brrrc, model, args, directory) + ".so")
    if not os.path.isfile(path):
        # Written under a name of its own and renamed: a reader never sees a
        # partial library, and two processes compiling it at once are fine.
        tmp = f"{path}.tmp-{os.getpid()}.so"
        try:
            _run([brrrc, model, *args, "-o", tmp], model)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    return load(path, device)
