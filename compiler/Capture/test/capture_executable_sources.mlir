// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" | FileCheck %s --check-prefix=RESOURCE
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd}, kiln-capture-executable-sources{stage=1.configured module-name=m-0123abcd})))" --mlir-print-local-scope | FileCheck %s --check-prefix=TWICE
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd record-op-lines=true})))" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LINES

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

// With record-op-lines, each op of the module keeps its location inside a
// tag holding its line in the text (the entry function's is the export's);
// the export and the variant, outside the module, are not tagged.
// LINES-LABEL: kiln.executable @ex
//       LINES:     kiln.executable.export @entry {{.*}} loc("input.mlir":3:5)
//       LINES:       math.exp {{.*}} loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":12:10)>["input.mlir":11:7])
//       LINES:     } loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":6:6)>[{{.*}}])
//       LINES:   } loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":5:4)>[{{.*}}])
//       LINES:   } loc("{{.*}}capture_executable_sources.mlir":{{[0-9]+}}:3)
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

// -----

// Tests that each export of a variant records the line of its own entry
// function (columns count from 0, as the printer's do).

// CHECK-LABEL: kiln.executable @two
//       CHECK:   kiln.executable.export @first
//  CHECK-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_two_cpu.0.source.mlir":6:6)}
//       CHECK:   kiln.executable.export @second
//  CHECK-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_two_cpu.0.source.mlir":9:6)}
kiln.executable @two {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @first ordinal(0) bindings(0) loc("input.mlir":3:5)
    kiln.executable.export @second ordinal(1) bindings(1) loc("input.mlir":4:5)
    builtin.module {
      func.func @first() {
        return
      }
      func.func @second() {
        %0 = kiln.binding 0 : memref<4xf32>
        return
      }
    }
  }
}

// -----

// Tests that an export with no entry function in the variant's module is
// located at its own line.

// CHECK-LABEL: kiln.executable @outside
//       CHECK:   kiln.executable.export @no_function
//  CHECK-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_outside_cpu.0.source.mlir":3:4)}
kiln.executable @outside {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @no_function ordinal(0) bindings(0) loc("input.mlir":3:5)
    builtin.module {
    }
  }
}

// -----

// Tests that a second stage adds its text and location beside the first
// and that the first capture is not part of the second text: the texts
// differ only by the stage name, 8 bytes against 12.

// TWICE-LABEL: kiln.executable @stages
//       TWICE:   kiln.sources = {"m-0123abcd_stages_cpu.0.source.mlir" = dense_resource<"m-0123abcd_stages_cpu.0.source.mlir"> : tensor<[[#SIZE:]]xi8>,
//  TWICE-SAME:       "m-0123abcd_stages_cpu.1.configured.mlir" = dense_resource<"m-0123abcd_stages_cpu.1.configured.mlir"> : tensor<[[#SIZE+4]]xi8>}
//       TWICE:   kiln.executable.export @entry
//  TWICE-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_stages_cpu.0.source.mlir":5:6), "1.configured" = loc("m-0123abcd_stages_cpu.1.configured.mlir":5:6)}
kiln.executable @stages {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(0) loc("input.mlir":3:5)
    builtin.module {
      func.func @entry() {
        return
      }
    }
  }
}
