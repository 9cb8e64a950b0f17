//===- FlowOps.td - IREE test-format flow ops ---------------*- tablegen -*-===//
//
// The ops of IREE's flow dialect that its e2e tests use: to make shapes
// dynamic, a constant whose type hides its shape and a tie of a tensor to
// its dynamic dimensions; and a bitcast that reinterprets a tensor's bits.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_FLOW_OPS
#define KILN_DIALECT_FLOW_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::mlir::kiln::flow";
  let summary = "Shape ops of IREE's test format.";
}

class Flow_Op<string mnemonic, list<Trait> traits = []>
    : Op<Flow_Dialect, mnemonic, traits>;

def Flow_TensorDynamicConstantOp : Flow_Op<"tensor.dynamic_constant"> {
  let summary = "A constant the compiler may not fold, typed with dynamic "
                "dimensions.";
  let description = [{
    Behaves as `util.unfoldable_constant` cast to its result type: the
    result holds the value, and its type may make any dimension dynamic.

    ```mlir
    %0 = flow.tensor.dynamic_constant dense<[1, 2]> : tensor<2xi32>
        -> tensor<?xi32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value `->` type($result)";
  let hasVerifier = 1;
}

def Flow_TensorTieShapeOp : Flow_Op<"tensor.tie_shape", [Pure,
    AllTypesMatch<["operand", "result"]>]> {
  let summary = "Returns its operand, whose dynamic dimensions are given.";
  let description = [{
    The operands after the tensor are its dynamic dimensions, in order.

    ```mlir
    %1 = flow.tensor.tie_shape %0 : tensor<?x4xf32>{%rows}
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       Variadic<Index>:$dynamic_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$operand attr-dict `:` type($result) (`{` $dynamic_dims^ `}`)?";
  let hasVerifier = 1;
}

def Flow_TensorBitCastOp : Flow_Op<"tensor.bitcast", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "Reinterprets the bits of a tensor as another tensor type.";
  let description = [{
    The result holds the bits of the source, in row-major order, element 0
    in the lowest bits: both types hold the same number of bits. Elements
    narrower than a byte are packed, as IREE stores them, whatever the
    width kiln stores them with (a byte each); so 4xi8 0x20 0x64 ... is the
    8xf4E2M1FN 0x0 0x2 0x4 0x6 .... The operands after the source are the
    dynamic dimensions of the source and then of the result.

    ```mlir
    %1 = flow.tensor.bitcast %0 : tensor<4xi8> -> tensor<8xf4E2M1FN>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source,
                       Variadic<Index>:$source_dims,
                       Variadic<Index>:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->`
    type($result) (`{` $result_dims^ `}`)? attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

#endif // KILN_DIALECT_FLOW_OPS
