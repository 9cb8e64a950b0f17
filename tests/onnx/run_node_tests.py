#!/usr/bin/env python3
"""Runs ONNX's backend node tests through kiln-compile and kiln-run.

Each test case of the pinned `onnx` package (one node, or one op's function
expansion, with inputs and expected outputs) is compiled from its model and
run on its inputs; the outputs are compared as ONNX's own backend test does
(numpy.testing.assert_allclose with the case's rtol and atol). A case ends
as one of:

  pass     every output matches
  wrong    it compiled and ran, and an output differs (or has another shape)
  refused  kiln-compile or kiln-run refused it with an error message
  crash    a tool died on a signal, timed out, or failed without a message

Cases whose graph inputs or outputs are not tensors kiln can hold (strings,
sequences, optionals, maps, 2- and 4-bit integers) are not applicable and
counted apart. The summary gives the counts of the cases whose data are
numpy arrays (1,477 in onnx 1.23.2: the count ONNX Runtime's pass rate is
usually given for), then of all applicable ones (those with the 8-bit and
4-bit floats too, whose data ONNX keeps as TensorProtos). Cases listed in
known_wrong.txt may be wrong; any other wrong case, and any crash, fails
the run.

    run_node_tests.py --bin-dir=build/bin                  # every case
    run_node_tests.py --bin-dir=build/bin --sample=4       # every 4th case
    run_node_tests.py --bin-dir=build/bin --filter=conv    # names matching
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import onnx  # noqa: E402
from onnx.backend.test.case.node import collect_testcases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# ONNX element types kiln's functions take and return.
SUPPORTED_TYPES = {
    onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16,
    onnx.TensorProto.BFLOAT16, onnx.TensorProto.BOOL, onnx.TensorProto.INT8,
    onnx.TensorProto.UINT8, onnx.TensorProto.INT16, onnx.TensorProto.UINT16,
    onnx.TensorProto.INT32, onnx.TensorProto.UINT32, onnx.TensorProto.INT64,
    onnx.TensorProto.UINT64, onnx.TensorProto.FLOAT8E4M3FN,
    onnx.TensorProto.FLOAT8E4M3FNUZ, onnx.TensorProto.FLOAT8E5M2,
    onnx.TensorProto.FLOAT8E5M2FNUZ, onnx.TensorProto.FLOAT8E8M0,
    onnx.TensorProto.FLOAT4E2M1,
}

# Seconds a tool may take on one case.
TIMEOUT = 300


def has_numpy_data(case):
    """Whether every input and output of the case is a numpy array."""
    for inputs, outputs in case.data_sets:
        for value in list(inputs) + list(outputs):
            if not isinstance(value, np.ndarray) or value.dtype == object:
                return False
    return True


def applicable(model):
    """Whether every graph input and output is a tensor kiln can hold."""
    for value in list(model.graph.input) + list(model.graph.output):
        if not value.type.HasField("tensor_type"):
            return False
        if value.type.tensor_type.elem_type not in SUPPORTED_TYPES:
            return False
    return True


def to_array(value):
    """A test case's input or output as a numpy array (some cases keep
    theirs as TensorProtos: the 8-bit and 4-bit floats, as ml_dtypes)."""
    if isinstance(value, onnx.TensorProto):
        return onnx.numpy_helper.to_array(value)
    return np.asarray(value)


def is_small_float(dtype):
    return dtype.name == "bfloat16" or dtype.name.startswith("float8") or \
        dtype.name.startswith("float4")


def to_kiln_array(array):
    """The array as kiln-run reads it: bf16 and the 8-bit and 4-bit floats
    as their bits, other types as they are (unsigned integers too)."""
    if is_small_float(array.dtype):
        return array.view(np.dtype("u%d" % array.dtype.itemsize))
    return array


def compare(expected, actual, rtol, atol):
    """None if `actual` matches, else why not."""
    expected = to_array(expected)
    if expected.dtype.kind == "u" or is_small_float(expected.dtype):
        actual = actual.view(expected.dtype)
    if tuple(actual.shape) != tuple(expected.shape):
        return "shape %s, expected %s" % (actual.shape, expected.shape)
    if expected.dtype.kind in "fc" or is_small_float(expected.dtype):
        try:
            expected_f = expected.astype(np.float64)
        except (TypeError, ValueError):
            expected_f = expected.view(actual.dtype).astype(np.float64)
        try:
            actual_f = actual.astype(np.float64)
        except (TypeError, ValueError):
            actual_f = actual.view(expected.dtype).astype(np.float64)
        close = np.isclose(actual_f, expected_f, rtol=rtol, atol=atol,
                           equal_nan=True)
        if close.all():
            return None
        difference = np.abs(actual_f - expected_f)
        worst = np.unravel_index(np.nanargmax(np.where(close, -1, difference)),
                                 difference.shape)
        return ("%d of %d elements beyond rtol %g, atol %g; worst %r, "
                "expected %r" % (np.sum(~close), close.size, rtol, atol,
                                 actual_f[worst], expected_f[worst]))
    if not np.array_equal(actual.astype(expected.dtype), expected):
        differing = int(np.sum(actual.astype(expected.dtype) != expected))
        return "%d of %d elements differ" % (differing, expected.size)
    return None


def first_error_line(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "error:" in line:
            message = line.strip()[:300]
            # The op types an import refuses follow on their own lines.
            if "cannot import" in line:
                ops = [l.split()[0] for l in lines[i + 1:]
                       if l.startswith("  ")]
                message += " " + ", ".join(ops)
            return message
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0][:300] if lines else ""


def run_tool(command):
    """(kind, message): kind is ok, refused or crash."""
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "crash", "timed out after %d s" % TIMEOUT
    if result.returncode == 0:
        return "ok", ""
    message = first_error_line(result.stderr)
    if result.returncode < 0:
        return "crash", "signal %d: %s" % (-result.returncode, message)
    if "error:" not in result.stderr:
        return "crash", "exit %d without an error message: %s" % (
            result.returncode, message)
    return "refused", message


def run_case(case, bin_dir, work_root, cpu):
    work = tempfile.mkdtemp(prefix=case.name + "-", dir=work_root)
    try:
        model_path = os.path.join(work, "model.onnx")
        onnx.save(case.model, model_path)
        module = os.path.join(work, "model.kiln")
        kind, message = run_tool([os.path.join(bin_dir, "kiln-compile"),
                                  model_path, "-o", module, "--cpu=" + cpu])
        if kind != "ok":
            return {"name": case.name, "result": kind, "stage": "compile",
                    "message": message}
        initializers = {t.name for t in case.model.graph.initializer}
        input_names = [value.name for value in case.model.graph.input
                       if value.name not in initializers]
        for index, (inputs, outputs) in enumerate(case.data_sets):
            command = [os.path.join(bin_dir, "kiln-run"), module]
            for i, array in enumerate(inputs):
                path = os.path.join(work, "in%d_%d.npy" % (index, i))
                np.save(path, to_kiln_array(to_array(array)))
                command.append("--input=@" + path)
            if len(inputs) != len(input_names):
                return {"name": case.name, "result": "refused",
                        "stage": "run", "message":
                        "%d inputs for %d graph inputs" % (len(inputs),
                                                           len(input_names))}
            output_paths = []
            for i in range(len(outputs)):
                path = os.path.join(work, "out%d_%d.npy" % (index, i))
                output_paths.append(path)
                command.append("--output=@" + path)
            kind, message = run_tool(command)
            if kind != "ok":
                return {"name": case.name, "result": kind, "stage": "run",
                        "message": message}
            for i, (expected, path) in enumerate(zip(outputs, output_paths)):
                actual = np.load(path)
                why = compare(expected, actual, case.rtol, case.atol)
                if why:
                    return {"name": case.name, "result": "wrong",
                            "stage": "compare",
                            "message": "output %d: %s" % (i, why)}
        return {"name": case.name, "result": "pass"}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def read_list(path):
    names = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    names.add(line)
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True,
                        help="folder of kiln-compile and kiln-run")
    parser.add_argument("--sample", type=int, default=1,
                        help="run every Nth applicable case (by name order)")
    parser.add_argument("--filter", default="",
                        help="only cases whose names match this regex")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cpu", default="host",
                        help="kiln-compile --cpu (default host)")
    parser.add_argument("--json", metavar="FILE",
                        help="write every case's result to FILE")
    parser.add_argument("--known-wrong",
                        default=os.path.join(HERE, "known_wrong.txt"))
    parser.add_argument("--verbose", action="store_true",
                        help="print every case, not only those that fail")
    args = parser.parse_args()

    cases = sorted(collect_testcases(), key=lambda c: c.name)
    total = len(cases)
    cases = [c for c in cases if re.search(args.filter, c.name)]
    applicable_cases = [c for c in cases if applicable(c.model)]
    not_applicable = len(cases) - len(applicable_cases)
    selected = applicable_cases[::args.sample]
    print("onnx %s: %d node test cases, %d applicable (tensors kiln holds); "
          "running %d%s" % (onnx.__version__, total, len(applicable_cases),
                            len(selected),
                            " (every %dth)" % args.sample
                            if args.sample > 1 else ""), flush=True)

    known_wrong = read_list(args.known_wrong)
    results = []
    work_root = tempfile.mkdtemp(prefix="kiln-node-tests-")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_case, case, args.bin_dir, work_root,
                                   args.cpu) for case in selected]
            for future in concurrent.futures.as_completed(futures):
                result = future.result()
                results.append(result)
                if args.verbose or result["result"] in ("wrong", "crash"):
                    print("%-7s %s  %s" % (result["result"], result["name"],
                                           result.get("message", "")),
                          flush=True)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)

    results.sort(key=lambda r: r["name"])
    numpy_data = {c.name for c in selected if has_numpy_data(c)}

    def summarize(subset, what):
        counts = {kind: 0 for kind in ("pass", "wrong", "refused", "crash")}
        for result in subset:
            counts[result["result"]] += 1
        ran = len(subset)
        print("%d %s: %d pass (%.1f%%), %d wrong, %d refused, %d crash" % (
            ran, what, counts["pass"], 100.0 * counts["pass"] / max(ran, 1),
            counts["wrong"], counts["refused"], counts["crash"]))
        return counts

    print()
    summarize([r for r in results if r["name"] in numpy_data],
              "cases with numpy data")
    counts = summarize(results, "applicable cases (%d not applicable)" %
                       not_applicable)
    unexpected_wrong = [r for r in results if r["result"] == "wrong"
                        and r["name"] not in known_wrong]
    crashes = [r for r in results if r["result"] == "crash"]
    refusals = {}
    for result in results:
        if result["result"] != "refused":
            continue
        message = result["message"]
        if "cannot import" in message:
            # One count per op type missing.
            for op in message.split(":", 2)[-1].split(")", 1)[-1].split(","):
                key = "missing op " + op.strip()
                refusals[key] = refusals.get(key, 0) + 1
            continue
        key = re.sub(r"'[^']*'", "'...'", message)
        key = re.sub(r"^\S+: ", "", key)
        refusals[key] = refusals.get(key, 0) + 1
    if refusals:
        print("\nrefusals, most common first:")
        for message, count in sorted(refusals.items(),
                                     key=lambda item: -item[1])[:40]:
            print("  %4d  %s" % (count, message[:160]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"onnx": onnx.__version__, "counts": counts,
                       "not_applicable": not_applicable,
                       "numpy_data": sorted(numpy_data),
                       "results": results}, f, indent=1)
    if unexpected_wrong:
        print("\nwrong and not in %s:" % os.path.basename(args.known_wrong))
        for r in unexpected_wrong:
            print("  %s: %s" % (r["name"], r.get("message", "")))
    if crashes:
        print("\ncrashes:")
        for r in crashes:
            print("  %s: %s" % (r["name"], r.get("message", "")))
    return 1 if unexpected_wrong or crashes else 0


if __name__ == "__main__":
    sys.exit(main())
