"""Inputs and float64 references for the generated kernel cases of the GPU
check corpus (kernel_cases.py), keyed by case name: fresh random inputs
from a torch generator, and each case's expression in torch on them (most
convolution cases' in kernel_references_conv.py, the matmul and attention
cases' in kernel_references_matmul.py).

Runs where torch does (the GPU machine; Debian's python3-torch here).
"""

import numpy as np
import torch

from kernel_references_conv import conv_inputs, conv_reference, stem_weights
from kernel_references_matmul import matmul_inputs, matmul_reference
from kernel_references_quant import quantize_reference


def torch_inputs(name, gen):
    """Fresh random inputs for a generated kernel case (torch CPU tensors)."""
    f = lambda *s, dt=torch.float32: torch.randn(*s, generator=gen).to(dt)
    if name == "cos_cos_ragged":
        return [f(1000003) * 10]
    if name == "cos_cos_4m":
        return [f(4, 1024, 1024) * 10]
    if name == "trig_two_vectors_f32":
        x = f(4100, 1057) * 10
        x.view(-1)[::97] *= 1e5  # beyond 105615: the range reduction's slow path
        return [x, f(1057) * 10]
    if name == "silu_every_f16":
        every = torch.arange(-2**15, 2**15, dtype=torch.int32).to(torch.int16)
        h = every.view(torch.float16)
        return [h[torch.isfinite(h)].reshape(62, 1024)]
    if name == "bias_gelu_f16":
        return [f(33, 520, dt=torch.float16), f(520, dt=torch.float16)]
    if name == "broadcast_where_bf16":
        return [f(3, 1, 257, dt=torch.bfloat16), f(5, 1, dt=torch.bfloat16)]
    if name == "int_mix":
        return [torch.randint(-2**20, 2**20, (999,), generator=gen),
                torch.randint(-2**20, 2**20, (999,), generator=gen)]
    if name == "bool_logic":
        return [f(17, 31), f(31), torch.rand(17, 1, generator=gen) > 0.5]
    if name == "multi_output_sigmoid_tanh":
        return [f(4096) * 4]
    if name == "cast_chain":
        return [f(64, 64).abs() * 100]
    if name == "softmax_f16":
        return [f(64, 4096, dt=torch.float16) * 4]
    if name == "softmax_ragged_f32":
        return [f(37, 999) * 4]
    if name == "logsoftmax_f32":
        return [f(128, 1000) * 4]
    if name == "layernorm_f16_two_axes":
        return [f(8, 12, 64, dt=torch.float16) * 3 + 1, f(12, 64, dt=torch.float16),
                f(12, 64, dt=torch.float16)]
    if name == "layernorm_ragged_f32":
        return [f(5, 513) * 3 + 1, f(513), f(513)]
    if name == "transpose_f16":
        return [f(33, 65, 130, dt=torch.float16)]
    if name == "reduce_mean_f16_trailing2":
        return [f(4, 16, 33, 31, dt=torch.float16) + 0.5]
    if name == "reduce_max_ragged_f32":
        return [f(9, 1001)]
    got = matmul_inputs(name, f)
    if got is not None:
        return got
    if name == "reduce_split_whole_max_f16":
        return [f(32, 128, 512, dt=torch.float16)]
    if name == "reduce_split_mean_keepdims_f16":
        return [f(2, 256, 1024, dt=torch.float16) + 0.5]
    if name == "reduce_cluster_rows_mean_f16":
        return [f(1, 75, 75, 144, dt=torch.float16) + 0.5]
    if name == "reduce_cluster_rows_sum_f32":
        return [f(1, 19, 19, 816)]
    if name == "gemm_staged_transb_bias_f32":
        return [f(200, 96), f(150, 96), f(150)]
    if name == "conv_staged_nchw_bias_relu_f32":
        return [f(4, 64, 28, 28), f(128, 64, 3, 3) / 8, f(128)]
    if name == "gemm_split_cluster_bias_f32":
        return [f(100, 900), f(900, 200), f(200)]
    if name == "conv_split_cluster_residual_f32":
        return [f(1, 512, 7, 7), f(512, 512, 3, 3) / 64, f(512), f(1, 512, 7, 7)]
    if name == "leading_sum_relu_f32":
        return [f(6, 33, 65)]
    if name == "reduce_split_rows_nhwc_mean_f16":
        return [f(32, 112, 112, 32, dt=torch.float16) + 0.5]
    if name == "reduce_split_rows_ragged_bf16":
        return [f(3, 17, 13, 40, dt=torch.bfloat16) + 0.5]
    if name == "reduce_split_rows_leading_f32":
        return [f(3000, 77)]
    if name == "reduce_split_rows_max_i64":
        return [torch.randint(-2**40, 2**40, (5, 300, 12), generator=gen)]
    if name in ("movement_roll_windows_f16", "movement_patch_merge_f16"):
        return [f(2, 14, 14, 16, dt=torch.float16)]
    if name == "rotary_llama_attention_f16":
        return [f(2, 77, 64, dt=torch.float16), f(77, 32, dt=torch.float16),
                f(77, 32, dt=torch.float16)]
    if name == "pointwise_roll_residual_f16":
        return [f(2, 14, 14, 16, dt=torch.float16) for _ in range(2)]
    if name == "pointwise_lanes_apart_f32":
        return [f(999, 6), f(999, 10), f(16, 999), f(999, 12), f(999, 1)]
    if name == "rmsnorm_llama_f16":
        return [f(3, 77, 2048, dt=torch.float16) * 3, f(2048, dt=torch.float16)]
    if name == "rmsnorm_f32":
        return [f(999, 96) * 3, f(96)]
    if name == "layernorm_packed_96_f16":
        return [f(3, 1001, 96, dt=torch.float16), f(96, dt=torch.float16),
                f(96, dt=torch.float16)]
    if name == "softmax_packed_20_f16":
        return [f(999, 20, dt=torch.float16) * 4]
    if name == "l2norm_heads_f16":
        x = f(2, 3, 65, 32) * 3
        x[1, 2, 7] *= 1e-5
        return [x.to(torch.float16), f(3, 1, 1, dt=torch.float16).abs() * 10]
    if name == "l2norm_clip_f32":
        x = f(999, 100)
        x[5] = 0
        return [x]
    if name == "l2norm_long_f32":
        return [f(3, 40000)]
    if name == "reduce_packed_sum_f32":
        return [f(7, 111, 40)]
    if name == "conv_patchify_tokens_f16":
        return [f(2, 3, 64, 96, dt=torch.float16)]
    if name == "conv_patchify_nchw_f32":
        return [f(2, 3, 32, 20)]
    if name == "pow_whole_exponents_f32":
        x = f(7, 1001) * 3
        x[0, :6] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.5])
        return [x]
    if name == "einsum_scores_f16":
        return [f(2, 3, 40, 64, dt=torch.float16), f(2, 3, 72, 64, dt=torch.float16) / 8]
    if name == "einsum_chain_bf16":
        return [f(3, 1, 24, 40, dt=torch.bfloat16), f(40, 32, dt=torch.bfloat16) / 8,
                f(4, 32, 16, dt=torch.bfloat16) / 8]
    if name == "cumsum_positions_i64":
        return [torch.randint(0, 2, (4, 300), generator=gen)]
    if name == "cumsum_reverse_exclusive_f16":
        return [f(3, 200, 7, dt=torch.float16)]
    if name == "gather_rows_negative":
        return [f(50, 64), torch.randint(-50, 50, (3, 7), generator=gen)]
    if name == "qdq_int8_per_channel_ragged":
        return [f(37, 301) * 2]
    if name == "qdq_uint8_f16":
        return [f(5, 999, dt=torch.float16)]
    if name == "qdq_fp8_transpose_f32":
        return [f(33, 65)]
    if name == "qdq_fp8_no_saturate":
        return [f(7, 513)]
    if name == "cast_fp8_f16":
        return [(f(3, 1001) * 200).to(torch.float16)]
    if name == "layernorm_qdq_fp8_uint8_f16":
        return [f(37, 520, dt=torch.float16), f(520, dt=torch.float16),
                f(520, dt=torch.float16)]
    if name == "qmatmul_int8_per_column_f16":
        return [f(2, 77, 256, dt=torch.float16)]
    if name == "qmatmul_int8_wide_f16":
        return [f(2100, 512, dt=torch.float16)]
    if name in ("qmatmul_fp8_gemm_ragged_f32", "qmatmul_fp8_chain_f32"):
        return [f(70, 96)]
    if name == "qmatmul_uint8_zero_point_f16":
        return [f(3, 77, 256, dt=torch.float16)]
    if name in ("qmatmul_fp8_deep_f32", "qmatmul_fp8_deep_persistent_f32"):
        return [f(2100, 1024)]
    if name == "qconv_uint8_zero_point_pad_f16":
        return [f(3, 64, 19, 23, dt=torch.float16)]
    if name == "qconv_int8_1x1_f16":
        return [f(2, 256, 13, 11, dt=torch.float16)]
    if name == "qconv_int8_wide_f16":
        return [f(16, 64, 29, 31, dt=torch.float16)]
    if name == "qconv_kept_f16":
        return [f(2, 64, 12, 12, dt=torch.float16)]
    if name == "qconv_int8_residual_f16":
        return [f(2, 64, 13, 11, dt=torch.float16)]
    if name == "qconv_fp8_ragged_f32":
        return [f(2, 160, 14, 15)]
    if name == "qconv_fp8_taps_c64_f32":
        return [f(3, 64, 13, 10)]
    if name == "qconv_int8_taps_c32_5x5_f16":
        return [f(2, 32, 15, 17, dt=torch.float16)]
    if name == "concat_25_ragged_f16":
        return [f(3, 5 + k, 7, dt=torch.float16) for k in range(25)]
    if name == "gather_elements_negative_f16":
        return [f(33, 70, dt=torch.float16), torch.randint(-70, 70, (33, 5), generator=gen)]
    if name == "gather_nd_batch_f32":
        return [f(4, 9, 7, 5), torch.stack([torch.randint(-9, 9, (4, 3), generator=gen),
                                            torch.randint(-7, 7, (4, 3), generator=gen)], -1)]
    if name == "scatter_nd_add_duplicates_f32":
        return [f(10, 7, 3), torch.randint(-10, 10, (6, 1), generator=gen), f(6, 7, 3)]
    if name == "scatter_nd_replace_f16":
        cells = torch.randperm(33 * 40, generator=gen)[:5]
        return [f(33, 40, dt=torch.float16),
                torch.stack([cells // 40, cells % 40], -1), f(5, dt=torch.float16)]
    if name == "scatter_elements_max_i64":
        return [torch.randint(-2**40, 2**40, (9, 13), generator=gen),
                torch.randint(-13, 13, (7, 4), generator=gen),
                torch.randint(-2**40, 2**40, (7, 4), generator=gen)]
    if name in ("gelu_range_f16", "gelu_range_bf16", "gelu_tanh_range_f16",
                "gelu_tanh_range_bf16"):
        dt = torch.float16 if name.endswith("_f16") else torch.bfloat16
        return [torch.linspace(-10, 10, 4 * 4096).reshape(4, 4096).to(dt)]
    if name == "onehot_axis1_f16":
        return [torch.randint(-12, 12, (37, 5), generator=gen),
                torch.tensor([-0.5, 3.0], dtype=torch.float16)]
    if name == "topk_rows_f16":
        return [f(37, 999, dt=torch.float16)]
    if name == "topk_axis0_bf16":
        return [f(64, 33, dt=torch.bfloat16)]
    if name == "topk_smallest_nan_ties_f32":
        x = torch.round(f(4, 300, 7) * 4) / 4
        x.view(-1)[torch.randint(0, x.numel(), (300,), generator=gen)] = float("nan")
        return [x]
    if name == "topk_sort_ties_i64":
        return [torch.randint(-5, 5, (16, 100), generator=gen)]
    if name == "isnan_isinf_where_f32":
        x = f(5, 301)
        special = torch.tensor([float("nan"), float("inf"), -float("inf")])
        picks = torch.randint(0, 5 * 301, (60,), generator=gen)
        x.view(-1)[picks] = special[torch.arange(60) % 3]
        return [x]
    if name == "reduce_all_i64_cooperative":
        return [torch.randint(-2**40, 2**40, (3, 1001, 37), generator=gen)]
    if name == "reduce_max_leading_few_f16":
        return [f(4096, 3, dt=torch.float16)]
    if name == "transposed_add_relu_f16":
        return [f(33, 65, 12, dt=torch.float16), f(12, 33, 65, dt=torch.float16)]
    if name == "movement_chain_f32":
        return [f(2, 3, 10, 12)]
    if name == "resize_linear_half_pixel_f16":
        return [f(2, 5, 7, 9, dt=torch.float16)]
    if name == "resize_linear_align_corners_f32":
        return [f(1, 3, 6, 11)]
    if name == "resize_nearest_scales_f32":
        return [f(2, 3, 5, 7)]
    if name == "resize_nearest_exact_f16":
        return [f(1, 2, 5, 7, dt=torch.float16)]
    if name == "resize_nearest_prefer_floor_f32":
        return [f(1, 1, 5, 6)]
    if name == "instance_norm_f16":
        return [f(2, 5, 7, 9, dt=torch.float16) * 3 + 1, f(5, dt=torch.float16),
                f(5, dt=torch.float16)]
    if name == "vocab_softmax_f16":
        return [f(8, 50257, dt=torch.float16) * 4]
    if name == "long_rows_logsoftmax_f32":
        return [f(3, 70001) * 4]
    if name == "long_rows_groupnorm_f16":
        return [f(2, 1, 200704, dt=torch.float16) * 2 + 3, f(1, dt=torch.float16),
                f(1, dt=torch.float16)]
    if name == "long_rows_mean_f32":
        return [f(64, 40000) + 1]
    if name == "transposed_softmax_axis1_f16":
        return [f(2, 37, 3, 40, dt=torch.float16) * 4]
    if name == "movement_ragged_vectors_f16":
        return [f(6, 5, 4, dt=torch.float16), f(2, 5, 16, dt=torch.float16)]
    if name == "movement_chain_reshape_i64":
        return [torch.randint(-2**40, 2**40, (2, 1, 6, 4), generator=gen)]
    if name == "transpose_tiled_nhwc_f32":
        return [f(3, 70, 5, 9)]
    if name == "transpose_tiled_nchw_i64":
        return [torch.randint(-2**40, 2**40, (2, 33, 35, 40), generator=gen)]
    if name == "transpose_tiled_matrix_f16":
        return [f(100, 67, dt=torch.float16)]
    if name == "leading_mean_f16":
        return [f(7, 33, 65, dt=torch.float16)]
    if name == "interleaved_sum_f32":
        return [f(4, 9, 5, 3)]
    if name == "int64_max_rows":
        return [torch.randint(-2**40, 2**40, (17, 40), generator=gen)]
    if name == "scaled_softmax_cast_f16":
        return [f(33, 777) * 8]
    if name == "residual_layernorm_relu_f16":
        return [f(8, 520, dt=torch.float16) * 2 + 1, f(8, 520, dt=torch.float16),
                f(520, dt=torch.float16), f(520, dt=torch.float16)]
    if name == "post_norm_residual_192_f16":
        return [f(37, 192, dt=torch.float16) * 2 + 1, f(37, 192, dt=torch.float16),
                f(192, dt=torch.float16), f(192, dt=torch.float16)]
    if name == "residual_layernorm_384_f16":
        return [f(3, 7, 384, dt=torch.float16) * 2 + 1, f(3, 7, 384, dt=torch.float16),
                f(384, dt=torch.float16), f(384, dt=torch.float16)]
    if name == "post_norm_residual_200_f32":
        return [f(45, 200) * 2 + 1, f(45, 200), f(200), f(200)]
    if name == "post_norm_window_reverse_f16":
        return [f(8, 49, 48, dt=torch.float16) * 2 + 1, f(2, 14, 14, 48, dt=torch.float16),
                f(48, dt=torch.float16), f(48, dt=torch.float16)]
    if name == "layernorm_roll_windows_f16":
        return [f(2, 14, 14, 48, dt=torch.float16) * 2 + 1, f(48, dt=torch.float16),
                f(48, dt=torch.float16)]
    if name == "sliced_heads_softmax_f32":
        return [f(2, 5, 3, 40) * 3]
    if name == "masked_softmax_bias_f32":
        return [f(4, 8, 100) * 3, f(100), f(4, 1, 100) * 3]
    if name == "sum_of_squares_f32":
        return [f(9, 1001)]
    got = conv_inputs(name, f)
    if got is not None:
        return got
    if name == "unary_math_ragged_f32":
        return [f(7, 333) * 3, torch.rand(7, 333, generator=gen) * 1.9 - 0.95]
    if name == "unary_math_f16":
        return [f(5, 1027, dt=torch.float16) * 2]
    if name == "sign_i64":
        x = torch.randint(-3, 4, (1001,), generator=gen)
        x[:3] = torch.tensor([-2**62, 0, 2**62])
        return [x]
    if name == "lrn_ragged_f32":
        return [f(3, 13, 7, 9) * 4]
    if name == "lrn_even_f16":
        return [f(2, 10, 5, 6, dt=torch.float16) * 4]
    if name == "mvn_f32":
        return [f(2, 3, 5, 7) * 2 + 1]
    if name == "maxpool_ceil_f16":
        return [f(2, 3, 10, 8, dt=torch.float16)]
    if name == "avgpool_pads_f32":
        return [f(1, 4, 11, 12)]
    if name == "avgpool_include_pad_f16":
        return [f(1, 3, 7, 7, dt=torch.float16)]
    raise KeyError(name)


def topk_reference(x, axis, k, largest):
    """TopK by a stable sort: largest (smallest) first, NaN above every
    number, equal values in index order."""
    order = torch.sort(x, dim=axis, descending=largest, stable=True).indices
    order = order.narrow(axis, 0, k)
    return [torch.gather(x, axis, order), order]


def torch_reference(name, xs):
    F = torch.nn.functional
    d = [x.double() if x.is_floating_point() else x for x in xs]
    if name.startswith("cos_cos"):
        return [torch.cos(torch.cos(d[0]))]
    if name == "trig_two_vectors_f32":
        return [torch.cos(d[0]) * torch.sin(d[1])]
    if name == "silu_every_f16":
        return [d[0] * torch.sigmoid(d[0])]
    if name == "bias_gelu_f16":
        t = d[0] + d[1]
        return [t * 0.5 * (1 + torch.erf(t / np.sqrt(2.0)))]
    if name == "broadcast_where_bf16":
        return [torch.where(d[0] > d[1], d[0], d[1])]
    if name == "int_mix":
        return [torch.abs(xs[0] * xs[1] - xs[0])]
    if name == "bool_logic":
        return [torch.logical_or(~(d[0] > d[1]), xs[2])]
    if name == "multi_output_sigmoid_tanh":
        s = torch.sigmoid(d[0])
        return [s, torch.tanh(s), torch.exp(s)]
    if name == "cast_chain":
        return [torch.sqrt(d[0].half().double()).half().double()]
    if name.startswith("softmax"):
        return [torch.softmax(d[0], -1)]
    if name == "logsoftmax_f32":
        return [torch.log_softmax(d[0], -1)]
    if name == "transpose_f16":
        return [d[0].permute(2, 0, 1)]
    if name.startswith(("qdq_", "qmatmul_", "qconv_")) or name == "cast_fp8_f16" or "_qdq_" in name:
        return quantize_reference(name, xs)
    if name == "concat_25_ragged_f16":
        return [torch.cat(d, 1)]
    if name == "reduce_mean_f16_trailing2":
        return [d[0].mean(dim=(2, 3), keepdim=True)]
    if name == "reduce_max_ragged_f32":
        return [d[0].amax(dim=1)]
    got = matmul_reference(name, d)
    if got is not None:
        return got
    if name == "gemm_staged_transb_bias_f32":
        return [d[0] @ d[1].T + d[2]]
    if name == "reduce_split_whole_max_f16":
        return [d[0].max()]
    if name == "reduce_split_mean_keepdims_f16":
        return [d[0].mean(dim=(1, 2), keepdim=True)]
    if name == "reduce_cluster_rows_mean_f16":
        return [d[0].mean(dim=(1, 2), keepdim=True)]
    if name == "reduce_cluster_rows_sum_f32":
        return [d[0].sum(dim=(1, 2))]
    if name == "gemm_split_cluster_bias_f32":
        return [d[0] @ d[1] + d[2]]
    if name == "conv_split_cluster_residual_f32":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1) + d[3])]
    if name == "conv_staged_nchw_bias_relu_f32":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1))]
    if name == "reduce_split_rows_nhwc_mean_f16":
        return [torch.sigmoid(d[0].mean(dim=(1, 2), keepdim=True))]
    if name == "reduce_split_rows_ragged_bf16":
        return [d[0].mean(dim=(1, 2), keepdim=True)]
    if name == "reduce_split_rows_leading_f32":
        return [d[0].sum(0)]
    if name == "reduce_split_rows_max_i64":
        return [xs[0].amax(1)]
    if name == "leading_sum_relu_f32":
        return [torch.relu(d[0].sum(0))]
    if name == "layernorm_packed_96_f16":
        return [F.layer_norm(d[0], (96,), d[1], d[2], eps=1e-6)]
    if name == "softmax_packed_20_f16":
        return [torch.softmax(d[0], -1)]
    if name == "l2norm_heads_f16":
        return [F.normalize(d[0], dim=-1, eps=float(np.float16(1e-3))) * d[1]]
    if name in ("l2norm_clip_f32", "l2norm_long_f32"):
        return [F.normalize(d[0], dim=-1, eps=1e-12)]
    if name == "reduce_packed_sum_f32":
        return [d[0].sum(-1)]
    if name == "conv_patchify_tokens_f16":
        c = F.conv2d(d[0], stem_weights(64, 3, 16), stem_weights(64, 1, 1).reshape(64), stride=16)
        return [c.reshape(2, 64, 24).transpose(1, 2)]
    if name == "conv_patchify_nchw_f32":
        return [F.conv2d(d[0], stem_weights(8, 3, 4), stride=4)]
    if name == "movement_ragged_vectors_f16":
        return [F.pad(d[0].permute(1, 2, 0), (1, 0)), torch.roll(d[1], -3, 2)]
    if name == "movement_roll_windows_f16":
        r = torch.roll(d[0], (-3, -3), (1, 2))
        return [r.reshape(2, 2, 7, 2, 7, 16).permute(0, 1, 3, 2, 4, 5).reshape(8, 49, 16)]
    if name == "rotary_llama_attention_f16":
        wq = stem_weights(64, 64, 1).reshape(64, 64)
        wk = stem_weights(64, 32, 1).reshape(64, 32)
        cos, sin = d[1], d[2]

        def rope(t):
            return t * cos + torch.cat([-t[..., 16:], t[..., :16]], -1) * sin
        q = rope((d[0] @ wq).reshape(2, 77, 2, 32).transpose(1, 2))
        k = rope((d[0] @ wk).reshape(2, 77, 1, 32).transpose(1, 2)).repeat_interleave(2, 1)
        v = (d[0] @ -wk).reshape(2, 77, 1, 32).transpose(1, 2).repeat_interleave(2, 1)
        s = q @ k.transpose(-1, -2) * float(np.float16(32 ** -0.5))
        return [(torch.softmax(s, -1) @ v).transpose(1, 2).reshape(2, 77, 64)]
    if name == "pointwise_roll_residual_f16":
        return [d[0] + torch.roll(d[1], (-3, -3), (1, 2))]
    if name == "pointwise_lanes_apart_f32":
        r = torch.relu(torch.cat([d[0], d[1]], -1)) * d[2].t()
        return [r + torch.exp(F.pad(d[3], (4, 0), value=1.0)) - d[4]]
    if name == "movement_patch_merge_f16":
        x = d[0]
        return [torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2],
                           x[:, 1::2, 1::2]], -1)]
    if name in ("rmsnorm_llama_f16", "rmsnorm_f32"):
        return [d[0] * torch.rsqrt((d[0] * d[0]).mean(-1, keepdim=True) + 1e-6) * d[1]]
    if name == "pow_whole_exponents_f32":
        return [d[0] ** 2 + d[0] ** 3 + d[0] ** 4]
    if name == "einsum_scores_f16":
        return [torch.einsum("bhqd,bhkd->bhqk", d[0], d[1])]
    if name == "einsum_chain_bf16":
        return [torch.einsum("...ij,jk,...kl->...il", d[0], d[1], d[2])]
    if name == "cumsum_positions_i64":
        return [torch.cumsum(xs[0], 1)]
    if name == "cumsum_reverse_exclusive_f16":
        return [torch.flip(torch.cumsum(torch.flip(d[0], [1]), 1), [1]) - d[0]]
    if name == "conv_wgmma_persistent_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1) + d[3])]
    if name == "convtranspose_up2_f16":
        return [torch.relu(F.conv_transpose2d(d[0], d[1], d[2], stride=2))]
    if name == "convtranspose_grouped_f32":
        # ONNX pads [1, 2, 0, 1] and output_padding [2, 1]: the unpadded
        # result, zeros after it, then the window cropped.
        full = F.conv_transpose2d(d[0], d[1], stride=(3, 2), dilation=(1, 2), groups=2)
        full = F.pad(full, (0, 1, 0, 2))
        return [full[:, :, 1:17, 2:17] + d[2].reshape(1, -1, 1, 1)]
    if name == "gather_rows_negative":
        return [d[0][xs[1] % 50]]
    if name == "gather_elements_negative_f16":
        return [torch.gather(d[0], 1, xs[1] % 70)]
    if name == "gather_nd_batch_f32":
        b = torch.arange(4)[:, None]
        return [d[0][b, xs[1][..., 0] % 9, xs[1][..., 1] % 7]]
    if name == "scatter_nd_add_duplicates_f32":
        return [d[0].index_add(0, xs[1][:, 0] % 10, d[2])]
    if name == "scatter_nd_replace_f16":
        y = d[0].clone()
        y[xs[1][:, 0], xs[1][:, 1]] = d[2]
        return [y]
    if name == "scatter_elements_max_i64":
        y = xs[0].clone()
        rows = torch.arange(7)[:, None].expand(7, 4)
        for r, c, u in zip(rows.flatten(), (xs[1] % 13).flatten(), xs[2].flatten()):
            y[r, c] = torch.maximum(y[r, c], u)
        return [y]
    if name in ("gelu_range_f16", "gelu_range_bf16"):
        return [F.gelu(d[0])]
    if name in ("gelu_tanh_range_f16", "gelu_tanh_range_bf16"):
        return [F.gelu(d[0], approximate="tanh")]
    if name == "onehot_axis1_f16":
        i = xs[0].unsqueeze(1)
        i = torch.where(i < 0, i + 10, i)
        hit = i == torch.arange(10).reshape(1, 10, 1)
        return [torch.where(hit, d[1][1], d[1][0])]
    if name == "topk_rows_f16":
        return topk_reference(xs[0], -1, 5, True)
    if name == "topk_smallest_nan_ties_f32":
        return topk_reference(xs[0], 1, 10, False)
    if name == "topk_sort_ties_i64":
        return topk_reference(xs[0], -1, 100, True)
    if name == "topk_axis0_bf16":
        return topk_reference(xs[0], 0, 5, True)
    if name == "isnan_isinf_where_f32":
        return [torch.where(torch.isnan(d[0]), 0.0, d[0]), d[0] == float("inf")]
    if name == "reduce_all_i64_cooperative":
        return [xs[0].sum()]
    if name == "reduce_max_leading_few_f16":
        return [d[0].amax(0)]
    if name == "leading_mean_f16":
        return [d[0].mean(0)]
    if name == "interleaved_sum_f32":
        return [d[0].sum(dim=(0, 2), keepdim=True)]
    if name == "int64_max_rows":
        return [xs[0].amax(1)]
    if name == "transposed_add_relu_f16":
        return [torch.relu(d[0].permute(2, 0, 1) + d[1])]
    if name == "movement_chain_reshape_i64":
        u = xs[0].permute(0, 2, 1, 3).reshape(2, 3, 8).permute(0, 2, 1).numpy()
        return [torch.from_numpy(np.pad(u, [(0, 0), (0, 0), (1, 0)]))]
    if name == "resize_linear_half_pixel_f16":
        return [F.interpolate(d[0], size=(13, 20), mode="bilinear", align_corners=False)]
    if name == "resize_linear_align_corners_f32":
        return [F.interpolate(d[0], size=(17, 4), mode="bilinear", align_corners=True)]
    if name == "resize_nearest_scales_f32":
        return [F.interpolate(d[0], scale_factor=(2, 3), mode="nearest")]
    if name == "resize_nearest_exact_f16":
        return [F.interpolate(d[0], size=(8, 3), mode="nearest-exact")]
    if name == "resize_nearest_prefer_floor_f32":
        # ONNX's rule: x = (o + 0.5) / scale - 0.5 with the scales given,
        # halves rounded down, clamped into the input.
        def source(out, n, scale):
            x = (np.arange(out) + 0.5) / scale - 0.5
            return np.clip(np.ceil(x - 0.5), 0, n - 1).astype(np.int64)
        rows, cols = source(7, 5, 1.5), source(4, 6, np.float32(0.7))
        return [d[0][:, :, rows][:, :, :, cols]]
    if name == "instance_norm_f16":
        return [F.instance_norm(d[0], weight=d[1], bias=d[2], eps=1e-3)]
    if name == "vocab_softmax_f16":
        return [torch.softmax(d[0], -1)]
    if name == "long_rows_logsoftmax_f32":
        return [torch.log_softmax(d[0], -1)]
    if name == "long_rows_groupnorm_f16":
        return [F.instance_norm(d[0], weight=d[1], bias=d[2], eps=1e-5)]
    if name == "long_rows_mean_f32":
        return [d[0].mean(1)]
    if name == "transposed_softmax_axis1_f16":
        return [torch.softmax(d[0], 1)]
    if name == "movement_chain_f32":
        t = d[0].permute(0, 2, 3, 1).numpy()
        r = np.pad(t, [(0, 0), (1, 2), (2, 1), (0, 0)], mode="reflect")
        v = r[:, 0:13:2].reshape(2, 7, 45)
        return [torch.from_numpy(np.pad(v, [(0, 0), (0, 0), (0, 3)], constant_values=7.0))]
    if name == "transpose_tiled_nhwc_f32":
        return [d[0].permute(0, 2, 3, 1)]
    if name == "transpose_tiled_nchw_i64":
        return [xs[0].permute(0, 3, 1, 2)]
    if name == "transpose_tiled_matrix_f16":
        return [d[0].t()]
    if name == "scaled_softmax_cast_f16":
        return [torch.softmax(d[0] / 4, -1).half().double()]
    if name == "residual_layernorm_relu_f16":
        r = d[0] + d[1]
        return [r, torch.relu(F.layer_norm(r, (520,), d[2], d[3], 1e-5))]
    if name in ("post_norm_residual_192_f16", "post_norm_residual_200_f32"):
        c = d[0].shape[-1]
        return [d[1] + F.layer_norm(d[0], (c,), d[2], d[3], 1e-5)]
    if name == "residual_layernorm_384_f16":
        s = d[0] + d[1]
        return [s, F.layer_norm(s, (384,), d[2], d[3], 1e-5)]
    if name == "post_norm_window_reverse_f16":
        im = d[0].reshape(2, 2, 2, 7, 7, 48).permute(0, 1, 3, 2, 4, 5).reshape(2, 14, 14, 48)
        rolled = torch.roll(im, shifts=(-3, -3), dims=(1, 2))
        return [d[1] + F.layer_norm(rolled, (48,), d[2], d[3], 1e-5)]
    if name == "layernorm_roll_windows_f16":
        rolled = torch.roll(F.layer_norm(d[0], (48,), d[1], d[2], 1e-5), shifts=(-3, -3),
                            dims=(1, 2))
        return [rolled.reshape(2, 2, 7, 2, 7, 48).permute(0, 1, 3, 2, 4, 5).reshape(8, 49, 48)]
    if name == "sliced_heads_softmax_f32":
        return [torch.softmax(d[0].permute(0, 2, 1, 3)[:, 1:3], -1)]
    if name == "masked_softmax_bias_f32":
        return [torch.softmax(d[0] + d[1] + d[2], -1)]
    if name == "sum_of_squares_f32":
        return [(d[0] * d[0]).sum(1)]
    got = conv_reference(name, d)
    if got is not None:
        return got
    if name == "unary_math_ragged_f32":
        x, u = d
        return [torch.round(x), torch.sign(x), torch.tan(u), torch.atan(x), torch.asin(u),
                torch.acos(u), torch.sinh(x), torch.cosh(x), torch.asinh(x), x.abs(),
                torch.atanh(u)]
    if name == "unary_math_f16":
        x = d[0]
        return [torch.round(x), torch.sign(x), torch.atan(x), torch.sinh(x)]
    if name == "sign_i64":
        return [torch.sign(xs[0])]
    if name.startswith("lrn_"):
        # ONNX's window: (size - 1) // 2 channels before, the rest after
        # (torch's local_response_norm puts the extra one before).
        size, alpha, beta, bias = {"lrn_ragged_f32": (5, 1e-3, 0.75, 2.0),
                                   "lrn_even_f16": (4, 2e-4, 0.6, 1.0)}[name]
        x = d[0]
        low = (size - 1) // 2
        sq = F.pad(x * x, (0, 0, 0, 0, low, size - 1 - low))
        sums = sum(sq[:, k:k + x.shape[1]] for k in range(size))
        return [x / (bias + alpha / size * sums) ** beta]
    if name == "mvn_f32":
        x = d[0]
        mean = x.mean((0, 2, 3), keepdim=True)
        var = (x * x).mean((0, 2, 3), keepdim=True) - mean * mean
        return [(x - mean) / (var.clamp(min=0).sqrt() + 1e-9)]
    if name == "maxpool_ceil_f16":
        return [F.max_pool2d(d[0], 3, 2, padding=1, ceil_mode=True)]
    if name == "avgpool_pads_f32":
        return [F.avg_pool2d(d[0], 3, 2, padding=1, count_include_pad=False)]
    if name == "avgpool_include_pad_f16":
        return [F.avg_pool2d(d[0], 2, 2, padding=1, count_include_pad=True)]
    if name.startswith("layernorm"):
        shape = tuple(xs[1].shape)
        return [torch.nn.functional.layer_norm(d[0], shape, d[1], d[2], 1e-5)]
    raise KeyError(name)
