"""The workloads of bench/models, each written once per peer.

A workload has activations (always function inputs) and weights, which are
function inputs in the form "inputs" and constants baked into the program in
the form "constants". Its data is random (numpy, fixed seed) and identical for
every peer; each workload gives:

  mlir(form)          the program for kiln and IREE: func.func @main over
                      linalg/tensor/arith/math, weights as arguments or as
                      dense hex constants (dense<"0x...">)
  reference(arrays)   float64 numpy, the result every peer is checked against
  numpy(arrays)       the numpy peer (float32)
  torch(F, arrays)    the PyTorch peer and the model ONNX Runtime runs
                      (exported with torch.onnx.export)

`arrays` maps names to numpy arrays in the layout of the .mlir (NHWC, HWCF,
weights [in, out]). PyTorch and ONNX Runtime take convolutions in their
own layout (NCHW, OIHW): `torch_layout` converts outside the timed call.
"""

import math

import numpy as np

SEED = 20240917
FORMS = ("inputs", "constants")


#===----------------------------------------------------------------------===#
# MLIR text
#===----------------------------------------------------------------------===#


def tensor_type(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape) if shape else \
        "tensor<f32>"


def dense_hex(array):
    """A dense constant holding exactly `array`'s float32 bytes."""
    data = np.ascontiguousarray(array, dtype="<f4").tobytes().hex().upper()
    return 'dense<"0x%s"> : %s' % (data, tensor_type(array.shape))


class Program:
    """Builds one func.func @main as text, one SSA value per call."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.zero = None

    def fresh(self, hint):
        # "_" keeps these apart from argument names.
        self.count += 1
        return "%%%s_%d" % (hint, self.count)

    def emit(self, line):
        self.lines.append("  " + line)

    def constant(self, name, array):
        value = "%" + name
        self.emit("%s = arith.constant %s" % (value, dense_hex(array)))
        return value

    def scalar(self, number):
        value = self.fresh("c")
        self.emit("%s = arith.constant %s : f32" % (value, float_literal(number)))
        return value

    def empty(self, shape):
        value = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (value, tensor_type(shape)))
        return value

    def filled(self, shape, number=0.0):
        if number == 0.0:
            if self.zero is None:
                self.zero = self.scalar(0.0)
            scalar = self.zero
        else:
            scalar = self.scalar(number)
        empty = self.empty(shape)
        value = self.fresh("f")
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                  % (value, scalar, empty, tensor_type(shape),
                     tensor_type(shape)))
        return value

    def matmul(self, a, b, m, k, n):
        init = self.filled((m, n))
        value = self.fresh("mm")
        self.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (value, a, b, tensor_type((m, k)), tensor_type((k, n)),
                     init, tensor_type((m, n)), tensor_type((m, n))))
        return value

    def batch_matmul(self, a, b, batch, m, k, n):
        init = self.filled((batch, m, n))
        value = self.fresh("bmm")
        self.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s)"
                  " -> %s" % (value, a, b, tensor_type((batch, m, k)),
                              tensor_type((batch, k, n)), init,
                              tensor_type((batch, m, n)),
                              tensor_type((batch, m, n))))
        return value

    def transpose(self, x, shape, permutation):
        out_shape = [shape[p] for p in permutation]
        empty = self.empty(out_shape)
        value = self.fresh("t")
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s)"
                  " permutation = [%s]"
                  % (value, x, tensor_type(shape), empty,
                     tensor_type(out_shape),
                     ", ".join(str(p) for p in permutation)))
        return value

    def reshape(self, x, shape, new_shape, reassociation):
        """expand_shape when new_shape has more dims, else collapse_shape."""
        groups = "[%s]" % ", ".join(
            "[%s]" % ", ".join(str(d) for d in group) for group in reassociation)
        value = self.fresh("r")
        if len(new_shape) > len(shape):
            self.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s"
                      " into %s" % (value, x, groups,
                                    ", ".join(str(d) for d in new_shape),
                                    tensor_type(shape), tensor_type(new_shape)))
        else:
            self.emit("%s = tensor.collapse_shape %s %s : %s into %s"
                      % (value, x, groups, tensor_type(shape),
                         tensor_type(new_shape)))
        return value

    def generic(self, ins, out_shape, body, reduce_dims=(), init=None):
        """linalg.generic over the loops of `ins[0]`'s shape.

        ins: [(value, shape, dims)] where dims lists which loops index the
        operand (None: the first len(shape) loops). Loops in reduce_dims are
        reductions; the result is indexed by the other loops. body(args, out)
        emits the region's ops from the block argument names and returns the
        yielded name.
        """
        rank = len(ins[0][1])
        loops = ["d%d" % i for i in range(rank)]
        maps = []
        for _, shape, dims in ins:
            dims = range(len(shape)) if dims is None else dims
            maps.append("affine_map<(%s) -> (%s)>" % (
                ", ".join(loops), ", ".join(loops[d] for d in dims)))
        out_dims = [d for d in range(rank) if d not in reduce_dims]
        maps.append("affine_map<(%s) -> (%s)>" % (
            ", ".join(loops), ", ".join(loops[d] for d in out_dims)))
        iterators = ", ".join(
            '"reduction"' if d in reduce_dims else '"parallel"'
            for d in range(rank))
        out = init if init is not None else self.empty(out_shape)
        value = self.fresh("g")
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types ="
                  " [%s]} ins(%s : %s) outs(%s : %s) {"
                  % (value, ", ".join(maps), iterators,
                     ", ".join(v for v, _, _ in ins),
                     ", ".join(tensor_type(s) for _, s, _ in ins), out,
                     tensor_type(out_shape)))
        args = ["%%in%d" % i for i in range(len(ins))]
        self.emit("^bb0(%s: f32):" % ": f32, ".join(args + ["%acc"]))
        region = Region(self)
        result = body(region, args, "%acc")
        self.emit("  linalg.yield %s : f32" % result)
        self.emit("} -> %s" % tensor_type(out_shape))
        return value

    def pad(self, x, shape, low, high):
        out_shape = [d + a + b for d, a, b in zip(shape, low, high)]
        if self.zero is None:
            self.zero = self.scalar(0.0)
        value = self.fresh("pad")
        self.emit("%s = tensor.pad %s low[%s] high[%s] {" % (
            value, x, ", ".join(map(str, low)), ", ".join(map(str, high))))
        self.emit("^bb0(%s: index):" % ": index, ".join(
            "%%i%d" % i for i in range(len(shape))))
        self.emit("  tensor.yield %s : f32" % self.zero)
        self.emit("} : %s to %s" % (tensor_type(shape), tensor_type(out_shape)))
        return value, out_shape

    def conv3x3(self, x, shape, filt, channels_out):
        """conv_2d_nhwc_hwcf, stride 1, on an already padded input."""
        n, h, w, c = shape
        out_shape = (n, h - 2, w - 2, channels_out)
        init = self.filled(out_shape)
        value = self.fresh("conv")
        self.emit("%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> :"
                  " tensor<2xi64>, strides = dense<1> : tensor<2xi64>}"
                  " ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (value, x, filt, tensor_type(shape),
                     tensor_type((3, 3, c, channels_out)), init,
                     tensor_type(out_shape), tensor_type(out_shape)))
        return value, out_shape

    def softmax(self, x, shape, dim):
        empty = self.empty(shape)
        value = self.fresh("sm")
        self.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s)"
                  " -> %s" % (value, dim, x, tensor_type(shape), empty,
                              tensor_type(shape), tensor_type(shape)))
        return value

    def text(self, args, result, result_shape):
        signature = ", ".join("%%%s: %s" % (name, tensor_type(shape))
                              for name, shape in args)
        return "\n".join(
            ["func.func @main(%s) -> %s {" % (signature,
                                               tensor_type(result_shape))]
            + self.lines
            + ["  return %s : %s" % (result, tensor_type(result_shape)), "}"]
        ) + "\n"


class Region:
    """Scalar ops inside a linalg.generic body."""

    def __init__(self, program):
        self.program = program

    def op(self, name, *operands):
        value = self.program.fresh("s")
        self.program.emit("  %s = %s %s : f32" % (value, name,
                                                  ", ".join(operands)))
        return value

    def const(self, number):
        value = self.program.fresh("k")
        self.program.emit("  %s = arith.constant %s : f32"
                          % (value, float_literal(number)))
        return value


def float_literal(number):
    text = repr(float(np.float32(number)))
    return text if ("e" in text or "." in text) else text + ".0"


#===----------------------------------------------------------------------===#
# Workloads
#===----------------------------------------------------------------------===#


class Workload:
    """Base: subclasses define inputs, weights, build, reference, numpy, torch."""

    name = ""
    title = ""
    calls = 10           # timed calls per measurement

    def __init__(self):
        self._arrays = None

    def specs(self):
        """[(name, shape, kind)], kind "input" or "weight", in argument order."""
        raise NotImplementedError

    @property
    def forms(self):
        has_weights = any(kind == "weight" for _, _, kind in self.specs())
        return FORMS if has_weights else FORMS[:1]

    def arrays(self):
        if self._arrays is None:
            rng = np.random.default_rng([SEED, sum(map(ord, self.name))])
            self._arrays = {}
            for name, shape, kind in self.specs():
                # Weights scaled by 1/sqrt(fan-in) keep activations near 1.
                scale = 1.0
                if kind == "weight" and len(shape) >= 2:
                    scale = 1.0 / math.sqrt(int(np.prod(shape[:-1])))
                self._arrays[name] = (rng.uniform(-1.0, 1.0, shape) * scale
                                      ).astype(np.float32)
            self.adjust(self._arrays)
        return self._arrays

    def adjust(self, arrays):
        """Changes the random data once, where it needs another range."""

    def arguments(self, form):
        """Names passed at call time in `form`, in order."""
        return [name for name, _, kind in self.specs()
                if form == "inputs" or kind == "input"]

    def mlir(self, form):
        program = Program()
        arrays = self.arrays()
        values = {}
        args = []
        for name, shape, kind in self.specs():
            if form == "constants" and kind == "weight":
                values[name] = program.constant(name, arrays[name])
            else:
                values[name] = "%" + name
                args.append((name, shape))
        result, shape = self.build(program, values)
        return program.text(args, result, shape)

    # Layout hooks for PyTorch / ONNX Runtime (identity unless overridden).
    def torch_layout(self, name, array):
        return array

    def torch_result(self, array):
        return array


class Matmul(Workload):
    def __init__(self, size, calls):
        super().__init__()
        self.size = size
        self.name = "matmul_%d" % size
        self.title = "matmul %dx%dx%d" % (size, size, size)
        self.calls = calls

    def specs(self):
        n = self.size
        return [("a", (n, n), "input"), ("b", (n, n), "weight")]

    def build(self, p, v):
        n = self.size
        return p.matmul(v["a"], v["b"], n, n, n), (n, n)

    def reference(self, x):
        return x["a"].astype(np.float64) @ x["b"].astype(np.float64)

    def numpy(self, x):
        return x["a"] @ x["b"]

    def torch(self, torch, x):
        return torch.matmul(x["a"], x["b"])


def dense_relu(p, x, w, b, m, k, n, relu):
    y = p.matmul(x, w, m, k, n)

    def body(r, args, acc):
        s = r.op("arith.addf", args[0], args[1])
        return r.op("arith.maximumf", s, r.const(0.0)) if relu else s
    return p.generic([(y, (m, n), None), (b, (n,), [1])], (m, n), body)


class Mlp(Workload):
    name = "mlp"
    title = "MLP 64x784-1024-1024-10"
    calls = 20
    widths = (784, 1024, 1024, 10)
    batch = 64

    def specs(self):
        w = self.widths
        specs = [("x", (self.batch, w[0]), "input")]
        for i in range(3):
            specs += [("w%d" % i, (w[i], w[i + 1]), "weight"),
                      ("b%d" % i, (w[i + 1],), "weight")]
        return specs

    def build(self, p, v):
        h, w = v["x"], self.widths
        for i in range(3):
            h = dense_relu(p, h, v["w%d" % i], v["b%d" % i], self.batch, w[i],
                           w[i + 1], relu=i < 2)
        return p.softmax(h, (self.batch, w[3]), 1), (self.batch, w[3])

    def _forward(self, x, lib):
        h = x["x"]
        for i in range(3):
            h = h @ x["w%d" % i] + x["b%d" % i]
            if i < 2:
                h = lib.maximum(h, 0)
        return h

    def reference(self, x):
        h = self._forward({k: a.astype(np.float64) for k, a in x.items()}, np)
        e = np.exp(h - h.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def numpy(self, x):
        h = self._forward(x, np)
        e = np.exp(h - h.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def torch(self, torch, x):
        h = x["x"]
        for i in range(3):
            h = torch.addmm(x["b%d" % i], h, x["w%d" % i])
            if i < 2:
                h = torch.relu(h)
        return torch.softmax(h, dim=1)


def conv3x3_nhwc(x, f):
    """numpy 'same' 3x3 convolution, NHWC x HWCF, by im2col and one matmul."""
    n, h, w, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3),
                                                       axis=(1, 2))
    # windows: n, h, w, c, 3, 3 -> n*h*w x (3*3*c) in HWC order.
    cols = windows.transpose(0, 1, 2, 4, 5, 3).reshape(n * h * w, 9 * c)
    return (cols @ f.reshape(9 * c, -1)).reshape(n, h, w, -1)


class ResNetBlock(Workload):
    name = "resnet_block"
    title = "ResNet block 1x56x56x64"
    calls = 20
    shape = (1, 56, 56, 64)

    def specs(self):
        c = self.shape[3]
        return [("x", self.shape, "input"),
                ("f1", (3, 3, c, c), "weight"), ("b1", (c,), "weight"),
                ("f2", (3, 3, c, c), "weight"), ("b2", (c,), "weight")]

    def build(self, p, v):
        shape = self.shape
        rank = len(shape)

        def conv_bias(x, f, c, relu, residual=None):
            padded, padded_shape = p.pad(x, shape, [0, 1, 1, 0], [0, 1, 1, 0])
            y, out_shape = p.conv3x3(padded, padded_shape, f, shape[3])
            ins = [(y, out_shape, None), (c, (shape[3],), [rank - 1])]
            if residual is not None:
                ins.append((residual, shape, None))

            def body(r, args, acc):
                s = r.op("arith.addf", args[0], args[1])
                if residual is not None:
                    s = r.op("arith.addf", s, args[2])
                return r.op("arith.maximumf", s, r.const(0.0)) if relu else s
            return p.generic(ins, out_shape, body)

        h = conv_bias(v["x"], v["f1"], v["b1"], relu=True)
        return conv_bias(h, v["f2"], v["b2"], relu=True, residual=v["x"]), shape

    def _forward(self, x):
        h = np.maximum(conv3x3_nhwc(x["x"], x["f1"]) + x["b1"], 0)
        return np.maximum(conv3x3_nhwc(h, x["f2"]) + x["b2"] + x["x"], 0)

    def reference(self, x):
        return self._forward({k: a.astype(np.float64) for k, a in x.items()})

    def numpy(self, x):
        return self._forward(x)

    def torch_layout(self, name, array):
        if name == "x":
            return np.ascontiguousarray(array.transpose(0, 3, 1, 2))  # NCHW
        if name.startswith("f"):
            return np.ascontiguousarray(array.transpose(3, 2, 0, 1))  # OIHW
        return array

    def torch_result(self, array):
        return array.transpose(0, 2, 3, 1)

    def torch(self, torch, x):
        conv = torch.nn.functional.conv2d
        h = torch.relu(conv(x["x"], x["f1"], x["b1"], padding=1))
        return torch.relu(conv(h, x["f2"], x["b2"], padding=1) + x["x"])


class TransformerLayer(Workload):
    """Post-norm encoder layer (as torch.nn.TransformerEncoderLayer), FFN relu."""

    name = "transformer"
    title = "transformer layer s128 d256 h4"
    calls = 20
    seq, model, heads, ffn = 128, 256, 4, 1024
    eps = 1e-5

    def specs(self):
        d, f = self.model, self.ffn
        specs = [("x", (self.seq, d), "input")]
        for name in ("q", "k", "v", "o"):
            specs += [("w" + name, (d, d), "weight"), ("b" + name, (d,), "weight")]
        specs += [("g1", (d,), "weight"), ("n1", (d,), "weight"),
                  ("w1", (d, f), "weight"), ("b1", (f,), "weight"),
                  ("w2", (f, d), "weight"), ("b2", (d,), "weight"),
                  ("g2", (d,), "weight"), ("n2", (d,), "weight")]
        return specs

    def adjust(self, arrays):
        # Layernorm scales near 1, as trained ones are.
        for name in ("g1", "g2"):
            arrays[name] = (1.0 + 0.1 * arrays[name]).astype(np.float32)

    def build(self, p, v):
        s, d, h, f = self.seq, self.model, self.heads, self.ffn
        dh = d // h

        def heads(x, transpose_to):
            """[s, d] -> [h, s, dh] (or [h, dh, s] for K^T)."""
            split = p.reshape(x, (s, d), (s, h, dh), [[0], [1, 2]])
            return p.transpose(split, (s, h, dh), transpose_to)

        def add(a, b, shape):
            return p.generic([(a, shape, None), (b, shape, None)], shape,
                             lambda r, args, acc: r.op("arith.addf", *args))

        def layernorm(x, gamma, beta):
            mean_sum = p.generic([(x, (s, d), None)], (s,),
                                 lambda r, args, acc: r.op("arith.addf", args[0], acc),
                                 reduce_dims=(1,), init=p.filled((s,)))

            def centered_square(r, args, acc):
                mean = r.op("arith.divf", args[1], r.const(d))
                c = r.op("arith.subf", args[0], mean)
                return r.op("arith.addf", r.op("arith.mulf", c, c), acc)
            var_sum = p.generic([(x, (s, d), None), (mean_sum, (s,), [0])], (s,),
                                centered_square, reduce_dims=(1,),
                                init=p.filled((s,)))

            def normalize(r, args, acc):
                mean = r.op("arith.divf", args[1], r.const(d))
                var = r.op("arith.divf", args[2], r.const(d))
                inv = r.op("math.rsqrt", r.op("arith.addf", var, r.const(self.eps)))
                c = r.op("arith.subf", args[0], mean)
                return r.op("arith.addf", r.op("arith.mulf", r.op(
                    "arith.mulf", c, inv), args[3]), args[4])
            return p.generic([(x, (s, d), None), (mean_sum, (s,), [0]),
                              (var_sum, (s,), [0]), (gamma, (d,), [1]),
                              (beta, (d,), [1])], (s, d), normalize)

        x = v["x"]
        q = dense_relu(p, x, v["wq"], v["bq"], s, d, d, relu=False)
        k = dense_relu(p, x, v["wk"], v["bk"], s, d, d, relu=False)
        val = dense_relu(p, x, v["wv"], v["bv"], s, d, d, relu=False)
        qh = heads(q, [1, 0, 2])        # h, s, dh
        kt = heads(k, [1, 2, 0])        # h, dh, s
        vh = heads(val, [1, 0, 2])      # h, s, dh
        scores = p.batch_matmul(qh, kt, h, s, dh, s)
        scale = 1.0 / math.sqrt(dh)
        scaled = p.generic([(scores, (h, s, s), None)], (h, s, s),
                           lambda r, args, acc: r.op("arith.mulf", args[0],
                                                     r.const(scale)))
        probs = p.softmax(scaled, (h, s, s), 2)
        attn = p.batch_matmul(probs, vh, h, s, s, dh)      # h, s, dh
        merged = p.reshape(p.transpose(attn, (h, s, dh), [1, 0, 2]),
                           (s, h, dh), (s, d), [[0], [1, 2]])
        o = dense_relu(p, merged, v["wo"], v["bo"], s, d, d, relu=False)
        y1 = layernorm(add(x, o, (s, d)), v["g1"], v["n1"])
        hidden = dense_relu(p, y1, v["w1"], v["b1"], s, d, f, relu=True)
        out = dense_relu(p, hidden, v["w2"], v["b2"], s, f, d, relu=False)
        return layernorm(add(y1, out, (s, d)), v["g2"], v["n2"]), (s, d)

    def _forward(self, x):
        s, d, h = self.seq, self.model, self.heads
        dh = d // h

        def split(t):
            return t.reshape(s, h, dh).transpose(1, 0, 2)

        def layernorm(t, gamma, beta):
            mean = t.mean(axis=-1, keepdims=True)
            var = ((t - mean) ** 2).mean(axis=-1, keepdims=True)
            return (t - mean) / np.sqrt(var + self.eps) * gamma + beta

        q = split(x["x"] @ x["wq"] + x["bq"])
        k = split(x["x"] @ x["wk"] + x["bk"])
        v = split(x["x"] @ x["wv"] + x["bv"])
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(dh).astype(q.dtype)
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = e / e.sum(axis=-1, keepdims=True)
        attn = (probs @ v).transpose(1, 0, 2).reshape(s, d)
        y1 = layernorm(x["x"] + attn @ x["wo"] + x["bo"], x["g1"], x["n1"])
        hidden = np.maximum(y1 @ x["w1"] + x["b1"], 0)
        return layernorm(y1 + hidden @ x["w2"] + x["b2"], x["g2"], x["n2"])

    def reference(self, x):
        return self._forward({k: a.astype(np.float64) for k, a in x.items()})

    def numpy(self, x):
        return self._forward(x)

    def torch(self, torch, x):
        s, d, h = self.seq, self.model, self.heads
        F = torch.nn.functional

        def split(t):
            # Batch 1 made explicit: [1, h, s, dh], the layout of torch's
            # own attention (and the only one its ONNX exporter takes).
            return t.reshape(1, s, h, d // h).transpose(1, 2)

        q = split(torch.addmm(x["bq"], x["x"], x["wq"]))
        k = split(torch.addmm(x["bk"], x["x"], x["wk"]))
        v = split(torch.addmm(x["bv"], x["x"], x["wv"]))
        attn = F.scaled_dot_product_attention(q, k, v).transpose(1, 2)
        attn = attn.reshape(s, d)
        y1 = F.layer_norm(x["x"] + torch.addmm(x["bo"], attn, x["wo"]), (d,),
                          x["g1"], x["n1"], self.eps)
        hidden = torch.relu(torch.addmm(x["b1"], y1, x["w1"]))
        return F.layer_norm(y1 + torch.addmm(x["b2"], hidden, x["w2"]), (d,),
                            x["g2"], x["n2"], self.eps)


class Elementwise(Workload):
    name = "elementwise"
    title = "exp(a*b+c) 16M"
    calls = 10
    size = 16 * 1024 * 1024

    def specs(self):
        return [(n, (self.size,), "input") for n in ("a", "b", "c")]

    def build(self, p, v):
        shape = (self.size,)

        def body(r, args, acc):
            return r.op("math.exp", r.op("arith.addf", r.op(
                "arith.mulf", args[0], args[1]), args[2]))
        return p.generic([(v[n], shape, None) for n in ("a", "b", "c")], shape,
                         body), shape

    def reference(self, x):
        a, b, c = (x[n].astype(np.float64) for n in ("a", "b", "c"))
        return np.exp(a * b + c)

    def numpy(self, x):
        return np.exp(x["a"] * x["b"] + x["c"])

    def torch(self, torch, x):
        return torch.exp(x["a"] * x["b"] + x["c"])


WORKLOADS = [Matmul(1024, calls=10), Matmul(1000, calls=10),
             Matmul(256, calls=40), Mlp(), ResNetBlock(), TransformerLayer(),
             Elementwise()]


def by_name():
    return {w.name: w for w in WORKLOADS}


def matches(actual, expected):
    """(ok, worst error relative to the result's largest magnitude).

    float32 results of float64 references: matmuls over K = 1024 and
    reassociated reductions stay well under 1e-4 of the largest value.
    """
    actual = np.asarray(actual, dtype=np.float64)
    if actual.shape != expected.shape:
        return False, "shape %s, expected %s" % (actual.shape, expected.shape)
    if not np.all(np.isfinite(actual)):
        return False, "non-finite values"
    scale = max(float(np.max(np.abs(expected))), 1e-30)
    error = float(np.max(np.abs(actual - expected))) / scale
    return error <= 1e-4, error
