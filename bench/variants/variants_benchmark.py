#!/usr/bin/env python3
"""What a module with code for several CPUs costs, side by side in one run.

Compiles each program (by default bench/kernels/kernels.mlir and
samples/lenet.onnx) once per CPU of --cpus alone and once for the whole
list (one module, a code variant per CPU), and prints the compile time
(wall and CPU, best of --compile-rounds) and module size of the fat module
against the module of its first CPU alone and against all of them
together. Then, for every variant this machine runs, it times the
program's functions in the fat module forced to that variant
(kiln.load(variant=...)) against the module compiled for that CPU alone,
rounds interleaved, and prints fat / alone per function: the code is the
same, so a ratio away from 1.0 is the machine's noise or a cost of the
format. Data layouts in a fat module are shared: the first CPU's tiles in
the rows of the CPU with the fewest registers, so the first variant's rows
show what those rows cost it, and the others' what computing another CPU's
tiles costs them.

    PYTHONPATH=BUILD/python BUILD/venv/bin/python \\
        bench/variants/variants_benchmark.py --bin-dir=BUILD/bin \\
        [--cpus=x86-64-v4,x86-64-v3,x86-64] [--program=FILE]... \\
        [--rounds=5] [--threads=1] [--compile-rounds=3]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

import kiln

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_ROOT, "bench", "capture"))
sys.path.insert(0, os.path.join(SOURCE_ROOT, "bench", "models"))
from capture_benchmark import run_timed  # noqa: E402
from models_benchmark import cpu_description  # noqa: E402
DEFAULT_PROGRAMS = [
    os.path.join(SOURCE_ROOT, "bench", "kernels", "kernels.mlir"),
    os.path.join(SOURCE_ROOT, "samples", "lenet.onnx"),
]
# Calls of a function per round: enough for about 0.2 s of it.
ROUND_SECONDS = 0.2


def compile_module(compiler, program, cpus, output):
    """(wall seconds, CPU seconds) of compiling `program` for `cpus`."""
    return run_timed([compiler, program, "--cpu=" + ",".join(cpus), "-o",
                      output])


def inputs_for(function, rng):
    """Random arrays for `function`'s arguments; None when one has a
    dynamic dimension (those functions are not timed)."""
    arrays = []
    for argument in function.arguments:
        if any(d is None or d < 0 for d in argument.shape):
            return None
        if np.issubdtype(argument.dtype, np.floating):
            arrays.append(rng.standard_normal(argument.shape).astype(
                argument.dtype))
        else:
            arrays.append(np.zeros(argument.shape, argument.dtype))
    return arrays


def seconds_per_call(function, arrays, calls):
    start = time.perf_counter()
    for _ in range(calls):
        function(*arrays)
    return (time.perf_counter() - start) / calls


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--cpus", default="x86-64-v4,x86-64-v3,x86-64")
    parser.add_argument("--program", action="append", default=[])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--compile-rounds", type=int, default=3)
    args = parser.parse_args(argv)
    compiler = os.path.join(args.bin_dir, "kiln-compile")
    cpus = args.cpus.split(",")
    programs = args.program or DEFAULT_PROGRAMS
    model, isa, _ = cpu_description()
    print("code variants %s against each CPU alone; machine: %s, %d cores, "
          "%s; %d thread(s)" % (",".join(cpus), model, os.cpu_count() or 0,
                                isa, args.threads))
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as work:
        for program in programs:
            stem = os.path.splitext(os.path.basename(program))[0]
            targets = [[cpu] for cpu in cpus] + [cpus]
            paths = {}
            times = {}
            for index, target in enumerate(targets):
                paths[index] = os.path.join(work, "%s.%d.kiln" % (stem, index))
                runs = [compile_module(compiler, program, target,
                                       paths[index])
                        for _ in range(args.compile_rounds)]
                times[index] = (min(w for w, _ in runs),
                                min(c for _, c in runs))
            fat = len(cpus)
            sizes = {i: os.path.getsize(p) for i, p in paths.items()}
            print("\n%s" % program)
            print("  %-28s %10s %10s %12s" % ("compiled for", "wall s",
                                              "CPU s", "bytes"))
            for index, target in enumerate(targets):
                print("  %-28s %10.2f %10.2f %12d" % (
                    ",".join(target), times[index][0], times[index][1],
                    sizes[index]))
            alone = sum(sizes[i] for i in range(fat))
            alone_cpu = sum(times[i][1] for i in range(fat))
            print("  fat / %s alone: compile %.2fx wall, %.2fx CPU; size "
                  "%.2fx" % (cpus[0], times[fat][0] / times[0][0],
                             times[fat][1] / times[0][1],
                             sizes[fat] / sizes[0]))
            print("  fat / all %d alone together: compile %.2fx CPU; size "
                  "%.2fx" % (fat, times[fat][1] / alone_cpu,
                             sizes[fat] / alone))

            # Speed: each runnable variant of the fat module against its CPU
            # alone.
            variants = kiln.load(paths[fat]).variants
            rows = []
            for index, variant in enumerate(variants):
                if not variant.supported:
                    print("  %s: not run here (%s)" % (variant.name,
                                                       variant.unsupported))
                    continue
                single = kiln.load(paths[index], threads=args.threads)
                forced = kiln.load(paths[fat], threads=args.threads,
                                   variant=variant.name)
                for function in single.functions:
                    arrays = inputs_for(function, rng)
                    if arrays is None:
                        continue
                    pair = (single[function.name], forced[function.name])
                    once = seconds_per_call(pair[0], arrays, 1)
                    calls = max(1, int(ROUND_SECONDS / max(once, 1e-6)))
                    best = [float("inf"), float("inf")]
                    ratios = []
                    for _ in range(args.rounds):
                        round_times = [seconds_per_call(f, arrays, calls)
                                       for f in pair]
                        best = [min(b, t) for b, t in zip(best, round_times)]
                        ratios.append(round_times[1] / round_times[0])
                    rows.append((variant.name, function.name, best,
                                 statistics.median(ratios), min(ratios),
                                 max(ratios)))
            if rows:
                print("  %-11s %-20s %12s %12s %7s %s" % (
                    "variant", "function", "alone ms", "fat ms", "fat/1",
                    "(rounds' range)"))
                for name, function, best, ratio, low, high in rows:
                    print("  %-11s %-20s %12.4f %12.4f %7.3f (%.3f-%.3f)" % (
                        name, function, best[0] * 1e3, best[1] * 1e3, ratio,
                        low, high))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
