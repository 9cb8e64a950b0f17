// Conversions between f32/f64 and every float type of at most 8 bits,
// compiled and in the runtime's text parser, checked against llvm::APFloat:
// every encoding widened, and a grid of values around every rounding
// boundary narrowed (see Inputs/small_float_cases.py).
//
// RUN: %python %S/Inputs/small_float_cases.py program > %t.mlir
// RUN: kiln-compile %t.mlir -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: %python %S/Inputs/small_float_cases.py parse kiln-run %t.kiln | FileCheck %s --check-prefix=PARSE

// CHECK: values_f8E5M2: PASS
// CHECK: extf_f8E5M2: PASS
// CHECK: truncf_f8E5M2: PASS
// CHECK: truncf64_f8E5M2: PASS
// CHECK: values_f8E4M3FN: PASS
// CHECK: extf_f8E4M3FN: PASS
// CHECK: truncf_f8E4M3FN: PASS
// CHECK: truncf64_f8E4M3FN: PASS
// CHECK: values_f8E5M2FNUZ: PASS
// CHECK: extf_f8E5M2FNUZ: PASS
// CHECK: truncf_f8E5M2FNUZ: PASS
// CHECK: truncf64_f8E5M2FNUZ: PASS
// CHECK: values_f8E4M3FNUZ: PASS
// CHECK: extf_f8E4M3FNUZ: PASS
// CHECK: truncf_f8E4M3FNUZ: PASS
// CHECK: truncf64_f8E4M3FNUZ: PASS
// CHECK: values_f8E8M0FNU: PASS
// CHECK: extf_f8E8M0FNU: PASS
// CHECK: truncf_f8E8M0FNU: PASS
// CHECK: truncf64_f8E8M0FNU: PASS
// CHECK: values_f4E2M1FN: PASS
// CHECK: extf_f4E2M1FN: PASS
// CHECK: truncf_f4E2M1FN: PASS
// CHECK: truncf64_f4E2M1FN: PASS
// CHECK: 24 passed, 0 failed

// PARSE: parse_f8E5M2: PASS
// PARSE-NEXT: parse_f8E4M3FN: PASS
// PARSE-NEXT: parse_f8E5M2FNUZ: PASS
// PARSE-NEXT: parse_f8E4M3FNUZ: PASS
// PARSE-NEXT: parse_f8E8M0FNU: PASS
// PARSE-NEXT: parse_f4E2M1FN: PASS
