//===- PointwiseReads.h - a pointwise body on one output vector -*- C++ -*-===//
//
// The values a pointwise kernel computes for one vector of consecutive
// output elements. Its body holds pointwise ops and the data movement that
// brrr-fuse-elementwise read through (reshapes, transposes, slices,
// expands, pads, concatenations): each value is computed where it is
// needed, at the kernel's own elements or at the coordinates a movement op
// maps them to, and every kernel input is loaded where some value reads
// it. A vector of lanes that stays in one row of the innermost dimension
// through the movement ops (a transpose that keeps it, a slice of unit
// step, a concatenation of parts that are whole vectors) is loaded with one
// vector load; otherwise each lane is loaded alone.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_POINTWISEREADS_H
#define BRRR_COMPILER_CODEGEN_POINTWISEREADS_H

#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include <map>
#include <vector>

namespace mlir::brrr {

/// How the lanes of one output vector read a value of the body: `own`, the
/// kernel's own elements (broadcast into the value's shape); `uniform`, one
/// element for every lane; `contiguous`, lane 0's coordinates with the
/// other lanes after it in the same row (`aligned` when lane 0's innermost
/// coordinate is a multiple of the vector width); `perLane`, one set of
/// coordinates per lane.
struct LaneAccess {
  enum Kind { own, uniform, contiguous, perLane };
  Kind kind = own;
  SmallVector<SmallVector<Value>> coords;
  bool aligned = false;
};

/// Computes the values of a pointwise fusion body for the `vec` output
/// elements from row-major index `first` (an index value) of a kernel of
/// output `shape` whose buffers are `entry`'s arguments (the body's
/// arguments first).
class VectorReads {
public:
  /// `indexType`: the integer type coordinates are computed in (i32 where
  /// every tensor of the body fits, else index); `moves`: whether the body
  /// holds data movement (its reads then need the kernel's coordinates).
  /// `extentValue`, where given, is the value (an index) of a symbolic
  /// extent, which a `brrr.symbolic_constant` in the body reads.
  /// `runtimeIndex`, where given, is the index in an argument that
  /// broadcasts along part of the kernel's symbolic extents of the element
  /// that broadcasts to output element `linear` (computed from the actual
  /// extents), or null for any other argument; `wholeRows` says whether a
  /// vector of lanes stays in one row of the output at every shape.
  VectorReads(
      OpBuilder &b, Location loc, Block &entry, ArrayRef<int64_t> shape,
      int64_t vec, Value first, Type indexType, bool moves,
      llvm::function_ref<Value(BlockArgument, Value)> runtimeIndex = nullptr,
      bool wholeRows = true,
      llvm::function_ref<Value(AffineExpr)> extentValue = nullptr);

  /// The lanes of body value `v` at the kernel's own elements, in compute
  /// type.
  FailureOr<SmallVector<Value>> own(Value v) { return eval(v, LaneAccess()); }

  /// Loads every argument of `body` that `own` reads at the kernel's own
  /// elements (through pointwise ops only), so that `own` finds them
  /// loaded. A kernel that computes several vectors calls this for each
  /// before computing any, so that all their loads are issued ahead of the
  /// math (a math function's slow path is a branch that the loads of later
  /// vectors would otherwise wait behind).
  LogicalResult loadInputs(Block &body);

private:
  FailureOr<SmallVector<Value>> eval(Value v, const LaneAccess &a);
  FailureOr<SmallVector<Value>> load(BlockArgument arg, const LaneAccess &a);
  FailureOr<SmallVector<Value>> indexMap(Operation *op, const LaneAccess &a);
  FailureOr<SmallVector<Value>> concat(ConcatOp c, const LaneAccess &a);

  /// `a` in coordinates of a value of `to`'s shape (an own access becomes
  /// coordinates).
  LaneAccess coordinatesIn(const LaneAccess &a, ArrayRef<int64_t> to);
  /// `a`, an access of a value of shape `from`, for an operand of shape
  /// `to` that broadcasts to it (numpy rules).
  LaneAccess broadcast(const LaneAccess &a, ArrayRef<int64_t> from,
                       ArrayRef<int64_t> to);
  /// `a` (coordinates in a value of `shape`) as one set per lane.
  LaneAccess perLane(const LaneAccess &a);
  /// The element at `coords` of a value of shape `from` that element
  /// `coords` of a value of shape `to` broadcasts from.
  SmallVector<Value> broadcastCoords(ArrayRef<Value> coords,
                                     ArrayRef<int64_t> from,
                                     ArrayRef<int64_t> to);
  /// One scalar of element type `et` of `base` at row-major `index`.
  Value loadScalar(Value base, Type et, Value index);

  OpBuilder &b;
  Location loc;
  Block &entry;
  SmallVector<int64_t> shape;
  int64_t vec;
  Value first;
  llvm::function_ref<Value(BlockArgument, Value)> runtimeIndex;
  bool wholeRows;
  llvm::function_ref<Value(AffineExpr)> extentValue;
  IndexMath im;
  pointwise::PointwiseEmitter pe;
  /// The kernel's own coordinates: of lane 0, and of each lane (when a
  /// vector may cross rows); computed up front, so that they dominate every
  /// branch that uses them.
  SmallVector<Value> ownCoords;
  SmallVector<SmallVector<Value>> ownLanes;
  /// Values already computed, keyed by value and access, for the region
  /// being emitted.
  std::map<std::vector<const void *>, SmallVector<Value>> memo;
  bool broken = false;
};

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_POINTWISEREADS_H
