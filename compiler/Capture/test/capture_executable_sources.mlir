// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" | FileCheck %s --check-prefix=RESOURCE
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd}, kiln-capture-executable-sources{stage=1.configured module-name=m-0123abcd})))" --mlir-print-local-scope | FileCheck %s --check-prefix=TWICE
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m-0123abcd})))" --mlir-print-local-scope | FileCheck %s --check-prefix=ORIGINS
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-capture-executable-sources{stage=0.source module-name=m}, builtin.module(func.func(linalg-fuse-elementwise-ops)), kiln-capture-executable-sources{stage=1.configured module-name=m previous-stage=0.source})))" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=FUSED

// Tests that the variant's text is stored as a resource under its path, that
// the export records the line of its entry function in that text, and that
// the compiler's own IR keeps the locations of the input, inside a tag
// holding each op's line in the text (the entry function's is the
// export's); the export and the variant, outside the module, are not tagged.

// CHECK-LABEL: kiln.executable @ex
//       CHECK:   kiln.executable.variant @cpu target("llvm-cpu") attributes {
//  CHECK-SAME:       kiln.sources = {"m-0123abcd_ex_cpu.0.source.mlir" = dense_resource<"m-0123abcd_ex_cpu.0.source.mlir"> : tensor<[[SIZE:[0-9]+]]xi8>}
//       CHECK:     kiln.executable.export @entry ordinal(0) bindings(2)
//  CHECK-SAME:       kiln.source_locs = {"0.source" = loc("m-0123abcd_ex_cpu.0.source.mlir":5:{{[0-9]+}})}
//  CHECK-SAME:       loc("input.mlir":3:5)
//       CHECK:     func.func @entry()
//       CHECK:       math.exp {{.*}} loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":11:10)>["input.mlir":11:7])
//       CHECK:     } loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":5:6)>[{{.*}}])
//       CHECK:   } loc(fused<loc("m-0123abcd_ex_cpu.0.source.mlir":4:4)>[{{.*}}])
//       CHECK:   } loc("{{.*}}capture_executable_sources.mlir":{{[0-9]+}}:3)
// The text itself, as a builtin resource: "kiln.executable @ex" in hex
// (printed in a local scope: no aliases ahead of it).
//       RESOURCE: dialect_resources: {
//       RESOURCE:   builtin: {
//       RESOURCE:     "m-0123abcd_ex_cpu.0.source.mlir": "0x010000006B696C6E2E65786563757461626C6520406578

// Where each op line of the text came from: a first stage names no previous
// text; the exp on line 11 came from input.mlir line 11 (input file 1).
// ORIGINS-LABEL: kiln.executable @ex
//       ORIGINS:   kiln.line_origins = {"m-0123abcd_ex_cpu.0.source.mlir" = {input_files = ["{{.*}}capture_executable_sources.mlir", "input.mlir"], rows = array<i32: 4, 0, 0, {{[0-9]+}}, 5, 0, 0, {{.*}}, 11, 0, 1, 11, 12, 0, 0, {{.*}}>}}
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

// -----

// Tests that a later stage traces its op lines to the lines of the stage
// before, through a pass that rewrites ops in between: the two elementwise
// ops fuse into one generic at the consumer's location, so the lines move.

// FUSED-LABEL: kiln.executable @fused
//       FUSED:   m_fused_cpu.1.configured.mlir = {input_files = ["input.mlir"], previous = "m_fused_cpu.0.source.mlir", rows = array<i32:
// The fused generic (line 9) came from the second generic (line 14), the
// negf (12) from 16, its yield (13) from the generic's line, as upstream
// fusion places it; the binding after it from 19.
//  FUSED-SAME:     9, 14, 0, 7, 11, 11, 0, 6, 12, 16, 0, 7, 13, 14, 0, 7, 15, 19, 0, 8,
//       FUSED:   math.exp {{.*}} loc(fused<loc("m_fused_cpu.1.configured.mlir":11:10)>[fused<loc("m_fused_cpu.0.source.mlir":11:10)>["input.mlir":6:9]])
//       FUSED:   arith.negf {{.*}} loc(fused<loc("m_fused_cpu.1.configured.mlir":12:10)>[fused<loc("m_fused_cpu.0.source.mlir":16:10)>["input.mlir":7:9]])
kiln.executable @fused {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(2) loc("input.mlir":3:5)
    builtin.module {
      func.func @entry() {
        %0 = kiln.binding 0 : memref<4xf32> loc("input.mlir":4:7)
        %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32> loc("input.mlir":4:7)
        %e = tensor.empty() : tensor<4xf32> loc("input.mlir":5:7)
        %2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32 loc("input.mlir":6:9)
          linalg.yield %y : f32 loc("input.mlir":6:9)
        } -> tensor<4xf32> loc("input.mlir":6:7)
        %3 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%2 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
        ^bb0(%x: f32, %o: f32):
          %y = arith.negf %x : f32 loc("input.mlir":7:9)
          linalg.yield %y : f32 loc("input.mlir":7:9)
        } -> tensor<4xf32> loc("input.mlir":7:7)
        %4 = kiln.binding 1 : memref<4xf32> loc("input.mlir":8:7)
        bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<4xf32>, memref<4xf32>) -> () loc("input.mlir":8:7)
        return loc("input.mlir":9:7)
      } loc("input.mlir":3:5)
    } loc("input.mlir":3:5)
  } loc("input.mlir":2:3)
} loc("input.mlir":1:1)

// -----

// Tests that a text referring to a resource carries the resource's data
// after it ("dialect_resources" in hex), so that it parses on its own.

// RESOURCE: "m-0123abcd_resource_cpu.0.source.mlir": "0x{{[0-9A-F]*}}6469616C6563745F7265736F7572636573
kiln.executable @resource {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(1)
    builtin.module {
      func.func @entry() {
        %c = arith.constant dense_resource<weights> : tensor<2xf32>
        %0 = kiln.binding 0 : memref<2xf32>
        bufferization.materialize_in_destination %c in restrict writable %0 : (tensor<2xf32>, memref<2xf32>) -> ()
        return
      }
    }
  }
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
