#!/usr/bin/env bash
# Packages BUILD as the Python package's wheel (pip and scikit-build-core
# reuse the build folder: nothing of kiln is compiled again), installs the
# wheel into a fresh virtual environment and uses it there: compile, run,
# and the tools the wheel puts on PATH.
#
# Usage: build_tools/test_python_package.sh BUILD
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work="$build/python-package"
rm -rf "$work"
mkdir -p "$work"

"$build/venv/bin/python" -m pip wheel --quiet --disable-pip-version-check \
  --no-build-isolation --no-deps --config-settings=build-dir="$build" \
  --config-settings=cmake.define.KILN_BUILD_TESTS=ON \
  --config-settings=cmake.define.KILN_BUILD_BENCH=ON \
  --wheel-dir="$work/dist" "$root"
# Fresh, with Debian's numpy (the package's one dependency) visible.
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-deps "$work"/dist/kiln-*.whl

cd "$work"
PATH="$work/venv/bin:$PATH" "$work/venv/bin/python" - <<'PYTHON'
import os
import shutil
import subprocess

import numpy as np

import kiln

assert os.path.dirname(kiln.__file__).startswith(os.getcwd()), kiln.__file__
module = kiln.compile("""
func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.mul ins(%a, %a : tensor<3xf32>, tensor<3xf32>)
                  outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}""")
x = np.array([1.0, 2.0, 3.0], np.float32)
np.testing.assert_array_equal(module.main(x), x * x)
module.save("square.kiln")
for tool in ("kiln-compile", "kiln-run", "kiln-dump", "kiln-benchmark"):
    assert shutil.which(tool).startswith(os.getcwd()), tool
output = subprocess.run(["kiln-run", "square.kiln", "--input=3xf32=2"],
                        check=True, capture_output=True, text=True).stdout
assert "4" in output, output
print("the wheel installs and runs:", module)
PYTHON
