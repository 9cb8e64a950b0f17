//===- Passes.td - global optimization passes --------------*- tablegen -*-===//

#ifndef KILN_GLOBALOPT_PASSES
#define KILN_GLOBALOPT_PASSES

include "mlir/Pass/PassBase.td"

def MaterializeDataTilingPass
    : Pass<"kiln-materialize-data-tiling", "::mlir::func::FuncOp"> {
  let summary = "Packs the operands of contractions into tiled layouts.";
  let description = [{
    Rewrites each matmul-like contraction (one M, N and K loop, at most one
    batch loop, one element type) large enough to repay a relayout into
    `linalg.pack` of its operands, a `linalg.mmt4d` (`linalg.batch_mmt4d`)
    on the packed operands and a `linalg.unpack` of the result. The inner
    tiles come from the target: M0 x N0 accumulators fill its vector
    registers (6 x 2 vectors with 16 registers, 16 x 1 vector with 32), and
    K0 = 1, so the kernel's inner loop streams one contiguous M0 and one
    contiguous N0 slice per step of K. Sizes that do not divide the tiles are
    padded with zeros by the packs and cut off by the unpack.

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<1000x512xf32>, tensor<512x256xf32>)
                       outs(%c : tensor<1000x256xf32>) -> tensor<1000x256xf32>
    // becomes, for AVX2 (M0 = 6, N0 = 16, K0 = 1)
    %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1]
        inner_tiles = [6, 1] into %ea : ... -> tensor<167x512x6x1xf32>
    %pb = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
        inner_tiles = [16, 1] into %eb : ... -> tensor<16x512x16x1xf32>
    %pc = linalg.pack %c ... -> tensor<167x16x6x16xf32>
    %m = linalg.mmt4d ins(%pa, %pb : ...) outs(%pc : ...)
    %r = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 16]
        into %e : tensor<167x16x6x16xf32> -> tensor<1000x256xf32>
    ```

    Packs of constants are folded into packed constants, so constant
    weights are packed once, at compile time; packs of fills become fills.
  }];
  let options = [
    Option<"targetCPU", "cpu", "std::string", /*default=*/"\"host\"",
           "CPU the tiles are chosen for: host, x86-64-v2, x86-64-v3, "
           "x86-64-v4 or any LLVM x86 CPU name">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def PromoteHalfReductionsPass
    : Pass<"kiln-promote-half-reductions", "::mlir::func::FuncOp"> {
  let summary = "Makes reductions of floats narrower than f32 accumulate in "
                "f32.";
  let description = [{
    A reduction (not a contraction) with an f16 or bf16 result, and any
    reduction or contraction with a result of at most 8 bits (the fp8 types,
    f4E2M1FN), is rebuilt on f32: its accumulator is extended to f32 before,
    its body computes in f32 (inputs extended as they are read) and its
    result is truncated once after, as numpy and PyTorch sum half-precision
    values. Named reductions and contractions are generalized first.

    ```mlir
    %r = linalg.reduce ins(%x : tensor<4096xf16>) outs(%init : tensor<f16>)
        dimensions = [0] (%a: f16, %b: f16) { arith.addf ... : f16 }
    // becomes
    %wide = linalg.generic {extf} ins(%init) -> tensor<f32>
    %sum = linalg.generic ins(%x : tensor<4096xf16>) outs(%wide : tensor<f32>)
        { %a32 = arith.extf %a : f16 to f32; arith.addf %a32, %acc : f32 }
    %r = linalg.generic {truncf} ins(%sum) -> tensor<f16>
    ```
  }];
  let options = [
    Option<"half", "half", "bool", /*default=*/"true",
           "Also f16 and bf16 reductions (small floats always)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ReleaseUnusedResourcesPass
    : Pass<"kiln-release-unused-resources", "::mlir::ModuleOp"> {
  let summary = "Frees the bytes of constants nothing refers to any more.";
  let description = [{
    A constant's bytes held as a resource (`dense_resource<name>`: the
    weights an imported model shares with the compiler) outlive the op that
    used them: the context keeps every resource. Once constant weights are
    packed, the unpacked ones are dead, and a model's weights would take
    twice their size. This pass releases the data of every builtin resource
    that no attribute of the module refers to; referenced ones (constants,
    embedded texts) are left as they are. It changes no IR.
  }];
}

#endif // KILN_GLOBALOPT_PASSES
