#!/usr/bin/env python3
"""Per-call overhead of kiln from Python, side by side in one run: a tiny
ONNX model (Add of two 1x4 f32 tensors) called through kiln's Python
package, through kiln-benchmark (the same module, no Python), and through
ONNX Runtime's InferenceSession.run on the same file, one thread each.
Rounds are interleaved; each figure is the best round's mean per call.

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
        module_path = os.path.join(work, "tiny.kiln")
        make_model(model_path)
        subprocess.run([os.path.join(args.bin_dir, "kiln-compile"),
                        model_path, "-o", module_path], check=True)
        module = kiln.load(module_path, threads=1)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            model_path, options, providers=["CPUExecutionProvider"])
        a = np.ones((1, 4), np.float32)
        b = np.full((1, 4), 2.0, np.float32)
        np.testing.assert_array_equal(module.main(a, b), a + b)
        np.testing.assert_array_equal(
            session.run(None, {"a": a, "b": b})[0], a + b)

        peers = {
            "kiln Python (m.main)": lambda: module.main(a, b),
            "kiln Python (m.run)": lambda: module.run({"a": a, "b": b}),
            "ONNX Runtime (session.run)":
                lambda: session.run(None, {"a": a, "b": b}),
        }
        best = {name: float("inf") for name in peers}
        best["kiln-benchmark (C++)"] = float("inf")
        for _ in range(args.rounds):
            for name, call in peers.items():
                best[name] = min(best[name],
                                 seconds_per_call(call, args.calls))
            best["kiln-benchmark (C++)"] = min(
                best["kiln-benchmark (C++)"],
                kiln_benchmark_seconds(args.bin_dir, module_path))

    ort = best["ONNX Runtime (session.run)"]
    print(f"per-call time, {cpu_model()}, 1 thread, tiny Add(1x4, 1x4) "
          f"(best of {args.rounds} interleaved rounds)")
    print(f"{'':30s} {'us/call':>9s} {'ORT / this':>11s}")
    for name, seconds in best.items():
        print(f"{name:30s} {seconds * 1e6:9.2f} {ort / seconds:10.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_model(),
                       "seconds_per_call": best}, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
