"""Profiling calls from Python with kiln's own sampler."""

import numpy as np
import pytest

import kiln
from conftest import MATMUL


def test_profile_names_hot_lines_of_each_stage(tmp_path):
    module = kiln.compile(MATMUL.replace("512", "1024"), debug_level=3,
                          threads=1)
    a = np.ones((1024, 1024), np.float32)
    with kiln.profile(hz=1000) as p:
        for _ in range(20):  # about 0.3 s of CPU time
            module.main(a, a)
    [(module_name, function, calls, samples, host, dropped)] = p.functions
    assert (function, calls, dropped) == ("main", 20, 0)
    assert samples > 0 and p.samples == samples and host <= samples
    texts = {s.path: s for s in module.sources}
    lines = p.top_lines()
    assert lines, str(p)
    for line in lines:
        assert line.path in texts and 1 <= line.line <= texts[line.path].lines
        assert line.text and line.function == "main"
        assert line.export.startswith("main_dispatch_")
    assert sum(l.samples for l in p.top_lines(n=1000)) <= samples
    source = p.top_lines(stage="0.source")
    assert all(".0.source." in l.path for l in source)
    assert "main_dispatch_" in str(p) and "samples" in str(p)
    folded = tmp_path / "p.folded"
    p.to_folded(folded)
    for row in folded.read_text().splitlines():
        stack, count = row.rsplit(" ", 1)
        assert stack.startswith("main;") and int(count) > 0
    with pytest.raises(kiln.RuntimeError, match="stage"):
        p.top_lines(stage="9.nothing")


def test_profile_of_a_model_names_its_nodes(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    n = 1024
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="project")],
        "matmul",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, n])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, n])],
        [numpy_helper.from_array(np.ones((n, n), np.float32), "w")])
    path = tmp_path / "matmul.onnx"
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    module = kiln.compile(path, debug_level=3, threads=1)
    x = np.ones((n, n), np.float32)
    with kiln.profile() as p:
        for _ in range(20):  # about 0.3 s of CPU time
            module.main(x)
    hottest = p.top_lines(stage="input")[0]
    assert (hottest.node, hottest.op_type) == ("project", "MatMul")
    assert hottest.path.endswith("matmul.onnx.mlir")
    # Per node: the matmul's samples and the CPU time they stand for.
    ops = p.input_ops()
    assert (ops[0].node, ops[0].op_type) == ("project", "MatMul")
    assert ops[0].function == "main"
    assert ops[0].dispatches and ops[0].cpu_seconds > 0
    assert ops[0].location.startswith(hottest.path)
    in_kernels = sum(op.samples for op in ops) + p.unplaced_samples
    assert p.unplaced_samples <= 0.1 * in_kernels


def test_profile_errors():
    with pytest.raises(kiln.RuntimeError, match="hz"):
        with kiln.profile(hz=0):
            pass
    with kiln.profile():
        with pytest.raises(kiln.RuntimeError, match="already running"):
            with kiln.profile():
                pass


def test_short_calls_get_their_share_of_samples():
    module = kiln.compile(MATMUL, threads=1)
    a = np.ones((512, 512), np.float32)
    with kiln.profile(hz=1000) as p:
        for _ in range(100):  # about 1.5 ms each, 0.15 s in all
            module.main(a, a)
    table = str(p)
    if "by CPU-time timers" in table:
        # Where perf_event_open is refused, the tick-driven clock says it
        # fell short, or got nothing, rather than pretending.
        assert "warning: " in table or "no samples" in table, table
    else:
        assert "by the cpu-clock event" in table
        assert p.samples >= 40, table
