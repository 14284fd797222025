"""The matmul kernel cases of the GPU check corpus (kernel_cases.py lists
them among the others, and sets their opsets, flags and aliases): the
untiled, staged and Hopper TMA + wgmma bodies, their tile widths, cluster
splits, narrow tiles and persistent and overlapped schedules. The
references are in kernel_references.py.

Run with Debian's /usr/bin/python3 (onnx).
"""

from onnx import TensorProto, helper

H, BF = TensorProto.FLOAT16, TensorProto.BFLOAT16
n = helper.make_node

# (name, graph nodes, inputs [(name, dtype, shape)], outputs), as in
# kernel_cases.py.
MATMUL_CASES = [
    ("matmul_f16_batched_ragged", [n("MatMul", ["a", "b"], ["y"])],
     [("a", H, [3, 33, 70]), ("b", H, [70, 45])], [("y", H, [3, 33, 45])]),
    ("matmul_bf16_broadcast", [n("MatMul", ["a", "b"], ["y"])],
     [("a", BF, [2, 1, 40, 64]), ("b", BF, [3, 64, 24])], [("y", BF, [2, 3, 40, 24])]),
    # Staged (tiled) Tensor Core bodies: K and N whole 16-byte chunks.
    ("matmul_f16_tiled_ragged", [n("MatMul", ["a", "b"], ["y"])],
     [("a", H, [3, 300, 200]), ("b", H, [200, 136])], [("y", H, [3, 300, 136])]),
    ("matmul_tiled_epilogue_bf16", [n("MatMul", ["a", "b"], ["m"]), n("Add", ["m", "bias"], ["t"]),
                                    n("Relu", ["t"], ["u"]), n("Add", ["u", "r"], ["y"])],
     [("a", BF, [2, 130, 64]), ("b", BF, [64, 264]), ("bias", BF, [264]),
      ("r", BF, [2, 130, 264])], [("y", BF, [2, 130, 264])]),
    # Hopper TMA + wgmma bodies (sm_90a): ragged M, N and K (TMA zero-fills
    # past the edges), both tile widths, batched operands on both sides,
    # boxes larger than the matrix, a K-contiguous B read through a fused
    # transpose, and fused epilogues.
    ("matmul_wgmma_ragged_epilogue_f16", [n("MatMul", ["a", "b"], ["m"]),
                                          n("Add", ["m", "bias"], ["y"])],
     [("a", H, [2, 333, 200]), ("b", H, [200, 520]), ("bias", H, [520])],
     [("y", H, [2, 333, 520])]),
    ("matmul_wgmma_n256_bf16", [n("MatMul", ["a", "b"], ["y"])],
     [("a", BF, [2304, 328]), ("b", BF, [328, 2304])], [("y", BF, [2304, 2304])]),
    ("matmul_wgmma_batched_f16", [n("MatMul", ["a", "b"], ["y"])],
     [("a", H, [3, 130, 72]), ("b", H, [3, 72, 200])], [("y", H, [3, 130, 200])]),
    ("matmul_wgmma_tiny_f16", [n("MatMul", ["a", "b"], ["y"])],
     [("a", H, [5, 24]), ("b", H, [24, 16])], [("y", H, [5, 16])]),
    ("matmul_wgmma_bt_gelu_f16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                  n("MatMul", ["a", "wt"], ["m"]), n("Sigmoid", ["m"], ["y"])],
     [("a", H, [2, 100, 136]), ("w", H, [264, 136])], [("y", H, [2, 100, 264])]),
    # 192-wide wgmma tiles (the wave model's pick where 128 or 256 would
    # leave a wave mostly idle): ragged M and N (2296 = 11 whole tiles and
    # 184 columns) with N-major B in three 64-column boxes, bias and ReLU;
    # an N that is not a multiple of 4 (scalar epilogue) read through a
    # K-contiguous B.
    ("matmul_wgmma_n192_ragged_f16", [n("MatMul", ["a", "b"], ["m"]),
                                      n("Add", ["m", "bias"], ["t"]), n("Relu", ["t"], ["y"])],
     [("a", H, [4000, 200]), ("b", H, [200, 2296]), ("bias", H, [2296])],
     [("y", H, [4000, 2296])]),
    ("matmul_wgmma_n192_odd_n_bf16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                      n("MatMul", ["a", "wt"], ["m"]),
                                      n("Sigmoid", ["m"], ["y"])],
     [("a", BF, [4096, 264]), ("w", BF, [766, 264])], [("y", BF, [4096, 766])]),
    # wgmma tiles split over a cluster (few tiles, long K): the blocks sum
    # their partial tiles through distributed shared memory. Eight blocks
    # per tile over three batches, the last k-slice past K (1000 = 15.6
    # slices) and a residual; a K-contiguous B with an odd N (scalar
    # epilogue) over eight; two blocks per tile of a ragged GELU product.
    ("matmul_wgmma_cluster_batched_f16", [n("MatMul", ["a", "b"], ["m"]),
                                          n("Add", ["m", "r"], ["y"])],
     [("a", H, [3, 90, 1000]), ("b", H, [1000, 200]), ("r", H, [3, 90, 200])],
     [("y", H, [3, 90, 200])]),
    ("matmul_wgmma_cluster_bt_odd_n_bf16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                            n("MatMul", ["a", "wt"], ["y"])],
     [("a", BF, [128, 512]), ("w", BF, [301, 512])], [("y", BF, [128, 301])]),
    ("matmul_wgmma_cluster2_gelu_f16", [n("MatMul", ["a", "b"], ["m"]),
                                        n("Add", ["m", "bias"], ["t"]), n("Gelu", ["t"], ["y"])],
     [("a", H, [500, 768]), ("b", H, [768, 1536]), ("bias", H, [1536])],
     [("y", H, [500, 1536])]),
    # Narrow 128 x 64 tiles for products of less than a wave (a transformer
    # at batch 1), split over clusters: ragged rows and columns (120 x 760,
    # 12 tiles over 4 blocks, 3 slices each) with bias and residual; BERT's
    # second MLP product with an N of 744 (12 tiles over 8, 6 slices each)
    # and GELU.
    ("matmul_wgmma_narrow_residual_f16", [n("MatMul", ["a", "b"], ["m"]),
                                          n("Add", ["m", "bias"], ["t"]),
                                          n("Add", ["t", "r"], ["y"])],
     [("a", H, [1, 120, 768]), ("b", H, [768, 760]), ("bias", H, [760]),
      ("r", H, [1, 120, 760])], [("y", H, [1, 120, 760])]),
    ("matmul_wgmma_narrow_split8_gelu_f16", [n("MatMul", ["a", "b"], ["m"]),
                                             n("Add", ["m", "bias"], ["t"]),
                                             n("Gelu", ["t"], ["y"])],
     [("a", H, [128, 3072]), ("b", H, [3072, 744]), ("bias", H, [744])],
     [("y", H, [128, 744])]),
    # Persistent wgmma kernels (brrrc --persistent, FLAGS; more tiles than
    # multiprocessors): blocks
    # walk tiles across batches, the producer streams the next tile while
    # the epilogue stages column chunks. Ragged M, N and K with bias,
    # residual and ReLU over 144 tiles of 256; an odd N (scalar epilogue);
    # 320 tiles of 128 with a K-contiguous B.
    ("matmul_wgmma_persistent_ragged_f16", [n("MatMul", ["a", "b"], ["m"]),
                                            n("Add", ["m", "bias"], ["t"]),
                                            n("Add", ["t", "r"], ["u"]), n("Relu", ["u"], ["y"])],
     [("a", H, [6, 700, 136]), ("b", H, [136, 1000]), ("bias", H, [1000]),
      ("r", H, [6, 700, 1000])], [("y", H, [6, 700, 1000])]),
    ("matmul_wgmma_persistent_odd_n_bf16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                            n("MatMul", ["a", "wt"], ["m"]),
                                            n("Sigmoid", ["m"], ["y"])],
     [("a", BF, [4500, 72]), ("w", BF, [1001, 72])], [("y", BF, [4500, 1001])]),
    ("matmul_wgmma_persistent_bt_f16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                        n("MatMul", ["a", "wt"], ["y"])],
     [("a", H, [4, 1000, 128]), ("w", H, [1200, 128])], [("y", H, [4, 1000, 1200])]),
    # 17 x 16 tiles of 128 (272: 2-3 a block) over 16 k-slices, the last
    # ragged, with a bias and the erf GELU.
    ("matmul_wgmma_persistent_gelu_f16", [n("MatMul", ["a", "b"], ["m"]),
                                          n("Add", ["m", "bias"], ["t"]), n("Gelu", ["t"], ["y"])],
     [("a", H, [2100, 1000]), ("b", H, [1000, 2000]), ("bias", H, [2000])],
     [("y", H, [2100, 2000])]),
    # The default schedule of a product whose tiles outnumber the
    # multiprocessors, at least 768 deep with a light epilogue: overlapped
    # (ragged M, N and K; bias and residual).
    ("matmul_wgmma_overlapped_default_f16", [n("MatMul", ["a", "b"], ["m"]),
                                             n("Add", ["m", "bias"], ["t"]),
                                             n("Add", ["t", "r"], ["y"])],
     [("a", H, [2000, 800]), ("b", H, [800, 2296]), ("bias", H, [2296]),
      ("r", H, [2000, 2296])], [("y", H, [2000, 2296])]),
    # Whisper's output projection at one 30 s clip (1500 x 768 x 768, a
    # bias and a residual): 12 x 6 tiles of 128 over 12 k-slices, one block
    # a tile, or under --stream-k=always (kernel_cases.py) a persistent
    # grid of 132 blocks, 6-7 slices each: a tile shared by two or three
    # blocks, some holding neither of its ends.
    ("matmul_wgmma_few_tiles_residual_f16", [n("MatMul", ["a", "b"], ["m"]),
                                             n("Add", ["m", "bias"], ["t"]),
                                             n("Add", ["t", "r"], ["y"])],
     [("a", H, [1500, 768]), ("b", H, [768, 768]), ("bias", H, [768]),
      ("r", H, [1500, 768])], [("y", H, [1500, 768])]),
    # Runs shorter than a tile's slices: 6 x 16 tiles of 128 x 64 (the last
    # 60 rows and 40 columns) over 4 k-slices (the last 8 deep), under
    # --stream-k=always (kernel_cases.py) 384 slices over 132 blocks, 2-3
    # a block: most tiles shared by two or three blocks (a bias and ReLU).
    ("matmul_wgmma_short_runs_f16", [n("MatMul", ["a", "b"], ["m"]),
                                     n("Add", ["m", "bias"], ["t"]),
                                     n("Relu", ["t"], ["y"])],
     [("a", H, [700, 200]), ("b", H, [200, 1000]), ("bias", H, [1000])],
     [("y", H, [700, 1000])]),
    # Overlapped by default with no residual to read: 256 columns staged
    # leave room for three stages, so the tile narrows to 192 columns and
    # four (ragged M, N and K; 32 x 16 tiles, the last column tile 184
    # wide; a bias and ReLU).
    ("matmul_wgmma_overlapped_narrowed_f16", [n("MatMul", ["a", "b"], ["m"]),
                                              n("Add", ["m", "bias"], ["t"]),
                                              n("Relu", ["t"], ["y"])],
     [("a", H, [4000, 776]), ("b", H, [776, 3064]), ("bias", H, [3064])],
     [("y", H, [4000, 3064])]),
    # Pairs of blocks multicasting B (a K-contiguous weight read through a
    # transpose) by default where the tiles outnumber the multiprocessors:
    # overlapped 192-wide tiles (16 x 16, the last row tile 80 rows and the
    # last column tile 184 wide, the last k-slice partial) with a bias and
    # residual; one block a tile (K under 768: 32 x 9 tiles of 256, the
    # last 248 wide, ragged K) with a sigmoid.
    ("matmul_wgmma_multicast_overlapped_f16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                               n("MatMul", ["a", "wt"], ["m"]),
                                               n("Add", ["m", "bias"], ["t"]),
                                               n("Add", ["t", "r"], ["y"])],
     [("a", H, [2000, 776]), ("w", H, [3064, 776]), ("bias", H, [3064]),
      ("r", H, [2000, 3064])], [("y", H, [2000, 3064])]),
    ("matmul_wgmma_multicast_tiles_bf16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                           n("MatMul", ["a", "wt"], ["m"]),
                                           n("Sigmoid", ["m"], ["y"])],
     [("a", BF, [4000, 200]), ("w", BF, [2296, 200])], [("y", BF, [4000, 2296])]),
    # A batched B read along K (its batch the map's third coordinate, after
    # the pair's half of the columns): 4 batches (grid z) of 8 x 7 tiles of
    # 192, the last 48 wide, with a residual.
    ("matmul_wgmma_multicast_batched_bt_f16", [n("Transpose", ["w"], ["wt"], perm=[0, 2, 1]),
                                               n("MatMul", ["a", "wt"], ["m"]),
                                               n("Add", ["m", "r"], ["y"])],
     [("a", H, [4, 1000, 128]), ("w", H, [4, 1200, 128]), ("r", H, [4, 1000, 1200])],
     [("y", H, [4, 1000, 1200])]),
    # Pairs over a B read along N (brrrc --multicast=always, FLAGS): each
    # block copies half of the k rows of every 64-column box. One block a
    # tile (a GELU under 1536 deep): 16 x 8 tiles of 256, the last row tile
    # 80 rows and the last column tile 208 wide, the last k-slice 40 deep.
    ("matmul_wgmma_multicast_along_n_gelu_f16", [n("MatMul", ["a", "b"], ["m"]),
                                                 n("Add", ["m", "bias"], ["t"]),
                                                 n("Gelu", ["t"], ["y"])],
     [("a", H, [2000, 1000]), ("b", H, [1000, 2000]), ("bias", H, [2000])],
     [("y", H, [2000, 2000])]),
    # The few-rows body on Tensor Cores (brrrc --few-rows-mma, FLAGS): 13
    # rows (two groups of 8, the last partly past the rows) 1000 deep (the
    # last 32-deep chunk a quarter inside) by 40 columns (the last block's
    # 16 partly past them) with bias and ReLU; 64 bf16 rows of a 3-D input;
    # 17 rows 4104 deep by 4500 columns (4 warps a block, each a loop of
    # four 32-deep chunks an iteration over 32 of its 33, then one; the
    # last warp's last chunks past the depth) into a residual; 8 rows by a
    # constant weight stored K-major at compile time (4 warps, 7 chunks).
    ("matmul_few_rows_mma_gemm_f16", [n("Gemm", ["x", "w", "b"], ["g"], transB=1),
                                      n("Relu", ["g"], ["y"])],
     [("x", H, [13, 1000]), ("w", H, [40, 1000]), ("b", H, [40])],
     [("y", H, [13, 40])]),
    ("matmul_few_rows_mma_3d_bf16", [n("Transpose", ["w"], ["wt"], perm=[1, 0]),
                                     n("MatMul", ["x", "wt"], ["y"])],
     [("x", BF, [1, 64, 512]), ("w", BF, [264, 512])], [("y", BF, [1, 64, 264])]),
    ("matmul_few_rows_mma_deep_residual_f16", [n("Gemm", ["x", "w"], ["g"], transB=1),
                                               n("Add", ["g", "r"], ["y"])],
     [("x", H, [17, 4104]), ("w", H, [4500, 4104]), ("r", H, [17, 4500])],
     [("y", H, [17, 4500])]),
    ("matmul_few_rows_mma_const_f16", [n("MatMul", ["x", "fr_w16"], ["y"])],
     [("x", H, [8, 200])], [("y", H, [8, 77])]),
    # Gated pairs (brrr-fuse-matmul): two products of one activation by
    # constant weights combined in one pointwise kernel become one product
    # by the weights side by side, whose epilogue pairs its halves (each
    # tile n / 2 columns of each). SiLU over 1536-deep products on the
    # overlapped schedule (4000 rows, 520 columns a half: the last tile's
    # halves ragged); GELU with a residual over 256-deep ones on few tiles
    # (one block a tile of 128); SiLU with a residual on the cooperative
    # persistent schedule (1000 columns a half in tiles of 256: the
    # epilogue staged in column chunks of both halves).
    # Few rows (their weights stored K-major at compile time): 3 rows on
    # the few-rows body (a warp a column of each half), 20 on Tensor Cores
    # (a block 8 columns of each half), 136 columns a half (the last
    # block's ragged).
    ("matmul_gated_few_rows_f16",
     [n("MatMul", ["x", "gs_wg"], ["g"]), n("MatMul", ["x", "gs_wu"], ["u"]),
      n("Sigmoid", ["g"], ["s"]), n("Mul", ["g", "s"], ["a"]), n("Mul", ["a", "u"], ["y"])],
     [("x", H, [3, 256])], [("y", H, [3, 136])]),
    ("matmul_gated_few_rows_mma_f16",
     [n("MatMul", ["x", "gs_wg"], ["g"]), n("MatMul", ["x", "gs_wu"], ["u"]),
      n("Sigmoid", ["g"], ["s"]), n("Mul", ["g", "s"], ["a"]), n("Mul", ["a", "u"], ["y"])],
     [("x", H, [2, 10, 256])], [("y", H, [2, 10, 136])]),
    # A gate and up projection fused in one weight, its product split in
    # two (Phi-3's gate_up_proj): the product's kernel pairs the halves.
    ("matmul_gated_chunked_f16",
     [n("MatMul", ["x", "gc_w"], ["p"]), n("Split", ["p", "gc_split"], ["g", "u"], axis=-1),
      n("Sigmoid", ["g"], ["s"]), n("Mul", ["g", "s"], ["a"]), n("Mul", ["a", "u"], ["y"])],
     [("x", H, [3, 100, 256])], [("y", H, [3, 100, 136])]),
    ("matmul_gated_silu_overlapped_f16",
     [n("MatMul", ["x", "gt_wg"], ["g"]), n("MatMul", ["x", "gt_wu"], ["u"]),
      n("Sigmoid", ["g"], ["s"]), n("Mul", ["g", "s"], ["a"]), n("Mul", ["a", "u"], ["y"])],
     [("x", H, [2, 2000, 1536])], [("y", H, [2, 2000, 520])]),
    ("matmul_gated_gelu_residual_f16",
     [n("MatMul", ["x", "gs_wg"], ["g"]), n("MatMul", ["x", "gs_wu"], ["u"]),
      n("Gelu", ["g"], ["a"]), n("Mul", ["u", "a"], ["m"]), n("Add", ["m", "r"], ["y"])],
     [("x", H, [3, 100, 256]), ("r", H, [3, 100, 136])], [("y", H, [3, 100, 136])]),
    ("matmul_gated_silu_residual_persistent_f16",
     [n("MatMul", ["x", "gp_wg"], ["g"]), n("MatMul", ["x", "gp_wu"], ["u"]),
      n("Sigmoid", ["g"], ["s"]), n("Mul", ["g", "s"], ["a"]), n("Mul", ["a", "u"], ["m"]),
      n("Add", ["r", "m"], ["y"])],
     [("x", H, [4000, 1536]), ("r", H, [4000, 1000])], [("y", H, [4000, 1000])]),
]

# Cases compiled with --few-rows-mma (kernel_cases.py's FLAGS).
FEW_ROWS_MMA_CASES = [c[0] for c in MATMUL_CASES if "few_rows_mma" in c[0]]
