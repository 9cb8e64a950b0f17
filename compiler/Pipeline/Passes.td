//===- Passes.td - pipeline passes -------------------------*- tablegen -*-===//

#ifndef KILN_PIPELINE_PASSES
#define KILN_PIPELINE_PASSES

include "mlir/Pass/PassBase.td"

def PrintVariantPass
    : Pass<"kiln-print-variant", "::mlir::kiln::ExecutableVariantOp"> {
  let summary = "Prints each variant to stderr under a header naming it.";
  let description = [{
    Prints the variant it runs on to stderr, after a header naming the stage
    it is at, its executable and the variant. `kiln-compile --dump-stage`
    adds it at the stage asked for; the IR is left unchanged.

    ```
    // -----// 1.configured main_dispatch_0::cpu //----- //
    kiln.executable.variant @cpu target("llvm-cpu") ... {
    ```
  }];
  let options = [
    Option<"stage", "stage", "std::string", /*default=*/"\"\"",
           "Name of the stage the header shows">,
  ];
}

def VerifyExportInterfacesPass
    : Pass<"kiln-verify-export-interfaces", "::mlir::kiln::ExecutableVariantOp"> {
  let summary = "Checks each export's declared interface against its kernel "
                "and derives which bindings it writes.";
  let description = [{
    The export op's binding count and types, and its `outputs`, become the
    library's description of its code, which the runtime trusts to keep
    kernels in bounds. So they must say what the kernel does: every
    `kiln.binding` index is below the binding count and its memref type is
    the declared binding type, and exactly the last `outputs` bindings are
    written. `outputs` is set from the kernel when absent and checked when
    present (a stage text recompiled with `--compile-mode=executable`).
    Runs on tensor-level kernels (stages 0.source and 1.configured); the
    workgroup count is checked where the workgroup loop is resolved.

    ```mlir
    kiln.executable.export @add ordinal(0) bindings(3) {binding_types = [...]}
    // becomes
    kiln.executable.export @add ordinal(0) bindings(3) {binding_types = [...], outputs = 1 : index}
    ```
  }];
}

#endif // KILN_PIPELINE_PASSES
