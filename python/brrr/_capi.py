"""ctypes declarations of the C API that every compiled model.so exports
(runtime/brrr_runtime.h), and the error type raised for its failures.

Kept apart from `brrr.runtime` so that the Python side of the contract can
be checked against the header in one place. Standard library only.
"""

import ctypes
import os

STATUS_NAMES = {
    0: "BRRR_OK",
    1: "BRRR_ERROR_INVALID_ARGUMENT",
    2: "BRRR_ERROR_NO_DRIVER",
    3: "BRRR_ERROR_NO_DEVICE",
    4: "BRRR_ERROR_UNSUPPORTED_DEVICE",
    5: "BRRR_ERROR_CORRUPT_ARTIFACT",
    6: "BRRR_ERROR_OUT_OF_MEMORY",
    7: "BRRR_ERROR_CUDA",
    8: "BRRR_ERROR_INVALID_INPUT",
    9: "BRRR_ERROR_INVALID_SHAPE",
}

# brrr_dtype -> (numpy dtype name, bytes per element).
DTYPES = {
    1: ("float32", 4),
    2: ("float16", 2),
    3: ("bfloat16", 2),
    4: ("float64", 8),
    5: ("int8", 1),
    6: ("int16", 2),
    7: ("int32", 4),
    8: ("int64", 8),
    9: ("uint8", 1),
    10: ("uint16", 2),
    11: ("uint32", 4),
    12: ("uint64", 8),
    13: ("bool", 1),
}


class BrrrError(RuntimeError):
    """A runtime call failed. `status` is the brrr_status number,
    `status_name` its name (e.g. "BRRR_ERROR_NO_DRIVER") and `message` the
    runtime's brrr_last_error() text."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = STATUS_NAMES.get(status, "status %d" % status)
        self.message = message
        super().__init__("%s (%s)" % (message, self.status_name))


class TensorInfoC(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("dims", ctypes.POINTER(ctypes.c_int64)),
        ("size_bytes", ctypes.c_uint64),
    ]


class SymbolInfoC(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("min", ctypes.c_int64),
        ("max", ctypes.c_int64),
    ]


class LaunchInfoC(ctypes.Structure):
    _fields_ = [
        ("kernel", ctypes.c_char_p),
        ("flops", ctypes.c_uint64),
        ("bytes", ctypes.c_uint64),
    ]


_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_STATUS = ctypes.c_int

# name: (restype, argtypes)
_SIGNATURES = {
    "brrr_api_version": (ctypes.c_uint32, []),
    "brrr_last_error": (ctypes.c_char_p, []),
    "brrr_model_open": (_STATUS, [ctypes.c_int, _PP]),
    "brrr_model_open_artifact": (_STATUS, [_P, ctypes.c_size_t, ctypes.c_int,
                                           _PP]),
    "brrr_artifact_check": (_STATUS, [_P, ctypes.c_size_t]),
    "brrr_model_close": (None, [_P]),
    "brrr_model_num_inputs": (ctypes.c_int32, [_P]),
    "brrr_model_num_outputs": (ctypes.c_int32, [_P]),
    "brrr_model_input": (_STATUS, [_P, ctypes.c_int32,
                                   ctypes.POINTER(TensorInfoC)]),
    "brrr_model_output": (_STATUS, [_P, ctypes.c_int32,
                                    ctypes.POINTER(TensorInfoC)]),
    "brrr_model_target": (ctypes.c_char_p, [_P]),
    "brrr_model_num_launches": (ctypes.c_int32, [_P]),
    "brrr_model_launch": (_STATUS, [_P, ctypes.c_int32,
                                    ctypes.POINTER(LaunchInfoC)]),
    "brrr_model_arena_bytes": (ctypes.c_uint64, [_P]),
    "brrr_model_weight_bytes": (ctypes.c_uint64, [_P]),
    "brrr_context_create": (_STATUS, [_P, _PP]),
    "brrr_context_destroy": (None, [_P]),
    "brrr_context_set_cuda_graphs": (_STATUS, [_P, ctypes.c_int]),
    "brrr_run": (_STATUS, [_P, _PP, _PP, _P]),
    "brrr_run_host": (_STATUS, [_P, _PP, _PP]),
    "brrr_profile": (_STATUS, [_P, _PP, _PP,
                               ctypes.POINTER(ctypes.c_double)]),
}

_I64P = ctypes.POINTER(ctypes.c_int64)

# Entry points a library built by an older brrrc may lack (symbolic shapes:
# API version 2; a launch's counts at the context's shapes: 3).
_OPTIONAL = {
    "brrr_context_launch": (_STATUS, [_P, ctypes.c_int32,
                                      ctypes.POINTER(LaunchInfoC)]),
    "brrr_context_check": (_STATUS, [_P]),
    "brrr_model_num_symbols": (ctypes.c_int32, [_P]),
    "brrr_model_symbol": (_STATUS, [_P, ctypes.c_int32,
                                    ctypes.POINTER(SymbolInfoC)]),
    "brrr_model_input_symbol": (_STATUS, [_P, ctypes.c_int32, ctypes.c_int32,
                                          ctypes.POINTER(ctypes.c_int32)]),
    "brrr_context_set_input_shape": (_STATUS, [_P, ctypes.c_int32, _I64P,
                                               ctypes.c_int32]),
    "brrr_context_output_shape": (_STATUS, [_P, ctypes.c_int32, _I64P,
                                            ctypes.POINTER(ctypes.c_uint64)]),
    "brrr_context_set_graph_cache": (_STATUS, [_P, ctypes.c_int32]),
}

_libraries = {}


def check_elf(path):
    """Raises BrrrError unless `path` is a complete 64-bit ELF shared object.

    dlopen maps segments without checking them against the file size, so a
    truncated model.so would fault on first touch instead of failing."""
    import struct
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(64)
        if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2:
            raise BrrrError(5, "%s is not a 64-bit ELF shared library" % path)
        phoff, shoff = struct.unpack_from("<QQ", head, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", head, 54)
        if phoff + phentsize * phnum > size or shoff + shentsize * shnum > size:
            raise BrrrError(5, "%s is truncated (%d bytes; its headers reach "
                            "past the end)" % (path, size))
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    for i in range(phnum):
        p_type, _, p_offset = struct.unpack_from("<IIQ", table, i * phentsize)
        p_filesz = struct.unpack_from("<Q", table, i * phentsize + 32)[0]
        if p_offset + p_filesz > size:
            raise BrrrError(5, "%s is truncated: segment %d needs bytes up to "
                            "%d, the file has %d" % (path, i, p_offset + p_filesz,
                                                     size))


def library(path):
    """Loads a model.so (once per path) and declares its C API."""
    path = os.path.abspath(path)
    lib = _libraries.get(path)
    if lib is not None:
        return lib
    if not os.path.exists(path):
        raise FileNotFoundError("no such model library: %s" % path)
    check_elf(path)
    # RTLD_LOCAL (ctypes' default): every model.so carries its own runtime.
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise BrrrError(5, "cannot load %s: %s" % (path, e))
    missing = [name for name in _SIGNATURES if not hasattr(lib, name)]
    if missing:
        raise BrrrError(5, "%s is not a brrr model library: it lacks %s"
                        % (path, ", ".join(missing)))
    version = lib.brrr_api_version()
    if version not in (1, 2, 3):
        raise BrrrError(5, "%s has runtime API version %d; this brrr package "
                        "reads versions 1 to 3" % (path, version))
    for name, (restype, argtypes) in list(_SIGNATURES.items()) + [
            item for item in _OPTIONAL.items() if hasattr(lib, item[0])]:
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    _libraries[path] = lib
    return lib


def check(lib, status):
    """Raises BrrrError for a failed call, with the runtime's message."""
    if status != 0:
        message = lib.brrr_last_error()
        raise BrrrError(status, message.decode("utf-8", "replace")
                        if message else "unknown error")


def pointer_array(pointers):
    """A C array of void* for brrr_run's buffer arguments."""
    return (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
