"""Loaded modules and their functions: calls on NumPy arrays, embedded
texts."""

import os
import sys

import numpy as np

from . import _runtime
from ._dtypes import _DTYPES, _TYPE_NAMES, _tensor_types
from ._runtime import RuntimeError  # noqa: A004 (kiln.RuntimeError)


class CodeVariant:
    """One CPU's code in a module: its name, the CPU it was compiled for,
    the instruction-set features it needs, and why this machine cannot run
    it ("" when it can)."""

    def __init__(self, name, cpu, features, unsupported):
        self.name = name
        self.cpu = cpu
        self.features = features
        self.unsupported = unsupported

    @property
    def supported(self):
        return not self.unsupported

    def __repr__(self):
        return "CodeVariant(%r, cpu=%r%s)" % (
            self.name, self.cpu, "" if self.supported else ", unsupported")


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
    def variant(self):
        """The name of the code variant that runs."""
        return self._get().variant

    @property
    def variants(self):
        """The code variants the module holds, in order of preference."""
        return [
            CodeVariant(name, cpu, tuple(features), why)
            for name, cpu, features, why in self._get().variants()
        ]

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
        """Prints the embedded text at `path` as kiln-dump --print-source
        does: numbered, control characters escaped, every line or those
        within `context` of `line` with it marked."""
        out = file if file is not None else sys.stdout
        for numbered in self._get().numbered_lines(path, line or 0, context):
            print(numbered, file=out)

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


def load(source, threads=0, perf_visible=False, variant=None):
    """Loads a module from a path or from its bytes. `threads`: worker
    threads per call, the caller included (0: hardware concurrency);
    `perf_visible`: load its libraries from files Linux perf reads;
    `variant`: the code variant to run, by name (kiln-run's --variant;
    None: the first this machine can run)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        native = _runtime.Module.from_bytes(
            bytes(source), threads, perf_visible, variant or "")
    else:
        native = _runtime.Module.load(
            os.fspath(source), threads, perf_visible, variant or "")
    return Module(native)
