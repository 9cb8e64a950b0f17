#!/usr/bin/env python3
"""Cost of capturing sources, from one run on a generated model.

Generates a model of LAYERS dense layers whose widths all differ (so every
layer is a distinct dispatch: matmul + bias + tanh), compiles it at
--executable-debug-level=2 and 3 in REPEATS rounds, each round compiling
both levels in turn (the order alternating), and prints: the compile
time of each level, wall-clock and CPU (user + system), each the best of
the rounds, and level 3 / level 2 as the median of the rounds' ratios (the
two compiles of a round run seconds apart, so that load elsewhere on the
machine, or its changing speed, slows both); module size level 3 / level
2; and the stored / raw bytes of the
embedded sources by stage, and what the level-3 module adds: texts, line
maps, address -> line rows, DWARF, the rest.

Wall-clock and CPU time swing by more than the few percent at stake on a
busy or virtual machine, so the compiles of a smaller model of the same
form (--instruction-layers, 20 by default; 0 skips it) are also counted in
instructions, which repeat exactly: callgrind, one thread, code for
x86-64-v3 (under valgrind the host's CPU is valgrind's), both levels side
by side.

Beside kiln's figures, the same for IREE on the same program:
iree-compile (llvm-cpu, --iree-llvmcpu-target-cpu=host, as kiln's default
--cpu) at --iree-hal-executable-debug-level=3 over 2. iree-compile comes from
bench/models' virtual environment (BUILD/bench-venv, made by
bench/models/setup_peers.sh) or --iree-compile; without it IREE is reported
missing.

Usage: capture_benchmark.py --bin-dir=build/bin [--layers=200] [--repeats=5]
           [--instruction-layers=20] [--iree-compile=PATH]
"""

import argparse
import filecmp
import json
import os
import re
import resource
import shutil
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


def run_timed(command):
    """(wall seconds, CPU seconds of the command and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compile_seconds(commands, rounds):
    """({level: (best wall, best CPU)}, (wall ratio, CPU ratio), [[wall
    ratio of each round], [CPU ratio of each round]]) over rounds
    that compile levels 2 and 3 in turn, the order alternating from one
    round to the next. The ratios are level 3 over level 2 within a round,
    the median of the rounds: the two compiles of a round run a few seconds
    apart, while the machine's speed can change between rounds."""
    times = {level: [] for level in commands}
    levels = sorted(commands)
    for index in range(rounds):
        for level in (levels if index % 2 == 0 else levels[::-1]):
            times[level].append(run_timed(commands[level]))
    best = {level: (min(wall for wall, _ in runs), min(cpu for _, cpu in runs))
            for level, runs in times.items()}
    per_round = [[three[i] / two[i] for two, three in zip(times[2], times[3])]
                 for i in (0, 1)]
    return best, tuple(statistics.median(r) for r in per_round), per_round


def count_instructions(compiler, model, work):
    """{level: instructions} of compiling `model` at levels 2 and 3 under
    callgrind (both at once, one thread each), or a string saying why
    not."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        return "missing (no valgrind)"
    runs = {}
    for level in (2, 3):
        command = [valgrind, "--tool=callgrind",
                   "--callgrind-out-file=/dev/null"] + kiln_command(
                       compiler, model, level,
                       os.path.join(work, "counted%d.kiln" % level)) + [
                           "--cpu=x86-64-v3", "--mlir-disable-threading"]
        runs[level] = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, text=True)
    # Both are waited for, whichever fails.
    logs = {level: run.communicate()[1] for level, run in runs.items()}
    counts = {}
    for level, run in runs.items():
        collected = re.search(r"Collected : (\d+)", logs[level])
        if run.returncode != 0 or not collected:
            return "failed (level %d: valgrind exited with %d)" % (
                level, run.returncode)
        counts[level] = int(collected.group(1))
    return counts


def machine():
    """The CPU model and the core count, for the header."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores" % (model, os.cpu_count() or 0)


def kiln_command(compiler, model, level, output):
    return [compiler, model, "--executable-debug-level=%d" % level, "-o", output]


def iree_command(compiler, model, level, output):
    return [compiler, model, "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host",
            "--iree-hal-executable-debug-level=%d" % level, "-o", output]


def measure_iree(compiler, model, work, repeats):
    """({level: seconds}, ratios, {level: bytes}, notes), or a string saying
    why not."""
    if not os.access(compiler, os.X_OK):
        return "missing (no %s; bench/models/setup_peers.sh BUILD_DIR installs it)" \
            % compiler
    modules = {level: os.path.join(work, "iree_level%d.vmfb" % level)
               for level in (2, 3)}
    try:
        seconds, ratios, _ = compile_seconds(
            {level: iree_command(compiler, model, level, modules[level])
             for level in (2, 3)}, repeats)
    except subprocess.CalledProcessError as error:
        return "failed (iree-compile exited with %d)" % error.returncode
    version = subprocess.run([compiler, "--version"], capture_output=True,
                             text=True).stdout
    version = re.search(r"version (\S+)", version)
    notes = ["IREE: iree-compile %s" % (version.group(1) if version else "")]
    if filecmp.cmp(modules[2], modules[3], shallow=False):
        notes.append("IREE: the level-3 module is byte-identical to level 2 "
                     "(this iree-compile embedded no stage sources)")
    return seconds, ratios, {level: os.path.getsize(modules[level])
                             for level in (2, 3)}, notes


def by_stage(files, stages):
    """[(stage, (files, raw bytes, stored bytes))] in pipeline order; files
    that are no stage text (embedded inputs) last."""
    totals = {}
    for entry in files:
        stage = next((s for s in stages
                      if entry["path"].endswith("." + s + ".mlir")),
                     "input files")
        count, raw, stored = totals.get(stage, (0, 0, 0))
        totals[stage] = (count + 1, raw + entry["raw_size"],
                         stored + entry["stored_size"])
    order = list(stages) + ["input files"]
    return sorted(totals.items(), key=lambda item: order.index(item[0]))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--layers", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5,
                        help="rounds, each compiling both levels")
    parser.add_argument("--instruction-layers", type=int, default=20,
                        help="layers of the model counted in instructions "
                        "(0: not counted)")
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
        load_before = os.getloadavg()[0]
        seconds, ratios, per_round = compile_seconds(
            {level: kiln_command(compiler, model, level, modules[level])
             for level in (2, 3)}, args.repeats)
        sizes = {level: os.path.getsize(modules[level]) for level in (2, 3)}
        summaries = {level: json.loads(subprocess.run(
            [dump, modules[level], "--json"], check=True,
            capture_output=True, text=True).stdout) for level in (2, 3)}
        summary = summaries[3]
        dispatches = sum(len(e["exports"]) for e in summary["executables"])
        table = json.loads(subprocess.run(
            [dump, modules[3], "--sources", "--json"], check=True,
            capture_output=True, text=True).stdout)
        totals = table["totals"]
        stages = by_stage(table["files"], summary["capture_stages"])
        iree = measure_iree(iree_compiler, model, work, args.repeats)
        instructions = None
        if args.instruction_layers > 0:
            counted_model = os.path.join(work, "counted_model.mlir")
            with open(counted_model, "w") as f:
                f.write(generate_model(args.instruction_layers))
            instructions = count_instructions(compiler, counted_model, work)
        load_after = os.getloadavg()[0]

    print("capture cost on a generated model: %d layers, %d dispatches, "
          "%d source files (times: best of %d rounds; 3 / 2: median of "
          "the rounds' ratios)" % (
              args.layers, dispatches, totals["files"], args.repeats))
    # Another load on the machine shows in the load average.
    print("machine: %s; load average %.2f before, %.2f after\n"
          % (machine(), load_before, load_after))
    print("%-22s %12s %12s %8s  | %12s %12s %8s" % (
        "", "kiln lvl 2", "kiln lvl 3", "3 / 2", "IREE lvl 2", "IREE lvl 3",
        "3 / 2"))
    notes = []
    if isinstance(iree, str):
        iree_time = "  | IREE " + iree
        iree_cpu = iree_size = "  | IREE " + iree.split()[0]
    else:
        iree_seconds, iree_ratios, iree_sizes, notes = iree
        iree_time, iree_cpu = ("  | %11.2fs %11.2fs %8.2f" % (
            iree_seconds[2][i], iree_seconds[3][i], iree_ratios[i])
                               for i in (0, 1))
        iree_size = "  | %12d %12d %8.2f" % (iree_sizes[2], iree_sizes[3],
                                             iree_sizes[3] / iree_sizes[2])
    for name, i, iree_row in (("compile time (wall)", 0, iree_time),
                              ("compile time (CPU)", 1, iree_cpu)):
        print("%-22s %11.2fs %11.2fs %8.2f" % (
            name, seconds[2][i], seconds[3][i], ratios[i]) + iree_row)
    print("%-22s %s" % ("kiln 3 / 2 by round", "; ".join(
        "%s %s" % (name, " ".join("%.2f" % r for r in rounds))
        for name, rounds in (("wall", per_round[0]), ("CPU", per_round[1])))))
    if isinstance(instructions, dict):
        print("%-22s %11dM %11dM %8.3f  | (%d layers, callgrind, one "
              "thread, x86-64-v3)" % (
                  "instructions", instructions[2] // 10**6,
                  instructions[3] // 10**6,
                  instructions[3] / instructions[2], args.instruction_layers))
    elif instructions:
        print("%-22s %s" % ("instructions", instructions))
    print("%-22s %12d %12d %8.2f" % ("module size (bytes)", sizes[2], sizes[3],
                                     sizes[3] / sizes[2]) + iree_size)
    for note in notes:
        print(note)
    print("\n%-22s %6s %12s %12s %10s %8s" % (
        "embedded sources", "files", "raw bytes", "stored", "stored/raw",
        "share"))
    for name, (files, raw, stored) in stages:
        print("%-22s %6d %12d %12d %10.3f %7.0f%%" % (
            name, files, raw, stored, stored / raw,
            100.0 * stored / totals["stored_bytes"]))
    print("%-22s %6d %12d %12d %10.3f" % (
        "all", totals["files"], totals["raw_bytes"], totals["stored_bytes"],
        totals["stored_bytes"] / totals["raw_bytes"]))
    added = sizes[3] - sizes[2]
    # The packed line tables as stored (kiln-dump's *_bytes).
    parts = [("stored texts", totals["stored_bytes"] +
              totals["dictionary_stored_bytes"]),
             ("cross-stage line maps", totals["line_origin_bytes"])]
    libraries = {level: summaries[level]["libraries"] for level in (2, 3)}
    parts.append(("address -> line rows", (
        sum(l["line_row_bytes"] for l in libraries[3]) -
        sum(l["line_row_bytes"] for l in libraries[2]))))
    parts.append(("libraries (DWARF)", sum(l["size"] for l in libraries[3]) -
                  sum(l["size"] for l in libraries[2])))
    parts.append(("paths, stage locations, other",
                  added - sum(size for _, size in parts)))
    print("\nlevel 3 adds %d bytes to the module:" % added)
    for name, size in parts:
        print("  %-30s %10d  %5.1f%%" % (name, size, 100.0 * size / added))
    rows = {level: sum(l["line_rows"] for l in libraries[level])
            for level in (2, 3)}
    print("\npacked line tables (rows; stored bytes per row):")
    print("  %-30s %10d  %5.2f" % (
        "cross-stage line maps", totals["line_origins"],
        totals["line_origin_bytes"] / max(totals["line_origins"], 1)))
    for level in (2, 3):
        stored = sum(l["line_row_bytes"] for l in libraries[level])
        print("  %-30s %10d  %5.2f" % (
            "address -> line rows, level %d" % level, rows[level],
            stored / max(rows[level], 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
