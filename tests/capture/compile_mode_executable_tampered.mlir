// Tests that a stage text whose export declares something its kernel does
// not do is an error at its location: what the export declares becomes the
// library's description of its code, which keeps the kernel in bounds at run
// time.
//
// The workgroup count must be the grid the workgroup loop was built for.
// RUN: sed 's/workgroups(\[1, 1, 1\])/workgroups([4, 1, 1])/' %S/Inputs/matmul_bias_relu.1.configured.mlir > %t.count.mlir
// RUN: not kiln-compile %t.count.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: count.mlir:5:5: error: declares workgroup count [4, 1, 1] but its kernel is built for [1, 1, 1]
// RUN: kiln-compile %S/Inputs/elementwise_523x611.1.configured.mlir --compile-mode=executable -o %t.grid.kiln
// RUN: sed 's/workgroups(\[21, 1, 1\])/workgroups([22, 1, 1])/' %S/Inputs/elementwise_523x611.1.configured.mlir > %t.grid.mlir
// RUN: not kiln-compile %t.grid.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=GRID -DCOUNT=22
// RUN: sed 's/workgroups(\[21, 1, 1\])/workgroups([20, 1, 1])/' %S/Inputs/elementwise_523x611.1.configured.mlir > %t.grid.mlir
// RUN: not kiln-compile %t.grid.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=GRID -DCOUNT=20
// GRID: grid.mlir:4:5: error: declares workgroup count [[[COUNT]], 1, 1] but its kernel is built for [21, 1, 1]
// GRID: grid.mlir:{{[0-9]+}}:{{[0-9]+}}: note: workgroup loop here
//
// Binding types must be the kernel's memref types.
// RUN: sed '5s/tensor<16xf32>/tensor<32xf32>/' %S/Inputs/matmul_bias_relu.1.configured.mlir > %t.type.mlir
// RUN: not kiln-compile %t.type.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: sed '5s/tensor<16xf32>/tensor<16xi32>/' %S/Inputs/matmul_bias_relu.0.source.mlir > %t.type0.mlir
// RUN: not kiln-compile %t.type0.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: type{{0?}}.mlir:13:14: error: binding 2 is 'memref<16xf32>' but export main_dispatch_0_matmul_4x16x8_f32 declares tensor<{{32xf32|16xi32}}>
//
// Binding indices must be below the binding count.
// RUN: sed 's/kiln.binding 3 :/kiln.binding 4 :/' %S/Inputs/matmul_bias_relu.1.configured.mlir > %t.index.mlir
// RUN: not kiln-compile %t.index.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: index.mlir:24:15: error: binds index 4 but export main_dispatch_0_matmul_4x16x8_f32 has 4 bindings
//
// Only the last bindings (the outputs) may be written, and a declared
// output count must be the kernel's.
// RUN: sed 's/kiln.binding 3 :/kiln.binding 2 :/; s/kiln.binding 2 : memref<16xf32>/kiln.binding 3 : memref<16xf32>/; 5s/tensor<16xf32>, tensor<4x16xf32>/tensor<4x16xf32>, tensor<16xf32>/' %S/Inputs/matmul_bias_relu.1.configured.mlir > %t.order.mlir
// RUN: not kiln-compile %t.order.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: order.mlir:5:5: error: kernel writes binding 2 but not binding 3 after it: written bindings (outputs) must come last
// RUN: sed '5s/tensor<4x16xf32>\]}/tensor<4x16xf32>], outputs = 2 : index}/' %S/Inputs/matmul_bias_relu.1.configured.mlir > %t.outputs.mlir
// RUN: not kiln-compile %t.outputs.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: outputs.mlir:5:5: error: declares 2 outputs but its kernel writes the last 1 bindings
//
// The stage texts as captured compile, and the outputs are derived.
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.1.configured.mlir --compile-mode=executable --compile-to=codegen -o - | FileCheck %s --check-prefix=DERIVED
// DERIVED: kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(4) workgroups([1, 1, 1]) {binding_types = [tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<4x16xf32>], outputs = 1 : index}
//
// A 2.translated text is LLVM code: its export must declare its outputs.
// RUN: sed '3s/, outputs = 1 : index//' %S/Inputs/matmul_bias_relu.2.translated.mlir > %t.translated.mlir
// RUN: not kiln-compile %t.translated.mlir --compile-mode=executable -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TRANSLATED
// TRANSLATED: translated.mlir:3:5: error: export needs `outputs` (at most 4, the bindings its code writes, last)
