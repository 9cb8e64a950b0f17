#map = affine_map<(d0, d1) -> (d0, d1)>
kiln.executable @main_dispatch_0 attributes {kiln.stage = "1.configured"} {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @main_dispatch_0_elementwise_523x611_f32 ordinal(0) bindings(3) workgroups([21, 1, 1]) {binding_types = [tensor<523x611xf32>, tensor<523x611xf32>, tensor<523x611xf32>], outputs = 1 : index}
    builtin.module {
      func.func @main_dispatch_0_elementwise_523x611_f32() {
        %0 = kiln.binding 0 : memref<523x611xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<523x611xf32> to tensor<523x611xf32>
        %2 = kiln.binding 1 : memref<523x611xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<523x611xf32> to tensor<523x611xf32>
        %4 = tensor.empty() : tensor<523x611xf32>
        %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %3 : tensor<523x611xf32>, tensor<523x611xf32>) outs(%4 : tensor<523x611xf32>) attrs =  {lowering_config = #kiln.lowering_config<workgroup = [26, 0], vector = [1, 8]>} {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %7 = arith.mulf %in, %in_0 : f32
          %8 = arith.addf %7, %in : f32
          linalg.yield %8 : f32
        } -> tensor<523x611xf32>
        %6 = kiln.binding 2 : memref<523x611xf32>
        bufferization.materialize_in_destination %5 in restrict writable %6 : (tensor<523x611xf32>, memref<523x611xf32>) -> ()
        return
      }
    }
  }
}
