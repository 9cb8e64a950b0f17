// Tests that --mlir-timing reports the passes and what follows them: the
// library (LLVM and the linker) and the module file.
//
// RUN: kiln-compile %s -o %t.kiln --mlir-timing --mlir-timing-display=list 2>&1 | FileCheck %s
// CHECK: Execution time report
// CHECK-DAG: Passes
// CHECK-DAG: Canonicalizer
// CHECK-DAG: Library (LLVM, ld.lld)
// CHECK-DAG: Module serialization
// CHECK: Total

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
