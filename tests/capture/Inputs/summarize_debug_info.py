"""Summarizes the debug information of `kiln-dump --json`."""
import json
import sys

module = json.load(sys.stdin)
exports = [e for x in module["executables"] for e in x["exports"]]
print("debug level %d, %d libraries, %d executables, %d exports"
      % (module["debug_level"], len(module["libraries"]),
         len(module["executables"]), len(exports)))
if module["capture_stages"]:
    print("capture stages: %s" % ", ".join(module["capture_stages"]))
print("exports with a location: %d" % sum(1 for e in exports if e.get("location")))
print("exports with provenance: %d" % sum(1 for e in exports if e.get("provenance")))
staged = [e for e in exports if e.get("stage_locations")]
counts = sorted({len(e["stage_locations"]) for e in staged})
print("exports with stage locations: %d%s" % (
    len(staged), " (%s each)" % "/".join(map(str, counts)) if staged else ""))
print("source files: %d" % len(module["sources"]["files"]))
