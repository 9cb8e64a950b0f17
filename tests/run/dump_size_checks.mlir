// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln | FileCheck %s
// RUN: kiln-dump %t.kiln --json | %python -c "import json, sys; [print(x['name'], json.dumps(x['equal_constants']), json.dumps(x['covering_tiles'], sort_keys=True)) for e in json.load(sys.stdin)['executables'] for x in e['exports']]" | FileCheck %s --check-prefix=JSON
// Tests that kiln-dump shows the size checks each export's dispatches
// pass: the dispatch constants one loop runs over (equal constants) and the
// tiles an unpack reads to cover its result (covering tiles), in text and
// in JSON. The matmul's rows are dynamic: its result is computed in whole
// tiles of 8 rows and unpacked, transposed, into the call's rows (an unpack
// that transposes runs in a dispatch of its own).

// CHECK-LABEL: add_dispatch_0_elementwise_D_f32
//       CHECK:   equal constants  c0 = c1, c0 = c2
// CHECK-LABEL: rows_dispatch_{{[0-9]+}}_unpack_1024xD_f32
//       CHECK:   covering tiles   c0 * 8 >= c1
// JSON: add_dispatch_0_elementwise_D_f32 {{\[\[0, 1\], \[0, 2\]\]}} []
// JSON: rows_dispatch_{{[0-9]+}}_unpack_1024xD_f32 [] [{"extent": 1, "tile": 8, "tiles": 0}]

func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @rows(%a: tensor<?x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %et = tensor.empty(%n) : tensor<1024x?xf32>
  %t = linalg.transpose ins(%r : tensor<?x1024xf32>) outs(%et : tensor<1024x?xf32>) permutation = [1, 0]
  return %t : tensor<1024x?xf32>
}
