//===- ChannelsLast.h - brrr-channels-last's parts --------------*- C++ -*-===//
//
// What brrr-channels-last (ChannelsLast.cpp) shares with its part that
// widens convolutions into the pads after them (WidenIntoPad.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_LAYOUT_CHANNELSLAST_H
#define BRRR_PASSES_LAYOUT_CHANNELSLAST_H

#include "dialects/Brrr/BrrrOps.h"

namespace mlir::brrr::layout {

/// Whether `t` holds one element at every shape.
inline bool isOneElement(RankedTensorType t) {
  return t.hasStaticShape() && t.getNumElements() == 1;
}

/// A zero pad of a channels-last tensor's channels that only convolutions
/// read, multiplying the padding by zero weights, of a channels-last
/// convolution with constant weights through pointwise ops that keep zeros
/// finite: the convolution computes the padded channels itself, with zero
/// weights and bias, and the pad goes. EfficientNet-B0's squeeze-and-
/// excitation blocks padded their 4 to 28 squeezed channels to 16 to 32
/// (TMA reads 16-byte rows) in a data-movement kernel each. A depthwise
/// convolution widens with the convolution before it: ShuffleNetV2-x2.0's
/// branches of 122 and 244 channels padded the depthwise convolution's
/// output to 128 and 248 for the 1x1 convolution after it.
void widenIntoPad(PadOp pad);

} // namespace mlir::brrr::layout

#endif // BRRR_PASSES_LAYOUT_CHANNELSLAST_H
