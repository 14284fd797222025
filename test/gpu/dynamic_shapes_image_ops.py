"""The image models of dynamic_shapes.py's op models (dynamic_shapes_ops.py)
over a symbolic batch: resizes by scales and by sizes, squeeze-and-
excitation, pooling and other image ops, transposed convolutions, each
with its float64 reference.

Runs where torch and onnx do (the GPU machine).
"""

import numpy as np
from onnx import helper, numpy_helper

from dynamic_shapes_models import F16, graph


def resize_images(elem):
    """Resize over a symbolic batch of images [batch, 8, 6, 6], scales 1,
    1, 2, 2: nearest (half_pixel, round_prefer_floor: each pixel repeated)
    and linear (half_pixel: bilinear upsampling as torch's
    align_corners=False computes it), movement kernels over the actual
    batch."""
    m = graph("resize_images", [
        helper.make_node("Resize", ["x", "", "scales"], ["near"],
                         mode="nearest"),
        helper.make_node("Resize", ["x", "", "scales"], ["lin"],
                         mode="linear"),
    ], [helper.make_tensor_value_info("x", elem, ["batch", 8, 6, 6])],
        [helper.make_tensor_value_info("near", elem, ["batch", 8, 12, 12]),
         helper.make_tensor_value_info("lin", elem, ["batch", 8, 12, 12])],
        [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32),
                                 "scales")])

    def linear(a, axis):
        n = a.shape[axis]
        o = np.arange(2 * n)
        x = np.maximum((o + 0.5) / 2 - 0.5, 0)
        x0 = np.floor(x).astype(np.int64)
        x1 = np.minimum(x0 + 1, n - 1)
        w = x - x0
        shape = [1] * a.ndim
        shape[axis] = -1
        w = w.reshape(shape)
        return (1 - w) * np.take(a, x0, axis) + w * np.take(a, x1, axis)

    def ref(x):
        near = x.repeat(2, 2).repeat(2, 3)
        return [near, linear(linear(x, 2), 3)]
    return m, ref


def squeeze_excite(seed, channels=64, squeezed=16):
    """A squeeze-and-excitation block over a symbolic batch of f16 images
    [batch, C, 4, 4]: the global mean, two 1 x 1 convolutions of one pixel
    (bias, ReLU; bias, sigmoid) and the scale. Up to four images the two
    convolutions run the one-pixel body (a kernel for 1, 2, and 3 to 4
    rows), past them the wgmma body."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((squeezed, channels, 1, 1)) /
          np.sqrt(channels)).astype(np.float16)
    b1 = (0.1 * rng.standard_normal(squeezed)).astype(np.float16)
    w2 = (rng.standard_normal((channels, squeezed, 1, 1)) /
          np.sqrt(squeezed)).astype(np.float16)
    b2 = (0.1 * rng.standard_normal(channels)).astype(np.float16)
    m = graph("squeeze_excite", [
        helper.make_node("GlobalAveragePool", ["x"], ["p"]),
        helper.make_node("Conv", ["p", "w1", "b1"], ["s1"]),
        helper.make_node("Relu", ["s1"], ["s2"]),
        helper.make_node("Conv", ["s2", "w2", "b2"], ["s3"]),
        helper.make_node("Sigmoid", ["s3"], ["s4"]),
        helper.make_node("Mul", ["x", "s4"], ["y"]),
    ], [helper.make_tensor_value_info("x", F16, ["batch", channels, 4, 4])],
        [helper.make_tensor_value_info("y", F16, ["batch", channels, 4, 4])],
        [numpy_helper.from_array(a, n) for a, n in
         ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))])

    def ref(x):
        f = {k: v.astype(np.float64) for k, v in
             (("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2))}
        p = x.mean(axis=(2, 3))
        s = np.maximum(p @ f["w1"][:, :, 0, 0].T + f["b1"], 0)
        s = s @ f["w2"][:, :, 0, 0].T + f["b2"]
        return [x * (1 / (1 + np.exp(-s)))[:, :, None, None]]
    return m, ref


def image_ops(elem):
    """InstanceNormalization, DepthToSpace (DCR and CRD) and SpaceToDepth
    over a symbolic batch of images [batch, 8, 4, 6]: a row kernel and
    movement kernels over the actual batch."""
    np_t = np.float16 if elem == F16 else np.float32
    scale = np.linspace(0.5, 2, 8).astype(np_t)
    bias = np.linspace(-1, 1, 8).astype(np_t)
    m = graph("image_ops", [
        helper.make_node("InstanceNormalization", ["x", "sc", "bi"], ["i"],
                         epsilon=1e-3),
        helper.make_node("DepthToSpace", ["x"], ["d"], blocksize=2),
        helper.make_node("DepthToSpace", ["x"], ["c"], blocksize=2,
                         mode="CRD"),
        helper.make_node("SpaceToDepth", ["x"], ["s"], blocksize=2),
    ], [helper.make_tensor_value_info("x", elem, ["batch", 8, 4, 6])],
        [helper.make_tensor_value_info("i", elem, ["batch", 8, 4, 6]),
         helper.make_tensor_value_info("d", elem, ["batch", 2, 8, 12]),
         helper.make_tensor_value_info("c", elem, ["batch", 2, 8, 12]),
         helper.make_tensor_value_info("s", elem, ["batch", 32, 2, 3])],
        [numpy_helper.from_array(scale, "sc"),
         numpy_helper.from_array(bias, "bi")])

    def ref(x):
        n = x.shape[0]
        mean = x.mean(axis=(2, 3), keepdims=True)
        var = x.var(axis=(2, 3), keepdims=True)
        i = ((x - mean) / np.sqrt(var + 1e-3) *
             scale.astype(np.float64)[:, None, None] +
             bias.astype(np.float64)[:, None, None])
        d = x.reshape(n, 2, 2, 2, 4, 6).transpose(0, 3, 4, 1, 5, 2)
        c = x.reshape(n, 2, 2, 2, 4, 6).transpose(0, 1, 4, 2, 5, 3)
        s = x.reshape(n, 8, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4)
        return [i, d.reshape(n, 2, 8, 12), c.reshape(n, 2, 8, 12),
                s.reshape(n, 32, 2, 3)]
    return m, ref


def conv_transpose(elem):
    """ConvTranspose over a symbolic batch of images [batch, 16, 6, 6]: 2 x 2
    by stride 2 with a bias (a decoder's upsampling), and 3 x 3 by stride 2
    with pads 1 and output_padding 1; zeros between the pixels, then a
    convolution at stride 1."""
    np_t = np.float16 if elem == F16 else np.float32
    rng = np.random.default_rng(19)
    w = (0.2 * rng.standard_normal((16, 8, 2, 2))).astype(np_t)
    b = (0.1 * rng.standard_normal(8)).astype(np_t)
    w3 = (0.2 * rng.standard_normal((16, 8, 3, 3))).astype(np_t)
    m = graph("conv_transpose", [
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                         strides=[2, 2]),
        helper.make_node("ConvTranspose", ["x", "w3"], ["z"], strides=[2, 2],
                         pads=[1, 1, 1, 1], output_padding=[1, 1]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", 16, 6, 6])],
        [helper.make_tensor_value_info("y", elem, ["batch", 8, 12, 12]),
         helper.make_tensor_value_info("z", elem, ["batch", 8, 12, 12])],
        [numpy_helper.from_array(a, n) for a, n in
         ((w, "w"), (b, "b"), (w3, "w3"))])

    def transposed(x, wt, stride, pad, out):
        # y[n, o, i * s + a - pad, j * s + c - pad] += x[n, k, i, j] w[k, o, a, c]
        n, _, h, wd = x.shape
        kh, kw = wt.shape[2:]
        full = np.zeros((n, wt.shape[1], (h - 1) * stride + kh,
                         (wd - 1) * stride + kw))
        for a in range(kh):
            for c in range(kw):
                full[:, :, a:a + (h - 1) * stride + 1:stride,
                     c:c + (wd - 1) * stride + 1:stride] += np.einsum(
                         "nkij,ko->noij", x, wt[:, :, a, c])
        full = np.pad(full, ((0, 0), (0, 0), (0, out), (0, out)))
        return full[:, :, pad:pad + out, pad:pad + out]

    def ref(x):
        f = {k: v.astype(np.float64) for k, v in
             (("w", w), ("b", b), ("w3", w3))}
        y = transposed(x, f["w"], 2, 0, 12) + f["b"][:, None, None]
        return [y, transposed(x, f["w3"], 2, 1, 12)]
    return m, ref


def resize_sizes(elem):
    """Resize by sizes over a symbolic batch, as exporters write them: the
    input's batch and channels (Shape) concatenated with the new height and
    width; nearest to [batch, 8, 12, 12], the same as resize_images'
    scales of 2."""
    m = graph("resize_sizes", [
        helper.make_node("Shape", ["x"], ["sh"], end=2),
        helper.make_node("Concat", ["sh", "hw"], ["sz"], axis=0),
        helper.make_node("Resize", ["x", "", "", "sz"], ["near"],
                         mode="nearest"),
    ], [helper.make_tensor_value_info("x", elem, ["batch", 8, 6, 6])],
        [helper.make_tensor_value_info("near", elem, ["batch", 8, 12, 12])],
        [numpy_helper.from_array(np.array([12, 12], np.int64), "hw")])

    def ref(x):
        return [x.repeat(2, 2).repeat(2, 3)]
    return m, ref
