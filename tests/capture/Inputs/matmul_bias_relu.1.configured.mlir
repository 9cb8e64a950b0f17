#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
kiln.executable @main_dispatch_0 attributes {kiln.stage = "1.configured"} {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(4) workgroups([1, 1, 1]) {binding_types = [tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<4x16xf32>]}
    builtin.module {
      func.func @main_dispatch_0_matmul_4x16x8_f32() {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = kiln.binding 0 : memref<4x8xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4x8xf32> to tensor<4x8xf32>
        %2 = kiln.binding 1 : memref<8x16xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<8x16xf32> to tensor<8x16xf32>
        %4 = kiln.binding 2 : memref<16xf32>
        %5 = bufferization.to_tensor %4 restrict : memref<16xf32> to tensor<16xf32>
        %6 = tensor.empty() : tensor<4x16xf32>
        %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<4x16xf32>) -> tensor<4x16xf32>
        %8 = linalg.matmul {lowering_config = #kiln.lowering_config<vector = [4, 16, 1]>} ins(%1, %3 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%7 : tensor<4x16xf32>) -> tensor<4x16xf32>
        %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %5 : tensor<4x16xf32>, tensor<16xf32>) outs(%6 : tensor<4x16xf32>) attrs =  {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [4, 16]>} {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          %12 = arith.maximumf %11, %cst : f32
          linalg.yield %12 : f32
        } -> tensor<4x16xf32>
        %10 = kiln.binding 3 : memref<4x16xf32>
        bufferization.materialize_in_destination %9 in restrict writable %10 : (tensor<4x16xf32>, memref<4x16xf32>) -> ()
        return
      }
    }
  }
}
