"""kiln.compile: programs and models to loaded modules, through the
compiler as a library."""

import os
import warnings

from ._module import load

try:
    from . import _compiler
    from ._compiler import CompileError
except ImportError:  # a runtime-only build
    _compiler = None

    class CompileError(Exception):
        """A program or model kiln could not compile."""


class CompileWarning(UserWarning):
    """A warning the compiler printed (kiln-compile's "warning: ...")."""


def compile(  # noqa: A001 (kiln.compile)
    source,
    *,
    name=None,
    cpu="host",
    debug_level=2,
    capture_stages=(),
    line_stage="",
    embed_input_files=False,
    embed_input_dirs=(),
    embed_input_file_limit=None,
    accumulate_half_in_f32=True,
    reassociate_fp_reductions=True,
    tosa_validation="lenient",
    threads=0,
    perf_visible=False,
    variant=None,
):
    """Compiles a program or a model and loads the module.

    `source`: a path (.mlir, or .onnx/.onnxtxt for a model), a program's
    text, or bytes (a model's, with `name` ending in .onnx). `name`: what
    errors and the module call a text or bytes (default "input.mlir").
    `cpu`: one CPU, or several (a comma-separated string or a sequence)
    for a module with code for each, as kiln-compile's --cpu. The other
    options are kiln-compile's flags:
    --executable-debug-level, --executable-capture-stages,
    --executable-debug-line-stage, --executable-embed-input-files,
    --executable-embed-input-dir, --executable-embed-input-files-limit,
    --accumulate-half-in-f32, --reassociate-fp-reductions,
    --tosa-validation; `threads`, `perf_visible` and `variant` are
    load()'s.
    Errors raise CompileError with the diagnostics kiln-compile prints;
    warnings are CompileWarning."""
    if _compiler is None:
        raise CompileError("this kiln was built without the compiler")
    text = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        text = bytes(source)
        path = name or "input.mlir"
    elif isinstance(source, str) and ("\n" in source or "{" in source):
        text = source.encode()
        path = name or "input.mlir"
    else:
        path = os.fspath(source)
    if tosa_validation not in ("lenient", "strict"):
        raise ValueError("tosa_validation is 'lenient' or 'strict'")
    if embed_input_file_limit is None:
        embed_input_file_limit = _compiler.DEFAULT_EMBED_INPUT_FILE_LIMIT
    data, diagnostics = _compiler.compile(
        path,
        text,
        cpu.split(",") if isinstance(cpu, str) else list(cpu),
        debug_level,
        list(capture_stages),
        line_stage,
        embed_input_files,
        [os.fspath(d) for d in embed_input_dirs],
        embed_input_file_limit,
        accumulate_half_in_f32,
        reassociate_fp_reductions,
        tosa_validation == "strict",
    )
    if diagnostics:
        warnings.warn(diagnostics.rstrip("\n"), CompileWarning, stacklevel=2)
    return load(data, threads=threads, perf_visible=perf_visible,
                variant=variant)
