#!/usr/bin/env python3
"""Checks time per ONNX node through fusion on a ResNet and an encoder.

Each model (models.py's small ResNet18 and BERT-style encoder, seeded) is
compiled twice: as kiln compiles it, and with --dispatch-fusion=false, where
each node's ops run in dispatches of their own. Both give the same outputs.
kiln-benchmark --profile-by=node profiles each; in the fused build:

- every node's samples, plus those on no node's line, are the samples in
  kernels, and those on no node's line are at most 10% of them;
- every node with at least 3% of the samples in the unfused build appears
  by name, fused or not (fusion makes cheaper ones nearly free);
- the top nodes are the unfused build's: each of the fused build's top 5
  has at least half its share there too (ranks among nodes within a point
  of each other are noise), and the two agree on where the time goes: the
  shares per node overlap by at least 65% (the sum over nodes of the
  smaller share; fusion moves an elementwise node's time into the dispatch
  it joins).

    profile_by_node.py --bin-dir=build/bin
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

MIN_SHARE = 0.03
MIN_OVERLAP = 0.65


def profile(bin_dir, module, inputs, seconds):
    """kiln_profile of kiln-benchmark's JSON: samples per node."""
    result = models.run(
        [os.path.join(bin_dir, "kiln-benchmark"), module, *inputs,
         "--profile-by=node", "--benchmark_format=json",
         "--benchmark_min_time=%gs" % seconds])
    return json.loads(result.stdout)["context"]["kiln_profile"]


def shares(kiln_profile):
    kernel = kiln_profile["kernel_samples"]
    return {op["node"]: op["samples"] / kernel
            for op in kiln_profile["input_ops"]}


def overlap(a, b):
    """The share of the time two profiles put on the same nodes."""
    return sum(min(a.get(n, 0), b.get(n, 0)) for n in set(a) | set(b))


def check(name, bin_dir, work, seconds):
    path = os.path.join(work, name + ".onnx")
    feeds = models.export(name, "small", path)[0]
    inputs = []
    for i, (input_name, array) in enumerate(feeds.items()):
        input_path = os.path.join(work, "%s_in%d.npy" % (name, i))
        np.save(input_path, array)
        inputs.append("--input=%s=@%s" % (input_name, input_path))
    profiles, outputs = {}, {}
    for build, flags in (("fused", []), ("unfused",
                                         ["--dispatch-fusion=false"])):
        module = os.path.join(work, "%s.%s.kiln" % (name, build))
        models.run([os.path.join(bin_dir, "kiln-compile"), path, "-o",
                    module, *flags])
        output = os.path.join(work, "%s.%s.npy" % (name, build))
        models.run([os.path.join(bin_dir, "kiln-run"), module, *inputs,
                    "--output=@" + output])
        outputs[build] = np.load(output)
        profiles[build] = profile(bin_dir, module, inputs, seconds)
    problems = []
    if not np.allclose(outputs["fused"], outputs["unfused"], rtol=1e-4,
                       atol=1e-5):
        problems.append("the unfused build computes other outputs")
    fused = profiles["fused"]
    placed = sum(op["samples"] for op in fused["input_ops"])
    if placed + fused["unplaced_samples"] != fused["kernel_samples"]:
        problems.append("node samples do not add up to the kernels'")
    unplaced = fused["unplaced_samples"] / max(fused["kernel_samples"], 1)
    if unplaced > 0.10:
        problems.append("%.1f%% on no node's line" % (100 * unplaced))
    f, u = shares(fused), shares(profiles["unfused"])
    missing = sorted(n for n in u if u[n] >= MIN_SHARE and n not in f)
    if missing:
        problems.append("nodes missing from the fused profile: " +
                        ", ".join(missing))
    agreement = overlap(f, u)
    if agreement < MIN_OVERLAP:
        problems.append("shares overlap the unfused build's by %.0f%%" %
                        (100 * agreement))
    top_fused = sorted(f, key=lambda n: -f[n])[:5]
    lighter = ["%s (%.1f%%, unfused %.1f%%)" % (n, 100 * f[n],
                                                100 * u.get(n, 0))
               for n in top_fused if u.get(n, 0) < f[n] / 2]
    if lighter:
        problems.append("top nodes the unfused build puts under half their "
                        "share on: " + ", ".join(lighter))
    summary = ("%d nodes, %.1f%% on no node's line, %.0f%% overlap with "
               "the unfused build; top: %s" % (len(f), 100 * unplaced,
                                               100 * agreement,
                            ", ".join("%s %.1f%%" % (n, 100 * f[n])
                                      for n in top_fused[:3])))
    return problems, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--models", default="resnet,bert")
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="kiln-benchmark's --benchmark_min_time")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="kiln-profile-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    try:
        for name in args.models.split(","):
            problems, summary = check(name, args.bin_dir, work, args.seconds)
            failures += bool(problems)
            print("%-5s %-7s %s" % ("FAIL" if problems else "ok", name,
                                    summary), flush=True)
            for problem in problems:
                print("      " + problem)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
