//===- Passes.td - brrr graph passes --------------------------*- tablegen -*-===//
//
// The passes between import and code generation, in pipeline order:
// fusion into kernel groups, then the global memory plan.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_TD
#define BRRR_PASSES_TD

include "mlir/Pass/PassBase.td"

def BrrrEvaluateConstants : Pass<"brrr-evaluate-constants", "func::FuncOp"> {
  let summary = "Compute values that depend on constants only at compile time";
  let description = [{
    Computes on the host, op by op in double precision with each result
    rounded to its element type, the values that depend only on constants
    (a rotary embedding's cos and sin tables from the positions): casts,
    elementwise math (`add`, `sub`, `mul`, `div`, `pow`, `max`, `min`,
    `cos`, `sin`, `exp`, `log`, `neg`, `sqrt`, `rsqrt`, `reciprocal`,
    `abs`, `tanh`, `sigmoid`, `erf`, `floor`, `ceil`), products, and data
    movement (reshapes, transposes, expands, concatenations, slices) of
    floats and of integers that only move. Over a symbolic extent, a
    prefix of a constant (a slice from 0 of a symbolic size: the
    importer's Range) carried through ops that keep each index of the
    symbolic dimension is computed at the extent's largest value and read
    through such a slice. A value is stored as a constant where an op the
    pass does not compute reads it, some op computed it, it holds at most
    `max-elements` elements, and over a symbolic extent its one symbolic
    dimension has only ones before it. Runs after canonicalization.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "1048576",
           "Compute values of at most this many elements">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrDecomposeBatchNorm : Pass<"brrr-decompose-batch-norm", "func::FuncOp"> {
  let summary = "Fold inference batch norm into weights, or a multiply-add";
  let description = [{
    Rewrites `brrr.batch_norm` as `x * a + c` with `a = scale /
    sqrt(var + eps)` and `c = bias - mean * a` broadcast along dimension 1,
    computed at compile time in double precision when the parameters are
    constant. When `x` is a `brrr.conv2d` with constant weights and bias
    read only by the batch norm, `a` scales the weights and `c` becomes
    the bias: no op is left. A 2-D `brrr.matmul` with a constant right
    operand takes `a` into its columns and keeps `+ c`. Otherwise the
    multiply-add fuses with the pointwise ops around it, as constants of
    shape `[C, 1, ..., 1]` or, for varying parameters, as ops.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrSplitReductions : Pass<"brrr-split-reductions", "func::FuncOp"> {
  let summary = "Reduce a huge run of elements to a few outputs in two steps, "
                "and rows too long for a row kernel as reductions";
  let description = [{
    A `brrr.reduce` over a trailing run of axes whose few outputs (at most
    `max-outputs`) each combine at least `min-count` elements would run on
    a few blocks while the rest of the GPU idles (T5's f16 export checks a
    whole activation for infinities after every layer). It becomes a
    reduction of `parts` equal groups of each output's elements, then one
    of the parts: `reshape` to `[outer..., parts, count / parts]`, reduce
    the last axis, reduce the parts, `reshape` to the original result.
    `parts` is the largest power of two up to 1024 that divides the count
    and leaves each group at least 2048 elements. `sum`, `max`, `min` and
    `prod` split as themselves, `mean` as a mean of equal groups' means;
    16-bit sums, means and products are computed in f32 between two casts,
    so that the partial results are not rounded to 16 bits.

    With `decompose-rows` (the pipeline's second run, after attention is
    fused, so that an attention's softmax over a long sequence stays in
    the attention kernel), first a `brrr.softmax`, `brrr.log_softmax` or
    `brrr.layer_norm` of fixed shape whose rows are too long for the
    register-resident row kernel (more than 16 vectors for each of 256
    threads) is written as its statistics and the arithmetic between
    them, in f32 for 16-bit data: `max`, `exp(x - max)`, `sum` and a
    division (a subtraction of the sum's log); the mean, the mean of the
    centred values' squares (of the values' squares for RMS), plus
    epsilon, its `rsqrt`, then scale and bias. Its reductions split as any
    other. A run splits no reduction twice: a split one's parts are too
    few to split again.
  }];
  let options = [
    Option<"maxOutputs", "max-outputs", "int64_t", "16",
           "Split only reductions with at most this many outputs">,
    Option<"minCount", "min-count", "int64_t", "65536",
           "Split only reductions of at least this many elements an output">,
    Option<"decomposeRows", "decompose-rows", "bool", "false",
           "First write softmaxes and layer norms whose rows are too long "
           "for a row kernel as reductions and pointwise ops">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrPatchifyConvs : Pass<"brrr-patchify-convs", "func::FuncOp"> {
  let summary = "Patch-embedding convolutions of few channels as one product";
  let description = [{
    A `brrr.conv2d` of one group whose stride equals its kernel (at least
    2 elements), without padding or dilation, over at most `max-channels`
    input channels whose height and width the kernel divides (a vision
    transformer's patch embedding: 16 x 16 patches of an RGB image)
    becomes a reshape and transpose of the input to `[N, Ho * Wo, C * kh *
    kw]` patches, a `brrr.matmul` by the weights packed at compile time as
    `[C * kh * kw, O]` plus the bias, and a reshape and transpose back to
    `[N, O, Ho, Wo]`. No Tensor Core convolution body reads a few channels
    well; the product runs on the matmul bodies, and the last transpose
    cancels against the exporters' flatten to tokens. Runs before
    brrr-channels-last.
  }];
  let options = [
    Option<"maxChannels", "max-channels", "int64_t", "8",
           "Rewrite only convolutions of at most this many input channels">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrPackConvGroups : Pass<"brrr-pack-conv-groups", "func::FuncOp"> {
  let summary = "Pack narrow convolution groups into Tensor Core tiles";
  let description = [{
    On a module whose `#brrr.target` has wgmma Tensor Cores, an f16/bf16
    `brrr.conv2d` of groups too narrow for the wgmma convolution body
    (fewer than whole 64-channel input slices or 128-wide output tiles,
    ResNeXt's 32 groups of 4 to 32 channels) with constant weights takes
    the fewest `k` neighbouring groups, at most `max-groups`, whose union
    the body takes and that divide the groups; where no such `k` exists
    (RegNetY's groups of 24 channels), all the groups, of more than 8 input
    channels each, into one dense convolution where that pays: its 128 x
    128 output tiles, up to one per multiprocessor of the `#brrr.target`,
    times 64 (the wgmma body's measured gain over the untiled one) at
    least the groups times the multiprocessors (where it does not pay, the
    convolution's `brrr.groups_unpacked` says why, for `brrrc --report`).
    Its weights become block
    diagonal at compile time, `O x k*C/groups x KH x KW`: each output
    channel's group reads its own input channels, the others are zero
    weights. The convolution then has `groups / k` groups: k times the
    multiply-adds on the wgmma body, the same input read and output
    written. Exact for finite inputs; an infinite or NaN input reaches the
    outputs of the other groups of its pack as NaN. Runs before
    brrr-channels-last, which then lays it out for the body.
  }];
  let options = [
    Option<"maxGroups", "max-groups", "int64_t", "32",
           "Pack at most this many groups into one of whole tiles "
           "(1: pack none, dense packs neither)">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrAlignProducts : Pass<"brrr-align-products", "func::FuncOp"> {
  let summary = "Lay constant-weight products out for the tiled Tensor Core bodies";
  let description = [{
    The tiled bodies read A along K and B along its rows in 16-byte chunks.
    A 16-bit `brrr.matmul` by a constant 2-D weight `[K, N]` whose K is not
    a multiple of 8 (MLP-Mixer's 196 tokens) takes K zero-padded to the
    next multiple: the weight's rows at compile time, A by a `brrr.pad`
    (a copy). On a wgmma target, one whose N is not a multiple of 8 stores
    the weight K-major, `[N, K]` read through a `brrr.transpose`, which TMA
    reads as B. Both only for products of at least `min-work`
    multiply-adds at A's largest shape; over a symbolic A (a language
    model's head over a symbolic batch), only the K-major weight, no pad.
    Runs before brrr-fuse-matmul.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", "33554432",
           "Align only products of at least this many multiply-adds">,
    Option<"fewRowsMma", "few-rows-mma", "std::string", /*default=*/"\"auto\"",
           "Store the weight of a 16-bit product of 5 to 32 (auto) or 64 "
           "(always) static rows K-major, as the few-rows body on Tensor "
           "Cores reads it, or none (never); brrr-select-kernel-config's "
           "few-rows-mma">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrChannelsLast : Pass<"brrr-channels-last", "func::FuncOp"> {
  let summary = "Lay Tensor Core convolutions and their neighbours out as NHWC";
  let description = [{
    On a module whose `#brrr.target` has wgmma Tensor Cores, every f16/bf16 `brrr.conv2d` of
    one group, or of groups of whole 64-channel slices and 128-wide tiles
    of outputs, becomes a `channels_last` convolution between two transposes:
    its input is read as N x H x W x C, its weights are packed at compile
    time to KH x KW x O x I, and it produces N x OH x OW x O, the layout
    the wgmma body's im2col TMA copies and stores want. A pointwise op
    whose every operand is an NCHW view of a channels-last tensor, a
    tensor with an NHWC copy, a constant (one of fewer dimensions, like
    ConvNeXt's [C, 1, 1] layer scale, rewritten NHWC at compile time) or
    one element, at least one a view, then runs channels-last too, so the
    views move past it; so
    do max and average pooling (`channels_last`) and reductions of such a
    view; two views that meet cancel. Input channels are zero-padded to a
    multiple of 8 and at least 16, in the packed weights at compile time. A
    stem (stride 2 over at most 4 channels, constant weights) runs space to
    depth: 2 x 2 pixels become one of 4 C channels and the K x K window a
    stride-1 ceil(K/2) x ceil(K/2) one, so ResNet's 7 x 7 stem reads 16 taps
    instead of 49. Other targets are left as they are.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseConv : Pass<"brrr-fuse-conv", "func::FuncOp"> {
  let summary = "Make each convolution and pooling a kernel with its epilogue";
  let description = [{
    Wraps every `brrr.conv2d` in a `brrr.fusion conv` op (an implicit GEMM
    on Tensor Cores: output pixels by output channels, reduced over input
    channels and the window) and every `brrr.max_pool2d` and
    `brrr.avg_pool2d` in a `brrr.fusion pool` op. Runs after
    brrr-fuse-elementwise: a pointwise kernel that is the only reader of
    the result, with outputs of its shape, is merged in as the epilogue
    (activation, residual add, a batch norm that could not be folded into
    the weights), so the convolution's output is written once, finished.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrMergeProducts : Pass<"brrr-merge-products", "func::FuncOp"> {
  let summary = "One product for the sibling products of one input";
  let description = [{
    `brrr.matmul`s of the same left operand by 2-D constant weights of the
    same depth and type, each read only as a query, key or value of a
    `brrr.attention` (through reshapes and transposes) or, behind such
    views, by pointwise ops and data movement (Llama's rotary embeddings of
    the queries and keys, which brrr-fuse-elementwise reads through), become
    one product by the weights concatenated along their columns at compile
    time. The
    float casts and constant `[N]` bias additions each product goes through
    alone (the same chain for every product of a group) are applied once to
    the merged product, the biases concatenated like the weights; each
    former result is a `brrr.slice`
    of the merged one, which the attention kernel reads in place and a
    pointwise kernel reads through. One
    launch and one pass over the input instead of three, and at small
    batches a product wide enough to fill the GPU. Products read any other
    way stay apart (a slice would be copied, or a product would lose its
    pointwise epilogue), as do products past
    `max-columns` columns together. Runs after brrr-fuse-attention.
  }];
  let options = [
    Option<"maxColumns", "max-columns", "int64_t", "16384",
           "Merge products only up to this many columns together">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseAttention : Pass<"brrr-fuse-attention", "func::FuncOp"> {
  let summary = "Recognize decomposed scaled dot-product attention as brrr.attention";
  let description = [{
    Finds the chain both ONNX exporters write for attention: a product of
    queries and keys (each possibly scaled by a scalar constant), an
    optional scale, f32 cast and additive mask, a softmax over the last
    axis, the optional `where(isnan(p), 0, p)` clean-up, and the product of
    the probabilities with the values, and replaces it with one
    `brrr.attention` when the products multiply f16 or bf16 and the head
    sizes are multiples of 16 up to 128. A constant causal mask becomes the
    op's `causal` flag. Where a softmax feeds a product with values but the
    chain does not match, the softmax records why in
    `brrr.attention_unfused` (printed by `brrrc --report`). Runs before
    brrr-fuse-elementwise, which would split the chain over kernels.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseElementwise : Pass<"brrr-fuse-elementwise", "func::FuncOp"> {
  let summary = "Group pointwise DAGs into brrr.fusion kernels";
  let description = [{
    Wraps every maximal DAG of pointwise ops (unary math, broadcasting
    binary ops, comparisons, where, cast, clip, activations) in one
    `brrr.fusion pointwise` op, so that intermediates stay in registers.
    A producer joins its consumer's group when the cost model says fusing
    saves memory traffic: its result (written once, read once) no longer
    touches DRAM and a launch disappears. A producer that also feeds ops
    after the group becomes an extra output of the kernel (multi-output
    fusion): it is still written, but not read back, and one launch goes.
    Splat constants are copied into every group that reads them.
    The data movement between a group and its inputs (reshapes,
    transposes, slices, expands, pads, concatenations) joins it when the
    group alone reads its result: the kernel reads its inputs at the
    coordinates the movement maps each element to, so no copy is made
    (rotary embeddings: a product viewed as heads, half of each head
    negated and swapped, are one kernel reading the product). Pointwise ops
    behind such movement join only when the group alone reads them. Over
    symbolic extents, an operand that broadcasts along part of them (the
    rotary tables [1, seq, 1, d]) is read at the kernel's own elements,
    where it is indexed from the actual extents; data movement joins such a
    group when what its own elements read through it keeps the kernel's
    outer run, and nothing behind it broadcasts so
    (readsRunTimeBroadcastsAtOwnElements). A
    transpose of two long dimensions joins only with the group's shape
    (elsewhere its own kernel moves it through shared memory).
    First, so that views do not split a chain of pointwise ops, a tensor
    read only through views that end in casts to one float type (and read
    whole) is cast once before them, and reshapes (and transposes of
    products and pointwise results) move below the pointwise ops that read
    them.
    A group holds at most `max-ops` ops, and computes at most `max-ops`
    values per element (an op behind a roll is computed once per place it
    is read from), so that code size and compile time grow linearly with
    the model (a chain of 20,000 adds becomes kernels of `max-ops` adds,
    not one kernel that ptxas takes minutes over).
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "256",
           "Most pointwise ops one kernel fuses">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseMatmul : Pass<"brrr-fuse-matmul", "func::FuncOp"> {
  let summary = "Make each matmul and attention a Tensor Core kernel with its epilogue and operand views";
  let description = [{
    Wraps every `brrr.matmul` in a `brrr.fusion matmul` op, the kernel
    family that runs it on Tensor Cores, and every `brrr.attention` in a
    `brrr.fusion attention` op (its queries, keys and values read through
    their views while their rows stay aligned 16-byte chunks; epilogue and
    stored-through transpose as for products). The chain of views (transpose,
    reshape, slice with positive steps) that only the product reads joins
    the kernel while strides and an offset can express it, so the kernel
    reads the source directly (attention's split, head reshape and
    transposes), unless that would cost the product its tiled body (an
    f16/bf16 operand whose rows would no longer be aligned, contiguous
    16-byte chunks; on a wgmma `#brrr.target`, TMA also reads
    a B whose K is contiguous, and batches that advance by one stride).
    Runs after brrr-fuse-elementwise: a
    pointwise kernel that is the only reader of the product, with outputs
    of the product's shape, is merged in as the epilogue (bias,
    activation, residual, cast), so the product itself never goes to
    memory and a launch disappears. A pointwise kernel that combines two
    such products of one activation by constant 16-bit weights of one
    shape (a gated unit, silu(x W_gate) * (x W_up)), each read by it
    alone, becomes one product by the weights side by side whose epilogue
    pairs its halves, on a wgmma `#brrr.target` where the product runs a
    body that pairs halves: the wgmma body, and for weights stored K-major
    (a few static rows, symbolic rows) the few-rows bodies.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseMovement : Pass<"brrr-fuse-movement", "func::FuncOp"> {
  let summary = "Make each transpose, slice, expand, gather, concat and pad a kernel";
  let description = [{
    Wraps every data-movement op still outside a fusion in a
    `brrr.fusion movement` op: one kernel in which each thread writes one
    output element read from the input element the op's index map names.
    Reshapes stay views of their operand. A chain of index maps
    (transposes, slices, expands, pads and the reshapes between them, each
    read only by the next) holding two or more copies, none of them a tiled
    transpose, is one kernel that walks each element back to the chain's
    input.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrFuseRows : Pass<"brrr-fuse-rows", "func::FuncOp"> {
  let summary = "Make each softmax, log-softmax, layer norm and trailing reduction one row kernel with its pointwise neighbours";
  let description = [{
    Wraps every softmax and log-softmax over the last axis, every layer
    norm, and every float reduction over trailing contiguous axes (global
    pooling included) in a `brrr.fusion row` op: one kernel that keeps a
    row in registers, so the input is read once and the output written
    once. The op's other operands (scale, bias) stay kernel inputs.
    Runs after brrr-fuse-elementwise, -matmul and -conv. The pointwise
    kernel that computes the row joins as a prologue when the bytes it
    saves (its results no longer read back, those read only by the row not
    written either) are positive; results other kernels read become extra
    outputs. The pointwise kernel that alone reads a softmax or layer norm
    result, with row-shaped float outputs, joins as an epilogue. Every
    other reduction (leading or interleaved axes, integer elements) becomes
    a `brrr.fusion reduce` kernel (a thread, or a block, per output
    element), and the pointwise kernel that alone reads its result, with
    outputs of its shape, joins as the epilogue.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrPlanGlobalMemory : Pass<"brrr-plan-global-memory", "func::FuncOp"> {
  let summary = "Place every kernel output in an arena, outputs, or in place";
  let description = [{
    Assigns device memory to every tensor the graph materializes and records
    it as a `brrr.memory` attribute (one dictionary per result: `storage`
    = input | output | weight | arena, `offset`, `bytes`). Intermediates
    share one arena: a linear scan in program order frees a buffer after its
    last use (uses through `brrr.reshape` views count) and places each new
    buffer first-fit at 256-byte alignment; a pointwise kernel writes in
    place over an input of identical shape that dies at that kernel. Results
    returned by the function are written straight into the caller's output
    buffers. A stream-K product (`stream_k`) gets `brrr.workspace`: its
    blocks' partial tiles, placed like a result that dies with the kernel,
    and its flags, placed before anything else and never freed (the
    runtime zeroes the arena once; every launch leaves them zero). The
    function gets `brrr.arena_bytes` (the peak) and `brrr.weight_bytes`.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrPlanSharedMemory : Pass<"brrr-plan-shared-memory", "func::FuncOp"> {
  let summary = "Place every kernel's shared-memory buffers, within the target's budget";
  let description = [{
    For every `brrr.fusion`, takes the typed shared buffers (a role such
    as `a`, `b`, `barriers`, `key` or `reduction`, and an index) that its
    `#brrr.kernel` config declares (brrr-select-kernel-config runs first;
    the declarations live with the configs, `sharedBuffersOf`): row
    kernels, one f32 per warp for each block reduction; cooperative
    reductions, one 8-byte slot per thread, and split-rows ones 32 bytes
    per thread (a vector in its compute type); mma_sync matmuls, the
    padded k-slices of A and B per stage; wgmma matmuls, 128-byte-swizzled
    slices 1024-byte aligned, their mbarriers, and the f32 epilogue staging
    that reuses the slices' bytes after the main loop; attention, its
    query, key, value and output blocks. It knows no kernel family: it
    places the buffers, with the phases in which each is alive, largest
    first, first fit at their alignment, apart from every buffer alive at
    the same time, so buffers of disjoint phases share bytes. Records a
    `#brrr.shared` plan (`brrr.shared`: each `#brrr.buffer`'s role, index,
    offset and bytes, and the kernel's total) on the fusion. The budget is
    the `shared_per_block` of the module's `#brrr.target` (sm_90a:
    227 KiB, sm_80: 163 KiB, none: 48 KiB), lowered by a
    `brrr.shared_memory_limit` module attribute; a plan over it is an error
    on the fusion.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrCheckIndices : Pass<"brrr-check-indices", "func::FuncOp"> {
  let summary = "Make index-driven kernels report out-of-range indices";
  let description = [{
    Records on every `brrr.fusion movement` that reads indices (gather,
    gather_elements, gather_nd, scatter_elements, scatter_nd) a
    `brrr.index_check = #brrr.index_check<id, node, op>`: its kernel checks
    each index against its axis's extent and writes the first one out of
    range into the run's error record, which the runtime reports as an
    error naming the ONNX node (from the op's location), the value and the
    extent. Ids count from 0 in program order. brrrc runs this pass unless
    `--unchecked-indices` is given.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrSelectKernelConfig : Pass<"brrr-select-kernel-config", "func::FuncOp"> {
  let summary = "Choose every kernel's geometry once, as a #brrr.kernel config";
  let description = [{
    Records on every `brrr.fusion` the decisions its kernel is built with,
    as `brrr.config = #brrr.kernel<family, body, threads, tile, stages,
    vector, cluster>`; the shared-memory planner and the code generator
    only read it. Pointwise kernels: 256 threads, vectors of 16 bytes of
    the widest element. Row kernels: the block size and vector width of
    their register-resident row. Matmuls: on a wgmma `#brrr.target`
    (sm_90a), f16/bf16 products whose operands TMA can read run the `wgmma`
    body (128 rows by 128, 192 or 256 columns, whichever wastes the least
    of the last wave; 64-deep slices; up to 4 stages, as many as the
    shared budget holds), each tile split over 2, 4 or 8 blocks of a
    cluster (`cluster`) that sum their partial tiles through distributed
    shared memory when its tiles leave most multiprocessors idle; other
    f16/bf16 products with whole 16-byte rows the staged
    `mma_sync` 128x128x32 tile (up to 3 stages); the rest the untiled
    `warp_mma` body. Convolutions that ConvGemm describes take the same
    `wgmma` tiles (and, with one group of whole 64-channel slices, the
    same cluster split); depthwise convolutions and groups of at most 8
    input channels the direct `simt` body, channels-last depthwise ones
    with 16-byte vectors of channels (`vector`); the others the untiled
    body. General reductions: one thread per output, a block per output
    where that leaves the GPU idle, or split rows (`tile = [lanes,
    groups]`, `vector`) for a run of 64 or more rows before a kept
    innermost axis and fewer than 65536 outputs. Float8 products on the
    wgmma body sum each slice apart and add it in f32 (`precision =
    promoted`: tiles at most 192 wide, on a persistent cooperative grid
    where they outnumber the multiprocessors), or with
    `fp8-fast-accumulation` in the Tensor Cores' own accumulation
    (`precision = fast`). Pools: 256 threads, an element a thread, or a
    16-byte vector of channels-last channels. Data movement: 256
    threads; a tree of vectors `tile = [vectors]` and `vector`, a tiled
    transpose `tile = [32, 8]`, the rest an element a thread. Every config
    records the launch grid its decisions give (`grid = [x, y, z]` at the largest shape; over
    symbolic extents, `grid_extents`, a map of the module's symbols),
    derived by the family's rules (`passes/Config/Families/`); code generation launches it and
    refuses a config whose grid is not the derived one. A config already
    present is kept, and given its grid if it has none.
    The `matmul-tile` option pins the m, n and stages of every tiled
    matmul, and `attention-tile` the query rows, keys per block and warps
    of every attention kernel, for tile sweeps. wgmma convolutions whose
    tiles outnumber the multiprocessors, and with `persistent` such
    products too, run a persistent grid (`persistent`, one block per
    multiprocessor walking the tiles) whose epilogue stages column chunks
    (`epilogue`, 64 or more where a ring one stage shorter makes room) in
    a buffer of its own, so that the producer streams the next tile's
    slices while the consumers store this one's. With `pingpong`, such a
    grid's tiles narrow to at most 128 columns and each consumer
    warpgroup computes whole tiles, every other one of its block's, their
    main loops taking turns (`schedule = pingpong`), so that one
    warpgroup's epilogue overlaps the other's products. With `overlap`,
    such a grid's consumers stage each tile's products whole, rounded to
    the product's 16-bit type (an f32 result keeps the cooperative
    schedule), and go on to the next tile while warps 1-3 of the producer
    warpgroup apply the epilogue and store it (`schedule = overlapped`);
    a 256-column tile, whose staging leaves room for three stages, narrows
    to 192 columns and four where that pads the columns no more. With a
    drain warpgroup (`drain-warpgroup`), an overlapped kernel runs a
    fourth warpgroup of drain warps beside (512 threads), on tiles of at
    most 192 columns.
    Without options, products whose tiles outnumber the multiprocessors run
    that schedule where they are at least 768 deep and their epilogue is
    light (adds, multiplies, clamps, selects, casts and data movement), or
    at least 1536 deep with any epilogue (a GELU, a SiLU): the epilogue
    warps keep up with the consumers there. 16-bit ones at least 768 deep
    whose epilogue reads a residual, or is heavier and under 1536 deep,
    run it with a drain warpgroup (`drain-warpgroup=auto`) where its
    narrower tiles keep pace with the wider ones (no more waves of them
    than the wider tiles' epilogues would cost). Matmuls whose
    tiles outnumber the multiprocessors and pair up (16-bit operands, an
    even count of row tiles, B read along K, no split, static extents) run
    as pairs of blocks computing vertically adjacent tiles, each copying
    half of every slice of B and multicasting it to both (`multicast =
    2`); with `multicast=always` every product whose tiles pair up does,
    convolutions, 8-bit products and matmuls whose B is read along N (half
    of each 64-column box's k rows a block) too, and with
    `multicast=never` none. With `stream-k=auto` (or `always`), a
    persistent product whose tiles leave the last wave part-empty has its
    blocks split the k-slices evenly instead (`stream_k`, chooseStreamK).
  }];
  let options = [
    ListOption<"matmulTile", "matmul-tile", "int64_t",
               "Pin every tiled matmul's m,n,stages (for tile sweeps)">,
    ListOption<"attentionTile", "attention-tile", "int64_t",
               "Pin every attention kernel's rows,keys,warps (for tile sweeps)">,
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "Run wgmma products with more tiles than multiprocessors on a "
           "persistent grid">,
    Option<"pingpong", "pingpong", "bool", /*default=*/"false",
           "Run them on a persistent grid whose two consumer warpgroups "
           "take turns on whole tiles of at most 128 x 128">,
    Option<"overlap", "overlap", "bool", /*default=*/"false",
           "Run them on a persistent grid whose producer warpgroup's spare "
           "warps apply each tile's epilogue while the consumers compute "
           "the next">,
    Option<"drainWarpgroup", "drain-warpgroup", "std::string",
           /*default=*/"\"auto\"",
           "Overlapped kernels with a warpgroup of epilogue warps of their "
           "own beside the producer warpgroup's warps 1-3 (512 threads): "
           "auto (16-bit products at least 768 deep whose epilogue reads a "
           "residual, or is heavy and under 1536 deep, where their "
           "narrower tiles keep pace), always or never">,
    Option<"fp8FastAccumulation", "fp8-fast-accumulation", "bool",
           /*default=*/"false",
           "Sum float8 products in the Tensor Cores' float8 accumulation "
           "(precision = fast) instead of promoting each slice's sums to f32">,
    Option<"fewRowsMma", "few-rows-mma", "std::string", /*default=*/"\"auto\"",
           "Run 16-bit products of 5 to 32 rows (auto), 5 to 64 (always) "
           "or none (never), static or a range's of symbolic rows, read "
           "along K on the few-rows body on Tensor Cores (warp_mma with a "
           "tile of [rows, 16]) instead of the wgmma body's 128-row tiles">,
    Option<"multicast", "multicast", "std::string", /*default=*/"\"auto\"",
           "Pairs of wgmma blocks multicasting B to each other: auto (16-bit "
           "matmuls whose tiles outnumber the multiprocessors), always "
           "(wherever the tiles pair up) or never">,
    Option<"streamK", "stream-k", "std::string", /*default=*/"\"never\"",
           "Persistent wgmma products whose blocks split the k-slices "
           "evenly instead of the tiles (stream_k): auto (where the last "
           "wave of tiles leaves enough multiprocessors idle, "
           "chooseStreamK), always (wherever the tiles do not divide "
           "evenly between the blocks) or never">,
    Option<"hopperAttention", "hopper-attention", "std::string",
           /*default=*/"\"auto\"",
           "Fused attention on the wgmma body where it takes the element "
           "type on an sm_90a target: auto or always (the same: heads up "
           "to 256), or never (the mma_sync body)">,
    Option<"overlapAttention", "overlap-attention", "bool",
           /*default=*/"false",
           "On the wgmma body, overlap each key block's softmax with the "
           "previous block's product with the values (schedule = "
           "overlapped, 3 stages)">
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrQuantizedProducts : Pass<"brrr-quantized-products", "func::FuncOp"> {
  let summary = "Make products of dequantized 8-bit operands multiply them in 8 bits";
  let description = [{
    Runs first, on the graph as imported. A matmul of a dequantized 8-bit
    activation (float8 E4M3FN with a float8 weight; INT8 or UINT8 with an
    INT8 weight; one scale and one zero point) and a dequantized 8-bit
    constant matrix (one scale or one per output column, zero point zero;
    read directly or transposed), on a
    target with the 8-bit wgmma, becomes a matmul of the 8-bit values
    (exact products summed in f32, or in 32-bit integers for INT8) times
    one f32 constant of the combined scales, cast to the product's type.
    An activation zero point z subtracts z times each column's sum of the
    weight first. A UINT8 activation is read as INT8, 128 less: its
    quantize is repeated to INT8 with a zero point 128 lower.
    The weight is stored K-major (N x K) as an 8-bit blob and read through
    a transpose. A product that does not match keeps its float operands.
    Every dequantization of constants left is then evaluated to a float
    constant (up to 2^26 elements).

    INT8 products sum exactly in 32-bit integers. Float8 ones sum in f32:
    brrr-select-kernel-config has each k-slice's products summed apart and
    added to f32 accumulators (`precision = promoted`), or with
    `fp8-fast-accumulation` the Tensor Cores' own float8 accumulation.

    A product of two dequantized operands that stays in float says why in
    `brrr.quantized_unfused` (printed by `brrrc --report`).
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrCalibrationOutputs
    : Pass<"brrr-calibration-outputs", "func::FuncOp"> {
  let summary = "Return every activation brrr-quantize-calibrated would quantize";
  let description = [{
    Builds the model that calibration runs (brrrc `--calibrate`). Every
    activation that brrr-quantize-calibrated would quantize (the float
    left operand of a matmul by a constant matrix whose contraction is a
    positive multiple of 16) becomes one more result of the function,
    named `brrr.calibration:KEY`, KEY the name of the first product that
    reads it (its ONNX node). Calibration takes each such output's largest
    magnitude over the calibration inputs into the table that
    brrr-quantize-calibrated reads, under KEY.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrQuantizeCalibrated
    : Pass<"brrr-quantize-calibrated", "func::FuncOp"> {
  let summary = "Multiply a float model's products in 8 bits with calibrated scales";
  let description = [{
    Post-training quantization (brrrc `--precision=fp8|int8`). Runs first,
    on the imported graph. The module attribute `brrr.calibration` maps
    each key of brrr-calibration-outputs to its activation's largest
    magnitude `a` over the calibration inputs. Each such activation is
    quantized once, zero point 0, by the scale `a / 127` (INT8) rounded to
    its float type, or (FLOAT8E4M3FN) the power of two at or above
    `a / 448`, which costs a float format precision only at its subnormal
    end and lets the quantizing kernel multiply instead of divide; each
    matmul reading it
    multiplies it by its constant weight quantized per output column (the
    column's largest magnitude over 448 or 127, rounded to nearest even)
    and stored K-major, the scales applied in the epilogue: the form
    brrr-quantized-products gives a QDQ model's products.

    With `residuals` (the default), an activation quantized only for
    convolutions is also read dequantized by the additions that read it
    beside them, as a QDQ model quantizes a residual connection: the kernel
    that computes it stores it in 8 bits alone, and the convolution whose
    epilogue adds it reads 8 bits.

    Softmax, normalizations, reductions and products of two computed
    tensors stay in float. A key the table lacks, or a maximum that is
    negative, NaN or infinite, is an error naming the node; an activation
    that was 0 on every input stays in float and says so in
    `brrr.quantized_unfused`. On a target without the 8-bit wgmma every
    product stays in float, with a warning.
  }];
  let options = [
    Option<"precision", "precision", "std::string", "\"fp8\"",
           "The 8-bit type: fp8 (FLOAT8E4M3FN) or int8">,
    Option<"residuals", "residuals", "bool", "true",
           "Additions read the convolutions' quantized activations too">,
  ];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

def BrrrLowerPrecision : Pass<"brrr-lower-precision", "func::FuncOp"> {
  let summary = "Run f32 matmuls and convolutions in f16 or bf16 when the module asks";
  let description = [{
    With the module attribute `brrr.precision` = "fp16" or "bf16" (brrrc
    `--precision`), every matmul and convolution whose operands are f32
    multiplies in that type with f32 accumulation: constant operands are
    converted at compile time (round to nearest even), the others cast
    where they are read, and the product is cast back to f32, so the rest
    of the graph and the model's outputs keep their declared types. "fp32"
    (the default) and "tf32" leave the graph as it is; an unknown value is
    an error.
  }];
  let dependentDialects = ["::mlir::brrr::BrrrDialect"];
}

#endif // BRRR_PASSES_TD
