// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" | FileCheck %s --check-prefix=RESOURCE

// Tests that the variant's text is stored as a resource under its path, that
// the export records the line of its entry function in that text, and that
// the compiler's own IR keeps the locations of the input.

// CHECK-LABEL: kiln.executable @ex
//       CHECK:   kiln.executable.variant @cpu target("llvm-cpu") attributes {
//  CHECK-SAME:       kiln.sources = {"m-0123abcd_ex_cpu.0.source.mlir" = dense_resource<"m-0123abcd_ex_cpu.0.source.mlir"> : tensor<[[SIZE:[0-9]+]]xi8>}
//       CHECK:     kiln.executable.export @entry ordinal(0) bindings(2)
//  CHECK-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_ex_cpu.0.source.mlir":6:{{[0-9]+}})}
//  CHECK-SAME:       loc("input.mlir":3:5)
//       CHECK:     func.func @entry()
//       CHECK:       math.exp {{.*}} loc("input.mlir":11:7)
// The text itself, as a builtin resource: "#map = affine_map<" in hex.
//       RESOURCE: dialect_resources: {
//       RESOURCE:   builtin: {
//       RESOURCE:     "m-0123abcd_ex_cpu.0.source.mlir": "0x01000000236D6170203D20616666696E655F6D61703C
kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(2) loc("input.mlir":3:5)
    builtin.module {
      func.func @entry() {
        %0 = kiln.binding 0 : memref<4xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
        %e = tensor.empty() : tensor<4xf32>
        %2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32 loc("input.mlir":11:7)
          linalg.yield %y : f32
        } -> tensor<4xf32>
        %3 = kiln.binding 1 : memref<4xf32>
        bufferization.materialize_in_destination %2 in restrict writable %3 : (tensor<4xf32>, memref<4xf32>) -> ()
        return
      }
    }
  }
}
