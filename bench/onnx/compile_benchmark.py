#!/usr/bin/env python3
"""Compile time and memory of ONNX models: kiln against IREE, same files.

Exports ResNet50, MobileNetV2, EfficientNet-B0, ViT-B/16 and a BERT-base
encoder from PyTorch with seeded weights (tests/onnx/models.py), then
compiles each with kiln-compile and with IREE (iree-import-onnx, then
iree-compile for llvm-cpu), each for the host CPU, and prints per model
the CPU seconds (user + system) and peak resident memory of each, and
kiln's ratios to IREE (IREE / kiln: above 1.00x kiln is faster or
smaller). kiln's peak is also shown against the model file: what compiling
adds beyond the file is its weights once more plus the compiler's own
(measured apart: the same model with its weights as inputs, "own").

    build/venv/bin/python bench/onnx/compile_benchmark.py --bin-dir=build/bin
    ... --iree-bin=build/bench-venv/bin --models=resnet,vit --rounds=3

IREE comes from build/bench-venv (bench/models/setup_peers.sh); without it
only kiln's figures print.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "onnx"))
import models  # noqa: E402
import onnx  # noqa: E402


def measure(command):
    """(CPU seconds, peak RSS in MB) of one run of `command`, by GNU time:
    a child forked from this Python would count its parent's pages in its
    peak until it execs."""
    with tempfile.NamedTemporaryFile("r") as report:
        result = subprocess.run(
            ["/usr/bin/time", "-o", report.name, "-f", "%U %S %M"] + command,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            raise RuntimeError("%s failed:\n%s" % (" ".join(command),
                                                    result.stderr))
        user, system, peak_kb = report.read().split()[-3:]
    return float(user) + float(system), float(peak_kb) / 1024.0


def best(command, rounds):
    """The least CPU time of `rounds` runs, with that run's peak RSS."""
    return min(measure(command) for _ in range(rounds))


def weights_as_inputs(path, out):
    """The model with its initializers turned into graph inputs: the same
    ops without their weights' bytes."""
    model = onnx.load(path)
    graph = model.graph
    names = {value.name for value in graph.input}
    for tensor in graph.initializer:
        if tensor.name not in names:
            graph.input.append(onnx.helper.make_tensor_value_info(
                tensor.name, tensor.data_type, list(tensor.dims)))
    del graph.initializer[:]
    onnx.save(model, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--iree-bin", default=os.path.join(
        HERE, "..", "..", "build", "bench-venv", "bin"))
    parser.add_argument("--models",
                        default="resnet,mobilenet,efficientnet,vit,bert")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--work-dir", help="keep exported models here")
    args = parser.parse_args()
    iree_import = os.path.join(args.iree_bin, "iree-import-onnx")
    iree_compile = os.path.join(args.iree_bin, "iree-compile")
    have_iree = os.access(iree_import, os.X_OK) and \
        os.access(iree_compile, os.X_OK)
    if not have_iree:
        print("IREE missing (%s): bench/models/setup_peers.sh build" %
              args.iree_bin)
    work = args.work_dir or tempfile.mkdtemp(prefix="kiln-compile-bench-")
    os.makedirs(work, exist_ok=True)
    print("%-13s %8s | %8s %8s %6s | %8s %8s %6s | %8s %8s" % (
        "model", "file MB", "kiln s", "IREE s", "ratio", "kiln MB",
        "IREE MB", "ratio", "own MB", "(p-own)/f"))
    for name in args.models.split(","):
        path = os.path.join(work, name + ".onnx")
        if not os.path.exists(path):
            models.export(name, "full", path)
        file_mb = os.path.getsize(path) / 2.0**20
        module = os.path.join(work, name + ".kiln")
        kiln_s, kiln_mb = best([os.path.join(args.bin_dir, "kiln-compile"),
                                path, "-o", module], args.rounds)
        bare = os.path.join(work, name + ".inputs.onnx")
        weights_as_inputs(path, bare)
        _, own_mb = best([os.path.join(args.bin_dir, "kiln-compile"), bare,
                          "-o", module + ".inputs"], 1)
        iree_s = iree_mb = None
        if have_iree:
            mlir = os.path.join(work, name + ".iree.mlir")
            import_s, import_mb = best([iree_import, path, "-o", mlir],
                                       args.rounds)
            compile_s, compile_mb = best(
                [iree_compile, mlir, "--iree-hal-target-device=local",
                 "--iree-hal-local-target-device-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=host", "-o",
                 os.path.join(work, name + ".vmfb")], args.rounds)
            iree_s = import_s + compile_s
            iree_mb = max(import_mb, compile_mb)

        def fmt(value, spec):
            return spec % value if value is not None else "-"
        print("%-13s %8.1f | %8.1f %8s %6s | %8.0f %8s %6s | %8.0f %8.2f" % (
            name, file_mb, kiln_s, fmt(iree_s, "%.1f"),
            fmt(iree_s / kiln_s if iree_s else None, "%.2fx"), kiln_mb,
            fmt(iree_mb, "%.0f"),
            fmt(iree_mb / kiln_mb if iree_mb else None, "%.2fx"), own_mb,
            (kiln_mb - own_mb) / file_mb), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
