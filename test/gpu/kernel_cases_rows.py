"""The row, reduction and data-movement kernel cases of the GPU check
corpus (kernel_cases.py lists them among the others): softmax, layer and
RMS norms, packed and long rows, prologues and epilogues, rows read
through data movement, reductions split over blocks and clusters,
transposes and movement trees.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

F, H, BF, I64 = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16,
                 TensorProto.INT64)
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


ROW_CASES = [
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
    # Movement trees (brrr-fuse-movement): Swin's cyclic shift (a roll of
    # two axes, each two slices concatenated) and window partition, one
    # kernel; its patch merge (four strided slices concatenated), one more.
    ("movement_roll_windows_f16",
     roll_hw("x", "x2") + [
      n("Reshape", ["x2", "win_split"], ["w"]), n("Transpose", ["w"], ["wt"], perm=[0, 1, 3, 2, 4, 5]),
      n("Reshape", ["wt", "win_tokens"], ["y"])],
     [("x", H, [2, 14, 14, 16])], [("y", H, [8, 49, 16])]),
    ("movement_patch_merge_f16",
     [n("Slice", ["x", "pm00", "pm_end", "pm_axes", "pm_steps"], ["x0"]),
      n("Slice", ["x", "pm10", "pm_end", "pm_axes", "pm_steps"], ["x1"]),
      n("Slice", ["x", "pm01", "pm_end", "pm_axes", "pm_steps"], ["x2"]),
      n("Slice", ["x", "pm11", "pm_end", "pm_axes", "pm_steps"], ["x3"]),
      n("Concat", ["x0", "x1", "x2", "x3"], ["y"], axis=-1)],
     [("x", H, [2, 14, 14, 16])], [("y", H, [2, 7, 7, 64])]),
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
    ("leading_sum_relu_f32", [n("ReduceSum", ["x", "axis0"], ["s"], keepdims=0),
                              n("Relu", ["s"], ["y"])],
     [("x", F, [6, 33, 65])], [("y", F, [33, 65])]),
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
    # LRN over windows of channels that leave the tensor at both ends; an
    # even size pads one channel more after than before.
    ("lrn_ragged_f32", [n("LRN", ["x"], ["y"], size=5, alpha=1e-3, beta=0.75, bias=2.0)],
     [("x", F, [3, 13, 7, 9])], [("y", F, [3, 13, 7, 9])]),
    ("lrn_even_f16", [n("LRN", ["x"], ["y"], size=4, alpha=2e-4, beta=0.6, bias=1.0)],
     [("x", H, [2, 10, 5, 6])], [("y", H, [2, 10, 5, 6])]),
    ("mvn_f32", [n("MeanVarianceNormalization", ["x"], ["y"])],
     [("x", F, [2, 3, 5, 7])], [("y", F, [2, 3, 5, 7])]),
]
