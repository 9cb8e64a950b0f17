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

#endif // KILN_PIPELINE_PASSES
