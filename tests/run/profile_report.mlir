// REQUIRES: onnx
// RUN: kiln-compile %kiln_source_dir/samples/lenet.onnx --executable-debug-level=3 -o %t.lenet.kiln
// RUN: kiln-benchmark %t.lenet.kiln --input=1x1x28x28xf32=0.5 --benchmark_min_time=1s --profile-report=%t.lenet.html | FileCheck %s --check-prefix=QUIET --implicit-check-not="profile of"
// RUN: FileCheck %s --check-prefix=LENET < %t.lenet.html
// RUN: %python %S/check_profile_html.py %t.lenet.html --hottest=Conv --dispatch="main_dispatch_[0-9]+_conv"
// RUN: kiln-compile %s --executable-debug-level=3 --executable-embed-input-files -o %t.kiln
// RUN: kiln-run %t.kiln --threads=2 --input=512x2048xf32=0.5 --input=2048x512xf32=0.25 --input=512xf32=1 --output=@%t.out.npy --profile --profile-report=%t.html | FileCheck %s --check-prefix=TABLE
// RUN: %python %S/check_profile_html.py %t.html --hottest=linalg.matmul --dispatch="main_dispatch_[0-9]+_"
// RUN: not kiln-run %t.kiln --profile-report= 2>&1 | FileCheck %s --check-prefix=BAD

// Tests --profile-report: one HTML page, opened in headless Chromium
// (check_profile_html.py), whose script draws without an error the ops
// table (an imported model's nodes: LeNet's hottest is a Conv; a program
// written as MLIR: its linalg.matmul), a flame graph with the dispatches,
// and the hottest dispatch's texts with hot lines. The page needs nothing
// beside it: its data is one JSON block, the texts' lines included.
// Alone, the flag prints no table; beside --profile, the table is printed.

// QUIET: BM_main

// LENET: <!DOCTYPE html>
// LENET: <script type="application/json" id="kiln-profile-data">{"function":"main","module":"lenet",
// LENET: "model":true,
// LENET: {"name":"/conv{{[12]}}/Conv","type":"Conv",
// LENET: "exports":[
// LENET: "texts":[{"path":"lenet-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.{{[0-9]}}.{{[a-z]+}}.mlir","stage":{{[0-9]}},
// LENET: lenet.onnx.mlir","stage":-1,

// TABLE: profile of main: {{[0-9]+}} samples
// BAD: kiln-run: error: --profile-report needs a file: --profile-report=FILE

func.func @main(%a: tensor<512x2048xf32>, %b: tensor<2048x512xf32>, %bias: tensor<512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<512x2048xf32>, tensor<2048x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<512x512xf32>, tensor<512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
