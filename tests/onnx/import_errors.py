#!/usr/bin/env python3
"""Checks what kiln-compile does with models it must refuse, and with
weights stored beside a model: every refusal is one clear error naming the
file (exit status 1, never a crash), and external data is read only from
the model's folder.

    import_errors.py --bin-dir=build/bin
"""

import argparse
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

FAILURES = []


def compile_model(bin_dir, path, work):
    result = subprocess.run(
        [os.path.join(bin_dir, "kiln-compile"), path, "-o",
         os.path.join(work, "out.kiln")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    return result.returncode, result.stderr


def expect_error(name, bin_dir, path, work, *fragments):
    """kiln-compile refuses `path` with one error holding `fragments`."""
    code, stderr = compile_model(bin_dir, path, work)
    problems = []
    if code != 1:
        problems.append("exit status %d, expected 1" % code)
    if stderr.count("error:") != 1:
        problems.append("%d errors, expected one" % stderr.count("error:"))
    for fragment in fragments:
        if fragment not in stderr:
            problems.append("no %r in the error" % fragment)
    report(name, problems, stderr)


def report(name, problems, stderr=""):
    if problems:
        FAILURES.append(name)
        print("FAIL %s: %s\n%s" % (name, "; ".join(problems), stderr.strip()))
    else:
        print("ok   %s" % name)


def add_model(opset=21, ir_version=10):
    """y = x + w, w a 64x64 weight."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 64])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [64, 64])
    w = numpy_helper.from_array(
        np.arange(64 * 64, dtype=np.float32).reshape(64, 64) / 7.0, "w")
    graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"],
                                                name="add")],
                              "add", [x], [y], [w])
    return helper.make_model(graph, ir_version=ir_version,
                             opset_imports=[helper.make_opsetid("", opset)])


def test_malformed(bin_dir, work):
    path = os.path.join(work, "garbage.onnx")
    with open(path, "wb") as f:
        # 't' (0x74) would open field 14 as an end-group: not a protobuf.
        f.write(b"this is not a model\n" + bytes(range(256)))
    expect_error("garbage", bin_dir, path, work, path, "not an ONNX model")

    lenet = os.path.join(os.path.dirname(__file__), "..", "..", "samples",
                         "lenet.onnx")
    with open(lenet, "rb") as f:
        data = f.read()
    path = os.path.join(work, "truncated.onnx")
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])
    expect_error("truncated", bin_dir, path, work, path, "error:")

    # ONNX's text parser throws on a size beyond 64 bits.
    path = os.path.join(work, "huge.onnxtxt")
    with open(path, "w") as f:
        f.write('<ir_version: 10, opset_import: ["" : 21]>\n'
                'g (float[99999999999999999999999] a) => (float[2] y) {\n'
                '  y = Relu(a)\n}\n')
    expect_error("text out of range", bin_dir, path, work, path,
                 "not a model in ONNX's text format")

    path = os.path.join(work, "empty.onnx")
    open(path, "wb").close()
    expect_error("empty file", bin_dir, path, work, path)

    path = os.path.join(work, "fifo.onnx")
    os.mkfifo(path)
    # A FIFO with no writer must not block the compiler.
    expect_error("fifo", bin_dir, path, work, path)


def test_versions(bin_dir, work):
    model = add_model()
    model.ir_version = 99
    path = os.path.join(work, "ir99.onnx")
    onnx.save(model, path)
    expect_error("IR version too new", bin_dir, path, work, path,
                 "IR version 99 is newer")

    model = add_model()
    model.opset_import[0].version = 99
    path = os.path.join(work, "opset99.onnx")
    onnx.save(model, path)
    expect_error("opset too new", bin_dir, path, work, path,
                 "opset 99 is newer")


def test_checker(bin_dir, work):
    model = add_model()
    # An input no node or initializer defines.
    model.graph.node[0].input[1] = "undefined"
    path = os.path.join(work, "unchecked.onnx")
    onnx.save(model, path)
    expect_error("checker", bin_dir, path, work, path, "checker")


def test_missing_ops(bin_dir, work):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("FancyOp", ["a"], ["b"], domain="com.example",
                         name="fancy0"),
        helper.make_node("FancyOp", ["b"], ["c"], domain="com.example",
                         name="fancy1"),
        helper.make_node("Abs", ["c"], ["y"], name="abs"),
    ]
    graph = helper.make_graph(nodes, "g", [x], [y])
    model = helper.make_model(graph, ir_version=10, opset_imports=[
        helper.make_opsetid("", 21), helper.make_opsetid("com.example", 1)])
    path = os.path.join(work, "custom.onnx")
    onnx.save(model, path)
    expect_error("missing ops listed", bin_dir, path, work, path,
                 "com.example.FancyOp (opset 1): 2 nodes, first 'fancy0'")


def test_quantized(bin_dir, work):
    x = helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 1, 4, 4])
    inits = [
        numpy_helper.from_array(np.array(0.5, np.float32), "s"),
        numpy_helper.from_array(np.array(1, np.uint8), "z"),
        numpy_helper.from_array(np.ones((1, 1, 1, 1), np.uint8), "w"),
    ]
    node = helper.make_node("QLinearConv",
                            ["x", "s", "z", "w", "s", "z", "s", "z"], ["y"],
                            name="qconv")
    graph = helper.make_graph([node], "q", [x], [y], inits)
    model = helper.make_model(graph, ir_version=10,
                              opset_imports=[helper.make_opsetid("", 21)])
    path = os.path.join(work, "quantized.onnx")
    onnx.save(model, path)
    expect_error("quantized refused", bin_dir, path, work, path,
                 "QLinearConv", "quantized ops")


def test_einsum_equation(bin_dir, work):
    # ONNX's shape inference loops forever on such an operand; kiln refuses
    # it before.
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    node = helper.make_node("Einsum", ["a", "b"], ["y"], name="contract",
                            equation="ij,.<jk->ik")
    graph = helper.make_graph([node], "e", [a, b], [y])
    model = helper.make_model(graph, ir_version=10,
                              opset_imports=[helper.make_opsetid("", 21)])
    path = os.path.join(work, "einsum.onnx")
    onnx.save(model, path)
    expect_error("Einsum equation refused", bin_dir, path, work, path,
                 "node 'contract' (Einsum): the equation 'ij,.<jk->ik'")


def save_external(model, folder, location):
    """Saves `model` with its weight `w` in the side file `location`."""
    os.makedirs(os.path.join(folder, os.path.dirname(location)),
                exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    onnx.save_model(model, path, save_as_external_data=True,
                    all_tensors_to_one_file=True, location=location,
                    size_threshold=0)
    return path


def test_external_data(bin_dir, work):
    # Weights beside the model, in a subfolder: compiled, and they hold the
    # right values.
    folder = os.path.join(work, "external")
    path = save_external(add_model(), folder, "weights/w.bin")
    code, stderr = compile_model(bin_dir, path, work)
    problems = [] if code == 0 else ["exit status %d" % code]
    if code == 0:
        x = np.ones((64, 64), np.float32)
        np.save(os.path.join(work, "x.npy"), x)
        run = subprocess.run(
            [os.path.join(bin_dir, "kiln-run"), os.path.join(work, "out.kiln"),
             "--input=@" + os.path.join(work, "x.npy"),
             "--output=@" + os.path.join(work, "y.npy")],
            stderr=subprocess.PIPE, text=True)
        expected = x + np.arange(64 * 64, dtype=np.float32).reshape(64, 64) / 7
        if run.returncode != 0:
            problems.append("kiln-run: " + run.stderr)
        elif not np.allclose(np.load(os.path.join(work, "y.npy")), expected):
            problems.append("wrong values")
    report("external data in a subfolder", problems, stderr)

    def edited(name, edit):
        model = onnx.load(path, load_external_data=False)
        for entry in model.graph.initializer[0].external_data:
            edit(entry)
        edited_path = os.path.join(folder, name + ".onnx")
        onnx.save(model, edited_path)
        return edited_path

    def set_location(value):
        return lambda e: setattr(e, "value", value) if e.key == "location" \
            else None

    outside = os.path.join(work, "outside.bin")
    with open(outside, "wb") as f:
        f.write(b"\0" * 64 * 64 * 4)
    expect_error("external data: '..'", bin_dir,
                 edited("dotdot", set_location("../outside.bin")), work,
                 "not inside the model's folder")
    expect_error("external data: absolute path", bin_dir,
                 edited("absolute", set_location(outside)), work,
                 "not inside the model's folder")
    os.symlink(outside, os.path.join(folder, "link.bin"))
    expect_error("external data: symlink out", bin_dir,
                 edited("symlink", set_location("link.bin")), work,
                 "leads outside the model's folder")
    expect_error("external data: missing file", bin_dir,
                 edited("missing", set_location("nothing.bin")), work,
                 "does not exist")
    expect_error("external data: beyond the file", bin_dir,
                 edited("beyond", lambda e: setattr(e, "value", "1000000")
                        if e.key == "offset" else None), work,
                 "bytes at offset 1000000")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kiln-import-errors-") as work:
        for test in (test_malformed, test_versions, test_checker,
                     test_missing_ops, test_quantized, test_einsum_equation,
                     test_external_data):
            test(args.bin_dir, work)
    if FAILURES:
        print("%d failed: %s" % (len(FAILURES), ", ".join(FAILURES)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
