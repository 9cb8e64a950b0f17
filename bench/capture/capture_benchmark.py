#!/usr/bin/env python3
"""Cost of capturing sources, from one run on a generated model.

Generates a model of LAYERS dense layers whose widths all differ (so every
layer is a distinct dispatch: matmul + bias + tanh), compiles it at
--executable-debug-level=2 and 3 (median of REPEATS compilations each) and
prints: compile time level 3 / level 2, module size level 3 / level 2, and
the stored / raw bytes of the embedded sources.

Beside kiln's figures, the same for IREE on the same program:
iree-compile (llvm-cpu, --iree-llvmcpu-target-cpu=host, as kiln's default
--cpu) at --iree-hal-executable-debug-level=3 over 2. iree-compile comes from
bench/models' virtual environment (BUILD/bench-venv, made by
bench/models/setup_peers.sh) or --iree-compile; without it IREE is reported
missing.

Usage: capture_benchmark.py --bin-dir=build/bin [--layers=200] [--repeats=3]
           [--iree-compile=PATH]
"""

import argparse
import filecmp
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def generate_model(layers):
    """relu-free MLP: x_{i+1} = tanh(x_i * W_i + b_i), widths 16, 17, ..."""
    widths = [16 + i for i in range(layers + 1)]
    lines = ["func.func @main(%%x0: tensor<4x%dxf32>) -> tensor<4x%dxf32> {"
             % (widths[0], widths[-1]),
             "  %zero = arith.constant 0.0 : f32"]
    for i in range(layers):
        n, m = widths[i], widths[i + 1]
        lines += [
            "  %%w%d = arith.constant dense<0.01> : tensor<%dx%dxf32>" % (i, n, m),
            "  %%b%d = arith.constant dense<0.5> : tensor<%dxf32>" % (i, m),
            "  %%e%d = tensor.empty() : tensor<4x%dxf32>" % (i, m),
            "  %%f%d = linalg.fill ins(%%zero : f32) outs(%%e%d : tensor<4x%dxf32>)"
            " -> tensor<4x%dxf32>" % (i, i, m, m),
            "  %%m%d = linalg.matmul ins(%%x%d, %%w%d : tensor<4x%dxf32>, "
            "tensor<%dx%dxf32>) outs(%%f%d : tensor<4x%dxf32>) -> tensor<4x%dxf32>"
            % (i, i, i, n, n, m, i, m, m),
            "  %%x%d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,"
            " affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],"
            " iterator_types = [\"parallel\", \"parallel\"]} ins(%%m%d, %%b%d :"
            " tensor<4x%dxf32>, tensor<%dxf32>) outs(%%e%d : tensor<4x%dxf32>) {"
            % (i + 1, i, i, m, m, i, m),
            "  ^bb0(%v: f32, %c: f32, %o: f32):",
            "    %s = arith.addf %v, %c : f32",
            "    %t = math.tanh %s : f32",
            "    linalg.yield %t : f32",
            "  } -> tensor<4x%dxf32>" % m,
        ]
    lines += ["  return %%x%d : tensor<4x%dxf32>" % (layers, widths[-1]), "}"]
    return "\n".join(lines) + "\n"


def compile_seconds(command, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def kiln_command(compiler, model, level, output):
    return [compiler, model, "--executable-debug-level=%d" % level, "-o", output]


def iree_command(compiler, model, level, output):
    return [compiler, model, "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host",
            "--iree-hal-executable-debug-level=%d" % level, "-o", output]


def measure_iree(compiler, model, work, repeats):
    """({level: seconds}, {level: bytes}, notes), or a string saying why not."""
    if not os.access(compiler, os.X_OK):
        return "missing (no %s; bench/models/setup_peers.sh BUILD_DIR installs it)" \
            % compiler
    modules = {level: os.path.join(work, "iree_level%d.vmfb" % level)
               for level in (2, 3)}
    try:
        seconds = {level: compile_seconds(
            iree_command(compiler, model, level, modules[level]), repeats)
            for level in (2, 3)}
    except subprocess.CalledProcessError as error:
        return "failed (iree-compile exited with %d)" % error.returncode
    version = subprocess.run([compiler, "--version"], capture_output=True,
                             text=True).stdout
    version = re.search(r"version (\S+)", version)
    notes = ["IREE: iree-compile %s" % (version.group(1) if version else "")]
    if filecmp.cmp(modules[2], modules[3], shallow=False):
        notes.append("IREE: the level-3 module is byte-identical to level 2 "
                     "(this iree-compile embedded no stage sources)")
    return seconds, {level: os.path.getsize(modules[level])
                     for level in (2, 3)}, notes


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--layers", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--iree-compile",
                        help="default: BIN_DIR/../bench-venv/bin/iree-compile")
    args = parser.parse_args(argv)
    compiler = os.path.join(args.bin_dir, "kiln-compile")
    dump = os.path.join(args.bin_dir, "kiln-dump")
    iree_compiler = args.iree_compile or os.path.join(
        os.path.dirname(os.path.abspath(args.bin_dir)), "bench-venv", "bin",
        "iree-compile")

    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "capture_model.mlir")
        with open(model, "w") as f:
            f.write(generate_model(args.layers))
        modules = {level: os.path.join(work, "level%d.kiln" % level)
                   for level in (2, 3)}
        seconds = {level: compile_seconds(
            kiln_command(compiler, model, level, modules[level]), args.repeats)
            for level in (2, 3)}
        sizes = {level: os.path.getsize(modules[level]) for level in (2, 3)}
        summary = json.loads(subprocess.run(
            [dump, modules[3], "--json"], check=True,
            capture_output=True, text=True).stdout)
        dispatches = sum(len(e["exports"]) for e in summary["executables"])
        table = json.loads(subprocess.run(
            [dump, modules[3], "--sources", "--json"], check=True,
            capture_output=True, text=True).stdout)
        totals = table["totals"]
        iree = measure_iree(iree_compiler, model, work, args.repeats)

    print("capture cost on a generated model: %d layers, %d dispatches, "
          "%d source files (median of %d compilations)\n"
          % (args.layers, dispatches, totals["files"], args.repeats))
    print("%-22s %12s %12s %8s  | %12s %12s %8s" % (
        "", "kiln lvl 2", "kiln lvl 3", "3 / 2", "IREE lvl 2", "IREE lvl 3",
        "3 / 2"))
    notes = []
    if isinstance(iree, str):
        iree_time = iree_size = "  | IREE " + iree
    else:
        iree_seconds, iree_sizes, notes = iree
        iree_time = "  | %11.2fs %11.2fs %8.2f" % (
            iree_seconds[2], iree_seconds[3], iree_seconds[3] / iree_seconds[2])
        iree_size = "  | %12d %12d %8.2f" % (iree_sizes[2], iree_sizes[3],
                                             iree_sizes[3] / iree_sizes[2])
    print("%-22s %11.2fs %11.2fs %8.2f" % ("compile time", seconds[2],
                                          seconds[3], seconds[3] / seconds[2])
          + iree_time)
    print("%-22s %12d %12d %8.2f" % ("module size (bytes)", sizes[2], sizes[3],
                                     sizes[3] / sizes[2]) + iree_size)
    for note in notes:
        print(note)
    print("\n%-28s %12s %12s %8s" % ("embedded sources", "raw", "stored",
                                     "stored/raw"))
    print("%-28s %12d %12d %8.3f" % ("bytes", totals["raw_bytes"],
                                     totals["stored_bytes"],
                                     totals["stored_bytes"] / totals["raw_bytes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
