"""The quantization kernel cases of the GPU check corpus (kernel_cases.py
lists them among the others): QuantizeLinear / DequantizeLinear in
pointwise, row and product kernels, float8 casts, and 8-bit products
(INT8, UINT8 with a zero point, float8 E4M3FN), with their opsets and
tolerances. The references are kernel_references_quant.quantize_reference.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

F, H = TensorProto.FLOAT, TensorProto.FLOAT16
n = helper.make_node


def qdq_product(scale, zero, weight, w_scale, w_zero, bias, transposed=False):
    """A product of a quantized-dequantized activation `x` and a dequantized
    8-bit constant weight into `y`, with a bias: a MatMul whose weight has
    a scale per column (axis 1), or a Gemm of a transposed weight."""
    dq_axis = {} if transposed else {"axis": 1}
    product = ([n("Gemm", ["a", "w", bias], ["y"], transB=1)] if transposed else
               [n("MatMul", ["a", "w"], ["m"]), n("Add", ["m", bias], ["y"])])
    return [n("QuantizeLinear", ["x", scale, zero], ["q"]),
            n("DequantizeLinear", ["q", scale, zero], ["a"]),
            n("DequantizeLinear", [weight, w_scale, w_zero], ["w"], **dq_axis)] + product


def qdq_conv(scale, zero, weight, w_scale, w_zero, bias, pads=(0, 0, 0, 0),
             strides=(1, 1), per_channel=True, source="x"):
    """A convolution of a quantized-dequantized activation (`source`) and
    dequantized 8-bit constant weights (a scale per output channel, axis 0,
    or one) into `y`, with a bias."""
    dq_axis = {"axis": 0} if per_channel else {}
    return [n("QuantizeLinear", [source, scale, zero], ["q"]),
            n("DequantizeLinear", ["q", scale, zero], ["a"]),
            n("DequantizeLinear", [weight, w_scale, w_zero], ["w"], **dq_axis),
            n("Conv", ["a", "w", bias], ["y"], pads=list(pads), strides=list(strides))]


# (name, graph nodes, inputs [(name, dtype, shape)], outputs), as in
# kernel_cases.py.
QUANT_CASES = [
    # Quantization in pointwise kernels: per-channel INT8 (ragged rows of
    # 301), per-tensor UINT8 of f16, float8 saturating through a transpose
    # of the float8 values, float8 not saturating (NaN beyond 464), and
    # Cast to and from float8.
    ("qdq_int8_per_channel_ragged", [n("QuantizeLinear", ["x", "qs301", "qz301"], ["q"], axis=1),
                                     n("DequantizeLinear", ["q", "qs301", "qz301"], ["y"],
                                       axis=1)],
     [("x", F, [37, 301])], [("y", F, [37, 301])]),
    ("qdq_uint8_f16", [n("QuantizeLinear", ["x", "qs_h", "qz_u8"], ["q"]),
                       n("DequantizeLinear", ["q", "qs_h", "qz_u8"], ["y"])],
     [("x", H, [5, 999])], [("y", H, [5, 999])]),
    ("qdq_fp8_transpose_f32", [n("QuantizeLinear", ["x", "qs_f8", "qz_f8"], ["q"]),
                               n("Transpose", ["q"], ["t"], perm=[1, 0]),
                               n("DequantizeLinear", ["t", "qs_f8", "qz_f8"], ["y"])],
     [("x", F, [33, 65])], [("y", F, [65, 33])]),
    ("qdq_fp8_no_saturate", [n("QuantizeLinear", ["x", "qs_f8", "qz_f8"], ["q"], saturate=0),
                             n("DequantizeLinear", ["q", "qs_f8", "qz_f8"], ["y"])],
     [("x", F, [7, 513])], [("y", F, [7, 513])]),
    # A layer norm's output returned and quantized twice, to float8 and to
    # UINT8 (each then dequantized): one row kernel stores all three.
    ("layernorm_qdq_fp8_uint8_f16",
     [n("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5),
      n("QuantizeLinear", ["y", "qs_h", "qz_f8"], ["q8"]),
      n("DequantizeLinear", ["q8", "qs_h", "qz_f8"], ["yf"]),
      n("QuantizeLinear", ["y", "qs_h", "qz_u8"], ["qu"]),
      n("DequantizeLinear", ["qu", "qs_h", "qz_u8"], ["yu"])],
     [("x", H, [37, 520]), ("g", H, [520]), ("b", H, [520])],
     [("y", H, [37, 520]), ("yf", H, [37, 520]), ("yu", H, [37, 520])]),
    ("cast_fp8_f16", [n("Cast", ["x"], ["q"], to=17), n("Cast", ["q"], ["y"], to=H)],
     [("x", H, [3, 1001])], [("y", H, [3, 1001])]),
    # Quantize-dequantize pairs in product epilogues: INT8 after a wgmma
    # product of f16 (then a Relu), float8 after an f32 product.
    ("matmul_wgmma_qdq_int8_relu_f16", [n("MatMul", ["a", "b"], ["m"]),
                                        n("QuantizeLinear", ["m", "qs_h16", "qz_i8"], ["q"]),
                                        n("DequantizeLinear", ["q", "qs_h16", "qz_i8"], ["d"]),
                                        n("Relu", ["d"], ["y"])],
     [("a", H, [2, 200, 256]), ("b", H, [256, 192])], [("y", H, [2, 200, 192])]),
    ("matmul_qdq_fp8_f32", [n("MatMul", ["a", "b"], ["m"]),
                            n("QuantizeLinear", ["m", "qs_f8", "qz_f8"], ["q"]),
                            n("DequantizeLinear", ["q", "qs_f8", "qz_f8"], ["y"])],
     [("a", F, [33, 70]), ("b", F, [70, 50])], [("y", F, [33, 50])]),
    # 8-bit products (brrr-quantized-products): an INT8 activation of
    # batched rows times an INT8 weight with a scale per column, a bias
    # after (s8 x s8 into s32); a float8 Gemm of ragged rows and columns,
    # its weight transposed (K-major already), 96 deep (a partial slice),
    # with a bias (e4m3 x e4m3 into f32).
    ("qmatmul_int8_per_column_f16",
     qdq_product("qa_h", "qz0_i8", "qw_i8", "qw_s200", "qw_z200", "qb200"),
     [("x", H, [2, 77, 256])], [("y", H, [2, 77, 200])]),
    ("qmatmul_fp8_gemm_ragged_f32",
     qdq_product("qa_f8", "qz_f8", "qw_f8", "qw_f8s", "qz_f8", "qb130", transposed=True),
     [("x", F, [70, 96])], [("y", F, [70, 130])]),
    # Two float8 products in a row: the first quantizes its output (bias
    # added) for the second in its epilogue and stores the bytes, two a
    # conversion.
    ("qmatmul_fp8_chain_f32",
     qdq_product("qa_f8", "qz_f8", "qw_f8q", "qw_f8s", "qz_f8", "qb96", transposed=True)
     + [n("QuantizeLinear", ["y", "qa2_f8", "qz_f8"], ["q2"]),
        n("DequantizeLinear", ["q2", "qa2_f8", "qz_f8"], ["a2"]),
        n("DequantizeLinear", ["qw_f8", "qw_f8s", "qz_f8"], ["w2"]),
        n("Gemm", ["a2", "w2", "qb130"], ["y2"], transB=1)],
     [("x", F, [70, 96])], [("y2", F, [70, 130])]),
    # A UINT8 activation with a zero point (onnxruntime's default), an INT8
    # weight with a scale per column: read as INT8 128 less, the zero
    # point's column sums subtracted in the epilogue.
    ("qmatmul_uint8_zero_point_f16",
     qdq_product("qa_h", "qz_u8_117", "qw_i8", "qw_s200", "qw_z200", "qb200"),
     [("x", H, [3, 77, 256])], [("y", H, [3, 77, 200])]),
    # Float8 Gemms eight slices deep: 17 x 6 tiles of 128 x 192, one block
    # each (and an alias below with fast sums), and 17 x 12, more than the
    # multiprocessors: a persistent grid walks them.
    ("qmatmul_fp8_deep_f32",
     qdq_product("qa_f8", "qz_f8", "qw_f8d", "qw_f8s", "qz_f8", "qb1100", transposed=True),
     [("x", F, [2100, 1024])], [("y", F, [2100, 1100])]),
    ("qmatmul_fp8_deep_persistent_f32",
     qdq_product("qa_f8", "qz_f8", "qw_f8p", "qw_f8s", "qz_f8", "qb2200", transposed=True),
     [("x", F, [2100, 1024])], [("y", F, [2100, 2200])]),
    # An INT8 product of 2100 x 512 x 1100: 17 x 5 tiles of 128 x 256, one
    # block each (and 17 x 9 of 128 x 128 on the overlapped schedule,
    # kernel_cases.py).
    ("qmatmul_int8_wide_f16",
     qdq_product("qa_h", "qz0_i8", "qw_i8w", "qw_s1100", "qw_z1100", "qb1100_h"),
     [("x", H, [2100, 512])], [("y", H, [2100, 1100])]),
    # 8-bit convolutions (brrr-quantized-products) on the Hopper body:
    # a UINT8 activation with a zero point through a padded 3 x 3 window of
    # stride 2 over a ragged 19 x 23 image, 64 channels (half of a 128-deep
    # slice), INT8 weights with a scale per output channel (the padding's
    # zero point corrected per output pixel); an INT8 1 x 1 convolution of
    # 256 channels (two slices); a float8 3 x 3 one of 160 channels (a
    # whole slice and a partial one per tap) into 130 outputs.
    ("qconv_uint8_zero_point_pad_f16",
     qdq_conv("qa_h", "qz_u8_117", "qcw_i8", "qcw_s96", "qcw_z96", "qcb96",
              pads=[1, 1, 1, 1], strides=[2, 2]),
     [("x", H, [3, 64, 19, 23])], [("y", H, [3, 96, 10, 12])]),
    # An INT8 3 x 3 convolution of 16 x 64 x 29 x 31 into 256 channels:
    # 113 tiles of 128 x 256, one block each (and 113 x 2 of 128 x 128 on
    # the overlapped schedule, kernel_cases.py), the last row tile ragged.
    ("qconv_int8_wide_f16",
     qdq_conv("qa_h", "qz0_i8", "qcw3w_i8", "qcw_s256", "qcw_z256", "qcb256",
              pads=[1, 1, 1, 1]),
     [("x", H, [16, 64, 29, 31])], [("y", H, [16, 256, 29, 31])]),
    ("qconv_int8_1x1_f16",
     qdq_conv("qa_h", "qz0_i8", "qcw1_i8", "qw_s200", "qw_z200", "qb200"),
     [("x", H, [2, 256, 13, 11])], [("y", H, [2, 200, 13, 11])]),
    ("qconv_fp8_ragged_f32",
     qdq_conv("qa_f8", "qz_f8", "qcw_f8", "qw_f8s", "qz_f8", "qb130", pads=[1, 1, 1, 1],
              per_channel=False),
     [("x", F, [2, 160, 14, 15])], [("y", F, [2, 130, 14, 15])]),
    # Groups' channels of 64 or 32 bytes over several taps: each slice
    # holds two taps of 64 channels (a float8 3 x 3 convolution over a
    # ragged image; the UINT8 one above too) or four of 32 (an INT8 5 x 5
    # one of stride 2, 25 taps in seven slices, the last one's three past
    # the last tap against zero weights).
    ("qconv_fp8_taps_c64_f32",
     qdq_conv("qa_f8", "qz_f8", "qcw64_f8", "qw_f8s", "qz_f8", "qb130", pads=[1, 1, 1, 1],
              per_channel=False),
     [("x", F, [3, 64, 13, 10])], [("y", F, [3, 130, 13, 10])]),
    ("qconv_int8_taps_c32_5x5_f16",
     qdq_conv("qa_h", "qz0_i8", "qcw5_i8", "qcw_s96", "qcw_z96", "qcb96",
              pads=[2, 2, 2, 2], strides=[2, 2]),
     [("x", H, [2, 32, 15, 17])], [("y", H, [2, 96, 8, 9])]),
    # A 16-bit convolution's output both returned and quantized for an
    # 8-bit one: its kernel stores both (f16 and INT8).
    ("qconv_kept_f16",
     [n("Conv", ["x", "qk_wa"], ["c"], pads=[1, 1, 1, 1]), n("Relu", ["c"], ["r"])]
     + qdq_conv("qa_h", "qz0_i8", "qcw1b_i8", "qcw_s96", "qcw_z96", "qcb96", source="r"),
     [("x", H, [2, 64, 12, 12])], [("r", H, [2, 64, 12, 12]), ("y", H, [2, 96, 12, 12])]),
    # A residual block quantized as --precision=int8 writes it: the INT8
    # activation read by the convolution and, dequantized, by the addition
    # after it; the sum's ReLU quantized again. The quantize kernel stores
    # the activation in 8 bits alone, and the convolution's epilogue reads
    # it in 8 bits and stores its output in 8 bits.
    ("qconv_int8_residual_f16",
     [n("QuantizeLinear", ["x", "qa_h", "qz0_i8"], ["q"]),
      n("DequantizeLinear", ["q", "qa_h", "qz0_i8"], ["a"]),
      n("DequantizeLinear", ["qcwr_i8", "qcw_s64", "qcw_z64"], ["w"], axis=0),
      n("Conv", ["a", "w", "qcb64"], ["c"], pads=[1, 1, 1, 1]),
      n("Add", ["c", "a"], ["s"]), n("Relu", ["s"], ["r"]),
      n("QuantizeLinear", ["r", "qs_r", "qz0_i8"], ["qr"]),
      n("DequantizeLinear", ["qr", "qs_r", "qz0_i8"], ["y"])],
     [("x", H, [2, 64, 13, 11])], [("y", H, [2, 64, 13, 11])]),
]

# Float8 types and f16 scales need opset 19; per-axis INT8 runs at 17.
QUANT_OPSETS = {name: 19 for name, *_ in QUANT_CASES
                if name != "qdq_int8_per_channel_ragged"}

QUANT_TOLERANCES = {
    # A product's rounding order differs from torch's: a value on a
    # quantization boundary may round to the next step (a few of
    # thousands); a wrong scale, zero point or clamp is far off.
    "matmul_wgmma_qdq_int8_relu_f16": 1e-2, "matmul_qdq_fp8_f32": 1e-2,
    "qmatmul_fp8_chain_f32": 1e-2,
    # 8-bit products: the same 8-bit operands as the reference,
    # INT8 summed exactly (the f16 output's rounding), float8 in
    # the Tensor Cores' shorter accumulation within a 128-deep
    # slice (1.96e-4 measured at 96 deep), the slices' sums added
    # in f32; fast sums run that accumulation over all 1024.
    "qmatmul_int8_per_column_f16": 2e-3, "qmatmul_fp8_gemm_ragged_f32": 1e-3,
    "qmatmul_uint8_zero_point_f16": 2e-3,
    "qmatmul_fp8_deep_f32": 5e-4, "qmatmul_fp8_deep_persistent_f32": 5e-4,
    # 8-bit convolutions: the same, INT8 sums exact (the zero point's
    # correction exact in f32), float8 slices promoted.
    "qconv_uint8_zero_point_pad_f16": 2e-3, "qconv_int8_1x1_f16": 2e-3,
    "qconv_fp8_ragged_f32": 1e-3, "qconv_fp8_taps_c64_f32": 1e-3,
    "qconv_int8_taps_c32_5x5_f16": 2e-3,
    # A value on a quantization boundary may round to the next step.
    "qconv_kept_f16": 1e-2, "qconv_int8_residual_f16": 1e-2,
    "qmatmul_fp8_deep_fast_f32": 5e-3, "qmatmul_fp8_deep_pingpong_f32": 5e-4,
    "qmatmul_int8_wide_f16": 2e-3, "qmatmul_int8_overlapped_f16": 2e-3,
    "qmatmul_fp8_deep_overlapped_f32": 5e-4,
    "qconv_int8_wide_f16": 2e-3, "qconv_int8_overlapped_f16": 2e-3,
}
