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
from kernel_cases_rows import ROW_CASES, roll_hw

# Generated kernel cases: (name, graph nodes, inputs [(name, dtype, shape)],
# outputs [(name, dtype, shape)]). References: the torch expression in
# kernel_references.py keyed by name.
F, H, BF, I64, B = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16,
                    TensorProto.INT64, TensorProto.BOOL)
n = helper.make_node


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
    ("matmul_epilogue_f16", [n("MatMul", ["a", "b"], ["m"]), n("Add", ["m", "bias"], ["t"]),
                             n("Relu", ["t"], ["u"]), n("Add", ["u", "r"], ["y"])],
     [("a", H, [2, 37, 48]), ("b", H, [48, 29]), ("bias", H, [29]), ("r", H, [2, 37, 29])],
     [("y", H, [2, 37, 29])]),
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
    # Rows, reductions and data movement: kernel_cases_rows.py.
    *ROW_CASES,
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
# Stream-K (brrrc --stream-k=always): each block of the persistent grid
# takes an even run of the product's k-slices instead of whole tiles, and
# a tile two blocks share is completed by the first with the second's
# partial sums from the workspace. The persistent cases on the cooperative
# schedule (an odd N; 320 tiles with B read along K, both unpaired; 272
# tiles of 16 k-slices, the last ragged, with a GELU; a 3 x 3
# convolution's 225 tiles of 9 taps with a residual), on the
# overlapped one (a residual and a ReLU by the drain warps), 8-bit sums (a
# promoted float8 product's 17 x 12 tiles, overlapped INT8 s32), and 72
# tiles made a persistent grid of 132 blocks (runs shorter than a tile).
STREAM_K = {"matmul_wgmma_streamk_odd_n_bf16": ("matmul_wgmma_persistent_odd_n_bf16",
                                                ["--persistent", "--multicast=never"]),
            "matmul_wgmma_streamk_bt_f16": ("matmul_wgmma_persistent_bt_f16",
                                            ["--persistent", "--multicast=never"]),
            "matmul_wgmma_streamk_gelu_f16": ("matmul_wgmma_persistent_gelu_f16", ["--persistent"]),
            "conv_wgmma_streamk_f16": ("conv_wgmma_persistent_f16", ["--persistent"]),
            "matmul_wgmma_streamk_overlapped_f16": ("matmul_wgmma_overlapped_default_f16", []),
            "matmul_wgmma_streamk_narrowed_f16": ("matmul_wgmma_overlapped_narrowed_f16", []),
            "qmatmul_fp8_streamk_f32": ("qmatmul_fp8_deep_persistent_f32", ["--persistent"]),
            "qmatmul_int8_streamk_f16": ("qmatmul_int8_wide_f16", ["--overlap-epilogue"]),
            "matmul_wgmma_streamk_few_tiles_f16": ("matmul_wgmma_few_tiles_residual_f16", []),
            "matmul_wgmma_streamk_short_runs_f16": ("matmul_wgmma_short_runs_f16", [])}
for alias, (graph, flags) in STREAM_K.items():
    GRAPH_OF[alias] = graph
    FLAGS[alias] = flags + ["--stream-k=always"]
    if graph in TOLERANCES:
        TOLERANCES[alias] = TOLERANCES[graph]
# Attention again on other bodies and schedules: kernel_cases_attention.py.
for alias, (graph, flags) in ATTENTION_ALIASES.items():
    GRAPH_OF[alias] = graph
    FLAGS[alias] = flags
KERNEL_CASES += [(alias, *next(c[1:] for c in KERNEL_CASES if c[0] == graph))
                 for alias, graph in GRAPH_OF.items()]
OPSETS.update({alias: OPSETS[graph] for alias, graph in GRAPH_OF.items() if graph in OPSETS})
