// Kernels measured by kernels_benchmark.cc.

func.func @matmul_256(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}

func.func @matmul_512(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %m : tensor<512x512xf32>
}

// 1000 = 8 x 125: wide tiles do not divide it, so remainders must cost little.
func.func @matmul_1000(%a: tensor<1000x1000xf32>, %b: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1000x1000xf32>, tensor<1000x1000xf32>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %m : tensor<1000x1000xf32>
}

func.func @matmul_1024(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %m : tensor<1024x1024xf32>
}

// The same matmul with its row count known only at run time: what a
// batch-dynamic model runs.
func.func @matmul_dynamic_1024(%a: tensor<?x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %m = linalg.matmul ins(%a, %b : tensor<?x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %m : tensor<?x1024xf32>
}

// A 3x3 convolution with padding 1 (a ResNet layer) on a batch known only
// at run time, and the same at batch 1.
func.func @conv_dynamic_batch(%x: tensor<?x56x56x64xf32>, %f: tensor<3x3x64x64xf32>) -> tensor<?x56x56x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x56x56x64xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x56x56x64xf32> to tensor<?x58x58x64xf32>
  %e = tensor.empty(%n) : tensor<?x56x56x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<?x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%z : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  return %c : tensor<?x56x56x64xf32>
}

func.func @conv_static_batch(%x: tensor<1x56x56x64xf32>, %f: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x64xf32> to tensor<1x58x58x64xf32>
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%z : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %c : tensor<1x56x56x64xf32>
}

// 16 Mi elements: 64 MiB per operand, far beyond the caches.
func.func @add(%a: tensor<16777216xf32>, %b: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %e = tensor.empty() : tensor<16777216xf32>
  %r = linalg.add ins(%a, %b : tensor<16777216xf32>, tensor<16777216xf32>) outs(%e : tensor<16777216xf32>) -> tensor<16777216xf32>
  return %r : tensor<16777216xf32>
}

// 100 dispatches that each do one multiply-add: the call time divided by 100
// is the cost of a dispatch.
func.func @tiny_chain(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v0 = linalg.matmul ins(%x, %x : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v1 = linalg.matmul ins(%v0, %v0 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v2 = linalg.matmul ins(%v1, %v1 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v3 = linalg.matmul ins(%v2, %v2 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v4 = linalg.matmul ins(%v3, %v3 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v5 = linalg.matmul ins(%v4, %v4 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v6 = linalg.matmul ins(%v5, %v5 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v7 = linalg.matmul ins(%v6, %v6 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v8 = linalg.matmul ins(%v7, %v7 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v9 = linalg.matmul ins(%v8, %v8 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v10 = linalg.matmul ins(%v9, %v9 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v11 = linalg.matmul ins(%v10, %v10 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v12 = linalg.matmul ins(%v11, %v11 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v13 = linalg.matmul ins(%v12, %v12 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v14 = linalg.matmul ins(%v13, %v13 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v15 = linalg.matmul ins(%v14, %v14 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v16 = linalg.matmul ins(%v15, %v15 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v17 = linalg.matmul ins(%v16, %v16 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v18 = linalg.matmul ins(%v17, %v17 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v19 = linalg.matmul ins(%v18, %v18 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v20 = linalg.matmul ins(%v19, %v19 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v21 = linalg.matmul ins(%v20, %v20 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v22 = linalg.matmul ins(%v21, %v21 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v23 = linalg.matmul ins(%v22, %v22 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v24 = linalg.matmul ins(%v23, %v23 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v25 = linalg.matmul ins(%v24, %v24 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v26 = linalg.matmul ins(%v25, %v25 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v27 = linalg.matmul ins(%v26, %v26 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v28 = linalg.matmul ins(%v27, %v27 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v29 = linalg.matmul ins(%v28, %v28 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v30 = linalg.matmul ins(%v29, %v29 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v31 = linalg.matmul ins(%v30, %v30 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v32 = linalg.matmul ins(%v31, %v31 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v33 = linalg.matmul ins(%v32, %v32 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v34 = linalg.matmul ins(%v33, %v33 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v35 = linalg.matmul ins(%v34, %v34 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v36 = linalg.matmul ins(%v35, %v35 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v37 = linalg.matmul ins(%v36, %v36 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v38 = linalg.matmul ins(%v37, %v37 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v39 = linalg.matmul ins(%v38, %v38 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v40 = linalg.matmul ins(%v39, %v39 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v41 = linalg.matmul ins(%v40, %v40 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v42 = linalg.matmul ins(%v41, %v41 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v43 = linalg.matmul ins(%v42, %v42 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v44 = linalg.matmul ins(%v43, %v43 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v45 = linalg.matmul ins(%v44, %v44 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v46 = linalg.matmul ins(%v45, %v45 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v47 = linalg.matmul ins(%v46, %v46 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v48 = linalg.matmul ins(%v47, %v47 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v49 = linalg.matmul ins(%v48, %v48 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v50 = linalg.matmul ins(%v49, %v49 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v51 = linalg.matmul ins(%v50, %v50 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v52 = linalg.matmul ins(%v51, %v51 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v53 = linalg.matmul ins(%v52, %v52 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v54 = linalg.matmul ins(%v53, %v53 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v55 = linalg.matmul ins(%v54, %v54 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v56 = linalg.matmul ins(%v55, %v55 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v57 = linalg.matmul ins(%v56, %v56 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v58 = linalg.matmul ins(%v57, %v57 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v59 = linalg.matmul ins(%v58, %v58 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v60 = linalg.matmul ins(%v59, %v59 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v61 = linalg.matmul ins(%v60, %v60 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v62 = linalg.matmul ins(%v61, %v61 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v63 = linalg.matmul ins(%v62, %v62 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v64 = linalg.matmul ins(%v63, %v63 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v65 = linalg.matmul ins(%v64, %v64 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v66 = linalg.matmul ins(%v65, %v65 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v67 = linalg.matmul ins(%v66, %v66 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v68 = linalg.matmul ins(%v67, %v67 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v69 = linalg.matmul ins(%v68, %v68 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v70 = linalg.matmul ins(%v69, %v69 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v71 = linalg.matmul ins(%v70, %v70 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v72 = linalg.matmul ins(%v71, %v71 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v73 = linalg.matmul ins(%v72, %v72 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v74 = linalg.matmul ins(%v73, %v73 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v75 = linalg.matmul ins(%v74, %v74 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v76 = linalg.matmul ins(%v75, %v75 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v77 = linalg.matmul ins(%v76, %v76 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v78 = linalg.matmul ins(%v77, %v77 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v79 = linalg.matmul ins(%v78, %v78 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v80 = linalg.matmul ins(%v79, %v79 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v81 = linalg.matmul ins(%v80, %v80 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v82 = linalg.matmul ins(%v81, %v81 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v83 = linalg.matmul ins(%v82, %v82 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v84 = linalg.matmul ins(%v83, %v83 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v85 = linalg.matmul ins(%v84, %v84 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v86 = linalg.matmul ins(%v85, %v85 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v87 = linalg.matmul ins(%v86, %v86 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v88 = linalg.matmul ins(%v87, %v87 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v89 = linalg.matmul ins(%v88, %v88 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v90 = linalg.matmul ins(%v89, %v89 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v91 = linalg.matmul ins(%v90, %v90 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v92 = linalg.matmul ins(%v91, %v91 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v93 = linalg.matmul ins(%v92, %v92 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v94 = linalg.matmul ins(%v93, %v93 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v95 = linalg.matmul ins(%v94, %v94 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v96 = linalg.matmul ins(%v95, %v95 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v97 = linalg.matmul ins(%v96, %v96 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v98 = linalg.matmul ins(%v97, %v97 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v99 = linalg.matmul ins(%v98, %v98 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %v99 : tensor<1x1xf32>
}
