// Tests that --executable-embed-input-files embeds only the files under the
// input file's directory, symlinks resolved, or under an
// --executable-embed-input-dir, and warns for each file it leaves out
// without showing any line of it.
//
// RUN: rm -rf %t && mkdir -p %t/in %t/outside
// RUN: echo "outside text" > %t/outside/secret.txt
// RUN: echo "inside text" > %t/in/inside.txt
// RUN: ln -s ../outside/secret.txt %t/in/link.txt
// RUN: sed -n '/^\/\/ One function/,$p' %s > %t/in/program.mlir
//
// RUN: cd %t/in && kiln-compile program.mlir --executable-debug-level=2 --executable-embed-input-files -o %t/m.kiln 2>&1 | FileCheck %s
// RUN: kiln-dump %t/m.kiln --sources | FileCheck %s --check-prefix=SOURCES
// CHECK-DAG: ../outside/secret.txt: warning: input file '../outside/secret.txt', named by a location at line 1, is not under the input file's directory or an --executable-embed-input-dir; not embedded
// CHECK-DAG: link.txt: warning: input file 'link.txt', named by a location at line 2, is not under the input file's directory or an --executable-embed-input-dir; not embedded
// CHECK-NOT: outside text
// SOURCES-NOT: secret.txt
// SOURCES: {{^}}inside.txt
// SOURCES-NOT: secret.txt
// SOURCES-NOT: link.txt
//
// A directory named on the command line is searched too.
// RUN: cd %t/in && kiln-compile program.mlir --executable-debug-level=2 --executable-embed-input-files --executable-embed-input-dir=../outside -o %t/named.kiln 2>&1 | FileCheck %s --check-prefix=NAMED --allow-empty
// RUN: kiln-dump %t/named.kiln --sources | FileCheck %s --check-prefix=NAMED-SOURCES
// NAMED-NOT: warning
// NAMED-SOURCES-DAG: {{^}}{{.*}}/outside/secret.txt
// NAMED-SOURCES-DAG: {{^}}inside.txt
// NAMED-SOURCES-DAG: {{^}}link.txt
//
// RUN: not kiln-compile %t/in/program.mlir --executable-embed-input-files --executable-embed-input-dir=%t/missing -o %t/x.kiln 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kiln-compile: error: --executable-embed-input-dir: '{{.*}}/missing' is not a directory

// One function per file named: each is a dispatch of its own.
func.func @inside(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc("inside.txt":1:1)
  return %0 : tensor<4xf32>
}

func.func @outside(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.mul ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc("../outside/secret.txt":1:1)
  return %0 : tensor<4xf32>
}

func.func @link(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.sub ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc("link.txt":2:1)
  return %0 : tensor<4xf32>
}
