// RUN: %e2e %s -o %t
// linalg.softmax on f16 (the reference computes exp in f32 and rounds; f16
// tolerance by default).
// INPUT: 3x20xf16=random(-3, 3)

func.func @main(%x: tensor<3x20xf16>) -> tensor<3x20xf16> {
  %e = tensor.empty() : tensor<3x20xf16>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x20xf16>) outs(%e : tensor<3x20xf16>) -> tensor<3x20xf16>
  return %r : tensor<3x20xf16>
}
