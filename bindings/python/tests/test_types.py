"""Every element type kiln has crosses into and out of a module intact."""

import ml_dtypes
import numpy as np
import pytest

import kiln

# kiln's element type, its NumPy dtype, and values to send.
TYPES = [
    ("f32", np.float32, [0.5, -1.25, np.inf, 3e38, -0.0]),
    ("f64", np.float64, [0.1, -1e300, np.inf, 5e-324, 2.0]),
    ("f16", np.float16, [0.5, -65504, np.inf, 6e-8, 1.0]),
    ("bf16", ml_dtypes.bfloat16, [0.5, -3e38, np.inf, 1.0, -2.0]),
    ("i1", np.bool_, [True, False, True, True, False]),
    ("i8", np.int8, [-128, 127, 0, 1, -1]),
    ("i16", np.int16, [-32768, 32767, 0, 1, -1]),
    ("i32", np.int32, [-2**31, 2**31 - 1, 0, 1, -1]),
    ("i64", np.int64, [-2**63, 2**63 - 1, 0, 1, -1]),
    ("f8E5M2", ml_dtypes.float8_e5m2, [0.5, -57344, np.inf, 1.0, -2.0]),
    ("f8E4M3FN", ml_dtypes.float8_e4m3fn, [0.5, -448, 1.0, -2.0, 0.0]),
    ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, [0.5, -57344, 1.0, -2.0, 0]),
    ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, [0.5, -240, 1.0, -2.0, 0]),
    ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, [0.5, 2.0**127, 1.0, 4.0, 2**-127]),
    ("f4E2M1FN", ml_dtypes.float4_e2m1fn, [0.5, -6.0, 1.0, 3.0, 0.0]),
]


@pytest.fixture(scope="module")
def identity_module():
    program = "\n".join(
        f"func.func @f_{name}(%a: tensor<5x{name}>) -> tensor<5x{name}> {{\n"
        f"  return %a : tensor<5x{name}>\n}}"
        for name, _, _ in TYPES)
    return kiln.compile(program, threads=1)


@pytest.mark.parametrize("name,dtype,values", TYPES, ids=[t[0] for t in TYPES])
def test_round_trip(identity_module, name, dtype, values):
    function = identity_module[f"f_{name}"]
    assert function.arguments[0].element_type == name
    assert function.arguments[0].dtype == np.dtype(dtype)
    array = np.array(values, dtype=dtype)
    result = function(array)
    assert result.dtype == np.dtype(dtype)
    assert result.shape == (5,)
    np.testing.assert_array_equal(result.view(np.uint8),
                                  array.view(np.uint8))


def test_every_runtime_type_has_a_dtype():
    assert sorted(kiln._runtime.ELEMENT_TYPE_NAMES) == \
        sorted(name for name, _, _ in TYPES)
    for name, dtype, _ in TYPES:
        assert kiln._dtypes._DTYPE_OF_NAME[name] == np.dtype(dtype)
        index = kiln._runtime.ELEMENT_TYPE_NAMES.index(name)
        assert kiln._runtime.ELEMENT_TYPE_SIZES[index] == \
            np.dtype(dtype).itemsize


def test_computes_in_bf16():
    module = kiln.compile("""
func.func @main(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = tensor.empty() : tensor<4xbf16>
  %r = linalg.mul ins(%a, %a : tensor<4xbf16>, tensor<4xbf16>)
                  outs(%e : tensor<4xbf16>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}""")
    a = np.array([1.5, -2, 3, 0.25], ml_dtypes.bfloat16)
    np.testing.assert_array_equal(module.main(a), a * a)


def test_without_ml_dtypes_small_floats_are_their_bits(tmp_path):
    """Where ml_dtypes is missing, bf16 travels as uint16 and the small
    floats as uint8: the bits, unchanged."""
    import subprocess
    import sys

    script = """
import sys
sys.modules["ml_dtypes"] = None  # import ml_dtypes now fails
import numpy as np
import kiln
m = kiln.compile('''
func.func @main(%a: tensor<3xbf16>, %b: tensor<3xf8E4M3FN>) -> (tensor<3xbf16>, tensor<3xf8E4M3FN>) {
  return %a, %b : tensor<3xbf16>, tensor<3xf8E4M3FN>
}''')
assert [t.dtype for t in m.main.arguments] == [np.uint16, np.uint8]
a = np.array([0x3F80, 0xC000, 0x7F80], np.uint16)  # 1, -2, inf
b = np.array([0x38, 0xC0, 0x7E], np.uint8)         # 1, -2, 448
x, y = m.main(a, b)
assert x.dtype == np.uint16 and y.dtype == np.uint8
assert (x == a).all() and (y == b).all()
"""
    subprocess.run([sys.executable, "-c", script], check=True)
