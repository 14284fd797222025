//===- EightBitProducts.h - the 8-bit form of a product ---------*- C++ -*-===//
//
// What brrr-quantized-products (a QDQ model's products) and
// brrr-quantize-calibrated (a float model's, from calibration) both write:
// a matmul of an 8-bit activation and an 8-bit constant weight stored
// K-major, its scales one f32 constant applied in the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_PRECISION_EIGHTBITPRODUCTS_H
#define BRRR_PASSES_PRECISION_EIGHTBITPRODUCTS_H

#include "dialects/Brrr/BrrrOps.h"

#include <optional>
#include <vector>

namespace mlir::brrr {

/// Replaces `mm` (erased) by
///
///   cast(matmul(activation - zeroPoint, transpose(W')) * (sa * sw[n]))
///
/// with `activation` INT8 or FLOAT8E4M3FN, W' the N x K matrix `kMajor` of
/// `weightType` (the same 8-bit type; INT8 for an INT8 activation) stored
/// as a blob, `sw` one scale per output column and the cast to `mm`'s type.
/// The zero point's correction is z times each column's sum of W', a
/// constant subtracted before the scales.
void replaceWithEightBitProduct(MatmulOp mm, Value activation, double zeroPoint,
                                double activationScale,
                                ArrayRef<double> weightScales, Type weightType,
                                ArrayRef<char> kMajor, int64_t N, int64_t K);

/// The bytes of an 8-bit constant, one per element (a splat expanded).
std::optional<std::vector<char>> eightBitBytes(ElementsAttr attr);

/// The constant K-major 8-bit weight W' (N x K) of a product
/// replaceWithEightBitProduct wrote, read through its transpose, or null if
/// `mm` is not one.
ElementsAttr eightBitWeightOf(MatmulOp mm);

/// The N x K 8-bit matrix `kMajor` of `type` as a constant blob named
/// after `name`, viewed K x N through a transpose: how an 8-bit product
/// reads its weight.
Value kMajorWeightView(OpBuilder &b, Location loc, ArrayRef<char> kMajor,
                       int64_t N, int64_t K, Type type, StringRef name);

} // namespace mlir::brrr

#endif // BRRR_PASSES_PRECISION_EIGHTBITPRODUCTS_H
