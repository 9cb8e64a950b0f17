// RUN: kiln-opt %s --split-input-file --kiln-attach-tosa-target | FileCheck %s

// Tests that a module without a TOSA target gets the one kiln implements.
// CHECK: module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_int, pro_fp], extensions = [int16, bf16, fft, controlflow, doubleround]>}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// Tests that a module's own target is kept.
// CHECK: module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int], extensions = [int16]>}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int], extensions = [int16]>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
