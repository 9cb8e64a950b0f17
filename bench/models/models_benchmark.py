#!/usr/bin/env python3
"""Whole workloads, kiln side by side with IREE, ONNX Runtime, PyTorch, numpy.

Each workload (workloads.py) runs in each of its forms (weights as function
inputs, weights as constants in the program), on identical random data. kiln
and IREE compile the same generated .mlir for each --isa (their --cpu and
--iree-llvmcpu-target-cpu); kiln is timed with kiln-benchmark, IREE with
iree-benchmark-module (both print Google Benchmark JSON); ONNX Runtime
(models exported from PyTorch), PyTorch and numpy run in one process each per
thread count and vector ISA (peers.py). Every result is checked against a
float64 numpy reference first: a mismatch is reported instead of a time.

Vector ISAs: the peers pick their kernels by CPUID, so on a row whose code
uses less than the machine has (x86-64-v3 code on an AVX-512 machine) numpy
and PyTorch run restricted to that ISA (OPENBLAS_CORETYPE;
ATEN_CPU_CAPABILITY, ONEDNN_MAX_CPU_ISA, MKL_ENABLE_INSTRUCTIONS), which is
what users of such machines get from them. ONNX Runtime has no such switch:
on those rows it is timed with the machine's ISA, marked, and not counted as
the best peer.

Timing: for each thread count and workload, --rounds rounds each measure
every contender once (median ms per call over the workload's calls after
warm-up); each contender's figure is its best round. Before each
measurement the machine idles --settle seconds, so that the threads the last
contender left spinning (OpenBLAS, OpenMP and ONNX Runtime threads wait
busily after a call) have gone to sleep and do not take a core from the next
one. Printed per thread
count: ms per call for each contender, the best peer, and kiln's speed
relative to it (best peer ms / kiln ms: above 1 kiln is faster).

Usage: models_benchmark.py --bin-dir=build/bin [--rounds=3] [--threads=1,2]
           [--workloads=matmul_1024,mlp,...] [--isa=host,x86-64-v3]
           [--forms=inputs,constants] [--peers=iree,onnxruntime,torch,numpy]
           [--calls=N] [--settle=SECONDS] [--json[=FILE]]

Generated programs, data and compiled modules go to BUILD/bench-models
(--work-dir); the peers come from BUILD/bench-venv (setup_peers.sh).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_PEERS = ("onnxruntime", "torch", "numpy")
# Vector ISAs, widest first, by the LLVM feature that marks each.
LEVELS = (("avx512", "avx512f"), ("avx2", "avx2"), ("sse", None))
# The environment that keeps each peer's kernels to a narrower ISA than the
# machine's; a peer without an entry cannot be restricted.
RESTRICTIONS = {
    "numpy": {"avx2": {"OPENBLAS_CORETYPE": "Haswell"},
              "sse": {"OPENBLAS_CORETYPE": "Nehalem"}},
    "torch": {"avx2": {"ATEN_CPU_CAPABILITY": "avx2",
                       "ONEDNN_MAX_CPU_ISA": "AVX2",
                       "MKL_ENABLE_INSTRUCTIONS": "AVX2"},
              "sse": {"ATEN_CPU_CAPABILITY": "default",
                      "ONEDNN_MAX_CPU_ISA": "SSE41",
                      "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"}},
}
WARMUP = 2
UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def log(message):
    print(message, file=sys.stderr, flush=True)


def first_error(text, limit=300):
    """The line of a tool's output that says what went wrong."""
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    for line in lines:
        if re.search(r"error|Error|ERROR|failed|FAILED|Abort|Segmentation", line):
            return line[:limit]
    return (lines[-1] if lines else "no output")[:limit]


class Outcome:
    """A contender on one row: a time, or why there is none."""

    def __init__(self, status="ok", reason="", ms=None, level=None):
        self.status, self.reason, self.ms = status, reason, ms
        # The vector ISA the time was taken with, when wider than its row's:
        # shown, not counted as a peer of that row.
        self.level = level

    @property
    def ok(self):
        return self.status == "ok"

    def cell(self):
        if self.ok:
            return "%.3f" % self.ms if self.ms < 10 else "%.2f" % self.ms
        return self.status

    def to_json(self):
        result = {"status": self.status}
        if self.reason:
            result["reason"] = self.reason
        if self.ms is not None:
            result["ms"] = self.ms
        if self.level:
            result["comparable"] = False
            result["vector_isa"] = self.level
        return result


def run(command, timeout, env=None):
    """(ok, stdout, or the error when not ok); a time-out or missing tool is
    a failure."""
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout
    except OSError as error:
        return False, str(error)
    if done.returncode != 0:
        signal = -done.returncode if done.returncode < 0 else 0
        return False, (first_error(done.stderr or done.stdout)
                       + (" (signal %d)" % signal if signal else ""))
    return True, done.stdout


def benchmark_ms(output, warmup):
    """Median ms per call from Google Benchmark JSON (kiln-benchmark and
    iree-benchmark-module): the per-repetition runs after `warmup`, else the
    "median" aggregate."""
    start = output.find("{")
    if start < 0:
        raise ValueError("no benchmark JSON in the output")
    data, _ = json.JSONDecoder().raw_decode(output[start:])
    runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    runs.sort(key=lambda b: b.get("repetition_index", 0))
    if len(runs) > warmup:
        return statistics.median(b["real_time"] * UNITS[b["time_unit"]]
                                 for b in runs[warmup:])
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            return b["real_time"] * UNITS[b["time_unit"]]
    raise ValueError("no per-call time in the benchmark JSON")


#===----------------------------------------------------------------------===#
# Machine
#===----------------------------------------------------------------------===#


def cpu_description():
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model == "unknown":
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    if "avx512f" in flags:
        isa, level = "AVX-512 (avx512f)", "avx512"
    elif "avx2" in flags:
        isa, level = "AVX2, no AVX-512 (no avx512f)", "avx2"
    else:
        isa, level = "no AVX2", "sse"
    return model, isa, level


def code_level(features):
    """The widest vector ISA a library's LLVM features name."""
    for level, feature in LEVELS:
        if feature is None or feature in features:
            return level


def module_level(dump_tool, module):
    """The vector ISA of a kiln module's code, from kiln-dump; None when it
    cannot be told."""
    ok, text = run([dump_tool, module, "--json"], 60)
    if not ok:
        return None
    features = set()
    for library in json.loads(text).get("libraries", []):
        features.update(library.get("cpu_features", []))
    return code_level(features)


#===----------------------------------------------------------------------===#
# Compiled contenders: kiln and IREE
#===----------------------------------------------------------------------===#


def file_key(path):
    stat = os.stat(path)
    return "%s:%d:%d" % (path, stat.st_size, stat.st_mtime_ns)


def cached_compile(command, output, key_parts, timeout):
    """Runs `command` (which writes `output`) unless the same inputs built
    `output` before; returns (ok, error)."""
    key = hashlib.sha256("\n".join(key_parts + command).encode()).hexdigest()
    stamp = output + ".key"
    if os.path.exists(output) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == key:
                return True, ""
    for path in (output, stamp):
        if os.path.exists(path):
            os.remove(path)
    ok, text = run(command, timeout)
    if ok:
        with open(stamp, "w") as f:
            f.write(key)
    return ok, ("" if ok else text)


class Compiled:
    """kiln or IREE: compile per ISA, check with a run tool, time with a
    Google Benchmark tool."""

    def __init__(self, name, tools):
        self.name = name
        self.tools = tools              # {"compile", "run", "benchmark"}
        missing = [t for t in tools.values() if not os.access(t, os.X_OK)]
        self.missing = missing

    def module_path(self, work, workload, form, isa):
        ext = "kiln" if self.name == "kiln" else "vmfb"
        return os.path.join(work, "modules", "%s.%s.%s.%s" % (
            workload.name, form, isa, ext))

    def compile(self, source, module, isa, timeout):
        if self.name == "kiln":
            command = [self.tools["compile"], source, "--cpu=" + isa, "-o", module]
        else:
            command = [self.tools["compile"], source,
                       "--iree-hal-target-device=local",
                       "--iree-hal-local-target-device-backends=llvm-cpu",
                       "--iree-llvmcpu-target-cpu=" + isa, "-o", module]
        return cached_compile(command, module, [file_key(source),
                                                file_key(self.tools["compile"])],
                              timeout)

    def thread_flags(self, threads):
        if self.name == "kiln":
            return ["--threads=%d" % threads]
        return ["--device=local-task", "--task_topology_group_count=%d" % threads]

    def module_flags(self, module):
        return [module] if self.name == "kiln" else ["--module=" + module]

    def check(self, module, inputs, output, threads, timeout):
        command = ([self.tools["run"]] + self.module_flags(module)
                   + ["--function=main"] + ["--input=@" + i for i in inputs]
                   + ["--output=@" + output] + self.thread_flags(threads))
        if os.path.exists(output):
            os.remove(output)
        return run(command, timeout)

    def time(self, module, inputs, threads, calls, timeout):
        command = ([self.tools["benchmark"]] + self.module_flags(module)
                   + ["--function=main"] + ["--input=@" + i for i in inputs]
                   + self.thread_flags(threads)
                   + ["--benchmark_repetitions=%d" % (calls + WARMUP),
                      "--benchmark_min_time=1x", "--benchmark_format=json"])
        ok, text = run(command, timeout)
        if not ok:
            raise RuntimeError(text)
        return benchmark_ms(text, WARMUP)


#===----------------------------------------------------------------------===#
# Python peers (peers.py serve)
#===----------------------------------------------------------------------===#


class Worker:
    def __init__(self, python, peer, threads, data_dir, restriction):
        env = dict(os.environ)
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            env[name] = str(threads)
        # These pick an old OpenBLAS kernel where set for the system's
        # OpenBLAS; numpy's own OpenBLAS picks its kernel by CPUID unless
        # the row restricts it.
        for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "ATEN_CPU_CAPABILITY",
                     "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS"):
            env.pop(name, None)
        env.update(restriction)
        self.process = subprocess.Popen(
            [python, os.path.join(HERE, "peers.py"), "serve", "--peer=" + peer,
             "--threads=%d" % threads, "--data-dir=" + data_dir],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)

    def ask(self, **request):
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError) as error:
            return {"error": "peer process: %s" % error}
        if not line:
            code = self.process.poll()
            return {"error": "peer process exited (%s)" % code}
        return json.loads(line)

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


_IMPORTABLE = {}


def python_has(python, module):
    if module not in _IMPORTABLE:
        _IMPORTABLE[module] = subprocess.run(
            [python, "-c", "import " + module], capture_output=True).returncode == 0
    return _IMPORTABLE[module]


def tool_version(tool):
    try:
        text = subprocess.run([tool, "--version"], capture_output=True,
                              text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    match = re.search(r"version (\S+)", text)
    return match.group(1) if match else ""


#===----------------------------------------------------------------------===#
# Benchmark
#===----------------------------------------------------------------------===#


class Row:
    """One workload, form and ISA at one thread count."""

    def __init__(self, workload, form, isa, threads, level):
        self.workload, self.form, self.isa, self.threads = \
            workload, form, isa, threads
        self.level = level     # the vector ISA of the row's compiled code
        self.outcomes = {}

    def best_peer(self):
        times = [(o.ms, name) for name, o in self.outcomes.items()
                 if name != "kiln" and o.ok and not o.level]
        return min(times)[1] if times else None

    def ratio(self):
        best, kiln = self.best_peer(), self.outcomes.get("kiln")
        if best is None or kiln is None or not kiln.ok:
            return None
        return self.outcomes[best].ms / kiln.ms


def prepare_data(workload, work):
    """Writes the workload's arrays and .mlir (unchanged files are left
    alone, so that compiled modules stay cached)."""
    import numpy as np
    data_dir = os.path.join(work, "data", workload.name)
    os.makedirs(data_dir, exist_ok=True)
    for name, array in workload.arrays().items():
        path = os.path.join(data_dir, name + ".npy")
        if os.path.exists(path):
            old = np.load(path, mmap_mode="r")
            if old.shape == array.shape and old.dtype == array.dtype and \
                    np.array_equal(old, array):
                continue
        np.save(path, array)
    sources = {}
    for form in workload.forms:
        path = os.path.join(work, "mlir", "%s.%s.mlir" % (workload.name, form))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = workload.mlir(form)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        sources[form] = path
    return sources


def export_onnx(python, workload, form, work, timeout):
    model = os.path.join(work, "onnx", "%s.%s.onnx" % (workload.name, form))
    os.makedirs(os.path.dirname(model), exist_ok=True)
    data = [file_key(os.path.join(work, "data", workload.name, n + ".npy"))
            for n in workload.arrays()]
    sources = [file_key(os.path.join(HERE, f)) for f in ("peers.py", "workloads.py")]
    command = [python, os.path.join(HERE, "peers.py"), "export",
               "--data-dir=" + os.path.join(work, "data"),
               "--workload=" + workload.name, "--form=" + form,
               "--output=" + model]
    ok, error = cached_compile(command, model, data + sources, timeout)
    return model, ok, error


def check_result(workloads_module, path, expected):
    import numpy as np
    if not os.path.exists(path):
        return Outcome("failed", "no result written")
    ok, error = workloads_module.matches(np.load(path), expected)
    if ok:
        return None
    detail = error if isinstance(error, str) else \
        "max error %.3g of the largest |value|" % error
    return Outcome("mismatch", detail)


class Bench:
    """The contenders, what was built for them, and why some are absent."""

    def __init__(self, args, bin_dir, venv, work, say):
        self.args, self.work, self.say = args, work, say
        self.venv_python = os.path.join(venv, "bin", "python")
        peers = [p for p in args.peers.split(",") if p]
        self.kiln = Compiled("kiln", {
            "compile": os.path.join(bin_dir, "kiln-compile"),
            "run": os.path.join(bin_dir, "kiln-run"),
            "benchmark": os.path.join(bin_dir, "kiln-benchmark")})
        self.absent = {}       # contender -> Outcome, for every row
        if not os.access(self.kiln.tools["compile"], os.X_OK):
            self.absent["kiln"] = Outcome("missing",
                                          "no kiln-compile in %s" % bin_dir)
        # Without kiln-benchmark, kiln still compiles and is checked; only its
        # time is missing.
        self.no_benchmark = not os.access(self.kiln.tools["benchmark"], os.X_OK)
        self.iree = None
        if "iree" in peers:
            self.iree = Compiled("iree", {
                "compile": os.path.join(venv, "bin", "iree-compile"),
                "run": os.path.join(venv, "bin", "iree-run-module"),
                "benchmark": os.path.join(venv, "bin", "iree-benchmark-module")})
            if self.iree.missing:
                self.absent["iree"] = Outcome(
                    "missing", "no %s" % os.path.basename(self.iree.missing[0]))
            else:
                say("IREE %s, llvm-cpu, local-task"
                    % tool_version(self.iree.tools["compile"]))
        self.python_peers = [p for p in PYTHON_PEERS if p in peers]
        for peer in self.python_peers:
            if not os.path.exists(self.venv_python):
                self.absent[peer] = Outcome("missing", "no %s" % venv)
            elif not python_has(self.venv_python, peer):
                self.absent[peer] = Outcome("missing", "not installed in %s" % venv)
        if "onnxruntime" in self.python_peers and \
                "onnxruntime" not in self.absent and \
                not python_has(self.venv_python, "torch"):
            self.absent["onnxruntime"] = Outcome("missing",
                                                 "no torch to export models")
        self.contenders = ["kiln"] + [p for p in ("iree",) + PYTHON_PEERS
                                      if p in peers]
        if not os.path.exists(self.venv_python):
            say("peers: no %s; create it with: bench/models/setup_peers.sh %s"
                % (venv, os.path.dirname(bin_dir)))
        for name in self.contenders:
            if name in self.absent:
                say("%s: %s (%s)" % (name, self.absent[name].status,
                                     self.absent[name].reason))
        if self.no_benchmark and "kiln" not in self.absent:
            say("kiln: missing (no kiln-benchmark in %s): compiled and checked, "
                "not timed" % bin_dir)
        self.compiled = {}     # (contender, workload, form, isa) -> module | Outcome
        self.onnx_models = {}  # (workload, form) -> path | Outcome
        self.references = {}
        self.workers = {}      # (peer, vector ISA) -> Worker
        self.machine_level = cpu_description()[2]
        self.dump_tool = os.path.join(bin_dir, "kiln-dump")
        self.levels = {}       # --isa value -> vector ISA of its code

    def level_of(self, isa):
        """The vector ISA of the code kiln compiled for `isa` (the machine's
        when it cannot be told)."""
        if isa not in self.levels:
            level = None
            for (name, _, _, row_isa), module in self.compiled.items():
                if name == "kiln" and row_isa == isa and \
                        not isinstance(module, Outcome):
                    level = module_level(self.dump_tool, module)
                    break
            self.levels[isa] = level or self.machine_level
        return self.levels[isa]

    def restriction(self, peer, level):
        """The environment keeping `peer` to `level`, {} for the machine's
        own, None when `peer` cannot be kept to it."""
        if level == self.machine_level:
            return {}
        return RESTRICTIONS.get(peer, {}).get(level)

    def prepare(self, workload, forms, isas):
        """Data, programs, compiled modules and exported models of one
        workload."""
        log("preparing %s" % workload.name)
        sources = prepare_data(workload, self.work)
        self.references[workload.name] = workload.reference(workload.arrays())
        for form in forms:
            for tool in (self.kiln, self.iree):
                if tool is None or tool.name in self.absent:
                    continue
                for isa in isas:
                    module = tool.module_path(self.work, workload, form, isa)
                    os.makedirs(os.path.dirname(module), exist_ok=True)
                    start = time.perf_counter()
                    ok, error = tool.compile(sources[form], module, isa,
                                             self.args.compile_timeout)
                    log("  %s %s %s: %s (%.1f s)" % (
                        tool.name, form, isa, "ok" if ok else error,
                        time.perf_counter() - start))
                    self.compiled[(tool.name, workload.name, form, isa)] = \
                        module if ok else Outcome("failed", "compile: " + error)
            if "onnxruntime" in self.python_peers and \
                    "onnxruntime" not in self.absent:
                path, ok, error = export_onnx(self.venv_python, workload, form,
                                              self.work, self.args.compile_timeout)
                self.onnx_models[(workload.name, form)] = \
                    path if ok else Outcome("failed", "export: " + error)

    def start_workers(self, threads, levels, show_info):
        """A process per peer and vector ISA of `levels`; a peer that
        cannot be restricted to a level runs once, with the machine's."""
        for peer in self.python_peers:
            for level in [self.machine_level] + sorted(
                    set(levels) - {self.machine_level}):
                if peer in self.absent:
                    continue
                restriction = self.restriction(peer, level)
                if restriction is None:
                    continue
                worker = Worker(self.venv_python, peer, threads,
                                os.path.join(self.work, "data"), restriction)
                answer = worker.ask(op="info")
                if "error" in answer:
                    self.absent[peer] = Outcome("failed", answer["error"])
                    worker.close()
                    continue
                if show_info:
                    self.say(answer["info"] + (
                        " [%s rows: %s]" % (level, " ".join(
                            "%s=%s" % item for item in sorted(restriction.items())))
                        if restriction else ""))
                self.workers[(peer, level)] = worker

    def stop_workers(self):
        for worker in self.workers.values():
            worker.close()
        self.workers = {}

    def check_python_peers(self, workload, form, threads, calls, level, timed):
        """{peer: Outcome} after one checked run each of the processes for
        `level`; appends the timing of each peer that passed to `timed`,
        keyed by `level`. A peer that cannot be restricted to `level` is
        run with the machine's ISA and its outcome marked with it."""
        import workloads as wl
        outcomes = {}
        for peer in self.python_peers:
            if peer in self.absent:
                outcomes[peer] = self.absent[peer]
                continue
            run_level = level if (peer, level) in self.workers \
                else self.machine_level
            worker = self.workers[(peer, run_level)]
            request = {"workload": workload.name, "form": form}
            if peer == "onnxruntime":
                model = self.onnx_models.get((workload.name, form))
                if isinstance(model, Outcome):
                    outcomes[peer] = model
                    continue
                request["model"] = model
            key = "%s/%s" % (workload.name, form)
            output = self.result_path(workload, form, peer + "." + run_level,
                                      threads)
            answer = worker.ask(op="load", key=key, output=output, **request)
            if "error" in answer:
                outcomes[peer] = Outcome("failed", answer["error"])
                continue
            outcomes[peer] = check_result(
                wl, output, self.references[workload.name]) or Outcome()
            if outcomes[peer].ok:
                timed.append((run_level, peer, lambda w=worker, k=key: w.ask(
                    op="time", key=k, calls=calls, warmup=WARMUP)))
        return outcomes

    def check_compiled(self, row, threads, calls, timed):
        """Fills row.outcomes for kiln and IREE after one checked run each;
        appends the timing of each that passed to `timed`."""
        import workloads as wl
        workload, form = row.workload, row.form
        inputs = [os.path.join(self.work, "data", workload.name, n + ".npy")
                  for n in workload.arguments(form)]
        for tool in (self.kiln, self.iree):
            if tool is None:
                continue
            name = tool.name
            if name in self.absent:
                row.outcomes[name] = self.absent[name]
                continue
            module = self.compiled.get((name, workload.name, form, row.isa))
            if isinstance(module, Outcome):
                row.outcomes[name] = module
                continue
            output = self.result_path(workload, form, name + "." + row.isa,
                                      threads)
            ok, text = tool.check(module, inputs, output, threads,
                                  self.args.run_timeout)
            if not ok:
                row.outcomes[name] = Outcome("failed", "run: " + text)
                continue
            outcome = check_result(wl, output, self.references[workload.name]) \
                or Outcome()
            if outcome.ok and name == "kiln" and self.no_benchmark:
                outcome = Outcome("missing", "no kiln-benchmark")
            row.outcomes[name] = outcome
            if outcome.ok:
                timed.append((row, name, lambda t=tool, m=module: {
                    "ms": t.time(m, inputs, threads, calls, self.args.run_timeout)}))

    def result_path(self, workload, form, contender, threads):
        results = os.path.join(self.work, "results")
        os.makedirs(results, exist_ok=True)
        return os.path.join(results, "%s.%s.%s.t%d.npy" % (
            workload.name, form, contender, threads))

    def measure(self, workload, form, isas, threads):
        """One row per ISA: every contender checked, then timed in
        interleaved rounds."""
        calls = self.args.calls or workload.calls
        rows = [Row(workload, form, isa, threads, self.level_of(isa))
                for isa in isas]
        # (row, or the vector ISA of the peer process that serves every row
        # of it; contender; measure)
        timed = []
        shared = {}            # vector ISA -> {peer: Outcome}
        for row in rows:
            if row.level not in shared:
                shared[row.level] = self.check_python_peers(
                    workload, form, threads, calls, row.level, timed)
            self.check_compiled(row, threads, calls, timed)
            row.outcomes.update(shared[row.level])
        # (("isa", isa) or ("level", vector ISA), contender) -> ms | Outcome
        best = {}
        for _ in range(self.args.rounds):
            for row, name, measure in timed:
                slot = (("isa", row.isa) if isinstance(row, Row)
                        else ("level", row), name)
                if isinstance(best.get(slot), Outcome):
                    continue
                time.sleep(self.args.settle)
                try:
                    answer = measure()
                except Exception as error:  # reported as this contender failing
                    answer = {"error": str(error)}
                if "error" in answer:
                    best[slot] = Outcome("failed", "timing: " + answer["error"])
                else:
                    best[slot] = min(best.get(slot, answer["ms"]), answer["ms"])
        for row in rows:
            for name in row.outcomes:
                # A peer serving this row from another vector ISA's process.
                run_level = row.level if (name, row.level) in self.workers \
                    else self.machine_level
                value = best.get((("isa", row.isa), name),
                                 best.get((("level", run_level), name)))
                if value is None:
                    continue
                row.outcomes[name] = value if isinstance(value, Outcome) \
                    else Outcome(ms=value, level=run_level
                                 if name in self.python_peers and
                                 run_level != row.level else None)
            log("  %s %s %s t%d: %s" % (workload.name, form, row.isa, threads,
                                        ", ".join("%s %s" % (n, o.cell()) for n, o
                                                  in row.outcomes.items())))
        for worker in self.workers.values():
            worker.ask(op="unload", key="%s/%s" % (workload.name, form))
        return rows


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", required=True,
                        help="kiln's tools (build/bin)")
    parser.add_argument("--work-dir", help="default: BIN_DIR/../bench-models")
    parser.add_argument("--venv", help="default: BIN_DIR/../bench-venv")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=0.5,
                        help="seconds idle before each measurement")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--workloads", default="all",
                        help="comma-separated names, or all")
    parser.add_argument("--forms", default="inputs,constants")
    parser.add_argument("--isa", default="host,x86-64-v3",
                        help="kiln --cpu and IREE --iree-llvmcpu-target-cpu values")
    parser.add_argument("--peers", default="iree,onnxruntime,torch,numpy")
    parser.add_argument("--calls", type=int,
                        help="timed calls per measurement (default: per workload)")
    parser.add_argument("--compile-timeout", type=int, default=1800)
    parser.add_argument("--run-timeout", type=int, default=900)
    parser.add_argument("--json", nargs="?", const="-", metavar="FILE",
                        help="write the results as JSON (to stdout without FILE)")
    args = parser.parse_args(argv)

    bin_dir = os.path.abspath(args.bin_dir)
    build = os.path.dirname(bin_dir)
    venv = os.path.abspath(args.venv or os.path.join(build, "bench-venv"))
    work = os.path.abspath(args.work_dir or os.path.join(build, "bench-models"))
    venv_python = os.path.join(venv, "bin", "python")

    # The driver needs numpy; the peers' environment has it.
    if os.path.exists(venv_python) and \
            os.path.realpath(sys.prefix) != os.path.realpath(venv) and \
            not os.environ.get("KILN_BENCH_MODELS_REEXEC"):
        env = dict(os.environ, KILN_BENCH_MODELS_REEXEC="1")
        os.execve(venv_python, [venv_python, os.path.abspath(__file__)] + argv, env)
    try:
        import numpy as np  # noqa: F401
    except ImportError:
        log("bench/models: numpy is missing; set up the peers with "
            "bench/models/setup_peers.sh %s" % build)
        return 1
    sys.path.insert(0, HERE)
    import workloads as wl

    thread_counts = [int(t) for t in args.threads.split(",") if t]
    isas = [i for i in args.isa.split(",") if i]
    forms = [f for f in args.forms.split(",") if f]
    known = wl.by_name()
    names = list(known) if args.workloads == "all" else \
        [n for n in args.workloads.split(",") if n]
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error("unknown workload(s) %s; known: %s"
                     % (", ".join(unknown), ", ".join(known)))
    chosen = [known[n] for n in names]

    model, isa_text, machine_level = cpu_description()
    out = sys.stdout if args.json != "-" else sys.stderr

    def say(text=""):
        print(text, file=out, flush=True)

    say("bench/models: kiln against IREE, ONNX Runtime, PyTorch and numpy")
    say("CPU: %s; vector ISA: %s; %d cores" % (model, isa_text, os.cpu_count()))
    os.makedirs(work, exist_ok=True)
    bench = Bench(args, bin_dir, venv, work, say)
    for workload in chosen:
        bench.prepare(workload, [f for f in forms if f in workload.forms], isas)

    rows = []
    for threads in thread_counts:
        bench.start_workers(threads, [bench.level_of(isa) for isa in isas],
                            show_info=threads == thread_counts[0])
        say("")
        thread_rows = []
        for workload in chosen:
            for form in [f for f in forms if f in workload.forms]:
                thread_rows += bench.measure(workload, form, isas, threads)
        bench.stop_workers()
        print_table(say, thread_rows, bench.contenders, threads, args.rounds)
        rows += thread_rows

    if args.json:
        document = {
            "cpu": model, "vector_isa": isa_text,
            "avx512f": machine_level == "avx512",
            "rounds": args.rounds, "threads": thread_counts, "isas": isas,
            "rows": [{"workload": r.workload.name, "title": r.workload.title,
                      "form": r.form, "isa": r.isa, "threads": r.threads,
                      "code_vector_isa": r.level,
                      "contenders": {n: o.to_json() for n, o in r.outcomes.items()},
                      "best_peer": r.best_peer(), "kiln_speed_vs_best_peer": r.ratio()}
                     for r in rows]}
        if args.json == "-":
            json.dump(document, sys.stdout, indent=1)
            print()
        else:
            with open(args.json, "w") as f:
                json.dump(document, f, indent=1)
    return 0


LABELS = {"kiln": "kiln", "iree": "IREE", "onnxruntime": "ORT",
          "torch": "torch", "numpy": "numpy"}


def print_table(say, rows, contenders, threads, rounds):
    say("threads=%d: ms per call, best of %d rounds; kiln speed = best peer ms / "
        "kiln ms" % (threads, rounds))
    header = "%-32s %-9s %-10s" % ("workload", "weights", "ISA") + "".join(
        " %10s" % LABELS[c] for c in contenders) + " %10s %10s" % (
        "best peer", "kiln speed")
    say(header)
    say("-" * len(header))
    notes = {}         # note -> [rows it applies to]
    for row in rows:
        cells = []
        for name in contenders:
            outcome = row.outcomes.get(name, Outcome("missing"))
            cell = outcome.cell()
            if outcome.ok and outcome.level:
                note = ("%s cannot be kept to the row's vector ISA: timed with "
                        "%s, not counted as best peer" % (LABELS[name],
                                                          outcome.level))
                where = notes.setdefault(note, [])
                where.append("%s %s %s" % (row.workload.name, row.form, row.isa))
                cell += "[%d]" % (list(notes).index(note) + 1)
            elif not outcome.ok and outcome.reason:
                note = "%s %s: %s" % (LABELS[name], outcome.status, outcome.reason)
                where = notes.setdefault(note, [])
                where.append("%s %s %s" % (row.workload.name, row.form, row.isa))
                cell += "[%d]" % (list(notes).index(note) + 1)
            cells.append(cell)
        best = row.best_peer()
        ratio = row.ratio()
        say("%-32s %-9s %-10s" % (row.workload.title, row.form, row.isa)
            + "".join(" %10s" % c for c in cells)
            + " %10s %10s" % (LABELS[best] if best else "-",
                              "%.2fx" % ratio if ratio is not None else "-"))
    for index, (note, where) in enumerate(notes.items(), 1):
        say("  [%d] %s (%s)" % (index, note, ", ".join(where)
                               if len(where) <= 4 else "%d rows" % len(where)))
    if len({row.isa for row in rows}) > 1:
        say("kiln and IREE are compiled per ISA row; ORT, torch and numpy pick "
            "their kernels by CPUID, numpy and torch kept to the row's vector "
            "ISA where it is narrower than the machine's.")
    say("")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
