"""Prints a program with one dispatch whose body is a chain of N ops."""
import sys

n = int(sys.argv[1])
print("func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {")
print("  %e = tensor.empty() : tensor<8xf32>")
print("  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
      "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} "
      "ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {")
print("  ^bb0(%v0: f32, %o: f32):")
for i in range(n):
    print("    %%v%d = arith.addf %%v%d, %%v%d : f32" % (i + 1, i, i))
print("    linalg.yield %%v%d : f32" % n)
print("  } -> tensor<8xf32>")
print("  return %r : tensor<8xf32>")
print("}")
