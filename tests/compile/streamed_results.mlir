// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: kiln-compile %s --cpu=x86-64-v3 --keep-library-files=%t.dir -o %t.dir/m.kiln
// RUN: %llvm_tools_dir/llvm-objdump -d --no-show-raw-insn %t.dir/streamed_results.so | FileCheck %s --check-prefix=ASM
// RUN: kiln-run %t.dir/m.kiln --input=8388613xf32=2 --input=8388613xf32=0.5 --output=@%t.dir/r.npy
// RUN: %python -c "import array, sys; d = open(sys.argv[1], 'rb').read(); a = array.array('f'); a.frombytes(d[10 + int.from_bytes(d[8:10], 'little'):]); print(len(a), 'elements,', sum(1 for i, v in enumerate(a) if v != 1 + i), 'wrong')" %t.dir/r.npy | FileCheck %s
// Tests that a result larger than the last-level cache (32 MiB for a named
// CPU; this one is 20 bytes more) is stored with non-temporal stores, fenced
// before the kernel returns, and holds what it should: every element, the
// 5 past the last whole vector included (stored as usual), is 2 * 0.5 plus
// its index.

// ASM: vmovntps %ymm{{[0-9]+}}, (
// ASM: sfence
// CHECK: 8388613 elements, 0 wrong
func.func @main(%a: tensor<8388613xf32>, %b: tensor<8388613xf32>) -> tensor<8388613xf32> {
  %e = tensor.empty() : tensor<8388613xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8388613xf32>, tensor<8388613xf32>) outs(%e : tensor<8388613xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %m, %f : f32
    linalg.yield %s : f32
  } -> tensor<8388613xf32>
  return %r : tensor<8388613xf32>
}
