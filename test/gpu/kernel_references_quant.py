"""The quantization cases of kernel_references.py (QuantizeLinear,
DequantizeLinear, float8 casts and quantized products): their float64
references, computed as ONNX defines the ops.

Runs where torch does (the GPU machine).
"""

import numpy as np
import torch


def quantize_reference(name, xs):
    """QuantizeLinear then DequantizeLinear as ONNX defines them, in f32
    like the kernels (x / scale rounded once to f32; the dequantized
    product too): any difference is a bug, not rounding."""
    from kernel_constants import CONSTANTS
    c = {k: torch.from_numpy(np.asarray(v)) for k, v in CONSTANTS.items()
         if k.startswith("q")}
    x = xs[0].float()
    f8 = torch.float8_e4m3fn
    if name == "qdq_int8_per_channel_ragged":
        s, z = c["qs301"], c["qz301"].float()
        q = torch.clamp(torch.round(x / s) + z, -128, 127)
        return [((q - z) * s).double()]
    if name == "qdq_uint8_f16":
        s, z = c["qs_h"].float(), c["qz_u8"].float()
        q = torch.clamp(torch.round(x / s) + z, 0, 255)
        return [((q - z) * s).half().double()]
    s = c["qs_f8"]
    if name == "qdq_fp8_transpose_f32":
        q = torch.clamp(x / s, -448, 448).to(f8)
        return [(q.float() * s).t().double()]
    if name == "qdq_fp8_no_saturate":
        # torch's conversion does not saturate: beyond 464 it is NaN.
        return [((x / s).to(f8).float() * s).double()]
    if name == "cast_fp8_f16":
        return [torch.clamp(x, -448, 448).to(f8).half().double()]
    if name == "layernorm_qdq_fp8_uint8_f16":
        # The kernel quantizes the norm as it holds it, in f32 (a fused f16
        # value is rounded where it is stored), and stores it in f16.
        y = torch.nn.functional.layer_norm(xs[0].double(), (520,), xs[1].double(),
                                           xs[2].double(), 1e-5).float()
        s8, z = c["qs_h"].float(), c["qz_u8"].float()
        qf = torch.clamp(y / s8, -448, 448).to(f8)
        qu = torch.clamp(torch.round(y / s8) + z, 0, 255)
        return [y.half().double(), (qf.float() * s8).half().double(),
                ((qu - z) * s8).half().double()]
    if name == "matmul_wgmma_qdq_int8_relu_f16":
        # The product in f32 (the kernel accumulates f16 products in f32).
        m = xs[0].float() @ xs[1].float()
        s, z = c["qs_h16"].float(), c["qz_i8"].float()
        q = torch.clamp(torch.round(m / s) + z, -128, 127)
        return [torch.relu((q - z) * s).half().double()]
    if name == "matmul_qdq_fp8_f32":
        m = (xs[0].double() @ xs[1].double()).float()
        q = torch.clamp(m / s, -448, 448).to(f8)
        return [(q.float() * s).double()]
    if name == "qmatmul_uint8_zero_point_f16":
        sa, z = c["qa_h"].float(), 117.0
        q = torch.clamp(torch.round(x / sa) + z, 0, 255)
        w = c["qw_i8"].double() * c["qw_s200"].double()
        return [(((q - z).double() * sa.double()) @ w + c["qb200"].double()).half().double()]
    if name in ("qmatmul_int8_per_column_f16", "qmatmul_int8_wide_f16"):
        wide = name == "qmatmul_int8_wide_f16"
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(x / sa), -128, 127)
        w = (c["qw_i8w"].double() * c["qw_s1100"].double() if wide
             else c["qw_i8"].double() * c["qw_s200"].double())
        bias = c["qb1100_h" if wide else "qb200"].double()
        return [((q.double() * sa.double()) @ w + bias).half().double()]
    if name == "qmatmul_fp8_chain_f32":
        # The first product in f32, as its kernel sums it, then quantized.
        from kernel_constants import FLOAT8_SQUARE_WEIGHT, FLOAT8_WEIGHT
        sa, sa2, sw = c["qa_f8"], c["qa2_f8"], c["qw_f8s"].double()

        def weight(w):
            return torch.from_numpy(w.copy()).view(f8).double() * sw
        q = torch.clamp(x / sa, -448, 448).to(f8)
        y1 = ((q.double() * sa.double()) @ weight(FLOAT8_SQUARE_WEIGHT).t()
              + c["qb96"].double()).float()
        q2 = torch.clamp(y1 / sa2, -448, 448).to(f8)
        return [(q2.double() * sa2.double()) @ weight(FLOAT8_WEIGHT).t()
                + c["qb130"].double()]
    conv2d = torch.nn.functional.conv2d
    if name == "qconv_uint8_zero_point_pad_f16":
        sa, z = c["qa_h"].float(), 117.0
        q = torch.clamp(torch.round(x / sa) + z, 0, 255)
        w = c["qcw_i8"].double() * c["qcw_s96"].double().reshape(96, 1, 1, 1)
        return [conv2d((q - z).double() * sa.double(), w, c["qcb96"].double(),
                       stride=2, padding=1).half().double()]
    if name == "qconv_int8_wide_f16":
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(x / sa), -128, 127)
        w = c["qcw3w_i8"].double() * c["qcw_s256"].double().reshape(256, 1, 1, 1)
        return [conv2d(q.double() * sa.double(), w, c["qcb256"].double(),
                       padding=1).half().double()]
    if name == "qconv_int8_1x1_f16":
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(x / sa), -128, 127)
        w = c["qcw1_i8"].double() * c["qw_s200"].double().reshape(200, 1, 1, 1)
        return [conv2d(q.double() * sa.double(), w, c["qb200"].double()).half().double()]
    if name == "qconv_kept_f16":
        # The 16-bit convolution as the kernel stores it (f16), quantized.
        r = torch.relu(conv2d(x.double(), c["qk_wa"].double(), padding=1)).half()
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(r.float() / sa), -128, 127)
        w = c["qcw1b_i8"].double() * c["qcw_s96"].double().reshape(96, 1, 1, 1)
        return [r.double(),
                conv2d(q.double() * sa.double(), w, c["qcb96"].double()).half().double()]
    if name == "qconv_int8_residual_f16":
        # The convolution's f16 output plus the dequantized activation, as
        # the model's types round them, then quantized by 0.5.
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(x / sa), -128, 127)
        a = (q * sa).half()
        w = c["qcwr_i8"].double() * c["qcw_s64"].double().reshape(64, 1, 1, 1)
        y = conv2d(a.double(), w, c["qcb64"].double(), padding=1).half()
        r = torch.relu(y.double() + a.double()).half()
        sr = c["qs_r"].float()
        return [(torch.clamp(torch.round(r.float() / sr), -128, 127) * sr).double()]
    if name == "qconv_int8_taps_c32_5x5_f16":
        sa = c["qa_h"].float()
        q = torch.clamp(torch.round(x / sa), -128, 127)
        w = c["qcw5_i8"].double() * c["qcw_s96"].double().reshape(96, 1, 1, 1)
        return [conv2d(q.double() * sa.double(), w, c["qcb96"].double(),
                       stride=2, padding=2).half().double()]
    if name in ("qconv_fp8_ragged_f32", "qconv_fp8_taps_c64_f32"):
        from kernel_constants import FLOAT8_CONV64_WEIGHT, FLOAT8_CONV_WEIGHT
        weight = (FLOAT8_CONV_WEIGHT if name == "qconv_fp8_ragged_f32"
                  else FLOAT8_CONV64_WEIGHT)
        sa = c["qa_f8"]
        q = torch.clamp(x / sa, -448, 448).to(f8)
        w = (torch.from_numpy(weight.copy()).view(f8).double()
             * c["qw_f8s"].double())
        return [conv2d(q.double() * sa.double(), w, c["qb130"].double(), padding=1)]
    if name.startswith("qmatmul_fp8_"):
        from kernel_constants import FLOAT8_DEEP_WEIGHT, FLOAT8_WEIGHT, FLOAT8_WIDE_WEIGHT
        weight, bias = {"qmatmul_fp8_gemm_ragged_f32": (FLOAT8_WEIGHT, "qb130"),
                        "qmatmul_fp8_deep_f32": (FLOAT8_DEEP_WEIGHT, "qb1100"),
                        "qmatmul_fp8_deep_persistent_f32": (FLOAT8_WIDE_WEIGHT, "qb2200")}[name]
        sa = c["qa_f8"]
        q = torch.clamp(x / sa, -448, 448).to(f8)
        w = torch.from_numpy(weight.copy()).view(f8).double() * c["qw_f8s"].double()
        bias = c[bias].double()
        return [(q.double() * sa.double()) @ w.t() + bias]
    raise KeyError(name)
