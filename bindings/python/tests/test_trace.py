"""Tracing calls from Python."""

import json

import numpy as np
import pytest

import kiln
from conftest import ADD


def test_chrome_trace_points_at_stage_texts(tmp_path):
    module = kiln.compile(ADD, debug_level=3, threads=1)
    a = np.ones((4, 8), np.float32)
    path = tmp_path / "t.json"
    with kiln.trace("chrome", path, stage="1.configured"):
        module.main(a, a)
        module.main(a, a)
    module.main(a, a)  # after the trace: not in it
    events = json.loads(path.read_text())["traceEvents"]
    calls = [e for e in events if e.get("cat") == "function"]
    dispatches = [e for e in events if e.get("cat") == "dispatch"]
    assert [e["name"] for e in calls] == ["main", "main"]
    assert len(dispatches) == 2
    texts = {s.path: s for s in module.sources}
    for event in dispatches:
        args = event["args"]
        assert args["stage"] == "1.configured"
        assert args["file"] in texts
        assert 1 <= args["line"] <= texts[args["file"]].lines


def test_console_trace(capfd):
    module = kiln.compile(ADD, threads=1)
    a = np.ones((4, 8), np.float32)
    with kiln.trace("console"):
        module.main(a, a)
    assert "[kiln] main_dispatch_0" in capfd.readouterr().err


def test_trace_errors(tmp_path):
    with pytest.raises(kiln.RuntimeError, match="chrome=FILE"):
        with kiln.trace("nonsense"):
            pass
    with kiln.trace("console"):
        with pytest.raises(kiln.RuntimeError, match="already running"):
            with kiln.trace("console"):
                pass
    with pytest.raises(kiln.RuntimeError):
        with kiln.trace("chrome", tmp_path / "missing-dir" / "t.json"):
            pass
