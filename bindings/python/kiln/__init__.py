"""kiln: compile tensor programs and ONNX models into modules that carry
their own source, and run them on NumPy arrays.

    import kiln, numpy as np
    m = kiln.compile("model.onnx", debug_level=3)
    m.save("m.kiln"); m = kiln.load("m.kiln")
    y = m.main(x)                      # or m["main"](x), m.run({"x": x})
"""

from ._runtime import RuntimeError  # noqa: A004 (kiln.RuntimeError)
from ._dtypes import TensorType
from ._module import CodeVariant, Function, Module, Source, load
from ._compile import CompileError, CompileWarning, compile  # noqa: A004
from ._tracing import trace
from ._profiling import InputOp, ProfileLine, profile

__all__ = [
    "CodeVariant",
    "CompileError",
    "CompileWarning",
    "Function",
    "InputOp",
    "Module",
    "ProfileLine",
    "RuntimeError",
    "Source",
    "TensorType",
    "compile",
    "load",
    "profile",
    "trace",
]
