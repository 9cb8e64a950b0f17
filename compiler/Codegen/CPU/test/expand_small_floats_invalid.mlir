// RUN: kiln-opt %s -split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(kiln-cpu-expand-small-floats))"

// Tests that a narrowing with another rounding mode than to nearest even is
// refused at its op.
func.func @rounding_mode(%a: f32) -> f8E4M3FN {
  // expected-error @below {{'arith.truncf' to 'f8E4M3FN' rounds to nearest even only}}
  %r = arith.truncf %a toward_zero : f32 to f8E4M3FN
  return %r : f8E4M3FN
}

// -----

// Tests that an op with no f32 form in the emulation is reported.
func.func @fma(%a: f8E4M3FN) -> f8E4M3FN {
  // expected-error @below {{kiln cannot compute 'math.fma' on floats of at most 8 bits}}
  %r = math.fma %a, %a, %a : f8E4M3FN
  return %r : f8E4M3FN
}
