"""What the Python runtime tests pass as CUDA arrays to a model running on
the fake driver (FakeCuda.h), whose device memory is host memory."""


class DeviceArray:
    """A host array posing as device memory."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = {
            "shape": array.shape, "typestr": array.dtype.str,
            "data": (array.ctypes.data, False), "version": 3,
            "strides": None if array.flags.c_contiguous else array.strides,
        }


class DLPackArray:
    """A host array posing as a CUDA DLPack producer (jax, cupy): it says it
    is on CUDA device 0 and hands out numpy's own DLPack capsule, whose
    memory the fake driver reads as device memory. Records the stream each
    __dlpack__ call asked for."""

    def __init__(self, array):
        self.array = array
        self.streams = []

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.array.__dlpack__()
