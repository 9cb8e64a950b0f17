// RUN: rm -rf %t && mkdir -p %t/in %t/out
// RUN: echo "model text" > %t/in/model.mlir && echo "fused text" > %t/in/fused.mlir
// RUN: echo "outside text" > %t/out/secret.mlir && for i in 1 2 3 4 5; do echo xxxxxxxxxxxxxxxxxxxx; done > %t/in/big.mlir
// RUN: cd %t/in && kiln-opt %s --split-input-file --kiln-capture-input-files="debug-level=2 limit=64 dirs=." 2>%t/warnings | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t/warnings
// RUN: not grep -e xxxx -e "outside text" %t/warnings
// RUN: cd %t/in && kiln-opt %s --split-input-file --kiln-capture-input-files="debug-level=1 dirs=." 2>&1 | FileCheck %s --check-prefix=LEVEL1

// Tests that the files an export's location and the locations of the ops
// fused into it name are attached to the module once each, under the path
// locations go by in the module (`./model.mlir` is `model.mlir`), with their
// texts; at level 1 only the export's own.
//       CHECK: module attributes {kiln.input_files = {fused.mlir = dense_resource<[[FUSED:[^>]+]]> : tensor<11xi8>, model.mlir = dense_resource<[[MODEL:[^>]+]]> : tensor<11xi8>}}
//       CHECK: [[FUSED]]: "0x01000000667573656420746578740A"
//       CHECK: [[MODEL]]: "0x010000006D6F64656C20746578740A"
//      LEVEL1: module attributes {kiln.input_files = {model.mlir = dense_resource<{{[^>]+}}> : tensor<11xi8>}}
kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @add ordinal(0) bindings(3) {kiln.provenance = [loc("linalg.add"("fused.mlir":2:3))]} loc("./model.mlir":1:1)
    kiln.executable.export @sub ordinal(1) bindings(3) loc("model.mlir":4:1)
  }
}

// -----

// Tests that a file outside the directories given, a missing file and one
// over the limit are left out, each with a warning that shows no line of
// it, and that nothing is attached then.
//   CHECK-NOT: kiln.input_files
//       CHECK: kiln.executable @ex
//   WARN-DAG: ../out/secret.mlir:{{.*}} warning: input file '../out/secret.mlir', named by a location at line 1, is not under the input file's directory or an --executable-embed-input-dir; not embedded
//   WARN-DAG: missing.mlir:3:1: warning: input file 'missing.mlir' named by a location does not exist; not embedded
//   WARN-DAG: big.mlir:{{.*}} warning: input file 'big.mlir', named by a location at line 2, is 105 bytes, above the 64-byte limit; not embedded
kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @a ordinal(0) bindings(1) loc("../out/secret.mlir":1:1)
    kiln.executable.export @b ordinal(1) bindings(1) loc("missing.mlir":3:1)
    kiln.executable.export @c ordinal(2) bindings(1) loc("big.mlir":2:1)
  }
}
