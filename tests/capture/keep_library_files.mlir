// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: kiln-compile %s --keep-library-files=%t.dir/lib -o %t.dir/m.kiln
// RUN: kiln-dump %t.dir/m.kiln --extract-libraries=%t.dir/extracted
// RUN: cmp %t.dir/lib/keep_library_files.so %t.dir/extracted/library0.so
// RUN: %llvm_tools_dir/llvm-objdump -t %t.dir/lib/keep_library_files.o | FileCheck %s --check-prefix=OBJECT
// RUN: not kiln-compile %s --keep-library-files=%t.dir/m.kiln/sub -o %t.dir/m3.kiln 2>&1 | FileCheck %s --check-prefix=BAD
// Tests that --keep-library-files keeps the object and the shared object
// the module was built from, named after the module, the .so byte-identical
// to the one the module carries; and that a directory that cannot be
// created is an error.

// OBJECT: {{.*}} F .text {{.*}} main_dispatch_0_elementwise_8_f32
// OBJECT: kiln_executable_library_query
// BAD: error: cannot create {{.*}}m.kiln/sub
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.exp %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
