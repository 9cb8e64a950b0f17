#!/usr/bin/env bash
# Installs the Debian packages kiln needs to build and test, if missing.
# Usage: build_tools/install_deps.sh
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ pkg-config python3
  llvm-22-dev libmlir-22-dev mlir-22-tools lld-22 llvm-22-tools
  libflatbuffers-dev flatbuffers-compiler
  libzstd-dev libxxhash-dev
  libgtest-dev nlohmann-json3-dev
  libopenblas-dev
  clang-14 libclang-rt-14-dev  # libFuzzer for runtime/fuzz
  linux-perf gdb  # tests/run/perf_*.mlir profile and debug a loaded module
  chromium  # tests/run/check_profile_html.py opens --profile-report's page
  # ONNX's C++ library (build_tools/build_onnx.sh) builds against these.
  libprotobuf-dev protobuf-compiler
  # The ONNX tests' Python (build_tools/setup_python_env.sh): models exported
  # from PyTorch, ONNX's node tests, ONNX Runtime as the reference.
  python3-venv python3-numpy python3-torch python3-torchvision
  # The Python package (bindings/python) builds against its headers.
  python3-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: run as root or install sudo" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
