#!/usr/bin/env python3
"""Per-call overhead of kiln from Python, side by side in one run: a tiny
ONNX model (Add of two 1x4 f32 tensors) called through kiln's Python
package, through kiln-benchmark (the same module, no Python), and through
ONNX Runtime's InferenceSession.run on the same file, one thread each;
kiln's module compiled for the host and for x86-64-v3 (AVX2). Rounds are
interleaved; each figure is the best round's mean per call.

    PYTHONPATH=BUILD/python BUILD/venv/bin/python bench/python/call_overhead.py \\
        --bin-dir=BUILD/bin [--calls=20000] [--rounds=5] [--json=FILE]
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

import kiln


def make_model(path):
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["sum"], name="add")],
        "tiny",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4])
         for n in ("a", "b")],
        [helper.make_tensor_value_info("sum", TensorProto.FLOAT, [1, 4])])
    # IR 8 (opset 17): what ONNX Runtime and PyTorch's exporter both read.
    onnx.save(helper.make_model(
        graph, ir_version=8,
        opset_imports=[helper.make_opsetid("", 17)]), path)


def seconds_per_call(call, calls):
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls


def kiln_benchmark_seconds(bin_dir, module_path):
    """kiln-benchmark's mean time per call (Google Benchmark's JSON)."""
    output = subprocess.run(
        [os.path.join(bin_dir, "kiln-benchmark"), module_path,
         "--input=1x4xf32=1", "--input=1x4xf32=2", "--threads=1",
         "--benchmark_format=json", "--benchmark_min_time=0.2s"],
        check=True, capture_output=True, text=True).stdout
    runs = json.loads(output)["benchmarks"]
    time_unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return min(r["real_time"] * time_unit[r["time_unit"]] for r in runs
               if r.get("run_type", "iteration") == "iteration")


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    import onnxruntime

    with tempfile.TemporaryDirectory() as work:
        model_path = os.path.join(work, "tiny.onnx")
        make_model(model_path)
        modules, module_paths = {}, {}
        for cpu in ("host", "x86-64-v3"):
            module_paths[cpu] = os.path.join(work, f"tiny-{cpu}.kiln")
            subprocess.run([os.path.join(args.bin_dir, "kiln-compile"),
                            model_path, f"--cpu={cpu}", "-o",
                            module_paths[cpu]], check=True)
            modules[cpu] = kiln.load(module_paths[cpu], threads=1)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            model_path, options, providers=["CPUExecutionProvider"])
        a = np.ones((1, 4), np.float32)
        b = np.full((1, 4), 2.0, np.float32)
        np.testing.assert_array_equal(
            session.run(None, {"a": a, "b": b})[0], a + b)
        peers = {"ONNX Runtime (session.run)":
                 lambda: session.run(None, {"a": a, "b": b})}
        for cpu, module in modules.items():
            np.testing.assert_array_equal(module.main(a, b), a + b)
            peers[f"kiln {cpu} Python (m.main)"] = \
                lambda m=module: m.main(a, b)
            peers[f"kiln {cpu} Python (m.run)"] = \
                lambda m=module: m.run({"a": a, "b": b})
        best = {name: float("inf") for name in peers}
        for cpu in modules:
            best[f"kiln {cpu} kiln-benchmark (C++)"] = float("inf")
        for _ in range(args.rounds):
            for name, call in peers.items():
                best[name] = min(best[name],
                                 seconds_per_call(call, args.calls))
            for cpu, path in module_paths.items():
                name = f"kiln {cpu} kiln-benchmark (C++)"
                best[name] = min(best[name],
                                 kiln_benchmark_seconds(args.bin_dir, path))

    ort = best["ONNX Runtime (session.run)"]
    print(f"per-call time, {cpu_model()}, 1 thread, tiny Add(1x4, 1x4) "
          f"(best of {args.rounds} interleaved rounds)")
    print(f"{'':40s} {'us/call':>9s} {'ORT / this':>11s}")
    for name, seconds in best.items():
        print(f"{name:40s} {seconds * 1e6:9.2f} {ort / seconds:10.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_model(),
                       "seconds_per_call": best}, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
