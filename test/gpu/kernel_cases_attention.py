"""The fused attention kernel cases of the GPU check corpus (kernel_cases.py
lists them among the others): the exporters' forms of attention that
brrr-fuse-attention folds into one kernel, and the same graphs again on the
other attention bodies and schedules (ATTENTION_ALIASES: alias -> (graph,
brrrc flags)), checked with the graph's inputs and reference.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

F, H, BF, B = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16,
              TensorProto.BOOL)
n = helper.make_node


def causal_case(name, scale, shape):
    """The case `name`: f16 attention over q, k and v of `shape` [b, h, s,
    d], the scores scaled after the product by the constant `scale` and
    masked causally from compared ranges (`cols` <= `rows`, the other
    positions at f16's lowest)."""
    return (name,
            [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
             n("Mul", ["s", scale], ["ss"]), n("LessOrEqual", ["cols", "rows"], ["keep"]),
             n("Where", ["keep", "zero16", "low16"], ["mask"]), n("Add", ["ss", "mask"], ["sm"]),
             n("Softmax", ["sm"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
            [("q", H, shape), ("k", H, shape), ("v", H, shape)], [("y", H, shape)])


ATTENTION_CASES = [
    # Fused attention (brrr-fuse-attention) in the exporters' forms: heads
    # split from [B, S, H*D] and merged back, both operands scaled, a padding
    # mask with fully masked rows and the IsNaN clean-up; a causal mask from
    # compared ranges, scaled after the product; a bf16 position bias over
    # fewer queries than keys, a 128-wide head and 64-wide values.
    ("attention_padding_mask_f16",
     [n("Reshape", ["q", "bshd"], ["q4"]), n("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
      n("Reshape", ["k", "bshd"], ["k4"]), n("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
      n("Reshape", ["v", "bshd"], ["v4"]), n("Transpose", ["v4"], ["vt"], perm=[0, 2, 1, 3]),
      n("Mul", ["qt", "qk_scale"], ["qs"]), n("Mul", ["kt", "qk_scale"], ["ks"]),
      n("MatMul", ["qs", "ks"], ["s"]), n("Add", ["s", "m"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("IsNaN", ["p"], ["nan"]),
      n("Where", ["nan", "zero16", "p"], ["pc"]), n("MatMul", ["pc", "vt"], ["o"]),
      n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "bsm"], ["y"])],
     [("q", H, [2, 77, 192]), ("k", H, [2, 77, 192]), ("v", H, [2, 77, 192]),
      ("m", H, [2, 1, 1, 77])], [("y", H, [2, 77, 192])]),
    causal_case("attention_causal_f16", "c16", [1, 2, 200, 32]),
    # Heads of 256 (Gemma's): key blocks of 32 (on the mma_sync body the
    # queries read from shared memory at each); a padding mask at f16's
    # lowest over 20 of batch 1's 77 keys, and a causal mask over 200 (the
    # last query block ragged).
    ("attention_head256_mask_f16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Mul", ["s", "c256"], ["ss"]), n("Add", ["ss", "m"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("q", H, [2, 2, 77, 256]), ("k", H, [2, 2, 77, 256]), ("v", H, [2, 2, 77, 256]),
      ("m", H, [2, 1, 1, 77])], [("y", H, [2, 2, 77, 256])]),
    causal_case("attention_head256_causal_f16", "c256", [1, 2, 200, 256]),
    # GPT-2's export at a batch above 1: the causal condition expanded over
    # the batch and folded, one matrix per batch entry (still `causal`).
    ("attention_causal_expanded_f16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Mul", ["s", "c16"], ["ss"]), n("Where", ["keep3x150", "zero16", "low16"], ["mask"]),
      n("Add", ["ss", "mask"], ["sm"]), n("Softmax", ["sm"], ["p"], axis=-1),
      n("MatMul", ["p", "v"], ["y"])],
     [("q", H, [3, 2, 150, 32]), ("k", H, [3, 2, 150, 32]), ("v", H, [3, 2, 150, 32])],
     [("y", H, [3, 2, 150, 32])]),
    # GPT-2's export at batch 2 as brrrc sees it: K^T through [batch *
    # heads, s, d] (the canonicalizer undoes the merge, so the kernel reads
    # the keys in place) and the causal condition expanded over the batch
    # by an Expand that is not folded.
    ("attention_gpt2_batched_f16",
     [n("Reshape", ["q", "gpt_heads"], ["q4"]), n("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
      n("Reshape", ["k", "gpt_heads"], ["k4"]), n("Transpose", ["k4"], ["kh"], perm=[0, 2, 1, 3]),
      n("Reshape", ["kh", "gpt_merged"], ["k3"]), n("Transpose", ["k3"], ["k3t"], perm=[0, 2, 1]),
      n("Reshape", ["k3t", "gpt_keys"], ["kt"]),
      n("Reshape", ["v", "gpt_heads"], ["v4"]), n("Transpose", ["v4"], ["vt"], perm=[0, 2, 1, 3]),
      n("MatMul", ["qt", "kt"], ["s"]), n("Mul", ["s", "c16"], ["ss"]),
      n("Expand", ["tril130", "gpt_mask"], ["keep"]),
      n("Where", ["keep", "zero16", "low16"], ["mask"]), n("Add", ["ss", "mask"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("MatMul", ["p", "vt"], ["o"]),
      n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "gpt_out"], ["y"])],
     [("q", H, [2, 130, 64]), ("k", H, [2, 130, 64]), ("v", H, [2, 130, 64])],
     [("y", H, [2, 130, 64])]),
    # DeBERTa's masked fill beside a relative bias: where(keep, s + rel,
    # lowest) with a pairwise mask (batch 1's padded queries mask every key:
    # torch averages those rows).
    ("attention_masked_fill_f16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Mul", ["s", "c16"], ["ss"]), n("Add", ["ss", "rel"], ["sr"]),
      n("Where", ["keep", "sr", "low16"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("q", H, [2, 2, 77, 32]), ("k", H, [2, 2, 77, 32]), ("v", H, [2, 2, 77, 32]),
      ("rel", H, [2, 2, 77, 77]), ("keep", B, [2, 1, 77, 77])],
     [("y", H, [2, 2, 77, 32])]),
    ("attention_position_bias_bf16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Div", ["s", "root128"], ["sd"]), n("Add", ["sd", "bias"], ["sb"]),
      n("Softmax", ["sb"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("q", BF, [2, 4, 37, 128]), ("k", BF, [2, 4, 100, 128]), ("v", BF, [2, 4, 100, 64]),
      ("bias", BF, [4, 37, 100])], [("y", BF, [2, 4, 37, 64])]),
    # Heads the wgmma body reads through other swizzles: 96 (three boxes of
    # 64 bytes a row), causal over 200 (the last query block ragged), and
    # 80 in bf16 (five boxes of 32 bytes), a padding mask over 77 keys.
    causal_case("attention_head96_causal_f16", "c96", [1, 3, 200, 96]),
    ("attention_head80_mask_bf16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Div", ["s", "root80"], ["sd"]), n("Add", ["sd", "m"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("q", BF, [2, 2, 77, 80]), ("k", BF, [2, 2, 77, 80]), ("v", BF, [2, 2, 77, 80]),
      ("m", BF, [2, 1, 1, 77])], [("y", BF, [2, 2, 77, 80])]),
    # GPT-Neo's attention: f16 queries and keys cast to f32 for an unscaled
    # product, the causal fill at f32's lowest, the padding mask added in
    # f32 (batch 1 masks its last 40 keys), the softmax in f32 and its
    # probabilities cast back to f16; and its local layers' band of 32 keys.
    ("attention_widened_scores_f16",
     [n("Cast", ["q"], ["qf"], to=F), n("Cast", ["k"], ["kf"], to=F),
      n("Transpose", ["kf"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["qf", "kt"], ["s"]),
      n("Where", ["tril150", "s", "low32"], ["sf"]), n("Add", ["sf", "m"], ["sm"]),
      n("Softmax", ["sm"], ["p"], axis=-1), n("Cast", ["p"], ["ph"], to=H),
      n("MatMul", ["ph", "v"], ["y"])],
     [("q", H, [2, 3, 150, 64]), ("k", H, [2, 3, 150, 64]), ("v", H, [2, 3, 150, 64]),
      ("m", F, [2, 1, 1, 150])], [("y", H, [2, 3, 150, 64])]),
    ("attention_widened_local_f16",
     [n("Cast", ["q"], ["qf"], to=F), n("Cast", ["k"], ["kf"], to=F),
      n("Transpose", ["kf"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["qf", "kt"], ["s"]),
      n("Where", ["band150", "s", "low32"], ["sf"]),
      n("Softmax", ["sf"], ["p"], axis=-1), n("Cast", ["p"], ["ph"], to=H),
      n("MatMul", ["ph", "v"], ["y"])],
     [("q", H, [2, 3, 150, 64]), ("k", H, [2, 3, 150, 64]), ("v", H, [2, 3, 150, 64])],
     [("y", H, [2, 3, 150, 64])]),
]

ATTENTION_ALIASES = {}
# 16-bit attention with heads up to 256 runs the wgmma body on sm_90a by
# default (heads of 32 through 64-byte swizzled rows, 64, 128 and 256
# through 128-byte ones, 96 and 80 through 64- and 32-byte ones). The exporters'
# forms again on the mma_sync body (--hopper-attention=never: masks,
# biases, causal, grouped and stacked heads), and two warpgroups of 64
# queries with key blocks of 128 (--attention-tile=128x128x8).
for graph in ("attention_padding_mask_f16", "attention_causal_f16",
              "attention_causal_expanded_f16", "attention_gpt2_batched_f16",
              "attention_masked_fill_f16", "attention_position_bias_bf16",
              "attention_gqa_repeat_kv_f16", "attention_stacked_qkv_f16",
              "attention_shifted_windows_f16", "attention_torchvision_heads_f16",
              "attention_head96_causal_f16", "attention_widened_scores_f16"):
    alias = graph.replace("attention_", "attention_mma_")
    ATTENTION_ALIASES[alias] = (graph, ["--hopper-attention=never"])
for graph in ("attention_head96_causal_f16", "attention_position_bias_bf16"):
    alias = graph.replace("attention_", "attention_two_groups_")
    ATTENTION_ALIASES[alias] = (graph, ["--attention-tile=128x128x8"])
# The wgmma body's overlapped schedule (--overlap-attention): each key
# block's softmax beside the previous block's values, three stages; ragged
# sequences, causal, masks and fills, grouped heads, heads of 96 and 80,
# widened scores, and two warpgroups with key blocks of 128.
for graph in ("attention_padding_mask_f16", "attention_causal_f16",
              "attention_causal_expanded_f16", "attention_masked_fill_f16",
              "attention_position_bias_bf16", "attention_gqa_repeat_kv_f16",
              "attention_head96_causal_f16", "attention_head80_mask_bf16",
              "attention_widened_scores_f16"):
    alias = graph.replace("attention_", "attention_overlapped_")
    ATTENTION_ALIASES[alias] = (graph, ["--overlap-attention"])
for graph in ("attention_head96_causal_f16", "attention_position_bias_bf16"):
    alias = graph.replace("attention_", "attention_overlapped_two_groups_")
    ATTENTION_ALIASES[alias] = (graph, ["--overlap-attention", "--attention-tile=128x128x8"])
# Heads of 256 run the wgmma body by default too (key blocks of 32,
# m64n256k16 for the values): again on the mma_sync body, and on the
# overlapped schedule.
for graph in ("attention_head256_mask_f16", "attention_head256_causal_f16"):
    alias = graph.replace("attention_", "attention_mma_")
    ATTENTION_ALIASES[alias] = (graph, ["--hopper-attention=never"])
ATTENTION_ALIASES["attention_overlapped_head256_causal_f16"] = (
    "attention_head256_causal_f16", ["--overlap-attention"])
