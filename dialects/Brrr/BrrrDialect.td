//===- BrrrDialect.td - the brrr tensor graph dialect -------*- tablegen -*-===//
//
// The `brrr` dialect is the tensor-level graph IR that the ONNX importer
// produces and that every brrr pass consumes. Values are statically shaped
// ranked tensors of builtin element types; ops follow ONNX/numpy semantics
// (numpy broadcasting, NCHW convolutions) with every attribute normalized at
// import (non-negative axes, explicit pads, full-rank slice parameters), so
// later passes never re-derive ONNX defaults.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_DIALECT_TD
#define BRRR_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Brrr_Dialect : Dialect {
  let name = "brrr";
  let cppNamespace = "::mlir::brrr";
  let summary = "Statically shaped tensor graph IR for the brrr compiler";
  let description = [{
    The `brrr` dialect models a neural network as a graph of tensor ops with
    static shapes, between ONNX import and kernel generation. Composite ops
    (softmax, layer norm, GELU, batch norm) stay named so that decomposition
    and fusion passes decide how to lower them; weights are builtin
    `dense_resource` constants so they never bloat printed IR.
  }];
  let hasConstantMaterializer = 1;
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

#endif // BRRR_DIALECT_TD
