//===- BrrrOps.td - brrr tensor graph ops --------------------*- tablegen -*-===//
//
// Every op of the brrr graph IR (the data movement ops and constants in
// BrrrMovementOps.td, included below). Ops that can compute their result
// type implement InferTypeOpInterface (the functions live in
// BrrrShapeInference.cpp); ops whose result shape is data (reshape,
// expand, cast, resize) carry it in the result type and verify it instead.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_OPS_TD
#define BRRR_OPS_TD

include "dialects/Brrr/BrrrDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Brrr_Op<string mnemonic, list<Trait> traits = []>
    : Op<Brrr_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Brrr_UnaryOp<string mnemonic, string formula, Type T = Brrr_SymFloatTensor,
                   list<Trait> traits = []>
    : Brrr_Op<mnemonic, traits # [Pure, Elementwise, SameOperandsAndResultType,
        DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise " # formula;
  let description = "Computes `" # formula # "` for every element; the result "
    # "has the operand's type.\n\nExample:\n\n```mlir\n%y = brrr." # mnemonic
    # " %x : tensor<2x8xf32>\n```";
  let arguments = (ins T:$input);
  let results = (outs T:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Brrr_AbsOp : Brrr_UnaryOp<"abs", "|x|", Brrr_SymNumericTensor>;
def Brrr_AcosOp : Brrr_UnaryOp<"acos", "acos(x)">;
def Brrr_AcoshOp : Brrr_UnaryOp<"acosh", "acosh(x)">;
def Brrr_AsinOp : Brrr_UnaryOp<"asin", "asin(x)">;
def Brrr_AsinhOp : Brrr_UnaryOp<"asinh", "asinh(x)">;
def Brrr_AtanOp : Brrr_UnaryOp<"atan", "atan(x)">;
def Brrr_AtanhOp : Brrr_UnaryOp<"atanh", "atanh(x)">;
def Brrr_CeilOp : Brrr_UnaryOp<"ceil", "ceil(x)">;
def Brrr_CosOp : Brrr_UnaryOp<"cos", "cos(x)">;
def Brrr_CoshOp : Brrr_UnaryOp<"cosh", "cosh(x)">;
def Brrr_ErfOp : Brrr_UnaryOp<"erf", "erf(x)">;
def Brrr_ExpOp : Brrr_UnaryOp<"exp", "exp(x)">;
def Brrr_FloorOp : Brrr_UnaryOp<"floor", "floor(x)">;
def Brrr_LogOp : Brrr_UnaryOp<"log", "log(x)">;
def Brrr_NegOp : Brrr_UnaryOp<"neg", "-x", Brrr_SymNumericTensor>;
def Brrr_NotOp : Brrr_UnaryOp<"not", "logical not x", Brrr_SymBoolTensor>;
def Brrr_ReciprocalOp : Brrr_UnaryOp<"reciprocal", "1 / x">;
def Brrr_ReluOp : Brrr_UnaryOp<"relu", "max(x, 0)", Brrr_SymNumericTensor>;
def Brrr_RoundOp : Brrr_UnaryOp<"round",
    "x rounded to the nearest integer, halves to even">;
def Brrr_RsqrtOp : Brrr_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def Brrr_SigmoidOp : Brrr_UnaryOp<"sigmoid", "1 / (1 + exp(-x))">;
def Brrr_SiluOp : Brrr_UnaryOp<"silu", "x * sigmoid(x)">;
def Brrr_SignOp : Brrr_UnaryOp<"sign", "-1, 0 or 1 as x is negative, zero or "
    "positive (NaN stays NaN)", Brrr_SymNumericTensor>;
def Brrr_SinOp : Brrr_UnaryOp<"sin", "sin(x)">;
def Brrr_SinhOp : Brrr_UnaryOp<"sinh", "sinh(x)">;
def Brrr_SqrtOp : Brrr_UnaryOp<"sqrt", "sqrt(x)">;
def Brrr_TanOp : Brrr_UnaryOp<"tan", "tan(x)">;
def Brrr_TanhOp : Brrr_UnaryOp<"tanh", "tanh(x)">;

def Brrr_GeluOp : Brrr_Op<"gelu", [Pure, Elementwise, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise Gaussian error linear unit";
  let description = [{
    `x * Phi(x)` with the exact erf form (`approximate = none`) or the tanh
    approximation used by GPT-2 (`approximate = tanh`). Kept as one op at
    import; decomposition into erf/tanh arithmetic is a pass's choice.

    Example:

    ```mlir
    %y = brrr.gelu tanh %x : tensor<4x64xf16>
    ```
  }];
  let arguments = (ins Brrr_SymFloatTensor:$input,
                       Brrr_GeluApproximationAttr:$approximate);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = "$approximate $input attr-dict `:` type($input)";
}

def Brrr_ClipOp : Brrr_Op<"clip", [Pure, Elementwise, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise clamp into [min, max]";
  let description = [{
    Clamps every element into `[min, max]`; a missing bound is unbounded.
    ONNX Clip's optional `min`/`max` inputs are folded into these attributes
    at import, so they must be compile-time constants.

    Example:

    ```mlir
    %y = brrr.clip %x {max = 6.0 : f64, min = 0.0 : f64} : tensor<8xf32>
    ```
  }];
  let arguments = (ins Brrr_SymNumericTensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let results = (outs Brrr_SymNumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Brrr_CastOp : Brrr_Op<"cast", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "elementwise element type conversion";
  let description = [{
    Converts every element to the result's element type with ONNX Cast
    semantics (float to integer truncates toward zero; to `i1` is `x != 0`).

    Example:

    ```mlir
    %y = brrr.cast %x : tensor<4xf32> -> tensor<4xf16>
    ```
  }];
  let arguments = (ins Brrr_SymTensor:$input);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary ops (numpy broadcasting)
//===----------------------------------------------------------------------===//

class Brrr_BinaryOp<string mnemonic, string formula,
                    Type T = Brrr_SymNumericTensor, list<Trait> traits = []>
    : Brrr_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]> {
  let summary = "elementwise " # formula # " with numpy broadcasting";
  let description = "Computes `" # formula # "` elementwise. Operands have "
    # "the same element type and broadcast under numpy rules (right-aligned "
    # "dimensions, each pair equal or one of them 1); the result has the "
    # "broadcast shape.\n\nExample:\n\n```mlir\n%z = brrr." # mnemonic
    # " %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>\n```";
  let arguments = (ins T:$lhs, T:$rhs);
  let results = (outs T:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::brrr::inferBroadcastResult(loc, adaptor.getLhs(),
          adaptor.getRhs(), /*resultElementType=*/nullptr, types);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::brrr::foldBinaryOp(getOperation(), adaptor.getLhs(),
                                        adaptor.getRhs());
    }
  }];
}

def Brrr_AddOp : Brrr_BinaryOp<"add", "x + y", Brrr_SymNumericTensor, [Commutative]> {
  // x + expand(y) is x + y where y broadcasts to the same result.
  let hasCanonicalizer = 1;
}
def Brrr_AndOp : Brrr_BinaryOp<"and", "x and y", Brrr_SymBoolTensor, [Commutative]> {
  // x and (true, filled) is x, broadcast.
  let hasCanonicalizer = 1;
}
def Brrr_DivOp : Brrr_BinaryOp<"div", "x / y"> {
  // F.normalize written out (x over its clamped length) becomes one
  // `layer_norm {l2}`.
  let hasCanonicalizer = 1;
}
def Brrr_MaxOp : Brrr_BinaryOp<"max", "max(x, y)", Brrr_SymNumericTensor, [Commutative]>;
def Brrr_MinOp : Brrr_BinaryOp<"min", "min(x, y)", Brrr_SymNumericTensor, [Commutative]>;
def Brrr_MulOp : Brrr_BinaryOp<"mul", "x * y", Brrr_SymNumericTensor, [Commutative]> {
  // RMSNorm written out (mean of squares, rsqrt, scale) becomes one
  // `layer_norm {rms}`.
  let hasCanonicalizer = 1;
}
def Brrr_OrOp : Brrr_BinaryOp<"or", "x or y", Brrr_SymBoolTensor, [Commutative]>;
def Brrr_PowOp : Brrr_BinaryOp<"pow", "x ^ y"> {
  // pow(x, c) for a small whole constant c becomes multiplications.
  let hasCanonicalizer = 1;
}
def Brrr_RemOp : Brrr_BinaryOp<"rem", "x - y * trunc(x / y)",
                               Brrr_SymNumericTensor>;
def Brrr_SubOp : Brrr_BinaryOp<"sub", "x - y">;
def Brrr_XorOp : Brrr_BinaryOp<"xor", "x xor y", Brrr_SymBoolTensor, [Commutative]>;

def Brrr_CompareOp : Brrr_Op<"compare", [Pure, InferTypeOpAdaptor]> {
  let summary = "elementwise comparison with numpy broadcasting";
  let description = [{
    Compares two tensors of the same element type elementwise under numpy
    broadcasting and yields an `i1` tensor of the broadcast shape.

    Example:

    ```mlir
    %m = brrr.compare lt %x, %y : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins Brrr_ComparePredicateAttr:$predicate,
                       Brrr_SymComparableTensor:$lhs, Brrr_SymComparableTensor:$rhs);
  let results = (outs Brrr_SymBoolTensor:$result);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
  // A comparison of picks from a constant with one outcome: that outcome.
  let hasCanonicalizer = 1;
}

def Brrr_WhereOp : Brrr_Op<"where", [Pure, InferTypeOpAdaptor]> {
  let summary = "elementwise select with numpy broadcasting";
  let description = [{
    Picks `lhs` where `condition` is true and `rhs` elsewhere. All three
    operands broadcast together under numpy rules.

    Example:

    ```mlir
    %y = brrr.where %c, %a, %b : tensor<1x8xi1>, tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Brrr_SymBoolTensor:$condition, Brrr_SymTensor:$lhs,
                       Brrr_SymTensor:$rhs);
  let results = (outs Brrr_SymTensor:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:` type($condition) `,` type($lhs)
    `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
  // A condition of one value picks one side.
  let hasCanonicalizer = 1;
}

def Brrr_QuantizedTensor : StaticShapeTensorOf<[I8, UI8, F8E4M3FN]>;

def Brrr_QuantizeOp : Brrr_Op<"quantize", [Pure, InferTypeOpAdaptor]> {
  let summary = "quantization to 8-bit integers or float8 by a scale and "
                "zero point";
  let description = [{
    ONNX QuantizeLinear: `y = saturate(round(x / scale) + zero_point)`,
    rounding half to even, for an `i8` or `ui8` result;
    `y = float8(x / scale + zero_point)`, rounding to nearest even, for an
    `f8E4M3FN` result. With `saturate` (the default) a float8 result
    clamps to its largest finite magnitude (448); without, values beyond
    it become NaN. Integer results always saturate. `scale` and
    `zero_point` broadcast to `input`'s shape under numpy rules (a scalar
    per tensor, a size-C vector reshaped onto the quantized axis per
    channel); the result has `input`'s shape and `zero_point`'s element
    type, and `scale` has `input`'s float type. `input` may have symbolic
    extents; `scale` and `zero_point` are static.

    Example:

    ```mlir
    %q = brrr.quantize %x, %s, %z : tensor<4x8xf32>, tensor<f32>, tensor<i8> -> tensor<4x8xi8>
    ```
  }];
  let arguments = (ins Brrr_SymFloatTensor:$input, Brrr_FloatTensor:$scale,
                       Brrr_QuantizedTensor:$zero_point,
                       DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs Brrr_SymTensorOf<[I8, UI8, F8E4M3FN]>:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` type($input) `,`
    type($scale) `,` type($zero_point) `->` type($result)
  }];
}

def Brrr_DequantizeOp : Brrr_Op<"dequantize", [Pure, InferTypeOpAdaptor]> {
  let summary = "8-bit integers, float8 or i32 back to float by a scale and "
                "zero point";
  let description = [{
    ONNX DequantizeLinear: `y = (x - zero_point) * scale`, the difference
    taken exactly (in i32 for integers) and the product rounded once to
    `scale`'s float type, which the result has. `scale` and `zero_point`
    (of `input`'s element type) broadcast to `input`'s shape under numpy
    rules; the result has `input`'s shape. `input` may have symbolic
    extents; `scale` and `zero_point` are static.

    Example:

    ```mlir
    %y = brrr.dequantize %q, %s, %z : tensor<4x8xi8>, tensor<1x8xf32>, tensor<1x8xi8> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Brrr_SymTensorOf<[I8, UI8, I32, F8E4M3FN]>:$input,
                       Brrr_FloatTensor:$scale,
                       StaticShapeTensorOf<[I8, UI8, I32, F8E4M3FN]>:$zero_point);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` type($input) `,`
    type($scale) `,` type($zero_point) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Linear algebra and neural network ops
//===----------------------------------------------------------------------===//

def Brrr_MatmulOp : Brrr_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "batched matrix product with broadcast batch dimensions";
  let description = [{
    `result[..., i, j] = sum_k lhs[..., i, k] * rhs[..., k, j]` with numpy
    `matmul` semantics for operands of rank >= 2: leading (batch) dimensions
    broadcast. Rank-1 ONNX operands are reshaped at import.

    Operands of 8-bit types (float8 E4M3FN or INT8, from
    `brrr-quantized-products`) multiply exactly and sum in f32 (INT8: in
    32-bit integers), and the result is f32; otherwise it has the
    operands' element type.

    Example:

    ```mlir
    %c = brrr.matmul %a, %b : tensor<8x128x64xf16>, tensor<64x32xf16> -> tensor<8x128x32xf16>
    %q = brrr.matmul %x, %w : tensor<128x64xf8E4M3FN>, tensor<64x32xf8E4M3FN> -> tensor<128x32xf32>
    ```
  }];
  let arguments = (ins Brrr_SymNumericTensor:$lhs, Brrr_SymNumericTensor:$rhs);
  let results = (outs Brrr_SymNumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  // A transpose of the left operand's rows moves after the product.
  let hasCanonicalizer = 1;
}

def Brrr_AttentionOp : Brrr_Op<"attention", [Pure]> {
  let summary = "scaled dot-product attention";
  let description = [{
    For `query` `B x H x Sq x D`, `key` `B x Hk x Sk x D` and `value`
    `B x Hk x Sk x Dv` (`Hk` divides `H`: query head `h` reads key and value
    head `h / (H / Hk)`, as grouped-query attention repeats them):

    `result[b, h, i, :] = sum_j p[b, h, i, j] * value[b, h', j, :]`, with
    `p[b, h, i, :] = softmax_j(scale * query[b, h, i, :] . key[b, h', j, :]
    + bias[b, h, i, j])`.

    `bias` (optional) broadcasts to `B x H x Sq x Sk` under numpy rules: an
    additive mask or position bias. A bias of rank 5, `B/P x P x H x Sq x Sk`
    under the same rules (`P` dividing `B`), splits the batch as `(B / P,
    P)`: batch `b` reads `bias[b / P, b % P]` (shifted windows: a mask for
    each of the `P` windows of an image, the same for every image). With
    `causal`, key `j` is masked
    (-inf) for query `i` when `j > i + Sk - Sq`. With `zero_nan`, a row
    whose probabilities are undefined (every key masked, or NaN scores)
    gives zeros, as `where(isnan(p), 0, p)` after the softmax does. The
    result element type may differ from the operands' (a product kept in
    f32). `brrr-fuse-attention` builds it from the exporters' decomposed
    form; it runs as one `attention` kernel that never writes the scores.

    Example:

    ```mlir
    %o = brrr.attention %q, %k, %v bias %m {scale = 0.125 : f64, zero_nan}
         : tensor<1x12x128x64xf16>, tensor<1x12x128x64xf16>,
           tensor<1x12x128x64xf16>, tensor<1x1x128x128xf32>
           -> tensor<1x12x128x64xf16>
    ```
  }];
  let arguments = (ins Brrr_SymFloatTensor:$query, Brrr_SymFloatTensor:$key,
                       Brrr_SymFloatTensor:$value,
                       Optional<Brrr_SymFloatTensor>:$bias, F64Attr:$scale,
                       UnitAttr:$causal, UnitAttr:$zero_nan);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`bias` $bias^)? attr-dict `:` type($query) `,`
    type($key) `,` type($value) (`,` type($bias)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Brrr_Conv2DOp : Brrr_Op<"conv2d", [Pure, InferTypeOpAdaptor]> {
  let summary = "2-D grouped convolution, NCHW input and OIHW weights";
  let description = [{
    Cross-correlation of an `N x C x H x W` input with `O x C/groups x KH x KW`
    weights and an optional `O` bias. `pads` is `[top, left, bottom, right]`,
    `strides` and `dilations` are `[h, w]`.

    With `channels_last` the same convolution is laid out for implicit GEMM
    on Tensor Cores: the input is `N x H x W x C`, the weights are
    `KH x KW x O x C/groups` (each tap a row-major `O x C/groups` matrix)
    and the result is `N x OH x OW x O`. `brrr-channels-last` chooses it.

    A channels-last convolution of 8-bit operands (float8 E4M3FN or INT8,
    from `brrr-quantized-products`) multiplies them exactly and sums in f32
    (INT8: in 32-bit integers); its result is f32 and it has no bias.

    Example:

    ```mlir
    %y = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64,
           pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
         : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
    ```
  }];
  let arguments = (ins Brrr_SymNumericTensor:$input,
                       Brrr_SymNumericTensor:$weight,
                       Optional<Brrr_SymFloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, I64Attr:$groups,
                       UnitAttr:$channels_last);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// Positions of the channel and first spatial dimension of the input
    /// and result, and of the output-channel, input-channel and first
    /// kernel dimension of the weights, in this op's layout.
    int64_t channelDim() { return getChannelsLast() ? 3 : 1; }
    int64_t spatialDim() { return getChannelsLast() ? 1 : 2; }
    int64_t weightOutDim() { return getChannelsLast() ? 2 : 0; }
    int64_t weightInDim() { return getChannelsLast() ? 3 : 1; }
    int64_t weightKernelDim() { return getChannelsLast() ? 0 : 2; }
  }];
}

class Brrr_Pool2DOp<string mnemonic, string what, Type T = Brrr_SymFloatTensor>
    : Brrr_Op<mnemonic,
    [Pure, InferTypeOpAdaptor]> {
  let summary = "2-D " # what # " pooling over NCHW";
  let description = "Slides a `kernel` window over H and W of an NCHW tensor "
    # "and takes the " # what # ". `pads` is `[top, left, bottom, right]`; "
    # "with `ceil_mode` the output size rounds up. With `channels_last` the "
    # "input and result are NHWC (brrr-channels-last).\n\nExample:\n\n```mlir\n"
    # "%y = brrr." # mnemonic # " %x {ceil_mode = false, count_include_pad = false, "
    # "dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, "
    # "pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : "
    # "tensor<1x8x32x32xf32> -> tensor<1x8x16x16xf32>\n```";
  let arguments = (ins T:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, BoolAttr:$ceil_mode,
                       BoolAttr:$count_include_pad, UnitAttr:$channels_last);
  let results = (outs T:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::brrr::inferPool2DResult(loc, adaptor.getInput(),
          adaptor.getKernel(), adaptor.getStrides(), adaptor.getPads(),
          adaptor.getDilations(), adaptor.getCeilMode(),
          adaptor.getChannelsLast(), types);
    }
  }];
}

def Brrr_AvgPool2DOp : Brrr_Pool2DOp<"avg_pool2d", "average">;
def Brrr_MaxPool2DOp : Brrr_Pool2DOp<"max_pool2d", "maximum",
                                     Brrr_SymNumericTensor>;

def Brrr_BatchNormOp : Brrr_Op<"batch_norm", [Pure, InferTypeOpAdaptor]> {
  let summary = "inference batch normalization over dimension 1";
  let description = [{
    `(x - mean) / sqrt(variance + epsilon) * scale + bias`, with the four
    per-channel parameters of shape `[C]` broadcast along dimension 1 of an
    input of rank >= 2. A pass folds it into a preceding convolution.

    Example:

    ```mlir
    %y = brrr.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f64}
         : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
    ```
  }];
  let arguments = (ins Brrr_SymFloatTensor:$input, Brrr_SymFloatTensor:$scale,
                       Brrr_SymFloatTensor:$bias, Brrr_SymFloatTensor:$mean,
                       Brrr_SymFloatTensor:$variance, F64Attr:$epsilon);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
}

def Brrr_LayerNormOp : Brrr_Op<"layer_norm", [Pure, InferTypeOpAdaptor]> {
  let summary = "layer normalization over the trailing dimensions from axis";
  let description = [{
    Normalizes over dimensions `[axis, rank)` to zero mean and unit variance
    (`epsilon` added to the variance), then multiplies by `scale` and adds
    the optional `bias`; both have the normalized shape. With `rms`, the
    root mean square normalization (RMSNorm): `x / sqrt(mean(x^2) +
    epsilon) * scale`, not centred, with no bias. With `l2`, the rows
    scaled to unit length (torch's `F.normalize`): `x / max(sqrt(sum(x^2)),
    epsilon) * scale`, not centred, with no bias.

    Example:

    ```mlir
    %y = brrr.layer_norm %x, %g, %b {axis = 2 : i64, epsilon = 1.0e-05 : f64}
         : (tensor<2x16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
    ```
  }];
  let arguments = (ins Brrr_SymFloatTensor:$input, Brrr_SymFloatTensor:$scale,
                       Optional<Brrr_SymFloatTensor>:$bias, I64Attr:$axis,
                       F64Attr:$epsilon, UnitAttr:$rms, UnitAttr:$l2);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class Brrr_SoftmaxLikeOp<string mnemonic, string formula>
    : Brrr_Op<mnemonic, [Pure, SameOperandsAndResultType,
                         DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = formula # " along one axis";
  let description = "Computes `" # formula # "` along `axis` (non-negative).\n\n"
    # "Example:\n\n```mlir\n%y = brrr." # mnemonic
    # " %x {axis = 1 : i64} : tensor<4x128xf32>\n```";
  let arguments = (ins Brrr_SymFloatTensor:$input, I64Attr:$axis);
  let results = (outs Brrr_SymFloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      int64_t rank = getInput().getType().getRank();
      if (getAxis() < 0 || getAxis() >= rank)
        return emitOpError("axis ") << getAxis()
               << " is out of range for a tensor of rank " << rank;
      return ::mlir::success();
    }
  }];
  let hasVerifier = 1;
}

def Brrr_LogSoftmaxOp : Brrr_SoftmaxLikeOp<"log_softmax", "log(softmax(x))">;
def Brrr_SoftmaxOp : Brrr_SoftmaxLikeOp<"softmax", "exp(x) / sum(exp(x))">;

def Brrr_ReduceOp : Brrr_Op<"reduce", [Pure, InferTypeOpAdaptor]> {
  let summary = "reduction over a set of axes";
  let description = [{
    Combines the elements along `axes` (sorted, unique, non-negative) with
    `kind`. With `keepdims` the reduced dimensions stay as size 1. Global
    pooling imports as a `mean`/`max` reduction over H and W.

    Example:

    ```mlir
    %y = brrr.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true}
         : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
    ```
  }];
  let arguments = (ins Brrr_ReduceKindAttr:$kind, Brrr_SymNumericTensor:$input,
                       DenseI64ArrayAttr:$axes, BoolAttr:$keepdims);
  let results = (outs Brrr_SymNumericTensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
}

// Data movement ops, and the constants.
include "dialects/Brrr/BrrrMovementOps.td"

//===----------------------------------------------------------------------===//
// Kernel groups
//===----------------------------------------------------------------------===//

def Brrr_FusionOp : Brrr_Op<"fusion", [IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a group of ops that becomes one GPU kernel";
  let description = [{
    The fusion passes wrap the ops that one kernel computes in a region: the
    operands are the tensors the kernel reads from memory, the results the
    tensors it writes; every value inside lives in registers. `kind` is the
    kernel family that generates code for it (`pointwise`, `row`, `reduce`,
    `movement`, `matmul`, `conv`, `pool` or `attention`). Its tensors may
    have symbolic extents where the compiler handles them (see
    `compilesSymbolically`); every pass refuses the others.

    Example:

    ```mlir
    %y = brrr.fusion pointwise (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %0 = brrr.add %a, %c : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
      %1 = brrr.relu %0 : tensor<4x8xf32>
      brrr.yield %1 : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Brrr_KernelFamilyEnumAttr:$kind,
                       Variadic<Brrr_SymTensor>:$inputs);
  let results = (outs Variadic<Brrr_SymTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<KernelFamily>($kind) `(` $inputs `)` attr-dict `:`
    functional-type($inputs, results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::brrr::KernelFamily":$kind, "::mlir::ValueRange":$inputs,
                   "::mlir::TypeRange":$resultTypes)>
  ];
}

def Brrr_YieldOp : Brrr_Op<"yield", [Pure, Terminator,
                                     HasParent<"FusionOp">]> {
  let summary = "the values a fusion writes to memory";
  let description = [{
    Terminates a `brrr.fusion` body; its operands become the fusion's
    results.

    Example:

    ```mlir
    brrr.yield %1 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Brrr_SymTensor>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
}

#endif // BRRR_OPS_TD
