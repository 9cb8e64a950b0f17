//===- HostOps.td - host programs as the runtime runs them --*- tablegen -*-===//
//
// The host dialect is the level below dispatch formation, as IREE's stream
// and VM dialects are below flow: each public function is a flat CFG of
// the instructions a kiln module's host program holds (schema/module.fbs),
// and where each dispatch writes its results is explicit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_HOST_OPS
#define KILN_DIALECT_HOST_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Host_Dialect : Dialect {
  let name = "host";
  let cppNamespace = "::mlir::kiln::host";
  let summary = "Host programs: dispatches, buffers, views and branches.";
  let description = [{
    A host function is a `func.func` whose body is a control flow graph of
    host ops, one per instruction of the module's slot program. Every tensor
    value is a slot: a view of storage that is either the caller's (an
    argument), the module's (`host.constant`), or a buffer a dispatch wrote
    (`host.buffer`, kept by the runtime from call to call, or
    `host.allocate`, new storage each time). `host.reshape` and block
    arguments alias the storage of their source; nothing is copied.

    `kiln-convert-to-host` produces it from the dispatch-level program with
    every dispatch result in new storage; `kiln-plan-buffers` then places
    the results that may share storage in reused buffers.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::kiln::KilnDialect"];
}

class Host_Op<string mnemonic, list<Trait> traits = []>
    : Op<Host_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

def Host_BufferType : TypeDef<Host_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "Storage that dispatch results are written into.";
  let description = [{
    Made by `host.buffer` (planned storage the runtime keeps) or
    `host.allocate` (new storage for one result).
  }];
}

/// A branch condition: one byte, nonzero for true.
def Host_ConditionType : 0DTensorOf<[I1]>,
    BuildableType<"::mlir::RankedTensorType::get({}, $_builder.getI1Type())">;

def Host_CheckKind : I32EnumAttr<"CheckKind", "test assertion kind", [
    I32EnumAttrCase<"ExpectTrue", 0, "expect_true">,
    I32EnumAttrCase<"ExpectFalse", 1, "expect_false">,
    I32EnumAttrCase<"ExpectAllTrue", 2, "expect_all_true">,
    I32EnumAttrCase<"ExpectEq", 3, "expect_eq">,
    I32EnumAttrCase<"ExpectAlmostEq", 4, "expect_almost_eq">,
  ]> {
  let cppNamespace = "::mlir::kiln::host";
  let genSpecializedAttr = 0;
}

def Host_CheckKindAttr : EnumAttr<Host_Dialect, Host_CheckKind, "check_kind">;

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

def Host_BufferOp : Host_Op<"buffer"> {
  let summary = "Planned storage the runtime keeps from call to call.";
  let description = [{
    `size` bytes, 64-byte aligned, allocated by the runtime before the
    function first runs and kept for the next call. What was written into
    it is dead when a call starts: a buffer holds intermediates only, never
    a value the function returns. Several dispatch results may be written
    into one buffer when none of them is needed once the next is written
    (`kiln-plan-buffers` decides). Defined in the entry block; the module
    numbers a function's buffers in the order of these ops.

    ```mlir
    %buffer = host.buffer 1024
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$size);
  let results = (outs Res<Host_BufferType, "", [MemAlloc]>:$result);
  let assemblyFormat = "$size attr-dict";
  let hasVerifier = 1;
}

def Host_AllocateOp : Host_Op<"allocate"> {
  let summary = "New storage for the one dispatch result written into it.";
  let description = [{
    Each time the dispatch that writes into it runs, the runtime allocates
    storage for its result; the storage goes when no value views it any
    more. What a function returns lives in such storage (or is copied out),
    so a caller keeps it across calls. Used by exactly one `host.dispatch`.

    ```mlir
    %new = host.allocate
    %r = host.dispatch @ex::@add(%a, %b) into(%new) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let results = (outs Res<Host_BufferType, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

def Host_ConstantOp : Host_Op<"constant", [
    Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant of the module, read in place.";
  let description = [{
    The module stores `value` once (equal constants share it) and the slot
    views it where the module is mapped: read-only, never copied, except
    when returned (the caller owns its results).

    ```mlir
    %c = host.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "attr-dict $value";
}

def Host_ReshapeOp : Host_Op<"reshape", [Pure]> {
  let summary = "A view of a value's storage with another shape.";
  let description = [{
    Same element type and byte size; no data moves. Collapsing, expanding,
    casting and reshaping tensors on the host all become this. The result's
    dynamic dimensions are `result_dims`; where either side is dynamic the
    sizes are compared when the program runs.

    ```mlir
    %v = host.reshape %x : tensor<4x4xf32> -> tensor<16xf32>
    %w = host.reshape %y dims(%n) : tensor<?x4xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, Variadic<Index>:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source (`dims` `(` $result_dims^ `)`)? attr-dict `:` type($source) `->`
    type($result)
  }];
  let builders = [OpBuilder<(ins "::mlir::Type":$result,
                                 "::mlir::Value":$source), [{
    build($_builder, $_state, result, source, ::mlir::ValueRange());
  }]>];
  let hasVerifier = 1;
}

def Host_DimOp : Host_Op<"dim", [Pure]> {
  let summary = "A dimension of a value, as the program runs.";
  let description = [{
    ```mlir
    %n = host.dim %x, 0 : tensor<?x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, IndexAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$source `,` $dimension attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Host_ExtractOp : Host_Op<"extract", [Pure]> {
  let summary = "An element of an integer tensor, as an index, as the "
                "program runs.";
  let description = [{
    Reads element `element` (row-major) of a statically shaped tensor of
    integers into an index: sign-extended, or zero-extended with
    `unsigned`. This is how sizes held in a tensor's contents (an ONNX
    model's shape given as an input) reach the host's index arithmetic.

    ```mlir
    %n = host.extract %shape[2] : tensor<4xi64>
    %u = host.extract %sizes[0] unsigned : tensor<2xi32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger]>:$source,
                       IndexAttr:$element, UnitAttr:$isUnsigned);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $source `[` $element `]` (`unsigned` $isUnsigned^)? attr-dict `:`
    type($source)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Dispatches and checks
//===----------------------------------------------------------------------===//

def Host_DispatchOp : Host_Op<"dispatch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs an executable export, writing its results into buffers.";
  let description = [{
    Runs export `entry_point` (`@executable::@export`) once over its
    workgroup grid with its operands bound first, then one binding per
    result: result `i` is written into `buffers[i]` and views it. A buffer
    holds at least the bytes of the result written into it, and no two
    results of one dispatch share one; that no operand lives in a result's
    buffer is what `kiln-plan-buffers` guarantees (and the runtime checks).
    `constants` are the index values the kernel reads after its bindings'
    dynamic extents; `result_dims` gives each dynamic dimension of each
    result, in order.

    ```mlir
    %buffer = host.buffer 64
    %r = host.dispatch @main_dispatch_0::@main_dispatch_0_add_16_f32(%a, %b) into(%buffer)
        : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$entry_point,
                       Variadic<AnyRankedTensor>:$arguments,
                       Variadic<Index>:$constants,
                       Variadic<Host_BufferType>:$buffers,
                       Variadic<Index>:$result_dims);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $entry_point `(` $arguments `)` (`constants` `(` $constants^ `)`)?
    `into` `(` $buffers `)` (`dims` `(` $result_dims^ `)`)? attr-dict `:`
    functional-type($arguments, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The executable symbol (root of the entry point reference).
    ::mlir::StringAttr getExecutableName() {
      return getEntryPoint().getRootReference();
    }
    /// The export symbol (leaf of the entry point reference).
    ::mlir::StringAttr getExportName() {
      return getEntryPoint().getLeafReference();
    }
  }];
}

def Host_CheckOp : Host_Op<"check"> {
  let summary = "A test assertion, reported and not fatal.";
  let description = [{
    IREE's `check.expect_*` as the module runs it: `expect_true` and
    `expect_false` of a 0-d integer tensor, `expect_all_true` of an integer
    tensor, `expect_eq` and `expect_almost_eq` (with `atol` and `rtol`,
    elementwise `|lhs - rhs| <= atol + rtol * |rhs|`) of two tensors of one
    type. A failure is reported with the op's location and the function goes
    on.

    ```mlir
    host.check expect_almost_eq %0, %1 {atol = 1.0e-03 : f32} : tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Host_CheckKindAttr:$kind, AnyRankedTensor:$lhs,
                       Optional<AnyRankedTensor>:$rhs,
                       OptionalAttr<F32Attr>:$atol,
                       OptionalAttr<F32Attr>:$rtol);
  let assemblyFormat = [{
    $kind $lhs (`,` $rhs^)? attr-dict `:` type($lhs) (`,` type($rhs)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Host_BranchOp : Host_Op<"br", [
    Pure, Terminator, DeclareOpInterfaceMethods<BranchOpInterface>]> {
  let summary = "Continues at a block, its arguments viewing the operands.";
  let description = [{
    Each argument of `dest` becomes a view of the corresponding operand's
    storage. No operand is an argument of `dest` itself, so the views can
    be made one after the other (a loop that swaps two values goes through
    a `host.reshape` first).

    ```mlir
    host.br ^loop(%next : tensor<4xf32>)
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$destOperands);
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = [{
    $dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Host_CondBranchOp : Host_Op<"cond_br", [
    Pure, Terminator, DeclareOpInterfaceMethods<BranchOpInterface>]> {
  let summary = "Continues at one of two blocks by a 0-d i1 tensor.";
  let description = [{
    Continues at `trueDest` when the byte of `condition` is nonzero, else at
    `falseDest`. Neither block takes arguments: values reach them through a
    `host.br`.

    ```mlir
    host.cond_br %c, ^then, ^else
    ```
  }];
  let arguments = (ins Host_ConditionType:$condition);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let assemblyFormat = "$condition `,` $trueDest `,` $falseDest attr-dict";
}

def Host_ReturnOp : Host_Op<"return", [
    Pure, Terminator, ReturnLike, HasParent<"::mlir::func::FuncOp">]> {
  let summary = "Returns the function's results.";
  let description = [{
    A result that views an argument, a constant or a `host.buffer` is
    copied by the runtime; one in storage from `host.allocate` is handed
    over as it is.

    ```mlir
    host.return %0, %1 : tensor<4xf32>, tensor<2xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

#endif // KILN_DIALECT_HOST_OPS
