//===- CheckOps.td - test assertions (IREE's check dialect) -*- tablegen -*-===//
//
// The assertion ops of IREE's end-to-end test format, with IREE's syntax and
// semantics, so that tests written for IREE run unchanged. A failed check
// is reported and the function goes on (non-fatal).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_CHECK_OPS
#define KILN_DIALECT_CHECK_OPS

include "mlir/IR/OpBase.td"

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::mlir::kiln::check";
  let summary = "Test assertions in the format of IREE's e2e tests.";
}

class Check_Op<string mnemonic, list<Trait> traits = []>
    : Op<Check_Dialect, mnemonic, traits>;

/// A scalar integer, or the 0-d tensor kiln turns host scalars into.
def Check_IntegerValue : AnyTypeOf<[AnySignlessInteger,
                                    0DTensorOf<[AnySignlessInteger]>]>;

def Check_ExpectTrueOp : Check_Op<"expect_true"> {
  let summary = "Checks that the operand is true (nonzero).";
  let description = [{
    ```mlir
    check.expect_true(%arg0) : i32
    ```
  }];
  let arguments = (ins Check_IntegerValue:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectFalseOp : Check_Op<"expect_false"> {
  let summary = "Checks that the operand is false (zero).";
  let description = [{
    ```mlir
    check.expect_false(%arg0) : i32
    ```
  }];
  let arguments = (ins Check_IntegerValue:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectAllTrueOp : Check_Op<"expect_all_true"> {
  let summary = "Checks that every element of the operand is nonzero.";
  let description = [{
    ```mlir
    check.expect_all_true(%arg1) : tensor<2x2xi32>
    ```
  }];
  let arguments = (ins TensorOf<[AnySignlessInteger]>:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectEqOp : Check_Op<"expect_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Checks that two tensors are exactly equal.";
  let description = [{
    ```mlir
    check.expect_eq(%arg0, %arg1) : tensor<5xi32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let assemblyFormat = "`(` $lhs `,` $rhs `)` attr-dict `:` type($lhs)";
}

def Check_ExpectEqConstOp
    : Check_Op<"expect_eq_const", [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Checks that a tensor is exactly equal to a constant.";
  let description = [{
    ```mlir
    check.expect_eq_const(%arg0, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, ElementsAttr:$value);
  let assemblyFormat = "`(` $lhs `,` $value `)` attr-dict `:` type($lhs)";
}

def Check_ExpectAlmostEqOp
    : Check_Op<"expect_almost_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Checks that two float tensors are close.";
  let description = [{
    Elementwise `abs(lhs - rhs) <= atol + rtol * abs(rhs)`; by default
    atol is 1e-4 and rtol 0, as in IREE.

    ```mlir
    check.expect_almost_eq(%arg0, %arg1, atol 1.0e-2, rtol 1.0e-3) : tensor<5xf32>
    ```
  }];
  let arguments = (ins TensorOf<[AnyFloat]>:$lhs, TensorOf<[AnyFloat]>:$rhs,
                       DefaultValuedAttr<F32Attr, "1.e-4f">:$atol,
                       DefaultValuedAttr<F32Attr, "0.f">:$rtol);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs (`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)`
    attr-dict `:` type($lhs)
  }];
}

def Check_ExpectAlmostEqConstOp
    : Check_Op<"expect_almost_eq_const", [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Checks that a float tensor is close to a constant.";
  let description = [{
    ```mlir
    check.expect_almost_eq_const(%0, dense<[0.999999, 2.0]> : tensor<2xf32>, atol 1.0e-2) : tensor<2xf32>
    ```
  }];
  let arguments = (ins TensorOf<[AnyFloat]>:$lhs, ElementsAttr:$value,
                       DefaultValuedAttr<F32Attr, "1.e-4f">:$atol,
                       DefaultValuedAttr<F32Attr, "0.f">:$rtol);
  let assemblyFormat = [{
    `(` $lhs `,` $value (`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)`
    attr-dict `:` type($lhs)
  }];
}

#endif // KILN_DIALECT_CHECK_OPS
