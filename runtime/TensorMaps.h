//===- TensorMaps.h - a context's TMA tensor maps ---------------*- C++ -*-===//
//
// Kernels that copy tiles with the Tensor Memory Accelerator take CUtensorMap
// parameters: 128-byte descriptors that the driver encodes from a global
// address, the tensor's extents and strides, and what one copy moves: a box
// (cuTensorMapEncodeTiled) or, for a convolution reading NHWC activations, a
// column of im2col pixels (cuTensorMapEncodeIm2col). The artifact records
// all of it but
// the address (artifact::TensorMap), so a context encodes each map once the
// address is known: when it is created for maps over weights and the arena,
// and on each run whose buffers moved for maps over the caller's inputs and
// outputs. A captured graph holds copies of the maps it was captured with;
// Context.cpp re-captures whenever the caller's buffers change, which is
// exactly when maps over them are re-encoded.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_TENSORMAPS_H
#define BRRR_RUNTIME_TENSORMAPS_H

#include "runtime/Runtime.h"

namespace brrr::runtime {

/// The driver's element type for maps over tensors of dtype `t`. TMA moves
/// bytes without converting them, so the integer types it lacks (signed 8-
/// and 16-bit) and bool travel as the unsigned type of their width.
CUtensorMapDataType tensorMapDataType(artifact::DType t);

/// Fails with BRRR_ERROR_NO_DRIVER when `m`'s kernels take tensor maps of a
/// mode its driver cannot encode.
brrr_status checkTensorMapSupport(const brrr_model &m);

/// Sizes `c.maps` (launch by launch, `c.firstMap[i]` the first of launch
/// i) and lists the maps over the caller's buffers in `c.mapPatches`.
/// Called once, before `c.params` points into `c.maps`.
void resolveTensorMaps(brrr_context &c);

/// Encodes the maps over weights and the arena, whose addresses are fixed
/// for the life of the context.
brrr_status encodeFixedTensorMaps(brrr_context &c);

/// Encodes the maps with symbolic extents (`TensorMap::dimExprs`) at the
/// context's bound shapes (`c.exprValues`): those over weights and the
/// arena at once, those over the caller's buffers at the next
/// bindTensorMaps. `fn` prefixes messages.
brrr_status encodeShapedTensorMaps(brrr_context &c, const char *fn);

/// Re-encodes the maps over the caller's buffers whose address changed
/// since they were last encoded.
brrr_status bindTensorMaps(brrr_context &c, const void *const *inputs,
                           void *const *outputs);

} // namespace brrr::runtime

#endif // BRRR_RUNTIME_TENSORMAPS_H
