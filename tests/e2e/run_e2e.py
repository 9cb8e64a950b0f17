#!/usr/bin/env python3
"""End-to-end test driver for kiln: compile, run, and compare with upstream MLIR.

For one program file (a ``.mlir`` file holding ``func.func`` functions over
statically shaped tensors) this driver:

1. reads *directives* from ``//`` comments in the file (see ``Directives``):
   which function(s) to call, with which inputs, at which float tolerance;
2. compiles the program with ``kiln-compile`` and runs every requested call
   with ``kiln-run --guard-pages`` (every tensor the call reads or makes ends
   at an inaccessible page, so a kernel that reads or writes past one dies
   rather than passing on what lay beyond), passing inputs as ``.npy`` files
   and collecting results through ``--output=@FILE.npy`` (``bf16``, which
   NumPy cannot store, goes through kiln-run's text syntax both ways);
3. computes the reference independently with upstream MLIR only: a wrapper
   module holds the same program text plus an entry function that builds the
   same inputs as ``arith.constant dense<...>``, calls the function, and prints
   every result with ``printMemrefI32`` / ``printMemrefI64`` *as raw bits*
   (floats are ``arith.bitcast`` to integers, f16/bf16 widened exactly to f32
   first, i1/i8/i16 widened to i32), so no precision is lost in printing; the
   wrapper is lowered with ``mlir-opt`` (``REFERENCE_PIPELINE``) and executed by
   ``mlir-runner``;
4. with ``--variants=CPU,CPU,...`` compiles one module with a code variant
   per CPU and runs every call with each variant this machine can run
   (``kiln-run --variant``), checking that the one chosen unforced is the
   first it can run and that the others are refused;
5. compares types, shapes and values (integers exactly; floats with
   ``|got - expected| <= atol + rtol * |expected|``, NaN equal to NaN), prints a
   clear diff on mismatch and exits 1, or prints a one-line summary.

Any tool failure prints the command and the tool's stderr and exits 1.

Directives (one per line, anywhere in the file)::

    // ENTRY: name                  start a call of function @name
    // INPUT: 2x3xf32=random        one per argument, in order
    // TOLERANCE: rtol=1e-5 atol=1e-6
    // SEED: 7                      seed for ``random`` inputs (default 0)

A file without ``ENTRY`` makes one call of ``@main`` with all ``INPUT`` lines.
Otherwise each ``ENTRY`` starts a call (the same function may be called more
than once) and the ``INPUT`` lines after it are its arguments. A
``TOLERANCE`` before the first ``ENTRY`` applies to every call, one after an
``ENTRY`` to that call only. Without ``TOLERANCE``, floats use
``DEFAULT_TOLERANCE`` per element type (f32: rtol=1e-5 atol=1e-5, f64: 1e-12,
f16: 1e-2, bf16: 3e-2); integers and i1 are always compared exactly.

Input values follow iree-run-module (``SHAPExTYPE=VALUES``) plus generators:

* ``2x3xf32=random`` -- deterministic pseudo-random values: floats uniform in
  [-1, 1] rounded to the element type, i1 0/1, i8 in [-8, 8], other integers
  in [-100, 100]; ``random(lo,hi)`` sets the range (inclusive for integers);
* ``4xi32=iota`` -- 0, 1, 2, ... (row-major); ``iota(start,step)``;
* explicit values, nested brackets optional: ``2x2xf32=[[1,2],[3,4]]``,
  ``2x2xf32=[1 2][3 4]``, ``2x2xf32=1,2,3,4``; ``true``/``false``, ``nan``,
  ``inf``, ``-inf`` allowed; a single value is a splat (``2x3xf32=0``); no
  value means zeros (``2x3xf32``); ``f32=3.5`` is a 0-d tensor.

Usage (from a lit RUN line; lit substitutes the tool names with full paths)::

    %python %kiln_tests_dir/e2e/run_e2e.py %s -o %t --kiln-compile=kiln-compile
        --kiln-run=kiln-run --mlir-opt=mlir-opt --mlir-runner=mlir-runner
        --mlir-lib-dir=%mlir_lib_dir

Only the Python standard library is used.
"""

import argparse
import itertools
import json
import math
import os
import random
import re
import shlex
import shutil
import struct
import subprocess
import sys

# ----------------------------------------------------------------------------
# Element types
# ----------------------------------------------------------------------------


class ElemType:
    """One supported element type and how it is stored and printed.

    ``npy`` is the NumPy descr (None for bf16, which NumPy lacks); ``fmt`` the
    ``struct`` code of one element in a .npy payload; ``print_as`` the integer
    type the reference prints it as (``i32`` or ``i64``) after widening.
    """

    def __init__(self, name, kind, bits, npy, fmt, print_as):
        self.name = name
        self.kind = kind  # "float", "int" or "bool"
        self.bits = bits
        self.npy = npy
        self.fmt = fmt
        self.print_as = print_as

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def byte_size(self):
        return max(1, self.bits // 8)

    def int_range(self):
        """Inclusive range of a signless integer read as signed (i1: 0..1)."""
        if self.kind == "bool":
            return 0, 1
        return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1


TYPES = {
    "f32": ElemType("f32", "float", 32, "<f4", "f", "i32"),
    "f64": ElemType("f64", "float", 64, "<f8", "d", "i64"),
    "f16": ElemType("f16", "float", 16, "<f2", "e", "i32"),
    "bf16": ElemType("bf16", "float", 16, None, None, "i32"),
    "i1": ElemType("i1", "bool", 1, "|b1", "B", "i32"),
    "i8": ElemType("i8", "int", 8, "|i1", "b", "i32"),
    "i16": ElemType("i16", "int", 16, "<i2", "h", "i32"),
    "i32": ElemType("i32", "int", 32, "<i4", "i", "i32"),
    "i64": ElemType("i64", "int", 64, "<i8", "q", "i64"),
}
NPY_TO_TYPE = {t.npy: t for t in TYPES.values() if t.npy}
# Single-byte types are written with '|', but '<' and '=' mean the same.
for _t in ("b1", "i1"):
    NPY_TO_TYPE["<" + _t] = NPY_TO_TYPE["=" + _t] = NPY_TO_TYPE["|" + _t]

TYPE_NAMES = "|".join(sorted(TYPES, key=len, reverse=True))


class E2EError(Exception):
    """A failure to report (tool error, bad directive, mismatch)."""


# Bit-level conversions ------------------------------------------------------


def f32_bits_to_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def float_to_f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def f64_bits_to_float(bits):
    return struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def bf16_bits_to_float(bits):
    return f32_bits_to_float((bits & 0xFFFF) << 16)


def float_to_bf16_bits(value):
    """Round a Python float to bf16 (round to nearest even) and return bits."""
    if math.isnan(value):
        return 0x7FC0
    bits = float_to_f32_bits(round_float(value, TYPES["f32"]))
    bits += 0x7FFF + ((bits >> 16) & 1)
    return (bits >> 16) & 0xFFFF


def round_float(value, etype):
    """Round a Python float to the nearest value of float type ``etype``."""
    if math.isnan(value) or math.isinf(value) or etype.name == "f64":
        return value
    if etype.name == "bf16":
        return bf16_bits_to_float(float_to_bf16_bits(value))
    fmt = "<f" if etype.name == "f32" else "<e"
    try:
        return struct.unpack(fmt, struct.pack(fmt, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def element_bits(value, etype):
    """The raw bit pattern of one element, as an unsigned integer."""
    if etype.name == "f32":
        return float_to_f32_bits(value)
    if etype.name == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if etype.name == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if etype.name == "bf16":
        return float_to_bf16_bits(value)
    return int(value) & ((1 << etype.bits) - 1)


# ----------------------------------------------------------------------------
# Tensors
# ----------------------------------------------------------------------------


class Tensor:
    """A dense row-major tensor: shape tuple, ElemType, flat list of values.

    Float values are Python floats (exactly the element type's value);
    integer values are Python ints read as signed (i1: 0 or 1).
    """

    def __init__(self, shape, etype, values):
        self.shape = tuple(shape)
        self.etype = etype
        self.values = list(values)
        if len(self.values) != num_elements(self.shape):
            raise E2EError("internal: %d values for shape %s"
                           % (len(self.values), self.shape))

    @property
    def type_str(self):
        return type_string(self.shape, self.etype)

    def text(self, exact=False):
        """The tensor in kiln-run's --input syntax (flat values); ``exact``
        prints floats as the exact double (what any parser rounds back to the
        same element value), otherwise as the shortest round-trip text."""
        def fmt(v):
            if exact and self.etype.is_float and math.isfinite(v):
                return repr(float(v))
            return format_value(v, self.etype)
        return "%s=%s" % (self.type_str, ",".join(fmt(v) for v in self.values))


def num_elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def type_string(shape, etype):
    """``2x3xf32`` / ``f32`` (the iree-run-module spelling); a dimension of
    None (a signature's dynamic one) is ``?``."""
    return "x".join(["?" if d is None else str(d) for d in shape] + [etype.name])


def shape_matches(shape, pattern):
    """Whether ``shape`` has ``pattern``'s rank and its static dimensions."""
    return len(shape) == len(pattern) and all(
        p is None or p == d for d, p in zip(shape, pattern))


def tensor_type_mlir(shape, etype):
    """``tensor<2x3xf32>`` / ``tensor<f32>``."""
    return "tensor<%s>" % type_string(shape, etype)


def format_value(value, etype):
    """Shortest decimal text that reads back as the same element value."""
    if etype.is_float:
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if etype.name != "f64":
            for digits in range(1, 18):
                text = "%.*g" % (digits, value)
                if round_float(float(text), etype) == value:
                    return text
        return repr(float(value))
    return str(int(value))


def unravel(index, shape):
    """Flat row-major index -> multi-index tuple."""
    out = []
    for d in reversed(shape):
        out.append(index % d if d else 0)
        index = index // d if d else 0
    return tuple(reversed(out))


# ----------------------------------------------------------------------------
# Input specifications
# ----------------------------------------------------------------------------

SPEC_RE = re.compile(r"^\s*((?:\d+x)*)(%s)\s*(?:=(.*))?$" % TYPE_NAMES,
                     re.DOTALL)
GEN_RE = re.compile(r"^(random|iota)\s*(?:\(\s*([^,()]+?)\s*,\s*([^,()]+?)\s*\))?$")


def parse_type_prefix(text):
    """``2x3xf32`` -> ((2, 3), ElemType)."""
    m = SPEC_RE.match(text)
    if not m or m.group(3) is not None:
        raise E2EError("bad tensor type '%s'" % text)
    dims = [int(d) for d in m.group(1).split("x") if d]
    return tuple(dims), TYPES[m.group(2)]


def parse_scalar(token, etype):
    """One explicit element value, checked against its type."""
    low = token.lower()
    if etype.is_float:
        if low in ("true", "false"):
            raise E2EError("boolean '%s' for %s" % (token, etype.name))
        try:
            value = float(int(token, 0)) if re.match(r"^[-+]?0x", low) else float(low)
        except ValueError:
            raise E2EError("bad %s value '%s'" % (etype.name, token))
        return round_float(value, etype)
    if low in ("true", "false"):
        value = 1 if low == "true" else 0
    else:
        try:
            value = int(token, 0)
        except ValueError:
            try:
                as_float = float(token)
            except ValueError:
                raise E2EError("bad %s value '%s'" % (etype.name, token))
            if as_float != int(as_float):
                raise E2EError("non-integer %s value '%s'" % (etype.name, token))
            value = int(as_float)
    lo, hi = etype.int_range()
    if not lo <= value <= hi:
        raise E2EError("%s value %s out of range [%d, %d]"
                       % (etype.name, token, lo, hi))
    return value


def generate_random(shape, etype, rng, lo=None, hi=None):
    """Deterministic pseudo-random values suited to the element type."""
    n = num_elements(shape)
    if etype.is_float:
        lo = -1.0 if lo is None else float(lo)
        hi = 1.0 if hi is None else float(hi)
        return [round_float(rng.uniform(lo, hi), etype) for _ in range(n)]
    if etype.kind == "bool":
        lo, hi = (0, 1) if lo is None else (int(lo), int(hi))
    elif lo is None:
        lo, hi = (-8, 8) if etype.bits == 8 else (-100, 100)
    else:
        lo, hi = int(lo), int(hi)
    tlo, thi = etype.int_range()
    if lo < tlo or hi > thi or lo > hi:
        raise E2EError("random range [%s, %s] invalid for %s" % (lo, hi, etype.name))
    return [rng.randint(lo, hi) for _ in range(n)]


def parse_input_spec(spec, rng):
    """``2x3xf32=random`` (or any syntax in the module docstring) -> Tensor."""
    m = SPEC_RE.match(spec)
    if not m:
        raise E2EError("bad INPUT '%s' (expected e.g. 2x3xf32=random)" % spec)
    shape = tuple(int(d) for d in m.group(1).split("x") if d)
    etype = TYPES[m.group(2)]
    body = (m.group(3) or "").strip()
    n = num_elements(shape)
    gen = GEN_RE.match(body)
    if gen:
        a, b = gen.group(2), gen.group(3)
        if gen.group(1) == "random":
            return Tensor(shape, etype, generate_random(shape, etype, rng, a, b))
        start = float(a) if a is not None else 0
        step = float(b) if b is not None else 1
        vals = [start + i * step for i in range(n)]
        if etype.is_float:
            vals = [round_float(v, etype) for v in vals]
        else:
            lo, hi = etype.int_range()
            vals = [int(v) for v in vals]
            if vals and (min(vals) < lo or max(vals) > hi):
                raise E2EError("iota exceeds the range of %s" % etype.name)
        return Tensor(shape, etype, vals)
    tokens = [t for t in re.split(r"[\s,\[\]]+", body) if t]
    values = [parse_scalar(t, etype) for t in tokens]
    if not values:
        values = [0.0 if etype.is_float else 0] * n
    elif len(values) == 1 and n != 1:
        values = values * n
    if len(values) != n:
        raise E2EError("INPUT '%s': %d values for %d elements"
                       % (spec[:60], len(values), n))
    return Tensor(shape, etype, values)


# ----------------------------------------------------------------------------
# Directives
# ----------------------------------------------------------------------------

DIRECTIVE_RE = re.compile(r"^\s*//\s*(ENTRY|INPUT|TOLERANCE|SEED)\s*:\s*(.*?)\s*$")

DEFAULT_TOLERANCE = {
    # Independent summation orders (tiling, vectorization) differ by a few
    # ulps per accumulated term; results near zero need the atol term.
    "f32": (1e-5, 1e-5),
    "f64": (1e-12, 1e-12),
    # f16 has an 11-bit significand (ulp 2^-10 near 1), bf16 an 8-bit one.
    "f16": (1e-2, 1e-2),
    "bf16": (3e-2, 3e-2),
}


class Call:
    """One function call to check: function name, inputs, tolerance."""

    def __init__(self, function):
        self.function = function
        self.input_specs = []
        self.inputs = []
        self.tolerance = None  # (rtol, atol) or None for the defaults
        self.arg_types = None  # filled from the program's signature
        self.result_types = None


def parse_tolerance(text):
    tol = {}
    for item in text.split():
        key, eq, val = item.partition("=")
        if not eq or key not in ("rtol", "atol"):
            raise E2EError("bad TOLERANCE '%s' (expected rtol=X atol=Y)" % text)
        try:
            tol[key] = float(val)
        except ValueError:
            raise E2EError("bad TOLERANCE value '%s'" % item)
    if "rtol" not in tol or "atol" not in tol:
        raise E2EError("TOLERANCE needs both rtol= and atol=: '%s'" % text)
    return tol["rtol"], tol["atol"]


def parse_directives(text):
    """Return (calls, global tolerance or None, seed) from the comments."""
    calls = []
    default_call = Call("main")
    global_tol = None
    seed = 0
    current = default_call
    for lineno, line in enumerate(text.splitlines(), 1):
        m = DIRECTIVE_RE.match(line)
        if not m:
            continue
        kind, arg = m.group(1), m.group(2)
        try:
            if kind == "ENTRY":
                if not re.match(r"^[A-Za-z_][\w$.]*$", arg):
                    raise E2EError("bad function name '%s'" % arg)
                current = Call(arg)
                calls.append(current)
            elif kind == "INPUT":
                current.input_specs.append(arg)
            elif kind == "TOLERANCE":
                tol = parse_tolerance(arg)
                if current is default_call:
                    global_tol = tol
                else:
                    current.tolerance = tol
            elif kind == "SEED":
                seed = int(arg)
        except (E2EError, ValueError) as e:
            raise E2EError("line %d: %s" % (lineno, e))
    if not calls:
        calls = [default_call]
    elif default_call.input_specs:
        raise E2EError("INPUT lines before the first ENTRY: add '// ENTRY: main'")
    for call in calls:
        if call.tolerance is None:
            call.tolerance = global_tol
    for ci, call in enumerate(calls):
        for ii, spec in enumerate(call.input_specs):
            # One generator per input (string seeds are hashed with SHA-512:
            # stable across Python versions and runs), so editing one input
            # leaves the others' values unchanged.
            sub = random.Random("kiln-e2e/%d/%d/%d" % (seed, ci, ii))
            try:
                call.inputs.append(parse_input_spec(spec, sub))
            except E2EError as e:
                raise E2EError("@%s input %d: %s" % (call.function, ii, e))
    return calls


# ----------------------------------------------------------------------------
# .npy files (format version 1.0 written; 1.0-3.0 read)
# ----------------------------------------------------------------------------

NPY_MAGIC = b"\x93NUMPY"


def write_npy(path, tensor):
    """Write ``tensor`` as a NumPy .npy v1.0 file (C order)."""
    et = tensor.etype
    if et.npy is None:
        raise E2EError("NumPy has no dtype for %s" % et.name)
    shape = "(%s)" % ("".join("%d, " % d for d in tensor.shape)[:-2]
                      + ("," if len(tensor.shape) == 1 else ""))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (et.npy, shape)
    total = len(NPY_MAGIC) + 2 + 2 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    if et.kind == "bool":
        payload = bytes(1 if v else 0 for v in tensor.values)
    else:
        payload = struct.pack("<%d%s" % (len(tensor.values), et.fmt), *tensor.values)
    with open(path, "wb") as f:
        f.write(NPY_MAGIC + b"\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(payload)


def read_npy(path):
    """Read a .npy file written by kiln-run into a Tensor."""
    import ast

    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != NPY_MAGIC:
        raise E2EError("%s: not a .npy file" % path)
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    elif major in (2, 3):
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    else:
        raise E2EError("%s: unsupported .npy version %d" % (path, major))
    header_text = data[start:start + hlen].decode("latin1")
    try:
        header = ast.literal_eval(header_text.strip())
    except (ValueError, SyntaxError):
        raise E2EError("%s: bad .npy header %r" % (path, header_text))
    descr = header.get("descr")
    if descr not in NPY_TO_TYPE:
        raise E2EError("%s: unsupported dtype %r" % (path, descr))
    if header.get("fortran_order"):
        raise E2EError("%s: fortran_order .npy not supported" % path)
    etype = NPY_TO_TYPE[descr]
    shape = tuple(header["shape"])
    n = num_elements(shape)
    payload = data[start + hlen:]
    size = n * etype.byte_size
    if len(payload) != size:
        raise E2EError("%s: payload has %d bytes, expected %d for %s"
                       % (path, len(payload), size, type_string(shape, etype)))
    if etype.kind == "bool":
        values = [1 if b else 0 for b in payload]
    else:
        values = list(struct.unpack("<%d%s" % (n, etype.fmt), payload))
    return Tensor(shape, etype, values)


# kiln-run's printed syntax: 2x2xf32=[1 2][3 4], f32=3.5 (used for bf16).
def parse_printed_tensor(line):
    m = SPEC_RE.match(line.strip())
    if not m:
        raise E2EError("cannot parse kiln-run output line %r" % line[:200])
    shape = tuple(int(d) for d in m.group(1).split("x") if d)
    etype = TYPES[m.group(2)]
    tokens = [t for t in re.split(r"[\s,\[\]]+", m.group(3) or "") if t]
    values = []
    for t in tokens:
        if etype.is_float:
            values.append(float(t.lower().replace("-nan", "nan")))
        else:
            values.append(int(t))
    if len(values) != num_elements(shape):
        raise E2EError("kiln-run printed %d values for %s"
                       % (len(values), type_string(shape, etype)))
    return Tensor(shape, etype, values)


# ----------------------------------------------------------------------------
# Tools
# ----------------------------------------------------------------------------


def run_tool(cmd, what, timeout):
    """Run a tool; on failure raise E2EError with its command and stderr."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except FileNotFoundError:
        raise E2EError("%s: tool not found: %s" % (what, cmd[0]))
    except subprocess.TimeoutExpired:
        raise E2EError("%s timed out after %ss:\n  %s" % (what, timeout, shell_join(cmd)))
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        status = ("killed by signal %d" % -proc.returncode if proc.returncode < 0
                  else "exit code %d" % proc.returncode)
        raise E2EError("%s failed (%s):\n  %s\n--- stderr ---\n%s%s" % (
            what, status, shell_join(cmd), head_lines(stderr.rstrip()) or "(empty)",
            ("\n--- stdout ---\n" + tail(stdout)) if stdout.strip() else ""))
    return stdout, stderr


def shell_join(cmd):
    text = " ".join(shlex.quote(c) for c in cmd)
    return text if len(text) < 2000 else text[:2000] + " ..."


def head_lines(text, limit=60):
    """The first ``limit`` lines of a tool's output (crash dumps are long)."""
    lines = text.splitlines()
    if len(lines) <= limit:
        return text
    return "\n".join(lines[:limit] + ["... (%d more lines)" % (len(lines) - limit)])


def tail(text, limit=4000):
    return text if len(text) <= limit else "...\n" + text[-limit:]


def find_kiln_run(given, kiln_compile):
    """Locate kiln-run: the given path, or the one beside kiln-compile."""
    candidates = [given]
    if kiln_compile:
        bindir = os.path.dirname(os.path.abspath(kiln_compile))
        candidates.append(os.path.join(bindir, "kiln-run"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    found = shutil.which(given) if given else None
    if found:
        return found
    raise E2EError("kiln-run not found (tried %s)"
                   % ", ".join(c for c in candidates if c))


# ----------------------------------------------------------------------------
# Signatures
# ----------------------------------------------------------------------------

TENSOR_TYPE_RE = re.compile(r"tensor<([^<>]*)>")


def split_top_level(text):
    """Split on commas that are not nested in (), <>, [] or {}."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def matching_paren(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise E2EError("unbalanced parentheses in signature")


def parse_tensor_type(text):
    text = text.strip()
    m = re.match(r"^tensor<([^<>]*)>$", text)
    if not m:
        raise E2EError("unsupported argument/result type '%s' (only ranked "
                       "static tensors are supported)" % text)
    # Dynamic dimensions ("?") are None: each call's input gives them.
    parts = m.group(1).split("x")
    if not parts[-1] in TYPES:
        raise E2EError("bad tensor type '%s'" % text)
    shape = tuple(None if d == "?" else int(d) for d in parts[:-1])
    return shape, TYPES[parts[-1]]


def function_signature(printed, name):
    """Arg and result tensor types of @name, from mlir-opt's printed module."""
    m = re.search(r"^\s*func\.func\s+(?:(?:public|private|nested)\s+)?@%s\("
                  % re.escape(name), printed, re.MULTILINE)
    if not m:
        raise E2EError("function @%s not found in the program" % name)
    open_paren = m.end() - 1
    close = matching_paren(printed, open_paren)
    args = []
    for part in split_top_level(printed[open_paren + 1:close]):
        part = re.sub(r"\{.*\}", "", part)  # argument attributes
        part = re.sub(r"\bloc\(.*\)", "", part)
        _, _, ty = part.partition(":")
        args.append(parse_tensor_type(ty))
    rest = printed[close + 1:]
    results = []
    rm = re.match(r"\s*->\s*", rest)
    if rm:
        rest = rest[rm.end():]
        if rest.startswith("("):
            rclose = matching_paren(rest, 0)
            parts = split_top_level(rest[1:rclose])
        else:
            tm = re.match(r"tensor<[^<>]*>|[^\s{]+", rest)
            parts = [tm.group(0)]
        for part in parts:
            part = re.sub(r"\{.*\}", "", part)
            results.append(parse_tensor_type(part))
    return args, results


# ----------------------------------------------------------------------------
# Reference: upstream MLIR wrapper
# ----------------------------------------------------------------------------

# Applied with --transform-interpreter before bufferization: decomposes the
# aggregate op linalg.softmax into linalg.generic ops and lowers
# linalg.pack / linalg.unpack to pad, reshape, transpose and slice (upstream
# has no pass for either; bufferization does not take them), leaving
# everything else as written.
TRANSFORM_LIBRARY = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg.softmax"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %softmax
        : (!transform.any_op) -> !transform.any_op
    %packs = transform.structured.match ops{["linalg.pack"]} in %root
        : (!transform.any_op) -> !transform.op<"linalg.pack">
    transform.foreach %packs : !transform.op<"linalg.pack"> {
    ^bb0(%pack: !transform.op<"linalg.pack">):
      %pad, %expand, %transpose = transform.structured.lower_pack %pack
          : (!transform.op<"linalg.pack">) -> (!transform.op<"tensor.pad">,
             !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
    }
    %unpacks = transform.structured.match ops{["linalg.unpack"]} in %root
        : (!transform.any_op) -> !transform.op<"linalg.unpack">
    transform.foreach %unpacks : !transform.op<"linalg.unpack"> {
    ^bb0(%unpack: !transform.op<"linalg.unpack">):
      %empty, %transpose, %collapse, %slice = transform.structured.lower_unpack %unpack
          : (!transform.op<"linalg.unpack">) -> (!transform.op<"tensor.empty">,
             !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">,
             !transform.op<"tensor.extract_slice">)
    }
    transform.yield
  }
}
"""

# The upstream lowering of the wrapper: plain loops, no vectorization, no
# fusion -- deliberately a different code path from kiln's codegen.
REFERENCE_PIPELINE = [
    "--transform-preload-library=transform-library-paths={transform}",
    "--transform-interpreter",
    "--convert-elementwise-to-linalg",  # arith/math ops on whole tensors
    "--math-extend-to-supported-types",  # f16/bf16 math ops -> f32
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-loops",
    "--convert-bufferization-to-memref",
    "--expand-strided-metadata",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--convert-math-to-llvm",
    "--convert-math-to-libm",
    "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--convert-ub-to-llvm",
    "--reconcile-unrealized-casts",
]


# Run first, as a separate mlir-opt, on programs in TOSA: upstream's own
# TOSA conversions (the ones kiln's input conversion uses; the lowering after
# them differs).
TOSA_REFERENCE_PIPELINE = (
    "--pass-pipeline=builtin.module(func.func(tosa-optional-decompositions,"
    "tosa-to-scf,tosa-to-linalg-named,tosa-to-linalg,"
    "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor),canonicalize)")


def dense_literal(tensor):
    """An exact ``dense<...>`` literal: hex bytes, or nested bools for i1."""
    et = tensor.etype
    if et.kind == "bool":
        def nest(values, shape):
            if not shape:
                return "true" if values[0] else "false"
            step = len(values) // shape[0] if shape[0] else 0
            return "[" + ", ".join(nest(values[i * step:(i + 1) * step], shape[1:])
                                   for i in range(shape[0])) + "]"
        return "dense<%s>" % nest(tensor.values, tensor.shape)
    nbytes = et.byte_size
    hexdata = "".join(
        element_bits(v, et).to_bytes(nbytes, "little").hex().upper()
        for v in tensor.values)
    return 'dense<"0x%s">' % hexdata


def widen_ops(etype):
    """Body ops turning ``%x : etype`` into ``%y`` of etype.print_as."""
    name = etype.name
    if name == "f32":
        return ["%y = arith.bitcast %x : f32 to i32"]
    if name == "f64":
        return ["%y = arith.bitcast %x : f64 to i64"]
    if name in ("f16", "bf16"):
        return ["%w = arith.extf %x : {0} to f32".format(name),
                "%y = arith.bitcast %w : f32 to i32"]
    if name == "i1":
        return ["%y = arith.extui %x : i1 to i32"]
    if name in ("i8", "i16"):
        return ["%y = arith.extsi %x : {0} to i32".format(name)]
    return []  # i32, i64: printed as is


def build_wrapper(program_text, calls):
    """The program text plus @__e2e_main, which calls and prints everything."""
    lines = []
    counter = [0]

    def fresh(prefix):
        counter[0] += 1
        return "%%__%s%d" % (prefix, counter[0])

    for ci, call in enumerate(calls):
        lines.append("  // call %d: @%s" % (ci, call.function))
        arg_names = []
        for t, (arg_shape, _) in zip(call.inputs, call.arg_types):
            v = fresh("in")
            lines.append("  %s = arith.constant %s : %s"
                         % (v, dense_literal(t), tensor_type_mlir(t.shape, t.etype)))
            if tuple(arg_shape) != t.shape:
                cast = fresh("cast")
                lines.append("  %s = tensor.cast %s : %s to %s"
                             % (cast, v, tensor_type_mlir(t.shape, t.etype),
                                tensor_type_mlir(arg_shape, t.etype)))
                v = cast
            arg_names.append(v)
        arg_types = ", ".join(tensor_type_mlir(s, e) for s, e in call.arg_types)
        res_types = ", ".join(tensor_type_mlir(s, e) for s, e in call.result_types)
        nres = len(call.result_types)
        r = fresh("res")
        call_text = "func.call @%s(%s) : (%s) -> (%s)" % (
            call.function, ", ".join(arg_names), arg_types, res_types)
        if nres == 0:
            lines.append("  " + call_text)
        elif nres == 1:
            lines.append("  %s = %s" % (r, call_text))
        else:
            lines.append("  %s:%d = %s" % (r, nres, call_text))
        for k, (shape, etype) in enumerate(call.result_types):
            val = r if nres == 1 else "%s#%d" % (r, k)
            ttype = tensor_type_mlir(shape, etype)
            ptype = etype.print_as
            ops = widen_ops(etype)
            if ops:
                rank = len(shape)
                dims = ", ".join("d%d" % i for i in range(rank))
                amap = "affine_map<(%s) -> (%s)>" % (dims, dims)
                iters = ", ".join(['"parallel"'] * rank)
                wtype = tensor_type_mlir(shape, TYPES[ptype])
                e, w = fresh("empty"), fresh("wide")
                sizes = []
                for i, d in enumerate(shape):
                    if d is None:
                        c, n = fresh("c"), fresh("n")
                        lines.append("  %s = arith.constant %d : index" % (c, i))
                        lines.append("  %s = tensor.dim %s, %s : %s"
                                     % (n, val, c, ttype))
                        sizes.append(n)
                lines.append("  %s = tensor.empty(%s) : %s"
                             % (e, ", ".join(sizes), wtype))
                lines.append(
                    "  %s = linalg.generic {indexing_maps = [%s, %s], "
                    "iterator_types = [%s]} ins(%s : %s) outs(%s : %s) {"
                    % (w, amap, amap, iters, val, ttype, e, wtype))
                lines.append("  ^bb0(%%x: %s, %%o: %s):" % (etype.name, ptype))
                for op in ops:
                    lines.append("    " + op)
                lines.append("    linalg.yield %%y : %s" % ptype)
                lines.append("  } -> %s" % wtype)
                val, ttype = w, wtype
            mtype = "memref<%s>" % type_string(shape, TYPES[ptype])
            m, u = fresh("buf"), fresh("unranked")
            lines.append("  %s = bufferization.to_buffer %s : %s to %s"
                         % (m, val, ttype, mtype))
            lines.append("  %s = memref.cast %s : %s to memref<*x%s>" % (u, m, mtype, ptype))
            lines.append("  func.call @printMemref%s(%s) : (memref<*x%s>) -> ()"
                         % (ptype.upper(), u, ptype))
    entry = ["", "// ---- added by run_e2e.py ----"]
    for p in ("i32", "i64"):
        if "@printMemref%s" % p.upper() not in program_text:
            entry.append("func.func private @printMemref%s(memref<*x%s>)" % (p.upper(), p))
    entry.append("func.func @__e2e_main() {")
    entry += lines
    entry += ["  return", "}", ""]
    entry_text = "\n".join(entry)
    stripped = re.sub(r"//[^\n]*", "", program_text)
    if re.match(r"^\s*module\b", stripped):
        # An explicit top-level module: insert the entry before its last '}'.
        end = program_text.rstrip().rfind("}")
        return program_text[:end] + entry_text + program_text[end:]
    return program_text.rstrip() + "\n" + entry_text


MEMREF_RE = re.compile(
    r"Unranked Memref base@ = \S+ rank = (\d+) offset = (\d+) "
    r"sizes = \[([^\]]*)\] strides = \[([^\]]*)\] data =")


def parse_memref_prints(stdout, expected_results):
    """Parse the printMemref output into Tensors of the expected types."""
    heads = list(MEMREF_RE.finditer(stdout))
    if len(heads) != len(expected_results):
        raise E2EError("reference printed %d memrefs, expected %d:\n%s"
                       % (len(heads), len(expected_results), tail(stdout)))
    out = []
    for i, (h, (shape, etype)) in enumerate(zip(heads, expected_results)):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(stdout)
        sizes = tuple(int(s) for s in h.group(3).replace(",", " ").split())
        if not shape_matches(sizes, shape):
            raise E2EError("reference result %d has sizes %s, expected %s"
                           % (i, sizes, type_string(shape, etype)))
        shape = sizes
        ints = [int(s) for s in re.findall(r"-?\d+", stdout[h.end():end])]
        if num_elements(shape) == 0:
            ints = []  # upstream prints one (garbage) row even when empty
        if len(ints) != num_elements(shape):
            raise E2EError("reference result %d: %d values for %s"
                           % (i, len(ints), type_string(shape, etype)))
        if etype.name == "f64":
            values = [f64_bits_to_float(v) for v in ints]
        elif etype.is_float:
            values = [f32_bits_to_float(v) for v in ints]  # exact f16/bf16 too
        else:
            values = ints
        out.append(Tensor(shape, etype, values))
    return out


def run_reference(args, program_text, calls, workdir):
    """Build, lower and run the wrapper; return a list of result lists."""
    wrapper = build_wrapper(program_text, calls)
    wrapper_path = os.path.join(workdir, "reference.mlir")
    with open(wrapper_path, "w") as f:
        f.write(wrapper)
    transform_path = os.path.join(workdir, "reference_transform.mlir")
    with open(transform_path, "w") as f:
        f.write(TRANSFORM_LIBRARY)
    lowered = os.path.join(workdir, "reference.llvm.mlir")
    passes = [p.format(transform=transform_path) for p in REFERENCE_PIPELINE]
    if re.search(r"\btosa\.", program_text):
        from_tosa = os.path.join(workdir, "reference.from_tosa.mlir")
        run_tool([args.mlir_opt, wrapper_path, TOSA_REFERENCE_PIPELINE,
                  "-o", from_tosa], "reference TOSA conversion (mlir-opt)",
                 args.timeout)
        wrapper_path = from_tosa
    run_tool([args.mlir_opt, wrapper_path] + passes + ["-o", lowered],
             "reference lowering (mlir-opt)", args.timeout)
    # Upstream quirk: arith.extf/truncf created by
    # math-extend-to-supported-types carry `fastmath = #arith.fastmath<...>`,
    # which survives as a discardable attribute on llvm.fpext/fptrunc and
    # which mlir-runner (no arith dialect) cannot parse. It means nothing on
    # fpext/fptrunc: drop it.
    with open(lowered) as f:
        text = f.read()
    patched = re.sub(r" \{fastmath = #arith\.fastmath<[^>]*>\}", "", text)
    if patched != text:
        with open(lowered, "w") as f:
            f.write(patched)
    lib_dir = args.mlir_lib_dir
    if lib_dir is None:
        runner = shutil.which(args.mlir_runner) or args.mlir_runner
        lib_dir = os.path.join(
            os.path.dirname(os.path.dirname(os.path.realpath(runner))), "lib")
    libs = ",".join(os.path.join(lib_dir, lib) for lib in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    stdout, _ = run_tool([args.mlir_runner, lowered, "-e", "__e2e_main",
                          "-entry-point-result=void", "-shared-libs=" + libs],
                         "reference run (mlir-runner)", args.timeout)
    all_types = [rt for call in calls for rt in call.result_types]
    flat = parse_memref_prints(stdout, all_types)
    out, pos = [], 0
    for call in calls:
        out.append(flat[pos:pos + len(call.result_types)])
        pos += len(call.result_types)
    return out


# ----------------------------------------------------------------------------
# kiln
# ----------------------------------------------------------------------------


def compile_kiln(args, program_path, workdir):
    module = os.path.join(workdir, "program.kiln")
    cmd = [args.kiln_compile, program_path, "-o", module] + args.compile_flag
    if args.variants:
        cmd.append("--cpu=" + args.variants)
    run_tool(cmd, "kiln-compile", args.timeout)
    return module


def variant_runs(args, kiln_run, module):
    """With --variants: the kiln-run flags of each run, one per code variant
    this machine can run (each forced by name), and a note of what ran.
    Checks that the module holds the variants asked for, that the one that
    runs unforced is the first this machine can run, and that forcing one
    it cannot run is refused for the instructions it lacks."""
    if not args.variants:
        return [()], ""
    kiln_dump = os.path.join(os.path.dirname(os.path.abspath(kiln_run)),
                             "kiln-dump")
    stdout, _ = run_tool([kiln_dump, module, "--json"], "kiln-dump",
                         args.timeout)
    summary = json.loads(stdout)
    names = [v["name"] for v in summary["variants"]]
    if names != args.variants.split(","):
        raise E2EError("the module's code variants are %s, not --variants=%s"
                       % (",".join(names), args.variants))
    runnable = [v["name"] for v in summary["variants"] if v["supported"]]
    if summary["variant"] != (runnable[0] if runnable else None):
        raise E2EError("code variant %s runs, not the first this machine can "
                       "run (%s)" % (summary["variant"], runnable))
    for name in names:
        if name in runnable:
            continue
        refused = subprocess.run(
            [kiln_run, module, "--list-functions", "--variant=" + name],
            capture_output=True, text=True, timeout=args.timeout)
        if refused.returncode == 0 or "lacks" not in refused.stderr:
            raise E2EError("forcing code variant %s, which this machine cannot "
                           "run, was not refused for what it lacks:\n%s"
                           % (name, tail(refused.stderr)))
    note = "; code variants %s each ran%s" % (
        ", ".join(runnable),
        "".join(", %s refused" % n for n in names if n not in runnable))
    return [("--variant=" + name,) for name in runnable], note


def run_kiln(args, kiln_run, module, call, ci, workdir, flags=()):
    """Run one call with kiln-run (and `flags`); return its results as
    Tensors."""
    cmd = [kiln_run, module, "--function=" + call.function,
           "--guard-pages"] + args.run_flag + list(flags)
    for ii, t in enumerate(call.inputs):
        if t.etype.npy is None:
            cmd.append("--input=" + t.text(exact=True))
        else:
            path = os.path.join(workdir, "call%d_input%d.npy" % (ci, ii))
            write_npy(path, t)
            cmd.append("--input=@" + path)
    out_paths = []
    for k, (_, etype) in enumerate(call.result_types):
        if etype.npy is None:
            cmd.append("--output=-")
            out_paths.append(None)
        else:
            path = os.path.join(workdir, "call%d_result%d.npy" % (ci, k))
            if os.path.exists(path):
                os.remove(path)
            cmd.append("--output=@" + path)
            out_paths.append(path)
    stdout, _ = run_tool(cmd, "kiln-run", args.timeout)
    printed = [l for l in stdout.splitlines() if SPEC_RE.match(l.strip())]
    results = []
    for k, path in enumerate(out_paths):
        if path is None:
            if not printed:
                raise E2EError("kiln-run printed no value for result %d:\n%s"
                               % (k, tail(stdout)))
            results.append(parse_printed_tensor(printed.pop(0)))
        else:
            if not os.path.exists(path):
                raise E2EError("kiln-run did not write result %d to %s" % (k, path))
            results.append(read_npy(path))
    return results


# ----------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------


def float_close(got, exp, rtol, atol):
    if math.isnan(exp) or math.isnan(got):
        return math.isnan(exp) and math.isnan(got)
    if math.isinf(exp) or math.isinf(got):
        return got == exp
    return abs(got - exp) <= atol + rtol * abs(exp)


def compare(got, exp, tolerance, label, max_report):
    """Return (ok, report lines, stats) comparing two Tensors."""
    if got.etype.name != exp.etype.name or got.shape != exp.shape:
        return False, ["%s: type mismatch: expected %s, got %s"
                       % (label, exp.type_str, got.type_str)], None
    et = exp.etype
    rtol, atol = (tolerance or DEFAULT_TOLERANCE.get(et.name, (0, 0)))
    bad = []
    max_abs, max_abs_at, max_rel = 0.0, None, 0.0
    for i, (g, e) in enumerate(zip(got.values, exp.values)):
        if et.is_float:
            ok = float_close(g, e, rtol, atol)
            if not (math.isnan(g) or math.isnan(e) or math.isinf(g) or math.isinf(e)):
                d = abs(g - e)
                if d > max_abs or max_abs_at is None:
                    max_abs, max_abs_at = d, i
                if e != 0:
                    max_rel = max(max_rel, d / abs(e))
        else:
            ok = g == e
            if not ok:
                d = abs(g - e)
                if d > max_abs or max_abs_at is None:
                    max_abs, max_abs_at = d, i
        if not ok:
            bad.append(i)
    stats = {"max_abs": max_abs, "max_rel": max_rel, "n": len(exp.values)}
    if not bad:
        return True, [], stats
    n = len(exp.values)
    lines = ["%s (%s): %d of %d elements differ%s" % (
        label, exp.type_str, len(bad), n,
        " (rtol=%g atol=%g)" % (rtol, atol) if et.is_float else " (exact)")]
    lines.append("  first mismatch at index %s: expected %s, got %s"
                 % (list(unravel(bad[0], exp.shape)),
                    format_value(exp.values[bad[0]], et),
                    format_value(got.values[bad[0]], et)))
    lines.append("  %-18s %-24s %-24s %s" % ("index", "expected", "got", "abs err"))
    for i in bad[:max_report]:
        g, e = got.values[i], exp.values[i]
        err = abs(g - e) if not (et.is_float and (math.isnan(g) or math.isnan(e))) else float("nan")
        lines.append("  %-18s %-24s %-24s %.3g" % (
            str(list(unravel(i, exp.shape))), format_value(e, et), format_value(g, et), err))
    if len(bad) > max_report:
        lines.append("  ... %d more" % (len(bad) - max_report))
    if max_abs_at is not None:
        lines.append("  max abs err %.6g at %s (expected %s, got %s)%s"
                     % (max_abs, list(unravel(max_abs_at, exp.shape)),
                        format_value(exp.values[max_abs_at], et),
                        format_value(got.values[max_abs_at], et),
                        "; max rel err %.3g" % max_rel if et.is_float else ""))
    if n <= 64:
        lines.append("  expected: %s" % " ".join(format_value(v, et) for v in exp.values))
        lines.append("  got:      %s" % " ".join(format_value(v, et) for v in got.values))
    return False, lines, stats


# ----------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Compile a program with kiln, run it, and compare its "
                    "results with upstream MLIR (mlir-opt + mlir-runner).")
    p.add_argument("program", help="the .mlir program with directives")
    p.add_argument("-o", "--work-dir", default=None,
                   help="directory for intermediate files (default: a temp dir)")
    p.add_argument("--kiln-compile", default="kiln-compile")
    p.add_argument("--kiln-run", default="kiln-run",
                   help="kiln-run (default: the one beside kiln-compile)")
    p.add_argument("--mlir-opt", default="mlir-opt")
    p.add_argument("--mlir-runner", default="mlir-runner")
    p.add_argument("--mlir-lib-dir", default=None,
                   help="directory of libmlir_runner_utils.so (default: the "
                        "lib/ beside the bin/ of mlir-runner)")
    p.add_argument("--compile-flag", action="append", default=[],
                   help="extra kiln-compile flag (repeatable)")
    p.add_argument("--run-flag", action="append", default=[],
                   help="extra kiln-run flag (repeatable)")
    p.add_argument("--variants", default=None,
                   help="compile with --cpu=VARIANTS (a list of CPUs) and run "
                        "every code variant this machine can run, each "
                        "compared with the reference")
    p.add_argument("--reference-only", action="store_true",
                   help="only compute and print the reference")
    p.add_argument("--print-values", action="store_true",
                   help="print expected and actual values")
    p.add_argument("--max-report", type=int, default=10,
                   help="mismatching elements listed per result")
    p.add_argument("--timeout", type=float, default=600)
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    name = os.path.basename(args.program)
    try:
        with open(args.program) as f:
            program_text = f.read()
        calls = parse_directives(program_text)
        if args.work_dir:
            workdir = args.work_dir
            os.makedirs(workdir, exist_ok=True)
        else:
            import tempfile
            workdir = tempfile.mkdtemp(prefix="kiln_e2e_")

        # Signatures, from upstream's own parse of the program.
        printed, _ = run_tool([args.mlir_opt, args.program, "--mlir-print-debuginfo=false"],
                              "parsing the program (mlir-opt)", args.timeout)
        for call in calls:
            call.arg_types, call.result_types = function_signature(printed, call.function)
            if len(call.inputs) != len(call.arg_types):
                raise E2EError("@%s takes %d arguments but %d INPUT lines are given"
                               % (call.function, len(call.arg_types), len(call.inputs)))
            for ii, (t, (shape, etype)) in enumerate(zip(call.inputs, call.arg_types)):
                if not shape_matches(t.shape, shape) or t.etype is not etype:
                    raise E2EError("@%s input %d is %s but the argument is %s"
                                   % (call.function, ii, t.type_str,
                                      type_string(shape, etype)))

        expected = run_reference(args, program_text, calls, workdir)
        if args.reference_only:
            for call, results in zip(calls, expected):
                for t in results:
                    print("@%s: %s" % (call.function, t.text()))
            return 0

        kiln_run = find_kiln_run(args.kiln_run, args.kiln_compile)
        module = compile_kiln(args, args.program, workdir)
        runs, variant_note = variant_runs(args, kiln_run, module)
        failures, summary = [], []
        worst_abs = 0.0
        nelem = 0
        for flags, (ci, (call, exp_results)) in itertools.product(
                runs, enumerate(zip(calls, expected))):
            got_results = run_kiln(args, kiln_run, module, call, ci, workdir,
                                   flags)
            if len(got_results) != len(exp_results):
                failures.append("@%s: expected %d results, kiln-run gave %d"
                                % (call.function, len(exp_results), len(got_results)))
                continue
            for k, (g, e) in enumerate(zip(got_results, exp_results)):
                label = "@%s result %d%s" % (call.function, k,
                                             " (%s)" % flags[0] if flags else "")
                if args.print_values:
                    print("%s expected: %s" % (label, e.text()))
                    print("%s got:      %s" % (label, g.text()))
                ok, lines, stats = compare(g, e, call.tolerance, label, args.max_report)
                if not ok:
                    failures.append("\n".join(lines))
                if stats:
                    nelem += stats["n"]
                    if e.etype.is_float:
                        worst_abs = max(worst_abs, stats["max_abs"])
            if flags == runs[0]:
                summary.append("@%s -> %s" % (
                    call.function,
                    ", ".join(t.type_str for t in exp_results) or "()"))
        if failures:
            print("FAIL %s: kiln results differ from the upstream MLIR reference"
                  % name)
            for f in failures:
                print(f)
            return 1
        print("PASS %s: %s; %d elements match (max float abs err %.3g)%s"
              % (name, "; ".join(summary), nelem, worst_abs, variant_note))
        return 0
    except E2EError as e:
        print("FAIL %s: %s" % (name, e))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
