"""kiln: compile tensor programs and ONNX models into modules that carry
their own source, and run them on NumPy arrays.

    import kiln, numpy as np
    m = kiln.compile("model.onnx", debug_level=3)
    m.save("m.kiln"); m = kiln.load("m.kiln")
    y = m.main(x)                      # or m["main"](x), m.run({"x": x})
"""

import collections
import os
import sys
import warnings

import numpy as np

from . import _runtime
from ._runtime import RuntimeError  # noqa: A001 (kiln.RuntimeError)

try:
    from . import _compiler
    from ._compiler import CompileError
except ImportError:  # a runtime-only build
    _compiler = None

    class CompileError(Exception):
        """A program or model kiln could not compile."""


try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

__all__ = [
    "CompileError",
    "CompileWarning",
    "Function",
    "Module",
    "RuntimeError",
    "Source",
    "TensorType",
    "compile",
    "load",
    "profile",
    "ProfileLine",
    "trace",
]


class CompileWarning(UserWarning):
    """A warning the compiler printed (kiln-compile's "warning: ...")."""


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


class Function:
    """A function of a module: call it on arrays (positional, or by the
    model's input names as keywords)."""

    def __init__(self, module, index, name, arguments, results, text):
        self._module = module
        self._index = index
        self.name = name
        self.arguments = arguments
        self.results = results
        self._text = text
        # Dtype and type index of each argument, looked up once.
        self._argument_types = [
            (t.dtype, _TYPE_NAMES.index(t.element_type)) for t in arguments
        ]
        # Whether results come back as (type, shape, bytes) to view.
        self._viewed_results = any(
            t.element_type not in _NUMPY_NATIVE for t in results)

    def __repr__(self):
        return f"<kiln function {self._text}>"

    def __str__(self):
        return self._text

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = self._bind(args, kwargs)
        results = self.call(args)
        if len(results) == 1:
            return results[0]
        return tuple(results)

    def call(self, inputs):
        """Runs the function on `inputs` (a sequence of arrays) and returns
        the list of its results."""
        native = self._module._native
        # Arrays NumPy and kiln share the type of, contiguous and aligned,
        # go straight to the runtime; anything else is converted first.
        results = native.call_arrays(self._index, tuple(inputs))
        if results is None:
            results = self._call_converted(native, inputs)
        elif self._viewed_results:
            results = [_view(r) if type(r) is tuple else r for r in results]
        return results

    def _call_converted(self, native, inputs):
        # Inputs beyond the signature go as they are: the runtime says
        # how many the function takes.
        types = self._argument_types[:len(inputs)]
        types += [(None, None)] * (len(inputs) - len(types))
        triples = [
            _input_triple(i, value, dtype, type_index)
            for i, (value, (dtype, type_index)) in enumerate(
                zip(inputs, types))
        ]
        return [_view(r) for r in native.call(self._index, triples)]

    def _bind(self, args, kwargs):
        names = [t.name for t in self.arguments]
        if not all(names):
            raise TypeError(f"{self._text} has no argument names; "
                            "pass its inputs in order")
        values = list(args) + [None] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{self._text} has no argument '{key}'")
            index = names.index(key)
            if index < len(args) or values[index] is not None:
                raise TypeError(f"argument '{key}' given twice")
            values[index] = value
        missing = [n for n, v in zip(names, values) if v is None]
        if missing:
            raise TypeError(f"{self._text}: missing " + ", ".join(missing))
        return values


# The element types NumPy has: results of these come back as arrays.
_NUMPY_NATIVE = ("f32", "f64", "f16", "i1", "i8", "i16", "i32", "i64")


def _view(result):
    """A result's (type index, shape, bytes) as an array of its dtype."""
    index, shape, data = result
    return data.view(_DTYPES[index]).reshape(shape)


def _input_triple(position, value, dtype, type_index):
    """(type index, shape, bytes) of an input: a C-contiguous, aligned array
    in native byte order is read where it lies; anything else (a list, a
    scalar, a strided view) is converted once."""
    if not isinstance(value, np.ndarray):
        value = np.asarray(value, dtype=dtype)
    array_dtype = value.dtype
    if array_dtype == dtype:
        index = type_index
    else:
        try:
            index = _DTYPES.index(array_dtype.newbyteorder("="))
        except ValueError:
            expected = f" ({_TYPE_NAMES[type_index]})" if dtype else ""
            raise RuntimeError(
                f"input {position}: kiln has no element type for an array "
                f"of {array_dtype}{expected}") from None
        if not array_dtype.isnative:
            value = value.astype(array_dtype.newbyteorder("="))
    flags = value.flags
    if not (flags.c_contiguous and flags.aligned):
        value = np.ascontiguousarray(value)
    return (index, value.shape, value.reshape(-1).view(np.uint8))


class Source:
    """A text the module embeds: a captured stage of an executable, or an
    input file."""

    __slots__ = ("path", "size", "lines", "previous", "_module")

    def __init__(self, module, path, size, lines, previous):
        self._module = module
        self.path = path
        self.size = size
        self.lines = lines
        self.previous = previous

    def __repr__(self):
        return f"<kiln source {self.path} ({self.lines} lines)>"

    def text(self):
        return self._module.read_source(self.path)


class Module:
    """A loaded module: its functions are attributes (`m.main(x)`) and
    items (`m["main"](x)`)."""

    def __init__(self, native):
        self._native = native
        self._functions = None

    def _get(self):
        if self._native.closed:
            raise RuntimeError("the module is closed")
        return self._native

    @property
    def functions(self):
        """The functions, in module order."""
        if self._functions is None:
            self._functions = [
                Function(
                    self,
                    i,
                    name,
                    _tensor_types(arguments, argument_names),
                    _tensor_types(results, result_names),
                    text,
                )
                for i, (name, arguments, results, argument_names,
                        result_names, text) in enumerate(
                    self._get().functions())
            ]
        return self._functions

    def __getitem__(self, name):
        for function in self.functions:
            if function.name == name:
                return function
        names = ", ".join(f.name for f in self.functions)
        raise KeyError(f"no function '{name}'; the module has {names}")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as error:
            raise AttributeError(error.args[0]) from None

    def __dir__(self):
        return list(super().__dir__()) + [f.name for f in self.functions]

    def run(self, inputs, function=None):
        """Runs `function` (the only one, or "main") on a dict of inputs
        named as the model names them and returns a dict of its results
        by name (by index where the module has no names)."""
        f = self._pick(function)
        names = [t.name for t in f.arguments]
        unknown = set(inputs) - set(names)
        if unknown:
            raise KeyError(f"{f} has no input " + ", ".join(sorted(unknown)))
        missing = [n for n in names if n not in inputs]
        if missing:
            raise KeyError(f"{f}: missing input " + ", ".join(missing))
        results = f.call([inputs[n] for n in names])
        return {
            (t.name if t.name else i): r
            for i, (t, r) in enumerate(zip(f.results, results))
        }

    def _pick(self, function):
        if function is not None:
            return self[function]
        if len(self.functions) == 1:
            return self.functions[0]
        return self["main"]

    @property
    def name(self):
        return self._get().name

    @property
    def threads(self):
        return self._native.threads

    @property
    def debug_level(self):
        """--executable-debug-level the module was compiled with."""
        return self._get().debug_level

    @property
    def capture_stages(self):
        """The stages whose texts the module embeds, in pipeline order."""
        return self._get().capture_stages

    @property
    def sources(self):
        """The embedded texts, by path."""
        return [
            Source(self, path, size, lines, previous)
            for path, size, lines, previous in self._get().sources()
        ]

    def read_source(self, path):
        """The embedded text at `path`."""
        return self._get().read_source(path)

    def print_source(self, path, line=None, context=5, file=None):
        """Prints the embedded text at `path` with line numbers, or the
        lines around `line` with it marked."""
        lines = self.read_source(path).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        first, last = 1, len(lines)
        if line is not None:
            if not 1 <= line <= len(lines):
                raise RuntimeError(f"{path} has {len(lines)} lines, not {line}")
            first, last = max(1, line - context), min(len(lines), line + context)
        out = file if file is not None else sys.stdout
        width = len(str(last))
        for number in range(first, last + 1):
            mark = ">" if number == line else " "
            print(f"{mark}{number:{width}} | {lines[number - 1]}", file=out)

    def save(self, path):
        """Writes the module to `path` (replacing the file whole)."""
        data = self._get().bytes()
        temporary = f"{os.fspath(path)}.tmp-{os.getpid()}"
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, path)

    def to_bytes(self):
        return self._get().bytes()

    def close(self):
        """Unloads the module; results already returned stay valid."""
        self._native.close()

    @property
    def closed(self):
        return self._native.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self.closed:
            return "<kiln module (closed)>"
        functions = "; ".join(str(f) for f in self.functions)
        return f"<kiln module {self.name}: {functions}>"


class trace:
    """Traces every call made inside the `with` block: one zone per call
    and per dispatch, each pointing at the code behind it.

        with kiln.trace("chrome", "t.json"): m.main(x)   # Perfetto
        with kiln.trace("console"): m.main(x)            # stderr

    `stage`: the captured stage whose text dispatch zones point at (""
    the earliest each export has); `workgroup_zones`: a zone per worker's
    share of each dispatch; `print_source` (console): the lines around each
    export's entry, once. One trace runs at a time."""

    def __init__(self, provider, path=None, stage="", workgroup_zones=False,
                 print_source=False):
        if provider == "chrome":
            if path is None:
                raise ValueError("a chrome trace needs a path")
            self._spec = f"chrome={os.fspath(path)}"
        elif path is not None:
            raise ValueError(f"the {provider} tracer takes no path")
        else:
            self._spec = provider
        self._options = (stage, workgroup_zones, print_source)

    def __enter__(self):
        _runtime.start_trace(self._spec, *self._options)
        return self

    def __exit__(self, *exc):
        _runtime.stop_trace()


ProfileLine = collections.namedtuple(
    "ProfileLine",
    "samples share function export path line text node op_type")
ProfileLine.__doc__ = """A sampled line: its samples and share of the
profile's, the function and export it ran in, PATH:LINE of the stage
asked for and the line's text, and the model's node (with its op type)
that line stands for, or None."""


class profile:
    """Samples every call made inside the `with` block with kiln's own
    sampler (kiln-run's --profile: each thread that runs kernels, at `hz`
    samples per second of its CPU time), mapped through each module's
    address -> line table. Profiled calls run one at a time.

        with kiln.profile() as p: m.main(x)
        print(p)                          # --profile's table
        p.top_lines(stage="input")        # the hottest lines of the model's program
        p.to_folded("p.folded")           # collapsed stacks (flamegraph.pl, speedscope)

    `stage`: a captured stage ("0.source", ...) or "input", whose lines
    the samples are rolled up to; None keeps the lines the module's line
    table names."""

    def __init__(self, hz=1000):
        self._hz = hz
        self._native = None

    def __enter__(self):
        _runtime.start_profile(self._hz)
        return self

    def __exit__(self, *exc):
        self._native = _runtime.stop_profile()

    def _get(self):
        if self._native is None:
            raise RuntimeError("the profile is still running")
        return self._native

    @property
    def functions(self):
        """(module, function, calls, samples, host samples, dropped) of
        each function called."""
        return self._get().functions()

    @property
    def samples(self):
        return sum(f[3] for f in self.functions)

    @property
    def host_samples(self):
        """Samples outside the modules' kernels."""
        return sum(f[4] for f in self.functions)

    def table(self, stage=None):
        native = self._get()
        return "".join(native.table(i, stage or "")
                       for i in range(len(native.functions())))

    def __str__(self):
        return self.table()

    def top_lines(self, stage=None, n=10):
        """The `n` lines with the most samples, over every function."""
        native = self._get()
        total = self.samples
        lines = []
        for i, function in enumerate(native.functions()):
            for export, samples, _, path, line, text, node, op_type in \
                    native.lines(i, stage or ""):
                if line:
                    lines.append(ProfileLine(
                        samples, samples / total if total else 0.0,
                        function[1], export, path, line, text, node,
                        op_type))
        lines.sort(key=lambda l: -l.samples)
        return lines[:n]

    def to_folded(self, path, stage=None):
        """Writes the collapsed stacks (FUNCTION;EXPORT;PATH:LINE COUNT)."""
        native = self._get()
        text = "".join(native.folded(i, stage or "")
                       for i in range(len(native.functions())))
        with open(path, "w") as f:
            f.write(text)


def load(source, threads=0, perf_visible=False):
    """Loads a module from a path or from its bytes. `threads`: worker
    threads per call, the caller included (0: hardware concurrency);
    `perf_visible`: load its libraries from files Linux perf reads."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        native = _runtime.Module.from_bytes(bytes(source), threads, perf_visible)
    else:
        native = _runtime.Module.load(os.fspath(source), threads, perf_visible)
    return Module(native)


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
):
    """Compiles a program or a model and loads the module.

    `source`: a path (.mlir, or .onnx/.onnxtxt for a model), a program's
    text, or bytes (a model's, with `name` ending in .onnx). `name`: what
    errors and the module call a text or bytes (default "input.mlir").
    The other options are kiln-compile's flags: --cpu,
    --executable-debug-level, --executable-capture-stages,
    --executable-debug-line-stage, --executable-embed-input-files,
    --executable-embed-input-dir, --executable-embed-input-files-limit,
    --accumulate-half-in-f32, --reassociate-fp-reductions,
    --tosa-validation; `threads` and `perf_visible` are load()'s.
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
        cpu,
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
    return load(data, threads=threads, perf_visible=perf_visible)
