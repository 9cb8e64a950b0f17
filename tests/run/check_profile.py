#!/usr/bin/env python3
"""Checks kiln's own sampling profiler on a compiled module.

Runs `kiln-run MODULE --profile --profile-output=WORKDIR/profile.folded
RUN_ARGS...` and reads the module's exports and their --stage texts with
kiln-dump (check_native_tools.ModuleTexts). Checks that

  - every line of the collapsed stacks is `FUNCTION;EXPORT[;PATH:LINE] N`
    or `FUNCTION;[host] N`, with EXPORT one of the module's exports, PATH
    that export's --stage text and LINE a line of it, and N > 0;
  - the table --profile prints has one row per export with samples, with
    the same counts, and shows each of its lines with that line's text;
  - the export matching --export has at least --min-samples samples, and at
    least --min-share of them on lines of its text that hold a vector FMA
    (llvm.intr.fmuladd, llvm.intr.fma, vector.fma) or an op of a load
    feeding one (the llvm.load and the insertelement and shufflevector that
    broadcast it: one vbroadcastss in the code).

Prints per export its samples and that share, and the host samples.

Usage: check_profile.py MODULE -o WORKDIR --bin-dir=DIR --stage=NAME
       --export=REGEX [--min-samples=N] [--min-share=F] -- RUN_ARGS...
"""

import argparse
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_native_tools  # noqa: E402  (ModuleTexts, run)
from check_native_tools import Failure, run  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "e2e"))
import run_e2e  # noqa: E402

FMA_OP = re.compile(r"= (llvm\.intr\.fmuladd|llvm\.intr\.fma|vector\.fma)\(")
DEFINITION = re.compile(r"^\s*(%\w+) = ([\w.]+)\b(.*)$")
# What carries a loaded value into an FMA operand.
FEEDING_OPS = ("llvm.load", "llvm.insertelement", "llvm.shufflevector",
               "vector.broadcast", "vector.load")


def fma_lines(text):
    """1-based lines holding an FMA or an op of a load feeding one."""
    defs = {}  # value -> (line, op, operand text)
    for number, line in enumerate(text, 1):
        match = DEFINITION.match(line)
        if match:
            defs[match.group(1)] = (number, match.group(2), match.group(3))
    lines = set()
    work = []
    for value, (number, op, rest) in defs.items():
        if FMA_OP.search("= %s%s" % (op, rest)):
            lines.add(number)
            work.extend(re.findall(r"%\w+", rest))
    seen = set()
    while work:
        value = work.pop()
        if value in seen or value not in defs:
            continue
        seen.add(value)
        number, op, rest = defs[value]
        if op in FEEDING_OPS:
            lines.add(number)
            # Through the broadcast to its load, not into address arithmetic.
            if op != "llvm.load" and op != "vector.load":
                work.extend(re.findall(r"%\w+", rest))
    return lines


def parse_folded(folded, texts, function):
    """{export: {line or None: samples}}, host samples."""
    exports = {}
    host = 0
    for row in folded.splitlines():
        match = re.match(r"^(\S+) ([1-9][0-9]*)$", row)
        if not match:
            raise Failure("collapsed stack line %r is not 'FRAMES COUNT'" % row)
        frames, count = match.group(1).split(";"), int(match.group(2))
        if frames[0] != function:
            raise Failure("stack %r does not start at %s" % (row, function))
        if frames[1:] == ["[host]"]:
            host += count
            continue
        if len(frames) not in (2, 3) or frames[1] not in texts.paths:
            raise Failure("stack %r does not name an export and a line" % row)
        name = frames[1]
        line = None
        if len(frames) == 3:
            located = re.match(r"^(.*):(\d+)$", frames[2])
            if not located or not texts.code_line(name, located.group(1),
                                                  int(located.group(2))):
                raise Failure("stack %r names no line of %s that holds code" %
                              (row, texts.paths[name]))
            line = int(located.group(2))
        lines = exports.setdefault(name, {})
        lines[line] = lines.get(line, 0) + count
    return exports, host


def check_table(table, exports, texts):
    """The --profile table agrees with the collapsed stacks."""
    for name, lines in exports.items():
        total = sum(lines.values())
        if not re.search(r"^\s+[0-9.]+%%  %d samples  %s$" %
                         (total, re.escape(name)), table, re.M):
            raise Failure("the --profile table has no row '%d samples  %s':"
                          "\n%s" % (total, name, table))
    for match in re.finditer(r"^\s+[0-9.]+%  (\S+):(\d+)  (.*)$", table, re.M):
        path, line, shown = match.group(1), int(match.group(2)), match.group(3)
        text = texts.lines.get(path)
        if text is None or text[line - 1].strip() != shown.strip():
            raise Failure("the --profile table shows %s:%d as %r, not its "
                          "text" % (path, line, shown))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("-o", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--stage", required=True)
    parser.add_argument("--export", required=True)
    parser.add_argument("--function", default="main")
    parser.add_argument("--min-samples", type=int, default=100)
    parser.add_argument("--min-share", type=float, default=0.8)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    run_args = argv[split + 1:]
    try:
        if os.path.exists(args.o):
            shutil.rmtree(args.o)
        os.makedirs(args.o)
        texts = check_native_tools.ModuleTexts(
            os.path.join(args.bin_dir, "kiln-dump"), args.module, args.o,
            args.stage)
        folded_path = os.path.join(args.o, "profile.folded")
        table = run([os.path.join(args.bin_dir, "kiln-run"), args.module,
                     "--profile", "--profile-output=" + folded_path] +
                    run_args)
        with open(folded_path) as f:
            exports, host = parse_folded(f.read(), texts, args.function)
        check_table(table, exports, texts)
        kernel = texts.find(args.export)
        for name in sorted(exports):
            lines = exports[name]
            total = sum(lines.values())
            hot = fma_lines(texts.lines[texts.paths[name]])
            on_fma = sum(n for line, n in lines.items() if line in hot)
            print("%s: %d samples, %.0f%% on lines holding its vector FMAs "
                  "or the loads feeding them" % (name, total,
                                                 100.0 * on_fma / total))
        print("host: %d samples" % host)
        lines = exports.get(kernel, {})
        total = sum(lines.values())
        if total < args.min_samples:
            raise Failure("%s: %d samples, fewer than %d:\n%s" % (
                kernel, total, args.min_samples, table))
        hot = fma_lines(texts.lines[texts.paths[kernel]])
        if not hot:
            raise Failure("%s: its %s text holds no FMA" % (kernel, args.stage))
        share = sum(n for line, n in lines.items() if line in hot) / total
        if share < args.min_share:
            raise Failure("%s: %.0f%% of its samples on lines holding its "
                          "FMAs or the loads feeding them, below %.0f%%:\n%s" %
                          (kernel, 100 * share, 100 * args.min_share, table))
    except (Failure, run_e2e.E2EError) as failure:
        print("error: %s" % failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
