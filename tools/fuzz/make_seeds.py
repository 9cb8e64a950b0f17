#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets in runtime/fuzz and the importer's.

Module seeds (module and sources fuzzers) are real modules: the samples, a
few end-to-end programs and a generated chain of dense layers (the one whose
texts get a zstd dictionary) compiled at every --executable-debug-level.
Tensor text and .npy seeds cover each element type and shape form the
parsers know.
ONNX seeds are the importer's lit models, each part on its own, in ONNX's
text format, and the bundled sample as a binary protobuf.

Usage: make_seeds.py --kiln-compile=PATH --out=DIR
"""

import argparse
import pathlib
import struct
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench/capture"))
from capture_benchmark import generate_model  # noqa: E402

# Small programs exercising distinct module features: dispatch chains, reused
# executables, constants, branches and checks, several element types,
# dynamic sizes.
MODULE_PROGRAMS = [
    "samples/mlp.mlir",
    "samples/conv.mlir",
    "tests/e2e/dedup_across_functions.mlir",
    "tests/e2e/constants_splat_and_dense.mlir",
    "tests/e2e/concat_pad_small_int_types.mlir",
    "tests/e2e/linalg/control_flow.mlir",
    "tests/e2e/tosa/logic_compare.mlir",
    # Sizes known only when a call runs, which the module_run fuzzer's calls
    # make disagree: elementwise ops over dynamic extents, a slice sized by
    # another input, matmuls over dynamic rows and over dynamic M, N and K,
    # packs whose tiles must cover their extents, sizes read from a tensor's
    # contents or computed from others, an index constant.
    "tests/e2e/dynamic_elementwise.mlir",
    "tests/e2e/dynamic_slice_sized_by_other_input.mlir",
    "tests/e2e/matmul_packed_dynamic_rows.mlir",
    "tools/fuzz/programs/dynamic_matmul.mlir",
    "tests/e2e/dynamic_pack_unpack.mlir",
    "tests/run/sizes_from_contents.mlir",
    "tests/run/computed_sizes_must_fit.mlir",
    "tests/run/index_constants.mlir",
]

# Dense layers of distinct widths (bench/capture's model), enough that level
# 3's texts (at least 8, 256 KiB in all: compiler/Module/EmbeddedSources.cpp)
# train a zstd dictionary, with margin: 16 make 48 texts, 400 KB, and a
# module of 176 KB.
DICTIONARY_LAYERS = 16

TENSOR_TEXTS = [
    "2x2xf32=[[1,2],[3,4]]",
    "4xf32=0.5",
    "f32=3.25",
    "3xi32=[1,-2,3]",
    "2x3xi64=[[1,2,3],[4,5,6]]",
    "2xi1=[true,false]",
    "4xi8=[-128,0,1,127]",
    "2xi16=[-32768,32767]",
    "2xf16=[1.5,-inf]",
    "2xbf16=[nan,2]",
    "3xf64=[1e300,-0.0,5e-324]",
    "0x4xf32=[]",
    "1x1x1x1xf32=[[[[7]]]]",
]

NPY_TYPES = [
    ("<f4", "f", 4), ("<f8", "d", 8), ("<f2", "e", 2), ("|b1", "?", 1),
    ("|i1", "b", 1), ("<i2", "h", 2), ("<i4", "i", 4), ("<i8", "q", 8),
]


def npy_bytes(descr, code, shape, version=(1, 0)):
    count = 1
    for dim in shape:
        count *= dim
    shape_text = "(" + "".join(f"{d}, " if len(shape) == 1 else f"{d}, "
                               for d in shape).rstrip(", ")
    shape_text += ",)" if len(shape) == 1 else ")"
    header = (f"{{'descr': '{descr}', 'fortran_order': False, "
              f"'shape': {shape_text}, }}")
    length_size = 2 if version[0] == 1 else 4
    total = 6 + 2 + length_size + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    length = struct.pack("<H" if length_size == 2 else "<I", len(header))
    values = [(i % 3) if code != "?" else bool(i % 2) for i in range(count)]
    data = struct.pack("<" + code * count, *values)
    return b"\x93NUMPY" + bytes(version) + length + header.encode() + data


ONNX_SAMPLES = ["samples/lenet.onnx"]


def write_onnx_seeds(out):
    out.mkdir(parents=True, exist_ok=True)
    for test in sorted((ROOT / "compiler/Import/ONNX/test").glob("*.onnxtxt")):
        parts = test.read_text().split("\n# -----\n")
        for i, part in enumerate(parts):
            (out / f"{test.stem}.{i}.onnxtxt").write_text(part)
    for sample in ONNX_SAMPLES:
        (out / pathlib.Path(sample).name).write_bytes((ROOT / sample).read_bytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiln-compile", required=True)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    args = parser.parse_args()

    modules = args.out / "module"
    modules.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as generated:
        dense_chain = pathlib.Path(generated) / "dense_chain.mlir"
        dense_chain.write_text(generate_model(DICTIONARY_LAYERS))
        programs = [ROOT / program for program in MODULE_PROGRAMS]
        for program in programs + [dense_chain]:
            for level in range(4):
                out = modules / f"{program.stem}.L{level}.kiln"
                subprocess.run([args.kiln_compile, str(program),
                                f"--executable-debug-level={level}",
                                "-o", str(out)], check=True)

    texts = args.out / "tensor_text"
    texts.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(TENSOR_TEXTS):
        (texts / f"seed{i:02d}.txt").write_text(text)

    write_onnx_seeds(args.out / "onnx_import")

    npys = args.out / "npy"
    npys.mkdir(parents=True, exist_ok=True)
    for descr, code, _ in NPY_TYPES:
        name = descr[1:]
        for shape in [(), (3,), (2, 3), (1, 2, 2)]:
            rank = len(shape)
            (npys / f"{name}_r{rank}.npy").write_bytes(
                npy_bytes(descr, code, shape))
        (npys / f"{name}_v2.npy").write_bytes(
            npy_bytes(descr, code, (2, 2), version=(2, 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
