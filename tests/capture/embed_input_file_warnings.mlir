// Tests what --executable-embed-input-files does with input files it cannot
// or should not embed, and with paths that climb out of the current
// directory.
//
// RUN: rm -rf %t && mkdir -p %t/sub
// RUN: %python %S/Inputs/generate_long_chain.py 6000 > %t/large.mlir
// RUN: printf 'a\0b\n' > %t/binary.dat
// RUN: sed -n '/^func.func/,$p' %s | sed 's/ loc(.*)$//' > %t/program.mlir
//
// An input file above 262,127 bytes is embedded, with a warning at the location
// that names it.
// RUN: cd %t && kiln-compile large.mlir --executable-debug-level=1 --executable-embed-input-files -o large.kiln 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: kiln-dump %t/large.kiln --sources | FileCheck %s --check-prefix=LARGE-DUMP
// LARGE: large.mlir:3:8: warning: input file 'large.mlir' is {{[0-9]+}} bytes, above the 262127 bytes a profiler such as Tracy transfers
// LARGE-DUMP: large.mlir {{.*}}too large for Tracy
//
// A binary file is not embedded; the warning shows no line of it. (It is
// in %t, not in the input's directory: --executable-embed-input-dir.)
// RUN: cd %t && kiln-compile %s --executable-debug-level=1 --executable-embed-input-files --executable-embed-input-dir=. -o binary.kiln 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: kiln-dump %t/binary.kiln --sources | FileCheck %s --check-prefix=BINARY-DUMP
// BINARY: kiln-compile: warning: input file 'binary.dat' is binary; not embedded
// BINARY-NOT: binary.dat:
// BINARY-DUMP: no embedded sources
//
// `../program.mlir` is stored by its absolute path, in locations and in the
// source table alike; `./sub/../program.mlir` as `program.mlir`.
// RUN: cd %t/sub && kiln-compile ../program.mlir --executable-debug-level=1 --executable-embed-input-files -o %t/up.kiln
// RUN: kiln-dump %t/up.kiln | FileCheck %s --check-prefix=UP -DDIR=%t
// RUN: cd %t && kiln-compile ./sub/../program.mlir --executable-debug-level=1 --executable-embed-input-files -o %t/dot.kiln
// RUN: kiln-dump %t/dot.kiln | FileCheck %s --check-prefix=DOT
// UP: location         [[DIR]]/program.mlir:3:8
// UP: sources: 1 files
// UP: {{^  }}[[DIR]]/program.mlir 
// DOT: location         program.mlir:3:8
// DOT: sources: 1 files
// DOT: {{^  }}program.mlir 

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc("binary.dat":1:1)
  return %r : tensor<4xf32>
}
