// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --input=4xf32=0,0,0,1 | FileCheck %s
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=SUMMARY
// RUN: kiln-dump --disassemble %t.kiln | FileCheck %s --check-prefix=DUMP
// RUN: kiln-run %t.kiln --dispatch=main_dispatch_0_elementwise_D_f32 --binding=3xf32=1 --binding=3xf32=0 --index-constant=10 | FileCheck %s --check-prefix=DISPATCH
// RUN: not kiln-run %t.kiln --dispatch=main_dispatch_0_elementwise_D_f32 --binding=3xf32=1 --binding=3xf32=0 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: rm -rf %t.dispatches
// RUN: kiln-run %t.kiln --input=2xf32=0 --dump-dispatches=%t.dispatches
// RUN: cat %t.dispatches/0_main_dispatch_0_elementwise_D_f32/index_constants | FileCheck %s --check-prefix=SAVED
// RUN: %python -c "import sys; print(open(sys.argv[1], 'rb').read()[10:80].decode())" %t.dispatches/0_main_dispatch_0_elementwise_D_f32/out0.npy | FileCheck %s --check-prefix=SHAPE
// Tests that an index value the host holds (here a size the compiler may
// not see) reaches the kernel as an index constant: the dispatch passes its
// register, kiln-dump shows both, a dispatch run on its own takes it with
// --index-constant (and is refused without), and --dump-dispatches saves
// it beside the bindings, which have the sizes of the call.
// CHECK: 4xf32=0 3 6 10
// SUMMARY: main_dispatch_0_elementwise_D_f32
// SUMMARY: index constants  1
// DUMP: dispatch main_dispatch_0::main_dispatch_0_elementwise_D_f32(%0) constants(i{{[0-9]+}})
// DISPATCH: 3xf32=1 1 1
// DISPATCH-NEXT: 3xf32=1 11 21
// MISSING: kiln-run: error: dispatch 'main_dispatch_0_elementwise_D_f32': expected 1 index constants, got 0
// SAVED: {{^3$}}
// SHAPE: 'shape': (2,)

func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %w = util.unfoldable_constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %s = arith.muli %i, %w : index
    %k = arith.index_cast %s : index to i64
    %f = arith.sitofp %k : i64 to f32
    %y = arith.addf %v, %f : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
