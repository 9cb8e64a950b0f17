// RUN: kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s --check-prefix=LENIENT
// RUN: kiln-run %t.kiln --input=4xi32=-5,3,10,99 | FileCheck %s --check-prefix=RESULT
// RUN: not kiln-compile %s --tosa-validation=strict -o %t.strict.kiln 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not test -e %t.strict.kiln

// Tests that a TOSA op upstream lowers but no TOSA profile allows (clamp on
// i32) compiles with a warning at its line by default, runs, and is an error
// with --tosa-validation=strict.
// LENIENT: tosa_validation.mlir:16:8: warning: 'tosa.clamp' leaves the target's TOSA profiles: {{.*}} got (i32,i32){{.*}}--tosa-validation=strict refuses it)
// RESULT: 4xi32=0 3 10 10
// STRICT-NOT: warning
// STRICT: tosa_validation.mlir:16:8: error: 'tosa.clamp' op illegal: operation operand/result data types did not align with any profile or extension
// STRICT-NOT: warning

func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %r = tosa.clamp %a {min_val = 0 : i32, max_val = 10 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
