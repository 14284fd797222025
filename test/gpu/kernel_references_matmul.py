"""Inputs and float64 references for the matmul and attention kernel cases
of the GPU check corpus (kernel_cases_matmul.py and kernel_cases.py), keyed
by case name, for kernel_references.py: fresh random inputs from a torch
generator, and each case's expression in torch on them.

Runs where torch does (the GPU machine).
"""

import numpy as np
import torch

from kernel_references_conv import stem_weights


def matmul_inputs(name, f):
    """Fresh random inputs for a matmul or attention case (`f`: a normal
    sample of a shape and dtype from the case's generator), or None for
    another case."""
    if name == "matmul_gated_chunked_f16":
        return [f(3, 100, 256, dt=torch.float16)]
    if name == "matmul_gated_few_rows_f16":
        return [f(3, 256, dt=torch.float16)]
    if name == "matmul_gated_few_rows_mma_f16":
        return [f(2, 10, 256, dt=torch.float16)]
    if name == "matmul_gated_silu_overlapped_f16":
        return [f(2, 2000, 1536, dt=torch.float16)]
    if name == "matmul_gated_gelu_residual_f16":
        return [f(3, 100, 256, dt=torch.float16), f(3, 100, 136, dt=torch.float16)]
    if name == "matmul_gated_silu_residual_persistent_f16":
        return [f(4000, 1536, dt=torch.float16), f(4000, 1000, dt=torch.float16)]
    if name == "matmul_epilogue_f16":
        return [f(2, 37, 48, dt=torch.float16), f(48, 29, dt=torch.float16),
                f(29, dt=torch.float16), f(2, 37, 29, dt=torch.float16)]
    if name == "matmul_f16_batched_ragged":
        return [f(3, 33, 70, dt=torch.float16), f(70, 45, dt=torch.float16)]
    if name == "matmul_bf16_broadcast":
        return [f(2, 1, 40, 64, dt=torch.bfloat16), f(3, 64, 24, dt=torch.bfloat16)]
    if name == "matmul_f32_3xtf32":
        return [f(128, 96), f(96, 80)]
    if name == "matmul_staged_wide_f32":
        return [f(1500, 100), f(100, 1500)]
    if name == "matmul_staged_transposed_a_f32":
        return [f(3, 45, 70), f(3, 45, 130)]
    if name == "matmul_few_rows_gemm_f16":
        return [f(1, 9216, dt=torch.float16), f(1003, 9216, dt=torch.float16) / 16,
                f(1003, dt=torch.float16)]
    if name == "matmul_few_rows_const_f16":
        return [f(3, 200, dt=torch.float16), f(3, 77, dt=torch.float16)]
    if name == "matmul_few_rows_bf16":
        return [f(4, 100, dt=torch.bfloat16), f(64, 100, dt=torch.bfloat16)]
    if name == "matmul_few_rows_f32":
        return [f(2, 1, 517)]
    if name == "matmul_few_rows_mma_gemm_f16":
        return [f(13, 1000, dt=torch.float16), f(40, 1000, dt=torch.float16) / 16,
                f(40, dt=torch.float16)]
    if name == "matmul_few_rows_mma_3d_bf16":
        return [f(1, 64, 512, dt=torch.bfloat16), f(264, 512, dt=torch.bfloat16) / 16]
    if name == "matmul_few_rows_mma_deep_residual_f16":
        return [f(17, 4104, dt=torch.float16), f(4500, 4104, dt=torch.float16) / 32,
                f(17, 4500, dt=torch.float16)]
    if name == "matmul_few_rows_mma_const_f16":
        return [f(8, 200, dt=torch.float16)]
    if name == "matmul_split_cluster_bert_f32":
        return [f(128, 768), f(768, 768)]
    if name == "attention_scores_transposed_f32":
        return [f(2, 17, 3, 24), f(2, 19, 3, 24)]
    if name == "attention_values_transposed_f16":
        return [f(2, 150, 4, 40, dt=torch.float16), f(2, 40, 4, 72, dt=torch.float16)]
    if name == "attention_merge_heads_f16":
        return [f(2, 4, 72, 64, dt=torch.float16), f(2, 4, 64, 32, dt=torch.float16)]
    if name == "attention_from_qkv_f16":
        return [f(2, 64, 384, dt=torch.float16), f(2, 4, 64, 64, dt=torch.float16)]
    if name == "matmul_split_k_bias_gelu_f16":
        return [f(1, 128, 3072, dt=torch.float16), f(3072, 768, dt=torch.float16) / 32,
                f(768, dt=torch.float16)]
    if name == "matmul_split_k_ragged_bf16":
        return [f(200, 2048, dt=torch.bfloat16), f(2048, 512, dt=torch.bfloat16) / 32]
    if name == "matmul_folded_nhwc_bias_relu_f16":
        return [f(4, 7, 56, 96, dt=torch.float16), f(96, 384, dt=torch.float16) / 8,
                f(384, dt=torch.float16)]
    if name == "matmul_folded_ragged_bf16":
        return [f(3, 50, 72, dt=torch.bfloat16), f(72, 40, dt=torch.bfloat16) / 8]
    if name == "matmul_folded_f32":
        return [f(5, 9, 33), f(33, 17)]
    if name == "attention_padding_mask_f16":
        # Batch 0 masks its last 10 keys; batch 1 masks every key (rows of
        # NaN probabilities, cleaned up to zeros).
        m = torch.zeros(2, 1, 1, 77)
        m[0, ..., 67:] = -float("inf")
        m[1] = -float("inf")
        return [f(2, 77, 192, dt=torch.float16), f(2, 77, 192, dt=torch.float16),
                f(2, 77, 192, dt=torch.float16), m.half()]
    if name == "attention_causal_f16":
        return [f(1, 2, 200, 32, dt=torch.float16) for _ in range(3)]
    if name == "attention_head256_mask_f16":
        m = torch.zeros(2, 1, 1, 77)
        m[1, ..., 57:] = -65504.0
        return [f(2, 2, 77, 256, dt=torch.float16) for _ in range(3)] + [m.half()]
    if name == "attention_head256_causal_f16":
        return [f(1, 2, 200, 256, dt=torch.float16) for _ in range(3)]
    if name == "attention_head96_causal_f16":
        return [f(1, 3, 200, 96, dt=torch.float16) for _ in range(3)]
    if name == "attention_head80_mask_bf16":
        # Batch 0 masks its last 30 keys, batch 1 none.
        m = torch.zeros(2, 1, 1, 77)
        m[0, ..., 47:] = -float("inf")
        return [f(2, 2, 77, 80, dt=torch.bfloat16) for _ in range(3)] + [m.bfloat16()]
    if name == "attention_causal_expanded_f16":
        return [f(3, 2, 150, 32, dt=torch.float16) for _ in range(3)]
    if name == "attention_widened_scores_f16":
        m = torch.zeros(2, 1, 1, 150)
        m[1, ..., 110:] = torch.finfo(torch.float32).min
        return [f(2, 3, 150, 64, dt=torch.float16) for _ in range(3)] + [m]
    if name == "attention_widened_local_f16":
        return [f(2, 3, 150, 64, dt=torch.float16) for _ in range(3)]
    if name == "attention_gpt2_batched_f16":
        return [f(2, 130, 64, dt=torch.float16) for _ in range(3)]
    if name == "attention_masked_fill_f16":
        # Batch 0 keeps every pair; batch 1 pads its last 20 positions.
        m = torch.ones(2, 77, dtype=torch.bool)
        m[1, 57:] = False
        keep = (m[:, None, :, None] & m[:, None, None, :])
        return [f(2, 2, 77, 32, dt=torch.float16) for _ in range(3)] + [
            f(2, 2, 77, 77, dt=torch.float16), keep]
    if name == "attention_position_bias_bf16":
        return [f(2, 4, 37, 128, dt=torch.bfloat16), f(2, 4, 100, 128, dt=torch.bfloat16),
                f(2, 4, 100, 64, dt=torch.bfloat16), f(4, 37, 100, dt=torch.bfloat16)]
    if name == "matmul_wgmma_ragged_epilogue_f16":
        return [f(2, 333, 200, dt=torch.float16), f(200, 520, dt=torch.float16) / 8,
                f(520, dt=torch.float16)]
    if name == "matmul_wgmma_n256_bf16":
        return [f(2304, 328, dt=torch.bfloat16), f(328, 2304, dt=torch.bfloat16) / 16]
    if name == "matmul_wgmma_batched_f16":
        return [f(3, 130, 72, dt=torch.float16), f(3, 72, 200, dt=torch.float16)]
    if name == "matmul_wgmma_tiny_f16":
        return [f(5, 24, dt=torch.float16), f(24, 16, dt=torch.float16)]
    if name == "matmul_wgmma_bt_gelu_f16":
        return [f(2, 100, 136, dt=torch.float16), f(264, 136, dt=torch.float16) / 8]
    if name == "matmul_wgmma_persistent_ragged_f16":
        return [f(6, 700, 136, dt=torch.float16), f(136, 1000, dt=torch.float16) / 8,
                f(1000, dt=torch.float16), f(6, 700, 1000, dt=torch.float16)]
    if name == "matmul_wgmma_persistent_gelu_f16":
        return [f(2100, 1000, dt=torch.float16), f(1000, 2000, dt=torch.float16) / 16,
                f(2000, dt=torch.float16)]
    if name == "matmul_wgmma_overlapped_default_f16":
        return [f(2000, 800, dt=torch.float16), f(800, 2296, dt=torch.float16) / 16,
                f(2296, dt=torch.float16), f(2000, 2296, dt=torch.float16)]
    if name == "matmul_wgmma_overlapped_narrowed_f16":
        return [f(4000, 776, dt=torch.float16), f(776, 3064, dt=torch.float16) / 16,
                f(3064, dt=torch.float16)]
    if name == "matmul_wgmma_few_tiles_residual_f16":
        return [f(1500, 768, dt=torch.float16), f(768, 768, dt=torch.float16) / 16,
                f(768, dt=torch.float16), f(1500, 768, dt=torch.float16)]
    if name == "matmul_wgmma_short_runs_f16":
        return [f(700, 200, dt=torch.float16), f(200, 1000, dt=torch.float16) / 8,
                f(1000, dt=torch.float16)]
    if name == "matmul_wgmma_multicast_overlapped_f16":
        return [f(2000, 776, dt=torch.float16), f(3064, 776, dt=torch.float16) / 16,
                f(3064, dt=torch.float16), f(2000, 3064, dt=torch.float16)]
    if name == "matmul_wgmma_multicast_tiles_bf16":
        return [f(4000, 200, dt=torch.bfloat16), f(2296, 200, dt=torch.bfloat16) / 8]
    if name == "matmul_wgmma_multicast_along_n_gelu_f16":
        return [f(2000, 1000, dt=torch.float16), f(1000, 2000, dt=torch.float16) / 16,
                f(2000, dt=torch.float16)]
    if name == "matmul_wgmma_multicast_batched_bt_f16":
        return [f(4, 1000, 128, dt=torch.float16), f(4, 1200, 128, dt=torch.float16) / 8,
                f(4, 1000, 1200, dt=torch.float16)]
    if name == "matmul_wgmma_n192_ragged_f16":
        return [f(4000, 200, dt=torch.float16), f(200, 2296, dt=torch.float16) / 8,
                f(2296, dt=torch.float16)]
    if name == "matmul_wgmma_n192_odd_n_bf16":
        return [f(4096, 264, dt=torch.bfloat16), f(766, 264, dt=torch.bfloat16) / 8]
    if name == "matmul_wgmma_cluster_batched_f16":
        return [f(3, 90, 1000, dt=torch.float16), f(1000, 200, dt=torch.float16) / 16,
                f(3, 90, 200, dt=torch.float16)]
    if name == "matmul_wgmma_cluster_bt_odd_n_bf16":
        return [f(128, 512, dt=torch.bfloat16), f(301, 512, dt=torch.bfloat16) / 16]
    if name == "matmul_wgmma_cluster2_gelu_f16":
        return [f(500, 768, dt=torch.float16), f(768, 1536, dt=torch.float16) / 16,
                f(1536, dt=torch.float16)]
    if name == "matmul_wgmma_narrow_residual_f16":
        return [f(1, 120, 768, dt=torch.float16), f(768, 760, dt=torch.float16) / 16,
                f(760, dt=torch.float16), f(1, 120, 760, dt=torch.float16)]
    if name == "matmul_wgmma_narrow_split8_gelu_f16":
        return [f(128, 3072, dt=torch.float16), f(3072, 744, dt=torch.float16) / 32,
                f(744, dt=torch.float16)]
    if name == "attention_gqa_repeat_kv_f16":
        return [f(2, 4, 100, 32, dt=torch.float16), f(2, 2, 100, 32, dt=torch.float16),
                f(2, 2, 100, 32, dt=torch.float16)]
    if name == "attention_shifted_windows_f16":
        mask = torch.where(f(4, 49, 49) > 0.5, -100.0, 0.0)
        return [f(8, 2, 49, 32, dt=torch.float16) for _ in range(3)] + [
            f(1, 2, 49, 49, dt=torch.float16), mask.half()]
    if name == "attention_stacked_qkv_f16":
        return [f(8, 49, 64, dt=torch.float16)]
    if name == "attention_cosine_windows_f16":
        mask = torch.where(f(4, 49, 49) > 0.5, -100.0, 0.0)
        return [f(8, 49, 64, dt=torch.float16), (f(2, 1, 1).abs() * 10 + 1).half(),
                f(1, 2, 49, 49, dt=torch.float16), mask.half()]
    if name == "attention_torchvision_heads_f16":
        return [f(77, 2, 64, dt=torch.float16)]
    if name == "attention_merged_qkv_f16":
        return [f(2, 77, 64, dt=torch.float16)]
    if name == "matmul_transposed_rows_f16":
        return [f(3, 77, 64, dt=torch.float16)]
    if name == "matmul_token_mixing_f16":
        return [f(16, 196, 520, dt=torch.float16)]
    if name == "matmul_gelu_tanh_pow_f16":
        return [f(3, 70, 256, dt=torch.float16), f(256, 200, dt=torch.float16) / 8,
                f(200, dt=torch.float16)]
    if name == "matmul_wgmma_persistent_odd_n_bf16":
        return [f(4500, 72, dt=torch.bfloat16), f(1001, 72, dt=torch.bfloat16) / 8]
    if name == "matmul_wgmma_persistent_bt_f16":
        return [f(4, 1000, 128, dt=torch.float16), f(1200, 128, dt=torch.float16) / 8]
    if name == "matmul_f16_tiled_ragged":
        return [f(3, 300, 200, dt=torch.float16), f(200, 136, dt=torch.float16)]
    if name == "matmul_tiled_epilogue_bf16":
        return [f(2, 130, 64, dt=torch.bfloat16), f(64, 264, dt=torch.bfloat16),
                f(264, dt=torch.bfloat16), f(2, 130, 264, dt=torch.bfloat16)]
    if name == "matmul_wgmma_qdq_int8_relu_f16":
        return [f(2, 200, 256, dt=torch.float16) / 4, f(256, 192, dt=torch.float16) / 16]
    if name == "matmul_qdq_fp8_f32":
        return [f(33, 70), f(70, 50)]
    return None


def matmul_reference(name, d):
    """The float64 outputs of a matmul or attention case (`d`: its inputs,
    floats widened to float64), or None for another case."""
    F = torch.nn.functional
    if name == "attention_scores_transposed_f32":
        return [torch.matmul(d[0].permute(0, 2, 1, 3), d[1].permute(0, 2, 3, 1))]
    if name == "attention_values_transposed_f16":
        return [torch.matmul(d[0].permute(0, 2, 1, 3), d[1].permute(0, 2, 1, 3))]
    if name == "attention_merge_heads_f16":
        return [(d[0] @ d[1]).permute(0, 2, 1, 3).reshape(2, 72, 128)]
    if name == "attention_from_qkv_f16":
        q, k, v = (d[0][..., i * 128:(i + 1) * 128].reshape(2, 64, 4, 32) for i in range(3))
        return [q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1), d[1] @ v.permute(0, 2, 1, 3)]
    if name == "matmul_split_k_bias_gelu_f16":
        return [torch.nn.functional.gelu(d[0] @ d[1] + d[2])]
    if name == "matmul_folded_nhwc_bias_relu_f16":
        return [torch.relu(d[0] @ d[1] + d[2])]
    if name in ("matmul_folded_ragged_bf16", "matmul_folded_f32",
                "matmul_staged_wide_f32"):
        return [d[0] @ d[1]]
    if name in ("matmul_few_rows_gemm_f16", "matmul_few_rows_mma_gemm_f16"):
        return [torch.relu(d[0] @ d[1].T + d[2])]
    if name in ("matmul_few_rows_bf16", "matmul_few_rows_mma_3d_bf16"):
        return [d[0] @ d[1].T]
    if name == "matmul_few_rows_mma_deep_residual_f16":
        return [d[0] @ d[1].T + d[2]]
    if name in ("matmul_few_rows_const_f16", "matmul_few_rows_f32",
                "matmul_few_rows_mma_const_f16"):
        from kernel_constants import CONSTANTS
        w = torch.from_numpy(np.asarray(CONSTANTS["fr_w16" if "f16" in name else "fr_w32"]))
        y = d[0] @ w.double()
        return [y + d[1] if len(d) > 1 else y]
    if name == "matmul_staged_transposed_a_f32":
        return [d[0].transpose(1, 2) @ d[1]]
    if name == "attention_padding_mask_f16":
        q, k, v = (x.reshape(2, 77, 3, 64).permute(0, 2, 1, 3) for x in d[:3])
        c = float(np.float16(64 ** -0.25))
        p = torch.softmax((q * c) @ (k * c).transpose(-1, -2) + d[3], -1)
        p = torch.where(torch.isnan(p), 0.0, p)
        return [(p @ v).permute(0, 2, 1, 3).reshape(2, 77, 192)]
    if name == "attention_causal_f16":
        s = d[0] @ d[1].transpose(-1, -2) * float(np.float16(32 ** -0.5))
        keep = torch.ones(200, 200, dtype=torch.bool).tril()
        s = s + torch.where(keep, 0.0, -65504.0)
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_head256_mask_f16":
        s = d[0] @ d[1].transpose(-1, -2) / 16 + d[3]
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_head96_causal_f16":
        s = d[0] @ d[1].transpose(-1, -2) * float(np.float16(96 ** -0.5))
        keep = torch.ones(200, 200, dtype=torch.bool).tril()
        return [torch.softmax(s + torch.where(keep, 0.0, -65504.0), -1) @ d[2]]
    if name == "attention_head80_mask_bf16":
        s = d[0] @ d[1].transpose(-1, -2) / 8.9375 + d[3]
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_head256_causal_f16":
        s = d[0] @ d[1].transpose(-1, -2) / 16
        keep = torch.ones(200, 200, dtype=torch.bool).tril()
        return [torch.softmax(s + torch.where(keep, 0.0, -65504.0), -1) @ d[2]]
    if name in ("attention_widened_scores_f16", "attention_widened_local_f16"):
        keep = torch.ones(150, 150, dtype=torch.bool).tril()
        if name.endswith("local_f16"):
            keep &= ~torch.ones(150, 150, dtype=torch.bool).tril(-32)
        s = torch.where(keep, d[0] @ d[1].transpose(-1, -2), float(np.finfo(np.float32).min))
        if len(d) > 3:
            s = s + d[3]
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_causal_expanded_f16":
        s = d[0] @ d[1].transpose(-1, -2) * float(np.float16(32 ** -0.5))
        keep = torch.ones(150, 150, dtype=torch.bool).tril()
        return [torch.softmax(s + torch.where(keep, 0.0, -65504.0), -1) @ d[2]]
    if name == "attention_gpt2_batched_f16":
        q, k, v = (x.reshape(2, 130, 2, 32).transpose(1, 2) for x in d)
        s = q @ k.transpose(-1, -2) * float(np.float16(32 ** -0.5))
        keep = torch.ones(130, 130, dtype=torch.bool).tril()
        o = torch.softmax(s + torch.where(keep, 0.0, -65504.0), -1) @ v
        return [o.transpose(1, 2).reshape(2, 130, 64)]
    if name == "attention_masked_fill_f16":
        s = d[0] @ d[1].transpose(-1, -2) * float(np.float16(32 ** -0.5)) + d[3]
        s = torch.where(d[4], s, -65504.0)
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_position_bias_bf16":
        s = d[0] @ d[1].transpose(-1, -2) / 11.3125 + d[3]
        return [torch.softmax(s, -1) @ d[2]]
    if name in ("matmul_epilogue_f16", "matmul_tiled_epilogue_bf16"):
        return [torch.relu(torch.matmul(d[0], d[1]) + d[2]) + d[3]]
    if name == "matmul_wgmma_ragged_epilogue_f16":
        return [torch.matmul(d[0], d[1]) + d[2]]
    if name == "matmul_wgmma_bt_gelu_f16":
        return [torch.sigmoid(torch.matmul(d[0], d[1].t()))]
    if name == "matmul_wgmma_persistent_ragged_f16":
        return [torch.relu(torch.matmul(d[0], d[1]) + d[2] + d[3])]
    if name == "matmul_wgmma_persistent_gelu_f16":
        return [F.gelu(torch.matmul(d[0], d[1]) + d[2])]
    if name in ("matmul_wgmma_overlapped_default_f16",
                "matmul_wgmma_few_tiles_residual_f16"):
        return [torch.matmul(d[0], d[1]) + d[2] + d[3]]
    if name in ("matmul_wgmma_overlapped_narrowed_f16", "matmul_wgmma_short_runs_f16"):
        return [torch.relu(torch.matmul(d[0], d[1]) + d[2])]
    if name == "matmul_wgmma_n192_ragged_f16":
        return [torch.relu(torch.matmul(d[0], d[1]) + d[2])]
    if name == "matmul_wgmma_n192_odd_n_bf16":
        return [torch.sigmoid(d[0] @ d[1].t())]
    if name == "matmul_wgmma_multicast_overlapped_f16":
        return [d[0] @ d[1].t() + d[2] + d[3]]
    if name == "matmul_wgmma_multicast_tiles_bf16":
        return [torch.sigmoid(d[0] @ d[1].t())]
    if name == "matmul_wgmma_multicast_along_n_gelu_f16":
        return [F.gelu(d[0] @ d[1] + d[2])]
    if name == "matmul_wgmma_multicast_batched_bt_f16":
        return [d[0] @ d[1].transpose(1, 2) + d[2]]
    if name == "matmul_wgmma_cluster_batched_f16":
        return [torch.matmul(d[0], d[1]) + d[2]]
    if name == "matmul_wgmma_cluster_bt_odd_n_bf16":
        return [d[0] @ d[1].t()]
    if name == "matmul_wgmma_cluster2_gelu_f16":
        return [torch.nn.functional.gelu(d[0] @ d[1] + d[2])]
    if name == "matmul_wgmma_narrow_residual_f16":
        return [torch.matmul(d[0], d[1]) + d[2] + d[3]]
    if name == "matmul_wgmma_narrow_split8_gelu_f16":
        return [torch.nn.functional.gelu(d[0] @ d[1] + d[2])]
    if name == "matmul_transposed_rows_f16":
        w = stem_weights(64, 64, 1).reshape(64, 64)
        return [d[0].transpose(0, 1) @ w + stem_weights(64, 1, 1).reshape(64)]
    if name == "attention_gqa_repeat_kv_f16":
        k, v = (t.repeat_interleave(2, dim=1) for t in d[1:])
        s = d[0] @ k.transpose(-1, -2) * float(np.float16(32 ** -0.5))
        return [torch.softmax(s, -1) @ v]
    if name == "attention_shifted_windows_f16":
        s = d[0] @ d[1].transpose(-1, -2) * float(np.float16(32 ** -0.5)) + d[3]
        s = (s.reshape(2, 4, 2, 49, 49) + d[4].reshape(1, 4, 1, 49, 49)).reshape(8, 2, 49, 49)
        return [torch.softmax(s, -1) @ d[2]]
    if name == "attention_cosine_windows_f16":
        w = stem_weights(64, 192, 1).reshape(64, 192)
        qkv = d[0] @ w + stem_weights(192, 1, 1).reshape(192)
        q, k, v = qkv.reshape(8, 49, 3, 2, 32).permute(2, 0, 3, 1, 4)
        eps = float(np.float16(1e-3))
        q, k = (torch.nn.functional.normalize(t, dim=-1, eps=eps) for t in (q, k))
        s = q @ k.transpose(-1, -2) * d[1] + d[2]
        s = (s.reshape(2, 4, 2, 49, 49) + d[3].reshape(1, 4, 1, 49, 49)).reshape(8, 2, 49, 49)
        return [torch.softmax(s, -1) @ v]
    if name in ("attention_stacked_qkv_f16", "attention_torchvision_heads_f16"):
        w = stem_weights(64, 192, 1).reshape(64, 192)
        qkv = d[0] @ w + stem_weights(192, 1, 1).reshape(192)
        c = float(np.float16(32 ** -0.5))
        if name == "attention_stacked_qkv_f16":
            q, k, v = qkv.reshape(8, 49, 3, 2, 32).permute(2, 0, 3, 1, 4)
            o = torch.softmax((q * c) @ k.transpose(-1, -2), -1) @ v
            return [o.transpose(1, 2).reshape(8, 49, 64)]
        q, k, v = (t.reshape(77, 4, 32).transpose(0, 1).reshape(2, 2, 77, 32)
                   for t in qkv.reshape(77, 2, 3, 64).permute(2, 0, 1, 3))
        return [torch.softmax(q @ k.transpose(-1, -2) * c, -1) @ v]
    if name == "matmul_token_mixing_f16":
        w1 = (stem_weights(196, 384, 1).reshape(196, 384).half() / 4).double()
        w2 = (stem_weights(384, 196, 1).reshape(384, 196).half() / 4).double()
        g = torch.nn.functional.gelu(d[0].transpose(1, 2) @ w1)
        return [d[0] + (g @ w2).transpose(1, 2)]
    if name.startswith("matmul_gated_"):
        # The cases' f16 weights (kernel_constants.py), exactly.
        def weight(o, c, k, shape, scale):
            return stem_weights(o, c, k).reshape(shape) * scale
        if name == "matmul_gated_gelu_residual_f16":
            wg = weight(256, 136, 1, (256, 136), 1)
            wu = weight(136, 256, 1, (256, 136), 0.5)
            return [F.gelu(d[0] @ wg) * (d[0] @ wu) + d[1]]
        if name == "matmul_gated_chunked_f16":
            g, u = (d[0] @ weight(272, 256, 1, (256, 272), 1)).split(136, -1)
            return [g * torch.sigmoid(g) * u]
        if name.startswith("matmul_gated_few_rows"):
            g = d[0] @ weight(256, 136, 1, (256, 136), 1)
            return [g * torch.sigmoid(g) * (d[0] @ weight(136, 256, 1, (256, 136), 0.5))]
        if name == "matmul_gated_silu_residual_persistent_f16":
            wg = weight(1000, 1536, 1, (1536, 1000), 0.25)
            wu = weight(1536, 1000, 1, (1536, 1000), 0.125)
            g = d[0] @ wg
            return [d[1] + g * torch.sigmoid(g) * (d[0] @ wu)]
        wg = weight(1536, 520, 1, (1536, 520), 0.25)
        wu = weight(520, 1536, 1, (1536, 520), -0.25)
        g = d[0] @ wg
        return [g * torch.sigmoid(g) * (d[0] @ wu)]
    if name == "attention_merged_qkv_f16":
        w = stem_weights(64, 64, 1).reshape(64, 64)
        wv = stem_weights(64, 64, 2).reshape(64, 256)[:, :64]
        b = stem_weights(64, 1, 1).reshape(64)
        q, k, v = (t.reshape(2, 77, 2, 32).transpose(1, 2)
                   for t in (d[0] @ w + b, d[0] @ w.T - b, d[0] @ wv + b))
        s = q @ k.transpose(-1, -2) * float(np.float16(32 ** -0.5))
        return [(torch.softmax(s, -1) @ v).transpose(1, 2).reshape(2, 77, 64)]
    if name == "matmul_gelu_tanh_pow_f16":
        # The model's f16 constants, exactly.
        c, s = float(np.float16(0.044715)), float(np.float16(np.sqrt(2 / np.pi)))
        t = torch.matmul(d[0], d[1]) + d[2]
        return [t * 0.5 * (1 + torch.tanh(s * (t + c * t ** 3)))]
    if name == "matmul_wgmma_persistent_odd_n_bf16":
        return [torch.sigmoid(d[0] @ d[1].t())]
    if name == "matmul_wgmma_persistent_bt_f16":
        return [d[0] @ d[1].t()]
    if name.startswith("matmul"):
        return [torch.matmul(d[0], d[1])]
    return None
