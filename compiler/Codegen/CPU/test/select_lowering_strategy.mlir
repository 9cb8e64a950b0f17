// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-cpu-select-lowering-strategy)))" | FileCheck %s

// Tests that a large matmul gets 8x32 register tiles (AVX-512: 16 lanes),
// 64x64 workgroup tiles and a 16x16 workgroup grid; its epilogue carries the
// same tiles mapped to its own loops.
//       CHECK: kiln.executable.export @mm ordinal(0) bindings(4) workgroups([16, 16, 1])
//       CHECK: linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [64, 64], vector = [8, 32]>
kiln.executable @mm {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mm ordinal(0) bindings(4)
    builtin.module {
      func.func @mm() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1024x512xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1024x512xf32> to tensor<1024x512xf32>
        %2 = kiln.binding 1 : memref<512x1024xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<512x1024xf32> to tensor<512x1024xf32>
        %4 = kiln.binding 2 : memref<1024xf32>
        %5 = bufferization.to_tensor %4 restrict : memref<1024xf32> to tensor<1024xf32>
        %e = tensor.empty() : tensor<1024x1024xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
        %m = linalg.matmul ins(%1, %3 : tensor<1024x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%m, %5 : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024x1024xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<1024x1024xf32>
        %6 = kiln.binding 3 : memref<1024x1024xf32>
        bufferization.materialize_in_destination %g in restrict writable %6 : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a small elementwise kernel runs as one workgroup, vectorized
// along its innermost loop (AVX2: 8 lanes).
//       CHECK: kiln.executable.export @small ordinal(0) bindings(2) workgroups([1, 1, 1])
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [1, 8]>
kiln.executable @small {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @small ordinal(0) bindings(2)
    builtin.module {
      func.func @small() {
        %0 = kiln.binding 0 : memref<4x24xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4x24xf32> to tensor<4x24xf32>
        %e = tensor.empty() : tensor<4x24xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%1 : tensor<4x24xf32>) outs(%e : tensor<4x24xf32>) {
        ^bb0(%x: f32, %o: f32):
          %s = math.exp %x : f32
          linalg.yield %s : f32
        } -> tensor<4x24xf32>
        %2 = kiln.binding 1 : memref<4x24xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<4x24xf32>, memref<4x24xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a root that cannot be tiled (an insert_slice) runs as one
// workgroup without a tile configuration.
//       CHECK: kiln.executable.export @pad ordinal(0) bindings(2) workgroups([1, 1, 1])
//       CHECK: linalg.fill ins
//   CHECK-NOT: lowering_config
kiln.executable @pad {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @pad ordinal(0) bindings(2)
    builtin.module {
      func.func @pad() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<4xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
        %e = tensor.empty() : tensor<6xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
        %i = tensor.insert_slice %1 into %f[1] [4] [1] : tensor<4xf32> into tensor<6xf32>
        %2 = kiln.binding 1 : memref<6xf32>
        bufferization.materialize_in_destination %i in restrict writable %2 : (tensor<6xf32>, memref<6xf32>) -> ()
        return
      }
    }
  }
}
