"""Summarizes `kiln-dump --sources --json` for the embedding tests."""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--input", required=True, help="the compiled input file")
parser.add_argument("--exports", type=int, required=True)
args = parser.parse_args()
table = json.load(sys.stdin)
files = table["files"] if isinstance(table, dict) else table
inputs = [f for f in files if f["path"] == args.input]
stages = [f for f in files if f["path"].endswith(".mlir") and f["path"] != args.input]
print("input file entries: %d" % len(inputs))
print("stage texts: %d" % len(stages))
with open(args.input, "rb") as f:
    size = len(f.read())
print("input file raw bytes match: %s"
      % ("yes" if inputs and inputs[0]["raw_size"] == size else "no"))
