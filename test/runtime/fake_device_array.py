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
