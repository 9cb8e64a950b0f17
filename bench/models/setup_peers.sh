#!/usr/bin/env bash
# Installs the peers that bench/models runs kiln against into a virtual
# environment under the build folder, never into the system:
#   BUILD_DIR/bench-venv: numpy, threadpoolctl, PyTorch (CPU wheels), onnx,
#   onnxruntime, iree-base-compiler, iree-base-runtime.
# Idempotent: packages already installed are kept. A package that cannot be
# installed is reported and skipped; bench/models then reports that peer as
# missing and runs the others.
#
# Usage: bench/models/setup_peers.sh BUILD_DIR
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
venv="$1/bench-venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv"
  "$python" -m venv "$venv" || exit 1
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

# Each entry: the import or command that shows the package is there, then
# the pip arguments that install it.
failed=()
install() {
  local probe="$1"
  shift
  if "$venv/bin/python" -c "$probe" >/dev/null 2>&1; then
    echo "have: $*"
    return
  fi
  echo "installing: $*"
  if ! "${pip[@]}" install --quiet "$@"; then
    echo "warning: could not install $*" >&2
    failed+=("$*")
  fi
}

install "import numpy, threadpoolctl" numpy threadpoolctl
# PyTorch's CPU index keeps the CUDA wheels (several GB) out; where that
# index cannot be reached, PyPI's torch brings its CUDA libraries along
# (about 4 GB under BUILD_DIR, unused here) rather than no PyTorch at all.
if ! "$venv/bin/python" -c "import torch" >/dev/null 2>&1; then
  echo "installing: torch (CPU wheels)"
  if ! "${pip[@]}" install --quiet --timeout 20 --retries 1 torch \
      --index-url https://download.pytorch.org/whl/cpu; then
    echo "PyTorch's CPU index unreachable: torch from PyPI (with its CUDA libraries)"
  fi
fi
install "import torch" torch
install "import onnx" onnx
# torch.onnx.export's default (dynamo) exporter needs onnxscript.
install "import onnxscript" onnxscript
install "import onnxruntime" onnxruntime
install "import iree.compiler" iree-base-compiler
install "import iree.runtime" iree-base-runtime

echo
"$venv/bin/python" - <<'PY'
import importlib
for name in ("numpy", "threadpoolctl", "torch", "onnx", "onnxscript",
             "onnxruntime",
             "iree.compiler", "iree.runtime"):
    try:
        module = importlib.import_module(name)
        version = getattr(module, "__version__", "")
        if not version and name.startswith("iree."):
            from importlib.metadata import version as dist_version
            version = dist_version("iree-base-" + name.split(".")[1])
        print("%-14s %s" % (name, version))
    except Exception as error:  # reported, not fatal: that peer is missing
        print("%-14s missing (%s)" % (name, error))
PY
for tool in iree-compile iree-benchmark-module iree-run-module; do
  [ -x "$venv/bin/$tool" ] || echo "$tool: missing"
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "not installed: ${failed[*]}" >&2
fi
echo "peers in $venv"
