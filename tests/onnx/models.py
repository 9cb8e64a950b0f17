#!/usr/bin/env python3
"""Exports PyTorch models to ONNX with seeded random weights, and checks
kiln against ONNX Runtime on the same files.

Each model is exported by PyTorch (Debian's 1.13: opset 17), converted to
opset 21 by ONNX's version converter, compiled by kiln-compile and run by
kiln-run on seeded random inputs; its outputs must agree with ONNX
Runtime's on the same .onnx file to --tolerance (max |d| / max |ref|).
Nothing is downloaded: torchvision builds the architectures, torch's seeded
generator fills the weights.

    models.py --bin-dir=build/bin                   # the small models (CI)
    models.py --bin-dir=build/bin --size=full       # ResNet50, MobileNetV2,
                                                    # EfficientNet-B0,
                                                    # ViT-B/16, BERT-base
    models.py --bin-dir=build/bin --models=resnet --keep=DIR

Two more families, whose convolutions are over groups of channels: ResNeXt
(ResNeXt50-32x4d at full size) and RegNetY-400MF.

Five more run with sizes known only when they run, one module each:
ResNet, RegNetY and EfficientNet-B0 with a dynamic batch (called at
batches 1 and 3), MobileNetV2 with a dynamic batch, height and width (at
two images of other sizes) and the encoder with a dynamic sequence length
(at two lengths).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import onnx  # noqa: E402
import onnx.version_converter  # noqa: E402
import torch  # noqa: E402
import torchvision  # noqa: E402


class Encoder(torch.nn.Module):
    """A BERT-style encoder: token and position embeddings, layernorm, then
    post-norm transformer layers with GELU feed-forward blocks."""

    def __init__(self, vocab, seq, d_model, heads, layers, ffn):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, d_model)
        self.positions = torch.nn.Embedding(seq, d_model)
        self.norm = torch.nn.LayerNorm(d_model)
        layer = torch.nn.TransformerEncoderLayer(
            d_model, heads, ffn, dropout=0.0, activation="gelu",
            batch_first=True)
        self.layers = torch.nn.TransformerEncoder(layer, layers)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.shape[1]).unsqueeze(0)
        x = self.norm(self.tokens(input_ids) + self.positions(positions))
        return self.layers(x)


def make_model(name, size):
    """(module, example inputs, input names, dynamic axes)."""
    small = size == "small"
    if name.endswith("_dynamic_batch"):
        model, inputs, names, _ = make_model(name[:-len("_dynamic_batch")],
                                             size)
        return model, inputs, names, {"input": {0: "batch"},
                                      "output": {0: "batch"}}
    if name == "mobilenet_dynamic_image":
        model, inputs, names, _ = make_model("mobilenet", size)
        return model, inputs, names, {"input": {0: "batch", 2: "height",
                                                3: "width"},
                                      "output": {0: "batch"}}
    if name == "bert_dynamic_sequence":
        model, inputs, names, _ = make_model("bert", size)
        return model, inputs, names, {"input_ids": {1: "sequence"},
                                      "output": {1: "sequence"}}
    if name == "resnet":
        model = torchvision.models.resnet18() if small else \
            torchvision.models.resnet50()
        image = 64 if small else 224
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "resnext":
        # Convolutions over groups of channels: 32 groups, as ResNeXt50's.
        model = torchvision.models.resnet.ResNet(
            torchvision.models.resnet.Bottleneck, [1, 1, 1, 1], groups=32,
            width_per_group=2) if small else \
            torchvision.models.resnext50_32x4d()
        image = 64 if small else 224
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "regnet":
        # Groups of 8 channels with squeeze-and-excitation blocks.
        model = torchvision.models.regnet_y_400mf()
        image = 64 if small else 224
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "mobilenet":
        model = torchvision.models.mobilenet_v2(width_mult=0.5 if small else
                                                1.0)
        image = 64 if small else 224
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "efficientnet":
        model = torchvision.models.efficientnet_b0()
        image = 64 if small else 224
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "vit":
        if small:
            model = torchvision.models.VisionTransformer(
                image_size=32, patch_size=8, num_layers=2, num_heads=2,
                hidden_dim=64, mlp_dim=128)
            image = 32
        else:
            model = torchvision.models.vit_b_16()
            image = 224
        # torchvision starts the classifier at zero, which would make
        # every output 0.
        torch.nn.init.normal_(model.heads.head.weight, std=0.02)
        return model, (torch.randn(1, 3, image, image),), ["input"], None
    if name == "bert":
        if small:
            vocab, seq, d, heads, layers, ffn = 1000, 32, 64, 4, 2, 256
        else:
            vocab, seq, d, heads, layers, ffn = 30522, 128, 768, 12, 12, 3072
        model = Encoder(vocab, seq, d, heads, layers, ffn)
        # TransformerEncoder copies one layer; weights of their own per
        # layer keep the exporter from sharing one set between them.
        for module in model.modules():
            for reset in ("reset_parameters", "_reset_parameters"):
                if hasattr(module, reset):
                    getattr(module, reset)()
        ids = torch.randint(0, vocab, (1, seq))
        return model, (ids,), ["input_ids"], None
    raise ValueError("unknown model " + name)


def dynamic_inputs(name, size, inputs):
    """The inputs a model with dynamic sizes is called with: other batches
    or sequence lengths than its example's."""
    generator = np.random.RandomState(1)
    if name.endswith("_dynamic_batch"):
        image = inputs[0].shape[2]
        return [[generator.randn(batch, 3, image, image).astype(np.float32)]
                for batch in (1, 3)]
    if name == "mobilenet_dynamic_image":
        image = inputs[0].shape[2]
        return [[generator.randn(batch, 3, height, width).astype(np.float32)]
                for batch, height, width in ((1, image, image),
                                             (2, image - 16, image + 24))]
    if name == "bert_dynamic_sequence":
        lengths = (16, 32) if size == "small" else (64, 128)
        return [[generator.randint(0, 1000, (1, n)).astype(np.int64)]
                for n in lengths]
    return [[t.numpy() for t in inputs]]


def export(name, size, path):
    """Exports the model at opset 17, then converts it to opset 21."""
    torch.manual_seed(0)
    model, inputs, input_names, dynamic_axes = make_model(name, size)
    model.eval()
    raw = path + ".opset17.onnx"
    # The fused attention fast path has no export; grad mode turns it off.
    with torch.enable_grad():
        torch.onnx.export(model, inputs, raw, opset_version=17,
                          input_names=input_names, output_names=["output"],
                          dynamic_axes=dynamic_axes)
    converted = onnx.version_converter.convert_version(onnx.load(raw), 21)
    onnx.save(converted, path)
    os.remove(raw)
    return [dict(zip(input_names, arrays))
            for arrays in dynamic_inputs(name, size, inputs)]


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (os.path.basename(command[0]),
                                                result.stderr.strip()))
    return result


def check(name, size, bin_dir, work, tolerance, cpu, compile_flags=()):
    import onnxruntime
    path = os.path.join(work, "%s_%s.onnx" % (name, size))
    calls = export(name, size, path)
    module = path[:-len(".onnx")] + ".kiln"
    start = time.time()
    run([os.path.join(bin_dir, "kiln-compile"), path, "-o", module,
         "--cpu=" + cpu, *compile_flags])
    compile_seconds = time.time() - start
    session = onnxruntime.InferenceSession(
        path, providers=["CPUExecutionProvider"])
    errors = []
    for call, feeds in enumerate(calls):
        # Inputs by name, as a user with a multi-input model gives them.
        command = [os.path.join(bin_dir, "kiln-run"), module]
        for i, (input_name, array) in enumerate(feeds.items()):
            input_path = os.path.join(work, "%s_in%d_%d.npy" % (name, call, i))
            np.save(input_path, array)
            command.append("--input=%s=@%s" % (input_name, input_path))
        output_path = os.path.join(work, "%s_out%d.npy" % (name, call))
        command.append("--output=@" + output_path)
        run(command)
        actual = np.load(output_path)
        expected = session.run(None, feeds)[0]
        if actual.shape != expected.shape:
            return False, "shape %s, ONNX Runtime %s" % (actual.shape,
                                                         expected.shape)
        errors.append(float(np.max(np.abs(actual.astype(np.float64) -
                                          expected)) /
                            max(np.max(np.abs(expected)), 1e-30)))
    shapes = ", ".join("x".join(map(str, next(iter(f.values())).shape))
                       for f in calls)
    ok = max(errors) <= tolerance
    return ok, "max |d| / max |ref| = %.2e at %s (compile %.1f s)" % (
        max(errors), shapes, compile_seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--models",
                        default="resnet,mobilenet,efficientnet,vit,bert,"
                        "resnext,regnet,resnet_dynamic_batch,"
                        "regnet_dynamic_batch,efficientnet_dynamic_batch,"
                        "mobilenet_dynamic_image,"
                        "bert_dynamic_sequence")
    parser.add_argument("--size", choices=["small", "full"], default="small")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--cpu", default="host")
    parser.add_argument("--compile-flag", action="append", default=[],
                        help="a flag for kiln-compile (repeatable), e.g. "
                        "--compile-flag=--dispatch-fusion=false")
    parser.add_argument("--keep", metavar="DIR",
                        help="keep the models and modules in DIR")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="kiln-models-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    try:
        for name in args.models.split(","):
            try:
                ok, message = check(name, args.size, args.bin_dir, work,
                                    args.tolerance, args.cpu,
                                    args.compile_flag)
            except RuntimeError as error:
                ok, message = False, str(error)
            failures += not ok
            print("%-5s %-13s %s" % ("ok" if ok else "FAIL", name, message),
                  flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
