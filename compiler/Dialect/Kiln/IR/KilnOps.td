//===- KilnOps.td - kiln operations ------------------------*- tablegen -*-===//

#ifndef KILN_DIALECT_KILN_OPS
#define KILN_DIALECT_KILN_OPS

include "Dialect/Kiln/IR/KilnBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Dispatch formation: regions of fused ops, and the dispatches outlined
// from them (the host dialect takes over from there)
//===----------------------------------------------------------------------===//

def Kiln_DispatchRegionOp : Kiln_Op<"dispatch.region", [
    SingleBlockImplicitTerminator<"::mlir::kiln::ReturnOp">,
    RecursiveMemoryEffects]> {
  let summary = "Ops that will run together as one dispatch.";
  let description = [{
    Formed by dispatch formation around a root op and the ops fused with it;
    values defined above and used inside become the dispatch's inputs, the
    operands of the terminator its outputs. Outlining turns each region into
    a `kiln.executable` and a `kiln.dispatch`. `result_dims` holds each
    dynamic dimension of each result, in order, computed before the region
    (the host sizes the results before the dispatch runs).

    ```mlir
    %0 = kiln.dispatch.region -> (tensor<4x16xf32>) {
      %e = tensor.empty() : tensor<4x16xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
      %m = linalg.matmul ins(%a, %b : ...) outs(%f : ...) -> tensor<4x16xf32>
      kiln.return %m : tensor<4x16xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$result_dims);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`->` `(` type($results)^ `)`)? (`dims` `(` $result_dims^ `)`)? $body
    attr-dict
  }];
  let hasVerifier = 1;
}

def Kiln_ReturnOp : Kiln_Op<"return", [
    Pure, Terminator, HasParent<"DispatchRegionOp">, ReturnLike]> {
  let summary = "Yields the outputs of a dispatch region.";
  let arguments = (ins Variadic<AnyRankedTensor>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

def Kiln_DispatchOp : Kiln_Op<"dispatch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs an executable export over tensors.";
  let description = [{
    Runs export `entry_point` (`@executable::@export`) once over its workgroup
    grid. Operands are bound first, then one fresh buffer per result;
    `constants` are index values the kernel reads after its bindings'
    dynamic extents (`kiln.dispatch.constant`); `result_dims` are the
    results' dynamic dimensions, in order.

    ```mlir
    %r = kiln.dispatch @main_dispatch_0::@main_dispatch_0_matmul_4x16x8_f32(%a, %b)
        : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$entry_point,
                       Variadic<AnyRankedTensor>:$arguments,
                       Variadic<Index>:$constants,
                       Variadic<Index>:$result_dims);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $entry_point `(` $arguments `)` (`constants` `(` $constants^ `)`)?
    (`dims` `(` $result_dims^ `)`)? attr-dict
    `:` functional-type($arguments, $results)
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

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

def Kiln_ExecutableOp : Kiln_Op<"executable", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    HasParent<"::mlir::ModuleOp">]> {
  let summary = "The code of one or more dispatch entry points.";
  let description = [{
    Holds one `kiln.executable.variant` per compilation target. Each variant
    declares the same exports and holds the module that implements them.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
  }];
}

def Kiln_ExecutableVariantOp : Kiln_Op<"executable.variant", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    HasParent<"ExecutableOp">]> {
  let summary = "One target's implementation of an executable.";
  let description = [{
    `target` names the target (`llvm-cpu`), `triple`, `cpu` and `features`
    configure code generation. The body holds `kiln.executable.export` ops
    and one `builtin.module` with a function per export.

    ```mlir
    kiln.executable.variant @cpu target("llvm-cpu") attributes {
        triple = "x86_64-unknown-linux-gnu", cpu = "x86-64-v3", features = ""} {
      kiln.executable.export @main_dispatch_0_add_4_f32 ordinal(0) bindings(3)
      builtin.module { func.func @main_dispatch_0_add_4_f32() { ... } }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target,
                       StrAttr:$triple, StrAttr:$cpu, StrAttr:$features);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` `(` $target `)` attr-dict-with-keyword $body
  }];
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// The module implementing the exports; null before it is built.
    ::mlir::ModuleOp getInnerModule();
    /// Export ops in order.
    auto getExportOps() { return getBlock().getOps<ExecutableExportOp>(); }
  }];
}

def Kiln_ExecutableExportOp : Kiln_Op<"executable.export", [
    Symbol, HasParent<"ExecutableVariantOp">]> {
  let summary = "An entry point of an executable variant.";
  let description = [{
    `ordinal` is the index of the export within its variant; `bindings` the
    number of buffers it takes (inputs, then outputs) and `binding_types`
    their tensor types; `outputs` how many of them, the last ones, the code
    writes (derived from the kernel by `kiln-verify-export-interfaces`).
    `workgroup_count` is set by strategy selection once the workgroup tiling
    is known; over dynamic extents, `workgroup_tiles` holds triples
    (grid dimension, dispatch constant, tile): the count along that
    dimension is multiplied by ceil(constant / tile) at run time;
    `equal_constants` holds pairs of dispatch constants the kernel takes to
    be equal and `covering_tiles` triples (tiles constant, extent
    constant, tile) whose tiles must cover the extent, as an unpack reads
    the source tiles its result needs (both derived by
    `kiln-verify-export-interfaces`);
    `index_constants` is the number of index values a dispatch passes
    after those extents (none when absent). Together
    they are what the library tells the runtime about the code, so a module
    cannot make it run out of bounds.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       IndexAttr:$ordinal,
                       IndexAttr:$bindings,
                       OptionalAttr<DenseI64ArrayAttr>:$workgroup_count,
                       OptionalAttr<TypeArrayAttr>:$binding_types,
                       OptionalAttr<IndexAttr>:$outputs,
                       OptionalAttr<DenseI64ArrayAttr>:$workgroup_tiles,
                       OptionalAttr<DenseI64ArrayAttr>:$equal_constants,
                       OptionalAttr<IndexAttr>:$index_constants,
                       OptionalAttr<DenseI64ArrayAttr>:$covering_tiles);
  let assemblyFormat = [{
    $sym_name `ordinal` `(` $ordinal `)` `bindings` `(` $bindings `)`
    (`workgroups` `(` $workgroup_count^ `)`)? attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Kernel interface (inside executables)
//===----------------------------------------------------------------------===//

def Kiln_BindingOp : Kiln_Op<"binding", [Pure]> {
  let summary = "The buffer bound at an index of the dispatch.";
  let description = [{
    Returns binding `index` of the current dispatch as a memref of the type
    the dispatch was formed with (inputs first, then outputs), its dynamic
    dimensions `dynamic_sizes` (read with `kiln.dispatch.constant`).

    ```mlir
    %0 = kiln.binding 0 : memref<4x8xf32>
    %n = kiln.dispatch.constant 0 : index
    %1 = kiln.binding 1 (%n) : memref<?x8xf32>
    ```
  }];
  let arguments = (ins IndexAttr:$index, Variadic<Index>:$dynamic_sizes);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $index (`(` $dynamic_sizes^ `)`)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_DispatchConstantOp : Kiln_Op<"dispatch.constant", [Pure]> {
  let summary = "A dynamic extent of the bindings or an index value passed.";
  let description = [{
    Constant `index` of the dispatch: the runtime passes the extents of the
    bindings that their types leave dynamic, binding after binding (inputs
    first), each binding's in dimension order, then the dispatch's
    `constants`.

    ```mlir
    %n = kiln.dispatch.constant 0 : index
    ```
  }];
  let arguments = (ins IndexAttr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
}

def Kiln_WorkgroupIdOp : Kiln_Op<"workgroup.id", [Pure]> {
  let summary = "Index of the running workgroup along a dimension.";
  let arguments = (ins IndexAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$dimension attr-dict";
}

def Kiln_WorkgroupCountOp : Kiln_Op<"workgroup.count", [Pure]> {
  let summary = "Number of workgroups of the dispatch along a dimension.";
  let arguments = (ins IndexAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$dimension attr-dict";
}

#endif // KILN_DIALECT_KILN_OPS
