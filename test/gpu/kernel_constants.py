"""The constant initializers of the generated kernel cases
(kernel_cases.py), by the names their graphs read: shapes, axes, scalars
and deterministic weights (stem_weights, which kernel_references_conv.py
rebuilds in float64 for its references).

Run with Debian's /usr/bin/python3 (onnx, numpy).
"""

import numpy as np
from onnx import TensorProto, helper

BF = TensorProto.BFLOAT16


def stem_weights(o, c, k):
    """Deterministic conv weights that run_checks.py rebuilds for its reference."""
    i = np.arange(o * c * k * k, dtype=np.float64).reshape(o, c, k, k)
    return (np.sin(i * 0.37) / 8).astype(np.float16)


CONSTANTS = {
    # Resize's sizes and scales (kernel_cases.py's resize_*).
    "rs_sizes1": np.array([2, 5, 13, 20], np.int64),
    "rs_sizes2": np.array([1, 3, 17, 4], np.int64),
    "rs_sizes3": np.array([1, 2, 8, 3], np.int64),
    "rs_scales1": np.array([1, 1, 2, 3], np.float32),
    "rs_scales2": np.array([1, 1, 1.5, 0.7], np.float32),
    # ConvNeXt's layer scale: [C, 1, 1] against an NCHW activation.
    "gamma64": np.linspace(-1.0, 1.0, 64).reshape(64, 1, 1).astype(np.float16),
    "s2": np.array(np.sqrt(2.0), np.float16), "one": np.array(1.0, np.float16),
    "half": np.array(0.5, np.float16), "four": np.array(4.0, np.float32),
    "axis0": np.array([0], np.int64), "axes02": np.array([0, 2], np.int64),
    "ax12": np.array([1, 2], np.int64),
    "s0": np.array([0], np.int64), "s128": np.array([128], np.int64),
    "s256": np.array([256], np.int64), "s384": np.array([384], np.int64),
    "ax2": np.array([2], np.int64), "heads": np.array([2, 64, 4, 32], np.int64),
    "merged": np.array([2, 72, 128], np.int64), "zero": np.array(0.0, np.float32),
    "bshd": np.array([2, 77, 3, 64], np.int64), "bsm": np.array([2, 77, 192], np.int64),
    "qk_scale": np.array(64 ** -0.25, np.float16), "zero16": np.array(0.0, np.float16),
    "c16": np.array(32 ** -0.5, np.float16), "low16": np.array(-65504.0, np.float16),
    "c256": np.array(256 ** -0.5, np.float16), "c96": np.array(96 ** -0.5, np.float16),
    "stem_w7": stem_weights(24, 3, 7), "stem_w3": stem_weights(16, 4, 3),
    "stem_w5": stem_weights(32, 2, 5),
    "split_w": stem_weights(256, 256, 3) / 4, "dw_w": stem_weights(96, 1, 3) * 4,
    "pg_w16": stem_weights(256, 16, 3), "pg_w32": stem_weights(128, 32, 3),
    "pg_w4": stem_weights(128, 4, 3), "pg_w24": stem_weights(120, 24, 3),
    "tok_w1": stem_weights(196, 384, 1).reshape(196, 384) / 4,
    "tok_w2": stem_weights(384, 196, 1).reshape(384, 196) / 4,
    "patch_w16": stem_weights(64, 3, 16), "patch_b16": stem_weights(64, 1, 1).reshape(64),
    "patch_w4": stem_weights(8, 3, 4).astype(np.float32),
    "patch_tokens": np.array([2, 64, 24], np.int64),
    "mw_q": stem_weights(64, 64, 1).reshape(64, 64),
    "mw_k": stem_weights(64, 64, 1).reshape(64, 64).T.copy(),
    "mw_v": stem_weights(64, 64, 2).reshape(64, 256)[:, :64].copy(),
    "mq_heads": np.array([2, 77, 2, 32], np.int64), "mq_merged": np.array([2, 77, 64], np.int64),
    "mb_q": stem_weights(64, 1, 1).reshape(64), "mb_k": -stem_weights(64, 1, 1).reshape(64),
    "six16": np.array(6.0, np.float16), "three16": np.array(3.0, np.float16),
    "gelu_c16": np.array(0.044715, np.float16),
    "gelu_s16": np.array(np.sqrt(2 / np.pi), np.float16),
    "two32": np.array(2.0, np.float32), "three32": np.array(3.0, np.float32),
    "k5": np.array([5], np.int64), "k10": np.array([10], np.int64),
    "k100": np.array([100], np.int64), "depth10": np.array(10, np.int64),
    "chain_reflect": np.array([0, 1, 2, 0, 0, 2, 1, 0], np.int64),
    "chain_starts": np.array([0], np.int64), "chain_ends": np.array([13], np.int64),
    "axis1": np.array(1, np.int64),
    "chain_axes": np.array([1], np.int64), "chain_steps": np.array([2], np.int64),
    "chain_shape": np.array([2, 7, 45], np.int64),
    "chain_pads": np.array([0, 0, 0, 0, 0, 3], np.int64),
    "chain_shape2": np.array([2, 3, 8], np.int64),
    "chain_pads2": np.array([0, 0, 1, 0, 0, 0], np.int64), "seven": np.array(7.0, np.float32),
    "keep3x150": np.broadcast_to(np.tril(np.ones((150, 150), bool)), (3, 1, 150, 150)).copy(),
    "tril130": np.tril(np.ones((130, 130), bool)).reshape(1, 1, 130, 130),
    "gpt_heads": np.array([2, 130, 2, 32], np.int64), "gpt_merged": np.array([4, 130, 32], np.int64),
    "gpt_keys": np.array([2, 2, 32, 130], np.int64), "gpt_mask": np.array([2, 1, 130, 130], np.int64),
    "gpt_out": np.array([2, 130, 64], np.int64),
    "roll0": np.array([0], np.int64), "roll_h": np.array([1], np.int64),
    "roll_w": np.array([2], np.int64), "roll3": np.array([3], np.int64),
    "roll14": np.array([14], np.int64),
    "ragged_pads": np.array([0, 0, 1, 0, 0, 0], np.int64),
    "roll13": np.array([13], np.int64), "roll16": np.array([16], np.int64),
    "last": np.array([-1], np.int64),
    "win_split": np.array([2, 2, 7, 2, 7, 16], np.int64),
    "win_rev48": np.array([2, 2, 2, 7, 7, 48], np.int64),
    "win_img48": np.array([2, 14, 14, 48], np.int64),
    "win_split48": np.array([2, 2, 7, 2, 7, 48], np.int64),
    "win_tokens48": np.array([8, 49, 48], np.int64),
    "heads13": np.array([1], np.int64), "heads3": np.array([3], np.int64),
    "win_tokens": np.array([8, 49, 16], np.int64),
    "pm00": np.array([0, 0], np.int64), "pm10": np.array([1, 0], np.int64),
    "pm01": np.array([0, 1], np.int64), "pm11": np.array([1, 1], np.int64),
    "pm_end": np.array([14, 14], np.int64), "pm_axes": np.array([1, 2], np.int64),
    "pm_steps": np.array([2, 2], np.int64),
    "sw_qkv": stem_weights(64, 192, 1).reshape(64, 192),
    "sb_qkv": stem_weights(192, 1, 1).reshape(192),
    "sw_heads": np.array([8, 49, 3, 2, 32], np.int64), "sw_out": np.array([8, 49, 64], np.int64),
    "g0": np.array(0, np.int64), "g1": np.array(1, np.int64), "g2": np.array(2, np.int64),
    "eps6": np.array(1e-6, np.float32),
    "eps3_16": np.array(1e-3, np.float16), "eps12": np.array(1e-12, np.float32),
    "gqa_unsq": np.array([2, 2, 1, 100, 32], np.int64),
    "gqa_rep": np.array([2, 2, 2, 100, 32], np.int64),
    "gqa_heads": np.array([2, 4, 100, 32], np.int64),
    "win_scores": np.array([2, 4, 2, 49, 49], np.int64),
    "win_mask": np.array([1, 4, 1, 49, 49], np.int64),
    "win_back": np.array([8, 2, 49, 49], np.int64),
    "tv_unflat": np.array([1, 77, 2, 3, 64], np.int64),
    "tv_stack": np.array([3, 77, 2, 64], np.int64), "tv_heads": np.array([77, 4, 32], np.int64),
    "tv_bh": np.array([2, 2, 77, 32], np.int64), "tv_kt": np.array([2, 2, 32, 77], np.int64),
    "rw_q": stem_weights(64, 64, 1).reshape(64, 64),
    "rw_k": stem_weights(64, 32, 1).reshape(64, 32),
    "rw_v": (stem_weights(64, 32, 1).reshape(64, 32) * -1).copy(),
    "rq_heads": np.array([2, 77, 2, 32], np.int64), "rk_heads": np.array([2, 77, 1, 32], np.int64),
    "rk_unsq": np.array([2, 1, 1, 77, 32], np.int64),
    "rk_rep": np.array([2, 1, 2, 77, 32], np.int64),
    "rq_bhsd": np.array([2, 2, 77, 32], np.int64),
    "r0": np.array([0], np.int64), "r16": np.array([16], np.int64),
    "r32": np.array([32], np.int64), "r_last": np.array([-1], np.int64),
    "lane_pads": np.array([0, 4, 0, 0], np.int64), "one32": np.array(1.0, np.float32),
    "lane_wide": np.array([999, 16], np.int64),
    "cols": np.arange(200, dtype=np.int64).reshape(1, 1, 1, 200),
    "rows": np.arange(200, dtype=np.int64).reshape(1, 1, 200, 1),
    # GPT-Neo's masks: f32's lowest, the causal one over 150 positions and
    # a local one (the last 32 positions up to each query's).
    "low32": np.array(np.finfo(np.float32).min, np.float32),
    "tril150": np.tril(np.ones((150, 150), bool)).reshape(1, 1, 150, 150),
    "band150": (np.tril(np.ones((150, 150), bool))
                & ~np.tril(np.ones((150, 150), bool), -32)).reshape(1, 1, 150, 150),
    # A squeeze-and-excitation block's constant weights (96 -> 4 -> 96).
    "se_w1": stem_weights(4, 96, 1) * 2, "se_b1": stem_weights(4, 1, 1).reshape(4),
    "se_w2": stem_weights(96, 4, 1) * 4, "se_b2": stem_weights(96, 1, 1).reshape(96),
    # Two ShuffleNetV2 blocks of 60 channels (kernel_cases_conv.py's
    # shuffle_block): the 1x1 before them, each block's weights, the split
    # and the shuffle's shapes.
    "sh_w0": stem_weights(60, 60, 1) / 4, "sh_w1": stem_weights(30, 30, 1) / 2,
    "sh_b1": stem_weights(30, 1, 1).reshape(30), "sh_wd": stem_weights(30, 1, 3) * 2,
    "sh_bd": -stem_weights(30, 1, 1).reshape(30), "sh_w2": -stem_weights(30, 30, 1) / 2,
    "sh_split": np.array([30, 30], np.int64),
    # Constant weights of few-row products (kernel_cases.py's
    # matmul_few_rows_*), stored K-major at compile time.
    "fr_w16": stem_weights(200, 77, 1).reshape(200, 77),
    "fr_w32": stem_weights(517, 300, 1).reshape(517, 300).astype(np.float32),
    "sh_groups": np.array([2, 2, 30, 9, 11], np.int64),
    "sh_merged": np.array([2, 60, 9, 11], np.int64),
    # Quantization: per-channel INT8 scales and zero points over 301
    # channels, a per-tensor UINT8 pair for f16, and a float8 scale small
    # enough that inputs of N(0, 1) saturate (|x| / s beyond 448).
    "qs301": np.linspace(0.01, 0.05, 301).astype(np.float32),
    "qz301": (np.arange(301) % 21 - 10).astype(np.int8),
    "qs_h": np.array(0.0125, np.float16), "qz_u8": np.array(128, np.uint8),
    "qs_f8": np.array(0.004, np.float32),
    "qs_h16": np.array(0.0625, np.float16), "qz_i8": np.array(3, np.int8),
    # 8-bit products: an INT8 activation scale for f16 and zero point, an
    # INT8 weight 256 x 200 with a scale per column, its bias; a float8
    # activation scale, the float8 weight's (FLOAT8_WEIGHT) and its bias.
    "qa_h": np.array(0.03125, np.float16), "qz0_i8": np.array(0, np.int8),
    "qw_i8": np.random.default_rng(8).integers(-127, 128, (256, 200)).astype(np.int8),
    "qw_s200": np.random.default_rng(9).uniform(0.5, 2, 200).astype(np.float16) / 64,
    "qw_z200": np.zeros(200, np.int8), "qz_u8_117": np.array(117, np.uint8),
    "qb200": np.random.default_rng(10).standard_normal(200).astype(np.float16),
    "qa_f8": np.array(0.01, np.float32), "qw_f8s": np.array(0.02, np.float32),
    "qb130": np.random.default_rng(11).standard_normal(130).astype(np.float32),
    # A float8 product whose output a second one reads quantized (the
    # square weight FLOAT8_SQUARE_WEIGHT): its bias and the scale of its
    # quantized output.
    "qb96": np.random.default_rng(17).standard_normal(96).astype(np.float32),
    "qa2_f8": np.array(0.25, np.float32),
    "qb1100": np.random.default_rng(14).standard_normal(1100).astype(np.float32),
    "qb2200": np.random.default_rng(16).standard_normal(2200).astype(np.float32),
    # A wider INT8 product: a weight 512 x 1100 with a scale per column, an
    # f16 bias.
    "qw_i8w": np.random.default_rng(45).integers(-127, 128, (512, 1100)).astype(np.int8),
    "qw_s1100": np.random.default_rng(46).uniform(0.5, 2, 1100).astype(np.float16) / 64,
    "qw_z1100": np.zeros(1100, np.int8),
    "qb1100_h": np.random.default_rng(47).standard_normal(1100).astype(np.float16),
    # A wider INT8 3 x 3 convolution 64 -> 256, a scale per output channel,
    # an f16 bias.
    "qcw3w_i8": np.random.default_rng(48).integers(-127, 128, (256, 64, 3, 3)).astype(np.int8),
    "qcw_s256": np.random.default_rng(49).uniform(0.5, 2, 256).astype(np.float16) / 64,
    "qcw_z256": np.zeros(256, np.int8),
    "qcb256": np.random.default_rng(50).standard_normal(256).astype(np.float16),
    # 8-bit convolutions: INT8 3 x 3 weights 96 x 64 with a scale per
    # output channel and a bias, INT8 1 x 1 weights 200 x 256 (the
    # products' scales and bias above).
    "qcw_i8": np.random.default_rng(19).integers(-127, 128, (96, 64, 3, 3)).astype(np.int8),
    "qcw_s96": np.random.default_rng(20).uniform(0.5, 2, 96).astype(np.float16) / 64,
    "qcw_z96": np.zeros(96, np.int8),
    "qcb96": np.random.default_rng(21).standard_normal(96).astype(np.float16),
    "qcw1_i8": np.random.default_rng(22).integers(-127, 128, (200, 256, 1, 1)).astype(np.int8),
    # A 16-bit convolution 64 -> 64 (3 x 3) whose output an INT8 1 x 1
    # convolution 64 -> 96 reads quantized.
    "qk_wa": (np.random.default_rng(23).standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float16),
    "qcw1b_i8": np.random.default_rng(24).integers(-127, 128, (96, 64, 1, 1)).astype(np.int8),
    # An INT8 5 x 5 convolution 32 -> 96 (32-byte boxes, four taps a
    # slice), the 3 x 3 one's scales and bias.
    "qcw5_i8": np.random.default_rng(25).integers(-127, 128, (96, 32, 5, 5)).astype(np.int8),
    # A residual block's INT8 3 x 3 convolution 64 -> 64, its scales and
    # bias, and the scale its output is quantized by.
    "qcwr_i8": np.random.default_rng(26).integers(-127, 128, (64, 64, 3, 3)).astype(np.int8),
    "qcw_s64": np.random.default_rng(27).uniform(0.5, 2, 64).astype(np.float16) / 64,
    "qcw_z64": np.zeros(64, np.int8),
    "qcb64": np.random.default_rng(28).standard_normal(64).astype(np.float16),
    "qs_r": np.array(0.5, np.float16),
    # Gated pairs' weights (kernel_cases_matmul.py's matmul_gated_*).
    "gt_wg": stem_weights(1536, 520, 1).reshape(1536, 520) / 4,
    "gt_wu": -stem_weights(520, 1536, 1).reshape(1536, 520) / 4,
    "gp_wg": stem_weights(1000, 1536, 1).reshape(1536, 1000) / 4,
    "gp_wu": stem_weights(1536, 1000, 1).reshape(1536, 1000) / 8,
    "gc_w": stem_weights(272, 256, 1).reshape(256, 272),
    "gc_split": np.array([136, 136], np.int64),
    "gs_wg": stem_weights(256, 136, 1).reshape(256, 136),
    "gs_wu": stem_weights(136, 256, 1).reshape(256, 136) / 2}

# Initializers numpy cannot hold (bfloat16, float8), by name. FLOAT8E4M3FN
# (17) is newer than the onnx package here: a raw byte.
def float8_zero(name):
    t = TensorProto(name=name, data_type=17)
    t.raw_data = b"\x00"
    return t


def float8_bytes(shape, seed):
    """Random FLOAT8E4M3FN bytes of `shape`: every finite value (not the
    NaNs 0x7f and 0xff) equally likely."""
    b = np.random.default_rng(seed).integers(0, 254, shape).astype(np.uint8)
    return np.where(b >= 0x7f, b + 1, b).astype(np.uint8)


def float8_tensor(name, values):
    t = TensorProto(name=name, data_type=17, dims=list(values.shape))
    t.raw_data = values.tobytes()
    return t


# The float8 weights of 8-bit products (a Gemm's transposed B): 130 x 96,
# and 1100 x 1024 and 2200 x 1024 (eight 128-deep slices).
FLOAT8_WEIGHT = float8_bytes((130, 96), 12)
FLOAT8_DEEP_WEIGHT = float8_bytes((1100, 1024), 13)
FLOAT8_WIDE_WEIGHT = float8_bytes((2200, 1024), 15)
FLOAT8_SQUARE_WEIGHT = float8_bytes((96, 96), 16)
# A float8 convolution's 130 x 160 x 3 x 3 weights, and one's of 130 x 64
# x 3 x 3 (two taps of 64 channels a slice).
FLOAT8_CONV_WEIGHT = float8_bytes((130, 160, 3, 3), 18)
FLOAT8_CONV64_WEIGHT = float8_bytes((130, 64, 3, 3), 26)

TENSOR_CONSTANTS = {"root128": helper.make_tensor("root128", BF, [], [11.3125]),
                    "root80": helper.make_tensor("root80", BF, [], [8.9375]),
                    "qz_f8": float8_zero("qz_f8"),
                    "qw_f8": float8_tensor("qw_f8", FLOAT8_WEIGHT),
                    "qw_f8d": float8_tensor("qw_f8d", FLOAT8_DEEP_WEIGHT),
                    "qw_f8p": float8_tensor("qw_f8p", FLOAT8_WIDE_WEIGHT),
                    "qw_f8q": float8_tensor("qw_f8q", FLOAT8_SQUARE_WEIGHT),
                    "qcw_f8": float8_tensor("qcw_f8", FLOAT8_CONV_WEIGHT),
                    "qcw64_f8": float8_tensor("qcw64_f8", FLOAT8_CONV64_WEIGHT)}
