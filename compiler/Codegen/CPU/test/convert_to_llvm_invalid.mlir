// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-cpu-convert-to-llvm

// Tests that a check inside a region, which cannot end the workgroup there,
// is refused.
// expected-error@+1 {{'func.func' op has a check inside a region; only the function's body can fail its workgroup}}
func.func @nested_check() {
  %n = kiln.dispatch.constant 0 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %inside = arith.cmpi slt, %i, %n : index
    cf.assert %inside, "inside"
  }
  return
}
