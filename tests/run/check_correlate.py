#!/usr/bin/env python3
"""Checks kiln-dump --correlate on a compiled matmul.

Reads the module's texts (kiln-dump --extract-sources) and, for the export
matching --export:

  - every vector FMA line of its 2.translated text correlates to exactly
    one line of each earlier stage, which holds the contraction
    (linalg.mmt4d: the matmul is data-tiled before the kernel forms), and
    to one input line, which holds --input-op;
  - that input line correlates back to lines of every stage text of the
    export, among them the FMA lines and the contraction lines;
  - every line --correlate names, for any line of any stage text of the
    export, exists in its text, and its "text" field is that line.

Prints the number of lines checked.

Usage: check_correlate.py MODULE -o WORKDIR --bin-dir=DIR --export=REGEX
       --input-op=OP
"""

import argparse
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_native_tools  # noqa: E402  (ModuleTexts, run)
from check_native_tools import Failure, run  # noqa: E402

FMA_OP = re.compile(r"= (llvm\.intr\.fmuladd|llvm\.intr\.fma)\(")


def correlate(kiln_dump, module, path, line):
    return json.loads(run([kiln_dump, module,
                           "--correlate=%s:%d" % (path, line), "--json"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("-o", dest="workdir", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--export", required=True)
    parser.add_argument("--input-op", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    kiln_dump = os.path.join(args.bin_dir, "kiln-dump")
    stages = ["0.source", "1.configured", "2.translated"]
    texts = {stage: check_native_tools.ModuleTexts(
        kiln_dump, args.module, os.path.join(args.workdir, stage), stage)
        for stage in stages}
    name = texts["2.translated"].find(args.export)
    paths = {stage: texts[stage].paths[name] for stage in stages}
    lines = {stage: texts[stage].lines[paths[stage]] for stage in stages}
    sources = os.path.join(args.workdir, stages[0], "sources")

    def check_named(entry):
        """The entry names an existing line, with its text."""
        path, line = entry["path"], entry["line"]
        if entry["stage"] in lines and path == paths[entry["stage"]]:
            text = lines[entry["stage"]]
        elif os.path.isfile(os.path.join(sources, path.lstrip("/"))):
            with open(os.path.join(sources, path.lstrip("/"))) as f:
                text = f.read().split("\n")
        else:
            raise Failure("%s names %s, which the module does not embed" %
                          (entry, path))
        if not 1 <= line <= len(text):
            raise Failure("%s:%d is past the end of its text" % (path, line))
        if entry["text"] is not None and entry["text"] != text[line - 1].lstrip(" \t"):
            raise Failure("%s:%d: text %r, the file has %r" %
                          (path, line, entry["text"], text[line - 1]))

    translated = lines["2.translated"]
    fmas = [n for n, l in enumerate(translated, 1) if FMA_OP.search(l)]
    if not fmas:
        raise Failure("no vector FMA in %s" % paths["2.translated"])
    input_lines = set()
    contraction = {}
    for line in fmas:
        result = correlate(kiln_dump, args.module, paths["2.translated"], line)
        check_named(result)
        for entry in result["counterparts"]:
            check_named(entry)
        for stage in stages[:2]:
            found = [e for e in result["counterparts"] if e["stage"] == stage]
            if len(found) != 1 or "linalg.mmt4d" not in found[0]["text"]:
                raise Failure("FMA line %d: %s counterparts %s, expected one "
                              "linalg.mmt4d line" % (line, stage, found))
            contraction[stage] = found[0]["line"]
        found = [e for e in result["counterparts"] if e["stage"] == "input"]
        if len(found) != 1 or args.input_op not in (found[0]["text"] or ""):
            raise Failure("FMA line %d: input counterparts %s, expected one "
                          "%s line" % (line, found, args.input_op))
        input_lines.add((found[0]["path"], found[0]["line"]))
    if len(input_lines) != 1:
        raise Failure("the FMA lines name several input lines: %s" %
                      sorted(input_lines))

    input_path, input_line = input_lines.pop()
    result = correlate(kiln_dump, args.module, input_path, input_line)
    named = {(e["stage"], e["line"]) for e in result["counterparts"]
             if e["stage"] in paths and e["path"] == paths[e["stage"]]}
    for entry in result["counterparts"]:
        check_named(entry)
    expected = {("2.translated", line) for line in fmas}
    expected |= {(stage, line) for stage, line in contraction.items()}
    if not expected <= named:
        raise Failure("%s:%d does not correlate to %s" %
                      (input_path, input_line, sorted(expected - named)))

    checked = 0
    for stage in stages:
        for line, text in enumerate(lines[stage], 1):
            if not text.strip():
                continue
            result = correlate(kiln_dump, args.module, paths[stage], line)
            for entry in [result] + result["counterparts"]:
                check_named(entry)
            checked += 1
    print("%s: %d FMA lines correlate to the contraction and %s:%d; "
          "%d lines checked" % (name, len(fmas), os.path.basename(input_path),
                                input_line, checked))


if __name__ == "__main__":
    try:
        main()
    except (Failure, check_native_tools.run_e2e.E2EError) as error:
        print("error: %s" % error, file=sys.stderr)
        sys.exit(1)
