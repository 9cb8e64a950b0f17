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
  - the export matching --export has at least --min-samples samples; at
    least --min-loop-share of them on lines of the innermost loop around
    its vector FMAs (llvm.intr.fmuladd, llvm.intr.fma, vector.fma): its
    header's label to the back edge; and at least --min-fma-share on the
    lines of those FMAs and of the loads feeding them (the llvm.load and the
    insertelement and shufflevector that broadcast it: one vbroadcastss in
    the code). The loop's other lines are its induction variables and exit
    test, which LLVM attributes to the header's compare: 3 of the 23
    instructions of an AVX2 6x16 kernel's loop.

Prints per export its samples and both shares, and the host samples.

Usage: check_profile.py MODULE -o WORKDIR --bin-dir=DIR --stage=NAME
       --export=REGEX [--min-samples=N] [--min-loop-share=F]
       [--min-fma-share=F] -- RUN_ARGS...
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


BLOCK_LABEL = re.compile(r"^\s*\^(bb\d+)\b.*:")
SUCCESSOR = re.compile(r"\^(bb\d+)")


def innermost_loop_lines(text, fma, samples):
    """1-based lines of the loop around the FMAs: from its header's label to
    the end of the block holding the FMAs, whose terminator branches back to
    that header (the LLVM dialect's blocks in text order). Of blocks holding
    as many FMAs (a kernel's full row tiles and its last, say), the one with
    the most `samples` ({line: samples})."""
    starts = {}  # label -> line of the label
    block_of = {}  # line -> label of its block
    label = None
    for number, line in enumerate(text, 1):
        match = BLOCK_LABEL.match(line)
        if match:
            label = match.group(1)
            starts[label] = number
        block_of[number] = label
    counts = {}
    for line in fma:
        if FMA_OP.search(text[line - 1]):
            counts[block_of[line]] = counts.get(block_of[line], 0) + 1
    if not counts or None in counts:
        return set()
    block_samples = {}
    for line, n in samples.items():
        block = block_of.get(line)
        block_samples[block] = block_samples.get(block, 0) + n
    body = max(counts, key=lambda b: (counts[b], block_samples.get(b, 0)))
    end = max(n for n, b in block_of.items() if b == body)
    # The body's terminator: its last line that is not blank.
    while end > starts[body] and not text[end - 1].strip():
        end -= 1
    headers = [b for b in SUCCESSOR.findall(text[end - 1])
               if b in starts and starts[b] <= starts[body]]
    if not headers:
        return set()
    return set(range(starts[min(headers, key=starts.get)], end + 1))


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
    parser.add_argument("--min-loop-share", type=float, default=0.8)
    parser.add_argument("--min-fma-share", type=float, default=0.5)
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
        def shares(name):
            """Samples, share in the FMAs' loop, share on FMA lines."""
            lines = exports.get(name, {})
            total = sum(lines.values())
            text = texts.lines[texts.paths[name]]
            fma = fma_lines(text)
            loop = innermost_loop_lines(text, fma, lines)
            in_loop = sum(n for line, n in lines.items() if line in loop)
            on_fma = sum(n for line, n in lines.items() if line in fma)
            return (total, in_loop / total if total else 0,
                    on_fma / total if total else 0, loop, fma)

        for name in sorted(exports):
            total, in_loop, on_fma, _, _ = shares(name)
            print("%s: %d samples, %.0f%% in the loop around its vector "
                  "FMAs, %.0f%% on the lines of the FMAs and the loads "
                  "feeding them" % (name, total, 100 * in_loop, 100 * on_fma))
        print("host: %d samples" % host)
        total, in_loop, on_fma, loop, fma = shares(kernel)
        if total < args.min_samples:
            raise Failure("%s: %d samples, fewer than %d:\n%s" % (
                kernel, total, args.min_samples, table))
        if not fma or not loop:
            raise Failure("%s: its %s text holds no FMA in a loop" %
                          (kernel, args.stage))
        if in_loop < args.min_loop_share:
            raise Failure("%s: %.0f%% of its samples in the loop around its "
                          "FMAs (lines %d-%d), below %.0f%%:\n%s" %
                          (kernel, 100 * in_loop, min(loop), max(loop),
                           100 * args.min_loop_share, table))
        if on_fma < args.min_fma_share:
            raise Failure("%s: %.0f%% of its samples on lines holding its "
                          "FMAs or the loads feeding them, below %.0f%%:\n%s" %
                          (kernel, 100 * on_fma, 100 * args.min_fma_share,
                           table))
    except (Failure, run_e2e.E2EError) as failure:
        print("error: %s" % failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
