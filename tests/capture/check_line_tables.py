#!/usr/bin/env python3
"""Checks the DWARF line tables of a compiled module's library.

Extracts the module's library and sources (kiln-dump --extract-libraries,
--extract-sources), reads the library with llvm-dwarfdump and llvm-objdump,
and checks for every export that

  - the library has a function symbol named after it, and its DWARF a
    subprogram of that name starting where the symbol does (what
    backtraces by DWARF alone, such as Tracy's, name frames by);
  - its code has line-table rows, and every row inside the symbol's range names one file, which is
    --expect-file (a path as the line table spells it) or, with
    --stage=NAME, the export's text of that stage in the module's source
    table; and that every row's line is a line of that text holding code
    (not blank), or 0 (LLVM's "no line" for code it made up);

and, with --fma-export=REGEX, that the vector FMA instructions of the
exports whose names match REGEX (their inner loops) all map to lines of the
text that hold an FMA, none of them at the export's entry line; with
--max-debug-bytes-per-export=N, that the library's DWARF sections take at
most N bytes per export.

Prints one summary line per export, the rows at line 0 and the DWARF bytes
per export.

Usage: check_line_tables.py MODULE.kiln -o WORKDIR --bin-dir=DIR
       --llvm-bin-dir=DIR (--stage=NAME | --expect-file=PATH)
       [--fma-export=REGEX] [--max-debug-bytes-per-export=N]
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


# An FMA in any stage's text: vector.fma, llvm.intr.fma, llvm.intr.fmuladd.
FMA_OP = re.compile(r"\b(vector\.fma|llvm\.intr\.fma|llvm\.intr\.fmuladd)\b")


def run(cmd):
    """The tool's stdout; run_e2e.E2EError if it fails."""
    return run_e2e.run_tool(cmd, os.path.basename(cmd[0]), timeout=600)[0]


def function_symbols(objdump, library):
    """{name: (start, end)} of the function symbols in the symbol table."""
    symbols = {}
    for line in run([objdump, "--syms", library]).splitlines():
        # 0000000000001a40 l     F .text  00000000000003c1 name, with
        # .hidden before the name when shares of the library were linked
        match = re.match(r"([0-9a-f]+) .* F \.text\s+([0-9a-f]+)(?: \.hidden)? (\S+)$",
                         line)
        if match:
            start = int(match.group(1), 16)
            symbols[match.group(3)] = (start, start + int(match.group(2), 16))
    return symbols


def subprograms(dwarfdump, library):
    """{name: low_pc} of the DW_TAG_subprogram entries."""
    found = {}
    low = None
    for line in run([dwarfdump, "--debug-info", library]).splitlines():
        if "DW_TAG_" in line:
            low = None
        match = re.search(r"DW_AT_low_pc\s+\((0x[0-9a-f]+)\)", line)
        if match:
            low = int(match.group(1), 16)
        match = re.search(r'DW_AT_name\s+\("([^"]+)"\)', line)
        if match and low is not None:
            found[match.group(1)] = low
    return found


def line_rows(dwarfdump, library):
    """Every row of every line table: (address, line, file name, end)."""
    rows = []
    files = {}
    reading_file = None
    for line in run([dwarfdump, "--debug-line", library]).splitlines():
        if line.startswith("debug_line["):
            files = {}
            continue
        match = re.match(r"file_names\[\s*(\d+)\]:", line)
        if match:
            reading_file = int(match.group(1))
            continue
        match = re.match(r'\s+name: "(.*)"', line)
        if match and reading_file is not None:
            files[reading_file] = match.group(1)
            reading_file = None
            continue
        match = re.match(r"0x([0-9a-f]+)\s+(\d+)\s+\d+\s+(\d+)\s.*", line)
        if match:
            rows.append((int(match.group(1), 16), int(match.group(2)),
                         files.get(int(match.group(3)), "?"),
                         "end_sequence" in line))
    return rows


def debug_bytes(objdump, library):
    """Bytes of the library's .debug_* sections."""
    total = 0
    for line in run([objdump, "--section-headers", library]).splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1].startswith(".debug_"):
            total += int(fields[2], 16)
    return total


def fma_addresses(objdump, library, low, high):
    """Addresses of the vector FMA instructions in [low, high)."""
    addresses = []
    text = run([objdump, "-d", "--no-show-raw-insn",
                "--start-address=%#x" % low, "--stop-address=%#x" % high,
                library])
    for line in text.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s+(v?fn?m(add|sub)\w*)\s", line)
        if match:
            addresses.append(int(match.group(1), 16))
    return addresses


def row_at(rows, address):
    """The line-table row that covers `address`."""
    best = None
    for row in rows:
        if row[0] <= address and not row[3] and (
                best is None or row[0] >= best[0]):
            best = row
    return best


def check(args):
    if os.path.exists(args.o):
        shutil.rmtree(args.o)
    os.makedirs(args.o)
    kiln_dump = os.path.join(args.bin_dir, "kiln-dump")
    dwarfdump = os.path.join(args.llvm_bin_dir, "llvm-dwarfdump")
    objdump = os.path.join(args.llvm_bin_dir, "llvm-objdump")
    sources = os.path.join(args.o, "sources")
    run([kiln_dump, args.module, "--extract-libraries=" + args.o])
    run([kiln_dump, args.module, "--extract-sources=" + sources])
    summary = json.loads(run([kiln_dump, args.module, "--json"]))
    library = os.path.join(args.o, "library0.so")

    symbols = function_symbols(objdump, library)
    rows = line_rows(dwarfdump, library)
    functions = subprograms(dwarfdump, library)
    total_rows = zero_rows = 0
    fma_checked = False
    for executable in summary["executables"]:
        for export in executable["exports"]:
            name = export["name"]
            if name not in symbols:
                raise Failure("%s: no function symbol in the library" % name)
            low, high = symbols[name]
            if functions.get(name) != low:
                raise Failure("%s: no DWARF subprogram of that name at 0x%x" %
                              (name, low))
            if args.stage:
                stage = [s for s in export["stage_locations"]
                         if s["stage_name"] == args.stage]
                if len(stage) != 1:
                    raise Failure("%s: no text of stage %s" % (name,
                                                               args.stage))
                expected_file = stage[0]["path"]
                entry_line = stage[0]["line"]
                with open(os.path.join(sources, expected_file)) as f:
                    text = f.read().split("\n")
            else:
                expected_file = args.expect_file
                entry_line = None
                with open(args.expect_file) as f:
                    text = f.read().split("\n")
            inside = [r for r in rows if low <= r[0] < high and not r[3]]
            if not inside:
                raise Failure("%s: no line-table rows in [%#x, %#x)" %
                              (name, low, high))
            lines = set()
            for address, line, file, _ in inside:
                if os.path.basename(file) != os.path.basename(expected_file):
                    raise Failure("%s: row at %#x names file %s, not %s" %
                                  (name, address, file, expected_file))
                if line == 0:
                    zero_rows += 1
                    continue
                if line > len(text) or not text[line - 1].strip():
                    raise Failure("%s: row at %#x names line %d, which %s "
                                  "holds no code" % (name, address, line,
                                                     expected_file))
                lines.add(line)
            total_rows += len(inside)
            print("%s: %d rows, %d distinct lines of %s" % (
                name, len(inside), len(lines), expected_file))

            if args.fma_export and re.search(args.fma_export, name):
                fmas = fma_addresses(objdump, library, low, high)
                if not fmas:
                    raise Failure("%s: no vector FMA instruction" % name)
                fma_lines = set()
                for address in fmas:
                    row = row_at(inside, address)
                    line = row[1] if row else 0
                    if line == 0 or not FMA_OP.search(text[line - 1]):
                        raise Failure("%s: FMA at %#x maps to line %d: %r" % (
                            name, address, line,
                            text[line - 1] if line else "(no line)"))
                    if line == entry_line:
                        raise Failure("%s: FMA at %#x maps to the entry line"
                                      % (name, address))
                    fma_lines.add(line)
                print("%s: %d FMA instructions on %d lines holding an FMA" %
                      (name, len(fmas), len(fma_lines)))
                fma_checked = True
    if args.fma_export and not fma_checked:
        raise Failure("no export's name matches %r" % args.fma_export)
    print("rows at line 0: %d of %d" % (zero_rows, total_rows))
    exports = sum(len(e["exports"]) for e in summary["executables"])
    per_export = debug_bytes(objdump, library) // max(exports, 1)
    print("DWARF bytes per export: %d" % per_export)
    if args.max_debug_bytes_per_export is not None and (
            per_export > args.max_debug_bytes_per_export):
        raise Failure("DWARF takes %d bytes per export, above %d" % (
            per_export, args.max_debug_bytes_per_export))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("-o", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--llvm-bin-dir", required=True)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--stage")
    group.add_argument("--expect-file")
    parser.add_argument("--fma-export")
    parser.add_argument("--max-debug-bytes-per-export", type=int)
    args = parser.parse_args()
    try:
        check(args)
    except (Failure, run_e2e.E2EError) as failure:
        print("error: %s" % failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
