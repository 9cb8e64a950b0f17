"""Compiling programs and models, loading modules and calling functions."""

import numpy as np
import pytest

import kiln
from conftest import ADD


def test_compile_text_and_call(add_module):
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    b = np.full((4, 8), 0.5, dtype=np.float32)
    np.testing.assert_array_equal(add_module.main(a, b), a + b)
    np.testing.assert_array_equal(add_module["main"](a, b), a + b)
    assert [f.name for f in add_module.functions] == ["main"]
    assert str(add_module.functions[0]) == \
        "main(4x8xf32, 4x8xf32) -> (4x8xf32)"
    assert add_module.functions[0].arguments[0].dtype == np.float32
    assert add_module.functions[0].arguments[0].shape == (4, 8)


def test_lists_are_converted_to_the_argument_type(add_module):
    result = add_module.main([[1.0] * 8] * 4, np.ones((4, 8), np.float32))
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, np.full((4, 8), 2.0, np.float32))


def test_arrays_that_need_converting(add_module):
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    swapped = a.astype(">f4")
    transposed = np.ascontiguousarray(a.T).T  # Fortran order
    for b in (swapped, transposed, a[:, ::-1][:, ::-1], a.tolist()):
        np.testing.assert_array_equal(add_module.main(a, b), a + b)


def test_compile_file_save_and_load(tmp_path):
    program = tmp_path / "add.mlir"
    program.write_text(ADD)
    module = kiln.compile(program, debug_level=3)
    assert module.name == "add"
    assert module.debug_level == 3
    path = tmp_path / "add.kiln"
    module.save(path)
    a = np.ones((4, 8), np.float32)
    for loaded in (kiln.load(path), kiln.load(str(path)),
                   kiln.load(path.read_bytes())):
        np.testing.assert_array_equal(loaded.main(a, a), a + a)
        assert loaded.debug_level == 3


def test_sources_at_level_3(tmp_path):
    module = kiln.compile(ADD, debug_level=3)
    assert module.capture_stages[0] == "0.source"
    sources = module.sources
    assert sources, "a level-3 module embeds its stage texts"
    stage_texts = [s for s in sources if s.previous is not None]
    assert stage_texts, "later stages name the stage before"
    text = stage_texts[0].text()
    assert text.count("\n") + (not text.endswith("\n")) == \
        stage_texts[0].lines
    assert text == module.read_source(stage_texts[0].path)
    assert "func.func" in text or "llvm.func" in text
    out = tmp_path / "printed.txt"
    with open(out, "w") as f:
        module.print_source(stage_texts[0].path, line=1, context=1, file=f)
    assert out.read_text().startswith("> 1  ")
    with pytest.raises(kiln.RuntimeError, match="past the end"):
        module.print_source(stage_texts[0].path, line=10**6)


def test_onnx_model_by_input_names(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"], name="project"),
         helper.make_node("Relu", ["xw"], ["y"], name="activate")],
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor("w", TensorProto.FLOAT, [3, 4],
                            np.linspace(-1, 1, 12).tolist())])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "tiny.onnx"
    onnx.save(model, path)
    w = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    expected = np.maximum(x @ w, 0)

    for module in (kiln.compile(path), kiln.compile(
            model.SerializeToString(), name="tiny.onnx")):
        function = module.functions[0]
        assert [t.name for t in function.arguments] == ["x"]
        assert [t.name for t in function.results] == ["y"]
        np.testing.assert_allclose(module.run({"x": x})["y"], expected,
                                   rtol=1e-6)
        np.testing.assert_allclose(function(x=x), expected, rtol=1e-6)


def test_two_functions():
    module = kiln.compile("""
func.func @twice(%a: tensor<3xi32>) -> tensor<3xi32> {
  %e = tensor.empty() : tensor<3xi32>
  %r = linalg.add ins(%a, %a : tensor<3xi32>, tensor<3xi32>)
                  outs(%e : tensor<3xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @pair(%a: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  return %a, %a : tensor<3xi32>, tensor<3xi32>
}
""")
    a = np.array([1, 2, 3], np.int32)
    np.testing.assert_array_equal(module.twice(a), 2 * a)
    first, second = module.pair(a)
    np.testing.assert_array_equal(first, a)
    np.testing.assert_array_equal(second, a)
    assert not np.shares_memory(first, a)
    with pytest.raises(KeyError, match="twice, pair"):
        module.run({}, function="none")


def test_printed_sources_escape_control_characters(tmp_path):
    program = tmp_path / "hostile.mlir"
    program.write_text("// \x1b[2J a comment that would clear the screen\n" + ADD)
    module = kiln.compile(program, debug_level=3, embed_input_files=True)
    [embedded] = [s.path for s in module.sources if s.path.endswith(
        "hostile.mlir")]
    out = tmp_path / "printed.txt"
    with open(out, "w") as f:
        module.print_source(embedded, line=1, context=0, file=f)
    printed = out.read_text()
    assert "\x1b" not in printed
    assert printed == "> 1  // \\x1b[2J a comment that would clear the screen\n"


MATMUL = """
func.func @main(%a: tensor<37x300xf32>, %b: tensor<300x260xf32>) -> tensor<37x260xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x260xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x260xf32>) -> tensor<37x260xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x300xf32>, tensor<300x260xf32>) outs(%f : tensor<37x260xf32>) -> tensor<37x260xf32>
  return %m : tensor<37x260xf32>
}
"""


def test_code_variants_each_give_the_same_results():
    cpus = ["x86-64-v4", "x86-64-v3", "x86-64"]
    module = kiln.compile(MATMUL, cpu=",".join(cpus))
    variants = module.variants
    assert [v.name for v in variants] == cpus
    assert all(v.cpu == name for v, name in zip(variants, cpus))
    # The first this machine can run is the one that runs.
    runnable = [v.name for v in variants if v.supported]
    assert "x86-64" in runnable, "every x86-64 machine runs baseline code"
    assert module.variant == runnable[0]
    rng = np.random.default_rng(7)
    a = rng.standard_normal((37, 300), dtype=np.float32)
    b = rng.standard_normal((300, 260), dtype=np.float32)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    data = module.to_bytes()
    for variant in variants:
        if not variant.supported:
            with pytest.raises(kiln.RuntimeError, match="lacks"):
                kiln.load(data, variant=variant.name)
            continue
        forced = kiln.load(data, variant=variant.name)
        assert forced.variant == variant.name
        np.testing.assert_allclose(forced.main(a, b), expected,
                                   rtol=1e-4, atol=1e-3)
    with pytest.raises(kiln.RuntimeError, match="no code variant 'x86-64-v2'"):
        kiln.load(data, variant="x86-64-v2")


def test_one_cpu_is_one_variant_named_cpu():
    module = kiln.compile(ADD, cpu=["x86-64-v3"])
    assert [(v.name, v.cpu) for v in module.variants] == [("cpu", "x86-64-v3")]
    assert module.variant == "cpu"
