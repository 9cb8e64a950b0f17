#!/usr/bin/env python3
"""Checks that every captured stage of every dispatch is a reproducer.

For each program given, compiles it at --executable-debug-level=3, runs
every function on seeded random inputs while saving each dispatch's bindings
(kiln-run --dump-dispatches), extracts the embedded sources
(kiln-dump --extract-sources) and then, for each dispatch and each captured
stage of its export:

  - recompiles the stage text with kiln-compile --compile-mode=executable,
  - runs it with kiln-run --dispatch on the saved inputs (outputs start at
    zero), and
  - requires the outputs to equal, byte for byte, what the dispatch wrote
    inside the full program;

and checks that the line kiln-dump --print-source marks for the export in
each stage is that export's entry function.

Usage: roundtrip.py (PROGRAM.mlir | DIR)... -o WORKDIR --bin-dir=DIR
(a directory stands for every .mlir file in it).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "e2e"))
import run_e2e  # noqa: E402  (.npy files and random tensors)


class Failure(Exception):
    pass


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise Failure("command failed (%d): %s\n%s%s" % (
            result.returncode, " ".join(cmd), result.stdout, result.stderr))
    return result.stdout


def npy_payload(path):
    """The data bytes of a .npy file (the header is checked by type below)."""
    tensor = run_e2e.read_npy(path)
    with open(path, "rb") as f:
        data = f.read()
    return tensor.type_str, data[len(data) - tensor.etype.byte_size *
                                 run_e2e.num_elements(tensor.shape):]


def random_inputs(signature, rng, workdir):
    """Writes one .npy per argument of `main(4x8xf32, ...) -> (...)`."""
    args = re.match(r"[^(]*\((.*?)\)\s*->", signature).group(1)
    paths = []
    for i, spec in enumerate(a.strip() for a in args.split(",") if a.strip()):
        m = re.match(r"^((?:\d+x)*)(\w+)$", spec)
        shape = [int(d) for d in m.group(1).split("x") if d]
        etype = run_e2e.TYPES[m.group(2)]
        values = run_e2e.generate_random(shape, etype, rng)
        path = os.path.join(workdir, "arg%d.npy" % i)
        run_e2e.write_npy(path, run_e2e.Tensor(shape, etype, values))
        paths.append(path)
    return paths


def check_program(program, workdir, tools):
    os.makedirs(workdir, exist_ok=True)
    module = os.path.join(workdir, "program.kiln")
    run([tools["kiln-compile"], program, "--executable-debug-level=3",
         "-o", module])
    dump = json.loads(run([tools["kiln-dump"], module, "--json"]))
    exports = {e["name"]: e for x in dump["executables"] for e in x["exports"]}
    sources = os.path.join(workdir, "sources")
    run([tools["kiln-dump"], module, "--extract-sources=" + sources])

    # The recorded line of each export in each stage is its entry function.
    for export in exports.values():
        if not export["stage_locations"]:
            raise Failure("export %s has no stage locations" % export["name"])
        for stage in export["stage_locations"]:
            shown = json.loads(run([
                tools["kiln-dump"], module, "--json",
                "--print-source=%s:%d" % (stage["path"], stage["line"])]))
            line = shown["text"].splitlines()[stage["line"] - 1]
            if not re.search(r"func\.func @%s\(|llvm\.func @%s\("
                             % (export["name"], export["name"]), line):
                raise Failure("%s line %d is not the entry of %s: %r" % (
                    stage["path"], stage["line"], export["name"], line))

    rng = random.Random(0)
    checked = 0
    for signature in run([tools["kiln-run"], module,
                          "--list-functions"]).splitlines():
        function = signature.split("(", 1)[0]
        fdir = os.path.join(workdir, function)
        os.makedirs(fdir, exist_ok=True)
        inputs = random_inputs(signature, rng, fdir)
        dispatches = os.path.join(fdir, "dispatches")
        run([tools["kiln-run"], module, "--function=" + function,
             "--dump-dispatches=" + dispatches]
            + ["--input=@" + p for p in inputs])
        for entry in sorted(os.listdir(dispatches),
                            key=lambda d: int(d.split("_", 1)[0])):
            name = entry.split("_", 1)[1]
            folder = os.path.join(dispatches, entry)
            files = sorted(os.listdir(folder))
            ins = sorted((f for f in files if f.startswith("in")),
                         key=lambda f: int(f[2:-4]))
            outs = sorted((f for f in files if f.startswith("out")),
                          key=lambda f: int(f[3:-4]))
            expected = [npy_payload(os.path.join(folder, f)) for f in outs]
            for stage in exports[name]["stage_locations"]:
                text = os.path.join(sources, stage["path"])
                single = os.path.join(folder, stage["stage_name"] + ".kiln")
                run([tools["kiln-compile"], text,
                     "--compile-mode=executable", "-o", single])
                results = [os.path.join(folder, "%s.out%d.npy"
                                        % (stage["stage_name"], i))
                           for i in range(len(outs))]
                bindings = (["--binding=@" + os.path.join(folder, f)
                             for f in ins]
                            + ["--binding=" + t for t, _ in expected])
                # Inputs are printed ("-"), outputs written to files.
                run([tools["kiln-run"], single, "--dispatch=" + name]
                    + bindings + ["--output=-"] * len(ins)
                    + ["--output=@" + r for r in results])
                for i, (result, (etype, data)) in enumerate(
                        zip(results, expected)):
                    got_type, got = npy_payload(result)
                    if got_type != etype or got != data:
                        raise Failure(
                            "%s: export %s recompiled from %s: output %d "
                            "differs from the dispatch inside the program"
                            % (program, name, stage["path"], i))
                checked += 1
    if checked == 0:
        raise Failure("%s: no dispatch was checked" % program)
    return checked


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="+",
                        help=".mlir programs, or directories of them")
    parser.add_argument("-o", "--work-dir", required=True)
    parser.add_argument("--bin-dir", required=True,
                        help="directory of kiln-compile, kiln-run, kiln-dump")
    args = parser.parse_args(argv)
    tools = {name: os.path.join(args.bin_dir, name)
             for name in ("kiln-compile", "kiln-run", "kiln-dump")}
    shutil.rmtree(args.work_dir, ignore_errors=True)
    programs = []
    for path in args.programs:
        if os.path.isdir(path):
            programs += sorted(os.path.join(path, f) for f in os.listdir(path)
                               if f.endswith(".mlir"))
        else:
            programs.append(path)
    try:
        for program in programs:
            stem = os.path.splitext(os.path.basename(program))[0]
            checked = check_program(program,
                                    os.path.join(args.work_dir, stem), tools)
            print("%s: %d dispatch stages reproduced exactly" % (stem, checked))
    except (Failure, run_e2e.E2EError) as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
