"""The convolution cases of kernel_references.py (most of them from
kernel_cases_conv.py): their fresh inputs and float64 references, and the
constant stem weights that build_corpus.py's constants and other cases
share.

Runs where torch does (the GPU machine; Debian's python3-torch here).
"""

import numpy as np
import torch


def squeeze_excite(x, w, w1, b1, w2, b2):
    """kernel_cases_conv.squeeze_excite's graph in torch."""
    F = torch.nn.functional
    c = F.conv2d(x, w, padding=1, groups=96)
    s1 = F.conv2d(c.mean(dim=(2, 3), keepdim=True), w1, b1)
    return c * torch.sigmoid(F.conv2d(s1 * torch.sigmoid(s1), w2, b2))


def stem_weights(o, c, k):
    """The constant weights build_corpus.py gives the stem cases, in float64
    after their rounding to f16."""
    i = torch.arange(o * c * k * k, dtype=torch.float64).reshape(o, c, k, k)
    return (torch.sin(i * 0.37) / 8).half().double()


def conv_inputs(name, f):
    """Inputs of convolution case `name` from `f(*shape, dt=...)`, or None."""
    if name == "conv_bias_relu_f32":
        return [f(2, 5, 13, 11), f(7, 5, 3, 3), f(7)]
    if name == "conv_group_residual_f16":
        return [f(1, 8, 10, 10, dt=torch.float16), f(8, 2, 3, 3, dt=torch.float16),
                f(1, 8, 10, 10, dt=torch.float16)]
    if name == "conv_depthwise_bf16":
        return [f(1, 6, 9, 9, dt=torch.bfloat16), f(6, 1, 3, 3, dt=torch.bfloat16)]
    if name == "conv_wgmma_block_f16":
        return [f(2, 64, 14, 14, dt=torch.float16), f(64, 64, 3, 3, dt=torch.float16) / 8,
                f(64, dt=torch.float16), f(64, 64, 3, 3, dt=torch.float16) / 8]
    if name == "conv_wgmma_stride_dilation_ragged_f16":
        return [f(3, 40, 15, 13, dt=torch.float16), f(72, 40, 3, 3, dt=torch.float16) / 8,
                f(72, dt=torch.float16)]
    if name == "conv_wgmma_1x1_stride2_bf16":
        return [f(2, 136, 9, 9, dt=torch.bfloat16), f(96, 136, 1, 1, dt=torch.bfloat16) / 8]
    if name == "conv_wgmma_stem_f16":
        return [f(1, 8, 32, 32, dt=torch.float16), f(64, 8, 7, 7, dt=torch.float16) / 8,
                f(64, dt=torch.float16)]
    if name == "conv_wgmma_stem_pool_f16":
        return [f(2, 3, 30, 30, dt=torch.float16), f(64, 3, 7, 7, dt=torch.float16) / 8,
                f(64, dt=torch.float16), f(32, 64, 3, 3, dt=torch.float16) / 8]
    if name == "conv_wgmma_wide_f16":
        return [f(4, 64, 28, 28, dt=torch.float16), f(256, 64, 1, 1, dt=torch.float16) / 8]
    if name == "conv_wgmma_persistent_f16":
        return [f(32, 64, 30, 30, dt=torch.float16), f(256, 64, 3, 3, dt=torch.float16) / 8,
                f(256, dt=torch.float16), f(32, 256, 30, 30, dt=torch.float16)]
    if name == "convtranspose_up2_f16":
        return [f(2, 64, 13, 14, dt=torch.float16), f(64, 64, 2, 2, dt=torch.float16) / 8,
                f(64, dt=torch.float16)]
    if name == "convtranspose_grouped_f32":
        return [f(2, 6, 5, 7), f(6, 4, 3, 3), f(8)]
    if name == "conv_wgmma_stem_s2d_f16":
        return [f(2, 3, 29, 31, dt=torch.float16), f(24, dt=torch.float16)]
    if name == "conv_wgmma_stem_s2d_pads_f16":
        return [f(1, 4, 16, 16, dt=torch.float16)]
    if name == "conv_wgmma_stem_s2d_k5_f16":
        return [f(2, 2, 23, 21, dt=torch.float16)]
    if name == "conv_avgpool_nhwc_f16":
        return [f(2, 16, 9, 11, dt=torch.float16), f(32, 16, 3, 3, dt=torch.float16) / 8]
    if name == "conv_wgmma_split_f16":
        return [f(1, 512, 7, 7, dt=torch.float16), f(512, 512, 3, 3, dt=torch.float16) / 16,
                f(512, dt=torch.float16), f(1, 512, 7, 7, dt=torch.float16)]
    if name == "conv_wgmma_split_const_f16":
        return [f(1, 256, 9, 11, dt=torch.float16)]
    if name == "conv_packed_groups_f16":
        return [f(3, 256, 13, 11, dt=torch.float16), f(256, dt=torch.float16)]
    if name == "conv_packed_groups_stride2_f16":
        return [f(2, 128, 15, 15, dt=torch.float16)]
    if name == "conv_packed_groups_32_f16":
        return [f(2, 128, 13, 15, dt=torch.float16), f(128, dt=torch.float16)]
    if name == "conv_packed_dense_groups_f16":
        return [f(4, 120, 19, 17, dt=torch.float16), f(120, dt=torch.float16)]
    if name == "conv_wgmma_split_1x1_stride2_bf16":
        return [f(1, 1024, 13, 13, dt=torch.bfloat16), f(2048, 1024, 1, 1, dt=torch.bfloat16) / 16]
    if name == "conv_wgmma_grouped_f16":
        return [f(2, 128, 10, 12, dt=torch.float16), f(256, 64, 3, 3, dt=torch.float16) / 8,
                f(256, dt=torch.float16)]
    if name == "conv_wgmma_grouped_1x1_bf16":
        return [f(3, 256, 7, 9, dt=torch.bfloat16), f(512, 64, 1, 1, dt=torch.bfloat16) / 8]
    if name == "conv_one_pixel_se_f16":
        return [f(1, 1392, 1, 1, dt=torch.float16), f(58, 1392, 1, 1, dt=torch.float16) / 16,
                f(58, dt=torch.float16), f(1392, 58, 1, 1, dt=torch.float16) / 4,
                f(1392, dt=torch.float16)]
    if name == "conv_one_pixel_grouped_bf16":
        return [f(3, 256, 1, 1, dt=torch.bfloat16), f(200, 128, 1, 1, dt=torch.bfloat16) / 8,
                f(200, dt=torch.bfloat16)]
    if name == "conv_one_pixel_ragged_f32":
        return [f(2, 58, 1, 1), f(333, 58, 1, 1)]
    if name == "conv_shuffle_blocks_f16":
        return [f(2, 60, 9, 11, dt=torch.float16)]
    if name == "conv_dense_concat_f16":
        return [f(3, 32, 10, 12, dt=torch.float16), f(16, 32, 3, 3, dt=torch.float16) / 8,
                f(16, 48, 1, 1, dt=torch.float16) / 4, f(1, 64, 1, 1, dt=torch.float16),
                f(1, 64, 1, 1, dt=torch.float16)]
    if name == "conv_padded_groups_120_f16":
        return [f(1, 720, 14, 14, dt=torch.float16), f(720, 120, 3, 3, dt=torch.float16) / 32,
                f(720, dt=torch.float16)]
    if name == "conv_padded_groups_120_b16_f16":
        return [f(16, 720, 14, 14, dt=torch.float16), f(720, 120, 3, 3, dt=torch.float16) / 32]
    if name == "conv_padded_groups_168_stride2_f16":
        return [f(2, 336, 15, 13, dt=torch.float16), f(336, 168, 3, 3, dt=torch.float16) / 32]
    if name == "conv_padded_groups_24_bf16":
        return [f(3, 888, 7, 9, dt=torch.bfloat16), f(888, 24, 3, 3, dt=torch.bfloat16) / 16,
                f(888, dt=torch.bfloat16)]
    if name == "conv_padded_groups_56_1x1_f16":
        return [f(5, 224, 9, 7, dt=torch.float16), f(224, 56, 1, 1, dt=torch.float16) / 8,
                f(5, 224, 9, 7, dt=torch.float16)]
    if name == "conv_wgmma_taps_c32_f16":
        return [f(3, 32, 13, 11, dt=torch.float16), f(64, 32, 3, 3, dt=torch.float16) / 16,
                f(64, dt=torch.float16)]
    if name == "conv_wgmma_taps_groups16_f16":
        return [f(2, 64, 9, 10, dt=torch.float16), f(128, 16, 3, 3, dt=torch.float16) / 12]
    if name == "conv_wgmma_taps_c24_5x5_bf16":
        return [f(2, 24, 11, 12, dt=torch.bfloat16), f(40, 24, 5, 5, dt=torch.bfloat16) / 24]
    if name == "conv_direct_mobilenet_block_f16":
        return [f(2, 96, 29, 31, dt=torch.float16), f(96, dt=torch.float16),
                f(32, 96, 1, 1, dt=torch.float16) / 8]
    if name == "conv_direct_dw5x5_residual_bf16":
        return [f(1, 40, 17, 17, dt=torch.bfloat16), f(40, 1, 5, 5, dt=torch.bfloat16) / 4,
                f(1, 40, 17, 17, dt=torch.bfloat16)]
    if name == "conv_direct_dw7x7_f16":
        return [f(2, 36, 14, 14, dt=torch.float16), f(36, 1, 7, 7, dt=torch.float16) / 6,
                f(36, dt=torch.float16)]
    if name == "conv_direct_dw_c7_dilated_f16":
        return [f(3, 7, 11, 10, dt=torch.float16), f(7, 1, 3, 3, dt=torch.float16)]
    if name == "conv_direct_multiplier_f16":
        return [f(2, 8, 9, 9, dt=torch.float16), f(16, 1, 3, 3, dt=torch.float16)]
    if name == "conv_direct_grouped_f16":
        return [f(1, 32, 10, 10, dt=torch.float16), f(64, 4, 3, 3, dt=torch.float16) / 4]
    if name == "conv_direct_grouped_relu_f32":
        return [f(2, 32, 13, 13), f(32, 4, 3, 3), f(32)]
    if name == "conv_direct_dw_b32_f16":
        return [f(32, 144, 56, 56, dt=torch.float16), f(144, 1, 3, 3, dt=torch.float16),
                f(144, dt=torch.float16)]
    if name == "conv_direct_rows_dw7x7_f16":
        return [f(16, 96, 30, 30, dt=torch.float16), f(96, 1, 7, 7, dt=torch.float16) / 4,
                f(96, dt=torch.float16)]
    if name == "conv_direct_rows_s2_relu6_f16":
        return [f(32, 96, 57, 57, dt=torch.float16) * 2, f(96, 1, 3, 3, dt=torch.float16),
                f(96, dt=torch.float16)]
    if name == "conv_direct_rows_dilated_bf16":
        return [f(8, 64, 40, 37, dt=torch.bfloat16), f(64, 1, 5, 5, dt=torch.bfloat16) / 4,
                f(8, 64, 40, 37, dt=torch.bfloat16)]
    if name == "conv_layer_scale_residual_f16":
        return [f(4, 64, 20, 20, dt=torch.float16), f(64, 1, 7, 7, dt=torch.float16) / 4,
                f(64, dt=torch.float16)]
    if name == "conv_squeeze_excite_f16":
        return [f(2, 96, 14, 14, dt=torch.float16), f(96, 1, 3, 3, dt=torch.float16) / 3,
                f(4, 96, 1, 1, dt=torch.float16) / 8, f(4, dt=torch.float16),
                f(96, 4, 1, 1, dt=torch.float16) / 2, f(96, dt=torch.float16)]
    if name == "conv_squeeze_excite_const_f16":
        return [f(2, 96, 14, 14, dt=torch.float16), f(96, 1, 3, 3, dt=torch.float16) / 3]
    return None


def conv_reference(name, d):
    """The float64 reference of convolution case `name` on inputs `d`, or
    None."""
    F = torch.nn.functional
    if name == "conv_bias_relu_f32":
        # ONNX pads [top, left, bottom, right]; F.pad takes (left, right, top, bottom).
        x = F.pad(d[0], (2, 1, 1, 0))
        return [torch.relu(F.conv2d(x, d[1], d[2], stride=(2, 1), dilation=(1, 2)))]
    if name == "conv_group_residual_f16":
        return [torch.relu(F.conv2d(d[0], d[1], padding=1, groups=4) + d[2])]
    if name == "conv_depthwise_bf16":
        return [F.conv2d(d[0], d[1], padding=1, stride=2, groups=6)]
    if name == "conv_wgmma_block_f16":
        r1 = torch.relu(F.conv2d(d[0], d[1], d[2], padding=1))
        return [torch.relu(F.conv2d(r1, d[3], padding=1) + r1)]
    if name == "conv_wgmma_stride_dilation_ragged_f16":
        x = F.pad(d[0], (0, 2, 1, 1))
        return [F.conv2d(x, d[1], d[2], stride=2, dilation=(1, 2))]
    if name == "conv_wgmma_1x1_stride2_bf16":
        return [F.conv2d(d[0], d[1], stride=2)]
    if name == "conv_wgmma_stem_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], stride=2, padding=3))]
    if name == "conv_wgmma_stem_pool_f16":
        c = torch.relu(F.conv2d(d[0], d[1], d[2], stride=2, padding=3))
        return [F.conv2d(F.max_pool2d(c, 3, 2, padding=1), d[3], padding=1)]
    if name == "conv_wgmma_wide_f16":
        return [F.conv2d(d[0], d[1])]
    if name == "conv_wgmma_stem_s2d_f16":
        return [F.conv2d(d[0], stem_weights(24, 3, 7), d[1], stride=2, padding=3)]
    if name == "conv_wgmma_stem_s2d_k5_f16":
        return [F.conv2d(d[0], stem_weights(32, 2, 5), stride=2, padding=2)]
    if name == "conv_avgpool_nhwc_f16":
        c = F.conv2d(d[0], d[1], padding=1)
        return [F.avg_pool2d(c, 3, 2, 1, count_include_pad=False)]
    if name == "conv_wgmma_stem_s2d_pads_f16":
        x = F.pad(d[0], (0, 1, 1, 0))
        return [torch.relu(F.conv2d(x, stem_weights(16, 4, 3), stride=2))]
    if name == "conv_wgmma_split_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1) + d[3])]
    if name == "conv_packed_groups_f16":
        w = stem_weights(256, 16, 3)
        return [torch.relu(F.conv2d(d[0], w, d[1], padding=1, groups=16))]
    if name == "conv_packed_groups_stride2_f16":
        return [F.conv2d(d[0], stem_weights(128, 32, 3), stride=2, padding=1, groups=4)]
    if name == "conv_packed_groups_32_f16":
        w = stem_weights(128, 4, 3)
        return [torch.relu(F.conv2d(d[0], w, d[1], padding=1, groups=32))]
    if name == "conv_packed_dense_groups_f16":
        w = stem_weights(120, 24, 3)
        return [torch.relu(F.conv2d(d[0], w, d[1], padding=1, groups=5))]
    if name == "conv_wgmma_split_const_f16":
        w = (stem_weights(256, 256, 3).half() / 4).double()
        return [torch.relu(F.conv2d(d[0], w, padding=1))]
    if name == "conv_wgmma_split_1x1_stride2_bf16":
        return [F.conv2d(d[0], d[1], stride=2)]
    if name == "conv_wgmma_grouped_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1, groups=2))]
    if name == "conv_direct_mobilenet_block_f16":
        w = (stem_weights(96, 1, 3).half() * 4).double()
        c = F.conv2d(d[0], w, d[1], stride=2, padding=1, groups=96)
        return [F.conv2d(torch.clamp(c, 0, 6), d[2])]
    if name == "conv_direct_dw5x5_residual_bf16":
        return [F.conv2d(d[0], d[1], padding=2, groups=40) + d[2]]
    if name == "conv_direct_dw7x7_f16":
        return [F.conv2d(d[0], d[1], d[2], padding=3, groups=36)]
    if name == "conv_direct_dw_c7_dilated_f16":
        x = F.pad(d[0], (2, 1, 1, 0))
        return [F.conv2d(x, d[1], stride=(1, 2), dilation=2, groups=7)]
    if name == "conv_direct_multiplier_f16":
        return [F.conv2d(d[0], d[1], padding=1, groups=8)]
    if name == "conv_direct_grouped_f16":
        return [F.conv2d(d[0], d[1], padding=1, groups=8)]
    if name == "conv_direct_grouped_relu_f32":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], stride=2, padding=1, groups=8))]
    if name == "conv_direct_dw_b32_f16":
        return [F.conv2d(d[0], d[1], d[2], padding=1, groups=144)]
    if name == "conv_direct_rows_dw7x7_f16":
        return [F.conv2d(d[0], d[1], d[2], padding=3, groups=96)]
    if name == "conv_direct_rows_s2_relu6_f16":
        return [torch.clamp(F.conv2d(d[0], d[1], d[2], stride=2, padding=1, groups=96), 0, 6)]
    if name == "conv_direct_rows_dilated_bf16":
        return [F.conv2d(d[0], d[1], padding=4, dilation=2, groups=64) + d[2]]
    if name == "conv_layer_scale_residual_f16":
        gamma = torch.from_numpy(np.linspace(-1.0, 1.0, 64).astype(np.float16))
        gamma = gamma.double().reshape(64, 1, 1)
        return [gamma * F.conv2d(d[0], d[1], d[2], padding=3, groups=64) + d[0]]
    if name == "conv_squeeze_excite_f16":
        return [squeeze_excite(*d)]
    if name == "conv_squeeze_excite_const_f16":
        return [squeeze_excite(d[0], d[1], stem_weights(4, 96, 1) * 2,
                               stem_weights(4, 1, 1).reshape(4), stem_weights(96, 4, 1) * 4,
                               stem_weights(96, 1, 1).reshape(96))]
    if name == "conv_wgmma_grouped_1x1_bf16":
        return [F.conv2d(d[0], d[1], groups=4)]
    if name == "conv_one_pixel_se_f16":
        q1 = F.conv2d(d[0], d[1], d[2])
        return [torch.sigmoid(F.conv2d(q1 * torch.sigmoid(q1), d[3], d[4]))]
    if name == "conv_one_pixel_grouped_bf16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], groups=2))]
    if name == "conv_one_pixel_ragged_f32":
        return [F.conv2d(d[0], d[1])]
    if name == "conv_shuffle_blocks_f16":
        def block(x):
            x1, x2 = x[:, :30], x[:, 30:]
            c = torch.relu(F.conv2d(x2, stem_weights(30, 30, 1) / 2,
                                    stem_weights(30, 1, 1).reshape(30)))
            c = F.conv2d(c, stem_weights(30, 1, 3) * 2, -stem_weights(30, 1, 1).reshape(30),
                         padding=1, groups=30)
            c = torch.relu(F.conv2d(c, -stem_weights(30, 30, 1) / 2))
            cat = torch.cat([x1, c], dim=1)
            return cat.reshape(2, 2, 30, 9, 11).transpose(1, 2).reshape(2, 60, 9, 11)
        return [block(block(torch.relu(F.conv2d(d[0], stem_weights(60, 60, 1) / 4))))]
    if name == "conv_dense_concat_f16":
        k1 = torch.cat([d[0], torch.relu(F.conv2d(d[0], d[1], padding=1))], dim=1)
        k2 = torch.cat([k1, torch.relu(F.conv2d(k1, d[2]))], dim=1)
        return [k2 * d[3] + d[4]]
    if name == "conv_padded_groups_120_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1, groups=6))]
    if name == "conv_padded_groups_120_b16_f16":
        return [F.conv2d(d[0], d[1], padding=1, groups=6)]
    if name == "conv_padded_groups_168_stride2_f16":
        return [F.conv2d(d[0], d[1], stride=2, padding=1, groups=2)]
    if name == "conv_padded_groups_24_bf16":
        return [F.conv2d(d[0], d[1], d[2], padding=1, groups=37)]
    if name == "conv_padded_groups_56_1x1_f16":
        return [F.conv2d(d[0], d[1], groups=4) + d[2]]
    if name == "conv_wgmma_taps_c32_f16":
        return [torch.relu(F.conv2d(d[0], d[1], d[2], padding=1))]
    if name == "conv_wgmma_taps_groups16_f16":
        return [F.conv2d(d[0], d[1], stride=2, padding=1, groups=4)]
    if name == "conv_wgmma_taps_c24_5x5_bf16":
        return [F.conv2d(d[0], d[1], padding=2)]
    return None
