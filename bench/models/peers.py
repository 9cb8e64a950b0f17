#!/usr/bin/env python3
"""The Python peers of bench/models: numpy, PyTorch and ONNX Runtime.

Two commands, both run by models_benchmark.py in the peers' virtual
environment:

  peers.py export --data-dir=D --workload=W --form=F --output=M.onnx
      exports the workload's PyTorch model with torch.onnx.export.

  peers.py serve --peer=numpy|torch|onnxruntime --threads=N --data-dir=D
      one process per peer and thread count, so that each library's thread
      pool is set once and idles (not spins) while another peer runs. Reads
      one JSON request a line on stdin, answers one JSON line on stdout:
        {"op": "info"}                               -> {"info": "..."}
        {"op": "load", "key", "workload", "form", "output", ["model"]}
            builds the callable, runs it once, writes its result (in the
            .mlir's layout) to "output"                -> {"ok": true}
        {"op": "time", "key", "calls", "warmup"}
            median ms per call over "calls" calls after "warmup" calls
                                                       -> {"ms": X}
      A request that fails answers {"error": "..."}; the process goes on.
"""

import argparse
import json
import os
import statistics
import sys
import time
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads  # noqa: E402


def load_arrays(data_dir, workload):
    return {name: np.load(os.path.join(data_dir, workload.name, name + ".npy"))
            for name, _, _ in workload.specs()}


def torch_module(torch, workload, form, arrays):
    """The workload as a torch.nn.Module: weights are buffers in "constants"
    (ONNX initializers once exported) and forward() arguments in "inputs"."""
    arguments = workload.arguments(form)

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight_names = [n for n in arrays if n not in arguments]
            for name in self.weight_names:
                self.register_buffer(name, torch.from_numpy(
                    workload.torch_layout(name, arrays[name])))

        def forward(self, *args):
            values = dict(zip(arguments, args))
            for name in self.weight_names:
                values[name] = getattr(self, name)
            return workload.torch(torch, values)

    inputs = [torch.from_numpy(workload.torch_layout(n, arrays[n]))
              for n in arguments]
    return Model().eval(), arguments, inputs


def export(args):
    import torch
    workload = workloads.by_name()[args.workload]
    arrays = load_arrays(args.data_dir, workload)
    model, names, inputs = torch_module(torch, workload, args.form, arrays)
    errors = []
    # The dynamo exporter is torch's default; the TorchScript one is the
    # fallback where onnxscript is missing or dynamo fails on the model.
    for dynamo in (True, False):
        try:
            torch.onnx.export(model, tuple(inputs), args.output,
                              input_names=names, output_names=["result"],
                              opset_version=18, dynamo=dynamo)
            return 0
        except Exception as error:  # reported below, with the other attempt
            errors.append("dynamo=%s: %s" % (dynamo, str(error).splitlines()[0]
                                             if str(error) else type(error)))
    print("export failed: " + "; ".join(errors), file=sys.stderr)
    return 1


#===----------------------------------------------------------------------===#
# serve
#===----------------------------------------------------------------------===#


class NumpyPeer:
    def __init__(self, threads):
        from threadpoolctl import threadpool_info, threadpool_limits
        self.limits = threadpool_limits(limits=threads)
        self.threadpool_info = threadpool_info

    def info(self):
        pools = ["%s %s (%s, %s threads)" % (
            p.get("internal_api"), p.get("version"), p.get("architecture", "-"),
            p.get("num_threads")) for p in self.threadpool_info()]
        return "numpy %s; %s" % (np.__version__, ", ".join(pools) or "no BLAS")

    def build(self, workload, form, arrays, model):
        return (lambda: workload.numpy(arrays)), (lambda out: out)


class TorchPeer:
    def __init__(self, threads):
        import torch
        self.torch = torch
        torch.set_num_threads(threads)
        torch.set_num_interop_threads(1)

    def info(self):
        return "torch %s (%s kernels), %d threads" % (
            self.torch.__version__, self.torch.backends.cpu.get_cpu_capability(),
            self.torch.get_num_threads())

    def build(self, workload, form, arrays, model):
        torch = self.torch
        module, _, inputs = torch_module(torch, workload, form, arrays)

        def call():
            with torch.inference_mode():
                return module(*inputs)
        return call, lambda out: workload.torch_result(out.numpy())


class OnnxRuntimePeer:
    def __init__(self, threads):
        import onnxruntime
        self.ort = onnxruntime
        self.threads = threads

    def info(self):
        return "onnxruntime %s, intra_op %d, inter_op 1" % (
            self.ort.__version__, self.threads)

    def build(self, workload, form, arrays, model):
        ort = self.ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = \
            ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(model, options,
                                       providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        expected = workload.arguments(form)
        if names != expected:
            raise RuntimeError("model inputs %s, expected %s" % (names, expected))
        feeds = {n: workload.torch_layout(n, arrays[n]) for n in names}
        return (lambda: session.run(None, feeds)[0]), workload.torch_result


PEERS = {"numpy": NumpyPeer, "torch": TorchPeer, "onnxruntime": OnnxRuntimePeer}


def serve(args):
    # Answers go to the real stdout; anything a library prints goes to stderr.
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        peer = PEERS[args.peer](args.threads)
    except Exception as error:
        answers.write(json.dumps({"error": "%s: %s" % (type(error).__name__,
                                                       error)}) + "\n")
        return 1
    calls = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if request["op"] == "info":
                answer = {"info": peer.info()}
            elif request["op"] == "load":
                workload = workloads.by_name()[request["workload"]]
                arrays = load_arrays(args.data_dir, workload)
                call, to_layout = peer.build(workload, request["form"], arrays,
                                             request.get("model"))
                result = np.ascontiguousarray(to_layout(call()),
                                              dtype=np.float32)
                np.save(request["output"], result)
                calls[request["key"]] = call
                answer = {"ok": True}
            elif request["op"] == "time":
                call = calls[request["key"]]
                for _ in range(request["warmup"]):
                    call()
                times = []
                for _ in range(request["calls"]):
                    start = time.perf_counter()
                    call()
                    times.append(time.perf_counter() - start)
                answer = {"ms": 1e3 * statistics.median(times)}
            elif request["op"] == "unload":
                calls.pop(request["key"], None)
                answer = {"ok": True}
            else:
                answer = {"error": "unknown op " + request["op"]}
        except Exception as error:
            text = str(error).strip().splitlines()
            answer = {"error": "%s: %s" % (type(error).__name__,
                                           text[0] if text else ""),
                      "trace": traceback.format_exc()}
        answers.write(json.dumps(answer) + "\n")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    e = commands.add_parser("export")
    e.add_argument("--data-dir", required=True)
    e.add_argument("--workload", required=True)
    e.add_argument("--form", required=True, choices=workloads.FORMS)
    e.add_argument("--output", required=True)
    s = commands.add_parser("serve")
    s.add_argument("--peer", required=True, choices=sorted(PEERS))
    s.add_argument("--threads", type=int, required=True)
    s.add_argument("--data-dir", required=True)
    args = parser.parse_args(argv)
    return export(args) if args.command == "export" else serve(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
