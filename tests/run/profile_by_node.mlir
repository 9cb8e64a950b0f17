// REQUIRES: onnx
// RUN: kiln-compile %kiln_source_dir/samples/lenet.onnx --executable-debug-level=3 -o %t.lenet.kiln
// RUN: kiln-benchmark %t.lenet.kiln --input=1x1x28x28xf32=0.5 --benchmark_min_time=1s --profile-by=node | FileCheck %s --check-prefix=NODES
// RUN: kiln-benchmark %t.lenet.kiln --input=1x1x28x28xf32=0.5 --benchmark_min_time=1s --profile-by=node --benchmark_format=json > %t.lenet.json
// RUN: %python %S/check_profile_by_node.py %t.lenet.json --hottest=Conv
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: kiln-benchmark %t.kiln --input=256x256xf32=0.5 --input=256x256xf32=0.25 --input=256xf32=1 --benchmark_min_time=0.5s --profile-by=node | FileCheck %s --check-prefix=OPS
// RUN: kiln-benchmark %t.kiln --input=256x256xf32=0.5 --input=256x256xf32=0.25 --input=256xf32=1 --benchmark_min_time=0.5s --profile-by=node --benchmark_format=json > %t.json
// RUN: %python %S/check_profile_by_node.py %t.json --hottest=linalg.matmul
// RUN: kiln-compile %s -o %t.level2.kiln
// RUN: kiln-benchmark %t.level2.kiln --input=256x256xf32=0.5 --input=256x256xf32=0.25 --input=256xf32=1 --benchmark_min_time=0.5s --profile-by=node | FileCheck %s --check-prefix=OPS
// RUN: kiln-benchmark %t.level2.kiln --input=256x256xf32=0.5 --input=256x256xf32=0.25 --input=256xf32=1 --benchmark_min_time=0.5s --profile | FileCheck %s --check-prefix=LEVEL2
// RUN: not kiln-run %t.kiln --profile-by=op 2>&1 | FileCheck %s --check-prefix=BAD

// Tests --profile-by=node: samples per node of an imported model (LeNet),
// each node with its CPU time and the dispatches it was fused into, and
// the samples on no node's line; and per op of a program written as MLIR,
// where the lines of an op's body (the relu's maximumf) count for the op,
// at level 3 and at the default level 2.
// NODES: profile of main: {{[0-9]+}} samples
// NODES: by node of the model: {{[0-9]+}} nodes with samples
// NODES-NEXT: share  samples  CPU time  node {{ *}}dispatches
// NODES: /conv2/Conv (Conv)  {{.*}}main_dispatch_
// NODES: on no node's line: {{[0-9]+}} samples

// OPS: by input op: {{[0-9]+}} ops with samples
// OPS: linalg.matmul at {{.*}}profile_by_node.mlir:[[# @LINE + 14]]:8  main_dispatch_0_

// At the default level the line tables point into the input, which the
// module names but does not embed: lines without their text, yet each op's.
// LEVEL2: main_dispatch_0_
// LEVEL2-NEXT: profile_by_node.mlir:[[# @LINE + 9]]  (text not embedded)
// LEVEL2: hottest input ops
// LEVEL2-NEXT: linalg.matmul at {{.*}}profile_by_node.mlir:[[# @LINE + 7]]:8
// BAD: kiln-run: error: --profile-by expects node (per input op) or dispatch, got 'op'

func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %bias: tensor<256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
