// Tests what a module carries at each --executable-debug-level, as kiln-dump
// reads it, and that all executables linked into one library keep their
// captured texts and stage locations.
//
// RUN: kiln-compile %s --executable-debug-level=0 -o %t.0.kiln
// RUN: kiln-compile %s --executable-debug-level=1 -o %t.1.kiln
// RUN: kiln-compile %s --executable-debug-level=2 -o %t.2.kiln
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.3.kiln
// RUN: kiln-dump %t.0.kiln --json | %python %S/Inputs/summarize_debug_info.py | FileCheck %s --check-prefix=LEVEL0
// RUN: kiln-dump %t.1.kiln --json | %python %S/Inputs/summarize_debug_info.py | FileCheck %s --check-prefix=LEVEL1
// RUN: kiln-dump %t.2.kiln --json | %python %S/Inputs/summarize_debug_info.py | FileCheck %s --check-prefix=LEVEL2
// RUN: kiln-dump %t.3.kiln --json | %python %S/Inputs/summarize_debug_info.py | FileCheck %s --check-prefix=LEVEL3

// LEVEL0: debug level 0, 1 libraries, 2 executables, 2 exports
// LEVEL0: exports with a location: 0
// LEVEL0: exports with provenance: 0
// LEVEL0: exports with stage locations: 0
// LEVEL0: source files: 0

// LEVEL1: debug level 1, 1 libraries, 2 executables, 2 exports
// LEVEL1: exports with a location: 2
// LEVEL1: exports with provenance: 0

// LEVEL2: debug level 2, 1 libraries, 2 executables, 2 exports
// LEVEL2: exports with a location: 2
// LEVEL2: exports with provenance: 2
// LEVEL2: exports with stage locations: 0
// LEVEL2: source files: 0

// LEVEL3: debug level 3, 1 libraries, 2 executables, 2 exports
// LEVEL3: capture stages: 0.source, 1.configured, 2.translated
// LEVEL3: exports with a location: 2
// LEVEL3: exports with provenance: 2
// LEVEL3: exports with stage locations: 2 (3 each)
// LEVEL3: source files: 6

func.func @main(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.transpose ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%t, %m : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
