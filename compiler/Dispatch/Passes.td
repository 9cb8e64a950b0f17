//===- Passes.td - dispatch formation passes ---------------*- tablegen -*-===//

#ifndef KILN_DISPATCH_PASSES
#define KILN_DISPATCH_PASSES

include "mlir/Pass/PassBase.td"

def FuseElementwiseOpsPass : Pass<"kiln-fuse-elementwise-ops"> {
  let summary = "Fuses chains of elementwise linalg ops into single generics.";
  let description = [{
    Generalizes elementwise named ops (`linalg.add`, `linalg.exp`,
    `linalg.transpose`, ...) and fuses each elementwise producer that has a
    single use into its consumer, so that one dispatch computes the whole
    chain without intermediate tensors. Producers with several uses are left
    alone: fusing them would recompute them once per consumer. Fusion goes
    in rounds of disjoint producer-consumer pairs, so a chain of n ops
    halves each round and costs O(n log n), not the O(n^2) of fusing one op
    at a time into a growing body (a 10,000-op chain compiles in seconds).

    ```mlir
    %0 = linalg.add ins(%a, %b : ...) outs(%e : ...) -> tensor<4xf32>
    %1 = linalg.exp ins(%0 : ...) outs(%e : ...) -> tensor<4xf32>
    // becomes one linalg.generic computing exp(a + b)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FormDispatchRegionsPass : Pass<"kiln-form-dispatch-regions", "::mlir::func::FuncOp"> {
  let summary = "Groups each root op with the ops fused into it.";
  let description = [{
    Every linalg op and tensor slice op is a root. A root takes along its
    elementwise consumer when it is the root's only user (so the root's
    result never reaches memory), and the cheap producers it needs inside:
    `tensor.empty`, `linalg.fill` used only by it, splat constants, scalar
    constants and single-use `tensor.extract_slice`. Each group becomes one
    `kiln.dispatch.region` at the position of its last op.

    ```mlir
    %m = linalg.matmul ins(%a, %b : ...) outs(%f : ...) -> tensor<4x16xf32>
    %r = linalg.generic ... ins(%m, %bias : ...) // relu(m + bias)
    // becomes
    %r = kiln.dispatch.region -> (tensor<4x16xf32>) {
      ... tensor.empty, linalg.fill, linalg.matmul, linalg.generic ...
      kiln.return %1 : tensor<4x16xf32>
    }
    ```

    With `fuse=false` a root takes along only the cheap producers it copies
    (empty tensors, fills of them, splat and scalar constants, packs a
    contraction reads in place, scalars): each other op is a dispatch of
    its own, so that a profile's time per input op can be checked against
    one where fusion does not share dispatches between ops.
  }];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Group consumers, slices and reduction chains with their roots">,
  ];
  let dependentDialects = ["::mlir::kiln::KilnDialect"];
}

def OutlineDispatchRegionsPass : Pass<"kiln-outline-dispatch-regions", "::mlir::ModuleOp"> {
  let summary = "Turns each dispatch region into an executable and a dispatch.";
  let description = [{
    Each `kiln.dispatch.region` becomes a `kiln.executable` with a variant
    for each CPU of `cpu` (named `cpu` when there is one, else after its
    CPU, in the order given), whose only export is named after the work it
    does (`<func>_dispatch_<n>_<rootop>_<loop ranges>_<element type>`), and
    the region is replaced by a `kiln.dispatch` of that export. Inside, the
    kernel reads its tensors from `kiln.binding`s (inputs, then outputs)
    and writes its results back with
    `bufferization.materialize_in_destination`.
  }];
  let options = [
    ListOption<"targetCPUs", "cpu", "std::string",
           "CPUs to generate code for, each host, x86-64-v2, x86-64-v3, "
           "x86-64-v4 or any LLVM x86 CPU name (default host)">,
  ];
  let dependentDialects = ["::mlir::kiln::KilnDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect"];
}

def DeduplicateExecutablesPass : Pass<"kiln-deduplicate-executables", "::mlir::ModuleOp"> {
  let summary = "Keeps one copy of executables that do the same work.";
  let description = [{
    Executables whose variants are identical up to symbol names are merged:
    dispatches of a duplicate are redirected to the first occurrence and the
    duplicate is erased, so the same kernel is compiled and stored once.
  }];
}

#endif // KILN_DISPATCH_PASSES
