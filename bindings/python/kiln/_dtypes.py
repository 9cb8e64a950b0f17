"""kiln's element types as NumPy dtypes, and the types of a function's
arguments and results."""

import numpy as np

from . import _runtime

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None


def _small_float(name, raw):
    """ml_dtypes' type `name`, or the raw integer type of its bits."""
    if ml_dtypes is not None:
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(raw)


# kiln's element types (indices of _runtime.ELEMENT_TYPE_NAMES) as dtypes.
# bf16 and the small floats are ml_dtypes' where it is installed, else
# arrays of their bits (uint16, uint8).
_DTYPE_OF_NAME = {
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "f16": np.dtype(np.float16),
    "bf16": _small_float("bfloat16", np.uint16),
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "f8E5M2": _small_float("float8_e5m2", np.uint8),
    "f8E4M3FN": _small_float("float8_e4m3fn", np.uint8),
    "f8E5M2FNUZ": _small_float("float8_e5m2fnuz", np.uint8),
    "f8E4M3FNUZ": _small_float("float8_e4m3fnuz", np.uint8),
    "f8E8M0FNU": _small_float("float8_e8m0fnu", np.uint8),
    "f4E2M1FN": _small_float("float4_e2m1fn", np.uint8),
}
_TYPE_NAMES = list(_runtime.ELEMENT_TYPE_NAMES)
_DTYPES = [_DTYPE_OF_NAME[name] for name in _TYPE_NAMES]


class TensorType:
    """The type of a function's argument or result: element type, shape,
    and the name the model gives it (None for a program written as MLIR)."""

    __slots__ = ("element_type", "shape", "dtype", "name")

    def __init__(self, type_index, shape, name=None):
        self.element_type = _TYPE_NAMES[type_index]
        self.shape = tuple(shape)
        self.dtype = _DTYPES[type_index]
        self.name = name

    def __str__(self):
        text = "x".join([str(d) for d in self.shape] + [self.element_type])
        return f"{self.name}: {text}" if self.name else text

    def __repr__(self):
        return f"TensorType({self})"


def _tensor_types(types, names):
    return [
        TensorType(index, shape, names[i] if names else None)
        for i, (index, shape) in enumerate(types)
    ]
