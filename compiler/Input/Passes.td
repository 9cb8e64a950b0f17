//===- Passes.td - input conversion passes -----------------*- tablegen -*-===//

#ifndef KILN_INPUT_PASSES
#define KILN_INPUT_PASSES

include "mlir/Pass/PassBase.td"

def RecordInputOpsPass : Pass<"kiln-record-input-ops", "::mlir::ModuleOp"> {
  let summary = "Records the input program's ops by location, before any rewriting.";
  let description = [{
    Sets `kiln.input_ops` on the module: for every op with a file location,
    its name and, for an op whose text spans several lines (its regions),
    the last: `loc("linalg.add"("m.mlir":12:8))`,
    `loc("linalg.generic"("m.mlir":31:8 to 39:0))`. Rewrites rename ops and
    fuse their bodies but keep their locations: provenance names the ops
    fused into a dispatch as the program wrote them, and a profile places a
    sampled line of an op's body in that op.
  }];
}

def AttachTosaTargetPass : Pass<"kiln-attach-tosa-target", "::mlir::ModuleOp"> {
  let summary = "Declares the TOSA target kiln implements, unless the module does.";
  let description = [{
    TOSA validation accepts only what a module's `tosa.target_env` declares.
    A module without one gets the target kiln compiles: both profiles
    (integer and floating point), no level limits, and the extensions kiln
    lowers (int16, bf16, fft, control flow, double rounding). A module that
    declares its own target keeps it.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def VerifyTosaInputPass : Pass<"kiln-verify-tosa-input", "::mlir::ModuleOp"> {
  let summary = "Rejects the TOSA ops kiln cannot compile, by name.";
  let description = [{
    Some TOSA ops convert upstream into forms kiln does not run (scatter
    writes elements at computed positions on the host; variables are state);
    reporting them before the conversion names the op the user wrote:

    ```mlir
    // error: 'tosa.scatter' is not supported: its conversion reads and
    // writes tensor elements at computed positions on the host
    %0 = tosa.scatter %values, %indices, %input : ...
    ```

    Unless `strict`, the pass runs TOSA validation itself: ops whose element
    types no TOSA profile or extension of the target allows (`tosa.clamp` on
    i32), and operands the specification wants constant that the program
    computes (the table of `tosa.table`), are a warning naming what it
    found, not an error (upstream lowers them all the same); its other
    findings are errors. With `strict` it
    leaves validation to the conversion, which refuses them.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Leave element types outside the target's profiles to the TOSA "
           "validation, which refuses them">,
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def RefineStaticShapesPass
    : Pass<"kiln-refine-static-shapes", "::mlir::func::FuncOp"> {
  let summary = "Gives dynamically typed values the static shapes they have.";
  let description = [{
    A value typed with dynamic dimensions whose sizes are known at compile
    time (a `flow.tensor.dynamic_constant`, a `tensor.cast` that erases a
    static shape, a `tensor.empty` or `flow.tensor.tie_shape` sized by
    constants, which inlining a helper often makes them) gets its static
    type: casts fold into the ops that read them, then those ops' results
    become static in turn. Barriers and checks keep their meaning: only
    shapes move through them, never values.

    ```mlir
    %c = tensor.cast %a : tensor<4x4xf32> to tensor<?x?xf32>
    %d = tensor.dim %c, %c0 : tensor<?x?xf32>
    %e = tensor.empty(%d) : tensor<?x4xf32>
    // becomes
    %e = tensor.empty() : tensor<4x4xf32>
    ```

    Functions without dynamically shaped values are left untouched. What
    stays dynamic is reported by `kiln-verify-input`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def VerifyInputPass : Pass<"kiln-verify-input", "::mlir::ModuleOp"> {
  let summary = "Rejects programs kiln cannot compile, at their location.";
  let description = [{
    Checks that the program only uses the ops kiln compiles (func, linalg,
    the supported tensor ops, arith, math), that every shaped value has a
    static shape and a supported element type, and that public functions take
    and return ranked tensors. Each violation is an error at the op's
    location, so the user sees exactly which line to change:

    ```mlir
    // error: dynamic shapes are not supported: 'tensor<?x4xf32>' has sizes
    //        known only at run time (...)
    %0 = tensor.empty(%n) : tensor<?x4xf32>
    ```
  }];
}

def DecomposeAggregateOpsPass : Pass<"kiln-decompose-aggregate-ops"> {
  let summary = "Rewrites aggregate ops into the ops dispatches are formed from.";
  let description = [{
    `linalg.softmax` becomes its reductions and elementwise generics,
    `linalg.pack` a pad, an `expand_shape` and a `linalg.transpose` (and
    `linalg.unpack` the reverse), `tensor.pad` becomes `tensor.empty` + `linalg.fill` + `tensor.insert_slice`
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

def ConvertTestOpsPass : Pass<"kiln-convert-test-ops", "::mlir::ModuleOp"> {
  let summary = "Lowers IREE test-format helpers to what kiln runs.";
  let description = [{
    `util.unfoldable_constant` becomes an `arith.constant` behind a
    `util.optimization_barrier` (so no dispatch folds it),
    `flow.tensor.dynamic_constant` the same, cast to its dynamic type,
    `flow.tensor.bitcast` of static shapes elementwise integer ops that split
    or assemble elements (lowest bits first) and an `arith.bitcast`, and each
    `check.expect_*_const` becomes the non-constant check of a constant:

    ```mlir
    check.expect_eq_const(%0, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
    // becomes
    %c = arith.constant dense<[1, 2]> : tensor<2xi32>
    check.expect_eq(%0, %c) : tensor<2xi32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::kiln::util::UtilDialect",
                           "::mlir::kiln::check::CheckDialect"];
}

def ConvertHostScalarsToTensorsPass
    : Pass<"kiln-convert-host-scalars-to-tensors", "::mlir::func::FuncOp"> {
  let summary = "Computes host scalars as 0-d tensors.";
  let description = [{
    Host functions only hold tensors: every scalar a host function computes
    (loop counters, conditions, constants) becomes a 0-d tensor, index
    becoming i64, so that the arithmetic on it runs in dispatches like any
    other. Structured control flow (scf.if, scf.while) keeps an i1 condition:
    it reads the 0-d tensor with `tensor.extract`, which the host executes as
    a branch on that tensor.

    ```mlir
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
    // becomes
    %c = arith.cmpi slt, %i, %n : tensor<i32>
    %b = tensor.extract %c[] : tensor<i1>
    scf.condition(%b) %i : tensor<i32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KILN_INPUT_PASSES
