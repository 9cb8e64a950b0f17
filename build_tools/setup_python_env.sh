#!/usr/bin/env bash
# Makes the Python environment the build and the tests use, BUILD/venv,
# once: Debian's Python with its site packages (python3-numpy 1.x,
# python3-torch and python3-torchvision, from build_tools/install_deps.sh)
# and, from PyPI, the pinned packages of tests/onnx/requirements.txt and
# bindings/python/requirements.txt (nanobind, which the Python package is
# built with, and pytest). Nothing goes into the system. Debian's numpy is
# kept: PyTorch 1.13 needs numpy 1.x.
#
# Usage: build_tools/setup_python_env.sh BUILD
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$1/venv"
requirements=("$root/tests/onnx/requirements.txt"
              "$root/bindings/python/requirements.txt")
stamp="$venv/requirements.installed"
if [ -f "$stamp" ] && cat "${requirements[@]}" | cmp -s "$stamp" -; then
  exit 0
fi
python=/usr/bin/python3
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv"
fi
numpy=$("$python" -c 'import numpy; print(numpy.__version__)')
constraints="$venv/constraints.txt"
echo "numpy==$numpy" > "$constraints"
"$venv/bin/python" -m pip install --disable-pip-version-check --quiet \
  "${requirements[@]/#/--requirement=}" -c "$constraints"
cat "${requirements[@]}" > "$stamp"
echo "Python environment ready in $venv"
