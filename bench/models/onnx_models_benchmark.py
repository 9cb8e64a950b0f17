#!/usr/bin/env python3
"""Real models from .onnx files: kiln against ONNX Runtime, PyTorch and IREE.

Exports ResNet50, MobileNetV2, EfficientNet-B0, ViT-B/16 and a BERT-base
encoder (seq 128) from PyTorch with seeded weights, as tests/onnx/models.py
does (opset 17, converted to 21), at each batch asked for, and times on the
same file and the same inputs:

  kiln           kiln-compile --cpu=ISA, kiln-benchmark --threads=N
  onnxruntime    InferenceSession, intra_op_num_threads=N, all graph
                 optimizations
  torch          the same PyTorch module and weights, eager,
                 torch.set_num_threads(N), inference_mode
  iree           iree-import-onnx, iree-compile (llvm-cpu, the same CPU as
                 kiln's), iree-benchmark-module --task_topology_group_count=N
                 (batch 1 only)

Each round measures every contender once (median ms of --calls calls after
2 warm-up calls); a contender's figure is its best round. Every contender
runs in a process of its own, whose peak resident memory is reported too.
kiln's result is checked against ONNX Runtime's first (max |d| / max |ref|
at most 1e-4). Rows of x86-64-v3 code are kiln's AVX2 code against the peers
as they run on this machine (they pick their own kernels by CPUID).

    build/venv/bin/python bench/models/onnx_models_benchmark.py --bin-dir=build/bin
    ... --models=resnet,mobilenet --batches=1 --threads=1,2 --isa=host,x86-64-v3
    ... --peers=onnxruntime,torch,iree --iree-bin=build/bench-venv/bin --json=F
    ... --models=resnext,regnet     # families the default run leaves out

Run it with a Python that has torch, torchvision, onnx and onnxruntime (the
test virtual environment, build/venv); IREE's tools come from --iree-bin.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
# tests/onnx/models.py (the model recipes) is imported where it is used: it
# brings PyTorch, which ONNX Runtime's timed process must not hold.
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "onnx"))
sys.path.insert(0, HERE)
from models_benchmark import benchmark_ms, cpu_description  # noqa: E402

MODELS = ("resnet", "mobilenet", "efficientnet", "vit", "bert")
# Families the default run leaves out, timed with --models: convolutions
# over groups of channels (ResNeXt50-32x4d, RegNetY-400MF).
MORE_MODELS = ("resnext", "regnet")
PEERS = ("onnxruntime", "torch", "iree")
TOLERANCE = 1e-4
WARMUP = 2


def default_calls(name, batch):
    """Timed calls per measurement: about a second of work."""
    per_image = {"resnet": 50, "mobilenet": 8, "efficientnet": 12,
                 "vit": 200, "bert": 150, "resnext": 70, "regnet": 10}[name]
    return max(3, min(30, int(1000 / (per_image * batch))))


#===----------------------------------------------------------------------===#
# Models and inputs
#===----------------------------------------------------------------------===#


def make_inputs(name, batch):
    generator = np.random.RandomState(0)
    if name == "bert":
        return {"input_ids": generator.randint(0, 1000, (batch, 128))
                .astype(np.int64)}
    return {"input": generator.randn(batch, 3, 224, 224).astype(np.float32)}


def build_module(name, batch):
    """The PyTorch module with the weights models.py gives it, in eval mode,
    and its example inputs at `batch`."""
    import models
    import torch
    torch.manual_seed(0)
    module, _, input_names, _ = models.make_model(name, "full")
    module.eval()
    arrays = make_inputs(name, batch)
    return module, tuple(torch.from_numpy(arrays[n]) for n in input_names), \
        input_names


def export(name, batch, path):
    """The model at `batch` as ONNX opset 21, as models.export makes it."""
    import onnx
    import onnx.version_converter
    import torch
    module, inputs, input_names, = build_module(name, batch)
    raw = path + ".opset17.onnx"
    with torch.enable_grad():
        torch.onnx.export(module, inputs, raw, opset_version=17,
                          input_names=input_names, output_names=["output"])
    onnx.save(onnx.version_converter.convert_version(onnx.load(raw), 21),
              path)
    os.remove(raw)


#===----------------------------------------------------------------------===#
# Contenders, each timed in a process of its own
#===----------------------------------------------------------------------===#


# Runs its arguments as its only child and reports that child's peak
# resident memory: the children's rusage of a process with one child.
MEASURED = ("import resource, subprocess, sys\n"
            "code = subprocess.call(sys.argv[1:])\n"
            "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print('maxrss_kb=%d' % usage.ru_maxrss, file=sys.stderr)\n"
            "sys.exit(code)\n")


def run_measured(command, timeout):
    """(stdout, peak RSS in MB) of `command`; raises RuntimeError on failure."""
    try:
        done = subprocess.run([sys.executable, "-c", MEASURED] + command,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("timed out after %d s" % timeout)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    rss = 0.0
    if lines and lines[-1].startswith("maxrss_kb="):
        rss = int(lines.pop()[len("maxrss_kb="):]) / 1024.0
    if done.returncode != 0:
        lines = lines or done.stdout.splitlines()
        raise RuntimeError(" ".join(lines[-3:])[:400])
    return done.stdout, rss


def peer_worker(args):
    """`--peer-worker`: load one model in one peer, time it, print JSON."""
    arrays = {k: np.load(v) for k, v in json.loads(args.feeds).items()}
    if args.peer_worker == "onnxruntime":
        import onnxruntime
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            args.model, options, providers=["CPUExecutionProvider"])
        call = lambda: session.run(None, arrays)  # noqa: E731
    else:
        import torch
        torch.set_num_threads(args.threads)
        module, _, input_names = build_module(args.name, args.batch)
        inputs = tuple(torch.from_numpy(arrays[n]) for n in input_names)

        def call():
            with torch.inference_mode():
                return module(*inputs)
    for _ in range(WARMUP):
        call()
    times = []
    for _ in range(args.calls):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    print(json.dumps({"ms": statistics.median(times)}))


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = args.work_dir
        os.makedirs(self.work, exist_ok=True)
        self.tool = lambda name: os.path.join(args.bin_dir, name)
        self.iree = lambda name: os.path.join(args.iree_bin, name)

    def path(self, *parts):
        return os.path.join(self.work, "_".join(str(p) for p in parts))

    def prepare(self, name, batch):
        """The .onnx file and the input files, made once."""
        model = self.path(name, "b%d.onnx" % batch)
        if not os.path.exists(model):
            export(name, batch, model)
        feeds = {}
        for input_name, array in make_inputs(name, batch).items():
            feeds[input_name] = self.path(name, "b%d" % batch,
                                          input_name + ".npy")
            np.save(feeds[input_name], array)
        return model, feeds

    def compile_kiln(self, model, isa):
        module = model[:-len(".onnx")] + ".%s.kiln" % isa
        newest = max(os.path.getmtime(model),
                     os.path.getmtime(self.tool("kiln-compile")))
        if not os.path.exists(module) or os.path.getmtime(module) < newest:
            start = time.time()
            run_measured([self.tool("kiln-compile"), model, "-o", module,
                          "--cpu=" + isa], 1800)
            print("  compiled %s in %.1f s" % (os.path.basename(module),
                                               time.time() - start),
                  file=sys.stderr, flush=True)
        return module

    def compile_iree(self, model, isa):
        vmfb = model[:-len(".onnx")] + ".%s.vmfb" % isa
        if os.path.exists(vmfb) and os.path.getmtime(vmfb) >= \
                os.path.getmtime(model):
            return vmfb
        imported = model[:-len(".onnx")] + ".iree.mlir"
        run_measured([self.iree("iree-import-onnx"), model, "-o", imported],
                     1800)
        run_measured([self.iree("iree-compile"), imported,
                      "--iree-hal-target-device=local",
                      "--iree-hal-local-target-device-backends=llvm-cpu",
                      "--iree-llvmcpu-target-cpu=" + isa, "-o", vmfb], 3600)
        return vmfb

    def check_kiln(self, module, model, feeds):
        import onnxruntime
        output = module + ".out.npy"
        command = [self.tool("kiln-run"), module, "--output=@" + output]
        command += ["--input=%s=@%s" % item for item in feeds.items()]
        run_measured(command, 600)
        actual = np.load(output)
        session = onnxruntime.InferenceSession(
            model, providers=["CPUExecutionProvider"])
        expected = session.run(
            None, {k: np.load(v) for k, v in feeds.items()})[0]
        if actual.shape != expected.shape:
            return "shape %s, ONNX Runtime %s" % (actual.shape, expected.shape)
        error = float(np.max(np.abs(actual.astype(np.float64) - expected)) /
                      max(np.max(np.abs(expected)), 1e-30))
        return None if error <= TOLERANCE else "max |d| / max |ref| %.1e" % error

    def time_kiln(self, module, feeds, threads, calls):
        command = [self.tool("kiln-benchmark"), module,
                   "--threads=%d" % threads, "--benchmark_format=json",
                   "--benchmark_repetitions=%d" % (calls + WARMUP),
                   "--benchmark_min_time=1x"]
        command += ["--input=%s=@%s" % item for item in feeds.items()]
        out, rss = run_measured(command, 1800)
        return benchmark_ms(out, WARMUP), rss

    def time_iree(self, vmfb, function, feeds, threads, calls):
        command = [self.iree("iree-benchmark-module"), "--module=" + vmfb,
                   "--device=local-task", "--function=" + function,
                   "--task_topology_group_count=%d" % threads,
                   "--benchmark_format=json",
                   "--benchmark_repetitions=%d" % (calls + WARMUP),
                   "--benchmark_min_time=1x"]
        command += ["--input=@" + path for path in feeds.values()]
        out, rss = run_measured(command, 1800)
        return benchmark_ms(out, WARMUP), rss

    def time_peer(self, peer, name, batch, model, feeds, threads, calls):
        command = [sys.executable, os.path.abspath(__file__),
                   "--peer-worker=" + peer, "--name=" + name,
                   "--batch=%d" % batch, "--model=" + model,
                   "--feeds=" + json.dumps(feeds), "--threads=%d" % threads,
                   "--calls=%d" % calls]
        out, rss = run_measured(command, 1800)
        return json.loads(out.strip().splitlines()[-1])["ms"], rss


#===----------------------------------------------------------------------===#
# Driver
#===----------------------------------------------------------------------===#


def measure(bench, args, name, batch, threads, rows, say):
    model, feeds = bench.prepare(name, batch)
    calls = args.calls or default_calls(name, batch)
    contenders = {}
    for isa in args.isa.split(","):
        try:
            module = bench.compile_kiln(model, isa)
            problem = bench.check_kiln(module, model, feeds)
        except RuntimeError as error:
            module, problem = None, "failed: %s" % error
        contenders["kiln " + isa] = (
            (lambda m=module: bench.time_kiln(m, feeds, threads, calls))
            if not problem else problem)
        if "iree" in args.peers and batch == 1:
            try:
                vmfb = bench.compile_iree(model, isa)
                # iree-import-onnx names the function after the graph.
                import onnx
                function = onnx.load(model).graph.name
                contenders["iree " + isa] = (
                    lambda v=vmfb, f=function: bench.time_iree(
                        v, f, feeds, threads, calls))
            except RuntimeError as error:
                contenders["iree " + isa] = "failed: %s" % error
    for peer in ("onnxruntime", "torch"):
        if peer in args.peers:
            contenders[peer] = (
                lambda p=peer: bench.time_peer(p, name, batch, model, feeds,
                                               threads, calls))
    best = {}
    for _ in range(args.rounds):
        for contender, measure_one in contenders.items():
            if isinstance(measure_one, str):
                continue
            time.sleep(args.settle)
            try:
                ms, rss = measure_one()
            except RuntimeError as error:
                contenders[contender] = "failed: %s" % error
                continue
            if contender not in best or ms < best[contender][0]:
                best[contender] = (ms, rss)
    for isa in args.isa.split(","):
        peers = {c: best[c] for c in best if not c.startswith("kiln")
                 and (not c.startswith("iree") or c.endswith(" " + isa))}
        kiln = best.get("kiln " + isa)
        best_peer = min(peers.items(), key=lambda item: item[1][0]) \
            if peers else None
        row = {"model": name, "batch": batch, "threads": threads, "isa": isa,
               "kiln_ms": kiln[0] if kiln else None,
               "kiln_rss_mb": kiln[1] if kiln else None,
               "problem": contenders["kiln " + isa]
               if isinstance(contenders["kiln " + isa], str) else None,
               "peers": {c.split(" ")[0]: {"ms": v[0], "rss_mb": v[1]}
                         for c, v in peers.items()},
               "peer_problems": {c: p for c, p in contenders.items()
                                 if isinstance(p, str)
                                 and not c.startswith("kiln")},
               "best_peer": best_peer[0].split(" ")[0] if best_peer else None,
               "ratio": best_peer[1][0] / kiln[0]
               if kiln and best_peer else None}
        rows.append(row)
        say(format_row(row))


def format_row(row):
    def cell(peer):
        value = row["peers"].get(peer)
        if value:
            return "%9.2f" % value["ms"]
        return "%9s" % ("-" if peer not in row["peer_problems"] else "failed")
    kiln = "%9.2f" % row["kiln_ms"] if row["kiln_ms"] else "%9s" % "failed"
    ratio = "%6.2fx" % row["ratio"] if row["ratio"] else "%7s" % "-"
    ort = row["peers"].get("onnxruntime")
    rss = "%7.0f %7.0f" % (row["kiln_rss_mb"] or 0,
                           ort["rss_mb"] if ort else 0)
    return "%-13s %5d %7d  %-9s %s %s %s %s %s  %s" % (
        row["model"], row["batch"], row["threads"], row["isa"], kiln,
        cell("onnxruntime"), cell("torch"), cell("iree"), ratio, rss)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default="build/bin")
    parser.add_argument("--iree-bin", default="build/bench-venv/bin")
    parser.add_argument("--work-dir", default="build/bench-onnx-models")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--isa", default="host,x86-64-v3")
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=0,
                        help="timed calls per measurement (default: about "
                        "a second's worth)")
    parser.add_argument("--settle", type=float, default=0.5)
    parser.add_argument("--json", metavar="FILE")
    # The timed process of a Python peer (internal).
    parser.add_argument("--peer-worker", choices=["onnxruntime", "torch"],
                        help=argparse.SUPPRESS)
    for internal in ("--name", "--model", "--feeds"):
        parser.add_argument(internal, help=argparse.SUPPRESS)
    parser.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer_worker:
        args.threads = int(args.threads)
        peer_worker(args)
        return 0
    for name in args.models.split(","):
        if name not in MODELS + MORE_MODELS:
            parser.error("unknown model %s (one of %s)" % (
                name, ", ".join(MODELS + MORE_MODELS)))
    if not os.path.isdir(args.iree_bin) and "iree" in args.peers:
        print("note: no IREE tools in %s; IREE left out" % args.iree_bin,
              file=sys.stderr)
        args.peers = args.peers.replace("iree", "")
    bench = Bench(args)
    model, isa, _ = cpu_description()
    print("CPU: %s, %s" % (model, isa))
    print("ms per call (best of %d rounds); ratio = best peer ms / kiln ms "
          "(above 1.00x kiln is faster); RSS: peak MB of kiln-benchmark and "
          "of ONNX Runtime's process" % args.rounds)
    print("%-13s %5s %7s  %-9s %9s %9s %9s %9s %7s  %7s %7s" % (
        "model", "batch", "threads", "kiln code", "kiln", "ORT", "torch",
        "IREE", "ratio", "kilnRSS", "ORT RSS"))
    rows = []
    say = lambda text: print(text, flush=True)  # noqa: E731
    for batch in (int(b) for b in args.batches.split(",")):
        for threads in (int(t) for t in args.threads.split(",")):
            for name in args.models.split(","):
                measure(bench, args, name, batch, threads, rows, say)
    problems = [r for r in rows if r["problem"] or r["peer_problems"]]
    for row in problems:
        for who, problem in ([("kiln " + row["isa"], row["problem"])]
                             if row["problem"] else []) + \
                list(row["peer_problems"].items()):
            print("%s batch %d: %s: %s" % (row["model"], row["batch"], who,
                                           problem), file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": model, "isa": isa, "rows": rows}, f, indent=1)
    return 1 if any(r["problem"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
