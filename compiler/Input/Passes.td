//===- Passes.td - input conversion passes -----------------*- tablegen -*-===//

#ifndef KILN_INPUT_PASSES
#define KILN_INPUT_PASSES

include "mlir/Pass/PassBase.td"

def VerifyInputPass : Pass<"kiln-verify-input", "::mlir::ModuleOp"> {
  let summary = "Rejects programs kiln cannot compile, at their location.";
  let description = [{
    Checks that the program only uses the ops kiln compiles (func, linalg,
    the supported tensor ops, arith, math), that every shaped value has a
    static shape and a supported element type, and that public functions take
    and return ranked tensors. Each violation is an error at the op's
    location, so the user sees exactly which line to change:

    ```mlir
    // error: dynamic shapes are not supported: 'tensor<?x4xf32>'
    %0 = tensor.empty(%n) : tensor<?x4xf32>
    ```
  }];
}

def DecomposeAggregateOpsPass : Pass<"kiln-decompose-aggregate-ops"> {
  let summary = "Rewrites aggregate ops into the ops dispatches are formed from.";
  let description = [{
    `linalg.softmax` becomes its reductions and elementwise generics,
    `tensor.pad` becomes `tensor.empty` + `linalg.fill` + `tensor.insert_slice`
    and `tensor.concat` a chain of `tensor.insert_slice`, so that dispatch
    formation only sees linalg ops and slices.

    ```mlir
    %0 = tensor.pad %a low[1] high[1] { ^bb0(%i: index): tensor.yield %z : f32 }
        : tensor<4xf32> to tensor<6xf32>
    // becomes
    %e = tensor.empty() : tensor<6xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
    %0 = tensor.insert_slice %a into %f[1] [4] [1] : tensor<4xf32> into tensor<6xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // KILN_INPUT_PASSES
