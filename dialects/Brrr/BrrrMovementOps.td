//===- BrrrMovementOps.td - brrr data movement ops -----------*- tablegen -*-===//
//
// The ops that move, select or lay out elements without arithmetic (but
// for a linear resize's interpolation and a scatter's reduction), and the
// constants. Included by BrrrOps.td, after Brrr_Op.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_MOVEMENT_OPS
#define BRRR_MOVEMENT_OPS

def Brrr_ConcatOp : Brrr_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "concatenation along one axis";
  let description = [{
    Joins tensors of equal rank and element type along `axis`; all other
    dimensions must match.

    Example:

    ```mlir
    %y = brrr.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Brrr_SymTensor>:$inputs, I64Attr:$axis);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasFolder = 1;
}

def Brrr_ConstantOp : Brrr_Op<"constant", [ConstantLike, Pure,
                                           InferTypeOpAdaptor]> {
  let summary = "tensor constant";
  let description = [{
    A constant tensor. Small constants are `dense` attributes; weights are
    `dense_resource` blobs, which the printer elides so IR stays readable.

    Example:

    ```mlir
    %c = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %w = brrr.constant dense_resource<conv1.weight> : tensor<16x3x3x3xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Brrr_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Brrr_SymbolicConstantOp : Brrr_Op<"symbolic_constant",
                                       [ConstantLike, Pure]> {
  let summary = "an integer tensor of symbolic extents";
  let description = [{
    The values of extents that are fixed only at run time, in row-major
    order: `value`'s results are expressions of the module's symbolic
    dimensions (`brrr.dims`) or constants. It is what a Shape of a tensor
    with symbolic dimensions imports as, and the folders carry it through
    shape arithmetic (Gather, Concat, Slice, reshapes, sums, products and
    the comparisons that the extents' ranges decide) into the shapes of
    Reshape, Expand and Slice.

    Example, the batch and sequence of `x`:

    ```mlir
    %s = brrr.symbolic_constant <()[s0, s1] -> (s0, s1)> -> tensor<2xi64>
    ```
  }];
  let arguments = (ins Brrr_ExtentsAttr:$value);
  let results = (outs StaticShapeTensorOf<[I32, I64]>:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Brrr_ExpandOp : Brrr_Op<"expand", [Pure]> {
  let summary = "numpy broadcast to the result shape";
  let description = [{
    Broadcasts the operand to the result type's shape under numpy rules
    (the result rank is at least the operand's; each operand dimension is 1
    or equal to the result's).

    Example:

    ```mlir
    %y = brrr.expand %x : tensor<1x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  // expand(expand(x)) is one expand.
  let hasCanonicalizer = 1;
}

def Brrr_GatherOp : Brrr_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "take slices along one axis at the given indices";
  let description = [{
    ONNX Gather: the result shape is `input.shape[:axis] + indices.shape +
    input.shape[axis+1:]`; negative indices count from the end.

    Example:

    ```mlir
    %e = brrr.gather %table, %ids {axis = 0 : i64}
         : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input, Brrr_SymIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  // One constant index: a slice (a view) instead of a gather.
  let hasCanonicalizer = 1;
}

def Brrr_GatherElementsOp : Brrr_Op<"gather_elements",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "take one element along an axis per index";
  let description = [{
    ONNX GatherElements (numpy `take_along_axis`): the result has the
    indices' shape and `result[i_0, ..., i_n] = input[i_0, ...,
    indices[i_0, ..., i_n], ..., i_n]` with the index at `axis`. Negative
    indices count from the end. Outside `axis`, the indices' dimensions may
    not exceed the input's.

    Example:

    ```mlir
    %y = brrr.gather_elements %x, %i {axis = 1 : i64}
         : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input, Brrr_SymIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  // A splat table looked up by indices in range: the splat.
  let hasCanonicalizer = 1;
}

def Brrr_GatherNDOp : Brrr_Op<"gather_nd", [Pure, InferTypeOpAdaptor]> {
  let summary = "take slices at index tuples";
  let description = [{
    ONNX GatherND: the last dimension `k` of `indices` holds tuples that
    index the input's dimensions `batch_dims .. batch_dims + k`; the result
    shape is `indices.shape[:-1] + input.shape[batch_dims + k:]`. The first
    `batch_dims` dimensions of input and indices are shared batch
    dimensions. Negative indices count from the end.

    Example:

    ```mlir
    %y = brrr.gather_nd %x, %i {batch_dims = 0 : i64}
         : (tensor<4x5x6xf32>, tensor<2x2xi64>) -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input, Brrr_SymIndexTensor:$indices,
                       I64Attr:$batch_dims);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  // A lookup at every (i, j, ...) of a grid of ranges is a view.
  let hasCanonicalizer = 1;
}

def Brrr_ScatterElementsOp : Brrr_Op<"scatter_elements",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "write one update per index along an axis";
  let description = [{
    ONNX ScatterElements: the result is `input` with, for every position `p`
    of `indices` (and `updates`, which has the same shape), the element at
    `p` with its `axis` coordinate replaced by `indices[p]` combined with
    `updates[p]` per `reduction` (`none` replaces). Updates apply in
    row-major order, so a repeated index keeps the last update (`none`) or
    combines all of them. Negative indices count from the end; indices out
    of range write nothing.

    Example:

    ```mlir
    %y = brrr.scatter_elements add %x, %i, %u {axis = 0 : i64}
         : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Brrr_ScatterReductionAttr:$reduction,
                       Brrr_Tensor:$input, Brrr_IndexTensor:$indices,
                       Brrr_Tensor:$updates, I64Attr:$axis);
  let results = (outs Brrr_Tensor:$result);
  let assemblyFormat = [{
    $reduction $input `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Brrr_ScatterNDOp : Brrr_Op<"scatter_nd", [Pure, InferTypeOpAdaptor]> {
  let summary = "write slices at index tuples";
  let description = [{
    ONNX ScatterND: the last dimension `k` of `indices` holds tuples that
    index the input's first `k` dimensions; `updates` has shape
    `indices.shape[:-1] + input.shape[k:]`, one slice per tuple. The result
    is `input` with every slice combined per `reduction` (`none` replaces)
    in row-major order of the tuples. Negative indices count from the end;
    a tuple out of range writes nothing.

    Example:

    ```mlir
    %y = brrr.scatter_nd none %x, %i, %u
         : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Brrr_ScatterReductionAttr:$reduction,
                       Brrr_Tensor:$input, Brrr_IndexTensor:$indices,
                       Brrr_Tensor:$updates);
  let results = (outs Brrr_Tensor:$result);
  let assemblyFormat = [{
    $reduction $input `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Brrr_PadOp : Brrr_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "pad (or crop, with negative amounts) every dimension";
  let description = [{
    Adds `low[i]` elements before and `high[i]` after dimension `i`, filled
    per `mode`: `value` for `constant`, mirrored for `reflect`, repeated edge
    for `edge`. Negative amounts crop. A symbolic dimension is neither
    padded nor cropped.

    Example:

    ```mlir
    %y = brrr.pad constant %x {high = array<i64: 0, 1>, low = array<i64: 0, 2>, value = 0.0 : f64}
         : tensor<4x4xf32> -> tensor<4x7xf32>
    ```
  }];
  let arguments = (ins Brrr_PadModeAttr:$mode, Brrr_SymTensor:$input,
                       DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
                       F64Attr:$value);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$mode $input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Brrr_ReshapeOp : Brrr_Op<"reshape", [Pure]> {
  let summary = "reinterpret the row-major elements with a new shape";
  let description = [{
    Same elements in the same row-major order, new static shape. ONNX
    Reshape, Flatten, Squeeze and Unsqueeze all import as this op.

    Example:

    ```mlir
    %y = brrr.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Brrr_ResizeOp : Brrr_Op<"resize", [Pure]> {
  let summary = "nearest or linear resampling to the result shape";
  let description = [{
    ONNX Resize with sizes resolved at import: every output coordinate maps
    to an input coordinate by `coordinate_mode`, then takes the nearest
    input element (rounded by `nearest_mode`) or interpolates linearly
    (per dimension, over every resized dimension). The mapping divides by
    each dimension's scale: `scales` where the model gave them (an output
    size is their product with the input's, rounded down, so that the two
    can differ), otherwise output size / input size. A symbolic extent (an
    image batch) is kept: its scale is 1.

    Example:

    ```mlir
    %y = brrr.resize nearest %x asymmetric floor
         : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
    ```
  }];
  let arguments = (ins Brrr_ResizeModeAttr:$mode, Brrr_SymFloatTensor:$input,
                       Brrr_CoordinateModeAttr:$coordinate_mode,
                       Brrr_NearestModeAttr:$nearest_mode,
                       OptionalAttr<DenseF64ArrayAttr>:$scales);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $mode $input $coordinate_mode $nearest_mode attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Brrr_SliceOp : Brrr_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "strided slice with one (start, size, step) per dimension";
  let description = [{
    `result[i0, i1, ...] = input[starts[0] + i0 * steps[0], ...]` with the
    result shape `sizes`. Steps may be negative (reversal); every index read
    must lie inside the input. A size fixed only at run time is -1 in
    `sizes` and its extent is in `extents` (one per dimension), for every
    value of which the slice stays inside the input.

    Example:

    ```mlir
    %y = brrr.slice %x {sizes = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 2>}
         : tensor<4x9xf32> -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$sizes, DenseI64ArrayAttr:$steps,
                       OptionalAttr<Brrr_ExtentsAttr>:$extents);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let builders = [
    // A static slice: no symbolic extents.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$starts,
                   "::llvm::ArrayRef<int64_t>":$sizes,
                   "::llvm::ArrayRef<int64_t>":$steps), [{
      build($_builder, $_state, result, input, starts, sizes, steps,
            ExtentsAttr());
    }]>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Brrr_TransposeOp : Brrr_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permute dimensions";
  let description = [{
    `result.shape[i] = input.shape[perm[i]]`.

    Example:

    ```mlir
    %y = brrr.transpose %x {perm = array<i64: 0, 2, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // BRRR_MOVEMENT_OPS
