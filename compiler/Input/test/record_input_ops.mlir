// RUN: kiln-opt %s --split-input-file --kiln-record-input-ops --mlir-print-debuginfo | FileCheck %s

// Tests that every op with a file location is recorded by name at it, an op
// whose body spans lines with its last line, and that an op's implicit
// body (linalg.broadcast's yield, at the broadcast's own location) does
// not stand in for it.
//   CHECK-DAG: #[[BCAST:.+]] = loc("{{.*}}record_input_ops.mlir":[[# @LINE + 14]]:10)
//   CHECK-DAG: #[[ADD:.+]] = loc("{{.*}}record_input_ops.mlir":[[# @LINE + 14]]:10)
//   CHECK-DAG: #[[BODY:.+]] = loc("{{.*}}record_input_ops.mlir":[[# @LINE + 14]]:10 to [[# @LINE + 21]]:0)
//   CHECK-DAG: #[[BCAST_OP:.+]] = loc("linalg.broadcast"(#[[BCAST]]))
//   CHECK-DAG: #[[ADD_OP:.+]] = loc("linalg.add"(#[[ADD]]))
//   CHECK-DAG: #[[BODY_OP:.+]] = loc("linalg.generic"(#[[BODY]]))
//       CHECK: module attributes {kiln.input_ops = [
//  CHECK-SAME:   #[[BCAST_OP]]
//   CHECK-NOT:   linalg.yield
//  CHECK-SAME:   #[[ADD_OP]]
//  CHECK-SAME:   #[[BODY_OP]]
module {
  func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x8xf32>
    %0 = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
    %1 = linalg.add ins(%a, %0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
        iterator_types = ["parallel", "parallel"]}
        ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}

// -----

// Tests that an imported model's op is recorded at the line its node's
// location wraps.
//       CHECK: #[[LINE:.+]] = loc("m.onnx.mlir":3:5)
//       CHECK: #[[OP:.+]] = loc("linalg.exp"(#[[LINE]]))
//       CHECK: module attributes {kiln.input_ops = [{{.*}}#[[OP]]{{.*}}]}
module {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc(fused<{node = "/Exp", op_type = "Exp"}>["m.onnx.mlir":3:5])
    return %0 : tensor<4xf32>
  }
}
