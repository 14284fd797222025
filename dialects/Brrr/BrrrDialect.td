//===- BrrrDialect.td - the brrr tensor graph dialect -------*- tablegen -*-===//
//
// The `brrr` dialect is the tensor-level graph IR that the ONNX importer
// produces and that every brrr pass consumes. Values are ranked tensors of
// builtin element types, statically or symbolically shaped; ops follow
// ONNX/numpy semantics (numpy broadcasting, NCHW convolutions) with every
// attribute normalized at
// import (non-negative axes, explicit pads, full-rank slice parameters), so
// later passes never re-derive ONNX defaults.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_DIALECT_TD
#define BRRR_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

def Brrr_Dialect : Dialect {
  let name = "brrr";
  let cppNamespace = "::mlir::brrr";
  let summary = "Tensor graph IR for the brrr compiler";
  let description = [{
    The `brrr` dialect models a neural network as a graph of tensor ops,
    between ONNX import and kernel generation. Shapes are static, or symbolic
    where a dimension is fixed only at run time: `?` with a `#brrr.extents`
    encoding over the module's `brrr.dims`. Composite ops
    (softmax, layer norm, GELU, batch norm) stay named so that decomposition
    and fusion passes decide how to lower them; weights are builtin
    `dense_resource` constants so they never bloat printed IR.
  }];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Brrr_Tensor : StaticShapeTensorOf<[AnyType]>;
def Brrr_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
def Brrr_Int : AnyTypeOf<[SignlessIntOfWidths<[8, 16, 32, 64]>,
                          AnyUnsignedInteger], "integer (not i1)">;
def Brrr_NumericTensor : StaticShapeTensorOf<[AnyFloat, Brrr_Int]>;
def Brrr_ComparableTensor : StaticShapeTensorOf<[AnyFloat, AnyInteger]>;
def Brrr_BoolTensor : StaticShapeTensorOf<[I1]>;

// Operands and results of the ops whose type inference carries symbolic
// dimensions: each dimension is static or, where it is `?`, an extent of the
// module's symbolic dimensions that a `#brrr.extents` encoding names. The
// other ops take static shapes only.
def Brrr_HasStaticOrSymbolicShapePred
    : CPred<"::mlir::brrr::isStaticOrSymbolic($_self)">;
class Brrr_SymTensorOf<list<Type> allowedTypes>
  : RankedTensorOf<allowedTypes, [Brrr_HasStaticOrSymbolicShapePred],
                   "statically or symbolically shaped tensor">;
def Brrr_SymTensor : Brrr_SymTensorOf<[AnyType]>;
def Brrr_SymFloatTensor : Brrr_SymTensorOf<[AnyFloat]>;
def Brrr_SymNumericTensor : Brrr_SymTensorOf<[AnyFloat, Brrr_Int]>;
def Brrr_SymComparableTensor : Brrr_SymTensorOf<[AnyFloat, AnyInteger]>;
def Brrr_SymBoolTensor : Brrr_SymTensorOf<[I1]>;
def Brrr_SymIndexTensor : Brrr_SymTensorOf<[I32, I64]>;
def Brrr_IndexTensor : StaticShapeTensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Brrr_ComparePredicateAttr : I32EnumAttr<"ComparePredicate",
    "elementwise comparison predicate", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_ReduceKindAttr : I32EnumAttr<"ReduceKind", "reduction combiner", [
      I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"prod", 4>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_PadModeAttr : I32EnumAttr<"PadMode", "padding mode", [
      I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
      I32EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_GeluApproximationAttr : I32EnumAttr<"GeluApproximation",
    "GELU approximation", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"tanh", 1>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_ScatterReductionAttr : I32EnumAttr<"ScatterReduction",
    "how a scatter combines an update with the element it lands on", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"min", 4>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_ResizeModeAttr : I32EnumAttr<"ResizeMode", "resize interpolation", [
      I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_CoordinateModeAttr : I32EnumAttr<"CoordinateMode",
    "how an output coordinate maps to an input coordinate in resize", [
      I32EnumAttrCase<"half_pixel", 0>, I32EnumAttrCase<"pytorch_half_pixel", 1>,
      I32EnumAttrCase<"align_corners", 2>, I32EnumAttrCase<"asymmetric", 3>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_NearestModeAttr : I32EnumAttr<"NearestMode",
    "rounding of the source coordinate in nearest resize", [
      I32EnumAttrCase<"round_prefer_floor", 0>,
      I32EnumAttrCase<"round_prefer_ceil", 1>,
      I32EnumAttrCase<"floor", 2>, I32EnumAttrCase<"ceil", 3>]> {
  let cppNamespace = "::mlir::brrr";
}

def Brrr_KernelFamilyAttr : I32EnumAttr<"KernelFamily",
    "the kernel family that generates a brrr.fusion's code", [
      I32EnumAttrCase<"pointwise", 0>, I32EnumAttrCase<"row", 1>,
      I32EnumAttrCase<"reduce", 2>, I32EnumAttrCase<"movement", 3>,
      I32EnumAttrCase<"matmul", 4>, I32EnumAttrCase<"conv", 5>,
      I32EnumAttrCase<"pool", 6>, I32EnumAttrCase<"attention", 7>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_KernelBodyAttr : I32EnumAttr<"KernelBody",
    "the instructions a kernel computes with", [
      I32EnumAttrCase<"simt", 0>, I32EnumAttrCase<"warp_mma", 1>,
      I32EnumAttrCase<"mma_sync", 2>, I32EnumAttrCase<"wgmma", 3>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_KernelPrecisionAttr : I32EnumAttr<"KernelPrecision",
    "how a Tensor Core body multiplies f32 operands and sums float8 ones", [
      I32EnumAttrCase<"exact", 0>, I32EnumAttrCase<"tf32", 1>,
      I32EnumAttrCase<"promoted", 2>, I32EnumAttrCase<"fast", 3>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_KernelScheduleAttr : I32EnumAttr<"KernelSchedule",
    "how a persistent wgmma kernel's consumer warpgroups share its tiles", [
      I32EnumAttrCase<"cooperative", 0>, I32EnumAttrCase<"pingpong", 1>,
      I32EnumAttrCase<"overlapped", 2>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_TensorCoresAttr : I32EnumAttr<"TensorCores",
    "the Tensor Core instructions a chip has", [
      I32EnumAttrCase<"mma_sync", 0>, I32EnumAttrCase<"wgmma", 1>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_TargetFeatureAttr : I32EnumAttr<"TargetFeature",
    "a capability of a target beyond its Tensor Cores", [
      I32EnumAttrCase<"arch_specific", 0>, I32EnumAttrCase<"tma", 1>,
      I32EnumAttrCase<"clusters", 2>, I32EnumAttrCase<"grid_dependency", 3>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_SharedRoleAttr : I32EnumAttr<"SharedRole",
    "what a buffer of a kernel's shared memory holds", [
      I32EnumAttrCase<"a", 0>, I32EnumAttrCase<"b", 1>,
      I32EnumAttrCase<"partials", 2>, I32EnumAttrCase<"barriers", 3>,
      I32EnumAttrCase<"epilogue", 4>, I32EnumAttrCase<"query", 5>,
      I32EnumAttrCase<"key", 6>, I32EnumAttrCase<"value", 7>,
      I32EnumAttrCase<"output", 8>, I32EnumAttrCase<"reduction", 9>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

def Brrr_BufferStorageAttr : I32EnumAttr<"BufferStorage",
    "where a tensor of the model's global memory lives", [
      I32EnumAttrCase<"weight", 0>, I32EnumAttrCase<"arena", 1>,
      I32EnumAttrCase<"output", 2>]> {
  let cppNamespace = "::mlir::brrr";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// A kernel family as an attribute of its own (`#brrr.family<row>`):
/// `brrr.fusion`'s kind, which the op prints as the bare keyword
/// (`brrr.fusion row(...)`).
def Brrr_KernelFamilyEnumAttr : EnumAttr<Brrr_Dialect, Brrr_KernelFamilyAttr,
                                         "family"> {
  let assemblyFormat = "`<` $value `>`";
}

/// A block tile, printed and parsed as `[m, n, k]`.
def Brrr_TileParameter : OptionalArrayRefParameter<"int64_t", "block tile"> {
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer);
    $_printer << ']';
  }];
  let parser = [{
    [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
      ::llvm::SmallVector<int64_t> values;
      if ($_parser.parseCommaSeparatedList(
              ::mlir::AsmParser::Delimiter::Square,
              [&] { return $_parser.parseInteger(values.emplace_back()); }))
        return ::mlir::failure();
      return values;
    }()
  }];
}

def Brrr_KernelConfigAttr : AttrDef<Brrr_Dialect, "KernelConfig"> {
  let mnemonic = "kernel";
  let summary = "how one brrr.fusion's kernel is built";
  let description = [{
    Every decision about a kernel's geometry, made once by
    `brrr-select-kernel-config` and only read afterwards (by the
    shared-memory planner and the code generator):
    - `family`: the kernel family (equal to the fusion's kind);
    - `body`: `simt` (plain threads), `warp_mma` (untiled, 16-bit operands:
      one warp per 16x8 output tile with mma.sync, operands straight from
      global memory; with a tile `[rows, columns]`, the few-rows body on
      Tensor Cores: a block's warps split K, each multiplying 16 columns'
      weights by every row's inputs), `mma_sync` (a block tile of warps on mma.sync, k-slices
      staged by cp.async: one warp per 64x64 for f16/bf16, per 64x32 on
      tf32 for f32) or `wgmma` (Hopper: warpgroups on wgmma fed by
      TMA from a producer warpgroup);
    - `threads`: the block size;
    - `tile`: for Tensor Core bodies, the block tile `[m, n, k]`; for the
      few-rows bodies of a matmul (`simt`, `warp_mma`) and the one-pixel
      body of a convolution, `[rows, columns a block]`; for a
      reduction, `[threads]` when the whole block cooperates on one output,
      `[lanes, groups]` when it splits the rows of `lanes` vectors of
      outputs over `groups` threads each (absent: one thread per output);
      for a direct (depthwise) convolution, `[pixels]`: the outputs along a
      row one thread computes, each a vector of channels; for a pointwise
      kernel or a movement tree of vectors, `[vectors]`: the vectors one
      thread computes, all loaded before any is computed (absent: one); for
      a tiled transpose, `[columns, rows]`: the square shared-memory tile's
      side and the rows of it one pass of the block copies (absent, on a
      movement kernel: an element a thread);
    - `stages`: shared-memory buffers the k-slices stream through;
    - `vector`: elements per vector access;
    - `cluster`: thread blocks per cluster; for the wgmma body, the blocks
      that split one tile's k-slices and sum their accumulators through
      distributed shared memory (2, 4 or 8);
    - `precision`: for f32 operands (on the mma_sync body), `exact` (three
      tf32 products, f32 accuracy) or `tf32` (one product,
      `--precision=tf32`); for float8 operands (on the wgmma body),
      `promoted` (each k-slice's products summed by the Tensor Cores into
      fresh registers, then added to f32 accumulators: the error of one
      slice's sum at any depth, twice the accumulator registers, so at most
      192 columns on the cooperative schedule, 64 on the ping-pong one) or `fast` (the whole contraction in the Tensor Cores'
      float8 accumulation, whose mantissa is shorter than f32's:
      `--fp8-fast-accumulation`);
    - `persistent`: for the wgmma body, the blocks of a persistent kernel,
      each walking the output tiles `persistent` apart (absent: one block
      per tile);
    - `epilogue`: for the wgmma body, the columns of the tile its epilogue
      stages through shared memory at a time, in a buffer of its own that
      the next tile's copies do not touch (absent: the whole tile, over the
      stages);
    - `schedule`: for a persistent wgmma kernel, `cooperative` (both
      consumer warpgroups compute each tile, 64 rows each) or `pingpong`
      (each consumer warpgroup computes whole tiles, every other one of the
      block's, and their main loops take turns, so that one warpgroup's
      epilogue runs while the other's products keep the Tensor Cores busy)
      or `overlapped` (both consumer warpgroups compute each tile, stage
      its products rounded to the product's 16-bit type in a buffer of the
      whole tile, `epilogue` = the tile's columns, and go on to the next
      tile, while warps 1-3 of the producer warpgroup apply the epilogue
      and store it, with the four warps of a fourth warpgroup where
      `threads` is 512: a tile at most 192 wide); for an attention kernel
      on the wgmma body,
      `overlapped` issues each key block's scores before the previous
      block's product with the values and runs its softmax while that
      product does (3 or more stages: a block's values are read one key
      block after its keys);
    - `multicast`: for the wgmma body, the blocks of a cluster (2) that
      compute vertically adjacent tiles of the same columns: each copies
      its share of every k-slice of B and multicasts it into the shared
      memory of both, so that B crosses from L2 once for the pair (absent:
      1, each block copies its own);
    - `stream_k`: for a persistent wgmma kernel, whether its blocks split
      the product's k-slices evenly instead of its tiles: block b of P
      takes slices [b W / P, (b + 1) W / P) of the W = tiles x k-slices
      in tile order, so a tile may be shared by consecutive blocks. The
      block holding a tile's first slice completes it: it adds the f32
      partial sums that the blocks holding the rest stored in the kernel's
      workspace (`brrr.workspace`), after each one's flag says they are
      there, then applies the epilogue (absent: false, whole tiles);
    - `grid`: the launch grid `[x, y, z]` in blocks, at the largest shape
      in range, derived for the kernel from its fusion and the decisions
      above (the family's rules, `passes/Config/Families/`) and checked against them before
      code generation;
    - `grid_extents`: over symbolic extents, the grid's `(x, y, z)` as an
      affine map of the module's symbols, read at launch (absent: the
      grid is fixed).

    Example:

    ```mlir
    #brrr.kernel<family = matmul, body = wgmma, threads = 384,
                 tile = [128, 256, 64], stages = 4, grid = [16, 32, 1]>
    ```
  }];
  let parameters = (ins
    EnumParameter<Brrr_KernelFamilyAttr>:$family,
    EnumParameter<Brrr_KernelBodyAttr>:$body,
    "int64_t":$threads,
    Brrr_TileParameter:$tile,
    DefaultValuedParameter<"int64_t", "0">:$stages,
    DefaultValuedParameter<"int64_t", "1">:$vector,
    DefaultValuedParameter<"int64_t", "1">:$cluster,
    DefaultValuedParameter<"::mlir::brrr::KernelPrecision",
                           "::mlir::brrr::KernelPrecision::exact">:$precision,
    DefaultValuedParameter<"int64_t", "0">:$persistent,
    DefaultValuedParameter<"int64_t", "0">:$epilogue,
    DefaultValuedParameter<"::mlir::brrr::KernelSchedule",
                           "::mlir::brrr::KernelSchedule::cooperative">:$schedule,
    DefaultValuedParameter<"int64_t", "1">:$multicast,
    DefaultValuedParameter<"bool", "false">:$stream_k,
    Brrr_TileParameter:$grid,
    OptionalParameter<"::mlir::AffineMapAttr">:$grid_extents
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// This config with launch grid `grid` ([x, y, z]) and, over symbolic
    /// extents, `extents` (null: a fixed grid).
    KernelConfigAttr withGrid(::llvm::ArrayRef<int64_t> grid,
                              ::mlir::AffineMapAttr extents) const;
  }];
}

/// A target's features, printed and parsed as `[tma, clusters]`.
def Brrr_FeaturesParameter
    : OptionalArrayRefParameter<"::mlir::brrr::TargetFeature",
                                "target features"> {
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer, [&](auto f) {
      $_printer << ::mlir::brrr::stringifyTargetFeature(f);
    });
    $_printer << ']';
  }];
  let parser = [{
    [&]() -> ::mlir::FailureOr<::llvm::SmallVector<::mlir::brrr::TargetFeature>> {
      ::llvm::SmallVector<::mlir::brrr::TargetFeature> values;
      if ($_parser.parseCommaSeparatedList(
              ::mlir::AsmParser::Delimiter::Square, [&]() -> ::mlir::ParseResult {
                ::llvm::SMLoc loc = $_parser.getCurrentLocation();
                ::llvm::StringRef word;
                if ($_parser.parseKeyword(&word))
                  return ::mlir::failure();
                auto f = ::mlir::brrr::symbolizeTargetFeature(word);
                if (!f)
                  return $_parser.emitError(loc, "unknown target feature '")
                         << word << "'";
                values.push_back(*f);
                return ::mlir::success();
              }))
        return ::mlir::failure();
      return values;
    }()
  }];
}

def Brrr_TargetAttr : AttrDef<Brrr_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU a module is compiled for, and the facts of it that "
                "passes read";
  let description = [{
    Set once on the module (`brrr.target`) from `brrrc --target`, resolved
    from the table of known chips (`TargetAttr::known`); every pass that
    depends on the GPU reads it here, and a test pins it in the IR:
    - `chip`: the name ptxas assembles for (`sm_90a`, `sm_80`);
    - `capability`: the compute capability the code needs, major * 10 +
      minor;
    - `multiprocessors`: the streaming multiprocessors one wave of blocks
      fills;
    - `shared_per_block`: the bytes of shared memory one block may use;
    - `shared_per_multiprocessor`: the bytes of shared memory of one
      multiprocessor, shared by its resident blocks;
    - `tensor_cores`: `mma_sync` (warp-level, sm_80) or `wgmma`
      (warpgroup-level, fed from shared memory, sm_90a);
    - `features`: `arch_specific` (the code runs only on that exact chip,
      from its cubin), `tma` (tensor-memory-accelerator copies),
      `clusters` (thread-block clusters and distributed shared memory),
      `grid_dependency` (programmatic dependent launches).

    Without the attribute, passes assume a GPU of 108 multiprocessors that
    grants 48 KiB of shared memory per block, with mma_sync Tensor Cores
    and no features (`TargetAttr::untargeted`).

    Example:

    ```mlir
    module attributes {brrr.target = #brrr.target<chip = "sm_90a",
        capability = 90, multiprocessors = 132, shared_per_block = 232448,
        shared_per_multiprocessor = 233472, tensor_cores = wgmma,
        features = [arch_specific, tma, clusters, grid_dependency]>} {}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the chip ptxas assembles for">:$chip,
    "int64_t":$capability,
    "int64_t":$multiprocessors,
    "int64_t":$shared_per_block,
    "int64_t":$shared_per_multiprocessor,
    EnumParameter<Brrr_TensorCoresAttr>:$tensor_cores,
    Brrr_FeaturesParameter:$features
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The known chip `chip` (`brrrc --target`), or failure.
    static ::mlir::FailureOr<TargetAttr> known(::mlir::MLIRContext *context,
                                               ::llvm::StringRef chip);
    /// The names of the known chips, for diagnostics: "sm_90a, sm_80".
    static std::string knownNames();
    /// What passes assume of a module compiled for no target.
    static TargetAttr untargeted(::mlir::MLIRContext *context);
    /// Whether the target has feature `f`.
    bool has(TargetFeature f) const {
      return ::llvm::is_contained(getFeatures(), f);
    }
    /// Whether it runs the Hopper body: wgmma fed by TMA.
    bool hasWgmma() const {
      return getTensorCores() == TensorCores::wgmma && has(TargetFeature::tma);
    }
  }];
}

def Brrr_DimAttr : AttrDef<Brrr_Dialect, "Dim"> {
  let mnemonic = "dim";
  let summary = "a symbolic dimension and the range of extents it takes";
  let description = [{
    One entry of the module's `brrr.dims` list: a dimension of the graph
    inputs that is fixed only at run time, by its `name` (the ONNX
    `dim_param`, or `INPUT.AXIS` for an unnamed one) and the inclusive range
    `min` to `max` that `brrrc --input-shape NAME=MIN..MAX` declared for it.
    Every input dimension of the same name is the same symbol. A
    `#brrr.extents` encoding refers to entry `i` of the list as `s<i>`.

    Example:

    ```mlir
    module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>,
                                    #brrr.dim<"sequence", 1, 512>]} {}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the dimension's name">:$name,
    "int64_t":$min,
    "int64_t":$max
  );
  let assemblyFormat = "`<` $name `,` $min `,` $max `>`";
  let genVerifyDecl = 1;
}

def Brrr_ExtentsAttr : AttrDef<Brrr_Dialect, "Extents",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "extents";
  let summary = "the extents of a tensor with symbolic dimensions";
  let description = [{
    The encoding of a ranked tensor type with `?` dimensions: one result of
    `map` per dimension, a constant where the dimension is static and an
    expression of the module's symbolic dimensions (`brrr.dims`, as the
    map's symbols s0, s1, ...) where it is `?`. Shape inference carries
    the expressions: a batch that stays a batch keeps `s0`, a flattened
    batch and sequence is `s0 * s1`, a two-by-two pooling of a symbolic
    height `s0 floordiv 2`. Tensors of equal extents have equal types.

    Example, BERT's activations for a batch and a sequence of tokens:

    ```mlir
    tensor<?x?x768xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>
    ```
  }];
  let parameters = (ins "::mlir::AffineMap":$map);
  let assemblyFormat = "`<` $map `>`";
}

def Brrr_SharedBufferAttr : AttrDef<Brrr_Dialect, "SharedBuffer"> {
  let mnemonic = "buffer";
  let summary = "one placed buffer of a kernel's shared memory";
  let description = [{
    A buffer of the block's dynamic shared memory, as
    `brrr-plan-shared-memory` placed it: what it holds (`role`), which of
    that role's buffers it is (`index`: the stage of a staged operand
    slice, key or value block, the reduction of a row kernel's scratch),
    its byte `offset` and its `bytes`. The roles: `a`, `b` (a product's
    k-slices of A and B, one per stage), `partials` (a reduction's or a
    cluster split's partial results), `barriers` (the wgmma body's
    mbarriers), `epilogue` (its output staging), `query`, `key`, `value`,
    `output` (attention's blocks), `reduction` (a row kernel's
    per-warp scratch).

    Example:

    ```mlir
    #brrr.buffer<role = b, index = 2, offset = 48128, bytes = 8704>
    ```
  }];
  let parameters = (ins
    EnumParameter<Brrr_SharedRoleAttr>:$role,
    DefaultValuedParameter<"int64_t", "0">:$index,
    "int64_t":$offset,
    "int64_t":$bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Brrr_SharedPlanAttr : AttrDef<Brrr_Dialect, "SharedPlan"> {
  let mnemonic = "shared";
  let summary = "a kernel's shared-memory plan";
  let description = [{
    Recorded on each `brrr.fusion` (`brrr.shared`) by
    `brrr-plan-shared-memory` and only read afterwards: the placed
    `buffers` (`#brrr.buffer`, at most one per role and index) and the
    `bytes` of dynamic shared memory the kernel is launched with.

    Example:

    ```mlir
    #brrr.shared<buffers = [#brrr.buffer<role = reduction, offset = 0, bytes = 32>,
                            #brrr.buffer<role = reduction, index = 1, offset = 32, bytes = 32>],
                 bytes = 64>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$buffers, "int64_t":$bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The buffer of `role` and `index`, or null.
    SharedBufferAttr find(SharedRole role, int64_t index = 0) const;
  }];
}

def Brrr_PlacementAttr : AttrDef<Brrr_Dialect, "Placement"> {
  let mnemonic = "placement";
  let summary = "where one tensor lies in the model's global memory";
  let description = [{
    Recorded by `brrr-plan-global-memory` (`brrr.memory`: one per result of
    a `brrr.fusion`, one on a `brrr.constant`) and read by the artifact
    writer: the tensor's `storage` (`weight`: the weight block, `arena`:
    the intermediates' arena, `output`: the caller's output buffer, at
    offset 0), its byte `offset` there and its `bytes`.

    Example:

    ```mlir
    #brrr.placement<storage = arena, offset = 4096, bytes = 8192>
    ```
  }];
  let parameters = (ins
    EnumParameter<Brrr_BufferStorageAttr>:$storage,
    "int64_t":$offset,
    "int64_t":$bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Brrr_IndexCheckAttr : AttrDef<Brrr_Dialect, "IndexCheck"> {
  let mnemonic = "index_check";
  let summary = "a kernel's run-time check of the indices it reads";
  let description = [{
    Recorded on each index-driven `brrr.fusion` (`brrr.index_check`) by
    `brrr-check-indices`: the kernel checks every index it reads against
    the extent of the axis it indexes (valid from -extent to extent - 1)
    and, on the first one out of range, writes check `id`, the axis, the
    extent and the value into the run's error record (its last
    parameter). The artifact's check table maps `id` back to the ONNX
    `node` and the index `op` by its ONNX name (the node may be larger: a
    loss reads its targets through a GatherElements) for the runtime's
    message. A kernel without the attribute does not check; it clamps
    every read into range and never writes outside its output either way.

    Example:

    ```mlir
    #brrr.index_check<id = 0, node = "/embeddings/word_embeddings/Gather", op = "Gather">
    ```
  }];
  let parameters = (ins
    "int64_t":$id,
    "::mlir::StringAttr":$node,
    "::mlir::StringAttr":$op
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // BRRR_DIALECT_TD
