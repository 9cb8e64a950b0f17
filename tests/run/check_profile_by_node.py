"""Checks kiln-benchmark's --profile-by=node JSON: every op with samples is
named, the ops' samples and those on no op's line add up to the samples in
kernels, at most --max-unplaced of them unplaced, and the hottest op is the
one expected."""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("--max-unplaced", type=float, default=0.10)
    parser.add_argument("--hottest", required=True,
                        help="the op type (or op name) expected on top")
    args = parser.parse_args()
    with open(args.json) as f:
        profile = json.load(f)["context"]["kiln_profile"]
    ops = profile["input_ops"]
    kernel = profile["kernel_samples"]
    unplaced = profile["unplaced_samples"]
    assert ops, "no input op has samples"
    for op in ops:
        assert op.get("node") or op.get("op"), op
        assert op["dispatches"], op
        assert op["cpu_seconds"] > 0, op
    assert sum(op["samples"] for op in ops) + unplaced == kernel, profile
    assert unplaced <= args.max_unplaced * kernel, (unplaced, kernel)
    seconds = sum(op["cpu_seconds"] for op in ops)
    assert seconds <= profile["cpu_seconds"], (seconds, profile)
    top = ops[0].get("op_type") or ops[0]["op"]
    assert top == args.hottest, ops[:3]
    print(f"{len(ops)} ops; top {top}; unplaced {unplaced} of {kernel}")


if __name__ == "__main__":
    sys.exit(main())
