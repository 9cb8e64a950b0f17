#!/usr/bin/env python3
"""Convolution shape classes of real models: kiln against ONNX Runtime.

Each class is one Conv (with bias) and a Relu, as an .onnx file with
seeded constant weights, the shapes taken from ResNet50, MobileNetV2 and
EfficientNet-B0 (7x7 stride 2, 3x3 stride 1 and 2, 3x3 on a deep filter,
1x1 stride 1 and 2, depthwise 3x3 and 5x5, grouped 3x3). kiln compiles it
for each --isa; ONNX Runtime runs the same file with the kernels it picks
for this machine. Both run in this process with the same thread count,
rounds interleaved; the table gives GFLOP/s (the convolution's
multiply-adds, twice) and kiln's speed relative to ONNX Runtime's, each
output checked against ONNX Runtime's first. Both convert the image from
and to NCHW on each call (kiln by transposes, ONNX Runtime by reorders to
its NCHWc blocks), as a model of one convolution must; in a whole model
kiln's transposes sink away.

    PYTHONPATH=BUILD/python BUILD/venv/bin/python \\
        bench/onnx/conv_classes_benchmark.py --bin-dir=BUILD/bin \\
        [--isa=host,x86-64-v3] [--threads=1] [--rounds=5] [--classes=a,b]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

import kiln

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
from models_benchmark import cpu_description  # noqa: E402

# name: (channels in, image size, channels out, kernel, stride, groups,
# where it comes from)
CLASSES = {
    "7x7s2": (3, 224, 64, 7, 2, 1, "ResNet50 stem"),
    "3x3": (64, 56, 64, 3, 1, 1, "ResNet50 layer1"),
    "3x3s2": (128, 56, 128, 3, 2, 1, "ResNet50 layer2.0"),
    "3x3deep": (256, 14, 256, 3, 1, 1, "ResNet50 layer3"),
    "1x1": (256, 56, 64, 1, 1, 1, "ResNet50 layer1 conv1"),
    "1x1s2": (256, 56, 512, 1, 2, 1, "ResNet50 downsample"),
    "dw3x3": (144, 56, 144, 3, 1, 144, "MobileNetV2 depthwise"),
    "dw3x3s2": (96, 112, 96, 3, 2, 96, "MobileNetV2 depthwise, stride 2"),
    "dw5x5": (672, 14, 672, 5, 1, 672, "EfficientNet-B0 depthwise"),
    "grouped3x3": (256, 28, 256, 3, 1, 32, "ResNeXt-style, 32 groups"),
}
# Seconds of calls per timed round.
ROUND_SECONDS = 0.3


def make_model(name, path):
    """The class's Conv + Relu on a batch of one, opset 17; its FLOPs and
    its input."""
    cin, size, cout, kernel, stride, groups, _ = CLASSES[name]
    rng = np.random.RandomState(0)
    pad = kernel // 2
    weight = rng.standard_normal((cout, cin // groups, kernel, kernel)) * 0.05
    bias = rng.standard_normal(cout) * 0.05
    out = (size + 2 * pad - kernel) // stride + 1
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv",
                          kernel_shape=[kernel, kernel],
                          strides=[stride, stride], pads=[pad] * 4,
                          group=groups),
         helper.make_node("Relu", ["y"], ["z"], name="relu")],
        name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                             [1, cin, size, size])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT,
                                       [1, cout, out, out])],
        [numpy_helper.from_array(weight.astype(np.float32), "w"),
         numpy_helper.from_array(bias.astype(np.float32), "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    flops = 2.0 * out * out * cout * (cin // groups) * kernel * kernel
    return flops, rng.standard_normal((1, cin, size, size)).astype(np.float32)


def calls_for(function):
    """Calls of `function` filling about ROUND_SECONDS."""
    start = time.perf_counter()
    function()
    once = max(time.perf_counter() - start, 1e-6)
    return max(3, int(ROUND_SECONDS / once))


def seconds_per_call(function, calls):
    start = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - start) / calls


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--isa", default="host,x86-64-v3")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--classes", default=",".join(CLASSES))
    args = parser.parse_args(argv)
    names = args.classes.split(",")
    unknown = [n for n in names if n not in CLASSES]
    if unknown:
        parser.error("unknown class %s (known: %s)" % (
            ", ".join(unknown), ", ".join(CLASSES)))
    model, isa, _ = cpu_description()
    print("convolution classes (Conv + bias + Relu, batch 1): kiln against "
          "ONNX Runtime %s, median of %d interleaved rounds; %s, %s, "
          "%d thread(s)" % (onnxruntime.__version__, args.rounds, model, isa,
                            args.threads))
    print("%-11s %-32s %-10s %9s %9s %9s" % (
        "class", "shape (from)", "kiln ISA", "kiln", "ORT", "kiln/ORT"))
    print("%-11s %-32s %-10s %9s %9s %9s" % ("", "", "", "GFLOP/s",
                                             "GFLOP/s", ""))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            path = os.path.join(work, name + ".onnx")
            flops, x = make_model(name, path)
            session = onnxruntime.InferenceSession(
                path, options, providers=["CPUExecutionProvider"])
            expected = session.run(None, {"x": x})[0]
            cin, size, cout, kernel, stride, groups, origin = CLASSES[name]
            shape = "%dx%dx%d k%d s%d%s (%s)" % (
                cin, size, size, kernel, stride,
                " g%d" % groups if groups > 1 else "", origin)
            for target in args.isa.split(","):
                module_path = os.path.join(work, "%s.%s.kiln" % (name, target))
                subprocess.run([os.path.join(args.bin_dir, "kiln-compile"),
                                path, "--cpu=" + target, "-o", module_path],
                               check=True)
                function = kiln.load(module_path,
                                     threads=args.threads).functions[0]
                got = function(x)
                got = got[0] if isinstance(got, (list, tuple)) else got
                if not np.allclose(np.asarray(got), expected, rtol=1e-3,
                                   atol=1e-4):
                    print("conv_classes_benchmark: %s (%s): kiln's output differs "
                          "from ONNX Runtime's" % (name, target),
                          file=sys.stderr)
                    return 1
                run_kiln = lambda: function(x)  # noqa: E731
                run_ort = lambda: session.run(None, {"x": x})  # noqa: E731
                calls = (calls_for(run_kiln), calls_for(run_ort))
                kiln_s, ort_s = [], []
                for _ in range(args.rounds):
                    kiln_s.append(seconds_per_call(run_kiln, calls[0]))
                    ort_s.append(seconds_per_call(run_ort, calls[1]))
                kiln_t = statistics.median(kiln_s)
                ort_t = statistics.median(ort_s)
                print("%-11s %-32s %-10s %9.1f %9.1f %9.2f" % (
                    name, shape, target, flops / kiln_t * 1e-9,
                    flops / ort_t * 1e-9, ort_t / kiln_t), flush=True)
                shape = ""
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
