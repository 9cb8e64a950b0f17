//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//

#ifndef KILN_CODEGEN_CPU_PASSES
#define KILN_CODEGEN_CPU_PASSES

include "mlir/Pass/PassBase.td"

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

def SelectLoweringStrategyPass
    : Pass<"kiln-cpu-select-lowering-strategy", "::mlir::kiln::ExecutableVariantOp"> {
  let summary = "Chooses workgroup and vector tiles for every export.";
  let description = [{
    For each export, finds the op whose result the kernel stores (the tiling
    root) and the op doing the heavy work (contraction, convolution,
    reduction, relayout), picks tiles for the variant's CPU and attaches them
    as `#kiln.lowering_config`, recording the workgroup count on the export:

    - register tiles from the target's vector width and register count: a
      packed matmul (mmt4d) computes one M0 x N0 accumulator tile over all of
      K, a convolution the same block less its filter row's halo, elementwise
      ops a vector of lanes;
    - workgroup tiles from its cache sizes and the work per workgroup: an
      mmt4d workgroup keeps its RHS panels in half the L2, and its rows and
      columns are split so that operands L2 cannot hold are read again as
      little as the workgroup count allows;
    - packs and unpacks move whole inner tiles, reading their source by rows;
    - a reduction chain (softmax, layernorm) is tiled by rows only, so each
      row's reductions are computed once per tile;
    - pads and concats are split by rows of their destination.

    Tiles need not divide their loops: remainders are peeled.

    ```mlir
    kiln.executable.export @mm ordinal(0) bindings(3) workgroups(array<i64: 32, 1, 1>)
    ...
    linalg.mmt4d {lowering_config = #kiln.lowering_config<
        workgroup = [0, 2, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>} ...
    ```

    Kernels whose root cannot be tiled run as a single workgroup.
  }];
  let dependentDialects = ["::mlir::kiln::KilnDialect"];
}

def CheckDispatchConstantsPass
    : Pass<"kiln-cpu-check-dispatch-constants", "::mlir::func::FuncOp"> {
  let summary = "The kernel checks the constants it relies on itself.";
  let description = [{
    What the kernel takes of its dispatch constants is compiled into it, so
    that a module edited after compilation (its equal constants, covering
    tiles or workgroup tiles deleted or changed) cannot make it read or
    write past a binding: at the kernel's entry a `cf.assert` requires the
    extents its export declares equal to be equal, each covering tile count
    to cover its extent, and the launched grid to be at most what the
    workgroup tiles give for the dispatch's extents. Kernel lowering turns a
    failed check into `KILN_DISPATCH_OUT_OF_BOUNDS`. The runtime checks the
    same from the module first, to say which sizes disagree.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def CheckSliceBoundsPass
    : Pass<"kiln-cpu-check-slice-bounds", "::mlir::func::FuncOp"> {
  let summary = "Fails a workgroup whose computed sizes do not fit.";
  let description = [{
    A slice whose offsets or sizes a kernel computes from the sizes of the
    call (a dynamic `tensor.extract_slice` or `tensor.insert_slice`) may
    fall outside its tensor for some sizes, an insert's source may have
    other sizes than its slice, and a result other sizes than the binding
    it is stored into; each would read or write outside a binding. Before
    each such op of the kernel's body, a `cf.assert` checks that the slice
    is empty or lies inside the tensor (a stride of at least 1, `0 <=
    offset < dim`, and `size - 1 <= (dim - 1 - offset) / stride`, which
    cannot overflow), and that the sizes agree; kernel lowering turns a
    failed check into the workgroup's return code
    `KILN_DISPATCH_OUT_OF_BOUNDS`, so the dispatch fails before it touches
    memory. What value-bounds analysis proves is left unchecked.

    ```mlir
    %s = tensor.extract_slice %x[%h, 0] [2, 8] [1, 1] : tensor<?x8xf32> to tensor<2x8xf32>
    // gains, before it
    cf.assert %inside, "tensor.extract_slice inside its tensor"
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::tensor::TensorDialect"];
}

def BoundExtractIndicesPass
    : Pass<"kiln-cpu-bound-extract-indices", "::mlir::func::FuncOp"> {
  let summary = "Clamps computed tensor.extract indices into their tensor.";
  let description = [{
    A `tensor.extract` at an index computed from data (a gather written as a
    generic reading a table) would read outside its buffer when the data
    says so. Each index not provably inside its dim is clamped to
    `[0, dim - 1]`, as XLA clamps gather indices: a kernel never reads
    outside its bindings, whatever its inputs hold. Indices that value-bounds
    analysis proves in range (constants, loop indices over the dim) are
    left alone.

    ```mlir
    %v = tensor.extract %table[%i] : tensor<16xf32>
    // becomes
    %lo = arith.maxsi %i, %c0 : index
    %in = arith.minsi %lo, %c15 : index
    %v = tensor.extract %table[%in] : tensor<16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TileAndDistributeToWorkgroupsPass
    : Pass<"kiln-cpu-tile-and-distribute-to-workgroups", "::mlir::func::FuncOp"> {
  let summary = "Tiles the root by its workgroup tiles into an scf.forall.";
  let description = [{
    Tiles the op carrying a `workgroup` tile configuration with an
    `scf.forall` (one iteration per workgroup) and fuses all its producers
    into the loop body. After bufferization the forall is resolved into
    `kiln.workgroup.id` reads.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TileToVectorSizesPass
    : Pass<"kiln-cpu-tile-to-vector-sizes", "::mlir::func::FuncOp"> {
  let summary = "Tiles ops to their vector tiles and peels the remainders.";
  let description = [{
    Tiles the parallel loops of the op carrying a `workgroup` tile to its
    `vector` tile (fusing its producers), then each configured op's
    reduction loops, then anything still larger than a register-sized tile.
    A tile need not divide its loop: the last, partial iteration is peeled
    off, so full tiles have static shapes, and the remainder too when the
    loop's range is static.

    ```mlir
    // 1000 elements, vector tile 16
    scf.for %i = %c0 to %c992 step %c16 ... tensor<16xf32> ...
    scf.for %i = %c992 to %c1000 step %c16 ... tensor<?xf32> ...
    // after canonicalization: the remainder is one tile of tensor<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def VectorizePass : Pass<"kiln-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Vectorizes tiled linalg ops, packs and unpacks.";
  let description = [{
    Decomposes unit-tiled 2-D convolutions and poolings into 1-D ones, then
    vectorizes every linalg op, pack and unpack with a small static
    iteration space; a pack or unpack whose tile overhangs its buffer (the
    end of a loop) is vectorized at its full tile size through a mask.
    Slices fold into the transfers, and an accumulator read and written back
    at the same place on every iteration of a reduction loop becomes a
    loop-carried vector, so it stays in registers. Ops left alone are
    lowered to scalar loops later.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::ub::UBDialect"];
}

def VectorizeCopiesPass
    : Pass<"kiln-cpu-vectorize-copies", "::mlir::func::FuncOp"> {
  let summary = "Moves the rows of buffer copies as whole vectors.";
  let description = [{
    A `linalg.copy` between buffers whose innermost dims are contiguous and
    of one static size (the image rows a workgroup copies into its padded
    tile, a value into its binding) becomes loops over its outer dims and,
    per row, vector loads and stores of 256 bytes, the row's last as large
    as what is left. Other copies stay for the scalar loops.

    ```mlir
    linalg.copy ins(%a : memref<?x56x64xf32, strided<[3584, 64, 1], offset: ?>>)
                outs(%b : memref<?x56x64xf32, strided<[3712, 64, 1], offset: ?>>)
    // becomes, for each %i < dim 0 and %j < 56
    %r = vector.load %a[%i, %j, %c0] : ..., vector<64xf32>
    vector.store %r, %b[%i, %j, %c0] : ..., vector<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def BufferizePass : Pass<"kiln-cpu-bufferize", "::mlir::ModuleOp"> {
  let summary = "Bufferizes kernels in place into their bindings.";
  let description = [{
    Replaces `tensor.empty` ops that are stored to a binding by that binding
    (so results are computed in place), then bufferizes with One-Shot
    Bufferize. Temporaries become stack allocations and copies become
    `linalg.copy`, so kernels never call into a memory allocator or a
    runtime library. Each temporary sized at run time takes a buffer at the
    function's start, as large as its sizes' bounds there; a `cf.assert`
    before the work checks that it fits the stack.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def ResolveWorkgroupIdsPass
    : Pass<"kiln-cpu-resolve-workgroup-ids", "::mlir::func::FuncOp"> {
  let summary = "Turns the workgroup scf.forall into one workgroup's work.";
  let description = [{
    The only `scf.forall` in a kernel at this point is the workgroup loop.
    Its body is inlined with each induction variable replaced by
    `kiln.workgroup.id` (the innermost loop is x):

    ```mlir
    scf.forall (%i, %j) in (4, 2) { ... }
    // becomes
    %j = kiln.workgroup.id 0
    %i = kiln.workgroup.id 1
    ...
    ```
  }];
  let dependentDialects = ["::mlir::kiln::KilnDialect",
                           "::mlir::arith::ArithDialect"];
}

def LowerVectorsPass : Pass<"kiln-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Hoists accumulators and lowers vector ops to 1-D form.";
  let description = [{
    Hoists loop-invariant transfers (keeping accumulators in registers across
    reduction loops), then lowers contractions to outer products (those
    whose reductions take one step and whose operands share a parallel dim
    to elementwise FMAs, upstream's parallel-arithmetic lowering), transposes,
    multi-reductions, broadcasts and transfers to the 1-D vector ops LLVM
    code generation handles well. A loop that reduces a vector per step into
    a carried scalar carries a vector of partial results instead, reduced
    once after it: always for min and max, for float sums and products only
    where `reassociate-fp-reductions` (the default) lets them add in another
    order.
  }];
  let options = [
    Option<"reassociateFpReductions", "reassociate-fp-reductions", "bool",
           /*default=*/"true",
           "Floating-point reductions may reorder their additions">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::ub::UBDialect"];
}

def ExpandSmallFloatsPass
    : Pass<"kiln-cpu-expand-small-floats", "::mlir::func::FuncOp"> {
  let summary = "Computes with floats of at most 8 bits in f32, converting "
                "them with integer operations.";
  let description = [{
    x86 has no arithmetic on f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ,
    f8E8M0FNU or f4E2M1FN, and LLVM no conversions to or from them. Scalar
    and vector ops on them compute in f32 instead and round each result back
    to its type: upstream's `arith.scaling_extf`/`scaling_truncf` expansion,
    `arith` float emulation and `math` type extension. The `arith.extf` and
    `arith.truncf` that remain become integer operations on the bits, for
    every such type, derived from its APFloat semantics:

    - widening is exact: 0x80 of an FNUZ type is NaN, 0x00 of f8E8M0FNU is
      2^-127, NaN payloads keep their top bits;
    - narrowing from f32 or f64 rounds to nearest even in one step, with
      the rules of runtime/base/float_convert.h for what the type cannot
      hold (infinities and overflow become the type's infinity, else its
      NaN, else for f4E2M1FN its largest value; NaN without NaN is a zero;
      f8E8M0FNU rounds to the nearest power of two, midpoints up, and makes
      negative values NaN); f16 and bf16 are widened to f32 first (exactly).

    Upstream's own expansions of f4E2M1FN and f8E8M0FNU (`arith-expand`) are
    not used: the former rounds 2.5 and 5.0 away from even and loses the
    sign of zero, the latter reads 0x00 as 0 and truncates instead of
    rounding.

    ```mlir
    %s = arith.addf %a, %b : vector<8xf8E4M3FN>
    // becomes (the extf and truncf then integer operations on i32 lanes)
    %a32 = arith.extf %a : vector<8xf8E4M3FN> to vector<8xf32>
    %b32 = arith.extf %b : vector<8xf8E4M3FN> to vector<8xf32>
    %s32 = arith.addf %a32, %b32 : vector<8xf32>
    %s = arith.truncf %s32 : vector<8xf32> to vector<8xf8E4M3FN>
    ```

    A `truncf` with a rounding mode other than to nearest even is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def GuardIntegerDivisionPass
    : Pass<"kiln-cpu-guard-integer-division", "::mlir::func::FuncOp"> {
  let summary = "Makes integer division by zero, and the signed division "
                "that overflows, fault-free.";
  let description = [{
    x86 division faults on a zero divisor and on the type's minimum divided
    by -1, killing the process that runs the kernel. The divisor of every
    `arith` integer division and remainder (signed, unsigned, ceil and
    floor) becomes 1 in those cases, so that the quotient is the dividend
    and the remainder 0; a divisor known to be safe (a constant neither 0
    nor, when signed, -1) is left as it is.

    ```mlir
    %q = arith.divsi %a, %b : i32
    // becomes
    %zero = arith.cmpi eq, %b, %c0 : i32
    %overflow = arith.andi (%a == INT_MIN), (%b == -1)
    %d = arith.select (%zero or %overflow), %c1, %b : i32
    %q = arith.divsi %a, %d : i32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def StreamResultStoresPass
    : Pass<"kiln-cpu-stream-result-stores", "::mlir::func::FuncOp"> {
  let summary = "Makes the vector stores of results larger than the "
                "last-level cache non-temporal.";
  let description = [{
    A result larger than the last-level cache has left it before anything
    reads it; stored through the caches, each line it writes is first read
    from memory. The vector stores of a written binding of at least
    `min-result-bytes` (0: the target's last-level cache) that the kernel
    never reads become non-temporal, with the alignment proven for them:
    the binding's (KILN_WRITTEN_BINDING_ALIGNMENT bytes) and the powers of
    two that divide the store's element offset, from loop bounds and steps,
    tile offsets and strides. A store proven aligned to less than its
    register width stays as it is. A kernel that streams fences its stores
    (`sfence`) before it returns.

    ```mlir
    vector.store %v, %subview[%i] : memref<16384xf32, strided<[1], offset: ?>>, vector<16xf32>
    // becomes, when %subview's offset and %i are multiples of 16
    vector.store %v, %subview[%i] {alignment = 64 : i64, nontemporal = true} : ...
    ```
  }];
  let options = [
    Option<"minResultBytes", "min-result-bytes", "int64_t",
           /*default=*/"0",
           "Smallest result streamed, in bytes (0: the target's last-level "
           "cache)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertToLLVMPass : Pass<"kiln-cpu-convert-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lowers kernels to the LLVM dialect with the library ABI.";
  let description = [{
    Lowers every remaining dialect to LLVM. Each kernel becomes
    `i32 @name(ptr %dispatch_state, ptr %workgroup_state)` as declared in
    executable_library.h; `kiln.binding` loads its base pointer from the
    dispatch state and `kiln.workgroup.id`/`count` read the states.

    Vector reductions of floats may add their lanes in any order unless
    `reassociate-fp-reductions=false`, where they add them in order (as a
    scalar loop would, and slower).
  }];
  let options = [
    Option<"reassociateFpReductions", "reassociate-fp-reductions", "bool",
           /*default=*/"true",
           "Floating-point vector reductions may reorder their additions">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // KILN_CODEGEN_CPU_PASSES
