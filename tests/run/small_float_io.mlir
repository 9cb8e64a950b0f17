// Tests that the small float types are named in signatures, and that their
// tensors, which NumPy lacks, travel through .npy files as their bits:
// kiln-run --output writes f8E4M3FN and f4E2M1FN results as uint8 files
// with a note, --input reads them back for arguments of those types, and
// reads ml_dtypes' own files (void elements) too; for an i8 argument a
// uint8 file is read as the i8 of the same bits, and a void one refused.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/m.kiln
// RUN: kiln-dump %t/m.kiln | FileCheck %s --check-prefix=DUMP
// RUN: kiln-run %t/m.kiln --list-functions | FileCheck %s --check-prefix=DUMP
// RUN: kiln-run %t/m.kiln --function=halve --input="4xf8E4M3FN=1,-3,0.1,nan" --input="4xf4E2M1FN=1,-3,6,0.5" --output=@%t/a.npy --output=@%t/b.npy 2>&1 | FileCheck %s --check-prefix=NOTE
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[10:42].decode(), d[-4:].hex())" %t/a.npy | FileCheck %s --check-prefix=F8
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[10:42].decode(), d[-4:].hex())" %t/b.npy | FileCheck %s --check-prefix=F4
// RUN: kiln-run %t/m.kiln --function=halve --input=@%t/a.npy --input=@%t/b.npy | FileCheck %s --check-prefix=BACK
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); open(sys.argv[2], 'wb').write(d.replace(b\"'|u1'\", b\"'|V1'\"))" %t/a.npy %t/v.npy
// RUN: kiln-run %t/m.kiln --function=halve --input=@%t/v.npy --input=@%t/b.npy | FileCheck %s --check-prefix=BACK
// RUN: kiln-run %t/m.kiln --function=twice --input=@%t/a.npy | FileCheck %s --check-prefix=BYTES
// RUN: not kiln-run %t/m.kiln --function=twice --input=@%t/v.npy 2>&1 | FileCheck %s --check-prefix=REFUSED

// DUMP: halve(4xf8E4M3FN, 4xf4E2M1FN) -> (4xf8E4M3FN, 4xf4E2M1FN)

// NOTE: kiln-run: note: NumPy has no f8E4M3FN: its .npy files hold its bits as unsigned integers (in numpy: np.load(f).view(ml_dtypes.float8_e4m3fn)); first: {{.*}}a.npy
// NOTE-NOT: note:

// 0.5, -1.5, 0.05078125, NaN in f8E4M3FN; 0.5, -1.5, 3, 0.25 -> 0 in
// f4E2M1FN (a tie, to even).
// F8: {'descr': '|u1', 'fortran_order' 30bc157f
// F4: {'descr': '|u1', 'fortran_order' 010b0500

// BACK: 4xf8E4M3FN=0.25 -0.75 0.025390625 nan
// BACK-NEXT: 4xf4E2M1FN=0 -1 1.5 0

// The bits of 0.5, -1.5, 0.05078125 and NaN in f8E4M3FN (0x30 0xbc 0x15
// 0x7f), doubled as i8, wrapping.
// BYTES: 4xi8=96 120 42 -2

// REFUSED: kiln-run: error: input 0: '{{.*}}v.npy': dtype '|V1' holds the bits of a type NumPy lacks (f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN), read only where one is expected, not i8

func.func @halve(%x: tensor<4xf8E4M3FN>, %y: tensor<4xf4E2M1FN>) -> (tensor<4xf8E4M3FN>, tensor<4xf4E2M1FN>) {
  %h8 = arith.constant dense<0.5> : tensor<4xf8E4M3FN>
  %h4 = arith.constant dense<0.5> : tensor<4xf4E2M1FN>
  %e8 = tensor.empty() : tensor<4xf8E4M3FN>
  %e4 = tensor.empty() : tensor<4xf4E2M1FN>
  %a = linalg.mul ins(%x, %h8 : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) outs(%e8 : tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  %b = linalg.mul ins(%y, %h4 : tensor<4xf4E2M1FN>, tensor<4xf4E2M1FN>) outs(%e4 : tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  return %a, %b : tensor<4xf8E4M3FN>, tensor<4xf4E2M1FN>
}

func.func @twice(%x: tensor<4xi8>) -> tensor<4xi8> {
  %e = tensor.empty() : tensor<4xi8>
  %r = linalg.add ins(%x, %x : tensor<4xi8>, tensor<4xi8>) outs(%e : tensor<4xi8>) -> tensor<4xi8>
  return %r : tensor<4xi8>
}
