// RUN: python3 -c "print('func.func @main(%%x: tensor<4xf32>) -> tensor<4xf32> attributes {a = ' + '[' * 100000 + ']' * 100000 + '} {\n  return %%x : tensor<4xf32>\n}')" > %t.mlir
// RUN: not kiln-compile %t.mlir -o %t.kiln 2>&1 | FileCheck %s
// RUN: python3 -c "print('func.func @main(%%x: tensor<4xf32>) -> tensor<4xf32> attributes {a = \"' + '[' * 5000 + '\"} { // ' + '(' * 5000 + '\n  return %%x : tensor<4xf32>\n}')" > %t.quoted.mlir
// RUN: kiln-compile %t.quoted.mlir -o %t.kiln

// Tests that an input nested too deep for the parser's stack is an error at
// the bracket that goes one level too far, not a crash; and that brackets in
// strings and comments do not count.
// CHECK: .mlir:1:1068: error: the input nests deeper than 1000 levels of brackets, more than kiln compiles
