#!/usr/bin/env python3
"""Checks that what PyTorch's exporter records on each node reaches kiln's
locations and tools: its module path (`pkg.torch.onnx.name_scopes`) and
its Python source line (`pkg.torch.onnx.stack_trace`, the last frame
outside PyTorch), in the imported text and in kiln-dump's nodes.

    exporter_metadata.py --bin-dir=build/bin
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

STACK = ('File "/home/me/project/model.py", line 42, in forward\n'
         '    x = self.conv1(x)\n'
         '  File "/usr/lib/python3/dist-packages/torch/nn/modules/conv.py", '
         'line 463, in forward\n'
         '    return self._conv_forward(input, self.weight, self.bias)\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    args = parser.parse_args()
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [8])
    relu = helper.make_node("Relu", ["x"], ["r"], name="relu_3")
    for key, value in (
            ("pkg.torch.onnx.name_scopes",
             "['', 'layer1', 'layer1.0', 'layer1.0.act', 'relu_3']"),
            ("pkg.torch.onnx.stack_trace", STACK)):
        relu.metadata_props.add(key=key, value=value)
    neg = helper.make_node("Neg", ["r"], ["y"], name="neg_4")
    graph = helper.make_graph([relu, neg], "g", [x], [y])
    model = helper.make_model(graph, ir_version=10,
                              opset_imports=[helper.make_opsetid("", 21)])
    failures = []
    with tempfile.TemporaryDirectory(prefix="kiln-metadata-") as work:
        path = os.path.join(work, "m.onnx")
        onnx.save(model, path)
        text = subprocess.run(
            [os.path.join(args.bin_dir, "kiln-import-onnx"), path],
            stdout=subprocess.PIPE, text=True, check=True).stdout
        wanted = ('{node = "relu_3", op_type = "Relu", '
                  'scope = "layer1.0.act", source = "model.py:42"}')
        if wanted not in text:
            failures.append("the imported text has no %s" % wanted)
        if 'node = "neg_4", op_type = "Neg"}' not in text:
            failures.append("a node without metadata has a scope")
        module = os.path.join(work, "m.kiln")
        subprocess.run([os.path.join(args.bin_dir, "kiln-compile"), path,
                        "-o", module], check=True)
        dump = json.loads(subprocess.run(
            [os.path.join(args.bin_dir, "kiln-dump"), module, "--json"],
            stdout=subprocess.PIPE, text=True, check=True).stdout)
        nodes = [node for executable in dump["executables"]
                 for ex in executable["exports"] for node in ex["nodes"]]
        relu_nodes = [n for n in nodes if n["name"] == "relu_3"]
        if not relu_nodes or relu_nodes[0].get("scope") != "layer1.0.act" \
                or relu_nodes[0].get("source") != "model.py:42":
            failures.append("kiln-dump's nodes: %s" % nodes)
        if not any(n["name"] == "neg_4" and n["op_type"] == "Neg"
                   for n in nodes):
            failures.append("kiln-dump lacks neg_4: %s" % nodes)
    for failure in failures:
        print("FAIL:", failure)
    print("ok" if not failures else "%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
