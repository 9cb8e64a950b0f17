"""What a Python user can get wrong ends in an exception, never a crash."""

import subprocess
import sys

import numpy as np
import pytest

import kiln


def test_compile_error_names_the_line():
    with pytest.raises(kiln.CompileError) as error:
        kiln.compile("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  %r = arith.addf %a, %b : tensor<4xf32>\n"
                     "  return %r : tensor<4xf32>\n}\n")
    assert "input.mlir:2:" in str(error.value)
    assert "error: use of undeclared SSA value name" in str(error.value)


def test_compile_errors_match_the_tool():
    with pytest.raises(kiln.CompileError, match="executable-debug-level"):
        kiln.compile("func.func @f() { return }", debug_level=7)
    with pytest.raises(kiln.CompileError, match="unknown --cpu 'z80'"):
        kiln.compile("func.func @f() { return }", cpu="z80")
    with pytest.raises(kiln.CompileError, match="no-such-file.mlir"):
        kiln.compile("no-such-file.mlir")


def test_wrong_inputs(add_module):
    a = np.ones((4, 8), np.float32)
    with pytest.raises(kiln.RuntimeError, match="takes 2 inputs, got 1"):
        add_module.main(a)
    with pytest.raises(kiln.RuntimeError, match="expected 4x8xf32, got 4x8xf64"):
        add_module.main(a, a.astype(np.float64))
    with pytest.raises(kiln.RuntimeError, match="expected 4x8xf32, got 8x4xf32"):
        add_module.main(a, a.reshape(8, 4))
    with pytest.raises(kiln.RuntimeError, match="no element type for an array of complex64 \\(f32\\)"):
        add_module.main(a, a.astype(np.complex64))
    with pytest.raises(kiln.RuntimeError, match="takes 2 inputs, got 3"):
        add_module.main([[0.0] * 8] * 4, a, a)  # converted first
    with pytest.raises(kiln.RuntimeError, match="no element type for an "
                       "array of uint8"):
        add_module.main(a, a, a.astype(np.uint8))
    with pytest.raises(TypeError, match="no argument names"):
        add_module.main(a=a)
    with pytest.raises(AttributeError, match="no function 'nothing'"):
        add_module.nothing


def test_closed_module():
    module = kiln.compile("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {"
                          " return %a : tensor<2xf32> }")
    function = module.f
    module.close()
    assert module.closed
    with pytest.raises(kiln.RuntimeError, match="closed"):
        function(np.zeros(2, np.float32))
    with pytest.raises(kiln.RuntimeError, match="closed"):
        module.sources
    module.close()  # twice is fine


def test_bad_module_files(tmp_path):
    with pytest.raises(kiln.RuntimeError):
        kiln.load(tmp_path / "missing.kiln")
    with pytest.raises(kiln.RuntimeError):
        kiln.load(b"not a module at all")
    with pytest.raises(kiln.RuntimeError, match="threads"):
        kiln.load(b"", threads=-1)


def test_deep_nesting_is_an_error_not_a_crash():
    depth = 5000
    program = ("func.func @main() {\n" + "scf.execute_region {\n" * depth +
               "}\n" * depth + "return\n}\n")
    with pytest.raises(kiln.CompileError, match="nest"):
        kiln.compile(program)


# Run in a child: the compile that runs out of memory leaves its context
# allocated.
_OUT_OF_MEMORY = r'''
import resource
import sys
import kiln

n = 12 << 20
data = (bytes(range(256)) * (n // 64)).hex()
path = sys.argv[1]
with open(path, "w") as program:
    program.write(
        f"func.func @main() -> tensor<{n}xf32> {{\n"
        f"  %c = arith.constant dense<\"0x{data}\"> : tensor<{n}xf32>\n"
        f"  return %c : tensor<{n}xf32>\n}}\n")
del data
kiln.compile("func.func @main() {\n  return\n}\n")
with open("/proc/self/status") as status:
    used_kb = next(int(line.split()[1]) for line in status
                   if line.startswith("VmData:"))
_, hard = resource.getrlimit(resource.RLIMIT_DATA)
resource.setrlimit(resource.RLIMIT_DATA, ((used_kb + 64 * 1024) * 1024, hard))
try:
    kiln.compile(path)
    print("compiled")
except kiln.CompileError as error:
    print(str(error).rstrip())
resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
print(kiln.compile(path)["main"].results[0].shape)
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="RLIMIT_DATA as Linux counts it")
def test_out_of_memory_is_an_error_and_python_goes_on(tmp_path):
    result = subprocess.run([sys.executable, "-c", _OUT_OF_MEMORY,
                             str(tmp_path / "constant.mlir")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "kiln.compile: error: out of memory",
        f"({12 << 20},)",
    ], result.stdout + result.stderr
