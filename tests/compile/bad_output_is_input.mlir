// Tests that an output file that is the input file, by any spelling (a
// relative path, a hard link, a symlink), is an error that leaves the input
// as it was, and that a failed write leaves the old output file whole.
//
// RUN: rm -rf %t && mkdir -p %t/sub && cp %s %t/x.mlir
// RUN: not kiln-compile %t/x.mlir -o %t/x.mlir 2>&1 | FileCheck %s -DFILE=%t/x.mlir
// RUN: cd %t/sub && not kiln-compile ../x.mlir -o %t/sub/../x.mlir 2>&1 | FileCheck %s -DFILE=%t/sub/../x.mlir
// RUN: ln %t/x.mlir %t/hard.mlir && ln -s x.mlir %t/soft.mlir
// RUN: not kiln-compile %t/x.mlir -o %t/hard.mlir 2>&1 | FileCheck %s -DFILE=%t/hard.mlir
// RUN: not kiln-compile %t/soft.mlir -o %t/x.mlir --compile-to=input 2>&1 | FileCheck %s -DFILE=%t/x.mlir
// RUN: cmp %s %t/x.mlir
// CHECK: kiln-compile: error: the output file '[[FILE]]' is the input file; writing it would lose the program (choose another -o)
//
// No file may grow, as on a full disk: an error, and the old file stays.
// RUN: echo old > %t/out.mlir
// RUN: not sh -c "trap '' XFSZ; ulimit -f 0 && exec %kiln_bin_dir/kiln-compile %t/x.mlir --compile-to=input -o %t/out.mlir" 2>&1 | FileCheck %s --check-prefix=FULL -DFILE=%t/out.mlir
// RUN: echo old | cmp - %t/out.mlir
// RUN: ls -a %t | FileCheck %s --check-prefix=LEFT
// FULL: kiln-compile: error: cannot write '[[FILE]]': {{.*}}File too large
// LEFT-NOT: tmp

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
