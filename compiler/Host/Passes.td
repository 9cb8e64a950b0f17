//===- Passes.td - host program passes ---------------------*- tablegen -*-===//

#ifndef KILN_HOST_PASSES
#define KILN_HOST_PASSES

include "mlir/Pass/PassBase.td"

def ConvertToHostPass : Pass<"kiln-convert-to-host", "::mlir::func::FuncOp"> {
  let summary = "Lowers a dispatch-level function to host ops.";
  let description = [{
    The function becomes the control flow graph of host instructions the
    module holds: constants (`tensor.empty` as zeros) become
    `host.constant`, each `kiln.dispatch` a `host.dispatch` writing every
    result into new storage (`host.allocate`), reshapes of every kind
    `host.reshape`, `check.expect_*` `host.check`, and `scf.if` and
    `scf.while` blocks joined by `host.br` and `host.cond_br` on the 0-d
    `tensor<i1>` the condition was read from. `util.optimization_barrier`
    has done its work: its values pass through. Any other op is an error
    naming it.

    ```mlir
    %e = tensor.extract %cond[] : tensor<i1>
    %r = scf.if %e -> tensor<4xf32> {
      %0 = kiln.dispatch @ex::@neg(%x) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %0 : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    // becomes
      host.cond_br %cond, ^then, ^else
    ^then:
      %new = host.allocate
      %0 = host.dispatch @ex::@neg(%x) into(%new) : (tensor<4xf32>) -> tensor<4xf32>
      host.br ^join(%0 : tensor<4xf32>)
    ^else:
      host.br ^join(%x : tensor<4xf32>)
    ^join(%r: tensor<4xf32>):
    ```
  }];
  let dependentDialects = ["::mlir::kiln::host::HostDialect"];
}

def PlanBuffersPass : Pass<"kiln-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Writes dispatch results into buffers reused by liveness.";
  let description = [{
    Each dispatch result that may share storage moves from new storage
    (`host.allocate`) to a `host.buffer` the runtime keeps from call to
    call, and results whose values are never needed at once share one
    buffer. A result keeps new storage when a value viewing it may be
    returned (the caller owns its results) or when a value viewing it may
    still be needed when the dispatch writes it again (a value carried
    around a loop). Two results share a buffer only if no value that may
    view one (its reshapes, the block arguments it reaches) is live where
    the other is written, counting the operands of that dispatch; liveness
    follows the control flow graph, loops included. A buffer is as large
    as the largest result written into it; a result goes to the buffer
    whose size is closest to its own (equal first, then larger, then the
    largest smaller one, which grows), else to a new buffer.

    ```mlir
    %n0 = host.allocate
    %0 = host.dispatch @ex::@a(%x) into(%n0) : (tensor<64xf32>) -> tensor<64xf32>
    %n1 = host.allocate
    %1 = host.dispatch @ex::@b(%0) into(%n1) : (tensor<64xf32>) -> tensor<64xf32>
    %n2 = host.allocate
    %2 = host.dispatch @ex::@c(%1) into(%n2) : (tensor<64xf32>) -> tensor<64xf32>
    %n3 = host.allocate
    %3 = host.dispatch @ex::@d(%2) into(%n3) : (tensor<64xf32>) -> tensor<64xf32>
    host.return %3 : tensor<64xf32>
    // becomes
    %b0 = host.buffer 256
    %b1 = host.buffer 256
    %0 = host.dispatch @ex::@a(%x) into(%b0) : ...
    %1 = host.dispatch @ex::@b(%0) into(%b1) : ...
    %2 = host.dispatch @ex::@c(%1) into(%b0) : ...
    %n3 = host.allocate
    %3 = host.dispatch @ex::@d(%2) into(%n3) : ...
    ```
  }];
}

#endif // KILN_HOST_PASSES
