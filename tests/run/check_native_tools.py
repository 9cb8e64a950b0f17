#!/usr/bin/env python3
"""Profiles and debugs a compiled module with Linux perf and gdb.

Both modes run `kiln-run MODULE --perf RUN_ARGS...` with KILN_PERF_DIR set
to WORKDIR/libraries, and read the module's exports and their stage texts
with kiln-dump (--json, --extract-sources).

perf: records the run with `perf record -e cpu-clock` (a software event,
which works inside VMs), then reads `perf report --sort sym,srcline` after
the process has exited. For the export matching --export, it checks that it
has at least --min-samples samples and that at least --min-share of them
are on lines of its --stage text that hold code. Prints per export with
samples its sample count, that share and the distinct lines.

gdb: runs kiln-run under `gdb -batch` with a pending breakpoint on the
export matching --export (the library loads at run time), and checks that
the breakpoint, `info line` and `bt` name a line of its --stage text that
holds code. Prints the line.

A tool that is missing or cannot record or trace fails the test, saying why.

Usage: check_native_tools.py {perf,gdb} MODULE -o WORKDIR --bin-dir=DIR
       --stage=NAME --export=REGEX [--min-samples=N] [--min-share=F]
       -- RUN_ARGS...
"""

import argparse
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "e2e"))
import run_e2e  # noqa: E402  (running tools)


class Failure(Exception):
    pass


def run(cmd, timeout=600):
    """The tool's stdout; run_e2e.E2EError if it fails."""
    return run_e2e.run_tool(cmd, os.path.basename(cmd[0]), timeout)[0]


def require_tool(name):
    path = shutil.which(name)
    if not path:
        raise Failure("%s is not installed (build_tools/install_deps.sh "
                      "installs it)" % name)
    return path


class ModuleTexts:
    """The module's exports, each with its text of one stage."""

    def __init__(self, kiln_dump, module, workdir, stage):
        sources = os.path.join(workdir, "sources")
        run([kiln_dump, module, "--extract-sources=" + sources])
        summary = json.loads(run([kiln_dump, module, "--json"]))
        self.paths = {}
        self.lines = {}
        for executable in summary["executables"]:
            for export in executable["exports"]:
                located = [s for s in export["stage_locations"]
                           if s["stage_name"] == stage]
                if len(located) != 1:
                    raise Failure("%s: no text of stage %s (compile with "
                                  "--executable-debug-level=3)" %
                                  (export["name"], stage))
                path = located[0]["path"]
                self.paths[export["name"]] = path
                with open(os.path.join(sources, path)) as f:
                    self.lines[path] = f.read().split("\n")

    def find(self, pattern):
        names = [n for n in self.paths if re.search(pattern, n)]
        if len(names) != 1:
            raise Failure("--export=%s matches %d exports: %s" %
                          (pattern, len(names), ", ".join(self.paths)))
        return names[0]

    def code_line(self, name, file, line):
        """Whether FILE:LINE is a line of NAME's text that holds code."""
        path = self.paths[name]
        text = self.lines[path]
        return (os.path.basename(file) == path and 1 <= line <= len(text)
                and text[line - 1].strip() != "")


def check_perf(args, texts, kiln_run_cmd):
    perf = require_tool("perf")
    data = os.path.join(args.o, "perf.data")
    try:
        run([perf, "record", "-e", "cpu-clock", "-o", data, "--"] +
            kiln_run_cmd)
    except run_e2e.E2EError as error:
        raise Failure("perf cannot record on this machine (see "
                      "/proc/sys/kernel/perf_event_paranoid; cpu-clock is a "
                      "software event, so root or paranoid <= 1 suffices): "
                      "%s" % error)
    report = run([perf, "report", "-i", data, "--stdio", "--sort",
                  "sym,srcline", "--show-nr-samples", "-t", "|"])
    kernel = texts.find(args.export)
    samples = {}   # export -> samples
    on_lines = {}  # export -> samples on lines of its stage text
    lines = {}     # export -> distinct lines
    for row in report.splitlines():
        fields = [f.strip() for f in row.split("|")]
        if row.startswith("#") or len(fields) < 4:
            continue
        symbol = re.sub(r"^\[.\]\s*", "", fields[2])
        if symbol not in texts.paths:
            continue
        count = int(fields[1])
        samples[symbol] = samples.get(symbol, 0) + count
        match = re.match(r"(.*):(\d+)$", fields[3])
        if match and texts.code_line(symbol, match.group(1),
                                     int(match.group(2))):
            on_lines[symbol] = on_lines.get(symbol, 0) + count
            lines.setdefault(symbol, set()).add(int(match.group(2)))
    for name in sorted(samples):
        print("%s: %d samples, %.0f%% on lines of %s (%d distinct)" % (
            name, samples[name], 100.0 * on_lines.get(name, 0) /
            samples[name], texts.paths[name], len(lines.get(name, ()))))
    if samples.get(kernel, 0) < args.min_samples:
        raise Failure("%s: %d samples, fewer than %d (perf report names no "
                      "export when the library is not readable):\n%s" % (
                          kernel, samples.get(kernel, 0), args.min_samples,
                          run_e2e.tail(report)))
    share = on_lines.get(kernel, 0) / samples[kernel]
    if share < args.min_share:
        raise Failure("%s: %.0f%% of its samples on lines of %s, below "
                      "%.0f%%" % (kernel, 100 * share, texts.paths[kernel],
                                  100 * args.min_share))


def check_gdb(args, texts, kiln_run_cmd):
    gdb = require_tool("gdb")
    kernel = texts.find(args.export)
    output = run([gdb, "-batch", "-nx",
                  "-ex", "set breakpoint pending on",
                  "-ex", "break " + kernel,
                  "-ex", "run",
                  "-ex", "info line *$pc",
                  "-ex", "bt 1",
                  "-ex", "kill",
                  "--args"] + kiln_run_cmd, timeout=300)
    stopped = re.search(r"Breakpoint 1, %s \(\) at (\S+):(\d+)" %
                        re.escape(kernel), output)
    if not stopped:
        raise Failure("gdb did not stop in %s at a line:\n%s" %
                      (kernel, run_e2e.tail(output)))
    file, line = stopped.group(1), int(stopped.group(2))
    if not texts.code_line(kernel, file, line):
        raise Failure("gdb stopped at %s:%d, not a line of code of %s" %
                      (file, line, texts.paths[kernel]))
    if not re.search(r'Line %d of "%s"' % (line, re.escape(file)), output):
        raise Failure("info line does not name %s:%d:\n%s" %
                      (file, line, run_e2e.tail(output)))
    if not re.search(r"#0\s+%s \(\) at %s:%d" % (re.escape(kernel),
                                                  re.escape(file), line),
                     output):
        raise Failure("bt does not name %s:%d:\n%s" %
                      (file, line, run_e2e.tail(output)))
    print("%s: breakpoint, info line and bt at %s:%d" % (kernel, file, line))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["perf", "gdb"])
    parser.add_argument("module")
    parser.add_argument("-o", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--stage", required=True)
    parser.add_argument("--export", required=True)
    parser.add_argument("--min-samples", type=int, default=100)
    parser.add_argument("--min-share", type=float, default=0.5)
    # kiln-run's arguments follow "--".
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.run_args = argv[split + 1:]
    try:
        if os.path.exists(args.o):
            shutil.rmtree(args.o)
        os.makedirs(args.o)
        texts = ModuleTexts(os.path.join(args.bin_dir, "kiln-dump"),
                            args.module, args.o, args.stage)
        kiln_run_cmd = [os.path.join(args.bin_dir, "kiln-run"), args.module,
                        "--perf"] + args.run_args
        # Inherited by kiln-run: its libraries stay in the work directory.
        os.environ["KILN_PERF_DIR"] = os.path.join(args.o, "libraries")
        (check_perf if args.mode == "perf" else check_gdb)(
            args, texts, kiln_run_cmd)
    except (Failure, run_e2e.E2EError) as failure:
        print("error: %s" % failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
