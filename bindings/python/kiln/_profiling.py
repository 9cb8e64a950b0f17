"""kiln.profile: kiln's own sampler over the calls made inside a `with`
block."""

import collections

from . import _runtime
from ._runtime import RuntimeError  # noqa: A004 (kiln.RuntimeError)


ProfileLine = collections.namedtuple(
    "ProfileLine",
    "samples share function export path line text node op_type")
ProfileLine.__doc__ = """A sampled line: its samples and share of the
profile's, the function and export it ran in, PATH:LINE of the stage
asked for and the line's text, and the model's node (with its op type)
that line stands for, or None."""


InputOp = collections.namedtuple(
    "InputOp",
    "samples share cpu_seconds node op_type location function dispatches")
InputOp.__doc__ = """The samples of an op of the input program (a model's
node), whatever dispatches it was fused into: its share of the profile's
samples and the CPU time they stand for, the node's name (None for a
program written as MLIR), its op type (or the op's name), its location, the
function it ran in and its dispatches."""


class profile:
    """Samples every call made inside the `with` block with kiln's own
    sampler (kiln-run's --profile: each thread that runs kernels, at `hz`
    samples per second of its CPU time), mapped through each module's
    address -> line table. Profiled calls run one at a time.

        with kiln.profile() as p: m.main(x)
        print(p)                          # --profile's table
        p.top_lines(stage="input")        # the hottest lines of the model's program
        p.input_ops()                     # per node (input op), fused or not
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

    def input_ops(self):
        """Every input op (a model's node) with samples, most first: the
        samples at the input's lines go to the op whose text spans their
        line (--profile-by=node)."""
        native = self._get()
        total = self.samples
        ops = []
        for i, function in enumerate(native.functions()):
            entries, _, _ = native.input_ops(i)
            for node, op_type, location, samples, seconds, dispatches in \
                    entries:
                ops.append(InputOp(samples, samples / total if total else 0.0,
                                   seconds, node, op_type, location,
                                   function[1], dispatches))
        ops.sort(key=lambda op: -op.samples)
        return ops

    @property
    def unplaced_samples(self):
        """Samples in kernels on no input op's line."""
        native = self._get()
        return sum(native.input_ops(i)[2]
                   for i in range(len(native.functions())))

    def to_folded(self, path, stage=None):
        """Writes the collapsed stacks (FUNCTION;EXPORT;PATH:LINE COUNT)."""
        native = self._get()
        text = "".join(native.folded(i, stage or "")
                       for i in range(len(native.functions())))
        with open(path, "w") as f:
            f.write(text)
