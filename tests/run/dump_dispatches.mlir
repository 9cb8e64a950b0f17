// Tests that kiln-run --dump-dispatches writes into a directory it creates
// (refusing one that exists), writes an export named after a function with
// '/' in its name as one escaped file name, and writes bf16 bindings, which
// NumPy lacks, as uint16 .npy files of their bits, with a note.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/m.kiln
// RUN: kiln-run %t/m.kiln --function=a/b --input=4xbf16=1,2,3,4 --dump-dispatches=%t/d 2>&1 | FileCheck %s
// RUN: %python -c "import os, sys; [print(os.path.relpath(os.path.join(r, f), sys.argv[1])) for r, _, fs in sorted(os.walk(sys.argv[1])) for f in sorted(fs)]" %t/d | FileCheck %s --check-prefix=FILES
// RUN: %python -c "import glob, sys; d = open(glob.glob(sys.argv[1] + '/0_*/in0.npy')[0], 'rb').read(); print(d[10:40].decode(), d[-8:].hex())" %t/d | FileCheck %s --check-prefix=NPY
// RUN: not kiln-run %t/m.kiln --function=a/b --input=4xbf16=1 --dump-dispatches=%t/d 2>&1 | FileCheck %s --check-prefix=EXISTS
//
// CHECK: kiln-run: note: NumPy has no bf16: its .npy files hold its bits as unsigned integers (in numpy: np.load(f).view(ml_dtypes.bfloat16)); first: {{.*}}/d/0_a%2Fb_dispatch_0_{{[^/]*}}/in0.npy
// CHECK: 4xbf16=2 4 6 8
// FILES-NOT: .kiln-
// FILES: 0_a%2Fb_dispatch_0_{{[^/]*}}/in0.npy
// FILES: 0_a%2Fb_dispatch_0_{{[^/]*}}/out0.npy
// FILES-NOT: .kiln-
// NPY: {'descr': '<u2', 'fortran_orde 803f004040408040
// EXISTS: kiln-run: error: --dump-dispatches: '{{.*}}/d' exists; give a directory that does not exist yet

func.func @"a/b"(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = tensor.empty() : tensor<4xbf16>
  %r = linalg.add ins(%x, %x : tensor<4xbf16>, tensor<4xbf16>) outs(%e : tensor<4xbf16>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}
