//===- UtilOps.td - IREE test-format utility ops ------------*- tablegen -*-===//
//
// The two ops of IREE's util dialect that its e2e tests use: a constant the
// compiler may not fold, and a barrier values cannot be folded through.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_UTIL_OPS
#define KILN_DIALECT_UTIL_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Util_Dialect : Dialect {
  let name = "util";
  let cppNamespace = "::mlir::kiln::util";
  let summary = "Utility ops of IREE's test format.";
}

class Util_Op<string mnemonic, list<Trait> traits = []>
    : Op<Util_Dialect, mnemonic, traits>;

def Util_UnfoldableConstantOp : Util_Op<"unfoldable_constant"> {
  let summary = "A constant the compiler may not fold into its uses.";
  let description = [{
    Behaves as `arith.constant` at run time, but no computation on it is
    folded at compile time (kiln routes it through
    `util.optimization_barrier`).

    ```mlir
    %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Util_OptimizationBarrierOp : Util_Op<"optimization_barrier", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Returns its operands, opaque to every optimization.";
  let description = [{
    ```mlir
    %0:2 = util.optimization_barrier %a, %b : tensor<4xf32>, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // KILN_DIALECT_UTIL_OPS
