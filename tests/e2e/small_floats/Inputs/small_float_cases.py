"""Conversions between f32/f64 and the floats of at most 8 bits, checked
against llvm::APFloat.

`program` prints a kiln test program whose expected values are decimal
literals: kiln-compile's parser converts them to the small type with APFloat
(round to nearest even), so every check compares a kernel's conversion (or
the runtime's) with APFloat's. For each type T:

  values_T     each encoding's value, as a literal, reads back as that
               encoding (APFloat agrees with the values extf_T expects)
  extf_T       every encoding widened to f32, compared bit for bit
  truncf_T     a grid of f32 values narrowed: every finite value of T and
               its f32 neighbours, every midpoint between consecutive values
               and its neighbours, the overflow boundary, f32 subnormals,
               zeros, both signs; infinities and NaNs
  truncf64_T   the grid from f64, with values within 2^-40 of each midpoint
               (which an f32 step would round onto the midpoint)
  parse_T(%x)  checks its argument against the literals of the grid values
               T holds

`parse KILN_RUN MODULE` calls every parse_T with those values as kiln-run
--input text, so the runtime's parser is checked against APFloat as well.

Where kiln's rules (runtime/base/float_convert.h) differ from APFloat, or no
literal exists (infinities, NaNs), the expected value is written as bits:
  - f4E2M1FN: an infinity saturates to +-6 (APFloat: +-0);
  - f8E8M0FNU: a negative value is NaN (APFloat: NaN for some, the nearest
    power of two of the magnitude for others), and 0xFF widens to NaN
    (APFloat: infinity).
Only the Python standard library is used.
"""
import math
import struct
import subprocess
import sys

# name: (exponent bits, mantissa bits, bias, signed, what lies beyond the
# finite numbers: "ieee" infinities and NaNs, "nan" the all-ones NaN only,
# "fnuz" NaN as the sign bit alone, "none", "e8m0" powers of two, 0xFF NaN)
FORMATS = {
    "f8E5M2": (5, 2, 15, True, "ieee"),
    "f8E4M3FN": (4, 3, 7, True, "nan"),
    "f8E5M2FNUZ": (5, 2, 16, True, "fnuz"),
    "f8E4M3FNUZ": (4, 3, 8, True, "fnuz"),
    "f8E8M0FNU": (8, 0, 127, False, "e8m0"),
    "f4E2M1FN": (2, 1, 1, True, "none"),
}
QUIET_NAN32 = 0x7FC00000


def bits32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def from32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def is_f32(x):
    return math.isfinite(x) and abs(x) <= 3.4028234663852886e38 and \
        from32(bits32(x)) == x


def next32(x, up):
    """The f32 after (up) or before x >= 0."""
    b = bits32(x)
    if up:
        return from32(b + 1)
    return from32(b - 1) if b else -from32(1)


def literal(x):
    """x as an MLIR float literal (a decimal point is required)."""
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    text = repr(x)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


class Format:
    def __init__(self, name):
        self.name = name
        (self.e, self.m, self.bias, self.signed,
         self.kind) = FORMATS[name]
        self.width = self.e + self.m + (1 if self.signed else 0)
        self.sign_mask = 1 << (self.width - 1) if self.signed else 0
        self.magnitude_mask = (1 << (self.e + self.m)) - 1

    def decode(self, code):
        """(value, None) for a number, (None, f32 bits) for a NaN."""
        negative = bool(code & self.sign_mask)
        magnitude = code & self.magnitude_mask
        exponent, fraction = magnitude >> self.m, magnitude & ((1 << self.m) - 1)
        sign32 = 0x80000000 if negative else 0
        payload = fraction << (23 - self.m)
        if self.kind == "e8m0":
            if code == 0xFF:
                return None, QUIET_NAN32
            return 2.0 ** (code - self.bias), None
        if self.kind == "fnuz" and code == self.sign_mask:
            return None, QUIET_NAN32
        if self.kind == "ieee" and exponent == (1 << self.e) - 1:
            if fraction == 0:
                return (-math.inf if negative else math.inf), None
            return None, sign32 | QUIET_NAN32 | payload
        if self.kind == "nan" and magnitude == self.magnitude_mask:
            return None, sign32 | QUIET_NAN32 | payload
        if exponent == 0:
            value = fraction * 2.0 ** (1 - self.bias - self.m)
        else:
            value = (1 + fraction / 2 ** self.m) * 2.0 ** (exponent - self.bias)
        return (-value if negative else value), None

    def finite_values(self):
        """The finite values of sign +, ascending."""
        codes = range(1 << self.width) if not self.signed else \
            range(self.sign_mask)
        values = []
        for code in codes:
            value, _ = self.decode(code)
            if value is not None and math.isfinite(value):
                values.append(value)
        return sorted(values)

    def overflow_midpoint(self):
        """Where rounding to nearest leaves the finite values."""
        values = self.finite_values()
        top = values[-1]
        beyond = 2 * top if self.m == 0 else top + (top - values[-2])
        return (top + beyond) / 2

    def nonfinite_bits(self, negative, nan, payload, payload_bits):
        """kiln's narrowing of an infinity or NaN (the rules of
        float_convert.h; APFloat's too but for f4E2M1FN's infinities)."""
        sign = self.sign_mask if negative else 0
        if self.kind == "ieee":
            exponent = ((1 << self.e) - 1) << self.m
            if not nan:
                return sign | exponent
            return (sign | exponent | (1 << (self.m - 1)) |
                    (payload >> (payload_bits - self.m)))
        if self.kind == "nan":
            return sign | self.magnitude_mask
        if self.kind == "fnuz":
            return self.sign_mask
        if self.kind == "e8m0":
            return 0xFF
        # none: NaN is a zero, an infinity the largest value
        return sign if nan else sign | self.magnitude_mask

    def grid(self):
        """Nonnegative f32 values around every rounding boundary."""
        values = self.finite_values()
        points = set()

        def add(x):
            if is_f32(x):
                points.add(x)
                if x > 0:
                    points.add(next32(x, up=False))
                points.add(next32(x, up=True))

        for value in values:
            add(value)
        for low, high in zip(values, values[1:]):
            add((low + high) / 2)
        over = self.overflow_midpoint()
        add(over)
        add(2 * over)
        for b in (0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF):
            points.add(from32(b))
        return sorted(points)

    def midpoints(self):
        values = self.finite_values()
        mids = [(low + high) / 2 for low, high in zip(values, values[1:])]
        return mids + [self.overflow_midpoint()]

    def in_range(self, x):
        """Whether the runtime's parser takes x (float_convert.h)."""
        if self.kind == "e8m0" and not x > 0:
            return False
        return abs(x) < self.overflow_midpoint()

    def expected(self, x):
        """The expected literal (or bits) of finite x narrowed."""
        if self.kind == "e8m0" and x < 0:
            return "0xFF"
        return literal(x)


def signed_grid(fmt):
    grid = fmt.grid()
    return grid + [-x for x in grid]


def tensor(values, type_name):
    return "dense<[%s]> : tensor<%dx%s>" % (", ".join(values), len(values),
                                             type_name)


def hex32(b):
    return "0x%08X" % b


def check_function(name, inputs, input_type, op, expected, result_type):
    """A function checking `op` (none, arith.extf or arith.truncf) of the
    unfoldable `inputs` against `expected`."""
    n = len(inputs)
    lines = ["func.func @%s() {" % name,
             "  %%x = util.unfoldable_constant %s" % tensor(inputs, input_type)]
    value = "%x"
    if op:
        lines.append("  %%r = %s %%x : tensor<%dx%s> to tensor<%dx%s>" %
                     (op, n, input_type, n, result_type))
        value = "%r"
    lines.append("  check.expect_eq_const(%s, %s) : tensor<%dx%s>" %
                 (value, tensor(expected, result_type), n, result_type))
    lines.append("  return\n}")
    return "\n".join(lines)


def nonfinite_cases(fmt, sources, width, mantissa):
    """The bits of non-finite sources and what narrowing makes of them."""
    inputs, expected = [], []
    sign_bit = 1 << (width - 1)
    infinity = ((1 << (width - 1)) - 1) & ~((1 << mantissa) - 1)
    for b in sources:
        inputs.append("0x%0*X" % (width // 4, b))
        expected.append("0x%02X" % fmt.nonfinite_bits(
            bool(b & sign_bit), (b & (sign_bit - 1)) > infinity,
            b & ((1 << mantissa) - 1), mantissa))
    return inputs, expected


def print_program():
    out = []
    for name in FORMATS:
        fmt = Format(name)
        codes = ["0x%02X" % c for c in range(1 << fmt.width)]
        decoded = [fmt.decode(c) for c in range(1 << fmt.width)]
        # values_T: APFloat reads each value back as its encoding.
        literals = [literal(v) if v is not None and math.isfinite(v) else code
                    for code, (v, _) in zip(codes, decoded)]
        out.append(check_function("values_" + name, codes, name, None,
                                  literals, name))
        # extf_T: bit for bit (NaN: quiet, sign and payload kept).
        expected = []
        for v, nan in decoded:
            if v is None:
                expected.append(hex32(nan))
            elif math.isinf(v):
                expected.append(hex32(0xFF800000 if v < 0 else 0x7F800000))
            else:
                expected.append(literal(v))
        out.append(check_function("extf_" + name, codes, name, "arith.extf",
                                  expected, "f32"))
        # truncf_T: the grid and the non-finite values.
        grid = signed_grid(fmt)
        inputs, expected = nonfinite_cases(
            fmt, (0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                  0x7FFFFFFF, 0xFFA00000), 32, 23)
        inputs += [hex32(bits32(x)) for x in grid]
        expected += [fmt.expected(x) for x in grid]
        out.append(check_function("truncf_" + name, inputs, "f32",
                                  "arith.truncf", expected, name))
        # truncf64_T: one rounding from f64.
        points = list(grid)
        for mid in fmt.midpoints():
            for scale in (1 + 2.0 ** -40, 1 - 2.0 ** -40):
                points += [mid * scale, -mid * scale]
        inputs, expected = nonfinite_cases(
            fmt, (0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                  0x7FFFFFFFFFFFFFFF, 0xFFF4000000000000), 64, 52)
        inputs += ["0x%016X" % bits64(x) for x in points]
        expected += [fmt.expected(x) for x in points]
        out.append(check_function("truncf64_" + name, inputs, "f64",
                                  "arith.truncf", expected, name))
        # parse_T: the values the runtime's parser takes.
        values = [x for x in grid if fmt.in_range(x)]
        n = len(values)
        out.append("func.func @parse_%s(%%x: tensor<%dx%s>) {" % (name, n, name))
        out.append("  check.expect_eq_const(%%x, %s) : tensor<%dx%s>" %
                   (tensor([literal(x) for x in values], name), n, name))
        out.append("  return\n}")
    print("\n".join(out))


def run_parse(kiln_run, module):
    failed = 0
    for name in FORMATS:
        fmt = Format(name)
        values = [x for x in signed_grid(fmt) if fmt.in_range(x)]
        text = "%dx%s=%s" % (len(values), name,
                             ",".join(repr(x) for x in values))
        result = subprocess.run(
            [kiln_run, module, "--function=parse_" + name, "--input=" + text],
            capture_output=True, text=True)
        ok = result.returncode == 0
        print("parse_%s: %s" % (name, "PASS" if ok else "FAIL"))
        if not ok:
            failed += 1
            sys.stdout.write(result.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["program"]:
        print_program()
    elif sys.argv[1:2] == ["parse"] and len(sys.argv) == 4:
        sys.exit(run_parse(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: small_float_cases.py program | parse KILN_RUN MODULE")
