#!/usr/bin/env python3
"""Writes samples/lenet.onnx: a small convolutional classifier of 28x28
images (LeNet's shape) with seeded random weights, exported by PyTorch at
opset 17 and converted to opset 21 by ONNX's version converter. make demo
compiles it.

    build/venv/bin/python samples/make_lenet_onnx.py
"""

import os

import onnx
import onnx.version_converter
import torch


class LeNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 8, 5, padding=2)
        self.conv2 = torch.nn.Conv2d(8, 16, 5)
        self.fc1 = torch.nn.Linear(16 * 5 * 5, 64)
        self.fc2 = torch.nn.Linear(64, 10)

    def forward(self, image):
        x = torch.max_pool2d(torch.relu(self.conv1(image)), 2)
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
        x = torch.relu(self.fc1(torch.flatten(x, 1)))
        return torch.softmax(self.fc2(x), dim=1)


def main():
    torch.manual_seed(0)
    model = LeNet().eval()
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "lenet.onnx")
    torch.onnx.export(model, (torch.randn(1, 1, 28, 28),), path,
                      opset_version=17, input_names=["image"],
                      output_names=["probabilities"])
    converted = onnx.version_converter.convert_version(onnx.load(path), 21)
    onnx.checker.check_model(converted)
    onnx.save(converted, path)
    print("wrote", path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
