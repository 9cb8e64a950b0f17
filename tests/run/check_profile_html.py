"""Opens a --profile-report page in headless Chromium and checks what the
browser shows: the page's script ran to the end (data-rendered) with no
error (its window.onerror handler writes them to <body data-errors>), the
top row of the ops table names the op expected, the flame graph has a
frame for a dispatch matching --dispatch, and the hottest dispatch's texts
show hot lines. Chromium is required: CI installs it
(build_tools/install_deps.sh)."""

import argparse
import html
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def dump_dom(chromium, page):
    """The DOM after the page's scripts ran, as Chromium serializes it."""
    with tempfile.TemporaryDirectory() as profile:
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                   "--no-first-run", "--user-data-dir=" + profile,
                   "--dump-dom", pathlib.Path(page).resolve().as_uri()]
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=120)
    if done.returncode != 0 or not done.stdout:
        sys.exit(f"chromium failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout


def attribute(dom, name):
    found = re.search(r"<body\b[^>]*\b" + name + r'="([^"]*)"', dom)
    return html.unescape(found.group(1)) if found else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--hottest", required=True,
                        help="the op type (or op name) of the table's top row")
    parser.add_argument("--dispatch", required=True,
                        help="a regex a dispatch frame of the flame graph matches")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM"))
    args = parser.parse_args()
    chromium = args.chromium or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if not chromium:
        sys.exit("chromium not found: install it (build_tools/install_deps.sh)")
    dom = dump_dom(chromium, args.page)

    errors = attribute(dom, "data-errors")
    assert errors == "", f"the page reported errors: {errors!r}"
    assert attribute(dom, "data-rendered") == "1", "the page did not render"

    rows = re.findall(r'<tr class="op-row" id="op-0">(.*?)</tr>', dom, re.S)
    assert rows, "no row in the ops table"
    cells = [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in
             re.findall(r"<td[^>]*>(.*?)</td>", rows[0], re.S)]
    # #, share, samples, CPU time, op or node, op type, location, dispatches
    assert args.hottest in (cells[4], cells[5]), cells

    frames = [html.unescape(f) for f in re.findall(
        r'<div class="frame dispatch"[^>]*>([^<]*)</div>', dom)]
    assert any(re.search(args.dispatch, f) for f in frames), frames
    hot = len(re.findall(r'class="line hot', dom))
    assert hot > 0, "no hot line shown"
    print(f"top {cells[4]} ({cells[5]}) {cells[1].strip()}; "
          f"{len(frames)} dispatch frames; {hot} hot lines shown")


if __name__ == "__main__":
    sys.exit(main())
