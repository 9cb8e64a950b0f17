//===- Passes.td - global optimization passes --------------*- tablegen -*-===//

#ifndef KILN_GLOBALOPT_PASSES
#define KILN_GLOBALOPT_PASSES

include "mlir/Pass/PassBase.td"

def SinkTransposesPass
    : Pass<"kiln-sink-transposes", "::mlir::func::FuncOp"> {
  let summary = "Moves transposes past the elementwise ops they feed, where "
                "they meet the transposes that undo them.";
  let description = [{
    An elementwise `linalg.generic` that reads a `linalg.transpose` result
    (all such reads with one permutation) and no other tensor through an
    identity map becomes the same generic on the transpose's source,
    followed by one transpose of its result; its other inputs (broadcasts,
    such as a per-channel bias) are read through their maps composed with
    the permutation. Repeated, a transpose travels down an elementwise chain
    until it meets its inverse (folded by linalg's own canonicalization) or
    an op that is not elementwise. An imported convolutional network,
    channels-first in its model and channels-last in its convolutions, so
    runs channels-last from one convolution to the next.

    ```mlir
    %t = linalg.transpose ins(%conv : tensor<1x56x56x64xf32>)
        outs(%e : tensor<1x64x56x56xf32>) permutation = [0, 3, 1, 2]
    %r = linalg.generic {maps: identity, (d0, d1, d2, d3) -> (d1), identity}
        ins(%t, %bias : tensor<1x64x56x56xf32>, tensor<64xf32>) ...
    // becomes
    %g = linalg.generic {maps: identity, (d0, d1, d2, d3) -> (d3), identity}
        ins(%conv, %bias : tensor<1x56x56x64xf32>, tensor<64xf32>) ...
    %r = linalg.transpose ins(%g : tensor<1x56x56x64xf32>) ... permutation = [0, 3, 1, 2]
    ```

    Pools go the same way: the padding of a transposed tensor (an
    `insert_slice` into a fill) becomes the padding of its source,
    transposed; a window reduction between a transpose and its inverse runs
    in the source's layout, both transposes gone; and a channels-last
    window reduction in generic form becomes `linalg.pooling_nhwc_max` or
    `linalg.pooling_nhwc_sum`, which codegen computes with the channels in
    vector lanes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertConvsToMatmulsPass
    : Pass<"kiln-convert-convs-to-matmuls", "::mlir::func::FuncOp"> {
  let summary = "Rewrites 1x1 convolutions, and those with large filters, as "
                "matmuls; grouped ones as contractions or direct loops.";
  let description = [{
    A channels-last 2-D convolution (`linalg.conv_2d_nhwc_hwcf`, or
    `linalg.conv_2d_nhwc_fhwc`) whose window is one pixel multiplies each
    pixel's channels by the filter: it becomes a `linalg.matmul` of the
    pixels, [N*OH*OW, C], by the filter, [C, F] (or [F, C] transposed),
    and the product is expanded back to [N, OH, OW, F]. A strided one reads
    every stride-th pixel first (a strided `tensor.extract_slice`).

    A `linalg.conv_2d_nhwc_hwcf` with static sizes and a filter of at least
    1 MiB (which L2 would not hold while a direct convolution sweeps the
    image) becomes a matmul of its patches: a `linalg.generic` copies
    [N, OH, OW, KH, KW, C] from the input through the window's map,
    collapsed to [N*OH*OW, KH*KW*C], times the filter collapsed to
    [KH*KW*C, F]; patches of more than 64 MiB are not made.

    A convolution over groups of channels (`linalg.conv_2d_nhwgc_gfhwc`)
    whose window spans pixels and whose filter is under 1 MiB runs direct:
    a `linalg.generic` over [N, OH, OW, G, M/G] whose filter is transposed
    to [KH, KW, C/G, G, M/G] (folded at compile time for a constant), so
    that codegen multiplies vectors of a group's outputs by broadcast input
    elements. Others become a `linalg.contract` per group of their patches,
    [N*OH*OW, G, KH*KW*C/G], by the group's filter, [G, M/G, KH*KW*C/G]
    (the filter the LHS where a group has fewer than 8 outputs).

    Data tiling then packs the matmuls like any other, constant filters at
    compile time.

    ```mlir
    %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, ...}
        ins(%x, %w : tensor<1x14x14x1024xf32>, tensor<1x1x1024x256xf32>)
        outs(%init : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
    // becomes
    %rows = tensor.collapse_shape %x [[0, 1, 2], [3]] : ... to tensor<196x1024xf32>
    %w2 = tensor.collapse_shape %w [[0, 1, 2], [3]] : ... to tensor<1024x256xf32>
    %m = linalg.matmul ins(%rows, %w2 : ...) outs(%acc : tensor<196x256xf32>)
    %r = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 14, 14, 256]
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MaterializeDataTilingPass
    : Pass<"kiln-materialize-data-tiling", "::mlir::func::FuncOp"> {
  let summary = "Packs the operands of contractions into tiled layouts.";
  let description = [{
    Rewrites each matmul-like contraction (one M, N and K loop, at most one
    batch loop, one element type) large enough to repay a relayout into
    `linalg.pack` of its operands, a `linalg.mmt4d` (`linalg.batch_mmt4d`)
    on the packed operands and a `linalg.unpack` of the result. The inner
    tiles come from the target: M0 x N0 accumulators fill its vector
    registers (6 x 2 vectors with 16 registers, 8 x 2 or, over a deep K,
    6 x 4 with 32; for several CPUs, the first's in the fewest rows of any
    CPU's block), and K0 = 1, so the kernel's inner loop streams one
    contiguous M0 and one contiguous N0 slice per step of K. Sizes that do
    not divide the tiles are padded with zeros by the packs and cut off by
    the unpack.

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
    ListOption<"targetCPUs", "cpu", "std::string",
           "CPUs whose code computes the layouts, in order of preference, "
           "each host, x86-64-v2, x86-64-v3, x86-64-v4 or any LLVM x86 CPU "
           "name (default host): the tiles are the first's, in rows every "
           "CPU's register block takes whole">,
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
