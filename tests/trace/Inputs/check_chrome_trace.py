"""Checks a kiln chrome trace: every dispatch event's file:line is the
entry of its export in a text the file itself embeds."""
import json
import re
import sys

trace = json.load(open(sys.argv[1]))
sources = trace["kilnSources"]
dispatches = workgroups = 0
for event in trace["traceEvents"]:
    if event.get("ph") != "X":
        continue
    if event["cat"] == "workgroups":
        workgroups += 1
    if event["cat"] != "dispatch":
        continue
    args = event["args"]
    text = sources[args["file"]].splitlines()
    line = text[args["line"] - 1]
    if not re.search(r"func\.func @%s\(" % re.escape(args["export"]), line):
        sys.exit("%s:%d is not the entry of %s: %r"
                 % (args["file"], args["line"], args["export"], line))
    dispatches += 1
print("dispatch events: %d, each at its export's entry in an embedded text"
      % dispatches)
print("workgroup events: %d" % workgroups)
print("embedded texts: %d" % len(sources))
