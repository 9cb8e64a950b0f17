// REQUIRES: memory-limits
// RUN: python3 -c "n = 12 << 20; print(f'func.func @main() -> tensor<{n}xf32> {{\n  %%c = arith.constant dense<\"0x{(bytes(range(256)) * (n // 64)).hex()}\"> : tensor<{n}xf32>\n  return %%c : tensor<{n}xf32>\n}}')" > %t.mlir
// RUN: rm -f %t.kiln
// RUN: not sh -c "ulimit -d 100000 && exec kiln-compile %t.mlir -o %t.kiln" 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln
// RUN: sh -c "ulimit -d 400000 && exec kiln-compile %t.mlir -o %t.kiln"

// Tests that running out of memory where the compile can be stopped (here
// parsing a 48 MiB constant under a 100 MB data limit) is an error, not an
// abort with a crash report; and that the same file compiles with room.
// CHECK: kiln-compile: error: out of memory
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: Stack dump
