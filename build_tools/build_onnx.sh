#!/usr/bin/env bash
# Builds ONNX's C++ library (parser, checker, shape inference, version
# converter) from its source distribution on PyPI, version and hash pinned,
# and installs it into PREFIX, once: a later call finds it there and does
# nothing. Debian's libonnx-dev (1.12: IR 8, opsets up to 17) refuses the
# models current exporters write. Nothing of ONNX is kept in the source tree.
#
# Usage: build_tools/build_onnx.sh PREFIX      (e.g. build/onnx)
#
# Needs Debian's libprotobuf-dev and protobuf-compiler (build_tools/
# install_deps.sh) and PyPI (the sources, and a CMake of at least 3.26,
# which ONNX's CMakeLists asks for and Debian 12 does not have).
set -euo pipefail

# The Python `onnx` the tests use (tests/onnx/requirements.txt) is the same
# version.
version=1.23.2
sha256=008cb0467b2bbee41448acc7da8b6f4e704624cb0d327a2d5adafc7ce19bc5b8
cmake_version=3.31.10

if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
prefix=$(mkdir -p "$1" && cd "$1" && pwd)
stamp="$prefix/onnx-$version.installed"
if [ -f "$stamp" ] && [ -f "$prefix/lib/cmake/ONNX/ONNXConfig.cmake" ]; then
  exit 0
fi

work="$prefix/work"
rm -rf "$work"
mkdir -p "$work"
echo "Building ONNX $version's C++ library into $prefix (a few minutes, once)"

python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install "cmake==$cmake_version"
# --no-binary onnx: the source distribution, not a wheel (`:all:` would build
# the CMake wheel from source too).
"${pip[@]}" download --no-deps --no-binary onnx "onnx==$version" -d "$work"
archive="$work/onnx-$version.tar.gz"
echo "$sha256  $archive" | sha256sum --check --quiet - || {
  echo "error: $archive does not have the pinned sha256 $sha256" >&2
  exit 1
}
tar -xzf "$archive" -C "$work"

# Static, position-independent (linked into kiln's tools and the Python
# module), against Debian's shared protobuf; with the ML operators
# (onnx-ml.proto), as the Python package has them.
"$work/venv/bin/cmake" -S "$work/onnx-$version" -B "$work/build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DONNX_ML=1 \
  -DONNX_BUILD_PYTHON=OFF -DONNX_BUILD_TESTS=OFF \
  -DONNX_USE_PROTOBUF_SHARED_LIBS=ON -DBUILD_SHARED_LIBS=OFF \
  > "$work/configure.log" || {
  cat "$work/configure.log" >&2
  exit 1
}
"$work/venv/bin/cmake" --build "$work/build" -j "${JOBS:-2}" > "$work/build.log" || {
  tail -50 "$work/build.log" >&2
  exit 1
}
"$work/venv/bin/cmake" --install "$work/build" > /dev/null
rm -rf "$work"
touch "$stamp"
echo "ONNX $version installed in $prefix"
