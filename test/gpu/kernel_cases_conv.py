"""The convolution kernel cases of the GPU check corpus (kernel_cases.py
lists them among the others): the untiled, Hopper (wgmma) and direct
bodies, transposed convolutions, cluster splits, channels-last chains.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

F, H, BF = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16
n = helper.make_node


def squeeze_excite(w1, b1, w2, b2):
    """A depthwise 3x3 over x (weights w), then a squeeze-and-excitation
    block gating it: global pool, 1x1 (w1, b1), SiLU, 1x1 (w2, b2),
    sigmoid."""
    return [n("Conv", ["x", "w"], ["c"], group=96, pads=[1, 1, 1, 1]),
            n("GlobalAveragePool", ["c"], ["p"]),
            n("Conv", ["p", w1, b1], ["q1"]), n("Sigmoid", ["q1"], ["h1"]),
            n("Mul", ["q1", "h1"], ["m1"]),
            n("Conv", ["m1", w2, b2], ["q2"]), n("Sigmoid", ["q2"], ["gate"]),
            n("Mul", ["c", "gate"], ["y"])]


def shuffle_block(x, y, tag):
    """A ShuffleNetV2 block over [2, 60, 9, 11] tensor `x` into `y`: the
    channels split in two, the second half through a 1x1 convolution
    (ReLU), a depthwise 3x3 and another 1x1 (ReLU), the halves concatenated
    and shuffled (two groups), as torch exports it."""
    return [n("Split", [x, "sh_split"], [f"{tag}x1", f"{tag}x2"], axis=1),
            n("Conv", [f"{tag}x2", "sh_w1", "sh_b1"], [f"{tag}c1"]),
            n("Relu", [f"{tag}c1"], [f"{tag}r1"]),
            n("Conv", [f"{tag}r1", "sh_wd", "sh_bd"], [f"{tag}d"], group=30,
              pads=[1, 1, 1, 1]),
            n("Conv", [f"{tag}d", "sh_w2"], [f"{tag}c2"]),
            n("Relu", [f"{tag}c2"], [f"{tag}r2"]),
            n("Concat", [f"{tag}x1", f"{tag}r2"], [f"{tag}cat"], axis=1),
            n("Reshape", [f"{tag}cat", "sh_groups"], [f"{tag}g"]),
            n("Transpose", [f"{tag}g"], [f"{tag}t"], perm=[0, 2, 1, 3, 4]),
            n("Reshape", [f"{tag}t", "sh_merged"], [y])]


# (name, graph nodes, inputs [(name, dtype, shape)], outputs), as in
# kernel_cases.py.
CONV_CASES = [
    # Asymmetric pads, stride and dilation per axis, bias, relu epilogue.
    ("conv_bias_relu_f32", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 2, 0, 1],
                              strides=[2, 1], dilations=[1, 2]),
                            n("Relu", ["c"], ["y"])],
     [("x", F, [2, 5, 13, 11]), ("w", F, [7, 5, 3, 3]), ("b", F, [7])],
     [("y", F, [2, 7, 6, 10])]),
    ("conv_group_residual_f16", [n("Conv", ["x", "w"], ["c"], group=4, pads=[1, 1, 1, 1]),
                                 n("Add", ["c", "r"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", H, [1, 8, 10, 10]), ("w", H, [8, 2, 3, 3]), ("r", H, [1, 8, 10, 10])],
     [("y", H, [1, 8, 10, 10])]),
    ("conv_depthwise_bf16", [n("Conv", ["x", "w"], ["y"], group=6, pads=[1, 1, 1, 1],
                               strides=[2, 2])],
     [("x", BF, [1, 6, 9, 9]), ("w", BF, [6, 1, 3, 3])], [("y", BF, [1, 6, 5, 5])]),
    # Channels-last convolutions on the Hopper body (sm_90a): TMA im2col
    # copies. A residual block (the layout moves through the ReLU and the
    # add), strides, dilation and asymmetric pads with ragged channels
    # (zero-filled k-slices) and output channels, a strided 1x1 over three
    # channel slices, the 7x7 stem over 8 channels, and 256-wide tiles.
    ("conv_wgmma_block_f16", [n("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
                              n("Relu", ["c1"], ["r1"]),
                              n("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
                              n("Add", ["c2", "r1"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", H, [2, 64, 14, 14]), ("w1", H, [64, 64, 3, 3]), ("b1", H, [64]),
      ("w2", H, [64, 64, 3, 3])], [("y", H, [2, 64, 14, 14])]),
    ("conv_wgmma_stride_dilation_ragged_f16",
     [n("Conv", ["x", "w", "b"], ["y"], pads=[1, 0, 1, 2], strides=[2, 2], dilations=[1, 2])],
     [("x", H, [3, 40, 15, 13]), ("w", H, [72, 40, 3, 3]), ("b", H, [72])],
     [("y", H, [3, 72, 8, 6])]),
    ("conv_wgmma_1x1_stride2_bf16", [n("Conv", ["x", "w"], ["y"], strides=[2, 2])],
     [("x", BF, [2, 136, 9, 9]), ("w", BF, [96, 136, 1, 1])], [("y", BF, [2, 96, 5, 5])]),
    ("conv_wgmma_stem_f16", [n("Conv", ["x", "w", "b"], ["c"], pads=[3, 3, 3, 3],
                               strides=[2, 2]), n("Relu", ["c"], ["y"])],
     [("x", H, [1, 8, 32, 32]), ("w", H, [64, 8, 7, 7]), ("b", H, [64])],
     [("y", H, [1, 64, 16, 16])]),
    ("conv_wgmma_stem_pool_f16", [n("Conv", ["x", "w", "b"], ["c"], pads=[3, 3, 3, 3],
                                    strides=[2, 2]), n("Relu", ["c"], ["r"]),
                                  n("MaxPool", ["r"], ["p"], kernel_shape=[3, 3],
                                    strides=[2, 2], pads=[1, 1, 1, 1]),
                                  n("Conv", ["p", "w2"], ["y"], pads=[1, 1, 1, 1])],
     [("x", H, [2, 3, 30, 30]), ("w", H, [64, 3, 7, 7]), ("b", H, [64]),
      ("w2", H, [32, 64, 3, 3])], [("y", H, [2, 32, 8, 8])]),
    # Stems with constant weights run space to depth (2 x 2 pixels into
    # 4 C channels, a stride-1 window of ceil(K/2)): ragged sizes, and
    # asymmetric pads with a 3 x 3 window.
    ("conv_wgmma_stem_s2d_f16", [n("Conv", ["x", "stem_w7", "b"], ["y"], pads=[3, 3, 3, 3],
                                   strides=[2, 2])],
     [("x", H, [2, 3, 29, 31]), ("b", H, [24])], [("y", H, [2, 24, 15, 16])]),
    ("conv_wgmma_stem_s2d_pads_f16", [n("Conv", ["x", "stem_w3"], ["c"], pads=[1, 0, 0, 1],
                                        strides=[2, 2]), n("Relu", ["c"], ["y"])],
     [("x", H, [1, 4, 16, 16])], [("y", H, [1, 16, 8, 8])]),
    # A channels-last average pool of vectors of 8 channels, ragged.
    ("conv_avgpool_nhwc_f16", [n("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                               n("AveragePool", ["c"], ["y"], kernel_shape=[3, 3],
                                 strides=[2, 2], pads=[1, 1, 1, 1])],
     [("x", H, [2, 16, 9, 11]), ("w", H, [32, 16, 3, 3])], [("y", H, [2, 32, 5, 6])]),
    # A 5 x 5 window: three cells a window row, 48 channels.
    ("conv_wgmma_stem_s2d_k5_f16", [n("Conv", ["x", "stem_w5"], ["y"], pads=[2, 2, 2, 2],
                                      strides=[2, 2])],
     [("x", H, [2, 2, 23, 21])], [("y", H, [2, 32, 12, 11])]),
    ("conv_wgmma_wide_f16", [n("Conv", ["x", "w"], ["y"])],
     [("x", H, [4, 64, 28, 28]), ("w", H, [256, 64, 1, 1])], [("y", H, [4, 256, 28, 28])]),
    # A persistent convolution (--persistent): 225 tiles of 128 pixels x 256
    # channels.
    ("conv_wgmma_persistent_f16", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                                   n("Add", ["c", "r"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", H, [32, 64, 30, 30]), ("w", H, [256, 64, 3, 3]), ("b", H, [256]),
      ("r", H, [32, 256, 30, 30])], [("y", H, [32, 256, 30, 30])]),
    # ConvTranspose as a stride-1 convolution over zero-inserted input: a
    # UNet-style 2x upsampling (64 channels: the Hopper body after the
    # zero-inserting movement chain) and a grouped, padded, dilated one with
    # output_padding and a bias (the untiled body).
    ("convtranspose_up2_f16", [n("ConvTranspose", ["x", "w", "b"], ["c"], strides=[2, 2]),
                               n("Relu", ["c"], ["y"])],
     [("x", H, [2, 64, 13, 14]), ("w", H, [64, 64, 2, 2]), ("b", H, [64])],
     [("y", H, [2, 64, 26, 28])]),
    ("convtranspose_grouped_f32", [n("ConvTranspose", ["x", "w", "b"], ["y"], group=2,
                                     strides=[3, 2], pads=[1, 2, 0, 1], dilations=[1, 2],
                                     output_padding=[2, 1])],
     [("x", F, [2, 6, 5, 7]), ("w", F, [6, 4, 3, 3]), ("b", F, [8])],
     [("y", F, [2, 8, 16, 15])]),
    # Split K over a cluster: convolutions whose tiles leave most
    # multiprocessors idle sum their blocks' partial tiles in f32, then
    # apply the bias, residual and ReLU. ResNet-50's last-stage 3 x 3 at
    # batch 1 (8 blocks per tile), a ragged one over constant weights (4),
    # and a strided 1 x 1 shortcut (8).
    ("conv_wgmma_split_f16", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                              n("Add", ["c", "r"], ["s"]), n("Relu", ["s"], ["y"])],
     [("x", H, [1, 512, 7, 7]), ("w", H, [512, 512, 3, 3]), ("b", H, [512]),
      ("r", H, [1, 512, 7, 7])], [("y", H, [1, 512, 7, 7])]),
    ("conv_wgmma_split_const_f16", [n("Conv", ["x", "split_w"], ["c"], pads=[1, 1, 1, 1]),
                                    n("Relu", ["c"], ["y"])],
     [("x", H, [1, 256, 9, 11])], [("y", H, [1, 256, 9, 11])]),
    ("conv_wgmma_split_1x1_stride2_bf16", [n("Conv", ["x", "w"], ["y"], strides=[2, 2])],
     [("x", BF, [1, 1024, 13, 13]), ("w", BF, [2048, 1024, 1, 1])],
     [("y", BF, [1, 2048, 7, 7])]),
    # Grouped convolutions whose groups are whole 64-channel slices and
    # 128-wide tiles run on the Hopper body too.
    ("conv_wgmma_grouped_f16", [n("Conv", ["x", "w", "b"], ["c"], group=2, pads=[1, 1, 1, 1]),
                                n("Relu", ["c"], ["y"])],
     [("x", H, [2, 128, 10, 12]), ("w", H, [256, 64, 3, 3]), ("b", H, [256])],
     [("y", H, [2, 256, 10, 12])]),
    ("conv_wgmma_grouped_1x1_bf16", [n("Conv", ["x", "w"], ["y"], group=4)],
     [("x", BF, [3, 256, 7, 9]), ("w", BF, [512, 64, 1, 1])], [("y", BF, [3, 512, 7, 9])]),
    # Narrow groups with constant weights are packed into block-diagonal
    # groups the Hopper body takes (brrr-pack-conv-groups): 16 groups of
    # 16 channels 8 a pack over ragged rows, with a bias and ReLU, and
    # ResNeXt's stride-2 block, 4 groups of 32 channels 4 a pack, and its
    # first stage, 32 groups of 4 channels all in one pack.
    ("conv_packed_groups_f16", [n("Conv", ["x", "pg_w16", "b"], ["c"], group=16,
                                  pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"])],
     [("x", H, [3, 256, 13, 11]), ("b", H, [256])], [("y", H, [3, 256, 13, 11])]),
    ("conv_packed_groups_stride2_f16", [n("Conv", ["x", "pg_w32"], ["y"], group=4,
                                          pads=[1, 1, 1, 1], strides=[2, 2])],
     [("x", H, [2, 128, 15, 15])], [("y", H, [2, 128, 8, 8])]),
    ("conv_packed_groups_32_f16", [n("Conv", ["x", "pg_w4", "b"], ["c"], group=32,
                                     pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"])],
     [("x", H, [2, 128, 13, 15]), ("b", H, [128])], [("y", H, [2, 128, 13, 15])]),
    # RegNetY's 5 groups of 24 channels, which no pack of whole tiles
    # divides: all of them one dense convolution of 120 channels, over
    # 1292 output pixels (11 tiles of 128, enough for the pack to pay).
    ("conv_packed_dense_groups_f16", [n("Conv", ["x", "pg_w24", "b"], ["c"], group=5,
                                        pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"])],
     [("x", H, [4, 120, 19, 17]), ("b", H, [120])], [("y", H, [4, 120, 19, 17])]),
    # Groups of any whole 16-byte chunks of channels run on the Hopper body
    # as they are, padded: a group's last 64-channel slice reads the next
    # group's channels (past the last one, zeros) against zero weights, its
    # last column tile stores only its own columns. RegNetX-8GF's 6 groups
    # of 120 (tiles of 128; at batch 16, 150 tiles, persistent),
    # RegNetX-32GF's 168 (192) at stride 2, RegNetY's 37 groups of 24
    # (tiles of 64), and 56-channel 1x1 groups into a residual add, over
    # ragged rows.
    ("conv_padded_groups_120_f16", [n("Conv", ["x", "w", "b"], ["c"], group=6,
                                      pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"])],
     [("x", H, [1, 720, 14, 14]), ("w", H, [720, 120, 3, 3]), ("b", H, [720])],
     [("y", H, [1, 720, 14, 14])]),
    ("conv_padded_groups_120_b16_f16", [n("Conv", ["x", "w"], ["y"], group=6,
                                          pads=[1, 1, 1, 1])],
     [("x", H, [16, 720, 14, 14]), ("w", H, [720, 120, 3, 3])], [("y", H, [16, 720, 14, 14])]),
    ("conv_padded_groups_168_stride2_f16", [n("Conv", ["x", "w"], ["y"], group=2,
                                              pads=[1, 1, 1, 1], strides=[2, 2])],
     [("x", H, [2, 336, 15, 13]), ("w", H, [336, 168, 3, 3])], [("y", H, [2, 336, 8, 7])]),
    ("conv_padded_groups_24_bf16", [n("Conv", ["x", "w", "b"], ["y"], group=37,
                                      pads=[1, 1, 1, 1])],
     [("x", BF, [3, 888, 7, 9]), ("w", BF, [888, 24, 3, 3]), ("b", BF, [888])],
     [("y", BF, [3, 888, 7, 9])]),
    # Groups' channels of 32 or 64 bytes over several taps: each k-slice
    # holds 16 channels of four taps (32-byte boxes) or 32 channels of two
    # (64-byte boxes), the last slice's taps past the last against zero
    # weights: 32 channels 3 x 3 with a bias and ReLU over a ragged image,
    # 4 groups of 16 at stride 2, 24 channels 5 x 5 (bf16).
    ("conv_wgmma_taps_c32_f16", [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                                 n("Relu", ["c"], ["y"])],
     [("x", H, [3, 32, 13, 11]), ("w", H, [64, 32, 3, 3]), ("b", H, [64])],
     [("y", H, [3, 64, 13, 11])]),
    ("conv_wgmma_taps_groups16_f16", [n("Conv", ["x", "w"], ["y"], group=4,
                                        pads=[1, 1, 1, 1], strides=[2, 2])],
     [("x", H, [2, 64, 9, 10]), ("w", H, [128, 16, 3, 3])], [("y", H, [2, 128, 5, 5])]),
    ("conv_wgmma_taps_c24_5x5_bf16", [n("Conv", ["x", "w"], ["y"], pads=[2, 2, 2, 2])],
     [("x", BF, [2, 24, 11, 12]), ("w", BF, [40, 24, 5, 5])], [("y", BF, [2, 40, 11, 12])]),
    ("conv_padded_groups_56_1x1_f16", [n("Conv", ["x", "w"], ["c"], group=4),
                                       n("Add", ["c", "r"], ["y"])],
     [("x", H, [5, 224, 9, 7]), ("w", H, [224, 56, 1, 1]), ("r", H, [5, 224, 9, 7])],
     [("y", H, [5, 224, 9, 7])]),
    # Depthwise and narrow-group convolutions run the direct body (a thread
    # per output pixel and vector of channels), channels-last on sm_90a:
    # MobileNetV2's block (constant depthwise weights, bias, ReLU6 as Clip,
    # then the 1x1 projection on the Hopper body) over ragged rows, a 5x5
    # with a residual in bf16, ConvNeXt's 7x7 over 36 channels (4 a
    # vector), 7 channels dilated with asymmetric pads (one channel a
    # thread), a channel multiplier of 2, 4-channel groups in f16
    # (channels-last) and in f32 (NCHW), and a batch-32 depthwise layer.
    ("conv_direct_mobilenet_block_f16",
     [n("Conv", ["x", "dw_w", "b"], ["c"], group=96, pads=[1, 1, 1, 1], strides=[2, 2]),
      n("Clip", ["c", "zero16", "six16"], ["r"]), n("Conv", ["r", "w"], ["y"])],
     [("x", H, [2, 96, 29, 31]), ("b", H, [96]), ("w", H, [32, 96, 1, 1])],
     [("y", H, [2, 32, 15, 16])]),
    ("conv_direct_dw5x5_residual_bf16",
     [n("Conv", ["x", "w"], ["c"], group=40, pads=[2, 2, 2, 2]), n("Add", ["c", "r"], ["y"])],
     [("x", BF, [1, 40, 17, 17]), ("w", BF, [40, 1, 5, 5]), ("r", BF, [1, 40, 17, 17])],
     [("y", BF, [1, 40, 17, 17])]),
    ("conv_direct_dw7x7_f16", [n("Conv", ["x", "w", "b"], ["y"], group=36, pads=[3, 3, 3, 3])],
     [("x", H, [2, 36, 14, 14]), ("w", H, [36, 1, 7, 7]), ("b", H, [36])],
     [("y", H, [2, 36, 14, 14])]),
    ("conv_direct_dw_c7_dilated_f16",
     [n("Conv", ["x", "w"], ["y"], group=7, pads=[1, 2, 0, 1], dilations=[2, 2],
        strides=[1, 2])],
     [("x", H, [3, 7, 11, 10]), ("w", H, [7, 1, 3, 3])], [("y", H, [3, 7, 8, 5])]),
    ("conv_direct_multiplier_f16", [n("Conv", ["x", "w"], ["y"], group=8, pads=[1, 1, 1, 1])],
     [("x", H, [2, 8, 9, 9]), ("w", H, [16, 1, 3, 3])], [("y", H, [2, 16, 9, 9])]),
    ("conv_direct_grouped_f16", [n("Conv", ["x", "w"], ["y"], group=8, pads=[1, 1, 1, 1])],
     [("x", H, [1, 32, 10, 10]), ("w", H, [64, 4, 3, 3])], [("y", H, [1, 64, 10, 10])]),
    ("conv_direct_grouped_relu_f32",
     [n("Conv", ["x", "w", "b"], ["c"], group=8, pads=[1, 1, 1, 1], strides=[2, 2]),
      n("Relu", ["c"], ["y"])],
     [("x", F, [2, 32, 13, 13]), ("w", F, [32, 4, 3, 3]), ("b", F, [32])],
     [("y", F, [2, 32, 7, 7])]),
    ("conv_direct_dw_b32_f16", [n("Conv", ["x", "w", "b"], ["y"], group=144, pads=[1, 1, 1, 1])],
     [("x", H, [32, 144, 56, 56]), ("w", H, [144, 1, 3, 3]), ("b", H, [144])],
     [("y", H, [32, 144, 56, 56])]),
    # Threads computing several pixels along a row (tile = [pixels]):
    # ConvNeXt's 7x7 with a bias over a ragged row (30 = 7 x 4 + 2), a
    # stride-2 3x3 with ReLU6 (29 outputs a row), a dilated bf16 5x5 two
    # pixels a thread (37 a row) with a residual.
    ("conv_direct_rows_dw7x7_f16", [n("Conv", ["x", "w", "b"], ["y"], group=96, pads=[3, 3, 3, 3])],
     [("x", H, [16, 96, 30, 30]), ("w", H, [96, 1, 7, 7]), ("b", H, [96])],
     [("y", H, [16, 96, 30, 30])]),
    ("conv_direct_rows_s2_relu6_f16",
     [n("Conv", ["x", "w", "b"], ["c"], group=96, pads=[1, 1, 1, 1], strides=[2, 2]),
      n("Clip", ["c", "zero16", "six16"], ["y"])],
     [("x", H, [32, 96, 57, 57]), ("w", H, [96, 1, 3, 3]), ("b", H, [96])],
     [("y", H, [32, 96, 29, 29])]),
    ("conv_direct_rows_dilated_bf16",
     [n("Conv", ["x", "w"], ["c"], group=64, pads=[4, 4, 4, 4], dilations=[2, 2]),
      n("Add", ["c", "r"], ["y"])],
     [("x", BF, [8, 64, 40, 37]), ("w", BF, [64, 1, 5, 5]), ("r", BF, [8, 64, 40, 37])],
     [("y", BF, [8, 64, 40, 37])]),
    # ConvNeXt's block tail: a layer scale of [C, 1, 1] times the
    # depthwise convolution, plus the block's input (the residual stream
    # stays channels-last, the constant rewritten NHWC).
    ("conv_layer_scale_residual_f16",
     [n("Conv", ["x", "w", "b"], ["c"], group=64, pads=[3, 3, 3, 3]),
      n("Mul", ["gamma64", "c"], ["m"]), n("Add", ["m", "x"], ["y"])],
     [("x", H, [4, 64, 20, 20]), ("w", H, [64, 1, 7, 7]), ("b", H, [64])],
     [("y", H, [4, 64, 20, 20])]),
    # EfficientNet's squeeze and excitation after a channels-last
    # depthwise convolution: the pooled [N, C, 1, 1] read channels-last is
    # a view (its transpose moves only size-1 dimensions), 96 channels
    # squeezed to 4 (padded to 16 for the second product) with SiLU, the
    # sigmoid gate scaling the convolution.
    ("conv_squeeze_excite_f16", squeeze_excite("w1", "b1", "w2", "b2"),
     [("x", H, [2, 96, 14, 14]), ("w", H, [96, 1, 3, 3]), ("w1", H, [4, 96, 1, 1]),
      ("b1", H, [4]), ("w2", H, [96, 4, 1, 1]), ("b2", H, [96])],
     [("y", H, [2, 96, 14, 14])]),
    # The same block with constant weights: the first 1x1 computes its 4
    # squeezed channels padded to 16 itself (zero weights and bias), so no
    # kernel pads them for the second's TMA reads.
    ("conv_squeeze_excite_const_f16", squeeze_excite("se_w1", "se_b1", "se_w2", "se_b2"),
     [("x", H, [2, 96, 14, 14]), ("w", H, [96, 1, 3, 3])], [("y", H, [2, 96, 14, 14])]),
    # 1 x 1 convolutions of one pixel and a few rows run the one-pixel body
    # (a warp an output channel): EfficientNet-B3's widest squeeze and
    # excitation at batch 1 (1392 channels to 58 with SiLU, back with the
    # sigmoid), 3 rows of 2 groups in bf16 (each warp reads its group's
    # channels), and f32 over 58 channels (vectors of 2, a partial pass).
    ("conv_one_pixel_se_f16",
     [n("Conv", ["p", "w1", "b1"], ["q1"]), n("Sigmoid", ["q1"], ["h1"]),
      n("Mul", ["q1", "h1"], ["s1"]), n("Conv", ["s1", "w2", "b2"], ["q2"]),
      n("Sigmoid", ["q2"], ["y"])],
     [("p", H, [1, 1392, 1, 1]), ("w1", H, [58, 1392, 1, 1]), ("b1", H, [58]),
      ("w2", H, [1392, 58, 1, 1]), ("b2", H, [1392])], [("y", H, [1, 1392, 1, 1])]),
    ("conv_one_pixel_grouped_bf16", [n("Conv", ["p", "w", "b"], ["c"], group=2),
                                     n("Relu", ["c"], ["y"])],
     [("p", BF, [3, 256, 1, 1]), ("w", BF, [200, 128, 1, 1]), ("b", BF, [200])],
     [("y", BF, [3, 200, 1, 1])]),
    ("conv_one_pixel_ragged_f32", [n("Conv", ["p", "w"], ["y"])],
     [("p", F, [2, 58, 1, 1]), ("w", F, [333, 58, 1, 1])], [("y", F, [2, 333, 1, 1])]),
    # The layout travels through slices, concatenations and channel
    # shuffles: two ShuffleNetV2 blocks after a 1x1 convolution stay
    # channels-last (30-channel halves, padded to 32 for the 1x1
    # convolutions: the depthwise one computes its padding itself, with
    # the 1x1 before it), and DenseNet's growing feature maps concatenate
    # channels-last: the input, a 3x3's 16 channels, then a 1x1's over
    # those 48, the last concatenation scaled and shifted (a batch norm).
    ("conv_shuffle_blocks_f16",
     [n("Conv", ["x", "sh_w0"], ["sh_c0"]), n("Relu", ["sh_c0"], ["sh_r0"])]
     + shuffle_block("sh_r0", "sh_s1", "blk_a_") + shuffle_block("sh_s1", "y", "blk_b_"),
     [("x", H, [2, 60, 9, 11])], [("y", H, [2, 60, 9, 11])]),
    ("conv_dense_concat_f16",
     [n("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]), n("Relu", ["c1"], ["r1"]),
      n("Concat", ["x", "r1"], ["k1"], axis=1),
      n("Conv", ["k1", "w2"], ["c2"]), n("Relu", ["c2"], ["r2"]),
      n("Concat", ["k1", "r2"], ["k2"], axis=1),
      n("Mul", ["k2", "scale"], ["m"]), n("Add", ["m", "shift"], ["y"])],
     [("x", H, [3, 32, 10, 12]), ("w1", H, [16, 32, 3, 3]), ("w2", H, [16, 48, 1, 1]),
      ("scale", H, [1, 64, 1, 1]), ("shift", H, [1, 64, 1, 1])],
     [("y", H, [3, 64, 10, 12])]),
]
