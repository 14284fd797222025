"""The generated kernel cases of the GPU check corpus: their graphs and
per-case opsets, brrrc flags and tolerances (the constant initializers they
read are in kernel_constants.py). build_corpus.py compiles them;
kernel_references.py (on the GPU machine) gives each its inputs and float64
reference.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

from kernel_cases_attention import ATTENTION_ALIASES, ATTENTION_CASES
from kernel_cases_conv import CONV_CASES
from kernel_cases_matmul import FEW_ROWS_MMA_CASES, MATMUL_CASES
from kernel_cases_quant import QUANT_CASES, QUANT_OPSETS, QUANT_TOLERANCES

# Generated kernel cases: (name, graph nodes, inputs [(name, dtype, shape)],
# outputs [(name, dtype, shape)]). References: the torch expression in
# kernel_references.py keyed by name.
F, H, BF, I64, B = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16,
                    TensorProto.INT64, TensorProto.BOOL)
n = helper.make_node


def roll_hw(x, y):
    """Swin's cyclic shift of [b, 14, 14, c] tensor `x` by -3 along H and W
    into `y`, as torch.roll exports it: per axis, two slices concatenated."""
    return [n("Slice", [x, "roll3", "roll14", "roll_h"], ["a1"]),
            n("Slice", [x, "roll0", "roll3", "roll_h"], ["b1"]),
            n("Concat", ["a1", "b1"], ["x1"], axis=1),
            n("Slice", ["x1", "roll3", "roll14", "roll_w"], ["a2"]),
            n("Slice", ["x1", "roll0", "roll3", "roll_w"], ["b2"]),
            n("Concat", ["a2", "b2"], [y], axis=2)]


KERNEL_CASES = [
    ("cos_cos_ragged", [n("Cos", ["x"], ["c"]), n("Cos", ["c"], ["y"])],
     [("x", F, [1000003])], [("y", F, [1000003])]),
    ("cos_cos_4m", [n("Cos", ["x"], ["c"]), n("Cos", ["c"], ["y"])],
     [("x", F, [4, 1024, 1024])], [("y", F, [4, 1024, 1024])]),
    # 1083425 vectors of 4: two a thread (tile [2]: cos and sin), every
    # load first; a ragged last block, and a row operand read per lane
    # (rows of 1057 are no whole vectors).
    ("trig_two_vectors_f32", [n("Cos", ["x"], ["c"]), n("Sin", ["r"], ["s"]),
                              n("Mul", ["c", "s"], ["y"])],
     [("x", F, [4100, 1057]), ("r", F, [1057])], [("y", F, [4100, 1057])]),
    # SiLU over every finite f16 value: the 16-bit sigmoid's approximate
    # exp and reciprocal.
    ("silu_every_f16", [n("Sigmoid", ["x"], ["s"]), n("Mul", ["x", "s"], ["y"])],
     [("x", H, [62, 1024])], [("y", H, [62, 1024])]),
    ("bias_gelu_f16", [n("Add", ["x", "b"], ["t"]),
                       n("Div", ["t", "s2"], ["d"]), n("Erf", ["d"], ["e"]),
                       n("Add", ["e", "one"], ["p"]), n("Mul", ["t", "p"], ["m"]),
                       n("Mul", ["m", "half"], ["y"])],
     [("x", H, [33, 520]), ("b", H, [520])], [("y", H, [33, 520])]),
    ("broadcast_where_bf16", [n("Greater", ["x", "t"], ["m"]),
                              n("Where", ["m", "x", "t"], ["y"])],
     [("x", BF, [3, 1, 257]), ("t", BF, [5, 1])], [("y", BF, [3, 5, 257])]),
    ("int_mix", [n("Mul", ["a", "b"], ["p"]), n("Sub", ["p", "a"], ["q"]),
                 n("Abs", ["q"], ["y"])],
     [("a", I64, [999]), ("b", I64, [999])], [("y", I64, [999])]),
    ("bool_logic", [n("Greater", ["x", "z"], ["g"]), n("Not", ["g"], ["ng"]),
                    n("Or", ["ng", "m"], ["y"])],
     [("x", F, [17, 31]), ("z", F, [31]), ("m", B, [17, 1])], [("y", B, [17, 31])]),
    ("multi_output_sigmoid_tanh", [n("Sigmoid", ["x"], ["s"]), n("Tanh", ["s"], ["y"]),
                                   n("Exp", ["s"], ["z"])],
     [("x", F, [4096])], [("s", F, [4096]), ("y", F, [4096]), ("z", F, [4096])]),
    ("cast_chain", [n("Cast", ["x"], ["h"], to=H), n("Sqrt", ["h"], ["r"]),
                    n("Cast", ["r"], ["y"], to=F)],
     [("x", F, [64, 64])], [("y", F, [64, 64])]),
    ("softmax_f16", [n("Softmax", ["x"], ["y"], axis=-1)],
     [("x", H, [64, 4096])], [("y", H, [64, 4096])]),
    ("softmax_ragged_f32", [n("Softmax", ["x"], ["y"], axis=-1)],
     [("x", F, [37, 999])], [("y", F, [37, 999])]),
    ("logsoftmax_f32", [n("LogSoftmax", ["x"], ["y"], axis=1)],
     [("x", F, [128, 1000])], [("y", F, [128, 1000])]),
    ("layernorm_f16_two_axes", [n("LayerNormalization", ["x", "g", "b"], ["y"], axis=-2,
                                  epsilon=1e-5)],
     [("x", H, [8, 12, 64]), ("g", H, [12, 64]), ("b", H, [12, 64])], [("y", H, [8, 12, 64])]),
    ("transpose_f16", [n("Transpose", ["x"], ["y"], perm=[2, 0, 1])],
     [("x", H, [33, 65, 130])], [("y", H, [130, 33, 65])]),
    ("gather_rows_negative", [n("Gather", ["t", "i"], ["y"], axis=0)],
     [("t", F, [50, 64]), ("i", I64, [3, 7])], [("y", F, [3, 7, 64])]),
    # Products: kernel_cases_matmul.py.
    *MATMUL_CASES,
    # CumSum as a masked sum: position ids from an int64 mask (stored
    # square, general reduction) and a reversed exclusive f16 sum along a
    # middle axis (the row kernel, nothing stored).
    ("cumsum_positions_i64", [n("CumSum", ["m", "axis1"], ["y"])],
     [("m", I64, [4, 300])], [("y", I64, [4, 300])]),
    ("cumsum_reverse_exclusive_f16", [n("CumSum", ["x", "axis1"], ["y"], exclusive=1, reverse=1)],
     [("x", H, [3, 200, 7])], [("y", H, [3, 200, 7])]),
    # Sibling products of one input as one (brrr-merge-products): query, key
    # and value projections with biases, read only by attention, over a
    # ragged number of tokens.
    ("attention_merged_qkv_f16",
     [n("MatMul", ["x", "mw_q"], ["q0"]), n("Add", ["q0", "mb_q"], ["q"]),
      n("MatMul", ["x", "mw_k"], ["k0"]), n("Add", ["mb_k", "k0"], ["k"]),
      n("MatMul", ["x", "mw_v"], ["v0"]), n("Add", ["v0", "mb_q"], ["v"]),
      n("Reshape", ["q", "mq_heads"], ["q4"]), n("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
      n("Reshape", ["k", "mq_heads"], ["k4"]), n("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
      n("Reshape", ["v", "mq_heads"], ["v4"]), n("Transpose", ["v4"], ["vt"], perm=[0, 2, 1, 3]),
      n("MatMul", ["qt", "kt"], ["s"]), n("Mul", ["s", "c16"], ["ss"]),
      n("Softmax", ["ss"], ["p"], axis=-1), n("MatMul", ["p", "vt"], ["o"]),
      n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "mq_merged"], ["y"])],
     [("x", H, [2, 77, 64])], [("y", H, [2, 77, 64])]),
    # MLP-Mixer's token mixing (brrr-align-products): 196 tokens contracted
    # (K padded to 200: a pad of the transposed input, zero weight rows),
    # GELU, then 196 output columns from a K-major weight, transposed back
    # and added to the input.
    ("matmul_token_mixing_f16",
     [n("Transpose", ["x"], ["xt"], perm=[0, 2, 1]), n("MatMul", ["xt", "tok_w1"], ["h"]),
      n("Gelu", ["h"], ["g"]), n("MatMul", ["g", "tok_w2"], ["o"]),
      n("Transpose", ["o"], ["ot"], perm=[0, 2, 1]), n("Add", ["x", "ot"], ["y"])],
     [("x", H, [16, 196, 520])], [("y", H, [16, 196, 520])]),
    # torchvision's MultiheadAttention projection of [s, b, e] tokens
    # transposed from [b, s, e]: the product reads them in place and the
    # transpose moves after it (the canonicalizer).
    ("matmul_transposed_rows_f16",
     [n("Transpose", ["x"], ["xt"], perm=[1, 0, 2]), n("MatMul", ["xt", "mw_q"], ["m"]),
      n("Add", ["m", "mb_q"], ["y"])],
     [("x", H, [3, 77, 64])], [("y", H, [77, 3, 64])]),
    # Movement trees (brrr-fuse-movement): Swin's cyclic shift (a roll of
    # two axes, each two slices concatenated) and window partition, one
    # kernel; its patch merge (four strided slices concatenated), one more.
    ("movement_roll_windows_f16",
     roll_hw("x", "x2") + [
      n("Reshape", ["x2", "win_split"], ["w"]), n("Transpose", ["w"], ["wt"], perm=[0, 1, 3, 2, 4, 5]),
      n("Reshape", ["wt", "win_tokens"], ["y"])],
     [("x", H, [2, 14, 14, 16])], [("y", H, [8, 49, 16])]),
    # Pointwise kernels reading through data movement (brrr-fuse-elementwise):
    # Llama's attention block with its query, key and value projections
    # merged, rotary embeddings (a product viewed as heads, half of each
    # head negated and swapped by slices and a concatenation) read by one
    # kernel each, and grouped-query heads; Swin's residual added to a roll
    # of two axes; and an f32 mix of lanes that cannot stay vectors: a
    # concatenation whose parts start inside a vector, a transpose of the
    # innermost dimension, a constant pad and an expand of one column.
    ("rotary_llama_attention_f16",
     [n("MatMul", ["x", "rw_q"], ["q0"]), n("MatMul", ["x", "rw_k"], ["k0"]),
      n("MatMul", ["x", "rw_v"], ["v0"]),
      n("Reshape", ["q0", "rq_heads"], ["q1"]), n("Transpose", ["q1"], ["q"], perm=[0, 2, 1, 3]),
      n("Reshape", ["k0", "rk_heads"], ["k1"]), n("Transpose", ["k1"], ["k"], perm=[0, 2, 1, 3]),
      n("Reshape", ["v0", "rk_heads"], ["v1"]), n("Transpose", ["v1"], ["v"], perm=[0, 2, 1, 3]),
      n("Mul", ["q", "cos"], ["qc"]),
      n("Slice", ["q", "r0", "r16", "r_last"], ["qa"]),
      n("Slice", ["q", "r16", "r32", "r_last"], ["qb"]), n("Neg", ["qb"], ["qn"]),
      n("Concat", ["qn", "qa"], ["qr"], axis=-1), n("Mul", ["qr", "sin"], ["qs"]),
      n("Add", ["qc", "qs"], ["qe"]),
      n("Mul", ["k", "cos"], ["kc"]),
      n("Slice", ["k", "r0", "r16", "r_last"], ["ka"]),
      n("Slice", ["k", "r16", "r32", "r_last"], ["kb"]), n("Neg", ["kb"], ["kn"]),
      n("Concat", ["kn", "ka"], ["kr"], axis=-1), n("Mul", ["kr", "sin"], ["ks"]),
      n("Add", ["kc", "ks"], ["ke"]),
      n("Reshape", ["ke", "rk_unsq"], ["ku"]), n("Expand", ["ku", "rk_rep"], ["kx"]),
      n("Reshape", ["kx", "rq_bhsd"], ["k4"]),
      n("Reshape", ["v", "rk_unsq"], ["vu"]), n("Expand", ["vu", "rk_rep"], ["vx"]),
      n("Reshape", ["vx", "rq_bhsd"], ["v4"]),
      n("Transpose", ["k4"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["qe", "kt"], ["sc"]),
      n("Mul", ["sc", "c16"], ["ss"]), n("Softmax", ["ss"], ["p"], axis=-1),
      n("MatMul", ["p", "v4"], ["o"]), n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
      n("Reshape", ["ot", "mq_merged"], ["y"])],
     [("x", H, [2, 77, 64]), ("cos", H, [77, 32]), ("sin", H, [77, 32])],
     [("y", H, [2, 77, 64])]),
    ("pointwise_roll_residual_f16",
     roll_hw("a", "x2") + [n("Add", ["x", "x2"], ["y"])],
     [("x", H, [2, 14, 14, 16]), ("a", H, [2, 14, 14, 16])], [("y", H, [2, 14, 14, 16])]),
    ("pointwise_lanes_apart_f32",
     [n("Concat", ["a", "b"], ["c"], axis=-1), n("Relu", ["c"], ["r"]),
      n("Transpose", ["t"], ["tt"], perm=[1, 0]), n("Mul", ["r", "tt"], ["m"]),
      n("Pad", ["w", "lane_pads", "one32"], ["pw"]), n("Exp", ["pw"], ["e"]),
      n("Add", ["m", "e"], ["s"]), n("Expand", ["u", "lane_wide"], ["ux"]),
      n("Sub", ["s", "ux"], ["y"])],
     [("a", F, [999, 6]), ("b", F, [999, 10]), ("t", F, [16, 999]), ("w", F, [999, 12]),
      ("u", F, [999, 1])], [("y", F, [999, 16])]),
    ("movement_patch_merge_f16",
     [n("Slice", ["x", "pm00", "pm_end", "pm_axes", "pm_steps"], ["x0"]),
      n("Slice", ["x", "pm10", "pm_end", "pm_axes", "pm_steps"], ["x1"]),
      n("Slice", ["x", "pm01", "pm_end", "pm_axes", "pm_steps"], ["x2"]),
      n("Slice", ["x", "pm11", "pm_end", "pm_axes", "pm_steps"], ["x3"]),
      n("Concat", ["x0", "x1", "x2", "x3"], ["y"], axis=-1)],
     [("x", H, [2, 14, 14, 16])], [("y", H, [2, 7, 7, 64])]),
    # Attention reading a stacked query, key and value in place: Swin's
    # [b, s, 3, h, d] projection permuted to [3, b, h, s, d] and indexed;
    # torchvision's [s, b, 3 e] unflattened, permuted, indexed and split
    # into heads through [s, b * h, d].
    ("attention_stacked_qkv_f16",
     [n("MatMul", ["x", "sw_qkv"], ["m"]), n("Add", ["m", "sb_qkv"], ["qkv"]),
      n("Reshape", ["qkv", "sw_heads"], ["r"]), n("Transpose", ["r"], ["t"], perm=[2, 0, 3, 1, 4]),
      n("Gather", ["t", "g0"], ["q"], axis=0), n("Gather", ["t", "g1"], ["k"], axis=0),
      n("Gather", ["t", "g2"], ["v"], axis=0), n("Mul", ["q", "c16"], ["qs"]),
      n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["qs", "kt"], ["s"]),
      n("Softmax", ["s"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["o"]),
      n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "sw_out"], ["y"])],
     [("x", H, [8, 49, 64])], [("y", H, [8, 49, 64])]),
    # Swin's shifted windows: the scores plus a position bias, viewed as
    # [images, windows, heads, s, s], plus a mask for each window, viewed
    # back; one attention kernel with a bias indexed by window.
    ("attention_shifted_windows_f16",
     [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Mul", ["s", "c16"], ["ss"]), n("Add", ["ss", "rel"], ["a"]),
      n("Reshape", ["a", "win_scores"], ["r"]), n("Reshape", ["mask", "win_mask"], ["m"]),
      n("Add", ["r", "m"], ["a2"]), n("Reshape", ["a2", "win_back"], ["x"]),
      n("Softmax", ["x"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("q", H, [8, 2, 49, 32]), ("k", H, [8, 2, 49, 32]), ("v", H, [8, 2, 49, 32]),
      ("rel", H, [1, 2, 49, 49]), ("mask", H, [4, 49, 49])], [("y", H, [8, 2, 49, 32])]),
    # Swin V2's cosine attention: q and k indexed out of the stacked
    # projection and each normalized (ReduceL2, a max by epsilon: one l2 row
    # kernel each, sliced before their transpose), the scores times a
    # temperature per head (which the queries take), a position bias and a
    # mask for each window; one attention kernel.
    ("attention_cosine_windows_f16",
     [n("MatMul", ["x", "sw_qkv"], ["m"]), n("Add", ["m", "sb_qkv"], ["qkv"]),
      n("Reshape", ["qkv", "sw_heads"], ["r"]), n("Transpose", ["r"], ["t"], perm=[2, 0, 3, 1, 4]),
      n("Gather", ["t", "g0"], ["q"], axis=0), n("Gather", ["t", "g1"], ["k"], axis=0),
      n("Gather", ["t", "g2"], ["v"], axis=0),
      n("ReduceL2", ["q"], ["ql"], axes=[-1], keepdims=1), n("Max", ["ql", "eps3_16"], ["qc"]),
      n("Div", ["q", "qc"], ["qn"]),
      n("ReduceL2", ["k"], ["kl"], axes=[-1], keepdims=1), n("Max", ["kl", "eps3_16"], ["kc"]),
      n("Div", ["k", "kc"], ["kn"]),
      n("Transpose", ["kn"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["qn", "kt"], ["s"]),
      n("Mul", ["s", "temp"], ["ss"]), n("Add", ["ss", "rel"], ["a"]),
      n("Reshape", ["a", "win_scores"], ["w"]), n("Reshape", ["mask", "win_mask"], ["wm"]),
      n("Add", ["w", "wm"], ["a2"]), n("Reshape", ["a2", "win_back"], ["xs"]),
      n("Softmax", ["xs"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])],
     [("x", H, [8, 49, 64]), ("temp", H, [2, 1, 1]), ("rel", H, [1, 2, 49, 49]),
      ("mask", H, [4, 49, 49])], [("y", H, [8, 2, 49, 32])]),
    # Grouped-query attention as repeat_kv writes it (2 key and value heads
    # unsqueezed, expanded and merged to 4): the kernel reads the 2 heads.
    ("attention_gqa_repeat_kv_f16",
     [n("Reshape", ["k", "gqa_unsq"], ["kx5"]), n("Expand", ["kx5", "gqa_rep"], ["ke"]),
      n("Reshape", ["ke", "gqa_heads"], ["k4"]),
      n("Reshape", ["v", "gqa_unsq"], ["vx5"]), n("Expand", ["vx5", "gqa_rep"], ["ve"]),
      n("Reshape", ["ve", "gqa_heads"], ["v4"]),
      n("Transpose", ["k4"], ["kt"], perm=[0, 1, 3, 2]), n("MatMul", ["q", "kt"], ["s"]),
      n("Mul", ["s", "c16"], ["ss"]), n("Softmax", ["ss"], ["p"], axis=-1),
      n("MatMul", ["p", "v4"], ["y"])],
     [("q", H, [2, 4, 100, 32]), ("k", H, [2, 2, 100, 32]), ("v", H, [2, 2, 100, 32])],
     [("y", H, [2, 4, 100, 32])]),
    ("attention_torchvision_heads_f16",
     [n("MatMul", ["x", "sw_qkv"], ["m"]), n("Add", ["m", "sb_qkv"], ["qkv"]),
      n("Reshape", ["qkv", "tv_unflat"], ["r"]), n("Transpose", ["r"], ["t"], perm=[3, 1, 2, 0, 4]),
      n("Reshape", ["t", "tv_stack"], ["st"]),
      n("Gather", ["st", "g0"], ["q"], axis=0), n("Gather", ["st", "g1"], ["k"], axis=0),
      n("Gather", ["st", "g2"], ["v"], axis=0),
      n("Reshape", ["q", "tv_heads"], ["q3"]), n("Transpose", ["q3"], ["q4"], perm=[1, 0, 2]),
      n("Reshape", ["q4", "tv_bh"], ["qh"]),
      n("Reshape", ["k", "tv_heads"], ["k3"]), n("Transpose", ["k3"], ["k4"], perm=[1, 2, 0]),
      n("Reshape", ["k4", "tv_kt"], ["kh"]),
      n("Reshape", ["v", "tv_heads"], ["v3"]), n("Transpose", ["v3"], ["v4"], perm=[1, 0, 2]),
      n("Reshape", ["v4", "tv_bh"], ["vh"]),
      n("MatMul", ["qh", "kh"], ["s"]), n("Mul", ["s", "c16"], ["ss"]),
      n("Softmax", ["ss"], ["p"], axis=-1), n("MatMul", ["p", "vh"], ["y"])],
     [("x", H, [77, 2, 64])], [("y", H, [2, 2, 77, 32])]),
    # RMSNorm written out (LlamaRMSNorm's export) as one row kernel: f16
    # through f32 with a cast back before the scale, and f32.
    ("rmsnorm_llama_f16",
     [n("Cast", ["x"], ["xf"], to=F), n("Mul", ["xf", "xf"], ["sq"]),
      n("ReduceMean", ["sq"], ["m"], axes=[-1], keepdims=1), n("Add", ["m", "eps6"], ["a"]),
      n("Sqrt", ["a"], ["s"]), n("Reciprocal", ["s"], ["r"]), n("Mul", ["xf", "r"], ["nf"]),
      n("Cast", ["nf"], ["nh"], to=H), n("Mul", ["g", "nh"], ["y"])],
     [("x", H, [3, 77, 2048]), ("g", H, [2048])], [("y", H, [3, 77, 2048])]),
    ("rmsnorm_f32",
     [n("Mul", ["x", "x"], ["sq"]), n("ReduceMean", ["sq"], ["m"], axes=[-1], keepdims=1),
      n("Add", ["m", "eps6"], ["a"]), n("Sqrt", ["a"], ["s"]), n("Reciprocal", ["s"], ["r"]),
      n("Mul", ["x", "r"], ["nf"]), n("Mul", ["nf", "g"], ["y"])],
     [("x", F, [999, 96]), ("g", F, [96])], [("y", F, [999, 96])]),
    # Patch embeddings as products (brrr-patchify-convs): ViT's 16 x 16
    # patches of an RGB image flattened to tokens (the transposes cancel),
    # and f32 4 x 4 patches kept as NCHW.
    ("conv_patchify_tokens_f16",
     [n("Conv", ["x", "patch_w16", "patch_b16"], ["c"], kernel_shape=[16, 16], strides=[16, 16]),
      n("Reshape", ["c", "patch_tokens"], ["r"]), n("Transpose", ["r"], ["y"], perm=[0, 2, 1])],
     [("x", H, [2, 3, 64, 96])], [("y", H, [2, 24, 64])]),
    ("conv_patchify_nchw_f32",
     [n("Conv", ["x", "patch_w4"], ["y"], kernel_shape=[4, 4], strides=[4, 4])],
     [("x", F, [2, 3, 32, 20])], [("y", F, [2, 8, 8, 5])]),
    # Packed rows (at most 16 vectors a row, several rows a block): a
    # ConvNeXt-style layer norm over 96 f16 channels with a spare row in
    # the last block, a softmax of 20 f16 columns (5 four-wide vectors, a
    # masked lane a row), and an f32 row sum stored once a row.
    ("layernorm_packed_96_f16", [n("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1,
                                   epsilon=1e-6)],
     [("x", H, [3, 1001, 96]), ("g", H, [96]), ("b", H, [96])], [("y", H, [3, 1001, 96])]),
    ("softmax_packed_20_f16", [n("Softmax", ["x"], ["y"], axis=-1)],
     [("x", H, [999, 20])], [("y", H, [999, 20])]),
    ("reduce_packed_sum_f32", [n("ReduceSum", ["x", "ax2"], ["y"], keepdims=0)],
     [("x", F, [7, 111, 40])], [("y", F, [7, 111])]),
    # F.normalize written out, one row kernel (layer_norm {l2}): Swin V2's
    # queries (ReduceL2, a max by epsilon, a factor per head after) over 390
    # f16 rows of 32, one of them so short that the clamp divides it (its
    # squares are below f16's smallest: the sum is f32's); squares summed
    # and a clip over ragged f32 rows of 100, one of them zero; rows of
    # 40000 f32, too long for a row kernel (written as reductions).
    ("l2norm_heads_f16",
     [n("ReduceL2", ["x"], ["l"], axes=[-1], keepdims=1), n("Max", ["l", "eps3_16"], ["c"]),
      n("Div", ["x", "c"], ["u"]), n("Mul", ["u", "t"], ["y"])],
     [("x", H, [2, 3, 65, 32]), ("t", H, [3, 1, 1])], [("y", H, [2, 3, 65, 32])]),
    ("l2norm_clip_f32",
     [n("Mul", ["x", "x"], ["sq"]), n("ReduceSum", ["sq", "last"], ["s"], keepdims=1),
      n("Sqrt", ["s"], ["l"]), n("Clip", ["l", "eps12"], ["c"]), n("Div", ["x", "c"], ["y"])],
     [("x", F, [999, 100])], [("y", F, [999, 100])]),
    ("l2norm_long_f32",
     [n("Mul", ["x", "x"], ["sq"]), n("ReduceSum", ["sq", "last"], ["s"], keepdims=1),
      n("Sqrt", ["s"], ["l"]), n("Clip", ["l", "eps12"], ["c"]), n("Div", ["x", "c"], ["y"])],
     [("x", F, [3, 40000])], [("y", F, [3, 40000])]),
    # Pow by a whole constant as multiplications (the canonicalizer): GPT-2's
    # tanh GELU written out, cubing with Pow, as a product epilogue; f32
    # squares, cubes and fourth powers summed.
    ("matmul_gelu_tanh_pow_f16",
     [n("MatMul", ["a", "b"], ["m"]), n("Add", ["m", "bias"], ["t"]),
      n("Pow", ["t", "three16"], ["p"]), n("Mul", ["p", "gelu_c16"], ["q"]),
      n("Add", ["t", "q"], ["r"]), n("Mul", ["r", "gelu_s16"], ["s"]), n("Tanh", ["s"], ["th"]),
      n("Add", ["th", "one"], ["u"]), n("Mul", ["t", "half"], ["v"]), n("Mul", ["v", "u"], ["y"])],
     [("a", H, [3, 70, 256]), ("b", H, [256, 200]), ("bias", H, [200])],
     [("y", H, [3, 70, 200])]),
    ("pow_whole_exponents_f32",
     [n("Pow", ["x", "two32"], ["p2"]), n("Pow", ["x", "three32"], ["p3"]),
      n("Pow", ["x", "four"], ["p4"]), n("Add", ["p2", "p3"], ["s"]), n("Add", ["s", "p4"], ["y"])],
     [("x", F, [7, 1001])], [("y", F, [7, 1001])]),
    # f16 and bf16 GELUs (exp2 of a polynomial and Abramowitz & Stegun's
    # tail probability, not libdevice's erf) over [-10, 10], both tails
    # included.
    ("gelu_range_f16", [n("Gelu", ["x"], ["y"])], [("x", H, [4, 4096])], [("y", H, [4, 4096])]),
    ("gelu_range_bf16", [n("Gelu", ["x"], ["y"])], [("x", BF, [4, 4096])],
     [("y", BF, [4, 4096])]),
    # The tanh GELU (approximate="tanh") in f16 and bf16: x sigmoid(2u) by
    # an exp2 and a reciprocal, over [-10, 10].
    ("gelu_tanh_range_f16", [n("Gelu", ["x"], ["y"], approximate="tanh")],
     [("x", H, [4, 4096])], [("y", H, [4, 4096])]),
    ("gelu_tanh_range_bf16", [n("Gelu", ["x"], ["y"], approximate="tanh")],
     [("x", BF, [4, 4096])], [("y", BF, [4, 4096])]),
    # OneHot with a constant depth at a middle axis: negative and
    # out-of-range indices, values read at run time.
    ("onehot_axis1_f16", [n("OneHot", ["i", "depth10", "values"], ["y"], axis=1)],
     [("i", I64, [37, 5]), ("values", H, [2])], [("y", H, [37, 10, 5])]),
    # TopK as rank masks summed by the row kernel: a ragged f16 row, the
    # smallest along a middle axis over ties and NaNs, a whole int64 sort
    # over ties, and bf16 along the leading axis.
    ("topk_rows_f16", [n("TopK", ["x", "k5"], ["v", "i"])],
     [("x", H, [37, 999])], [("v", H, [37, 5]), ("i", I64, [37, 5])]),
    ("topk_smallest_nan_ties_f32", [n("TopK", ["x", "k10"], ["v", "i"], axis=1, largest=0)],
     [("x", F, [4, 300, 7])], [("v", F, [4, 10, 7]), ("i", I64, [4, 10, 7])]),
    ("topk_sort_ties_i64", [n("TopK", ["x", "k100"], ["v", "i"])],
     [("x", I64, [16, 100])], [("v", I64, [16, 100]), ("i", I64, [16, 100])]),
    ("topk_axis0_bf16", [n("TopK", ["x", "k5"], ["v", "i"], axis=0)],
     [("x", BF, [64, 33])], [("v", BF, [5, 33]), ("i", I64, [5, 33])]),
    # Einsum: attention's scores as one batched f16 product (keys read
    # transposed) and a three-operand bf16 contraction with a broadcast
    # ellipsis.
    ("einsum_scores_f16", [n("Einsum", ["q", "k"], ["y"], equation="bhqd,bhkd->bhqk")],
     [("q", H, [2, 3, 40, 64]), ("k", H, [2, 3, 72, 64])], [("y", H, [2, 3, 40, 72])]),
    ("einsum_chain_bf16", [n("Einsum", ["a", "b", "c"], ["y"], equation="...ij,jk,...kl->...il")],
     [("a", BF, [3, 1, 24, 40]), ("b", BF, [40, 32]), ("c", BF, [4, 32, 16])],
     [("y", BF, [3, 4, 24, 16])]),
    # Operands read through fused transposes: attention's head layouts.
    ("attention_scores_transposed_f32", [n("Transpose", ["q"], ["qt"], perm=[0, 2, 1, 3]),
                                         n("Transpose", ["k"], ["kt"], perm=[0, 2, 3, 1]),
                                         n("MatMul", ["qt", "kt"], ["y"])],
     [("q", F, [2, 17, 3, 24]), ("k", F, [2, 19, 3, 24])], [("y", F, [2, 3, 17, 19])]),
    ("attention_values_transposed_f16", [n("Transpose", ["p"], ["pt"], perm=[0, 2, 1, 3]),
                                         n("Transpose", ["v"], ["vt"], perm=[0, 2, 1, 3]),
                                         n("MatMul", ["pt", "vt"], ["y"])],
     [("p", H, [2, 150, 4, 40]), ("v", H, [2, 40, 4, 72])], [("y", H, [2, 4, 150, 72])]),
    ("attention_from_qkv_f16", [
        n("Slice", ["qkv", "s0", "s128", "ax2"], ["q"]),
        n("Slice", ["qkv", "s128", "s256", "ax2"], ["k"]),
        n("Slice", ["qkv", "s256", "s384", "ax2"], ["v"]),
        n("Reshape", ["q", "heads"], ["qh"]), n("Reshape", ["k", "heads"], ["kh"]),
        n("Reshape", ["v", "heads"], ["vh"]),
        n("Transpose", ["qh"], ["qt"], perm=[0, 2, 1, 3]),
        n("Transpose", ["kh"], ["kt"], perm=[0, 2, 3, 1]),
        n("Transpose", ["vh"], ["vt"], perm=[0, 2, 1, 3]),
        n("MatMul", ["qt", "kt"], ["s"]), n("MatMul", ["p", "vt"], ["o"])],
     [("qkv", H, [2, 64, 384]), ("p", H, [2, 4, 64, 64])],
     [("s", H, [2, 4, 64, 64]), ("o", H, [2, 4, 64, 32])]),
    ("attention_merge_heads_f16", [n("MatMul", ["p", "v"], ["o"]),
                                   n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
                                   n("Reshape", ["ot", "merged"], ["y"])],
     [("p", H, [2, 4, 72, 64]), ("v", H, [2, 4, 64, 32])], [("y", H, [2, 72, 128])]),
    ("matmul_f32_3xtf32", [n("MatMul", ["a", "b"], ["y"])],
     [("a", F, [128, 96]), ("b", F, [96, 80])], [("y", F, [128, 80])]),
    # The staged f32 body: 128 x 128 tiles (144 of them) over a ragged last
    # k-slice; B read along K (Gemm's transB) with a bias; A read along M
    # through a fused transpose, batched; an NCHW convolution (im2col along
    # the output pixels) with bias and ReLU on 64 x 64 tiles.
    ("matmul_staged_wide_f32", [n("MatMul", ["a", "b"], ["y"])],
     [("a", F, [1500, 100]), ("b", F, [100, 1500])], [("y", F, [1500, 1500])]),
    ("gemm_staged_transb_bias_f32", [n("Gemm", ["a", "b", "c"], ["y"], transB=1)],
     [("a", F, [200, 96]), ("b", F, [150, 96]), ("c", F, [150])], [("y", F, [200, 150])]),
    ("matmul_staged_transposed_a_f32", [n("Transpose", ["x"], ["a"], perm=[0, 2, 1]),
                                        n("MatMul", ["a", "b"], ["y"])],
     [("x", F, [3, 45, 70]), ("b", F, [3, 45, 130])], [("y", F, [3, 70, 130])]),
    ("conv_staged_nchw_bias_relu_f32", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                                        n("Relu", ["c"], ["y"])],
     [("x", F, [4, 64, 28, 28]), ("w", F, [128, 64, 3, 3]), ("b", F, [128])],
     [("y", F, [4, 128, 28, 28])]),
    # f32 products too small to fill sm_90a split their k-slices over a
    # cluster: 8 blocks over 29 slices (the last block gets one) with a
    # bias, BERT-base's attention output product at batch 1 over 4 blocks,
    # and ResNet-50's last 3x3 convolution at batch 1 (144 slices over 8
    # blocks) with bias, residual and ReLU.
    # Products of at most four rows run the few-rows body, a warp a column:
    # a classifier at batch 1 (9216 deep: a loop of eight passes of 16-byte
    # vectors an iteration, then four more; 1003 columns, the last block's
    # warps partly idle) with bias and ReLU, three rows by a constant
    # weight stored K-major at compile time (one partial pass) into a
    # residual, four bf16 rows 100 deep (vectors of 4), and two f32 rows of
    # a 3-D input by a constant 517 deep (one element a load).
    ("matmul_few_rows_gemm_f16", [n("Gemm", ["x", "w", "b"], ["g"], transB=1),
                                  n("Relu", ["g"], ["y"])],
     [("x", H, [1, 9216]), ("w", H, [1003, 9216]), ("b", H, [1003])],
     [("y", H, [1, 1003])]),
    ("matmul_few_rows_const_f16", [n("MatMul", ["x", "fr_w16"], ["m"]),
                                   n("Add", ["m", "r"], ["y"])],
     [("x", H, [3, 200]), ("r", H, [3, 77])], [("y", H, [3, 77])]),
    ("matmul_few_rows_bf16", [n("Gemm", ["x", "w"], ["y"], transB=1)],
     [("x", BF, [4, 100]), ("w", BF, [64, 100])], [("y", BF, [4, 64])]),
    ("matmul_few_rows_f32", [n("MatMul", ["x", "fr_w32"], ["y"])],
     [("x", F, [2, 1, 517])], [("y", F, [2, 1, 300])]),
    ("gemm_split_cluster_bias_f32", [n("Gemm", ["a", "b", "c"], ["y"])],
     [("a", F, [100, 900]), ("b", F, [900, 200]), ("c", F, [200])], [("y", F, [100, 200])]),
    ("matmul_split_cluster_bert_f32", [n("MatMul", ["a", "b"], ["y"])],
     [("a", F, [128, 768]), ("b", F, [768, 768])], [("y", F, [128, 768])]),
    ("conv_split_cluster_residual_f32", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                                         n("Add", ["c", "r"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", F, [1, 512, 7, 7]), ("w", F, [512, 512, 3, 3]), ("b", F, [512]),
      ("r", F, [1, 512, 7, 7])], [("y", F, [1, 512, 7, 7])]),
    # Reductions to a few outputs of 2M and 256K elements each, split into
    # two reductions (brrr-split-reductions): a whole-tensor f16 max (T5's
    # infinity check reduces a whole activation so) and an f16 mean over
    # two axes with kept dimensions, computed in f32 between the steps.
    ("reduce_split_whole_max_f16", [n("ReduceMax", ["x"], ["y"], keepdims=0)],
     [("x", H, [32, 128, 512])], [("y", H, [])]),
    ("reduce_split_mean_keepdims_f16", [n("ReduceMean", ["x"], ["y"], axes=[1, 2], keepdims=1)],
     [("x", H, [2, 256, 1024])], [("y", H, [2, 1, 1])]),
    # Split rows over a cluster: a squeeze-and-excitation pool at batch 1
    # (5625 rows of 144 channels, channels-last) over 8 blocks, an f32 sum
    # of 361 rows of 816 channels (7 blocks) over 2.
    ("reduce_cluster_rows_mean_f16", [n("ReduceMean", ["x"], ["y"], axes=[1, 2], keepdims=1)],
     [("x", H, [1, 75, 75, 144])], [("y", H, [1, 1, 1, 144])]),
    ("reduce_cluster_rows_sum_f32", [n("ReduceSum", ["x", "ax12"], ["y"], keepdims=0)],
     [("x", F, [1, 19, 19, 816])], [("y", F, [1, 816])]),
    ("reduce_mean_f16_trailing2", [n("ReduceMean", ["x"], ["y"], axes=[2, 3], keepdims=1)],
     [("x", H, [4, 16, 33, 31])], [("y", H, [4, 16, 1, 1])]),
    ("reduce_max_ragged_f32", [n("ReduceMax", ["x"], ["y"], axes=[1], keepdims=0)],
     [("x", F, [9, 1001])], [("y", F, [9])]),
    ("matmul_epilogue_f16", [n("MatMul", ["a", "b"], ["m"]), n("Add", ["m", "bias"], ["t"]),
                             n("Relu", ["t"], ["u"]), n("Add", ["u", "r"], ["y"])],
     [("a", H, [2, 37, 48]), ("b", H, [48, 29]), ("bias", H, [29]), ("r", H, [2, 37, 29])],
     [("y", H, [2, 37, 29])]),
    ("layernorm_ragged_f32", [n("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1,
                                epsilon=1e-5)],
     [("x", F, [5, 513]), ("g", F, [513]), ("b", F, [513])], [("y", F, [5, 513])]),
    # General reductions: leading and interleaved axes, integers.
    ("leading_mean_f16", [n("ReduceMean", ["x"], ["y"], axes=[0], keepdims=0)],
     [("x", H, [7, 33, 65])], [("y", H, [33, 65])]),
    ("interleaved_sum_f32", [n("ReduceSum", ["x", "axes02"], ["y"], keepdims=1)],
     [("x", F, [4, 9, 5, 3])], [("y", F, [1, 9, 1, 3])]),
    ("int64_max_rows", [n("ReduceMax", ["x"], ["y"], axes=[1], keepdims=0)],
     [("x", I64, [17, 40])], [("y", I64, [17])]),
    # Cooperative reductions: a block per output (a whole int64 tensor to
    # one value; three f16 outputs over 4096 leading elements each).
    ("reduce_all_i64_cooperative", [n("ReduceSum", ["x"], ["y"], keepdims=0)],
     [("x", I64, [3, 1001, 37])], [("y", I64, [])]),
    ("reduce_max_leading_few_f16", [n("ReduceMax", ["x"], ["y"], axes=[0], keepdims=0)],
     [("x", H, [4096, 3])], [("y", H, [3])]),
    # A transpose read through inside a pointwise kernel.
    # A concatenation wider than a movement tree's 16 parts (DenseNet's
    # feature maps): a binary search over 25 parts of ragged widths, in
    # 16-byte vectors that straddle parts.
    ("concat_25_ragged_f16",
     [n("Concat", [f"part{k}" for k in range(25)], ["y"], axis=1)],
     [(f"part{k}", H, [3, 5 + k, 7]) for k in range(25)],
     [("y", H, [3, sum(5 + k for k in range(25)), 7])]),
    # Index-driven movement: negative and duplicate indices, batch dims,
    # every scatter reduction order-sensitive case, NaN/inf predicates.
    ("gather_elements_negative_f16", [n("GatherElements", ["x", "i"], ["y"], axis=1)],
     [("x", H, [33, 70]), ("i", I64, [33, 5])], [("y", H, [33, 5])]),
    ("gather_nd_batch_f32", [n("GatherND", ["x", "i"], ["y"], batch_dims=1)],
     [("x", F, [4, 9, 7, 5]), ("i", I64, [4, 3, 2])], [("y", F, [4, 3, 5])]),
    ("scatter_nd_add_duplicates_f32", [n("ScatterND", ["x", "i", "u"], ["y"],
                                         reduction="add")],
     [("x", F, [10, 7, 3]), ("i", I64, [6, 1]), ("u", F, [6, 7, 3])],
     [("y", F, [10, 7, 3])]),
    ("scatter_nd_replace_f16", [n("ScatterND", ["x", "i", "u"], ["y"])],
     [("x", H, [33, 40]), ("i", I64, [5, 2]), ("u", H, [5])], [("y", H, [33, 40])]),
    ("scatter_elements_max_i64", [n("ScatterElements", ["x", "i", "u"], ["y"], axis=1,
                                    reduction="max")],
     [("x", I64, [9, 13]), ("i", I64, [7, 4]), ("u", I64, [7, 4])], [("y", I64, [9, 13])]),
    ("isnan_isinf_where_f32", [n("IsNaN", ["x"], ["m"]), n("Where", ["m", "zero", "x"], ["y"]),
                               n("IsInf", ["x"], ["z"], detect_negative=0)],
     [("x", F, [5, 301])], [("y", F, [5, 301]), ("z", B, [5, 301])]),
    ("transposed_add_relu_f16", [n("Transpose", ["x"], ["t"], perm=[2, 0, 1]),
                                 n("Add", ["t", "y"], ["s"]), n("Relu", ["s"], ["z"])],
     [("x", H, [33, 65, 12]), ("y", H, [12, 33, 65])], [("z", H, [12, 33, 65])]),
    # Transposes of two groups of dimensions move through shared tiles:
    # NCHW -> NHWC and back with ragged tiles, and a matrix.
    ("transpose_tiled_nhwc_f32", [n("Transpose", ["x"], ["y"], perm=[0, 2, 3, 1])],
     [("x", F, [3, 70, 5, 9])], [("y", F, [3, 5, 9, 70])]),
    ("transpose_tiled_nchw_i64", [n("Transpose", ["x"], ["y"], perm=[0, 3, 1, 2])],
     [("x", I64, [2, 33, 35, 40])], [("y", I64, [2, 40, 33, 35])]),
    ("transpose_tiled_matrix_f16", [n("Transpose", ["x"], ["y"], perm=[1, 0])],
     [("x", H, [100, 67])], [("y", H, [67, 100])]),
    # A chain of index maps is one movement kernel: transpose, reflect pad,
    # strided slice, reshape and a constant pad of 7, each element walked
    # back to its input.
    ("movement_chain_f32", [n("Transpose", ["x"], ["t"], perm=[0, 2, 3, 1]),
                            n("Pad", ["t", "chain_reflect"], ["r"], mode="reflect"),
                            n("Slice", ["r", "chain_starts", "chain_ends", "chain_axes",
                                        "chain_steps"], ["s"]),
                            n("Reshape", ["s", "chain_shape"], ["v"]),
                            n("Pad", ["v", "chain_pads", "seven"], ["y"])],
     [("x", F, [2, 3, 10, 12])], [("y", F, [2, 7, 48])]),
    ("movement_chain_reshape_i64", [n("Transpose", ["x"], ["t"], perm=[0, 2, 1, 3]),
                                    n("Reshape", ["t", "chain_shape2"], ["v"]),
                                    n("Transpose", ["v"], ["u"], perm=[0, 2, 1]),
                                    n("Pad", ["u", "chain_pads2"], ["y"])],
     [("x", I64, [2, 1, 6, 4])], [("y", I64, [2, 8, 4])]),
    # Movement vectors that leave a row: 4-lane vectors over rows of 7
    # (a transpose, then a pad of one column in front), and 8-lane vectors
    # over a roll of 3 along rows of 16 (the parts start off a vector).
    ("movement_ragged_vectors_f16", [n("Transpose", ["x"], ["t"], perm=[1, 2, 0]),
                                     n("Pad", ["t", "ragged_pads"], ["y"]),
                                     n("Slice", ["z", "roll3", "roll16", "last"], ["a"]),
                                     n("Slice", ["z", "roll0", "roll3", "last"], ["b"]),
                                     n("Concat", ["a", "b"], ["w"], axis=-1)],
     [("x", H, [6, 5, 4]), ("z", H, [2, 5, 16])], [("y", H, [5, 4, 7]), ("w", H, [2, 5, 16])]),
    # Row kernels with fused prologues and epilogues.
    ("scaled_softmax_cast_f16", [n("Div", ["x", "four"], ["d"]),
                                       n("Softmax", ["d"], ["s"], axis=-1),
                                       n("Cast", ["s"], ["y"], to=H)],
     [("x", F, [33, 777])], [("y", H, [33, 777])]),
    ("residual_layernorm_relu_f16", [n("Add", ["x", "a"], ["r"]),
                                     n("LayerNormalization", ["r", "g", "b"], ["n"],
                                       axis=-1, epsilon=1e-5),
                                     n("Relu", ["n"], ["y"])],
     [("x", H, [8, 520]), ("a", H, [8, 520]), ("g", H, [520]), ("b", H, [520])],
     [("r", H, [8, 520]), ("y", H, [8, 520])]),
    # Short rows read from two tensors, four rows a block: Swin V2's
    # post-norm residual (r + layer_norm(x)) over 37 rows of 192 f16 (24
    # vectors: eight lanes of each warp idle, a spare row in the last
    # block), a pre-norm residual stream (s = x + a kept, its layer norm)
    # over 3 x 7 rows of 384 f16, and the post-norm one over 45 f32 rows of
    # 200 (50 four-wide vectors: two a lane, the second for 18 of 32).
    ("post_norm_residual_192_f16", [n("LayerNormalization", ["x", "g", "b"], ["l"],
                                      axis=-1, epsilon=1e-5),
                                    n("Add", ["r", "l"], ["y"])],
     [("x", H, [37, 192]), ("r", H, [37, 192]), ("g", H, [192]), ("b", H, [192])],
     [("y", H, [37, 192])]),
    ("residual_layernorm_384_f16", [n("Add", ["x", "a"], ["s"]),
                                    n("LayerNormalization", ["s", "g", "b"], ["y"],
                                      axis=-1, epsilon=1e-5)],
     [("x", H, [3, 7, 384]), ("a", H, [3, 7, 384]), ("g", H, [384]), ("b", H, [384])],
     [("s", H, [3, 7, 384]), ("y", H, [3, 7, 384])]),
    ("post_norm_residual_200_f32", [n("LayerNormalization", ["x", "g", "b"], ["l"],
                                      axis=-1, epsilon=1e-5),
                                    n("Add", ["r", "l"], ["y"])],
     [("x", F, [45, 200]), ("r", F, [45, 200]), ("g", F, [200]), ("b", F, [200])],
     [("y", F, [45, 200])]),
    # Rows read through data movement, no copy first: Swin V2's post-norm
    # residual after the window reverse and the roll back (a vector a lane,
    # six lanes a row), and a softmax over heads sliced from a transpose
    # (f32 rows of 40: ten four-wide vectors, 16 lanes a row).
    ("post_norm_window_reverse_f16",
     [n("Reshape", ["w", "win_rev48"], ["r"]), n("Transpose", ["r"], ["t"], perm=[0, 1, 3, 2, 4, 5]),
      n("Reshape", ["t", "win_img48"], ["im"])] + roll_hw("im", "rolled") +
     [n("LayerNormalization", ["rolled", "g", "b"], ["l"], axis=-1, epsilon=1e-5),
      n("Add", ["x", "l"], ["y"])],
     [("w", H, [8, 49, 48]), ("x", H, [2, 14, 14, 48]), ("g", H, [48]), ("b", H, [48])],
     [("y", H, [2, 14, 14, 48])]),
    # Swin's layer norm before its roll and window partition: the norm moves
    # below the movement and writes the windows (six vectors a row, eight
    # lanes, a spare row in the last block).
    ("layernorm_roll_windows_f16",
     [n("LayerNormalization", ["x", "g", "b"], ["l"], axis=-1, epsilon=1e-5)] +
     roll_hw("l", "rolled") +
     [n("Reshape", ["rolled", "win_split48"], ["p"]),
      n("Transpose", ["p"], ["t"], perm=[0, 1, 3, 2, 4, 5]),
      n("Reshape", ["t", "win_tokens48"], ["y"])],
     [("x", H, [2, 14, 14, 48]), ("g", H, [48]), ("b", H, [48])], [("y", H, [8, 49, 48])]),
    ("sliced_heads_softmax_f32",
     [n("Transpose", ["x"], ["t"], perm=[0, 2, 1, 3]),
      n("Slice", ["t", "heads13", "heads3", "roll_h"], ["s"]),
      n("Softmax", ["s"], ["y"], axis=-1)],
     [("x", F, [2, 5, 3, 40])], [("y", F, [2, 2, 5, 40])]),
    ("masked_softmax_bias_f32", [n("Add", ["x", "bias"], ["t"]), n("Add", ["t", "m"], ["u"]),
                               n("Softmax", ["u"], ["y"], axis=-1)],
     [("x", F, [4, 8, 100]), ("bias", F, [100]), ("m", F, [4, 1, 100])],
     [("y", F, [4, 8, 100])]),
    ("sum_of_squares_f32", [n("Mul", ["x", "x"], ["q"]),
                            n("ReduceSum", ["q", "axis1"], ["y"], keepdims=0)],
     [("x", F, [9, 1001])], [("y", F, [9])]),
    # Split K over a cluster (few tiles, long K): a batch-1 MLP product with
    # its bias and GELU on the f32 sum (8 blocks per tile), and a ragged
    # bf16 one (200 rows); a leading-axis sum with its pointwise epilogue
    # in the reduction kernel.
    ("matmul_split_k_bias_gelu_f16", [n("MatMul", ["x", "w"], ["m"]), n("Add", ["m", "b"], ["t"]),
                                      n("Gelu", ["t"], ["y"])],
     [("x", H, [1, 128, 3072]), ("w", H, [3072, 768]), ("b", H, [768])],
     [("y", H, [1, 128, 768])]),
    ("matmul_split_k_ragged_bf16", [n("MatMul", ["x", "w"], ["y"])],
     [("x", BF, [200, 2048]), ("w", BF, [2048, 512])], [("y", BF, [200, 512])]),
    ("leading_sum_relu_f32", [n("ReduceSum", ["x", "axis0"], ["s"], keepdims=0),
                              n("Relu", ["s"], ["y"])],
     [("x", F, [6, 33, 65])], [("y", F, [33, 65])]),
    # Products whose B has no batch dimensions fold A's batches into rows:
    # ConvNeXt's Linear over NHWC (4 x 7 x 56 rows, bias and ReLU, on the
    # wgmma body), a ragged bf16 one (3 x 50 rows) and an f32 one on the
    # staged tf32 body (5 x 9 rows, 17 columns).
    ("matmul_folded_nhwc_bias_relu_f16",
     [n("MatMul", ["x", "w"], ["m"]), n("Add", ["m", "b"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", H, [4, 7, 56, 96]), ("w", H, [96, 384]), ("b", H, [384])],
     [("y", H, [4, 7, 56, 384])]),
    ("matmul_folded_ragged_bf16", [n("MatMul", ["x", "w"], ["y"])],
     [("x", BF, [3, 50, 72]), ("w", BF, [72, 40])], [("y", BF, [3, 50, 40])]),
    ("matmul_folded_f32", [n("MatMul", ["x", "w"], ["y"])],
     [("x", F, [5, 9, 33]), ("w", F, [33, 17])], [("y", F, [5, 9, 17])]),
    # Reductions over a run of axes before a kept innermost one split their
    # rows over a block: EfficientNet's squeeze-excitation mean over H and W
    # of NHWC at batch 32 (8-channel vectors) with its sigmoid, a ragged
    # bf16 one (5 vectors a block), a leading sum over 77 columns (3 blocks
    # of lanes, the last partial) and an integer max over a middle axis.
    ("reduce_split_rows_nhwc_mean_f16",
     [n("ReduceMean", ["x"], ["m"], axes=[1, 2]), n("Sigmoid", ["m"], ["y"])],
     [("x", H, [32, 112, 112, 32])], [("y", H, [32, 1, 1, 32])]),
    ("reduce_split_rows_ragged_bf16", [n("ReduceMean", ["x"], ["y"], axes=[1, 2])],
     [("x", BF, [3, 17, 13, 40])], [("y", BF, [3, 1, 1, 40])]),
    ("reduce_split_rows_leading_f32", [n("ReduceSum", ["x", "axis0"], ["y"], keepdims=0)],
     [("x", F, [3000, 77])], [("y", F, [77])]),
    ("reduce_split_rows_max_i64", [n("ReduceMax", ["x"], ["y"], axes=[1], keepdims=0)],
     [("x", I64, [5, 300, 12])], [("y", I64, [5, 12])]),
    # Fused attention: kernel_cases_attention.py.
    *ATTENTION_CASES,
    # Convolutions: kernel_cases_conv.py.
    *CONV_CASES,
    ("maxpool_ceil_f16", [n("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                            pads=[1, 1, 1, 1], ceil_mode=1)],
     [("x", H, [2, 3, 10, 8])], [("y", H, [2, 3, 6, 5])]),
    ("avgpool_pads_f32", [n("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                            pads=[1, 1, 1, 1])],
     [("x", F, [1, 4, 11, 12])], [("y", F, [1, 4, 6, 6])]),
    ("avgpool_include_pad_f16", [n("AveragePool", ["x"], ["y"], kernel_shape=[2, 2],
                                   strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1)],
     [("x", H, [1, 3, 7, 7])], [("y", H, [1, 3, 4, 4])]),
    # Resize, one thread an output element: linear half_pixel (torch's
    # bilinear) up by 13/7 and 20/9, linear align_corners down along W,
    # nearest by integer scales, nearest-exact (half_pixel, halves up), and
    # non-integer scales rounding halves down, where the coordinates divide
    # by the scales given (1.5, 0.7), not by output / input.
    ("resize_linear_half_pixel_f16", [n("Resize", ["x", "", "", "rs_sizes1"], ["y"],
                                        mode="linear")],
     [("x", H, [2, 5, 7, 9])], [("y", H, [2, 5, 13, 20])]),
    ("resize_linear_align_corners_f32", [n("Resize", ["x", "", "", "rs_sizes2"], ["y"],
                                           mode="linear",
                                           coordinate_transformation_mode="align_corners")],
     [("x", F, [1, 3, 6, 11])], [("y", F, [1, 3, 17, 4])]),
    ("resize_nearest_scales_f32", [n("Resize", ["x", "", "rs_scales1"], ["y"],
                                     coordinate_transformation_mode="asymmetric",
                                     nearest_mode="floor")],
     [("x", F, [2, 3, 5, 7])], [("y", F, [2, 3, 10, 21])]),
    ("resize_nearest_exact_f16", [n("Resize", ["x", "", "", "rs_sizes3"], ["y"],
                                    nearest_mode="round_prefer_ceil")],
     [("x", H, [1, 2, 5, 7])], [("y", H, [1, 2, 8, 3])]),
    ("resize_nearest_prefer_floor_f32", [n("Resize", ["x", "", "rs_scales2"], ["y"])],
     [("x", F, [1, 1, 5, 6])], [("y", F, [1, 1, 7, 4])]),
    # InstanceNormalization: a layer norm over H x W with a unit scale, the
    # per-channel scale and bias as its epilogue (rows of 63, ragged).
    ("instance_norm_f16", [n("InstanceNormalization", ["x", "s", "b"], ["y"],
                             epsilon=1e-3)],
     [("x", H, [2, 5, 7, 9]), ("s", H, [5]), ("b", H, [5])], [("y", H, [2, 5, 7, 9])]),
    # Softmax over a middle axis (a CoaT's over tokens): transposed, a row
    # kernel over the last axis, transposed back.
    ("transposed_softmax_axis1_f16", [n("Softmax", ["x"], ["y"], axis=1)],
     [("x", H, [2, 37, 3, 40])], [("y", H, [2, 37, 3, 40])]),
    # Rows longer than the register-resident row kernel holds: a softmax
    # over a vocabulary (50257, odd: scalar loads), a log-softmax over
    # 70001 f32, PoolFormer's GroupNorm (one group: InstanceNormalization
    # over 200704), written as reductions and pointwise arithmetic; a mean
    # over rows of 40000 f32, a general reduction.
    ("vocab_softmax_f16", [n("Softmax", ["x"], ["y"], axis=-1)],
     [("x", H, [8, 50257])], [("y", H, [8, 50257])]),
    ("long_rows_logsoftmax_f32", [n("LogSoftmax", ["x"], ["y"], axis=-1)],
     [("x", F, [3, 70001])], [("y", F, [3, 70001])]),
    ("long_rows_groupnorm_f16", [n("InstanceNormalization", ["x", "s", "b"], ["y"])],
     [("x", H, [2, 1, 200704]), ("s", H, [1]), ("b", H, [1])], [("y", H, [2, 1, 200704])]),
    ("long_rows_mean_f32", [n("ReduceMean", ["x"], ["y"], axes=[1], keepdims=0)],
     [("x", F, [64, 40000])], [("y", F, [64])]),
    # Rounding, sign, inverse trigonometric and hyperbolic functions (u in
    # (-0.95, 0.95)); Acosh(Cosh(x)) = |x|. f16 inputs hold exact halves:
    # Round takes them to even.
    ("unary_math_ragged_f32",
     [n(op, [i], [o]) for op, i, o in [
         ("Round", "x", "r"), ("Sign", "x", "s"), ("Tan", "u", "t"), ("Atan", "x", "at"),
         ("Asin", "u", "as"), ("Acos", "u", "ac"), ("Sinh", "x", "sh"), ("Cosh", "x", "ch"),
         ("Asinh", "x", "ash"), ("Acosh", "ch", "ach"), ("Atanh", "u", "ath")]],
     [("x", F, [7, 333]), ("u", F, [7, 333])],
     [(o, F, [7, 333]) for o in ("r", "s", "t", "at", "as", "ac", "sh", "ch", "ash", "ach",
                                 "ath")]),
    ("unary_math_f16", [n("Round", ["x"], ["r"]), n("Sign", ["x"], ["s"]),
                        n("Atan", ["x"], ["at"]), n("Sinh", ["x"], ["sh"])],
     [("x", H, [5, 1027])], [(o, H, [5, 1027]) for o in ("r", "s", "at", "sh")]),
    ("sign_i64", [n("Sign", ["x"], ["y"])], [("x", I64, [1001])], [("y", I64, [1001])]),
    # LRN over windows of channels that leave the tensor at both ends; an
    # even size pads one channel more after than before.
    ("lrn_ragged_f32", [n("LRN", ["x"], ["y"], size=5, alpha=1e-3, beta=0.75, bias=2.0)],
     [("x", F, [3, 13, 7, 9])], [("y", F, [3, 13, 7, 9])]),
    ("lrn_even_f16", [n("LRN", ["x"], ["y"], size=4, alpha=2e-4, beta=0.6, bias=1.0)],
     [("x", H, [2, 10, 5, 6])], [("y", H, [2, 10, 5, 6])]),
    ("mvn_f32", [n("MeanVarianceNormalization", ["x"], ["y"])],
     [("x", F, [2, 3, 5, 7])], [("y", F, [2, 3, 5, 7])]),
    # Quantization: kernel_cases_quant.py.
    *QUANT_CASES,
]

# Per-case tolerances. cast_chain's f32 output passes through f16: fused
# kernels keep 16-bit intermediates in f32 and round only at explicit casts
# and stores, so the error is f16's, not f32's. The GELUs are held tighter
# than their dtype's default: the correctly rounded f16 (bf16) GELU over
# [-10, 10] is 4.5e-5 (3.1e-4) from float64.
TOLERANCES = {"cast_chain": 2e-3, "gelu_range_f16": 1e-4, "gelu_range_bf16": 6e-4,
              "gelu_tanh_range_f16": 1e-4, "gelu_tanh_range_bf16": 6e-4,
              **QUANT_TOLERANCES}

# Cases that need a newer opset than 17 (scatter max/min since 18).
OPSETS = {"matmul_token_mixing_f16": 20, "scatter_nd_add_duplicates_f32": 18, "scatter_elements_max_i64": 18,
          "matmul_split_k_bias_gelu_f16": 20, "matmul_wgmma_cluster2_gelu_f16": 20,
          "matmul_gated_gelu_residual_f16": 20,
          "matmul_wgmma_narrow_split8_gelu_f16": 20,
          "matmul_wgmma_persistent_gelu_f16": 20, "matmul_wgmma_multicast_along_n_gelu_f16": 20,
          "gelu_range_f16": 20, "gelu_range_bf16": 20, "onehot_axis1_f16": 11,
          "gelu_tanh_range_f16": 20, "gelu_tanh_range_bf16": 20,
          **QUANT_OPSETS}


# Cases compiled with extra brrrc flags.
PERSISTENT_CASES = ("matmul_wgmma_persistent_ragged_f16", "matmul_wgmma_persistent_odd_n_bf16",
                    "matmul_wgmma_persistent_bt_f16", "matmul_wgmma_persistent_gelu_f16",
                    "conv_wgmma_persistent_f16")
FLAGS = {name: ["--persistent"] for name in PERSISTENT_CASES}
FLAGS.update({name: ["--few-rows-mma"] for name in FEW_ROWS_MMA_CASES})

# Cases that compile another case's graph with other flags, checked with
# that case's inputs and reference (GRAPH_OF): the persistent ones again
# as ping-pong kernels (brrrc --pingpong; 128 x 128 tiles, 2-3 a block,
# each consumer warpgroup every other one) and as overlapped ones (brrrc
# --overlap-epilogue; whole tiles staged in 16 bits, the epilogue by the
# producer warpgroup's spare warps: odd N stores one element at a time).
GRAPH_OF = {name.replace("persistent", "pingpong"): name for name in PERSISTENT_CASES}
FLAGS.update({name: ["--pingpong"] for name in GRAPH_OF})
OVERLAPPED = {name.replace("persistent", "overlapped"): name for name in PERSISTENT_CASES}
FLAGS.update({name: ["--overlap-epilogue"] for name in OVERLAPPED})
GRAPH_OF.update(OVERLAPPED)
GRAPH_OF["qmatmul_fp8_deep_fast_f32"] = "qmatmul_fp8_deep_f32"
FLAGS["qmatmul_fp8_deep_fast_f32"] = ["--fp8-fast-accumulation"]
# Promoted float8 sums on the ping-pong schedule: 128 x 64 tiles (17 x 35,
# the last column tile 24 wide), each consumer warpgroup every other one.
GRAPH_OF["qmatmul_fp8_deep_pingpong_f32"] = "qmatmul_fp8_deep_persistent_f32"
FLAGS["qmatmul_fp8_deep_pingpong_f32"] = ["--pingpong"]
# 8-bit products on the overlapped schedule: f32 sums staged whole, the
# scales and bias applied by the drain warps; 128 x 128 tiles (promoted
# float8 17 x 18, the last column tile 24 wide; INT8 17 x 9, 76 wide; an
# INT8 convolution 113 x 2).
for graph in ("qmatmul_fp8_deep_persistent_f32", "qmatmul_int8_wide_f16",
              "qconv_int8_wide_f16"):
    alias = graph.replace("persistent", "overlapped").replace("wide", "overlapped")
    GRAPH_OF[alias] = graph
    FLAGS[alias] = ["--overlap-epilogue"]
# Multicasting pairs wherever the tiles pair up (brrrc --multicast=always):
# a persistent walk over four batches of a broadcast B (8 x 5 tiles of 256
# each, 160 over 132 blocks); ping-pong tiles of 128 x 128 (36 x 8, an odd
# N); a persistent convolution (225 x 1 tiles of 256, a residual).
for graph, flags in (("matmul_wgmma_persistent_bt_f16", ["--persistent"]),
                     ("matmul_wgmma_persistent_odd_n_bf16", ["--pingpong"]),
                     ("conv_wgmma_persistent_f16", ["--persistent"])):
    alias = graph.replace("persistent", "multicast")
    GRAPH_OF[alias] = graph
    FLAGS[alias] = flags + ["--multicast=always"]
FLAGS["matmul_wgmma_multicast_along_n_gelu_f16"] = ["--multicast=always"]
# A pair over a B read along N on the cooperative persistent schedule (its
# epilogue reads a residual): 16 x 12 tiles of 192 over 132 blocks, ragged
# on every side, bias and residual.
GRAPH_OF["matmul_wgmma_multicast_along_n_overlapped_f16"] = "matmul_wgmma_overlapped_default_f16"
FLAGS["matmul_wgmma_multicast_along_n_overlapped_f16"] = ["--multicast=always"]
# Every overlapped case again with a drain warpgroup of its own (brrrc
# --drain-warpgroup: 512 threads, seven drain warps, each loading one row
# group a step; tiles at most 192 wide): forced overlapped (16-bit, 8-bit,
# convolutions) and overlapped by default (a bias and ReLU over ragged
# 192-wide tiles; a gated SiLU's paired halves, 128 wide).
DEFAULT_OVERLAPPED = ("matmul_wgmma_overlapped_narrowed_f16", "matmul_gated_silu_overlapped_f16")
for case in [c for c, f in FLAGS.items() if "--overlap-epilogue" in f] + list(DEFAULT_OVERLAPPED):
    alias = case.replace("overlapped", "drained")
    GRAPH_OF[alias] = GRAPH_OF.get(case, case)
    FLAGS[alias] = FLAGS.get(case, []) + ["--drain-warpgroup"]
    if case in TOLERANCES:
        TOLERANCES[alias] = TOLERANCES[case]
# Attention again on other bodies and schedules: kernel_cases_attention.py.
for alias, (graph, flags) in ATTENTION_ALIASES.items():
    GRAPH_OF[alias] = graph
    FLAGS[alias] = flags
KERNEL_CASES += [(alias, *next(c[1:] for c in KERNEL_CASES if c[0] == graph))
                 for alias, graph in GRAPH_OF.items()]
OPSETS.update({alias: OPSETS[graph] for alias, graph in GRAPH_OF.items() if graph in OPSETS})
