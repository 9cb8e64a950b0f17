// RUN: %e2e %s -o %t
// argmax over a long last dimension (1000) for 33 rows: the reduction with
// linalg.index must keep global indices when the reduction is tiled.
// Inputs are integers-valued floats with many ties, so the first-max rule
// (strict ogt) is exercised too.
// INPUT: 33x1000xf32=random(-50, 50)

func.func @main(%x: tensor<33x1000xf32>) -> (tensor<33xf32>, tensor<33xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ef = tensor.empty() : tensor<33xf32>
  %ei = tensor.empty() : tensor<33xi64>
  %accf = linalg.fill ins(%ninf : f32) outs(%ef : tensor<33xf32>) -> tensor<33xf32>
  %acci = linalg.fill ins(%c0 : i64) outs(%ei : tensor<33xi64>) -> tensor<33xi64>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x1000xf32>) outs(%accf, %acci : tensor<33xf32>, tensor<33xi64>) {
  ^bb0(%a: f32, %best: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %fl = math.floor %a : f32
    %gt = arith.cmpf ogt, %fl, %best : f32
    %nb = arith.select %gt, %fl, %best : f32
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nb, %ni : f32, i64
  } -> (tensor<33xf32>, tensor<33xi64>)
  return %r#0, %r#1 : tensor<33xf32>, tensor<33xi64>
}
