"""`brrr.load`: run a compiled model.so from Python.

    model = brrr.load("model.so")              # device 0; device=None inspects
    y = model(x)                               # numpy in, numpy out
    out = model.run({"x": x})                  # {"y": array}
    y = model(x_cuda)                          # torch CUDA tensor: zero copy

The model library is loaded with ctypes; nothing is compiled. numpy arrays
go through brrr_run_host (copied to the device and back). torch CUDA tensors
and other objects with `__cuda_array_interface__` are passed to brrr_run as
they are, on torch's current stream (or the stream the interface names),
and the outputs are allocated on the same device with torch (or cupy). Only
numpy is needed, and only for numpy inputs; torch and cupy are optional.

Arguments are checked against the model's signature before any GPU work:
a wrong count, name, shape or dtype raises ValueError naming the input, what
it expects and what it got. Runtime failures raise BrrrError.
"""

import ctypes
import threading
from typing import Any, Dict, List, NamedTuple, Optional

from . import _capi
from ._capi import BrrrError


class TensorInfo(NamedTuple):
    """A graph input or output: dtype is a numpy dtype name ("float32").
    In a model compiled with ranges, a symbolic dimension of an input is its
    symbol's name ("batch") and one of an output is None: a run takes any
    shape in range and returns outputs of the shape it computes."""

    name: str
    dtype: str
    shape: tuple

    @property
    def nbytes(self):
        """Bytes of the tensor; None where its shape is symbolic."""
        size = dict(_capi.DTYPES.values())[self.dtype]
        for d in self.shape:
            if not isinstance(d, int):
                return None
            size *= d
        return size

    def __str__(self):
        return "%s: %s" % (self.name, _describe(self.dtype, self.shape))


class Symbol(NamedTuple):
    """A symbolic dimension of a model compiled with ranges: a run accepts
    any value in [min, max]."""

    name: str
    min: int
    max: int


class LaunchInfo(NamedTuple):
    """A kernel launch of the plan, with its roofline data."""

    kernel: str
    flops: int
    bytes: int


def _describe(dtype, shape):
    return "%s[%s]" % (dtype, ", ".join("?" if d is None else str(d)
                                        for d in shape))


# Interface typestrs (and torch dtypes) -> numpy dtype names.
_TYPESTRS = {
    "<f4": "float32", "<f2": "float16", "<f8": "float64", "|i1": "int8",
    "<i2": "int16", "<i4": "int32", "<i8": "int64", "|u1": "uint8",
    "<u2": "uint16", "<u4": "uint32", "<u8": "uint64", "|b1": "bool",
}


def _is_torch(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr")


def _torch_dtype_name(dtype):
    return str(dtype).replace("torch.", "")


class _DeviceArray(NamedTuple):
    """What brrr_run needs of a CUDA array, however it was given."""

    pointer: int
    dtype: str
    shape: tuple
    device: object  # CUDA ordinal, or None if the interface doesn't say
    stream: object  # CUstream handle as an int, or None
    torch: object  # the torch tensor, if it is one


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


# DLPack (dlpack.h, v0.8+): the device types and dtype codes brrr reads.
_DL_CUDA, _DL_CUDA_MANAGED = 2, 13
_DL_DTYPES = {(0, 8): "int8", (0, 16): "int16", (0, 32): "int32", (0, 64): "int64",
              (1, 8): "uint8", (1, 16): "uint16", (1, 32): "uint32", (1, 64): "uint64",
              (2, 16): "float16", (2, 32): "float32", (2, 64): "float64",
              (4, 16): "bfloat16", (6, 8): "bool"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


def _is_dlpack_cuda(x):
    """Whether `x` is a DLPack producer of CUDA memory."""
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        return False
    try:
        return int(x.__dlpack_device__()[0]) in (_DL_CUDA, _DL_CUDA_MANAGED)
    except Exception:  # noqa: BLE001 (a producer that cannot say)
        return False


def _dlpack_array(name, x):
    """Describes a CUDA DLPack producer (jax, cupy, ...). It is asked for a
    tensor usable on the legacy default stream (stream=1 in the protocol),
    which is where the run goes unless another array names a stream; the
    capsule is read, not consumed, so the producer keeps owning the memory
    (and `x` stays alive for the call in _Prepared.keep)."""
    capsule = x.__dlpack__(stream=1)
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    dtype = _DL_DTYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if dtype is None:
        raise ValueError("%s: DLPack dtype (code %d, %d bits, %d lanes) has no "
                         "brrr type" % (name, t.dtype.code, t.dtype.bits, t.dtype.lanes))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
        if any(d > 1 and s != c for d, s, c in
               zip(shape, strides, _c_strides(shape, 1))):
            raise ValueError("%s: the DLPack tensor is not C-contiguous "
                             "(strides %s elements)" % (name, strides))
    return _DeviceArray(int(t.data or 0) + int(t.byte_offset), dtype, shape,
                        int(t.device.device_id), None, None)


def _device_array(name, x):
    """Describes a CUDA array; raises ValueError if it cannot be used in
    place (wrong device type, not C-contiguous)."""
    if not _is_torch(x) and not hasattr(x, "__cuda_array_interface__") \
            and _is_dlpack_cuda(x):
        return _dlpack_array(name, x)
    if _is_torch(x):
        if not x.is_cuda:
            raise ValueError("%s: a torch tensor on %s; device inputs must be "
                             "CUDA tensors" % (name, x.device))
        if not x.is_contiguous():
            raise ValueError("%s: the torch tensor is not contiguous (call "
                             ".contiguous())" % name)
        return _DeviceArray(x.data_ptr(), _torch_dtype_name(x.dtype),
                            tuple(x.shape), x.device.index, None, x)
    iface = x.__cuda_array_interface__
    shape = tuple(iface["shape"])
    typestr = iface["typestr"]
    dtype = _TYPESTRS.get(typestr, typestr)
    itemsize = int(typestr[2:]) if typestr[2:].isdigit() else 0
    strides = iface.get("strides")
    if strides is not None and tuple(strides) != _c_strides(shape, itemsize):
        raise ValueError("%s: the CUDA array is not C-contiguous (strides %s)"
                         % (name, tuple(strides)))
    stream = iface.get("stream")
    # Interface v3: 1 is the legacy default stream, 2 the per-thread one;
    # the driver takes 0 (legacy) and 2 (per-thread) as stream handles.
    if stream == 1:
        stream = 0
    return _DeviceArray(int(iface["data"][0]), dtype, shape, None, stream,
                        None)


def _fits(expected, shape):
    """Whether `shape` has the rank and the fixed dimensions of `expected`
    (symbolic ones, names or None, take any size: the runtime checks their
    ranges)."""
    return len(shape) == len(expected) and all(
        not isinstance(e, int) or e == d for e, d in zip(expected, shape))


def _check_tensor(kind, info, dtype, shape):
    if dtype != info.dtype or not _fits(info.shape, tuple(shape)):
        raise ValueError("%s '%s': expected %s, got %s"
                         % (kind, info.name, _describe(info.dtype, info.shape),
                            _describe(dtype, shape)))


def _ordered(kind, infos, args):
    """Orders the arguments by the signature: positional, or one dict by
    name."""
    names = [i.name for i in infos]
    if len(args) == 1 and isinstance(args[0], dict):
        feeds = args[0]
        unknown = [k for k in feeds if k not in names]
        if unknown:
            raise ValueError("unknown %s %s; the model's %ss are %s"
                             % (kind, ", ".join(repr(k) for k in unknown),
                                kind, ", ".join(names)))
        missing = [n for n in names if n not in feeds]
        if missing:
            raise ValueError("missing %s %s" % (
                kind, ", ".join(repr(n) for n in missing)))
        return [feeds[n] for n in names]
    if len(args) != len(infos):
        raise ValueError("the model takes %d %ss (%s), got %d"
                         % (len(infos), kind, ", ".join(names), len(args)))
    return list(args)


def _is_device(x):
    return ((_is_torch(x) and x.is_cuda)
            or hasattr(x, "__cuda_array_interface__") or _is_dlpack_cuda(x))


def _numpy():
    try:
        import numpy
    except ImportError:
        raise ImportError("brrr needs numpy to run models on host arrays")
    return numpy


def _host_empty(np, info, shape):
    if info.dtype == "bfloat16":
        try:
            import ml_dtypes
            return np.empty(shape, dtype=ml_dtypes.bfloat16)
        except ImportError:
            # Same bits, viewable with ml_dtypes or torch later.
            return np.empty(shape, dtype=np.uint16)
    return np.empty(shape, dtype=info.dtype)


class _Prepared(NamedTuple):
    on_device: bool
    inputs: list  # numpy arrays, or _DeviceArray
    keep: list  # objects that must stay alive during the call


def _prepare(infos, args):
    """Validates inputs against the signature; no GPU work."""
    values = _ordered("input", infos, args)
    device = [_is_device(v) for v in values]
    if any(device) and not all(device):
        raise ValueError("the inputs mix host arrays and CUDA arrays (%s on "
                         "the device); pass all of one kind"
                         % ", ".join(i.name for i, d in zip(infos, device)
                                     if d))
    if values and all(device):
        arrays = []
        for info, v in zip(infos, values):
            a = _device_array("input '%s'" % info.name, v)
            _check_tensor("input", info, a.dtype, a.shape)
            arrays.append(a)
        return _Prepared(True, arrays, values)
    np = _numpy()
    arrays = []
    for info, v in zip(infos, values):
        a = np.asarray(v, order="C")  # keeps 0-d arrays 0-d
        # ml_dtypes' bfloat16 is named "bfloat16" like brrr's; raw bfloat16
        # bits (uint16) are accepted too, since numpy lacks the type.
        dtype = a.dtype.name
        if info.dtype == "bfloat16" and dtype == "uint16":
            dtype = "bfloat16"
        _check_tensor("input", info, dtype, a.shape)
        arrays.append(a)
    return _Prepared(False, arrays, arrays)


class _Signature(NamedTuple):
    inputs: list
    outputs: list
    launches: list
    device: object
    symbols: list


class Context:
    """An execution context: its own intermediate memory and CUDA graph. Use
    one per thread (Model's calls do, through a per-thread default)."""

    def __init__(self, model: "Model", cuda_graphs: bool = True) -> None:
        # The signature, not the Model: a Model keeps its per-thread default
        # contexts, and a reference back would make a cycle that delays
        # freeing GPU memory until the garbage collector runs. The runtime
        # keeps the native model alive while a context exists.
        self._model = _Signature(model.inputs, model.outputs, model.launches,
                                 model.device, model.symbols)
        self._lib = model._lib
        handle = _capi.ctypes.c_void_p()
        _capi.check(self._lib, self._lib.brrr_context_create(
            model._handle_or_raise(), _capi.ctypes.byref(handle)))
        self._handle = handle
        self._graphs = True
        # The input shapes last given to the runtime, and the output shapes
        # they make: a run at the same shapes makes no call for them.
        self._shapes = None
        self._out_shapes = None
        if not cuda_graphs:
            self.cuda_graphs = False

    @property
    def cuda_graphs(self):
        return self._graphs

    @cuda_graphs.setter
    def cuda_graphs(self, enabled):
        _capi.check(self._lib, self._lib.brrr_context_set_cuda_graphs(
            self._live(), 1 if enabled else 0))
        self._graphs = bool(enabled)

    def _live(self):
        if self._handle is None:
            raise ValueError("the context is closed")
        return self._handle

    def close(self):
        if getattr(self, "_handle", None) is not None:
            self._lib.brrr_context_destroy(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def run(self, *args: Any, outputs: Optional[Any] = None) -> List[Any]:
        """Runs the model: positional inputs or one {name: array} dict.
        Returns the outputs in signature order (a list). `outputs` may give
        the output buffers (CUDA inputs only)."""
        prepared = _prepare(self._model.inputs, args)
        self._set_shapes(prepared)
        # A model without inputs runs on the device when it is given CUDA
        # outputs to fill.
        if prepared.on_device or (outputs is not None and not prepared.inputs):
            return self._run_device(prepared, outputs)
        if outputs is not None:
            raise ValueError("outputs= is for CUDA inputs; host runs return "
                             "new arrays")
        return self._run_host(prepared)

    def _set_shapes(self, prepared):
        """Gives a model compiled with ranges its inputs' shapes, which the
        runtime checks against the ranges (BrrrError otherwise)."""
        if not self._model.symbols:
            return
        shapes = tuple(tuple(a.shape) for a in prepared.inputs)
        if shapes == self._shapes:
            return
        self._shapes = self._out_shapes = None
        for i, shape in enumerate(shapes):
            dims = (_capi.ctypes.c_int64 * max(len(shape), 1))(*shape)
            _capi.check(self._lib, self._lib.brrr_context_set_input_shape(
                self._live(), i, dims, len(shape)))
        self._shapes = shapes

    def output_shapes(self) -> List[tuple]:
        """The outputs' shapes at the shapes of the inputs last run."""
        if self._out_shapes is not None:
            return self._out_shapes
        shapes = []
        for i, info in enumerate(self._model.outputs):
            if all(isinstance(d, int) for d in info.shape):
                shapes.append(info.shape)
                continue
            dims = (_capi.ctypes.c_int64 * max(len(info.shape), 1))()
            _capi.check(self._lib, self._lib.brrr_context_output_shape(
                self._live(), i, dims, None))
            shapes.append(tuple(dims[d] for d in range(len(info.shape))))
        if self._shapes is not None:
            self._out_shapes = shapes
        return shapes

    def set_graph_cache(self, capacity: int) -> None:
        """Keeps the CUDA graphs of at most `capacity` shapes (8 by
        default), evicting the least recently run."""
        if not hasattr(self._lib, "brrr_context_set_graph_cache"):
            raise BrrrError(1, "this model library predates graph caches; "
                            "rebuild it with brrrc")
        _capi.check(self._lib, self._lib.brrr_context_set_graph_cache(
            self._live(), int(capacity)))

    def _run_host(self, prepared):
        np = _numpy()
        outs = [_host_empty(np, i, s)
                for i, s in zip(self._model.outputs, self.output_shapes())]
        ins = _capi.pointer_array([a.ctypes.data for a in prepared.inputs])
        out_ptrs = _capi.pointer_array([a.ctypes.data for a in outs])
        _capi.check(self._lib, self._lib.brrr_run_host(self._live(), ins,
                                                       out_ptrs))
        return outs

    def _device_outputs(self, prepared, outputs):
        infos = self._model.outputs
        shapes = self.output_shapes()
        if outputs is not None:
            outputs = _ordered("output", infos, (outputs,)
                               if isinstance(outputs, dict) else outputs)
            described = []
            for info, shape, o in zip(infos, shapes, outputs):
                d = _device_array("output '%s'" % info.name, o)
                _check_tensor("output", info._replace(shape=shape), d.dtype,
                              d.shape)
                described.append(d)
            return outputs, described
        first = prepared.inputs[0] if prepared.inputs else None
        if first is not None and first.torch is not None:
            import torch
            outs = [torch.empty(s, dtype=getattr(torch, i.dtype),
                                device=first.torch.device)
                    for i, s in zip(infos, shapes)]
        else:
            try:
                import cupy
            except ImportError:
                raise ValueError("cannot allocate outputs for CUDA inputs "
                                 "that are not torch tensors without cupy; "
                                 "install cupy or pass outputs=")
            outs = [cupy.empty(s, dtype=i.dtype)
                    for i, s in zip(infos, shapes)]
        return outs, [_device_array(i.name, o) for i, o in zip(infos, outs)]

    def _stream(self, arrays):
        """The stream of the first array that names one: torch's current
        stream for a torch tensor, else a __cuda_array_interface__ stream;
        else the default stream."""
        first = arrays[0] if arrays else None
        if first is not None and first.torch is not None:
            import torch
            return torch.cuda.current_stream(first.torch.device).cuda_stream
        for a in arrays:
            if a.stream is not None:
                return int(a.stream)
        return 0

    def _check_device(self, arrays):
        want = self._model.device
        for a in arrays:
            if a.device is not None and a.device != want:
                raise ValueError("a CUDA array is on device %d but the model "
                                 "is open on device %d" % (a.device, want))

    def _run_device(self, prepared, outputs, profile=False):
        outs, described = self._device_outputs(prepared, outputs)
        self._check_device(list(prepared.inputs) + described)
        ins = _capi.pointer_array([a.pointer for a in prepared.inputs])
        out_ptrs = _capi.pointer_array([d.pointer for d in described])
        if profile:
            n = len(self._model.launches)
            ms = (_capi.ctypes.c_double * max(n, 1))()
            _capi.check(self._lib, self._lib.brrr_profile(
                self._live(), ins, out_ptrs, ms))
            return outs, list(ms)[:n]
        stream = self._stream(list(prepared.inputs) + described)
        _capi.check(self._lib, self._lib.brrr_run(self._live(), ins, out_ptrs,
                                                  stream or None))
        return outs

    def check(self) -> None:
        """Raises BrrrError (BRRR_ERROR_INVALID_INPUT) if a run on CUDA
        arrays read an out-of-range index that was not reported yet. Such
        runs return before their kernels run: synchronize their stream
        first (e.g. torch.cuda.synchronize()). Host runs check themselves."""
        if not hasattr(self._lib, "brrr_context_check"):
            raise BrrrError(1, "this model library predates "
                            "brrr_context_check; rebuild it with brrrc")
        _capi.check(self._lib, self._lib.brrr_context_check(self._live()))

    def profile(self, *args: Any, outputs: Optional[Any] = None) -> Any:
        """Runs once without graphs on CUDA inputs, timing each launch;
        returns [(LaunchInfo, milliseconds)], None for a launch not made at
        these shapes (a kernel for another range of rows)."""
        prepared = _prepare(self._model.inputs, args)
        if not prepared.on_device:
            raise ValueError("profile() takes CUDA arrays (torch tensors or "
                             "__cuda_array_interface__ objects)")
        self._set_shapes(prepared)
        _, ms = self._run_device(prepared, outputs, profile=True)
        return [(launch, None if t < 0 else t)
                for launch, t in zip(self.launches(), ms)]

    def launches(self) -> List[LaunchInfo]:
        """The launch plan at the shapes of the inputs last run: each
        launch's kernel, and the work and traffic it does at those shapes
        (Model.launches holds the largest shape's)."""
        if (not self._model.symbols or self._shapes is None
                or not hasattr(self._lib, "brrr_context_launch")):
            return list(self._model.launches)
        out = []
        for i in range(len(self._model.launches)):
            c = _capi.LaunchInfoC()
            _capi.check(self._lib, self._lib.brrr_context_launch(
                self._live(), i, _capi.ctypes.byref(c)))
            out.append(LaunchInfo(c.kernel.decode(), c.flops, c.bytes))
        return out


class Model:
    """A compiled model.so, open on a GPU or for inspection (device None)."""

    def __init__(self, path: str, device: Optional[int] = 0) -> None:
        self.path = path
        self._lib = _capi.library(path)
        self.device = device
        handle = _capi.ctypes.c_void_p()
        ordinal = -1 if device is None else int(device)
        _capi.check(self._lib, self._lib.brrr_model_open(
            ordinal, _capi.ctypes.byref(handle)))
        self._handle = handle
        self._local = threading.local()
        self.symbols = []
        if hasattr(self._lib, "brrr_model_num_symbols"):
            for i in range(self._lib.brrr_model_num_symbols(handle)):
                c = _capi.SymbolInfoC()
                _capi.check(self._lib, self._lib.brrr_model_symbol(
                    handle, i, _capi.ctypes.byref(c)))
                self.symbols.append(Symbol(c.name.decode(), c.min, c.max))
        self.inputs = self._infos(self._lib.brrr_model_num_inputs,
                                  self._lib.brrr_model_input, inputs=True)
        self.outputs = self._infos(self._lib.brrr_model_num_outputs,
                                   self._lib.brrr_model_output)
        self.target = self._lib.brrr_model_target(handle).decode()
        # The runtime API version the library was built with (3 gives each
        # launch's work and traffic at a context's shapes).
        self.api_version = int(self._lib.brrr_api_version())
        self.launches = []
        for i in range(self._lib.brrr_model_num_launches(handle)):
            c = _capi.LaunchInfoC()
            _capi.check(self._lib, self._lib.brrr_model_launch(
                handle, i, _capi.ctypes.byref(c)))
            self.launches.append(LaunchInfo(c.kernel.decode(), c.flops,
                                            c.bytes))
        self.arena_bytes = self._lib.brrr_model_arena_bytes(handle)
        self.weight_bytes = self._lib.brrr_model_weight_bytes(handle)

    def _infos(self, count, get, inputs=False):
        infos = []
        for i in range(count(self._handle)):
            c = _capi.TensorInfoC()
            _capi.check(self._lib, get(self._handle, i,
                                       _capi.ctypes.byref(c)))
            dtype = _capi.DTYPES[c.dtype][0]
            shape = []
            for d in range(c.rank):
                size = c.dims[d]
                if size == -1 and inputs:
                    # A symbolic input dimension: its symbol's name.
                    s = _capi.ctypes.c_int32(-1)
                    _capi.check(self._lib, self._lib.brrr_model_input_symbol(
                        self._handle, i, d, _capi.ctypes.byref(s)))
                    size = self.symbols[s.value].name
                elif size == -1:
                    size = None
                shape.append(size)
            infos.append(TensorInfo(c.name.decode(), dtype, tuple(shape)))
        return infos

    def _handle_or_raise(self):
        if self._handle is None:
            raise ValueError("the model is closed")
        return self._handle

    def __repr__(self):
        where = "inspection only" if self.device is None else \
            "device %d" % self.device
        return "<brrr.Model %s (%s) %s -> %s>" % (
            self.path, where, ", ".join(map(str, self.inputs)),
            ", ".join(map(str, self.outputs)))

    def check_inputs(self, *args: Any) -> None:
        """Checks inputs (positional or one dict) against the signature
        without running anything; works on inspection models. Raises
        ValueError on a mismatch."""
        _prepare(self.inputs, args)

    def context(self, cuda_graphs: bool = True) -> "Context":
        """A new execution context (see Context)."""
        return Context(self, cuda_graphs)

    def _default_context(self):
        ctx = getattr(self._local, "context", None)
        if ctx is None:
            ctx = self.context()
            self._local.context = ctx
        return ctx

    def __call__(self, *args: Any, outputs: Optional[Any] = None) -> Any:
        """Runs on this thread's default context. Returns the output, or a
        tuple of outputs for a model with several."""
        outs = self._default_context().run(*args, outputs=outputs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def run(self, feeds: Dict[str, Any], outputs: Optional[Any] = None) -> Dict[str, Any]:
        """Runs with {input name: array}; returns {output name: array}."""
        outs = self._default_context().run(feeds, outputs=outputs)
        return {i.name: o for i, o in zip(self.outputs, outs)}

    def profile(self, *args: Any, outputs: Optional[Any] = None) -> Any:
        """See Context.profile."""
        return self._default_context().profile(*args, outputs=outputs)

    def check(self) -> None:
        """Context.check on this thread's default context: raises BrrrError
        if one of its runs on CUDA arrays read an out-of-range index."""
        self._default_context().check()

    def close(self):
        """Releases the model; contexts still alive keep it until they go."""
        ctx = getattr(getattr(self, "_local", None), "context", None)
        if ctx is not None:
            ctx.close()
            self._local.context = None
        if getattr(self, "_handle", None) is not None:
            self._lib.brrr_model_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def load(path: str, device: Optional[int] = 0) -> Model:
    """Opens a compiled model.so on CUDA device `device` (an ordinal), or
    for inspection only with device=None: then the signature, target and
    plan can be read but nothing runs, and no GPU or driver is needed."""
    return Model(path, device)
